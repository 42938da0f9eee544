//! The [`Client`] handle and the state its clones share. What it does lives in one child
//! module per concern:
//!
//! * [`fetch`]: `Client::fetch`, the loop over redirects, cookies and the one safe retry;
//! * [`pool`]: idle HTTP/1.1 connections and the HTTP/2 connection per origin;
//! * [`request`]: what a request carries besides its own fields (target, authority, the
//!   profile's default fields), the same for both HTTP versions;
//! * [`h1_exchange`]: one request and its response head over HTTP/1.1;
//! * [`h2_exchange`]: one request and its response head on an HTTP/2 connection (the
//!   connection driver itself is `crate::h2`);
//! * [`response`]: the [`Response`] and its body, read and decoded as it arrives;
//! * [`websocket`]: `Client::websocket`, an HTTP/1.1 Upgrade on a connection made as a fetch
//!   makes one, and the [`WebSocket`] driving burrow-ws over it.

use std::cell::RefCell;
use std::rc::Rc;

use burrow_cookies::Jar;

use crate::config::ClientConfig;
use crate::connect::{proxy_for, Origin};
use crate::net::Net;
use crate::sessions::{SessionCache, SessionScope};
use crate::slots::HeadSlots;

mod fetch;
mod h1_exchange;
mod h2_exchange;
mod pool;
mod request;
mod response;
mod websocket;

pub(crate) use request::default_fields;
pub use response::{Response, CHUNK_TARGET};
pub use websocket::{Received, WebSocket, WebSocketOptions};

use pool::Pool;

/// What every clone of a [`Client`] shares.
pub(crate) struct Inner<N: Net> {
    pub(crate) net: N,
    pub(crate) config: ClientConfig,
    pool: Pool<N::Stream>,
    jar: Option<RefCell<Jar>>,
    sessions: SessionCache,
    scope: SessionScope,
    heads: Rc<HeadSlots>,
}

impl<N: Net> Drop for Inner<N> {
    fn drop(&mut self) {
        self.pool.shut_down();
    }
}

/// An HTTP client over the platform `N`. Cheap to clone (shares the pool).
pub struct Client<N: Net> {
    inner: Rc<Inner<N>>,
}

impl<N: Net> Clone for Client<N> {
    fn clone(&self) -> Self {
        Client {
            inner: Rc::clone(&self.inner),
        }
    }
}

impl<N: Net> Client<N> {
    /// A client over `net` with `config`; its TLS sessions are its own.
    pub fn new(net: N, config: ClientConfig) -> Client<N> {
        Client::with_sessions(net, config, SessionCache::new())
    }

    /// A client over `net` with `config` whose TLS sessions go in `sessions`: a connection
    /// resumes a session another client sharing the cache made, when both made it the same
    /// way (same TLS settings, proxy and origin; see [`SessionCache`]).
    pub fn with_sessions(net: N, config: ClientConfig, sessions: SessionCache) -> Client<N> {
        let scope = SessionScope::of(&config);
        let cookies = config.cookies;
        let config_heads = config.max_pending_heads;
        let max_idle_per_origin = config.max_idle_per_origin;
        Client {
            inner: Rc::new(Inner {
                net,
                config,
                pool: Pool::new(max_idle_per_origin),
                jar: cookies.then(|| RefCell::new(Jar::new())),
                sessions,
                scope,
                heads: HeadSlots::new(config_heads),
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// The platform.
    pub fn net(&self) -> &N {
        &self.inner.net
    }

    /// Most requests that were waiting for their response head at once (see
    /// [`ClientConfig::max_pending_heads`]).
    pub fn pending_heads_high_water(&self) -> usize {
        self.inner.heads.high_water()
    }
}

/// Whether `url` would go through the configured proxy (after no_proxy).
pub fn uses_proxy(config: &ClientConfig, url: &url::Url) -> bool {
    Origin::of(url).is_ok_and(|o| proxy_for(config, &o).is_some())
}
