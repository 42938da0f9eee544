//! Connection configuration and abuse budgets.

/// How the connection sends and what it accepts.
#[derive(Debug, Clone)]
pub struct Config {
    /// The largest message accepted, in bytes after decompression; a compressed message's
    /// payload may exceed it by `max_message_size / 1024 + 64` bytes (DEFLATE's stored blocks
    /// grow incompressible data by 5 bytes per 64 KiB). Larger is [`crate::Kind::MessageTooBig`]
    /// (close code 1009), detected from the frame head before its payload is read, or while
    /// inflating before more than this many bytes are held. Default 16 MiB.
    pub max_message_size: usize,
    /// Outgoing messages longer than this go out as several frames of at most this many bytes
    /// (of the compressed payload, when compressed). `None` (the default): one frame per
    /// message, as browsers, ws and Python websockets send them.
    pub fragment_size: Option<usize>,
    /// Compress outgoing messages when permessage-deflate was agreed (default true). Incoming
    /// compressed messages are always decoded.
    pub compress: bool,
    /// Messages shorter than this go out uncompressed even when compressing (default 1: only
    /// empty messages are never compressed).
    pub compress_min_size: usize,
    /// zlib compression level, 0..=9 (default 1: README.md, "Compressor").
    pub compression_level: u8,
    /// Accept frame lengths not in their minimal encoding (a 16-bit length under 126, a 64-bit
    /// length under 65,536). Default false, as Chromium; ws (npm) and Python websockets accept
    /// them. RFC 6455 §5.2: "the minimal number of bytes MUST be used".
    pub accept_non_minimal_lengths: bool,
    /// Abuse budgets.
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_message_size: 16 << 20,
            fragment_size: None,
            compress: true,
            compress_min_size: 1,
            compression_level: 1,
            accept_non_minimal_lengths: false,
            limits: Limits::default(),
        }
    }
}

/// Budgets on work a server can make us do without progress. "Per turn" counters restart when
/// the caller takes the transmit buffer ([`crate::Connection::take_transmit`], one turn of its
/// I/O loop) and when a data frame with payload arrives; "per message" ones when a message
/// starts.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Ping frames, and Pong frames answering none of our Pings, per turn (each Ping is an
    /// event and owes a Pong). Default 64.
    pub max_pings: u32,
    /// Data frames without payload (empty messages and empty fragments) per turn. Default 64.
    pub max_empty_frames: u32,
    /// Non-final fragments shorter than `tiny_fragment_len` per message. Default 4,096.
    pub max_tiny_fragments: u32,
    /// What counts as a tiny fragment: fewer payload bytes than this. Default 64.
    pub tiny_fragment_len: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_pings: 64,
            max_empty_frames: 64,
            max_tiny_fragments: 4096,
            tiny_fragment_len: 64,
        }
    }
}
