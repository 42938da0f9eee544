//! burrow-der: the one DER reader of burrow (X.690 distinguished encoding), over a borrowed
//! buffer. X.509 certificates, OCSP responses, the leaf's SubjectPublicKeyInfo in the handshake,
//! names shown to people and WebCrypto's signature conversions all read through it.
//!
//! Strict: definite lengths only, in the minimal number of octets (at most four); tags in the
//! low-number form only (X.509 and OCSP use no others); INTEGERs minimal; BOOLEANs 0x00/0xff.
//! Everything is bounds-checked; nothing panics or allocates, whatever the input.
//!
//! Feature `writer`: [`writer`], a small DER writer for tests (it allocates).
//!
//! ```
//! use burrow_der::{tag, Reader};
//! // SEQUENCE { INTEGER 5, OCTET STRING aa }
//! let der = [0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xaa];
//! let (n, bytes) = Reader::new(&der).exactly(|r| {
//!     r.nested(tag::SEQUENCE, |r| Ok((r.read_small_uint()?, r.read(tag::OCTET_STRING)?)))
//! })?;
//! assert_eq!((n, bytes), (5, &[0xaa][..]));
//! # Ok::<(), burrow_der::Error>(())
//! ```
#![no_std]

#[cfg(feature = "writer")]
extern crate alloc;

mod error;
mod reader;
#[cfg(feature = "writer")]
pub mod writer;

pub use error::{Error, Result};
pub use reader::{bit_flags, integer_bytes, Reader, Tlv};

/// Universal and context-specific tags (the one-octet identifiers of X.690 §8.1.2).
pub mod tag {
    /// BOOLEAN.
    pub const BOOLEAN: u8 = 0x01;
    /// INTEGER.
    pub const INTEGER: u8 = 0x02;
    /// BIT STRING (primitive).
    pub const BIT_STRING: u8 = 0x03;
    /// OCTET STRING (primitive).
    pub const OCTET_STRING: u8 = 0x04;
    /// NULL.
    pub const NULL: u8 = 0x05;
    /// OBJECT IDENTIFIER.
    pub const OID: u8 = 0x06;
    /// ENUMERATED.
    pub const ENUMERATED: u8 = 0x0a;
    /// UTF8String.
    pub const UTF8_STRING: u8 = 0x0c;
    /// PrintableString.
    pub const PRINTABLE_STRING: u8 = 0x13;
    /// IA5String.
    pub const IA5_STRING: u8 = 0x16;
    /// UTCTime.
    pub const UTC_TIME: u8 = 0x17;
    /// GeneralizedTime.
    pub const GENERALIZED_TIME: u8 = 0x18;
    /// SEQUENCE / SEQUENCE OF (constructed).
    pub const SEQUENCE: u8 = 0x30;
    /// SET / SET OF (constructed).
    pub const SET: u8 = 0x31;

    /// `[n]` constructed, context-specific (explicit tagging, or implicit over a constructed
    /// type). `n` must be below 31; larger numbers need the high-number form, which is refused.
    pub const fn ctx_cons(n: u8) -> u8 {
        0xa0 | (n & 0x1f)
    }

    /// `[n]` primitive, context-specific (implicit tagging over a primitive type). `n` below 31.
    pub const fn ctx_prim(n: u8) -> u8 {
        0x80 | (n & 0x1f)
    }
}
