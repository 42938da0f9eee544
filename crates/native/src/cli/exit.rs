//! Exit codes: one per failure class, mapped from the client error's `class()`; and the
//! flags its messages name.

use burrow_client::{Class, Deadline, Error, Setting};

/// Success.
pub(crate) const OK: u8 = 0;
/// Anything not classed below.
pub(crate) const OTHER: u8 = 1;
/// Bad command line or unusable local input.
pub(crate) const USAGE: u8 = 2;
/// Malformed or unsupported URL.
pub(crate) const URL: u8 = 3;
/// The proxy failed (connect, refusal, auth, protocol).
pub(crate) const PROXY: u8 = 5;
/// Cannot connect to the server.
pub(crate) const CONNECT: u8 = 6;
/// TLS protocol failure or alert.
pub(crate) const TLS: u8 = 7;
/// Certificate or OCSP staple rejected.
pub(crate) const CERTIFICATE: u8 = 8;
/// HTTP protocol failure.
pub(crate) const HTTP: u8 = 16;
/// HTTP status >= 400 with `--fail`.
pub(crate) const HTTP_STATUS: u8 = 22;
/// Writing the body failed.
pub(crate) const WRITE: u8 = 23;
/// A deadline ran out.
pub(crate) const TIMEOUT: u8 = 28;
/// Redirect refused.
pub(crate) const REDIRECT: u8 = 47;
/// Connection lost while receiving.
pub(crate) const RECV: u8 = 56;
/// Content decoding failed.
pub(crate) const DECODING: u8 = 61;
/// Body larger than the cap.
pub(crate) const TOO_LARGE: u8 = 63;

/// Every code (documented in `--help` and the README; a test checks both).
#[cfg(test)]
pub(crate) const ALL: [u8; 16] = [
    OK,
    OTHER,
    USAGE,
    URL,
    PROXY,
    CONNECT,
    TLS,
    CERTIFICATE,
    HTTP,
    HTTP_STATUS,
    WRITE,
    TIMEOUT,
    REDIRECT,
    RECV,
    DECODING,
    TOO_LARGE,
];

/// The exit code for a client error: its class (read off the error, so a new code lands in
/// its class by construction). `via_proxy`: the first hop was a proxy, so a failed TCP
/// connect is the proxy's.
pub(crate) fn for_error(e: &Error, via_proxy: bool) -> u8 {
    match e.class() {
        Class::Usage => USAGE,
        Class::Url => URL,
        Class::Connect if via_proxy => PROXY,
        Class::Connect => CONNECT,
        Class::Proxy => PROXY,
        Class::Tls => TLS,
        Class::Certificate => CERTIFICATE,
        Class::Http => HTTP,
        Class::Timeout => TIMEOUT,
        Class::Redirect => REDIRECT,
        Class::ConnectionLost => RECV,
        Class::Decode => DECODING,
        Class::TooLarge => TOO_LARGE,
        Class::Platform => OTHER,
    }
}

/// The command line's name for each setting an error's message may name: the flag to use.
pub(crate) fn flag(s: Setting) -> Option<&'static str> {
    match s {
        Setting::Trust => Some("--cacert FILE (or --insecure, for debugging only)"),
        Setting::Pins => Some("--pin"),
        Setting::ProxyTrust => Some("--proxy-cacert FILE"),
        Setting::Proxy => Some("-x"),
        Setting::NoProxy => Some("--noproxy"),
        Setting::MaxBodyBytes => Some("--max-filesize (or 'none')"),
        Setting::Deadline(Deadline::Connect | Deadline::Proxy | Deadline::Tls) => {
            Some("--connect-timeout")
        }
        Setting::Deadline(Deadline::Total) => Some("-m/--max-time"),
        Setting::Http1Only => Some("--http1.1"),
        Setting::Decompress => Some("--raw"),
        Setting::MaxRedirects => Some("--max-redirs"),
        Setting::AllowCloseWithoutCloseNotify => Some("--allow-no-close-notify"),
        Setting::RequireExtendedMasterSecret => Some("--require-ems"),
        // Built in, with no flag: the header and idle deadlines, proxy pins, requiring a
        // staple, following https -> http. Without -L nothing is followed anyway. The CLI
        // offers no client certificate (yet).
        Setting::Deadline(Deadline::Headers | Deadline::Idle)
        | Setting::ProxyPins
        | Setting::Revocation
        | Setting::AllowHttpsToHttp
        | Setting::RedirectManual
        | Setting::ClientCert
        | Setting::ProxyClientCert => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io() -> std::io::Error {
        std::io::Error::other("x")
    }

    #[test]
    fn classes() {
        let bad_proxy = burrow_client::Proxy::parse("ftp://proxy.test").unwrap_err();
        let cases: Vec<(Error, bool, u8)> = vec![
            (Error::Connect(io()), false, CONNECT),
            (Error::Connect(io()), true, PROXY),
            (Error::Proxy(bad_proxy), false, PROXY),
            (
                Error::Certificate(burrow_x509::Error::Expired),
                false,
                CERTIFICATE,
            ),
            (
                Error::TrustConfig(burrow_x509::Error::BadTrustAnchor("pem")),
                false,
                USAGE,
            ),
            (
                Error::Certificate(burrow_x509::Error::OcspRevoked),
                false,
                CERTIFICATE,
            ),
            (Error::Tls(burrow_handshake::Error::Decode), false, TLS),
            (Error::Timeout(Deadline::Idle), false, TIMEOUT),
            (Error::Timeout(Deadline::Proxy), true, TIMEOUT),
            (Error::BadUrl("x".into()), false, URL),
            (Error::BadRequest("x"), false, USAGE),
            (Error::BodyTooLarge { limit: 1 }, false, TOO_LARGE),
            (
                Error::Decode(burrow_decode::Error::Truncated { coding: "gzip" }),
                false,
                DECODING,
            ),
            (Error::Io(io()), false, RECV),
            (Error::HttpProtocol("x"), false, HTTP),
            (Error::Rng, false, OTHER),
        ];
        for (e, proxy, want) in cases {
            assert_eq!(for_error(&e, proxy), want, "{e}");
        }
    }

    #[test]
    fn messages_name_flags() {
        let untrusted = Error::Certificate(burrow_x509::Error::Untrusted);
        assert!(untrusted
            .message(flag)
            .to_string()
            .contains("--cacert FILE"));
        let at_proxy = Error::ProxyTls(Box::new(untrusted));
        assert!(at_proxy
            .message(flag)
            .to_string()
            .contains("--proxy-cacert FILE"));
        let total = Error::Timeout(Deadline::Total).message(flag).to_string();
        assert!(total.contains("--max-time"), "{total}");
        let idle = Error::Timeout(Deadline::Idle).message(flag).to_string();
        assert_eq!(
            idle,
            "TIMEOUT_IDLE: the idle (between two body reads) deadline ran out"
        );
        for shown in [total, at_proxy.message(flag).to_string()] {
            assert!(!shown.contains("ClientConfig"), "{shown}");
        }
    }
}
