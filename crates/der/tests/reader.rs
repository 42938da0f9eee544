//! The reader's rules: minimal definite lengths, low-number tags, truncation anywhere is an
//! error, minimal non-negative INTEGERs, DER BOOLEANs, BIT STRINGs for keys and for flags.
#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use burrow_der::{bit_flags, integer_bytes, tag, Error, Reader, Result};

#[test]
fn lengths_must_be_minimal() {
    assert_eq!(
        Reader::new(&[0x04, 0x81, 0x01, 0x00]).read_any(),
        Err(Error::NonMinimalLength)
    );
    assert_eq!(
        Reader::new(&[0x04, 0x80]).read_any(),
        Err(Error::IndefiniteLength)
    );
    assert_eq!(
        Reader::new(&[0x04, 0x82, 0x00, 0x80]).read_any(),
        Err(Error::NonMinimalLength)
    );
    let mut ok = vec![0x04, 0x81, 0x80];
    ok.extend([0u8; 0x80]);
    let t = Reader::new(&ok).read_any().unwrap();
    assert_eq!(t.value.len(), 0x80);
    assert_eq!(t.raw.len(), ok.len());
    // Four length octets is the most accepted, and it still has to be minimal.
    let mut four = vec![0x04, 0x84, 0x00, 0x00, 0x01, 0x00];
    four.extend([0u8; 0x100]);
    assert_eq!(Reader::new(&four).read_any(), Err(Error::NonMinimalLength));
}

#[test]
fn truncation_is_an_error_at_every_cut() {
    let full = [0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xaa];
    fn walk(b: &[u8]) -> Result<(u64, &[u8])> {
        Reader::new(b).exactly(|r| {
            r.nested(tag::SEQUENCE, |r| {
                let n = r.read_small_uint()?;
                Ok((n, r.read(tag::OCTET_STRING)?))
            })
        })
    }
    for cut in 0..full.len() {
        assert!(walk(&full[..cut]).is_err(), "cut {cut}");
    }
    assert_eq!(walk(&full), Ok((5, &[0xaa][..])));
    let mut longer = full.to_vec();
    longer.push(0);
    assert_eq!(walk(&longer), Err(Error::TrailingData));
}

#[test]
fn raw_and_remaining() {
    let der = [0x02, 0x01, 0x07, 0x05, 0x00];
    let mut r = Reader::new(&der);
    let t = r.read_tlv(tag::INTEGER).unwrap();
    assert_eq!(t.raw, &der[..3]);
    assert_eq!(t.value, &[0x07]);
    assert_eq!(r.remaining(), &der[3..]);
    assert_eq!(r.read_optional(tag::INTEGER), Ok(None));
    assert_eq!(r.read_optional(tag::NULL), Ok(Some(&[][..])));
    assert!(r.is_empty());
}

#[test]
fn integers() {
    assert_eq!(integer_bytes(&[0x00, 0x7f]), Err(Error::NonMinimalInteger));
    assert_eq!(integer_bytes(&[0x80]), Err(Error::NegativeInteger));
    assert_eq!(integer_bytes(&[0x00, 0x80]).unwrap(), &[0x80]);
    assert_eq!(integer_bytes(&[0x00]).unwrap(), &[0x00]);
}

#[test]
fn key_usage_bits() {
    // keyCertSign (5) + cRLSign (6): 0x06 with 1 unused bit
    assert_eq!(bit_flags(&[0x01, 0x06]).unwrap(), (1 << 5) | (1 << 6));
    // digitalSignature (0): 0x80 with 7 unused
    assert_eq!(bit_flags(&[0x07, 0x80]).unwrap(), 1);
    assert_eq!(
        bit_flags(&[0x07, 0x81]),
        Err(Error::BitStringPaddingBitsSet)
    );
}

#[test]
fn malformed_elements() {
    let err = |b: &[u8]| Reader::new(b).read_any().map(|t| t.tag);
    assert_eq!(err(&[0x1f, 0x01, 0x00]), Err(Error::HighNumberTag));
    assert_eq!(
        err(&[0x04, 0x85, 1, 0, 0, 0, 0]),
        Err(Error::LengthTooLarge)
    );
    assert_eq!(err(&[0x04]), Err(Error::TruncatedLength));
    assert_eq!(err(&[0x04, 0x82, 0x01]), Err(Error::TruncatedLength));
    assert_eq!(err(&[]), Err(Error::TruncatedElement));
    assert_eq!(err(&[0x04, 0x02, 0x00]), Err(Error::TruncatedContents));
    assert_eq!(
        Reader::new(&[0x04, 0x00]).read(tag::INTEGER),
        Err(Error::UnexpectedTag)
    );
    // BOOLEAN: DER allows only 0x00 and 0xff; DEFAULT FALSE must not be encoded.
    let b = |v: &[u8]| Reader::new(v).read_bool();
    assert_eq!(b(&[0x01, 0x01, 0xff]), Ok(true));
    assert_eq!(b(&[0x01, 0x01, 0x00]), Ok(false));
    assert_eq!(b(&[0x01, 0x01, 0x01]), Err(Error::BadBoolean));
    assert_eq!(b(&[0x01, 0x00]), Err(Error::BadBoolean));
    let d = |v: &[u8]| Reader::new(v).read_default_false();
    assert_eq!(d(&[0x01, 0x01, 0x00]), Err(Error::DefaultFalseEncoded));
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
        Err(Error::IntegerTooLarge)
    );
    assert_eq!(u(&[0x02, 0x01, 0x80]), Err(Error::NegativeInteger));
    assert_eq!(u(&[0x02, 0x02, 0xff, 0x80]), Err(Error::NonMinimalInteger));
    assert_eq!(u(&[0x02, 0x00]), Err(Error::EmptyInteger));
    // Flags: at most two bytes (KeyUsage has nine bits); no bits past the end.
    assert_eq!(bit_flags(&[0x07, 0x80, 0x80]), Ok((1 << 0) | (1 << 8)));
    assert_eq!(bit_flags(&[0x00]), Ok(0));
    assert_eq!(
        bit_flags(&[0x00, 0x80, 0x00, 0x00]),
        Err(Error::BitStringTooLongForFlags)
    );
    assert_eq!(bit_flags(&[]), Err(Error::EmptyBitString));
    assert_eq!(bit_flags(&[0x08, 0x00]), Err(Error::BadBitString));
    assert_eq!(bit_flags(&[0x01]), Err(Error::BadBitString));
    fn key(v: &[u8]) -> Result<&[u8]> {
        Reader::new(v).read_bit_string_bytes()
    }
    assert_eq!(key(&[0x03, 0x02, 0x00, 0xaa]), Ok(&[0xaa][..]));
    assert_eq!(
        key(&[0x03, 0x02, 0x01, 0xaa]),
        Err(Error::BitStringUnusedBits)
    );
    assert_eq!(key(&[0x03, 0x00]), Err(Error::BitStringUnusedBits));
}

#[test]
fn errors_name_the_problem() {
    assert_eq!(Error::NonMinimalLength.to_string(), "non-minimal length");
    assert_eq!(
        Error::Invalid("serial number zero").to_string(),
        "serial number zero"
    );
}

#[test]
fn what_the_writer_writes_reads_back() {
    use burrow_der::writer;
    for len in [0usize, 1, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x1_0000] {
        let body = vec![0xab; len];
        let der = writer::tlv(tag::OCTET_STRING, &body);
        let t = Reader::new(&der).exactly(|r| r.read_any()).unwrap();
        assert_eq!(
            (t.tag, t.value),
            (tag::OCTET_STRING, &body[..]),
            "len {len}"
        );
    }
    let int = |m: &[u8]| {
        let der = writer::unsigned_integer(m);
        Reader::new(&der)
            .exactly(|r| r.read_unsigned_integer())
            .map(<[u8]>::to_vec)
    };
    assert_eq!(int(&[0x00, 0x00, 0x80, 0x01]), Ok(vec![0x80, 0x01]));
    assert_eq!(writer::unsigned_integer(&[0x80]), [0x02, 0x02, 0x00, 0x80]);
    assert_eq!(writer::unsigned_integer(&[0x7f]), [0x02, 0x01, 0x7f]);
    assert_eq!(writer::unsigned_integer(&[]), [0x02, 0x01, 0x00]);
    assert_eq!(int(&[0, 0]), Ok(vec![0]));
    let seq = writer::seq(&[&writer::null(), &writer::bit_string(&[1, 2])]);
    let key = Reader::new(&seq)
        .exactly(|r| {
            r.nested(tag::SEQUENCE, |s| {
                s.read(tag::NULL)?;
                s.read_bit_string_bytes()
            })
        })
        .unwrap();
    assert_eq!(key, &[1, 2]);
}
