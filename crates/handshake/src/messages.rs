//! Parsers for the messages a TLS 1.3 server sends. Whole-message decoding: trailing bytes are
//! errors; every length is checked against what remains.

use crate::codec::Reader;
use crate::{CipherSuite, Error, ExtensionType, NamedGroup, SignatureScheme};

/// SHA-256("HelloRetryRequest"): the ServerHello.random of a HelloRetryRequest.
pub(crate) const HRR_RANDOM: [u8; 32] = [
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
    0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
];

/// An extension: type and body.
pub(crate) type Ext<'a> = (ExtensionType, &'a [u8]);

/// Parses `Extension extensions<0..2^16-1>`; duplicates are illegal.
pub(crate) fn extensions<'a>(r: &mut Reader<'a>) -> Result<Vec<Ext<'a>>, Error> {
    let mut list = Reader::new(r.vec16()?);
    let mut out: Vec<Ext<'a>> = Vec::new();
    while !list.is_empty() {
        let typ = ExtensionType(list.u16()?);
        let body = list.vec16()?;
        if out.iter().any(|(t, _)| *t == typ) {
            return Err(Error::IllegalParameter);
        }
        if out.len() >= 64 {
            return Err(Error::Decode);
        }
        out.push((typ, body));
    }
    Ok(out)
}

/// ServerHello or HelloRetryRequest.
#[derive(Debug)]
pub(crate) struct ServerHello<'a> {
    pub(crate) legacy_version: u16,
    pub(crate) random: [u8; 32],
    pub(crate) session_id: &'a [u8],
    pub(crate) suite: CipherSuite,
    pub(crate) compression: u8,
    pub(crate) extensions: Vec<Ext<'a>>,
}

impl<'a> ServerHello<'a> {
    pub(crate) fn parse(body: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(body);
        let legacy_version = r.u16()?;
        let random: [u8; 32] = r.take(32)?.try_into().map_err(|_| Error::Decode)?;
        let session_id = r.vec8()?;
        if session_id.len() > 32 {
            return Err(Error::Decode);
        }
        let suite = CipherSuite(r.u16()?);
        let compression = r.u8()?;
        // A TLS 1.2 ServerHello may omit the extensions block entirely.
        let extensions = if r.is_empty() {
            Vec::new()
        } else {
            extensions(&mut r)?
        };
        r.finish()?;
        Ok(Self {
            legacy_version,
            random,
            session_id,
            suite,
            compression,
            extensions,
        })
    }

    pub(crate) fn is_hrr(&self) -> bool {
        self.random == HRR_RANDOM
    }

    pub(crate) fn ext(&self, t: ExtensionType) -> Option<&'a [u8]> {
        self.extensions
            .iter()
            .find(|(x, _)| *x == t)
            .map(|(_, b)| *b)
    }

    /// The version in supported_versions, if present.
    pub(crate) fn selected_version(&self) -> Result<Option<u16>, Error> {
        let Some(b) = self.ext(ExtensionType::SUPPORTED_VERSIONS) else {
            return Ok(None);
        };
        let mut r = Reader::new(b);
        let v = r.u16()?;
        r.finish()?;
        Ok(Some(v))
    }
}

/// ServerHello key_share: the server's entry.
pub(crate) fn server_key_share(b: &[u8]) -> Result<(NamedGroup, &[u8]), Error> {
    let mut r = Reader::new(b);
    let g = NamedGroup(r.u16()?);
    let k = r.vec16()?;
    r.finish()?;
    if k.is_empty() {
        return Err(Error::Decode);
    }
    Ok((g, k))
}

/// A u16 body (HRR key_share selected_group, pre_shared_key selected_identity, record_size_limit).
pub(crate) fn u16_body(b: &[u8]) -> Result<u16, Error> {
    let mut r = Reader::new(b);
    let v = r.u16()?;
    r.finish()?;
    Ok(v)
}

/// The single ALPN protocol a server selected.
pub(crate) fn alpn_selected(b: &[u8]) -> Result<&[u8], Error> {
    let mut r = Reader::new(b);
    let mut list = Reader::new(r.vec16()?);
    r.finish()?;
    let p = list.vec8()?;
    list.finish()?;
    if p.is_empty() {
        return Err(Error::Decode);
    }
    Ok(p)
}

/// One CertificateEntry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CertEntry<'a> {
    pub(crate) der: &'a [u8],
    pub(crate) extensions: Vec<Ext<'a>>,
}

/// Most certificates accepted in a chain.
pub(crate) const MAX_CHAIN: usize = 16;

/// Certificate (server): empty request context, at least one entry.
pub(crate) fn certificate(body: &[u8]) -> Result<Vec<CertEntry<'_>>, Error> {
    let mut r = Reader::new(body);
    let ctx = r.vec8()?;
    let mut list = Reader::new(r.vec24()?);
    r.finish()?;
    if !ctx.is_empty() {
        return Err(Error::IllegalParameter);
    }
    let mut out = Vec::new();
    while !list.is_empty() {
        let der = list.vec24()?;
        if der.is_empty() {
            return Err(Error::Decode);
        }
        let extensions = extensions(&mut list)?;
        if out.len() >= MAX_CHAIN {
            return Err(Error::BadCertificate);
        }
        out.push(CertEntry { der, extensions });
    }
    if out.is_empty() {
        return Err(Error::Decode);
    }
    Ok(out)
}

/// The OCSP response inside a CertificateEntry status_request extension.
pub(crate) fn ocsp_response(b: &[u8]) -> Result<&[u8], Error> {
    let mut r = Reader::new(b);
    if r.u8()? != 1 {
        return Err(Error::IllegalParameter);
    }
    let resp = r.vec24()?;
    r.finish()?;
    if resp.is_empty() {
        return Err(Error::Decode);
    }
    Ok(resp)
}

/// CertificateVerify: scheme and signature.
pub(crate) fn certificate_verify(body: &[u8]) -> Result<(SignatureScheme, &[u8]), Error> {
    let mut r = Reader::new(body);
    let s = SignatureScheme(r.u16()?);
    let sig = r.vec16()?;
    r.finish()?;
    Ok((s, sig))
}

/// NewSessionTicket.
#[derive(Debug)]
pub(crate) struct NewSessionTicket<'a> {
    pub(crate) lifetime: u32,
    pub(crate) age_add: u32,
    pub(crate) nonce: &'a [u8],
    pub(crate) ticket: &'a [u8],
    pub(crate) max_early_data: Option<u32>,
}

pub(crate) fn new_session_ticket(body: &[u8]) -> Result<NewSessionTicket<'_>, Error> {
    let mut r = Reader::new(body);
    let lifetime = r.u32()?;
    let age_add = r.u32()?;
    let nonce = r.vec8()?;
    let ticket = r.vec16()?;
    let exts = extensions(&mut r)?;
    r.finish()?;
    if ticket.is_empty() {
        return Err(Error::Decode);
    }
    if lifetime > 604_800 {
        return Err(Error::IllegalParameter);
    }
    let mut max_early_data = None;
    for (t, b) in exts {
        if t == ExtensionType::EARLY_DATA {
            let mut er = Reader::new(b);
            max_early_data = Some(er.u32()?);
            er.finish()?;
        }
    }
    Ok(NewSessionTicket {
        lifetime,
        age_add,
        nonce,
        ticket,
        max_early_data,
    })
}

/// KeyUpdate: `true` when the peer requests an update from us.
pub(crate) fn key_update(body: &[u8]) -> Result<bool, Error> {
    match body {
        [0] => Ok(false),
        [1] => Ok(true),
        [_] => Err(Error::IllegalParameter),
        _ => Err(Error::Decode),
    }
}

/// CompressedCertificate (RFC 8879 §4): algorithm, uncompressed length, compressed bytes.
pub(crate) fn compressed_certificate(body: &[u8]) -> Result<(u16, usize, &[u8]), Error> {
    let mut r = Reader::new(body);
    let alg = r.u16()?;
    let len = r.u24()?;
    let data = r.vec24()?;
    r.finish()?;
    if data.is_empty() || len == 0 {
        return Err(Error::Decode);
    }
    Ok((alg, len, data))
}

/// Decompresses a CompressedCertificate's bytes with `alg` (1 zlib, 2 brotli, 3 zstd) into
/// exactly `len` bytes, never producing more than `len` (the sender's claim, already checked
/// against the handshake message budget): anything else is `CertificateDecompression`.
pub(crate) fn decompress_certificate(alg: u16, len: usize, data: &[u8]) -> Result<Vec<u8>, Error> {
    use burrow_decode::{Coding, Decoder};
    let coding = match alg {
        1 => Coding::Deflate,
        2 => Coding::Br,
        3 => Coding::Zstd,
        _ => return Err(Error::IllegalParameter),
    };
    let cap = u64::try_from(len).map_err(|_| Error::MessageTooLarge)?;
    let mut d = Decoder::new(&[coding], Some(cap));
    let mut out = Vec::with_capacity(len);
    d.decode(data, &mut out)
        .and_then(|()| d.finish(&mut out))
        .map_err(|_| Error::CertificateDecompression)?;
    if out.len() != len {
        return Err(Error::CertificateDecompression);
    }
    Ok(out)
}
