//! Exit codes: one per failure class, mapped from the client's stable error `code()`.

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

/// The exit code for a client error `code`; `via_proxy`: the first hop was a proxy, so a
/// failed TCP connect is the proxy's.
pub(crate) fn for_code(code: &str, via_proxy: bool) -> u8 {
    match code {
        // The anchors or pins given on the command line are unusable: nothing was judged.
        "CERT_BAD_TRUST_ANCHOR" => USAGE,
        "CONNECT_FAILED" if via_proxy => PROXY,
        "CONNECT_FAILED" => CONNECT,
        "TIMEOUT_PROXY" => TIMEOUT,
        c if c.starts_with("PROXY_") || c.starts_with("SOCKS5_") => PROXY,
        c if c.starts_with("CERT_") || c.starts_with("OCSP_") => CERTIFICATE,
        c if c.starts_with("TLS") => TLS,
        c if c.starts_with("TIMEOUT_") => TIMEOUT,
        c if c.starts_with("REDIRECT_") => REDIRECT,
        c if c.starts_with("DECOD") || c.ends_with("CONTENT_ENCODING") => DECODING,
        "BAD_URL" => URL,
        "BAD_REQUEST" | "H2_INVALID_REQUEST_HEADERS" => USAGE,
        "BODY_TOO_LARGE" => TOO_LARGE,
        "CONNECTION_LOST" | "BODY_TRUNCATED" => RECV,
        c if c.starts_with("HTTP") || c.starts_with("H2_") => HTTP,
        _ => OTHER,
    }
}

/// What to change on the command line for an error `code` (the client's own messages name
/// `ClientConfig` fields); `tls_proxy`: an https:// proxy's certificate was checked too.
pub(crate) fn hint(code: &str, tls_proxy: bool) -> Option<&'static str> {
    Some(match code {
        "CERT_PIN_MISMATCH" => "the chain does not contain a --pin; check the pins",
        "CERT_BAD_TRUST_ANCHOR" => {
            "--cacert / --proxy-cacert must name PEM certificate files; --pin takes sha256/BASE64 of 32 bytes"
        }
        c if tls_proxy && (c.starts_with("CERT_") || c.starts_with("OCSP_")) => {
            "pass the server's CA with --cacert FILE and the https:// proxy's CA with --proxy-cacert FILE"
        }
        c if c.starts_with("CERT_") || c.starts_with("OCSP_") => {
            "pass the server's CA with --cacert FILE (or --insecure to skip verification, debugging only)"
        }
        "PROXY_AUTH_REQUIRED" => "put user:password@ in the -x proxy URL",
        c if c.starts_with("PROXY_") || c.starts_with("SOCKS5_") => {
            "check -x, or bypass the proxy for this host with --noproxy"
        }
        "H2_INVALID_REQUEST_HEADERS" => {
            "HTTP/2 forbids connection-specific -H headers (Connection, Keep-Alive, Upgrade, Transfer-Encoding); drop them or use --http1.1"
        }
        c if c.starts_with("H2_") => "try --http1.1 (or drop --http2-prior-knowledge)",
        "TIMEOUT_CONNECT" | "TIMEOUT_PROXY" | "TIMEOUT_TLS" => "raise --connect-timeout",
        "TIMEOUT_TOTAL" => "raise -m/--max-time",
        "REDIRECT_LIMIT" => "raise --max-redirs",
        "BODY_TOO_LARGE" => "raise --max-filesize (or 'none')",
        c if c.starts_with("DECOD") || c.ends_with("CONTENT_ENCODING") => {
            "--raw saves the coded bytes as sent"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        let cases = [
            ("CONNECT_FAILED", false, CONNECT),
            ("CONNECT_FAILED", true, PROXY),
            ("PROXY_AUTH_REQUIRED", false, PROXY),
            ("PROXY_REFUSED", false, PROXY),
            ("PROXY_PROTOCOL", false, PROXY),
            ("PROXY_URL_INVALID", false, PROXY),
            ("PROXY_CLOSED", false, PROXY),
            ("SOCKS5_HOST_UNREACHABLE", true, PROXY),
            ("SOCKS5_NO_ACCEPTABLE_METHOD", true, PROXY),
            ("H2_PROTOCOL", false, HTTP),
            ("H2_FLOW_CONTROL", false, HTTP),
            ("CERT_EXPIRED", false, CERTIFICATE),
            ("CERT_UNTRUSTED", false, CERTIFICATE),
            ("CERT_BAD_TRUST_ANCHOR", false, USAGE),
            ("OCSP_REVOKED", false, CERTIFICATE),
            ("TLS_ALERT", false, TLS),
            ("TLS12_INSECURE_RENEGOTIATION", false, TLS),
            ("TIMEOUT_IDLE", false, TIMEOUT),
            ("TIMEOUT_PROXY", true, TIMEOUT),
            ("REDIRECT_LOOP", false, REDIRECT),
            ("BAD_URL", false, URL),
            ("BAD_REQUEST", false, USAGE),
            ("H2_INVALID_REQUEST_HEADERS", false, USAGE),
            ("BODY_TOO_LARGE", false, TOO_LARGE),
            ("DECODE_FAILED", false, DECODING),
            ("UNSUPPORTED_CONTENT_ENCODING", false, DECODING),
            ("CONNECTION_LOST", false, RECV),
            ("HTTP_PROTOCOL", false, HTTP),
            ("RNG_FAILED", false, OTHER),
        ];
        for (code, proxy, want) in cases {
            assert_eq!(for_code(code, proxy), want, "{code}");
        }
    }

    #[test]
    fn certificate_hints_name_cacert() {
        assert!(hint("CERT_UNTRUSTED", false).unwrap().contains("--cacert"));
        assert!(hint("CERT_EXPIRED", false).unwrap().contains("--cacert"));
        assert!(hint("CERT_UNTRUSTED", true)
            .unwrap()
            .contains("--proxy-cacert"));
        assert!(hint("TIMEOUT_TOTAL", false).unwrap().contains("--max-time"));
        assert_eq!(hint("HTTP_PROTOCOL", false), None);
    }
}
