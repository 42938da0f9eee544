//! burrow-der: every element of arbitrary bytes, walked into constructed elements (depth
//! bounded). What must hold: no panic; each element's encoding is exactly its tag, the minimal
//! length for its contents, and the contents (DER has one encoding, so the reader may accept
//! no other); the typed readers agree with `read_any` on what they consume.
#![no_main]

use burrow_der::{bit_flags, integer_bytes, Reader, Tlv};
use libfuzzer_sys::fuzz_target;

/// The minimal DER header of an element with `tag` and `len` contents octets.
fn header(tag: u8, len: usize) -> Vec<u8> {
    let mut h = vec![tag];
    if len < 0x80 {
        h.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        h.push(0x80 | bytes.len() as u8);
        h.extend(bytes);
    }
    h
}

fn check(t: &Tlv<'_>) {
    let mut re = header(t.tag, t.value.len());
    re.extend_from_slice(t.value);
    assert_eq!(re, t.raw, "an element's encoding is not its minimal re-encoding");
}

fn walk(data: &[u8], depth: u32) {
    let mut r = Reader::new(data);
    while !r.is_empty() {
        let before = r;
        let Ok(t) = r.read_any() else { return };
        check(&t);
        // The typed readers consume the same element, or refuse it.
        let mut again = before;
        if let Ok(v) = again.read(t.tag) {
            assert_eq!(v, t.value);
            assert_eq!(again.remaining(), r.remaining());
        }
        let _ = before.clone().read_bool();
        let _ = before.clone().read_default_false();
        let _ = before.clone().read_small_uint();
        let _ = before.clone().read_unsigned_integer();
        let _ = before.clone().read_bit_string_bytes();
        if let Ok(m) = integer_bytes(t.value) {
            assert!(!m.is_empty() && m.len() <= t.value.len());
        }
        let _ = bit_flags(t.value);
        if t.tag & 0x20 != 0 && depth < 32 {
            walk(t.value, depth + 1);
            let _ = before.clone().nested(t.tag, |n| {
                while !n.is_empty() {
                    n.read_any()?;
                }
                Ok(())
            });
        }
    }
}

fuzz_target!(|data: &[u8]| walk(data, 0));
