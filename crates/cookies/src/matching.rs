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

/// What the public suffix list says of a Domain attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// With the list `Unknown` is never made, without it only `Unknown` is; the jar's decision
// names all three either way.
#[allow(dead_code)]
pub(crate) enum Suffix {
    /// `com`, `co.uk`, `github.io`, or an unknown single-label TLD (the list's default `*`
    /// rule): no cookie may be shared across it.
    Public,
    /// Below a public suffix (`example.com`): a cookie may be shared with its subdomains.
    Registrable,
    /// The list is not compiled in (the `psl` feature is off): nothing is known, so nothing is
    /// shared.
    Unknown,
}

/// Classifies `domain` (lowercase ASCII) by the public suffix list.
#[cfg(feature = "psl")]
pub(crate) fn public_suffix(domain: &str) -> Suffix {
    match psl::suffix(domain.as_bytes()) {
        Some(suffix) if suffix.as_bytes() != domain.as_bytes() => Suffix::Registrable,
        // psl finds no suffix in malformed names (empty labels); treating them as public
        // suffixes fails closed.
        _ => Suffix::Public,
    }
}

/// Without the list, every domain is [`Suffix::Unknown`].
#[cfg(not(feature = "psl"))]
pub(crate) fn public_suffix(_domain: &str) -> Suffix {
    Suffix::Unknown
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
    #[cfg(feature = "psl")]
    fn public_suffixes() {
        assert_eq!(public_suffix("com"), Suffix::Public);
        assert_eq!(public_suffix("co.uk"), Suffix::Public);
        assert_eq!(public_suffix("example.co.uk"), Suffix::Registrable);
        assert_eq!(public_suffix("example.com"), Suffix::Registrable);
        assert_eq!(public_suffix("localhost"), Suffix::Public);
        assert_eq!(public_suffix("xn--p1ai"), Suffix::Public);
    }
}
