//! Message body length and connection persistence (RFC 9112 §6.3 and §9.3).

use crate::head::{ResponseHead, Version};
use crate::syntax::list_items;
use crate::Error;

/// What the decoder must know about the request a response answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RequestInfo {
    head: bool,
    connect: bool,
    close: bool,
}

impl RequestInfo {
    /// Describes a request by its method (`HEAD` and `CONNECT` change how the response is framed).
    pub fn for_method(method: &str) -> Self {
        RequestInfo {
            head: method == "HEAD",
            connect: method == "CONNECT",
            close: false,
        }
    }

    /// Marks that the request carried `Connection: close`, so the connection ends after the
    /// response whatever the server says.
    pub fn with_close(mut self, close: bool) -> Self {
        self.close = close;
        self
    }

    /// True for a `HEAD` request.
    pub fn is_head(&self) -> bool {
        self.head
    }

    /// True for a `CONNECT` request.
    pub fn is_connect(&self) -> bool {
        self.connect
    }

    /// True when the request asked to close the connection after the response.
    pub fn is_close(&self) -> bool {
        self.close
    }
}

/// How the body of a final response is delimited.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyFraming {
    /// No body: a `HEAD` response, 204 or 304 (RFC 9112 §6.3 rule 1).
    None,
    /// Exactly this many bytes (`Content-Length`).
    Length(u64),
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// The body runs until the server closes the connection.
    CloseDelimited,
    /// A 2xx answer to `CONNECT`: the connection is now a tunnel; the bytes after the head
    /// belong to the tunnelled protocol.
    Tunnel,
}

/// Decides the framing of a final (non-1xx) response and whether the connection stays usable.
pub(crate) fn decide(head: &ResponseHead, req: &RequestInfo) -> Result<(BodyFraming, bool), Error> {
    let h = &head.headers;
    let has_te = h.get("transfer-encoding").is_some();
    let content_length = content_length(head)?;
    if has_te && content_length.is_some() {
        return Err(Error::TransferEncodingWithContentLength);
    }
    let framing = if req.head || head.status == 204 || head.status == 304 {
        BodyFraming::None
    } else if req.connect && (200..300).contains(&head.status) {
        BodyFraming::Tunnel
    } else if has_te {
        if head.version == Version::Http10 {
            return Err(Error::TransferEncodingInHttp10);
        }
        let mut codings = h.get_all("transfer-encoding").flat_map(list_items);
        match (codings.next(), codings.next()) {
            (Some(c), None) if c.eq_ignore_ascii_case(b"chunked") => BodyFraming::Chunked,
            _ => return Err(Error::UnsupportedTransferEncoding),
        }
    } else if let Some(n) = content_length {
        BodyFraming::Length(n)
    } else {
        BodyFraming::CloseDelimited
    };
    let persistent = match head.version {
        Version::Http11 => !h.has_token("connection", "close"),
        Version::Http10 => {
            h.has_token("connection", "keep-alive") && !h.has_token("connection", "close")
        }
    };
    let keep_alive = persistent
        && !req.close
        && !matches!(framing, BodyFraming::CloseDelimited | BodyFraming::Tunnel);
    Ok((framing, keep_alive))
}

/// The value of the `Content-Length` fields. Identical duplicates (as separate fields or as a
/// list in one field) are accepted as one value, as RFC 9110 §8.6 allows; differing values are
/// rejected, and so is anything that is not 1*DIGIT fitting in 64 bits.
fn content_length(head: &ResponseHead) -> Result<Option<u64>, Error> {
    let mut found: Option<u64> = None;
    for field in head.headers.get_all("content-length") {
        let mut any = false;
        for item in field.split(|&b| b == b',') {
            let item = crate::syntax::trim_ows(item);
            let n = parse_decimal(item).ok_or(Error::BadContentLength)?;
            any = true;
            match found {
                Some(prev) if prev != n => return Err(Error::ConflictingContentLength),
                _ => found = Some(n),
            }
        }
        if !any {
            return Err(Error::BadContentLength);
        }
    }
    Ok(found)
}

/// `1*DIGIT` as a u64, or `None`.
fn parse_decimal(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    s.iter().try_fold(0u64, |acc, &b| {
        if !b.is_ascii_digit() {
            return None;
        }
        acc.checked_mul(10)?
            .checked_add(u64::from(b.checked_sub(b'0')?))
    })
}

#[cfg(test)]
mod tests {
    use super::parse_decimal;

    #[test]
    fn decimal() {
        assert_eq!(parse_decimal(b"0"), Some(0));
        assert_eq!(parse_decimal(b"007"), Some(7));
        assert_eq!(parse_decimal(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_decimal(b"18446744073709551616"), None);
        assert_eq!(parse_decimal(b""), None);
        assert_eq!(parse_decimal(b"+1"), None);
        assert_eq!(parse_decimal(b"1 2"), None);
    }
}
