//! What every burrow client in a Worker is, whichever API made it: [`WorkerNet`] over the
//! `connect` of `cloudflare:sockets`, WebCrypto offload for both TLS hops (the origin's and an
//! HTTPS proxy's), at most six connections awaiting response headers, the session cache and
//! the verified-chain cache.
//! The JS API (`RawClient`, from an options object) and the Rust API (`Client`, from a
//! [`Config`]) both build their client here, so their defaults cannot drift apart.

use std::rc::Rc;

use burrow_client::{ChainCache, Client as HttpClient, ClientConfig, Error, Offload, SessionCache};
use js_sys::Function;
use wasm_bindgen::JsValue;

use crate::context::{cross_request_error, RequestContext};
use crate::net::{WorkerNet, DEFAULT_READ_VIEW};
use crate::webcrypto::{WebCrypto, DEFAULT_INLINE_RECORD_BYTES};

/// burrow-client's client over Worker sockets.
pub(crate) type Http = HttpClient<WorkerNet>;

/// workerd lets one invocation have six connections awaiting response headers and holds back
/// the rest: more would wait unseen inside the runtime, so burrow queues them itself.
pub const MAX_PENDING_HEADS: usize = 6;

/// Where a client's TLS session tickets go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sessions {
    /// One cache for every client of this isolate (the default): the next request's client
    /// resumes what this one's connection made, when made the same way.
    #[default]
    Isolate,
    /// The client's own: only its own later connections resume.
    Client,
    /// None: every connection makes a full handshake.
    Off,
}

/// Where a client remembers the certificate chains it validated (JS option `chainCache`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Chains {
    /// One cache for every client of this isolate (the default): a full handshake to a chain
    /// any client validated under the same trust settings skips the chain's signatures and
    /// path building (the handshake signature, time, name and staple are checked every time).
    #[default]
    Isolate,
    /// The client's own, for both its TLS hops.
    Client,
    /// None: every full handshake validates the chain from scratch.
    Off,
}

/// How a client is set up in a Worker: burrow-client's settings and the Worker's own.
/// [`Config::default`] is what the JS `Client` does with an options object that only has
/// `connect`.
#[derive(Clone, Debug)]
pub struct Config {
    /// burrow-client's settings: proxy, trust, pins, deadlines, redirects, decoding, ... Its
    /// `max_pending_heads` is capped at [`MAX_PENDING_HEADS`] (`None` means that cap).
    pub client: ClientConfig,
    /// Open and seal AES-GCM records and check signatures with WebCrypto, on both TLS hops
    /// (default `true`; JS option `tls.offload`).
    pub offload: bool,
    /// With `offload`, AES-GCM records (ciphertext and tag) up to this many bytes are opened
    /// and sealed in wasm, where they cost less than a WebCrypto call (default
    /// [`DEFAULT_INLINE_RECORD_BYTES`]; 0 sends every one to WebCrypto; JS option
    /// `tls.inlineRecordBytes`).
    pub inline_record_bytes: usize,
    /// Bytes per BYOB socket read, clamped to 1 KiB..=64 KiB (default 64 KiB; JS option
    /// `readViewBytes`).
    pub read_view_bytes: usize,
    /// Where TLS session tickets go (default [`Sessions::Isolate`]; JS option `sessionCache`).
    pub sessions: Sessions,
    /// Where validated certificate chains are remembered (default [`Chains::Isolate`]; JS
    /// option `chainCache`). Replaces the caches in `client.tls` and `client.proxy_tls`.
    pub chains: Chains,
}

impl Default for Config {
    fn default() -> Config {
        Config::from(ClientConfig::default())
    }
}

impl From<ClientConfig> for Config {
    /// These client settings with the Worker's defaults for the rest.
    fn from(client: ClientConfig) -> Config {
        Config {
            client,
            offload: true,
            inline_record_bytes: DEFAULT_INLINE_RECORD_BYTES,
            read_view_bytes: DEFAULT_READ_VIEW,
            sessions: Sessions::Isolate,
            chains: Chains::Isolate,
        }
    }
}

thread_local! {
    /// TLS session tickets every client of this isolate shares ([`Sessions::Isolate`]).
    /// Tickets are plain data, not I/O objects, so unlike sockets they may serve a later
    /// request's client; [`SessionCache`] keeps sessions made with other settings, proxies or
    /// origins apart.
    static ISOLATE_SESSIONS: SessionCache = SessionCache::new();

    /// Validated chains every client of this isolate shares ([`Chains::Isolate`]): plain data
    /// like tickets, keyed by the chain's bytes and the trust settings, so a client never
    /// takes a chain as validated under trust it does not have.
    static ISOLATE_CHAINS: ChainCache = ChainCache::new();
}

/// A client as both APIs hold it.
pub(crate) struct Core {
    pub(crate) http: Http,
    /// The WebCrypto provider, when offloading (its counts are the clients' `stats`).
    pub(crate) crypto: Option<Rc<WebCrypto>>,
    /// The request this client's sockets belong to.
    pub(crate) context: Rc<RequestContext>,
}

impl Core {
    /// The client `config` describes, opening sockets with `connect`. Fails (with what
    /// WebCrypto threw) only when offloading and `crypto.subtle` is missing.
    pub(crate) fn new(connect: Function, config: Config) -> Result<Core, JsValue> {
        let Config {
            client: mut c,
            offload,
            inline_record_bytes,
            read_view_bytes,
            sessions,
            chains,
        } = config;
        let crypto = if offload {
            Some(Rc::new(
                WebCrypto::new(true, true)?.with_inline_record_bytes(inline_record_bytes),
            ))
        } else {
            None
        };
        if let Some(w) = &crypto {
            let w: Rc<dyn burrow_client::CryptoOffload> = Rc::<WebCrypto>::clone(w);
            let off = Offload(w);
            c.tls.offload = Some(off.clone());
            c.proxy_tls.offload = Some(off);
        }
        let chains = match chains {
            Chains::Isolate => ISOLATE_CHAINS.with(ChainCache::clone),
            Chains::Client => ChainCache::new(),
            Chains::Off => ChainCache::disabled(),
        };
        c.tls.chain_cache = chains.clone();
        c.proxy_tls.chain_cache = chains;
        c.max_pending_heads = Some(pending_heads(c.max_pending_heads));
        let context = Rc::new(RequestContext::new());
        let net = WorkerNet::new(connect, read_view_bytes, Rc::clone(&context));
        let sessions = match sessions {
            Sessions::Isolate => ISOLATE_SESSIONS.with(SessionCache::clone),
            Sessions::Client => SessionCache::new(),
            Sessions::Off => SessionCache::disabled(),
        };
        Ok(Core {
            http: HttpClient::with_sessions(net, c, sessions),
            crypto,
            context,
        })
    }
}

/// The cap on connections awaiting headers for a configured one: [`MAX_PENDING_HEADS`] at
/// most (`None`: that), 1 at least.
fn pending_heads(configured: Option<usize>) -> usize {
    configured.map_or(MAX_PENDING_HEADS, |n| n.clamp(1, MAX_PENDING_HEADS))
}

/// A fetch's failure as the caller hears it: once the runtime has refused the client's context
/// (a socket of another request), `CROSS_REQUEST` rather than the socket error it surfaced as.
/// (Each API checks [`RequestContext::check`] before sending, and maps the failure with this.)
pub(crate) fn fetch_error(context: &RequestContext, e: Error) -> Error {
    if context.is_foreign() {
        cross_request_error()
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_config_is_the_js_clients() {
        let c = Config::default();
        assert!(c.offload, "WebCrypto offload on by default");
        assert_eq!(c.read_view_bytes, DEFAULT_READ_VIEW);
        assert_eq!(c.sessions, Sessions::Isolate);
        assert_eq!(c.chains, Chains::Isolate);
        assert_eq!(
            c.client.max_pending_heads, None,
            "capped when the client is made"
        );
    }

    #[test]
    fn at_most_six_connections_await_headers() {
        assert_eq!(pending_heads(None), 6);
        assert_eq!(pending_heads(Some(100)), 6);
        assert_eq!(pending_heads(Some(2)), 2);
        assert_eq!(pending_heads(Some(0)), 1);
    }
}
