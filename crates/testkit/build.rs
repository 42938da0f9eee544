//! Resolves the vectors folder at build time so that tests compiled for wasm32 (which have no
//! file system) can embed the few small files they need with `include_str!`.
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=BURROW_VECTORS");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let dir = match std::env::var("BURROW_VECTORS") {
        Ok(v) if v == "none" => None,
        Ok(v) if !v.is_empty() => Some(PathBuf::from(v)),
        _ => Some(manifest.join("../../../shared/vectors")),
    };
    let embed = manifest.join("src/embedded_none");
    let chosen = match dir {
        Some(d) => match d.canonicalize() {
            Ok(abs) if abs.join("hkdf/rfc5869.json").is_file() => {
                println!("cargo:rustc-cfg=burrow_vectors");
                abs
            }
            _ => {
                println!(
                    "cargo:warning=burrow-testkit: the vectors folder {} is missing; vector tests \
                     will fail (set BURROW_VECTORS to its path, or BURROW_VECTORS=none to skip them)",
                    d.display()
                );
                embed
            }
        },
        None => embed,
    };
    println!("cargo:rustc-check-cfg=cfg(burrow_vectors)");
    println!(
        "cargo:rustc-env=BURROW_VECTORS_RESOLVED={}",
        chosen.display()
    );
    println!("cargo:rerun-if-changed={}", chosen.display());
}
