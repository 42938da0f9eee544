//! burrow-proxy: sans-IO proxy handshakes for burrow.
//!
//! * [`Proxy::parse`] parses a proxy URL (`http://`, `https://`, `socks5://`, `socks5h://`).
//! * [`NoProxy`] decides which destinations bypass the proxy (`no_proxy` / `NO_PROXY`).
//! * [`connect::ConnectHandshake`] opens a tunnel with HTTP `CONNECT` (RFC 9110 §9.3.6); for an
//!   `https://` proxy the caller runs it inside its own TLS connection to the proxy.
//! * [`socks5::Socks5Handshake`] opens a tunnel with SOCKS5 `CONNECT` (RFC 1928, RFC 1929).
//!
//! Both handshakes implement [`Handshake`]: the caller sends what [`Handshake::take_transmit`]
//! returns, feeds what it reads to [`Handshake::feed`] until [`Progress::Done`], and then hands
//! `leftover` (bytes that followed the proxy's reply) to the next layer before anything else.
//!
//! No I/O, no clock. Every size the proxy controls is bounded (see the `MAX_*` constants);
//! malformed replies are typed [`Error`]s, never panics.

pub mod connect;
mod error;
mod no_proxy;
mod proxy_url;
pub mod socks5;
mod target;

pub use error::{Error, Socks5Reply, Stage};
pub use no_proxy::NoProxy;
pub use proxy_url::{Credentials, Proxy, Scheme};
pub use target::Target;

/// Maximum size of an HTTP proxy's reply head (status line, headers, final CRLF), per response.
pub const MAX_CONNECT_HEAD_BYTES: usize = 16 * 1024;
/// Maximum number of header fields in an HTTP proxy's reply head.
pub const MAX_CONNECT_HEADERS: usize = 100;
/// Maximum number of 1xx interim responses before the final reply to `CONNECT`.
pub const MAX_INTERIM_RESPONSES: usize = 8;
/// Reason phrases and challenges kept in errors are cut to this many characters.
pub const MAX_REASON_CHARS: usize = 256;

/// The result of feeding bytes to a [`Handshake`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The reply is incomplete: send [`Handshake::take_transmit`] (if any) and read more.
    NeedMore,
    /// The tunnel is open.
    Done {
        /// Bytes that arrived after the proxy's reply. They are the first bytes of the tunnel
        /// and MUST be handed to the next layer (e.g. TLS) before anything read later.
        leftover: Vec<u8>,
    },
}

/// The common driving interface of [`connect::ConnectHandshake`] and [`socks5::Socks5Handshake`].
pub trait Handshake {
    /// Bytes to send to the proxy now (empty when waiting for the proxy).
    fn take_transmit(&mut self) -> Vec<u8>;
    /// Feeds bytes read from the proxy. Returns [`Progress::Done`] once the tunnel is open.
    /// After an error, every later call returns the same error.
    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error>;
    /// The proxy closed the connection (EOF): an error naming the stage.
    fn eof(&mut self) -> Error;
}

/// Keeps at most [`MAX_REASON_CHARS`] characters of text from the proxy, lossily decoded.
pub(crate) fn peer_text(bytes: &[u8]) -> String {
    // Control characters (C0 and C1, e.g. U+009B from obs-text) would reach error messages and
    // terminals as escape sequences: shown as '?'.
    String::from_utf8_lossy(bytes)
        .chars()
        .take(MAX_REASON_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
