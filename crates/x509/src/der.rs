//! A strict DER reader (X.690 distinguished encoding) over a borrowed buffer.
//!
//! Everything is bounds-checked through `split_at_checked`; definite, minimal lengths only; tags
//! in the low-number form only (X.509 and OCSP need no others).

/// Why a DER walk stopped. Callers map it to their own error (certificate vs OCSP).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DerError(pub(crate) &'static str);

pub(crate) type DerResult<T> = Result<T, DerError>;

/// Universal and context tags used by X.509 / OCSP.
pub(crate) mod tag {
    pub(crate) const BOOLEAN: u8 = 0x01;
    pub(crate) const INTEGER: u8 = 0x02;
    pub(crate) const BIT_STRING: u8 = 0x03;
    pub(crate) const OCTET_STRING: u8 = 0x04;
    pub(crate) const NULL: u8 = 0x05;
    pub(crate) const OID: u8 = 0x06;
    pub(crate) const ENUMERATED: u8 = 0x0a;
    pub(crate) const UTC_TIME: u8 = 0x17;
    pub(crate) const GENERALIZED_TIME: u8 = 0x18;
    pub(crate) const SEQUENCE: u8 = 0x30;
    pub(crate) const SET: u8 = 0x31;

    /// `[n]` constructed, context-specific.
    pub(crate) const fn ctx_cons(n: u8) -> u8 {
        0xa0 | n
    }
    /// `[n]` primitive, context-specific.
    pub(crate) const fn ctx_prim(n: u8) -> u8 {
        0x80 | n
    }
}

/// A cursor over DER bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
}

/// One element: its tag, its contents and the whole encoding (tag + length + contents).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tlv<'a> {
    pub(crate) tag: u8,
    pub(crate) value: &'a [u8],
    pub(crate) raw: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Reader { data }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next tag without consuming it.
    pub(crate) fn peek_tag(&self) -> Option<u8> {
        self.data.first().copied()
    }

    /// Reads any one element.
    pub(crate) fn read_any(&mut self) -> DerResult<Tlv<'a>> {
        let (&tag, rest) = self
            .data
            .split_first()
            .ok_or(DerError("truncated element"))?;
        if tag & 0x1f == 0x1f {
            return Err(DerError("high-number tag"));
        }
        let (&first, mut rest) = rest.split_first().ok_or(DerError("truncated length"))?;
        let len: usize = if first < 0x80 {
            usize::from(first)
        } else {
            let n = first & 0x7f;
            if n == 0 {
                return Err(DerError("indefinite length"));
            }
            if n > 4 {
                return Err(DerError("length too large"));
            }
            let (bytes, r) = rest
                .split_at_checked(usize::from(n))
                .ok_or(DerError("truncated length"))?;
            rest = r;
            if bytes.first() == Some(&0) {
                return Err(DerError("non-minimal length"));
            }
            let mut v: usize = 0;
            for b in bytes {
                v = v
                    .checked_mul(256)
                    .and_then(|v| v.checked_add(usize::from(*b)))
                    .ok_or(DerError("length overflow"))?;
            }
            if v < 0x80 {
                return Err(DerError("non-minimal length"));
            }
            v
        };
        let (value, after) = rest
            .split_at_checked(len)
            .ok_or(DerError("truncated contents"))?;
        let raw_len = self
            .data
            .len()
            .checked_sub(after.len())
            .ok_or(DerError("length arithmetic"))?;
        let (raw, _) = self
            .data
            .split_at_checked(raw_len)
            .ok_or(DerError("length arithmetic"))?;
        self.data = after;
        Ok(Tlv { tag, value, raw })
    }

    /// Reads an element that must carry `tag`; returns its contents.
    pub(crate) fn read(&mut self, tag: u8) -> DerResult<&'a [u8]> {
        Ok(self.read_tlv(tag)?.value)
    }

    /// Reads an element that must carry `tag`.
    pub(crate) fn read_tlv(&mut self, tag: u8) -> DerResult<Tlv<'a>> {
        if self.peek_tag() != Some(tag) {
            return Err(DerError("unexpected tag"));
        }
        self.read_any()
    }

    /// Reads the element if the next tag is `tag`.
    pub(crate) fn read_optional(&mut self, tag: u8) -> DerResult<Option<&'a [u8]>> {
        if self.peek_tag() == Some(tag) {
            Ok(Some(self.read(tag)?))
        } else {
            Ok(None)
        }
    }

    /// Reads a constructed element with `tag` and hands a reader over its contents to `f`,
    /// which must consume all of it.
    pub(crate) fn nested<T>(
        &mut self,
        tag: u8,
        f: impl FnOnce(&mut Reader<'a>) -> DerResult<T>,
    ) -> DerResult<T> {
        let inner = self.read(tag)?;
        Reader::new(inner).exactly(f)
    }

    /// Runs `f` and requires that nothing is left.
    pub(crate) fn exactly<T>(
        mut self,
        f: impl FnOnce(&mut Reader<'a>) -> DerResult<T>,
    ) -> DerResult<T> {
        let v = f(&mut self)?;
        if !self.is_empty() {
            return Err(DerError("trailing data"));
        }
        Ok(v)
    }

    /// A DER BOOLEAN (0x00 or 0xff only).
    pub(crate) fn read_bool(&mut self) -> DerResult<bool> {
        match self.read(tag::BOOLEAN)? {
            [0x00] => Ok(false),
            [0xff] => Ok(true),
            _ => Err(DerError("bad BOOLEAN")),
        }
    }

    /// An optional BOOLEAN that DER requires to be absent when false (DEFAULT FALSE).
    pub(crate) fn read_default_false(&mut self) -> DerResult<bool> {
        if self.peek_tag() == Some(tag::BOOLEAN) {
            if !self.read_bool()? {
                return Err(DerError("DEFAULT FALSE encoded"));
            }
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A non-negative INTEGER as minimal big-endian bytes (leading zero stripped).
    pub(crate) fn read_unsigned_integer(&mut self) -> DerResult<&'a [u8]> {
        let v = self.read(tag::INTEGER)?;
        integer_bytes(v)
    }

    /// A small non-negative INTEGER.
    pub(crate) fn read_small_uint(&mut self) -> DerResult<u64> {
        let b = self.read_unsigned_integer()?;
        if b.len() > 8 {
            return Err(DerError("integer too large"));
        }
        let mut v: u64 = 0;
        for x in b {
            v = v
                .checked_mul(256)
                .and_then(|v| v.checked_add(u64::from(*x)))
                .ok_or(DerError("integer too large"))?;
        }
        Ok(v)
    }

    /// A BIT STRING with no unused bits (keys, signatures).
    pub(crate) fn read_bit_string_bytes(&mut self) -> DerResult<&'a [u8]> {
        let v = self.read(tag::BIT_STRING)?;
        match v.split_first() {
            Some((0, rest)) => Ok(rest),
            _ => Err(DerError("BIT STRING with unused bits")),
        }
    }
}

/// Checks INTEGER contents are minimal and non-negative; returns the magnitude bytes.
pub(crate) fn integer_bytes(v: &[u8]) -> DerResult<&[u8]> {
    match v {
        [] => Err(DerError("empty INTEGER")),
        [0] => Ok(v),
        [0, second, rest @ ..] => {
            if second & 0x80 == 0 {
                return Err(DerError("non-minimal INTEGER"));
            }
            let _ = rest;
            v.get(1..).ok_or(DerError("INTEGER"))
        }
        [first, second, ..] if *first == 0xff && second & 0x80 != 0 => {
            Err(DerError("non-minimal INTEGER"))
        }
        [first, ..] if first & 0x80 != 0 => Err(DerError("negative INTEGER")),
        _ => Ok(v),
    }
}

/// Parses BIT STRING contents as a flag set (KeyUsage): bit 0 is the most significant bit of
/// the first byte. Returns the flags as a u16 (bits 0..=8 used by X.509 KeyUsage).
pub(crate) fn bit_flags(v: &[u8]) -> DerResult<u16> {
    let (&unused, bytes) = v.split_first().ok_or(DerError("empty BIT STRING"))?;
    if unused > 7 || (bytes.is_empty() && unused != 0) {
        return Err(DerError("bad BIT STRING"));
    }
    if bytes.len() > 2 {
        return Err(DerError("BIT STRING too long for flags"));
    }
    if let Some(last) = bytes.last() {
        let mask = (1u16 << unused).wrapping_sub(1);
        if u16::from(*last) & mask != 0 {
            return Err(DerError("BIT STRING padding bits set"));
        }
    }
    let mut flags: u16 = 0;
    for (i, b) in bytes.iter().enumerate() {
        for bit in 0..8u32 {
            if b & (0x80u8 >> bit) != 0 {
                let idx = u32::try_from(i)
                    .ok()
                    .and_then(|i| i.checked_mul(8))
                    .and_then(|i| i.checked_add(bit))
                    .ok_or(DerError("BIT STRING"))?;
                flags |= 1u16.checked_shl(idx).unwrap_or(0);
            }
        }
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_must_be_minimal() {
        assert!(Reader::new(&[0x04, 0x81, 0x01, 0x00]).read_any().is_err());
        assert!(Reader::new(&[0x04, 0x80]).read_any().is_err());
        assert!(Reader::new(&[0x04, 0x82, 0x00, 0x80]).read_any().is_err());
        let mut ok = vec![0x04, 0x81, 0x80];
        ok.extend([0u8; 0x80]);
        let t = Reader::new(&ok).read_any().unwrap();
        assert_eq!(t.value.len(), 0x80);
        assert_eq!(t.raw.len(), ok.len());
    }

    #[test]
    fn truncation_is_an_error_at_every_cut() {
        let full = [0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xaa];
        for cut in 0..full.len() {
            let r = Reader::new(&full[..cut]).exactly(|r| {
                r.nested(tag::SEQUENCE, |r| {
                    r.read_small_uint()?;
                    r.read(tag::OCTET_STRING)
                })
            });
            assert!(r.is_err(), "cut {cut}");
        }
        let r = Reader::new(&full).exactly(|r| {
            r.nested(tag::SEQUENCE, |r| {
                assert_eq!(r.read_small_uint()?, 5);
                r.read(tag::OCTET_STRING)
            })
        });
        assert_eq!(r.unwrap(), &[0xaa]);
    }

    #[test]
    fn integers() {
        assert!(integer_bytes(&[0x00, 0x7f]).is_err());
        assert!(integer_bytes(&[0x80]).is_err());
        assert_eq!(integer_bytes(&[0x00, 0x80]).unwrap(), &[0x80]);
        assert_eq!(integer_bytes(&[0x00]).unwrap(), &[0x00]);
    }

    #[test]
    fn key_usage_bits() {
        // keyCertSign (5) + cRLSign (6): 0x06 with 1 unused bit
        assert_eq!(bit_flags(&[0x01, 0x06]).unwrap(), (1 << 5) | (1 << 6));
        // digitalSignature (0): 0x80 with 7 unused
        assert_eq!(bit_flags(&[0x07, 0x80]).unwrap(), 1);
        assert!(bit_flags(&[0x07, 0x81]).is_err());
    }

    #[test]
    fn malformed_elements() {
        let err = |b: &[u8]| Reader::new(b).read_any().map(|t| t.tag);
        assert_eq!(err(&[0x1f, 0x01, 0x00]), Err(DerError("high-number tag")));
        assert_eq!(
            err(&[0x04, 0x85, 1, 0, 0, 0, 0]),
            Err(DerError("length too large"))
        );
        assert_eq!(err(&[0x04]), Err(DerError("truncated length")));
        assert_eq!(err(&[0x04, 0x82, 0x01]), Err(DerError("truncated length")));
        assert_eq!(err(&[]), Err(DerError("truncated element")));
        assert_eq!(
            err(&[0x04, 0x02, 0x00]),
            Err(DerError("truncated contents"))
        );
        // BOOLEAN: DER allows only 0x00 and 0xff; DEFAULT FALSE must not be encoded.
        let b = |v: &[u8]| Reader::new(v).read_bool();
        assert_eq!(b(&[0x01, 0x01, 0xff]), Ok(true));
        assert_eq!(b(&[0x01, 0x01, 0x00]), Ok(false));
        assert_eq!(b(&[0x01, 0x01, 0x01]), Err(DerError("bad BOOLEAN")));
        assert_eq!(b(&[0x01, 0x00]), Err(DerError("bad BOOLEAN")));
        let d = |v: &[u8]| Reader::new(v).read_default_false();
        assert_eq!(
            d(&[0x01, 0x01, 0x00]),
            Err(DerError("DEFAULT FALSE encoded"))
        );
        assert_eq!(d(&[0x04, 0x00]), Ok(false));
        assert_eq!(d(&[0x01, 0x01, 0xff]), Ok(true));
    }

    #[test]
    fn small_integers_and_bit_strings() {
        let u = |v: &[u8]| Reader::new(v).read_small_uint();
        assert_eq!(u(&[0x02, 0x01, 0x00]), Ok(0));
        assert_eq!(
            u(&[0x02, 0x09, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
            Ok(u64::MAX)
        );
        assert_eq!(
            u(&[0x02, 0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]),
            Err(DerError("integer too large"))
        );
        assert_eq!(u(&[0x02, 0x01, 0x80]), Err(DerError("negative INTEGER")));
        assert_eq!(
            u(&[0x02, 0x02, 0xff, 0x80]),
            Err(DerError("non-minimal INTEGER"))
        );
        assert_eq!(u(&[0x02, 0x00]), Err(DerError("empty INTEGER")));
        // Flags: at most two bytes (KeyUsage has nine bits); no bits past the end.
        assert_eq!(bit_flags(&[0x07, 0x80, 0x80]), Ok((1 << 0) | (1 << 8)));
        assert_eq!(bit_flags(&[0x00]), Ok(0));
        assert_eq!(
            bit_flags(&[0x00, 0x80, 0x00, 0x00]),
            Err(DerError("BIT STRING too long for flags"))
        );
        assert_eq!(bit_flags(&[]), Err(DerError("empty BIT STRING")));
        assert_eq!(bit_flags(&[0x08, 0x00]), Err(DerError("bad BIT STRING")));
        assert_eq!(bit_flags(&[0x01]), Err(DerError("bad BIT STRING")));
        fn key(v: &[u8]) -> DerResult<&[u8]> {
            Reader::new(v).read_bit_string_bytes()
        }
        assert_eq!(key(&[0x03, 0x02, 0x00, 0xaa]), Ok(&[0xaa][..]));
        assert_eq!(
            key(&[0x03, 0x02, 0x01, 0xaa]),
            Err(DerError("BIT STRING with unused bits"))
        );
        assert_eq!(
            key(&[0x03, 0x00]),
            Err(DerError("BIT STRING with unused bits"))
        );
    }
}
