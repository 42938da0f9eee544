//! ClientHello fingerprints for tests: a small ClientHello parser, JA4 / JA4_o / JA4_r /
//! JA4_ro as the FoxIO JA4 technical details define them, and JA3 / JA3N (with an MD5 of
//! its own, test-only). Panics on malformed input: test code only.

use sha2::{Digest, Sha256};

/// The parts of a ClientHello a fingerprint looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientHello {
    /// legacy_version.
    pub legacy_version: u16,
    /// legacy_session_id.
    pub session_id: Vec<u8>,
    /// cipher_suites, GREASE included, in wire order.
    pub cipher_suites: Vec<u16>,
    /// (type, body) of every extension, GREASE included, in wire order.
    pub extensions: Vec<(u16, Vec<u8>)>,
}

fn be16(b: &[u8], i: usize) -> u16 {
    u16::from_be_bytes([b[i], b[i + 1]])
}

/// Whether `v` is a GREASE value (RFC 8701).
pub fn is_grease(v: u16) -> bool {
    v & 0x0f0f == 0x0a0a && v >> 8 == v & 0xff
}

impl ClientHello {
    /// Parses TLS records (5-byte headers included) carrying one ClientHello.
    pub fn from_records(records: &[u8]) -> Self {
        let mut hs = Vec::new();
        let mut i = 0;
        while i < records.len() {
            assert_eq!(records[i], 22, "not a handshake record");
            let n = usize::from(be16(records, i + 3));
            hs.extend_from_slice(&records[i + 5..i + 5 + n]);
            i += 5 + n;
        }
        Self::from_message(&hs)
    }

    /// Parses a ClientHello handshake message (4-byte header included).
    pub fn from_message(m: &[u8]) -> Self {
        assert_eq!(m[0], 1, "not a ClientHello");
        let len = usize::from(m[1]) << 16 | usize::from(be16(m, 2));
        let b = &m[4..4 + len];
        assert_eq!(b.len() + 4, m.len(), "trailing bytes after the ClientHello");
        let legacy_version = be16(b, 0);
        let mut i = 2 + 32;
        let sid = usize::from(b[i]);
        let session_id = b[i + 1..i + 1 + sid].to_vec();
        i += 1 + sid;
        let n = usize::from(be16(b, i));
        let cipher_suites = (0..n / 2).map(|k| be16(b, i + 2 + 2 * k)).collect();
        i += 2 + n;
        i += 1 + usize::from(b[i]);
        let end = i + 2 + usize::from(be16(b, i));
        assert_eq!(end, b.len(), "extensions block length");
        i += 2;
        let mut extensions = Vec::new();
        while i < end {
            let t = be16(b, i);
            let n = usize::from(be16(b, i + 2));
            extensions.push((t, b[i + 4..i + 4 + n].to_vec()));
            i += 4 + n;
        }
        Self {
            legacy_version,
            session_id,
            cipher_suites,
            extensions,
        }
    }

    /// The body of extension `t`.
    pub fn ext(&self, t: u16) -> Option<&[u8]> {
        self.extensions
            .iter()
            .find(|e| e.0 == t)
            .map(|e| e.1.as_slice())
    }

    /// Extension types in wire order, GREASE included.
    pub fn extension_types(&self) -> Vec<u16> {
        self.extensions.iter().map(|e| e.0).collect()
    }

    fn u16_list(&self, t: u16, prefix: usize) -> Vec<u16> {
        let Some(b) = self.ext(t) else {
            return Vec::new();
        };
        let b = &b[prefix..];
        (0..b.len() / 2).map(|k| be16(b, 2 * k)).collect()
    }

    /// supported_groups, GREASE included.
    pub fn groups(&self) -> Vec<u16> {
        self.u16_list(10, 2)
    }

    /// signature_algorithms, GREASE included.
    pub fn signature_algorithms(&self) -> Vec<u16> {
        self.u16_list(13, 2)
    }

    /// supported_versions, GREASE included.
    pub fn supported_versions(&self) -> Vec<u16> {
        self.u16_list(43, 1)
    }

    /// ec_point_formats.
    pub fn point_formats(&self) -> Vec<u8> {
        self.ext(11).map(|b| b[1..].to_vec()).unwrap_or_default()
    }

    /// ALPN protocols, in order.
    pub fn alpn(&self) -> Vec<Vec<u8>> {
        let Some(b) = self.ext(16) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut i = 2;
        while i < b.len() {
            let n = usize::from(b[i]);
            out.push(b[i + 1..i + 1 + n].to_vec());
            i += 1 + n;
        }
        out
    }

    /// The SNI host name, if any.
    pub fn server_name(&self) -> Option<String> {
        let b = self.ext(0)?;
        let n = usize::from(be16(b, 3));
        Some(String::from_utf8(b[5..5 + n].to_vec()).expect("SNI is UTF-8"))
    }

    /// key_share entries: (group, key length), GREASE included.
    pub fn key_shares(&self) -> Vec<(u16, usize)> {
        let Some(b) = self.ext(51) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut i = 2;
        while i < b.len() {
            let n = usize::from(be16(b, i + 2));
            out.push((be16(b, i), n));
            i += 4 + n;
        }
        out
    }

    /// The same hello with its extensions put in the order of `types` (which must be a
    /// permutation of this hello's non-GREASE extension types; GREASE extensions keep
    /// their positions). For comparing a permuted hello with a capture.
    pub fn reordered_like(&self, types: &[u16]) -> Self {
        let real: Vec<u16> = types.iter().copied().filter(|t| !is_grease(*t)).collect();
        let mut mine: Vec<u16> = self
            .extension_types()
            .into_iter()
            .filter(|t| !is_grease(*t))
            .collect();
        let mut sorted = real.clone();
        sorted.sort_unstable();
        mine.sort_unstable();
        assert_eq!(mine, sorted, "extension sets differ");
        let mut next = real.into_iter();
        let extensions = self
            .extensions
            .iter()
            .map(|(t, b)| {
                if is_grease(*t) {
                    (*t, b.clone())
                } else {
                    let want = next.next().expect("same count");
                    (want, self.ext(want).expect("present").to_vec())
                }
            })
            .collect();
        Self {
            extensions,
            ..self.clone()
        }
    }
}

fn version_code(v: u16) -> &'static str {
    match v {
        0x0304 => "13",
        0x0303 => "12",
        0x0302 => "11",
        0x0301 => "10",
        0x0300 => "s3",
        0x0002 => "s2",
        0xfeff => "d1",
        0xfefd => "d2",
        0xfefc => "d3",
        _ => "00",
    }
}

fn hex4(v: &[u16]) -> String {
    v.iter()
        .map(|x| format!("{x:04x}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn hash12(s: &str) -> String {
    if s.is_empty() {
        return "000000000000".to_string();
    }
    let d = Sha256::digest(s.as_bytes());
    d.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

fn alpn_code(ch: &ClientHello) -> String {
    let Some(first) = ch.alpn().into_iter().next() else {
        return "00".to_string();
    };
    let (Some(&a), Some(&z)) = (first.first(), first.last()) else {
        return "00".to_string();
    };
    if a.is_ascii_alphanumeric() && z.is_ascii_alphanumeric() {
        format!("{}{}", char::from(a), char::from(z))
    } else {
        let h = format!("{a:02x}{z:02x}");
        format!("{}{}", &h[..1], &h[3..])
    }
}

/// The JA4 `a` section: t, version, d/i, cipher count, extension count, ALPN.
pub fn ja4_a(ch: &ClientHello) -> String {
    let versions: Vec<u16> = ch
        .supported_versions()
        .into_iter()
        .filter(|v| !is_grease(*v))
        .collect();
    let v = versions.iter().copied().max().unwrap_or(ch.legacy_version);
    let sni = if ch.ext(0).is_some() { 'd' } else { 'i' };
    let nc = ch
        .cipher_suites
        .iter()
        .filter(|c| !is_grease(**c))
        .count()
        .min(99);
    let ne = ch
        .extensions
        .iter()
        .filter(|e| !is_grease(e.0))
        .count()
        .min(99);
    format!("t{}{sni}{nc:02}{ne:02}{}", version_code(v), alpn_code(ch))
}

fn parts(ch: &ClientHello, original: bool) -> (String, String) {
    let mut ciphers: Vec<u16> = ch
        .cipher_suites
        .iter()
        .copied()
        .filter(|c| !is_grease(*c))
        .collect();
    let mut exts: Vec<u16> = ch
        .extension_types()
        .into_iter()
        .filter(|t| !is_grease(*t))
        .collect();
    if !original {
        ciphers.sort_unstable();
        exts.retain(|t| *t != 0x0000 && *t != 0x0010);
        exts.sort_unstable();
    }
    let sigs: Vec<u16> = ch
        .signature_algorithms()
        .into_iter()
        .filter(|s| !is_grease(*s))
        .collect();
    let mut c = hex4(&exts);
    if !sigs.is_empty() {
        c = format!("{c}_{}", hex4(&sigs));
    }
    (hex4(&ciphers), c)
}

fn ja4_with(ch: &ClientHello, original: bool, raw: bool) -> String {
    let (b, c) = parts(ch, original);
    if raw {
        format!("{}_{b}_{c}", ja4_a(ch))
    } else {
        format!("{}_{}_{}", ja4_a(ch), hash12(&b), hash12(&c))
    }
}

/// JA4 (sorted, hashed).
pub fn ja4(ch: &ClientHello) -> String {
    ja4_with(ch, false, false)
}

/// JA4_r (sorted, raw).
pub fn ja4_r(ch: &ClientHello) -> String {
    ja4_with(ch, false, true)
}

/// JA4_o (original order, hashed).
pub fn ja4_o(ch: &ClientHello) -> String {
    ja4_with(ch, true, false)
}

/// JA4_ro (original order, raw).
pub fn ja4_ro(ch: &ClientHello) -> String {
    ja4_with(ch, true, true)
}

fn dec(v: impl Iterator<Item = u16>) -> String {
    v.filter(|x| !is_grease(*x))
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// The JA3 string (GREASE removed everywhere); with `sorted`, the JA3N variant (extensions
/// sorted).
pub fn ja3_string(ch: &ClientHello, sorted: bool) -> String {
    let mut exts: Vec<u16> = ch.extension_types();
    if sorted {
        exts.sort_unstable();
    }
    format!(
        "{},{},{},{},{}",
        ch.legacy_version,
        dec(ch.cipher_suites.iter().copied()),
        dec(exts.into_iter()),
        dec(ch.groups().into_iter()),
        ch.point_formats()
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("-")
    )
}

/// MD5 (RFC 1321) as lowercase hex: JA3's hash.
pub fn md5_hex(data: &[u8]) -> String {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32)
        .collect();
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_le_bytes());
    let (mut a0, mut b0, mut c0, mut d0) = (
        0x6745_2301u32,
        0xefcd_ab89u32,
        0x98ba_dcfeu32,
        0x1032_5476u32,
    );
    for chunk in msg.chunks(64) {
        let m: Vec<u32> = chunk
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f2 = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f2.rotate_left(S[i]));
        }
        a0 = a0.wrapping_add(a);
        b0 = b0.wrapping_add(b);
        c0 = c0.wrapping_add(c);
        d0 = d0.wrapping_add(d);
    }
    [a0, b0, c0, d0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_known_answers() {
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            md5_hex(b"The quick brown fox jumps over the lazy dog"),
            "9e107d9d372bb6826bd81d3542a419d6"
        );
    }

    #[test]
    fn ja4_spec_worked_example_cipher_hash() {
        // FoxIO JA4 technical details: the sorted Chrome cipher list hashes to 8daaf6152771.
        let s = "002f,0035,009c,009d,1301,1302,1303,c013,c014,c02b,c02c,c02f,c030,cca8,cca9";
        assert_eq!(hash12(s), "8daaf6152771");
    }
}
