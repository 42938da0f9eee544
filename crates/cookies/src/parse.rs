//! Parsing one Set-Cookie value into a name, a value and attributes (RFC 6265bis §5.6).
//!
//! Only syntax is decided here; what the attributes mean for storage (domain, prefixes, secure
//! origin) is decided by the jar (§5.7).

use crate::date::parse_cookie_date;
use crate::error::Rejected;

/// Attribute values longer than this are ignored (§5.6 step "If the attribute-value is longer
/// than 1024 octets, ignore the cookie-av").
pub const MAX_ATTRIBUTE_VALUE_BYTES: usize = 1024;

/// The longest cookie lifetime a server can ask for (§5.6.1/§5.6.2 cookie-age-limit, 400 days).
pub const MAX_AGE_LIMIT_SECONDS: i64 = 400 * 24 * 60 * 60;

/// The SameSite attribute (§5.6.7). Stored, not enforced: see the crate documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameSite {
    /// `SameSite=Strict`.
    Strict,
    /// `SameSite=Lax`.
    Lax,
    /// `SameSite=None` (requires Secure).
    None,
    /// Absent or an unrecognised value.
    Default,
}

/// When a cookie expires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expiry {
    /// No Max-Age or Expires: a session cookie, kept as long as the jar.
    Session,
    /// Unix seconds at which the cookie stops existing.
    At(i64),
}

/// A syntactically parsed Set-Cookie value; "last attribute wins" is already applied.
#[derive(Debug)]
pub(crate) struct Parsed<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: &'a str,
    pub(crate) expiry: Expiry,
    /// The Domain attribute with its leading dot removed and lowercased; `None` when absent.
    pub(crate) domain: Option<String>,
    /// The Path attribute when present and starting with '/'; `None` means default-path.
    pub(crate) path: Option<&'a str>,
    /// Whether a Path attribute was present at all (the `__Host-` rule looks at the attribute).
    pub(crate) path_attribute: bool,
    pub(crate) secure: bool,
    pub(crate) http_only: bool,
    pub(crate) same_site: SameSite,
}

/// %x00-08 / %x0A-1F / %x7F: refused anywhere in the string (§5.6 step 1). HTAB is allowed.
fn is_refused_control(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0A..=0x1F | 0x7F)
}

/// WSP = SP / HTAB.
fn trim_wsp(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

/// Parses `set_cookie` received at `now` (§5.6). `max_name_value_bytes` is the name+value limit.
pub(crate) fn parse(
    set_cookie: &str,
    now: i64,
    max_name_value_bytes: usize,
) -> Result<Parsed<'_>, Rejected> {
    if set_cookie.bytes().any(is_refused_control) {
        return Err(Rejected::Syntax);
    }
    let (name_value, attributes) = match set_cookie.split_once(';') {
        Some((nv, rest)) => (nv, Some(rest)),
        None => (set_cookie, None),
    };
    let (name, value) = match name_value.split_once('=') {
        Some((n, v)) => (trim_wsp(n), trim_wsp(v)),
        // A nameless cookie: the whole pair is the value.
        None => ("", trim_wsp(name_value)),
    };
    let size = name.len().saturating_add(value.len());
    if size > max_name_value_bytes {
        return Err(Rejected::TooLarge {
            bytes: size,
            limit: max_name_value_bytes,
        });
    }
    if name.is_empty() && value.is_empty() {
        return Err(Rejected::Empty);
    }

    let mut parsed = Parsed {
        name,
        value,
        expiry: Expiry::Session,
        domain: None,
        path: None,
        path_attribute: false,
        secure: false,
        http_only: false,
        same_site: SameSite::Default,
    };
    // Max-Age beats Expires whatever their order (§5.7 step "If the cookie-attribute-list
    // contains an attribute with an attribute-name of Max-Age"), so they are kept apart.
    let mut max_age: Option<i64> = None;
    let mut expires: Option<i64> = None;

    for av in attributes.into_iter().flat_map(|a| a.split(';')) {
        let (attr_name, attr_value) = match av.split_once('=') {
            Some((n, v)) => (trim_wsp(n), trim_wsp(v)),
            None => (trim_wsp(av), ""),
        };
        if attr_value.len() > MAX_ATTRIBUTE_VALUE_BYTES {
            continue;
        }
        if attr_name.eq_ignore_ascii_case("expires") {
            if let Some(t) = parse_cookie_date(attr_value) {
                expires = Some(t);
            }
        } else if attr_name.eq_ignore_ascii_case("max-age") {
            if let Some(t) = parse_max_age(attr_value, now) {
                max_age = Some(t);
            }
        } else if attr_name.eq_ignore_ascii_case("domain") {
            // An empty Domain is ignored (§5.6.3), so an earlier non-empty one still counts.
            if !attr_value.is_empty() {
                let stripped = attr_value.strip_prefix('.').unwrap_or(attr_value);
                parsed.domain = Some(stripped.to_ascii_lowercase());
            }
        } else if attr_name.eq_ignore_ascii_case("path") {
            parsed.path_attribute = true;
            // Empty or not starting with '/': default-path (§5.6.4).
            parsed.path = attr_value.starts_with('/').then_some(attr_value);
        } else if attr_name.eq_ignore_ascii_case("secure") {
            parsed.secure = true;
        } else if attr_name.eq_ignore_ascii_case("httponly") {
            parsed.http_only = true;
        } else if attr_name.eq_ignore_ascii_case("samesite") {
            parsed.same_site = if attr_value.eq_ignore_ascii_case("strict") {
                SameSite::Strict
            } else if attr_value.eq_ignore_ascii_case("lax") {
                SameSite::Lax
            } else if attr_value.eq_ignore_ascii_case("none") {
                SameSite::None
            } else {
                SameSite::Default
            };
        }
        // Unknown attributes are ignored.
    }

    let cap = now.saturating_add(MAX_AGE_LIMIT_SECONDS);
    parsed.expiry = match max_age.or(expires) {
        Some(t) => Expiry::At(t.min(cap)),
        None => Expiry::Session,
    };
    Ok(parsed)
}

/// Max-Age (§5.6.2): optional '-' then digits; <= 0 means "already expired".
fn parse_max_age(value: &str, now: i64) -> Option<i64> {
    let (negative, digits) = match value.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, value),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(i64::MIN);
    }
    // Huge values saturate: they are capped at 400 days by the caller anyway.
    let seconds = digits.bytes().fold(0i64, |acc, b| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(b.saturating_sub(b'0')))
    });
    if seconds == 0 {
        Some(i64::MIN)
    } else {
        Some(now.saturating_add(seconds))
    }
}
