//! The HTTP side of a client identity: the HTTP/2 first flight, the pseudo-header order and
//! the default request headers (with their order and the `Accept-Encoding` asked for). Plain
//! data: derive one with struct update (`HttpProfile { headers: …, ..HttpProfile::chrome() }`).

use crate::h2::{H2_CONNECTION_WINDOW, H2_STREAM_WINDOW};

/// An HTTP/2 pseudo-header, for [`HttpProfile::pseudo_order`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PseudoHeader {
    /// `:method`.
    Method,
    /// `:scheme`.
    Scheme,
    /// `:authority`.
    Authority,
    /// `:path`.
    Path,
}

/// How requests look on the wire besides TLS.
#[derive(Clone, Debug)]
pub struct HttpProfile {
    /// The HTTP/2 connection settings and first flight (SETTINGS ids, values and order, the
    /// connection WINDOW_UPDATE, HEADERS priority, HPACK representation per header).
    pub h2: burrow_h2::Config,
    /// The order of the four request pseudo-headers.
    pub pseudo_order: [PseudoHeader; 4],
    /// Default request fields, in order, each sent unless the request has a field of that
    /// name (HTTP/1.1 uses the spelling given, HTTP/2 lower-cases). A `User-Agent` entry
    /// marks where [`ClientConfig::user_agent`](crate::ClientConfig::user_agent) goes (its
    /// value here is not used; `None` there sends none). An `Accept-Encoding` entry is what
    /// is asked for; the answer is decoded under [`Decompress::Auto`](crate::Decompress).
    pub headers: Vec<(String, String)>,
}

fn fields(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| ((*n).to_string(), (*v).to_string()))
        .collect()
}

impl HttpProfile {
    /// The names [`by_name`](Self::by_name) knows (the same as `Profile::NAMES`).
    pub const NAMES: &'static [&'static str] = &["curl", "curl_7_88", "chrome", "default_web"];

    /// burrow's own: 1 MiB stream / 4 MiB connection windows, `:method :scheme :authority
    /// :path`, `User-Agent` then `Accept-Encoding: gzip, deflate, br, zstd`.
    pub fn burrow() -> Self {
        Self {
            h2: burrow_h2::Config {
                stream_window: H2_STREAM_WINDOW,
                connection_window: H2_CONNECTION_WINDOW,
                ..burrow_h2::Config::default()
            },
            pseudo_order: [
                PseudoHeader::Method,
                PseudoHeader::Scheme,
                PseudoHeader::Authority,
                PseudoHeader::Path,
            ],
            headers: fields(&[
                ("User-Agent", ""),
                ("Accept-Encoding", burrow_decode::ACCEPT_ENCODING),
            ]),
        }
    }

    /// curl 8.21.0 (nghttp2 1.69): `:method :scheme :authority :path`, `User-Agent`,
    /// `Accept: */*`, no `Accept-Encoding` (curl asks for none without `--compressed`).
    pub fn curl() -> Self {
        Self {
            h2: burrow_h2::Config::curl(),
            pseudo_order: [
                PseudoHeader::Method,
                PseudoHeader::Scheme,
                PseudoHeader::Authority,
                PseudoHeader::Path,
            ],
            headers: fields(&[("User-Agent", ""), ("Accept", "*/*")]),
        }
    }

    /// Debian curl 7.88.1 (nghttp2 1.52) as captured: `:method :path :scheme :authority`,
    /// `User-Agent`, `Accept: */*`, no `Accept-Encoding`.
    pub fn curl_7_88() -> Self {
        Self {
            h2: burrow_h2::Config::curl_7_88(),
            pseudo_order: [
                PseudoHeader::Method,
                PseudoHeader::Path,
                PseudoHeader::Scheme,
                PseudoHeader::Authority,
            ],
            headers: fields(&[("User-Agent", ""), ("Accept", "*/*")]),
        }
    }

    /// Chromium 156 (headless, Linux) as captured for a top-level navigation:
    /// `:method :authority :scheme :path` and its 13 fields in order, `Accept-Encoding:
    /// gzip, deflate, br, zstd`.
    pub fn chrome() -> Self {
        Self {
            h2: burrow_h2::Config::chrome(),
            pseudo_order: [
                PseudoHeader::Method,
                PseudoHeader::Authority,
                PseudoHeader::Scheme,
                PseudoHeader::Path,
            ],
            headers: fields(&[
                (
                    "sec-ch-ua",
                    "\"Not:A-Brand\";v=\"8\", \"Chromium\";v=\"156\"",
                ),
                ("sec-ch-ua-mobile", "?0"),
                ("sec-ch-ua-platform", "\"Linux\""),
                ("upgrade-insecure-requests", "1"),
                ("User-Agent", ""),
                ("Accept", CHROME_ACCEPT),
                ("sec-fetch-site", "none"),
                ("sec-fetch-mode", "navigate"),
                ("sec-fetch-user", "?1"),
                ("sec-fetch-dest", "document"),
                ("Accept-Encoding", "gzip, deflate, br, zstd"),
                ("Accept-Language", "en-US,en;q=0.9"),
                ("priority", "u=0, i"),
            ]),
        }
    }

    /// A built-in HTTP profile by client name (`default_web` is burrow's own).
    pub fn by_name(name: &str) -> Option<Self> {
        Some(match name {
            "curl" => Self::curl(),
            "curl_7_88" => Self::curl_7_88(),
            "chrome" => Self::chrome(),
            "default_web" => Self::burrow(),
            _ => return None,
        })
    }

    /// The `User-Agent` the named client sends (`None` for an unknown name).
    pub fn user_agent_of(name: &str) -> Option<&'static str> {
        Some(match name {
            "curl" => "curl/8.21.0",
            "curl_7_88" => "curl/7.88.1",
            "chrome" => CHROME_UA,
            "default_web" => concat!("burrow/", env!("CARGO_PKG_VERSION")),
            _ => return None,
        })
    }
}

impl Default for HttpProfile {
    fn default() -> Self {
        Self::burrow()
    }
}

const CHROME_UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36";

const CHROME_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
