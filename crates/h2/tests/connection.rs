//! The client state machine against a scripted server: the ordinary flows.
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

use burrow_h2::frame::{FrameType, SettingId};
use burrow_h2::{Config, Connection, Event, Header, Kind, Reason, Scope, StreamId, StreamState};
use common::*;

#[test]
fn preface_settings_and_window() {
    let mut c = Connection::new(Config::default());
    let out = c.take_transmit();
    assert!(out.starts_with(burrow_h2::conn::PREFACE));
    let frames = client_frames(&out);
    assert_eq!(frames[0].0.kind, FrameType::SETTINGS);
    let p = &frames[0].1;
    // ENABLE_PUSH = 0 first, then INITIAL_WINDOW_SIZE = 64 KiB.
    assert_eq!(&p[..6], &[0, 2, 0, 0, 0, 0]);
    assert_eq!(&p[6..12], &[0, 4, 0, 1, 0, 0]);
    assert_eq!(window_updates(&out), vec![(0, 1024 * 1024 - 65_535)]);
}

#[test]
fn get_with_body_and_trailers() {
    let (mut c, id) = client_with_get(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    s.headers(
        1,
        &[(":status", "200"), ("content-type", "text/plain")],
        false,
    );
    s.data(1, b"hello ", false)
        .data_padded(1, b"world", 10, false);
    s.headers(1, &[("grpc-status", "0")], true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none(), "{err:?}");
    let ev: Vec<_> = events
        .into_iter()
        .filter(|e| !matches!(e, Event::SettingsAcked | Event::SettingsReceived))
        .collect();
    assert_eq!(
        ev,
        vec![
            Event::Headers {
                stream: id,
                status: 200,
                headers: vec![Header::new("content-type", "text/plain")],
                end_stream: false
            },
            Event::Data {
                stream: id,
                data: b"hello world".to_vec(),
                end_stream: false
            },
            Event::Trailers {
                stream: id,
                headers: vec![Header::new("grpc-status", "0")]
            },
        ]
    );
    assert_eq!(c.stream_state(id), None, "closed after trailers");
    // The server's SETTINGS was acknowledged.
    let out = c.take_transmit();
    assert!(client_frames(&out)
        .iter()
        .any(|(h, p)| h.kind == FrameType::SETTINGS && h.flags == 1 && p.is_empty()));
}

#[test]
fn windows_reopen_by_consumption() {
    let (mut c, id) = client_with_get(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    s.headers(1, &[(":status", "200")], false);
    for _ in 0..4 {
        s.data(1, &[7u8; 16_000], false);
    }
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    let got: usize = events
        .iter()
        .map(|e| {
            if let Event::Data { data, .. } = e {
                data.len()
            } else {
                0
            }
        })
        .sum();
    assert_eq!(got, 64_000);
    // Nothing released yet: no WINDOW_UPDATE besides the SETTINGS ack.
    assert!(window_updates(&c.take_transmit()).is_empty());
    // Releasing 40,000 bytes: the stream (threshold 32 KiB) gets an update; the connection
    // (threshold 512 KiB) not yet.
    c.consume(id, 40_000).unwrap();
    assert_eq!(window_updates(&c.take_transmit()), vec![(1, 40_000)]);
    // Over-release is refused.
    assert_eq!(c.consume(id, 30_000).unwrap_err().kind(), Kind::OverRelease);
    // The window now admits 64 KiB - 64,000 + 40,000 more bytes, and not one more.
    let mut s2 = Script::new();
    for chunk in vec![1u8; 65_536 - 64_000 + 40_000].chunks(16_384) {
        s2.data(1, chunk, false);
    }
    assert!(feed(&mut c, &s2.take()).1.is_none());
    let mut s3 = Script::new();
    s3.data(1, b"x", false);
    let (events, err) = feed(&mut c, &s3.take());
    assert!(err.is_none(), "a stream window violation is a stream error");
    match &events[..] {
        [Event::Reset { stream, error }] => {
            assert_eq!(*stream, id);
            assert_eq!(error.kind(), Kind::FlowControl);
            assert_eq!(error.reason(), Reason::FLOW_CONTROL_ERROR);
            assert_eq!(error.scope(), Scope::Stream(id));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn send_data_respects_windows_and_frame_size() {
    let mut c = Connection::new(Config::default());
    let _ = c.take_transmit();
    let mut s = Script::new();
    s.settings(&[(SettingId::INITIAL_WINDOW_SIZE, 20_000)])
        .settings_ack();
    assert!(feed(&mut c, &s.take()).1.is_none());
    let mut req = get("/echo");
    req[0] = Header::new(":method", "POST");
    let id = c.send_request(&req, false).unwrap();
    let body = vec![5u8; 50_000];
    let n = c.send_data(id, &body, true).unwrap();
    assert_eq!(n, 20_000);
    assert_eq!(
        c.stream_state(id),
        Some(StreamState::Open),
        "END_STREAM not sent: body incomplete"
    );
    let out = c.take_transmit();
    let data: Vec<_> = client_frames(&out)
        .into_iter()
        .filter(|(h, _)| h.kind == FrameType::DATA)
        .collect();
    assert_eq!(
        data.iter().map(|(h, _)| h.length).collect::<Vec<_>>(),
        vec![16_384, 3_616]
    );
    assert_eq!(c.send_data(id, &body[n..], true).unwrap(), 0);
    s.window_update(1, 40_000);
    let (events, _) = feed(&mut c, &s.take());
    assert!(events.contains(&Event::WindowOpened { stream: id }));
    assert_eq!(c.send_data(id, &body[n..], true).unwrap(), 30_000);
    assert_eq!(c.stream_state(id), Some(StreamState::HalfClosedLocal));
}

#[test]
fn settings_initial_window_change_applies_to_open_streams() {
    let (mut c, id) = client_with_get(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    assert!(feed(&mut c, &s.take()).1.is_none());
    let _ = c.take_transmit();
    s.settings(&[(SettingId::INITIAL_WINDOW_SIZE, 100)]);
    assert!(feed(&mut c, &s.take()).1.is_none());
    // Stream 1 is half-closed (local): no capacity to check on it; open a POST stream instead.
    let mut req = get("/");
    req[0] = Header::new(":method", "POST");
    let post = c.send_request(&req, false).unwrap();
    assert_eq!(c.send_capacity(post), 100);
    let _ = id;
}

#[test]
fn concurrency_limit_refuses_not_queues() {
    let mut c = Connection::new(Config::default());
    let mut s = Script::new();
    s.settings(&[(SettingId::MAX_CONCURRENT_STREAMS, 2)])
        .settings_ack();
    assert!(feed(&mut c, &s.take()).1.is_none());
    let a = c.send_request(&get("/a"), true).unwrap();
    let _b = c.send_request(&get("/b"), true).unwrap();
    assert!(!c.can_open_stream());
    let e = c.send_request(&get("/c"), true).unwrap_err();
    assert_eq!(e.kind(), Kind::ConcurrencyLimit);
    assert_eq!(e.code(), "H2_CONCURRENCY_LIMIT");
    s.headers(a.0, &[(":status", "204")], true);
    assert!(feed(&mut c, &s.take()).1.is_none());
    assert!(c.can_open_stream());
    assert_eq!(c.send_request(&get("/c"), true).unwrap(), StreamId(5));
}

#[test]
fn goaway_marks_higher_streams_retryable() {
    let mut c = Connection::new(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    assert!(feed(&mut c, &s.take()).1.is_none());
    let ids: Vec<_> = (0..3)
        .map(|i| c.send_request(&get(&format!("/{i}")), true).unwrap())
        .collect();
    s.goaway(1, Reason::NO_ERROR);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    let refused: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Reset { stream, error }
                if error.is_retryable() && error.kind() == Kind::Refused =>
            {
                Some(*stream)
            }
            _ => None,
        })
        .collect();
    assert_eq!(refused, vec![ids[1], ids[2]]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GoAway {
            last_stream_id: StreamId(1),
            ..
        }
    )));
    assert_eq!(
        c.send_request(&get("/x"), true).unwrap_err().kind(),
        Kind::GoAway
    );
    // Stream 1 still completes.
    s.headers(1, &[(":status", "200")], true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    assert!(matches!(
        events[0],
        Event::Headers {
            status: 200,
            end_stream: true,
            ..
        }
    ));
    // A second GOAWAY may not raise the last stream id.
    s.goaway(3, Reason::NO_ERROR);
    assert_eq!(feed(&mut c, &s.take()).1.unwrap().kind(), Kind::Protocol);
}

#[test]
fn ping_answered_and_acked() {
    let mut c = Connection::new(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    s.ping(*b"12345678");
    assert!(feed(&mut c, &s.take()).1.is_none());
    let out = c.take_transmit();
    assert!(client_frames(&out)
        .iter()
        .any(|(h, p)| h.kind == FrameType::PING && h.flags == 1 && p == b"12345678"));
    c.ping(*b"abcdefgh").unwrap();
    let mut ack = Vec::new();
    burrow_h2::frame::Ping {
        ack: true,
        payload: *b"abcdefgh",
    }
    .encode(&mut ack);
    let (events, _) = feed(&mut c, &ack);
    assert_eq!(
        events,
        vec![Event::PingAcked {
            payload: *b"abcdefgh"
        }]
    );
}

#[test]
fn remote_reset_and_refused_stream() {
    let mut c = Connection::new(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    assert!(feed(&mut c, &s.take()).1.is_none());
    let a = c.send_request(&get("/a"), true).unwrap();
    let b = c.send_request(&get("/b"), true).unwrap();
    s.rst(a.0, Reason::CANCEL).rst(b.0, Reason::REFUSED_STREAM);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    match &events[..] {
        [Event::Reset {
            stream: s1,
            error: e1,
        }, Event::Reset {
            stream: s2,
            error: e2,
        }] => {
            assert_eq!(
                (*s1, e1.kind(), e1.reason(), e1.is_retryable()),
                (a, Kind::Reset, Reason::CANCEL, false)
            );
            assert_eq!(
                (*s2, e2.kind(), e2.is_retryable()),
                (b, Kind::Refused, true)
            );
            assert_eq!(e1.initiator(), burrow_h2::Initiator::Remote);
        }
        other => panic!("{other:?}"),
    }
    // Late frames for the reset streams are ignored.
    s.data(a.0, b"late", true);
    assert!(feed(&mut c, &s.take()).1.is_none());
}

#[test]
fn malformed_responses_are_stream_errors() {
    let cases: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("no :status", vec![("content-type", "x")]),
        (
            "uppercase name",
            vec![(":status", "200"), ("Content-Type", "x")],
        ),
        (
            "connection-specific",
            vec![(":status", "200"), ("connection", "close")],
        ),
        (
            "transfer-encoding",
            vec![(":status", "200"), ("transfer-encoding", "chunked")],
        ),
        (
            "request pseudo-header",
            vec![(":status", "200"), (":path", "/")],
        ),
        (
            "pseudo after regular",
            vec![("server", "x"), (":status", "200")],
        ),
        ("two statuses", vec![(":status", "200"), (":status", "204")]),
        ("bad status", vec![(":status", "2000")]),
        ("CR in value", vec![(":status", "200"), ("x-a", "a\rb")]),
        (
            "conflicting content-length",
            vec![
                (":status", "200"),
                ("content-length", "1"),
                ("content-length", "2"),
            ],
        ),
    ];
    for (what, fields) in cases {
        let (mut c, id) = client_with_get(Config::default());
        let mut s = Script::new();
        server_hello(&mut s);
        s.headers(1, &fields, false);
        let (events, err) = feed(&mut c, &s.take());
        assert!(err.is_none(), "{what}: {err:?}");
        let resets: Vec<_> = events
            .iter()
            .filter_map(|e| {
                if let Event::Reset { stream, error } = e {
                    Some((*stream, error.kind()))
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(resets, vec![(id, Kind::MalformedResponse)], "{what}");
        let out = c.take_transmit();
        assert!(
            client_frames(&out)
                .iter()
                .any(|(h, _)| h.kind == FrameType::RST_STREAM),
            "{what}: RST sent"
        );
    }
}

#[test]
fn content_length_mismatch_and_informational() {
    let (mut c, id) = client_with_get(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    s.headers(
        1,
        &[(":status", "103"), ("link", "</a>; rel=preload")],
        false,
    );
    s.headers(1, &[(":status", "200"), ("content-length", "5")], false);
    s.data(1, b"abc", true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none());
    let ev: Vec<_> = events
        .into_iter()
        .filter(|e| !matches!(e, Event::SettingsAcked | Event::SettingsReceived))
        .collect();
    assert!(matches!(
        ev[0],
        Event::Headers {
            status: 103,
            end_stream: false,
            ..
        }
    ));
    assert!(matches!(ev[1], Event::Headers { status: 200, .. }));
    assert!(
        matches!(&ev[2], Event::Reset { stream, error } if *stream == id && error.kind() == Kind::MalformedResponse)
    );
}

#[test]
fn errors_have_codes_and_advice() {
    let (mut c, _) = client_with_get(Config::default());
    let mut s = Script::new();
    s.ping([0; 8]); // not SETTINGS first
    let e = feed(&mut c, &s.take()).1.unwrap();
    assert_eq!(e.code(), "H2_PROTOCOL");
    assert_eq!(e.scope(), Scope::Connection);
    let msg = e.to_string();
    assert!(
        msg.contains("H2_PROTOCOL") && msg.contains("PROTOCOL_ERROR"),
        "{msg}"
    );
    // Sticky, and a GOAWAY went out.
    assert_eq!(c.handle_input(&[]).unwrap_err(), e);
    let out = c.take_transmit();
    assert!(client_frames(&out)
        .iter()
        .any(|(h, _)| h.kind == FrameType::GOAWAY));
}

#[test]
fn stream_state_machine() {
    let mut c = Connection::new(Config::default());
    let mut s = Script::new();
    server_hello(&mut s);
    assert!(feed(&mut c, &s.take()).1.is_none());
    let mut post = get("/up");
    post[0] = Header::new(":method", "POST");
    // idle -> open (HEADERS without END_STREAM).
    let a = c.send_request(&post, false).unwrap();
    assert_eq!(c.stream_state(a), Some(StreamState::Open));
    // open -> half-closed (local) (DATA with END_STREAM).
    assert_eq!(c.send_data(a, b"body", true).unwrap(), 4);
    assert_eq!(c.stream_state(a), Some(StreamState::HalfClosedLocal));
    // Sending more is refused: our side is closed.
    assert_eq!(
        c.send_data(a, b"more", false).unwrap_err().kind(),
        Kind::UnknownStream
    );
    // half-closed (local) -> closed (server END_STREAM).
    s.headers(a.0, &[(":status", "200")], true);
    assert!(feed(&mut c, &s.take()).1.is_none());
    assert_eq!(c.stream_state(a), None);

    // idle -> open -> half-closed (remote) (the server answers before our body ends) -> closed
    // (our trailers end it).
    let b = c.send_request(&post, false).unwrap();
    s.headers(b.0, &[(":status", "413")], true);
    assert!(feed(&mut c, &s.take()).1.is_none());
    assert_eq!(c.stream_state(b), Some(StreamState::HalfClosedRemote));
    c.send_trailers(b, &[Header::new("x-checksum", "abc")])
        .unwrap();
    assert_eq!(c.stream_state(b), None);
    let out = c.take_transmit();
    let hs: Vec<_> = client_frames(&out)
        .into_iter()
        .filter(|(h, _)| h.kind == FrameType::HEADERS)
        .collect();
    let last = hs.last().unwrap();
    assert_eq!(last.0.stream_id, b);
    assert_eq!(
        last.0.flags & 0x5,
        0x5,
        "trailers carry END_STREAM and END_HEADERS"
    );

    // A GET is half-closed (local) at once; a user reset closes it and late frames are ignored.
    let g = c.send_request(&get("/"), true).unwrap();
    assert_eq!(c.stream_state(g), Some(StreamState::HalfClosedLocal));
    c.reset(g, Reason::CANCEL).unwrap();
    assert_eq!(c.stream_state(g), None);
    assert_eq!(
        c.reset(g, Reason::CANCEL).unwrap_err().kind(),
        Kind::UnknownStream
    );
    s.headers(g.0, &[(":status", "200")], false)
        .data(g.0, b"late", true);
    let (events, err) = feed(&mut c, &s.take());
    assert!(err.is_none() && events.is_empty(), "{events:?} {err:?}");
    // HPACK stayed in step through the ignored HEADERS: a new stream decodes fine.
    let h = c.send_request(&get("/"), true).unwrap();
    s.headers(h.0, &[(":status", "200"), ("x-after", "1")], true);
    let (events, _) = feed(&mut c, &s.take());
    assert!(
        matches!(&events[0], Event::Headers { headers, .. } if headers[0] == Header::new("x-after", "1"))
    );
}

#[test]
fn invalid_requests_are_refused_before_sending() {
    let mut c = Connection::new(Config::default());
    let _ = c.take_transmit();
    let bad: Vec<Vec<Header>> = vec![
        vec![Header::new(":method", "GET"), Header::new(":path", "/")],
        vec![Header::new(":scheme", "https"), Header::new(":path", "/")],
        vec![
            Header::new(":method", "GET"),
            Header::new(":scheme", "https"),
            Header::new(":path", "/"),
            Header::new("Host", "x"),
        ],
        vec![
            Header::new(":method", "GET"),
            Header::new(":scheme", "https"),
            Header::new(":path", "/"),
            Header::new("connection", "keep-alive"),
        ],
        vec![
            Header::new(":method", "GET"),
            Header::new(":scheme", "https"),
            Header::new("accept", "*/*"),
            Header::new(":path", "/"),
        ],
        vec![
            Header::new(":method", "GET"),
            Header::new(":scheme", "https"),
            Header::new(":path", "/"),
            Header::new("te", "gzip"),
        ],
    ];
    for h in bad {
        let e = c.send_request(&h, true).unwrap_err();
        assert_eq!(
            (e.kind(), e.initiator()),
            (Kind::InvalidRequestHeaders, burrow_h2::Initiator::User),
            "{h:?}"
        );
    }
    assert!(
        c.take_transmit().is_empty(),
        "nothing was sent for refused requests"
    );
    let connect = vec![
        Header::new(":method", "CONNECT"),
        Header::new(":authority", "example.com:443"),
    ];
    assert_eq!(c.send_request(&connect, false).unwrap(), StreamId(1));
}

#[test]
fn large_request_headers_use_continuation() {
    let mut c = Connection::new(Config::default());
    let _ = c.take_transmit();
    let mut h = get("/");
    let big = "~".repeat(40_000); // Huffman would be longer: sent raw
    h.push(Header::new("cookie", big.clone()));
    let id = c.send_request(&h, true).unwrap();
    let out = c.take_transmit();
    let frames = client_frames(&out);
    let kinds: Vec<_> = frames.iter().map(|(h, _)| (h.kind, h.flags)).collect();
    assert_eq!(
        kinds,
        vec![
            (FrameType::HEADERS, 0x1),
            (FrameType::CONTINUATION, 0),
            (FrameType::CONTINUATION, 0x4)
        ],
        "HEADERS (END_STREAM) + CONTINUATION + CONTINUATION (END_HEADERS)"
    );
    assert!(frames
        .iter()
        .all(|(h, _)| h.length <= 16_384 && h.stream_id == id));
    let block: Vec<u8> = frames.iter().flat_map(|(_, p)| p.clone()).collect();
    let mut d = burrow_h2::hpack::Decoder::new(4096);
    d.set_max_header_list_size(1 << 20);
    assert_eq!(d.decode(&block).unwrap(), h);
}
