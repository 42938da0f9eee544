//! Connection configuration and abuse budgets.

use crate::frame::{PrioritySpec, DEFAULT_MAX_FRAME_SIZE};
use crate::hpack::EncoderPolicy;

/// What the client announces and enforces.
#[derive(Debug, Clone)]
pub struct Config {
    /// Initial stream receive window (SETTINGS_INITIAL_WINDOW_SIZE), default 64 KiB.
    pub stream_window: u32,
    /// Connection receive window (raised from 65,535 by a WINDOW_UPDATE after the preface),
    /// default 1 MiB.
    pub connection_window: u32,
    /// Largest frame payload we accept (SETTINGS_MAX_FRAME_SIZE), default 16,384.
    pub max_frame_size: u32,
    /// Our HPACK decoder's table limit (SETTINGS_HEADER_TABLE_SIZE), default 4,096.
    pub header_table_size: u32,
    /// Largest header list we accept (SETTINGS_MAX_HEADER_LIST_SIZE), default 64 KiB.
    pub max_header_list_size: u32,
    /// How our HPACK encoder represents each field.
    pub encoder: EncoderPolicy,
    /// Our encoder's own table cap (we may use less than the server allows), default 4,096.
    pub encoder_table_size: u32,
    /// Abuse budgets.
    pub limits: Limits,
    /// The SETTINGS of the first flight by id, in order, to reproduce another client's
    /// (`None`: burrow's own choice). Values come from the fields above: 1 =
    /// `header_table_size`, 2 = ENABLE_PUSH 0, 3 = `max_concurrent_streams` (skipped when
    /// `None`), 4 = `stream_window`, 5 = `max_frame_size`, 6 = `max_header_list_size`; other
    /// ids are not sent.
    pub settings_order: Option<Vec<u16>>,
    /// SETTINGS_MAX_CONCURRENT_STREAMS to announce (when `settings_order` lists 3). It limits
    /// streams the server opens; with push disabled there are none.
    pub max_concurrent_streams: Option<u32>,
    /// Priority fields (RFC 9113 §5.3.2, deprecated but still sent by Chromium) put on every
    /// request's HEADERS frame, setting its PRIORITY flag. `None`: no priority.
    pub headers_priority: Option<PrioritySpec>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            stream_window: 64 * 1024,
            connection_window: 1024 * 1024,
            max_frame_size: DEFAULT_MAX_FRAME_SIZE,
            header_table_size: 4096,
            max_header_list_size: 64 * 1024,
            encoder: EncoderPolicy::default(),
            encoder_table_size: 4096,
            limits: Limits::default(),
            settings_order: None,
            max_concurrent_streams: None,
            headers_priority: None,
        }
    }
}

impl Config {
    /// curl 7.88.1 (nghttp2 1.52) as captured: SETTINGS MAX_CONCURRENT_STREAMS 100,
    /// INITIAL_WINDOW_SIZE 32 MiB, ENABLE_PUSH 0 in that order; connection window 32 MiB;
    /// nghttp2's HPACK choices (`:path` not indexed).
    pub fn curl_7_88() -> Config {
        Config {
            stream_window: 32 << 20,
            connection_window: 32 << 20,
            encoder: EncoderPolicy::curl_like(),
            settings_order: Some(vec![3, 4, 2]),
            max_concurrent_streams: Some(100),
            ..Config::default()
        }
    }

    /// curl 8.21.0 (nghttp2 1.69): SETTINGS 3:100, 4:65536, 2:0 and a connection
    /// WINDOW_UPDATE of 1,048,510,465 (a 1000 MiB window), as the tunnelfetch mirror
    /// declares them.
    pub fn curl() -> Config {
        Config {
            stream_window: 65_536,
            connection_window: 1000 << 20,
            encoder: EncoderPolicy::curl_like(),
            settings_order: Some(vec![3, 4, 2]),
            max_concurrent_streams: Some(100),
            ..Config::default()
        }
    }

    /// Chromium 156 as captured: SETTINGS HEADER_TABLE_SIZE 65536, ENABLE_PUSH 0,
    /// INITIAL_WINDOW_SIZE 6 MiB, MAX_HEADER_LIST_SIZE 256 KiB; connection window 15 MiB;
    /// HEADERS with exclusive priority on stream 0, weight 256; `:path` not indexed.
    pub fn chrome() -> Config {
        Config {
            stream_window: 6 << 20,
            connection_window: 15 << 20,
            header_table_size: 65_536,
            max_header_list_size: 256 << 10,
            encoder: EncoderPolicy::default().with_rule(
                b":path",
                crate::hpack::FieldEncoding {
                    representation: crate::hpack::Representation::WithoutIndexing,
                    ..crate::hpack::FieldEncoding::default()
                },
            ),
            settings_order: Some(vec![1, 2, 4, 6]),
            headers_priority: Some(PrioritySpec {
                exclusive: true,
                dependency: crate::frame::StreamId(0),
                weight: 255,
            }),
            ..Config::default()
        }
    }
}

/// Budgets on everything a peer can make us do without useful traffic. The "between useful
/// frames" counters restart whenever a HEADERS block or a non-empty DATA frame arrives on an
/// open stream.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest HPACK string (name or value).
    pub max_string_len: usize,
    /// CONTINUATION frames allowed after one HEADERS frame.
    pub max_continuation_frames: u32,
    /// Bytes one header block may span (HEADERS + CONTINUATION payloads).
    pub max_header_block_bytes: usize,
    /// SETTINGS frames between useful frames.
    pub max_settings_frames: u32,
    /// Entries in one SETTINGS frame (each is work, and an INITIAL_WINDOW_SIZE entry touches
    /// every open stream).
    pub max_settings_entries: usize,
    /// PING frames (and unsolicited PING acks) between useful frames.
    pub max_pings: u32,
    /// Empty DATA frames without END_STREAM between useful frames.
    pub max_empty_data: u32,
    /// Frames (RST_STREAM, DATA, HEADERS, WINDOW_UPDATE) for already closed streams between
    /// useful frames.
    pub max_closed_stream_frames: u32,
    /// WINDOW_UPDATE frames that give back no credit for DATA we sent (their window had
    /// already been returned in full), between useful frames.
    pub max_window_updates: u32,
    /// Stream errors of the peer's making that we answer with RST_STREAM (malformed
    /// responses, flow-control and state violations on one stream), over the connection's
    /// life: each costs us a frame out, so past this the connection ends instead.
    pub max_local_resets: u32,
    /// Bytes of GOAWAY debug data kept for the event.
    pub max_goaway_debug: usize,
    /// Our outstanding PINGs.
    pub max_outstanding_pings: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_string_len: 64 * 1024,
            max_continuation_frames: 32,
            max_header_block_bytes: 128 * 1024,
            max_settings_frames: 64,
            max_settings_entries: 32,
            max_pings: 128,
            max_empty_data: 128,
            max_closed_stream_frames: 1024,
            max_window_updates: 128,
            max_local_resets: 1024,
            max_goaway_debug: 1024,
            max_outstanding_pings: 16,
        }
    }
}
