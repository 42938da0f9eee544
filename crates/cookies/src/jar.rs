//! The cookie store: storage (RFC 6265bis §5.7), retrieval (§5.8.3) and eviction.

use crate::error::Rejected;
use crate::matching::{
    canonical_host, default_path, domain_match, path_match, public_suffix, Suffix,
};
use crate::parse::{parse, Expiry, SameSite};

/// Set-Cookie values longer than this are refused before parsing (twice the name+value limit,
/// leaving room for attributes).
pub const MAX_SET_COOKIE_BYTES: usize = 8192;

/// Size and count limits of a [`Jar`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest name plus value, in bytes (default 4096, §6.1's minimum).
    pub max_cookie_bytes: usize,
    /// Most cookies stored for one cookie domain (default 50); the least recently used go first.
    pub max_per_domain: usize,
    /// Most cookies in the jar (default 3000); the least recently used go first.
    pub max_total: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_cookie_bytes: 4096,
            max_per_domain: 50,
            max_total: 3000,
        }
    }
}

/// One stored cookie (§5.7's cookie record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cookie {
    name: String,
    value: String,
    domain: String,
    path: String,
    expiry: Expiry,
    host_only: bool,
    secure: bool,
    http_only: bool,
    same_site: SameSite,
    creation: i64,
    last_access: i64,
    /// Jar-wide counter: breaks creation-time ties in header order.
    creation_seq: u64,
    /// Jar-wide counter: breaks last-access ties in eviction.
    access_seq: u64,
}

impl Cookie {
    /// The cookie name (may be empty: a nameless cookie).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The cookie value.
    pub fn value(&self) -> &str {
        &self.value
    }
    /// The domain: the request host for host-only cookies, else the Domain attribute.
    pub fn domain(&self) -> &str {
        &self.domain
    }
    /// The path the cookie applies to.
    pub fn path(&self) -> &str {
        &self.path
    }
    /// Expiry in Unix seconds; `None` for a session cookie (lives as long as the jar).
    pub fn expires(&self) -> Option<i64> {
        match self.expiry {
            Expiry::Session => None,
            Expiry::At(t) => Some(t),
        }
    }
    /// Whether the cookie is sent only to its exact host (no Domain attribute).
    pub fn host_only(&self) -> bool {
        self.host_only
    }
    /// Whether the cookie is sent only over https.
    pub fn secure(&self) -> bool {
        self.secure
    }
    /// Whether the server marked it HttpOnly (stored and sent: this is an HTTP client).
    pub fn http_only(&self) -> bool {
        self.http_only
    }
    /// The SameSite attribute (stored, not enforced).
    pub fn same_site(&self) -> SameSite {
        self.same_site
    }
    /// When the cookie was first created (kept across replacement), Unix seconds.
    pub fn creation_time(&self) -> i64 {
        self.creation
    }
    /// When the cookie was last stored or sent, Unix seconds.
    pub fn last_access_time(&self) -> i64 {
        self.last_access
    }

    fn expired(&self, now: i64) -> bool {
        match self.expiry {
            Expiry::Session => false,
            Expiry::At(t) => t <= now,
        }
    }
}

/// An RFC 6265bis cookie jar. Sans-IO: every call takes the current time as Unix seconds.
#[derive(Clone, Debug, Default)]
pub struct Jar {
    cookies: Vec<Cookie>,
    limits: Limits,
    seq: u64,
}

fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    s.as_bytes()
        .get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// The request host of an http(s) URL, with whether it is an IP address.
fn http_host(url: &url::Url) -> Option<(String, bool)> {
    match url.scheme() {
        "http" | "https" => canonical_host(url),
        _ => None,
    }
}

impl Jar {
    /// An empty jar with [`Limits::default`].
    pub fn new() -> Jar {
        Jar::default()
    }

    /// An empty jar with the given limits.
    pub fn with_limits(limits: Limits) -> Jar {
        Jar {
            limits,
            ..Jar::default()
        }
    }

    /// Parses one Set-Cookie value received for `url` (the response's URL) at `now`, and stores,
    /// replaces or deletes (expired) the cookie. Returns why it was ignored, if it was; the jar
    /// is then unchanged apart from dropping expired cookies.
    pub fn store(&mut self, url: &url::Url, set_cookie: &str, now: i64) -> Result<(), Rejected> {
        let (host, host_is_ip) = http_host(url).ok_or(Rejected::NonHttpUrl)?;
        if set_cookie.len() > MAX_SET_COOKIE_BYTES {
            return Err(Rejected::SetCookieTooLong {
                bytes: set_cookie.len(),
                limit: MAX_SET_COOKIE_BYTES,
            });
        }
        let parsed = parse(set_cookie, now, self.limits.max_cookie_bytes)?;
        self.remove_expired(now);

        if parsed.name.is_empty()
            && (starts_with_ignore_case(parsed.value, "__Secure-")
                || starts_with_ignore_case(parsed.value, "__Host-"))
        {
            return Err(Rejected::NamelessPrefix);
        }

        let (domain, host_only) = match parsed.domain {
            None => (host, true),
            Some(attr) => {
                if !attr.is_ascii() {
                    return Err(Rejected::NonAsciiDomain);
                }
                if host_is_ip {
                    // An IP address only ever matches itself (§5.1.3); the cookie stays
                    // host-only so it is never sent to any other host.
                    let bracketed = format!("[{attr}]");
                    if attr != host && bracketed != host {
                        return Err(Rejected::DomainMismatch { domain: attr, host });
                    }
                    (host, true)
                } else {
                    let suffix = public_suffix(&attr);
                    cookie_domain(host, attr, suffix)?
                }
            }
        };
        let path = match parsed.path {
            Some(p) => p.to_owned(),
            None => default_path(url.path()).to_owned(),
        };
        let secure_origin = url.scheme() == "https";
        if parsed.secure && !secure_origin {
            return Err(Rejected::SecureFromInsecure);
        }
        if !parsed.secure && !secure_origin && self.shadows_secure(parsed.name, &domain, &path) {
            return Err(Rejected::OverwriteSecure);
        }
        if parsed.same_site == SameSite::None && !parsed.secure {
            return Err(Rejected::SameSiteNoneInsecure);
        }
        if starts_with_ignore_case(parsed.name, "__Secure-") && !parsed.secure {
            return Err(Rejected::SecurePrefix);
        }
        if starts_with_ignore_case(parsed.name, "__Host-")
            && !(parsed.secure && host_only && parsed.path_attribute && path == "/")
        {
            return Err(Rejected::HostPrefix);
        }

        self.seq = self.seq.wrapping_add(1);
        let mut cookie = Cookie {
            name: parsed.name.to_owned(),
            value: parsed.value.to_owned(),
            domain,
            path,
            expiry: parsed.expiry,
            host_only,
            secure: parsed.secure,
            http_only: parsed.http_only,
            same_site: parsed.same_site,
            creation: now,
            last_access: now,
            creation_seq: self.seq,
            access_seq: self.seq,
        };
        if let Some(i) = self.cookies.iter().position(|c| {
            c.name == cookie.name
                && c.domain == cookie.domain
                && c.host_only == cookie.host_only
                && c.path == cookie.path
        }) {
            let old = self.cookies.swap_remove(i);
            cookie.creation = old.creation;
            cookie.creation_seq = old.creation_seq;
        }
        // An already-expired cookie is how servers delete one: the old one is gone, the new
        // one is not kept.
        if cookie.expired(now) {
            return Ok(());
        }
        let cookie_domain = cookie.domain.clone();
        self.cookies.push(cookie);
        self.evict(&cookie_domain);
        Ok(())
    }

    /// The Cookie header value for a request to `url` at `now` (`None` when no cookie
    /// matches): longer paths first, then earlier creation (§5.8.3). Updates last-access time.
    pub fn cookie_header(&mut self, url: &url::Url, now: i64) -> Option<String> {
        let (host, _) = http_host(url)?;
        self.remove_expired(now);
        let secure = url.scheme() == "https";
        let path = url.path();
        let mut matching: Vec<&mut Cookie> = self
            .cookies
            .iter_mut()
            .filter(|c| {
                let host_ok = if c.host_only {
                    c.domain == host
                } else {
                    domain_match(&host, &c.domain)
                };
                host_ok && path_match(path, &c.path) && (secure || !c.secure)
            })
            .collect();
        if matching.is_empty() {
            return None;
        }
        matching.sort_by(|a, b| {
            b.path
                .len()
                .cmp(&a.path.len())
                .then(a.creation.cmp(&b.creation))
                .then(a.creation_seq.cmp(&b.creation_seq))
        });
        let mut header = String::new();
        for cookie in matching {
            self.seq = self.seq.wrapping_add(1);
            cookie.last_access = now;
            cookie.access_seq = self.seq;
            if !header.is_empty() {
                header.push_str("; ");
            }
            // A nameless cookie is sent as its value alone (§5.8.3).
            if !cookie.name.is_empty() {
                header.push_str(&cookie.name);
                header.push('=');
            }
            header.push_str(&cookie.value);
        }
        Some(header)
    }

    /// Number of stored cookies (expired ones may still be counted until the next call that
    /// takes `now`).
    pub fn len(&self) -> usize {
        self.cookies.len()
    }

    /// Whether the jar holds no cookies.
    pub fn is_empty(&self) -> bool {
        self.cookies.is_empty()
    }

    /// Removes every cookie.
    pub fn clear(&mut self) {
        self.cookies.clear();
    }

    /// The stored cookies, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Cookie> {
        self.cookies.iter()
    }

    /// The limits this jar enforces.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn remove_expired(&mut self, now: i64) {
        self.cookies.retain(|c| !c.expired(now));
    }

    /// §5.7 "leave secure cookies alone": an insecure response may not set a cookie that would
    /// shadow a stored Secure cookie of the same name.
    fn shadows_secure(&self, name: &str, domain: &str, path: &str) -> bool {
        self.cookies.iter().any(|c| {
            c.secure
                && c.name == name
                && (domain_match(&c.domain, domain) || domain_match(domain, &c.domain))
                && path_match(path, &c.path)
        })
    }

    /// Drops least-recently-used cookies while `domain` or the whole jar is over its limit.
    fn evict(&mut self, domain: &str) {
        while self.cookies.iter().filter(|c| c.domain == domain).count()
            > self.limits.max_per_domain
        {
            if !self.remove_lru(|c| c.domain == domain) {
                break;
            }
        }
        while self.cookies.len() > self.limits.max_total {
            if !self.remove_lru(|_| true) {
                break;
            }
        }
    }

    fn remove_lru(&mut self, select: impl Fn(&Cookie) -> bool) -> bool {
        let oldest = self
            .cookies
            .iter()
            .enumerate()
            .filter(|(_, c)| select(c))
            .min_by_key(|(_, c)| (c.last_access, c.access_seq))
            .map(|(i, _)| i);
        match oldest {
            Some(i) => {
                self.cookies.swap_remove(i);
                true
            }
            None => false,
        }
    }
}

/// The domain a cookie is stored under and whether it is host-only (§5.7 steps 9-10), for a
/// `Domain` attribute `attr` (lowercase ASCII) set by host name `host`, given what the public
/// suffix list says of `attr`.
fn cookie_domain(host: String, attr: String, suffix: Suffix) -> Result<(String, bool), Rejected> {
    match suffix {
        Suffix::Public if attr == host => Ok((host, true)),
        Suffix::Public => Err(Rejected::PublicSuffix { domain: attr }),
        Suffix::Registrable if domain_match(&host, &attr) => Ok((attr, false)),
        // Without the list, `attr` may be a public suffix: the cookie stays with its host
        // rather than be shared across one.
        Suffix::Unknown if domain_match(&host, &attr) => Ok((host, true)),
        Suffix::Registrable | Suffix::Unknown => {
            Err(Rejected::DomainMismatch { domain: attr, host })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(host: &str, attr: &str, suffix: Suffix) -> Result<(String, bool), &'static str> {
        cookie_domain(host.to_owned(), attr.to_owned(), suffix).map_err(|e| e.code())
    }

    #[test]
    fn with_the_list() {
        let shared = Ok(("example.com".to_owned(), false));
        assert_eq!(
            decide("www.example.com", "example.com", Suffix::Registrable),
            shared
        );
        assert_eq!(
            decide("www.example.com", "com", Suffix::Public),
            Err("COOKIE_REJECTED_PUBLIC_SUFFIX")
        );
        assert_eq!(
            decide("co.uk", "co.uk", Suffix::Public),
            Ok(("co.uk".to_owned(), true))
        );
        assert_eq!(
            decide("www.example.com", "other.com", Suffix::Registrable),
            Err("COOKIE_REJECTED_DOMAIN_MISMATCH")
        );
    }

    #[test]
    fn without_the_list_domain_cookies_stay_host_only() {
        let host_only = Ok(("www.example.com".to_owned(), true));
        assert_eq!(
            decide("www.example.com", "example.com", Suffix::Unknown),
            host_only
        );
        // A public suffix is neither refused nor shared across: the cookie keeps to its host.
        assert_eq!(decide("www.example.com", "com", Suffix::Unknown), host_only);
        assert_eq!(
            decide("www.example.com", "www.example.com", Suffix::Unknown),
            host_only
        );
        assert_eq!(
            decide("www.example.com", "other.com", Suffix::Unknown),
            Err("COOKIE_REJECTED_DOMAIN_MISMATCH")
        );
    }
}
