//! `handshake_timing PORT [N] [CA.pem]`: N sequential fetches of `/1k` from 127.0.0.1:PORT
//! (SNI localhost; with CA.pem the chain is fully validated against it, as the peers' root
//! allows, otherwise any chain is accepted), full handshakes then ticket resumptions; prints
//! the median wall time of connect + handshake + GET + close for each. A rough local figure,
//! not a benchmark.

use burrow_native::{fetch, FetchOptions, Trust};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let port: u16 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(8444);
    let n: usize = args.get(2).and_then(|p| p.parse().ok()).unwrap_or(50);
    let mut opts = FetchOptions::new("127.0.0.1", port, Some("localhost"), "/1k");
    opts.tls.trust = match args.get(3).map(std::fs::read) {
        Some(Ok(pem)) => Trust::AnchorsPem(vec![pem]),
        Some(Err(e)) => {
            eprintln!("reading the CA file: {e}");
            std::process::exit(2);
        }
        None => Trust::InsecureAcceptAnyCertificate,
    };
    let (mut full, mut resumed) = (Vec::new(), Vec::new());
    for _ in 0..n {
        #[allow(clippy::disallowed_methods)]
        let t = Instant::now();
        let r = match fetch(&opts) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("fetch failed: {e}");
                std::process::exit(1);
            }
        };
        full.push(t.elapsed().as_secs_f64() * 1e3);
        let mut o = opts.clone();
        o.ticket = r.ticket;
        #[allow(clippy::disallowed_methods)]
        let t = Instant::now();
        match fetch(&o) {
            Ok(r) if r.tls.resumed => resumed.push(t.elapsed().as_secs_f64() * 1e3),
            Ok(_) => eprintln!("ticket not accepted"),
            Err(e) => eprintln!("resumed fetch failed: {e}"),
        }
    }
    println!(
        "full handshake + GET /1k: median {:.3} ms over {n}",
        median(full)
    );
    println!(
        "resumed (psk_dhe_ke) + GET /1k: median {:.3} ms over {}",
        median(resumed.clone()),
        resumed.len()
    );
}
