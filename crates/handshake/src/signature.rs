//! Signature checks on the server's handshake: which algorithm a scheme means for the leaf's
//! key, and the check itself (TLS 1.3 CertificateVerify, TLS 1.2 ServerKeyExchange). The key is
//! found by `leaf.rs` (burrow-der, strict); kept apart so that these functions can be replaced
//! by burrow-crypto's owner of "key + scheme -> algorithm".

use crate::suites::Auth;
use crate::{Error, SignatureScheme};
use burrow_crypto::sig::{self, PublicKeyInfo, VerifyAlgorithm};
use burrow_crypto::CryptoError;

/// The TLS 1.3 CertificateVerify content.
pub(crate) fn signed_message(transcript_hash: &[u8]) -> Vec<u8> {
    let mut m = vec![0x20u8; 64];
    m.extend_from_slice(b"TLS 1.3, server CertificateVerify\0");
    m.extend_from_slice(transcript_hash);
    m
}

/// The verification algorithm for a scheme allowed in a TLS 1.3 CertificateVerify
/// (burrow-crypto owns the mapping).
pub(crate) fn algorithm(s: SignatureScheme) -> Option<VerifyAlgorithm> {
    sig::tls13_algorithm(s.0)
}

/// The leaf's key, parsed once, and the algorithm `s` means for it in a TLS 1.3
/// CertificateVerify: an unknown scheme is `UnofferedSignatureScheme`, a key that cannot sign
/// with it (wrong type, curve or RSA key kind) or does not parse `BadCertificate`.
pub(crate) fn tls13_key(
    s: SignatureScheme,
    leaf: &[u8],
) -> Result<(PublicKeyInfo<'_>, VerifyAlgorithm, &[u8]), Error> {
    algorithm(s).ok_or(Error::UnofferedSignatureScheme)?;
    let spki = crate::leaf::spki_of(leaf)?;
    let key = PublicKeyInfo::parse(spki).map_err(|_| Error::BadCertificate)?;
    // The key's own mapping: it also holds the RSA key kind to the scheme (rsae / pss).
    let alg = key.tls13_algorithm(s.0).ok_or(Error::BadCertificate)?;
    Ok((key, alg, spki))
}

/// The leaf's key, parsed once, and the algorithm `s` means for it in a TLS 1.2
/// ServerKeyExchange, where an ECDSA scheme names only the hash and the curve is the key's.
/// The caller has checked that `s` was offered and fits the suite, so a `None` from
/// burrow-crypto means the key cannot sign with it: `BadCertificate`.
pub(crate) fn tls12_key(
    s: SignatureScheme,
    leaf: &[u8],
) -> Result<(PublicKeyInfo<'_>, VerifyAlgorithm, &[u8]), Error> {
    let spki = crate::leaf::spki_of(leaf)?;
    let key = PublicKeyInfo::parse(spki).map_err(|_| Error::BadCertificate)?;
    let alg = key.tls12_algorithm(s.0).ok_or(Error::BadCertificate)?;
    Ok((key, alg, spki))
}

/// Whether TLS 1.3 allows `s` in CertificateVerify at all (no PKCS#1 v1.5, no SHA-1).
pub(crate) fn allowed_in_tls13(s: SignatureScheme) -> bool {
    let [hi, lo] = s.0.to_be_bytes();
    !(lo == 0x01 || lo == 0x02 || hi == 0x02)
}

/// Checks the CertificateVerify signature against the leaf certificate's key.
pub(crate) fn check_inline(
    s: SignatureScheme,
    leaf: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let (key, alg, _) = tls13_key(s, leaf)?;
    key.verify(alg, message, signature).map_err(|e| match e {
        CryptoError::BadSignature => Error::BadCertificateVerify,
        // A key we refuse (too small, wrong type for the scheme, unparseable) is a certificate problem.
        _ => Error::BadCertificate,
    })
}

/// Whether a scheme can sign for the suite's authentication (ECDHE_ECDSA also covers Ed25519,
/// RFC 8422 §5.1.1; no SHA-1).
pub(crate) fn scheme_fits(auth: Auth, s: SignatureScheme) -> bool {
    match auth {
        Auth::Ecdsa => matches!(
            s,
            SignatureScheme::ECDSA_SECP256R1_SHA256
                | SignatureScheme::ECDSA_SECP384R1_SHA384
                | SignatureScheme::ECDSA_SECP521R1_SHA512
                | SignatureScheme::ED25519
        ),
        Auth::Rsa => matches!(
            s,
            SignatureScheme::RSA_PKCS1_SHA256
                | SignatureScheme::RSA_PKCS1_SHA384
                | SignatureScheme::RSA_PKCS1_SHA512
                | SignatureScheme::RSA_PSS_RSAE_SHA256
                | SignatureScheme::RSA_PSS_RSAE_SHA384
                | SignatureScheme::RSA_PSS_RSAE_SHA512
        ),
    }
}

/// Checks the TLS 1.2 ServerKeyExchange signature against the leaf certificate's key.
pub(crate) fn check_signature(
    s: SignatureScheme,
    leaf: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let (key, alg, _) = tls12_key(s, leaf)?;
    key.verify(alg, message, signature).map_err(|e| match e {
        CryptoError::BadSignature => Error::BadKeyExchangeSignature,
        _ => Error::BadCertificate,
    })
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
        let alg = if pss {
            seq(&[&oid(&[
                0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a,
            ])])
        } else {
            seq(&[
                &oid(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]),
                &null(),
            ])
        };
        let spki = seq(&[&alg, &bit_string(&key)]);
        let empty = seq(&[]);
        let tbs = seq(&[&tlv(0x02, &[1]), &empty, &empty, &empty, &empty, &spki]);
        seq(&[&tbs, &empty, &bit_string(&[])])
    }

    #[test]
    fn a_tls13_rsa_pss_scheme_must_fit_the_key_oid() {
        // RFC 8446 §4.2.3: a server signing rsa_pss_pss_* with an rsaEncryption certificate
        // (or rsa_pss_rsae_* with an id-RSASSA-PSS one) has a certificate unfit for it.
        use SignatureScheme as S;
        let rsae = rsa_leaf(false);
        let pss = rsa_leaf(true);
        assert!(tls13_key(S::RSA_PSS_RSAE_SHA256, &rsae).is_ok());
        assert!(tls13_key(S(0x0809), &pss).is_ok());
        assert_eq!(
            tls13_key(S(0x0809), &rsae).map(|(_, a, _)| a),
            Err(Error::BadCertificate)
        );
        assert_eq!(
            tls13_key(S::RSA_PSS_RSAE_SHA256, &pss).map(|(_, a, _)| a),
            Err(Error::BadCertificate)
        );
    }

    #[test]
    fn only_rsa_schemes_sign_for_ecdhe_rsa() {
        use SignatureScheme as S;
        for s in [
            S::RSA_PKCS1_SHA256,
            S::RSA_PSS_RSAE_SHA384,
            S::RSA_PKCS1_SHA512,
        ] {
            assert!(
                scheme_fits(Auth::Rsa, s) && !scheme_fits(Auth::Ecdsa, s),
                "{s:?}"
            );
        }
        for s in [S::ECDSA_SECP256R1_SHA256, S::ED25519, S(0x0201)] {
            assert!(!scheme_fits(Auth::Rsa, s), "{s:?}");
        }
    }
}
