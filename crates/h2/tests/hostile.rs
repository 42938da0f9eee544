//! Hostile servers (scripted bytes): every attack ends in a clear typed error, never a panic,
//! with bounded memory and bounded output.
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

use burrow_h2::frame::{Continuation, FrameType, Headers, PushPromise, SettingId, StreamId};
use burrow_h2::hpack::{Encoder, EncoderPolicy};
use burrow_h2::{Config, Connection, Event, Header, HpackError, Kind, Limits, Reason, Scope};
use common::*;

fn hello() -> Script {
    let mut s = Script::new();
    server_hello(&mut s);
    s
}

/// A flood refused: connection error ENHANCE_YOUR_CALM of `kind`, code H2_FLOOD.
fn assert_flood(e: &burrow_h2::Error, kind: Kind) {
    assert_eq!(
        (e.kind(), e.code(), e.reason(), e.scope()),
        (
            kind,
            "H2_FLOOD",
            Reason::ENHANCE_YOUR_CALM,
            Scope::Connection
        )
    );
}

fn goaway_reason(out: &[u8]) -> Option<u32> {
    goaway_reason_of(&client_frames(out))
}

fn goaway_reason_of(frames: &[(burrow_h2::frame::FrameHeader, Vec<u8>)]) -> Option<u32> {
    frames
        .iter()
        .find(|(h, _)| h.kind == FrameType::GOAWAY)
        .map(|(_, p)| u32::from_be_bytes(p[4..8].try_into().unwrap()))
}

#[test]
fn continuation_flood_by_count() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    let block = s.block(&[(":status", "200")]);
    Headers {
        stream_id: StreamId(1),
        block: &block[..1],
        end_stream: false,
        end_headers: false,
        priority: None,
        pad: None,
    }
    .encode(&mut s.out);
    for _ in 0..100_000 {
        Continuation {
            stream_id: StreamId(1),
            block: &[],
            end_headers: false,
        }
        .encode(&mut s.out);
    }
    let (_, err) = feed(&mut c, &s.take());
    let e = err.expect("the flood must be refused");
    assert_eq!(
        (e.kind(), e.code(), e.scope()),
        (Kind::ContinuationFlood, "H2_FLOOD", Scope::Connection)
    );
    assert_eq!(
        goaway_reason(&c.take_transmit()),
        Some(Reason::ENHANCE_YOUR_CALM.0)
    );
}

#[test]
fn continuation_flood_by_bytes() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    Headers {
        stream_id: StreamId(1),
        block: &[0x88],
        end_stream: false,
        end_headers: false,
        priority: None,
        pad: None,
    }
    .encode(&mut s.out);
    let junk = vec![0x40u8; 16_000];
    for _ in 0..20 {
        Continuation {
            stream_id: StreamId(1),
            block: &junk,
            end_headers: false,
        }
        .encode(&mut s.out);
    }
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(e.kind(), Kind::ContinuationFlood);
}

#[test]
fn continuation_interleaved_is_protocol_error() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    Headers {
        stream_id: StreamId(1),
        block: &[0x88],
        end_stream: false,
        end_headers: false,
        priority: None,
        pad: None,
    }
    .encode(&mut s.out);
    s.ping([0; 8]);
    assert_eq!(feed(&mut c, &s.take()).1.unwrap().kind(), Kind::Protocol);
}

#[test]
fn hpack_size_update_above_limit() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    // Dynamic table size update to 1,000,000 (limit 4096), then :status 200.
    let mut block = Vec::new();
    block.extend_from_slice(&[0x3f, 0xa1, 0x84, 0x3d]);
    block.push(0x88);
    Headers {
        stream_id: StreamId(1),
        block: &block,
        end_stream: true,
        end_headers: true,
        priority: None,
        pad: None,
    }
    .encode(&mut s.out);
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(e.kind(), Kind::Hpack(HpackError::TableSizeAboveLimit));
    assert_eq!(
        (e.reason(), e.code()),
        (Reason::COMPRESSION_ERROR, "H2_COMPRESSION")
    );
    assert_eq!(
        goaway_reason(&c.take_transmit()),
        Some(Reason::COMPRESSION_ERROR.0)
    );
}

#[test]
fn hpack_table_growth_is_bounded() {
    // A server inserting ever more entries: our table never exceeds the 4096 we announced.
    let mut enc = Encoder::new(EncoderPolicy::default());
    let mut dec = burrow_h2::hpack::Decoder::new(4096);
    for i in 0..5000 {
        let mut b = Vec::new();
        enc.encode(
            &[Header::new(format!("x-{i}"), "v".repeat(i % 300))],
            &mut b,
        );
        dec.decode(&b).unwrap();
        assert!(dec.table().size() <= 4096);
    }
    // And over a connection, with many responses carrying fresh fields.
    let mut c = Connection::new(Config::default());
    let mut s = hello();
    for i in 0..200u32 {
        let id = c.send_request(&get("/"), true).unwrap();
        let v = "y".repeat(500);
        let name = format!("x-grow-{i}");
        s.headers(
            id.0,
            &[(":status", "200"), (name.as_str(), v.as_str())],
            true,
        );
        let (_, err) = feed(&mut c, &s.take());
        assert!(err.is_none());
    }
}

#[test]
fn header_bomb_resets_the_stream_only() {
    let (mut c, id) = client_with_get(Config::default());
    let mut s = hello();
    // First response inserts a 4 KB field; the second references it 500 times (2 MB decoded)
    // in a block of about 500 bytes.
    let big = "b".repeat(4000);
    s.headers(1, &[(":status", "200"), ("x-big", &big)], true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Headers { status: 200, .. })));
    let id2 = c.send_request(&get("/2"), true).unwrap();
    let mut fields: Vec<(&str, &str)> = vec![(":status", "200")];
    fields.extend(std::iter::repeat_n(("x-big", big.as_str()), 500));
    s.headers(id2.0, &fields, true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(
        err.is_none(),
        "a header list over the cap is a stream error: {err:?}"
    );
    match &events[..] {
        [Event::Reset { stream, error }] => {
            assert_eq!(*stream, id2);
            assert_eq!(error.kind(), Kind::HeaderListTooLarge);
            assert_eq!(error.code(), "H2_HEADER_LIST_TOO_LARGE");
        }
        other => panic!("{other:?}"),
    }
    // HPACK is still in step: a third response using the table decodes.
    let id3 = c.send_request(&get("/3"), true).unwrap();
    s.headers(id3.0, &[(":status", "200"), ("x-big", &big)], true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    assert!(
        matches!(&events[0], Event::Headers { stream, headers, .. } if *stream == id3 && headers[0].value.len() == 4000)
    );
    let _ = id;
}

#[test]
fn settings_flood() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    for _ in 0..10_000 {
        s.settings(&[(SettingId::MAX_CONCURRENT_STREAMS, 100)]);
    }
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(
        (e.kind(), e.reason()),
        (Kind::SettingsFlood, Reason::ENHANCE_YOUR_CALM)
    );
    // Output stayed bounded: at most the budget's worth of SETTINGS ACKs (9 bytes each).
    assert!(c.take_transmit().len() < 65 * 9 + 100);
}

#[test]
fn ping_flood() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    for i in 0..100_000u64 {
        s.ping(i.to_be_bytes());
    }
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!((e.kind(), e.code()), (Kind::PingFlood, "H2_FLOOD"));
    assert!(
        c.take_transmit().len() < 129 * 17 + 100,
        "ping acks are bounded by the budget"
    );
}

#[test]
fn pings_between_useful_frames_are_fine() {
    let (mut c, id) = client_with_get(Config::default());
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false);
    for i in 0..1000u64 {
        s.ping(i.to_be_bytes()).data(1, b"x", false);
    }
    s.data(1, b"", true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none(), "{err:?}");
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Data { stream, end_stream: true, .. } if *stream == id)));
}

#[test]
fn empty_data_flood() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false);
    for _ in 0..10_000 {
        s.data(1, b"", false);
    }
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::EmptyDataFlood
    );
}

#[test]
fn rst_flood_on_closed_streams() {
    let (mut c, id) = client_with_get(Config::default());
    c.reset(id, Reason::CANCEL).unwrap();
    let mut s = hello();
    for _ in 0..5000 {
        s.rst(1, Reason::CANCEL);
    }
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::ResetFlood
    );
}

#[test]
fn settings_with_too_many_entries() {
    // nghttp2's bound (CVE-2020-11080): each entry is work, and INITIAL_WINDOW_SIZE entries
    // touch every open stream. 32 entries pass; 33 end the connection.
    let max = Limits::default().max_settings_entries;
    for (n, refused) in [(max, false), (max + 1, true)] {
        let (mut c, _) = client_with_get(Config::default());
        let mut s = hello();
        let values: Vec<_> = (0..n as u32)
            .map(|i| (SettingId::INITIAL_WINDOW_SIZE, 65_535 + i))
            .collect();
        s.settings(&values);
        let err = feed(&mut c, &s.take()).1;
        if refused {
            let e = err.expect("refused");
            assert_flood(&e, Kind::SettingsFlood);
            assert_eq!(goaway_reason(&c.take_transmit()), Some(0xb));
        } else {
            assert!(err.is_none(), "{err:?}");
        }
    }
}

#[test]
fn window_update_flood() {
    // WINDOW_UPDATEs that give back nothing we sent: a connection-window one and one on an
    // open stream, over and over, with increment 1 (the window could take 2^31 of them).
    for stream in [0, 1] {
        let (mut c, _) = client_with_get(Config::default());
        let mut s = hello();
        for _ in 0..100_000 {
            s.window_update(stream, 1);
        }
        let e = feed(&mut c, &s.take()).1.expect("refused");
        assert_flood(&e, Kind::WindowUpdateFlood);
    }
}

#[test]
fn window_updates_that_return_our_data_are_not_a_flood() {
    // An upload of 2,000 one-byte DATA frames, each given back by its own stream and
    // connection WINDOW_UPDATE (as some servers do): 4,000 updates and no useful frame from
    // the server, far beyond the budget, yet every one returns credit for data we sent.
    let mut c = Connection::new(Config::default());
    let id = c.send_request(&get("/up"), false).unwrap();
    let mut s = hello();
    feed(&mut c, &s.take());
    let budget = Limits::default().max_window_updates as usize;
    let frames = 2_000;
    assert!(frames * 2 > budget * 10);
    for _ in 0..frames {
        assert_eq!(c.send_data(id, b"x", false).unwrap(), 1);
        let _ = c.take_transmit();
        s.window_update(1, 1).window_update(0, 1);
        let (_, err) = feed(&mut c, &s.take());
        assert!(err.is_none(), "{err:?}");
    }
    // A server may also open a window wider than what it was sent: within the budget.
    for _ in 0..budget {
        s.window_update(0, 1);
    }
    assert!(feed(&mut c, &s.take()).1.is_none());
    s.window_update(0, 1);
    assert_eq!(
        feed(&mut c, &s.take()).1.map(|e| e.kind()),
        Some(Kind::WindowUpdateFlood)
    );
}

#[test]
fn stream_errors_we_answer_are_bounded() {
    // A WINDOW_UPDATE of 0 is a stream error (RFC 9113 §6.9), answered with RST_STREAM even
    // for a stream we closed: without a bound, each 13-byte frame in makes 13 bytes out, for
    // ever. h2's `max_local_error_reset_streams` (1024) bounds it; so do we.
    let (mut c, id) = client_with_get(Config::default());
    c.reset(id, Reason::CANCEL).unwrap();
    let _ = c.take_transmit();
    let mut s = hello();
    for _ in 0..100_000 {
        s.window_update(1, 0);
    }
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_flood(&e, Kind::StreamErrorFlood);
    let out = client_frames(&c.take_transmit());
    let resets = out
        .iter()
        .filter(|(h, _)| h.kind == FrameType::RST_STREAM)
        .count();
    assert_eq!(resets, Limits::default().max_local_resets as usize);
    assert_eq!(goaway_reason_of(&out), Some(0xb));
}

#[test]
fn stream_errors_count_over_the_connection_life() {
    // Malformed responses on one stream after another: each is reset, useful frames in
    // between do not restart the count (h2 counts the same way), and the budget's end closes
    // the connection.
    let budget = 20;
    let mut cfg = Config::default();
    cfg.limits.max_local_resets = budget;
    let mut c = Connection::new(cfg);
    let mut s = hello();
    for i in 0..=budget {
        let id = c.send_request(&get("/"), true).unwrap();
        let _ = c.take_transmit();
        // A good response first (useful), then a malformed one (no :status) on a new stream.
        s.headers(id.0, &[(":status", "200")], true);
        let bad = c.send_request(&get("/"), true).unwrap();
        let _ = c.take_transmit();
        s.headers(bad.0, &[("x-no-status", "1")], true);
        let (events, err) = feed(&mut c, &s.take());
        if i < budget {
            assert!(err.is_none(), "{i}: {err:?}");
            assert!(events.iter().any(
                |e| matches!(e, Event::Reset { stream, error } if *stream == bad && error.kind() == Kind::MalformedResponse)
            ));
        } else {
            assert_eq!(err.map(|e| e.kind()), Some(Kind::StreamErrorFlood));
        }
    }
}

#[test]
fn server_resets_of_our_streams_cost_nothing_back() {
    // Rapid reset from the server's side: every stream we open is reset at once. Each reset
    // needs a stream we chose to open, and we answer none of them (RFC 9113 §5.4.2: never
    // RST_STREAM in reply to RST_STREAM), so the work is bounded by our own requests.
    let mut c = Connection::new(Config::default());
    let mut s = hello();
    feed(&mut c, &s.take());
    let _ = c.take_transmit();
    for _ in 0..5_000 {
        let id = c.send_request(&get("/"), true).unwrap();
        let _ = c.take_transmit();
        s.rst(id.0, Reason::CANCEL);
        let (events, err) = feed(&mut c, &s.take());
        assert!(err.is_none(), "{err:?}");
        assert!(matches!(&events[..], [Event::Reset { stream, .. }] if *stream == id));
        assert!(c.take_transmit().is_empty());
    }
    assert_eq!(c.active_streams(), 0);
}

#[test]
fn server_opened_streams() {
    // HEADERS on an even stream (a push the server may not make).
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.headers(2, &[(":status", "200")], true);
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(
        (e.kind(), e.reason(), e.scope()),
        (
            Kind::ServerOpenedStream,
            Reason::PROTOCOL_ERROR,
            Scope::Connection
        )
    );
    // HEADERS on an odd stream we never opened.
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.headers(9, &[(":status", "200")], true);
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::ServerOpenedStream
    );
    // PUSH_PROMISE: push is disabled.
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    let block = s.block(&[(":method", "GET"), (":path", "/pushed")]);
    PushPromise {
        stream_id: StreamId(1),
        promised_id: StreamId(2),
        block: &block,
        end_headers: true,
        pad: None,
    }
    .encode(&mut s.out);
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(
        (e.kind(), e.reason()),
        (Kind::ServerOpenedStream, Reason::PROTOCOL_ERROR)
    );
    // SETTINGS_ENABLE_PUSH=1 from a server.
    let (mut c, _) = client_with_get(Config::default());
    let mut s = Script::new();
    s.settings(&[(SettingId::ENABLE_PUSH, 1)]);
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::InvalidSetting
    );
}

#[test]
fn data_beyond_the_connection_window() {
    let cfg = Config {
        connection_window: 65_535,
        stream_window: 1 << 20,
        ..Config::default()
    };
    let (mut c, _) = client_with_get(cfg);
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false);
    for _ in 0..4 {
        s.data(1, &[0; 16_384], false);
    }
    s.data(1, &[0; 10], false);
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(
        (e.kind(), e.reason(), e.scope()),
        (
            Kind::FlowControl,
            Reason::FLOW_CONTROL_ERROR,
            Scope::Connection
        )
    );
    assert_eq!(
        goaway_reason(&c.take_transmit()),
        Some(Reason::FLOW_CONTROL_ERROR.0)
    );
}

#[test]
fn data_beyond_the_stream_window() {
    // Before our SETTINGS are acknowledged the server may use 65,535; after, our 64 KiB.
    let (mut c, id) = client_with_get(Config {
        stream_window: 16_384,
        ..Config::default()
    });
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false);
    s.data(1, &[0; 16_384], false).data(1, &[0; 1], false);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    assert!(events.iter().any(
        |e| matches!(e, Event::Reset { stream, error } if *stream == id && error.kind() == Kind::FlowControl)
    ));
}

#[test]
fn window_update_overflow() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.window_update(0, 0x7fff_ffff);
    let e = feed(&mut c, &s.take()).1.expect("refused");
    assert_eq!(e.kind(), Kind::FlowControl);
}

#[test]
fn oversized_frame_and_bad_lengths() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.data(1, &vec![0; 16_385], false);
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::FrameSize
    );
    // A frame header announcing 16 MB is refused before its payload is buffered.
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.raw(&[0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1]);
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::FrameSize
    );
    // PING of 7 bytes, SETTINGS of 5 bytes.
    for raw in [
        &[0, 0, 7, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7][..],
        &[0, 0, 5, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0][..],
    ] {
        let (mut c, _) = client_with_get(Config::default());
        let mut s = hello();
        s.raw(raw);
        assert_eq!(
            feed(&mut c, &s.take()).1.expect("refused").kind(),
            Kind::FrameSize
        );
    }
    // Padding longer than the payload.
    let (mut c, _) = client_with_get(Config::default());
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false);
    s.raw(&[0, 0, 2, 0, 0x8, 0, 0, 0, 1, 5, 0]);
    assert_eq!(
        feed(&mut c, &s.take()).1.expect("refused").kind(),
        Kind::Protocol
    );
}

#[test]
fn random_garbage_never_panics() {
    let mut rng = Rng(99);
    for round in 0..3000 {
        let (mut c, _) = client_with_get(Config::default());
        let mut s = hello();
        let n = rng.below(200);
        let mut junk: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        if round % 2 == 0 && junk.len() >= 9 {
            // Make the first bytes a plausible frame header of a known type on stream 1.
            junk[0] = 0;
            junk[1] = 0;
            junk[2] = (n - 9).min(255) as u8;
            junk[3] %= 10;
            junk[5..9].copy_from_slice(&[0, 0, 0, (round % 4) as u8]);
        }
        s.raw(&junk);
        let bytes = s.take();
        let cuts: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(bytes.len())).collect();
        let _ = feed_split(&mut c, &bytes, &cuts);
        let _ = c.take_transmit();
    }
}
