//! The `burrow` command line against the local peers: output byte-exact, exit codes by class.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use burrow_testkit::peers::Peers;

fn burrow(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_burrow"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_fetches_byte_exact_and_reports_failures_by_exit_code() {
    let Some(p) = Peers::load("burrow CLI") else {
        return;
    };
    let ca = p.ca_pem_path();
    let ca = ca.to_str().unwrap();
    let want = std::fs::read(p.www().join("16k")).unwrap();
    let url = format!("https://localhost:{}/16k", p.port("DEF"));

    let (rc, body, err) = burrow(&["--cacert", ca, "-v", &url]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(body, want);
    assert!(
        err.contains("* TLS 1.3") && err.contains("< HTTP/2 200"),
        "{err}"
    );
    assert!(err.contains("subject O=Peers Test, CN=localhost"), "{err}");

    let socks = format!("socks5h://127.0.0.1:{}", p.port("SOCKS"));
    let (rc, body, err) = burrow(&["--cacert", ca, "--http1.1", "-x", &socks, "-i", &url]);
    assert_eq!(rc, 0, "{err}");
    assert!(body.starts_with(b"HTTP/1.1 200\r\n"));
    assert!(body.ends_with(&want));

    let bad = format!("http://proxyuser:wrong@127.0.0.1:{}", p.port("SQUID_AUTH"));
    let (rc, _, err) = burrow(&["--cacert", ca, "-x", &bad, &url]);
    assert_eq!(rc, 6, "{err}");
    assert!(err.contains("PROXY_AUTH_REQUIRED"));

    let expired = format!("https://localhost:{}/1k", p.port("EXPIRED"));
    let (rc, _, err) = burrow(&["--cacert", ca, &expired]);
    assert_eq!(rc, 8, "{err}");
    assert!(err.contains("CERT_EXPIRED"));

    let loop_url = format!("https://localhost:{}/redirect-loop", p.port("DEF"));
    assert_eq!(burrow(&["--cacert", ca, &loop_url]).0, 12);
    assert_eq!(burrow(&["--no-such-option"]).0, 2);
    assert_eq!(burrow(&["ftp://x/"]).0, 3);
}

#[test]
fn cli_writes_the_key_log_the_server_agrees_with() {
    let Some(p) = Peers::load("burrow CLI key log") else {
        return;
    };
    let ca = p.ca_pem_path();
    let log = std::env::temp_dir().join(format!("burrow-cli-keylog-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&log);
    // openssl s_server (SSERVER_HRR) writes its own key log (peers/up.sh): every line we write
    // must be in it.
    let url = format!("https://localhost:{}/", p.port("SSERVER_HRR"));
    let out = Command::new(env!("CARGO_BIN_EXE_burrow"))
        .args(["--cacert", ca.to_str().unwrap(), "-o", "/dev/null", &url])
        .env("SSLKEYLOGFILE", &log)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let lines: Vec<&str> = ours.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("CLIENT_TRAFFIC_SECRET_0 ")),
        "{ours}"
    );
    let state = p.var("PEERS_STATE").unwrap();
    let server = std::fs::read_to_string(
        std::path::Path::new(state)
            .join("logs")
            .join("sserver-keys.log"),
    )
    .unwrap();
    for l in lines {
        assert!(server.contains(l), "not in the server's key log: {l}");
    }
}
