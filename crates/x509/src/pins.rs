//! SPKI SHA-256 pins (`sha256/BASE64`, the HPKP / curl `--pinnedpubkey` form).

use core::fmt;

use base64::Engine;

/// How many SPKI hashes a pin-mismatch error remembers: the leaf, the leaf's issuer and the
/// anchor (the keys people pin). Kept small so [`crate::Error`] stays small and `Copy`.
pub const MAX_SEEN_PINS: usize = 3;

/// SHA-256 of a DER SubjectPublicKeyInfo.
pub type SpkiHash = [u8; 32];

/// Hashes a DER SubjectPublicKeyInfo for pinning.
pub fn spki_sha256(spki_der: &[u8]) -> SpkiHash {
    let out = burrow_crypto::hash::digest(burrow_crypto::hash::HashAlgorithm::Sha256, spki_der);
    let mut h = [0u8; 32];
    if let Some(bytes) = out.as_ref().get(..32) {
        h.copy_from_slice(bytes);
    }
    h
}

/// Parses `sha256/BASE64` (standard alphabet, padded) into a hash.
pub fn parse_pin(s: &str) -> Option<SpkiHash> {
    let b64 = s.strip_prefix("sha256/")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
    bytes.try_into().ok()
}

/// Formats a hash as `sha256/BASE64`.
pub fn format_pin(h: &SpkiHash) -> String {
    format!(
        "sha256/{}",
        base64::engine::general_purpose::STANDARD.encode(h)
    )
}

/// The SPKI hashes of the validated path, carried by [`crate::Error::PinMismatch`] so the
/// right pin can be copied from a log.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SeenPins {
    pins: [SpkiHash; MAX_SEEN_PINS],
    len: u8,
}

impl SeenPins {
    pub(crate) fn new() -> Self {
        SeenPins {
            pins: [[0; 32]; MAX_SEEN_PINS],
            len: 0,
        }
    }

    /// The leaf, its issuer and the anchor of a path (leaf first, anchor last).
    pub(crate) fn from_path(hashes: &[SpkiHash]) -> Self {
        let mut s = SeenPins::new();
        let n = hashes.len();
        for (i, h) in hashes.iter().enumerate() {
            if i < 2 || i.checked_add(1) == Some(n) {
                s.push(*h);
            }
        }
        s
    }

    fn push(&mut self, h: SpkiHash) {
        if let Some(slot) = self.pins.get_mut(usize::from(self.len)) {
            *slot = h;
            self.len = self.len.saturating_add(1);
        }
    }

    /// The hashes seen, leaf first.
    pub fn hashes(&self) -> &[SpkiHash] {
        self.pins.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl fmt::Display for SeenPins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.hashes().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&format_pin(h))?;
        }
        Ok(())
    }
}

impl fmt::Debug for SeenPins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SeenPins[{self}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pin_round_trip() {
        let h = spki_sha256(b"abc");
        let s = format_pin(&h);
        assert_eq!(s, "sha256/ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
        assert_eq!(parse_pin(&s), Some(h));
        assert_eq!(parse_pin("sha1/abc"), None);
    }

    #[test]
    fn seen_pins_keep_leaf_issuer_and_anchor() {
        let h = |b: u8| [b; 32];
        let s = SeenPins::from_path(&[h(1), h(2), h(3), h(4), h(5)]);
        assert_eq!(s.hashes(), &[h(1), h(2), h(5)]);
        assert_eq!(
            format!("{s:?}"),
            format!(
                "SeenPins[{}, {}, {}]",
                format_pin(&h(1)),
                format_pin(&h(2)),
                format_pin(&h(5))
            )
        );
        let two = SeenPins::from_path(&[h(1), h(2)]);
        assert_eq!(two.hashes(), &[h(1), h(2)]);
        assert_eq!(format!("{:?}", SeenPins::new()), "SeenPins[]");
        // Wrong length after decoding, bad base64.
        assert_eq!(parse_pin("sha256/AAAA"), None);
        assert_eq!(parse_pin("sha256/!!!!"), None);
    }
}
