//! burrow on a native OS.
//!
//! * [`TokioNet`]: burrow-client's `Net` over tokio (current-thread runtime + `LocalSet`); the
//!   `burrow` binary is a curl-like CLI over it (`src/bin/burrow.rs`).
//! * [`fetch`]: one TLS connection carrying one `GET` with `Connection: close`, blocking, read
//!   to the end, for handshake interop tests and for debugging a handshake by hand
//!   (`burrow-get`). The connection is burrow-client's [`TlsStream`] over [`TokioNet`] (the
//!   same handshake driver, certificate judge and [`TlsSettings`] as every client
//!   connection) and the response is decoded by burrow-h1. It reports what an HTTP client
//!   hides: the ticket the server issued, whether it ended with close_notify, and the key log.
//!
//! Certificates are judged as in the client ([`Trust`], pins, [`Revocation`], for the server
//! name or the host literal, at the system clock): a rejection sends the matching alert
//! ([`alert_for`]) and fails with [`Error::Certificate`], whose code is the x509 code
//! (`CERT_EXPIRED`, `OCSP_REVOKED`, ...); a success reports a [`CertReport`] in
//! [`TlsInfo::certificate`].

mod net;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use burrow_client::{Deadline, Error, KeyLogSink, Net, NetStream, TlsInfo, TlsSettings, TlsStream};
use burrow_h1::{BodyKind, Limits, Next, RequestHead, ResponseDecoder, Target};
use burrow_handshake::{Profile, Ticket};

pub use burrow_client::{alert_for, CertReport, Trust};
pub use net::{TcpNetStream, TokioNet};

/// Re-exported from burrow-x509: the revocation policy and the staple verdict.
pub use burrow_x509::{Revocation, StapleStatus};

/// Bytes read from the connection at a time.
const READ_CHUNK: usize = 16 * 1024;

/// One connection and its request.
#[derive(Clone, Debug)]
pub struct FetchOptions {
    /// Address to connect to (e.g. `127.0.0.1`).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// The name the certificate must match, sent as SNI and `Host`; `None`: `host` (an IP
    /// literal is sent without SNI).
    pub server_name: Option<String>,
    /// Request path (e.g. `/1k`).
    pub path: String,
    /// The TLS setup: ClientHello profile, trust, pins, revocation, staple request, ALPN.
    pub tls: TlsSettings,
    /// A ticket to offer for resumption.
    pub ticket: Option<Ticket>,
    /// The whole fetch (connect, handshake, request, response) must end within this, else it
    /// fails with `TIMEOUT_TOTAL`.
    pub timeout: Duration,
    /// Return the connection's secrets in [`FetchResult::key_log`] (NSS key log lines, for
    /// `SSLKEYLOGFILE`); this replaces any `tls.key_log` sink. Default false.
    pub key_log: bool,
}

impl FetchOptions {
    /// Defaults: the `curl` profile with ALPN `http/1.1` only (curl 8.21's `--http1.1`
    /// ClientHello, plus the status_request that `tls.request_staple` adds), system roots,
    /// staples requested and checked, 10 s timeout.
    pub fn new(host: &str, port: u16, server_name: Option<&str>, path: &str) -> Self {
        Self {
            host: host.to_string(),
            port,
            server_name: server_name.map(str::to_string),
            path: path.to_string(),
            tls: TlsSettings {
                profile: Profile::curl(),
                // This fetch speaks HTTP/1.1 only: ALPN as `curl --http1.1` sends it.
                alpn: vec![b"http/1.1".to_vec()],
                ..TlsSettings::default()
            },
            ticket: None,
            timeout: Duration::from_secs(10),
            key_log: false,
        }
    }
}

/// A whole HTTP/1.1 response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header fields, in order (values decoded as UTF-8, lossily).
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked if it was chunked.
    pub body: Vec<u8>,
}

impl Response {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a fetch produced.
#[derive(Debug)]
pub struct FetchResult {
    /// The response.
    pub response: Response,
    /// What the handshake negotiated and what certificate verification concluded.
    pub tls: TlsInfo,
    /// The newest ticket the server issued on this connection, to offer next time.
    pub ticket: Option<Ticket>,
    /// Whether the server ended with close_notify (rather than a bare TCP close).
    pub close_notify: bool,
    /// The key log lines (`LABEL <client_random> <secret>`), in derivation order, when
    /// [`FetchOptions::key_log`] was set (else empty).
    pub key_log: Vec<String>,
}

/// Runs `fut` to its end on a new current-thread runtime, inside a `LocalSet` (what
/// [`TokioNet`] needs for `Net::spawn`): the way to drive a `Client<TokioNet>` from sync code.
pub fn block_on_local<F: std::future::Future>(fut: F) -> std::io::Result<F::Output> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(tokio::task::LocalSet::new().block_on(&rt, fut))
}

/// Unix time in milliseconds (the native platform's clock, for [`TokioNet`] and [`fetch`]).
pub fn now_ms() -> u64 {
    #[allow(clippy::disallowed_methods)]
    let now = std::time::SystemTime::now();
    now.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Connects, handshakes, sends `GET path HTTP/1.1` with `Connection: close` and reads to the
/// end of the connection, on a current-thread runtime of its own.
pub fn fetch(opts: &FetchOptions) -> Result<FetchResult, Error> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Io)?;
    rt.block_on(async {
        tokio::time::timeout(opts.timeout, fetch_async(opts))
            .await
            .unwrap_or(Err(Error::Timeout(Deadline::Total)))
    })
}

async fn fetch_async(opts: &FetchOptions) -> Result<FetchResult, Error> {
    let io = |e| Error::from_io(e, Error::Io);
    let name = opts.server_name.as_deref().unwrap_or(&opts.host);
    let mut settings = opts.tls.clone();
    let lines = Rc::new(RefCell::new(Vec::new()));
    if opts.key_log {
        let sink = Rc::clone(&lines);
        settings.key_log = Some(KeyLogSink(Rc::new(move |line: &str| {
            sink.borrow_mut().push(line.to_string());
        })));
    }
    let tcp = TokioNet
        .connect(&opts.host, opts.port)
        .await
        .map_err(Error::Connect)?;
    let mut tls =
        TlsStream::connect_with_ticket(tcp, name, &settings, now_ms(), opts.ticket.clone()).await?;
    let head = RequestHead::new("GET", Target::Origin(&opts.path), name)
        .header("User-Agent", "burrow-native")
        .header("Connection", "close");
    let mut wire = Vec::new();
    let request = head
        .encode(BodyKind::None, &mut wire)
        .map_err(Error::Http1)?;
    tls.write_all(&wire).await.map_err(io)?;
    // Read to the end: the server closes after the response, and tickets and its
    // close_notify arrive on the way.
    let mut decoder = ResponseDecoder::new(Limits::default());
    decoder.expect_response(request);
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = tls.read(&mut buf).await.map_err(io)?;
        if n == 0 {
            break;
        }
        decoder.receive(buf.get(..n).unwrap_or_default());
    }
    let close_notify = tls.received_close_notify();
    if close_notify {
        decoder.receive_eof();
        // Ours in return; the server may be gone already, which changes nothing.
        let _ = tls.close().await;
    } else {
        decoder.receive_unauthenticated_eof();
    }
    Ok(FetchResult {
        response: read_response(&mut decoder)?,
        tls: tls.info().clone(),
        ticket: tls.take_ticket(),
        close_notify,
        key_log: lines.take(),
    })
}

/// The one response `decoder` holds whole.
fn read_response(decoder: &mut ResponseDecoder) -> Result<Response, Error> {
    let mut response = None;
    loop {
        match decoder.next_event().map_err(Error::Http1)? {
            Next::Head { head, .. } => {
                let headers = head.fields_lossy();
                response = Some(Response {
                    status: head.status,
                    headers,
                    body: Vec::new(),
                });
            }
            Next::Data(d) => {
                if let Some(r) = response.as_mut() {
                    r.body.extend_from_slice(d);
                }
            }
            Next::End { .. } => break,
            Next::NeedData | Next::Closed => {
                return Err(Error::HttpProtocol(
                    "the connection closed before the response ended",
                ))
            }
            // 1xx heads and trailers: nothing to keep.
            _ => {}
        }
    }
    response.ok_or(Error::HttpProtocol("a response ended without its head"))
}
