//! The AEAD additional data of a record: 5 bytes (TLS 1.3: the record header) or 13 bytes
//! (TLS 1.2: `seq || type || version || length`).

use crate::HEADER_LEN;

/// Additional data for an AEAD job; derefs to the bytes to authenticate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Aad {
    bytes: [u8; 13],
    len: u8,
}

impl Aad {
    /// TLS 1.3: the 5-byte record header.
    pub(crate) fn header(h: [u8; HEADER_LEN]) -> Self {
        let mut bytes = [0u8; 13];
        for (d, s) in bytes.iter_mut().zip(h) {
            *d = s;
        }
        Self { bytes, len: 5 }
    }

    /// TLS 1.2: the 13-byte form.
    pub(crate) fn tls12(a: [u8; 13]) -> Self {
        Self { bytes: a, len: 13 }
    }
}

impl core::ops::Deref for Aad {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl AsRef<[u8]> for Aad {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl core::fmt::Debug for Aad {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
