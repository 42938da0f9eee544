//! Host and path matching (RFC 6265bis §5.1.2-§5.1.4) and the public suffix check.

use core::net::Ipv4Addr;

/// The canonicalized request host (§5.1.2) of an http(s) URL: lowercase, IDNA already mapped to
/// ASCII by the `url` crate, IPv6 in brackets. `None` for URLs without a host.
pub(crate) fn canonical_host(url: &url::Url) -> Option<(String, bool)> {
    match url.host()? {
        url::Host::Domain(d) => Some((d.to_ascii_lowercase(), false)),
        url::Host::Ipv4(ip) => Some((ip.to_string(), true)),
        url::Host::Ipv6(ip) => Some((format!("[{ip}]"), true)),
    }
}

/// Whether a stored cookie domain is an IP literal (only ever the exact request host then).
pub(crate) fn is_ip_literal(domain: &str) -> bool {
    domain.starts_with('[') || domain.parse::<Ipv4Addr>().is_ok()
}

/// Domain-match (§5.1.3): identical, or `domain` is a suffix of `host` preceded by '.', and
/// `host` is a host name rather than an IP address.
pub(crate) fn domain_match(host: &str, domain: &str) -> bool {
    if host == domain {
        return true;
    }
    if is_ip_literal(host) || domain.is_empty() {
        return false;
    }
    match host.strip_suffix(domain) {
        Some(prefix) => prefix.ends_with('.'),
        None => false,
    }
}

/// Whether `domain` (lowercase ASCII) is itself a public suffix: `com`, `co.uk`, `github.io`, or
/// an unknown single-label TLD (the list's default `*` rule).
pub(crate) fn is_public_suffix(domain: &str) -> bool {
    match psl::suffix(domain.as_bytes()) {
        Some(suffix) => suffix.as_bytes() == domain.as_bytes(),
        // psl finds no suffix in malformed names (empty labels); treating them as public
        // suffixes fails closed.
        None => true,
    }
}

/// default-path (§5.1.4) of a request path.
pub(crate) fn default_path(uri_path: &str) -> &str {
    if !uri_path.starts_with('/') {
        return "/";
    }
    match uri_path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => uri_path.get(..i).unwrap_or("/"),
    }
}

/// Path-match (§5.1.4).
pub(crate) fn path_match(request_path: &str, cookie_path: &str) -> bool {
    match request_path.strip_prefix(cookie_path) {
        Some("") => true,
        Some(rest) => cookie_path.ends_with('/') || rest.starts_with('/'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_path_5_1_4() {
        assert_eq!(default_path(""), "/");
        assert_eq!(default_path("/"), "/");
        assert_eq!(default_path("/a"), "/");
        assert_eq!(default_path("/a/"), "/a");
        assert_eq!(default_path("/a/b"), "/a");
        assert_eq!(default_path("/a/b/c"), "/a/b");
        assert_eq!(default_path("a/b"), "/");
    }

    #[test]
    fn path_match_5_1_4() {
        assert!(path_match("/", "/"));
        assert!(path_match("/a/b", "/a"));
        assert!(path_match("/a/b", "/a/"));
        assert!(path_match("/a", "/a"));
        assert!(!path_match("/ab", "/a"));
        assert!(!path_match("/", "/a"));
        assert!(!path_match("/A", "/a"));
    }

    #[test]
    fn domain_match_5_1_3() {
        assert!(domain_match("example.com", "example.com"));
        assert!(domain_match("www.example.com", "example.com"));
        assert!(!domain_match("wwwexample.com", "example.com"));
        assert!(!domain_match("example.com", "www.example.com"));
        assert!(domain_match("127.0.0.1", "127.0.0.1"));
        assert!(!domain_match("10.0.0.1", "0.0.1"));
        assert!(!domain_match("example.com", ""));
    }

    #[test]
    fn ip_literals() {
        assert!(is_ip_literal("127.0.0.1"));
        assert!(is_ip_literal("[::1]"));
        assert!(!is_ip_literal("example.com"));
    }

    #[test]
    fn public_suffixes() {
        assert!(is_public_suffix("com"));
        assert!(is_public_suffix("co.uk"));
        assert!(!is_public_suffix("example.co.uk"));
        assert!(!is_public_suffix("example.com"));
        assert!(is_public_suffix("localhost"));
        assert!(is_public_suffix("xn--p1ai"));
    }
}
