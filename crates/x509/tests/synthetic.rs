//! Synthetic certificates and OCSP responses, built with the shared DER writer and signed with
//! fresh ring keys: the structure rules of the strict parser (one rule per case, exact error),
//! path checks a real PKI rarely trips, trust and verifier configuration errors, stapled
//! OCSP in all its shapes (CertID hashes, responder by key, delegated responders, windows),
//! and the verified-chain cache (what it skips, and what it still checks on every use).

#![cfg(not(target_arch = "wasm32"))] // ring and the openssl CLI: native only
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
// test code

mod support;

use std::cell::Cell;

use burrow_x509::{
    certificates_from_pem, format_pin, parse_rfc3339, spki_sha256, AnswerBook, Certificate,
    ChainCache, ChainCacheStats, CryptoVerifier, Error, OcspResponse, Outcome, Revocation,
    ServerCertificates, ServerName, SignatureFailure, SignatureRequest, SignatureVerifier,
    StapleStatus, Trust, Verified, Verifier, MAX_CACHED_CHAINS, MAX_CERT_LEN, MAX_OCSP_LEN,
    MAX_PEM_BLOCKS, MAX_PRESENTED_CERTS,
};
use support::der::{bit_string, cn_name, ext, octets, oid, oids, seq, tlv, validity, validity_utc};
use support::keys::{cert, cert_valid, ec256_key, signed, Key};

// ---- certificates ----

fn key_id(spki: &[u8]) -> Vec<u8> {
    ring::digest::digest(&ring::digest::SHA256, spki).as_ref()[..20].to_vec()
}

fn ski(spki: &[u8]) -> Vec<u8> {
    ext(oids::CE_SUBJECT_KEY_ID, false, &octets(&key_id(spki)))
}

fn aki(issuer_spki: &[u8]) -> Vec<u8> {
    ext(
        oids::CE_AUTHORITY_KEY_ID,
        false,
        &seq(&[&tlv(0x80, &key_id(issuer_spki))]),
    )
}

fn ca_basic() -> Vec<u8> {
    ext(
        oids::CE_BASIC_CONSTRAINTS,
        true,
        &seq(&[&[0x01, 0x01, 0xff]]),
    )
}

fn key_usage(bits: &[u8]) -> Vec<u8> {
    ext(oids::CE_KEY_USAGE, true, &tlv(0x03, bits))
}

fn san_dns(host: &str) -> Vec<u8> {
    ext(
        oids::CE_SUBJECT_ALT_NAME,
        false,
        &seq(&[&tlv(0x82, host.as_bytes())]),
    )
}

fn eku(ids: &[&[u8]]) -> Vec<u8> {
    let ids: Vec<Vec<u8>> = ids.iter().map(|i| oid(i)).collect();
    ext(
        oids::CE_EXT_KEY_USAGE,
        false,
        &seq(&ids.iter().map(Vec::as_slice).collect::<Vec<_>>()),
    )
}

/// A CA: its key, name and certificate.
struct Ca {
    key: Key,
    name: Vec<u8>,
    der: Vec<u8>,
}

impl Ca {
    fn root(cn: &str) -> Ca {
        let key = ec256_key();
        let name = cn_name(cn);
        let spki = key.spki();
        let der = cert(
            &[0x01],
            &name,
            &name,
            &spki,
            &[ca_basic(), ski(&spki), key_usage(&[0x01, 0x06])],
            &key,
        );
        Ca { key, name, der }
    }

    /// An intermediate under `self` with these extra extensions (basicConstraints cA, SKI and
    /// AKI are always there).
    fn intermediate(&self, cn: &str, extra: &[Vec<u8>]) -> Ca {
        let key = ec256_key();
        let name = cn_name(cn);
        let spki = key.spki();
        let mut exts = vec![ca_basic(), ski(&spki), aki(&self.key.spki())];
        exts.extend_from_slice(extra);
        let der = cert(&[0x02], &self.name, &name, &spki, &exts, &self.key);
        Ca { key, name, der }
    }

    /// [`Ca::intermediate`] (no extra extensions) valid only from `not_before` to
    /// `not_after` (UTCTime).
    fn intermediate_valid(&self, cn: &str, not_before: &str, not_after: &str) -> Ca {
        let key = ec256_key();
        let name = cn_name(cn);
        let spki = key.spki();
        let exts = vec![ca_basic(), ski(&spki), aki(&self.key.spki())];
        let validity = validity_utc(not_before, not_after);
        let der = cert_valid(
            &[0x03],
            &self.name,
            &name,
            &spki,
            &exts,
            &self.key,
            &validity,
        );
        Ca { key, name, der }
    }

    /// A leaf for `host` with these extensions besides SAN, AKI and SKI.
    fn leaf_with(&self, serial: &[u8], host: &str, extra: &[Vec<u8>]) -> (Key, Vec<u8>) {
        let key = ec256_key();
        let spki = key.spki();
        let mut exts = vec![aki(&self.key.spki()), ski(&spki), san_dns(host)];
        exts.extend_from_slice(extra);
        let der = cert(serial, &self.name, &cn_name(host), &spki, &exts, &self.key);
        (key, der)
    }

    fn leaf(&self, host: &str) -> Vec<u8> {
        self.leaf_with(&[0x10, 0x01], host, &[]).1
    }

    fn trust(&self) -> Trust {
        Trust::anchors_der(&[&self.der]).unwrap()
    }
}

/// 2027-01-02T00:00:00Z: inside every certificate's validity (2020..2040).
fn now() -> i64 {
    parse_rfc3339("2027-01-02T00:00:00Z").unwrap()
}

fn verify_with(
    v: &Verifier,
    chain: &[&[u8]],
    staple: Option<&[u8]>,
    host: &str,
) -> Result<Verified, Error> {
    let certs = ServerCertificates {
        chain,
        ocsp_staple: staple,
        now: now(),
    };
    match v.verify(&certs, &ServerName::parse(host)?, &CryptoVerifier)? {
        Outcome::Verified(ok) => Ok(ok),
        Outcome::Decide(_) => panic!("unexpected custom decision"),
    }
}

fn verify(trust: Trust, chain: &[&[u8]]) -> Result<Verified, Error> {
    verify_with(&Verifier::new(trust), chain, None, "host.example")
}

/// A TBSCertificate with a P-256 key, CN names, the default validity; `version` is the whole
/// `[0]` element (empty: absent) and `tail` what follows the SPKI.
fn tbs(version: &[u8], key: &Key, issuer: &[u8], subject: &[u8], tail: &[&[u8]]) -> Vec<u8> {
    let alg = key.alg();
    let spki = key.spki();
    let mut parts: Vec<&[u8]> = vec![version, &[0x02, 0x01, 0x05], &alg, issuer];
    let v = validity();
    parts.extend([v.as_slice(), subject, &spki]);
    parts.extend(tail);
    seq(&parts)
}

const V2: &[u8] = &[0xa0, 0x03, 0x02, 0x01, 0x01];
const V3: &[u8] = &[0xa0, 0x03, 0x02, 0x01, 0x02];

#[test]
fn certificate_structure_rules() {
    let key = ec256_key();
    let n = cn_name("n");
    let exts = tlv(0xa3, &seq(&[&san_dns("a.example")]));
    let parse = |version: &[u8], tail: &[&[u8]]| {
        Certificate::from_der(&signed(&tbs(version, &key, &n, &n, tail), &key)).map(drop)
    };
    // Good baselines: v1 bare, v2 with unique IDs, v3 with extensions.
    assert_eq!(parse(&[], &[]), Ok(()));
    assert_eq!(
        parse(V2, &[&[0x81, 0x01, 0x00], &[0x82, 0x01, 0x00]]),
        Ok(())
    );
    assert_eq!(parse(V3, &[&exts]), Ok(()));
    let invalid = |what| Err(Error::Invalid(what));
    assert_eq!(
        parse(&[0xa0, 0x03, 0x02, 0x01, 0x00], &[]),
        invalid("explicit DEFAULT version v1")
    );
    assert_eq!(
        parse(&[0xa0, 0x03, 0x02, 0x01, 0x03], &[]),
        invalid("unknown version")
    );
    assert_eq!(
        parse(&[], &[&[0x81, 0x01, 0x00]]),
        invalid("issuerUniqueID in a v1 certificate")
    );
    assert_eq!(
        parse(&[], &[&[0x82, 0x01, 0x00]]),
        invalid("subjectUniqueID in a v1 certificate")
    );
    assert_eq!(
        parse(V2, &[&exts]),
        invalid("extensions in a non-v3 certificate")
    );
    assert_eq!(
        parse(&[], &[&exts]),
        invalid("extensions in a non-v3 certificate")
    );
    // An RDN must hold at least one attribute.
    let empty_rdn = seq(&[&[0x31, 0x00]]);
    assert_eq!(
        Certificate::from_der(&signed(&tbs(V3, &key, &n, &empty_rdn, &[&exts]), &key)).map(drop),
        invalid("empty RDN")
    );
    // Accessors and the size cap.
    let c =
        Certificate::from_der(&signed(&tbs(V3, &key, &cn_name("i"), &n, &[&exts]), &key)).unwrap();
    assert_eq!(c.issuer(), cn_name("i"));
    assert_eq!(c.subject(), n);
    assert_eq!(c.serial(), [5]);
    let mut huge = vec![0x30, 0x83];
    huge.extend([0x01, 0x00, 0x00]);
    huge.resize(MAX_CERT_LEN + 1, 0);
    assert_eq!(
        Certificate::from_der(&huge).unwrap_err(),
        Error::Invalid("certificate too large")
    );
}

/// Parses a v3 certificate carrying exactly these extensions.
fn with_exts(exts: &[Vec<u8>]) -> Result<(), Error> {
    let key = ec256_key();
    let n = cn_name("n");
    Certificate::from_der(&cert(&[0x01], &n, &n, &key.spki(), exts, &key)).map(drop)
}

#[test]
fn extension_rules() {
    let invalid = |what| Err(Error::Invalid(what));
    let unknown = |i: u8| ext(&[0x2a, 0x03, i], false, &[0x05, 0x00]);
    assert_eq!(with_exts(&[]), invalid("empty Extensions"));
    assert_eq!(
        with_exts(&[unknown(1), unknown(1)]),
        invalid("duplicate extension")
    );
    let many: Vec<Vec<u8>> = (0..64).map(unknown).collect();
    assert_eq!(with_exts(&many), Ok(()));
    let too_many: Vec<Vec<u8>> = (0..65).map(unknown).collect();
    assert_eq!(with_exts(&too_many), invalid("too many extensions"));

    // Extensions parsed only for well-formedness: good shapes pass, empty ones do not.
    let aia = seq(&[&seq(&[
        &oid(oids::AD_OCSP),
        &tlv(0x86, b"http://ocsp.example"),
    ])]);
    let policy = seq(&[&seq(&[
        &oid(&[0x67, 0x81, 0x0c, 0x01, 0x02, 0x01]),
        &seq(&[&seq(&[
            &oid(&[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x02, 0x01]),
            &tlv(0x16, b"http://cps.example"),
        ])]),
    ])]);
    let good = [
        ext(oids::PE_AUTHORITY_INFO_ACCESS, false, &aia),
        ext(oids::CE_CERTIFICATE_POLICIES, false, &policy),
        ext(
            oids::CE_CERTIFICATE_POLICIES,
            false,
            &seq(&[&seq(&[&oid(&[0x55, 0x1d, 0x20, 0x00])])]),
        ),
        ext(
            oids::CE_POLICY_CONSTRAINTS,
            true,
            &seq(&[&[0x80, 0x01, 0x00]]),
        ),
        ext(oids::CE_POLICY_MAPPINGS, false, &seq(&[])),
        ext(oids::CE_CRL_DISTRIBUTION_POINTS, false, &seq(&[])),
        ext(oids::CE_INHIBIT_ANY_POLICY, true, &[0x02, 0x01, 0x00]),
        ext(
            oids::CE_ISSUER_ALT_NAME,
            false,
            &seq(&[&tlv(0x82, b"ca.example")]),
        ),
        ext(oids::OCSP_NOCHECK, false, &[0x05, 0x00]),
        eku(&[
            oids::ANY_EXTENDED_KEY_USAGE,
            oids::KP_OCSP_SIGNING,
            &[0x2a, 0x03],
        ]),
    ];
    for e in &good {
        assert_eq!(with_exts(std::slice::from_ref(e)), Ok(()), "{e:02x?}");
    }
    let bad = [
        (
            ext(oids::PE_AUTHORITY_INFO_ACCESS, false, &seq(&[])),
            "empty authorityInfoAccess",
        ),
        (
            ext(oids::PE_AUTHORITY_INFO_ACCESS, true, &aia),
            "critical authorityInfoAccess",
        ),
        (
            ext(oids::CE_CERTIFICATE_POLICIES, false, &seq(&[])),
            "empty certificatePolicies",
        ),
        (
            ext(
                oids::CE_POLICY_CONSTRAINTS,
                false,
                &seq(&[&[0x80, 0x01, 0x00]]),
            ),
            "non-critical policyConstraints",
        ),
        (
            ext(oids::CE_ISSUER_ALT_NAME, false, &seq(&[])),
            "empty GeneralNames",
        ),
        (
            ext(oids::CE_EXT_KEY_USAGE, false, &seq(&[])),
            "empty extendedKeyUsage",
        ),
        (key_usage(&[0x00]), "keyUsage with no bit set"),
        (
            ext(oids::CE_SUBJECT_KEY_ID, true, &octets(b"id")),
            "critical subjectKeyIdentifier",
        ),
        (
            ext(oids::CE_AUTHORITY_KEY_ID, true, &seq(&[&tlv(0x80, b"id")])),
            "critical authorityKeyIdentifier",
        ),
        (
            ext(oids::CE_AUTHORITY_KEY_ID, false, &seq(&[&tlv(0x82, &[1])])),
            "authorityCertIssuer without serial (or reverse)",
        ),
        (
            ext(oids::CE_SUBJECT_ALT_NAME, false, &seq(&[&tlv(0x89, b"x")])),
            "unknown GeneralName form",
        ),
        (
            ext(
                oids::CE_SUBJECT_ALT_NAME,
                false,
                &seq(&[&tlv(0x82, "bü.example".as_bytes())]),
            ),
            "non-ASCII IA5String",
        ),
    ];
    for (e, what) in bad {
        assert_eq!(with_exts(&[e]), invalid(what), "{what}");
    }
    // SAN size cap.
    let name = tlv(0x82, b"a.example");
    let at_cap = vec![name.as_slice(); burrow_x509::MAX_SAN_NAMES];
    assert_eq!(
        with_exts(&[ext(oids::CE_SUBJECT_ALT_NAME, false, &seq(&at_cap))]),
        Ok(())
    );
    let over = vec![name.as_slice(); burrow_x509::MAX_SAN_NAMES + 1];
    assert_eq!(
        with_exts(&[ext(oids::CE_SUBJECT_ALT_NAME, false, &seq(&over))]),
        invalid("too many names")
    );
    // Name constraints: minimum and maximum must be absent, a subtree list must not be empty.
    let nc = |subtree: &[u8]| {
        ext(
            oids::CE_NAME_CONSTRAINTS,
            true,
            &seq(&[&tlv(0xa0, subtree)]),
        )
    };
    let dns = tlv(0x82, b"example.com");
    assert_eq!(with_exts(&[ca_basic(), nc(&seq(&[&dns]))]), Ok(()));
    assert_eq!(
        with_exts(&[ca_basic(), nc(&seq(&[&dns, &[0x80, 0x01, 0x01]]))]),
        invalid("name constraint minimum must be absent")
    );
    assert_eq!(
        with_exts(&[ca_basic(), nc(&seq(&[&dns, &[0x81, 0x01, 0x02]]))]),
        invalid("name constraint maximum must be absent")
    );
    assert_eq!(
        with_exts(&[ca_basic(), nc(&[])]),
        invalid("empty GeneralSubtrees")
    );
    assert_eq!(
        with_exts(&[ext(oids::CE_NAME_CONSTRAINTS, true, &seq(&[]))]),
        invalid("empty NameConstraints")
    );
}

#[test]
fn path_rules_rarely_met_in_the_wild() {
    let root = Ca::root("Root");
    let leaf = root.leaf("host.example");
    assert_eq!(verify(root.trust(), &[&leaf]).unwrap().path_len, 2);

    // Leaf keyUsage without digitalSignature (keyEncipherment only).
    let (_, ke_leaf) = root.leaf_with(&[0x11], "host.example", &[key_usage(&[0x05, 0x20])]);
    assert_eq!(
        verify(root.trust(), &[&ke_leaf]).unwrap_err(),
        Error::KeyUsageForbidden
    );
    // ... which a verifier asking for keyEncipherment accepts.
    let v = Verifier::new(root.trust()).leaf_key_usage(1 << 2);
    verify_with(&v, &[&ke_leaf], None, "host.example").unwrap();

    // An intermediate whose keyUsage lacks keyCertSign (cRLSign only).
    let crl_only = root.intermediate("CRL only", &[key_usage(&[0x01, 0x02])]);
    let l = crl_only.leaf("host.example");
    assert_eq!(
        verify(root.trust(), &[&l, &crl_only.der]).unwrap_err(),
        Error::KeyUsageForbidden
    );
    // An intermediate whose EKU is neither serverAuth nor any.
    let ocsp_only = root.intermediate("OCSP only", &[eku(&[oids::KP_OCSP_SIGNING])]);
    let l = ocsp_only.leaf("host.example");
    assert_eq!(
        verify(root.trust(), &[&l, &ocsp_only.der]).unwrap_err(),
        Error::ExtendedKeyUsageForbidden
    );
    // The same chain through a good intermediate validates (the control).
    let good = root.intermediate("Good", &[]);
    let l = good.leaf("host.example");
    assert_eq!(verify(root.trust(), &[&l, &good.der]).unwrap().path_len, 3);

    // A v1 certificate is never an intermediate.
    let v1_key = ec256_key();
    let v1_name = cn_name("V1 CA");
    let v1 = signed(&tbs(&[], &v1_key, &root.name, &v1_name, &[]), &root.key);
    let v1_ca = Ca {
        key: v1_key,
        name: v1_name,
        der: v1,
    };
    let l = v1_ca.leaf("host.example");
    assert_eq!(
        verify(root.trust(), &[&l, &v1_ca.der]).unwrap_err(),
        Error::IssuerNotCa
    );

    // A self-signed root whose AKI is not its SKI.
    let key = ec256_key();
    let name = cn_name("Odd Root");
    let spki = key.spki();
    let odd = cert(
        &[1],
        &name,
        &name,
        &spki,
        &[ca_basic(), ski(&spki), aki(b"other")],
        &key,
    );
    let odd_ca = Ca {
        key,
        name,
        der: odd,
    };
    let l = odd_ca.leaf("host.example");
    assert_eq!(
        verify(odd_ca.trust(), &[&l]).unwrap_err(),
        Error::Invalid("self-signed root whose AKI differs from its SKI")
    );

    // A v1 root (no extensions at all) is a fine anchor; a root whose AKI equals its SKI too.
    let v1_root_key = ec256_key();
    let v1_root_name = cn_name("V1 Root");
    let v1_root = signed(
        &tbs(&[], &v1_root_key, &v1_root_name, &v1_root_name, &[]),
        &v1_root_key,
    );
    let v1_root = Ca {
        key: v1_root_key,
        name: v1_root_name,
        der: v1_root,
    };
    let l = v1_root.leaf("host.example");
    assert_eq!(verify(v1_root.trust(), &[&l]).unwrap().path_len, 2);
    let key = ec256_key();
    let name = cn_name("Tidy Root");
    let spki = key.spki();
    let tidy = cert(
        &[1],
        &name,
        &name,
        &spki,
        &[ca_basic(), ski(&spki), aki(&spki)],
        &key,
    );
    let tidy = Ca {
        key,
        name,
        der: tidy,
    };
    let l = tidy.leaf("host.example");
    assert_eq!(verify(tidy.trust(), &[&l]).unwrap().path_len, 2);

    // An intermediate with an empty subject, reached through one with an empty issuer.
    let empty = seq(&[]);
    let k1 = ec256_key();
    let k2 = ec256_key();
    let i1_name = cn_name("I1");
    let i1 = cert(
        &[3],
        &empty,
        &i1_name,
        &k1.spki(),
        &[ca_basic(), ski(&k1.spki()), aki(&k2.spki())],
        &k2,
    );
    let i2 = cert(
        &[4],
        &root.name,
        &empty,
        &k2.spki(),
        &[ca_basic(), ski(&k2.spki()), aki(&root.key.spki())],
        &root.key,
    );
    let i1_ca = Ca {
        key: k1,
        name: i1_name,
        der: i1,
    };
    let l = i1_ca.leaf("host.example");
    assert_eq!(
        verify(root.trust(), &[&l, &i1_ca.der, &i2]).unwrap_err(),
        Error::Invalid("empty subject in a CA")
    );
}

#[test]
fn configuration_errors() {
    let root = Ca::root("Root");
    let leaf = root.leaf("host.example");
    assert_eq!(
        verify(root.trust(), &[]).unwrap_err(),
        Error::Invalid("empty certificate chain")
    );
    let many = vec![leaf.as_slice(); MAX_PRESENTED_CERTS + 1];
    assert_eq!(
        verify(root.trust(), &many).unwrap_err(),
        Error::Invalid("too many certificates presented")
    );
    let at_cap = vec![leaf.as_slice(); MAX_PRESENTED_CERTS];
    verify(root.trust(), &at_cap).unwrap();

    let pin = format_pin(&spki_sha256(&root.key.spki()));
    assert_eq!(
        verify(Trust::custom().pinned(&[&pin]).unwrap(), &[&leaf]).unwrap_err(),
        Error::BadTrustAnchor("pins need system or anchor trust underneath")
    );
    assert_eq!(
        verify(Trust::system().pinned(&[&pin]).unwrap(), &[&leaf]).unwrap_err(),
        Error::Untrusted
    );
    let ok = verify(root.trust().pinned(&[&pin]).unwrap(), &[&leaf]).unwrap();
    assert_eq!(ok.anchor_subject, root.name);
    assert_eq!(
        Trust::system().pinned(&[]).unwrap_err(),
        Error::BadTrustAnchor("no pins given")
    );
    assert_eq!(
        Trust::anchors_der(&[]).unwrap_err(),
        Error::BadTrustAnchor("no trust anchors given")
    );
    assert_eq!(
        Trust::anchors_der(&[b"\x30\x00"]).unwrap_err(),
        Error::BadTrustAnchor("unexpected tag")
    );
    assert_eq!(
        Trust::anchors_pem(b"no certificates here").unwrap_err(),
        Error::BadTrustAnchor("no trust anchors given")
    );

    // PEM: the block cap, base64 and framing errors.
    let block = "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n";
    let at_cap = block.repeat(MAX_PEM_BLOCKS);
    assert_eq!(
        certificates_from_pem(at_cap.as_bytes()).unwrap().len(),
        MAX_PEM_BLOCKS
    );
    assert_eq!(
        certificates_from_pem(at_cap.as_bytes()).unwrap()[0],
        [0x30, 0x00]
    );
    let over = block.repeat(MAX_PEM_BLOCKS + 1);
    assert_eq!(
        certificates_from_pem(over.as_bytes()).unwrap_err(),
        Error::BadTrustAnchor("too many PEM blocks")
    );
    assert_eq!(
        certificates_from_pem(b"-----BEGIN CERTIFICATE-----\nMAA=\n").unwrap_err(),
        Error::BadTrustAnchor("PEM block without END line")
    );
    assert_eq!(
        certificates_from_pem(b"-----BEGIN CERTIFICATE-----\nM*A=\n-----END CERTIFICATE-----")
            .unwrap_err(),
        Error::BadTrustAnchor("PEM block is not valid base64")
    );
    assert_eq!(
        certificates_from_pem(b"\xff").unwrap_err(),
        Error::BadTrustAnchor("PEM is not UTF-8")
    );
}

// ---- stapled OCSP ----

fn digest(alg: &'static ring::digest::Algorithm, data: &[u8]) -> Vec<u8> {
    ring::digest::digest(alg, data).as_ref().to_vec()
}

/// CertID for `serial` under `issuer`, hashed with `hash` (OID, ring algorithm).
fn cert_id(hash: (&[u8], &'static ring::digest::Algorithm), issuer: &Ca, serial: &[u8]) -> Vec<u8> {
    seq(&[
        &seq(&[&oid(hash.0), &[0x05, 0x00]]),
        &octets(&digest(hash.1, &issuer.name)),
        &octets(&digest(hash.1, &issuer.key.public_key_bits())),
        &tlv(0x02, serial),
    ])
}

const SHA1: (&[u8], &ring::digest::Algorithm) =
    (oids::SHA1, &ring::digest::SHA1_FOR_LEGACY_USE_ONLY);

fn gtime(t: &str) -> Vec<u8> {
    tlv(0x18, t.as_bytes())
}

const GOOD: &[u8] = &[0x80, 0x00];

/// A SingleResponse: thisUpdate 2027-01-01, nextUpdate as given (`None`: absent).
fn single(id: &[u8], status: &[u8], next: Option<&str>, exts: &[u8]) -> Vec<u8> {
    let next = next.map(|n| tlv(0xa0, &gtime(n))).unwrap_or_default();
    seq(&[id, status, &gtime("20270101000000Z"), &next, exts])
}

/// ResponseData with this responder id (the whole `[1]`/`[2]` element) and these responses.
fn response_data(responder: &[u8], singles: &[Vec<u8>], tail: &[u8]) -> Vec<u8> {
    let list: Vec<&[u8]> = singles.iter().map(Vec::as_slice).collect();
    seq(&[responder, &gtime("20270101000000Z"), &seq(&list), tail])
}

fn by_name(name: &[u8]) -> Vec<u8> {
    tlv(0xa1, name)
}

/// An OCSPResponse (successful, basic) around `tbs`, signed by `key`, with these certs.
fn ocsp(tbs: &[u8], key: &Key, certs: &[&[u8]]) -> Vec<u8> {
    let certs = if certs.is_empty() {
        Vec::new()
    } else {
        tlv(0xa0, &seq(certs))
    };
    let basic = seq(&[tbs, &key.alg(), &bit_string(&key.sign(tbs)), &certs]);
    seq(&[
        &[0x0a, 0x01, 0x00],
        &tlv(0xa0, &seq(&[&oid(oids::OCSP_BASIC), &octets(&basic)])),
    ])
}

struct OcspPki {
    root: Ca,
    leaf: Certificate,
    leaf_der: Vec<u8>,
    issuer: Certificate,
}

const SERIAL: &[u8] = &[0x10, 0x01];

impl OcspPki {
    fn new() -> OcspPki {
        let root = Ca::root("OCSP Root");
        let leaf_der = root.leaf("host.example");
        OcspPki {
            leaf: Certificate::from_der(&leaf_der).unwrap(),
            issuer: Certificate::from_der(&root.der).unwrap(),
            root,
            leaf_der,
        }
    }
    fn id(&self) -> Vec<u8> {
        cert_id(SHA1, &self.root, SERIAL)
    }
    /// A response by the issuer itself (by name) about the leaf, status `status`.
    fn simple(&self, status: &[u8], next: Option<&str>) -> Vec<u8> {
        let tbs = response_data(
            &by_name(&self.root.name),
            &[single(&self.id(), status, next, &[])],
            &[],
        );
        ocsp(&tbs, &self.root.key, &[])
    }
    fn check_at(&self, der: &[u8], now: i64) -> Result<burrow_x509::OcspGood, Error> {
        OcspResponse::from_der(der)?.check(&self.leaf, &self.issuer, now, &CryptoVerifier)
    }
    fn check(&self, der: &[u8]) -> Result<burrow_x509::OcspGood, Error> {
        self.check_at(der, now())
    }
}

const NEXT: Option<&str> = Some("20270108000000Z");

#[test]
fn ocsp_cert_id_hashes_and_responder_forms() {
    let pki = OcspPki::new();
    let this = parse_rfc3339("2027-01-01T00:00:00Z").unwrap();
    let next = parse_rfc3339("2027-01-08T00:00:00Z").unwrap();
    let good = pki.check(&pki.simple(GOOD, NEXT)).unwrap();
    assert_eq!(good.this_update, this);
    assert_eq!(good.next_update, Some(next));
    // Through the verifier: the staple is reported.
    let v = Verifier::new(pki.root.trust());
    let ok = verify_with(
        &v,
        &[&pki.leaf_der],
        Some(&pki.simple(GOOD, NEXT)),
        "host.example",
    )
    .unwrap();
    assert_eq!(ok.staple, StapleStatus::Good(good));

    for hash in [
        (oids::SHA256, &ring::digest::SHA256),
        (oids::SHA384, &ring::digest::SHA384),
        (oids::SHA512, &ring::digest::SHA512),
    ] {
        let id = cert_id(hash, &pki.root, SERIAL);
        let tbs = response_data(
            &by_name(&pki.root.name),
            &[single(&id, GOOD, NEXT, &[])],
            &[],
        );
        assert_eq!(pki.check(&ocsp(&tbs, &pki.root.key, &[])), Ok(good));
    }
    // A CertID hash we do not know (MD5) never matches.
    let md5 = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x05];
    let id = seq(&[
        &seq(&[&oid(&md5)]),
        &octets(&[0; 16]),
        &octets(&[0; 16]),
        &tlv(0x02, SERIAL),
    ]);
    let tbs = response_data(
        &by_name(&pki.root.name),
        &[single(&id, GOOD, NEXT, &[])],
        &[],
    );
    assert_eq!(
        pki.check(&ocsp(&tbs, &pki.root.key, &[])),
        Err(Error::OcspMismatch)
    );

    // ResponderID byKey: SHA-1 of the issuer's key; one of another key matches nothing.
    let key_hash = digest(
        &ring::digest::SHA1_FOR_LEGACY_USE_ONLY,
        &pki.root.key.public_key_bits(),
    );
    let responses = [single(&pki.id(), GOOD, NEXT, &[])];
    let tbs = response_data(&tlv(0xa2, &octets(&key_hash)), &responses, &[]);
    assert_eq!(pki.check(&ocsp(&tbs, &pki.root.key, &[])), Ok(good));
    // (A certificate that is not the named responder does not make it one.)
    let tbs = response_data(&tlv(0xa2, &octets(&[7; 20])), &responses, &[]);
    assert_eq!(
        pki.check(&ocsp(&tbs, &pki.root.key, &[&pki.leaf_der])),
        Err(Error::OcspInvalid(
            "response not signed by the issuer or a delegated responder"
        ))
    );

    // Status unknown; revoked (with a reason); extensions that are not critical.
    assert_eq!(
        pki.check(&pki.simple(&[0x82, 0x00], NEXT)),
        Err(Error::OcspUnknown)
    );
    let revoked = tlv(
        0xa1,
        &[gtime("20261201000000Z"), tlv(0xa0, &[0x0a, 0x01, 0x01])].concat(),
    );
    assert_eq!(
        pki.check(&pki.simple(&revoked, NEXT)),
        Err(Error::OcspRevoked)
    );
    let nonce = tlv(
        0xa1,
        &seq(&[&seq(&[&oid(oids::OCSP_NONCE), &octets(&octets(b"n"))])]),
    );
    let tbs = response_data(
        &by_name(&pki.root.name),
        &[single(&pki.id(), GOOD, NEXT, &nonce)],
        &nonce,
    );
    assert_eq!(pki.check(&ocsp(&tbs, &pki.root.key, &[])), Ok(good));
    let critical = tlv(
        0xa1,
        &seq(&[&seq(&[
            &oid(oids::OCSP_NONCE),
            &[0x01, 0x01, 0xff],
            &octets(&octets(b"n")),
        ])]),
    );
    for (single_exts, response_exts) in [(&critical, &Vec::new()), (&Vec::new(), &critical)] {
        let tbs = response_data(
            &by_name(&pki.root.name),
            &[single(&pki.id(), GOOD, NEXT, single_exts)],
            response_exts,
        );
        assert_eq!(
            OcspResponse::from_der(&ocsp(&tbs, &pki.root.key, &[])).unwrap_err(),
            Error::OcspInvalid("unsupported critical OCSP extension")
        );
    }
}

#[test]
fn ocsp_time_windows() {
    let pki = OcspPki::new();
    let this = parse_rfc3339("2027-01-01T00:00:00Z").unwrap();
    let week = burrow_x509::OCSP_MAX_AGE_WITHOUT_NEXT_UPDATE;
    let skew = burrow_x509::OCSP_SKEW_SECS;
    // Without nextUpdate: good for a week after thisUpdate (plus the skew), then stale.
    let open = pki.simple(GOOD, None);
    let g = pki.check_at(&open, this + week + skew).unwrap();
    assert_eq!(g.next_update, None);
    assert_eq!(
        pki.check_at(&open, this + week + skew + 1),
        Err(Error::OcspStale)
    );
    // Before thisUpdate beyond the skew: from the future.
    assert_eq!(pki.check_at(&open, this - skew - 1), Err(Error::OcspStale));
    assert!(pki.check_at(&open, this - skew).is_ok());
}

/// A delegated responder certificate under `issuer_name`/`signer` with these extensions and
/// validity.
fn responder(
    signer: &Key,
    issuer_name: &[u8],
    key: &Key,
    exts: &[Vec<u8>],
    validity: &[u8],
) -> Vec<u8> {
    let alg = signer.alg();
    let spki = key.spki();
    let tbs = seq(&[
        V3,
        &[0x02, 0x01, 0x33],
        &alg,
        issuer_name,
        validity,
        &cn_name("Responder"),
        &spki,
        &tlv(
            0xa3,
            &seq(&exts.iter().map(Vec::as_slice).collect::<Vec<_>>()),
        ),
    ]);
    signed(&tbs, signer)
}

#[test]
fn ocsp_delegated_responders() {
    let pki = OcspPki::new();
    let rkey = ec256_key();
    let signing = eku(&[oids::KP_OCSP_SIGNING]);
    let base_exts = vec![
        aki(&pki.root.key.spki()),
        ski(&rkey.spki()),
        signing.clone(),
    ];
    let staple = |cert: &[u8]| {
        let tbs = response_data(
            &by_name(&cn_name("Responder")),
            &[single(&pki.id(), GOOD, NEXT, &[])],
            &[],
        );
        ocsp(&tbs, &rkey, &[cert])
    };
    let good_cert = responder(
        &pki.root.key,
        &pki.root.name,
        &rkey,
        &base_exts,
        &validity(),
    );
    let g = pki.check(&staple(&good_cert)).unwrap();
    assert_eq!(g.next_update, parse_rfc3339("2027-01-08T00:00:00Z"));

    let other = ec256_key();
    let cases = [
        (
            responder(
                &pki.root.key,
                &pki.root.name,
                &rkey,
                &base_exts[..2],
                &validity(),
            ),
            "delegated responder lacks id-kp-OCSPSigning",
        ),
        (
            responder(
                &pki.root.key,
                &cn_name("Elsewhere"),
                &rkey,
                &base_exts,
                &validity(),
            ),
            "delegated responder not issued by the issuer",
        ),
        (
            responder(
                &pki.root.key,
                &pki.root.name,
                &rkey,
                &base_exts,
                &seq(&[&tlv(0x17, b"200101000000Z"), &tlv(0x17, b"210101000000Z")]),
            ),
            "delegated responder certificate not valid now",
        ),
        (
            responder(&other, &pki.root.name, &rkey, &base_exts, &validity()),
            "delegated responder certificate signature",
        ),
    ];
    for (cert, what) in cases {
        assert_eq!(
            pki.check(&staple(&cert)),
            Err(Error::OcspInvalid(what)),
            "{what}"
        );
    }
    // The right responder certificate, but the response signed by another key.
    let tbs = response_data(
        &by_name(&cn_name("Responder")),
        &[single(&pki.id(), GOOD, NEXT, &[])],
        &[],
    );
    assert_eq!(
        pki.check(&ocsp(&tbs, &other, &[&good_cert])),
        Err(Error::OcspInvalid("bad signature"))
    );
    // A verifier that cannot check the algorithm: unsupported, not "bad".
    struct Unsupported;
    impl SignatureVerifier for Unsupported {
        fn verify(&self, _: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
            Err(SignatureFailure::Unsupported)
        }
    }
    let r = OcspResponse::from_der(&pki.simple(GOOD, NEXT)).unwrap();
    assert_eq!(
        r.check(&pki.leaf, &pki.issuer, now(), &Unsupported),
        Err(Error::OcspInvalid("unsupported signature algorithm or key"))
    );
    // Responder certificates: at most eight.
    let nine = vec![good_cert.as_slice(); 9];
    let tbs = response_data(
        &by_name(&pki.root.name),
        &[single(&pki.id(), GOOD, NEXT, &[])],
        &[],
    );
    assert_eq!(
        OcspResponse::from_der(&ocsp(&tbs, &pki.root.key, &nine)).unwrap_err(),
        Error::OcspInvalid("too many responder certificates")
    );
    assert!(OcspResponse::from_der(&ocsp(&tbs, &pki.root.key, &nine[..8])).is_ok());
}

#[test]
fn ocsp_structure_rules() {
    let pki = OcspPki::new();
    let invalid = |what| Err::<(), _>(Error::OcspInvalid(what));
    let parse = |der: &[u8]| OcspResponse::from_der(der).map(drop);
    let with_tbs = |tbs: &[u8]| ocsp(tbs, &pki.root.key, &[]);
    let name = by_name(&pki.root.name);
    let one = [single(&pki.id(), GOOD, NEXT, &[])];

    let mut huge = vec![0x30, 0x83, 0x01, 0x00, 0x00];
    huge.resize(MAX_OCSP_LEN + 1, 0);
    assert_eq!(parse(&huge), invalid("response too large"));
    // tryLater (3), with no responseBytes.
    assert_eq!(
        parse(&seq(&[&[0x0a, 0x01, 0x03]])),
        invalid("responseStatus is not successful")
    );
    let basic_ok = pki.simple(GOOD, NEXT);
    let mut other_type = basic_ok.clone();
    let at = other_type
        .windows(oids::OCSP_BASIC.len())
        .position(|w| w == oids::OCSP_BASIC)
        .unwrap();
    other_type[at + oids::OCSP_BASIC.len() - 1] = 0x04; // id-pkix-ocsp-crl
    assert_eq!(
        parse(&other_type),
        invalid("responseType is not id-pkix-ocsp-basic")
    );

    // ResponseData version: v1 is the DEFAULT and must be absent; others are unknown.
    let versioned = |v: u8| {
        let inner = response_data(&name, &one, &[]);
        let body = &inner[2..];
        with_tbs(&tlv(
            0x30,
            &[tlv(0xa0, &[0x02, 0x01, v]), body.to_vec()].concat(),
        ))
    };
    assert_eq!(parse(&versioned(0)), invalid("explicit DEFAULT version v1"));
    assert_eq!(
        parse(&versioned(1)),
        invalid("unknown ResponseData version")
    );

    assert_eq!(
        parse(&with_tbs(&response_data(&tlv(0xa3, &[]), &one, &[]))),
        invalid("bad ResponderID")
    );
    assert_eq!(
        parse(&with_tbs(&response_data(&name, &[], &[]))),
        invalid("no SingleResponse")
    );
    let many = vec![one[0].clone(); 65];
    assert_eq!(
        parse(&with_tbs(&response_data(&name, &many, &[]))),
        invalid("too many SingleResponses")
    );
    assert_eq!(
        parse(&with_tbs(&response_data(&name, &many[..64], &[]))),
        Ok(())
    );
    let bad_status = [single(&pki.id(), &[0x80, 0x01, 0x00], NEXT, &[])];
    assert_eq!(
        parse(&with_tbs(&response_data(&name, &bad_status, &[]))),
        invalid("bad CertStatus")
    );
    let bad_null = seq(&[
        &seq(&[&oid(oids::SHA1), &[0x05, 0x01, 0x00]]),
        &octets(&[0; 20]),
        &octets(&[0; 20]),
        &tlv(0x02, SERIAL),
    ]);
    let bad = [single(&bad_null, GOOD, NEXT, &[])];
    assert_eq!(
        parse(&with_tbs(&response_data(&name, &bad, &[]))),
        invalid("bad NULL")
    );
    // A CertID hash AlgorithmIdentifier without parameters is fine.
    let no_params = seq(&[
        &seq(&[&oid(oids::SHA1)]),
        &octets(&digest(
            &ring::digest::SHA1_FOR_LEGACY_USE_ONLY,
            &pki.root.name,
        )),
        &octets(&digest(
            &ring::digest::SHA1_FOR_LEGACY_USE_ONLY,
            &pki.root.key.public_key_bits(),
        )),
        &tlv(0x02, SERIAL),
    ]);
    let tbs = response_data(&name, &[single(&no_params, GOOD, NEXT, &[])], &[]);
    assert!(pki.check(&with_tbs(&tbs)).is_ok());
}

// ---- the verified-chain cache ----

/// CryptoVerifier, counting the signatures it is asked to check.
#[derive(Default)]
struct Counting(Cell<usize>);

impl Counting {
    /// The count so far, reset.
    fn take(&self) -> usize {
        self.0.replace(0)
    }
}

impl SignatureVerifier for Counting {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        self.0.set(self.0.get() + 1);
        CryptoVerifier.verify(req)
    }
}

fn at(t: &str) -> i64 {
    parse_rfc3339(t).unwrap()
}

fn verified(o: Result<Outcome, Error>) -> Result<Verified, Error> {
    match o? {
        Outcome::Verified(ok) => Ok(ok),
        Outcome::Decide(_) => panic!("unexpected custom decision"),
    }
}

/// One validation of `chain` for `host` at `when`, its signatures counted by `sigs`.
fn judge(
    v: &Verifier,
    chain: &[&[u8]],
    staple: Option<&[u8]>,
    host: &str,
    when: i64,
    sigs: &Counting,
) -> Result<Verified, Error> {
    let certs = ServerCertificates {
        chain,
        ocsp_staple: staple,
        now: when,
    };
    verified(v.verify(&certs, &ServerName::parse(host)?, sigs))
}

/// Root, intermediate, and a leaf for `host` under the intermediate.
struct ThreeLevels {
    root: Ca,
    inter: Ca,
    leaf: Vec<u8>,
}

impl ThreeLevels {
    fn new(host: &str) -> ThreeLevels {
        let root = Ca::root("Cache Root");
        let inter = root.intermediate("Cache Intermediate", &[]);
        let leaf = inter.leaf(host);
        ThreeLevels { root, inter, leaf }
    }

    /// What the server sends: leaf, intermediate.
    fn chain(&self) -> [&[u8]; 2] {
        [&self.leaf, &self.inter.der]
    }

    /// A verifier (a new connection's) trusting the root, sharing `cache`.
    fn verifier(&self, cache: &ChainCache) -> Verifier {
        Verifier::new(self.root.trust()).chain_cache(cache.clone())
    }
}

#[test]
fn chain_cache_hit_skips_path_building_and_the_chains_signatures() {
    let pki = ThreeLevels::new("host.example");
    let cache = ChainCache::new();
    let sigs = Counting::default();
    let first = judge(
        &pki.verifier(&cache),
        &pki.chain(),
        None,
        "host.example",
        now(),
        &sigs,
    )
    .unwrap();
    assert_eq!(
        sigs.take(),
        2,
        "the leaf's and the intermediate's signatures"
    );
    let s = cache.stats();
    assert_eq!((s.hits, s.misses, s.entries), (0, 1, 1));
    for round in 1..=3 {
        let again = judge(
            &pki.verifier(&cache),
            &pki.chain(),
            None,
            "host.example",
            now(),
            &sigs,
        )
        .unwrap();
        assert_eq!(sigs.take(), 0, "a hit checks no certificate signature");
        assert_eq!(cache.stats().hits, round);
        // The same report as the validation that built the path.
        assert_eq!(again.path_len, 3);
        assert_eq!(again.path_len, first.path_len);
        assert_eq!(again.anchor_subject, pki.root.name);
        assert_eq!(again.anchor_subject, first.anchor_subject);
        assert_eq!(again.leaf_spki, first.leaf_spki);
        assert_eq!((again.staple, again.insecure), (StapleStatus::None, false));
    }
    // Without a cache, or with a disabled one, every validation checks both.
    for v in [
        Verifier::new(pki.root.trust()),
        Verifier::new(pki.root.trust()).chain_cache(ChainCache::disabled()),
    ] {
        for _ in 0..2 {
            judge(&v, &pki.chain(), None, "host.example", now(), &sigs).unwrap();
            assert_eq!(sigs.take(), 2);
        }
    }
    assert_eq!(cache.stats().misses, 1);
    // Cleared: built again.
    cache.clear();
    assert!(cache.is_empty());
    judge(
        &pki.verifier(&cache),
        &pki.chain(),
        None,
        "host.example",
        now(),
        &sigs,
    )
    .unwrap();
    assert_eq!(sigs.take(), 2);
}

#[test]
fn chain_cache_checks_the_time_on_every_hit() {
    // The intermediate expires (2030) ten years before the leaf: the cached window is the
    // whole path's.
    let root = Ca::root("Cache Root");
    let inter = root.intermediate_valid("Short Intermediate", "200101000000Z", "300101000000Z");
    let leaf = inter.leaf("host.example");
    let chain: [&[u8]; 2] = [&leaf, &inter.der];
    let cache = ChainCache::new();
    let v = Verifier::new(root.trust()).chain_cache(cache.clone());
    let uncached = Verifier::new(root.trust());
    let sigs = Counting::default();
    let host = "host.example";
    for (when, error) in [
        ("2030-01-01T00:00:01Z", Error::Expired),
        ("2035-06-01T00:00:00Z", Error::Expired),
        ("2041-01-01T00:00:00Z", Error::Expired),
        ("2019-12-31T23:59:59Z", Error::NotYetValid),
    ] {
        judge(&v, &chain, None, host, now(), &sigs).unwrap();
        assert_eq!(cache.len(), 1);
        let expected = judge(&uncached, &chain, None, host, at(when), &sigs).unwrap_err();
        assert_eq!(expected, error, "{when}, uncached");
        assert_eq!(
            judge(&v, &chain, None, host, at(when), &sigs).unwrap_err(),
            expected,
            "{when}: a cached chain fails as an uncached one"
        );
        assert!(cache.is_empty(), "{when}: the stale entry is dropped");
    }
    // The window's edges are inside it, as uncached.
    judge(&v, &chain, None, host, now(), &sigs).unwrap();
    sigs.take();
    for when in ["2030-01-01T00:00:00Z", "2020-01-01T00:00:00Z"] {
        judge(&v, &chain, None, host, at(when), &sigs).unwrap();
        assert_eq!(sigs.take(), 0, "{when}: a hit");
    }
}

#[test]
fn chain_cache_checks_the_name_on_every_hit() {
    let pki = ThreeLevels::new("*.cache.example");
    let cache = ChainCache::new();
    let sigs = Counting::default();
    let run = |host: &str| {
        judge(
            &pki.verifier(&cache),
            &pki.chain(),
            None,
            host,
            now(),
            &sigs,
        )
    };
    run("a.cache.example").unwrap();
    assert_eq!(sigs.take(), 2);
    // The same chain behind another name the leaf covers: a hit.
    run("b.cache.example").unwrap();
    assert_eq!(sigs.take(), 0);
    // Names it does not cover are refused although the chain is cached, as uncached.
    for host in [
        "other.example",
        "x.b.cache.example",
        "cache.example",
        "127.0.0.1",
    ] {
        let uncached = judge(
            &Verifier::new(pki.root.trust()),
            &pki.chain(),
            None,
            host,
            now(),
            &sigs,
        );
        assert_eq!(uncached.unwrap_err(), Error::NameMismatch, "{host}");
        sigs.take();
        assert_eq!(run(host).unwrap_err(), Error::NameMismatch, "{host}");
        assert_eq!(sigs.take(), 0, "{host}: answered from the cache");
    }
    assert_eq!(cache.stats().hits, 5);
}

#[test]
fn chain_cache_keys_on_every_trust_setting() {
    let pki = ThreeLevels::new("host.example");
    let other = Ca::root("Other Root");
    let cache = ChainCache::new();
    let sigs = Counting::default();
    let chain = pki.chain();
    let run = |v: Verifier| {
        let r = judge(
            &v.chain_cache(cache.clone()),
            &chain,
            None,
            "host.example",
            now(),
            &sigs,
        );
        (r, sigs.take())
    };
    let (r, n) = run(Verifier::new(pki.root.trust()));
    assert_eq!((r.is_ok(), n), (true, 2));
    let (r, n) = run(Verifier::new(pki.root.trust()));
    assert_eq!(
        (r.is_ok(), n),
        (true, 0),
        "the same settings (anchors parsed anew): a hit"
    );
    // Trust that does not reach the chain's root refuses it, cached or not.
    let (r, _) = run(Verifier::new(other.trust()));
    assert_eq!(r.unwrap_err(), Error::Untrusted);
    let (r, _) = run(Verifier::new(Trust::system()));
    assert_eq!(r.unwrap_err(), Error::Untrusted);
    // Other anchors that do reach it: their own entry.
    let both = Trust::anchors_der(&[&pki.root.der, &other.der]).unwrap();
    let (r, n) = run(Verifier::new(both));
    assert_eq!((r.is_ok(), n), (true, 2));
    // Pins: one on the path (its own entry), one that is not (refused).
    let pin = format_pin(&spki_sha256(&pki.inter.key.spki()));
    let (r, n) = run(Verifier::new(pki.root.trust().pinned(&[&pin]).unwrap()));
    assert_eq!((r.is_ok(), n), (true, 2));
    let wrong = format_pin(&spki_sha256(&other.key.spki()));
    let (r, _) = run(Verifier::new(pki.root.trust().pinned(&[&wrong]).unwrap()));
    assert!(matches!(r, Err(Error::PinMismatch(_))), "{r:?}");
    // The revocation policy, the intermediate cap, the leaf's KeyUsage rule.
    let (r, n) = run(Verifier::new(pki.root.trust()).revocation(Revocation::RequireStaple));
    assert_eq!((r.unwrap_err(), n), (Error::OcspStapleRequired, 2));
    let (r, _) = run(Verifier::new(pki.root.trust()).max_intermediates(0));
    assert_eq!(r.unwrap_err(), Error::PathTooLong);
    let (r, n) = run(Verifier::new(pki.root.trust()).leaf_key_usage(0));
    assert_eq!((r.is_ok(), n), (true, 2));
    // Trust that validates nothing caches nothing.
    let (r, n) = run(Verifier::new(Trust::insecure_accept_any_certificate()));
    assert_eq!((r.is_ok(), n), (true, 0));
    // Root, root + other, pinned, KeyUsage 0.
    assert_eq!(cache.len(), 4);
    assert_eq!(cache.stats().hits, 1);
}

#[test]
fn chain_cache_keys_on_the_exact_chain() {
    let pki = ThreeLevels::new("host.example");
    let cache = ChainCache::new();
    let sigs = Counting::default();
    let v = pki.verifier(&cache);
    let run = |chain: &[&[u8]]| {
        let r = judge(&v, chain, None, "host.example", now(), &sigs);
        (r, sigs.take())
    };
    let (r, n) = run(&pki.chain());
    assert_eq!((r.is_ok(), n), (true, 2));
    // Another leaf under the same intermediate.
    let (_, other_leaf) = pki.inter.leaf_with(&[0x10, 0x02], "host.example", &[]);
    let (r, n) = run(&[&other_leaf, &pki.inter.der]);
    assert_eq!((r.is_ok(), n), (true, 2));
    // The same certificates and the root as well; in another order.
    let (r, n) = run(&[&pki.leaf, &pki.inter.der, &pki.root.der]);
    assert_eq!((r.is_ok(), n), (true, 2));
    let (r, n) = run(&[&pki.leaf, &pki.root.der, &pki.inter.der]);
    assert_eq!((r.is_ok(), n), (true, 2));
    // The cached leaf without its intermediate: no path.
    let (r, _) = run(&[&pki.leaf]);
    assert_eq!(r.unwrap_err(), Error::Untrusted);
    assert_eq!(cache.len(), 4);
    let (r, n) = run(&pki.chain());
    assert_eq!((r.is_ok(), n), (true, 0));
}

#[test]
fn chain_cache_holds_at_most_its_bound() {
    let root = Ca::root("Bound Root");
    let cache = ChainCache::new();
    let v = Verifier::new(root.trust()).chain_cache(cache.clone());
    let sigs = Counting::default();
    let leaves: Vec<Vec<u8>> = (0..=MAX_CACHED_CHAINS)
        .map(|i| {
            let serial = [0x20, (i >> 8) as u8, i as u8];
            root.leaf_with(&serial, "host.example", &[]).1
        })
        .collect();
    let run = |leaf: &Vec<u8>| {
        judge(&v, &[leaf], None, "host.example", now(), &sigs).unwrap();
        sigs.take()
    };
    for leaf in &leaves {
        assert_eq!(run(leaf), 1);
        assert!(cache.len() <= MAX_CACHED_CHAINS);
    }
    assert_eq!(cache.len(), MAX_CACHED_CHAINS);
    // The oldest went first: the newest still hits, the first is built again (and pushes
    // out the second).
    assert_eq!(run(&leaves[MAX_CACHED_CHAINS]), 0);
    assert_eq!(run(&leaves[2]), 0);
    assert_eq!(run(&leaves[0]), 1);
    assert_eq!(run(&leaves[1]), 1);
    assert_eq!(run(&leaves[0]), 0);
    assert_eq!(cache.len(), MAX_CACHED_CHAINS);
}

#[test]
fn failed_validations_are_not_cached() {
    let pki = ThreeLevels::new("host.example");
    let cache = ChainCache::new();
    let sigs = Counting::default();
    let v = pki.verifier(&cache);
    // The leaf's signature broken (its last byte).
    let mut forged = pki.leaf.clone();
    *forged.last_mut().unwrap() ^= 1;
    for _ in 0..2 {
        let r = judge(
            &v,
            &[&forged, &pki.inter.der],
            None,
            "host.example",
            now(),
            &sigs,
        );
        assert_eq!(r.unwrap_err(), Error::BadSignature);
        assert_eq!(sigs.take(), 2, "checked again: a failure is not remembered");
    }
    // A good chain refused for its name, or for a missing staple, is not remembered either.
    let r = judge(&v, &pki.chain(), None, "other.example", now(), &sigs);
    assert_eq!(r.unwrap_err(), Error::NameMismatch);
    let strict = Verifier::new(pki.root.trust())
        .revocation(Revocation::RequireStaple)
        .chain_cache(cache.clone());
    let r = judge(&strict, &pki.chain(), None, "host.example", now(), &sigs);
    assert_eq!(r.unwrap_err(), Error::OcspStapleRequired);
    assert!(cache.is_empty());
    sigs.take();
    judge(&v, &pki.chain(), None, "host.example", now(), &sigs).unwrap();
    assert_eq!(sigs.take(), 2, "the first success builds the path");
    let s = cache.stats();
    assert_eq!((s.hits, s.misses, s.entries), (0, 5, 1));
}

#[test]
fn chain_cache_keeps_only_final_answers() {
    let pki = ThreeLevels::new("host.example");
    let cache = ChainCache::new();
    let v = pki.verifier(&cache);
    let chain = pki.chain();
    let certs = ServerCertificates {
        chain: &chain,
        ocsp_staple: None,
        now: now(),
    };
    let name = ServerName::parse("host.example").unwrap();
    // A first round accepts both signatures for now: nothing remembered, nothing counted.
    let book = AnswerBook::new();
    assert!(verified(v.verify(&certs, &name, &book)).is_ok());
    let pending = book.take_pending();
    assert_eq!(pending.len(), 2);
    assert_eq!(cache.stats(), ChainCacheStats::default());
    // Answered "invalid": the final verdict fails, and is not remembered.
    for p in &pending {
        book.answer(p, Err(SignatureFailure::Invalid));
    }
    assert_eq!(
        verified(v.verify(&certs, &name, &book)).unwrap_err(),
        Error::BadSignature
    );
    assert!(book.take_pending().is_empty());
    assert!(cache.is_empty());
    // Answered truly: the final round is remembered, and a new book's first round is final.
    let book = AnswerBook::new();
    assert!(verified(v.verify(&certs, &name, &book)).is_ok());
    assert!(cache.is_empty());
    for p in book.take_pending() {
        book.answer(&p, CryptoVerifier.verify(&p.as_request()));
    }
    assert!(verified(v.verify(&certs, &name, &book)).is_ok());
    assert!(book.take_pending().is_empty());
    assert_eq!(cache.len(), 1);
    let fresh = AnswerBook::new();
    assert!(verified(v.verify(&certs, &name, &fresh)).is_ok());
    assert!(
        fresh.take_pending().is_empty(),
        "a hit asks for no signature"
    );
    let s = cache.stats();
    assert_eq!((s.hits, s.misses), (1, 2));
}

#[test]
fn chain_cache_judges_the_staple_on_every_hit() {
    let pki = OcspPki::new();
    let cache = ChainCache::new();
    let sigs = Counting::default();
    let v = Verifier::new(pki.root.trust()).chain_cache(cache.clone());
    let uncached = Verifier::new(pki.root.trust());
    let chain: [&[u8]; 1] = [&pki.leaf_der];
    let host = "host.example";
    let good = pki.simple(GOOD, NEXT);
    let revoked = pki.simple(
        &tlv(
            0xa1,
            &[gtime("20261201000000Z"), tlv(0xa0, &[0x0a, 0x01, 0x01])].concat(),
        ),
        NEXT,
    );
    let first = judge(&v, &chain, Some(&good), host, now(), &sigs).unwrap();
    assert!(matches!(first.staple, StapleStatus::Good(_)));
    assert_eq!(sigs.take(), 2, "the leaf's signature and the staple's");
    // On a hit the staple of this connection is judged: good, revoked, absent, stale.
    let again = judge(&v, &chain, Some(&good), host, now(), &sigs).unwrap();
    assert_eq!(again.staple, first.staple);
    assert_eq!(sigs.take(), 1, "the staple's signature only");
    assert_eq!(
        judge(&v, &chain, Some(&revoked), host, now(), &sigs).unwrap_err(),
        Error::OcspRevoked
    );
    let none = judge(&v, &chain, None, host, now(), &sigs).unwrap();
    assert_eq!(none.staple, StapleStatus::None);
    let late = at("2027-02-01T00:00:00Z");
    let stale = judge(&uncached, &chain, Some(&good), host, late, &sigs).unwrap_err();
    assert_eq!(stale, Error::OcspStale);
    assert_eq!(
        judge(&v, &chain, Some(&good), host, late, &sigs).unwrap_err(),
        stale
    );
    assert_eq!(cache.stats().hits, 4);
    // A required staple is required on a hit too.
    let strict = Verifier::new(pki.root.trust())
        .revocation(Revocation::RequireStaple)
        .chain_cache(cache.clone());
    judge(&strict, &chain, Some(&good), host, now(), &sigs).unwrap();
    assert_eq!(
        judge(&strict, &chain, None, host, now(), &sigs).unwrap_err(),
        Error::OcspStapleRequired
    );
    assert_eq!(cache.stats().hits, 5);
}
