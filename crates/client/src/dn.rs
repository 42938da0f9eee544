//! Renders an X.509 Name (DER) as text for people (`CN=localhost, O=Peers Test`), for
//! [`crate::CertSummary`]. Peer-controlled bytes: bounded, never panics; anything it does not
//! understand is shown as `?`.

/// Longest rendering returned (characters); longer names are cut with `…`.
pub const MAX_NAME_TEXT: usize = 512;

/// Reads one DER TLV at the front of `b`: (tag, contents, rest). Short and long lengths up to
/// 4 bytes; `None` if malformed.
fn tlv(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let tag = *b.first()?;
    let first = *b.get(1)?;
    let (len, header) = if first < 0x80 {
        (usize::from(first), 2usize)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 {
            return None;
        }
        let mut len = 0usize;
        for i in 0..n {
            len = len
                .checked_mul(256)?
                .checked_add(usize::from(*b.get(2usize.checked_add(i)?)?))?;
        }
        (len, 2usize.checked_add(n)?)
    };
    let end = header.checked_add(len)?;
    Some((tag, b.get(header..end)?, b.get(end..)?))
}

fn attribute_name(oid: &[u8]) -> Option<&'static str> {
    Some(match oid {
        [0x55, 0x04, 0x03] => "CN",
        [0x55, 0x04, 0x06] => "C",
        [0x55, 0x04, 0x07] => "L",
        [0x55, 0x04, 0x08] => "ST",
        [0x55, 0x04, 0x0a] => "O",
        [0x55, 0x04, 0x0b] => "OU",
        [0x55, 0x04, 0x05] => "serialNumber",
        _ => return None,
    })
}

/// `CN=..., O=...` in the order of the Name (RFC 4514 order is reversed; this keeps the
/// order the certificate has, as `openssl x509 -subject` does).
pub fn name_to_text(der: &[u8]) -> String {
    let mut parts = Vec::new();
    let Some((0x30, mut rdns, _)) = tlv(der) else {
        return "?".to_string();
    };
    while !rdns.is_empty() {
        let Some((0x31, mut set, rest)) = tlv(rdns) else {
            parts.push("?".to_string());
            break;
        };
        rdns = rest;
        while !set.is_empty() {
            let Some((0x30, atv, rest)) = tlv(set) else {
                parts.push("?".to_string());
                break;
            };
            set = rest;
            let text = tlv(atv).and_then(|(tag, oid, value)| {
                (tag == 0x06).then_some(())?;
                let (_, v, _) = tlv(value)?;
                let v: String = String::from_utf8_lossy(v)
                    .chars()
                    .map(|c| if c.is_control() { '?' } else { c })
                    .collect();
                Some(match attribute_name(oid) {
                    Some(n) => format!("{n}={v}"),
                    None => format!("?={v}"),
                })
            });
            parts.push(text.unwrap_or_else(|| "?".to_string()));
        }
    }
    let mut s = parts.join(", ");
    if s.chars().count() > MAX_NAME_TEXT {
        s = s.chars().take(MAX_NAME_TEXT).collect();
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_common_names() {
        // SEQUENCE { SET { SEQ { O "Peers Test" } } SET { SEQ { CN "localhost" } } }
        let der = [
            0x30, 0x29, 0x31, 0x13, 0x30, 0x11, 0x06, 0x03, 0x55, 0x04, 0x0a, 0x0c, 0x0a, b'P',
            b'e', b'e', b'r', b's', b' ', b'T', b'e', b's', b't', 0x31, 0x12, 0x30, 0x10, 0x06,
            0x03, 0x55, 0x04, 0x03, 0x0c, 0x09, b'l', b'o', b'c', b'a', b'l', b'h', b'o', b's',
            b't',
        ];
        assert_eq!(name_to_text(&der), "O=Peers Test, CN=localhost");
    }

    #[test]
    fn never_panics_on_junk() {
        assert_eq!(name_to_text(&[]), "?");
        assert_eq!(name_to_text(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), "?");
        // Every prefix and every single-byte corruption of a valid name.
        let der = [
            0x30, 0x14, 0x31, 0x12, 0x30, 0x10, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x09, b'l',
            b'o', b'c', b'a', b'l', b'h', b'o', b's', b't',
        ];
        for n in 0..=der.len() {
            let _ = name_to_text(&der[..n]);
        }
        for i in 0..der.len() {
            for v in [0x00, 0x7f, 0x80, 0x84, 0xff] {
                let mut d = der;
                d[i] = v;
                let _ = name_to_text(&d);
            }
        }
    }
}
