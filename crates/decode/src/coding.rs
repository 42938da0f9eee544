//! Content codings and the `Content-Encoding` field.

use crate::Error;

/// Exactly the codings this build can decode, for `Accept-Encoding`.
pub const ACCEPT_ENCODING: &str = "gzip, deflate, br, zstd";

/// One content coding (RFC 9110 §8.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Coding {
    /// gzip (RFC 1952); `x-gzip` is the same coding.
    Gzip,
    /// zlib (RFC 1950); raw DEFLATE (RFC 1951) is accepted too, as real servers send it.
    Deflate,
    /// Brotli (RFC 7932).
    Br,
    /// Zstandard (RFC 8878, RFC 9659 window limit).
    Zstd,
}

impl Coding {
    /// The coding's registered name.
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Br => "br",
            Coding::Zstd => "zstd",
        }
    }

    /// Parses a `Content-Encoding` field value: a comma list, case-insensitive, with optional
    /// whitespace; `identity` and empty elements are dropped and `x-gzip` means gzip. The order
    /// is the order the server applied them. An unknown coding is
    /// [`Error::UnsupportedCoding`] (fail closed).
    pub fn parse_list(value: &str) -> Result<Vec<Coding>, Error> {
        let mut codings = Vec::new();
        for element in value.split(',') {
            let name = element.trim_matches([' ', '\t']);
            let coding = if name.is_empty() || name.eq_ignore_ascii_case("identity") {
                continue;
            } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
                Coding::Gzip
            } else if name.eq_ignore_ascii_case("deflate") {
                Coding::Deflate
            } else if name.eq_ignore_ascii_case("br") {
                Coding::Br
            } else if name.eq_ignore_ascii_case("zstd") {
                Coding::Zstd
            } else {
                return Err(Error::UnsupportedCoding(name.to_string()));
            };
            if codings.len() >= crate::MAX_CODINGS {
                return Err(Error::TooManyCodings {
                    count: codings.len().saturating_add(1),
                });
            }
            codings.push(coding);
        }
        Ok(codings)
    }
}
