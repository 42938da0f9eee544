//! Why a Set-Cookie value was not stored.

use core::fmt;

/// Why [`crate::Jar::store`] ignored a Set-Cookie value. Every variant is a reason RFC 6265bis
/// (or a limit of this jar) gives for ignoring the cookie entirely; the jar is unchanged.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// The Set-Cookie value is longer than [`crate::MAX_SET_COOKIE_BYTES`]; not parsed.
    SetCookieTooLong {
        /// Length of the value in bytes.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// Name plus value are longer than [`crate::Limits::max_cookie_bytes`] (§5.6).
    TooLarge {
        /// Name plus value length in bytes.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// Syntax: a control character (%x00-08, %x0A-1F, %x7F) appears in the value (§5.6), the
    /// only syntax error §5.6 refuses a whole value for (everything else is lenient).
    Syntax,
    /// Both the name and the value are empty (§5.7).
    Empty,
    /// The response URL is not http or https, or has no host.
    NonHttpUrl,
    /// The Domain attribute contains a non-ASCII character (§5.7).
    NonAsciiDomain,
    /// The Domain attribute is a public suffix (e.g. `com`, `co.uk`) other than the host itself.
    PublicSuffix {
        /// The Domain attribute, as compared.
        domain: String,
    },
    /// The request host does not domain-match the Domain attribute (§5.1.3), or the host is an
    /// IP address and the Domain attribute is not exactly that address.
    DomainMismatch {
        /// The Domain attribute, as compared.
        domain: String,
        /// The request host.
        host: String,
    },
    /// The Secure attribute came in a response over plain http (§5.7).
    SecureFromInsecure,
    /// An http response tried to overwrite (shadow) a stored Secure cookie of the same name
    /// (§5.7, "leave secure cookies alone").
    OverwriteSecure,
    /// `SameSite=None` without `Secure`.
    SameSiteNoneInsecure,
    /// A `__Secure-` cookie without Secure, or not set over https (§4.1.3.1).
    SecurePrefix,
    /// A `__Host-` cookie without Secure, with a Domain attribute, or without `Path=/`
    /// (§4.1.3.2).
    HostPrefix,
    /// A nameless cookie whose value starts with `__Secure-` or `__Host-` (§5.7).
    NamelessPrefix,
}

impl Rejected {
    /// A stable machine-readable code for this reason.
    pub fn code(&self) -> &'static str {
        match self {
            Rejected::SetCookieTooLong { .. } => "COOKIE_REJECTED_HEADER_TOO_LONG",
            Rejected::TooLarge { .. } => "COOKIE_REJECTED_TOO_LARGE",
            Rejected::Syntax => "COOKIE_REJECTED_SYNTAX",
            Rejected::Empty => "COOKIE_REJECTED_EMPTY",
            Rejected::NonHttpUrl => "COOKIE_REJECTED_NON_HTTP_URL",
            Rejected::NonAsciiDomain => "COOKIE_REJECTED_NON_ASCII_DOMAIN",
            Rejected::PublicSuffix { .. } => "COOKIE_REJECTED_PUBLIC_SUFFIX",
            Rejected::DomainMismatch { .. } => "COOKIE_REJECTED_DOMAIN_MISMATCH",
            Rejected::SecureFromInsecure => "COOKIE_REJECTED_SECURE_FROM_INSECURE",
            Rejected::OverwriteSecure => "COOKIE_REJECTED_OVERWRITE_SECURE",
            Rejected::SameSiteNoneInsecure => "COOKIE_REJECTED_SAMESITE_NONE_INSECURE",
            Rejected::SecurePrefix => "COOKIE_REJECTED_SECURE_PREFIX",
            Rejected::HostPrefix => "COOKIE_REJECTED_HOST_PREFIX",
            Rejected::NamelessPrefix => "COOKIE_REJECTED_NAMELESS_PREFIX",
        }
    }
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejected::SetCookieTooLong { bytes, limit } => write!(
                f,
                "Set-Cookie value is {bytes} bytes, over the {limit}-byte limit \
                 (burrow_cookies::MAX_SET_COOKIE_BYTES); the server sent an oversized cookie"
            ),
            Rejected::TooLarge { bytes, limit } => write!(
                f,
                "cookie name and value are {bytes} bytes, over the {limit}-byte limit \
                 (Limits::max_cookie_bytes)"
            ),
            Rejected::Syntax => {
                f.write_str("Set-Cookie value contains a control character; cookie ignored")
            }
            Rejected::Empty => f.write_str("Set-Cookie has neither a name nor a value"),
            Rejected::NonHttpUrl => {
                f.write_str("cookies are only stored from http and https URLs with a host")
            }
            Rejected::NonAsciiDomain => f.write_str(
                "Domain attribute contains non-ASCII characters; servers must send it in \
                 punycode (A-label) form",
            ),
            Rejected::PublicSuffix { domain } => write!(
                f,
                "Domain={domain} is a public suffix; a cookie cannot be shared across it"
            ),
            Rejected::DomainMismatch { domain, host } => {
                write!(f, "Domain={domain} does not cover the response host {host}")
            }
            Rejected::SecureFromInsecure => {
                f.write_str("a Secure cookie can only be set by an https response")
            }
            Rejected::OverwriteSecure => f.write_str(
                "an http response cannot overwrite a Secure cookie of the same name; use https",
            ),
            Rejected::SameSiteNoneInsecure => {
                f.write_str("SameSite=None requires the Secure attribute")
            }
            Rejected::SecurePrefix => {
                f.write_str("a __Secure- cookie needs the Secure attribute and an https response")
            }
            Rejected::HostPrefix => f.write_str(
                "a __Host- cookie needs Secure, an https response, Path=/ and no Domain attribute",
            ),
            Rejected::NamelessPrefix => f.write_str(
                "a cookie without a name cannot have a value starting with __Secure- or __Host-",
            ),
        }
    }
}

impl std::error::Error for Rejected {}
