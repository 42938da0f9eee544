//! `SSLKEYLOGFILE`: TLS secrets appended in the NSS key log format (one line per secret), so
//! Wireshark can decrypt a capture of this run.

use std::cell::RefCell;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::rc::Rc;

use burrow_client::KeyLogSink;

/// The sink for `$SSLKEYLOGFILE`, or `None` when it is unset or empty.
pub(crate) fn from_env() -> Result<Option<KeyLogSink>, String> {
    let Some(path) = std::env::var_os("SSLKEYLOGFILE").filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    // The file decrypts traffic: a new one is readable by its owner only.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options
        .open(&path)
        .map_err(|e| format!("SSLKEYLOGFILE {}: {e}", path.to_string_lossy()))?;
    Ok(Some(sink(file)))
}

fn sink(file: File) -> KeyLogSink {
    let file = RefCell::new(file);
    KeyLogSink(Rc::new(move |line: &str| {
        // One write per line, so runs sharing the file do not interleave within a line. A
        // failed write loses only debugging data: the transfer goes on.
        let _ = file.borrow_mut().write_all(format!("{line}\n").as_bytes());
    }))
}
