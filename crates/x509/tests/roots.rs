//! The bundled Mozilla roots as system trust sees them: every one parses as a trust anchor
//! (six have serial number 0, which the strict parser for presented certificates refuses), and
//! a chain to each serial-zero root validates. The real roots' keys are not ours, so each chain
//! hangs under a synthetic root with the same subject, the same key type and serial 0 (given as
//! an anchor, parsed by the same anchor rules system trust uses); under system trust itself the
//! same roots are checked to be found for their subject.

#![cfg(not(target_arch = "wasm32"))] // ring and the openssl CLI (RSA key generation)
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

use burrow_x509::{
    Certificate, CryptoVerifier, Error, Outcome, ServerCertificates, ServerName, Trust, Verifier,
};
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, KeyPair};

mod support;

use support::der::oids::{EC_PUBLIC_KEY, PRIME256V1};
use support::der::{bit_string, ext, oid, seq, tlv};
use support::keys::{cert, ec384_key, rsa_key};

/// The bundled roots with serial number 0 (webpki-root-certs 1.x, December 2026), by a string
/// of their subject, and whether the key is RSA (else ECDSA P-384).
const SERIAL_ZERO: [(&str, bool); 6] = [
    ("Go Daddy Root Certificate Authority - G2", true),
    ("Starfield Root Certificate Authority - G2", true),
    ("Starfield Services Root Certificate Authority - G2", true),
    ("Security Communication RootCA2", true),
    (
        "Hellenic Academic and Research Institutions RootCA 2015",
        true,
    ),
    (
        "Hellenic Academic and Research Institutions ECC RootCA 2015",
        false,
    ),
];

fn bundled() -> Vec<&'static [u8]> {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .iter()
        .map(|c| -> &'static [u8] { c.as_ref() })
        .collect()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The bundled root whose subject holds `name` (exactly one).
fn root_named(name: &str) -> &'static [u8] {
    let found: Vec<_> = bundled()
        .into_iter()
        .filter(|der| {
            let c = Certificate::from_der_trust_anchor(der).unwrap();
            contains(c.subject(), name.as_bytes())
        })
        .collect();
    assert_eq!(found.len(), 1, "{name}: {} bundled roots", found.len());
    found[0]
}

#[test]
fn every_bundled_root_loads_as_a_trust_anchor() {
    let audit = burrow_x509::probe::audit_system_roots();
    assert_eq!(audit.len(), bundled().len());
    let refused: Vec<_> = audit
        .iter()
        .filter_map(|(i, _, e)| e.map(|e| (*i, e)))
        .collect();
    assert_eq!(refused, vec![], "bundled roots refused as anchors");
    eprintln!("{} bundled roots, all usable", audit.len());
    assert!(audit.len() >= 100, "the bundle shrank: {}", audit.len());

    // The strict parser is unchanged for presented certificates: exactly the serial-zero roots
    // fail it, for that reason.
    let strict: Vec<_> = bundled()
        .into_iter()
        .filter_map(|d| Certificate::from_der(d).err().map(|e| (d, e)))
        .collect();
    assert_eq!(strict.len(), SERIAL_ZERO.len(), "{strict:?}");
    for (_, e) in &strict {
        assert_eq!(*e, Error::Invalid("serial number zero"));
    }
    for (name, _) in SERIAL_ZERO {
        let der = root_named(name);
        assert!(strict.iter().any(|(d, _)| *d == der), "{name}");
        // System trust finds it by subject.
        let c = Certificate::from_der_trust_anchor(der).unwrap();
        assert_eq!(c.serial(), [0], "{name}: serial 0");
        let sys = burrow_x509::probe::system_root(c.subject())
            .unwrap_or_else(|| panic!("{name}: system trust does not find it"));
        assert_eq!(sys.der(), der);
        // And as a --cacert style anchor.
        Trust::anchors_der(&[der]).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A root with `subject`, serial 0 and a fresh key of the kind given; a P-256 leaf for
/// `host` under it.
fn chain_under(subject: &[u8], rsa: bool, host: &str) -> (Vec<u8>, Vec<u8>) {
    let root_key = if rsa { rsa_key() } else { ec384_key() };
    let key_id =
        |spki: &[u8]| ring::digest::digest(&ring::digest::SHA256, spki).as_ref()[..20].to_vec();
    let root_id = key_id(&root_key.spki());
    let ca_exts = [
        // subjectKeyIdentifier.
        ext(&[0x55, 0x1d, 0x0e], false, &tlv(0x04, &root_id)),
        // basicConstraints cA, keyUsage keyCertSign | cRLSign.
        ext(&[0x55, 0x1d, 0x13], true, &seq(&[&[0x01, 0x01, 0xff]])),
        ext(&[0x55, 0x1d, 0x0f], true, &[0x03, 0x02, 0x01, 0x06]),
    ];
    let root = cert(
        &[0],
        subject,
        subject,
        &root_key.spki(),
        &ca_exts,
        &root_key,
    );
    let rng = SystemRandom::new();
    let alg = &signature::ECDSA_P256_SHA256_ASN1_SIGNING;
    let leaf_pk = EcdsaKeyPair::generate_pkcs8(alg, &rng).unwrap();
    let leaf_key = EcdsaKeyPair::from_pkcs8(alg, leaf_pk.as_ref(), &rng).unwrap();
    let leaf_spki = seq(&[
        &seq(&[&oid(EC_PUBLIC_KEY), &oid(PRIME256V1)]),
        &bit_string(leaf_key.public_key().as_ref()),
    ]);
    let leaf_name = seq(&[&tlv(
        0x31,
        &seq(&[&oid(&[0x55, 0x04, 0x03]), &tlv(0x0c, host.as_bytes())]),
    )]);
    let leaf_exts = [
        // authorityKeyIdentifier (keyIdentifier), subjectKeyIdentifier.
        ext(&[0x55, 0x1d, 0x23], false, &seq(&[&tlv(0x80, &root_id)])),
        ext(&[0x55, 0x1d, 0x0e], false, &tlv(0x04, &key_id(&leaf_spki))),
        // subjectAltName dNSName, extKeyUsage serverAuth.
        ext(
            &[0x55, 0x1d, 0x11],
            false,
            &seq(&[&tlv(0x82, host.as_bytes())]),
        ),
        ext(
            &[0x55, 0x1d, 0x25],
            false,
            &seq(&[&oid(&[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01])]),
        ),
    ];
    let leaf = cert(
        &[0x01, 0x23],
        subject,
        &leaf_name,
        &leaf_spki,
        &leaf_exts,
        &root_key,
    );
    (root, leaf)
}

fn verify(trust: Trust, leaf: &[u8], host: &str) -> Result<(), Error> {
    let chain = [leaf];
    let certs = ServerCertificates {
        chain: &chain,
        ocsp_staple: None,
        now: 1_800_000_000,
    };
    match Verifier::new(trust).verify(&certs, &ServerName::parse(host)?, &CryptoVerifier)? {
        Outcome::Verified(_) => Ok(()),
        Outcome::Decide(_) => panic!("no custom trust here"),
    }
}

/// A chain to each serial-zero root's subject and key type validates (the root given as an
/// anchor, parsed as system trust parses its roots); the same root as a *presented*
/// intermediate is still refused by the strict parser.
#[test]
fn chains_to_serial_zero_roots_validate() {
    for (name, rsa) in SERIAL_ZERO {
        let real = Certificate::from_der_trust_anchor(root_named(name)).unwrap();
        let (root, leaf) = chain_under(real.subject(), rsa, "serial-zero.example");
        let synthetic = Certificate::from_der_trust_anchor(&root).unwrap();
        assert_eq!(synthetic.subject(), real.subject());
        assert_eq!(
            synthetic.serial(),
            real.serial(),
            "{name}: serial 0 like the real one"
        );
        assert_eq!(
            Certificate::from_der(&root).unwrap_err(),
            Error::Invalid("serial number zero")
        );
        verify(
            Trust::anchors_der(&[&root]).unwrap(),
            &leaf,
            "serial-zero.example",
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Control: under system trust the same leaf fails (its issuer key is not the real
        // root's; the subject lookup itself is checked in the test above).
        let e = verify(Trust::system(), &leaf, "serial-zero.example").unwrap_err();
        assert_eq!(e, Error::Untrusted, "{name}: {e}");
    }
}
