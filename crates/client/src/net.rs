//! The runtime seam: everything the client needs from the platform (TCP, timers, clock,
//! background tasks). Native implements it over tokio (burrow-native's `TokioNet`), the Worker
//! over `cloudflare:sockets`. Futures need not be `Send`: the client is single-threaded.

use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::time::Duration;

/// A platform: connect, sleep, tell the time, run background tasks, resolve names.
#[allow(async_fn_in_trait)] // single-threaded by design: no Send bound wanted on these futures
pub trait Net: 'static {
    /// A connected byte stream.
    type Stream: NetStream;
    /// Opens a TCP connection to `host:port` (a name or an IP literal).
    async fn connect(&self, host: &str, port: u16) -> io::Result<Self::Stream>;
    /// Completes after `d`.
    async fn sleep(&self, d: Duration);
    /// Unix time in ms (certificate validity, cookies, timings).
    fn now_ms(&self) -> u64;
    /// Runs a background task to completion.
    fn spawn(&self, task: Pin<Box<dyn Future<Output = ()>>>);
    /// Resolves a host name (plain socks5 resolves locally; socks5h does not). Called only
    /// when [`resolves_names`](Self::resolves_names) is true.
    async fn resolve(&self, host: &str) -> io::Result<Vec<IpAddr>>;
    /// Whether this platform can resolve names. Without it (a Worker has no DNS lookup) a
    /// `socks5://` proxy is sent the name, as with `socks5h://`: the proxy resolves it, and
    /// `ResponseMeta::proxied` says `Socks5h`.
    fn resolves_names(&self) -> bool {
        true
    }
}

/// A bidirectional byte stream.
#[allow(async_fn_in_trait)] // see Net
pub trait NetStream: 'static {
    /// Reads some bytes; `Ok(0)` is the end of the stream.
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize>;
    /// Writes all of `buf`.
    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()>;
    /// Writes the concatenation of `parts`, in order (a gather write: the HTTP layers hand
    /// over frame heads and the caller's body bytes without joining them first). The default
    /// joins them and makes one [`write_all`](Self::write_all) of it — one copy, and one
    /// transport write as if the caller had joined them, not a write per (maybe 9-byte)
    /// part; `TlsStream` overrides it to fill its records straight from the parts.
    async fn write_all_parts(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        let mut full = parts.iter().filter(|p| !p.is_empty());
        match (full.next(), full.next()) {
            (None, _) => Ok(()),
            (Some(one), None) => self.write_all(one).await,
            _ => self.write_all(&parts.concat()).await,
        }
    }
    /// Ends the stream (TLS: close_notify, then the transport).
    async fn close(&mut self) -> io::Result<()>;
    /// Writes the concatenation of `parts` as its last words, then ends the stream (a
    /// GOAWAY, then [`close`](Self::close)): the close is made even when the write fails.
    /// The default is the two calls; `TlsStream` puts the parts' records and close_notify in
    /// one transport write (a socket write saved per connection).
    async fn close_after(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        let written = self.write_all_parts(parts).await;
        let closed = self.close().await;
        written.and(closed)
    }
    /// Says what is written from now on is a farewell (a GOAWAY, close_notify, then
    /// [`close`](Self::close)) that nobody waits for. A platform whose pending I/O can be
    /// dropped unsettled — a Worker's request that has ended leaves its promises unsettled —
    /// sends it without waiting, so the task saying goodbye still ends and frees what it
    /// holds; others ignore this (the default).
    fn farewell(&mut self) {}
}
