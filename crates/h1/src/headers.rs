//! Header fields: the owned [`Headers`] list and the strict field-line parser shared by the
//! response head and the chunked trailer section.

use core::ops::Range;

use crate::syntax::{is_field_byte, is_token, list_items, trim_ows};
use crate::Error;

/// An ordered list of header fields as the server sent them (names keep their case; values have
/// surrounding whitespace removed). Lookups by name are case-insensitive.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    bytes: Vec<u8>,
    fields: Vec<(Range<usize>, Range<usize>)>,
}

impl Headers {
    /// An empty list.
    pub fn new() -> Self {
        Headers::default()
    }

    /// Number of fields (duplicates counted separately).
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when there are no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// All fields in order, as `(name, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> + '_ {
        self.fields.iter().map(|(n, v)| {
            (
                self.bytes.get(n.clone()).unwrap_or_default(),
                self.bytes.get(v.clone()).unwrap_or_default(),
            )
        })
    }

    /// The value of the first field named `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v)
    }

    /// The values of every field named `name` (case-insensitive), in order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v)
    }

    /// True when any field named `name` lists `token` among its comma-separated elements
    /// (both compared case-insensitively), e.g. `has_token("connection", "close")`.
    pub fn has_token(&self, name: &str, token: &str) -> bool {
        self.get_all(name)
            .flat_map(list_items)
            .any(|t| t.eq_ignore_ascii_case(token.as_bytes()))
    }

    /// Appends a field (no validation: used by the parser after it validated the line).
    fn push(&mut self, name: &[u8], value: &[u8]) {
        let a = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let b = self.bytes.len();
        self.bytes.extend_from_slice(value);
        let c = self.bytes.len();
        self.fields.push((a..b, b..c));
    }
}

/// Which line endings a section accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineEnds {
    /// CRLF or a bare LF: the response head (RFC 9112 §2.2 lets a recipient accept a bare LF
    /// as a line terminator, and every mainstream client does).
    CrlfOrLf,
    /// CRLF only: inside chunk framing (trailers), where a bare LF would be ambiguous.
    Crlf,
}

/// Splits the next line off `rest`, rejecting a bare CR, and a bare LF unless `ends` accepts it.
/// Returns `Ok(None)` when `rest` holds no LF.
pub(crate) fn next_line<'a>(
    rest: &mut &'a [u8],
    ends: LineEnds,
) -> Result<Option<&'a [u8]>, Error> {
    let Some(lf) = rest.iter().position(|&b| b == b'\n') else {
        return Ok(None);
    };
    let (line, tail) = rest.split_at(lf);
    *rest = tail.get(1..).unwrap_or_default();
    let line = match (line.strip_suffix(b"\r"), ends) {
        (Some(l), _) => l,
        (None, LineEnds::CrlfOrLf) => line,
        (None, LineEnds::Crlf) => return Err(Error::BareLf),
    };
    if line.contains(&b'\r') {
        return Err(Error::BareCr);
    }
    Ok(Some(line))
}

/// Parses field lines from `block` until the empty line that ends the section. `block` must
/// hold that empty line; returns the fields and the bytes after it.
pub(crate) fn parse_fields(
    mut block: &[u8],
    max_fields: usize,
    ends: LineEnds,
) -> Result<(Headers, &[u8]), Error> {
    let mut headers = Headers::new();
    loop {
        let Some(line) = next_line(&mut block, ends)? else {
            // The caller found the end of the section first; no LF means it lied.
            return Err(Error::BareLf);
        };
        if line.is_empty() {
            return Ok((headers, block));
        }
        let (name, value) = parse_field_line(line)?;
        if headers.len() >= max_fields {
            return Err(Error::TooManyHeaders { limit: max_fields });
        }
        headers.push(name, value);
    }
}

/// `field-line = field-name ":" OWS field-value OWS`, strictly.
fn parse_field_line(line: &[u8]) -> Result<(&[u8], &[u8]), Error> {
    if let [b' ' | b'\t', ..] = line {
        return Err(Error::ObsFold);
    }
    let colon = line
        .iter()
        .position(|&b| b == b':')
        .ok_or(Error::BadHeaderName)?;
    let (name, value) = line.split_at(colon);
    let value = trim_ows(value.get(1..).unwrap_or_default());
    if !is_token(name) {
        return Err(Error::BadHeaderName);
    }
    if !value.iter().all(|&b| is_field_byte(b)) {
        return Err(Error::BadHeaderValue);
    }
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_looks_up() {
        let (h, rest) = parse_fields(
            b"Content-Type: text/plain\r\nX-A:1\r\nx-a:  2 \t\r\n\r\nbody",
            10,
            LineEnds::Crlf,
        )
        .unwrap();
        assert_eq!(rest, b"body");
        assert_eq!(h.len(), 3);
        assert_eq!(h.get("content-type"), Some(&b"text/plain"[..]));
        let all: Vec<&[u8]> = h.get_all("X-A").collect();
        assert_eq!(all, vec![&b"1"[..], &b"2"[..]]);
        let names: Vec<&[u8]> = h.iter().map(|(n, _)| n).collect();
        assert_eq!(names, vec![&b"Content-Type"[..], &b"X-A"[..], &b"x-a"[..]]);
    }

    #[test]
    fn tokens() {
        let (h, _) = parse_fields(
            b"Connection: Keep-Alive, Upgrade\r\n\r\n",
            10,
            LineEnds::Crlf,
        )
        .unwrap();
        assert!(h.has_token("connection", "keep-alive"));
        assert!(h.has_token("Connection", "upgrade"));
        assert!(!h.has_token("connection", "close"));
    }
}
