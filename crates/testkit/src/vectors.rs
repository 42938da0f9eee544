//! The public vector suites on disk.

use std::path::PathBuf;

/// The vectors folder, or `None` when `BURROW_VECTORS=none` (a loud skip is printed).
///
/// Panics with the path it looked at when the folder is missing: a missing suite is a failure.
pub fn dir(what: &str) -> Option<PathBuf> {
    let dir = match std::env::var("BURROW_VECTORS") {
        Ok(v) if v == "none" => {
            crate::skip_loudly(what, "BURROW_VECTORS=none");
            return None;
        }
        Ok(v) if !v.is_empty() => PathBuf::from(v),
        _ => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/vectors"
        )),
    };
    assert!(
        dir.is_dir(),
        "vectors folder {} not found: set BURROW_VECTORS to the folder with the public suites \
         (or BURROW_VECTORS=none to skip {what})",
        dir.display()
    );
    Some(dir)
}

/// Reads `rel` under the vectors folder; `None` only when skipping.
pub fn read(rel: &str) -> Option<Vec<u8>> {
    let path = dir(rel)?.join(rel);
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("reading vector {}: {e}", path.display())))
}

/// Reads `rel` under the vectors folder as UTF-8; `None` only when skipping.
pub fn read_string(rel: &str) -> Option<String> {
    read(rel).map(|b| String::from_utf8(b).expect("vector file is UTF-8"))
}
