//! Trust modes: system roots (lazily decoded), explicit anchors, SPKI pins, a custom decision
//! by the caller, and — only by explicit request — no verification at all.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::cert::Certificate;
use crate::chain_cache::KeyHasher;
use crate::path::AnchorLookup;
use crate::pem::certificates_from_pem;
use crate::pins::{parse_pin, SpkiHash};
use crate::Error;
use burrow_der::{tag, Reader, Result as DerResult};

/// Where trust comes from. Build one with [`Trust::system`], [`Trust::anchors_pem`],
/// [`Trust::anchors_der`], [`Trust::pinned`], [`Trust::custom`] or
/// [`Trust::insecure_accept_any_certificate`].
#[derive(Debug, Clone)]
pub struct Trust {
    pub(crate) kind: TrustKind,
}

#[derive(Debug, Clone)]
pub(crate) enum TrustKind {
    System,
    Anchors(Arc<AnchorSet>),
    Pinned {
        base: Box<Trust>,
        pins: Vec<SpkiHash>,
    },
    Custom,
    InsecureAcceptAny,
}

impl Trust {
    /// The Mozilla root store as shipped by the `webpki-root-certs` crate. Costs nothing until
    /// a chain needs an anchor: the subject index is built on first use, and a root is parsed
    /// only when a chain reaches it.
    pub fn system() -> Trust {
        Trust {
            kind: TrustKind::System,
        }
    }

    /// Exactly the certificates in this PEM bundle.
    pub fn anchors_pem(pem: &[u8]) -> Result<Trust, Error> {
        let ders = certificates_from_pem(pem)?;
        let refs: Vec<&[u8]> = ders.iter().map(Vec::as_slice).collect();
        Trust::anchors_der(&refs)
    }

    /// Exactly these DER certificates. Each must parse as a trust anchor
    /// ([`Certificate::from_der_trust_anchor`]); an empty set is refused.
    pub fn anchors_der(ders: &[&[u8]]) -> Result<Trust, Error> {
        let mut set = AnchorSet::default();
        let mut digest = KeyHasher::new();
        for der in ders {
            let cert = Certificate::from_der_trust_anchor(der).map_err(|e| match e {
                Error::Invalid(what) => Error::BadTrustAnchor(what),
                other => other,
            })?;
            digest.prefixed(der);
            set.add(Arc::new(cert));
        }
        if set.by_subject.is_empty() {
            return Err(Error::BadTrustAnchor("no trust anchors given"));
        }
        set.digest = digest.finish();
        Ok(Trust {
            kind: TrustKind::Anchors(Arc::new(set)),
        })
    }

    /// Full validation against `self`, plus: some certificate of the path must have one of
    /// these SPKI SHA-256 pins (`sha256/BASE64`).
    pub fn pinned(self, pins: &[&str]) -> Result<Trust, Error> {
        let mut parsed = Vec::new();
        for p in pins {
            parsed.push(parse_pin(p).ok_or(Error::BadTrustAnchor(
                "pin is not sha256/BASE64 of 32 bytes",
            ))?);
        }
        if parsed.is_empty() {
            return Err(Error::BadTrustAnchor("no pins given"));
        }
        Ok(Trust {
            kind: TrustKind::Pinned {
                base: Box::new(self),
                pins: parsed,
            },
        })
    }

    /// The caller decides: verification hands back a [`crate::CustomRequest`] with the chain,
    /// name and staple, and the caller answers it (possibly asynchronously).
    pub fn custom() -> Trust {
        Trust {
            kind: TrustKind::Custom,
        }
    }

    /// Accepts any certificate for any name. Only for tests and debugging; the name says it.
    pub fn insecure_accept_any_certificate() -> Trust {
        Trust {
            kind: TrustKind::InsecureAcceptAny,
        }
    }

    /// Feeds what identifies this trust to a chain-cache key: the kind, the anchors' bytes
    /// (as a digest taken when the set was built) and the pins, so a chain validated under one
    /// trust is never taken as validated under another.
    pub(crate) fn cache_id(&self, h: &mut KeyHasher) {
        match &self.kind {
            TrustKind::System => h.bytes(b"system\0"),
            TrustKind::Anchors(set) => {
                h.bytes(b"anchors\0");
                h.bytes(&set.digest);
            }
            TrustKind::Pinned { base, pins } => {
                h.bytes(b"pinned\0");
                base.cache_id(h);
                h.prefixed(&pins.concat());
            }
            // Never cached (nothing is validated); named anyway so no two kinds collide.
            TrustKind::Custom => h.bytes(b"custom\0"),
            TrustKind::InsecureAcceptAny => h.bytes(b"insecure\0"),
        }
    }
}

/// An explicit anchor set, indexed by subject.
#[derive(Debug, Default)]
pub(crate) struct AnchorSet {
    by_subject: HashMap<Vec<u8>, Vec<Arc<Certificate>>>,
    /// SHA-256 over the anchors' DER as given (length-prefixed, in order): the set's identity
    /// in a chain-cache key.
    digest: [u8; 32],
}

impl AnchorSet {
    fn add(&mut self, c: Arc<Certificate>) {
        self.by_subject
            .entry(c.subject.clone())
            .or_default()
            .push(c);
    }
}

impl AnchorLookup for AnchorSet {
    fn find(&self, subject: &[u8]) -> Vec<Arc<Certificate>> {
        self.by_subject.get(subject).cloned().unwrap_or_default()
    }
}

/// The bundled Mozilla roots, decoded lazily.
pub(crate) struct SystemRoots {
    index: OnceLock<HashMap<&'static [u8], Vec<usize>>>,
    parsed: Vec<OnceLock<Option<Arc<Certificate>>>>,
}

pub(crate) fn system_roots() -> &'static SystemRoots {
    static ROOTS: OnceLock<SystemRoots> = OnceLock::new();
    ROOTS.get_or_init(|| SystemRoots {
        index: OnceLock::new(),
        parsed: (0..system_len()).map(|_| OnceLock::new()).collect(),
    })
}

fn system_len() -> usize {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS.len()
}

fn system_der(i: usize) -> Option<&'static [u8]> {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .get(i)
        .map(|c| -> &'static [u8] { c.as_ref() })
}

/// The subject Name TLV of a certificate, found by skipping (not parsing) the fields before it.
fn subject_of(der: &[u8]) -> DerResult<&[u8]> {
    let cert = Reader::new(der).exactly(|r| r.read(tag::SEQUENCE))?;
    let tbs = Reader::new(cert).read(tag::SEQUENCE)?;
    let mut t = Reader::new(tbs);
    t.read_optional(tag::ctx_cons(0))?;
    t.read(tag::INTEGER)?;
    t.read(tag::SEQUENCE)?;
    t.read(tag::SEQUENCE)?;
    t.read(tag::SEQUENCE)?;
    Ok(t.read_tlv(tag::SEQUENCE)?.raw)
}

impl SystemRoots {
    /// Number of bundled roots.
    pub(crate) fn len(&self) -> usize {
        self.parsed.len()
    }

    /// How many roots have been fully parsed so far (for the startup-cost test).
    pub(crate) fn parsed_count(&self) -> usize {
        self.parsed.iter().filter(|p| p.get().is_some()).count()
    }

    fn index(&self) -> &HashMap<&'static [u8], Vec<usize>> {
        self.index.get_or_init(|| {
            let mut m: HashMap<&'static [u8], Vec<usize>> = HashMap::new();
            for i in 0..system_len() {
                let Some(bytes) = system_der(i) else { continue };
                if let Ok(subject) = subject_of(bytes) {
                    m.entry(subject).or_default().push(i);
                }
            }
            m
        })
    }
}

/// Every bundled root parsed as an anchor: (index, subject DER, the parse error if refused).
/// Parses all of them (a test and diagnostics cost, never on the request path).
pub(crate) fn audit_system_roots() -> Vec<(usize, Vec<u8>, Option<Error>)> {
    (0..system_len())
        .filter_map(|i| system_der(i).map(|d| (i, d)))
        .map(|(i, der)| {
            let subject = subject_of(der).map(<[u8]>::to_vec).unwrap_or_default();
            (i, subject, Certificate::from_der_trust_anchor(der).err())
        })
        .collect()
}

impl AnchorLookup for SystemRoots {
    fn find(&self, subject: &[u8]) -> Vec<Arc<Certificate>> {
        let Some(ids) = self.index().get(subject) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &i in ids {
            let (Some(slot), Some(der)) = (self.parsed.get(i), system_der(i)) else {
                continue;
            };
            let parsed =
                slot.get_or_init(|| Certificate::from_der_trust_anchor(der).ok().map(Arc::new));
            if let Some(c) = parsed {
                out.push(c.clone());
            }
        }
        out
    }
}
