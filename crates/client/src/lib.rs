//! burrow-client: an async HTTP client over a runtime seam ([`Net`]), single-threaded and
//! runtime-agnostic (no tokio here; burrow-native supplies `TokioNet`, the Worker its own).
//!
//! * TLS 1.3/1.2 by burrow-handshake, certificates by burrow-x509 ([`TlsStream`], itself a
//!   [`NetStream`], so an HTTPS proxy is TLS inside TLS).
//! * HTTP/1.1 by burrow-h1, keep-alive pool per origin, one safe retry of an idempotent
//!   request that met a connection the server had already closed.
//! * Proxies: HTTP CONNECT, HTTPS, SOCKS5/socks5h, absolute-form for plain http, no_proxy.
//! * WebSockets ([`Client::websocket`]): RFC 6455 over an HTTP/1.1 Upgrade through the same
//!   proxies, trust and identity, by burrow-ws.
//! * Deadlines per phase ([`Deadlines`]), body cap, redirects ([`RedirectMode`] per client
//!   and per request, limits by [`RedirectPolicy`]).
//!
//! Every failure is an [`Error`] with a stable [`Error::code`], a [`Phase`] and a [`Class`],
//! and a message that names the [`Setting`] to change in the caller's own words.

mod client;
mod client_cert;
mod config;
mod connect;
mod deadline;
mod dn;
mod error;
#[cfg(test)]
mod future_sizes;
mod h2;
mod message;
mod net;
mod offload;
mod profile;
mod proxy;
mod sessions;
mod slots;
mod tls;
mod transport;
mod trust;

/// Re-exported from burrow-proxy: proxy URLs, no_proxy lists, the `Proxy-Connection` choice.
pub use burrow_proxy::{
    connect::ProxyConnectionHeader, Credentials, NoProxy, Proxy, Scheme as ProxyScheme,
};
pub use client::{
    uses_proxy, Client, Received, Response, WebSocket, WebSocketOptions, CHUNK_TARGET,
};
pub use client_cert::{ClientCert, ClientCertError};
pub use config::{
    ClientConfig, Decompress, RedirectMode, RedirectPolicy, DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_IDLE_PER_ORIGIN,
};
pub use deadline::{Deadline, Deadlines};
pub use dn::{name_to_text, MAX_NAME_TEXT};
pub use error::{Class, Error, Message, Phase, Setting, SettingNames};
pub use h2::{H2_CONNECTION_WINDOW, H2_SEND_BUFFER, H2_STREAM_WINDOW};
pub use message::{Body, BodySource, BodyStream, Request, ResponseMeta, Timings};
pub use net::{Net, NetStream};
pub use offload::{
    CryptoOffload, ImportedSigningKey, InlineOffload, LocalFuture, Offload, OffloadCounts,
    PrivateKeyDer, RecordKey,
};
pub use profile::{HttpProfile, PseudoHeader};
pub use sessions::SessionCache;
pub use tls::{
    CertSummary, KeyLogSink, TlsInfo, TlsSettings, TlsStream, MAX_CACHED_TICKETS, REPLAY_HOST,
};
pub use transport::{Hop, Transport};
pub use trust::{alert_for, CertReport, Judge, Trust, Verdict};

/// Re-exported from burrow-handshake: the ClientHello profile, and the registries whose code
/// points [`TlsInfo`] reports (`CipherSuite(info.cipher_suite).name()`).
pub use burrow_handshake::{CipherSuite, NamedGroup, Profile, ProtocolVersion};
/// burrow-ws, the WebSocket codec [`WebSocket`] drives: its events, messages, close frames,
/// configuration and errors ([`Error::WebSocket`]).
pub use burrow_ws as ws;
/// Re-exported from burrow-x509: the revocation policy, the staple verdict, why a certificate
/// was rejected ([`Error::Certificate`]), and the verified-chain cache
/// ([`TlsSettings::chain_cache`]).
pub use burrow_x509::{
    ChainCache, ChainCacheStats, Error as CertificateError, Revocation, StapleStatus,
    MAX_CACHED_CHAINS,
};
