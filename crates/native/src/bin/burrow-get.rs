//! `burrow-get HOST PORT PATH [options]`: one HTTPS GET on one TLS connection
//! ([`burrow_native::fetch`]: burrow-client's `TlsStream`, the chain validated by
//! burrow-x509). Prints the body to stdout and what was negotiated and verified to stderr,
//! including what `burrow -v` cannot show: the HelloRetryRequest, the ticket, close_notify.

use burrow_client::{CipherSuite, NamedGroup};
use burrow_native::{fetch, FetchOptions, Revocation, Trust};
use std::io::Write;

const USAGE: &str = "usage: burrow-get HOST PORT PATH [--sni NAME] [--cacert FILE]... \
[--pin sha256/BASE64]... [--insecure] [--require-staple] [--no-staple] [--pin-leaf LEAF.der]
  default trust: the system (Mozilla) roots; --cacert: exactly these PEM anchors";

fn die(msg: &str) -> ! {
    eprintln!("burrow-get: {msg}");
    std::process::exit(2);
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| die(&format!("reading {path}: {e}")))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(host), Some(port), Some(path)) = (args.first(), args.get(1), args.get(2)) else {
        die(USAGE)
    };
    let port = port
        .parse()
        .unwrap_or_else(|_| die(&format!("bad port {port}")));
    let mut opts = FetchOptions::new(host, port, None, path);
    let mut anchors = Vec::new();
    let mut insecure = false;
    let mut rest = args.iter().skip(3);
    while let Some(flag) = rest.next() {
        let mut value = || {
            rest.next()
                .cloned()
                .unwrap_or_else(|| die(&format!("{flag} needs a value\n{USAGE}")))
        };
        match flag.as_str() {
            "--sni" => opts.server_name = Some(value()),
            "--cacert" => anchors.push(read(&value())),
            "--pin" => opts.tls.pins.push(value()),
            "--pin-leaf" => opts.tls.trust = Trust::PinnedLeaf(read(&value())),
            "--insecure" => insecure = true,
            "--require-staple" => opts.tls.revocation = Revocation::RequireStaple,
            "--no-staple" => opts.tls.request_staple = false,
            other => die(&format!("unknown option {other}\n{USAGE}")),
        }
    }
    if insecure {
        opts.tls.trust = Trust::InsecureAcceptAnyCertificate;
    } else if !anchors.is_empty() {
        opts.tls.trust = Trust::AnchorsPem(anchors);
    }
    match fetch(&opts) {
        Ok(r) => {
            let t = &r.tls;
            eprintln!(
                "status {} version {:#06x} suite {} group {} alpn {:?} resumed {} hrr {} ticket {} close_notify {}",
                r.response.status,
                t.version,
                CipherSuite(t.cipher_suite).name().unwrap_or("?"),
                NamedGroup(t.group).name().unwrap_or("?"),
                t.alpn,
                t.resumed,
                t.hello_retry,
                r.ticket.is_some(),
                r.close_notify
            );
            match &t.certificate {
                Some(c) => eprintln!(
                    "certificate: presented {} path {} insecure {} leaf {} staple {:?}",
                    c.presented, c.path_len, c.insecure, c.leaf_pin, c.staple
                ),
                None => eprintln!("certificate: none (resumed)"),
            }
            let _ = std::io::stdout().write_all(&r.response.body);
        }
        Err(e) => {
            eprintln!("burrow-get: {e}");
            std::process::exit(1);
        }
    }
}
