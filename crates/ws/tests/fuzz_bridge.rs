//! The fuzz target's entry point over streams the connection tests use: every split it tries
//! agrees (its debug assertions are on in tests), for each configuration its first byte picks.
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

use burrow_ws::Opcode;
use common::{frame, hex, whole};

#[test]
fn fuzz_entry_agrees_on_every_split() {
    let mut streams = vec![
        hex("81 05 48 65 6c 6c 6f 01 03 48 65 6c 80 02 6c 6f 89 05 48 65 6c 6c 6f"),
        hex("c1 07 f2 48 cd c9 c9 07 00 c1 05 f2 00 11 00 00"),
        hex("c1 08 f3 48 cd c9 c9 07 00 00 41 03 f2 48 cd 80 04 c9 c9 07 00"),
        hex("01 03 ce ba e1 80 03 bd b9 ce 88 02 03 e8"),
        hex("82 7e 00 05 01 02 03 04 05"),
        hex("88 01 03"),
    ];
    let mut pings: Vec<u8> = (0..20).flat_map(|_| whole(Opcode::PING, b"p")).collect();
    pings.extend(frame(false, false, Opcode::BINARY, &[1; 300]));
    pings.extend(whole(Opcode::PONG, b""));
    pings.extend(frame(true, false, Opcode::CONTINUATION, &[2; 70_000]));
    streams.push(pings);
    for s in &streams {
        for choice in [0u8, 1, 2, 3, 4, 9, 0x7d] {
            let mut input = vec![choice];
            input.extend_from_slice(s);
            burrow_ws::fuzz::frames(&input);
        }
    }
}

/// fuzz target ws_frames, crash-6762945d: a compressed text frame whose first inflated bytes
/// are not UTF-8 and whose DEFLATE data turns corrupt further on. Whole, the corruption was
/// reported; split in two, the invalid text was: errors now come in the order of the bytes
/// that cause them (InvalidUtf8 here, under every split).
#[test]
fn invalid_text_before_corrupt_deflate_fails_alike_under_every_split() {
    let input = [0x3d, 0x41, 0x42, 0x7a, 0x24, 0xd1, 0x42, 0xa3, 0xff, 0x24];
    burrow_ws::fuzz::frames(&input);
}
