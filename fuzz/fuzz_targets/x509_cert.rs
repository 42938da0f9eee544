//! burrow-x509: certificate parsing, and (when it parses) full validation of the certificate
//! as its own anchor and leaf: path building, name constraints, host-name matching.
#![no_main]

use burrow_x509::{Certificate, CryptoVerifier, ServerCertificates, ServerName, Trust, Verifier};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(cert) = Certificate::from_der(data) else {
        return;
    };
    let _ = (
        cert.subject(),
        cert.issuer(),
        cert.serial(),
        cert.validity(),
    );
    let Ok(trust) = Trust::anchors_der(&[data]) else {
        return;
    };
    let chain = [data, data];
    let certs = ServerCertificates {
        chain: &chain,
        ocsp_staple: None,
        now: 1_700_000_000,
    };
    for host in ["example.com", "a.example.com", "127.0.0.1", "::1"] {
        if let Ok(name) = ServerName::parse(host) {
            let _ = Verifier::new(trust.clone()).verify(&certs, &name, &CryptoVerifier);
        }
    }
});
