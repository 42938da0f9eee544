//! Numbers across the JS boundary. JS has one number type, an `f64`; these are the only
//! conversions between it and Rust's integers, so the lints that deny `as` elsewhere hold.
#![allow(
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    reason = "the one place JS numbers and integers meet; each function says what it keeps"
)]

/// A count, size or duration as a JS number: exact up to 2^53, past which JS cannot tell
/// integers apart anyway (no counter here gets near it).
#[cfg(feature = "js")]
pub(crate) fn u64_to_js(n: u64) -> f64 {
    n as f64
}

/// [`u64_to_js`] for a `usize`.
#[cfg(feature = "js")]
pub(crate) fn usize_to_js(n: usize) -> f64 {
    n as f64
}

/// A JS number as a whole `u64`: the fraction dropped, negatives and NaN to 0, anything above
/// `u64::MAX` (or infinite) to `u64::MAX` — Rust's float-to-int `as` saturates.
pub(crate) fn js_to_u64(n: f64) -> u64 {
    n as u64
}

/// [`js_to_u64`] into a `u32`, saturating at `u32::MAX`.
#[cfg(feature = "js")]
pub(crate) fn js_to_u32(n: f64) -> u32 {
    n as u32
}

/// [`js_to_u64`] into a `usize`, saturating at `usize::MAX`.
#[cfg(feature = "js")]
pub(crate) fn js_to_usize(n: f64) -> usize {
    n as usize
}

/// A JS length or offset (`u32`) as a `usize`; a `usize` is at least 32 bits wherever burrow
/// builds, so this never saturates there.
pub(crate) fn js_len(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_numbers_become_whole_saturated_integers() {
        assert_eq!(js_to_u64(1.9), 1);
        assert_eq!(js_to_u64(-5.0), 0);
        assert_eq!(js_to_u64(f64::NAN), 0);
        assert_eq!(js_to_u64(f64::INFINITY), u64::MAX);
        assert_eq!(js_len(u32::MAX), 4_294_967_295);
    }

    #[cfg(feature = "js")]
    #[test]
    fn js_api_conversions_saturate_and_scale() {
        assert_eq!(js_to_u32(1e12), u32::MAX);
        assert_eq!(js_to_usize(65536.5), 65536);
        assert_eq!(u64_to_js(1 << 53), 9_007_199_254_740_992.0);
        assert_eq!(usize_to_js(7), 7.0);
    }
}
