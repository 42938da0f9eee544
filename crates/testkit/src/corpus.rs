//! Generated bodies the tests and benchmarks decode and carry: no files, the same bytes on every run and
//! platform.

/// A xorshift64 stream: cheap, deterministic, and incompressible enough for a binary body.
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// About `len` bytes of web-like text: JSON-ish records with repeated keys and varying values,
/// which compresses about as well as real HTML/JSON (gzip ratio ~4-7x), like the peers' `/1m`.
pub fn json_like_text(len: usize) -> Vec<u8> {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let words = [
        "burrow", "tunnel", "worker", "edge", "record", "stream", "header", "value",
    ];
    let mut out = String::with_capacity(len + 256);
    while out.len() < len {
        let r = next();
        let word = words[(r % 8) as usize];
        out.push_str(&format!(
            "{{\"id\":{},\"name\":\"{word}-{}\",\"score\":{}.{},\"tags\":[\"{}\",\"{word}\"],\"ok\":{}}},\n",
            r % 100_000,
            (r >> 20) % 1000,
            (r >> 30) % 100,
            (r >> 40) % 1000,
            words[((r >> 50) % 8) as usize],
            r & 1 == 0
        ));
    }
    out.truncate(len);
    out.into_bytes()
}

/// `len` pseudo-random bytes (an incompressible body like the peers' `/4m.bin`).
pub fn binary(len: usize) -> Vec<u8> {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(&next().to_le_bytes());
    }
    out.truncate(len);
    out
}
