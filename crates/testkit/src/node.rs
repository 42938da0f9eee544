//! A test server run by Node (the `node` on `PATH`; `script/test` puts `.tools/bin` first, where
//! `script/bootstrap` installs Node 22 with OpenSSL 3.5). The server prints `PORT <n>` when it
//! listens; the process is killed when the [`NodeServer`] is dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Lowest Node major version the servers need (OpenSSL 3.5: X25519MLKEM768).
pub const NODE_MIN_MAJOR: u32 = 22;

/// A running Node server script.
#[derive(Debug)]
pub struct NodeServer {
    child: Child,
    port: u16,
}

/// The `node` on `PATH`: its version and its OpenSSL version. Panics, naming
/// `script/bootstrap`, when there is none or it is older than [`NODE_MIN_MAJOR`]: a test that
/// needs it has failed, it is not skipped.
pub fn node_versions() -> (String, String) {
    let out = Command::new("node")
        .args([
            "-e",
            "console.log(process.versions.node, process.versions.openssl)",
        ])
        .output()
        .unwrap_or_else(|e| {
            panic!("no `node` on PATH ({e}): run script/bootstrap and put .tools/bin first on PATH")
        });
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut it = text.split_whitespace();
    let (node, openssl) = (
        it.next().unwrap_or("").to_string(),
        it.next().unwrap_or("").to_string(),
    );
    let major: u32 = node
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    assert!(
        major >= NODE_MIN_MAJOR,
        "node {node:?} (OpenSSL {openssl:?}) on PATH is older than {NODE_MIN_MAJOR}: run \
         script/bootstrap and put .tools/bin first on PATH (script/test does)"
    );
    (node, openssl)
}

impl NodeServer {
    /// Runs `node script args...` and waits for its `PORT <n>` line. Panics (the test fails)
    /// when Node is missing or too old, or the script dies before listening.
    pub fn start(script: &Path, args: &[&str]) -> NodeServer {
        node_versions();
        let mut child = Command::new("node")
            .arg(script)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("starting node {}: {e}", script.display()));
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok());
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "node {} {args:?} did not start (first line {line:?}; its stderr is above)",
                script.display()
            );
        };
        NodeServer { child, port }
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for NodeServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
