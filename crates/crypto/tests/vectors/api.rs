//! Contract checks that no public suite covers: RSA key-size bounds (checked before any
//! arithmetic), key/algorithm mismatches, malformed DER, error codes, and no panic on arbitrary
//! peer bytes.

use burrow_crypto::aead::{self, AeadAlgorithm};
use burrow_crypto::kx::{Group, KeyShare};
use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::CryptoError;

use burrow_der::writer::tlv as der;

/// An rsaEncryption SPKI around modulus `n` (big-endian, no sign byte) and exponent 65537.
fn rsa_spki(n: &[u8]) -> Vec<u8> {
    let mut int_n = Vec::new();
    if n[0] & 0x80 != 0 {
        int_n.push(0);
    }
    int_n.extend_from_slice(n);
    let key = der(0x30, &[der(0x02, &int_n), der(0x02, &[1, 0, 1])].concat());
    let alg = der(
        0x30,
        &[
            der(
                0x06,
                &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01],
            ),
            vec![0x05, 0x00],
        ]
        .concat(),
    );
    let bits = der(0x03, &[vec![0], key].concat());
    der(0x30, &[alg, bits].concat())
}

const ALL: [VerifyAlgorithm; 11] = [
    VerifyAlgorithm::EcdsaP256Sha256,
    VerifyAlgorithm::EcdsaP256Sha384,
    VerifyAlgorithm::EcdsaP384Sha256,
    VerifyAlgorithm::EcdsaP384Sha384,
    VerifyAlgorithm::RsaPkcs1Sha256,
    VerifyAlgorithm::RsaPkcs1Sha384,
    VerifyAlgorithm::RsaPkcs1Sha512,
    VerifyAlgorithm::RsaPssSha256,
    VerifyAlgorithm::RsaPssSha384,
    VerifyAlgorithm::RsaPssSha512,
    VerifyAlgorithm::Ed25519,
];

pub fn rsa_key_bounds() {
    let sig = vec![1u8; 256];
    // 2047 bits: too small.
    let mut n = vec![0xffu8; 256];
    n[0] = 0x7f;
    assert_eq!(
        sig::verify(VerifyAlgorithm::RsaPkcs1Sha256, &rsa_spki(&n), b"m", &sig),
        Err(CryptoError::KeyTooSmall)
    );
    // 1024 bits: too small.
    assert_eq!(
        sig::verify(
            VerifyAlgorithm::RsaPssSha256,
            &rsa_spki(&[0xff; 128]),
            b"m",
            &sig
        ),
        Err(CryptoError::KeyTooSmall)
    );
    // 8193 bits: too large (a leading 0x01 byte before 1024 bytes).
    let mut n = vec![0xffu8; 1025];
    n[0] = 0x01;
    assert_eq!(
        sig::verify(VerifyAlgorithm::RsaPkcs1Sha512, &rsa_spki(&n), b"m", &sig),
        Err(CryptoError::KeyTooLarge)
    );
    // 16384 bits: too large, refused at once.
    assert_eq!(
        sig::verify(
            VerifyAlgorithm::RsaPkcs1Sha256,
            &rsa_spki(&[0xff; 2048]),
            b"m",
            &sig
        ),
        Err(CryptoError::KeyTooLarge)
    );
    // 2048 bits exactly passes the bound and fails only on the signature.
    assert_eq!(
        sig::verify(
            VerifyAlgorithm::RsaPkcs1Sha256,
            &rsa_spki(&[0xff; 256]),
            b"m",
            &sig
        ),
        Err(CryptoError::BadSignature)
    );
}

pub fn mismatches_and_malformed() {
    let rsa = rsa_spki(&[0xff; 256]);
    for alg in [
        VerifyAlgorithm::EcdsaP256Sha256,
        VerifyAlgorithm::EcdsaP384Sha384,
        VerifyAlgorithm::Ed25519,
    ] {
        assert_eq!(
            sig::verify(alg, &rsa, b"m", &[0; 64]),
            Err(CryptoError::UnsupportedAlgorithm),
            "{alg:?}"
        );
    }
    let mut trailing = rsa.clone();
    trailing.push(0);
    assert_eq!(
        sig::verify(VerifyAlgorithm::RsaPkcs1Sha256, &trailing, b"m", &[0; 256]),
        Err(CryptoError::BadEncoding)
    );
    for alg in ALL {
        assert_eq!(
            sig::verify(alg, &[], b"m", &[]),
            Err(CryptoError::BadEncoding)
        );
        assert_eq!(
            sig::verify(alg, &rsa[..rsa.len() - 1], b"m", &[]),
            Err(CryptoError::BadEncoding)
        );
    }
    assert_eq!(
        aead::open(AeadAlgorithm::Aes128Gcm, &[0; 16], &[0; 12], &[], &[0; 15]),
        Err(CryptoError::DecryptFailed)
    );
    assert_eq!(
        aead::seal(AeadAlgorithm::Aes256Gcm, &[0; 16], &[0; 12], &[], b"x"),
        Err(CryptoError::BadKeyLength)
    );
    assert_eq!(
        aead::seal(
            AeadAlgorithm::ChaCha20Poly1305,
            &[0; 31],
            &[0; 12],
            &[],
            b"x"
        ),
        Err(CryptoError::BadKeyLength)
    );
    assert_eq!(
        KeyShare::from_seed(Group::X25519, &[1; 31]).map(|_| ()),
        Err(CryptoError::BadKeyLength)
    );
    assert_eq!(
        KeyShare::from_seed(Group::Secp384r1, &[1; 32]).map(|_| ()),
        Err(CryptoError::BadKeyLength)
    );
    for g in [
        Group::X25519,
        Group::Secp256r1,
        Group::Secp384r1,
        Group::X25519MlKem768,
    ] {
        assert_eq!(Group::from_codepoint(g.codepoint()), Some(g));
    }
}

pub fn error_codes() {
    let all = [
        CryptoError::BadKeyLength,
        CryptoError::BadNonce,
        CryptoError::DecryptFailed,
        CryptoError::BadSignature,
        CryptoError::UnsupportedAlgorithm,
        CryptoError::InvalidPublicKey,
        CryptoError::InvalidPrivateKey,
        CryptoError::AllZeroSharedSecret,
        CryptoError::KeyTooSmall,
        CryptoError::KeyTooLarge,
        CryptoError::BadOutputLength,
        CryptoError::InputTooLong,
        CryptoError::BadEncoding,
        CryptoError::Rng,
    ];
    let mut codes: Vec<_> = all.iter().map(|e| e.code()).collect();
    for e in all {
        assert!(e.code().starts_with("CRYPTO_"));
        assert!(e.to_string().contains(e.code()));
    }
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), all.len(), "codes are unique");
}

/// Arbitrary bytes as keys, signatures and shares: typed errors, never a panic (a panic in wasm
/// traps the Worker).
pub fn no_panic_on_garbage() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let valid_p256 = KeyShare::from_seed(Group::Secp256r1, &[3; 32])
        .unwrap()
        .public_key()
        .to_vec();
    let shares: Vec<KeyShare> = [
        Group::X25519,
        Group::Secp256r1,
        Group::Secp384r1,
        Group::X25519MlKem768,
    ]
    .iter()
    .map(|g| KeyShare::from_seed(*g, &vec![0x17; g.seed_len()]).unwrap())
    .collect();
    let mut calls = 0;
    for round in 0..400 {
        let len = (next() % 300) as usize;
        let mut bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if round % 10 == 0 {
            // Mutate a structured input instead, to get past the outer DER.
            bytes = rsa_spki(&[0xff; 256]);
            let i = (next() as usize) % bytes.len();
            bytes[i] ^= next() as u8 | 1;
        }
        if round % 5 == 0 {
            bytes = valid_p256.clone();
            let i = (next() as usize) % bytes.len();
            bytes[i] ^= next() as u8 | 1;
        }
        for alg in ALL {
            let _ = sig::verify(alg, &bytes, b"msg", &bytes);
            calls += 1;
        }
        for share in &shares {
            let _ = share.complete(&bytes);
            // Full-length hybrid shares reach ML-KEM decapsulation (slow in debug builds).
            if share.group() == Group::X25519MlKem768 && round % 20 != 0 {
                continue;
            }
            let mut sized = bytes.clone();
            sized.resize(share.group().peer_share_len(), 0x42);
            let _ = share.complete(&sized);
            calls += 2;
        }
        for g in [Group::Secp256r1, Group::Secp384r1] {
            let _ = KeyShare::from_seed(g, &bytes);
            calls += 1;
        }
        let _ = aead::open(
            AeadAlgorithm::ChaCha20Poly1305,
            &[1; 32],
            &[0; 12],
            &bytes,
            &bytes,
        );
        let _ = burrow_crypto::mlkem::encapsulate(&bytes, &[0; 32]);
        calls += 2;
    }
    crate::say(&format!("garbage inputs: {calls} calls, no panic"));
}
