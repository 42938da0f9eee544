//! The `burrow` binary against the local peers (../shared/peers): bodies byte-exact, `-i`,
//! `-v`, proxies, certificate failures and their exit codes, POST, `SSLKEYLOGFILE` against
//! openssl s_server's own key log, ALPN per `--http1.1` / `--http2`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Output};

use burrow_client::Proxy;
use burrow_crypto::hash::{digest, HashAlgorithm};
use burrow_testkit::peers::Peers;

/// Runs `burrow args...` with `env` added.
fn burrow(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_burrow"));
    c.args(args).env_remove("SSLKEYLOGFILE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit code, showing stderr when it differs.
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "stderr:\n{}", stderr(o));
}

fn sha256_hex(b: &[u8]) -> String {
    digest(HashAlgorithm::Sha256, b)
        .as_ref()
        .iter()
        .map(|x| format!("{x:02x}"))
        .collect()
}

fn sums(p: &Peers) -> HashMap<String, String> {
    let text = std::fs::read_to_string(p.www().join("sha256sums")).unwrap();
    text.lines()
        .filter_map(|l| l.split_once("  "))
        .map(|(h, n)| (n.trim().to_string(), h.to_string()))
        .collect()
}

fn ca(p: &Peers) -> String {
    p.ca_pem_path().to_string_lossy().into_owned()
}

fn url(p: &Peers, peer: &str, path: &str) -> String {
    format!("https://localhost:{}{path}", p.port(peer))
}

/// A fresh scratch directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("burrow-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn load(what: &str) -> Option<Peers> {
    Peers::load(what)
}

#[test]
fn get_1k_byte_exact_to_stdout_and_to_a_file() {
    let Some(p) = load("cli GET /1k") else { return };
    let want = &sums(&p)["1k"];
    let u = url(&p, "DEF", "/1k");
    let o = burrow(&["--cacert", &ca(&p), &u], &[]);
    assert_exit(&o, 0);
    assert_eq!(o.stdout.len(), 1024);
    assert_eq!(&sha256_hex(&o.stdout), want);
    assert!(o.stderr.is_empty(), "quiet without -v: {}", stderr(&o));

    let dir = scratch("o");
    let file = dir.join("1k");
    let f = file.to_string_lossy();
    let o = burrow(&["--cacert", &ca(&p), "-o", &f, &u], &[]);
    assert_exit(&o, 0);
    assert!(o.stdout.is_empty());
    let got = std::fs::read(&file).unwrap();
    assert_eq!(&sha256_hex(&got), want);
}

#[test]
fn include_prints_the_head_then_the_exact_body() {
    let Some(p) = load("cli -i") else { return };
    for (flag, version) in [
        ("--http1.1", "HTTP/1.1 200\r\n"),
        ("--http2", "HTTP/2 200\r\n"),
    ] {
        let o = burrow(
            &[flag, "-i", "--cacert", &ca(&p), &url(&p, "DEF", "/1k")],
            &[],
        );
        assert_exit(&o, 0);
        let split = o
            .stdout
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a blank line after the head");
        let head = String::from_utf8(o.stdout[..split + 4].to_vec()).unwrap();
        assert!(head.starts_with(version), "{flag}: {head}");
        // nginx gzips text for us (Accept-Encoding is sent); the decoded body's head says
        // what it is, not how it travelled.
        assert!(
            head.to_ascii_lowercase()
                .contains("\r\ncontent-type: text/plain\r\n"),
            "{head}"
        );
        let body = &o.stdout[split + 4..];
        assert_eq!(&sha256_hex(body), &sums(&p)["1k"], "{flag}");
    }
}

#[test]
fn verbose_shows_session_chain_staple_and_heads() {
    let Some(p) = load("cli -v") else { return };
    let o = burrow(
        &["-v", "--cacert", &ca(&p), &url(&p, "STAPLE_GOOD", "/1k")],
        &[],
    );
    assert_exit(&o, 0);
    let e = stderr(&o);
    for want in [
        "* proxy: none\n",
        "* TLS: TLSv1.3 / TLS_",
        "* TLS ALPN: h2\n",
        "* TLS resumed: no\n",
        "* TLS certificate 0: subject O=Peers Test, CN=localhost\n",
        "* TLS certificate 0: issuer O=Peers Test, CN=Peers Test Intermediate CA; expires 2",
        "* TLS certificate 1: subject O=Peers Test, CN=Peers Test Intermediate CA\n",
        "* TLS OCSP staple: good (this update 2",
        "* timings: connect ",
        // The request head as sent: HTTP/2 fields, pseudo-headers first.
        "> :method: GET\n> :scheme: https\n",
        &format!(
            "> :authority: localhost:{}\n> :path: /1k\n",
            p.port("STAPLE_GOOD")
        ),
        "> accept-encoding: gzip, deflate, br, zstd\n",
        "< HTTP/2 200\n",
    ] {
        assert!(e.contains(want), "-v lacks {want:?}:\n{e}");
    }
    assert_eq!(o.stdout.len(), 1024);

    // HTTP/1.1: the request line and header lines as encoded, in order.
    let o = burrow(
        &[
            "-v",
            "--http1.1",
            "-H",
            "X-Test: 1",
            "--cacert",
            &ca(&p),
            &url(&p, "STAPLE_GOOD", "/1k"),
        ],
        &[],
    );
    assert_exit(&o, 0);
    let e = stderr(&o);
    let want = format!(
        "> GET /1k HTTP/1.1\n> Host: localhost:{}\n> User-Agent: burrow/",
        p.port("STAPLE_GOOD")
    );
    assert!(e.contains(&want), "-v lacks {want:?}:\n{e}");
    assert!(
        e.contains("> Accept-Encoding: gzip, deflate, br, zstd\n> X-Test: 1\n"),
        "{e}"
    );
    assert!(e.contains("< HTTP/1.1 200\n"), "{e}");

    // TLS 1.2 (server-only, or --tls-max), and a group chosen by HelloRetryRequest; the
    // default profile is curl's, which prefers AES-256.
    let tls12 = "* TLS: TLSv1.2 / TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 / x25519\n";
    for (peer, flag, line) in [
        ("TLS12", "--http2", tls12),
        ("DEF", "--tls-max=1.2", tls12),
        (
            "HRR",
            "--tlsv1.3",
            "* TLS: TLSv1.3 / TLS_AES_256_GCM_SHA384 / secp384r1\n",
        ),
    ] {
        let o = burrow(
            &["-v", flag, "--cacert", &ca(&p), &url(&p, peer, "/1k")],
            &[],
        );
        assert_exit(&o, 0);
        assert!(stderr(&o).contains(line), "{peer}: {}", stderr(&o));
    }
    // A server without a staple says so.
    let o = burrow(&["-v", "--cacert", &ca(&p), &url(&p, "DEF", "/1k")], &[]);
    assert_exit(&o, 0);
    assert!(stderr(&o).contains("* TLS OCSP staple: none sent\n"));
}

/// Caddy capped at TLS 1.2 (Go, no extended master secret): fetched by default, `-v` says the
/// session has no EMS and is not resumable; `--require-ems` refuses it with the code (exit 7).
#[test]
fn tls12_server_without_ems_fetched_by_default_refused_with_require_ems() {
    let Some(p) = load("cli caddy TLS 1.2 without EMS") else {
        return;
    };
    let want = &sums(&p)["1k"];
    let u = url(&p, "CADDY_TLS12", "/1k");
    let o = burrow(&["-v", "--cacert", &ca(&p), &u], &[]);
    assert_exit(&o, 0);
    assert_eq!(&sha256_hex(&o.stdout), want);
    let e = stderr(&o);
    assert!(e.contains("* TLS: TLSv1.2 / "), "{e}");
    assert!(
        e.contains("no extended master secret (RFC 7627): session not resumable"),
        "{e}"
    );
    let o = burrow(&["--require-ems", "--cacert", &ca(&p), &u], &[]);
    assert_exit(&o, 7);
    assert!(
        stderr(&o).contains("TLS12_NO_EXTENDED_MASTER_SECRET"),
        "{}",
        stderr(&o)
    );
    // A server with EMS says nothing about it.
    let o = burrow(&["-v", "--cacert", &ca(&p), &url(&p, "TLS12", "/1k")], &[]);
    assert_exit(&o, 0);
    assert!(
        !stderr(&o).contains("extended master secret"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn alpn_follows_http_version_flags() {
    let Some(p) = load("cli --http1.1/--http2") else {
        return;
    };
    for (flags, alpn) in [
        (&["--http1.1"][..], "http/1.1"),
        (&["--http2"][..], "h2"),
        (&[][..], "h2"),
    ] {
        let mut args = flags.to_vec();
        let c = ca(&p);
        let u = url(&p, "DEF", "/info");
        args.extend(["-v", "--cacert", &c, &u]);
        let o = burrow(&args, &[]);
        assert_exit(&o, 0);
        assert!(
            stderr(&o).contains(&format!("* TLS ALPN: {alpn}\n")),
            "{flags:?}: {}",
            stderr(&o)
        );
        // The server agrees: nginx's /info reports the negotiated protocol.
        let info = String::from_utf8_lossy(&o.stdout);
        assert!(info.contains(&format!("\"alpn\":\"{alpn}\"")), "{info}");
    }
    // An h1-only origin answers http/1.1 even to --http2.
    let o = burrow(
        &["--http2", "-v", "--cacert", &ca(&p), &url(&p, "H1", "/1k")],
        &[],
    );
    assert_exit(&o, 0);
    assert!(stderr(&o).contains("* TLS ALPN: http/1.1\n"));
}

#[test]
fn through_squid_with_auth_and_socks5() {
    let Some(p) = load("cli proxies") else { return };
    let want = &sums(&p)["1k"];
    let user = p.var("PEERS_PROXY_USER").unwrap();
    let pass = p.var("PEERS_PROXY_PASS").unwrap();
    let suser = p.var("PEERS_SOCKS_USER").unwrap();
    let spass = p.var("PEERS_SOCKS_PASS").unwrap();
    let squid = format!("127.0.0.1:{}", p.port("SQUID_AUTH"));
    let socks = format!("127.0.0.1:{}", p.port("SOCKS_AUTH"));
    for (proxy, shown) in [
        (
            format!("http://{user}:{pass}@{squid}"),
            format!("* proxy: http://{squid} (with credentials)\n"),
        ),
        (
            format!("socks5h://{suser}:{spass}@{socks}"),
            format!("* proxy: socks5h://{socks} (with credentials)\n"),
        ),
        (
            format!("socks5://{suser}:{spass}@{socks}"),
            format!("* proxy: socks5://{socks} (with credentials)\n"),
        ),
    ] {
        let o = burrow(
            &[
                "-v",
                "-x",
                &proxy,
                "--cacert",
                &ca(&p),
                &url(&p, "DEF", "/1k"),
            ],
            &[],
        );
        assert_exit(&o, 0);
        assert_eq!(&sha256_hex(&o.stdout), want, "{shown}");
        let e = stderr(&o);
        assert!(e.contains(&shown), "{e}");
        assert!(
            !e.contains(pass) && !e.contains(spass),
            "credentials leaked: {e}"
        );
    }
    // The HTTPS proxy: its own TLS session in -v, its own anchors via --proxy-cacert.
    let https_proxy = format!("https://localhost:{}", p.port("HTTPS_PROXY"));
    let o = burrow(
        &[
            "-v",
            "-x",
            &https_proxy,
            "--proxy-cacert",
            &ca(&p),
            "--cacert",
            &ca(&p),
            &url(&p, "DEF", "/1k"),
        ],
        &[],
    );
    assert_exit(&o, 0);
    assert_eq!(&sha256_hex(&o.stdout), want);
    let e = stderr(&o);
    for line in [
        format!("* proxy: {https_proxy}\n"),
        "* proxy TLS: TLSv1.3 / ".to_string(),
        "* proxy TLS ALPN: none\n".to_string(),
        "* proxy TLS certificate 0: subject O=Peers Test, CN=localhost\n".to_string(),
        "* TLS ALPN: h2\n".to_string(),
    ] {
        assert!(e.contains(&line), "lacks {line:?}: {e}");
    }
    // Without --proxy-cacert the proxy's certificate is untrusted; the hint names the option.
    let o = burrow(
        &[
            "-x",
            &https_proxy,
            "--cacert",
            &ca(&p),
            &url(&p, "DEF", "/1k"),
        ],
        &[],
    );
    assert_exit(&o, 8);
    assert!(stderr(&o).contains("--proxy-cacert"), "{}", stderr(&o));
    // --noproxy bypasses it.
    let o = burrow(
        &[
            "-v",
            "-x",
            &format!("http://{squid}"),
            "--noproxy",
            "localhost",
            "--cacert",
            &ca(&p),
            &url(&p, "DEF", "/1k"),
        ],
        &[],
    );
    assert_exit(&o, 0);
    assert!(stderr(&o).contains("* proxy: bypassed (--noproxy)\n"));
}

#[test]
fn proxy_failures_exit_5() {
    let Some(p) = load("cli proxy failures") else {
        return;
    };
    let user = p.var("PEERS_PROXY_USER").unwrap();
    let squid = p.port("SQUID_AUTH");
    let suser = p.var("PEERS_SOCKS_USER").unwrap();
    let socks = p.port("SOCKS_AUTH");
    for (proxy, code) in [
        (
            format!("http://{user}:wrong@127.0.0.1:{squid}"),
            "PROXY_AUTH_REQUIRED",
        ),
        (format!("http://127.0.0.1:{squid}"), "PROXY_AUTH_REQUIRED"),
        (
            format!("socks5://{suser}:wrong@127.0.0.1:{socks}"),
            "PROXY_AUTH_REQUIRED",
        ),
        // Nothing listens on port 1 of loopback: the proxy cannot be reached.
        ("http://127.0.0.1:1".to_string(), "CONNECT_FAILED"),
    ] {
        let o = burrow(
            &[
                "-v",
                "-x",
                &proxy,
                "--cacert",
                &ca(&p),
                &url(&p, "DEF", "/1k"),
            ],
            &[],
        );
        assert_exit(&o, 5);
        assert!(o.stdout.is_empty());
        let e = stderr(&o);
        assert!(e.contains(code), "{proxy}: {e}");
        // -v says which way a failed run went, without the credentials.
        let shown = Proxy::parse(&proxy).unwrap().to_string();
        assert!(e.starts_with(&format!("* proxy: {shown}")), "{e}");
        assert!(!e.contains("wrong"), "{e}");
    }
    // A refusal carries the proxy's own reason: squid's error name for the refused connect.
    let plain_squid = format!("http://127.0.0.1:{}", p.port("SQUID"));
    let o = burrow(&["-x", &plain_squid, "https://localhost:1/"], &[]);
    assert_exit(&o, 5);
    let e = stderr(&o);
    assert!(e.contains("PROXY_REFUSED"), "{e}");
    assert!(e.contains("X-Squid-Error: ERR_CONNECT_FAIL"), "{e}");
    assert!(e.contains("check -x, or list the host in --noproxy"), "{e}");
}

#[test]
fn certificates_need_cacert_and_fail_with_exit_8() {
    let Some(p) = load("cli certificates") else {
        return;
    };
    // The test CA is not a system root.
    let o = burrow(&[&url(&p, "DEF", "/1k")], &[]);
    assert_exit(&o, 8);
    assert!(o.stdout.is_empty());
    let e = stderr(&o);
    assert!(e.contains("CERT_UNTRUSTED"), "{e}");
    assert!(e.contains("--cacert"), "the message names --cacert: {e}");

    for (peer, code) in [
        ("EXPIRED", "CERT_EXPIRED"),
        ("WRONGHOST", "CERT_NAME_MISMATCH"),
        ("STAPLE_REVOKED", "OCSP_REVOKED"),
    ] {
        let o = burrow(&["--cacert", &ca(&p), &url(&p, peer, "/1k")], &[]);
        assert_exit(&o, 8);
        assert!(stderr(&o).contains(code), "{peer}: {}", stderr(&o));
    }
    // Revoked says revoked, and nothing about trusting it anyway.
    let o = burrow(
        &["--cacert", &ca(&p), &url(&p, "STAPLE_REVOKED", "/1k")],
        &[],
    );
    let e = stderr(&o);
    assert!(e.contains("certificate is revoked"), "{e}");
    assert!(!e.contains("--cacert") && !e.contains("--insecure"), "{e}");
    // --insecure accepts the expired one (and says nothing on stdout but the body).
    let o = burrow(&["--insecure", &url(&p, "EXPIRED", "/1k")], &[]);
    assert_exit(&o, 0);
    assert_eq!(o.stdout.len(), 1024);
    // A pin that is not in the chain.
    let pin = format!("sha256/{}", "A".repeat(43) + "=");
    let o = burrow(
        &["--cacert", &ca(&p), "--pin", &pin, &url(&p, "DEF", "/1k")],
        &[],
    );
    assert_exit(&o, 8);
    assert!(stderr(&o).contains("CERT_PIN_MISMATCH"), "{}", stderr(&o));
}

#[test]
fn post_1mb_echoed_byte_exact() {
    let Some(p) = load("cli POST") else { return };
    let dir = scratch("post");
    let file = dir.join("body.bin");
    // 1 MB of every byte value, CR and LF included (-d @FILE sends them untouched).
    let body: Vec<u8> = (0..1_000_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&file, &body).unwrap();
    let data = format!("@{}", file.to_string_lossy());
    for flag in ["--http1.1", "--http2"] {
        let o = burrow(
            &[
                flag,
                "-X",
                "POST",
                "-d",
                &data,
                "--cacert",
                &ca(&p),
                &url(&p, "DEF", "/echo"),
            ],
            &[],
        );
        assert_exit(&o, 0);
        assert_eq!(o.stdout.len(), body.len(), "{flag}");
        assert!(o.stdout == body, "{flag}: the echo differs");
    }
}

#[test]
fn sslkeylogfile_lines_match_openssl_s_server() {
    let Some(p) = load("cli SSLKEYLOGFILE") else {
        return;
    };
    let dir = scratch("keylog");
    let log = dir.join("keys.log");
    let log_s = log.to_string_lossy().into_owned();
    let u = format!("https://localhost:{}/", p.port("SSERVER_HRR"));
    let o = burrow(&["--cacert", &ca(&p), &u], &[("SSLKEYLOGFILE", &log_s)]);
    assert_exit(&o, 0);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&log).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the key log is private");
    }
    let ours = std::fs::read_to_string(&log).unwrap();
    let ours: Vec<&str> = ours.lines().collect();
    let labels: Vec<&str> = ours.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        labels,
        [
            "CLIENT_HANDSHAKE_TRAFFIC_SECRET",
            "SERVER_HANDSHAKE_TRAFFIC_SECRET",
            "CLIENT_TRAFFIC_SECRET_0",
            "SERVER_TRAFFIC_SECRET_0",
            "EXPORTER_SECRET",
        ]
    );
    let state = PathBuf::from(p.var("PEERS_STATE").unwrap());
    let theirs = std::fs::read_to_string(state.join("logs").join("sserver-keys.log")).unwrap();
    let theirs: Vec<&str> = theirs.lines().collect();
    for line in &ours {
        assert!(theirs.contains(line), "not in s_server's key log: {line}");
    }
    // Negative control: a line with one secret hex digit changed is not found.
    let mut wrong = ours[0].to_string();
    let last = wrong.pop().unwrap();
    wrong.push(if last == '0' { '1' } else { '0' });
    assert!(!theirs.contains(&wrong.as_str()));

    // TLS 1.2 (--tls-max 1.2): one CLIENT_RANDOM line, also in s_server's log.
    let log12 = dir.join("keys12.log");
    let log12_s = log12.to_string_lossy().into_owned();
    let o = burrow(
        &["--tls-max", "1.2", "--cacert", &ca(&p), &u],
        &[("SSLKEYLOGFILE", &log12_s)],
    );
    assert_exit(&o, 0);
    assert!(String::from_utf8_lossy(&o.stdout).contains("TLSv1.2"));
    let ours12 = std::fs::read_to_string(&log12).unwrap();
    let ours12: Vec<&str> = ours12.lines().collect();
    assert_eq!(ours12.len(), 1);
    assert!(ours12[0].starts_with("CLIENT_RANDOM "));
    let theirs = std::fs::read_to_string(state.join("logs").join("sserver-keys.log")).unwrap();
    assert!(theirs.lines().any(|l| l == ours12[0]), "{}", ours12[0]);

    // A second run appends; without the variable nothing more is written.
    let o = burrow(&["--cacert", &ca(&p), &u], &[("SSLKEYLOGFILE", &log_s)]);
    assert_exit(&o, 0);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 10);
    let o = burrow(&["--cacert", &ca(&p), &u], &[]);
    assert_exit(&o, 0);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 10);
}

#[test]
fn failure_classes_have_their_exit_codes() {
    let Some(p) = load("cli exit codes") else {
        return;
    };
    let c = ca(&p);
    // A file that is not PEM: no anchors in it.
    let dir = scratch("not-pem");
    let not_pem = dir.join("ca.pem");
    std::fs::write(&not_pem, "not a certificate\n").unwrap();
    let not_pem = not_pem.to_string_lossy().into_owned();
    let cases: [(&[&str], i32, &str); 10] = [
        (&["--frobnicate", "https://localhost/"], 2, "unknown option"),
        (&["ftp://localhost/"], 3, "BAD_URL"),
        (&["not a url"], 3, "BAD_URL"),
        (&["https://127.0.0.1:1/"], 6, "CONNECT_FAILED"),
        (
            &["--cacert", "/nonexistent/ca.pem", "https://localhost/"],
            2,
            "--cacert",
        ),
        (
            &["--cacert", &not_pem, &url(&p, "DEF", "/1k")],
            2,
            "CERT_BAD_TRUST_ANCHOR",
        ),
        (
            &[
                "--cacert",
                &c,
                "--pin",
                "sha256/short",
                &url(&p, "DEF", "/1k"),
            ],
            2,
            "sha256/BASE64 of 32 bytes); check --cacert FILE (or --insecure, for debugging only) and --pin",
        ),
        (
            &[
                "--cacert",
                &c,
                "--max-filesize",
                "100",
                &url(&p, "DEF", "/1k"),
            ],
            63,
            "BODY_TOO_LARGE",
        ),
        (
            &["--cacert", &c, "-L", &url(&p, "DEF", "/redirect-loop")],
            47,
            "REDIRECT_LOOP",
        ),
        (
            &[
                "--cacert",
                &c,
                "-L",
                "--max-redirs",
                "2",
                &url(&p, "DEF", "/r3"),
            ],
            47,
            "REDIRECT_LIMIT",
        ),
    ];
    for (args, code, text) in cases {
        let o = burrow(args, &[]);
        assert_exit(&o, code);
        assert!(stderr(&o).contains(text), "{args:?}: {}", stderr(&o));
    }
    // -L follows a chain to the body; without -L the 302 comes back as it is.
    let o = burrow(&["--cacert", &c, "-L", &url(&p, "DEF", "/r3")], &[]);
    assert_exit(&o, 0);
    assert_eq!(&sha256_hex(&o.stdout), &sums(&p)["1k"]);
    let o = burrow(&["--cacert", &c, "-i", &url(&p, "DEF", "/r3")], &[]);
    assert_exit(&o, 0);
    assert!(o.stdout.starts_with(b"HTTP/2 302\r\n"));
    // --fail turns >= 400 into exit 22 with no body; without it the body is printed.
    let missing = url(&p, "DEF", "/no-such-file");
    let o = burrow(&["--cacert", &c, "--fail", &missing], &[]);
    assert_exit(&o, 22);
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("404"));
    let o = burrow(&["--cacert", &c, &missing], &[]);
    assert_exit(&o, 0);
    assert!(!o.stdout.is_empty());
    // -m: /chunked-slow needs about 0.6 s; 0.2 s cannot be enough.
    let o = burrow(
        &[
            "--cacert",
            &c,
            "-m",
            "0.2",
            &url(&p, "DEF", "/chunked-slow"),
        ],
        &[],
    );
    assert_exit(&o, 28);
    assert!(stderr(&o).contains("TIMEOUT_TOTAL"), "{}", stderr(&o));
}

#[test]
fn help_and_readme_document_every_exit_code() {
    let o = burrow(&["--help"], &[]);
    assert_exit(&o, 0);
    let help = String::from_utf8(o.stdout).unwrap();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for code in [0, 1, 2, 3, 5, 6, 7, 8, 16, 22, 23, 28, 47, 56, 61, 63] {
        assert!(
            help.contains(&format!("\n  {code:>2}  ")),
            "--help: exit {code}"
        );
        assert!(
            readme.contains(&format!("| {code} |")),
            "README: exit {code}"
        );
    }
}

/// A plain-HTTP server on 127.0.0.1:0 for `requests` connections: `/set` answers 302 to
/// `/check` with a Set-Cookie (and one for a public suffix, which the jar must refuse);
/// `/check` answers with the Cookie header it got (empty when none).
fn cookie_server(requests: usize) -> u16 {
    use std::io::{BufRead, BufReader, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming().take(requests) {
            let mut s = s.unwrap();
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut head = Vec::new();
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                    break;
                }
                head.push(line.trim_end().to_string());
            }
            let cookie = head
                .iter()
                .find_map(|l| l.strip_prefix("Cookie: "))
                .unwrap_or("")
                .to_string();
            let reply = if head[0].starts_with("GET /set ") {
                "HTTP/1.1 302 Found\r\nLocation: /check\r\nSet-Cookie: sid=abc123; Path=/\r\n\
                 Set-Cookie: evil=1; Domain=co.uk\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_string()
            } else {
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{cookie}",
                    cookie.len()
                )
            };
            s.write_all(reply.as_bytes()).unwrap();
        }
    });
    port
}

#[test]
fn cookie_jar_sends_a_cookie_set_on_a_redirect() {
    let port = cookie_server(4);
    let u = format!("http://127.0.0.1:{port}/set");
    let o = burrow(&["-L", "--cookie-jar", &u], &[]);
    assert_exit(&o, 0);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "sid=abc123");
    // Without the jar nothing is kept.
    let o = burrow(&["-L", &u], &[]);
    assert_exit(&o, 0);
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// A TCP server on 127.0.0.1:0 that answers each of `n` connections with `reply` and closes
/// (an empty reply: read and never answer, until the client goes away). `reset`: read one
/// byte of the request only, so closing with the rest unread sends a TCP RST.
fn scripted_server(n: usize, reply: &'static [u8], reset: bool) -> u16 {
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming().take(n) {
            let mut s = s.unwrap();
            if reply.is_empty() {
                let mut sink = Vec::new();
                let _ = s.read_to_end(&mut sink);
                continue;
            }
            let mut buf = [0u8; 4096];
            let want = if reset { 1 } else { buf.len() };
            let _ = s.read(&mut buf[..want]);
            let _ = s.write_all(reply);
        }
    });
    port
}

#[test]
fn transport_failure_classes_have_their_exit_codes() {
    let Some(p) = load("cli transport exit codes") else {
        return;
    };
    let c = ca(&p);
    // TLS to a plain HTTP port: the reply is not TLS.
    let plain_as_tls = format!("https://localhost:{}/1k", p.port("PLAIN"));
    // HTTP/2 prior knowledge to an HTTP/1.1-only server.
    let h2c = format!("http://127.0.0.1:{}/1k", p.port("PLAIN"));
    // Nothing comes back after the ClientHello.
    let silent = format!("https://localhost:{}/", scripted_server(1, b"", false));
    // Not HTTP at all.
    let garbage = b"SSH-2.0-OpenSSH\r\n";
    let garbage = format!("http://127.0.0.1:{}/", scripted_server(1, garbage, false));
    // Content-Length 100, 10 bytes, then a clean close or a reset.
    let partial = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789";
    let short = format!("http://127.0.0.1:{}/", scripted_server(1, partial, false));
    let reset = format!("http://127.0.0.1:{}/", scripted_server(1, partial, true));
    let dir = scratch("bad-out");
    let bad_out = dir.join("missing-dir").join("x");
    let bad_out = bad_out.to_string_lossy();
    let cases: [(&[&str], i32, &str); 8] = [
        (&["--cacert", &c, &plain_as_tls], 7, "TLS"),
        (
            &["--tlsv1.3", "--cacert", &c, &url(&p, "TLS12", "/1k")],
            7,
            "TLS_ALERT",
        ),
        (&["--http2-prior-knowledge", &h2c], 16, "H2_"),
        (&["--connect-timeout", "0.3", &silent], 28, "TIMEOUT_TLS"),
        (&[&garbage], 16, "HTTP_PROTOCOL"),
        (&[&short], 16, "the body is incomplete"),
        (&[&reset], 56, "CONNECTION_LOST"),
        (
            &["--cacert", &c, "-o", &bad_out, &url(&p, "DEF", "/1k")],
            23,
            "-o",
        ),
    ];
    for (args, code, text) in cases {
        let o = burrow(args, &[]);
        assert_exit(&o, code);
        assert!(stderr(&o).contains(text), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn content_decoding_compressed_and_raw() {
    let Some(p) = load("cli content decoding") else {
        return;
    };
    let c = ca(&p);
    let u = url(&p, "DEF", "/1m");
    let want = &sums(&p)["1m"];
    // Decoded (the default and --compressed), byte-exact; -v says what was decoded.
    for flag in ["--compressed", "--http1.1"] {
        let o = burrow(&["-v", flag, "--cacert", &c, &u], &[]);
        assert_exit(&o, 0);
        assert_eq!(&sha256_hex(&o.stdout), want, "{flag}");
        let e = stderr(&o);
        assert!(e.contains("* content decoded: gzip"), "{e}");
        // -v shows the head as received: the coding and the wire length stay.
        let lower = e.to_ascii_lowercase();
        assert!(
            lower.contains("\n< content-encoding: gzip\n"),
            "{flag}: {e}"
        );
        if let Some(at) = lower.find("\n< content-length: ") {
            let n: usize = lower[at + 20..]
                .lines()
                .next()
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            assert!(
                n < 1024 * 1024,
                "{flag}: the wire (coded) length, not the decoded one"
            );
        }
    }
    // --raw: the gzip bytes as sent, Content-Encoding kept; they inflate to the file.
    let o = burrow(&["--raw", "-i", "--cacert", &c, &u], &[]);
    assert_exit(&o, 0);
    let split = o.stdout.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&o.stdout[..split]).to_ascii_lowercase();
    assert!(head.contains("\r\ncontent-encoding: gzip"), "{head}");
    let coded = &o.stdout[split + 4..];
    assert!(coded.starts_with(&[0x1f, 0x8b]) && coded.len() < 1024 * 1024);
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(coded), &mut plain).unwrap();
    assert_eq!(&sha256_hex(&plain), want);
    // The cap counts decoded bytes: 500 kB stops the 1 MiB decode, not the coded bytes.
    let o = burrow(&["--max-filesize", "500000", "--cacert", &c, &u], &[]);
    assert_exit(&o, 63);
    let o = burrow(
        &["--raw", "--max-filesize", "500000", "--cacert", &c, &u],
        &[],
    );
    assert_exit(&o, 0);
    assert_eq!(o.stdout.len(), coded.len());
}

#[test]
fn corrupt_content_coding_exits_61_and_raw_keeps_it() {
    let body: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 12\r\n\
        Connection: close\r\n\r\nnot gzip at all";
    let port = scripted_server(2, body, false);
    let u = format!("http://127.0.0.1:{port}/");
    let o = burrow(&[&u], &[]);
    assert_exit(&o, 61);
    assert!(stderr(&o).contains("DECODE_FAILED"), "{}", stderr(&o));
    assert!(stderr(&o).contains("--raw"), "{}", stderr(&o));
    let o = burrow(&["--raw", &u], &[]);
    assert_exit(&o, 0);
    assert_eq!(o.stdout, b"not gzip at ");
}
