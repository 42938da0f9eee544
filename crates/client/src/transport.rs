//! The byte stream a request runs over, as layers without boxing: a first hop (TCP, or TLS to
//! an HTTPS proxy) and on top of it, for https origins, the origin's TLS.

use std::io;

use crate::net::NetStream;
use crate::tls::TlsStream;

/// The first hop: TCP to the origin or proxy, or TLS to an HTTPS proxy, plus tunnel bytes that
/// arrived with a CONNECT/SOCKS5 reply (handed out before anything else is read).
pub struct Hop<S: NetStream> {
    pub(crate) early: Vec<u8>,
    pub(crate) early_pos: usize,
    pub(crate) kind: HopKind<S>,
}

pub(crate) enum HopKind<S: NetStream> {
    Tcp(S),
    Tls(Box<TlsStream<S>>),
}

/// Read size for plain HTTP's buffer (TLS reads go straight into the record buffer).
const PLAIN_READ: usize = 16 * 1024;

impl<S: NetStream> Hop<S> {
    pub(crate) fn tcp(s: S) -> Self {
        Hop {
            early: Vec::new(),
            early_pos: 0,
            kind: HopKind::Tcp(s),
        }
    }

    /// Plain HTTP's buffered read: the tunnel's early bytes first, then a transport read into
    /// the same (reused) buffer.
    async fn fill_buf(&mut self, read_transport: bool) -> io::Result<&[u8]> {
        if self.early_pos >= self.early.len() && read_transport {
            // Nothing is readable until the read completes: one abandoned halfway (the HTTP/2
            // driver races reads) leaves no stale bytes behind.
            self.early.resize(PLAIN_READ, 0);
            self.early_pos = PLAIN_READ;
            let n = match &mut self.kind {
                HopKind::Tcp(s) => s.read(&mut self.early).await?,
                HopKind::Tls(s) => Box::pin(s.read(&mut self.early)).await?,
            };
            self.early.truncate(n);
            self.early_pos = 0;
        }
        Ok(self.lent())
    }

    /// The buffered bytes not yet consumed.
    fn lent(&self) -> &[u8] {
        self.early.get(self.early_pos..).unwrap_or_default()
    }

    fn consume(&mut self, n: usize) {
        self.early_pos = self.early_pos.saturating_add(n).min(self.early.len());
    }
}

impl<S: NetStream> NetStream for Hop<S> {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(rest) = self.early.get(self.early_pos..).filter(|r| !r.is_empty()) {
            let n = rest.len().min(buf.len());
            if let (Some(d), Some(s)) = (buf.get_mut(..n), rest.get(..n)) {
                d.copy_from_slice(s);
            }
            self.early_pos = self.early_pos.saturating_add(n);
            if self.early_pos >= self.early.len() {
                // Handed out: a pooled connection should not keep the buffer.
                self.early = Vec::new();
                self.early_pos = 0;
            }
            return Ok(n);
        }
        match &mut self.kind {
            HopKind::Tcp(s) => s.read(buf).await,
            HopKind::Tls(s) => Box::pin(s.read(buf)).await,
        }
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.kind {
            HopKind::Tcp(s) => s.write_all(buf).await,
            HopKind::Tls(s) => Box::pin(s.write_all(buf)).await,
        }
    }

    async fn write_all_parts(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        match &mut self.kind {
            HopKind::Tcp(s) => s.write_all_parts(parts).await,
            HopKind::Tls(s) => Box::pin(s.write_all_parts(parts)).await,
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        match &mut self.kind {
            HopKind::Tcp(s) => s.close().await,
            HopKind::Tls(s) => Box::pin(s.close()).await,
        }
    }

    async fn close_after(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        match &mut self.kind {
            HopKind::Tcp(s) => s.close_after(parts).await,
            HopKind::Tls(s) => Box::pin(s.close_after(parts)).await,
        }
    }

    fn farewell(&mut self) {
        match &mut self.kind {
            HopKind::Tcp(s) => s.farewell(),
            HopKind::Tls(s) => s.farewell(),
        }
    }
}

/// The stream HTTP runs over.
pub enum Transport<S: NetStream> {
    /// http origin (directly, or through an HTTP(S) proxy in absolute-form or a tunnel).
    Plain(Hop<S>),
    /// https origin.
    Tls(Box<TlsStream<Hop<S>>>),
}

impl<S: NetStream> Transport<S> {
    /// Whether an end of stream just read was a valid closure: always for plain HTTP (TCP has
    /// nothing more), only after close_notify for TLS (RFC 9112 §9.8).
    pub(crate) fn closure_authenticated(&self) -> bool {
        match self {
            Transport::Plain(_) => true,
            Transport::Tls(s) => s.received_close_notify(),
        }
    }
}

impl<S: NetStream> Transport<S> {
    /// The next bytes of the stream, lent (for TLS: in place where the record was decrypted);
    /// empty at its end. Mark what was used with [`consume`](Self::consume).
    pub(crate) async fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Transport::Plain(h) => h.fill_buf(true).await,
            Transport::Tls(t) => t.fill_buf().await,
        }
    }

    /// Like [`fill_buf`](Self::fill_buf), from what has already arrived only (empty if
    /// nothing has): never waits on the peer.
    pub(crate) async fn fill_buffered(&mut self) -> io::Result<&[u8]> {
        match self {
            Transport::Plain(h) => h.fill_buf(false).await,
            Transport::Tls(t) => t.fill_buffered().await,
        }
    }

    /// [`fill_buffered`](Self::fill_buffered) without a future when nothing needs to wait:
    /// `true` when its answer is at [`lent`](Self::lent); `false` means call `fill_buffered`.
    pub(crate) fn buffered_ready(&mut self) -> bool {
        match self {
            Transport::Plain(_) => true,
            Transport::Tls(t) => t.buffered_ready(),
        }
    }

    /// What is lent now: for TLS the plaintext of the current record, for plain HTTP the
    /// buffered bytes not yet consumed.
    pub(crate) fn lent(&self) -> &[u8] {
        match self {
            Transport::Plain(h) => h.lent(),
            Transport::Tls(t) => t.lent(),
        }
    }

    /// The first `n` bytes of what was lent were used.
    pub(crate) fn consume(&mut self, n: usize) {
        match self {
            Transport::Plain(h) => h.consume(n),
            Transport::Tls(t) => t.consume(n),
        }
    }
}

impl<S: NetStream> NetStream for Transport<S> {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Transport::Plain(s) => s.read(buf).await,
            Transport::Tls(s) => s.read(buf).await,
        }
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Transport::Plain(s) => s.write_all(buf).await,
            Transport::Tls(s) => s.write_all(buf).await,
        }
    }

    async fn write_all_parts(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        match self {
            Transport::Plain(s) => s.write_all_parts(parts).await,
            Transport::Tls(s) => s.write_all_parts(parts).await,
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        match self {
            Transport::Plain(s) => s.close().await,
            Transport::Tls(s) => s.close().await,
        }
    }

    async fn close_after(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        match self {
            Transport::Plain(s) => s.close_after(parts).await,
            Transport::Tls(s) => s.close_after(parts).await,
        }
    }

    fn farewell(&mut self) {
        match self {
            Transport::Plain(s) => s.farewell(),
            Transport::Tls(s) => s.farewell(),
        }
    }
}
