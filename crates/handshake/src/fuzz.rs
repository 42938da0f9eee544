//! Fuzzing entry points (not a stable API).

mod connection;
mod pki;
mod seeds;

pub use crate::fuzz_mode::FINISHED_BYTE;
pub use connection::{
    client, client_resuming, connection, entropy, profiles, Family, Outcome, MAX_CONNECTIONS,
    MAX_LIVE_HEAP, NOW_MS, NULL_TAG, REQUEST, SERVER_NAME,
};
pub use pki::p256_certificate;
pub use seeds::{seeds12, seeds13, Rfc8448, Seed};

use crate::{Config, Connection, Entropy, Event, Profile};

/// Parses `data` as every kind of server handshake message body; must never panic.
pub fn parse_handshake_messages(data: &[u8]) {
    let _ = crate::messages::ServerHello::parse(data);
    let _ = crate::messages::certificate(data);
    let _ = crate::messages::certificate_verify(data);
    let _ = crate::messages::new_session_ticket(data);
    let _ = crate::client_auth::certificate_request13(data);
    let _ = crate::client_auth::certificate_request12(data);
    let _ = crate::messages::key_update(data);
    let _ = crate::messages::alpn_selected(data);
    compressed_certificate(data);
    let _ = crate::leaf::spki_of(data);
    let mut r = crate::codec::Reader::new(data);
    let _ = crate::messages::extensions(&mut r);
}

/// Parses and decompresses `data` as a CompressedCertificate body (RFC 8879); must never
/// panic nor produce more than the stated length.
pub fn compressed_certificate(data: &[u8]) {
    if let Ok((alg, len, bytes)) = crate::messages::compressed_certificate(data) {
        // The connection bounds `len` by its handshake budget (128 KiB by default).
        if len <= 128 * 1024 {
            if let Ok(out) = crate::messages::decompress_certificate(alg, len, bytes) {
                assert_eq!(out.len(), len, "decompressed length");
            }
        }
    }
}

/// Drives a fresh client connection with `data` as the server's bytes; must never panic.
pub fn drive_client(data: &[u8]) {
    let profile = Profile::default_web();
    let pool = vec![7u8; Entropy::pool_len(&profile)];
    let Ok(entropy) = Entropy::from_pool(&profile, &pool) else {
        return;
    };
    let Ok(mut c) = Connection::new(Config::new(profile, Some("example.com")), entropy, 0) else {
        return;
    };
    let _ = c.take_transmit();
    for chunk in data.chunks(97) {
        if c.feed(chunk).is_err() {
            return;
        }
        for _ in 0..64 {
            match c.poll_event(0) {
                Ok(Event::NeedData | Event::AwaitingAnswer) | Err(_) => break,
                Ok(Event::Plaintext(n)) => c.consume_plaintext(n),
                Ok(_) => {
                    let _ = c.take_transmit();
                }
            }
        }
    }
}
