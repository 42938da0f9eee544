//! Client configuration.

pub use burrow_cookies::redirect::RedirectPolicy;

use crate::deadline::Deadlines;
use crate::profile::HttpProfile;
use crate::tls::TlsSettings;
use burrow_proxy::connect::ProxyConnectionHeader;
use burrow_proxy::{NoProxy, Proxy};

/// Default `max_body_bytes`: 32 MiB.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;

/// Idle keep-alive connections kept per origin.
pub const DEFAULT_MAX_IDLE_PER_ORIGIN: usize = 4;

/// What happens to a body the server content-coded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Decompress {
    /// Decode gzip, deflate, br and zstd (burrow-decode), capped by `max_body_bytes`, whoever
    /// asked for the coding: burrow's own `Accept-Encoding` or the request's (workerd's
    /// `fetch` too decodes gzip and br when the caller set `Accept-Encoding`). A coding burrow
    /// cannot decode fails with `UNSUPPORTED_CONTENT_ENCODING` when burrow asked, and is
    /// handed on as sent when the request asked for codings itself.
    /// `ResponseMeta::content_encoding` says what was decoded. The response headers are kept
    /// as sent (as workerd keeps them): `Content-Encoding` and `Content-Length` describe the
    /// coded bytes.
    #[default]
    Auto,
    /// Hand out the coded bytes and keep the headers as sent.
    Passthrough,
}

/// What a fetch does when the response is a redirect (301, 302, 303, 307, 308): WHATWG
/// fetch's `redirect`. [`ClientConfig::redirect_mode`] is the default; a
/// [`crate::Request::redirect_mode`] overrides it for that request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RedirectMode {
    /// Follow it, within [`ClientConfig::redirect`]'s limits.
    #[default]
    Follow,
    /// Return the redirect response as it is.
    Manual,
    /// Fail with `REDIRECT_FORBIDDEN` (whether or not it has a `Location`, as fetch does).
    Error,
}

/// Everything a [`crate::Client`] can be told.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The proxy for every request not matched by `no_proxy`.
    pub proxy: Option<Proxy>,
    /// Hosts that bypass the proxy.
    pub no_proxy: NoProxy,
    /// `Proxy-Connection` on CONNECT and absolute-form requests (default keep-alive).
    pub proxy_connection: ProxyConnectionHeader,
    /// TLS to an HTTPS proxy (its own trust, pins and SNI = the proxy's host); ALPN is not sent.
    pub proxy_tls: TlsSettings,
    /// TLS to origins: profile, trust, pins, revocation, ALPN.
    pub tls: TlsSettings,
    /// Offer only http/1.1 in ALPN (no HTTP/2).
    pub http1_only: bool,
    /// Speak HTTP/2 to plain `http://` origins without asking (h2c prior knowledge, RFC 9113
    /// §3.3; curl's `--http2-prior-knowledge`). Default off.
    pub http2_prior_knowledge: bool,
    /// Content decoding ([`Decompress`]). `Accept-Encoding: burrow_decode::ACCEPT_ENCODING`
    /// is sent unless the request has its own `Accept-Encoding`.
    pub decompress: Decompress,
    /// Body cap (Content-Length before reading, wire bytes while reading); `None` = explicitly
    /// unlimited. Default [`DEFAULT_MAX_BODY_BYTES`].
    pub max_body_bytes: Option<u64>,
    /// What a redirect does by default ([`RedirectMode`]; a request may say otherwise).
    pub redirect_mode: RedirectMode,
    /// Redirect limits (burrow-cookies' policy: max 20, https→http refused).
    pub redirect: RedirectPolicy,
    /// Keep cookies in a jar (RFC 6265bis, public suffix list): store `Set-Cookie`, send
    /// `Cookie` unless the request sets its own. Default off.
    pub cookies: bool,
    /// Time limits.
    pub deadlines: Deadlines,
    /// `User-Agent` sent unless the request has one (`None` = send none).
    pub user_agent: Option<String>,
    /// Idle keep-alive connections kept per origin (0 = no reuse).
    pub max_idle_per_origin: usize,
    /// Most requests of this client waiting for their response head at once; further ones
    /// queue, in order, until one of those heads arrives (`None`: no cap, the default). The
    /// Worker sets 6: workerd lets an invocation have six connections awaiting headers and
    /// holds back the rest.
    pub max_pending_heads: Option<usize>,
    /// The HTTP side of the client's identity: HTTP/2 first flight, pseudo-header order,
    /// default fields and their order. Default: burrow's own ([`HttpProfile::burrow`]).
    pub http: HttpProfile,
    /// Accept an HTTP/1.x body with neither `Content-Length` nor chunked framing that ends
    /// with a TCP close but no TLS `close_notify`. Default off: RFC 9112 §9.8 counts such a
    /// body complete only after a valid closure alert, since anyone on the path can cut the
    /// connection; it fails with `BODY_TRUNCATED` (after the bytes that did arrive). Plain
    /// `http://` has no closure alert and is unaffected.
    pub allow_close_without_close_notify: bool,
}

impl Default for ClientConfig {
    fn default() -> Self {
        // One chain cache for both hops: its keys keep their trust settings apart.
        let tls = TlsSettings::default();
        ClientConfig {
            proxy: None,
            no_proxy: NoProxy::default(),
            proxy_connection: ProxyConnectionHeader::KeepAlive,
            proxy_tls: TlsSettings {
                alpn: Vec::new(),
                chain_cache: tls.chain_cache.clone(),
                ..TlsSettings::default()
            },
            tls,
            http1_only: false,
            http2_prior_knowledge: false,
            decompress: Decompress::Auto,
            max_body_bytes: Some(DEFAULT_MAX_BODY_BYTES),
            redirect_mode: RedirectMode::Follow,
            redirect: RedirectPolicy::default(),
            cookies: false,
            deadlines: Deadlines::default(),
            user_agent: Some(concat!("burrow/", env!("CARGO_PKG_VERSION")).to_string()),
            max_idle_per_origin: DEFAULT_MAX_IDLE_PER_ORIGIN,
            max_pending_heads: None,
            http: HttpProfile::burrow(),
            allow_close_without_close_notify: false,
        }
    }
}

impl ClientConfig {
    /// The defaults, looking exactly like a built-in client (`curl`, `curl_7_88`,
    /// `chrome`; `default_web` is burrow's original): its ClientHello (`Profile::by_name`),
    /// HTTP/2 first flight, default fields and `User-Agent`; an OCSP staple is requested only
    /// if that client requests one (Chromium does, curl does not). `None` for another name.
    pub fn impersonating(name: &str) -> Option<ClientConfig> {
        let profile = burrow_handshake::Profile::by_name(name)?;
        let mut cfg = ClientConfig {
            http: HttpProfile::by_name(name)?,
            user_agent: Some(HttpProfile::user_agent_of(name)?.to_string()),
            ..ClientConfig::default()
        };
        cfg.tls.request_staple = profile.requests_staple();
        cfg.tls.profile = profile;
        Some(cfg)
    }

    /// The default fields a request with fields `request` gets, in the order sent (the
    /// [`HttpProfile`]'s, less those the request sets, with `user_agent`).
    pub fn default_fields(&self, request: &[(String, String)]) -> Vec<(String, String)> {
        crate::client::default_fields(&self.http, self.user_agent.as_deref(), request)
    }
}
