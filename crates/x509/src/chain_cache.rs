//! Verified chains remembered across connections, so a full handshake to a chain already
//! validated skips its path building and its certificates' signature checks (in a Worker each
//! is a WebCrypto `importKey` and `verify`).
//!
//! An entry is filed under a SHA-256 of everything that decided the path: the exact
//! certificates the server sent (length-prefixed, in order, leaf first) and the verifier's
//! settings (the trust kind with its anchors' bytes and its pins, the revocation policy, the
//! intermediate cap and the leaf KeyUsage rule). It holds only facts about the path — the
//! parsed leaf and issuer, path length, anchor subject, and the validity window the whole path
//! shares (latest notBefore, earliest notAfter) — never anything a connection brings:
//!
//! * the time is checked on every use; outside the window the entry is dropped and the chain
//!   is validated afresh, so an expired chain fails exactly as it does uncached (and a chain
//!   with a still-valid alternative path is accepted, as uncached);
//! * the host name is checked against the cached leaf on every use;
//! * a stapled OCSP response is judged on every use (with the cached issuer);
//! * the handshake's own signature (CertificateVerify / ServerKeyExchange) is not the
//!   validator's and is checked per connection as ever.
//!
//! Only a validation that fully succeeded, with every signature answer final (see
//! [`SignatureVerifier::provisional`](crate::SignatureVerifier::provisional)), is remembered;
//! failures never are. At most [`MAX_CACHED_CHAINS`] entries, the oldest dropped first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use burrow_crypto::hash::{Context, HashAlgorithm};

use crate::cert::Certificate;
use crate::time::UnixTime;

/// Most chains one [`ChainCache`] remembers; inserting one more drops the oldest. A cached
/// entry holds two parsed certificates (a few KiB), so the cache stays under about 1 MiB.
pub const MAX_CACHED_CHAINS: usize = 128;

/// What a cache key is: SHA-256 over the settings and the presented chain.
pub(crate) type ChainKey = [u8; 32];

/// A validated path, as much of it as a later use needs.
#[derive(Debug)]
pub(crate) struct CachedPath {
    pub(crate) leaf: Arc<Certificate>,
    /// The leaf's issuer (what a staple is checked against).
    pub(crate) issuer: Arc<Certificate>,
    pub(crate) path_len: usize,
    pub(crate) anchor_subject: Vec<u8>,
    /// Latest notBefore of the path's certificates.
    pub(crate) not_before: UnixTime,
    /// Earliest notAfter of the path's certificates.
    pub(crate) not_after: UnixTime,
}

impl CachedPath {
    /// Whether every certificate of the path is valid at `now` (the rule `check_time` applies
    /// to each: notBefore ≤ now ≤ notAfter).
    fn valid_at(&self, now: UnixTime) -> bool {
        self.not_before <= now && now <= self.not_after
    }
}

/// How a cache has been used: validations answered from it and validations that built the
/// path because nothing (or nothing current) was cached. Provisional rounds of an
/// [`AnswerBook`](crate::AnswerBook) are not counted, only final verdicts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChainCacheStats {
    /// Validations answered from the cache (no path building, no chain signature checked).
    pub hits: u64,
    /// Validations with the cache on that found no current entry and built the path.
    pub misses: u64,
    /// Chains remembered now.
    pub entries: usize,
}

#[derive(Debug, Default)]
struct Chains {
    by_key: HashMap<ChainKey, Arc<CachedPath>>,
    /// Insertion order, oldest first (for eviction).
    order: VecDeque<ChainKey>,
    hits: u64,
    misses: u64,
}

impl Chains {
    fn remove(&mut self, key: &ChainKey) {
        if self.by_key.remove(key).is_some() {
            self.order.retain(|k| k != key);
        }
    }
}

/// Verified chains shared by every [`Verifier`](crate::Verifier) given a clone of it (see the
/// module docs for what an entry is filed under and what is still checked on each use). Cheap
/// to clone: clones are the same cache. Plain data, no I/O object, so one cache may serve many
/// connections, clients and requests (a Worker keeps one per isolate).
#[derive(Clone)]
pub struct ChainCache(Option<Arc<Mutex<Chains>>>);

impl Default for ChainCache {
    /// An empty cache, as [`ChainCache::new`] (not a disabled one).
    fn default() -> ChainCache {
        ChainCache::new()
    }
}

impl ChainCache {
    /// An empty cache holding at most [`MAX_CACHED_CHAINS`] chains.
    pub fn new() -> ChainCache {
        ChainCache(Some(Arc::default()))
    }

    /// No cache: every validation builds its path and checks every signature.
    pub fn disabled() -> ChainCache {
        ChainCache(None)
    }

    /// Whether chains are remembered.
    pub fn is_enabled(&self) -> bool {
        self.0.is_some()
    }

    /// Chains remembered now.
    pub fn len(&self) -> usize {
        self.lock().map_or(0, |c| c.by_key.len())
    }

    /// Whether no chain is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every chain (the counts stay).
    pub fn clear(&self) {
        if let Some(mut c) = self.lock() {
            c.by_key.clear();
            c.order.clear();
        }
    }

    /// Hits, misses and entries so far (all zero when disabled).
    pub fn stats(&self) -> ChainCacheStats {
        self.lock()
            .map_or(ChainCacheStats::default(), |c| ChainCacheStats {
                hits: c.hits,
                misses: c.misses,
                entries: c.by_key.len(),
            })
    }

    fn lock(&self) -> Option<MutexGuard<'_, Chains>> {
        // A panic while holding the lock leaves plain data behind: still usable.
        self.0
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The path cached under `key` if it is valid at `now`; one that is not is dropped, so the
    /// caller validates afresh and reports what an uncached validation reports.
    pub(crate) fn get(&self, key: &ChainKey, now: UnixTime) -> Option<Arc<CachedPath>> {
        let mut c = self.lock()?;
        let path = c.by_key.get(key).cloned()?;
        if path.valid_at(now) {
            Some(path)
        } else {
            c.remove(key);
            None
        }
    }

    /// Remembers a fully validated path, dropping the oldest entry when full.
    pub(crate) fn insert(&self, key: ChainKey, path: CachedPath) {
        let Some(mut c) = self.lock() else { return };
        c.remove(&key);
        while c.by_key.len() >= MAX_CACHED_CHAINS {
            let Some(oldest) = c.order.pop_front() else {
                break;
            };
            c.by_key.remove(&oldest);
        }
        c.by_key.insert(key, Arc::new(path));
        c.order.push_back(key);
    }

    pub(crate) fn count_hit(&self) {
        if let Some(mut c) = self.lock() {
            c.hits = c.hits.saturating_add(1);
        }
    }

    pub(crate) fn count_miss(&self) {
        if let Some(mut c) = self.lock() {
            c.misses = c.misses.saturating_add(1);
        }
    }
}

impl core::fmt::Debug for ChainCache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let s = self.stats();
        f.debug_struct("ChainCache")
            .field("enabled", &self.is_enabled())
            .field("entries", &s.entries)
            .field("hits", &s.hits)
            .field("misses", &s.misses)
            .finish()
    }
}

/// SHA-256 over the settings' bytes and the chain, each certificate length-prefixed so no two
/// chains hash alike by moving a boundary.
pub(crate) struct KeyHasher(Context);

impl KeyHasher {
    pub(crate) fn new() -> KeyHasher {
        let mut h = KeyHasher(Context::new(HashAlgorithm::Sha256));
        h.bytes(b"burrow chain cache v1\0");
        h
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.0.update(b);
    }

    /// A length (as 8 bytes) then the bytes.
    pub(crate) fn prefixed(&mut self, b: &[u8]) {
        let len = u64::try_from(b.len()).unwrap_or(u64::MAX);
        self.0.update(&len.to_be_bytes());
        self.0.update(b);
    }

    pub(crate) fn finish(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        let d = self.0.finish();
        if let Some(src) = d.as_ref().get(..32) {
            out.copy_from_slice(src);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_cache_counts_nothing() {
        let c = ChainCache::disabled();
        assert!(!c.is_enabled());
        c.count_hit();
        c.count_miss();
        assert_eq!(c.stats(), ChainCacheStats::default());
        assert!(c.is_empty());
        c.clear();
        assert_eq!(
            format!("{c:?}"),
            "ChainCache { enabled: false, entries: 0, hits: 0, misses: 0 }"
        );
        let on = ChainCache::default();
        assert!(on.is_enabled());
        on.count_miss();
        on.count_hit();
        on.count_hit();
        assert_eq!(
            format!("{on:?}"),
            "ChainCache { enabled: true, entries: 0, hits: 2, misses: 1 }"
        );
    }
}
