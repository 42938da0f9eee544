//! Shared test support.
#![allow(dead_code, unreachable_pub)]

pub mod der;
pub mod keys;
pub mod limbo;
pub mod ring_verifier;

/// The signature verifier tests use: burrow-crypto (the default), unless
/// `BURROW_X509_VERIFIER=ring` asks for the ring cross-check.
pub fn verifier() -> Box<dyn burrow_x509::SignatureVerifier> {
    if std::env::var("BURROW_X509_VERIFIER").as_deref() == Ok("ring") {
        Box::new(ring_verifier::RingVerifier)
    } else {
        Box::new(burrow_x509::CryptoVerifier)
    }
}
