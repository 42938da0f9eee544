//! GeneralName (RFC 5280 §4.2.1.6), as used by subjectAltName and name constraints.

use burrow_der::{tag, Error as DerError, Reader, Result as DerResult};

/// The forms of GeneralName, keeping only what validation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GeneralName {
    /// `dNSName [2] IA5String`.
    Dns(Vec<u8>),
    /// `iPAddress [7] OCTET STRING` (4/16 bytes in a SAN, 8/32 in a constraint).
    Ip(Vec<u8>),
    /// `directoryName [4] Name`: the whole Name TLV.
    Directory(Vec<u8>),
    /// `rfc822Name [1]`.
    Email(Vec<u8>),
    /// `uniformResourceIdentifier [6]`.
    Uri(Vec<u8>),
    /// otherName [0], x400Address [3], ediPartyName [5], registeredID [8]: identified by tag.
    Other(u8),
}

impl GeneralName {
    /// A small integer naming the form, for "same form" comparisons.
    pub(crate) fn form(&self) -> u8 {
        match self {
            GeneralName::Email(_) => 1,
            GeneralName::Dns(_) => 2,
            GeneralName::Directory(_) => 4,
            GeneralName::Uri(_) => 6,
            GeneralName::Ip(_) => 7,
            GeneralName::Other(t) => t & 0x1f,
        }
    }
}

/// Reads one GeneralName.
pub(crate) fn read_general_name(r: &mut Reader<'_>) -> DerResult<GeneralName> {
    let t = r.read_any()?;
    let ia5 = |v: &[u8]| -> DerResult<Vec<u8>> {
        if v.iter().all(|c| c.is_ascii()) {
            Ok(v.to_vec())
        } else {
            Err(DerError::Invalid("non-ASCII IA5String"))
        }
    };
    Ok(match t.tag {
        x if x == tag::ctx_prim(1) => GeneralName::Email(ia5(t.value)?),
        x if x == tag::ctx_prim(2) => GeneralName::Dns(ia5(t.value)?),
        x if x == tag::ctx_prim(6) => GeneralName::Uri(ia5(t.value)?),
        x if x == tag::ctx_prim(7) => GeneralName::Ip(t.value.to_vec()),
        x if x == tag::ctx_cons(4) => {
            let name = Reader::new(t.value).exactly(|n| n.read_tlv(tag::SEQUENCE))?;
            crate::cert::check_name(name.value)?;
            GeneralName::Directory(name.raw.to_vec())
        }
        x if x == tag::ctx_cons(0)
            || x == tag::ctx_cons(3)
            || x == tag::ctx_cons(5)
            || x == tag::ctx_prim(8) =>
        {
            GeneralName::Other(x)
        }
        _ => return Err(DerError::Invalid("unknown GeneralName form")),
    })
}

/// Reads `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF GeneralName` (the SEQUENCE contents).
pub(crate) fn read_general_names(contents: &[u8], max: usize) -> DerResult<Vec<GeneralName>> {
    let mut r = Reader::new(contents);
    let mut out = Vec::new();
    while !r.is_empty() {
        if out.len() >= max {
            return Err(DerError::Invalid("too many names"));
        }
        out.push(read_general_name(&mut r)?);
    }
    if out.is_empty() {
        return Err(DerError::Invalid("empty GeneralNames"));
    }
    Ok(out)
}
