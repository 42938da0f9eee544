//! Shared test helpers: a scripted server that builds frames with our own encoders.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
#![allow(dead_code, unreachable_pub)]

use burrow_h2::frame::{
    Data, GoAway, Headers, Ping, RstStream, Setting, SettingId, Settings, StreamId, WindowUpdate,
};
use burrow_h2::hpack::{Encoder, EncoderPolicy};
use burrow_h2::{Config, Connection, Event, Header, Reason};

/// A scripted server: appends frames to `out`.
pub struct Script {
    pub out: Vec<u8>,
    pub enc: Encoder,
}

impl Script {
    pub fn new() -> Script {
        Script {
            out: Vec::new(),
            enc: Encoder::new(EncoderPolicy::default()),
        }
    }

    /// The server preface: SETTINGS with `values`.
    pub fn settings(&mut self, values: &[(SettingId, u32)]) -> &mut Self {
        Settings {
            ack: false,
            values: values
                .iter()
                .map(|&(id, value)| Setting { id, value })
                .collect(),
        }
        .encode(&mut self.out);
        self
    }

    pub fn settings_ack(&mut self) -> &mut Self {
        Settings {
            ack: true,
            values: vec![],
        }
        .encode(&mut self.out);
        self
    }

    pub fn block(&mut self, fields: &[(&str, &str)]) -> Vec<u8> {
        let hs: Vec<Header> = fields.iter().map(|(n, v)| Header::new(*n, *v)).collect();
        let mut b = Vec::new();
        self.enc.encode(&hs, &mut b);
        b
    }

    pub fn headers(&mut self, id: u32, fields: &[(&str, &str)], end_stream: bool) -> &mut Self {
        let block = self.block(fields);
        Headers {
            stream_id: StreamId(id),
            block: &block,
            end_stream,
            end_headers: true,
            priority: None,
            pad: None,
        }
        .encode(&mut self.out);
        self
    }

    pub fn data(&mut self, id: u32, bytes: &[u8], end_stream: bool) -> &mut Self {
        Data {
            stream_id: StreamId(id),
            data: bytes,
            end_stream,
            pad: None,
            flow_len: 0,
        }
        .encode(&mut self.out);
        self
    }

    pub fn data_padded(&mut self, id: u32, bytes: &[u8], pad: u8, end_stream: bool) -> &mut Self {
        Data {
            stream_id: StreamId(id),
            data: bytes,
            end_stream,
            pad: Some(pad),
            flow_len: 0,
        }
        .encode(&mut self.out);
        self
    }

    pub fn ping(&mut self, payload: [u8; 8]) -> &mut Self {
        Ping {
            ack: false,
            payload,
        }
        .encode(&mut self.out);
        self
    }

    pub fn rst(&mut self, id: u32, reason: Reason) -> &mut Self {
        RstStream {
            stream_id: StreamId(id),
            reason,
        }
        .encode(&mut self.out);
        self
    }

    pub fn goaway(&mut self, last: u32, reason: Reason) -> &mut Self {
        GoAway {
            last_stream_id: StreamId(last),
            reason,
            debug_data: b"bye",
        }
        .encode(&mut self.out);
        self
    }

    pub fn window_update(&mut self, id: u32, inc: u32) -> &mut Self {
        WindowUpdate {
            stream_id: StreamId(id),
            increment: inc,
        }
        .encode(&mut self.out);
        self
    }

    pub fn raw(&mut self, b: &[u8]) -> &mut Self {
        self.out.extend_from_slice(b);
        self
    }

    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }
}

pub fn get(path: &str) -> Vec<Header> {
    vec![
        Header::new(":method", "GET"),
        Header::new(":scheme", "https"),
        Header::new(":authority", "localhost"),
        Header::new(":path", path),
    ]
}

/// A client with one GET sent (stream 1); transmit drained.
pub fn client_with_get(config: Config) -> (Connection, StreamId) {
    let mut c = Connection::new(config);
    let id = c.send_request(&get("/"), true).unwrap();
    let _ = c.take_transmit();
    (c, id)
}

/// Feeds `bytes` split at `cuts`, collecting events; returns events and the first error.
pub fn feed_split(
    c: &mut Connection,
    bytes: &[u8],
    cuts: &[usize],
) -> (Vec<Event>, Option<burrow_h2::Error>) {
    let mut events = Vec::new();
    let mut last = 0;
    let mut err = None;
    let mut points: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&p| p > 0 && p < bytes.len())
        .collect();
    points.sort_unstable();
    points.dedup();
    points.push(bytes.len());
    for p in points {
        if let Err(e) = c.handle_input(&bytes[last..p]) {
            err = Some(e);
            break;
        }
        while let Some(ev) = c.poll_event() {
            events.push(ev);
        }
        last = p;
    }
    while let Some(ev) = c.poll_event() {
        events.push(ev);
    }
    (events, err)
}

/// Feeds everything at once.
pub fn feed(c: &mut Connection, bytes: &[u8]) -> (Vec<Event>, Option<burrow_h2::Error>) {
    feed_split(c, bytes, &[])
}

/// A tiny deterministic PRNG (xorshift) for random splits.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Merges consecutive Data events of one stream (chunking may split or merge them).
pub fn normalize(events: Vec<Event>) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    for ev in events {
        if let Event::Data {
            stream,
            data,
            end_stream,
        } = &ev
        {
            if let Some(Event::Data {
                stream: s,
                data: d,
                end_stream: false,
            }) = out.last_mut()
            {
                if s == stream {
                    d.extend_from_slice(data);
                    if *end_stream {
                        if let Some(Event::Data { end_stream: e, .. }) = out.last_mut() {
                            *e = true;
                        }
                    }
                    continue;
                }
            }
        }
        out.push(ev);
    }
    out
}

/// Splits what the client sent into frames (the preface, if present, is skipped).
pub fn client_frames(bytes: &[u8]) -> Vec<(burrow_h2::frame::FrameHeader, Vec<u8>)> {
    let bytes = bytes
        .strip_prefix(burrow_h2::conn::PREFACE)
        .unwrap_or(bytes);
    let mut r = burrow_h2::frame::FrameReader::new(1 << 24);
    let mut out = Vec::new();
    r.feed(bytes, |f| {
        out.push((f.head, f.payload.to_vec()));
        Ok(())
    })
    .unwrap();
    assert_eq!(r.buffered(), 0, "client output ends mid-frame");
    out
}

/// Window updates the client sent: (stream, increment).
pub fn window_updates(bytes: &[u8]) -> Vec<(u32, u32)> {
    client_frames(bytes)
        .into_iter()
        .filter(|(h, _)| h.kind == burrow_h2::frame::FrameType::WINDOW_UPDATE)
        .map(|(h, p)| {
            (
                h.stream_id.0,
                u32::from_be_bytes(p[..4].try_into().unwrap()),
            )
        })
        .collect()
}

/// A server preface followed by an ACK of the client's SETTINGS.
pub fn server_hello(s: &mut Script) {
    s.settings(&[]).settings_ack();
}

impl Script {
    /// HEADERS + CONTINUATION frames carrying `fields`, the block cut every `chunk` bytes.
    pub fn headers_split(
        &mut self,
        id: u32,
        fields: &[(&str, &str)],
        end_stream: bool,
        chunk: usize,
    ) -> &mut Self {
        use burrow_h2::frame::Continuation;
        let block = self.block(fields);
        let parts: Vec<&[u8]> = block.chunks(chunk.max(1)).collect();
        let n = parts.len();
        for (i, p) in parts.into_iter().enumerate() {
            if i == 0 {
                Headers {
                    stream_id: StreamId(id),
                    block: p,
                    end_stream,
                    end_headers: n == 1,
                    priority: None,
                    pad: None,
                }
                .encode(&mut self.out);
            } else {
                Continuation {
                    stream_id: StreamId(id),
                    block: p,
                    end_headers: i + 1 == n,
                }
                .encode(&mut self.out);
            }
        }
        self
    }
}
