//! Masking (RFC 6455 §5.3): each payload byte XORed with the key byte at its offset mod 4.

/// Appends `data` masked with `key`, starting at key offset 0: the one copy of an outgoing
/// payload, straight into the output buffer.
pub fn mask_into(out: &mut Vec<u8>, data: &[u8], key: [u8; 4]) {
    out.reserve(data.len());
    // Eight bytes at a time with one XOR; the key repeats every 4 bytes, so twice over.
    let [k0, k1, k2, k3] = key;
    let wide = u64::from_ne_bytes([k0, k1, k2, k3, k0, k1, k2, k3]);
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        out.extend_from_slice(&(u64::from_ne_bytes(w) ^ wide).to_ne_bytes());
    }
    out.extend(
        chunks
            .remainder()
            .iter()
            .zip(key.iter().cycle())
            .map(|(b, k)| b ^ k),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc6455_masked_hello() {
        // §5.7: "Hello" masked with 37 fa 21 3d.
        let mut out = Vec::new();
        mask_into(&mut out, b"Hello", [0x37, 0xfa, 0x21, 0x3d]);
        assert_eq!(out, [0x7f, 0x9f, 0x4d, 0x51, 0x58]);
    }

    #[test]
    fn wide_path_matches_bytewise() {
        let data: Vec<u8> = (0..=255u8).cycle().take(1037).collect();
        let key = [0xde, 0xad, 0xbe, 0xef];
        let mut out = vec![9];
        mask_into(&mut out, &data, key);
        let want: Vec<u8> = core::iter::once(9)
            .chain(data.iter().enumerate().map(|(i, b)| b ^ key[i % 4]))
            .collect();
        assert_eq!(out, want);
    }
}
