//! What a request carries besides its method and body, built in one place for HTTP/1.1 and
//! HTTP/2 alike: the origin-form target, the authority (`Host` / `:authority`) and the header
//! fields in the order sent, the profile's defaults first (less those the request sets, with
//! the configured `User-Agent`), then the request's own. Each version adds only what is its
//! own: HTTP/1.1 the proxy fields and body framing, HTTP/2 the pseudo-headers and
//! `content-length`.

use crate::config::ClientConfig;
use crate::connect::Origin;
use crate::message::Request;
use crate::profile::HttpProfile;
use crate::proxy::host_field;

/// The parts of a request head that do not depend on the HTTP version.
pub(super) struct RequestParts {
    /// The origin-form target: the path, and `?query` if any.
    pub(super) path: String,
    /// The `Host` / `:authority` value: the port only if the URL names one.
    pub(super) authority: String,
    /// The default fields, then the request's own, in the order sent.
    pub(super) fields: Vec<(String, String)>,
}

impl RequestParts {
    /// The parts of `req` (going to `origin`, the origin of its URL) under `cfg`.
    pub(super) fn new(cfg: &ClientConfig, req: &Request, origin: &Origin) -> RequestParts {
        let path = match req.url.query() {
            Some(q) => format!("{}?{q}", req.url.path()),
            None => req.url.path().to_string(),
        };
        let authority = host_field(&origin.host, req.url.port().map(|_| origin.port));
        let mut fields = default_fields(&cfg.http, cfg.user_agent.as_deref(), &req.headers);
        fields.extend(req.headers.iter().cloned());
        RequestParts {
            path,
            authority,
            fields,
        }
    }
}

/// The default fields for a request whose own fields are `req`: the profile's, in order,
/// minus those the request sets, with `user_agent` in the `User-Agent` slot.
pub(crate) fn default_fields(
    profile: &HttpProfile,
    user_agent: Option<&str>,
    req: &[(String, String)],
) -> Vec<(String, String)> {
    let has = |name: &str| req.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    let mut out = Vec::new();
    for (n, v) in &profile.headers {
        if has(n) {
            continue;
        }
        if n.eq_ignore_ascii_case("user-agent") {
            if let Some(ua) = user_agent {
                out.push((n.clone(), ua.to_string()));
            }
        } else {
            out.push((n.clone(), v.clone()));
        }
    }
    out
}
