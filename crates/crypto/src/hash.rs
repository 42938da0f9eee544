//! SHA-2 hashing: one-shot and incremental (forkable for TLS transcripts).

use sha2::{Digest, Sha256, Sha384, Sha512};

/// The hash functions burrow uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashAlgorithm {
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl HashAlgorithm {
    /// Digest length in bytes (32, 48 or 64).
    pub fn output_len(self) -> usize {
        match self {
            Self::Sha256 => 32,
            Self::Sha384 => 48,
            Self::Sha512 => 64,
        }
    }

    /// Internal block length in bytes (64 or 128).
    pub fn block_len(self) -> usize {
        match self {
            Self::Sha256 => 64,
            Self::Sha384 | Self::Sha512 => 128,
        }
    }
}

/// A digest (or MAC / PRK) of up to 64 bytes; `as_ref()` gives exactly the algorithm's length.
#[derive(Clone, Copy)]
pub struct Output {
    buf: [u8; 64],
    len: usize,
}

impl Output {
    /// Builds an output from bytes; inputs longer than 64 bytes are cut to 64.
    pub(crate) fn from_slice(bytes: &[u8]) -> Self {
        let mut buf = [0u8; 64];
        let len = bytes.len().min(64);
        for (dst, src) in buf.iter_mut().zip(bytes) {
            *dst = *src;
        }
        Self { buf, len }
    }

    /// An all-zero output of `len` bytes (at most 64).
    pub(crate) fn zero(len: usize) -> Self {
        Self {
            buf: [0u8; 64],
            len: len.min(64),
        }
    }

    /// The digest length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the output is empty (never, for real digests).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl AsRef<[u8]> for Output {
    fn as_ref(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

impl PartialEq for Output {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl Eq for Output {}

impl core::fmt::Debug for Output {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Output(")?;
        for b in self.as_ref() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

/// One-shot digest of `data`.
pub fn digest(alg: HashAlgorithm, data: &[u8]) -> Output {
    let mut ctx = Context::new(alg);
    ctx.update(data);
    ctx.finish()
}

#[derive(Clone)]
enum State {
    Sha256(Sha256),
    Sha384(Sha384),
    Sha512(Sha512),
}

/// Incremental hash. `Clone` forks the state (e.g. a transcript hash taken mid-handshake).
#[derive(Clone)]
pub struct Context {
    state: State,
}

impl Context {
    /// Starts a new hash computation.
    pub fn new(alg: HashAlgorithm) -> Self {
        let state = match alg {
            HashAlgorithm::Sha256 => State::Sha256(Sha256::new()),
            HashAlgorithm::Sha384 => State::Sha384(Sha384::new()),
            HashAlgorithm::Sha512 => State::Sha512(Sha512::new()),
        };
        Self { state }
    }

    /// Feeds more data.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.state {
            State::Sha256(h) => h.update(data),
            State::Sha384(h) => h.update(data),
            State::Sha512(h) => h.update(data),
        }
    }

    /// Finishes and returns the digest.
    pub fn finish(self) -> Output {
        match self.state {
            State::Sha256(h) => Output::from_slice(&h.finalize()),
            State::Sha384(h) => Output::from_slice(&h.finalize()),
            State::Sha512(h) => Output::from_slice(&h.finalize()),
        }
    }

    /// The algorithm this context computes.
    pub fn algorithm(&self) -> HashAlgorithm {
        match self.state {
            State::Sha256(_) => HashAlgorithm::Sha256,
            State::Sha384(_) => HashAlgorithm::Sha384,
            State::Sha512(_) => HashAlgorithm::Sha512,
        }
    }
}

impl core::fmt::Debug for Context {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Context")
            .field("algorithm", &self.algorithm())
            .finish_non_exhaustive()
    }
}
