//! The `Sec-WebSocket-Extensions` grammar (RFC 6455 §9.1):
//!
//! ```text
//! extension-list = 1#extension
//! extension      = extension-token *( ";" extension-param )
//! extension-param = token [ "=" (token | quoted-string) ]
//! ```
//!
//! with optional whitespace around the separators and empty list elements skipped (RFC 9110
//! §5.6.1). "When using the quoted-string syntax variant, the value after quoted-string
//! unescaping MUST conform to the 'token' ABNF."

/// One extension of the list with its parameters, borrowed from the field value except for
/// values that were quoted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Extension<'a> {
    pub(crate) name: &'a str,
    pub(crate) params: Vec<(&'a str, Option<String>)>,
}

/// The value does not follow the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Malformed;

/// Parses one field value into its extensions, in order.
pub(crate) fn parse(value: &[u8]) -> Result<Vec<Extension<'_>>, Malformed> {
    let mut c = Cursor { rest: value };
    let mut list = Vec::new();
    loop {
        c.skip_ows();
        match c.peek() {
            None => return Ok(list),
            Some(b',') => {
                c.bump();
                continue;
            }
            Some(_) => {}
        }
        let name = c.token()?;
        let mut params = Vec::new();
        loop {
            c.skip_ows();
            match c.peek() {
                Some(b';') => {
                    c.bump();
                    c.skip_ows();
                    let p = c.token()?;
                    c.skip_ows();
                    let v = if c.peek() == Some(b'=') {
                        c.bump();
                        c.skip_ows();
                        Some(c.value()?)
                    } else {
                        None
                    };
                    params.push((p, v));
                }
                Some(b',') | None => break,
                Some(_) => return Err(Malformed),
            }
        }
        list.push(Extension { name, params });
    }
}

struct Cursor<'a> {
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    fn bump(&mut self) {
        self.rest = self.rest.get(1..).unwrap_or_default();
    }

    fn skip_ows(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
    }

    /// A non-empty token.
    fn token(&mut self) -> Result<&'a str, Malformed> {
        let n = self.rest.iter().take_while(|b| is_tchar(**b)).count();
        let (t, rest) = self.rest.split_at_checked(n).ok_or(Malformed)?;
        if t.is_empty() {
            return Err(Malformed);
        }
        self.rest = rest;
        // tchars are ASCII.
        core::str::from_utf8(t).map_err(|_| Malformed)
    }

    /// A token or a quoted-string whose unescaped content is a token.
    fn value(&mut self) -> Result<String, Malformed> {
        if self.peek() != Some(b'"') {
            return self.token().map(str::to_owned);
        }
        self.bump();
        let mut v = String::new();
        loop {
            let b = self.peek().ok_or(Malformed)?;
            self.bump();
            let ch = match b {
                b'"' => break,
                b'\\' => {
                    let e = self.peek().ok_or(Malformed)?;
                    self.bump();
                    e
                }
                b => b,
            };
            if !is_tchar(ch) {
                return Err(Malformed);
            }
            v.push(char::from(ch));
        }
        if v.is_empty() {
            return Err(Malformed);
        }
        Ok(v)
    }
}

/// RFC 9110 §5.6.2 tchar.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext<'a>(name: &'a str, params: &[(&'a str, Option<&str>)]) -> Extension<'a> {
        Extension {
            name,
            params: params
                .iter()
                .map(|(n, v)| (*n, v.map(str::to_owned)))
                .collect(),
        }
    }

    #[test]
    fn lists_and_parameters() {
        assert_eq!(parse(b"").unwrap(), vec![]);
        assert_eq!(
            parse(b"permessage-deflate").unwrap(),
            vec![ext("permessage-deflate", &[])]
        );
        assert_eq!(
            parse(b" permessage-deflate ;client_max_window_bits = 10;server_no_context_takeover , , x-y ; a=\"b\\c\"")
                .unwrap(),
            vec![
                ext(
                    "permessage-deflate",
                    &[("client_max_window_bits", Some("10")), ("server_no_context_takeover", None)]
                ),
                ext("x-y", &[("a", Some("bc"))]),
            ]
        );
    }

    #[test]
    fn malformed_values() {
        for bad in [
            &b"permessage-deflate;"[..],
            b"permessage-deflate; a=",
            b"permessage-deflate; a=\"\"",
            b"permessage-deflate; a=\"x y\"",
            b"permessage-deflate; a=\"unterminated",
            b"permessage-deflate a",
            b";a",
            b"permessage-deflate; a=b=c",
            b"p\xc3\xa9",
        ] {
            assert_eq!(
                parse(bad),
                Err(Malformed),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
