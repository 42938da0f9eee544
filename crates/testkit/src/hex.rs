//! Hex helpers for vector files.

/// Decodes a hex string (whitespace ignored). Panics on bad input: vectors are trusted test data.
pub fn decode(s: &str) -> Vec<u8> {
    let clean: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(clean.len() % 2 == 0, "odd-length hex string in a vector");
    clean
        .chunks(2)
        .map(|p| {
            let hi = (p[0] as char).to_digit(16).expect("hex digit");
            let lo = (p[1] as char).to_digit(16).expect("hex digit");
            (hi * 16 + lo) as u8
        })
        .collect()
}

/// Encodes bytes as lowercase hex.
pub fn encode(b: &[u8]) -> String {
    use std::fmt::Write;
    b.iter()
        .fold(String::with_capacity(b.len() * 2), |mut s, x| {
            let _ = write!(s, "{x:02x}");
            s
        })
}
