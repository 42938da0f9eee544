//! burrow-x509: certificate parsing, path building and validation, host-name checks, trust
//! modes and stapled OCSP for the burrow TLS client.
//!
//! Sans-IO: the validation time is an argument, nothing is fetched, and every signature check
//! is a plain-data [`SignatureRequest`] answered by a [`SignatureVerifier`] the caller passes
//! (inline with burrow-crypto natively, or by WebCrypto in a Worker).
//!
//! ```text
//! let v = Verifier::new(Trust::system());
//! match v.verify(&ServerCertificates { chain, ocsp_staple, now }, &ServerName::parse(host)?, &sigs)? {
//!     Outcome::Verified(ok) => ..., // ok.staple: Good / None
//!     Outcome::Decide(req) => ...,  // Trust::custom(): answer req.accept() / req.reject()
//! }
//! ```
//!
//! Policy decisions (see README.md): no Common Name fallback; wildcards only as the whole
//! leftmost label, one label deep, with at least two labels after; anyExtendedKeyUsage does not
//! satisfy serverAuth on the leaf (it does on CAs); certificate policies are parsed but not
//! enforced (policyConstraints must be critical); unknown critical extensions reject.

mod alg;
mod answers;
mod cert;
mod chain_cache;
mod constraints;
mod crypto_verifier;
mod error;
mod ext;
mod general_name;
mod names;
mod ocsp;
mod oid;
mod path;
mod pem;
mod pins;
mod time;
mod trust;
mod verify;

/// The integration tests' DER writer, shared with the unit tests.
#[cfg(test)]
#[path = "../tests/support/der.rs"]
#[allow(dead_code, unreachable_pub, clippy::arithmetic_side_effects)]
mod test_der;

pub use alg::{SignatureAlgorithm, SignatureFailure, SignatureRequest, SignatureVerifier};
pub use answers::{AnswerBook, OwnedSignatureRequest, MAX_ANSWER_ROUNDS};
pub use cert::{Certificate, MAX_CERT_LEN};
pub use chain_cache::{ChainCache, ChainCacheStats, MAX_CACHED_CHAINS};
pub use crypto_verifier::{verify_algorithm, CryptoVerifier};
pub use error::{Error, ParseContext};
pub use ext::{MAX_NAME_CONSTRAINTS, MAX_SAN_NAMES};
pub use names::ServerName;
pub use ocsp::{
    OcspGood, OcspResponse, MAX_OCSP_LEN, OCSP_MAX_AGE_WITHOUT_NEXT_UPDATE, OCSP_SKEW_SECS,
};
pub use path::{MAX_INTERMEDIATES, MAX_NAME_COMPARISONS, MAX_PATH_STEPS, MAX_SIGNATURE_CHECKS};
pub use pem::{certificates_from_pem, MAX_PEM_BLOCKS};
pub use pins::{format_pin, parse_pin, spki_sha256, SeenPins, SpkiHash, MAX_SEEN_PINS};
pub use time::{parse_rfc3339, UnixTime};
pub use trust::Trust;
pub use verify::{
    CustomRequest, Outcome, Revocation, ServerCertificates, StapleStatus, Verified, Verifier,
    MAX_PRESENTED_CERTS,
};

/// Startup-cost probes for tests and benches: how much of the system store is decoded.
#[doc(hidden)]
pub mod probe {
    /// (bundled roots, roots parsed so far).
    pub fn system_roots_parsed() -> (usize, usize) {
        let r = crate::trust::system_roots();
        (r.len(), r.parsed_count())
    }

    /// Every bundled root parsed as a trust anchor (all of them, now): index, subject DER, and
    /// why it is refused (`None`: usable). A refused root would silently never anchor a chain,
    /// so the test suite asserts there are none.
    pub fn audit_system_roots() -> Vec<(usize, Vec<u8>, Option<crate::Error>)> {
        crate::trust::audit_system_roots()
    }

    /// The bundled root with this subject DER, as system trust parses it (`None`: absent or
    /// refused).
    pub fn system_root(subject: &[u8]) -> Option<crate::Certificate> {
        use crate::path::AnchorLookup;
        crate::trust::system_roots()
            .find(subject)
            .first()
            .map(|c| (**c).clone())
    }
}
