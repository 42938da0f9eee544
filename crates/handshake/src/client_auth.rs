//! Client certificates (RFC 8446 §4.3.2, §4.4.2, §4.4.3; RFC 5246 §7.4.4, §7.4.6, §7.4.8):
//! what the server's CertificateRequest asks for, which of our schemes answers it, and the
//! signature the caller makes ([`Event::NeedSign`](crate::Event::NeedSign)).
//!
//! The private key never enters this crate: the connection knows the chain and asks the caller
//! to sign, as it asks the caller to verify. Choice, as rustls's single-certificate resolver
//! makes it: the configured certificate is sent whenever its key can sign with one of the
//! server's signature_algorithms (our profile's order first); `certificate_authorities` is
//! parsed and checked but not used to withhold it (a hint: the server judges the chain, and a
//! client with one certificate has nothing better to send). No usable scheme (or no
//! certificate configured): an empty Certificate and no CertificateVerify, as browsers do;
//! the server decides whether to go on.

use crate::codec::Reader;
use crate::messages;
use crate::{Error, ExtensionType, SignatureScheme};
use burrow_crypto::sig::{PublicKeyInfo, VerifyAlgorithm};

/// A client certificate chain to offer when asked: DER certificates, leaf first. The key stays
/// with the caller, who answers [`Event::NeedSign`](crate::Event::NeedSign).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientCertificate {
    /// DER certificates, leaf first (never empty).
    pub chain: Vec<Vec<u8>>,
}

/// Sign this message for the CertificateVerify, then answer with
/// [`Connection::complete_sign`](crate::Connection::complete_sign).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignRequest {
    /// The scheme chosen from the server's list.
    pub scheme: SignatureScheme,
    /// What the scheme means for the leaf's key (burrow-crypto's mapping); ECDSA signatures
    /// are DER, RSA raw, Ed25519 64 bytes.
    pub algorithm: VerifyAlgorithm,
    /// The bytes to sign (TLS 1.3: the 64 spaces, context string and transcript hash; TLS 1.2:
    /// every handshake message so far). Not secret.
    pub message: Vec<u8>,
}

/// What a TLS 1.3 CertificateRequest asked (RFC 8446 §4.3.2).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct CertificateRequest13<'a> {
    /// certificate_request_context, echoed in our Certificate.
    pub(crate) context: &'a [u8],
    /// signature_algorithms (required).
    pub(crate) schemes: Vec<SignatureScheme>,
    /// How many distinguished names certificate_authorities listed (`None`: absent).
    pub(crate) authorities: Option<usize>,
}

/// A signature_algorithms list (a u16 list of 2..2^16-2 bytes).
fn scheme_list(b: &[u8]) -> Result<Vec<SignatureScheme>, Error> {
    if b.is_empty() || b.len() % 2 != 0 {
        return Err(Error::Decode);
    }
    let mut r = Reader::new(b);
    let mut out = Vec::with_capacity(b.len() / 2);
    while !r.is_empty() {
        out.push(SignatureScheme(r.u16()?));
    }
    Ok(out)
}

/// A certificate_authorities list (RFC 8446 §4.2.4: `DistinguishedName authorities<3..2^16-1>`,
/// each `opaque DistinguishedName<1..2^16-1>`); `allow_empty` for TLS 1.2's `<0..2^16-1>`.
/// Returns how many names it holds; the names themselves are not kept.
fn authority_list(b: &[u8], allow_empty: bool) -> Result<usize, Error> {
    if b.is_empty() && !allow_empty {
        return Err(Error::Decode);
    }
    let mut r = Reader::new(b);
    let mut n = 0usize;
    while !r.is_empty() {
        if r.vec16()?.is_empty() {
            return Err(Error::Decode);
        }
        n = n.saturating_add(1);
    }
    Ok(n)
}

/// Parses a TLS 1.3 CertificateRequest body. Extensions other than signature_algorithms and
/// certificate_authorities are ignored (RFC 8446 §4.3.2: "Clients MUST ignore unrecognized
/// extensions"); a repeated extension is refused.
pub(crate) fn certificate_request13(body: &[u8]) -> Result<CertificateRequest13<'_>, Error> {
    let mut r = Reader::new(body);
    let context = r.vec8()?;
    let exts = messages::extensions(&mut r)?;
    r.finish()?;
    let (mut schemes, mut authorities) = (None, None);
    for (i, (t, b)) in exts.iter().enumerate() {
        if exts.iter().skip(i.saturating_add(1)).any(|(u, _)| u == t) {
            return Err(Error::IllegalParameter);
        }
        match *t {
            ExtensionType::SIGNATURE_ALGORITHMS => {
                let mut e = Reader::new(b);
                let list = e.vec16()?;
                e.finish()?;
                schemes = Some(scheme_list(list)?);
            }
            ExtensionType::CERTIFICATE_AUTHORITIES => {
                let mut e = Reader::new(b);
                let list = e.vec16()?;
                e.finish()?;
                authorities = Some(authority_list(list, false)?);
            }
            _ => {}
        }
    }
    Ok(CertificateRequest13 {
        context,
        schemes: schemes.ok_or(Error::MissingExtension)?,
        authorities,
    })
}

/// What a TLS 1.2 CertificateRequest asked (RFC 5246 §7.4.4).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct CertificateRequest12 {
    /// ClientCertificateType values (rsa_sign 1, ecdsa_sign 64, ...).
    pub(crate) types: Vec<u8>,
    pub(crate) schemes: Vec<SignatureScheme>,
    pub(crate) authorities: usize,
}

/// rsa_sign(1).
const RSA_SIGN: u8 = 1;
/// ecdsa_sign(64): ECDSA, and Ed25519 (RFC 8422 §5.5).
const ECDSA_SIGN: u8 = 64;

/// Parses a TLS 1.2 CertificateRequest body.
pub(crate) fn certificate_request12(body: &[u8]) -> Result<CertificateRequest12, Error> {
    let mut r = Reader::new(body);
    let types = r.vec8()?;
    let schemes = scheme_list(r.vec16()?)?;
    let authorities = authority_list(r.vec16()?, true)?;
    r.finish()?;
    if types.is_empty() {
        return Err(Error::Decode);
    }
    Ok(CertificateRequest12 {
        types: types.to_vec(),
        schemes,
        authorities,
    })
}

/// Our answer to a CertificateRequest: the chain and the signature to make, or nothing.
pub(crate) struct Chosen {
    pub(crate) chain: Vec<Vec<u8>>,
    pub(crate) scheme: SignatureScheme,
    pub(crate) algorithm: VerifyAlgorithm,
}

/// The scheme for `cert` among `offered`, in the order of `ours` (the profile's
/// signature_algorithms, then anything else the key can do), or `None`.
pub(crate) fn choose(
    cert: Option<&ClientCertificate>,
    ours: &[SignatureScheme],
    offered: &[SignatureScheme],
    tls13: bool,
) -> Option<Chosen> {
    let cert = cert?;
    let leaf = cert.chain.first()?;
    let spki = crate::leaf::spki_of(leaf).ok()?;
    let key = PublicKeyInfo::parse(spki).ok()?;
    // burrow-crypto's mapping also holds the RSA key kind to the scheme (rsa_pss_rsae_* for
    // rsaEncryption keys, rsa_pss_pss_* for id-RSASSA-PSS ones, RFC 8446 §4.2.3).
    let algorithm_for = |s: SignatureScheme| {
        if tls13 {
            if !crate::signature::allowed_in_tls13(s) {
                return None;
            }
            key.tls13_algorithm(s.0)
        } else {
            key.tls12_algorithm(s.0)
        }
    };
    ours.iter()
        .chain(offered.iter())
        .filter(|s| offered.contains(s))
        .find_map(|&s| algorithm_for(s).map(|a| (s, a)))
        .map(|(scheme, algorithm)| Chosen {
            chain: cert.chain.clone(),
            scheme,
            algorithm,
        })
}

/// TLS 1.2: whether the request's certificate_types admit the algorithm's key type.
pub(crate) fn type_allowed(req: &CertificateRequest12, alg: VerifyAlgorithm) -> bool {
    use VerifyAlgorithm as V;
    let want = match alg {
        V::RsaPkcs1Sha256
        | V::RsaPkcs1Sha384
        | V::RsaPkcs1Sha512
        | V::RsaPssSha256
        | V::RsaPssSha384
        | V::RsaPssSha512 => RSA_SIGN,
        _ => ECDSA_SIGN,
    };
    req.types.contains(&want)
}

/// The TLS 1.3 client CertificateVerify content (RFC 8446 §4.4.3).
pub(crate) fn signed_message13(transcript_hash: &[u8]) -> Vec<u8> {
    let mut m = vec![0x20u8; 64];
    m.extend_from_slice(b"TLS 1.3, client CertificateVerify\0");
    m.extend_from_slice(transcript_hash);
    m
}

/// A Certificate body: TLS 1.3 (context, entries with empty extensions) or TLS 1.2 (a plain
/// u24 list).
pub(crate) fn certificate_body(
    context: Option<&[u8]>,
    chain: &[Vec<u8>],
) -> Result<Vec<u8>, Error> {
    let mut list = Vec::new();
    for c in chain {
        crate::codec::put_vec(&mut list, 3, c)?;
        if context.is_some() {
            crate::codec::put_vec(&mut list, 2, &[])?;
        }
    }
    let mut b = Vec::new();
    if let Some(ctx) = context {
        crate::codec::put_vec(&mut b, 1, ctx)?;
    }
    crate::codec::put_vec(&mut b, 3, &list)?;
    Ok(b)
}

/// A CertificateVerify body: scheme and signature.
pub(crate) fn certificate_verify_body(
    scheme: SignatureScheme,
    signature: &[u8],
) -> Result<Vec<u8>, Error> {
    let mut b = Vec::new();
    crate::codec::put_u16(&mut b, scheme.0);
    crate::codec::put_vec(&mut b, 2, signature)?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_der::writer::{bit_string, null, oid, seq, tlv, unsigned_integer};

    /// A certificate shape around an RSA key (`pss`: id-RSASSA-PSS, else rsaEncryption).
    fn rsa_leaf(pss: bool) -> Vec<u8> {
        let mut n = vec![0x80];
        n.extend([1u8; 255]);
        let key = seq(&[&unsigned_integer(&n), &unsigned_integer(&[1, 0, 1])]);
        let pkcs1 = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01];
        let alg = if pss {
            seq(&[&oid(&[&pkcs1[..], &[0x0a]].concat())])
        } else {
            seq(&[&oid(&[&pkcs1[..], &[0x01]].concat()), &null()])
        };
        let spki = seq(&[&alg, &bit_string(&key)]);
        let empty = seq(&[]);
        let tbs = seq(&[&tlv(0x02, &[1]), &empty, &empty, &empty, &empty, &spki]);
        seq(&[&tbs, &empty, &bit_string(&[])])
    }

    #[test]
    fn an_rsa_pss_scheme_is_chosen_by_the_key_oid() {
        // RFC 8446 §4.2.3, held by burrow-crypto's mapping: the first scheme both sides list
        // that fits the key's kind, in TLS 1.3 and (rsae only) TLS 1.2.
        let schemes = [SignatureScheme(0x0809), SignatureScheme(0x0804)];
        for (pss, tls13, want) in [
            (false, true, Some(0x0804)),
            (true, true, Some(0x0809)),
            (false, false, Some(0x0804)),
            (true, false, None),
        ] {
            let cert = ClientCertificate {
                chain: vec![rsa_leaf(pss)],
            };
            let got = choose(Some(&cert), &schemes, &schemes, tls13).map(|c| c.scheme.0);
            assert_eq!(got, want, "pss key {pss}, TLS 1.3 {tls13}");
        }
    }

    fn req13(ctx: &[u8], schemes: &[u16], cas: Option<&[&[u8]]>) -> Vec<u8> {
        let mut exts = Vec::new();
        let mut list = Vec::new();
        for s in schemes {
            crate::codec::put_u16(&mut list, *s);
        }
        let mut e = Vec::new();
        crate::codec::put_vec(&mut e, 2, &list).unwrap();
        crate::codec::put_u16(&mut exts, 13);
        crate::codec::put_vec(&mut exts, 2, &e).unwrap();
        if let Some(cas) = cas {
            let mut names = Vec::new();
            for n in cas {
                crate::codec::put_vec(&mut names, 2, n).unwrap();
            }
            let mut e = Vec::new();
            crate::codec::put_vec(&mut e, 2, &names).unwrap();
            crate::codec::put_u16(&mut exts, 47);
            crate::codec::put_vec(&mut exts, 2, &e).unwrap();
        }
        let mut b = Vec::new();
        crate::codec::put_vec(&mut b, 1, ctx).unwrap();
        crate::codec::put_vec(&mut b, 2, &exts).unwrap();
        b
    }

    #[test]
    fn tls13_request_parses_schemes_and_authorities() {
        let b = req13(b"ab", &[0x0403, 0x0804], Some(&[b"\x30\x00", b"x"]));
        let r = certificate_request13(&b).unwrap();
        assert_eq!(r.context, b"ab");
        assert_eq!(
            r.schemes,
            vec![SignatureScheme(0x0403), SignatureScheme(0x0804)]
        );
        assert_eq!(r.authorities, Some(2));
        let b = req13(b"", &[0x0807], None);
        let r = certificate_request13(&b).unwrap();
        assert_eq!(r.authorities, None);
    }

    #[test]
    fn tls13_request_refusals_are_typed() {
        // An empty scheme list, an odd one, an empty name, an empty authorities list.
        let mut odd = req13(b"", &[0x0403], None);
        odd.truncate(odd.len() - 1);
        assert!(certificate_request13(&odd).is_err());
        assert_eq!(
            certificate_request13(&req13(b"", &[], None)),
            Err(Error::Decode)
        );
        assert_eq!(
            certificate_request13(&req13(b"", &[0x0403], Some(&[b""]))),
            Err(Error::Decode)
        );
        assert_eq!(
            certificate_request13(&req13(b"", &[0x0403], Some(&[]))),
            Err(Error::Decode)
        );
        // No signature_algorithms at all.
        assert_eq!(
            certificate_request13(&[0, 0, 0]),
            Err(Error::MissingExtension)
        );
    }

    #[test]
    fn no_certificate_or_no_common_scheme_means_none() {
        let offered = [SignatureScheme(0x0403)];
        assert!(choose(None, &offered, &offered, true).is_none());
        let junk = ClientCertificate {
            chain: vec![vec![0x30, 0x00]],
        };
        assert!(choose(Some(&junk), &offered, &offered, true).is_none());
    }

    #[test]
    fn every_prefix_of_a_request_is_refused_without_panic() {
        // The handshake layer hands whole messages; a split message is a shorter body.
        let b = req13(b"ctx", &[0x0403, 0x0503, 0x0807], Some(&[b"\x30\x03abc"]));
        for n in 0..b.len() {
            assert!(certificate_request13(&b[..n]).is_err(), "prefix {n}");
        }
        let mut t12 = vec![2, 1, 64];
        crate::codec::put_vec(&mut t12, 2, &[4, 3, 8, 4]).unwrap();
        crate::codec::put_vec(&mut t12, 2, &[0, 2, 0x30, 0]).unwrap();
        let r = certificate_request12(&t12).unwrap();
        assert_eq!((r.types.as_slice(), r.authorities), (&[1u8, 64][..], 1));
        for n in 0..t12.len() {
            assert!(certificate_request12(&t12[..n]).is_err(), "prefix {n}");
        }
    }
}
