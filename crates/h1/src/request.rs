//! The request encoder: exactly the bytes the caller asked for, validated.
//!
//! Headers go out in the caller's order with the caller's case. The encoder adds only what
//! HTTP/1.1 framing needs and says so: `Host` (when the caller did not give one, as the first
//! field), and `Content-Length` or `Transfer-Encoding: chunked` from the [`BodyKind`]. Anything
//! that could split the message (CR, LF, NUL, other control bytes) is refused with a typed error
//! and nothing is written.

use crate::framing::RequestInfo;
use crate::syntax::{is_field_byte, is_token, push_decimal};
use crate::Error;

/// The request-target (RFC 9112 §3.2).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target<'a> {
    /// origin-form: an absolute path and optional query, e.g. `/a/b?c=d`. The normal form.
    Origin(&'a str),
    /// absolute-form: a full URI, for plain-HTTP requests through a proxy
    /// (e.g. `http://example.com/a`).
    Absolute(&'a str),
    /// authority-form: `host:port`, only for CONNECT.
    Authority(&'a str),
    /// asterisk-form: `*`, only for a server-wide OPTIONS.
    Asterisk,
}

/// How the request body is framed.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// No body and no framing header (GET, HEAD, CONNECT, ...).
    None,
    /// A body of exactly this many bytes: writes `Content-Length`. The caller then writes the
    /// bytes as they are.
    Length(u64),
    /// A chunked body: writes `Transfer-Encoding: chunked`. The caller then encodes each piece
    /// with [`crate::encode_chunk`] and ends with [`crate::encode_last_chunk`].
    Chunked,
}

/// A request head to encode.
#[derive(Clone, Debug)]
pub struct RequestHead<'a> {
    method: &'a str,
    target: Target<'a>,
    host: &'a str,
    headers: Vec<(&'a [u8], &'a [u8])>,
}

impl<'a> RequestHead<'a> {
    /// A request for `method` and `target`; `host` is the authority for the `Host` field
    /// (e.g. `example.com` or `localhost:8443`), used unless the caller adds its own `Host`.
    pub fn new(method: &'a str, target: Target<'a>, host: &'a str) -> Self {
        RequestHead {
            method,
            target,
            host,
            headers: Vec::new(),
        }
    }

    /// Appends a header field; it is written in this position, with this case.
    pub fn header(mut self, name: &'a str, value: &'a str) -> Self {
        self.headers.push((name.as_bytes(), value.as_bytes()));
        self
    }

    /// Appends a header field given as bytes (values may hold obs-text).
    pub fn header_bytes(mut self, name: &'a [u8], value: &'a [u8]) -> Self {
        self.headers.push((name, value));
        self
    }

    /// Validates the request and appends its head to `out`. On error nothing is appended.
    /// Returns what the response decoder needs to know about this request.
    pub fn encode(&self, body: BodyKind, out: &mut Vec<u8>) -> Result<RequestInfo, Error> {
        self.validate(body)?;
        let caller_host = self
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(b"host"));
        out.extend_from_slice(self.method.as_bytes());
        out.push(b' ');
        match self.target {
            Target::Origin(t) | Target::Absolute(t) | Target::Authority(t) => {
                out.extend_from_slice(t.as_bytes())
            }
            Target::Asterisk => out.push(b'*'),
        }
        out.extend_from_slice(b" HTTP/1.1\r\n");
        if !caller_host {
            push_field(out, b"Host", self.host.as_bytes());
        }
        for (name, value) in &self.headers {
            push_field(out, name, value);
        }
        match body {
            BodyKind::None => {}
            BodyKind::Length(n) => {
                out.extend_from_slice(b"Content-Length: ");
                push_decimal(out, n);
                out.extend_from_slice(b"\r\n");
            }
            BodyKind::Chunked => push_field(out, b"Transfer-Encoding", b"chunked"),
        }
        out.extend_from_slice(b"\r\n");
        let close = self.headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case(b"connection")
                && crate::syntax::list_items(v).any(|t| t.eq_ignore_ascii_case(b"close"))
        });
        Ok(RequestInfo::for_method(self.method).with_close(close))
    }

    fn validate(&self, body: BodyKind) -> Result<(), Error> {
        if !is_token(self.method.as_bytes()) {
            return Err(Error::InvalidMethod);
        }
        let target_ok = match self.target {
            Target::Origin(t) => t.starts_with('/') && is_target_text(t),
            Target::Absolute(t) => t.contains("://") && is_target_text(t),
            Target::Authority(t) => {
                self.method == "CONNECT" && !t.contains('/') && is_target_text(t)
            }
            Target::Asterisk => self.method == "OPTIONS",
        };
        if !target_ok {
            return Err(Error::InvalidTarget);
        }
        if self.method == "CONNECT" && body != BodyKind::None {
            return Err(Error::BodyNotAllowed);
        }
        if !self.host.is_empty() && !is_target_text(self.host) {
            return Err(Error::InvalidHeaderValue);
        }
        for (name, value) in &self.headers {
            validate_field(name, value)?;
            if name.eq_ignore_ascii_case(b"content-length")
                || name.eq_ignore_ascii_case(b"transfer-encoding")
            {
                return Err(Error::FramingHeaderSet);
            }
        }
        Ok(())
    }
}

/// Checks one header or trailer field supplied by the caller.
pub(crate) fn validate_field(name: &[u8], value: &[u8]) -> Result<(), Error> {
    if !is_token(name) {
        return Err(Error::InvalidHeaderName);
    }
    if !value.iter().all(|&b| is_field_byte(b)) {
        return Err(Error::InvalidHeaderValue);
    }
    Ok(())
}

/// Visible ASCII only: no whitespace, no control bytes, no raw non-ASCII.
fn is_target_text(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

pub(crate) fn push_field(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}
