use crate::{tag, Error, Result};

/// A cursor over DER bytes. Copying it is cheap (a slice); reads advance it.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    data: &'a [u8],
}

/// One element: its tag, its contents and the whole encoding (tag + length + contents).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tlv<'a> {
    /// The one identifier octet.
    pub tag: u8,
    /// The contents octets.
    pub value: &'a [u8],
    /// The whole element as encoded: identifier, length and contents.
    pub raw: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    pub const fn new(data: &'a [u8]) -> Self {
        Reader { data }
    }

    /// Whether everything has been read.
    pub const fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// What is left to read.
    pub const fn remaining(&self) -> &'a [u8] {
        self.data
    }

    /// The next tag without consuming it.
    pub fn peek_tag(&self) -> Option<u8> {
        self.data.first().copied()
    }

    /// Reads any one element.
    pub fn read_any(&mut self) -> Result<Tlv<'a>> {
        let (&tag, rest) = self.data.split_first().ok_or(Error::TruncatedElement)?;
        if tag & 0x1f == 0x1f {
            return Err(Error::HighNumberTag);
        }
        let (&first, mut rest) = rest.split_first().ok_or(Error::TruncatedLength)?;
        let len: usize = if first < 0x80 {
            usize::from(first)
        } else {
            let n = first & 0x7f;
            if n == 0 {
                return Err(Error::IndefiniteLength);
            }
            if n > 4 {
                return Err(Error::LengthTooLarge);
            }
            let (bytes, r) = rest
                .split_at_checked(usize::from(n))
                .ok_or(Error::TruncatedLength)?;
            rest = r;
            if bytes.first() == Some(&0) {
                return Err(Error::NonMinimalLength);
            }
            let mut v: usize = 0;
            for b in bytes {
                v = v
                    .checked_mul(256)
                    .and_then(|v| v.checked_add(usize::from(*b)))
                    .ok_or(Error::LengthOverflow)?;
            }
            if v < 0x80 {
                return Err(Error::NonMinimalLength);
            }
            v
        };
        let (value, after) = rest.split_at_checked(len).ok_or(Error::TruncatedContents)?;
        let raw_len = self
            .data
            .len()
            .checked_sub(after.len())
            .ok_or(Error::LengthOverflow)?;
        let (raw, _) = self
            .data
            .split_at_checked(raw_len)
            .ok_or(Error::LengthOverflow)?;
        self.data = after;
        Ok(Tlv { tag, value, raw })
    }

    /// Reads an element that must carry `tag`; returns its contents.
    pub fn read(&mut self, tag: u8) -> Result<&'a [u8]> {
        Ok(self.read_tlv(tag)?.value)
    }

    /// Reads an element that must carry `tag`.
    pub fn read_tlv(&mut self, tag: u8) -> Result<Tlv<'a>> {
        if self.peek_tag() != Some(tag) {
            return Err(Error::UnexpectedTag);
        }
        self.read_any()
    }

    /// Reads the element if the next tag is `tag`.
    pub fn read_optional(&mut self, tag: u8) -> Result<Option<&'a [u8]>> {
        if self.peek_tag() == Some(tag) {
            Ok(Some(self.read(tag)?))
        } else {
            Ok(None)
        }
    }

    /// Reads a constructed element with `tag` and hands a reader over its contents to `f`,
    /// which must consume all of it.
    pub fn nested<T>(
        &mut self,
        tag: u8,
        f: impl FnOnce(&mut Reader<'a>) -> Result<T>,
    ) -> Result<T> {
        let inner = self.read(tag)?;
        Reader::new(inner).exactly(f)
    }

    /// Runs `f` and requires that nothing is left.
    pub fn exactly<T>(mut self, f: impl FnOnce(&mut Reader<'a>) -> Result<T>) -> Result<T> {
        let v = f(&mut self)?;
        if !self.is_empty() {
            return Err(Error::TrailingData);
        }
        Ok(v)
    }

    /// A DER BOOLEAN (0x00 or 0xff only).
    pub fn read_bool(&mut self) -> Result<bool> {
        match self.read(tag::BOOLEAN)? {
            [0x00] => Ok(false),
            [0xff] => Ok(true),
            _ => Err(Error::BadBoolean),
        }
    }

    /// An optional BOOLEAN that DER requires to be absent when false (DEFAULT FALSE).
    pub fn read_default_false(&mut self) -> Result<bool> {
        if self.peek_tag() == Some(tag::BOOLEAN) {
            if !self.read_bool()? {
                return Err(Error::DefaultFalseEncoded);
            }
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A non-negative INTEGER as minimal big-endian bytes (the sign octet stripped).
    pub fn read_unsigned_integer(&mut self) -> Result<&'a [u8]> {
        let v = self.read(tag::INTEGER)?;
        integer_bytes(v)
    }

    /// A non-negative INTEGER that fits a `u64`.
    pub fn read_small_uint(&mut self) -> Result<u64> {
        let b = self.read_unsigned_integer()?;
        if b.len() > 8 {
            return Err(Error::IntegerTooLarge);
        }
        let mut v: u64 = 0;
        for x in b {
            v = v
                .checked_mul(256)
                .and_then(|v| v.checked_add(u64::from(*x)))
                .ok_or(Error::IntegerTooLarge)?;
        }
        Ok(v)
    }

    /// A BIT STRING with no unused bits (keys, signatures); returns the bytes after the
    /// unused-bits octet.
    pub fn read_bit_string_bytes(&mut self) -> Result<&'a [u8]> {
        let v = self.read(tag::BIT_STRING)?;
        match v.split_first() {
            Some((0, rest)) => Ok(rest),
            _ => Err(Error::BitStringUnusedBits),
        }
    }
}

/// Checks INTEGER contents are minimal and non-negative; returns the magnitude bytes (the
/// leading 0x00 that keeps a high bit positive stripped; zero is `[0]`).
pub fn integer_bytes(v: &[u8]) -> Result<&[u8]> {
    match v {
        [] => Err(Error::EmptyInteger),
        [0] => Ok(v),
        [0, second, ..] => {
            if second & 0x80 == 0 {
                return Err(Error::NonMinimalInteger);
            }
            v.get(1..).ok_or(Error::EmptyInteger)
        }
        [first, second, ..] if *first == 0xff && second & 0x80 != 0 => {
            Err(Error::NonMinimalInteger)
        }
        [first, ..] if first & 0x80 != 0 => Err(Error::NegativeInteger),
        _ => Ok(v),
    }
}

/// Parses BIT STRING contents as a flag set (KeyUsage): bit 0 is the most significant bit of
/// the first byte. Returns the flags as a u16 (at most two octets; X.509 KeyUsage uses nine bits).
pub fn bit_flags(v: &[u8]) -> Result<u16> {
    let (&unused, bytes) = v.split_first().ok_or(Error::EmptyBitString)?;
    if unused > 7 || (bytes.is_empty() && unused != 0) {
        return Err(Error::BadBitString);
    }
    if bytes.len() > 2 {
        return Err(Error::BitStringTooLongForFlags);
    }
    if let Some(last) = bytes.last() {
        let mask = (1u16 << unused).wrapping_sub(1);
        if u16::from(*last) & mask != 0 {
            return Err(Error::BitStringPaddingBitsSet);
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
                    .ok_or(Error::BadBitString)?;
                flags |= 1u16.checked_shl(idx).unwrap_or(0);
            }
        }
    }
    Ok(flags)
}
