//! A borrowed reader built on `split_at_checked`, and length-prefixed writers.

use crate::Error;

/// Reads big-endian integers and length-prefixed vectors from a borrowed slice.
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Self { rest: b }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let (a, b) = self.rest.split_at_checked(n).ok_or(Error::Decode)?;
        self.rest = b;
        Ok(a)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        let [a] = self.take(1)? else {
            return Err(Error::Decode);
        };
        Ok(*a)
    }

    pub(crate) fn u16(&mut self) -> Result<u16, Error> {
        let [a, b] = self.take(2)? else {
            return Err(Error::Decode);
        };
        Ok(u16::from_be_bytes([*a, *b]))
    }

    pub(crate) fn u24(&mut self) -> Result<usize, Error> {
        let [a, b, c] = self.take(3)? else {
            return Err(Error::Decode);
        };
        usize::try_from(u32::from_be_bytes([0, *a, *b, *c])).map_err(|_| Error::Decode)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        let [a, b, c, d] = self.take(4)? else {
            return Err(Error::Decode);
        };
        Ok(u32::from_be_bytes([*a, *b, *c, *d]))
    }

    /// `opaque x<0..255>`
    pub(crate) fn vec8(&mut self) -> Result<&'a [u8], Error> {
        let n = self.u8()?;
        self.take(usize::from(n))
    }

    /// `opaque x<0..2^16-1>`
    pub(crate) fn vec16(&mut self) -> Result<&'a [u8], Error> {
        let n = self.u16()?;
        self.take(usize::from(n))
    }

    /// `opaque x<0..2^24-1>`
    pub(crate) fn vec24(&mut self) -> Result<&'a [u8], Error> {
        let n = self.u24()?;
        self.take(n)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// Fails with `Decode` if bytes remain.
    pub(crate) fn finish(&self) -> Result<(), Error> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(Error::Decode)
        }
    }
}

/// Appends `body` with a big-endian length prefix of `width` bytes (1, 2 or 3).
pub(crate) fn put_vec(out: &mut Vec<u8>, width: usize, body: &[u8]) -> Result<(), Error> {
    let n = u32::try_from(body.len()).map_err(|_| Error::Internal)?;
    let be = n.to_be_bytes();
    let skip = 4usize.checked_sub(width).ok_or(Error::Internal)?;
    if be.iter().take(skip).any(|&b| b != 0) {
        return Err(Error::Internal);
    }
    out.extend_from_slice(be.get(skip..).ok_or(Error::Internal)?);
    out.extend_from_slice(body);
    Ok(())
}

pub(crate) fn put_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// A handshake message: type, u24 length, body.
pub(crate) fn handshake_message(typ: u8, body: &[u8]) -> Result<Vec<u8>, Error> {
    let mut m = Vec::with_capacity(body.len().saturating_add(4));
    m.push(typ);
    put_vec(&mut m, 3, body)?;
    Ok(m)
}
