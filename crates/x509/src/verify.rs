//! The entry point: validate a server's certificate chain, name and OCSP staple.

use std::sync::Arc;

use crate::alg::SignatureVerifier;
use crate::cert::Certificate;
use crate::chain_cache::{CachedPath, ChainCache, ChainKey, KeyHasher};
use crate::ext::ku;
use crate::general_name::GeneralName;
use crate::names::{dns_matches, ip_matches, is_valid_dns_name, ServerName};
use crate::ocsp::{OcspGood, OcspResponse};
use crate::path::{check_leaf, AnchorLookup, Budget, PathBuilder, PathOptions, MAX_INTERMEDIATES};
use crate::pins::SpkiHash;
use crate::time::UnixTime;
use crate::trust::{system_roots, Trust, TrustKind};
use crate::Error;

/// Most certificates accepted in one Certificate message.
pub const MAX_PRESENTED_CERTS: usize = 128;

/// What to do about revocation (stapled OCSP only: the client never fetches).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Revocation {
    /// Check a staple if the server sent one; a missing staple passes.
    #[default]
    CheckStaple,
    /// A good staple is required.
    RequireStaple,
}

/// The staple's verdict, reported with a successful validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StapleStatus {
    /// A valid, signed, current "good" response for this leaf.
    Good(OcspGood),
    /// The server sent no staple.
    None,
    /// Not checked (insecure or custom trust).
    NotChecked,
}

/// The server's certificates and what to check them against.
#[derive(Debug, Clone, Copy)]
pub struct ServerCertificates<'a> {
    /// The Certificate message's certificates, DER, leaf first, the rest in any order.
    pub chain: &'a [&'a [u8]],
    /// The stapled OCSP response (TLS 1.3 CertificateEntry status_request / TLS 1.2
    /// CertificateStatus), if any.
    pub ocsp_staple: Option<&'a [u8]>,
    /// Validation time, seconds since the Unix epoch (the caller's clock: sans-IO).
    pub now: UnixTime,
}

/// A successful validation.
#[derive(Debug, Clone)]
pub struct Verified {
    /// Path length including leaf and anchor (0 for insecure / custom trust).
    pub path_len: usize,
    /// The anchor's subject Name, DER (empty for insecure / custom trust).
    pub anchor_subject: Vec<u8>,
    /// Stapled OCSP result.
    pub staple: StapleStatus,
    /// True only for [`Trust::insecure_accept_any_certificate`].
    pub insecure: bool,
    /// The leaf's SubjectPublicKeyInfo (DER): what the handshake signature is checked with.
    pub leaf_spki: Vec<u8>,
}

/// A request for the caller's decision ([`Trust::custom`]): plain data, answer it whenever.
#[derive(Debug, Clone)]
#[must_use = "answer the request with accept() or reject()"]
pub struct CustomRequest {
    /// The presented certificates, DER, as received.
    pub chain: Vec<Vec<u8>>,
    /// The name the connection is for.
    pub server_name: ServerName,
    /// The stapled OCSP response, if any (unchecked).
    pub ocsp_staple: Option<Vec<u8>>,
    /// The validation time given.
    pub now: UnixTime,
}

impl CustomRequest {
    /// The caller accepts the chain.
    pub fn accept(self) -> Result<Verified, Error> {
        let leaf = self
            .chain
            .first()
            .ok_or(Error::Invalid("empty certificate chain"))?;
        let leaf = Certificate::from_der(leaf)?;
        Ok(Verified {
            path_len: 0,
            anchor_subject: Vec::new(),
            staple: StapleStatus::NotChecked,
            insecure: false,
            leaf_spki: leaf.spki,
        })
    }

    /// The caller rejects the chain.
    pub fn reject(self) -> Error {
        Error::CustomRejected
    }
}

/// Either a verdict, or (custom trust) a question for the caller.
#[derive(Debug, Clone)]
#[must_use]
pub enum Outcome {
    /// Validation succeeded.
    Verified(Verified),
    /// [`Trust::custom`]: the caller must answer this request.
    Decide(CustomRequest),
}

/// Validates server certificates. Cheap to build and to clone; holds no per-connection state
/// (a [`ChainCache`] it is given is shared data, keyed by everything that decides a path).
#[derive(Debug, Clone)]
pub struct Verifier {
    trust: Trust,
    revocation: Revocation,
    max_intermediates: usize,
    leaf_key_usage: u16,
    chains: ChainCache,
}

impl Verifier {
    /// A verifier for `trust`, checking staples when present, with the default depth limit.
    pub fn new(trust: Trust) -> Verifier {
        Verifier {
            trust,
            revocation: Revocation::CheckStaple,
            max_intermediates: MAX_INTERMEDIATES,
            leaf_key_usage: ku::DIGITAL_SIGNATURE,
            chains: ChainCache::disabled(),
        }
    }

    /// Remembers validated chains in `cache` and answers later validations of the same chain
    /// under the same settings from it (time, name and staple still checked each time; see
    /// [`ChainCache`]). Off by default.
    pub fn chain_cache(mut self, cache: ChainCache) -> Verifier {
        self.chains = cache;
        self
    }

    /// Sets the revocation policy.
    pub fn revocation(mut self, r: Revocation) -> Verifier {
        self.revocation = r;
        self
    }

    /// Caps the number of intermediates in a path (at most [`MAX_INTERMEDIATES`]).
    pub fn max_intermediates(mut self, n: usize) -> Verifier {
        self.max_intermediates = n.min(MAX_INTERMEDIATES);
        self
    }

    /// KeyUsage bits a leaf carrying the extension must have (default digitalSignature, as
    /// every TLS 1.3 and ECDHE TLS 1.2 key is used for). Bits as RFC 5280 numbers them: bit
    /// `n` is `1 << n`.
    pub fn leaf_key_usage(mut self, bits: u16) -> Verifier {
        self.leaf_key_usage = bits;
        self
    }

    /// Validates `certs` for `name`. Signature checks go to `sigs`.
    pub fn verify(
        &self,
        certs: &ServerCertificates<'_>,
        name: &ServerName,
        sigs: &dyn SignatureVerifier,
    ) -> Result<Outcome, Error> {
        if certs.chain.is_empty() {
            return Err(Error::Invalid("empty certificate chain"));
        }
        if certs.chain.len() > MAX_PRESENTED_CERTS {
            return Err(Error::Invalid("too many certificates presented"));
        }
        let (anchors, pins): (&dyn AnchorLookup, Option<&[SpkiHash]>) = match &self.trust.kind {
            TrustKind::InsecureAcceptAny => {
                let leaf = Certificate::from_der(certs.chain.first().copied().unwrap_or(&[]))?;
                return Ok(Outcome::Verified(Verified {
                    path_len: 0,
                    anchor_subject: Vec::new(),
                    staple: StapleStatus::NotChecked,
                    insecure: true,
                    leaf_spki: leaf.spki,
                }));
            }
            TrustKind::Custom => {
                return Ok(Outcome::Decide(CustomRequest {
                    chain: certs.chain.iter().map(|c| c.to_vec()).collect(),
                    server_name: name.clone(),
                    ocsp_staple: certs.ocsp_staple.map(<[u8]>::to_vec),
                    now: certs.now,
                }));
            }
            TrustKind::System => (system_roots(), None),
            TrustKind::Anchors(set) => (set.as_ref(), None),
            TrustKind::Pinned { base, pins } => match &base.kind {
                TrustKind::System => (system_roots(), Some(pins.as_slice())),
                TrustKind::Anchors(set) => (set.as_ref(), Some(pins.as_slice())),
                _ => {
                    return Err(Error::BadTrustAnchor(
                        "pins need system or anchor trust underneath",
                    ))
                }
            },
        };
        self.verify_path(certs, name, sigs, anchors, pins)
            .map(Outcome::Verified)
    }

    /// [`Verifier::build_path`] through the chain cache: a current entry answers without
    /// building the path; a fresh validation that fully succeeds with final signature answers
    /// is remembered. Only final verdicts are counted.
    fn verify_path(
        &self,
        certs: &ServerCertificates<'_>,
        name: &ServerName,
        sigs: &dyn SignatureVerifier,
        anchors: &dyn AnchorLookup,
        pins: Option<&[SpkiHash]>,
    ) -> Result<Verified, Error> {
        let key = self
            .chains
            .is_enabled()
            .then(|| self.cache_key(certs.chain));
        if let Some(key) = &key {
            if let Some(path) = self.chains.get(key, certs.now) {
                let r = self.finish(&path.leaf, &path.issuer, certs, name, sigs);
                if !sigs.provisional() {
                    self.chains.count_hit();
                }
                return r.map(|staple| Verified {
                    path_len: path.path_len,
                    anchor_subject: path.anchor_subject.clone(),
                    staple,
                    insecure: false,
                    leaf_spki: path.leaf.spki.clone(),
                });
            }
        }
        let r = self.build_path(certs, name, sigs, anchors, pins);
        if let Some(key) = key.filter(|_| !sigs.provisional()) {
            self.chains.count_miss();
            return r.map(|(v, path)| {
                self.chains.insert(key, path);
                v
            });
        }
        r.map(|(v, _)| v)
    }

    /// What a chain-cache entry is filed under: these settings and the exact chain.
    fn cache_key(&self, chain: &[&[u8]]) -> ChainKey {
        let mut h = KeyHasher::new();
        self.trust.cache_id(&mut h);
        let revocation: &[u8] = match self.revocation {
            Revocation::CheckStaple => b"check-staple\0",
            Revocation::RequireStaple => b"require-staple\0",
        };
        h.bytes(revocation);
        let max = u64::try_from(self.max_intermediates).unwrap_or(u64::MAX);
        h.bytes(&max.to_be_bytes());
        h.bytes(&self.leaf_key_usage.to_be_bytes());
        let n = u64::try_from(chain.len()).unwrap_or(u64::MAX);
        h.bytes(&n.to_be_bytes());
        for der in chain {
            h.prefixed(der);
        }
        h.finish()
    }

    /// Builds and validates the path, then [`Verifier::finish`]es: the verdict and, for the
    /// cache, the path's facts.
    fn build_path(
        &self,
        certs: &ServerCertificates<'_>,
        name: &ServerName,
        sigs: &dyn SignatureVerifier,
        anchors: &dyn AnchorLookup,
        pins: Option<&[SpkiHash]>,
    ) -> Result<(Verified, CachedPath), Error> {
        let mut parsed = certs
            .chain
            .iter()
            .map(|d| Certificate::from_der(d).map(Arc::new));
        let leaf = parsed
            .next()
            .ok_or(Error::Invalid("empty certificate chain"))??;
        // Unparseable extra certificates are ignored: servers send junk, and a valid path
        // must not depend on them.
        let intermediates: Vec<Arc<Certificate>> = parsed.filter_map(Result::ok).collect();
        let opts = PathOptions {
            now: certs.now,
            max_intermediates: self.max_intermediates,
            leaf_key_usage: self.leaf_key_usage,
            pins,
        };
        check_leaf(&leaf, &opts)?;
        let mut builder = PathBuilder {
            intermediates: &intermediates,
            anchors,
            verifier: sigs,
            opts,
            budget: Budget::new(),
        };
        let path = builder.build(&leaf)?;
        let issuer = path.certs.get(1).ok_or(Error::Untrusted)?;
        let staple = self.finish(&leaf, issuer, certs, name, sigs)?;
        let anchor_subject = path
            .certs
            .last()
            .map(|c| c.subject.clone())
            .unwrap_or_default();
        let verified = Verified {
            path_len: path.certs.len(),
            anchor_subject: anchor_subject.clone(),
            staple,
            insecure: false,
            leaf_spki: leaf.spki.clone(),
        };
        let cached = CachedPath {
            issuer: Arc::clone(issuer),
            path_len: path.certs.len(),
            anchor_subject,
            not_before: path.certs.iter().map(|c| c.not_before).max().unwrap_or(0),
            not_after: path.certs.iter().map(|c| c.not_after).min().unwrap_or(0),
            leaf,
        };
        Ok((verified, cached))
    }

    /// What is checked on every use of a valid path, cached or just built: the name against
    /// the leaf, and the staple (the connection's own input) against leaf and issuer.
    fn finish(
        &self,
        leaf: &Certificate,
        issuer: &Certificate,
        certs: &ServerCertificates<'_>,
        name: &ServerName,
        sigs: &dyn SignatureVerifier,
    ) -> Result<StapleStatus, Error> {
        check_name(leaf, name)?;
        match certs.ocsp_staple {
            Some(der) => {
                let resp = OcspResponse::from_der(der)?;
                Ok(StapleStatus::Good(
                    resp.check(leaf, issuer, certs.now, sigs)?,
                ))
            }
            None if self.revocation == Revocation::RequireStaple => Err(Error::OcspStapleRequired),
            None => Ok(StapleStatus::None),
        }
    }
}

/// Matches the leaf's SAN against the reference name; the subject CN is never used.
pub(crate) fn check_name(leaf: &Certificate, name: &ServerName) -> Result<(), Error> {
    let Some(sans) = &leaf.ext.san else {
        return Err(Error::NameMismatch);
    };
    let found = sans.iter().any(|san| match (san, name) {
        (GeneralName::Dns(d), ServerName::Dns(n)) => {
            is_valid_dns_name(d, true, false) && dns_matches(d, n)
        }
        (GeneralName::Ip(ip), ServerName::Ip(r)) => ip_matches(ip, r),
        _ => false,
    });
    if found {
        return Ok(());
    }
    Err(Error::NameMismatch)
}
