//! burrow against Node's TLS server (`tests/node/tls-server.mjs`, Node 22 with OpenSSL 3.5),
//! for what the other peers cannot show: a TCP close without close_notify after a
//! close-delimited body (RFC 9112 §9.8). The server uses the peers' test PKI
//! (`$PEERS_STATE/pki`), so the peers must be up (`BURROW_PEERS=none` skips loudly); a missing or
//! old Node fails the test, naming script/bootstrap.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::future::Future;
use std::path::PathBuf;

use burrow_client::{Client, ClientConfig, Request, Trust};
use burrow_native::TokioNet;
use burrow_testkit::node::NodeServer;
use burrow_testkit::peers::Peers;

fn run<F: Future>(f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    tokio::task::LocalSet::new().block_on(&rt, f)
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/node/tls-server.mjs")
}

fn pki(p: &Peers, file: &str) -> String {
    let dir = PathBuf::from(p.var("PEERS_PKI").expect("peers.env has PEERS_PKI"));
    dir.join(file).to_string_lossy().into_owned()
}

/// The Node server with the P-256 test leaf and `extra` options.
fn server(p: &Peers, extra: &[&str]) -> NodeServer {
    let (key, cert) = (pki(p, "leaf-p256.key"), pki(p, "leaf-p256.chain.pem"));
    let mut args = vec!["--key", key.as_str(), "--cert", cert.as_str()];
    args.extend_from_slice(extra);
    NodeServer::start(&script(), &args)
}

fn config(p: &Peers) -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg
}

/// GET over burrow-client: the status and body, or the error's code.
fn get(cfg: ClientConfig, port: u16) -> Result<(u16, Vec<u8>), burrow_client::Error> {
    let url = format!("https://localhost:{port}/");
    run(async {
        let c = Client::new(TokioNet, cfg);
        let mut r = c.fetch(Request::get(&url).unwrap()).await?;
        let status = r.status;
        Ok((status, r.bytes().await?))
    })
}

/// A close-delimited body whose TLS connection ends with a bare TCP close fails with
/// `BODY_TRUNCATED` (TLS 1.3 and 1.2); with close_notify it is complete; the explicit option
/// accepts the bare close.
#[test]
fn close_delimited_body_needs_close_notify() {
    let Some(p) = Peers::load("node close_notify") else {
        return;
    };
    for tls in ["1.3", "1.2"] {
        let cut = server(&p, &["--tls", tls, "--mode", "no-close-notify"]);
        let e = get(config(&p), cut.port()).unwrap_err();
        assert_eq!(e.code(), "BODY_TRUNCATED", "TLS {tls}: {e}");
        assert!(
            e.to_string().contains("allow_close_without_close_notify"),
            "{e}"
        );

        let mut relaxed = config(&p);
        relaxed.allow_close_without_close_notify = true;
        let (status, body) = get(relaxed, cut.port()).unwrap();
        assert_eq!(status, 200);
        let body = String::from_utf8(body).unwrap();
        assert!(body.starts_with(&format!("protocol=TLSv{tls} ")), "{body}");

        let clean = server(&p, &["--tls", tls, "--mode", "close-notify"]);
        let (status, body) = get(config(&p), clean.port()).unwrap();
        assert_eq!(status, 200);
        assert!(String::from_utf8(body).unwrap().ends_with('\n'));
    }
}

/// The CLI: exit 56 with the code by default, the body with `--allow-no-close-notify`.
#[test]
fn cli_close_delimited_body_without_close_notify() {
    let Some(p) = Peers::load("node close_notify (cli)") else {
        return;
    };
    let cut = server(&p, &["--mode", "no-close-notify"]);
    let url = format!("https://localhost:{}/", cut.port());
    let ca = p.ca_pem_path().to_string_lossy().into_owned();
    let burrow = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_burrow"))
            .args(extra)
            .args(["--cacert", &ca, &url])
            .output()
            .unwrap()
    };
    let o = burrow(&[]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(56), "{err}");
    assert!(err.contains("BODY_TRUNCATED"), "{err}");
    let o = burrow(&["--allow-no-close-notify"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.starts_with(b"protocol=TLSv1.3 "));
}
