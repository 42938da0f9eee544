//! Just enough DER to find a certificate's SubjectPublicKeyInfo (RFC 5280 §4.1). Full X.509
//! validation lives in burrow-x509; this only locates the key that signs CertificateVerify.

use crate::Error;

/// One TLV split off a buffer: (tag, whole TLV, contents, rest).
type Tlv<'a> = (u8, &'a [u8], &'a [u8], &'a [u8]);

/// Splits one TLV off `b`.
fn tlv(b: &[u8]) -> Result<Tlv<'_>, Error> {
    let (&tag, after_tag) = b.split_first().ok_or(Error::BadCertificate)?;
    if tag & 0x1f == 0x1f {
        return Err(Error::BadCertificate);
    }
    let (&first, after_len) = after_tag.split_first().ok_or(Error::BadCertificate)?;
    let (len, body_and_rest) = if first < 0x80 {
        (usize::from(first), after_len)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 3 {
            return Err(Error::BadCertificate);
        }
        let (len_bytes, rest) = after_len.split_at_checked(n).ok_or(Error::BadCertificate)?;
        let mut len = 0usize;
        for &x in len_bytes {
            len = len
                .checked_mul(256)
                .and_then(|l| l.checked_add(usize::from(x)))
                .ok_or(Error::BadCertificate)?;
        }
        (len, rest)
    };
    let (contents, rest) = body_and_rest
        .split_at_checked(len)
        .ok_or(Error::BadCertificate)?;
    let header_len = b
        .len()
        .checked_sub(body_and_rest.len())
        .ok_or(Error::BadCertificate)?;
    let whole_len = header_len.checked_add(len).ok_or(Error::BadCertificate)?;
    let whole = b.get(..whole_len).ok_or(Error::BadCertificate)?;
    Ok((tag, whole, contents, rest))
}

/// The DER of the certificate's SubjectPublicKeyInfo.
pub(crate) fn spki_of(cert: &[u8]) -> Result<&[u8], Error> {
    let (tag, _, cert_body, _) = tlv(cert)?;
    if tag != 0x30 {
        return Err(Error::BadCertificate);
    }
    let (tag, _, tbs, _) = tlv(cert_body)?;
    if tag != 0x30 {
        return Err(Error::BadCertificate);
    }
    let mut rest = tbs;
    let (tag, _, _, r) = tlv(rest)?;
    if tag == 0xa0 {
        rest = r; // explicit version
    }
    // serialNumber, signature, issuer, validity, subject
    for _ in 0..5 {
        let (_, _, _, r) = tlv(rest)?;
        rest = r;
    }
    let (tag, spki, _, _) = tlv(rest)?;
    if tag != 0x30 {
        return Err(Error::BadCertificate);
    }
    Ok(spki)
}
