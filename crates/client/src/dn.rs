//! Renders an X.509 Name (DER) as text for people (`CN=localhost, O=Peers Test`), for
//! [`crate::CertSummary`]. Peer-controlled bytes: bounded, never panics; anything it does not
//! understand is shown as `?`.

use burrow_der::{tag, Reader};

/// Longest rendering returned (characters); longer names are cut with `…`.
pub const MAX_NAME_TEXT: usize = 512;

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
/// order the certificate has, as `openssl x509 -subject` does). Read with burrow-der (strict
/// DER): an attribute it refuses is shown as `?`; an RDN it cannot read ends the text with `?`.
pub fn name_to_text(der: &[u8]) -> String {
    let mut parts = Vec::new();
    let Ok(rdns) = Reader::new(der).exactly(|r| r.read(tag::SEQUENCE)) else {
        return "?".to_string();
    };
    let mut rdns = Reader::new(rdns);
    while !rdns.is_empty() {
        let Ok(set) = rdns.read(tag::SET) else {
            parts.push("?".to_string());
            break;
        };
        let mut set = Reader::new(set);
        while !set.is_empty() {
            let Ok(atv) = set.read(tag::SEQUENCE) else {
                parts.push("?".to_string());
                break;
            };
            let text = Reader::new(atv).exactly(|atv| {
                let oid = atv.read(tag::OID)?;
                let value = atv.read_any()?.value;
                Ok(attribute_text(oid, value))
            });
            parts.push(text.unwrap_or_else(|_| "?".to_string()));
        }
    }
    let mut s = parts.join(", ");
    if s.chars().count() > MAX_NAME_TEXT {
        s = s.chars().take(MAX_NAME_TEXT).collect();
        s.push('…');
    }
    s
}

/// `CN=value`, control characters shown as `?`, an unknown attribute type as `?`.
fn attribute_text(oid: &[u8], value: &[u8]) -> String {
    let v: String = String::from_utf8_lossy(value)
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    match attribute_name(oid) {
        Some(n) => format!("{n}={v}"),
        None => format!("?={v}"),
    }
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
    fn strict_der_refusals_show_as_a_question_mark() {
        // SEQUENCE { SET { SEQ { O "Peers Test" } } SET { SEQ { CN "localhost" } } }, then
        // the CN value's length rewritten in a non-minimal long form (0x81 0x09): BER, not
        // DER, so that attribute is `?` while the first still renders.
        let der = [
            0x30, 0x2a, 0x31, 0x13, 0x30, 0x11, 0x06, 0x03, 0x55, 0x04, 0x0a, 0x0c, 0x0a, b'P',
            b'e', b'e', b'r', b's', b' ', b'T', b'e', b's', b't', 0x31, 0x13, 0x30, 0x11, 0x06,
            0x03, 0x55, 0x04, 0x03, 0x0c, 0x81, 0x09, b'l', b'o', b'c', b'a', b'l', b'h', b'o',
            b's', b't',
        ];
        assert_eq!(name_to_text(&der), "O=Peers Test, ?");
        // An unknown attribute type keeps its value; an unreadable RDN ends the text.
        let unknown = [
            0x30, 0x0b, 0x31, 0x09, 0x30, 0x07, 0x06, 0x02, 0x2a, 0x03, 0x0c, 0x01, b'x',
        ];
        assert_eq!(name_to_text(&unknown), "?=x");
        let bad_rdn = [0x30, 0x02, 0x04, 0x00];
        assert_eq!(name_to_text(&bad_rdn), "?");
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
