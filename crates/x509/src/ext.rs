//! Certificate extensions (RFC 5280 §4.2) that validation uses, parsed strictly.

use crate::general_name::{read_general_name, read_general_names, GeneralName};
use crate::oid;
use burrow_der::{bit_flags, tag, Error as DerError, Reader, Result as DerResult};

/// Most SAN entries accepted in one certificate.
pub const MAX_SAN_NAMES: usize = 1024;
/// Most subtrees accepted in one NameConstraints extension (permitted + excluded).
pub const MAX_NAME_CONSTRAINTS: usize = 1024;
const MAX_EXTENSIONS: usize = 64;

/// basicConstraints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BasicConstraints {
    pub(crate) ca: bool,
    pub(crate) path_len: Option<u64>,
    pub(crate) critical: bool,
}

/// KeyUsage bits (RFC 5280 §4.2.1.3).
pub(crate) mod ku {
    pub(crate) const DIGITAL_SIGNATURE: u16 = 1 << 0;
    pub(crate) const KEY_CERT_SIGN: u16 = 1 << 5;
}

/// extendedKeyUsage, reduced to what matters here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ExtKeyUsage {
    pub(crate) server_auth: bool,
    pub(crate) any: bool,
    pub(crate) ocsp_signing: bool,
}

/// nameConstraints.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct NameConstraints {
    pub(crate) permitted: Option<Vec<GeneralName>>,
    pub(crate) excluded: Option<Vec<GeneralName>>,
}

/// The extensions validation looks at.
#[derive(Debug, Clone, Default)]
pub(crate) struct Extensions {
    pub(crate) basic: Option<BasicConstraints>,
    pub(crate) key_usage: Option<u16>,
    pub(crate) eku: Option<ExtKeyUsage>,
    pub(crate) san: Option<Vec<GeneralName>>,
    pub(crate) name_constraints: Option<NameConstraints>,
    pub(crate) subject_key_id: Option<Vec<u8>>,
    pub(crate) authority_key_id: Option<Vec<u8>>,
    pub(crate) aki_has_issuer_or_serial: bool,
    pub(crate) has_ocsp_nocheck: bool,
    /// A critical extension we do not understand: the certificate must be rejected if used.
    pub(crate) unsupported_critical: bool,
}

/// Parses `[3] EXPLICIT Extensions` contents.
pub(crate) fn parse_extensions(explicit: &[u8]) -> DerResult<Extensions> {
    let list = Reader::new(explicit).exactly(|r| r.read(tag::SEQUENCE))?;
    let mut r = Reader::new(list);
    let mut seen: Vec<&[u8]> = Vec::new();
    let mut ext = Extensions::default();
    if r.is_empty() {
        return Err(DerError::Invalid("empty Extensions"));
    }
    while !r.is_empty() {
        let (id, critical, value) = r.nested(tag::SEQUENCE, |e| {
            let id = e.read(tag::OID)?;
            let critical = e.read_default_false()?;
            let value = e.read(tag::OCTET_STRING)?;
            Ok((id, critical, value))
        })?;
        if seen.contains(&id) {
            return Err(DerError::Invalid("duplicate extension"));
        }
        if seen.len() >= MAX_EXTENSIONS {
            return Err(DerError::Invalid("too many extensions"));
        }
        seen.push(id);
        parse_one(&mut ext, id, critical, value)?;
    }
    Ok(ext)
}

fn parse_one(ext: &mut Extensions, id: &[u8], critical: bool, value: &[u8]) -> DerResult<()> {
    let v = Reader::new(value);
    match id {
        x if x == oid::CE_BASIC_CONSTRAINTS => {
            ext.basic = Some(v.exactly(|r| {
                r.nested(tag::SEQUENCE, |b| {
                    let ca = b.read_default_false()?;
                    let path_len = if b.is_empty() {
                        None
                    } else {
                        Some(b.read_small_uint()?)
                    };
                    Ok(BasicConstraints {
                        ca,
                        path_len,
                        critical,
                    })
                })
            })?);
        }
        x if x == oid::CE_KEY_USAGE => {
            let bits = v.exactly(|r| r.read(tag::BIT_STRING))?;
            let flags = bit_flags(bits)?;
            if flags == 0 {
                return Err(DerError::Invalid("keyUsage with no bit set"));
            }
            ext.key_usage = Some(flags);
        }
        x if x == oid::CE_EXT_KEY_USAGE => {
            ext.eku = Some(v.exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    let mut e = ExtKeyUsage::default();
                    if s.is_empty() {
                        return Err(DerError::Invalid("empty extendedKeyUsage"));
                    }
                    while !s.is_empty() {
                        let o = s.read(tag::OID)?;
                        if o == oid::KP_SERVER_AUTH {
                            e.server_auth = true;
                        } else if o == oid::ANY_EXTENDED_KEY_USAGE {
                            e.any = true;
                        } else if o == oid::KP_OCSP_SIGNING {
                            e.ocsp_signing = true;
                        }
                    }
                    Ok(e)
                })
            })?);
        }
        x if x == oid::CE_SUBJECT_ALT_NAME => {
            let names = v.exactly(|r| r.read(tag::SEQUENCE))?;
            ext.san = Some(read_general_names(names, MAX_SAN_NAMES)?);
        }
        x if x == oid::CE_NAME_CONSTRAINTS => {
            ext.name_constraints = Some(v.exactly(parse_name_constraints)?);
        }
        x if x == oid::CE_SUBJECT_KEY_ID => {
            if critical {
                return Err(DerError::Invalid("critical subjectKeyIdentifier"));
            }
            ext.subject_key_id = Some(v.exactly(|r| r.read(tag::OCTET_STRING))?.to_vec());
        }
        x if x == oid::CE_AUTHORITY_KEY_ID => {
            if critical {
                return Err(DerError::Invalid("critical authorityKeyIdentifier"));
            }
            v.exactly(|r| {
                r.nested(tag::SEQUENCE, |a| {
                    ext.authority_key_id = a.read_optional(tag::ctx_prim(0))?.map(<[u8]>::to_vec);
                    let issuer = a.read_optional(tag::ctx_cons(1))?;
                    let serial = a.read_optional(tag::ctx_prim(2))?;
                    if issuer.is_some() != serial.is_some() {
                        return Err(DerError::Invalid(
                            "authorityCertIssuer without serial (or reverse)",
                        ));
                    }
                    ext.aki_has_issuer_or_serial = issuer.is_some();
                    Ok(())
                })
            })?;
        }
        x if x == oid::PE_AUTHORITY_INFO_ACCESS => {
            if critical {
                return Err(DerError::Invalid("critical authorityInfoAccess"));
            }
            v.exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    if s.is_empty() {
                        return Err(DerError::Invalid("empty authorityInfoAccess"));
                    }
                    while !s.is_empty() {
                        s.nested(tag::SEQUENCE, |d| {
                            d.read(tag::OID)?;
                            read_general_name(d)?;
                            Ok(())
                        })?;
                    }
                    Ok(())
                })
            })?;
        }
        x if x == oid::CE_CERTIFICATE_POLICIES => {
            v.exactly(|r| {
                r.nested(tag::SEQUENCE, |s| {
                    if s.is_empty() {
                        return Err(DerError::Invalid("empty certificatePolicies"));
                    }
                    while !s.is_empty() {
                        s.nested(tag::SEQUENCE, |p| {
                            p.read(tag::OID)?;
                            if !p.is_empty() {
                                p.read(tag::SEQUENCE)?;
                            }
                            Ok(())
                        })?;
                    }
                    Ok(())
                })
            })?;
        }
        x if x == oid::CE_POLICY_CONSTRAINTS => {
            if !critical {
                return Err(DerError::Invalid("non-critical policyConstraints"));
            }
            v.exactly(|r| r.read(tag::SEQUENCE))?;
        }
        x if x == oid::CE_POLICY_MAPPINGS || x == oid::CE_CRL_DISTRIBUTION_POINTS => {
            v.exactly(|r| r.read(tag::SEQUENCE))?;
        }
        x if x == oid::CE_INHIBIT_ANY_POLICY => {
            v.exactly(|r| r.read_small_uint())?;
        }
        x if x == oid::CE_ISSUER_ALT_NAME => {
            let names = v.exactly(|r| r.read(tag::SEQUENCE))?;
            read_general_names(names, MAX_SAN_NAMES)?;
        }
        x if x == oid::OCSP_NOCHECK => {
            ext.has_ocsp_nocheck = true;
        }
        _ => {
            if critical {
                ext.unsupported_critical = true;
            }
        }
    }
    Ok(())
}

fn parse_name_constraints(r: &mut Reader<'_>) -> DerResult<NameConstraints> {
    r.nested(tag::SEQUENCE, |n| {
        let mut count = 0usize;
        let mut subtrees = |contents: Option<&[u8]>| -> DerResult<Option<Vec<GeneralName>>> {
            let Some(contents) = contents else {
                return Ok(None);
            };
            let mut s = Reader::new(contents);
            let mut out = Vec::new();
            if s.is_empty() {
                return Err(DerError::Invalid("empty GeneralSubtrees"));
            }
            while !s.is_empty() {
                count = count.saturating_add(1);
                if count > MAX_NAME_CONSTRAINTS {
                    return Err(DerError::Invalid("too many name constraints"));
                }
                out.push(s.nested(tag::SEQUENCE, |st| {
                    let base = read_general_name(st)?;
                    if let Some(min) = st.read_optional(tag::ctx_prim(0))? {
                        // minimum DEFAULT 0: DER forbids encoding 0, and RFC 5280 requires 0.
                        let _ = min;
                        return Err(DerError::Invalid("name constraint minimum must be absent"));
                    }
                    if st.read_optional(tag::ctx_prim(1))?.is_some() {
                        return Err(DerError::Invalid("name constraint maximum must be absent"));
                    }
                    Ok(base)
                })?);
            }
            Ok(Some(out))
        };
        let permitted = subtrees(n.read_optional(tag::ctx_cons(0))?)?;
        let excluded = subtrees(n.read_optional(tag::ctx_cons(1))?)?;
        if permitted.is_none() && excluded.is_none() {
            return Err(DerError::Invalid("empty NameConstraints"));
        }
        Ok(NameConstraints {
            permitted,
            excluded,
        })
    })
}
