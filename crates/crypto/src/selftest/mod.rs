//! Known-answer tests of every primitive, small enough to run at start-up (the Worker's
//! `/selftest`). Each check compares against a published answer (FIPS 180, RFC 4231, RFC 5869,
//! the IETF TLS 1.2 PRF vectors, the GCM spec's test cases, RFC 8439, RFC 7748, RFC 6979,
//! RFC 8032, Wycheproof), not against this crate's own output.

mod data;

use crate::aead::{self, AeadAlgorithm};
use crate::hash::{self, HashAlgorithm};
use crate::kx::{Group, KeyShare};
use crate::sig::{self, VerifyAlgorithm};
use crate::{hkdf, hmac, mlkem, prf};

/// The result of one known-answer test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// What was tested.
    pub name: &'static str,
    /// Whether the output matched the known answer.
    pub ok: bool,
}

/// Decodes hex; `None` on any malformed input.
fn hex(s: &str) -> Option<Vec<u8>> {
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => c.checked_sub(b'0'),
            b'a'..=b'f' => c.checked_sub(b'a').and_then(|v| v.checked_add(10)),
            b'A'..=b'F' => c.checked_sub(b'A').and_then(|v| v.checked_add(10)),
            _ => None,
        }
    }
    let bytes = s.as_bytes();
    if bytes.len() % 2 != 0 {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|pair| match pair {
            [hi, lo] => Some(nibble(*hi)?.checked_mul(16)?.checked_add(nibble(*lo)?)?),
            _ => None,
        })
        .collect()
}

/// `Some(true)` when `got` equals the hex `want`.
fn same(got: &[u8], want: &str) -> Option<bool> {
    Some(got == hex(want)?.as_slice())
}

fn sha256_abc() -> Option<bool> {
    same(
        hash::digest(HashAlgorithm::Sha256, b"abc").as_ref(),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    )
}

fn sha384_abc() -> Option<bool> {
    same(
        hash::digest(HashAlgorithm::Sha384, b"abc").as_ref(),
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed\
         8086072ba1e7cc2358baeca134c825a7",
    )
}

fn sha512_abc() -> Option<bool> {
    // Incremental and forked: the transcript-hash usage.
    let mut ctx = hash::Context::new(HashAlgorithm::Sha512);
    ctx.update(b"a");
    let fork = ctx.clone();
    ctx.update(b"bc");
    let mut fork = fork;
    fork.update(b"bc");
    let a = ctx.finish();
    Some(
        a == fork.finish()
            && same(
                a.as_ref(),
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                 2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            )?,
    )
}

fn hmac_rfc4231() -> Option<bool> {
    let tag = hmac::sign(
        HashAlgorithm::Sha256,
        b"Jefe",
        b"what do ya want for nothing?",
    );
    Some(
        same(
            tag.as_ref(),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        )? && hmac::verify(
            HashAlgorithm::Sha256,
            b"Jefe",
            b"what do ya want for nothing?",
            tag.as_ref(),
        )
        .is_ok(),
    )
}

fn hkdf_rfc5869() -> Option<bool> {
    let prk = hkdf::extract(
        HashAlgorithm::Sha256,
        &hex("000102030405060708090a0b0c")?,
        &hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b")?,
    );
    let mut okm = [0u8; 42];
    hkdf::expand(
        HashAlgorithm::Sha256,
        prk.as_ref(),
        &hex("f0f1f2f3f4f5f6f7f8f9")?,
        &mut okm,
    )
    .ok()?;
    Some(
        same(
            prk.as_ref(),
            "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
        )? && same(
            &okm,
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
        )?,
    )
}

fn tls12_prf() -> Option<bool> {
    let mut out = [0u8; 100];
    prf::tls12(
        HashAlgorithm::Sha256,
        &hex("9bbe436ba940f017b17652849a71db35")?,
        b"test label",
        &hex("a0ba9f936cda311827a6f796ffd5198c")?,
        &mut out,
    )
    .ok()?;
    same(
        &out,
        "e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9a46b4e14ba\
         f9af0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa48082d122ee42c5a72e5a51\
         10fff70187347b66",
    )
}

fn gcm(alg: AeadAlgorithm, key_len: usize, want: &str) -> Option<bool> {
    // GCM spec test cases 2 (AES-128) and 14 (AES-256): zero key, zero IV, one zero block.
    let key = vec![0u8; key_len];
    let sealed = aead::seal(alg, &key, &[0u8; 12], &[], &[0u8; 16]).ok()?;
    let opened = aead::open(alg, &key, &[0u8; 12], &[], &sealed).ok()?;
    let mut tampered = sealed.clone();
    let first = tampered.first_mut()?;
    *first ^= 1;
    let rejected = aead::open(alg, &key, &[0u8; 12], &[], &tampered).is_err();
    Some(same(&sealed, want)? && opened == [0u8; 16] && rejected)
}

fn chacha_rfc8439() -> Option<bool> {
    // RFC 8439 §2.8.2; the tag authenticates the whole ciphertext.
    let key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")?;
    let nonce: [u8; 12] = hex("070000004041424344454647")?.try_into().ok()?;
    let aad = hex("50515253c0c1c2c3c4c5c6c7")?;
    let pt: &[u8] = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip \
                      for the future, sunscreen would be it.";
    let key = aead::AeadKey::new(AeadAlgorithm::ChaCha20Poly1305, &key).ok()?;
    let mut buf = pt.to_vec();
    let tag = key.seal_in_place(&nonce, &aad, &mut buf).ok()?;
    let prefix_ok = same(buf.get(..16)?, "d31a8d34648e60db7b86afbc53ef7ec2")?;
    let tag_ok = same(&tag, "1ae10b594f09e26a7e902ecbd0600691")?;
    key.open_in_place(&nonce, &aad, &mut buf, &tag).ok()?;
    Some(prefix_ok && tag_ok && buf == pt)
}

fn x25519_rfc7748() -> Option<bool> {
    let alice = KeyShare::from_seed(
        Group::X25519,
        &hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")?,
    )
    .ok()?;
    let bob_pub = hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")?;
    let shared = alice.complete(&bob_pub).ok()?;
    // A low-order point (u = 0) must be refused.
    let zero_refused = alice.complete(&[0u8; 32]).is_err();
    Some(
        same(
            alice.public_key(),
            "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
        )? && same(
            shared.as_ref(),
            "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
        )? && zero_refused,
    )
}

/// Scalar 1 gives the generator; 1·G gives G's x coordinate; two scalars agree.
fn ecdh_generator(group: Group, gx: &str, gy: &str) -> Option<bool> {
    let len = group.seed_len();
    let mut one = vec![0u8; len];
    *one.last_mut()? = 1;
    let share = KeyShare::from_seed(group, &one).ok()?;
    let mut g = hex("04")?;
    g.extend(hex(gx)?);
    g.extend(hex(gy)?);
    let public_ok = share.public_key() == g.as_slice();
    let shared_ok = same(share.complete(&g).ok()?.as_ref(), gx)?;
    let a = KeyShare::from_seed(group, &vec![0x11; len]).ok()?;
    let b = KeyShare::from_seed(group, &vec![0x22; len]).ok()?;
    let agree =
        a.complete(b.public_key()).ok()?.as_ref() == b.complete(a.public_key()).ok()?.as_ref();
    let zero_refused = KeyShare::from_seed(group, &vec![0u8; len]).is_err();
    Some(public_ok && shared_ok && agree && zero_refused)
}

fn ecdsa_rfc6979() -> Option<bool> {
    // RFC 6979 A.2.5, P-256, SHA-256, message "sample".
    let mut spki = hex("3059301306072a8648ce3d020106082a8648ce3d030107034200")?;
    spki.extend(hex(
        "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
    )?);
    spki.extend(hex(
        "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
    )?);
    let mut sig = hex("3046022100")?;
    sig.extend(hex(
        "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
    )?);
    sig.extend(hex("022100")?);
    sig.extend(hex(
        "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
    )?);
    let good = sig::verify(VerifyAlgorithm::EcdsaP256Sha256, &spki, b"sample", &sig).is_ok();
    let bad = sig::verify(VerifyAlgorithm::EcdsaP256Sha256, &spki, b"samplf", &sig).is_err();
    Some(good && bad)
}

fn ed25519_rfc8032() -> Option<bool> {
    // RFC 8032 §7.1 TEST 1 (empty message).
    let mut spki = hex("302a300506032b6570032100")?;
    spki.extend(hex(
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    )?);
    let sig = hex(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155\
         5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    )?;
    let good = sig::verify(VerifyAlgorithm::Ed25519, &spki, b"", &sig).is_ok();
    let bad = sig::verify(VerifyAlgorithm::Ed25519, &spki, b"x", &sig).is_err();
    Some(good && bad)
}

fn rsa(alg: VerifyAlgorithm, spki: &str, sig: &str) -> Option<bool> {
    let spki = hex(spki)?;
    let sig = hex(sig)?;
    let good = sig::verify(alg, &spki, b"", &sig).is_ok();
    let bad = sig::verify(alg, &spki, b"x", &sig).is_err();
    Some(good && bad)
}

fn mlkem_wycheproof() -> Option<bool> {
    let dk = mlkem::DecapsulationKey::from_seed(&hex(data::MLKEM_SEED)?).ok()?;
    let ek_ok = same(
        hash::digest(HashAlgorithm::Sha256, dk.encapsulation_key()).as_ref(),
        data::MLKEM_EK_SHA256,
    )?;
    let k = dk.decapsulate(&hex(data::MLKEM_CT)?).ok()?;
    Some(ek_ok && same(k.as_ref(), data::MLKEM_K)?)
}

fn hybrid_roundtrip() -> Option<bool> {
    let seed: Vec<u8> = (0u8..96).collect();
    let client = KeyShare::from_seed(Group::X25519MlKem768, &seed).ok()?;
    let (ek, x_client) = client
        .public_key()
        .split_at_checked(mlkem::ENCAPSULATION_KEY_LEN)?;
    let (ct, kem_ss) = mlkem::encapsulate(ek, &[7u8; 32]).ok()?;
    let server_x = [9u8; 32];
    let x_ss = crate::kx::x25519(&server_x, x_client).ok()?;
    let server_x_pub = crate::kx::x25519(&server_x, &{
        let mut base = [0u8; 32];
        *base.first_mut()? = 9;
        base
    })
    .ok()?;
    let mut share = ct;
    share.extend_from_slice(server_x_pub.as_ref());
    let got = client.complete(&share).ok()?;
    let mut want = kem_ss.to_vec();
    want.extend_from_slice(x_ss.as_ref());
    Some(got.as_ref() == want.as_slice() && got.as_ref().len() == 64)
}

fn rand_fill() -> Option<bool> {
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    crate::rand::fill(&mut a).ok()?;
    crate::rand::fill(&mut b).ok()?;
    Some(a != b && a != [0u8; 32])
}

/// One known-answer test: `Some(true)` when it matched, `None` when it could not run.
type KnownAnswer = fn() -> Option<bool>;

/// Runs every known-answer test and reports each one.
pub fn run() -> Vec<Check> {
    let checks: [(&'static str, KnownAnswer); 20] = [
        ("sha256", sha256_abc),
        ("sha384", sha384_abc),
        ("sha512-incremental", sha512_abc),
        ("hmac-sha256", hmac_rfc4231),
        ("hkdf-sha256", hkdf_rfc5869),
        ("tls12-prf-sha256", tls12_prf),
        ("aes-128-gcm", || {
            gcm(
                AeadAlgorithm::Aes128Gcm,
                16,
                "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf",
            )
        }),
        ("aes-256-gcm", || {
            gcm(
                AeadAlgorithm::Aes256Gcm,
                32,
                "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919",
            )
        }),
        ("chacha20-poly1305", chacha_rfc8439),
        ("x25519", x25519_rfc7748),
        ("ecdh-p256", || {
            ecdh_generator(
                Group::Secp256r1,
                "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
                "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
            )
        }),
        ("ecdh-p384", || {
            ecdh_generator(
                Group::Secp384r1,
                "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7",
                "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f",
            )
        }),
        ("ecdsa-p256-sha256", ecdsa_rfc6979),
        ("ed25519", ed25519_rfc8032),
        ("rsa-pkcs1-sha256", || {
            rsa(
                VerifyAlgorithm::RsaPkcs1Sha256,
                data::RSA_PKCS1_SPKI,
                data::RSA_PKCS1_SIG,
            )
        }),
        ("rsa-pss-sha256", || {
            rsa(
                VerifyAlgorithm::RsaPssSha256,
                data::RSA_PSS_SPKI,
                data::RSA_PSS_SIG,
            )
        }),
        ("ml-kem-768", mlkem_wycheproof),
        ("x25519mlkem768", hybrid_roundtrip),
        ("rand", rand_fill),
        ("hex-decoder", || {
            Some(hex("0aF0")? == [0x0a, 0xf0] && hex("0g").is_none())
        }),
    ];
    checks
        .iter()
        .map(|(name, f)| Check {
            name,
            ok: f() == Some(true),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_check_passes() {
        let checks = super::run();
        assert_eq!(checks.len(), 20);
        let failed: Vec<_> = checks.iter().filter(|c| !c.ok).map(|c| c.name).collect();
        assert!(failed.is_empty(), "failed self-tests: {failed:?}");
    }
}
