//! Name constraints (RFC 5280 §4.2.1.10) for dNSName, iPAddress and directoryName.
//!
//! Other forms (rfc822Name, URI, otherName, x400Address, ediPartyName, registeredID) are not
//! checked: a constraint of such a form fails closed ([`Error::UnsupportedNameConstraint`]) as
//! soon as a constrained certificate carries a name of that same form. A constraint only ever
//! limits names of its own form, so certificates without such names are unaffected.

use crate::cert::{rdns, Certificate};
use crate::ext::NameConstraints;
use crate::general_name::GeneralName;
use crate::names::is_valid_dns_name;
use crate::path::Budget;
use crate::Error;

/// Checks `cert`'s SAN entries and subject against `nc`.
pub(crate) fn check(
    nc: &NameConstraints,
    cert: &Certificate,
    budget: &mut Budget,
) -> Result<(), Error> {
    for c in nc.permitted.iter().chain(nc.excluded.iter()).flatten() {
        validate_constraint(c)?;
    }
    let subject_dn = (!cert.subject_empty).then(|| GeneralName::Directory(cert.subject.clone()));
    let sans = cert.ext.san.iter().flatten();
    for name in sans.chain(subject_dn.iter()) {
        check_name(nc, name, budget)?;
    }
    Ok(())
}

fn check_name(nc: &NameConstraints, name: &GeneralName, budget: &mut Budget) -> Result<(), Error> {
    let form = name.form();
    if let Some(permitted) = &nc.permitted {
        let mut same_form = false;
        let mut ok = false;
        for c in permitted.iter().filter(|c| c.form() == form) {
            same_form = true;
            budget.spend_name()?;
            if matches(c, name, Mode::Permitted)? {
                ok = true;
                break;
            }
        }
        if same_form && !ok {
            return Err(Error::NameConstraintViolation);
        }
    }
    if let Some(excluded) = &nc.excluded {
        for c in excluded.iter().filter(|c| c.form() == form) {
            budget.spend_name()?;
            if matches(c, name, Mode::Excluded)? {
                return Err(Error::NameConstraintViolation);
            }
        }
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Permitted,
    Excluded,
}

fn validate_constraint(c: &GeneralName) -> Result<(), Error> {
    match c {
        GeneralName::Dns(d) => {
            if d.is_empty() || is_valid_dns_name(d, false, false) {
                Ok(())
            } else {
                Err(Error::Invalid("malformed dNSName name constraint"))
            }
        }
        GeneralName::Ip(ip) => {
            let half = match ip.len() {
                8 => 4,
                32 => 16,
                _ => return Err(Error::Invalid("malformed iPAddress name constraint")),
            };
            let mask = ip.get(half..).unwrap_or(&[]);
            // The mask must be a contiguous prefix: ones then zeros.
            let mut seen_zero = false;
            for byte in mask {
                for bit in 0..8u32 {
                    let one = byte & (0x80u8 >> bit) != 0;
                    if one && seen_zero {
                        return Err(Error::Invalid("non-contiguous iPAddress constraint mask"));
                    }
                    if !one {
                        seen_zero = true;
                    }
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `name` falls in subtree `c` (both of the same form). For `Excluded`, a wildcard
/// name matches if it *could* name something in the subtree.
fn matches(c: &GeneralName, name: &GeneralName, mode: Mode) -> Result<bool, Error> {
    match (c, name) {
        (GeneralName::Dns(c), GeneralName::Dns(n)) => Ok(dns_in_subtree(n, c, mode)),
        (GeneralName::Ip(c), GeneralName::Ip(n)) => Ok(ip_in_subnet(n, c)),
        (GeneralName::Directory(c), GeneralName::Directory(n)) => {
            let c = rdns(c).map_err(|_| Error::Invalid("malformed directoryName constraint"))?;
            let n = rdns(n).map_err(|_| Error::Invalid("malformed directoryName"))?;
            Ok(n.len() >= c.len() && n.iter().zip(c.iter()).all(|(a, b)| a == b))
        }
        _ => Err(Error::UnsupportedNameConstraint),
    }
}

/// `suffix`-within test on DNS names: `name` equals `base` or ends with `.base`.
fn within(name: &[u8], base: &[u8]) -> bool {
    if base.is_empty() {
        return true;
    }
    if name.len() == base.len() {
        return name.eq_ignore_ascii_case(base);
    }
    let Some(split) = name.len().checked_sub(base.len()) else {
        return false;
    };
    let (head, tail) = name.split_at(split);
    head.last() == Some(&b'.') && tail.eq_ignore_ascii_case(base)
}

fn dns_in_subtree(name: &[u8], base: &[u8], mode: Mode) -> bool {
    match name.strip_prefix(b"*.") {
        None => within(name, base),
        Some(rest) => {
            if within(rest, base) {
                // Every name the wildcard can match is inside the subtree.
                return true;
            }
            if mode == Mode::Excluded {
                // The wildcard could match `base` itself: base = <one label>.rest
                if let Some(split) = base.len().checked_sub(rest.len()) {
                    let (head, tail) = base.split_at(split);
                    if let Some(label) = head.strip_suffix(b".") {
                        return !label.is_empty()
                            && !label.contains(&b'.')
                            && tail.eq_ignore_ascii_case(rest);
                    }
                }
            }
            false
        }
    }
}

fn ip_in_subnet(addr: &[u8], subnet: &[u8]) -> bool {
    let n = addr.len();
    if subnet.len() != n.saturating_mul(2) {
        return false;
    }
    let (net, mask) = subnet.split_at(n);
    addr.iter()
        .zip(net.iter())
        .zip(mask.iter())
        .all(|((a, b), m)| a & m == b & m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_subtrees() {
        assert!(dns_in_subtree(
            b"example.com",
            b"example.com",
            Mode::Permitted
        ));
        assert!(dns_in_subtree(
            b"a.example.com",
            b"example.com",
            Mode::Permitted
        ));
        assert!(!dns_in_subtree(
            b"aexample.com",
            b"example.com",
            Mode::Permitted
        ));
        assert!(dns_in_subtree(b"*.foo.com", b"foo.com", Mode::Permitted));
        assert!(!dns_in_subtree(
            b"*.example.com",
            b"foo.example.com",
            Mode::Permitted
        ));
        assert!(dns_in_subtree(
            b"*.example.com",
            b"bar.example.com",
            Mode::Excluded
        ));
        assert!(!dns_in_subtree(
            b"*.example.com",
            b"a.bar.example.com",
            Mode::Excluded
        ));
        assert!(dns_in_subtree(b"anything.org", b"", Mode::Permitted));
    }

    #[test]
    fn ip_subnets() {
        assert!(ip_in_subnet(
            &[192, 0, 2, 7],
            &[192, 0, 2, 0, 255, 255, 255, 0]
        ));
        assert!(!ip_in_subnet(
            &[192, 0, 3, 7],
            &[192, 0, 2, 0, 255, 255, 255, 0]
        ));
        assert!(!ip_in_subnet(&[192, 0, 2, 7], &[0; 32]));
    }

    #[test]
    fn constraint_shapes() {
        let ip = |b: &[u8]| validate_constraint(&GeneralName::Ip(b.to_vec()));
        assert_eq!(ip(&[10, 0, 0, 0, 255, 0, 0, 0]), Ok(()));
        assert_eq!(
            ip(&[10, 0, 0, 0, 255, 0, 255, 0]),
            Err(Error::Invalid("non-contiguous iPAddress constraint mask"))
        );
        assert_eq!(
            ip(&[10, 0, 0, 0]),
            Err(Error::Invalid("malformed iPAddress name constraint"))
        );
        // An excluded base shorter than what the wildcard stands under: no overlap.
        assert!(!dns_in_subtree(
            b"*.a.example.com",
            b"b.com",
            Mode::Excluded
        ));
        // A base that only ends like the wildcard's domain, not on a label boundary.
        assert!(!dns_in_subtree(
            b"*.example.com",
            b"xexample.com",
            Mode::Excluded
        ));
        // A base with more than one label in front of the wildcard's domain: no overlap.
        assert!(!dns_in_subtree(
            b"*.example.com",
            b"x.y.example.com",
            Mode::Excluded
        ));
    }
}
