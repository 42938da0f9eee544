//! The fuzz entry points on recorded and random inputs (the real fuzzing runs under cargo-fuzz).
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

#[test]
fn fuzz_entry_points_survive_samples_and_noise() {
    let Some(json) = common::rfc8448_json() else {
        return;
    };
    let s = common::rfc8448::Scenario::load(&json, "simple_1rtt");
    for f in [
        "message_server_hello",
        "message_server_certificate",
        "message_server_certificate_verify",
        "new_session_ticket",
    ] {
        let m = s.hex(f);
        burrow_handshake::fuzz::parse_handshake_messages(&m[4..]);
        for cut in [1, m.len() / 2, m.len() - 1] {
            burrow_handshake::fuzz::parse_handshake_messages(&m[4..cut.max(4)]);
        }
    }
    let mut server = s.hex("record_server_hello");
    server.extend(s.hex("record_server_handshake_messages"));
    burrow_handshake::fuzz::drive_client(&server);
    let mut seed = 7u32;
    for i in 0..300 {
        let mut d: Vec<u8> = (0..200)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 24) as u8
            })
            .collect();
        if i % 2 == 0 {
            d[..5].copy_from_slice(&[22, 3, 3, 0, 195]);
            d[5] = 2;
        }
        burrow_handshake::fuzz::parse_handshake_messages(&d);
        burrow_handshake::fuzz::drive_client(&d);
    }
}
