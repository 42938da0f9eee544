//! `response.burrow` (how a response was obtained) as one JSON text. The JS side keeps the text
//! and parses it the first time `response.burrow` is read: building the object property by
//! property from wasm cost ~25 calls across the boundary per response (0.04–0.09 ms in the
//! profiles of `bench/RESULTS.md`), paid by every response whether or not anyone looked.

use burrow_client::{ProxyScheme, ResponseMeta, StapleStatus, TlsInfo};

use crate::json::push_str;

/// The JSON text of `response.burrow`; the field names and values are the ones
/// `worker/js/burrow.d.mts` declares for `BurrowMeta`.
pub(crate) fn meta_json(m: &ResponseMeta) -> String {
    let mut out = String::with_capacity(512);
    out.push('{');
    key(&mut out, "proxied");
    match m.proxied {
        Some(p) => push_str(&mut out, proxy_name(p)),
        None => out.push_str("null"),
    }
    key(&mut out, "httpVersion");
    push_str(&mut out, m.http_version);
    key(&mut out, "tls");
    push_tls(&mut out, m.tls.as_ref());
    key(&mut out, "proxyTls");
    push_tls(&mut out, m.proxy_tls.as_ref());
    key(&mut out, "ocsp");
    match &m.tls {
        Some(t) => push_str(&mut out, ocsp_name(&t.ocsp)),
        None => out.push_str("null"),
    }
    key(&mut out, "reused");
    push_bool(&mut out, m.reused);
    key(&mut out, "retried");
    push_bool(&mut out, m.retried);
    key(&mut out, "redirects");
    push_int(&mut out, m.redirects);
    key(&mut out, "contentEncoding");
    match &m.content_encoding {
        Some(c) => push_str(&mut out, c),
        None => out.push_str("null"),
    }
    key(&mut out, "timings");
    out.push('{');
    for (name, ms) in [
        ("connect", m.timings.connect),
        ("proxy", m.timings.proxy),
        ("tls", m.timings.tls),
        ("ttfb", m.timings.ttfb),
        ("total", m.timings.total),
    ] {
        key(&mut out, name);
        push_int(&mut out, ms);
    }
    out.push_str("}}");
    out
}

/// The name `proxied` gives a proxy scheme.
fn proxy_name(p: ProxyScheme) -> &'static str {
    match p {
        ProxyScheme::Http => "http",
        ProxyScheme::Https => "https",
        ProxyScheme::Socks5 => "socks5",
        ProxyScheme::Socks5h => "socks5h",
    }
}

/// The name of a staple's status.
fn ocsp_name(s: &StapleStatus) -> &'static str {
    match s {
        StapleStatus::Good(_) => "good",
        StapleStatus::None => "none",
        StapleStatus::NotChecked => "not-checked",
    }
}

/// The IANA name of a suite, or "unknown".
fn suite_name(code: u16) -> &'static str {
    burrow_client::CipherSuite(code).name().unwrap_or("unknown")
}

/// The IANA name of a key exchange group, "none" (no key exchange) or "unknown".
fn group_name(code: u16) -> &'static str {
    if code == 0 {
        return "none";
    }
    burrow_client::NamedGroup(code).name().unwrap_or("unknown")
}

/// A `TlsMeta` object, or `null`.
fn push_tls(out: &mut String, t: Option<&TlsInfo>) {
    let Some(t) = t else {
        out.push_str("null");
        return;
    };
    out.push('{');
    key(out, "version");
    push_str(
        out,
        match t.version {
            0x0304 => "TLSv1.3",
            0x0303 => "TLSv1.2",
            _ => "unknown",
        },
    );
    key(out, "cipher");
    push_str(out, suite_name(t.cipher_suite));
    key(out, "cipherSuite");
    push_int(out, t.cipher_suite);
    key(out, "group");
    push_str(out, group_name(t.group));
    key(out, "groupId");
    push_int(out, t.group);
    key(out, "alpn");
    match &t.alpn {
        Some(a) => push_str(out, a),
        None => out.push_str("null"),
    }
    key(out, "resumed");
    push_bool(out, t.resumed);
    key(out, "extendedMasterSecret");
    match t.extended_master_secret {
        Some(b) => push_bool(out, b),
        None => out.push_str("null"),
    }
    key(out, "chain");
    out.push('[');
    for c in &t.peer_chain {
        if !out.ends_with('[') {
            out.push(',');
        }
        out.push('{');
        key(out, "subject");
        push_str(out, &c.subject_text());
        key(out, "issuer");
        push_str(out, &c.issuer_text());
        // A JS timestamp in milliseconds.
        key(out, "notAfter");
        push_int(out, c.not_after.saturating_mul(1000));
        out.push('}');
    }
    out.push(']');
    key(out, "ocsp");
    push_str(out, ocsp_name(&t.ocsp));
    out.push('}');
}

/// `"name":`, after a comma unless it is the object's first member.
fn key(out: &mut String, name: &str) {
    if !out.ends_with('{') {
        out.push(',');
    }
    push_str(out, name);
    out.push(':');
}

fn push_bool(out: &mut String, b: bool) {
    out.push_str(if b { "true" } else { "false" });
}

fn push_int(out: &mut String, n: impl std::fmt::Display) {
    use std::fmt::Write;
    let _ = write!(out, "{n}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_client::{CertSummary, Timings};

    #[test]
    fn a_plain_response_has_every_field_with_nulls() {
        let m = ResponseMeta {
            http_version: "HTTP/1.1",
            timings: Timings {
                connect: 1,
                proxy: 0,
                tls: 0,
                ttfb: 2,
                total: 3,
            },
            ..ResponseMeta::default()
        };
        assert_eq!(
            meta_json(&m),
            r#"{"proxied":null,"httpVersion":"HTTP/1.1","tls":null,"proxyTls":null,"ocsp":null,"reused":false,"retried":false,"redirects":0,"contentEncoding":null,"timings":{"connect":1,"proxy":0,"tls":0,"ttfb":2,"total":3}}"#
        );
    }

    #[test]
    fn tls_through_a_proxy_with_a_chain_and_text_to_escape() {
        let tls = TlsInfo {
            version: 0x0304,
            cipher_suite: 0x1301,
            group: 0x001d,
            alpn: Some("h2".into()),
            resumed: true,
            peer_chain: vec![CertSummary {
                // Name { CN = "a\"b" }
                subject: vec![
                    0x30, 0x0e, 0x31, 0x0c, 0x30, 0x0a, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x03,
                    b'a', b'"', b'b',
                ],
                issuer: vec![0x30, 0x00],
                not_after: 1_700_000_000,
            }],
            ocsp: StapleStatus::NotChecked,
            extended_master_secret: None,
            hello_retry: false,
            certificate: None,
            stapled_ocsp: None,
        };
        let m = ResponseMeta {
            tls: Some(tls),
            proxied: Some(ProxyScheme::Socks5h),
            http_version: "HTTP/2",
            redirects: 2,
            content_encoding: Some("gzip".into()),
            ..ResponseMeta::default()
        };
        let json = meta_json(&m);
        assert!(json.starts_with(r#"{"proxied":"socks5h","httpVersion":"HTTP/2","tls":{"version":"TLSv1.3","cipher":"TLS_AES_128_GCM_SHA256","cipherSuite":4865,"group":"x25519","groupId":29,"alpn":"h2","resumed":true,"extendedMasterSecret":null,"chain":[{"subject":"CN=a\"b","#), "{json}");
        assert!(
            json.contains(r#","notAfter":1700000000000}],"ocsp":"#),
            "{json}"
        );
        assert!(
            json.contains(r#""redirects":2,"contentEncoding":"gzip","#),
            "{json}"
        );
    }
}
