//! Every frame type: encode → decode round trips, and the RFC 9113 MUST checks on decode.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h2::frame::*;
use burrow_h2::{Kind, Reason, Scope};

fn round_trip(f: Frame<'_>) {
    let mut out = Vec::new();
    f.encode(&mut out);
    let head = FrameHeader::parse(&out).unwrap();
    assert_eq!(head.length as usize, out.len() - HEADER_LEN);
    let got = Frame::decode(head, &out[HEADER_LEN..]).unwrap();
    assert_eq!(got, f);
}

#[test]
fn every_frame_type_round_trips() {
    let s = StreamId(5);
    round_trip(Frame::Data(Data {
        stream_id: s,
        data: b"abc",
        end_stream: true,
        pad: None,
        flow_len: 3,
    }));
    round_trip(Frame::Data(Data {
        stream_id: s,
        data: b"abc",
        end_stream: false,
        pad: Some(4),
        flow_len: 8,
    }));
    let spec = PrioritySpec {
        exclusive: true,
        dependency: StreamId(3),
        weight: 200,
    };
    round_trip(Frame::Headers(Headers {
        stream_id: s,
        block: b"\x82",
        end_stream: true,
        end_headers: false,
        priority: Some(spec),
        pad: Some(2),
    }));
    round_trip(Frame::Priority(Priority { stream_id: s, spec }));
    round_trip(Frame::RstStream(RstStream {
        stream_id: s,
        reason: Reason(0xdead),
    }));
    round_trip(Frame::Settings(Settings {
        ack: false,
        values: vec![
            Setting {
                id: SettingId::ENABLE_PUSH,
                value: 0,
            },
            Setting {
                id: SettingId(0x99),
                value: 7,
            },
        ],
    }));
    round_trip(Frame::Settings(Settings {
        ack: true,
        values: vec![],
    }));
    round_trip(Frame::PushPromise(PushPromise {
        stream_id: s,
        promised_id: StreamId(2),
        block: b"\x82\x84",
        end_headers: true,
        pad: Some(1),
    }));
    round_trip(Frame::Ping(Ping {
        ack: true,
        payload: *b"8 bytes!",
    }));
    round_trip(Frame::GoAway(GoAway {
        last_stream_id: s,
        reason: Reason::ENHANCE_YOUR_CALM,
        debug_data: b"dbg",
    }));
    round_trip(Frame::WindowUpdate(WindowUpdate {
        stream_id: StreamId(0),
        increment: 0x7fff_ffff,
    }));
    round_trip(Frame::Continuation(Continuation {
        stream_id: s,
        block: b"xyz",
        end_headers: true,
    }));
    // Unknown types are kept (and ignored by the connection).
    let head = FrameHeader {
        length: 3,
        kind: FrameType(0xfa),
        flags: 0,
        stream_id: s,
    };
    assert_eq!(Frame::decode(head, b"abc").unwrap(), Frame::Unknown(head));
}

fn err(kind: FrameType, flags: u8, stream: u32, payload: &[u8]) -> burrow_h2::Error {
    let head = FrameHeader {
        length: payload.len() as u32,
        kind,
        flags,
        stream_id: StreamId(stream),
    };
    Frame::decode(head, payload).unwrap_err()
}

#[test]
fn must_checks() {
    use flags::*;
    let conn = |e: burrow_h2::Error| (e.kind(), e.reason(), e.scope());
    let proto = (Kind::Protocol, Reason::PROTOCOL_ERROR, Scope::Connection);
    let size = (Kind::FrameSize, Reason::FRAME_SIZE_ERROR, Scope::Connection);
    // Stream 0 where a stream is required.
    for t in [
        FrameType::DATA,
        FrameType::HEADERS,
        FrameType::PRIORITY,
        FrameType::CONTINUATION,
    ] {
        assert_eq!(conn(err(t, 0, 0, &[0; 5])), proto, "{t:?}");
    }
    assert_eq!(conn(err(FrameType::RST_STREAM, 0, 0, &[0; 4])), proto);
    assert_eq!(conn(err(FrameType::PUSH_PROMISE, 0, 0, &[0; 4])), proto);
    // A stream where stream 0 is required.
    assert_eq!(conn(err(FrameType::SETTINGS, 0, 1, &[])), proto);
    assert_eq!(conn(err(FrameType::PING, 0, 1, &[0; 8])), proto);
    assert_eq!(conn(err(FrameType::GOAWAY, 0, 1, &[0; 8])), proto);
    // Lengths.
    assert_eq!(conn(err(FrameType::SETTINGS, ACK, 0, &[0; 6])), size);
    assert_eq!(conn(err(FrameType::SETTINGS, 0, 0, &[0; 7])), size);
    assert_eq!(conn(err(FrameType::PING, 0, 0, &[0; 9])), size);
    assert_eq!(conn(err(FrameType::RST_STREAM, 0, 1, &[0; 3])), size);
    assert_eq!(conn(err(FrameType::WINDOW_UPDATE, 0, 1, &[0; 5])), size);
    assert_eq!(conn(err(FrameType::GOAWAY, 0, 0, &[0; 7])), size);
    let e = err(FrameType::PRIORITY, 0, 1, &[0; 4]);
    assert_eq!(
        (e.kind(), e.scope()),
        (Kind::FrameSize, Scope::Stream(StreamId(1)))
    );
    // Padding at least as long as the payload.
    assert_eq!(conn(err(FrameType::DATA, PADDED, 1, &[3, 0, 0])), proto);
    assert_eq!(conn(err(FrameType::HEADERS, PADDED, 1, &[1])), proto);
    assert!(Frame::decode(
        FrameHeader {
            length: 3,
            kind: FrameType::DATA,
            flags: PADDED,
            stream_id: StreamId(1)
        },
        &[2, 0, 0]
    )
    .is_ok());
    // Self-dependency.
    let e = err(FrameType::PRIORITY, 0, 3, &[0, 0, 0, 3, 0]);
    assert_eq!(
        (e.kind(), e.scope()),
        (Kind::Protocol, Scope::Stream(StreamId(3)))
    );
    // WINDOW_UPDATE increment 0: stream error on a stream, connection error on 0.
    assert_eq!(
        err(FrameType::WINDOW_UPDATE, 0, 1, &[0; 4]).scope(),
        Scope::Stream(StreamId(1))
    );
    assert_eq!(conn(err(FrameType::WINDOW_UPDATE, 0, 0, &[0; 4])), proto);
    // SETTINGS values.
    let setting = |id: u16, v: u32| {
        let mut p = id.to_be_bytes().to_vec();
        p.extend_from_slice(&v.to_be_bytes());
        p
    };
    assert_eq!(
        err(FrameType::SETTINGS, 0, 0, &setting(2, 2)).kind(),
        Kind::InvalidSetting
    );
    assert_eq!(
        err(FrameType::SETTINGS, 0, 0, &setting(4, 0x8000_0000)).reason(),
        Reason::FLOW_CONTROL_ERROR
    );
    assert_eq!(
        err(FrameType::SETTINGS, 0, 0, &setting(5, 16_383)).reason(),
        Reason::PROTOCOL_ERROR
    );
    assert_eq!(
        err(FrameType::SETTINGS, 0, 0, &setting(5, 1 << 24)).reason(),
        Reason::PROTOCOL_ERROR
    );
    // The reserved bit of a stream id is ignored.
    let h = FrameHeader::parse(&[0, 0, 0, 0, 0, 0x80, 0, 0, 1]).unwrap();
    assert_eq!(h.stream_id, StreamId(1));
}
