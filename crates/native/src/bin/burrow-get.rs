//! `burrow-get HOST PORT PATH [--sni NAME] [--pin LEAF.der]`: one HTTPS GET over burrow's TLS 1.3.
//! Prints the body to stdout and what was negotiated to stderr.

use burrow_native::{fetch, FetchOptions, Trust};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: burrow-get HOST PORT PATH [--sni NAME] [--pin LEAF.der]");
        std::process::exit(2);
    }
    let port = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(443);
    let mut opts = FetchOptions::new(&args[0], port, None, &args[2]);
    let mut i = 3;
    while i + 1 < args.len() {
        match args[i].as_str() {
            "--sni" => opts.server_name = Some(args[i + 1].clone()),
            "--pin" => match std::fs::read(&args[i + 1]) {
                Ok(der) => opts.trust = Trust::PinnedLeaf(der),
                Err(e) => {
                    eprintln!("reading {}: {e}", args[i + 1]);
                    std::process::exit(2);
                }
            },
            other => {
                eprintln!("unknown option {other}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    match fetch(&opts) {
        Ok(r) => {
            eprintln!("status {} suite {:?} group {:?} alpn {:?} resumed {} hrr {} tickets {} close_notify {}",
                r.response.status, r.summary.cipher_suite, r.summary.group, r.summary.alpn, r.summary.resumed,
                r.summary.hello_retry, r.tickets.len(), r.close_notify);
            let _ = std::io::stdout().write_all(&r.response.body);
        }
        Err(e) => {
            eprintln!("burrow-get: {e}");
            std::process::exit(1);
        }
    }
}
