//! Byte classes and list helpers from RFC 9110 §5.6 and RFC 9112.

/// `tchar` (RFC 9110 §5.6.2).
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// `token = 1*tchar`.
pub(crate) fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&b| is_tchar(b))
}

/// A byte allowed inside a field value: VCHAR, obs-text, SP or HTAB (RFC 9110 §5.5).
pub(crate) fn is_field_byte(b: u8) -> bool {
    b == b'\t' || b == b' ' || (0x21..=0x7e).contains(&b) || b >= 0x80
}

/// Strips optional whitespace (SP / HTAB) on both ends.
pub(crate) fn trim_ows(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// The non-empty elements of a comma-separated list, trimmed (RFC 9110 §5.6.1).
pub(crate) fn list_items(v: &[u8]) -> impl Iterator<Item = &[u8]> {
    v.split(|&b| b == b',')
        .map(trim_ows)
        .filter(|s| !s.is_empty())
}

/// Writes `n` in lowercase hexadecimal without allocating.
pub(crate) fn push_hex(out: &mut Vec<u8>, n: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 16];
    let mut len = 0usize;
    let mut v = n;
    loop {
        let nibble = usize::from(u8::try_from(v & 0xf).unwrap_or(0));
        if let (Some(slot), Some(&d)) = (buf.get_mut(len), DIGITS.get(nibble)) {
            *slot = d;
        }
        len = len.saturating_add(1);
        v >>= 4;
        if v == 0 || len >= buf.len() {
            break;
        }
    }
    out.extend(buf.iter().take(len).rev());
}

/// Writes `n` in decimal without allocating.
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    let mut buf = [0u8; 20];
    let mut len = 0usize;
    let mut v = n;
    loop {
        let digit = u8::try_from(v % 10).unwrap_or(0);
        if let Some(slot) = buf.get_mut(len) {
            *slot = b'0'.saturating_add(digit);
        }
        len = len.saturating_add(1);
        v /= 10;
        if v == 0 || len >= buf.len() {
            break;
        }
    }
    out.extend(buf.iter().take(len).rev());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_decimal() {
        for n in [0u64, 1, 9, 10, 15, 16, 255, 4096, 1_048_576, u64::MAX] {
            let mut h = Vec::new();
            push_hex(&mut h, n);
            assert_eq!(h, format!("{n:x}").into_bytes());
            let mut d = Vec::new();
            push_decimal(&mut d, n);
            assert_eq!(d, n.to_string().into_bytes());
        }
    }

    #[test]
    fn ows_and_lists() {
        assert_eq!(trim_ows(b" \t a b \t"), b"a b");
        assert_eq!(trim_ows(b"   "), b"");
        let items: Vec<&[u8]> = list_items(b" close , ,keep-alive,").collect();
        assert_eq!(items, vec![&b"close"[..], &b"keep-alive"[..]]);
    }
}
