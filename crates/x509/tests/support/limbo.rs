//! The x509-limbo harness logic (HARNESS.md), shared by `examples/limbo.rs` and
//! `tests/limbo.rs`: one JSON suite in, one JSON result document out.

use burrow_x509::{
    certificates_from_pem, parse_rfc3339, Outcome, ServerCertificates, ServerName,
    SignatureVerifier, Trust, Verifier,
};
use serde_json::{json, Value};

/// Features we answer SKIPPED, each with the reason.
const SKIPPED_FEATURES: &[(&str, &str)] =
    &[("has-crl", "CRLs are not supported (stapled OCSP only)")];

/// One case's answer: ("SUCCESS" | "FAILURE" | "SKIPPED", context).
pub(crate) fn run_case(
    tc: &Value,
    sigs: &dyn SignatureVerifier,
    now: i64,
) -> (&'static str, Option<String>) {
    let features: Vec<&str> = tc["features"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (f, why) in SKIPPED_FEATURES {
        if features.contains(f) {
            return ("SKIPPED", Some(format!("feature {f}: {why}")));
        }
    }
    if tc["validation_kind"].as_str() != Some("SERVER") {
        return (
            "SKIPPED",
            Some("only SERVER validation is supported".into()),
        );
    }
    let name = match &tc["expected_peer_name"] {
        Value::Null => {
            return (
                "SKIPPED",
                Some("no expected peer name: a TLS client always has one".into()),
            )
        }
        v => match (v["kind"].as_str(), v["value"].as_str()) {
            (Some("DNS" | "IP"), Some(s)) => match ServerName::parse(s) {
                Ok(n) => n,
                Err(e) => return ("FAILURE", Some(format!("{}: {e}", e.code()))),
            },
            (kind, _) => {
                return (
                    "SKIPPED",
                    Some(format!("peer name kind {kind:?} unsupported")),
                )
            }
        },
    };
    let time = match tc["validation_time"].as_str() {
        Some(t) => match parse_rfc3339(t) {
            Some(t) => t,
            None => return ("SKIPPED", Some(format!("unparseable validation_time {t}"))),
        },
        None => now,
    };
    let pem_list = |key: &str| -> Vec<Vec<u8>> {
        tc[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .flat_map(|p| certificates_from_pem(p.as_bytes()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default()
    };
    let anchors = pem_list("trusted_certs");
    let inters = pem_list("untrusted_intermediates");
    let leaf = certificates_from_pem(tc["peer_certificate"].as_str().unwrap_or("").as_bytes())
        .unwrap_or_default();
    let Some(leaf) = leaf.into_iter().next() else {
        return ("FAILURE", Some("no peer certificate".into()));
    };
    let anchor_refs: Vec<&[u8]> = anchors.iter().map(Vec::as_slice).collect();
    let trust = match Trust::anchors_der(&anchor_refs) {
        Ok(t) => t,
        Err(e) => return ("FAILURE", Some(format!("{}: {e}", e.code()))),
    };
    let mut v = Verifier::new(trust);
    if let Some(d) = tc["max_chain_depth"].as_u64() {
        v = v.max_intermediates(usize::try_from(d).unwrap_or(usize::MAX));
    }
    let mut ku_bits = 0u16;
    for k in tc["key_usage"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let bit = match k {
            "digitalSignature" => 0,
            "contentCommitment" => 1,
            "keyEncipherment" => 2,
            "dataEncipherment" => 3,
            "keyAgreement" => 4,
            "keyCertSign" => 5,
            "cRLSign" => 6,
            "encipherOnly" => 7,
            "decipherOnly" => 8,
            other => return ("SKIPPED", Some(format!("key usage {other} unknown"))),
        };
        ku_bits |= 1 << bit;
    }
    v = v.leaf_key_usage(ku_bits);
    for e in tc["extended_key_usage"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if e != "serverAuth" {
            return (
                "SKIPPED",
                Some(format!(
                    "extended key usage {e} not supported (serverAuth only)"
                )),
            );
        }
    }
    let mut chain: Vec<&[u8]> = vec![&leaf];
    chain.extend(inters.iter().map(Vec::as_slice));
    let certs = ServerCertificates {
        chain: &chain,
        ocsp_staple: None,
        now: time,
    };
    match v.verify(&certs, &name, sigs) {
        Ok(Outcome::Verified(_)) => ("SUCCESS", None),
        Ok(Outcome::Decide(_)) => ("FAILURE", Some("unexpected custom decision".into())),
        Err(e) => ("FAILURE", Some(format!("{}: {e}", e.code()))),
    }
}

/// Runs a whole suite document; returns the results document.
pub(crate) fn run_suite(suite: &Value, sigs: &dyn SignatureVerifier, now: i64) -> Value {
    let results: Vec<Value> = suite["testcases"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|tc| {
                    let (actual, context) = run_case(tc, sigs, now);
                    json!({"id": tc["id"], "actual_result": actual, "context": context})
                })
                .collect()
        })
        .unwrap_or_default();
    json!({"version": 1, "harness": "burrow-x509", "results": results})
}

/// The current time for cases without one (the harness, not the sans-IO core, reads the clock).
#[allow(clippy::disallowed_methods)]
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
