//! burrow against Node's TLS server (`tests/node/tls-server.mjs`, Node 22 with OpenSSL 3.5),
//! for what the other peers cannot show: a TCP close without close_notify after a
//! close-delimited body (RFC 9112 §9.8). The server uses the peers' test PKI
//! (`$PEERS_STATE/pki`), so the peers must be up (`BURROW_PEERS=none` skips loudly); a missing or
//! old Node fails the test, naming script/bootstrap.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::future::Future;
use std::path::PathBuf;

use burrow_client::{Client, ClientConfig, Request, Trust};
use burrow_native::TokioNet;
use burrow_testkit::node::NodeServer;
use burrow_testkit::peers::Peers;

fn run<F: Future>(f: F) -> F::Output {
    burrow_native::block_on_local(f).unwrap()
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

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn openssl(args: &[&str]) {
    let o = std::process::Command::new("openssl")
        .args(args)
        .output()
        .expect("the openssl CLI (used by ../shared/peers too)");
    assert!(
        o.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A P-521 ECDSA leaf for `localhost`, issued by the peers' test intermediate at test time
/// (the PKI has none): (scratch dir, key path, chain path).
fn p521_leaf(p: &Peers, tag: &str) -> (Scratch, String, String) {
    let dir = std::env::temp_dir().join(format!("burrow-p521-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (key, csr, crt, ext, chain) = (
        path("leaf.key"),
        path("leaf.csr"),
        path("leaf.pem"),
        path("ext.cnf"),
        path("chain.pem"),
    );
    std::fs::write(
        &ext,
        "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n",
    )
    .unwrap();
    openssl(&[
        "ecparam",
        "-name",
        "secp521r1",
        "-genkey",
        "-noout",
        "-out",
        &key,
    ]);
    openssl(&[
        "req",
        "-new",
        "-key",
        &key,
        "-subj",
        "/O=Peers Test/CN=localhost",
        "-out",
        &csr,
    ]);
    openssl(&[
        "x509",
        "-req",
        "-in",
        &csr,
        "-CA",
        &pki(p, "inter.pem"),
        "-CAkey",
        &pki(p, "inter.key"),
        "-set_serial",
        "0x521521",
        "-days",
        "7",
        "-sha256",
        "-extfile",
        &ext,
        "-out",
        &crt,
    ]);
    let mut pem = std::fs::read(&crt).unwrap();
    pem.extend(std::fs::read(pki(p, "inter.pem")).unwrap());
    std::fs::write(&chain, pem).unwrap();
    (Scratch(dir), key, chain)
}

fn native_opts(p: &Peers, port: u16) -> burrow_native::FetchOptions {
    let mut o = burrow_native::FetchOptions::new("127.0.0.1", port, Some("localhost"), "/");
    o.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    o.tls.request_staple = false;
    o
}

/// A profile that also offers secp521r1 and ecdsa_secp521r1_sha512 (the default profile does
/// not, see the crate README).
fn with_p521(mut prof: burrow_handshake::Profile) -> burrow_handshake::Profile {
    prof.groups.push(NamedGroup::SECP521R1);
    prof.signature_schemes
        .push(burrow_handshake::SignatureScheme::ECDSA_SECP521R1_SHA512);
    prof
}

use burrow_handshake::NamedGroup;

/// Node (OpenSSL 3.5) offering only P-521 ECDHE with a P-521 ECDSA leaf: TLS 1.3 (reached
/// through a HelloRetryRequest from our X25519 share, CertificateVerify
/// ecdsa_secp521r1_sha512) and TLS 1.2 (ServerKeyExchange signed with the P-521 key).
#[test]
fn p521_ecdhe_and_ecdsa_against_node() {
    let Some(p) = Peers::load("node P-521") else {
        return;
    };
    let (_dir, key, chain) = p521_leaf(&p, "ecdsa");
    for tls in ["1.3", "1.2"] {
        let srv = NodeServer::start(
            &script(),
            &[
                "--key", &key, "--cert", &chain, "--curve", "P-521", "--tls", tls,
            ],
        );
        let mut o = native_opts(&p, srv.port());
        o.tls.profile = with_p521(burrow_handshake::Profile::default_web());
        let r = burrow_native::fetch(&o).unwrap_or_else(|e| panic!("TLS {tls}: {e}"));
        assert_eq!(NamedGroup(r.tls.group), NamedGroup::SECP521R1, "TLS {tls}");
        assert_eq!(r.response.status, 200);
        let body = String::from_utf8_lossy(&r.response.body).into_owned();
        assert!(body.starts_with(&format!("protocol=TLSv{tls} ")), "{body}");
        assert_eq!(r.tls.hello_retry, tls == "1.3", "TLS {tls}");
        let path_len = r.tls.certificate.as_ref().map(|c| c.path_len);
        assert_eq!(path_len, Some(3), "P-521 leaf, intermediate, root");
        // TLS 1.3 without ecdsa_secp521r1_sha512 offered: the server has nothing to sign with
        // (TLS 1.2 ECDSA schemes name only the hash, so there the P-521 key signs with
        // ecdsa_secp256r1_sha256's hash, which the fetch above may have used).
        if tls == "1.3" {
            let mut o = native_opts(&p, srv.port());
            let mut prof = burrow_handshake::Profile::default_web();
            prof.groups.push(NamedGroup::SECP521R1);
            o.tls.profile = prof;
            let e = burrow_native::fetch(&o).unwrap_err();
            assert_eq!(e.code(), "TLS_ALERT", "TLS {tls}: {e}");
        }
        // TLS 1.2 with the default signature_algorithms order: OpenSSL signs with SHA-256
        // under the P-521 key (left-padded prehash in burrow-crypto).
        if tls == "1.2" {
            let mut o = native_opts(&p, srv.port());
            let mut prof = burrow_handshake::Profile::default_web();
            prof.groups.push(NamedGroup::SECP521R1);
            o.tls.profile = prof;
            let r = burrow_native::fetch(&o).unwrap_or_else(|e| panic!("TLS 1.2: {e}"));
            assert_eq!(NamedGroup(r.tls.group), NamedGroup::SECP521R1);
        }
    }
}

/// Node's OpenSSL 3.5 with `ecdhCurve: 'X25519MLKEM768'` only: the hybrid group is
/// negotiated (the library with the share in the first ClientHello, the CLI with
/// `--curves`), and a client that does not offer it cannot connect.
#[test]
fn x25519mlkem768_against_node() {
    let Some(p) = Peers::load("node X25519MLKEM768") else {
        return;
    };
    let (_, openssl) = burrow_testkit::node::node_versions();
    assert!(
        openssl.starts_with("3.5") || openssl.starts_with("3.6") || openssl.starts_with('4'),
        "node's OpenSSL {openssl} has no X25519MLKEM768: run script/bootstrap (Node 22 with OpenSSL 3.5)"
    );
    let srv = server(&p, &["--curve", "X25519MLKEM768", "--tls", "1.3"]);
    let mut o = native_opts(&p, srv.port());
    let prof = &mut o.tls.profile;
    prof.groups.retain(|g| *g != NamedGroup::X25519MLKEM768);
    prof.groups.insert(0, NamedGroup::X25519MLKEM768);
    prof.key_shares = vec![NamedGroup::X25519MLKEM768];
    let r = burrow_native::fetch(&o).unwrap();
    assert_eq!(NamedGroup(r.tls.group), NamedGroup::X25519MLKEM768);
    assert!(!r.tls.hello_retry);
    assert!(String::from_utf8_lossy(&r.response.body).starts_with("protocol=TLSv1.3 "));

    // Offered in supported_groups only: reached by HelloRetryRequest.
    let mut o = native_opts(&p, srv.port());
    // (The default profile may list it already, with a share: keep it listed, without one.)
    let prof = &mut o.tls.profile;
    prof.groups.retain(|g| *g != NamedGroup::X25519MLKEM768);
    prof.groups.push(NamedGroup::X25519MLKEM768);
    prof.key_shares.retain(|g| *g != NamedGroup::X25519MLKEM768);
    let r = burrow_native::fetch(&o).unwrap();
    assert_eq!(NamedGroup(r.tls.group), NamedGroup::X25519MLKEM768);
    assert!(r.tls.hello_retry);

    // Not offered: the server refuses the handshake.
    let mut o = native_opts(&p, srv.port());
    let prof = &mut o.tls.profile;
    prof.groups.retain(|g| *g != NamedGroup::X25519MLKEM768);
    prof.key_shares.retain(|g| *g != NamedGroup::X25519MLKEM768);
    let e = burrow_native::fetch(&o).unwrap_err();
    assert_eq!(e.code(), "TLS_ALERT", "{e}");

    // The CLI: --curves picks the groups (curl's spelling), -v names the one negotiated.
    let ca = p.ca_pem_path().to_string_lossy().into_owned();
    let url = format!("https://localhost:{}/", srv.port());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_burrow"))
        .args([
            "-v",
            "--curves",
            "X25519MLKEM768:X25519",
            "--cacert",
            &ca,
            &url,
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("* TLS: TLSv1.3 / TLS_AES_") && err.contains(" / X25519MLKEM768\n"),
        "{err}"
    );
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_burrow"))
        .args(["--curves", "X25519:P-256", "--cacert", &ca, &url])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
