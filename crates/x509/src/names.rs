//! Host names: reference names (what the caller connects to), presented names (SAN entries),
//! RFC 6125 wildcard matching, and IP literals.

use std::net::IpAddr;

use crate::Error;

/// What the caller expects the certificate to name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerName {
    /// A DNS name in A-label (ASCII) form, lower-cased, without a trailing dot.
    Dns(String),
    /// An IP address literal (matched against iPAddress SAN entries only).
    Ip(IpAddr),
}

impl ServerName {
    /// Parses what a URL's host would hold: an IPv4/IPv6 literal (brackets allowed) or a DNS
    /// name. Non-ASCII names are refused with [`Error::NonAsciiHostName`]: convert them to
    /// A-labels (IDNA) first; the Common Name is never consulted.
    pub fn parse(host: &str) -> Result<ServerName, Error> {
        let unbracketed = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        if let Ok(ip) = unbracketed.parse::<IpAddr>() {
            return Ok(ServerName::Ip(ip));
        }
        if !host.is_ascii() {
            return Err(Error::NonAsciiHostName);
        }
        let name = host.strip_suffix('.').unwrap_or(host);
        if !is_valid_dns_name(name.as_bytes(), false, true) {
            return Err(Error::InvalidHostName);
        }
        Ok(ServerName::Dns(name.to_ascii_lowercase()))
    }
}

/// Checks DNS-name syntax (LDH labels, 1..=63 bytes, total <= 253). `wildcard` allows a
/// leftmost `*` label followed by at least two labels; `underscore` allows `_` (reference names
/// of real hosts sometimes use it; presented names may not).
pub(crate) fn is_valid_dns_name(name: &[u8], wildcard: bool, underscore: bool) -> bool {
    if name.is_empty() || name.len() > 253 {
        return false;
    }
    let mut labels = name.split(|&c| c == b'.');
    let mut count = 0usize;
    let mut first = true;
    let mut saw_wildcard = false;
    let mut all_numeric_last = false;
    for label in labels.by_ref() {
        count = count.saturating_add(1);
        if first && wildcard && label == b"*" {
            first = false;
            saw_wildcard = true;
            continue;
        }
        first = false;
        if label.is_empty() || label.len() > 63 {
            return false;
        }
        if label.first() == Some(&b'-') || label.last() == Some(&b'-') {
            return false;
        }
        if !label
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || (underscore && c == b'_'))
        {
            return false;
        }
        all_numeric_last = label.iter().all(u8::is_ascii_digit);
    }
    if all_numeric_last {
        // "1.2.3.4" is an IP address, not a DNS name.
        return false;
    }
    if saw_wildcard && count < 3 {
        return false;
    }
    true
}

/// RFC 6125 §6.4 matching of a presented SAN dNSName against a (validated, lower-case)
/// reference name: case-insensitive; a wildcard only as the whole leftmost label, matching
/// exactly one label.
pub(crate) fn dns_matches(presented: &[u8], reference: &str) -> bool {
    let reference = reference.as_bytes();
    if let Some(rest) = presented.strip_prefix(b"*.") {
        let Some(dot) = reference.iter().position(|&c| c == b'.') else {
            return false;
        };
        if dot == 0 {
            return false;
        }
        let Some(ref_rest) = reference.get(dot.saturating_add(1)..) else {
            return false;
        };
        return rest.eq_ignore_ascii_case(ref_rest);
    }
    presented.eq_ignore_ascii_case(reference)
}

/// Matches an iPAddress SAN entry (4 or 16 bytes) against an IP reference.
pub(crate) fn ip_matches(presented: &[u8], reference: &IpAddr) -> bool {
    match reference {
        IpAddr::V4(v4) => presented == v4.octets(),
        IpAddr::V6(v6) => presented == v6.octets(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_names() {
        assert_eq!(
            ServerName::parse("Example.COM.").unwrap(),
            ServerName::Dns("example.com".into())
        );
        assert!(matches!(
            ServerName::parse("127.0.0.1").unwrap(),
            ServerName::Ip(_)
        ));
        assert!(matches!(
            ServerName::parse("[::1]").unwrap(),
            ServerName::Ip(_)
        ));
        assert_eq!(ServerName::parse("bücher.de"), Err(Error::NonAsciiHostName));
        assert_eq!(ServerName::parse("a..b"), Err(Error::InvalidHostName));
        assert_eq!(ServerName::parse("-a.b"), Err(Error::InvalidHostName));
        assert_eq!(ServerName::parse(""), Err(Error::InvalidHostName));
    }

    #[test]
    fn wildcards() {
        assert!(dns_matches(b"*.example.com", "foo.example.com"));
        assert!(dns_matches(b"*.EXAMPLE.com", "foo.example.com"));
        assert!(!dns_matches(b"*.example.com", "example.com"));
        assert!(!dns_matches(b"*.example.com", "a.b.example.com"));
        assert!(dns_matches(b"Example.com", "example.com"));
        assert!(is_valid_dns_name(b"*.example.com", true, false));
        assert!(!is_valid_dns_name(b"*", true, false));
        assert!(!is_valid_dns_name(b"*.com", true, false));
        assert!(!is_valid_dns_name(b"ba*.example.com", true, false));
        assert!(!is_valid_dns_name(b"foo.*.example.com", true, false));
        assert!(!is_valid_dns_name(b"a_b.example.com", true, false));
        assert!(!is_valid_dns_name(b"8.8.8.8", true, false));
    }

    #[test]
    fn wildcards_need_a_label_to_replace() {
        // A single-label reference has nothing for `*` to stand for.
        assert!(!dns_matches(b"*.example.com", "localhost"));
        assert!(!dns_matches(b"*.localhost.example", "localhost"));
        assert!(ip_matches(&[127, 0, 0, 1], &"127.0.0.1".parse().unwrap()));
        assert!(!ip_matches(
            &[127, 0, 0, 1],
            &"::ffff:127.0.0.1".parse().unwrap()
        ));
        assert!(ip_matches(&[0; 16], &"::".parse().unwrap()));
        assert!(!is_valid_dns_name(&[b'a'; 254], false, false));
        assert!(!is_valid_dns_name(&[b'a'; 64], false, false));
        assert!(is_valid_dns_name(&[b'a'; 63], false, false));
        assert!(is_valid_dns_name(b"_dmarc.example.com", false, true));
    }
}
