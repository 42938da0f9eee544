//! The demo Worker's diagnostics routes, as plain Rust (unit-tested natively, run in workerd
//! through the `handle` export of the `demo` feature; `worker/js/diagnostics.mjs` calls it).

use crate::clock;
use crate::json::{push_ms, push_str};
use burrow_crypto::aead::{AeadAlgorithm, AeadKey};
use burrow_crypto::hash::{self, HashAlgorithm};
use burrow_crypto::kx::{Group, KeyShare};
use std::fmt::Write;
use wasm_bindgen::prelude::wasm_bindgen;

/// A finished HTTP response, handed back to the JavaScript entry module.
#[wasm_bindgen]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    status: u16,
    content_type: &'static str,
    body: String,
}

impl Reply {
    /// A JSON reply with the given status.
    pub fn json(status: u16, body: String) -> Self {
        Self {
            status,
            content_type: "application/json; charset=utf-8",
            body,
        }
    }
}

#[wasm_bindgen]
impl Reply {
    /// HTTP status code.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Value for the `content-type` header.
    #[wasm_bindgen(getter, js_name = contentType)]
    pub fn content_type(&self) -> String {
        self.content_type.to_owned()
    }

    /// Response body.
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> String {
        self.body.clone()
    }
}

/// The demo Worker's request handler: `method` is the HTTP method, `path` the URL path and
/// `query` the URL's search string (with or without the leading `?`).
#[cfg(feature = "demo")]
#[wasm_bindgen]
pub fn handle(method: &str, path: &str, query: &str) -> Reply {
    route(method, path, query)
}

/// This crate's version, reported by `/health`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Upper bound for `/bench?mb=` (bulk operations) so a request stays well under a second or two.
pub const BENCH_MAX_MB: u32 = 64;
/// Upper bound for `/bench?n=` (per-operation benchmarks such as key exchange).
pub const BENCH_MAX_N: u32 = 2000;

/// Dispatches one request. `query` is the URL search string, with or without its leading `?`.
pub fn route(method: &str, path: &str, query: &str) -> Reply {
    if method != "GET" && method != "HEAD" {
        return error(405, "METHOD_NOT_ALLOWED", "only GET and HEAD are served");
    }
    match path {
        "/health" => health(),
        "/selftest" => selftest(),
        "/bench" => bench(query),
        _ => error(
            404,
            "NOT_FOUND",
            "try /health, /selftest or /bench?op=chacha20poly1305&mb=8",
        ),
    }
}

fn health() -> Reply {
    let mut body = String::from("{\"ok\":true,\"version\":");
    push_str(&mut body, VERSION);
    body.push('}');
    Reply::json(200, body)
}

/// Runs every crypto known-answer test inside this instance. No checks at all counts as failure.
fn selftest() -> Reply {
    let start = clock::now_ms();
    let checks = burrow_crypto::selftest::run();
    let ms = clock::now_ms() - start;
    let ok = !checks.is_empty() && checks.iter().all(|c| c.ok);
    let mut body = String::from("{\"ok\":");
    body.push_str(if ok { "true" } else { "false" });
    body.push_str(",\"checks\":[");
    for (i, check) in checks.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str("{\"name\":");
        push_str(&mut body, check.name);
        body.push_str(",\"ok\":");
        body.push_str(if check.ok { "true" } else { "false" });
        body.push('}');
    }
    body.push_str("],\"ms\":");
    push_ms(&mut body, ms);
    body.push('}');
    Reply::json(if ok { 200 } else { 500 }, body)
}

fn error(status: u16, code: &str, message: &str) -> Reply {
    let mut body = String::from("{\"ok\":false,\"error\":");
    push_str(&mut body, code);
    body.push_str(",\"message\":");
    push_str(&mut body, message);
    body.push('}');
    Reply::json(status, body)
}

fn query_param<'q>(query: &'q str, key: &str) -> Option<&'q str> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == key).then_some(v)
    })
}

fn bounded_param(query: &str, key: &str, default: u32, max: u32) -> Result<u32, Reply> {
    match query_param(query, key) {
        None => Ok(default),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(error(
                400,
                "BAD_PARAM",
                "mb must be 1..=64 and n must be 1..=2000",
            )),
        },
    }
}

/// One benchmark: what it runs and how much of it.
enum BenchOp {
    Seal(AeadAlgorithm),
    Sha256,
    X25519,
}

fn bench(query: &str) -> Reply {
    let op = match query_param(query, "op").unwrap_or("chacha20poly1305") {
        "chacha20poly1305" => BenchOp::Seal(AeadAlgorithm::ChaCha20Poly1305),
        "aes128gcm" => BenchOp::Seal(AeadAlgorithm::Aes128Gcm),
        "aes256gcm" => BenchOp::Seal(AeadAlgorithm::Aes256Gcm),
        "sha256" => BenchOp::Sha256,
        "x25519" => BenchOp::X25519,
        _ => {
            return error(
                400,
                "BAD_PARAM",
                "op must be chacha20poly1305, aes128gcm, aes256gcm, sha256 or x25519",
            )
        }
    };
    let (unit, amount) = match op {
        BenchOp::X25519 => match bounded_param(query, "n", 200, BENCH_MAX_N) {
            Ok(n) => ("ops", n),
            Err(reply) => return reply,
        },
        _ => match bounded_param(query, "mb", 8, BENCH_MAX_MB) {
            Ok(mb) => ("mb", mb),
            Err(reply) => return reply,
        },
    };
    let start = clock::now_ms();
    let result = match op {
        BenchOp::Seal(alg) => bench_seal(alg, amount),
        BenchOp::Sha256 => Ok(bench_sha256(amount)),
        BenchOp::X25519 => bench_x25519(amount),
    };
    let ms = clock::now_ms() - start;
    let check = match result {
        Ok(check) => check,
        Err(e) => return error(500, e.code(), "the benchmark's crypto call failed"),
    };
    let mut body = String::from("{\"ok\":true,\"op\":");
    push_str(
        &mut body,
        query_param(query, "op").unwrap_or("chacha20poly1305"),
    );
    let _ = write!(body, ",\"{unit}\":{amount},\"check\":{check},\"ms\":");
    push_ms(&mut body, ms);
    body.push('}');
    Reply::json(200, body)
}

const RECORD: usize = 16 * 1024;
/// Records per MiB (1 MiB / `RECORD`).
const RECORDS_PER_MIB: u64 = (1024 * 1024) / (16 * 1024);

/// Seals `mb` MiB as 16 KiB records; returns a value derived from every tag (so nothing is
/// optimised away).
fn bench_seal(alg: AeadAlgorithm, mb: u32) -> Result<u32, burrow_crypto::CryptoError> {
    let key_bytes = [7u8; 32];
    let key = AeadKey::new(alg, key_bytes.get(..alg.key_len()).unwrap_or(&key_bytes))?;
    let mut record = vec![0x5au8; RECORD];
    let mut check = 0u32;
    let records = u64::from(mb).saturating_mul(RECORDS_PER_MIB);
    for seq in 0..records {
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&seq.to_be_bytes());
        let tag = key.seal_in_place(&nonce, b"aad", &mut record)?;
        check = check.rotate_left(5) ^ u32::from_le_bytes([tag[0], tag[1], tag[2], tag[3]]);
    }
    Ok(check)
}

fn bench_sha256(mb: u32) -> u32 {
    let block = vec![0xa5u8; RECORD];
    let mut ctx = hash::Context::new(HashAlgorithm::Sha256);
    for _ in 0..u64::from(mb).saturating_mul(RECORDS_PER_MIB) {
        ctx.update(&block);
    }
    let out = ctx.finish();
    let mut first = [0u8; 4];
    first.copy_from_slice(out.as_ref().get(..4).unwrap_or(&[0; 4]));
    u32::from_le_bytes(first)
}

/// `n` X25519 key generations plus shared-secret computations.
fn bench_x25519(n: u32) -> Result<u32, burrow_crypto::CryptoError> {
    let peer = KeyShare::from_seed(Group::X25519, &[9u8; 32])?;
    let mut check = 0u32;
    for i in 0..n {
        let mut seed = [1u8; 32];
        seed[..4].copy_from_slice(&i.to_le_bytes());
        let mine = KeyShare::from_seed(Group::X25519, &seed)?;
        let secret = mine.complete(peer.public_key())?;
        let s = secret.as_ref();
        check = check.rotate_left(3) ^ u32::from(s.first().copied().unwrap_or(0));
    }
    Ok(check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn health_reports_version() {
        let r = route("GET", "/health", "");
        assert_eq!(r.status(), 200);
        assert_eq!(
            r.body(),
            format!("{{\"ok\":true,\"version\":\"{VERSION}\"}}")
        );
    }

    #[test]
    fn selftest_runs_the_real_known_answer_tests() {
        let r = route("GET", "/selftest", "");
        let body = r.body();
        let checks = burrow_crypto::selftest::run();
        assert!(
            !checks.is_empty(),
            "burrow_crypto::selftest::run() returned no checks"
        );
        for c in &checks {
            assert!(
                body.contains(&format!("{{\"name\":\"{}\",\"ok\":{}}}", c.name, c.ok)),
                "{body}"
            );
        }
        let all = checks.iter().all(|c| c.ok);
        assert_eq!(r.status(), if all { 200 } else { 500 }, "{body}");
        assert!(
            body.starts_with(&format!("{{\"ok\":{all},\"checks\":[")),
            "{body}"
        );
        assert!(body.contains("],\"ms\":"), "{body}");
        assert!(all, "a crypto known-answer test failed: {body}");
    }

    #[test]
    fn unknown_route_and_method() {
        assert_eq!(route("GET", "/nope", "").status(), 404);
        assert_eq!(route("POST", "/health", "").status(), 405);
        assert!(route("GET", "/nope", "")
            .body()
            .contains("\"error\":\"NOT_FOUND\""));
    }

    #[test]
    fn query_parsing() {
        assert_eq!(query_param("?op=sha256&mb=2", "mb"), Some("2"));
        assert_eq!(query_param("op=sha256&mb=2", "op"), Some("sha256"));
        assert_eq!(query_param("?flag&x=1", "flag"), Some(""));
        assert_eq!(query_param("", "mb"), None);
    }

    #[test]
    fn bench_bounds_and_ops() {
        assert_eq!(route("GET", "/bench", "?op=sha256&mb=0").status(), 400);
        assert_eq!(route("GET", "/bench", "?op=sha256&mb=65").status(), 400);
        assert_eq!(route("GET", "/bench", "?op=sha256&mb=x").status(), 400);
        assert_eq!(route("GET", "/bench", "?op=md5").status(), 400);
        assert_eq!(route("GET", "/bench", "?op=x25519&n=2001").status(), 400);
        for q in [
            "?op=chacha20poly1305&mb=1",
            "?op=aes128gcm&mb=1",
            "?op=aes256gcm&mb=1",
            "?op=sha256&mb=1",
            "?op=x25519&n=3",
        ] {
            let r = route("GET", "/bench", q);
            assert_eq!(r.status(), 200, "{q}: {}", r.body());
            assert!(r.body().contains("\"check\":"), "{q}: {}", r.body());
        }
    }

    #[test]
    fn bench_is_deterministic_and_depends_on_the_data() {
        // Same input, same result; a different algorithm gives a different check value.
        let a = bench_seal(AeadAlgorithm::ChaCha20Poly1305, 1).unwrap();
        assert_eq!(a, bench_seal(AeadAlgorithm::ChaCha20Poly1305, 1).unwrap());
        assert_ne!(a, bench_seal(AeadAlgorithm::Aes128Gcm, 1).unwrap());
        assert_ne!(bench_sha256(1), bench_sha256(2));
    }
}
