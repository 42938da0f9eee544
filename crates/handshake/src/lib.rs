//! burrow's TLS 1.3 client handshake, sans-IO: no I/O, no clock, no randomness of its own.
//!
//! Drive a [`Connection`]: [`feed`](Connection::feed) it the bytes read from the transport,
//! call [`poll_event`](Connection::poll_event) until it says [`Event::NeedData`], write out
//! whatever [`take_transmit`](Connection::take_transmit) returns, and answer
//! [`Event::NeedVerify`] with [`complete`](Connection::complete). Time (`now`, Unix
//! milliseconds) and entropy ([`Entropy`]) are passed in.
//!
//! Decisions:
//! * **No 0-RTT.** Early data can be replayed by an attacker and HTTP requests are not all
//!   idempotent; the client never sends early data. (A profile may carry the `early_data`
//!   indication only to reproduce a recorded fingerprint; the client then sends an empty early
//!   flight, i.e. just EndOfEarlyData.)
//! * Certificate validation is a request ([`Event::NeedVerify`]); the CertificateVerify
//!   signature is checked inline with burrow-crypto or, in [`SignatureCheck::Caller`] mode,
//!   handed out in the same request.
//! * Record AEAD runs inline (burrow-crypto) or, with [`Config::aead_offload`], as jobs:
//!   [`Event::TrafficKey`] announces each key once, [`Event::NeedOpen`] / [`Event::NeedSeal`]
//!   name the key, nonce, AAD and the bytes to work on in place ([`Connection::open_buffer`],
//!   [`Connection::seal_buffer`]); the Worker answers with WebCrypto.
//! * Every error maps to its alert in one place ([`Error::alert`]); the connection writes that
//!   alert and the error sticks. In offload mode a protected fatal alert is not sent (nobody
//!   would seal it); the caller closes the transport.
//! * TLS 1.2 is not implemented yet: a 1.2 ServerHello is `TLS_PROTOCOL_VERSION` (or
//!   `TLS_DOWNGRADE` when the random carries the RFC 8446 §4.1.3 sentinel). The ServerHello
//!   dispatch in `state.rs` is where the 1.2 branch goes.
//! * GREASE values are derived from the first byte of the client random.

mod codec;
mod conn;
mod der;
mod enums;
mod error;
mod hello;
mod keyschedule;
mod messages;
mod post;
mod profile;
mod state;
mod suites;
mod ticket;
mod verify;

#[doc(hidden)]
pub mod fuzz;

pub use conn::{Config, Connection, Entropy, Event, HandshakeSummary, TrafficKeyInfo};
pub use enums::{CipherSuite, ExtensionType, HandshakeType, NamedGroup, SignatureScheme};
pub use error::{CertRejection, Error};
pub use profile::{ExtensionSlot, Profile};
pub use ticket::Ticket;
pub use verify::{Answer, SignatureCheck, SignedContent, VerifyRequest};

pub use burrow_crypto::aead::AeadAlgorithm;
pub use burrow_record::{AlertDescription, OpenJob, RecordError, SealJob};
