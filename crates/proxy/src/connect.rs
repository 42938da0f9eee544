//! HTTP `CONNECT` (RFC 9110 §9.3.6): request encoder and reply parser.
//!
//! The reply head is parsed by burrow-h1 (strict RFC 9112 syntax) within
//! [`MAX_CONNECT_HEAD_BYTES`] and [`MAX_CONNECT_HEADERS`]. 1xx interim responses (except 101)
//! are skipped, at most [`MAX_INTERIM_RESPONSES`]. 407 (and 401, which tinyproxy sends for wrong
//! credentials) is [`Error::ProxyAuthRequired`]. Any 2xx opens the tunnel; its `Content-Length`
//! / `Transfer-Encoding` are ignored as RFC 9110 §9.3.6 requires, so every byte after the head is
//! tunnel data.

use core::fmt;

use crate::{
    peer_text, Credentials, Error, Handshake, Progress, Stage, Target, MAX_CONNECT_HEADERS,
    MAX_CONNECT_HEAD_BYTES, MAX_INTERIM_RESPONSES,
};

/// The `Proxy-Connection:` header to send, if any. Not standard, but some old proxies close the
/// connection after a 200 without `Proxy-Connection: Keep-Alive` (curl sends it too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyConnectionHeader {
    /// `Proxy-Connection: Keep-Alive`.
    KeepAlive,
    /// `Proxy-Connection: close`.
    Close,
    /// No `Proxy-Connection` header.
    Omit,
}

enum State {
    Waiting,
    Done,
    Failed(Error),
}

/// An HTTP `CONNECT` handshake.
pub struct ConnectHandshake {
    transmit: Vec<u8>,
    received: Vec<u8>,
    state: State,
    had_credentials: bool,
    interim_responses: usize,
}

impl fmt::Debug for ConnectHandshake {
    // The request holds the Proxy-Authorization credentials: never print it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectHandshake")
            .field("pending_transmit_bytes", &self.transmit.len())
            .field("received_bytes", &self.received.len())
            .field("had_credentials", &self.had_credentials)
            .finish_non_exhaustive()
    }
}

const LIMITS: burrow_h1::Limits = burrow_h1::Limits {
    max_head_bytes: MAX_CONNECT_HEAD_BYTES,
    max_headers: MAX_CONNECT_HEADERS,
    ..burrow_h1::Limits::DEFAULT
};

impl ConnectHandshake {
    /// Builds `CONNECT host:port HTTP/1.1` (IPv6 in brackets) with `Host:` the same authority,
    /// `Proxy-Authorization: Basic base64(user:pass)` when `credentials` are given, the chosen
    /// `Proxy-Connection`, then `extra_headers` in order (e.g. `User-Agent`).
    ///
    /// Errors (nothing is sent): a header name that is not a token, a value with CR, LF, NUL or
    /// another control byte, an extra header that would clash with the ones above (`Host`,
    /// `Content-Length`, `Transfer-Encoding`, `Proxy-Authorization` with credentials,
    /// `Proxy-Connection` unless omitted), a user name containing `:` (Basic cannot carry it),
    /// a target name with characters not allowed in a host name, and port 0.
    pub fn new(
        target: &Target,
        credentials: Option<&Credentials>,
        proxy_connection: ProxyConnectionHeader,
        extra_headers: &[(String, String)],
    ) -> Result<Self, Error> {
        if let Target::Domain(name, _) = target {
            Target::check_domain(name)?;
        }
        if target.port() == 0 {
            return Err(Error::invalid_request("the target port is 0"));
        }
        let authority = target.authority();
        let mut request = format!("CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n");
        if let Some(credentials) = credentials {
            let value = credentials.basic_authorization()?;
            request.push_str(&format!("Proxy-Authorization: {value}\r\n"));
        }
        match proxy_connection {
            ProxyConnectionHeader::KeepAlive => {
                request.push_str("Proxy-Connection: Keep-Alive\r\n");
            }
            ProxyConnectionHeader::Close => request.push_str("Proxy-Connection: close\r\n"),
            ProxyConnectionHeader::Omit => {}
        }
        for (name, value) in extra_headers {
            check_header(name, value)?;
            let clashes = name.eq_ignore_ascii_case("host")
                || name.eq_ignore_ascii_case("content-length")
                || name.eq_ignore_ascii_case("transfer-encoding")
                || (credentials.is_some() && name.eq_ignore_ascii_case("proxy-authorization"))
                || (proxy_connection != ProxyConnectionHeader::Omit
                    && name.eq_ignore_ascii_case("proxy-connection"));
            if clashes {
                return Err(Error::invalid_request(format!(
                    "the extra header {name:?} clashes with one the CONNECT request sets itself"
                )));
            }
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        Ok(ConnectHandshake {
            transmit: request.into_bytes(),
            received: Vec::new(),
            state: State::Waiting,
            had_credentials: credentials.is_some(),
            interim_responses: 0,
        })
    }

    fn feed_waiting(&mut self, input: &[u8]) -> Result<Progress, Error> {
        let has_line_end = input.contains(&b'\n');
        let prefix_checked = self.received.len() >= b"HTTP/1.1".len();
        self.received.extend_from_slice(input);
        // Parsing rescans the buffer, so do it only when a line may have ended, while the
        // status-line prefix can still be refused early, or when the size limit is reached:
        // byte-by-byte feeding then costs O(lines * head size), not O(head size ^ 2).
        if !has_line_end && prefix_checked && self.received.len() < MAX_CONNECT_HEAD_BYTES {
            return Ok(Progress::NeedMore);
        }
        loop {
            let parsed =
                burrow_h1::parse_response_head(&self.received, &LIMITS).map_err(head_error)?;
            let Some((head, len)) = parsed else {
                return Ok(Progress::NeedMore);
            };
            self.received.drain(..len.min(self.received.len()));
            match head.status {
                101 => {
                    return Err(Error::protocol(
                        Stage::ConnectReply,
                        "the proxy answered CONNECT with 101 Switching Protocols",
                    ))
                }
                100..=199 => {
                    self.interim_responses = self.interim_responses.saturating_add(1);
                    if self.interim_responses > MAX_INTERIM_RESPONSES {
                        return Err(Error::protocol(
                            Stage::ConnectReply,
                            format!(
                                "more than {MAX_INTERIM_RESPONSES} 1xx interim responses \
                                 (MAX_INTERIM_RESPONSES)"
                            ),
                        ));
                    }
                }
                200..=299 => {
                    self.state = State::Done;
                    return Ok(Progress::Done {
                        leftover: core::mem::take(&mut self.received),
                    });
                }
                // tinyproxy (1.11) answers wrong credentials with 401 and WWW-Authenticate. A
                // 401 to CONNECT can only come from the proxy: the tunnel does not exist yet.
                401 | 407 => {
                    let mut challenges: Vec<String> = head
                        .headers
                        .get_all("proxy-authenticate")
                        .map(peer_text)
                        .collect();
                    if challenges.is_empty() && head.status == 401 {
                        challenges = head
                            .headers
                            .get_all("www-authenticate")
                            .map(peer_text)
                            .collect();
                    }
                    return Err(Error::ProxyAuthRequired {
                        had_credentials: self.had_credentials,
                        proxy_authenticate: if challenges.is_empty() {
                            None
                        } else {
                            Some(peer_text(challenges.join(", ").as_bytes()))
                        },
                    });
                }
                status => {
                    return Err(Error::ProxyRefused {
                        status,
                        reason: peer_text(&head.reason),
                        detail: refusal_detail(&head.headers),
                    })
                }
            }
        }
    }
}

/// The fields in which proxies say why they refused: the standard one (RFC 9209), then
/// squid's (`ERR_CONNECT_FAIL 111`, `ERR_ACCESS_DENIED 0`, ...).
const REFUSAL_FIELDS: [&str; 2] = ["Proxy-Status", "X-Squid-Error"];

/// `name: value` of each refusal field the reply has, joined with "; " (peer text, cut).
fn refusal_detail(headers: &burrow_h1::Headers) -> Option<String> {
    let mut parts = Vec::new();
    for name in REFUSAL_FIELDS {
        for value in headers.get_all(name) {
            parts.push(format!("{name}: {}", peer_text(value)));
        }
    }
    (!parts.is_empty()).then(|| peer_text(parts.join("; ").as_bytes()))
}

/// Maps a head-parsing error to [`Error::ProxyProtocol`], naming this crate's limits.
fn head_error(e: burrow_h1::Error) -> Error {
    let detail = match e {
        burrow_h1::Error::HeadersTooLarge { .. } => {
            format!(
                "the reply head exceeds {MAX_CONNECT_HEAD_BYTES} bytes (MAX_CONNECT_HEAD_BYTES)"
            )
        }
        burrow_h1::Error::TooManyHeaders { .. } => format!(
            "the reply has more than {MAX_CONNECT_HEADERS} header fields (MAX_CONNECT_HEADERS)"
        ),
        other => format!("{} ({})", other, other.code()),
    };
    Error::protocol(Stage::ConnectReply, detail)
}

/// `field-name = token`; the value may hold no control byte but HTAB (so no CR, LF, NUL).
fn check_header(name: &str, value: &str) -> Result<(), Error> {
    let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if name.is_empty() || !name.bytes().all(is_tchar) {
        return Err(Error::invalid_request(format!(
            "the header name {name:?} is not an HTTP token"
        )));
    }
    if value.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f) {
        return Err(Error::invalid_request(format!(
            "the value of header {name:?} contains CR, LF, NUL or another control character"
        )));
    }
    Ok(())
}

impl Handshake for ConnectHandshake {
    fn take_transmit(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.transmit)
    }

    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error> {
        match &self.state {
            State::Waiting => {}
            State::Done => {
                return Err(Error::invalid_request(
                    "the tunnel is already open; bytes after Done belong to the next layer",
                ))
            }
            State::Failed(e) => return Err(e.clone()),
        }
        let result = self.feed_waiting(input);
        if let Err(e) = &result {
            self.state = State::Failed(e.clone());
            self.received = Vec::new();
        }
        result
    }

    fn eof(&mut self) -> Error {
        Error::ProxyClosed {
            stage: Stage::ConnectReply,
        }
    }
}
