//! Building the ClientHello from a [`Profile`].

use crate::codec::{handshake_message, put_u16, put_vec};
use crate::profile::ExtensionSlot;
use crate::{Error, ExtensionType, HandshakeType, Profile};
use burrow_crypto::kx::KeyShare;

/// The GREASE values of one connection, one per place (RFC 8701), kept for a retry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GreaseValues {
    pub(crate) cipher: u16,
    pub(crate) group: u16,
    pub(crate) sigalg: u16,
    pub(crate) version: u16,
    pub(crate) ext1: u16,
    pub(crate) ext2: u16,
}

/// A GREASE value (0x?a?a) from one random byte.
fn grease_value(b: u8) -> u16 {
    let n = u16::from(b & 0x0f);
    0x0a0au16.wrapping_add(n.wrapping_mul(0x1010))
}

/// Bytes of entropy the GREASE values take.
pub(crate) const GREASE_POOL: usize = 6;
/// Bytes of entropy the ECH GREASE extension takes: config id, enc, length choice, payload.
pub(crate) const ECH_GREASE_POOL: usize = 1 + 32 + 1 + ECH_MAX_PAYLOAD;
const ECH_MAX_PAYLOAD: usize = 240;

/// Bytes of entropy the extension permutation takes for `p`.
pub(crate) fn permutation_pool(p: &Profile) -> usize {
    if p.permute_extensions {
        p.extension_order.len().saturating_mul(2)
    } else {
        0
    }
}

/// What one connection's ClientHellos share besides the profile: GREASE values, the
/// (possibly permuted) extension order and the ECH GREASE body, all drawn once from the
/// caller's entropy so a ClientHello answering a HelloRetryRequest repeats them.
#[derive(Clone, Debug)]
pub(crate) struct HelloShape {
    pub(crate) grease: GreaseValues,
    pub(crate) order: Vec<ExtensionSlot>,
    pub(crate) ech_grease: Option<Vec<u8>>,
}

impl HelloShape {
    /// From the entropy drawn for them: one byte per GREASE place, two per permuted slot and
    /// the ECH GREASE bytes (each empty when the profile does not use it).
    pub(crate) fn new(
        p: &Profile,
        grease_seed: &[u8],
        permutation_seed: &[u8],
        ech_seed: &[u8],
    ) -> Result<Self, Error> {
        let mut grease = GreaseValues::default();
        if p.grease.any() {
            let g = |i: usize| {
                grease_seed
                    .get(i)
                    .copied()
                    .map(grease_value)
                    .ok_or(Error::Misuse)
            };
            grease = GreaseValues {
                cipher: g(0)?,
                group: g(1)?,
                sigalg: g(2)?,
                version: g(3)?,
                ext1: g(4)?,
                ext2: g(5)?,
            };
            // Two GREASE extensions of the same type would be a duplicate (BoringSSL's rule).
            if grease.ext2 == grease.ext1 {
                grease.ext2 ^= 0x1010;
            }
        }
        let mut order = p.extension_order.clone();
        if p.permute_extensions {
            permute(&mut order, permutation_seed)?;
        }
        let ech_grease = if p.ech_grease {
            Some(ech_grease_body(ech_seed)?)
        } else {
            None
        };
        Ok(Self {
            grease,
            order,
            ech_grease,
        })
    }
}

/// Fisher-Yates over the slots that are not fixed; fixed ones (GREASE, padding,
/// pre_shared_key) keep their positions.
fn permute(order: &mut [ExtensionSlot], seed: &[u8]) -> Result<(), Error> {
    let movable: Vec<usize> = order
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_fixed())
        .map(|(i, _)| i)
        .collect();
    let mut k = movable.len();
    let mut draws = seed.chunks_exact(2);
    while k > 1 {
        let last = k.checked_sub(1).ok_or(Error::Internal)?;
        let d = draws.next().ok_or(Error::Misuse)?;
        let r = usize::from(u16::from_be_bytes([
            d.first().copied().unwrap_or(0),
            d.get(1).copied().unwrap_or(0),
        ]));
        let j = r.checked_rem(k).ok_or(Error::Internal)?;
        let (a, b) = (
            *movable.get(last).ok_or(Error::Internal)?,
            *movable.get(j).ok_or(Error::Internal)?,
        );
        order.swap(a, b);
        k = last;
    }
    Ok(())
}

/// ECHClientHello (outer) GREASE, RFC 9849 §6.2: HKDF-SHA256 / AES-128-GCM, random config
/// id, a 32-byte enc and a random payload of 144, 176, 208 or 240 bytes (as Chromium sends).
fn ech_grease_body(e: &[u8]) -> Result<Vec<u8>, Error> {
    let config_id = *e.first().ok_or(Error::Misuse)?;
    let enc = e.get(1..33).ok_or(Error::Misuse)?;
    let choice = usize::from(*e.get(33).ok_or(Error::Misuse)? & 3);
    let len = 144usize.saturating_add(choice.saturating_mul(32));
    let payload = e
        .get(34..34usize.saturating_add(len))
        .ok_or(Error::Misuse)?;
    let mut b = vec![0u8, 0, 1, 0, 1, config_id];
    put_vec(&mut b, 2, enc)?;
    put_vec(&mut b, 2, payload)?;
    Ok(b)
}

/// A PSK identity to offer (the binder is patched in afterwards).
pub(crate) struct PskOffer<'a> {
    pub(crate) identity: &'a [u8],
    pub(crate) obfuscated_age: u32,
    pub(crate) binder_len: usize,
    pub(crate) early_data: bool,
}

pub(crate) struct HelloInput<'a> {
    pub(crate) profile: &'a Profile,
    pub(crate) random: &'a [u8; 32],
    pub(crate) session_id: &'a [u8],
    pub(crate) server_name: Option<&'a str>,
    pub(crate) shares: &'a [KeyShare],
    pub(crate) cookie: Option<&'a [u8]>,
    pub(crate) psk: Option<PskOffer<'a>>,
    pub(crate) shape: &'a HelloShape,
    /// This ClientHello answers a HelloRetryRequest (no GREASE key share then, as BoringSSL).
    pub(crate) after_retry: bool,
    /// A TLS 1.2 session ticket to offer in session_ticket (RFC 5077).
    pub(crate) tls12_ticket: Option<&'a [u8]>,
}

/// The ClientHello message (with a zeroed binder if a PSK is offered) and the length of the
/// binders list at its end (0 without PSK).
pub(crate) fn build(inp: &HelloInput<'_>) -> Result<(Vec<u8>, usize), Error> {
    let mut exts: Vec<(ExtensionSlot, u16, Vec<u8>)> = Vec::new();
    for slot in &inp.shape.order {
        if let Some((typ, body)) = extension(inp, *slot)? {
            exts.push((*slot, typ, body));
        }
    }
    let mut binders_len = 0usize;
    if let Some(psk) = &inp.psk {
        let mut body = Vec::new();
        let mut ids = Vec::new();
        put_vec(&mut ids, 2, psk.identity)?;
        ids.extend_from_slice(&psk.obfuscated_age.to_be_bytes());
        put_vec(&mut body, 2, &ids)?;
        let mut binder = Vec::new();
        put_vec(&mut binder, 1, &vec![0u8; psk.binder_len])?;
        put_vec(&mut body, 2, &binder)?;
        binders_len = binder.len().checked_add(2).ok_or(Error::Internal)?;
        exts.retain(|e| e.0 != ExtensionSlot::PreSharedKey);
        exts.push((
            ExtensionSlot::PreSharedKey,
            ExtensionType::PRE_SHARED_KEY.0,
            body,
        ));
    }
    let base = body_without_extensions(inp)?;
    let ext_total = |exts: &[(ExtensionSlot, u16, Vec<u8>)]| {
        exts.iter()
            .map(|e| e.2.len().saturating_add(4))
            .fold(0usize, usize::saturating_add)
    };
    // Padding (BoringSSL rule): handshake messages of 256..511 bytes are padded to 512.
    if let Some(pos) = exts.iter().position(|e| e.0 == ExtensionSlot::Padding) {
        // Handshake header + body + extensions length + extensions, without the padding one.
        let unpadded = base
            .len()
            .saturating_add(2)
            .saturating_add(ext_total(&exts))
            .saturating_add(4)
            .saturating_sub(4);
        if (0x100..0x200).contains(&unpadded) {
            let mut n = 0x200usize.saturating_sub(unpadded);
            n = if n >= 5 { n.saturating_sub(4) } else { 1 };
            if let Some(e) = exts.get_mut(pos) {
                e.2 = vec![0u8; n];
            }
        } else {
            exts.remove(pos);
        }
    }
    let mut all = Vec::new();
    for (_, typ, body) in &exts {
        put_u16(&mut all, *typ);
        put_vec(&mut all, 2, body)?;
    }
    let mut body = base;
    put_vec(&mut body, 2, &all)?;
    Ok((
        handshake_message(HandshakeType::CLIENT_HELLO.0, &body)?,
        binders_len,
    ))
}

fn body_without_extensions(inp: &HelloInput<'_>) -> Result<Vec<u8>, Error> {
    let mut b = Vec::with_capacity(512);
    put_u16(&mut b, 0x0303);
    b.extend_from_slice(inp.random);
    put_vec(&mut b, 1, inp.session_id)?;
    let mut suites = Vec::new();
    if inp.profile.grease.cipher_suites {
        put_u16(&mut suites, inp.shape.grease.cipher);
    }
    for s in &inp.profile.cipher_suites {
        put_u16(&mut suites, s.0);
    }
    put_vec(&mut b, 2, &suites)?;
    put_vec(&mut b, 1, &[0])?;
    Ok(b)
}

fn list16(items: impl Iterator<Item = u16>, width: usize) -> Result<Vec<u8>, Error> {
    let mut inner = Vec::new();
    for i in items {
        put_u16(&mut inner, i);
    }
    let mut out = Vec::new();
    put_vec(&mut out, width, &inner)?;
    Ok(out)
}

/// One extension's type and body, `None` when the slot sends nothing for this hello. Longer
/// than a function should be because it is a table: one short arm per extension slot, kept
/// together so the ClientHello's contents read in one place.
fn extension(inp: &HelloInput<'_>, slot: ExtensionSlot) -> Result<Option<(u16, Vec<u8>)>, Error> {
    use ExtensionSlot as S;
    let p = inp.profile;
    let g = &inp.shape.grease;
    let (typ, body) = match slot {
        S::ServerName => {
            let Some(name) = inp.server_name else {
                return Ok(None);
            };
            let mut entry = vec![0u8];
            put_vec(&mut entry, 2, name.as_bytes())?;
            let mut b = Vec::new();
            put_vec(&mut b, 2, &entry)?;
            (ExtensionType::SERVER_NAME, b)
        }
        S::RenegotiationInfo => (ExtensionType::RENEGOTIATION_INFO, vec![0]),
        S::SupportedGroups => (
            ExtensionType::SUPPORTED_GROUPS,
            list16(
                p.grease
                    .groups
                    .then_some(g.group)
                    .into_iter()
                    .chain(p.groups.iter().map(|g| g.0)),
                2,
            )?,
        ),
        S::SessionTicket => (
            ExtensionType::SESSION_TICKET,
            inp.tls12_ticket.unwrap_or(&[]).to_vec(),
        ),
        S::KeyShare => {
            let mut shares = Vec::new();
            if p.grease.key_share && !inp.after_retry {
                put_u16(&mut shares, g.group);
                put_vec(&mut shares, 2, &[0])?;
            }
            for s in inp.shares {
                put_u16(&mut shares, s.group().codepoint());
                put_vec(&mut shares, 2, s.public_key())?;
            }
            let mut b = Vec::new();
            put_vec(&mut b, 2, &shares)?;
            (ExtensionType::KEY_SHARE, b)
        }
        S::EarlyData => match &inp.psk {
            Some(psk) if psk.early_data => (ExtensionType::EARLY_DATA, Vec::new()),
            _ => return Ok(None),
        },
        S::SupportedVersions => {
            let mut v = Vec::new();
            if p.grease.versions {
                put_u16(&mut v, g.version);
            }
            if p.supported_versions.is_empty() {
                if crate::suites::offers_tls13(&p.cipher_suites) {
                    put_u16(&mut v, 0x0304);
                }
                if crate::suites::offers_tls12(&p.cipher_suites) {
                    put_u16(&mut v, 0x0303);
                }
            } else {
                // The profile's list, less the versions its (performable) suites cannot
                // serve: a TLS 1.3-only suite list drops 1.2 and below, and vice versa.
                let t13 = crate::suites::offers_tls13(&p.cipher_suites);
                let t12 = crate::suites::offers_tls12(&p.cipher_suites);
                for ver in &p.supported_versions {
                    let keep = if *ver == 0x0304 { t13 } else { t12 };
                    if keep {
                        put_u16(&mut v, *ver);
                    }
                }
            }
            let mut b = Vec::new();
            put_vec(&mut b, 1, &v)?;
            (ExtensionType::SUPPORTED_VERSIONS, b)
        }
        S::SignatureAlgorithms => (
            ExtensionType::SIGNATURE_ALGORITHMS,
            list16(
                p.grease
                    .signature_algorithms
                    .then_some(g.sigalg)
                    .into_iter()
                    .chain(p.signature_schemes.iter().map(|s| s.0)),
                2,
            )?,
        ),
        S::SignatureAlgorithmsCert => {
            if p.signature_schemes_cert.is_empty() {
                return Ok(None);
            }
            (
                ExtensionType::SIGNATURE_ALGORITHMS_CERT,
                list16(p.signature_schemes_cert.iter().map(|s| s.0), 2)?,
            )
        }
        S::Cookie => {
            let Some(c) = inp.cookie else { return Ok(None) };
            let mut b = Vec::new();
            put_vec(&mut b, 2, c)?;
            (ExtensionType::COOKIE, b)
        }
        S::PskKeyExchangeModes => (ExtensionType::PSK_KEY_EXCHANGE_MODES, vec![1, 1]),
        S::RecordSizeLimit => {
            let Some(l) = p.record_size_limit else {
                return Ok(None);
            };
            (ExtensionType::RECORD_SIZE_LIMIT, l.to_be_bytes().to_vec())
        }
        S::Padding => (ExtensionType::PADDING, Vec::new()),
        S::Alpn => {
            if p.alpn.is_empty() {
                return Ok(None);
            }
            let mut inner = Vec::new();
            for a in &p.alpn {
                put_vec(&mut inner, 1, a)?;
            }
            let mut b = Vec::new();
            put_vec(&mut b, 2, &inner)?;
            (ExtensionType::ALPN, b)
        }
        S::StatusRequest => (ExtensionType::STATUS_REQUEST, vec![1, 0, 0, 0, 0]),
        S::Sct => (ExtensionType::SCT, Vec::new()),
        S::ExtendedMasterSecret => (ExtensionType::EXTENDED_MASTER_SECRET, Vec::new()),
        S::EcPointFormats => {
            let mut b = Vec::new();
            put_vec(&mut b, 1, &p.ec_point_formats)?;
            (ExtensionType::EC_POINT_FORMATS, b)
        }
        S::Grease => {
            if !p.grease.extensions {
                return Ok(None);
            }
            (ExtensionType(g.ext1), Vec::new())
        }
        S::Grease2 => {
            if !p.grease.extensions {
                return Ok(None);
            }
            (ExtensionType(g.ext2), vec![0])
        }
        S::EncryptThenMac => (ExtensionType::ENCRYPT_THEN_MAC, Vec::new()),
        S::PostHandshakeAuth => (ExtensionType::POST_HANDSHAKE_AUTH, Vec::new()),
        S::CompressCertificate => {
            if p.compress_certificate.is_empty() {
                return Ok(None);
            }
            let mut inner = Vec::new();
            for a in &p.compress_certificate {
                put_u16(&mut inner, *a);
            }
            let mut b = Vec::new();
            put_vec(&mut b, 1, &inner)?;
            (ExtensionType::COMPRESS_CERTIFICATE, b)
        }
        S::ApplicationSettings => {
            // Only protocols also offered in ALPN (Chromium's rule).
            let protos: Vec<&Vec<u8>> = p.alps.iter().filter(|a| p.alpn.contains(a)).collect();
            if protos.is_empty() {
                return Ok(None);
            }
            let mut inner = Vec::new();
            for a in protos {
                put_vec(&mut inner, 1, a)?;
            }
            let mut b = Vec::new();
            put_vec(&mut b, 2, &inner)?;
            (ExtensionType(p.alps_codepoint), b)
        }
        S::TrustAnchors => {
            if p.trust_anchor_ids.is_empty() {
                return Ok(None);
            }
            let mut inner = Vec::new();
            for id in &p.trust_anchor_ids {
                put_vec(&mut inner, 1, id)?;
            }
            let mut b = Vec::new();
            put_vec(&mut b, 2, &inner)?;
            (ExtensionType::TRUST_ANCHORS, b)
        }
        S::EchGrease => {
            let Some(body) = &inp.shape.ech_grease else {
                return Ok(None);
            };
            (ExtensionType::ENCRYPTED_CLIENT_HELLO, body.clone())
        }
        S::PreSharedKey => return Ok(None),
    };
    Ok(Some((typ.0, body)))
}

/// Which extension types a profile can put in a ClientHello (to spot unsolicited replies).
pub(crate) fn offered(p: &Profile, slot: ExtensionSlot) -> bool {
    p.extension_order.contains(&slot)
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;
    use crate::Entropy;

    /// Extension types of a built ClientHello message.
    fn types(m: &[u8]) -> Vec<u16> {
        let b = &m[4..];
        let mut i = 2 + 32;
        i += 1 + usize::from(b[i]);
        i += 2 + usize::from(u16::from_be_bytes([b[i], b[i + 1]]));
        i += 1 + usize::from(b[i]);
        i += 2;
        let mut out = Vec::new();
        while i < b.len() {
            out.push(u16::from_be_bytes([b[i], b[i + 1]]));
            i += 4 + usize::from(u16::from_be_bytes([b[i + 2], b[i + 3]]));
        }
        out
    }

    #[test]
    fn permuted_hellos_keep_pre_shared_key_last_and_grease_around() {
        let p = Profile::chrome();
        let mut seen = std::collections::HashSet::new();
        for seed in 0u8..=255 {
            let pool: Vec<u8> = (0..Entropy::pool_len(&p))
                .map(|i| u8::try_from(i % 251).unwrap() ^ seed)
                .collect();
            let e = Entropy::from_pool(&p, &pool).unwrap();
            let shape = HelloShape::new(&p, &e.grease, &e.permutation, &e.ech_grease).unwrap();
            let inp = HelloInput {
                profile: &p,
                random: &[1; 32],
                session_id: &[2; 32],
                server_name: Some("example.test"),
                shares: &[],
                cookie: None,
                psk: Some(PskOffer {
                    identity: b"ticket",
                    obfuscated_age: 7,
                    binder_len: 32,
                    early_data: false,
                }),
                shape: &shape,
                after_retry: false,
                tls12_ticket: None,
            };
            let (m, binders) = build(&inp).unwrap();
            assert_eq!(binders, 35);
            let t = types(&m);
            assert_eq!(*t.last().unwrap(), 41, "pre_shared_key last: {t:x?}");
            assert_eq!(t[0], shape.grease.ext1, "GREASE first");
            assert_eq!(
                t[t.len() - 2],
                shape.grease.ext2,
                "GREASE just before the PSK"
            );
            seen.insert(t);
        }
        assert!(seen.len() > 200, "{} distinct orders", seen.len());
    }
}
