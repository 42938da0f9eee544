//! burrow's TLS 1.3 (and TLS 1.2) client handshake, sans-IO: no I/O, no clock, no randomness of its own.
//!
//! Drive a [`Connection`]: read the transport into [`recv_buf`](Connection::recv_buf) and
//! [`commit`](Connection::commit) the count (or [`feed`](Connection::feed) a copy), call
//! [`poll_event`](Connection::poll_event) until it says [`Event::NeedData`], write out
//! whatever [`take_transmit`](Connection::take_transmit) returns, answer
//! [`Event::NeedVerify`] with [`complete`](Connection::complete), and read application data
//! where it was decrypted ([`Event::Plaintext`], [`plaintext`](Connection::plaintext),
//! [`consume_plaintext`](Connection::consume_plaintext)). Time (`now`, Unix
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
//!   alert and the error sticks. In offload mode a protected alert is a seal job like any other
//!   record: after an error, [`Connection::pending_seal`] hands it out so it still goes out
//!   encrypted. A request waiting for its answer is [`Event::AwaitingAnswer`], never
//!   [`Event::NeedData`].
//! * TLS 1.2 (ECDHE with AES-GCM / ChaCha20-Poly1305 only) when the profile lists 1.2 suites:
//!   the same ClientHello offers both versions and `tls12.rs` takes over on a 1.2 ServerHello.
//!   A server without extended master secret is accepted but never resumed (strict:
//!   [`Config::require_extended_master_secret`]),
//!   renegotiation_info must be empty, HelloRequest gets a `no_renegotiation` warning, the
//!   RFC 8446 §4.1.3 downgrade sentinel is `TLS_DOWNGRADE`, TLS 1.0/1.1 are
//!   `TLS_PROTOCOL_VERSION`, CBC / RSA key transport are `TLS12_LEGACY_CIPHER`. TLS 1.2 record
//!   AEAD offload uses the same events (the jobs' AAD is then 13 bytes); RFC 5077
//!   tickets come out as [`Event::NewSessionTicket`] ([`Ticket::is_tls12`]) and, given back in
//!   [`Config::resumption`], are offered with our session id for an abbreviated handshake. In [`SignatureCheck::Caller`] mode the request's
//!   [`SignedContent::message`] is the ServerKeyExchange input (`client_random ||
//!   server_random || ServerECDHParams`) and an ECDSA scheme names only the hash.
//! * GREASE values, the Chromium-style extension permutation and the ECH GREASE payload come
//!   from the caller's [`Entropy`] like every other random value.
//! * Key log (`SSLKEYLOGFILE`, NSS format) only on request: with [`Config::key_log`] set,
//!   [`Connection::take_key_log`] hands out a [`KeyLogEntry`] per secret as it is derived —
//!   TLS 1.3 handshake and first application traffic secrets and the exporter secret (and
//!   the client early traffic secret when a ticket offered with early data was selected;
//!   KeyUpdate secrets are not logged, Wireshark derives them), TLS 1.2 the master secret
//!   (`CLIENT_RANDOM`), also for a resumed session. Off by default; `Debug` never prints a
//!   secret.
//! * Secrets are wiped: the key schedule's secrets (TLS 1.3 early, handshake, master, traffic,
//!   exporter, resumption; TLS 1.2 pre-master, master and key block), PSKs and key share seeds
//!   are held from derivation to drop in a type that zeroes them on drop (`zeroize`). What the
//!   caller asked for ([`KeyLogEntry`], an offloaded [`TrafficKeyInfo`]) is the caller's to
//!   wipe.
//! * Every count the server controls is bounded, with a named error and the alert
//!   `unexpected_message`: NewSessionTickets per connection ([`MAX_TICKETS`]), KeyUpdates,
//!   post-handshake messages and warning alerts in a row without application data
//!   ([`MAX_KEY_UPDATES_IN_A_ROW`], [`MAX_POST_HANDSHAKE_IN_A_ROW`],
//!   [`MAX_WARNING_ALERTS_IN_A_ROW`]), TLS 1.2 HelloRequests ([`MAX_HELLO_REQUESTS`]), and in
//!   burrow-record empty records in a row (`MAX_EMPTY_RECORDS`). Each constant says why its
//!   number.

mod client_auth;
mod codec;
mod config;
mod conn;
mod counts;
mod entropy;
mod enums;
mod error;
mod event;
mod fuzz_mode;
mod hello;
mod keylog;
mod keyschedule;
mod leaf;
mod limits;
mod messages;
mod profile;
mod secret;
mod server_hello;
mod signature;
mod state;
mod step;
mod suites;
mod ticket;
mod tls12;
mod tls12_keys;
mod tls12_msgs;
mod tls13;
mod traffic;
mod verify;
mod wire;

#[doc(hidden)]
pub mod fuzz;

pub use client_auth::{ClientCertificate, SignRequest};
pub use config::Config;
pub use conn::Connection;
pub use entropy::Entropy;
pub use enums::{CipherSuite, ExtensionType, HandshakeType, NamedGroup, SignatureScheme};
pub use error::{CertRejection, Error, Unperformable};
pub use event::{Event, HandshakeSummary, TrafficKeyInfo};
pub use keylog::KeyLogEntry;
pub use limits::{
    MAX_HELLO_REQUESTS, MAX_KEY_UPDATES_IN_A_ROW, MAX_POST_HANDSHAKE_IN_A_ROW, MAX_TICKETS,
    MAX_WARNING_ALERTS_IN_A_ROW,
};
pub use profile::{ExtensionSlot, GreasePlaces, Profile};
pub use ticket::Ticket;
pub use verify::{Answer, SignatureCheck, SignedContent, VerifyRequest};

pub use burrow_crypto::aead::AeadAlgorithm;
pub use burrow_record::{AlertDescription, OpenJob, ProtocolVersion, RecordError, SealJob};
