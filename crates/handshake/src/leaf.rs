//! The leaf certificate's SubjectPublicKeyInfo (RFC 5280 §4.1), the key that signs
//! CertificateVerify and the TLS 1.2 ServerKeyExchange. Read with burrow-der, the strict reader
//! burrow-x509 validates the same certificate with, so the two cannot disagree about where the
//! key is (no lenient second parse of peer bytes). Full X.509 validation lives in burrow-x509.

use burrow_der::{tag, Reader};

use crate::Error;

/// The DER of the certificate's SubjectPublicKeyInfo (its whole SEQUENCE).
pub(crate) fn spki_of(cert: &[u8]) -> Result<&[u8], Error> {
    Reader::new(cert)
        .exactly(|r| {
            r.nested(tag::SEQUENCE, |c| {
                let tbs = c.read(tag::SEQUENCE)?;
                // signatureAlgorithm, signatureValue: their contents are burrow-x509's concern.
                c.read(tag::SEQUENCE)?;
                c.read(tag::BIT_STRING)?;
                let mut t = Reader::new(tbs);
                t.read_optional(tag::ctx_cons(0))?; // version
                t.read(tag::INTEGER)?; // serialNumber
                for _ in 0..4 {
                    // signature, issuer, validity, subject
                    t.read(tag::SEQUENCE)?;
                }
                // issuerUniqueID, subjectUniqueID and extensions may follow.
                Ok(t.read_tlv(tag::SEQUENCE)?.raw)
            })
        })
        .map_err(|_| Error::BadCertificate)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal certificate shape: SEQUENCE { tbs, alg, sig } with the given tbs contents.
    fn cert(tbs: &[u8]) -> Vec<u8> {
        let mut body = vec![0x30, u8::try_from(tbs.len()).unwrap()];
        body.extend_from_slice(tbs);
        body.extend_from_slice(&[0x30, 0x00, 0x03, 0x01, 0x00]);
        let mut c = vec![0x30, u8::try_from(body.len()).unwrap()];
        c.extend(body);
        c
    }

    const SPKI: [u8; 6] = [0x30, 0x04, 0x30, 0x00, 0x03, 0x00];

    fn tbs(version: bool) -> Vec<u8> {
        let mut t = Vec::new();
        if version {
            t.extend_from_slice(&[0xa0, 0x03, 0x02, 0x01, 0x02]);
        }
        t.extend_from_slice(&[0x02, 0x01, 0x01]); // serial
        t.extend_from_slice(&[0x30, 0x00, 0x30, 0x00, 0x30, 0x00, 0x30, 0x00]);
        t.extend_from_slice(&SPKI);
        t.extend_from_slice(&[0xa3, 0x00]); // extensions
        t
    }

    #[test]
    fn finds_the_key_with_and_without_version() {
        assert_eq!(spki_of(&cert(&tbs(true))).unwrap(), &SPKI);
        assert_eq!(spki_of(&cert(&tbs(false))).unwrap(), &SPKI);
    }

    #[test]
    fn refuses_what_burrow_x509_refuses() {
        // A non-minimal length (0x81 0x04) on the key: BER, not DER. The old lenient reader
        // found the key anyway; burrow-x509 refuses the certificate, so this does too.
        let mut t = tbs(true);
        let at = t.len() - SPKI.len() - 2;
        t.splice(at..at + 2, [0x30, 0x81, 0x04]);
        assert_eq!(spki_of(&cert(&t)), Err(Error::BadCertificate));
        // Trailing bytes after the certificate.
        let mut c = cert(&tbs(true));
        c.push(0);
        assert_eq!(spki_of(&c), Err(Error::BadCertificate));
        // A field of the wrong type where the serial number goes.
        let mut t = tbs(false);
        t[0] = 0x04;
        assert_eq!(spki_of(&cert(&t)), Err(Error::BadCertificate));
        // Every truncation.
        let c = cert(&tbs(true));
        for n in 0..c.len() {
            assert!(spki_of(&c[..n]).is_err(), "cut {n}");
        }
    }
}
