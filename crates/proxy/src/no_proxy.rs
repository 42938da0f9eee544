//! `no_proxy` / `NO_PROXY` lists: which destinations bypass the proxy.

use std::net::IpAddr;

/// One entry of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    /// A domain (lower-case, no leading or trailing dot): matches it and its subdomains.
    Domain { name: String, port: Option<u16> },
    /// An IP address: matches that literal IP host.
    Ip { ip: IpAddr, port: Option<u16> },
    /// A CIDR block (`10.0.0.0/8`, `::1/128`): matches literal IP hosts inside it.
    Cidr { network: IpAddr, prefix: u8 },
}

/// A parsed `no_proxy` list.
///
/// Entries are separated by commas and/or white space. `*` (alone) matches every host.
/// `example.com` and `.example.com` (also `*.example.com`) match `example.com` and its
/// subdomains. `host:port` and `[v6]:port` restrict an entry to one port. IP addresses and CIDR
/// blocks (`10.0.0.0/8`, `::1/128`) match hosts that are IP literals (no DNS lookups). Matching is
/// case-insensitive and ignores a trailing dot. Entries that cannot be parsed are ignored and
/// listed by [`NoProxy::ignored`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoProxy {
    all: bool,
    rules: Vec<Rule>,
    ignored: Vec<String>,
}

impl NoProxy {
    /// Parses a list such as `"localhost, .internal.example,10.0.0.0/8 ::1"`.
    pub fn parse(list: &str) -> NoProxy {
        let mut no_proxy = NoProxy::default();
        for entry in list
            .split(|c: char| c == ',' || c.is_ascii_whitespace())
            .filter(|e| !e.is_empty())
        {
            if entry == "*" {
                no_proxy.all = true;
                continue;
            }
            match parse_rule(entry) {
                Some(rule) => no_proxy.rules.push(rule),
                None => no_proxy.ignored.push(entry.to_string()),
            }
        }
        no_proxy
    }

    /// True when a connection to `host:port` must not use the proxy. `host` is a name or an IP
    /// literal (an IPv6 literal with or without brackets).
    pub fn matches(&self, host: &str, port: u16) -> bool {
        if self.all {
            return true;
        }
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let bare = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(&host);
        let host_ip: Option<IpAddr> = bare.parse().ok();
        let port_ok = |p: &Option<u16>| p.is_none_or(|p| p == port);
        self.rules.iter().any(|rule| match (rule, host_ip) {
            (Rule::Ip { ip, port: p }, Some(host_ip)) => *ip == host_ip && port_ok(p),
            (Rule::Cidr { network, prefix }, Some(host_ip)) => in_block(host_ip, *network, *prefix),
            (Rule::Domain { name, port: p }, None) => {
                let subdomain = bare
                    .strip_suffix(name.as_str())
                    .is_some_and(|rest| rest.ends_with('.'));
                (bare == name || subdomain) && port_ok(p)
            }
            _ => false,
        })
    }

    /// True when the list has no usable entry (nothing bypasses the proxy).
    pub fn is_empty(&self) -> bool {
        !self.all && self.rules.is_empty()
    }

    /// The entries that could not be parsed and are ignored (e.g. `10.0.0.0/99`, `host:notaport`).
    pub fn ignored(&self) -> &[String] {
        &self.ignored
    }
}

fn parse_rule(entry: &str) -> Option<Rule> {
    if let Some((addr, prefix)) = entry.split_once('/') {
        let network: IpAddr = addr.parse().ok()?;
        let prefix: u8 = prefix.parse().ok()?;
        let max = if network.is_ipv4() { 32 } else { 128 };
        if prefix > max {
            return None;
        }
        return Some(Rule::Cidr { network, prefix });
    }
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(Rule::Ip { ip, port: None });
    }
    if let Some(rest) = entry.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        let ip: IpAddr = ip.parse().ok()?;
        let port = match after {
            "" => None,
            _ => Some(parse_port(after.strip_prefix(':')?)?),
        };
        return Some(Rule::Ip { ip, port });
    }
    let (name, port) = match entry.split_once(':') {
        Some((name, port)) => (name, Some(parse_port(port)?)),
        None => (entry, None),
    };
    if let Ok(ip) = name.parse::<IpAddr>() {
        return Some(Rule::Ip { ip, port });
    }
    let name = name.strip_prefix('*').unwrap_or(name);
    let name = name.trim_start_matches('.').trim_end_matches('.');
    if name.is_empty() || !name.bytes().all(is_name_byte) {
        return None;
    }
    Some(Rule::Domain {
        name: name.to_ascii_lowercase(),
        port,
    })
}

fn parse_port(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Bytes allowed in a domain entry: letters, digits, `-`, `_` and `.` (names are matched as
/// given, so a non-ASCII entry must be written IDNA-encoded, as the host will be).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

/// Whether `ip` lies in `network/prefix`. IPv4 and IPv6 never match each other.
fn in_block(ip: IpAddr, network: IpAddr, prefix: u8) -> bool {
    match (ip, network) {
        (IpAddr::V4(ip), IpAddr::V4(net)) => {
            let mask = u32::MAX.checked_shl(32u32.saturating_sub(u32::from(prefix)));
            let mask = mask.unwrap_or(0);
            u32::from(ip) & mask == u32::from(net) & mask
        }
        (IpAddr::V6(ip), IpAddr::V6(net)) => {
            let mask = u128::MAX.checked_shl(128u32.saturating_sub(u32::from(prefix)));
            let mask = mask.unwrap_or(0);
            u128::from(ip) & mask == u128::from(net) & mask
        }
        _ => false,
    }
}
