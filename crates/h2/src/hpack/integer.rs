//! HPACK prefixed integers (RFC 7541 §5.1).

use crate::error::{Error, HpackError};

/// Appends `value` with an N-bit prefix; `first` carries the bits above the prefix.
pub(crate) fn encode(value: usize, prefix_bits: u8, first: u8, out: &mut Vec<u8>) {
    let max: usize = (1usize << prefix_bits.min(8)).saturating_sub(1);
    if value < max {
        out.push(first | low_byte(value));
        return;
    }
    out.push(first | low_byte(max));
    let mut rest = value.saturating_sub(max);
    while rest >= 128 {
        out.push(0x80 | low_byte(rest % 128));
        rest /= 128;
    }
    out.push(low_byte(rest));
}

fn low_byte(v: usize) -> u8 {
    u8::try_from(v & 0xff).unwrap_or(0)
}

/// Decodes an integer with an N-bit prefix from the start of `b`; returns (value, bytes used).
///
/// Values above `u32::MAX` are refused (no HPACK quantity needs more), which also bounds the
/// number of continuation bytes.
pub(crate) fn decode(b: &[u8], prefix_bits: u8) -> Result<(usize, usize), Error> {
    let (&first, rest) = b.split_first().ok_or(Error::hpack(HpackError::Truncated))?;
    let max: u32 = (1u32 << prefix_bits.min(8)).saturating_sub(1);
    let prefix = u32::from(first) & max;
    if prefix < max {
        return Ok((to_usize(prefix), 1));
    }
    let mut value = u64::from(prefix);
    let mut shift: u32 = 0;
    for (i, &byte) in rest.iter().enumerate() {
        let add = u64::from(byte & 0x7f)
            .checked_shl(shift)
            .unwrap_or(u64::MAX);
        value = value.saturating_add(add);
        if value > u64::from(u32::MAX) {
            return Err(Error::hpack(HpackError::IntegerOverflow));
        }
        if byte & 0x80 == 0 {
            return Ok((
                usize::try_from(value).unwrap_or(usize::MAX),
                i.saturating_add(2),
            ));
        }
        shift = shift.saturating_add(7);
        if shift > 28 {
            return Err(Error::hpack(HpackError::IntegerOverflow));
        }
    }
    Err(Error::hpack(HpackError::Truncated))
}

fn to_usize(v: u32) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::*;

    #[test]
    fn rfc7541_c1_examples() {
        // C.1.1: 10 with a 5-bit prefix.
        let mut out = Vec::new();
        encode(10, 5, 0, &mut out);
        assert_eq!(out, [0x0a]);
        assert_eq!(decode(&out, 5).unwrap(), (10, 1));
        // C.1.2: 1337 with a 5-bit prefix.
        out.clear();
        encode(1337, 5, 0, &mut out);
        assert_eq!(out, [0x1f, 0x9a, 0x0a]);
        assert_eq!(decode(&out, 5).unwrap(), (1337, 3));
        // C.1.3: 42 with an 8-bit prefix.
        out.clear();
        encode(42, 8, 0, &mut out);
        assert_eq!(out, [0x2a]);
        assert_eq!(decode(&out, 8).unwrap(), (42, 1));
    }

    #[test]
    fn overflow_and_truncation() {
        assert!(decode(&[0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], 5).is_err());
        assert!(decode(&[0x1f, 0x9a], 5).is_err());
        assert!(decode(&[], 5).is_err());
        let mut out = Vec::new();
        encode(u32::MAX as usize - 31, 5, 0, &mut out);
        assert_eq!(decode(&out, 5).unwrap().0, u32::MAX as usize - 31);
    }
}
