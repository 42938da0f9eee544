//! Small vector files compiled into the test binary, for wasm32 tests (no file system there).
//!
//! Each is `None` when the build ran with `BURROW_VECTORS=none`; a test must then skip loudly.
//! A missing vectors folder (without `none`) also yields `None` plus a build warning, and
//! [`require`] turns that into a failure naming the folder.

#[cfg(burrow_vectors)]
macro_rules! embed {
    ($rel:literal) => {
        Some(include_str!(concat!(
            env!("BURROW_VECTORS_RESOLVED"),
            "/",
            $rel
        )))
    };
}
#[cfg(not(burrow_vectors))]
macro_rules! embed {
    ($rel:literal) => {
        None
    };
}

/// `hkdf/rfc5869.json`.
pub const HKDF_RFC5869: Option<&str> = embed!("hkdf/rfc5869.json");
/// `tls12-prf/prf.json`.
pub const TLS12_PRF: Option<&str> = embed!("tls12-prf/prf.json");
/// `rfc8448/rfc8448.json`.
pub const RFC8448: Option<&str> = embed!("rfc8448/rfc8448.json");
/// `rfc8448/server_certificate_trimmed.pem`.
pub const RFC8448_SERVER_CERT: Option<&str> = embed!("rfc8448/server_certificate_trimmed.pem");

/// Returns the embedded file or explains why it is absent. `None` only for `BURROW_VECTORS=none`.
pub fn require(file: Option<&'static str>, name: &str) -> Option<&'static str> {
    if file.is_some() {
        return file;
    }
    let setting = option_env!("BURROW_VECTORS").unwrap_or("");
    if setting == "none" {
        crate::skip_loudly(name, "built with BURROW_VECTORS=none");
        return None;
    }
    panic!(
        "vector file {name} was not embedded: the vectors folder was missing at build time \
         (set BURROW_VECTORS to the folder holding the public vectors, or BURROW_VECTORS=none to skip)"
    );
}
