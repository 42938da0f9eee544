//! Against the running peers (../shared/peers): a TEST-ONLY rustls client whose certificate
//! verifier is burrow-x509 (anchor = the peers' root, name "localhost", staple = what the
//! server stapled). rustls only checks the handshake signature. Expectations come from
//! peers.env (`EXPECT`, `STAPLE`), not from this file.

#![cfg(not(target_arch = "wasm32"))] // files, sockets and ring: native only
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
// test code
#![allow(clippy::disallowed_methods)]
// the interop test reads the real clock for `now`

mod support;

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use burrow_testkit::peers::Peers;
use burrow_x509::{
    Outcome, ServerCertificates, ServerName, StapleStatus, Trust, Verified, Verifier,
};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName as RustlsName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

type Slot = Arc<Mutex<Option<Result<Verified, burrow_x509::Error>>>>;

#[derive(Debug)]
struct BurrowVerifier {
    verifier: Verifier,
    provider: Arc<CryptoProvider>,
    result: Slot,
}

impl ServerCertVerifier for BurrowVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &RustlsName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let mut chain: Vec<&[u8]> = vec![end_entity.as_ref()];
        chain.extend(intermediates.iter().map(|c| c.as_ref()));
        let certs = ServerCertificates {
            chain: &chain,
            ocsp_staple: (!ocsp_response.is_empty()).then_some(ocsp_response),
            now: i64::try_from(now.as_secs()).unwrap(),
        };
        let name = ServerName::parse("localhost").unwrap();
        let r = match self.verifier.verify(&certs, &name, &support::verifier()) {
            Ok(Outcome::Verified(v)) => Ok(v),
            Ok(Outcome::Decide(_)) => unreachable!("anchors trust never asks"),
            Err(e) => Err(e),
        };
        let out = match &r {
            Ok(_) => Ok(ServerCertVerified::assertion()),
            Err(e) => Err(rustls::Error::General(e.code().to_string())),
        };
        *self.result.lock().unwrap() = Some(r);
        out
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// Handshakes with peer `name`; returns burrow-x509's verdict and whether the handshake completed.
fn connect(peers: &Peers, name: &str) -> (Result<Verified, burrow_x509::Error>, bool) {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let slot: Slot = Arc::default();
    let verifier = BurrowVerifier {
        verifier: Verifier::new(Trust::anchors_pem(&peers.ca_pem()).unwrap()),
        provider: provider.clone(),
        result: slot.clone(),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    let mut conn =
        rustls::ClientConnection::new(Arc::new(config), RustlsName::try_from("localhost").unwrap())
            .unwrap();
    let mut sock = TcpStream::connect(("127.0.0.1", peers.port(name)))
        .unwrap_or_else(|e| panic!("{name}: connecting to port {}: {e}", peers.port(name)));
    sock.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut done = true;
    while conn.is_handshaking() {
        if conn.complete_io(&mut sock).is_err() {
            done = false;
            break;
        }
    }
    let _ = sock.flush();
    let verdict =
        slot.lock().unwrap().take().unwrap_or_else(|| {
            panic!("{name}: the handshake never reached certificate verification")
        });
    (verdict, done)
}

const PORTS: &[&str] = &[
    "EXPIRED",
    "NOTYET",
    "WRONGHOST",
    "SELFSIGNED",
    "STAPLE_REVOKED",
    "STAPLE_MISMATCH",
    "STAPLE_GOOD",
    "P384",
    "RSA",
    "DEF",
    "TLS12",
    "GNUTLS",
];

#[test]
fn peers_certificates_and_staples() {
    let Some(peers) = Peers::load("x509 peers") else {
        return;
    };
    let mut report = Vec::new();
    for &name in PORTS {
        let expect = peers
            .prop(name, "EXPECT")
            .unwrap_or_else(|| panic!("{name}: no EXPECT"));
        let staple = peers
            .prop(name, "STAPLE")
            .unwrap_or_else(|| panic!("{name}: no STAPLE"));
        let want_code = match (expect, staple) {
            ("ok", "revoked") => Some("OCSP_REVOKED".to_string()),
            ("ok", "wrong_cert") => Some("OCSP_MISMATCH".to_string()),
            ("ok", _) => None,
            (e, _) => Some(e.to_ascii_uppercase()),
        };
        let (verdict, completed) = connect(&peers, name);
        match (&want_code, &verdict) {
            (None, Ok(v)) => {
                assert!(completed, "{name}: verified but handshake failed");
                match staple {
                    "good" => assert!(
                        matches!(v.staple, StapleStatus::Good(_)),
                        "{name}: staple {:?}",
                        v.staple
                    ),
                    "none" => assert_eq!(v.staple, StapleStatus::None, "{name}"),
                    other => panic!("{name}: unexpected STAPLE {other}"),
                }
                report.push(format!("{name}: ok, staple {:?}", v.staple));
            }
            (Some(code), Err(e)) => {
                assert_eq!(e.code(), code, "{name}: {e}");
                assert!(!completed, "{name}: handshake completed despite {code}");
                report.push(format!("{name}: {code}"));
            }
            _ => panic!("{name}: expected {want_code:?}, got {verdict:?}"),
        }
    }
    eprintln!("{}", report.join("\n"));
}
