//! Human-readable names for what `-v` prints: TLS versions, suites, groups, X.509 Names
//! (from the peer's DER, so parsed defensively), dates and staple verdicts.

use burrow_client::{CertSummary, StapleStatus, TlsInfo};

/// `TLSv1.3` / `TLSv1.2`.
pub(crate) fn version(v: u16) -> String {
    match v {
        0x0304 => "TLSv1.3".to_string(),
        0x0303 => "TLSv1.2".to_string(),
        other => format!("0x{other:04x}"),
    }
}

/// The IANA name of a cipher suite burrow can negotiate.
pub(crate) fn suite(s: u16) -> String {
    let name = match s {
        0x1301 => "TLS_AES_128_GCM_SHA256",
        0x1302 => "TLS_AES_256_GCM_SHA384",
        0x1303 => "TLS_CHACHA20_POLY1305_SHA256",
        0xc02b => "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        0xc02c => "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        0xc02f => "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        0xc030 => "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        0xcca8 => "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0xcca9 => "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        other => return format!("0x{other:04x}"),
    };
    name.to_string()
}

/// The IANA name of a key exchange group.
pub(crate) fn group(g: u16) -> String {
    let name = match g {
        0x0017 => "secp256r1",
        0x0018 => "secp384r1",
        0x0019 => "secp521r1",
        0x001d => "x25519",
        0x001e => "x448",
        0x11ec => "X25519MLKEM768",
        other => return format!("0x{other:04x}"),
    };
    name.to_string()
}

/// One DER TLV: (tag, contents, rest), or `None` if malformed (long lengths up to 4 bytes).
fn tlv(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let (bytes, rest) = rest.split_at(n);
        let len = bytes
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (len, rest)
    };
    if rest.len() < len {
        return None;
    }
    let (body, rest) = rest.split_at(len);
    Some((tag, body, rest))
}

fn attribute_name(oid: &[u8]) -> Option<&'static str> {
    Some(match oid {
        [0x55, 0x04, 0x03] => "CN",
        [0x55, 0x04, 0x06] => "C",
        [0x55, 0x04, 0x07] => "L",
        [0x55, 0x04, 0x08] => "ST",
        [0x55, 0x04, 0x0a] => "O",
        [0x55, 0x04, 0x0b] => "OU",
        _ => return None,
    })
}

/// A DER Name as `CN=..., O=...` (RDNs in certificate order; unknown attributes as OID
/// bytes; `<unparsable name>` when the DER is broken).
pub(crate) fn name(der: &[u8]) -> String {
    name_parts(der).unwrap_or_else(|| "<unparsable name>".to_string())
}

fn name_parts(der: &[u8]) -> Option<String> {
    let (tag, mut rdns, rest) = tlv(der)?;
    if tag != 0x30 || !rest.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    while !rdns.is_empty() {
        let (tag, mut set, next) = tlv(rdns)?;
        if tag != 0x31 {
            return None;
        }
        rdns = next;
        while !set.is_empty() {
            let (tag, atv, next) = tlv(set)?;
            if tag != 0x30 {
                return None;
            }
            set = next;
            let (tag, oid, value) = tlv(atv)?;
            if tag != 0x06 {
                return None;
            }
            let (_, value, _) = tlv(value)?;
            let key = match attribute_name(oid) {
                Some(k) => k.to_string(),
                None => oid.iter().map(|b| format!("{b:02x}")).collect::<String>(),
            };
            let value: String = String::from_utf8_lossy(value)
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect();
            parts.push(format!("{key}={value}"));
        }
    }
    Some(parts.join(", "))
}

/// Unix seconds as `YYYY-MM-DD HH:MM:SS UTC` (proleptic Gregorian, civil-from-days).
pub(crate) fn date(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// The stapled OCSP verdict.
pub(crate) fn staple(s: &StapleStatus) -> String {
    match s {
        StapleStatus::Good(g) => match g.next_update {
            Some(next) => format!(
                "good (this update {}, next update {})",
                date(g.this_update),
                date(next)
            ),
            None => format!("good (this update {})", date(g.this_update)),
        },
        StapleStatus::None => "none sent".to_string(),
        StapleStatus::NotChecked => "not checked".to_string(),
    }
}

/// The `-v` lines for one TLS session (`who`: "TLS" or "proxy TLS").
pub(crate) fn tls_lines(who: &str, t: &TlsInfo) -> Vec<String> {
    let mut out = vec![
        format!(
            "{who}: {} / {} / {}",
            version(t.version),
            suite(t.cipher_suite),
            group(t.group)
        ),
        format!("{who} ALPN: {}", t.alpn.as_deref().unwrap_or("none")),
        format!("{who} resumed: {}", if t.resumed { "yes" } else { "no" }),
    ];
    for (i, c) in t.peer_chain.iter().enumerate() {
        out.extend(cert_lines(who, i, c));
    }
    out.push(format!("{who} OCSP staple: {}", staple(&t.ocsp)));
    out
}

fn cert_lines(who: &str, i: usize, c: &CertSummary) -> [String; 2] {
    [
        format!("{who} certificate {i}: subject {}", name(&c.subject)),
        format!(
            "{who} certificate {i}: issuer {}; expires {}",
            name(&c.issuer),
            date(c.not_after)
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(date(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(date(1_798_761_599), "2026-12-31 23:59:59 UTC");
        assert_eq!(date(-1), "1969-12-31 23:59:59 UTC");
        // notAfter comes from the peer: extremes format without overflow.
        assert!(date(i64::MAX).ends_with(" UTC"));
        assert!(date(i64::MIN).ends_with(" UTC"));
    }

    /// `CN=localhost, O=burrow` as DER.
    fn sample() -> Vec<u8> {
        let atv = |oid: u8, v: &[u8]| {
            let mut a = vec![0x06, 3, 0x55, 0x04, oid, 0x0c, v.len() as u8];
            a.extend_from_slice(v);
            let mut seq = vec![0x30, a.len() as u8];
            seq.extend(a);
            let mut set = vec![0x31, seq.len() as u8];
            set.extend(seq);
            set
        };
        let mut body = atv(0x03, b"localhost");
        body.extend(atv(0x0a, b"burrow"));
        let mut der = vec![0x30, body.len() as u8];
        der.extend(body);
        der
    }

    #[test]
    fn names() {
        assert_eq!(name(&sample()), "CN=localhost, O=burrow");
        assert_eq!(name(&[0x30, 0x00]), "");
    }

    #[test]
    fn broken_names_never_panic() {
        let der = sample();
        // Every truncation and every single-byte corruption: a string, no panic.
        for cut in 0..der.len() {
            let _ = name(&der[..cut]);
        }
        for i in 0..der.len() {
            for v in [0x00, 0x7f, 0x80, 0x84, 0xff] {
                let mut d = der.clone();
                d[i] = v;
                let _ = name(&d);
            }
        }
        assert_eq!(name(&der[..der.len() - 1]), "<unparsable name>");
        assert_eq!(
            name(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff]),
            "<unparsable name>"
        );
    }

    #[test]
    fn random_bytes_never_panic() {
        // xorshift: deterministic, no dependency.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let base = sample();
        for _ in 0..20_000 {
            let len = (next() % 48) as usize;
            let mut d: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            // Half the inputs start as a valid Name so the parser gets deep.
            if next() % 2 == 0 {
                d = base.clone();
                for _ in 0..(next() % 4) {
                    let i = (next() as usize) % d.len();
                    d[i] = next() as u8;
                }
            }
            let _ = name(&d);
        }
    }

    #[test]
    fn code_point_names() {
        assert_eq!(suite(0x1301), "TLS_AES_128_GCM_SHA256");
        assert_eq!(suite(0xc02f), "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
        assert_eq!(suite(0x1234), "0x1234");
        assert_eq!(group(0x001d), "x25519");
        assert_eq!(version(0x0304), "TLSv1.3");
    }
}
