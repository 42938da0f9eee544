//! The crypto offload seam against real servers: `burrow_client::InlineOffload` answers every
//! record AEAD and signature request through the same asynchronous protocol the Worker's
//! WebCrypto provider speaks (TrafficKey / NeedOpen / NeedSeal / NeedVerify + AnswerBook), and
//! counts what it did. Bodies are byte-exact against the peers' `sha256sums`, certificate
//! failures keep their codes, and the counters prove the work went through the provider.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;

use burrow_client::{Client, ClientConfig, InlineOffload, Offload, Proxy, Request, Trust};
use burrow_crypto::hash::{digest, HashAlgorithm};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

fn run<F: Future>(f: F) -> F::Output {
    burrow_native::block_on_local(f).unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn sums(p: &Peers) -> HashMap<String, String> {
    let text = std::fs::read_to_string(p.www().join("sha256sums")).unwrap();
    text.lines()
        .filter_map(|l| l.split_once("  "))
        .map(|(h, n)| (n.trim().to_string(), h.to_string()))
        .collect()
}

fn offloaded(p: &Peers, provider: &Rc<InlineOffload>, proxy: Option<String>) -> Client<TokioNet> {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.proxy_tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    let off = Offload(provider.clone());
    cfg.tls.offload = Some(off.clone());
    cfg.proxy_tls.offload = Some(off);
    cfg.proxy = proxy.map(|u| Proxy::parse(&u).unwrap());
    Client::new(TokioNet, cfg)
}

#[test]
fn every_suite_and_version_through_the_offload_seam() {
    let Some(p) = Peers::load("offload") else {
        return;
    };
    let sums = sums(&p);
    run(async {
        // (peer, expected version, expected suite; 0 = the profile's choice)
        let cases = [
            ("TLS13", 0x0304, 0),
            ("TLS13_AES256", 0x0304, 0x1302),
            ("TLS13_CHACHA", 0x0304, 0x1303),
            ("HRR", 0x0304, 0),
            ("TLS12", 0x0303, 0),
            ("RSA", 0x0304, 0),
            ("P384", 0x0304, 0),
            ("CADDY", 0x0304, 0),
        ];
        for (name, version, suite) in cases {
            let provider = Rc::new(InlineOffload::new());
            let c = offloaded(&p, &provider, None);
            let url = format!("https://localhost:{}/4m.bin", p.port(name));
            let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
            let body = r.bytes().await.unwrap();
            assert_eq!(r.status, 200, "{name}");
            assert_eq!(
                hex(digest(HashAlgorithm::Sha256, &body).as_ref()),
                sums["4m.bin"],
                "{name}: body differs"
            );
            let tls = r.meta.tls.clone().unwrap();
            assert_eq!(tls.version, version, "{name}");
            if suite != 0 {
                assert_eq!(tls.cipher_suite, suite, "{name}");
            }
            let n = provider.counts();
            // 4 MiB in ≤16 KiB records: at least 256 opens; the handshake's Finished is sealed;
            // the chain (leaf and intermediate) and the handshake signature were checked.
            assert!(n.opens >= 256, "{name}: {n:?}");
            assert!(n.seals >= 2, "{name}: {n:?}");
            assert!(n.keys >= 2, "{name}: {n:?}");
            assert!(n.verifies >= 2, "{name}: {n:?}");
        }
    });
}

#[test]
fn certificate_failures_keep_their_codes_under_offload() {
    let Some(p) = Peers::load("offload certificates") else {
        return;
    };
    run(async {
        for (name, code) in [
            ("EXPIRED", "CERT_EXPIRED"),
            ("WRONGHOST", "CERT_NAME_MISMATCH"),
            ("SELFSIGNED", "CERT_UNTRUSTED"),
            ("STAPLE_REVOKED", "OCSP_REVOKED"),
        ] {
            let provider = Rc::new(InlineOffload::new());
            let c = offloaded(&p, &provider, None);
            let url = format!("https://localhost:{}/1k", p.port(name));
            let e = c.fetch(Request::get(&url).unwrap()).await.unwrap_err();
            assert_eq!(e.code(), code, "{name}: {e}");
        }
    });
}

#[test]
fn tls_in_tls_through_the_https_proxy_under_offload() {
    let Some(p) = Peers::load("offload https proxy") else {
        return;
    };
    let sums = sums(&p);
    run(async {
        let provider = Rc::new(InlineOffload::new());
        let proxy = format!(
            "https://{}:{}@localhost:{}",
            p.var("PEERS_PROXY_USER").unwrap(),
            p.var("PEERS_PROXY_PASS").unwrap(),
            p.port("HTTPS_PROXY_AUTH")
        );
        let c = offloaded(&p, &provider, Some(proxy));
        let url = format!("https://localhost:{}/1m.bin", p.port("DEF"));
        let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
        let body = r.bytes().await.unwrap();
        assert_eq!(
            hex(digest(HashAlgorithm::Sha256, &body).as_ref()),
            sums["1m.bin"]
        );
        assert!(r.meta.proxy_tls.is_some());
        // Both TLS sessions went through the provider: two sets of keys at least.
        assert!(provider.counts().keys >= 4, "{:?}", provider.counts());
    });
}

/// Answers every signature "bad" and does records inline: the handshake must fail with the
/// signature's own code, never succeed.
struct RejectsSignatures(InlineOffload);

impl burrow_client::CryptoOffload for RejectsSignatures {
    fn offloads_records(&self) -> bool {
        true
    }
    fn offloads_signatures(&self) -> bool {
        true
    }
    fn import_key<'a>(
        &'a self,
        algorithm: burrow_crypto::aead::AeadAlgorithm,
        key: &'a [u8],
    ) -> burrow_client::LocalFuture<'a, std::io::Result<Rc<dyn burrow_client::RecordKey>>> {
        self.0.import_key(algorithm, key)
    }
    fn verify<'a>(
        &'a self,
        _: burrow_crypto::sig::VerifyAlgorithm,
        _: &'a [u8],
        _: &'a [u8],
        _: &'a [u8],
    ) -> burrow_client::LocalFuture<'a, Result<(), burrow_crypto::CryptoError>> {
        Box::pin(async { Err(burrow_crypto::CryptoError::BadSignature) })
    }
}

#[test]
fn a_signature_the_provider_refuses_fails_the_handshake() {
    let Some(p) = Peers::load("offload refused signatures") else {
        return;
    };
    run(async {
        for (name, code) in [
            ("TLS13", "TLS_BAD_CERTIFICATE_VERIFY"),
            ("TLS12", "TLS12_BAD_KEY_EXCHANGE_SIGNATURE"),
        ] {
            let mut cfg = ClientConfig::default();
            cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
            cfg.tls.offload = Some(Offload(Rc::new(RejectsSignatures(InlineOffload::new()))));
            let c = Client::new(TokioNet, cfg);
            let url = format!("https://localhost:{}/1k", p.port(name));
            let e = c.fetch(Request::get(&url).unwrap()).await.unwrap_err();
            assert_eq!(e.code(), code, "{name}: {e}");
        }
    });
}
