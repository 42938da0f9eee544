//! burrow-crypto: the cryptographic primitives burrow's TLS stack needs, behind one small API.
//!
//! Every function is pure — data in, data out — so the same calls work natively, in wasm32, and
//! can be handed to another engine (e.g. WebCrypto in a Worker) with the same inputs. The only
//! source of entropy is [`rand::fill`], which the sans-IO crates never call themselves.
//!
//! Backed by the pure-Rust RustCrypto and dalek crates (see `bench/README.md` for why).

pub mod aead;
pub mod counters;
mod error;
pub mod hash;
pub mod hkdf;
pub mod hmac;
pub mod kx;
pub mod mlkem;
pub mod prf;
pub mod rand;
pub mod selftest;
pub mod sig;

pub use error::CryptoError;
