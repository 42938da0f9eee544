//! Just enough HTTP/1.1 response parsing for a `Connection: close` GET.

use crate::FetchError;

/// A whole HTTP/1.1 response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header lines (name, value), as sent.
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

pub(crate) fn parse(raw: &[u8]) -> Result<Response, FetchError> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or(FetchError::Http("no end of response head"))?;
    let head = std::str::from_utf8(raw.get(..end).unwrap_or(&[]))
        .map_err(|_| FetchError::Http("head not UTF-8"))?;
    let rest = raw.get(end.saturating_add(4)..).unwrap_or(&[]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().ok_or(FetchError::Http("no status line"))?;
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or(FetchError::Http("bad status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut r = Response {
        status,
        headers,
        body: Vec::new(),
    };
    if r.header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        r.body = dechunk(rest)?;
    } else if let Some(len) = r.header("content-length") {
        let len: usize = len
            .parse()
            .map_err(|_| FetchError::Http("bad content-length"))?;
        r.body = rest
            .get(..len)
            .ok_or(FetchError::Http("truncated body"))?
            .to_vec();
    } else {
        r.body = rest.to_vec();
    }
    Ok(r)
}

fn dechunk(mut b: &[u8]) -> Result<Vec<u8>, FetchError> {
    let mut out = Vec::new();
    loop {
        let eol = b
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or(FetchError::Http("truncated chunk size"))?;
        let size_str = std::str::from_utf8(b.get(..eol).unwrap_or(&[]))
            .map_err(|_| FetchError::Http("bad chunk size"))?;
        let size = usize::from_str_radix(size_str.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| FetchError::Http("bad chunk size"))?;
        b = b.get(eol.saturating_add(2)..).unwrap_or(&[]);
        if size == 0 {
            return Ok(out);
        }
        out.extend_from_slice(b.get(..size).ok_or(FetchError::Http("truncated chunk"))?);
        b = b
            .get(size.saturating_add(2)..)
            .ok_or(FetchError::Http("truncated chunk"))?;
    }
}
