//! A small DER writer (feature `writer`), for tests and tools that build certificates, keys
//! and signatures by hand. It writes what [`crate::Reader`] reads: minimal lengths, one-octet
//! tags. Not for peer-facing code (it allocates and trusts its caller).

use alloc::vec::Vec;

use crate::tag;

/// One element: `tag`, the minimal length of `body`, then `body`.
pub fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(body.len().saturating_add(6));
    v.push(tag);
    let len = body.len();
    if len < 0x80 {
        v.extend(len.to_be_bytes().last());
    } else {
        let bytes = len.to_be_bytes();
        let significant: Vec<u8> = bytes.iter().copied().skip_while(|b| *b == 0).collect();
        // At most size_of::<usize>() (8) octets, so the count fits the 7 bits.
        v.push(0x80 | u8::try_from(significant.len()).unwrap_or(0x7f));
        v.extend(significant);
    }
    v.extend_from_slice(body);
    v
}

/// A SEQUENCE of already-encoded elements.
pub fn seq(parts: &[&[u8]]) -> Vec<u8> {
    tlv(tag::SEQUENCE, &parts.concat())
}

/// A SET of already-encoded elements (in the order given: DER's SET OF ordering is the
/// caller's).
pub fn set(parts: &[&[u8]]) -> Vec<u8> {
    tlv(tag::SET, &parts.concat())
}

/// An OBJECT IDENTIFIER from its contents octets (`[0x55, 0x04, 0x03]` for id-at-commonName).
pub fn oid(contents: &[u8]) -> Vec<u8> {
    tlv(tag::OID, contents)
}

/// An OCTET STRING.
pub fn octet_string(b: &[u8]) -> Vec<u8> {
    tlv(tag::OCTET_STRING, b)
}

/// A BIT STRING with no unused bits (keys, signatures).
pub fn bit_string(b: &[u8]) -> Vec<u8> {
    let mut body = Vec::with_capacity(b.len().saturating_add(1));
    body.push(0);
    body.extend_from_slice(b);
    tlv(tag::BIT_STRING, &body)
}

/// A non-negative INTEGER from big-endian magnitude bytes: leading zeros dropped, a 0x00 sign
/// octet added when the top bit is set, zero (or empty) written as `02 01 00`.
pub fn unsigned_integer(magnitude: &[u8]) -> Vec<u8> {
    let trimmed: Vec<u8> = magnitude.iter().copied().skip_while(|b| *b == 0).collect();
    let mut body = Vec::with_capacity(trimmed.len().saturating_add(1));
    if trimmed.first().is_none_or(|b| b & 0x80 != 0) {
        body.push(0);
    }
    body.extend(trimmed);
    tlv(tag::INTEGER, &body)
}

/// NULL.
pub fn null() -> Vec<u8> {
    tlv(tag::NULL, &[])
}
