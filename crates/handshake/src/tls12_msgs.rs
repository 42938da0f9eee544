//! Parsers for the TLS 1.2 messages a server sends (RFC 5246, RFC 8422, RFC 6066, RFC 5077).
//! Whole-message decoding: trailing bytes are errors.

use crate::codec::Reader;
use crate::{Error, NamedGroup, SignatureScheme};

/// Most certificates accepted in a TLS 1.2 Certificate message.
const MAX_CHAIN: usize = 16;

/// TLS 1.2 Certificate: `ASN.1Cert certificate_list<0..2^24-1>`, leaf first. Empty is refused.
pub(crate) fn certificate(body: &[u8]) -> Result<Vec<&[u8]>, Error> {
    let mut r = Reader::new(body);
    let mut list = Reader::new(r.vec24()?);
    r.finish()?;
    let mut out = Vec::new();
    while !list.is_empty() {
        let c = list.vec24()?;
        if c.is_empty() {
            return Err(Error::Decode);
        }
        if out.len() >= MAX_CHAIN {
            return Err(Error::BadCertificate);
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(Error::BadCertificate);
    }
    Ok(out)
}

/// CertificateStatus (RFC 6066 §8): status_type ocsp(1), `OCSPResponse<1..2^24-1>`.
pub(crate) fn certificate_status(body: &[u8]) -> Result<&[u8], Error> {
    let mut r = Reader::new(body);
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

/// An ECDHE ServerKeyExchange (RFC 8422 §5.4, RFC 5246 §7.4.3).
pub(crate) struct ServerKeyExchange<'a> {
    /// `ServerECDHParams` as sent (the signed part, after the randoms).
    pub(crate) params: &'a [u8],
    pub(crate) group: NamedGroup,
    pub(crate) point: &'a [u8],
    pub(crate) scheme: SignatureScheme,
    pub(crate) signature: &'a [u8],
}

pub(crate) fn server_key_exchange(body: &[u8]) -> Result<ServerKeyExchange<'_>, Error> {
    let mut r = Reader::new(body);
    // curve_type named_curve(3); explicit curves are refused.
    if r.u8()? != 3 {
        return Err(Error::IllegalParameter);
    }
    let group = NamedGroup(r.u16()?);
    let point = r.vec8()?;
    if point.is_empty() {
        return Err(Error::Decode);
    }
    let params_len = point.len().checked_add(4).ok_or(Error::Decode)?;
    let params = body.get(..params_len).ok_or(Error::Decode)?;
    let scheme = SignatureScheme(r.u16()?);
    let signature = r.vec16()?;
    r.finish()?;
    if signature.is_empty() {
        return Err(Error::Decode);
    }
    Ok(ServerKeyExchange {
        params,
        group,
        point,
        scheme,
        signature,
    })
}

/// NewSessionTicket (RFC 5077 §3.3): lifetime hint and the opaque ticket.
pub(crate) fn new_session_ticket(body: &[u8]) -> Result<(u32, &[u8]), Error> {
    let mut r = Reader::new(body);
    let hint = r.u32()?;
    let t = r.vec16()?;
    r.finish()?;
    Ok((hint, t))
}
