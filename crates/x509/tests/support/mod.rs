//! Shared test support.
#![allow(dead_code, unreachable_pub)]

pub mod limbo;
pub mod ring_verifier;

/// The signature verifier tests use.
pub fn verifier() -> ring_verifier::RingVerifier {
    ring_verifier::RingVerifier
}
