//! Connection configuration and abuse budgets.

use crate::frame::DEFAULT_MAX_FRAME_SIZE;
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
    /// PING frames (and unsolicited PING acks) between useful frames.
    pub max_pings: u32,
    /// Empty DATA frames without END_STREAM between useful frames.
    pub max_empty_data: u32,
    /// Frames (RST_STREAM, DATA, HEADERS, WINDOW_UPDATE) for already closed streams between
    /// useful frames.
    pub max_closed_stream_frames: u32,
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
            max_pings: 128,
            max_empty_data: 128,
            max_closed_stream_frames: 1024,
            max_goaway_debug: 1024,
            max_outstanding_pings: 16,
        }
    }
}
