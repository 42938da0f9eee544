//! The TypeScript unions `ErrorCode` and `ErrorPhase` in `worker/js/burrow.d.mts` list exactly
//! the codes and phases a `BurrowError` can carry, read from the Rust sources that make them:
//! the string literals inside each `fn code(...)` of the client's error and of the crates' errors
//! it passes through, the `code: "..."` of `Error::Platform`/`ConnectionFailed` values, the
//! phases of `phase_of` in `worker/src/api.rs`, and what `burrow.mjs` makes itself. A code added
//! on either side without the other fails here, with the difference.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the worker crate sits in the workspace")
        .to_path_buf()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The bodies of every `fn NAME(` in `src` (brace-matched; the functions read here have no
/// braces inside string literals).
fn fn_bodies<'a>(src: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!("fn {name}(");
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at..];
        let open = after.find('{').expect("a function body");
        let mut depth = 0usize;
        let mut end = open;
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(&after[open..=end]);
        rest = &after[end..];
    }
    out
}

/// String literals in `text` for which `keep` holds.
fn literals(text: &str, keep: impl Fn(&str) -> bool) -> BTreeSet<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| keep(s))
        .map(str::to_owned)
        .collect()
}

fn is_code(s: &str) -> bool {
    s.len() > 2
        && s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn is_phase(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase())
}

/// The members of `export type NAME = "a" | "b" | ...;` in the declarations.
fn union(decl: &str, name: &str) -> BTreeSet<String> {
    let head = format!("export type {name} =");
    let at = decl
        .find(&head)
        .unwrap_or_else(|| panic!("burrow.d.mts has no {head}"));
    let body = &decl[at + head.len()..];
    let body = &body[..body.find(';').expect("the union ends with ;")];
    literals(body, |_| true)
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source folder") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Codes given as `code: "X"` (Platform and ConnectionFailed values) in these source trees.
fn field_codes(dirs: &[&str]) -> BTreeSet<String> {
    let mut files = Vec::new();
    for d in dirs {
        rs_files(&root().join(d), &mut files);
    }
    let mut out = BTreeSet::new();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("a source file");
        for piece in src.split("code: \"").skip(1) {
            let code = &piece[..piece.find('"').expect("a closing quote")];
            if is_code(code) {
                out.insert(code.to_owned());
            }
        }
    }
    out
}

fn compare(what: &str, declared: &BTreeSet<String>, made: &BTreeSet<String>) {
    let missing: Vec<_> = made.difference(declared).collect();
    let extra: Vec<_> = declared.difference(made).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what} in worker/js/burrow.d.mts and the sources disagree:\n  made but not declared: {missing:?}\n  declared but never made: {extra:?}"
    );
}

/// Codes `burrow.mjs` turns into something other than a `BurrowError` (a `TypeError`).
const NOT_BURROW_ERRORS: &[&str] = &["BAD_URL", "REDIRECT_FORBIDDEN"];

#[test]
fn error_codes_match_the_rust_sources() {
    // The client's error and the errors whose codes it passes on unchanged, with the
    // functions that spell them (proxy's `code` hands SOCKS5 replies to `error_code`).
    // client_cert.rs: refused client certificates, thrown by `new Client` as BurrowErrors.
    let sources: [(&str, &[&str]); 11] = [
        ("crates/client/src/error.rs", &["code"]),
        ("crates/client/src/client_cert.rs", &["code"]),
        ("crates/client/src/deadline.rs", &["code"]),
        ("crates/handshake/src/error.rs", &["code"]),
        ("crates/record/src/error.rs", &["code"]),
        ("crates/x509/src/error.rs", &["code"]),
        ("crates/h2/src/error.rs", &["code"]),
        ("crates/proxy/src/error.rs", &["code", "error_code"]),
        ("crates/decode/src/error.rs", &["code"]),
        ("crates/cookies/src/redirect.rs", &["code"]),
        ("crates/ws/src/error.rs", &["code"]),
    ];
    let mut made = BTreeSet::new();
    for (file, fns) in sources {
        let src = read(file);
        for f in fns {
            let bodies = fn_bodies(&src, f);
            assert!(!bodies.is_empty(), "{file} has no fn {f}(");
            for b in bodies {
                made.extend(literals(b, is_code));
            }
        }
    }
    made.extend(field_codes(&["crates/client/src", "worker/src"]));
    let js = read("worker/js/burrow.mjs");
    for piece in js.split("new BurrowError(\"").skip(1) {
        made.insert(piece[..piece.find('"').expect("a closing quote")].to_owned());
    }
    for code in NOT_BURROW_ERRORS {
        assert!(
            js.contains(&format!("v.code === \"{code}\"")),
            "burrow.mjs no longer turns {code} into a TypeError: declare it as a BurrowError code"
        );
        made.remove(*code);
    }
    compare(
        "ErrorCode",
        &union(&read("worker/js/burrow.d.mts"), "ErrorCode"),
        &made,
    );
}

#[test]
fn error_phases_match_the_rust_sources() {
    // The client names each phase in `Phase::name`; the Worker passes it on (`error_value`).
    let client = read("crates/client/src/error.rs");
    let at = client
        .find("impl Phase {")
        .expect("crates/client/src/error.rs has no impl Phase: point this test at where phases are named now");
    let bodies = fn_bodies(&client[at..], "name");
    let body = bodies.first().expect("impl Phase has a fn name(");
    let mut made = literals(body, is_phase);
    let js = read("worker/js/burrow.mjs");
    for piece in js.split("new BurrowError(\"").skip(1) {
        // new BurrowError("CODE", "phase", ...)
        let phase = piece.split('"').nth(2).expect("a phase argument");
        if is_phase(phase) {
            made.insert(phase.to_owned());
        }
    }
    compare(
        "ErrorPhase",
        &union(&read("worker/js/burrow.d.mts"), "ErrorPhase"),
        &made,
    );
}
