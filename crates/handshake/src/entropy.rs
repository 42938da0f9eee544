//! The randomness a connection needs, drawn by the caller.

use crate::{Error, Profile};
use burrow_crypto::kx::Group;

/// The randomness a connection needs, drawn by the caller (the core draws none). The key share
/// seeds are private keys: `Debug` leaves them out, and the connection wipes its copy once the
/// key shares are made.
#[derive(Clone, PartialEq, Eq)]
pub struct Entropy {
    /// ClientHello.random.
    pub client_random: [u8; 32],
    /// legacy_session_id (used in compatibility mode).
    pub session_id: [u8; 32],
    /// One seed per `profile.key_shares` entry (`Group::seed_len` bytes each).
    pub key_share_seeds: Vec<Vec<u8>>,
    /// Seed for a key share a HelloRetryRequest may ask for (up to 96 bytes; a retry to a group
    /// needing more fails).
    pub retry_seed: Vec<u8>,
    /// One byte per GREASE place (cipher, group, signature algorithm, version, first and
    /// second extension) when the profile sends GREASE; empty otherwise.
    pub grease: Vec<u8>,
    /// Two bytes per extension slot when the profile permutes its extensions; empty otherwise.
    pub permutation: Vec<u8>,
    /// The ECH GREASE extension's randomness (config id, enc, length, payload) when the
    /// profile sends one; empty otherwise.
    pub ech_grease: Vec<u8>,
}

impl Entropy {
    /// How many random bytes [`from_pool`](Self::from_pool) takes for `profile`.
    pub fn pool_len(profile: &Profile) -> usize {
        let shares: usize = profile
            .key_shares
            .iter()
            .map(|g| Group::from_codepoint(g.0).map_or(0, Group::seed_len))
            .fold(0, usize::saturating_add);
        let sid = if profile.compatibility_mode { 32 } else { 0 };
        32usize
            .saturating_add(sid)
            .saturating_add(shares)
            .saturating_add(
                Self::shape_lens(profile)
                    .iter()
                    .fold(0, |a, b| a.saturating_add(*b)),
            )
            .saturating_add(96)
    }

    /// GREASE, permutation and ECH GREASE byte counts for `profile` (0 when unused).
    fn shape_lens(profile: &Profile) -> [usize; 3] {
        [
            if profile.grease.any() {
                crate::hello::GREASE_POOL
            } else {
                0
            },
            crate::hello::permutation_pool(profile),
            if profile.ech_grease {
                crate::hello::ECH_GREASE_POOL
            } else {
                0
            },
        ]
    }

    /// Slices a pool of random bytes in order: client random, session id (compatibility mode
    /// only), each key share seed, the GREASE bytes, the permutation bytes and the ECH GREASE
    /// bytes (each only when the profile uses it), then the retry seed (whatever remains, at
    /// most 96 bytes).
    pub fn from_pool(profile: &Profile, pool: &[u8]) -> Result<Self, Error> {
        let mut rest = pool;
        let mut take = |n: usize| -> Result<&[u8], Error> {
            let (a, b) = rest.split_at_checked(n).ok_or(Error::Misuse)?;
            rest = b;
            Ok(a)
        };
        let client_random: [u8; 32] = take(32)?.try_into().map_err(|_| Error::Misuse)?;
        let mut session_id = [0u8; 32];
        if profile.compatibility_mode {
            session_id.copy_from_slice(take(32)?);
        }
        let mut key_share_seeds = Vec::new();
        for g in &profile.key_shares {
            let group = Group::from_codepoint(g.0).ok_or(Error::UnsupportedGroup(*g))?;
            key_share_seeds.push(take(group.seed_len())?.to_vec());
        }
        let [g, p, e] = Self::shape_lens(profile);
        let grease = take(g)?.to_vec();
        let permutation = take(p)?.to_vec();
        let ech_grease = take(e)?.to_vec();
        let retry_seed = rest.get(..rest.len().min(96)).unwrap_or(&[]).to_vec();
        Ok(Self {
            client_random,
            session_id,
            key_share_seeds,
            retry_seed,
            grease,
            permutation,
            ech_grease,
        })
    }
}

impl core::fmt::Debug for Entropy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Entropy")
            .field("client_random", &self.client_random)
            .field("key_share_seeds", &self.key_share_seeds.len())
            .finish_non_exhaustive()
    }
}
