//! Path building: from the leaf through unordered intermediates to a trust anchor, trying
//! alternatives on failure, with loop detection, a depth cap and a budget (STYLE.md §18).

use std::sync::Arc;

use crate::alg::{SignatureFailure, SignatureRequest, SignatureVerifier};
use crate::cert::Certificate;
use crate::constraints;
use crate::ext::ku;
use crate::pins::{spki_sha256, SeenPins, SpkiHash};
use crate::time::UnixTime;
use crate::Error;

/// Signature checks allowed for one validation.
pub const MAX_SIGNATURE_CHECKS: u32 = 100;
/// Path-building steps (candidate issuers considered) allowed for one validation.
pub const MAX_PATH_STEPS: u32 = 200_000;
/// Name-constraint comparisons allowed for one validation.
pub const MAX_NAME_COMPARISONS: u32 = 250_000;
/// Most intermediates in a path (not counting leaf and anchor).
pub const MAX_INTERMEDIATES: usize = 8;

/// What one validation may spend. Running out is fatal ([`Error::BudgetExceeded`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    signatures: u32,
    steps: u32,
    names: u32,
}

impl Budget {
    pub(crate) fn new() -> Self {
        Budget {
            signatures: MAX_SIGNATURE_CHECKS,
            steps: MAX_PATH_STEPS,
            names: MAX_NAME_COMPARISONS,
        }
    }
    fn spend_signature(&mut self) -> Result<(), Error> {
        self.signatures = self
            .signatures
            .checked_sub(1)
            .ok_or(Error::BudgetExceeded)?;
        Ok(())
    }
    fn spend_step(&mut self) -> Result<(), Error> {
        self.steps = self.steps.checked_sub(1).ok_or(Error::BudgetExceeded)?;
        Ok(())
    }
    pub(crate) fn spend_name(&mut self) -> Result<(), Error> {
        self.names = self.names.checked_sub(1).ok_or(Error::BudgetExceeded)?;
        Ok(())
    }
}

/// Where trust anchors come from (an explicit set, or the lazily decoded system roots).
pub(crate) trait AnchorLookup {
    /// Anchors whose subject Name (DER) equals `subject`.
    fn find(&self, subject: &[u8]) -> Vec<Arc<Certificate>>;
}

/// Knobs of one validation.
#[derive(Debug, Clone)]
pub(crate) struct PathOptions<'a> {
    pub(crate) now: UnixTime,
    pub(crate) max_intermediates: usize,
    /// KeyUsage bits the leaf must have when it carries the extension.
    pub(crate) leaf_key_usage: u16,
    /// SPKI pins: if set, a path is accepted only if one of its SPKIs matches.
    pub(crate) pins: Option<&'a [SpkiHash]>,
}

/// A validated path, leaf first, anchor last.
#[derive(Debug, Clone)]
pub(crate) struct ValidPath {
    pub(crate) certs: Vec<Arc<Certificate>>,
}

pub(crate) struct PathBuilder<'a> {
    pub(crate) intermediates: &'a [Arc<Certificate>],
    pub(crate) anchors: &'a dyn AnchorLookup,
    pub(crate) verifier: &'a dyn SignatureVerifier,
    pub(crate) opts: PathOptions<'a>,
    pub(crate) budget: Budget,
}

fn check_time(c: &Certificate, now: UnixTime) -> Result<(), Error> {
    if now < c.not_before {
        return Err(Error::NotYetValid);
    }
    if now > c.not_after {
        return Err(Error::Expired);
    }
    Ok(())
}

/// Checks on the end-entity certificate that do not depend on the path.
pub(crate) fn check_leaf(leaf: &Certificate, opts: &PathOptions<'_>) -> Result<(), Error> {
    if leaf.ext.unsupported_critical {
        return Err(Error::UnsupportedCriticalExtension);
    }
    if leaf.issuer_empty {
        return Err(Error::Invalid("empty issuer name"));
    }
    if !leaf.is_ca() && leaf.ext.name_constraints.is_some() {
        return Err(Error::Invalid(
            "nameConstraints in an end-entity certificate",
        ));
    }
    if !leaf.self_issued() && leaf.version == 2 && leaf.ext.authority_key_id.is_none() {
        return Err(Error::Invalid("authorityKeyIdentifier missing"));
    }
    if let Some(eku) = leaf.ext.eku {
        if !eku.server_auth {
            return Err(Error::ExtendedKeyUsageForbidden);
        }
    }
    if let Some(bits) = leaf.ext.key_usage {
        if bits & opts.leaf_key_usage != opts.leaf_key_usage {
            return Err(Error::KeyUsageForbidden);
        }
    }
    if leaf.key.is_none() {
        return Err(Error::UnsupportedSignatureAlgorithm);
    }
    check_time(leaf, opts.now)
}

/// Checks a certificate acting as an issuer (intermediate or anchor).
fn check_issuer(c: &Certificate, now: UnixTime) -> Result<(), Error> {
    if c.ext.unsupported_critical {
        return Err(Error::UnsupportedCriticalExtension);
    }
    if c.version == 2 {
        match c.ext.basic {
            Some(b) if b.ca => {
                if !b.critical {
                    return Err(Error::Invalid("non-critical basicConstraints in a CA"));
                }
            }
            _ => return Err(Error::IssuerNotCa),
        }
        if c.ext.subject_key_id.is_none() {
            return Err(Error::Invalid("subjectKeyIdentifier missing in a CA"));
        }
    }
    if c.subject_empty {
        return Err(Error::Invalid("empty subject in a CA"));
    }
    if let Some(bits) = c.ext.key_usage {
        if bits & ku::KEY_CERT_SIGN == 0 {
            return Err(Error::KeyUsageForbidden);
        }
    }
    if let Some(eku) = c.ext.eku {
        if !eku.server_auth && !eku.any {
            return Err(Error::ExtendedKeyUsageForbidden);
        }
    }
    check_time(c, now)
}

/// Extra rules for trust anchors (CABF profile of root certificates).
fn check_anchor(c: &Certificate, now: UnixTime) -> Result<(), Error> {
    if c.version != 2 {
        // v1 roots carry no constraints; accept them as anchors (never as intermediates).
        if c.ext.basic.is_some() {
            return Err(Error::Invalid("extensions in a v1 root"));
        }
        return check_time(c, now);
    }
    if c.ext.aki_has_issuer_or_serial {
        return Err(Error::Invalid(
            "root authorityKeyIdentifier names an issuer/serial",
        ));
    }
    if c.self_issued() {
        if let (Some(aki), Some(ski)) = (&c.ext.authority_key_id, &c.ext.subject_key_id) {
            if aki != ski {
                return Err(Error::Invalid(
                    "self-signed root whose AKI differs from its SKI",
                ));
            }
        }
    }
    check_issuer(c, now)
}

/// Whether `issuer` may be `child`'s issuer by name and key-identifier hints.
fn may_issue(issuer: &Certificate, child: &Certificate) -> bool {
    if issuer.subject != child.issuer {
        return false;
    }
    match (&child.ext.authority_key_id, &issuer.ext.subject_key_id) {
        (Some(aki), Some(ski)) => aki == ski,
        _ => true,
    }
}

impl PathBuilder<'_> {
    /// Builds and validates a path for `leaf` (already checked with [`check_leaf`]).
    pub(crate) fn build(&mut self, leaf: &Arc<Certificate>) -> Result<ValidPath, Error> {
        let mut path = vec![leaf.clone()];
        self.extend(&mut path)
    }

    fn extend(&mut self, path: &mut Vec<Arc<Certificate>>) -> Result<ValidPath, Error> {
        let Some(child) = path.last().cloned() else {
            return Err(Error::Untrusted);
        };
        let mut best = Error::Untrusted;
        for anchor in self.anchors.find(&child.issuer) {
            self.budget.spend_step()?;
            if !may_issue(&anchor, &child) {
                continue;
            }
            match self.try_anchor(path, &anchor) {
                Ok(p) => return Ok(p),
                Err(e) if e.is_fatal() => return Err(e),
                Err(e) => best = best.most_specific(e),
            }
        }
        let intermediates = self.intermediates;
        for cand in intermediates {
            if !may_issue(cand, &child) {
                continue;
            }
            self.budget.spend_step()?;
            if path
                .iter()
                .any(|p| p.subject == cand.subject && p.spki == cand.spki)
            {
                continue; // loop
            }
            let depth = path.len().saturating_sub(1);
            let logical = path
                .iter()
                .skip(1)
                .chain(core::iter::once(cand))
                .filter(|c| !c.self_issued())
                .count();
            if logical > self.opts.max_intermediates || depth >= MAX_INTERMEDIATES {
                best = best.most_specific(Error::PathTooLong);
                continue;
            }
            if let Err(e) = self.check_intermediate(cand, path) {
                best = best.most_specific(e);
                continue;
            }
            path.push(cand.clone());
            let r = self.extend(path);
            path.pop();
            match r {
                Ok(p) => return Ok(p),
                Err(e) if e.is_fatal() => return Err(e),
                Err(e) => best = best.most_specific(e),
            }
        }
        Err(best)
    }

    fn check_intermediate(
        &self,
        cand: &Certificate,
        path: &[Arc<Certificate>],
    ) -> Result<(), Error> {
        if cand.version != 2 {
            return Err(Error::IssuerNotCa);
        }
        check_issuer(cand, self.opts.now)?;
        if !cand.self_issued() && cand.ext.authority_key_id.is_none() {
            return Err(Error::Invalid("authorityKeyIdentifier missing"));
        }
        check_path_len(cand, path)
    }

    fn try_anchor(
        &mut self,
        path: &[Arc<Certificate>],
        anchor: &Arc<Certificate>,
    ) -> Result<ValidPath, Error> {
        check_anchor(anchor, self.opts.now)?;
        check_path_len(anchor, path)?;
        // Name constraints of every CA apply to everything below it (self-issued
        // intermediates excepted, RFC 5280 §6.1.4(b)).
        let mut full: Vec<Arc<Certificate>> = path.to_vec();
        full.push(anchor.clone());
        for (i, ca) in full.iter().enumerate().skip(1) {
            if let Some(nc) = &ca.ext.name_constraints {
                for (j, below) in full.iter().enumerate().take(i) {
                    if j > 0 && below.self_issued() {
                        continue;
                    }
                    constraints::check(nc, below, &mut self.budget)?;
                }
            }
        }
        // Signatures, from the anchor down.
        for pair in full.windows(2).rev() {
            if let [child, issuer] = pair {
                self.check_signature(child, issuer)?;
            }
        }
        if let Some(pins) = self.opts.pins {
            let hashes: Vec<SpkiHash> = full.iter().map(|c| spki_sha256(&c.spki)).collect();
            if !hashes.iter().any(|h| pins.contains(h)) {
                return Err(Error::PinMismatch(SeenPins::from_path(&hashes)));
            }
        }
        Ok(ValidPath { certs: full })
    }

    fn check_signature(&mut self, child: &Certificate, issuer: &Certificate) -> Result<(), Error> {
        self.budget.spend_signature()?;
        let algorithm = crate::alg::bind(child.sig_alg, issuer.key)?;
        let req = SignatureRequest {
            algorithm,
            spki: &issuer.spki,
            message: &child.tbs,
            signature: &child.signature,
        };
        self.verifier.verify(&req).map_err(|e| match e {
            SignatureFailure::Invalid => Error::BadSignature,
            _ => Error::UnsupportedSignatureAlgorithm,
        })
    }
}

/// pathLenConstraint of `ca`: the non-self-issued intermediates below it (the leaf excluded)
/// may not outnumber it.
fn check_path_len(ca: &Certificate, below: &[Arc<Certificate>]) -> Result<(), Error> {
    let Some(limit) = ca.ext.basic.and_then(|b| b.path_len) else {
        return Ok(());
    };
    let n = below.iter().skip(1).filter(|c| !c.self_issued()).count();
    if u64::try_from(n).unwrap_or(u64::MAX) > limit {
        return Err(Error::PathLenExceeded);
    }
    Ok(())
}
