//! Just enough JSON writing for `response.burrow` and the demo routes (no serde: keeps the wasm
//! small).

use std::fmt::Write;

/// Appends `s` as a JSON string literal (with quotes) to `out`.
pub(crate) fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends a finite number (milliseconds) with three decimals; non-finite values become `null`.
#[cfg(any(test, feature = "demo"))]
pub(crate) fn push_ms(out: &mut String, ms: f64) {
    if ms.is_finite() {
        let _ = write!(out, "{ms:.3}");
    } else {
        out.push_str("null");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut out = String::new();
        push_str(&mut out, "a\"b\\c\nd\u{1}é");
        assert_eq!(out, r#""a\"b\\c\nd\u0001é""#);
    }

    #[test]
    fn numbers() {
        let mut out = String::new();
        push_ms(&mut out, 1.23456);
        out.push(',');
        push_ms(&mut out, f64::NAN);
        assert_eq!(out, "1.235,null");
    }
}
