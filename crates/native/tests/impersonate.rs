//! `burrow --impersonate`: every built-in profile fetches from every TLS 1.3 and TLS 1.2
//! origin in the local peers, and a capture listener on loopback sees the ClientHello with
//! the JA4 of the client impersonated (the wire, not only the builder).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::io::Read;
use std::net::TcpListener;
use std::process::{Command, Output};

use burrow_testkit::fingerprint::{self as fp, ClientHello};
use burrow_testkit::peers::Peers;

const PROFILES: [&str; 3] = ["curl", "curl_7_88", "chrome"];

fn burrow(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_burrow"))
        .args(args)
        .env_remove("SSLKEYLOGFILE")
        .output()
        .unwrap()
}

#[test]
fn every_profile_fetches_from_every_tls_origin() {
    let Some(p) = Peers::load("impersonate matrix") else {
        return;
    };
    let ca = p.ca_pem_path().to_string_lossy().into_owned();
    let origins: Vec<String> = p
        .names()
        .into_iter()
        .filter(|n| {
            p.prop(n, "KIND") == Some("https")
                && p.prop(n, "EXPECT") == Some("ok")
                // Staple checks are their own tests (curl asks for no staple).
                && !n.starts_with("STAPLE_")
                // Refused by every profile for want of extended master secret
                // (TLS12_NO_EXTENDED_MASTER_SECRET, interop_tls12's own test).
                && n != "CADDY_TLS12"
        })
        .collect();
    assert!(origins.len() >= 15, "peers: {origins:?}");
    let mut failures = Vec::new();
    for name in &origins {
        let url = format!("https://localhost:{}/1k", p.port(name));
        for prof in PROFILES {
            let o = burrow(&["--impersonate", prof, "--cacert", &ca, &url]);
            if o.status.code() != Some(0) || o.stdout.is_empty() {
                failures.push(format!(
                    "{prof} -> {name}: exit {:?}: {}",
                    o.status.code(),
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs `burrow args… https://localhost:PORT/` against a listener that reads the
/// ClientHello records and hangs up; returns the parsed hello.
fn captured(args: &[&str]) -> ClientHello {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let t = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        // Records until the handshake message is complete.
        loop {
            let n = s.read(&mut chunk).unwrap();
            assert!(n > 0, "closed before the ClientHello was complete");
            buf.extend_from_slice(&chunk[..n]);
            let mut i = 0;
            let mut hs = 0usize;
            while i + 5 <= buf.len() {
                let len = usize::from(u16::from_be_bytes([buf[i + 3], buf[i + 4]]));
                if i + 5 + len > buf.len() {
                    break;
                }
                hs += len;
                i += 5 + len;
            }
            if hs >= 4 && buf.len() >= 9 {
                let want =
                    (usize::from(buf[6]) << 16) | usize::from(u16::from_be_bytes([buf[7], buf[8]]));
                if hs >= want + 4 && i == buf.len() {
                    return buf;
                }
            }
        }
    });
    let url = format!("https://localhost:{port}/");
    let mut all: Vec<&str> = args.to_vec();
    all.push(&url);
    let o = burrow(&all);
    assert_ne!(o.status.code(), Some(0), "the listener hung up");
    ClientHello::from_records(&t.join().unwrap())
}

#[test]
fn the_wire_carries_the_impersonated_ja4() {
    for (args, ja4) in [
        (
            &["--impersonate", "curl"][..],
            "t13d3012h2_1d37bd780c83_882d495ac381",
        ),
        (
            &["--impersonate", "curl_7_88"][..],
            "t13d3112h2_e8f1e7e78f70_b26ce05bbdd6",
        ),
        (
            &["--impersonate", "curl_7_88", "--http1.1"][..],
            "t13d3112h1_e8f1e7e78f70_b26ce05bbdd6",
        ),
        (
            &["--impersonate", "chrome"][..],
            "t13d1517h2_8daaf6152771_cb7bf5808d99",
        ),
    ] {
        let h = captured(args);
        assert_eq!(fp::ja4(&h), ja4, "{args:?}");
        assert_eq!(h.server_name().as_deref(), Some("localhost"));
    }
    // curl 7.88 pads its hello to 512 bytes, on the wire too.
    let h = captured(&["--impersonate", "curl_7_88"]);
    assert_eq!(h.ext(21).map(<[u8]>::len), Some(180));
    // The default is curl 8.21's hello plus the status_request that checks staples.
    let h = captured(&[]);
    assert!(
        fp::ja4(&h).starts_with("t13d3013h2_1d37bd780c83_"),
        "{}",
        fp::ja4(&h)
    );
    assert!(h.ext(5).is_some());
}

#[test]
fn unknown_impersonation_is_refused_naming_the_choices() {
    let o = burrow(&["--impersonate", "firefox", "https://localhost/"]);
    assert_ne!(o.status.code(), Some(0));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--impersonate") && e.contains("chrome"), "{e}");
}
