//! Certificate parsing (RFC 5280 §4.1) into an owned, minimal structure.

use crate::alg::{read_sig_alg, read_signer_key, SigAlg, SignerKey};
use crate::ext::{parse_extensions, Extensions};
use crate::time::{read_time, UnixTime};
use crate::Error;
use burrow_der::{tag, Error as DerError, Reader, Result as DerResult};

/// Largest certificate accepted (DER bytes).
pub const MAX_CERT_LEN: usize = 64 * 1024;

/// A parsed X.509 v1/v3 certificate, owning its DER.
#[derive(Debug, Clone)]
pub struct Certificate {
    pub(crate) der: Vec<u8>,
    pub(crate) tbs: Vec<u8>,
    pub(crate) sig_alg: SigAlg,
    pub(crate) signature: Vec<u8>,
    pub(crate) version: u64,
    pub(crate) serial: Vec<u8>,
    pub(crate) issuer: Vec<u8>,
    pub(crate) subject: Vec<u8>,
    pub(crate) subject_empty: bool,
    pub(crate) issuer_empty: bool,
    pub(crate) not_before: UnixTime,
    pub(crate) not_after: UnixTime,
    pub(crate) spki: Vec<u8>,
    pub(crate) key: SignerKey,
    pub(crate) ext: Extensions,
}

/// Which rules a certificate is parsed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rules {
    /// A certificate the peer sent, under validation: RFC 5280 strictly.
    Presented,
    /// A trust anchor: trusted input, configured by the user or bundled. As in webpki and
    /// pyca/cryptography, the serial number is not judged (RFC 5280 §4.1.2.2's "positive
    /// integer" is a rule for issuing CAs, and six Mozilla roots have serial 0); everything
    /// else the path needs (names, key, extensions) is parsed as strictly as ever.
    Anchor,
}

impl Certificate {
    /// Parses one DER certificate strictly. Errors are [`Error::Invalid`] naming the part.
    pub fn from_der(der: &[u8]) -> Result<Certificate, Error> {
        Certificate::parse_with(der, Rules::Presented)
    }

    /// Parses a trust anchor: the rules of [`Certificate::from_der`] except that the serial
    /// number may be zero or longer than 20 octets (a trust anchor is trusted input, not a
    /// certificate under validation; webpki and pyca/cryptography do not judge it either).
    pub fn from_der_trust_anchor(der: &[u8]) -> Result<Certificate, Error> {
        Certificate::parse_with(der, Rules::Anchor)
    }

    pub(crate) fn parse_with(der: &[u8], rules: Rules) -> Result<Certificate, Error> {
        if der.len() > MAX_CERT_LEN {
            return Err(Error::Invalid("certificate too large"));
        }
        parse(der, rules).map_err(|e| Error::Invalid(e.as_str()))
    }

    /// The DER encoding.
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    /// The SubjectPublicKeyInfo, DER.
    pub fn spki(&self) -> &[u8] {
        &self.spki
    }

    /// The subject Name, DER.
    pub fn subject(&self) -> &[u8] {
        &self.subject
    }

    /// The issuer Name, DER.
    pub fn issuer(&self) -> &[u8] {
        &self.issuer
    }

    /// The serial number (magnitude bytes).
    pub fn serial(&self) -> &[u8] {
        &self.serial
    }

    /// notBefore and notAfter, seconds since the Unix epoch.
    pub fn validity(&self) -> (UnixTime, UnixTime) {
        (self.not_before, self.not_after)
    }

    /// Whether issuer and subject are the same name (RFC 5280 "self-issued").
    pub(crate) fn self_issued(&self) -> bool {
        self.issuer == self.subject
    }

    /// basicConstraints cA.
    pub(crate) fn is_ca(&self) -> bool {
        self.ext.basic.is_some_and(|b| b.ca)
    }
}

fn parse(der: &[u8], rules: Rules) -> DerResult<Certificate> {
    Reader::new(der).exactly(|r| {
        r.nested(tag::SEQUENCE, |c| {
            let tbs = c.read_tlv(tag::SEQUENCE)?;
            let outer_alg_tlv = {
                let mut peek = *c;
                peek.read_tlv(tag::SEQUENCE)?.raw
            };
            let sig_alg = read_sig_alg(c)?;
            let signature = c.read_bit_string_bytes()?.to_vec();
            let mut cert = parse_tbs(tbs.value, outer_alg_tlv, rules)?;
            cert.der = der.to_vec();
            cert.tbs = tbs.raw.to_vec();
            cert.sig_alg = sig_alg;
            cert.signature = signature;
            Ok(cert)
        })
    })
}

fn parse_tbs(tbs: &[u8], outer_alg: &[u8], rules: Rules) -> DerResult<Certificate> {
    Reader::new(tbs).exactly(|t| {
        let version = match t.read_optional(tag::ctx_cons(0))? {
            Some(v) => {
                let v = Reader::new(v).exactly(|v| v.read_small_uint())?;
                if v == 0 {
                    return Err(DerError::Invalid("explicit DEFAULT version v1"));
                }
                if v > 2 {
                    return Err(DerError::Invalid("unknown version"));
                }
                v
            }
            None => 0,
        };
        let serial = t.read(tag::INTEGER)?;
        let serial = burrow_der::integer_bytes(serial)
            .map_err(|_| DerError::Invalid("malformed or negative serial number"))?
            .to_vec();
        if rules == Rules::Presented {
            if serial.len() > 20 {
                return Err(DerError::Invalid("serial number longer than 20 octets"));
            }
            if serial.iter().all(|b| *b == 0) {
                return Err(DerError::Invalid("serial number zero"));
            }
        }
        let inner_alg = t.read_tlv(tag::SEQUENCE)?;
        if inner_alg.raw != outer_alg {
            return Err(DerError::Invalid(
                "signature algorithm differs inside and outside TBSCertificate",
            ));
        }
        let issuer = t.read_tlv(tag::SEQUENCE)?;
        check_name(issuer.value)?;
        let (not_before, not_after) =
            t.nested(tag::SEQUENCE, |v| Ok((read_time(v)?, read_time(v)?)))?;
        let subject = t.read_tlv(tag::SEQUENCE)?;
        check_name(subject.value)?;
        let spki = t.read_tlv(tag::SEQUENCE)?;
        let key = read_signer_key(spki.raw)?;
        if t.peek_tag() == Some(tag::ctx_prim(1)) || t.peek_tag() == Some(tag::ctx_cons(1)) {
            if version < 1 {
                return Err(DerError::Invalid("issuerUniqueID in a v1 certificate"));
            }
            t.read_any()?;
        }
        if t.peek_tag() == Some(tag::ctx_prim(2)) || t.peek_tag() == Some(tag::ctx_cons(2)) {
            if version < 1 {
                return Err(DerError::Invalid("subjectUniqueID in a v1 certificate"));
            }
            t.read_any()?;
        }
        let ext = match t.read_optional(tag::ctx_cons(3))? {
            Some(exts) => {
                if version != 2 {
                    return Err(DerError::Invalid("extensions in a non-v3 certificate"));
                }
                parse_extensions(exts)?
            }
            None => Extensions::default(),
        };
        Ok(Certificate {
            der: Vec::new(),
            tbs: Vec::new(),
            sig_alg: None,
            signature: Vec::new(),
            version,
            serial,
            issuer_empty: issuer.value.is_empty(),
            issuer: issuer.raw.to_vec(),
            subject_empty: subject.value.is_empty(),
            subject: subject.raw.to_vec(),
            not_before,
            not_after,
            spki: spki.raw.to_vec(),
            key,
            ext,
        })
    })
}

/// Checks `Name` contents: SEQUENCE OF RelativeDistinguishedName (SET SIZE (1..MAX) OF
/// AttributeTypeAndValue { OID, ANY }).
pub(crate) fn check_name(contents: &[u8]) -> DerResult<()> {
    let mut r = Reader::new(contents);
    while !r.is_empty() {
        let rdn = r.read(tag::SET)?;
        let mut s = Reader::new(rdn);
        if s.is_empty() {
            return Err(DerError::Invalid("empty RDN"));
        }
        while !s.is_empty() {
            s.nested(tag::SEQUENCE, |a| {
                a.read(tag::OID)?;
                a.read_any()?;
                Ok(())
            })?;
        }
    }
    Ok(())
}

/// The RDNs of a Name (whole TLV), each as raw SET bytes, for directoryName constraints.
pub(crate) fn rdns(name_tlv: &[u8]) -> DerResult<Vec<&[u8]>> {
    Reader::new(name_tlv).exactly(|r| {
        r.nested(tag::SEQUENCE, |n| {
            let mut out = Vec::new();
            while !n.is_empty() {
                out.push(n.read_tlv(tag::SET)?.raw);
            }
            Ok(out)
        })
    })
}
