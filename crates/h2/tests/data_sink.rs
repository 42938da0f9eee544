//! Body bytes lent to a `DataSink` (`handle_input_with`) against `Event::Data`
//! (`handle_input`): the same bodies, end flags, events, errors and transmitted bytes, however the
//! input is split; DATA payloads are never buffered and the connection window always comes back.
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

use std::collections::{BTreeMap, BTreeSet};

use burrow_h2::frame::{FrameType, SettingId, StreamId};
use burrow_h2::{Config, Connection, Error, Event, Kind, Limits, Reason, Scope};
use common::*;

/// What one run of a case produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Outcome {
    /// Every event except `Data`, in order.
    events: Vec<Event>,
    /// Per stream: the body bytes and whether a DATA END_STREAM ended it.
    bodies: BTreeMap<u32, (Vec<u8>, bool)>,
    err: Option<Error>,
    /// Everything the client transmitted after its first flight.
    out: Vec<u8>,
}

impl Outcome {
    /// Body bytes delivered (either path); checks that none come after the stream's end.
    fn body(
        &mut self,
        owed: &mut BTreeMap<u32, usize>,
        finished: &mut BTreeSet<u32>,
        s: StreamId,
        d: &[u8],
        end: bool,
    ) {
        assert!(
            !finished.contains(&s.0),
            "bytes for stream {} after its end",
            s.0
        );
        if d.is_empty() && !end {
            // Only `Event::Data` reports an empty DATA frame (as it always did); it carries
            // nothing.
            return;
        }
        let b = self.bodies.entry(s.0).or_default();
        b.0.extend_from_slice(d);
        b.1 |= end;
        *owed.entry(s.0).or_default() += d.len();
        if end {
            finished.insert(s.0);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Path {
    Events,
    Sink,
}

/// When the caller gives delivered bytes back.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Consume {
    /// After every input, per stream in id order (so both paths release alike).
    EachInput,
    /// Once, after the last input.
    AtEnd,
}

struct Case {
    name: &'static str,
    config: fn() -> Config,
    /// One request per entry; `true`: the request has no body (END_STREAM).
    requests: &'static [bool],
    /// Run on the client before any server byte.
    setup: fn(&mut Connection),
    bytes: Vec<u8>,
    /// Run on the client after the first input piece.
    after_first: Option<fn(&mut Connection)>,
}

fn nothing(_: &mut Connection) {}

fn split<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&p| p > 0 && p < bytes.len())
        .collect();
    points.sort_unstable();
    points.dedup();
    points.push(bytes.len());
    let mut last = 0;
    points
        .into_iter()
        .map(|p| {
            let piece = &bytes[last..p];
            last = p;
            piece
        })
        .collect()
}

/// Runs `case` split at `cuts`, checking on the way what `DataSink` promises.
fn run(case: &Case, path: Path, cuts: &[usize], consume: Consume) -> Outcome {
    let mut c = Connection::new((case.config)());
    for (i, &end) in case.requests.iter().enumerate() {
        c.send_request(&get(&format!("/{i}")), end).unwrap();
    }
    (case.setup)(&mut c);
    let full = c.connection_recv_window();
    let _ = c.take_transmit();
    let max_buffer = (case.config)().max_frame_size as usize + 9;
    let mut o = Outcome::default();
    let mut owed: BTreeMap<u32, usize> = BTreeMap::new();
    let mut final_headers: BTreeSet<u32> = BTreeSet::new();
    // Streams that ended (END_STREAM, trailers, reset): no more bytes may come for them.
    let mut finished: BTreeSet<u32> = BTreeSet::new();
    for (k, piece) in split(&case.bytes, cuts).into_iter().enumerate() {
        let mut lent: Vec<(StreamId, Vec<u8>, bool)> = Vec::new();
        let range = piece.as_ptr_range();
        let r = match path {
            Path::Events => c.handle_input(piece),
            Path::Sink => c.handle_input_with(piece, &mut |s: StreamId, d: &[u8], e: bool| {
                assert!(!d.is_empty() || e, "an empty call must end the stream");
                // Lent from the input itself: nothing was copied.
                if !d.is_empty() {
                    assert!(range.contains(&d.as_ptr()));
                    assert!(d.as_ptr_range().end <= range.end);
                }
                lent.push((s, d.to_vec(), e));
            }),
        };
        assert!(c.buffered_input() <= max_buffer);
        let events: Vec<Event> = std::iter::from_fn(|| c.poll_event()).collect();
        // A stream's final headers are queued before its first bytes reach the sink; events of
        // this call are polled only after it.
        for ev in &events {
            if let Event::Headers { stream, status, .. } = ev {
                if *status >= 200 {
                    final_headers.insert(stream.0);
                }
            }
        }
        for (s, d, e) in lent {
            assert!(
                final_headers.contains(&s.0),
                "{}: bytes before headers",
                case.name
            );
            o.body(&mut owed, &mut finished, s, &d, e);
        }
        for ev in events {
            match ev {
                Event::Data {
                    stream,
                    data,
                    end_stream,
                } => {
                    assert!(final_headers.contains(&stream.0));
                    o.body(&mut owed, &mut finished, stream, &data, end_stream);
                }
                Event::Trailers { stream, .. } | Event::Reset { stream, .. } => {
                    finished.insert(stream.0);
                    o.events.push(ev);
                }
                ev => o.events.push(ev),
            }
        }
        if let Err(e) = r {
            o.err = Some(e);
            break;
        }
        if consume == Consume::EachInput {
            for (s, n) in std::mem::take(&mut owed) {
                c.consume(StreamId(s), n).unwrap();
            }
        }
        if k == 0 {
            if let Some(a) = case.after_first {
                a(&mut c);
            }
        }
        o.out.extend(c.take_transmit());
    }
    if o.err.is_none() {
        for (s, n) in std::mem::take(&mut owed) {
            c.consume(StreamId(s), n).unwrap();
        }
        assert_eq!(c.buffered_input(), 0, "{}: cases end on a frame", case.name);
        // Every byte the server sent is accounted for: nothing of the connection window leaks.
        assert_eq!(
            c.connection_recv_window(),
            full,
            "{}: the connection window is fully restored (cuts {cuts:?}, {path:?})",
            case.name
        );
    }
    o.out.extend(c.take_transmit());
    o
}

/// Where each frame of `bytes` starts.
fn frame_starts(bytes: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut starts = Vec::new();
    while at + 9 <= bytes.len() {
        starts.push(at);
        at += 9
            + (usize::from(bytes[at]) << 16 | usize::from(bytes[at + 1]) << 8)
            + usize::from(bytes[at + 2]);
    }
    starts
}

/// The chunkings: whole, byte by byte, every two-piece split (for long inputs: those within 40
/// bytes of a frame start and every 61st), and random ones.
fn chunkings(bytes: &[u8], seed: u64) -> Vec<Vec<usize>> {
    let len = bytes.len();
    let mut all = vec![vec![], (1..len).collect()];
    let starts = frame_starts(bytes);
    let near = |p: usize| starts.iter().any(|&s| s.abs_diff(p) <= 40);
    all.extend(
        (1..len)
            .filter(|&p| len <= 4096 || p % 61 == 0 || near(p))
            .map(|p| vec![p]),
    );
    let mut rng = Rng(seed);
    for _ in 0..60 {
        let n = 1 + rng.below(12);
        all.push((0..n).map(|_| rng.below(len)).collect());
    }
    all
}

/// The sink path equals the event path under every chunking; without a mid-input action, both
/// also equal the whole-input event run. Returns that reference outcome.
fn check(case: &Case) -> Outcome {
    let reference = run(case, Path::Events, &[], Consume::AtEnd);
    for cuts in chunkings(&case.bytes, case.bytes.len() as u64 | 1) {
        let events = run(case, Path::Events, &cuts, Consume::EachInput);
        let sink = run(case, Path::Sink, &cuts, Consume::EachInput);
        assert_eq!(sink, events, "{}: sink vs events, cuts {cuts:?}", case.name);
        if case.after_first.is_none() {
            for path in [Path::Events, Path::Sink] {
                let got = run(case, path, &cuts, Consume::AtEnd);
                assert_eq!(got, reference, "{}: {path:?}, cuts {cuts:?}", case.name);
            }
        }
    }
    reference
}

fn hello() -> Script {
    let mut s = Script::new();
    server_hello(&mut s);
    s
}

fn bytes_of(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(31) ^ seed).collect()
}

fn resets(o: &Outcome) -> Vec<(u32, Kind, Reason)> {
    o.events
        .iter()
        .filter_map(|e| match e {
            Event::Reset { stream, error } => Some((stream.0, error.kind(), error.reason())),
            _ => None,
        })
        .collect()
}

/// RST_STREAM frames the client sent: (stream, code).
fn sent_resets(out: &[u8]) -> Vec<(u32, u32)> {
    client_frames(out)
        .into_iter()
        .filter(|(h, _)| h.kind == FrameType::RST_STREAM)
        .map(|(h, p)| {
            (
                h.stream_id.0,
                u32::from_be_bytes(p[..4].try_into().unwrap()),
            )
        })
        .collect()
}

#[test]
fn plain_data() {
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false)
        .data(1, b"hello ", false)
        .data(1, &bytes_of(200, 1), false)
        .data(1, b"", false)
        .data(1, b"end", true);
    let o = check(&Case {
        name: "plain",
        config: Config::default,
        requests: &[true],
        setup: nothing,
        bytes: s.take(),
        after_first: None,
    });
    let mut want = b"hello ".to_vec();
    want.extend(bytes_of(200, 1));
    want.extend(b"end");
    assert_eq!(o.bodies[&1], (want, true));
    assert!(o.err.is_none());
}

#[test]
fn padded_data() {
    let mut s = hello();
    s.headers(1, &[(":status", "200"), ("content-length", "306")], false)
        .data_padded(1, b"abc", 0, false)
        // Padding as long as the payload minus the pad length byte: no data at all.
        .data_padded(1, b"", 5, false)
        .data_padded(1, &bytes_of(300, 2), 255, false)
        .data_padded(1, b"xyz", 7, false)
        .data_padded(1, b"", 3, true);
    let o = check(&Case {
        name: "padded",
        config: Config::default,
        requests: &[true],
        setup: nothing,
        bytes: s.take(),
        after_first: None,
    });
    let mut want = b"abc".to_vec();
    want.extend(bytes_of(300, 2));
    want.extend(b"xyz");
    assert_eq!(o.bodies[&1], (want, true));
    assert!(o.err.is_none() && resets(&o).is_empty());
}

#[test]
fn data_frames_spanning_pieces() {
    // Frames much longer than most pieces: each comes out in many calls.
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false)
        .data(1, &bytes_of(3000, 3), false)
        .data_padded(1, &bytes_of(1500, 4), 200, false)
        .headers(1, &[("x-done", "1")], true);
    let o = check(&Case {
        name: "spanning",
        config: Config::default,
        requests: &[true],
        setup: nothing,
        bytes: s.take(),
        after_first: None,
    });
    let mut want = bytes_of(3000, 3);
    want.extend(bytes_of(1500, 4));
    assert_eq!(o.bodies[&1], (want, false));
    assert!(matches!(o.events.last(), Some(Event::Trailers { .. })));
}

#[test]
fn content_length_exceeded_mid_frame_and_short_at_end() {
    let mut s = hello();
    s.headers(1, &[(":status", "200"), ("content-length", "10")], false)
        .data(1, b"four", false)
        // 4 + 20 > 10: exceeded in the middle of this frame. It is refused when its head is
        // known, before any of it is delivered, so the body is the same however it is split.
        .data_padded(1, &bytes_of(20, 5), 9, false)
        // Stream 1 is closed now: ignored, its credit given back.
        .data(1, b"late", true);
    s.headers(3, &[(":status", "200"), ("content-length", "5")], false)
        .data(3, b"ab", true);
    s.headers(5, &[(":status", "200"), ("content-length", "3")], false)
        .data(5, b"abc", true);
    let o = check(&Case {
        name: "content-length",
        config: Config::default,
        requests: &[true, true, true],
        setup: nothing,
        bytes: s.take(),
        after_first: None,
    });
    assert_eq!(o.bodies.get(&1), Some(&(b"four".to_vec(), false)));
    assert_eq!(o.bodies.get(&3), None);
    assert_eq!(o.bodies.get(&5), Some(&(b"abc".to_vec(), true)));
    let malformed = (Kind::MalformedResponse, Reason::PROTOCOL_ERROR);
    assert_eq!(
        resets(&o),
        vec![(1, malformed.0, malformed.1), (3, malformed.0, malformed.1)]
    );
    assert_eq!(sent_resets(&o.out), vec![(1, 1), (3, 1)]);
}

fn cancel_stream_1(c: &mut Connection) {
    let _ = c.reset(StreamId(1), Reason::CANCEL);
}

#[test]
fn reset_mid_frame_drops_the_rest_and_restores_the_window() {
    let body1a = bytes_of(2000, 6);
    let body1b = bytes_of(1000, 7);
    let body3 = bytes_of(500, 8);
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false)
        .headers(3, &[(":status", "200")], false)
        .data_padded(1, &body1a, 100, false)
        .data(3, &body3[..200], false)
        .data(1, &body1b, true)
        .data(3, &body3[200..], true);
    let bytes = s.take();
    let case = Case {
        name: "reset mid-frame",
        config: Config::default,
        requests: &[true, true],
        setup: nothing,
        bytes: bytes.clone(),
        after_first: Some(cancel_stream_1),
    };
    // `run` asserts the restored window; here also what each cut leaves of stream 1.
    check(&case);
    let mut whole1 = body1a.clone();
    whole1.extend(&body1b);
    let mut mid_frame = 0;
    for p in 1..bytes.len() {
        for path in [Path::Events, Path::Sink] {
            let o = run(&case, path, &[p], Consume::EachInput);
            assert!(o.err.is_none());
            let (got1, end1) = o.bodies.get(&1).cloned().unwrap_or_default();
            assert!(whole1.starts_with(&got1));
            if !end1 {
                // Cancelled before its end: RST_STREAM(CANCEL) went out, no Reset event.
                assert_eq!(sent_resets(&o.out), vec![(1, 8)]);
                assert!(resets(&o).is_empty());
            }
            let partial = !got1.is_empty() && got1.len() < body1a.len();
            mid_frame += usize::from(partial && path == Path::Sink);
            assert_eq!(o.bodies.get(&3), Some(&(body3.clone(), true)));
        }
    }
    assert!(
        mid_frame > 1000,
        "cuts inside the first DATA payload: {mid_frame}"
    );
}

fn reset_stream_1_now(c: &mut Connection) {
    c.reset(StreamId(1), Reason::CANCEL).unwrap();
    let _ = c.take_transmit();
}

const CLOSED_BUDGET: u32 = 30;

fn small_closed_budget() -> Config {
    Config {
        limits: Limits {
            max_closed_stream_frames: CLOSED_BUDGET,
            ..Limits::default()
        },
        ..Config::default()
    }
}

#[test]
fn data_on_closed_streams_is_ignored_and_credited() {
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false)
        .data(1, &bytes_of(100, 9), false)
        .data_padded(1, &bytes_of(50, 10), 20, true);
    s.headers(3, &[(":status", "200")], false)
        .data(3, b"ok", true);
    let o = check(&Case {
        name: "closed",
        config: Config::default,
        requests: &[true, true],
        setup: reset_stream_1_now,
        bytes: s.take(),
        after_first: None,
    });
    assert_eq!(o.bodies.get(&1), None);
    assert_eq!(o.bodies.get(&3), Some(&(b"ok".to_vec(), true)));
    assert!(o.err.is_none());

    // The budget for frames on closed streams still runs out, at the same frame.
    let mut s = hello();
    for i in 0..=CLOSED_BUDGET {
        s.data_padded(1, b"", i as u8, false);
    }
    let o = check(&Case {
        name: "closed flood",
        config: small_closed_budget,
        requests: &[true],
        setup: reset_stream_1_now,
        bytes: s.take(),
        after_first: None,
    });
    let e = o.err.expect("flood refused");
    assert_eq!(
        (e.kind(), e.reason()),
        (Kind::ResetFlood, Reason::ENHANCE_YOUR_CALM)
    );
}

#[test]
fn interleaved_streams() {
    let mut s = hello();
    s.headers(1, &[(":status", "200")], false)
        .headers(3, &[(":status", "100")], false)
        .headers(5, &[(":status", "200")], false)
        .data(1, b"one-a ", false)
        .headers(3, &[(":status", "200")], false)
        .data_padded(3, b"three-a ", 4, false)
        .data(5, b"five", false)
        .ping(*b"interlea")
        .data(1, b"one-b", false)
        .data(3, b"", false)
        .data(5, b"", true)
        .headers(1, &[("x-trailer", "yes")], true)
        .window_update(0, 100)
        .data_padded(3, b"three-b", 1, true);
    let o = check(&Case {
        name: "interleaved",
        config: Config::default,
        requests: &[true, true, true],
        setup: nothing,
        bytes: s.take(),
        after_first: None,
    });
    assert_eq!(o.bodies[&1], (b"one-a one-b".to_vec(), false));
    assert_eq!(o.bodies[&3], (b"three-a three-b".to_vec(), true));
    assert_eq!(o.bodies[&5], (b"five".to_vec(), true));
}

fn small_stream_window() -> Config {
    Config {
        stream_window: 16_384,
        ..Config::default()
    }
}

#[test]
fn stream_errors_match() {
    // DATA before the final headers, beyond the stream window, on a half-closed (remote) stream.
    let mut s = hello();
    s.headers(1, &[(":status", "100")], false)
        .data(1, b"early", false);
    s.headers(3, &[(":status", "200")], false)
        .data(3, &bytes_of(16_384, 11), false)
        .data_padded(3, b"x", 2, false);
    s.headers(5, &[(":status", "200")], true)
        .data(5, b"after the end", false);
    let o = check(&Case {
        name: "stream errors",
        config: small_stream_window,
        requests: &[true, true, false],
        setup: nothing,
        bytes: s.take(),
        after_first: None,
    });
    assert!(o.err.is_none());
    assert_eq!(
        resets(&o),
        vec![
            (1, Kind::MalformedResponse, Reason::PROTOCOL_ERROR),
            (3, Kind::FlowControl, Reason::FLOW_CONTROL_ERROR),
            (5, Kind::Protocol, Reason::STREAM_CLOSED),
        ]
    );
    assert_eq!(o.bodies[&3], (bytes_of(16_384, 11), false));
}

#[test]
fn connection_errors_match() {
    let idle = {
        let mut s = hello();
        s.headers(1, &[(":status", "200")], false)
            .data(1, b"fine", false)
            .data(7, b"idle", false);
        s.take()
    };
    let long_padding = {
        let mut s = hello();
        s.headers(1, &[(":status", "200")], false)
            .data(1, b"fine", false)
            .raw(&[0, 0, 3, 0, 0x8, 0, 0, 0, 1, 3, 0, 0]);
        s.take()
    };
    let padded_empty = {
        let mut s = hello();
        s.headers(1, &[(":status", "200")], false)
            .raw(&[0, 0, 0, 0, 0x8, 0, 0, 0, 1]);
        s.take()
    };
    let stream_zero = {
        let mut s = hello();
        s.raw(&[0, 0, 1, 0, 0, 0, 0, 0, 0, b'x']);
        s.take()
    };
    let before_settings = {
        // Padded and empty (a FRAME_SIZE_ERROR on its own) as the very first frame: the
        // preface rule is checked first, as before.
        let mut s = Script::new();
        s.raw(&[0, 0, 0, 0, 0x8, 0, 0, 0, 1]);
        s.take()
    };
    let inside_headers = {
        let mut s = hello();
        let block = s.block(&[(":status", "200")]);
        s.raw(&[0, 0, block.len() as u8, 1, 0, 0, 0, 0, 1])
            .raw(&block)
            .data(1, b"x", false);
        s.take()
    };
    let too_big = {
        let mut s = hello();
        s.headers(1, &[(":status", "200")], false)
            .data(1, &vec![0; 16_385], false);
        s.take()
    };
    let empty_flood = {
        let mut s = hello();
        s.headers(1, &[(":status", "200")], false);
        for _ in 0..=Limits::default().max_empty_data {
            s.data(1, b"", false);
        }
        s.take()
    };
    let window = {
        let mut s = hello();
        s.headers(1, &[(":status", "200")], false);
        for _ in 0..4 {
            s.data(1, &[1; 16_384], false);
        }
        s.data(1, &[2; 10], false);
        s.take()
    };
    for (name, bytes, config, kind, reason) in [
        (
            "idle",
            idle,
            Config::default as fn() -> Config,
            Kind::Protocol,
            Reason::PROTOCOL_ERROR,
        ),
        (
            "long padding",
            long_padding,
            Config::default,
            Kind::Protocol,
            Reason::PROTOCOL_ERROR,
        ),
        (
            "padded empty",
            padded_empty,
            Config::default,
            Kind::FrameSize,
            Reason::FRAME_SIZE_ERROR,
        ),
        (
            "stream zero",
            stream_zero,
            Config::default,
            Kind::Protocol,
            Reason::PROTOCOL_ERROR,
        ),
        (
            "before settings",
            before_settings,
            Config::default,
            Kind::Protocol,
            Reason::PROTOCOL_ERROR,
        ),
        (
            "inside headers",
            inside_headers,
            Config::default,
            Kind::Protocol,
            Reason::PROTOCOL_ERROR,
        ),
        (
            "too big",
            too_big,
            Config::default,
            Kind::FrameSize,
            Reason::FRAME_SIZE_ERROR,
        ),
        (
            "empty flood",
            empty_flood,
            Config::default,
            Kind::EmptyDataFlood,
            Reason::ENHANCE_YOUR_CALM,
        ),
        (
            "connection window",
            window,
            || Config {
                connection_window: 65_535,
                stream_window: 1 << 20,
                ..Config::default()
            },
            Kind::FlowControl,
            Reason::FLOW_CONTROL_ERROR,
        ),
    ] {
        let o = check(&Case {
            name,
            config,
            requests: &[true],
            setup: nothing,
            bytes,
            after_first: None,
        });
        let e = o.err.unwrap_or_else(|| panic!("{name}: refused"));
        assert_eq!(
            (e.kind(), e.reason(), e.scope()),
            (kind, reason, Scope::Connection),
            "{name}"
        );
    }
}

#[test]
fn full_size_data_frame_in_two_pieces_is_never_buffered() {
    let mut s = hello();
    s.settings(&[(SettingId::INITIAL_WINDOW_SIZE, 1 << 20)]);
    s.headers(1, &[(":status", "200")], false);
    let head = s.take();
    let body = bytes_of(16_384, 12);
    s.data(1, &body, true);
    let frame = s.take();
    let mut padded_body = body.clone();
    padded_body.truncate(16_384 - 1 - 200);
    s.data_padded(1, &padded_body, 200, true);
    let padded = s.take();
    for (frame, body) in [(&frame, &body), (&padded, &padded_body)] {
        assert_eq!(frame.len(), 9 + 16_384);
        for p in 0..=frame.len() {
            for path in [Path::Events, Path::Sink] {
                let (mut c, id) = client_with_get(Config::default());
                c.handle_input(&head).unwrap();
                while c.poll_event().is_some() {}
                let mut got = Vec::new();
                let mut ended = false;
                for piece in [&frame[..p], &frame[p..]] {
                    match path {
                        Path::Events => {
                            c.handle_input(piece).unwrap();
                            while let Some(ev) = c.poll_event() {
                                if let Event::Data {
                                    data, end_stream, ..
                                } = ev
                                {
                                    got.extend(data);
                                    ended |= end_stream;
                                }
                            }
                        }
                        Path::Sink => c
                            .handle_input_with(piece, &mut |s: StreamId, d: &[u8], e: bool| {
                                assert_eq!(s, id);
                                got.extend_from_slice(d);
                                ended |= e;
                            })
                            .unwrap(),
                    }
                    // A 9-byte header and a pad length byte at most, never the payload.
                    assert!(c.buffered_input() <= 10, "cut {p}: {}", c.buffered_input());
                }
                assert_eq!((&got, ended), (body, true), "cut {p}");
                assert_eq!(c.buffered_input(), 0);
            }
        }
    }
}
