//! The connection against scripted server bytes, every stream under every chunking (whole, byte
//! by byte, random splits): the RFC 6455 §5.7 and RFC 7692 §7.2.3 examples, fragmentation and
//! interleaved control frames, the closing handshake, each peer error with its close code, the
//! size bound, the abuse budgets, and what the client writes.
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

use burrow_ws::{
    CloseCode, CloseFrame, CloseState, Config, Connection, DeflateParams, Event, Initiator, Kind,
    Message, MessageKind, Opcode, Scope,
};
use common::*;

fn text(s: &str) -> Event {
    Event::Message(Message::Text(s.to_owned()))
}

fn binary(b: &[u8]) -> Event {
    Event::Message(Message::Binary(b.to_vec()))
}

fn deflate() -> Option<DeflateParams> {
    Some(DeflateParams::default())
}

/// The error a stream fails with (the same under every chunking), and the close code the client
/// then sent.
fn failure(config: &Config, deflate: Option<DeflateParams>, stream: &[u8]) -> (Kind, Option<u16>) {
    let o = every_chunking(config, deflate, stream);
    let e = o.error.expect("an error");
    assert_eq!(
        (e.scope(), e.initiator()),
        (Scope::Connection, Initiator::Library)
    );
    let frames = client_frames(&o.out);
    let close = frames.last().filter(|(h, _)| h.opcode == Opcode::CLOSE);
    let sent = close.map(|(_, p)| u16::from_be_bytes([p[0], p[1]]));
    assert_eq!(
        sent,
        e.close_code().map(|c| c.0),
        "the close frame names the error"
    );
    (e.kind(), sent)
}

#[test]
fn rfc6455_examples() {
    let c = Config::default();
    // §5.7: unmasked "Hello"; fragmented "Hel" + "lo"; 256 bytes and 64 KiB binary.
    let mut stream = hex("81 05 48 65 6c 6c 6f");
    stream.extend(hex("01 03 48 65 6c 80 02 6c 6f"));
    stream.extend(frame(true, false, Opcode::BINARY, &[7; 256]));
    stream.extend(frame(true, false, Opcode::BINARY, &[9; 65536]));
    let o = every_chunking(&c, None, &stream);
    assert_eq!(o.error, None);
    assert_eq!(
        o.events,
        [
            text("Hello"),
            text("Hello"),
            binary(&[7; 256]),
            binary(&[9; 65536])
        ]
    );
    assert!(o.out.is_empty());
}

#[test]
fn ping_is_answered_with_its_payload() {
    // §5.7: unmasked Ping "Hello".
    let o = every_chunking(&Config::default(), None, &hex("89 05 48 65 6c 6c 6f"));
    assert_eq!(o.events, [Event::Ping(b"Hello".to_vec())]);
    let frames = client_frames(&o.out);
    assert_eq!(frames.len(), 1);
    assert_eq!(
        (frames[0].0.opcode, frames[0].1.as_slice()),
        (Opcode::PONG, &b"Hello"[..])
    );
}

#[test]
fn pings_in_one_turn_get_one_pong_for_the_last() {
    let mut s = whole(Opcode::PING, b"1");
    s.extend(whole(Opcode::PING, b"2"));
    s.extend(whole(Opcode::PING, b"3"));
    let o = every_chunking(&Config::default(), None, &s);
    assert_eq!(o.events.len(), 3);
    let frames = client_frames(&o.out);
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].1, b"3");
}

#[test]
fn rfc7692_examples() {
    let c = Config::default();
    let hello = || text("Hello");
    // §7.2.3.1: one compressed DEFLATE block, whole and in two fragments.
    let o = every_chunking(&c, deflate(), &hex("c1 07 f2 48 cd c9 c9 07 00"));
    assert_eq!((o.events, o.error), (vec![hello()], None));
    let o = every_chunking(&c, deflate(), &hex("41 03 f2 48 cd 80 04 c9 c9 07 00"));
    assert_eq!((o.events, o.error), (vec![hello()], None));
    // §7.2.3.2: the second message refers back into the first one's window.
    let shared = hex("c1 07 f2 48 cd c9 c9 07 00 c1 05 f2 00 11 00 00");
    let o = every_chunking(&c, deflate(), &shared);
    assert_eq!((o.events, o.error), (vec![hello(), hello()], None));
    // ... which a server that promised no context takeover may not do: the window is gone.
    let no_takeover = Some(DeflateParams {
        server_no_context_takeover: true,
        ..DeflateParams::default()
    });
    let o = every_chunking(&c, no_takeover, &shared);
    assert_eq!(o.events, [hello()]);
    assert_eq!(o.error.map(|e| e.kind()), Some(Kind::BadCompressedData));
    // §7.2.3.3: a stored (uncompressed) DEFLATE block.
    let o = every_chunking(
        &c,
        deflate(),
        &hex("c1 0b 00 05 00 fa ff 48 65 6c 6c 6f 00"),
    );
    assert_eq!((o.events, o.error), (vec![hello()], None));
    // §7.2.3.4: a block with BFINAL set, then a message after it.
    let bfinal = hex("c1 08 f3 48 cd c9 c9 07 00 00 c1 07 f2 48 cd c9 c9 07 00");
    let o = every_chunking(&c, deflate(), &bfinal);
    assert_eq!((o.events, o.error), (vec![hello(), hello()], None));
    // §7.2.3.5: two DEFLATE blocks in one message.
    let two = hex("c1 0d f2 48 05 00 00 00 ff ff ca c9 c9 07 00");
    let o = every_chunking(&c, deflate(), &two);
    assert_eq!((o.events, o.error), (vec![hello()], None));
    // §7.2.3.6: a sync-flushed first fragment and a last fragment of one 0x00.
    let empty_last = hex("41 0b f2 48 cd c9 c9 07 00 00 00 ff ff 80 01 00");
    let o = every_chunking(&c, deflate(), &empty_last);
    assert_eq!((o.events, o.error), (vec![hello()], None));
    // Uncompressed messages stay possible with the extension on.
    let o = every_chunking(&c, deflate(), &hex("81 02 68 69"));
    assert_eq!((o.events, o.error), (vec![text("hi")], None));
}

#[test]
fn control_frames_between_fragments() {
    let mut s = frame(false, false, Opcode::TEXT, b"Hel");
    s.extend(whole(Opcode::PING, b"p"));
    s.extend(frame(false, false, Opcode::CONTINUATION, b"l"));
    s.extend(whole(Opcode::PONG, b""));
    s.extend(frame(true, false, Opcode::CONTINUATION, b"o"));
    s.extend(whole(Opcode::BINARY, b"\x00\xff"));
    let o = every_chunking(&Config::default(), None, &s);
    assert_eq!(o.error, None);
    assert_eq!(
        o.events,
        [
            Event::Ping(b"p".to_vec()),
            Event::Pong(vec![]),
            text("Hello"),
            binary(b"\x00\xff")
        ]
    );
}

#[test]
fn compressed_fragments_with_interleaved_ping() {
    // The client's compressor makes a message; it is fed back as server frames, fragmented,
    // with a ping in between.
    let msg = "tick tick tick tock ".repeat(500);
    let mut sender = Connection::new(
        Config {
            fragment_size: Some(10),
            ..Config::default()
        },
        deflate(),
    );
    sender.send_text(&msg, &mut keys()).unwrap();
    let frames = client_frames(&sender.take_transmit(&mut keys()));
    assert!(frames.len() > 3);
    assert!(frames[0].0.rsv1 && frames[1..].iter().all(|(h, _)| !h.rsv1));
    let mut s = Vec::new();
    for (i, (h, p)) in frames.iter().enumerate() {
        s.extend(frame(h.fin, h.rsv1, h.opcode, p));
        if i == 1 {
            s.extend(whole(Opcode::PING, b"mid"));
        }
    }
    let o = every_chunking(&Config::default(), deflate(), &s);
    assert_eq!(o.error, None);
    assert_eq!(o.events, [Event::Ping(b"mid".to_vec()), text(&msg)]);
}

#[test]
fn invalid_utf8_fails_at_its_fragment() {
    // The message never ends: the invalid fragment alone fails it (fail fast, §8.1).
    let mut s = frame(false, false, Opcode::TEXT, "κόσμε".as_bytes());
    s.extend(frame(
        false,
        false,
        Opcode::CONTINUATION,
        b"\xf4\x90\x80\x80",
    ));
    assert_eq!(
        failure(&Config::default(), None, &s),
        (Kind::InvalidUtf8, Some(1007))
    );
    // A character split across fragments is fine; one left open at the end is not.
    let mut ok = frame(false, false, Opcode::TEXT, b"\xe2\x82");
    ok.extend(frame(true, false, Opcode::CONTINUATION, b"\xac"));
    assert_eq!(
        every_chunking(&Config::default(), None, &ok).events,
        [text("€")]
    );
    let open = frame(true, false, Opcode::TEXT, b"a\xe2\x82");
    assert_eq!(
        failure(&Config::default(), None, &open),
        (Kind::InvalidUtf8, Some(1007))
    );
    // Compressed text is checked as it inflates.
    let mut sender = Connection::new(Config::default(), deflate());
    sender.send_binary(b"ok \xff", &mut keys()).unwrap();
    let mut bad = unmasked(&sender.take_transmit(&mut keys()));
    bad[0] = (bad[0] & 0xf0) | 0x1; // binary -> text
    assert_eq!(
        failure(&Config::default(), deflate(), &bad),
        (Kind::InvalidUtf8, Some(1007))
    );
}

#[test]
fn message_size_bound() {
    let c = Config {
        max_message_size: 1000,
        ..Config::default()
    };
    // A frame head over the bound fails before its payload arrives.
    let head = &frame(true, false, Opcode::BINARY, &[0; 1001])[..4];
    assert_eq!(failure(&c, None, head), (Kind::MessageTooBig, Some(1009)));
    // Exactly the bound passes; fragments adding up over it fail.
    let o = every_chunking(&c, None, &whole(Opcode::BINARY, &[1; 1000]));
    assert_eq!(o.events, [binary(&[1; 1000])]);
    let mut s = frame(false, false, Opcode::BINARY, &[0; 600]);
    s.extend(frame(true, false, Opcode::CONTINUATION, &[0; 401]));
    assert_eq!(failure(&c, None, &s), (Kind::MessageTooBig, Some(1009)));
    // A decompression bomb: 1 MiB of zeros in ~1 KiB, stopped at the bound.
    let level9 = Config {
        compression_level: 9,
        ..Config::default()
    };
    let mut sender = Connection::new(level9, deflate());
    sender.send_binary(&vec![0; 1 << 20], &mut keys()).unwrap();
    let bomb = unmasked(&sender.take_transmit(&mut keys()));
    assert!(bomb.len() < 4096, "{}", bomb.len());
    assert_eq!(
        failure(&c, deflate(), &bomb),
        (Kind::MessageTooBig, Some(1009))
    );
}

#[test]
fn protocol_errors_and_their_close_codes() {
    let c = Config::default();
    let cases: Vec<(&str, Vec<u8>, Kind)> = vec![
        (
            "masked",
            hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"),
            Kind::MaskedFrame,
        ),
        ("rsv1 without deflate", hex("c1 00"), Kind::ReservedBits),
        ("rsv2", hex("a2 00"), Kind::ReservedBits),
        ("rsv3", hex("92 00"), Kind::ReservedBits),
        ("opcode 3", hex("83 00"), Kind::ReservedOpcode),
        ("opcode 0xb", hex("8b 00"), Kind::ReservedOpcode),
        ("fragmented ping", hex("09 00"), Kind::BadControlFrame),
        ("126-byte ping", hex("89 7e 00 7e"), Kind::BadControlFrame),
        (
            "continuation first",
            hex("80 01 61"),
            Kind::BadFragmentation,
        ),
        (
            "new message inside one",
            hex("01 01 61 81 01 62"),
            Kind::BadFragmentation,
        ),
        (
            "non-minimal 16-bit",
            hex("82 7e 00 05 01 02 03 04 05"),
            Kind::NonMinimalLength,
        ),
        (
            "non-minimal 64-bit",
            hex("82 7f 00 00 00 00 00 00 00 7e"),
            Kind::NonMinimalLength,
        ),
        (
            "top bit",
            hex("82 7f 80 00 00 00 00 00 00 00"),
            Kind::LengthTopBit,
        ),
        ("close of 1 byte", hex("88 01 03"), Kind::BadClosePayload),
        ("close 1005", hex("88 02 03 ed"), Kind::BadClosePayload),
        ("close 2999", hex("88 02 0b b7"), Kind::BadClosePayload),
        (
            "close reason not UTF-8",
            hex("88 03 03 e8 ff"),
            Kind::InvalidUtf8,
        ),
    ];
    for (what, stream, kind) in cases {
        let (got, code) = failure(&c, None, &stream);
        assert_eq!(got, kind, "{what}");
        let want = if kind == Kind::InvalidUtf8 {
            1007
        } else {
            1002
        };
        assert_eq!(code, Some(want), "{what}");
    }
    // RSV1 under permessage-deflate: only on the first frame of a data message.
    assert_eq!(failure(&c, deflate(), &hex("c9 00")).0, Kind::ReservedBits);
    let mut s = hex("41 03 f2 48 cd");
    s.extend(hex("c0 04 c9 c9 07 00"));
    assert_eq!(failure(&c, deflate(), &s).0, Kind::ReservedBits);
    // Non-minimal lengths when asked to accept them.
    let lenient = Config {
        accept_non_minimal_lengths: true,
        ..Config::default()
    };
    let o = every_chunking(&lenient, None, &hex("82 7e 00 02 01 02"));
    assert_eq!((o.events, o.error), (vec![binary(&[1, 2])], None));
}

#[test]
fn errors_are_sticky() {
    let mut c = Connection::new(Config::default(), None);
    let e = c.handle_input(&hex("83 00")).unwrap_err();
    assert_eq!(c.handle_input(&hex("81 01 61")), Err(e));
    assert_eq!(c.send_text("x", &mut keys()), Err(e));
    assert_eq!(c.handle_eof(), Err(e));
    assert_eq!(c.error(), Some(e));
    assert!(c.poll_event().is_none());
}

#[test]
fn server_initiated_close() {
    let mut s = whole(Opcode::TEXT, b"bye");
    s.extend(hex("88 05 03 e9 62 79 65")); // 1001 "bye"
    s.extend(whole(Opcode::TEXT, b"ignored after the close"));
    let mut c = Connection::new(Config::default(), None);
    c.handle_input(&s).unwrap();
    assert_eq!(c.poll_event(), Some(text("bye")));
    assert_eq!(
        c.poll_event(),
        Some(Event::Close(CloseFrame {
            code: Some(CloseCode::GOING_AWAY),
            reason: "bye".into()
        }))
    );
    assert_eq!(c.poll_event(), None);
    assert_eq!(c.close_state(), CloseState::CloseReceived);
    assert!(c.wants_transmit());
    let frames = client_frames(&c.take_transmit(&mut keys()));
    // The reply echoes the code, without the reason.
    assert_eq!(frames.len(), 1);
    assert_eq!(
        (frames[0].0.opcode, frames[0].1.as_slice()),
        (Opcode::CLOSE, &[0x03, 0xe9][..])
    );
    assert_eq!(c.close_state(), CloseState::Closed);
    assert_eq!(
        c.send_text("late", &mut keys()).unwrap_err().kind(),
        Kind::Closed
    );
    assert_eq!(c.handle_eof(), Ok(()));
    // An empty close is answered with an empty close.
    let o = every_chunking(&Config::default(), None, &hex("88 00"));
    assert_eq!(
        o.events,
        [Event::Close(CloseFrame {
            code: None,
            reason: String::new()
        })]
    );
    assert_eq!(client_frames(&o.out)[0].1, b"");
}

#[test]
fn client_initiated_close() {
    let mut c = Connection::new(Config::default(), None);
    c.close(Some(CloseCode(4000)), "done", &mut keys()).unwrap();
    assert_eq!(c.close_state(), CloseState::CloseSent);
    let e = c.send_binary(b"x", &mut keys()).unwrap_err();
    assert_eq!(
        (e.kind(), e.scope(), e.initiator()),
        (Kind::Closed, Scope::Call, Initiator::User)
    );
    let frames = client_frames(&c.take_transmit(&mut keys()));
    assert_eq!(frames[0].1, b"\x0f\xa0done");
    // Messages still arrive until the server's close, which is not answered again.
    c.handle_input(&whole(Opcode::TEXT, b"late")).unwrap();
    c.handle_input(&hex("88 02 0f a0")).unwrap();
    assert_eq!(c.poll_event(), Some(text("late")));
    assert!(matches!(c.poll_event(), Some(Event::Close(_))));
    assert_eq!(c.close_state(), CloseState::Closed);
    assert!(!c.wants_transmit());
    assert_eq!(c.handle_eof(), Ok(()));
}

#[test]
fn eof_before_close_is_abnormal() {
    let mut c = Connection::new(Config::default(), None);
    c.handle_input(&hex("81 05 48 65")).unwrap();
    let e = c.handle_eof().unwrap_err();
    assert_eq!(
        (e.kind(), e.initiator(), e.close_code()),
        (Kind::AbnormalClosure, Initiator::Remote, None)
    );
    assert!(!c.wants_transmit());
}

#[test]
fn caller_errors_change_nothing() {
    let mut c = Connection::new(Config::default(), None);
    let kind = |r: Result<(), burrow_ws::Error>| r.unwrap_err().kind();
    assert_eq!(
        kind(c.ping(&[0; 126], &mut keys())),
        Kind::ControlPayloadTooLong
    );
    assert_eq!(
        kind(c.close(Some(CloseCode::NO_STATUS_RECEIVED), "", &mut keys())),
        Kind::UnsendableCloseCode
    );
    assert_eq!(
        kind(c.close(Some(CloseCode::ABNORMAL), "", &mut keys())),
        Kind::UnsendableCloseCode
    );
    assert_eq!(
        kind(c.close(Some(CloseCode(1015)), "", &mut keys())),
        Kind::UnsendableCloseCode
    );
    assert_eq!(
        kind(c.close(None, "reason without code", &mut keys())),
        Kind::UnsendableCloseCode
    );
    assert_eq!(
        kind(c.close(Some(CloseCode::NORMAL), &"r".repeat(124), &mut keys())),
        Kind::ControlPayloadTooLong
    );
    assert!(!c.wants_transmit());
    assert_eq!(c.close_state(), CloseState::Open);
    c.ping(&[0; 125], &mut keys()).unwrap();
    assert!(c.wants_transmit());
}

#[test]
fn ping_flood_within_a_turn() {
    let c = Config::default();
    let max = c.limits.max_pings as usize;
    let flood: Vec<u8> = (0..=max).flat_map(|_| whole(Opcode::PING, b"")).collect();
    assert_eq!(failure(&c, None, &flood), (Kind::PingFlood, Some(1008)));
    // Unsolicited pongs count too; pongs answering our pings do not.
    let pongs: Vec<u8> = (0..=max).flat_map(|_| whole(Opcode::PONG, b"")).collect();
    assert_eq!(failure(&c, None, &pongs).0, Kind::PingFlood);
    let mut conn = Connection::new(c.clone(), None);
    for _ in 0..=max {
        conn.ping(b"", &mut keys()).unwrap();
    }
    conn.handle_input(&pongs).unwrap();
    // The same pings across turns of the caller's loop are keepalives, not a flood.
    let mut conn = Connection::new(c.clone(), None);
    for _ in 0..10 * max {
        conn.handle_input(&whole(Opcode::PING, b"k")).unwrap();
        let frames = client_frames(&conn.take_transmit(&mut keys()));
        assert_eq!(frames.len(), 1);
    }
    // Data with payload restarts the count too.
    let mut mixed = Vec::new();
    for _ in 0..10 * max {
        mixed.extend(whole(Opcode::PING, b""));
        mixed.extend(whole(Opcode::TEXT, b"x"));
    }
    assert_eq!(every_chunking(&c, None, &mixed).error, None);
}

#[test]
fn empty_frame_flood() {
    let c = Config::default();
    let max = c.limits.max_empty_frames as usize;
    let ok: Vec<u8> = (0..max).flat_map(|_| whole(Opcode::TEXT, b"")).collect();
    let o = every_chunking(&c, None, &ok);
    assert_eq!((o.events.len(), o.error), (max, None));
    let mut flood = ok.clone();
    flood.extend(whole(Opcode::BINARY, b""));
    assert_eq!(
        failure(&c, None, &flood),
        (Kind::EmptyFrameFlood, Some(1008))
    );
    // Empty continuations count the same.
    let mut s = frame(false, false, Opcode::BINARY, b"a");
    s.extend((0..=max).flat_map(|_| frame(false, false, Opcode::CONTINUATION, b"")));
    assert_eq!(failure(&c, None, &s).0, Kind::EmptyFrameFlood);
}

#[test]
fn tiny_fragment_flood() {
    let c = Config {
        limits: burrow_ws::Limits {
            max_tiny_fragments: 100,
            ..Default::default()
        },
        ..Config::default()
    };
    let mut ok = frame(false, false, Opcode::BINARY, b"a");
    ok.extend((0..98).flat_map(|_| frame(false, false, Opcode::CONTINUATION, b"b")));
    ok.extend(frame(true, false, Opcode::CONTINUATION, b"c"));
    // The budget is per message: the next message starts again.
    let again = ok.clone();
    ok.extend(again);
    let o = every_chunking(&c, None, &ok);
    assert_eq!((o.events.len(), o.error), (2, None));
    let mut flood = frame(false, false, Opcode::BINARY, b"a");
    flood.extend((0..100).flat_map(|_| frame(false, false, Opcode::CONTINUATION, b"b")));
    assert_eq!(
        failure(&c, None, &flood),
        (Kind::TinyFragmentFlood, Some(1008))
    );
    // Fragments of the threshold's size are not tiny.
    let mut big = frame(false, false, Opcode::BINARY, &[0; 64]);
    big.extend((0..200).flat_map(|_| frame(false, false, Opcode::CONTINUATION, &[0; 64])));
    big.extend(frame(true, false, Opcode::CONTINUATION, b""));
    assert_eq!(every_chunking(&c, None, &big).error, None);
}

#[test]
fn sent_frames_are_masked_with_the_callers_keys_and_fragmented() {
    let mut c = Connection::new(
        Config {
            fragment_size: Some(1000),
            ..Config::default()
        },
        None,
    );
    let mut n = 0u8;
    let mut ks = || {
        n += 1;
        [n, n, n, n]
    };
    let msg: Vec<u8> = (0..2500u32).map(|i| i as u8).collect();
    c.send_binary(&msg, &mut ks).unwrap();
    c.send_text("", &mut ks).unwrap();
    let frames = client_frames(&c.take_transmit(&mut ks));
    let shape: Vec<(Opcode, bool, usize, [u8; 4])> = frames
        .iter()
        .map(|(h, p)| (h.opcode, h.fin, p.len(), h.mask.unwrap()))
        .collect();
    assert_eq!(
        shape,
        [
            (Opcode::BINARY, false, 1000, [1; 4]),
            (Opcode::CONTINUATION, false, 1000, [2; 4]),
            (Opcode::CONTINUATION, true, 500, [3; 4]),
            (Opcode::TEXT, true, 0, [4; 4]),
        ]
    );
    let joined: Vec<u8> = frames[..3].iter().flat_map(|(_, p)| p.clone()).collect();
    assert_eq!(joined, msg);
    assert!(frames.iter().all(|(h, _)| !h.rsv1));
}

#[test]
fn compressed_sends_decode_with_every_agreement() {
    let msgs: Vec<Vec<u8>> = vec![
        b"{\"op\":\"subscribe\",\"channel\":\"ticker\"}".to_vec(),
        b"{\"op\":\"subscribe\",\"channel\":\"trades\"}".to_vec(),
        (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect(),
        vec![],
        vec![b'z'; 300_000],
    ];
    for params in [
        DeflateParams::default(),
        DeflateParams {
            server_no_context_takeover: true,
            client_no_context_takeover: true,
            server_max_window_bits: 9,
            client_max_window_bits: 9,
        },
        DeflateParams {
            client_max_window_bits: 12,
            ..DeflateParams::default()
        },
        DeflateParams {
            client_max_window_bits: 8,
            ..DeflateParams::default()
        },
    ] {
        for fragment_size in [None, Some(777)] {
            let mut c = Connection::new(
                Config {
                    fragment_size,
                    ..Config::default()
                },
                Some(params),
            );
            for m in &msgs {
                c.send_binary(m, &mut keys()).unwrap();
            }
            let wire = c.take_transmit(&mut keys());
            let frames = client_frames(&wire);
            let compressed = frames.iter().filter(|(h, _)| h.rsv1).count();
            if params.client_max_window_bits == 8 {
                // zlib cannot keep to a 256-byte window: sent uncompressed.
                assert_eq!(compressed, 0);
            } else {
                assert_eq!(compressed, msgs.len() - 1, "{params:?}"); // not the empty one
                assert!(wire.len() < 120_000, "{}", wire.len());
            }
            // The receiving side mirrors the agreement.
            let mirror = DeflateParams {
                server_no_context_takeover: params.client_no_context_takeover,
                client_no_context_takeover: params.server_no_context_takeover,
                server_max_window_bits: params.client_max_window_bits,
                client_max_window_bits: params.server_max_window_bits,
            };
            let o = drive(&Config::default(), Some(mirror), &[&unmasked(&wire)]);
            assert_eq!(o.error, None, "{params:?} {fragment_size:?}");
            let got: Vec<Event> = msgs.iter().map(|m| binary(m)).collect();
            assert_eq!(o.events, got);
        }
    }
}

#[test]
fn send_kinds_and_text() {
    let mut c = Connection::new(Config::default(), None);
    c.send(MessageKind::Text, "ünï".as_bytes(), &mut keys())
        .unwrap();
    let f = client_frames(&c.take_transmit(&mut keys()));
    assert_eq!(
        (f[0].0.opcode, f[0].1.as_slice()),
        (Opcode::TEXT, "ünï".as_bytes())
    );
}
