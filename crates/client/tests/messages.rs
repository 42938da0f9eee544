//! What an error says, byte for byte: the client's own words around the inner crates' messages,
//! and the setting each message names (in Rust's words, or in none when a front end has no
//! such setting). The inner crates' texts are their own (tested there); here they are taken
//! from their `Display` so that only the client's part is pinned.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::fmt;

use burrow_client::{Class, Deadline, Error, Phase, Setting};

/// A front end with no names at all: every message is left without advice.
fn no_names(_: Setting) -> Option<&'static str> {
    None
}

#[test]
fn phases_have_their_js_names() {
    let all = [
        (Phase::Request, "request"),
        (Phase::Connect, "connect"),
        (Phase::Proxy, "proxy"),
        (Phase::Tls, "tls"),
        (Phase::Headers, "headers"),
        (Phase::Body, "body"),
        (Phase::Redirect, "redirect"),
        (Phase::Total, "total"),
    ];
    for (phase, name) in all {
        assert_eq!(phase.name(), name);
    }
}

#[test]
fn every_setting_has_its_rust_name() {
    let all = [
        (Setting::Trust, "ClientConfig.tls.trust"),
        (Setting::Pins, "ClientConfig.tls.pins"),
        (Setting::ProxyTrust, "ClientConfig.proxy_tls.trust"),
        (Setting::ProxyPins, "ClientConfig.proxy_tls.pins"),
        (Setting::Revocation, "ClientConfig.tls.revocation"),
        (Setting::Proxy, "ClientConfig.proxy"),
        (Setting::NoProxy, "ClientConfig.no_proxy"),
        (
            Setting::MaxBodyBytes,
            "ClientConfig.max_body_bytes (None = no limit)",
        ),
        (
            Setting::Deadline(Deadline::Connect),
            "ClientConfig.deadlines.connect",
        ),
        (
            Setting::Deadline(Deadline::Proxy),
            "ClientConfig.deadlines.proxy",
        ),
        (
            Setting::Deadline(Deadline::Tls),
            "ClientConfig.deadlines.tls",
        ),
        (
            Setting::Deadline(Deadline::Headers),
            "ClientConfig.deadlines.headers",
        ),
        (
            Setting::Deadline(Deadline::Idle),
            "ClientConfig.deadlines.idle",
        ),
        (
            Setting::Deadline(Deadline::Total),
            "ClientConfig.deadlines.total",
        ),
        (Setting::Http1Only, "ClientConfig.http1_only = true"),
        (
            Setting::Decompress,
            "ClientConfig.decompress = Decompress::Passthrough",
        ),
        (Setting::RedirectManual, "RedirectMode::Manual"),
        (Setting::MaxRedirects, "ClientConfig.redirect.max_redirects"),
        (
            Setting::AllowHttpsToHttp,
            "ClientConfig.redirect.allow_https_to_http",
        ),
        (
            Setting::AllowCloseWithoutCloseNotify,
            "ClientConfig.allow_close_without_close_notify",
        ),
        (
            Setting::RequireExtendedMasterSecret,
            "ClientConfig.tls.require_extended_master_secret",
        ),
        (Setting::ClientCert, "ClientConfig.tls.client_cert"),
        (
            Setting::ProxyClientCert,
            "ClientConfig.proxy_tls.client_cert",
        ),
    ];
    for (setting, name) in all {
        assert_eq!(setting.rust_name(), Some(name), "{setting:?}");
    }
}

#[test]
fn proxy_authentication_names_the_proxy_url() {
    for had_credentials in [false, true] {
        let inner = burrow_proxy::Error::ProxyAuthRequired {
            had_credentials,
            proxy_authenticate: Some("Basic realm=\"p\"".into()),
        };
        let shown_inner = inner.to_string();
        let e = Error::Proxy(inner);
        assert_eq!(e.code(), "PROXY_AUTH_REQUIRED");
        assert_eq!((e.phase(), e.class()), (Phase::Proxy, Class::Proxy));
        assert_eq!(
            e.to_string(),
            format!(
                "PROXY_AUTH_REQUIRED: {shown_inner}; put the right user:password in the URL of \
                 ClientConfig.proxy"
            )
        );
        assert_eq!(
            e.message(no_names).to_string(),
            format!("PROXY_AUTH_REQUIRED: {shown_inner}")
        );
    }
}

#[test]
fn http1_bounds_are_said_without_their_limits_field() {
    use burrow_h1::Error as H;
    let cases = [
        (
            H::TooManyHeaders { limit: 100 },
            "HTTP_PROTOCOL: HTTP/1.1: the response has more than 100 header fields, over \
             burrow's bound",
        ),
        (
            H::TooManyInterim { limit: 8 },
            "HTTP_PROTOCOL: HTTP/1.1: the server sent more than 8 1xx responses, over burrow's \
             bound",
        ),
        (
            H::ChunkLineTooLong { limit: 4096 },
            "HTTP_PROTOCOL: HTTP/1.1: a chunk-size line exceeds 4096 bytes, over burrow's bound",
        ),
        (
            H::TrailersTooLarge { limit: 16384 },
            "HTTP_PROTOCOL: HTTP/1.1: the trailer section exceeds 16384 bytes, over burrow's \
             bound",
        ),
    ];
    for (h, want) in cases {
        let e = Error::Http1(h);
        assert_eq!(e.to_string(), want);
        assert_eq!((e.phase(), e.class()), (Phase::Headers, Class::Http));
    }
    // Any other HTTP/1.1 error is burrow-h1's own words, after the prefix.
    let inner = burrow_h1::Error::BadChunkSize;
    let shown = inner.to_string();
    assert_eq!(
        Error::Http1(inner).to_string(),
        format!("HTTP_PROTOCOL: HTTP/1.1: {shown}")
    );
}

#[test]
fn certificate_messages_name_what_changes_them() {
    use burrow_x509::Error as X;
    let e = Error::Certificate(X::OcspStapleRequired);
    assert_eq!(
        e.to_string(),
        "OCSP_STAPLE_REQUIRED: an OCSP staple is required but the server's TLS handshake \
         carried none; enable stapling on the server, or relax ClientConfig.tls.revocation"
    );
    assert_eq!(
        e.message(no_names).to_string(),
        "OCSP_STAPLE_REQUIRED: an OCSP staple is required but the server's TLS handshake \
         carried none; enable stapling on the server"
    );
    let e = Error::ProxyTls(Box::new(Error::Certificate(X::OcspStapleRequired)));
    assert_eq!(
        e.to_string(),
        "the HTTPS proxy's TLS connection: OCSP_STAPLE_REQUIRED: an OCSP staple is required \
         but the proxy's TLS handshake carried none; enable stapling on the server, or relax \
         ClientConfig.tls.revocation"
    );
    // Another rejection: x509's words, and no setting to name.
    let shown = X::Expired.to_string();
    for (e, whose) in [
        (Error::Certificate(X::Expired), "server's"),
        (
            Error::ProxyTls(Box::new(Error::Certificate(X::Expired))),
            "proxy's",
        ),
    ] {
        assert_eq!(e.code(), "CERT_EXPIRED");
        assert_eq!((e.phase(), e.class()), (Phase::Tls, Class::Certificate));
        let prefix = if whose == "proxy's" {
            "the HTTPS proxy's TLS connection: "
        } else {
            ""
        };
        assert_eq!(
            e.to_string(),
            format!("{prefix}CERT_EXPIRED: the {whose} certificate was rejected: {shown}")
        );
    }
}

#[test]
fn an_unusable_proxy_trust_names_the_proxy_settings() {
    let inner = burrow_x509::Error::BadTrustAnchor("pem");
    let shown = inner.to_string();
    let e = Error::ProxyTls(Box::new(Error::TrustConfig(inner)));
    assert_eq!(e.code(), "CERT_BAD_TRUST_ANCHOR");
    assert_eq!((e.phase(), e.class()), (Phase::Tls, Class::Usage));
    assert_eq!(
        e.to_string(),
        format!(
            "the HTTPS proxy's TLS connection: CERT_BAD_TRUST_ANCHOR: the trust configuration \
             is unusable: {shown}; check ClientConfig.proxy_tls.trust and \
             ClientConfig.proxy_tls.pins"
        )
    );
    let e = Error::TrustConfig(burrow_x509::Error::BadTrustAnchor("pem"));
    assert_eq!(
        e.to_string(),
        format!(
            "CERT_BAD_TRUST_ANCHOR: the trust configuration is unusable: {shown}; check \
             ClientConfig.tls.trust and ClientConfig.tls.pins"
        )
    );
}

#[test]
fn a_required_client_certificate_names_the_hops_own_setting() {
    let required = || Error::Tls(burrow_handshake::Error::ClientCertificateRequired);
    assert_eq!(required().code(), "TLS_CLIENT_CERT_REQUIRED");
    assert_eq!(
        required().to_string(),
        "TLS_CLIENT_CERT_REQUIRED: TLS failed: the server requires a client certificate \
         (it refused the handshake once none was sent); configure one its CA accepts with \
         ClientConfig.tls.client_cert"
    );
    let at_proxy = Error::ProxyTls(Box::new(required()));
    assert_eq!(at_proxy.code(), "TLS_CLIENT_CERT_REQUIRED");
    assert!(
        at_proxy
            .to_string()
            .starts_with("the HTTPS proxy's TLS connection: ")
            && at_proxy
                .to_string()
                .ends_with("with ClientConfig.proxy_tls.client_cert"),
        "{at_proxy}"
    );
    // A front end without the setting leaves the advice out.
    assert!(required()
        .message(no_names)
        .to_string()
        .ends_with("(it refused the handshake once none was sent)"));
}

#[test]
fn decode_messages_say_what_can_be_decoded() {
    let e = Error::Decode(burrow_decode::Error::UnsupportedCoding("compress".into()));
    assert_eq!(e.code(), "UNSUPPORTED_CONTENT_ENCODING");
    assert_eq!(
        e.to_string(),
        "UNSUPPORTED_CONTENT_ENCODING: unsupported Content-Encoding \"compress\": gzip, deflate, \
         br and zstd can be decoded; to receive the bytes as sent, use ClientConfig.decompress \
         = Decompress::Passthrough"
    );
    let e = Error::Decode(burrow_decode::Error::TooManyCodings { count: 9 });
    assert_eq!(
        e.message(no_names).to_string(),
        format!(
            "{}: Content-Encoding stacks 9 or more codings, over {} (a real server applies one)",
            e.code(),
            burrow_decode::MAX_CODINGS
        )
    );
    let e = Error::Decode(burrow_decode::Error::TooLarge { limit: 7 });
    assert_eq!(
        e.to_string(),
        "BODY_TOO_LARGE: the decoded body exceeds 7 bytes; raise ClientConfig.max_body_bytes \
         (None = no limit)"
    );
}

#[test]
fn redirect_messages_offer_the_redirect_itself() {
    use burrow_cookies::redirect::RedirectError as R;
    let url = url::Url::parse("http://a.test/loop").unwrap();
    let e = Error::Redirect(R::Loop { url: url.clone() });
    assert_eq!(e.code(), "REDIRECT_LOOP");
    assert_eq!(
        e.to_string(),
        "REDIRECT_LOOP: redirect loop: http://a.test/loop was already requested twice in this \
         chain; to get the redirect itself instead, use RedirectMode::Manual"
    );
    let e = Error::Redirect(R::HttpsToHttp { url });
    assert_eq!(
        e.to_string(),
        "REDIRECT_INSECURE: refusing the https to http redirect to http://a.test/loop; to \
         follow it, use ClientConfig.redirect.allow_https_to_http; to get the redirect itself \
         instead, use RedirectMode::Manual"
    );
    assert_eq!(
        e.message(no_names).to_string(),
        "REDIRECT_INSECURE: refusing the https to http redirect to http://a.test/loop"
    );
    let inner = R::BadLocation {
        location: "http://[".into(),
        reason: "invalid IPv6 address".into(),
    };
    let shown = inner.to_string();
    let e = Error::Redirect(inner);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: {shown}; to get the redirect itself instead, use RedirectMode::Manual",
            e.code()
        )
    );
    assert_eq!((e.phase(), e.class()), (Phase::Redirect, Class::Redirect));
}

/// A sink that takes `room` bytes and then refuses.
struct Full {
    room: usize,
    got: String,
}

impl fmt::Write for Full {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.len() > self.room {
            return Err(fmt::Error);
        }
        self.room -= s.len();
        self.got.push_str(s);
        Ok(())
    }
}

#[test]
fn a_refusing_writer_fails_the_message_at_every_point() {
    use burrow_cookies::redirect::RedirectError as R;
    use std::fmt::Write;
    let url = url::Url::parse("http://a.test/").unwrap();
    let errors = [
        Error::Connect(std::io::Error::other("refused")),
        Error::Tls(burrow_handshake::Error::ExtendedMasterSecretMissing),
        Error::Http1(burrow_h1::Error::UnauthenticatedClose),
        Error::Http1(burrow_h1::Error::TooManyHeaders { limit: 1 }),
        Error::Decode(burrow_decode::Error::UnsupportedCoding("x".into())),
        Error::Redirect(R::Loop { url: url.clone() }),
        Error::Redirect(R::HttpsToHttp { url }),
        Error::Redirect(R::TooMany { limit: 3 }),
    ];
    for e in &errors {
        let whole = e.to_string();
        // With room for all of it, the message is whole; with less, writing fails (and what
        // was written is a prefix of the message).
        for room in 0..whole.len() {
            let mut sink = Full {
                room,
                got: String::new(),
            };
            assert!(write!(sink, "{e}").is_err(), "{whole} in {room} bytes");
            assert!(whole.starts_with(&sink.got));
        }
        let mut sink = Full {
            room: whole.len(),
            got: String::new(),
        };
        write!(sink, "{e}").unwrap();
        assert_eq!(sink.got, whole);
    }
}
