//! The response head: status line and header section.
//!
//! [`parse_response_head`] is a pure function over a borrowed buffer (httparse style). The
//! streaming decoder uses [`HeadScan`] instead, which remembers where the previous scan stopped so
//! that feeding a head one byte at a time costs O(n) in total, and parses the head once, when its
//! end has arrived.
//!
//! Lines end with CRLF or, as RFC 9112 §2.2 allows a recipient to accept, a bare LF (in the
//! status line and the field lines; a bare CR is still refused, and chunk framing and trailers
//! stay CRLF-only).

use crate::headers::{next_line, parse_fields, Headers, LineEnds};
use crate::syntax::is_field_byte;
use crate::{Error, Limits};

/// The HTTP version of a response.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// HTTP/1.0.
    Http10,
    /// HTTP/1.1 (also used for HTTP/1.x with x > 1, RFC 9110 §2.5).
    Http11,
}

/// A parsed response head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseHead {
    /// The protocol version of the status line.
    pub version: Version,
    /// The status code, 100..=599.
    pub status: u16,
    /// The reason phrase (possibly empty). Clients should ignore it (RFC 9112 §4).
    pub reason: Vec<u8>,
    /// The header fields in order.
    pub headers: Headers,
}

impl ResponseHead {
    /// The header fields as text, in order (invalid UTF-8 replaced: for display and for APIs
    /// that carry strings).
    pub fn fields_lossy(&self) -> Vec<(String, String)> {
        self.headers
            .iter()
            .map(|(n, v)| {
                (
                    String::from_utf8_lossy(n).into_owned(),
                    String::from_utf8_lossy(v).into_owned(),
                )
            })
            .collect()
    }

    /// True for 1xx statuses.
    pub fn is_interim(&self) -> bool {
        (100..200).contains(&self.status)
    }
}

/// Parses a complete response head at the start of `buf`.
///
/// Returns `Ok(None)` when the head has not fully arrived yet (call again with more bytes), or
/// the head and the number of bytes it occupies. Errors on anything malformed or over a limit.
/// This rescans from the start on every call; streaming callers should use
/// [`crate::Decoder`], which does not.
pub fn parse_response_head(
    buf: &[u8],
    limits: &Limits,
) -> Result<Option<(ResponseHead, usize)>, Error> {
    let mut scan = HeadScan::default();
    match scan.scan(buf, limits)? {
        None => Ok(None),
        Some(end) => {
            let head = buf.get(..end).ok_or(Error::Truncated {
                stage: crate::Stage::Head,
            })?;
            Ok(Some((parse_complete_head(head, limits)?, end)))
        }
    }
}

/// Incremental search for the end of a head (the first empty line).
#[derive(Clone, Debug, Default)]
pub(crate) struct HeadScan {
    /// Bytes of the buffer already examined.
    pos: usize,
    /// Start of the line being examined.
    line_start: usize,
    /// Complete lines seen (the status line and field lines).
    lines: usize,
    /// Bytes examined over all calls (to check that scanning stays linear).
    examined: usize,
}

impl HeadScan {
    /// True when no byte has been examined yet.
    pub(crate) fn is_fresh(&self) -> bool {
        self.pos == 0
    }

    /// Bytes examined over all calls so far.
    pub(crate) fn examined(&self) -> usize {
        self.examined
    }

    /// Looks for the end of the head in `buf` (which starts at the head's first byte and only
    /// ever grows between calls). Returns the length of the head including its final empty line.
    /// Refuses a head over `limits.max_head_bytes` or with more than `limits.max_headers` field
    /// lines as soon as that is certain, without waiting for its end.
    pub(crate) fn scan(&mut self, buf: &[u8], limits: &Limits) -> Result<Option<usize>, Error> {
        let max = limits.max_head_bytes;
        if self.pos > buf.len() {
            *self = HeadScan::default();
        }
        // Refuse early what cannot be a status line (e.g. TLS bytes on a plain port).
        let prefix = b"HTTP/";
        let n = buf.len().min(prefix.len());
        if buf.get(..n) != prefix.get(..n) {
            return Err(Error::BadStatusLine);
        }
        let window = buf.get(..buf.len().min(max)).unwrap_or_default();
        let from = self.pos.min(window.len());
        let tail = window.get(from..).unwrap_or_default();
        for (i, &b) in tail.iter().enumerate() {
            if b != b'\n' {
                continue;
            }
            let at = from.saturating_add(i);
            let line = window.get(self.line_start..at).unwrap_or_default();
            let next = at.saturating_add(1);
            if line.is_empty() || line == b"\r" {
                self.examined = self.examined.saturating_add(i).saturating_add(1);
                // The empty line ends the head; the status line alone never does.
                if self.line_start > 0 {
                    return Ok(Some(next));
                }
                return Err(Error::BadStatusLine);
            }
            self.line_start = next;
            self.lines = self.lines.saturating_add(1);
            if self.lines.saturating_sub(1) > limits.max_headers {
                return Err(Error::TooManyHeaders {
                    limit: limits.max_headers,
                });
            }
        }
        self.examined = self.examined.saturating_add(tail.len());
        self.pos = window.len();
        if buf.len() >= max {
            return Err(Error::HeadersTooLarge { limit: max });
        }
        Ok(None)
    }
}

/// Parses a head known to be complete (`head` ends with its empty line).
pub(crate) fn parse_complete_head(head: &[u8], limits: &Limits) -> Result<ResponseHead, Error> {
    let mut rest = head;
    let status_line = next_line(&mut rest, LineEnds::CrlfOrLf)?.ok_or(Error::BadStatusLine)?;
    let (version, status, reason) = parse_status_line(status_line)?;
    let (headers, after) = parse_fields(rest, limits.max_headers, LineEnds::CrlfOrLf)?;
    if !after.is_empty() {
        // The scanner stops at the first empty line, so nothing may follow it here.
        return Err(Error::BadStatusLine);
    }
    Ok(ResponseHead {
        version,
        status,
        reason: reason.to_vec(),
        headers,
    })
}

/// `status-line = HTTP-version SP status-code SP [ reason-phrase ]`. A missing SP after the
/// code is tolerated (common in the wild and unambiguous).
fn parse_status_line(line: &[u8]) -> Result<(Version, u16, &[u8]), Error> {
    let rest = line.strip_prefix(b"HTTP/").ok_or(Error::BadStatusLine)?;
    let (version, rest) = match rest {
        [b'1', b'.', b'0', b' ', rest @ ..] => (Version::Http10, rest),
        [b'1', b'.', minor, b' ', rest @ ..] if minor.is_ascii_digit() => (Version::Http11, rest),
        [major, b'.', minor, b' ', ..] if major.is_ascii_digit() && minor.is_ascii_digit() => {
            return Err(Error::UnsupportedVersion)
        }
        [major, b' ', ..] if major.is_ascii_digit() => return Err(Error::UnsupportedVersion),
        _ => return Err(Error::BadStatusLine),
    };
    let (code, reason): ([u8; 3], &[u8]) = match rest {
        [a, b, c] => ([*a, *b, *c], &[]),
        [a, b, c, b' ', reason @ ..] => ([*a, *b, *c], reason),
        _ => return Err(Error::BadStatusLine),
    };
    if !code.iter().all(u8::is_ascii_digit) {
        return Err(Error::BadStatusLine);
    }
    let status: u16 = core::str::from_utf8(&code)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or(Error::BadStatusLine)?;
    if !(100..=599).contains(&status) {
        return Err(Error::BadStatusLine);
    }
    if !reason.iter().all(|&b| is_field_byte(b)) {
        return Err(Error::BadHeaderValue);
    }
    Ok((version, status, reason))
}
