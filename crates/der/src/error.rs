use core::fmt;

/// Why a DER walk stopped.
///
/// The structural variants are what this crate checks; [`Error::Invalid`] carries a rule of the
/// caller's about the contents (for example "serial number zero" in X.509), so that a caller's
/// closure passed to [`crate::Reader::nested`] can fail through the same channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Input ended where an element's tag was expected.
    TruncatedElement,
    /// Input ended inside a length.
    TruncatedLength,
    /// The length says more contents than the input holds.
    TruncatedContents,
    /// A tag in the high-number form (tag number 31 or more).
    HighNumberTag,
    /// The indefinite length form (BER, not DER).
    IndefiniteLength,
    /// A length of more than four octets.
    LengthTooLarge,
    /// A length in more octets than needed (DER requires the shortest form).
    NonMinimalLength,
    /// A length that does not fit the address space.
    LengthOverflow,
    /// The next element does not carry the tag required there.
    UnexpectedTag,
    /// Bytes were left after the element(s) that must fill the input.
    TrailingData,
    /// A BOOLEAN other than one octet 0x00 or 0xff.
    BadBoolean,
    /// A BOOLEAN DEFAULT FALSE encoded as FALSE (DER requires it absent).
    DefaultFalseEncoded,
    /// An INTEGER with no contents octets.
    EmptyInteger,
    /// An INTEGER with a redundant leading 0x00 or 0xff.
    NonMinimalInteger,
    /// A negative INTEGER where a non-negative one is required.
    NegativeInteger,
    /// An INTEGER larger than the caller's type.
    IntegerTooLarge,
    /// A BIT STRING holding a key or signature with unused bits (or no contents).
    BitStringUnusedBits,
    /// A BIT STRING with no contents octets.
    EmptyBitString,
    /// A BIT STRING whose unused-bits count is out of range.
    BadBitString,
    /// A flags BIT STRING longer than two octets.
    BitStringTooLongForFlags,
    /// A BIT STRING whose unused (padding) bits are not zero.
    BitStringPaddingBitsSet,
    /// A caller's rule about the contents was broken; the text names it.
    Invalid(&'static str),
}

impl Error {
    /// A short text naming the problem ("non-minimal length"), for error messages.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Error::TruncatedElement => "truncated element",
            Error::TruncatedLength => "truncated length",
            Error::TruncatedContents => "truncated contents",
            Error::HighNumberTag => "high-number tag",
            Error::IndefiniteLength => "indefinite length",
            Error::LengthTooLarge => "length too large",
            Error::NonMinimalLength => "non-minimal length",
            Error::LengthOverflow => "length overflow",
            Error::UnexpectedTag => "unexpected tag",
            Error::TrailingData => "trailing data",
            Error::BadBoolean => "bad BOOLEAN",
            Error::DefaultFalseEncoded => "DEFAULT FALSE encoded",
            Error::EmptyInteger => "empty INTEGER",
            Error::NonMinimalInteger => "non-minimal INTEGER",
            Error::NegativeInteger => "negative INTEGER",
            Error::IntegerTooLarge => "integer too large",
            Error::BitStringUnusedBits => "BIT STRING with unused bits",
            Error::EmptyBitString => "empty BIT STRING",
            Error::BadBitString => "bad BIT STRING",
            Error::BitStringTooLongForFlags => "BIT STRING too long for flags",
            Error::BitStringPaddingBitsSet => "BIT STRING padding bits set",
            Error::Invalid(what) => what,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::error::Error for Error {}

/// A DER result.
pub type Result<T> = core::result::Result<T, Error>;
