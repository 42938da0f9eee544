//! X25519MLKEM768 (codepoint 0x11ec) end to end: the client share from the crate, the server
//! side built here from the ML-KEM encapsulation and raw X25519.

use burrow_crypto::kx::{self, Group, KeyShare};
use burrow_crypto::{mlkem, CryptoError};

const BASEPOINT: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 9;
    b
};

/// Builds a server share for `client_public`; returns (server share, server's view of the secret).
fn server(client_public: &[u8], m: &[u8; 32], x_private: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    assert_eq!(client_public.len(), mlkem::ENCAPSULATION_KEY_LEN + 32);
    let (ek, x_client) = client_public.split_at(mlkem::ENCAPSULATION_KEY_LEN);
    let (ct, kem_ss) = mlkem::encapsulate(ek, m).expect("valid encapsulation key");
    assert_eq!(ct.len(), mlkem::CIPHERTEXT_LEN);
    let x_ss = kx::x25519(x_private, x_client).expect("x25519");
    let x_pub = kx::x25519(x_private, &BASEPOINT).expect("public");
    let mut share = ct;
    share.extend_from_slice(x_pub.as_ref());
    let mut secret = kem_ss.to_vec();
    secret.extend_from_slice(x_ss.as_ref());
    (share, secret)
}

pub fn roundtrip() {
    assert_eq!(Group::X25519MlKem768.codepoint(), 0x11ec);
    assert_eq!(Group::X25519MlKem768.seed_len(), 96);
    for i in 0u8..4 {
        let seed: Vec<u8> = (0..96)
            .map(|j: u8| j.wrapping_mul(31).wrapping_add(i))
            .collect();
        let client = KeyShare::from_seed(Group::X25519MlKem768, &seed).expect("seed");
        assert_eq!(client.public_key().len(), 1184 + 32);
        // The X25519 half of the client share is the plain X25519 public key of the last 32 bytes.
        let x_only = KeyShare::from_seed(Group::X25519, &seed[64..]).expect("x25519 seed");
        assert_eq!(&client.public_key()[1184..], x_only.public_key());
        let (share, server_secret) = server(
            client.public_key(),
            &[i ^ 0x5a; 32],
            &[i.wrapping_add(77); 32],
        );
        assert_eq!(share.len(), 1088 + 32);
        let client_secret = client.complete(&share).expect("complete");
        assert_eq!(client_secret.as_ref().len(), 64);
        assert_eq!(
            client_secret.as_ref(),
            server_secret.as_slice(),
            "both sides agree"
        );
    }
    crate::say("x25519mlkem768: 4 client/server round trips agree");
}

pub fn rejects_bad_shares() {
    let seed = [0x42u8; 96];
    let client = KeyShare::from_seed(Group::X25519MlKem768, &seed).expect("seed");
    let (share, _) = server(client.public_key(), &[1; 32], &[2; 32]);
    // Wrong lengths.
    for len in [0, 32, 1088, 1088 + 31, 1088 + 33, 1184 + 32] {
        let mut s = share.clone();
        s.resize(len, 0);
        assert_eq!(
            client.complete(&s).map(|_| ()),
            Err(CryptoError::InvalidPublicKey),
            "len {len}"
        );
    }
    // A low-order X25519 part (u = 0, u = 1) gives the all-zero X25519 secret: refused.
    for low in [[0u8; 32], {
        let mut one = [0u8; 32];
        one[0] = 1;
        one
    }] {
        let mut s = share.clone();
        s[1088..].copy_from_slice(&low);
        assert_eq!(
            client.complete(&s).map(|_| ()),
            Err(CryptoError::AllZeroSharedSecret)
        );
    }
    // A tampered ciphertext is implicitly rejected: a different secret, never the right one.
    let good = client.complete(&share).expect("good");
    let mut s = share.clone();
    s[10] ^= 1;
    let bad = client
        .complete(&s)
        .expect("implicit rejection still yields a secret");
    assert_ne!(good.as_ref(), bad.as_ref());
    // Bad seeds.
    assert_eq!(
        KeyShare::from_seed(Group::X25519MlKem768, &[0; 95]).map(|_| ()),
        Err(CryptoError::BadKeyLength)
    );
    // An encapsulation key with an unreduced coefficient is refused by encapsulate.
    let mut ek = client.public_key()[..1184].to_vec();
    ek[0] = 0xff;
    ek[1] |= 0x0f;
    assert_eq!(
        mlkem::encapsulate(&ek, &[0; 32]).map(|_| ()),
        Err(CryptoError::InvalidPublicKey)
    );
}

pub fn x25519_low_order() {
    let share = KeyShare::from_seed(Group::X25519, &[7u8; 32]).expect("seed");
    // u = 0, u = 1 and the order-8 point 0xe0eb7a7c... all give the all-zero secret.
    let order8 = burrow_testkit::hex::decode(
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    );
    let mut one = [0u8; 32];
    one[0] = 1;
    for p in [vec![0u8; 32], one.to_vec(), order8] {
        assert_eq!(
            share.complete(&p).map(|_| ()),
            Err(CryptoError::AllZeroSharedSecret)
        );
    }
    assert_eq!(
        share.complete(&[9u8; 31]).map(|_| ()),
        Err(CryptoError::InvalidPublicKey)
    );
}

pub fn ec_points_shape() {
    for (group, len) in [(Group::Secp256r1, 65), (Group::Secp384r1, 97)] {
        let a = KeyShare::from_seed(group, &vec![3u8; group.seed_len()]).expect("seed");
        let b = KeyShare::from_seed(group, &vec![5u8; group.seed_len()]).expect("seed");
        assert_eq!(a.public_key().len(), len);
        assert_eq!(a.public_key()[0], 4);
        assert_eq!(
            a.complete(b.public_key()).expect("dh").as_ref(),
            b.complete(a.public_key()).expect("dh").as_ref()
        );
        // Compressed form of a valid point: refused (TLS 1.3 requires uncompressed).
        let mut compressed = b.public_key()[..len.div_ceil(2)].to_vec();
        compressed[0] = 2 + (b.public_key()[len - 1] & 1);
        assert_eq!(
            a.complete(&compressed).map(|_| ()),
            Err(CryptoError::InvalidPublicKey)
        );
        // Off-curve point.
        let mut off = b.public_key().to_vec();
        off[len - 1] ^= 1;
        assert_eq!(
            a.complete(&off).map(|_| ()),
            Err(CryptoError::InvalidPublicKey)
        );
        // Scalars 0 and n (out of range).
        assert_eq!(
            KeyShare::from_seed(group, &vec![0u8; group.seed_len()]).map(|_| ()),
            Err(CryptoError::InvalidPrivateKey)
        );
        assert_eq!(
            KeyShare::from_seed(group, &vec![0xffu8; group.seed_len()]).map(|_| ()),
            Err(CryptoError::InvalidPrivateKey)
        );
    }
}
