//! burrow on a native OS.
//!
//! * [`TokioNet`]: burrow-client's `Net` over tokio (current-thread runtime + `LocalSet`); the
//!   `burrow` binary is a curl-like CLI over it (`src/bin/burrow.rs`).
//! * [`fetch`]: a minimal blocking driver for the TLS client over `std::net::TcpStream` —
//!   handshake, one HTTP/1.1 GET, read until close — kept for handshake interop tests and for
//!   debugging a handshake by hand (`burrow-get`).
//!
//! Certificates: the handshake's `NeedVerify` is answered by burrow-x509 ([`Trust`]: system
//! roots by default, PEM anchors, SPKI pins in [`FetchOptions::pins`], or the explicit
//! insecure mode), for the SNI name (or the host literal), at the system clock, with the
//! stapled OCSP response from the Certificate message ([`Revocation`]). A rejection sends the
//! matching alert ([`alert_for`]) and fails with [`FetchError::Certificate`], whose
//! [`code`](FetchError::code) is the x509 code (`CERT_EXPIRED`, `OCSP_REVOKED`, ...); a success
//! reports a [`CertReport`] in [`FetchResult::certificate`].
//!
//! Key log: with [`FetchOptions::key_log`] set, a successful fetch returns the connection's
//! secrets as NSS key log entries in [`FetchResult::key_log`] (what `SSLKEYLOGFILE` holds for
//! other clients), so a capture can be decrypted with Wireshark; a failed fetch returns none.
//! TLS 1.2 servers without extended master secret are accepted (their sessions issue no
//! ticket, [`HandshakeSummary::extended_master_secret`] is `Some(false)`) unless
//! [`FetchOptions::require_extended_master_secret`] is set.

mod http;
mod net;

use burrow_handshake::{
    Config, Connection, Entropy, Event, ExtensionSlot, HandshakeSummary, KeyLogEntry, Profile,
    Ticket,
};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use burrow_client::Judge;
pub use burrow_client::{alert_for, CertReport, Trust};
pub use http::Response;
pub use net::{TcpNetStream, TokioNet};

/// Re-exported from burrow-x509: the revocation policy and the staple verdict.
pub use burrow_x509::{Revocation, StapleStatus};

/// One request.
#[derive(Clone, Debug)]
pub struct FetchOptions {
    /// Address to connect to (e.g. `127.0.0.1`).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// SNI and Host header; `None` sends no SNI and uses `host` as Host.
    pub server_name: Option<String>,
    /// Request path (e.g. `/1k`).
    pub path: String,
    /// The ClientHello profile.
    pub profile: Profile,
    /// Certificate trust (default: the system roots).
    pub trust: Trust,
    /// SPKI pins (`sha256/BASE64`); when non-empty, some certificate of the validated path
    /// must match one (on top of full validation).
    pub pins: Vec<String>,
    /// Stapled OCSP policy: check a staple when present (default) or require one.
    pub revocation: Revocation,
    /// Ask for a stapled OCSP response (`status_request`); default true. Without it servers
    /// staple nothing, so only `Revocation::RequireStaple` can notice.
    pub request_staple: bool,
    /// A ticket to offer for resumption.
    pub ticket: Option<Ticket>,
    /// Socket read/write timeout.
    pub timeout: Duration,
    /// Return the connection's secrets in [`FetchResult::key_log`] (NSS key log format, for
    /// `SSLKEYLOGFILE`); default false.
    pub key_log: bool,
    /// TLS 1.2: refuse a server without extended master secret (RFC 7627) with
    /// `TLS12_NO_EXTENDED_MASTER_SECRET`; default false (accepted, never resumed). See
    /// [`Config::require_extended_master_secret`].
    pub require_extended_master_secret: bool,
}

impl FetchOptions {
    /// Defaults: the `curl` profile with ALPN `http/1.1` (curl 8.21's `--http1.1`
    /// ClientHello; `request_staple` adds a status_request to it), system roots, staples requested and checked, 10 s
    /// timeout.
    pub fn new(host: &str, port: u16, server_name: Option<&str>, path: &str) -> Self {
        Self {
            host: host.to_string(),
            port,
            server_name: server_name.map(str::to_string),
            path: path.to_string(),
            // This fetch speaks HTTP/1.1 only: ALPN as `curl --http1.1` sends it.
            profile: Profile {
                alpn: vec![b"http/1.1".to_vec()],
                ..Profile::curl()
            },
            trust: Trust::System,
            pins: Vec::new(),
            revocation: Revocation::CheckStaple,
            request_staple: true,
            ticket: None,
            timeout: Duration::from_secs(10),
            key_log: false,
            require_extended_master_secret: false,
        }
    }
}

/// What a fetch produced.
#[derive(Debug)]
pub struct FetchResult {
    /// The parsed HTTP response.
    pub response: Response,
    /// What the handshake negotiated.
    pub summary: HandshakeSummary,
    /// Tickets the server issued.
    pub tickets: Vec<Ticket>,
    /// Whether the server ended with close_notify (rather than a bare TCP close).
    pub close_notify: bool,
    /// The OCSP response the server stapled to its leaf, if any.
    pub ocsp_response: Option<Vec<u8>>,
    /// What certificate verification concluded (path, anchor, leaf pin, staple status).
    pub certificate: CertReport,
    /// The key log entries, in derivation order, when [`FetchOptions::key_log`] was set (else
    /// empty). Write each [`KeyLogEntry::to_line`] on its own line to the key log file.
    pub key_log: Vec<KeyLogEntry>,
}

/// Why a fetch failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum FetchError {
    /// The socket failed.
    Io(std::io::Error),
    /// TLS failed (the alert, if any, was sent).
    Tls(burrow_handshake::Error),
    /// Randomness could not be drawn.
    Rng,
    /// The HTTP response was malformed or truncated.
    Http(&'static str),
    /// The server's certificate was rejected by burrow-x509 (the matching alert was sent).
    Certificate(burrow_x509::Error),
    /// The trust configuration (anchors, pins, host name) is unusable; nothing was sent.
    TrustConfig(burrow_x509::Error),
}

impl FetchError {
    /// Stable machine-readable code: the x509 code for certificate failures
    /// (`CERT_EXPIRED`, `OCSP_REVOKED`, ...), the TLS code for handshake failures.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Io(_) => "IO",
            Self::Tls(e) => e.code(),
            Self::Rng => "RNG",
            Self::Http(_) => "HTTP",
            Self::Certificate(e) | Self::TrustConfig(e) => e.code(),
        }
    }
}

impl core::fmt::Display for FetchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Io(e) => write!(f, "socket: {e}"),
            Self::Tls(e) => write!(f, "TLS {}: {e}", e.code()),
            Self::Rng => f.write_str("the system random number generator failed"),
            Self::Http(m) => write!(f, "HTTP: {m}"),
            Self::Certificate(e) => write!(f, "certificate {}: {e}", e.code()),
            Self::TrustConfig(e) => write!(f, "trust configuration {}: {e}", e.code()),
        }
    }
}

impl std::error::Error for FetchError {}

impl From<std::io::Error> for FetchError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<burrow_handshake::Error> for FetchError {
    fn from(e: burrow_handshake::Error) -> Self {
        Self::Tls(e)
    }
}

/// Unix time in milliseconds (this driver is the one place that reads the clock).
pub fn now_ms() -> u64 {
    #[allow(clippy::disallowed_methods)]
    let now = std::time::SystemTime::now();
    now.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Draws the connection's entropy from the OS.
pub fn fresh_entropy(profile: &Profile) -> Result<Entropy, FetchError> {
    let mut pool = vec![0u8; Entropy::pool_len(profile)];
    burrow_crypto::rand::fill(&mut pool).map_err(|_| FetchError::Rng)?;
    Entropy::from_pool(profile, &pool).map_err(FetchError::Tls)
}

/// Connects, handshakes, sends `GET path HTTP/1.1` with `Connection: close`, reads to the end.
pub fn fetch(opts: &FetchOptions) -> Result<FetchResult, FetchError> {
    let verify_name = opts.server_name.as_deref().unwrap_or(&opts.host);
    let judge = Judge::new(&opts.trust, &opts.pins, opts.revocation, verify_name)
        .map_err(FetchError::TrustConfig)?;
    let mut profile = opts.profile.clone();
    if opts.request_staple {
        profile.add_status_request();
    } else {
        profile
            .extension_order
            .retain(|s| *s != ExtensionSlot::StatusRequest);
    }
    let mut sock = TcpStream::connect((opts.host.as_str(), opts.port))?;
    sock.set_read_timeout(Some(opts.timeout))?;
    sock.set_write_timeout(Some(opts.timeout))?;
    sock.set_nodelay(true)?;
    let mut cfg = Config::new(profile.clone(), opts.server_name.as_deref());
    cfg.resumption = opts.ticket.clone();
    cfg.key_log = opts.key_log;
    cfg.require_extended_master_secret = opts.require_extended_master_secret;
    let mut conn = Connection::new(cfg, fresh_entropy(&profile)?, now_ms())?;
    let host = opts
        .server_name
        .clone()
        .unwrap_or_else(|| opts.host.clone());
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: burrow-native\r\nConnection: close\r\n\r\n",
        opts.path
    );
    let mut summary = None;
    let mut tickets = Vec::new();
    let mut plaintext = Vec::new();
    let mut close_notify = false;
    let mut ocsp_response = None;
    let mut certificate = None;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let ev = conn.poll_event(now_ms());
        let out = conn.take_transmit();
        if !out.is_empty() {
            sock.write_all(&out)?;
        }
        let ev = match (ev, &certificate) {
            // A rejection we asked for: report the x509 error rather than the TLS echo of it.
            (Err(_), Some(Err(e))) => return Err(FetchError::Certificate(*e)),
            (ev, _) => ev?,
        };
        match ev {
            Event::Transmit => {}
            Event::NeedVerify(req) => {
                ocsp_response.clone_from(&req.ocsp_response);
                let now = i64::try_from(now_ms() / 1000).unwrap_or(i64::MAX);
                let verdict = judge.judge(&req, now);
                certificate = Some(verdict.result);
                if let Err(e) = conn.complete(verdict.answer) {
                    // Send the alert; the server may already be gone, which changes nothing.
                    let _ = sock.write_all(&conn.take_transmit());
                    return Err(match certificate {
                        Some(Err(x)) => FetchError::Certificate(x),
                        _ => FetchError::Tls(e),
                    });
                }
            }
            Event::HandshakeDone(s) => {
                summary = Some(s);
                conn.send(request.as_bytes())?;
            }
            Event::Plaintext(n) => {
                plaintext.extend_from_slice(conn.plaintext());
                conn.consume_plaintext(n);
            }
            Event::NewSessionTicket(t) => tickets.push(t),
            Event::PeerClosed => {
                close_notify = true;
                break;
            }
            Event::NeedData => {
                let n = sock.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                conn.feed(buf.get(..n).unwrap_or(&[]))?;
            }
            _ => {}
        }
    }
    if close_notify {
        conn.close();
        let out = conn.take_transmit();
        // The server may already be gone; a failed close_notify write is not an error.
        let _ = sock.write_all(&out);
    }
    let summary = summary.ok_or(FetchError::Http(
        "the connection closed before the handshake finished",
    ))?;
    let certificate = match certificate {
        Some(Ok(report)) => report,
        Some(Err(e)) => return Err(FetchError::Certificate(e)),
        None if summary.resumed => CertReport {
            presented: 0,
            path_len: 0,
            anchor_subject: Vec::new(),
            leaf_pin: String::new(),
            staple: StapleStatus::NotChecked,
            insecure: false,
        },
        None => {
            return Err(FetchError::Http(
                "the handshake finished without certificate verification",
            ))
        }
    };
    let response = http::parse(&plaintext)?;
    Ok(FetchResult {
        response,
        summary,
        tickets,
        close_notify,
        ocsp_response,
        certificate,
        key_log: conn.take_key_log(),
    })
}
