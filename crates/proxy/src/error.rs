//! The one error type of burrow-proxy.
//!
//! Proxy replies we refuse, proxy answers that end the attempt (407, 5xx, SOCKS5 reply codes) and
//! caller mistakes (a bad proxy URL, a header with CR/LF) share one enum. Every variant has a
//! stable machine-readable [`Error::code`] and a message that says what to do.
//!
//! SOCKS5 reply codes each get their own code (`SOCKS5_HOST_UNREACHABLE`, ...) rather than one
//! `PROXY_REFUSED`: "host unreachable" and "not allowed by ruleset" call for different fixes.

use core::fmt;

/// Which step of a handshake an error happened in.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for the HTTP proxy's reply to `CONNECT`.
    ConnectReply,
    /// Waiting for the SOCKS5 method-selection reply (RFC 1928 §3).
    Socks5Method,
    /// Waiting for the SOCKS5 username/password status (RFC 1929 §2).
    Socks5Auth,
    /// Waiting for the SOCKS5 reply to `CONNECT` (RFC 1928 §6).
    Socks5Reply,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::ConnectReply => "the reply to CONNECT",
            Stage::Socks5Method => "the SOCKS5 method selection",
            Stage::Socks5Auth => "the SOCKS5 username/password status",
            Stage::Socks5Reply => "the SOCKS5 reply to CONNECT",
        })
    }
}

/// A SOCKS5 reply code other than "succeeded" (RFC 1928 §6).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Socks5Reply {
    /// 0x01 general SOCKS server failure.
    GeneralFailure,
    /// 0x02 connection not allowed by ruleset.
    NotAllowed,
    /// 0x03 network unreachable.
    NetworkUnreachable,
    /// 0x04 host unreachable.
    HostUnreachable,
    /// 0x05 connection refused.
    ConnectionRefused,
    /// 0x06 TTL expired.
    TtlExpired,
    /// 0x07 command not supported.
    CommandNotSupported,
    /// 0x08 address type not supported.
    AddressTypeNotSupported,
    /// Any other non-zero code (0x09..=0xFF are unassigned).
    Unknown(u8),
}

impl Socks5Reply {
    /// The reply for a non-zero code byte (`None` for 0x00, "succeeded").
    pub fn from_code(code: u8) -> Option<Socks5Reply> {
        Some(match code {
            0x00 => return None,
            0x01 => Socks5Reply::GeneralFailure,
            0x02 => Socks5Reply::NotAllowed,
            0x03 => Socks5Reply::NetworkUnreachable,
            0x04 => Socks5Reply::HostUnreachable,
            0x05 => Socks5Reply::ConnectionRefused,
            0x06 => Socks5Reply::TtlExpired,
            0x07 => Socks5Reply::CommandNotSupported,
            0x08 => Socks5Reply::AddressTypeNotSupported,
            other => Socks5Reply::Unknown(other),
        })
    }

    /// The code byte on the wire.
    pub fn code_byte(&self) -> u8 {
        match self {
            Socks5Reply::GeneralFailure => 0x01,
            Socks5Reply::NotAllowed => 0x02,
            Socks5Reply::NetworkUnreachable => 0x03,
            Socks5Reply::HostUnreachable => 0x04,
            Socks5Reply::ConnectionRefused => 0x05,
            Socks5Reply::TtlExpired => 0x06,
            Socks5Reply::CommandNotSupported => 0x07,
            Socks5Reply::AddressTypeNotSupported => 0x08,
            Socks5Reply::Unknown(code) => *code,
        }
    }

    fn error_code(&self) -> &'static str {
        match self {
            Socks5Reply::GeneralFailure => "SOCKS5_GENERAL_FAILURE",
            Socks5Reply::NotAllowed => "SOCKS5_NOT_ALLOWED",
            Socks5Reply::NetworkUnreachable => "SOCKS5_NETWORK_UNREACHABLE",
            Socks5Reply::HostUnreachable => "SOCKS5_HOST_UNREACHABLE",
            Socks5Reply::ConnectionRefused => "SOCKS5_CONNECTION_REFUSED",
            Socks5Reply::TtlExpired => "SOCKS5_TTL_EXPIRED",
            Socks5Reply::CommandNotSupported => "SOCKS5_COMMAND_NOT_SUPPORTED",
            Socks5Reply::AddressTypeNotSupported => "SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED",
            Socks5Reply::Unknown(_) => "SOCKS5_UNKNOWN_REPLY",
        }
    }
}

impl fmt::Display for Socks5Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Socks5Reply::GeneralFailure => f.write_str(
                "general SOCKS server failure (0x01); the proxy failed for its own reasons, see its log",
            ),
            Socks5Reply::NotAllowed => f.write_str(
                "connection not allowed by ruleset (0x02); the proxy's rules forbid this destination",
            ),
            Socks5Reply::NetworkUnreachable => f.write_str(
                "network unreachable (0x03); the proxy has no route to the destination network",
            ),
            Socks5Reply::HostUnreachable => f.write_str(
                "host unreachable (0x04); the proxy could not reach or resolve the destination host",
            ),
            Socks5Reply::ConnectionRefused => f.write_str(
                "connection refused (0x05); nothing listens on the destination port, check host and port",
            ),
            Socks5Reply::TtlExpired => f.write_str(
                "TTL expired (0x06); the proxy's connection attempt to the destination timed out",
            ),
            Socks5Reply::CommandNotSupported => {
                f.write_str("command not supported (0x07); the proxy does not support CONNECT")
            }
            Socks5Reply::AddressTypeNotSupported => f.write_str(
                "address type not supported (0x08); if you used socks5h://, try socks5:// so the \
                 client resolves the name itself (or the other way round)",
            ),
            Socks5Reply::Unknown(code) => write!(f, "unassigned reply code {code:#04x}"),
        }
    }
}

/// Everything that can go wrong while parsing a proxy URL or opening a tunnel through a proxy.
#[non_exhaustive]
#[derive(Clone, PartialEq, Eq)]
pub enum Error {
    /// The proxy URL cannot be used (syntax, scheme, path, port ...).
    InvalidUrl {
        /// What is wrong with it (never contains the password).
        reason: String,
    },
    /// The caller asked for something that cannot be sent safely (a header with CR/LF/NUL, a
    /// SOCKS5 user name longer than 255 bytes, ...). Nothing was sent.
    InvalidRequest {
        /// What is wrong with it.
        reason: String,
    },
    /// The proxy wants (other) credentials: HTTP 407, or a failed SOCKS5 username/password
    /// authentication (RFC 1929 status != 0).
    ProxyAuthRequired {
        /// Whether credentials were sent (then they are wrong).
        had_credentials: bool,
        /// The `Proxy-Authenticate` challenges of a 407 (several joined with ", "), if any.
        proxy_authenticate: Option<String>,
    },
    /// The HTTP proxy answered `CONNECT` with a final status other than 2xx and 407.
    ProxyRefused {
        /// The status code.
        status: u16,
        /// The reason phrase (lossy UTF-8, at most [`crate::MAX_REASON_CHARS`] characters).
        reason: String,
        /// The proxy's own account of why, as its reply gave it: the `Proxy-Status` (RFC 9209)
        /// and `X-Squid-Error` fields, each as `name: value` (lossy UTF-8, at most
        /// [`crate::MAX_REASON_CHARS`] characters); `None` if it sent neither.
        detail: Option<String>,
    },
    /// The SOCKS5 proxy answered `CONNECT` with a failure reply code.
    Socks5 {
        /// The reply code.
        reply: Socks5Reply,
    },
    /// The SOCKS5 proxy accepts none of the offered authentication methods (method 0xFF).
    Socks5NoAcceptableMethod,
    /// The proxy's reply breaks the protocol (bad version byte, malformed or oversized head,
    /// unknown address type, a method we did not offer ...).
    ProxyProtocol {
        /// Where in the handshake.
        stage: Stage,
        /// What was wrong.
        detail: String,
    },
    /// The proxy closed the connection before the tunnel was open.
    ProxyClosed {
        /// What we were waiting for.
        stage: Stage,
    },
}

impl Error {
    /// A stable machine-readable code: `PROXY_URL_INVALID`, `PROXY_INVALID_REQUEST`,
    /// `PROXY_AUTH_REQUIRED`, `PROXY_REFUSED`, `PROXY_PROTOCOL`, `PROXY_CLOSED`,
    /// `SOCKS5_NO_ACCEPTABLE_METHOD` or `SOCKS5_<REPLY>` (`SOCKS5_GENERAL_FAILURE`,
    /// `SOCKS5_NOT_ALLOWED`, `SOCKS5_NETWORK_UNREACHABLE`, `SOCKS5_HOST_UNREACHABLE`,
    /// `SOCKS5_CONNECTION_REFUSED`, `SOCKS5_TTL_EXPIRED`, `SOCKS5_COMMAND_NOT_SUPPORTED`,
    /// `SOCKS5_ADDRESS_TYPE_NOT_SUPPORTED`, `SOCKS5_UNKNOWN_REPLY`).
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidUrl { .. } => "PROXY_URL_INVALID",
            Error::InvalidRequest { .. } => "PROXY_INVALID_REQUEST",
            Error::ProxyAuthRequired { .. } => "PROXY_AUTH_REQUIRED",
            Error::ProxyRefused { .. } => "PROXY_REFUSED",
            Error::Socks5 { reply } => reply.error_code(),
            Error::Socks5NoAcceptableMethod => "SOCKS5_NO_ACCEPTABLE_METHOD",
            Error::ProxyProtocol { .. } => "PROXY_PROTOCOL",
            Error::ProxyClosed { .. } => "PROXY_CLOSED",
        }
    }

    /// True for mistakes of the caller (URL, request), false for what the proxy answered.
    pub fn is_caller_error(&self) -> bool {
        matches!(
            self,
            Error::InvalidUrl { .. } | Error::InvalidRequest { .. }
        )
    }

    pub(crate) fn protocol(stage: Stage, detail: impl Into<String>) -> Error {
        Error::ProxyProtocol {
            stage,
            detail: detail.into(),
        }
    }

    pub(crate) fn invalid_request(reason: impl Into<String>) -> Error {
        Error::InvalidRequest {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidUrl { reason } => write!(
                f,
                "invalid proxy URL: {reason}; write it as scheme://[user:password@]host[:port] \
                 with scheme http, https, socks5 or socks5h"
            ),
            Error::InvalidRequest { reason } => {
                write!(f, "cannot send this proxy request: {reason}")
            }
            Error::ProxyAuthRequired {
                had_credentials: false,
                proxy_authenticate,
            } => {
                f.write_str(
                    "the proxy requires authentication; set credentials in the proxy URL: \
                     http://user:pass@host:port (socks5://user:pass@host:port for SOCKS5)",
                )?;
                if let Some(challenge) = proxy_authenticate {
                    write!(f, " (it asked for: {challenge})")?;
                }
                Ok(())
            }
            Error::ProxyAuthRequired {
                had_credentials: true,
                proxy_authenticate,
            } => {
                f.write_str(
                    "the proxy rejected the credentials; check the user name and password in the \
                     proxy URL (percent-encode reserved characters such as @ : / as %40 %3A %2F)",
                )?;
                if let Some(challenge) = proxy_authenticate {
                    write!(f, " (it asked for: {challenge})")?;
                }
                Ok(())
            }
            Error::ProxyRefused {
                status,
                reason,
                detail,
            } => {
                write!(f, "the proxy refused to open the tunnel: {status} {reason}")?;
                if let Some(detail) = detail {
                    write!(f, " ({detail})")?;
                }
                f.write_str(
                    "; 502/503/504 usually mean it could not reach the destination, 403 that \
                     its rules forbid it",
                )
            }
            Error::Socks5 { reply } => write!(f, "the SOCKS5 proxy refused the tunnel: {reply}"),
            Error::Socks5NoAcceptableMethod => f.write_str(
                "the SOCKS5 proxy accepts none of the offered authentication methods (no \
                 authentication, and username/password when credentials are set); if it needs a \
                 password, set it in the URL: socks5://user:pass@host:port",
            ),
            Error::ProxyProtocol { stage, detail } => write!(
                f,
                "the proxy broke the protocol in {stage}: {detail}; check that the proxy URL's \
                 scheme matches the proxy (http:// vs https:// vs socks5://)"
            ),
            Error::ProxyClosed { stage } => write!(
                f,
                "the proxy closed the connection while we waited for {stage}; check the proxy's \
                 log and that the URL's scheme and port match the proxy"
            ),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self)
    }
}

impl std::error::Error for Error {}
