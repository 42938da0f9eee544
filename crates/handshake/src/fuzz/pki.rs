//! The certificate the connection driver offers and its seeds send: a minimal one, since the
//! driver answers every chain check itself.

use burrow_crypto::kx::{Group, KeyShare};

/// DER TLV with a definite length (short form, or one or two length bytes).
pub(super) fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![tag];
    let len = body.len();
    if let Ok(short) = u8::try_from(len) {
        if short < 0x80 {
            v.push(short);
        } else {
            v.extend([0x81, short]);
        }
    } else {
        v.push(0x82);
        v.extend(u16::try_from(len).unwrap_or(u16::MAX).to_be_bytes());
    }
    v.extend_from_slice(body);
    v
}

/// A minimal certificate for a P-256 key: enough for the connection's SPKI extraction and
/// burrow-crypto's key parse (the chain itself is answered valid by the driver). Made once per
/// process: its P-256 key generation was 17 % of the `tls13_connection` target's time when made
/// per input (perf, 2026-12-07).
pub fn p256_certificate() -> Vec<u8> {
    static CERTIFICATE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    CERTIFICATE.get_or_init(make_p256_certificate).clone()
}

fn make_p256_certificate() -> Vec<u8> {
    let ec_alg = tlv(
        0x30,
        &[
            tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]),
            tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]),
        ]
        .concat(),
    );
    let mut point = vec![0u8];
    let key = KeyShare::from_seed(Group::Secp256r1, &[0x42; 32]);
    point.extend(key.map_or_else(|_| Vec::new(), |k| k.public_key().to_vec()));
    let spki = tlv(0x30, &[ec_alg, tlv(0x03, &point)].concat());
    let sig_alg = tlv(
        0x30,
        &tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]),
    );
    let name = tlv(
        0x30,
        &tlv(
            0x31,
            &tlv(
                0x30,
                &[tlv(0x06, &[0x55, 0x04, 0x03]), tlv(0x0c, b"example.com")].concat(),
            ),
        ),
    );
    let validity = tlv(
        0x30,
        &[tlv(0x17, b"230101000000Z"), tlv(0x17, b"330101000000Z")].concat(),
    );
    let tbs = tlv(
        0x30,
        &[
            tlv(0xa0, &tlv(0x02, &[2])),
            tlv(0x02, &[0x01]),
            sig_alg.clone(),
            name.clone(),
            validity,
            name,
            spki,
        ]
        .concat(),
    );
    tlv(0x30, &[tbs, sig_alg, tlv(0x03, &[0u8; 9])].concat())
}
