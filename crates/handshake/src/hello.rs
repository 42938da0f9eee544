//! Building the ClientHello from a [`Profile`].

use crate::codec::{handshake_message, put_u16, put_vec};
use crate::profile::ExtensionSlot;
use crate::{Error, ExtensionType, HandshakeType, Profile};
use burrow_crypto::kx::KeyShare;

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
    pub(crate) grease: u16,
    /// A TLS 1.2 session ticket to offer in session_ticket (RFC 5077).
    pub(crate) tls12_ticket: Option<&'a [u8]>,
}

/// The ClientHello message (with a zeroed binder if a PSK is offered) and the length of the
/// binders list at its end (0 without PSK).
pub(crate) fn build(inp: &HelloInput<'_>) -> Result<(Vec<u8>, usize), Error> {
    let p = inp.profile;
    let mut exts: Vec<(ExtensionSlot, u16, Vec<u8>)> = Vec::new();
    for slot in &p.extension_order {
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
    if inp.profile.grease {
        put_u16(&mut suites, inp.grease);
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

fn extension(inp: &HelloInput<'_>, slot: ExtensionSlot) -> Result<Option<(u16, Vec<u8>)>, Error> {
    use ExtensionSlot as S;
    let p = inp.profile;
    let grease = p.grease.then_some(inp.grease);
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
            list16(grease.into_iter().chain(p.groups.iter().map(|g| g.0)), 2)?,
        ),
        S::SessionTicket => (
            ExtensionType::SESSION_TICKET,
            inp.tls12_ticket.unwrap_or(&[]).to_vec(),
        ),
        S::KeyShare => {
            let mut shares = Vec::new();
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
            if let Some(g) = grease {
                put_u16(&mut v, g);
            }
            if crate::suites::offers_tls13(&p.cipher_suites) {
                put_u16(&mut v, 0x0304);
            }
            if crate::suites::offers_tls12(&p.cipher_suites) {
                put_u16(&mut v, 0x0303);
            }
            let mut b = Vec::new();
            put_vec(&mut b, 1, &v)?;
            (ExtensionType::SUPPORTED_VERSIONS, b)
        }
        S::SignatureAlgorithms => (
            ExtensionType::SIGNATURE_ALGORITHMS,
            list16(p.signature_schemes.iter().map(|s| s.0), 2)?,
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
        S::EcPointFormats => (ExtensionType::EC_POINT_FORMATS, vec![1, 0]),
        S::Grease => {
            let Some(g) = grease else { return Ok(None) };
            (ExtensionType(g), Vec::new())
        }
        S::PreSharedKey => return Ok(None),
    };
    Ok(Some((typ.0, body)))
}

/// Which extension types a profile can put in a ClientHello (to spot unsolicited replies).
pub(crate) fn offered(p: &Profile, slot: ExtensionSlot) -> bool {
    p.extension_order.contains(&slot)
}
