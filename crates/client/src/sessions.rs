//! Where TLS session tickets wait for the next connection: one client's own cache by default,
//! or a [`SessionCache`] several clients share (a Worker's isolate, where a client lives for
//! one request and the next request's client would otherwise start from nothing).
//!
//! A ticket is filed under everything that decided what the session proved and who made it:
//! the TLS settings (profile, trust and its anchors, pins, revocation, staple request, ALPN,
//! the extended-master-secret rule, HTTP/1.1-only, the client certificates offered to the
//! origin and to an HTTPS proxy: a session a certificate authenticated is resumed only by a
//! client that offers the same one), the proxy the connection went through
//! (with a digest of its credentials: proxy vendors choose the exit by the user name) and the
//! origin's `host:port`. A client with other trust settings, another identity or another
//! proxy never resumes a session it did not make the same way, so a resumption neither skips
//! a certificate check that client would have made nor links traffic its settings keep apart.
//! The handshake itself still checks the ticket's server name and lifetime.

use core::fmt::{self, Write as _};

use burrow_crypto::hash::{Context, HashAlgorithm};
use burrow_proxy::Proxy;

use crate::config::ClientConfig;
use crate::connect::Origin;
use crate::tls::{TicketCache, TicketSlot};
use crate::trust::Trust;

/// TLS session tickets that clients given the same cache share (see the module's docs for
/// what keeps their sessions apart). Cheap to clone: clones are the same cache. At most
/// [`MAX_CACHED_TICKETS`](crate::MAX_CACHED_TICKETS) servers' tickets are kept, each used once.
///
/// Holds no I/O object, so one cache may outlive the request that filled it (a Worker keeps
/// one per isolate).
#[derive(Clone)]
pub struct SessionCache(Option<TicketCache>);

impl Default for SessionCache {
    /// An empty cache, as [`SessionCache::new`] (not a disabled one).
    fn default() -> SessionCache {
        SessionCache::new()
    }
}

impl SessionCache {
    /// An empty cache.
    pub fn new() -> SessionCache {
        SessionCache(Some(TicketCache::default()))
    }

    /// No cache: every connection makes a full handshake and tickets are dropped.
    pub fn disabled() -> SessionCache {
        SessionCache(None)
    }

    /// Whether tickets are kept.
    pub fn is_enabled(&self) -> bool {
        self.0.is_some()
    }

    /// Servers with a ticket waiting.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, TicketCache::len)
    }

    /// Whether no ticket is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every waiting ticket.
    pub fn clear(&self) {
        if let Some(c) = &self.0 {
            c.clear();
        }
    }

    /// Where a connection to `origin` through `proxy` of a client scoped by `scope` takes its
    /// ticket from and keeps the ones its server sends (`None`: the cache is disabled).
    pub(crate) fn slot(
        &self,
        scope: &SessionScope,
        proxy: Option<&Proxy>,
        origin: &Origin,
    ) -> Option<TicketSlot> {
        let cache = self.0.as_ref()?;
        let mut h = Hashed::new();
        h.bytes(&scope.0);
        if let Some(p) = proxy {
            // Display leaves the credentials out; they go in as a digest only.
            let _ = write!(h, "{p}");
            h.bytes(b"\0");
            if let Some(c) = &p.credentials {
                // Lengths first, so no two pairs hash alike.
                let _ = write!(h, "{}:{}:", c.username.len(), c.password.len());
                h.bytes(c.username.as_bytes());
                h.bytes(c.password.as_bytes());
            }
        }
        h.bytes(b"\0");
        let _ = write!(h, "{}:{}", origin.host, origin.port);
        Some(TicketSlot {
            cache: cache.clone(),
            key: h.hex(),
        })
    }
}

impl fmt::Debug for SessionCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionCache")
            .field("enabled", &self.is_enabled())
            .field("servers", &self.len())
            .finish()
    }
}

/// A digest of the settings a client's sessions are made under, computed once per client.
#[derive(Clone)]
pub(crate) struct SessionScope([u8; 32]);

impl SessionScope {
    /// The scope of a client with `config`.
    pub(crate) fn of(config: &ClientConfig) -> SessionScope {
        let t = &config.tls;
        let mut h = Hashed::new();
        // The trust's certificates go in as length-framed bytes (their Debug form formats
        // every byte as a number: ~0.1 ms per client for one PEM in workerd, profile of
        // 2026-12-07); the other settings' Debug output is streamed into the hash, which only
        // has to be the same within one process.
        match &t.trust {
            Trust::AnchorsPem(pems) => {
                h.bytes(b"anchors");
                for pem in pems {
                    h.framed(pem);
                }
            }
            Trust::PinnedLeaf(der) => {
                h.bytes(b"leaf");
                h.framed(der);
            }
            other => {
                let _ = write!(h, "{other:?}");
            }
        }
        let _ = write!(
            h,
            "\0{:?}\0{:?}\0{:?}\0{}\0{:?}\0{}\0{}",
            t.profile,
            t.pins,
            t.revocation,
            t.request_staple,
            t.alpn,
            t.require_extended_master_secret,
            config.http1_only,
        );
        // The certificates themselves (Debug shows only their count): a server keeps the
        // client certificate with the session, and a resumption sends none, so a client with
        // another certificate, or none, would be taken for the one that made it.
        for cert in [&t.client_cert, &config.proxy_tls.client_cert] {
            h.bytes(b"\0cert");
            for der in cert.iter().flat_map(|c| c.chain()) {
                h.framed(der);
            }
        }
        SessionScope(h.finish())
    }
}

/// SHA-256 over bytes and formatted text.
struct Hashed(Context);

impl Hashed {
    fn new() -> Hashed {
        Hashed(Context::new(HashAlgorithm::Sha256))
    }

    fn bytes(&mut self, b: &[u8]) {
        self.0.update(b);
    }

    /// `b` preceded by its length, so that where one item ends is part of the digest.
    fn framed(&mut self, b: &[u8]) {
        let _ = write!(self, ":{}:", b.len());
        self.bytes(b);
    }

    fn finish(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        let d = self.0.finish();
        if let Some(src) = d.as_ref().get(..32) {
            out.copy_from_slice(src);
        }
        out
    }

    fn hex(self) -> String {
        let mut s = String::with_capacity(64);
        for b in self.finish() {
            let _ = write!(s, "{b:02x}");
        }
        s
    }
}

impl fmt::Write for Hashed {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{SessionCache, SessionScope};
    use crate::config::ClientConfig;
    use crate::trust::Trust;

    fn scope(trust: Trust) -> [u8; 32] {
        let mut config = ClientConfig::default();
        config.tls.trust = trust;
        SessionScope::of(&config).0
    }

    #[test]
    fn the_scope_is_the_trust_certificates_bytes() {
        let a = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".to_vec();
        let mut b = a.clone();
        b[30] = b'B';
        let anchors =
            |pems: &[&Vec<u8>]| Trust::AnchorsPem(pems.iter().map(|p| p.to_vec()).collect());
        assert_eq!(scope(anchors(&[&a])), scope(anchors(&[&a])));
        assert_ne!(scope(anchors(&[&a])), scope(anchors(&[&b])));
        assert_ne!(scope(anchors(&[&a])), scope(anchors(&[&a, &a])));
        // Where one bundle ends is part of it: two PEMs are not their concatenation.
        let ab: Vec<u8> = a.iter().chain(b.iter()).copied().collect();
        assert_ne!(scope(anchors(&[&a, &b])), scope(anchors(&[&ab])));
        assert_ne!(scope(anchors(&[&a])), scope(Trust::PinnedLeaf(a.clone())));
        assert_ne!(
            scope(Trust::PinnedLeaf(a.clone())),
            scope(Trust::PinnedLeaf(b))
        );
        assert_ne!(
            scope(Trust::System),
            scope(Trust::InsecureAcceptAnyCertificate)
        );
        assert_ne!(scope(Trust::System), scope(anchors(&[])));
    }

    #[test]
    fn the_default_cache_keeps_tickets() {
        assert!(SessionCache::default().is_enabled());
        assert!(SessionCache::new().is_enabled());
        assert!(!SessionCache::disabled().is_enabled());
        assert!(SessionCache::default().is_empty());
    }
}
