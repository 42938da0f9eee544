//! Field validation (RFC 9113 §8.2, §8.3): names, values, pseudo-headers, connection-specific
//! fields, for responses we receive and requests we send.

use crate::hpack::Header;

/// Fields that are connection-specific in HTTP/1.1 and malformed in HTTP/2 (§8.2.2).
const CONNECTION_SPECIFIC: [&[u8]; 5] = [
    b"connection",
    b"keep-alive",
    b"proxy-connection",
    b"transfer-encoding",
    b"upgrade",
];

/// A valid field name: lowercase token characters, not empty (`:` only as a pseudo prefix).
fn name_ok(name: &[u8]) -> bool {
    let body = name.strip_prefix(b":").unwrap_or(name);
    !body.is_empty()
        && body.iter().all(|&c| {
            c.is_ascii_lowercase()
                || c.is_ascii_digit()
                || matches!(
                    c,
                    b'!' | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'-'
                        | b'.'
                        | b'^'
                        | b'_'
                        | b'`'
                        | b'|'
                        | b'~'
                )
        })
}

/// "A field value MUST NOT contain the zero value (ASCII NUL, 0x00), line feed (ASCII LF, 0x0a),
/// or carriage return (ASCII CR, 0x0d) at any position. A field value MUST NOT start or end with
/// an ASCII whitespace character (ASCII SP or HTAB, 0x20 or 0x09)."
fn value_ok(v: &[u8]) -> bool {
    !v.iter().any(|&c| matches!(c, 0 | b'\n' | b'\r'))
        && !v.first().is_some_and(|&c| c == b' ' || c == b'\t')
        && !v.last().is_some_and(|&c| c == b' ' || c == b'\t')
}

/// Checks a regular (non-pseudo) field.
fn regular_ok(h: &Header) -> bool {
    if !name_ok(&h.name) || !value_ok(&h.value) {
        return false;
    }
    if CONNECTION_SPECIFIC.contains(&h.name.as_slice()) {
        return false;
    }
    // "The only exception to this is the TE header field, which MAY be present in an HTTP/2
    // request; when it is, it MUST NOT contain any value other than 'trailers'."
    if h.name == b"te" && h.value != b"trailers" {
        return false;
    }
    true
}

/// A checked response head: the status and the regular fields.
#[derive(Debug)]
pub(crate) struct ResponseHead {
    pub(crate) status: u16,
    pub(crate) headers: Vec<Header>,
    pub(crate) content_length: Option<u64>,
}

/// Validates a response header block: exactly one `:status` (three digits) before any regular
/// field, no other pseudo-header, valid regular fields, consistent content-length.
pub(crate) fn response(fields: Vec<Header>) -> Option<ResponseHead> {
    let mut status = None;
    let mut headers = Vec::with_capacity(fields.len());
    let mut content_length: Option<u64> = None;
    for h in fields {
        if h.name.first() == Some(&b':') {
            // "All pseudo-header fields MUST appear in a field block before all regular field
            // lines"; responses have only :status, once.
            if h.name != b":status" || status.is_some() || !headers.is_empty() {
                return None;
            }
            status = Some(parse_status(&h.value)?);
            continue;
        }
        if !regular_ok(&h) {
            return None;
        }
        if h.name == b"content-length" {
            let v = parse_content_length(&h.value)?;
            if content_length.is_some_and(|c| c != v) {
                return None;
            }
            content_length = Some(v);
        }
        headers.push(h);
    }
    Some(ResponseHead {
        status: status?,
        headers,
        content_length,
    })
}

/// Validates trailers: no pseudo-header fields, valid regular fields.
pub(crate) fn trailers(fields: &[Header]) -> bool {
    fields
        .iter()
        .all(|h| h.name.first() != Some(&b':') && regular_ok(h))
}

/// Validates a request we are asked to send; returns whether it is a HEAD request.
pub(crate) fn request(fields: &[Header]) -> Option<bool> {
    let mut regular_seen = false;
    let (mut method, mut scheme, mut path, mut authority) = (None, false, false, false);
    for h in fields {
        if h.name.first() == Some(&b':') {
            if regular_seen || !value_ok(&h.value) {
                return None;
            }
            let slot = match h.name.as_slice() {
                b":method" => {
                    if method.is_some() || h.value.is_empty() {
                        return None;
                    }
                    method = Some(h.value.as_slice());
                    continue;
                }
                b":scheme" => &mut scheme,
                b":path" => &mut path,
                b":authority" => &mut authority,
                _ => return None,
            };
            if *slot {
                return None;
            }
            *slot = true;
            if h.name == b":path" && h.value.is_empty() {
                return None;
            }
            continue;
        }
        regular_seen = true;
        if !regular_ok(h) {
            return None;
        }
    }
    let method = method?;
    // CONNECT: ":scheme and :path pseudo-header fields MUST be omitted" and :authority present.
    if method == b"CONNECT" {
        return (!scheme && !path && authority).then_some(false);
    }
    (scheme && path).then_some(method == b"HEAD")
}

fn parse_status(v: &[u8]) -> Option<u16> {
    if v.len() != 3 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let s = core::str::from_utf8(v).ok()?.parse::<u16>().ok()?;
    (100..=999).contains(&s).then_some(s)
}

fn parse_content_length(v: &[u8]) -> Option<u64> {
    if v.is_empty() || v.len() > 19 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    core::str::from_utf8(v).ok()?.parse().ok()
}

/// Validates trailer fields we send (no pseudo-headers, valid regular fields).
pub(crate) fn request_trailers(fields: &[Header]) -> bool {
    trailers(fields)
}
