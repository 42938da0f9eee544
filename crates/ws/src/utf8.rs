//! UTF-8 validation of a message that arrives in pieces (RFC 6455 §8.1), failing at the first
//! piece that holds an invalid byte rather than at the end of the message.

/// How far a growing buffer is known to be valid UTF-8.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Utf8Check {
    valid_up_to: usize,
}

impl Utf8Check {
    /// Checks the bytes `buf` gained since the last call. An incomplete character at the end
    /// waits for the next piece (std's `error_len() == None`: a valid prefix of a character);
    /// anything else invalid is an error now.
    pub(crate) fn advance(&mut self, buf: &[u8]) -> Result<(), InvalidUtf8> {
        let tail = buf.get(self.valid_up_to..).unwrap_or_default();
        match core::str::from_utf8(tail) {
            Ok(_) => self.valid_up_to = buf.len(),
            Err(e) if e.error_len().is_none() => {
                self.valid_up_to = self.valid_up_to.saturating_add(e.valid_up_to());
            }
            Err(_) => return Err(InvalidUtf8),
        }
        Ok(())
    }

    /// Whether the whole of `buf` (the complete message) is valid: no character left open.
    pub(crate) fn is_complete(&self, buf: &[u8]) -> bool {
        self.valid_up_to == buf.len()
    }
}

/// The bytes are not UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InvalidUtf8;

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pieces: &[&[u8]]) -> Result<bool, usize> {
        let mut buf = Vec::new();
        let mut c = Utf8Check::default();
        for (i, p) in pieces.iter().enumerate() {
            buf.extend_from_slice(p);
            c.advance(&buf).map_err(|_| i)?;
        }
        Ok(c.is_complete(&buf))
    }

    #[test]
    fn characters_split_across_pieces() {
        let s = "κόσμε €𝄞".as_bytes();
        for cut in 0..=s.len() {
            assert_eq!(run(&[&s[..cut], &s[cut..]]), Ok(true), "cut at {cut}");
        }
        let singles: Vec<&[u8]> = s.chunks(1).collect();
        assert_eq!(run(&singles), Ok(true));
    }

    #[test]
    fn fails_at_the_first_invalid_piece() {
        // Autobahn 6.4.x: the invalid byte fails its own piece, before the message ends.
        assert_eq!(
            run(&[b"\xce\xba\xe1\xbd\xb9", b"\xf4\x90\x80\x80", b"edited"]),
            Err(1)
        );
        assert_eq!(run(&[b"ok", b"\xc0\xaf"]), Err(1)); // overlong
        assert_eq!(run(&[b"\xed\xa0\x80"]), Err(0)); // surrogate
        assert_eq!(run(&[b"\xf4", b"\x90"]), Err(1)); // above U+10FFFF, split
    }

    #[test]
    fn an_open_character_at_the_end_is_incomplete() {
        assert_eq!(run(&[b"ab\xe2\x82"]), Ok(false));
    }
}
