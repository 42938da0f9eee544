//! The redirect policy: pure functions deciding the request that follows a 3xx response.
//!
//! * 301 and 302 change `POST` to `GET` and drop the body; other methods are kept with their
//!   body. 303 changes every method except `HEAD` to `GET` and drops the body. This is the
//!   Fetch standard's rule (what browsers and curl do); rewriting e.g. `PUT` to `GET` on a 301
//!   would silently turn a write into a read.
//! * 307 and 308 keep the method and the body.
//! * 300, 304, 305, 306 and every other status are not redirects to follow: `Ok(None)`, and
//!   the response is returned as it is. So is a 3xx without `Location`.
//! * `Location` is resolved against the current URL (WHATWG URL parsing); when it has no
//!   fragment, the current URL's fragment is carried over (RFC 9110 §10.2.2).
//! * Only `http` and `https` targets are followed; `https` → `http` is refused unless
//!   [`RedirectPolicy::allow_https_to_http`].
//! * The limit counts redirects followed: `history` holds every URL requested so far
//!   (first..current), so `history.len() - 1` redirects were followed before this one.
//! * A loop is a target that was already requested twice (fragments ignored). `history` has no
//!   methods, so a single revisit is allowed: `POST /login` → 303 → `GET /login`, and the
//!   common "bounce to set a cookie and come back" (`/a` → `/b` → `/a`) both need it. A real
//!   loop fails on the third visit instead of running to the limit.
//! * Cross-origin (scheme, host or port differ) redirects drop `Authorization` and a `Cookie`
//!   header the caller set by hand (the jar's cookies are recomputed for the new URL anyway).

use core::fmt;

/// Redirect settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RedirectPolicy {
    /// Most redirects followed for one request (default 20, as in Fetch).
    pub max_redirects: u32,
    /// Follow `https` → `http` redirects (default false: that downgrade exposes the request).
    pub allow_https_to_http: bool,
}

impl Default for RedirectPolicy {
    fn default() -> RedirectPolicy {
        RedirectPolicy {
            max_redirects: 20,
            allow_https_to_http: false,
        }
    }
}

/// The request to make next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    /// The resolved target.
    pub url: url::Url,
    /// The method to use.
    pub method: String,
    /// Whether the request body is sent again.
    pub keep_body: bool,
    /// Whether to remove `Authorization` (the target is another origin).
    pub drop_authorization: bool,
    /// Whether to remove a caller-set `Cookie` header (the target is another origin).
    pub drop_cookie_header: bool,
    /// Whether to remove `Content-Type`, `Content-Length`, `Content-Encoding` (and
    /// `Content-Language`, `Content-Location`): the body is dropped.
    pub drop_body_headers: bool,
}

/// Why a redirect is not followed.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedirectError {
    /// More than [`RedirectPolicy::max_redirects`] redirects.
    TooMany {
        /// The limit in force.
        limit: u32,
    },
    /// The target was already requested twice in this chain.
    Loop {
        /// The target.
        url: url::Url,
    },
    /// An `https` → `http` redirect while [`RedirectPolicy::allow_https_to_http`] is false.
    HttpsToHttp {
        /// The target.
        url: url::Url,
    },
    /// The `Location` header is not a valid URL reference.
    BadLocation {
        /// The header value.
        location: String,
        /// What the URL parser said.
        reason: String,
    },
    /// The target's scheme is neither `http` nor `https`.
    UnsupportedScheme {
        /// The target's scheme.
        scheme: String,
    },
}

impl RedirectError {
    /// A stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            RedirectError::TooMany { .. } => "REDIRECT_LIMIT",
            RedirectError::Loop { .. } => "REDIRECT_LOOP",
            RedirectError::HttpsToHttp { .. } => "REDIRECT_INSECURE",
            RedirectError::BadLocation { .. } | RedirectError::UnsupportedScheme { .. } => {
                "REDIRECT_LOCATION"
            }
        }
    }
}

impl fmt::Display for RedirectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedirectError::TooMany { limit } => write!(
                f,
                "more than {limit} redirects; raise RedirectPolicy::max_redirects if the server \
                 really needs more"
            ),
            RedirectError::Loop { url } => write!(
                f,
                "redirect loop: {url} was already requested twice in this chain \
                 (RedirectPolicy::max_redirects bounds longer chains)"
            ),
            RedirectError::HttpsToHttp { url } => write!(
                f,
                "refusing https to http redirect to {url}; set \
                 RedirectPolicy::allow_https_to_http to follow it"
            ),
            RedirectError::BadLocation { location, reason } => {
                write!(f, "invalid Location header {location:?}: {reason}")
            }
            RedirectError::UnsupportedScheme { scheme } => write!(
                f,
                "redirect to a {scheme}: URL; only http and https redirects are followed"
            ),
        }
    }
}

impl std::error::Error for RedirectError {}

/// Whether `status` is a redirect this policy follows.
pub fn is_followed_status(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Whether two URLs have the same origin (scheme, host, port with defaults filled in).
pub fn same_origin(a: &url::Url, b: &url::Url) -> bool {
    a.scheme() == b.scheme()
        && a.host() == b.host()
        && a.port_or_known_default() == b.port_or_known_default()
}

fn without_fragment(url: &url::Url) -> url::Url {
    let mut u = url.clone();
    u.set_fragment(None);
    u
}

/// Decides the next request after a 3xx response to `method current`. `history` is every URL
/// requested so far, first..current. `Ok(None)`: not a redirect to follow; return the response.
pub fn next_request(
    policy: &RedirectPolicy,
    history: &[url::Url],
    current: &url::Url,
    method: &str,
    status: u16,
    location: Option<&str>,
) -> Result<Option<Redirect>, RedirectError> {
    if !is_followed_status(status) {
        return Ok(None);
    }
    let Some(location) = location else {
        return Ok(None);
    };
    let mut target = current
        .join(location)
        .map_err(|e| RedirectError::BadLocation {
            location: location.to_owned(),
            reason: e.to_string(),
        })?;
    if !matches!(target.scheme(), "http" | "https") {
        return Err(RedirectError::UnsupportedScheme {
            scheme: target.scheme().to_owned(),
        });
    }
    if target.fragment().is_none() && current.fragment().is_some() {
        target.set_fragment(current.fragment());
    }
    if current.scheme() == "https" && target.scheme() == "http" && !policy.allow_https_to_http {
        return Err(RedirectError::HttpsToHttp { url: target });
    }
    let followed = history.len().saturating_sub(1);
    if u64::try_from(followed).unwrap_or(u64::MAX) >= u64::from(policy.max_redirects) {
        return Err(RedirectError::TooMany {
            limit: policy.max_redirects,
        });
    }
    let bare_target = without_fragment(&target);
    let visits = history
        .iter()
        .filter(|u| without_fragment(u) == bare_target)
        .count();
    if visits >= 2 {
        return Err(RedirectError::Loop { url: target });
    }

    let is = |m: &str| method.eq_ignore_ascii_case(m);
    let to_get = match status {
        301 | 302 => is("POST"),
        303 => !is("GET") && !is("HEAD"),
        _ => false,
    };
    let new_method = if to_get {
        "GET".to_owned()
    } else if is("HEAD") || is("GET") {
        // Normalised like Fetch does for the standard methods.
        method.to_ascii_uppercase()
    } else {
        method.to_owned()
    };
    let cross_origin = !same_origin(current, &target);
    Ok(Some(Redirect {
        url: target,
        method: new_method,
        keep_body: !to_get,
        drop_authorization: cross_origin,
        drop_cookie_header: cross_origin,
        drop_body_headers: to_get,
    }))
}
