//! Stapled OCSP responses (RFC 6960): strict parse, CertID match against the validated leaf
//! and its issuer, signature by the issuer or a delegated responder, time window, status.

use crate::alg::{
    bind, read_sig_alg, SigAlg, SignatureFailure, SignatureRequest, SignatureVerifier,
};
use crate::cert::Certificate;
use crate::oid;
use crate::time::{parse_generalized, UnixTime};
use crate::Error;
use burrow_der::{tag, Error as DerError, Reader, Result as DerResult};

/// Clock skew tolerated around thisUpdate / nextUpdate, seconds.
pub const OCSP_SKEW_SECS: i64 = 5 * 60;
/// Without nextUpdate, a response is accepted for this long after thisUpdate, seconds.
pub const OCSP_MAX_AGE_WITHOUT_NEXT_UPDATE: i64 = 7 * 24 * 3600;
/// Largest staple accepted (DER bytes).
pub const MAX_OCSP_LEN: usize = 64 * 1024;
const MAX_SINGLE_RESPONSES: usize = 64;
const MAX_RESPONDER_CERTS: usize = 8;

/// What a verified staple said (only `Good` ever verifies; revoked/unknown are errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OcspGood {
    /// thisUpdate, seconds since the epoch.
    pub this_update: UnixTime,
    /// nextUpdate, if the responder gave one.
    pub next_update: Option<UnixTime>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HashAlg {
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

/// CertID hashes. SHA-1 is what most responders use for CertID (it names, it does not sign);
/// burrow-crypto has no SHA-1, so it comes from the `sha1` crate.
fn hash(alg: HashAlg, data: &[u8]) -> Vec<u8> {
    use burrow_crypto::hash::{digest, HashAlgorithm};
    use sha1::Digest;
    match alg {
        HashAlg::Sha1 => sha1::Sha1::digest(data).to_vec(),
        HashAlg::Sha256 => digest(HashAlgorithm::Sha256, data).as_ref().to_vec(),
        HashAlg::Sha384 => digest(HashAlgorithm::Sha384, data).as_ref().to_vec(),
        HashAlg::Sha512 => digest(HashAlgorithm::Sha512, data).as_ref().to_vec(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Good,
    Revoked,
    Unknown,
}

#[derive(Debug, Clone)]
struct Single {
    hash_alg: Option<HashAlg>,
    name_hash: Vec<u8>,
    key_hash: Vec<u8>,
    serial: Vec<u8>,
    status: Status,
    this_update: UnixTime,
    next_update: Option<UnixTime>,
}

#[derive(Debug, Clone)]
enum ResponderId {
    ByName(Vec<u8>),
    ByKey(Vec<u8>),
}

/// A parsed BasicOCSPResponse (owned).
#[derive(Debug, Clone)]
pub struct OcspResponse {
    tbs: Vec<u8>,
    sig_alg: SigAlg,
    signature: Vec<u8>,
    responder: ResponderId,
    responses: Vec<Single>,
    certs: Vec<Certificate>,
}

impl OcspResponse {
    /// Parses a DER OCSPResponse strictly. A non-successful responseStatus or a non-basic
    /// response type is [`Error::OcspInvalid`].
    pub fn from_der(der: &[u8]) -> Result<OcspResponse, Error> {
        if der.len() > MAX_OCSP_LEN {
            return Err(Error::OcspInvalid("response too large"));
        }
        parse(der).map_err(|e| Error::OcspInvalid(e.as_str()))?
    }

    /// Checks this response for `leaf` issued by `issuer` at `now`.
    pub fn check(
        &self,
        leaf: &Certificate,
        issuer: &Certificate,
        now: UnixTime,
        verifier: &dyn SignatureVerifier,
    ) -> Result<OcspGood, Error> {
        let issuer_key =
            subject_public_key_bits(&issuer.spki).map_err(|_| Error::OcspInvalid("issuer key"))?;
        let single = self
            .responses
            .iter()
            .find(|s| {
                let Some(alg) = s.hash_alg else { return false };
                s.serial == leaf.serial
                    && s.name_hash == hash(alg, &issuer.subject)
                    && s.key_hash == hash(alg, issuer_key)
            })
            .ok_or(Error::OcspMismatch)?;
        self.check_signer(issuer, issuer_key, now, verifier)?;
        if single.this_update > now.saturating_add(OCSP_SKEW_SECS) {
            return Err(Error::OcspStale);
        }
        let expiry = single.next_update.unwrap_or(
            single
                .this_update
                .saturating_add(OCSP_MAX_AGE_WITHOUT_NEXT_UPDATE),
        );
        if now.saturating_sub(OCSP_SKEW_SECS) > expiry {
            return Err(Error::OcspStale);
        }
        match single.status {
            Status::Good => Ok(OcspGood {
                this_update: single.this_update,
                next_update: single.next_update,
            }),
            Status::Revoked => Err(Error::OcspRevoked),
            Status::Unknown => Err(Error::OcspUnknown),
        }
    }

    fn responder_is(&self, c: &Certificate, key_bits: &[u8]) -> bool {
        match &self.responder {
            ResponderId::ByName(n) => *n == c.subject,
            ResponderId::ByKey(h) => *h == hash(HashAlg::Sha1, key_bits),
        }
    }

    fn check_signer(
        &self,
        issuer: &Certificate,
        issuer_key: &[u8],
        now: UnixTime,
        verifier: &dyn SignatureVerifier,
    ) -> Result<(), Error> {
        if self.responder_is(issuer, issuer_key) {
            return verify(verifier, self.sig_alg, issuer, &self.tbs, &self.signature);
        }
        // Delegated responder: named by the response, issued (and signed) by the issuer,
        // id-kp-OCSPSigning, valid now.
        for c in &self.certs {
            let Ok(bits) = subject_public_key_bits(&c.spki) else {
                continue;
            };
            if !self.responder_is(c, bits) {
                continue;
            }
            if c.issuer != issuer.subject {
                return Err(Error::OcspInvalid(
                    "delegated responder not issued by the issuer",
                ));
            }
            if !c.ext.eku.is_some_and(|e| e.ocsp_signing) {
                return Err(Error::OcspInvalid(
                    "delegated responder lacks id-kp-OCSPSigning",
                ));
            }
            if now < c.not_before || now > c.not_after {
                return Err(Error::OcspInvalid(
                    "delegated responder certificate not valid now",
                ));
            }
            verify(verifier, c.sig_alg, issuer, &c.tbs, &c.signature)
                .map_err(|_| Error::OcspInvalid("delegated responder certificate signature"))?;
            return verify(verifier, self.sig_alg, c, &self.tbs, &self.signature);
        }
        Err(Error::OcspInvalid(
            "response not signed by the issuer or a delegated responder",
        ))
    }
}

fn verify(
    verifier: &dyn SignatureVerifier,
    alg: SigAlg,
    signer: &Certificate,
    message: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let algorithm =
        bind(alg, signer.key).map_err(|_| Error::OcspInvalid("unsupported signature algorithm"))?;
    let req = SignatureRequest {
        algorithm,
        spki: &signer.spki,
        message,
        signature,
    };
    verifier.verify(&req).map_err(|e| match e {
        SignatureFailure::Invalid => Error::OcspInvalid("bad signature"),
        _ => Error::OcspInvalid("unsupported signature algorithm or key"),
    })
}

/// The subjectPublicKey BIT STRING contents (what OCSP's issuerKeyHash hashes).
fn subject_public_key_bits(spki_tlv: &[u8]) -> DerResult<&[u8]> {
    Reader::new(spki_tlv).exactly(|r| {
        r.nested(tag::SEQUENCE, |s| {
            s.read(tag::SEQUENCE)?;
            s.read_bit_string_bytes()
        })
    })
}

fn parse(der: &[u8]) -> DerResult<Result<OcspResponse, Error>> {
    Reader::new(der).exactly(|r| {
        r.nested(tag::SEQUENCE, |o| {
            let status = o.read(tag::ENUMERATED)?;
            if status != [0] {
                return Ok(Err(Error::OcspInvalid("responseStatus is not successful")));
            }
            let bytes = o.read(tag::ctx_cons(0))?;
            let basic = Reader::new(bytes).exactly(|b| {
                b.nested(tag::SEQUENCE, |rb| {
                    if rb.read(tag::OID)? != oid::OCSP_BASIC {
                        return Err(DerError::Invalid("responseType is not id-pkix-ocsp-basic"));
                    }
                    rb.read(tag::OCTET_STRING)
                })
            })?;
            Ok(Ok(parse_basic(basic)?))
        })
    })
}

fn parse_basic(der: &[u8]) -> DerResult<OcspResponse> {
    Reader::new(der).exactly(|r| {
        r.nested(tag::SEQUENCE, |b| {
            let tbs = b.read_tlv(tag::SEQUENCE)?;
            let sig_alg = read_sig_alg(b)?;
            let signature = b.read_bit_string_bytes()?.to_vec();
            let mut certs = Vec::new();
            if let Some(explicit) = b.read_optional(tag::ctx_cons(0))? {
                let list = Reader::new(explicit).exactly(|l| l.read(tag::SEQUENCE))?;
                let mut l = Reader::new(list);
                while !l.is_empty() {
                    if certs.len() >= MAX_RESPONDER_CERTS {
                        return Err(DerError::Invalid("too many responder certificates"));
                    }
                    let c = l.read_tlv(tag::SEQUENCE)?;
                    certs.push(
                        Certificate::from_der(c.raw)
                            .map_err(|_| DerError::Invalid("responder certificate"))?,
                    );
                }
            }
            let (responder, responses) = parse_tbs(tbs.value)?;
            Ok(OcspResponse {
                tbs: tbs.raw.to_vec(),
                sig_alg,
                signature,
                responder,
                responses,
                certs,
            })
        })
    })
}

fn parse_tbs(tbs: &[u8]) -> DerResult<(ResponderId, Vec<Single>)> {
    Reader::new(tbs).exactly(|t| {
        if let Some(v) = t.read_optional(tag::ctx_cons(0))? {
            let v = Reader::new(v).exactly(|v| v.read_small_uint())?;
            if v != 0 {
                return Err(DerError::Invalid("unknown ResponseData version"));
            }
            return Err(DerError::Invalid("explicit DEFAULT version v1"));
        }
        let responder = match t.peek_tag() {
            Some(x) if x == tag::ctx_cons(1) => {
                let name = t.read(tag::ctx_cons(1))?;
                let n = Reader::new(name).exactly(|n| n.read_tlv(tag::SEQUENCE))?;
                crate::cert::check_name(n.value)?;
                ResponderId::ByName(n.raw.to_vec())
            }
            Some(x) if x == tag::ctx_cons(2) => {
                let key = t.read(tag::ctx_cons(2))?;
                ResponderId::ByKey(
                    Reader::new(key)
                        .exactly(|k| k.read(tag::OCTET_STRING))?
                        .to_vec(),
                )
            }
            _ => return Err(DerError::Invalid("bad ResponderID")),
        };
        parse_generalized(t.read(tag::GENERALIZED_TIME)?)?; // producedAt
        let list = t.read(tag::SEQUENCE)?;
        let mut l = Reader::new(list);
        let mut responses = Vec::new();
        while !l.is_empty() {
            if responses.len() >= MAX_SINGLE_RESPONSES {
                return Err(DerError::Invalid("too many SingleResponses"));
            }
            responses.push(l.nested(tag::SEQUENCE, parse_single)?);
        }
        if responses.is_empty() {
            return Err(DerError::Invalid("no SingleResponse"));
        }
        if let Some(exts) = t.read_optional(tag::ctx_cons(1))? {
            check_extensions(exts)?;
        }
        Ok((responder, responses))
    })
}

fn parse_single(s: &mut Reader<'_>) -> DerResult<Single> {
    let (hash_alg, name_hash, key_hash, serial) = s.nested(tag::SEQUENCE, |c| {
        let hash_alg = c.nested(tag::SEQUENCE, |a| {
            let id = a.read(tag::OID)?;
            if !a.is_empty() && !a.read(tag::NULL)?.is_empty() {
                return Err(DerError::Invalid("bad NULL"));
            }
            Ok(match id {
                x if x == oid::SHA1 => Some(HashAlg::Sha1),
                x if x == oid::SHA256 => Some(HashAlg::Sha256),
                x if x == oid::SHA384 => Some(HashAlg::Sha384),
                x if x == oid::SHA512 => Some(HashAlg::Sha512),
                _ => None,
            })
        })?;
        let name_hash = c.read(tag::OCTET_STRING)?.to_vec();
        let key_hash = c.read(tag::OCTET_STRING)?.to_vec();
        let serial = c.read_unsigned_integer()?.to_vec();
        Ok((hash_alg, name_hash, key_hash, serial))
    })?;
    let st = s.read_any()?;
    let status = match st.tag {
        0x80 if st.value.is_empty() => Status::Good,
        0xa1 => {
            Reader::new(st.value).exactly(|rv| {
                crate::time::read_time(rv)?; // revocationTime
                rv.read_optional(tag::ctx_cons(0))?; // revocationReason
                Ok(())
            })?;
            Status::Revoked
        }
        0x82 if st.value.is_empty() => Status::Unknown,
        _ => return Err(DerError::Invalid("bad CertStatus")),
    };
    let this_update = parse_generalized(s.read(tag::GENERALIZED_TIME)?)?;
    let next_update = s
        .read_optional(tag::ctx_cons(0))?
        .map(|v| Reader::new(v).exactly(|n| parse_generalized(n.read(tag::GENERALIZED_TIME)?)))
        .transpose()?;
    if let Some(exts) = s.read_optional(tag::ctx_cons(1))? {
        check_extensions(exts)?;
    }
    Ok(Single {
        hash_alg,
        name_hash,
        key_hash,
        serial,
        status,
        this_update,
        next_update,
    })
}

/// OCSP extensions: well-formed, no critical ones (none is understood here).
fn check_extensions(explicit: &[u8]) -> DerResult<()> {
    let list = Reader::new(explicit).exactly(|r| r.read(tag::SEQUENCE))?;
    let mut r = Reader::new(list);
    while !r.is_empty() {
        r.nested(tag::SEQUENCE, |e| {
            e.read(tag::OID)?;
            if e.read_default_false()? {
                return Err(DerError::Invalid("unsupported critical OCSP extension"));
            }
            e.read(tag::OCTET_STRING)?;
            Ok(())
        })?;
    }
    Ok(())
}
