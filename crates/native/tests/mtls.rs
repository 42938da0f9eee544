//! Client certificates (mTLS) against `openssl s_server -Verify 1 -verify_return_error -www`,
//! started by the test on a free loopback port with the peers' `localhost` leaf and a client
//! CA made here with the openssl CLI (P-256, P-384, RSA-2048 and Ed25519 client keys). The
//! server's page prints the client certificate it saw, so each case checks its subject: TLS 1.3
//! and 1.2, directly and through squid+auth (CONNECT), microsocks+auth (SOCKS5) and the HTTPS
//! proxy. Without a certificate the server's refusal is `TLS_CLIENT_CERT_REQUIRED` (1.3 and 1.2); a key
//! that is not the leaf's is refused at configuration. Through `TlsSettings::offload` with an
//! `InlineOffload` the signatures go through the offload seam (imported once per client,
//! counted); a client with another certificate, or none, never resumes a session a
//! certificate authenticated.
//!
//! Needs `openssl` on PATH and the shared peers; only `BURROW_PEERS=none` skips, loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use std::rc::Rc;

use burrow_client::{
    Client, ClientCert, ClientConfig, InlineOffload, Offload, Proxy, Request, SessionCache, Trust,
};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl on PATH");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A client CA and one client certificate per key kind, in a fresh temporary folder.
fn client_pki(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("burrow-mtls-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    openssl(
        &dir,
        &[
            "ecparam",
            "-name",
            "prime256v1",
            "-genkey",
            "-noout",
            "-out",
            "ca.key",
        ],
    );
    openssl(
        &dir,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "ca.key",
            "-subj",
            "/CN=burrow test client CA",
            "-days",
            "2",
            "-out",
            "ca.pem",
        ],
    );
    std::fs::write(
        dir.join("ext.cnf"),
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n",
    )
    .unwrap();
    for (kind, genkey) in [
        (
            "p256",
            vec![
                "genpkey",
                "-algorithm",
                "EC",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
            ],
        ),
        (
            "p384",
            vec![
                "genpkey",
                "-algorithm",
                "EC",
                "-pkeyopt",
                "ec_paramgen_curve:P-384",
            ],
        ),
        (
            "rsa",
            vec![
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
            ],
        ),
        ("ed25519", vec!["genpkey", "-algorithm", "ED25519"]),
    ] {
        let key = format!("{kind}.key");
        let mut a = genkey.clone();
        a.extend(["-out", &key]);
        openssl(&dir, &a);
        let csr = format!("{kind}.csr");
        let subj = format!("/CN=burrow-client-{kind}");
        openssl(
            &dir,
            &["req", "-new", "-key", &key, "-subj", &subj, "-out", &csr],
        );
        let pem = format!("{kind}.pem");
        openssl(
            &dir,
            &[
                "x509",
                "-req",
                "-in",
                &csr,
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                "ext.cnf",
                "-out",
                &pem,
            ],
        );
    }
    dir
}

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `openssl s_server` requiring a client certificate from `ca.pem`, on a free port.
fn server(peers: &Peers, pki: &Path, version: &str) -> Server {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let p = PathBuf::from(peers.var("PEERS_PKI").unwrap());
    let child = Command::new("openssl")
        .args(["s_server", "-accept"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("-cert")
        .arg(p.join("leaf-p256.pem"))
        .arg("-key")
        .arg(p.join("leaf-p256.key"))
        .arg("-cert_chain")
        .arg(p.join("inter.pem"))
        .arg("-CAfile")
        .arg(pki.join("ca.pem"))
        .args(["-Verify", "1", "-verify_return_error", "-www", version])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start openssl s_server");
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Server { child, port }
}

#[derive(Clone, Copy, Debug)]
enum Via {
    Direct,
    SquidAuth,
    SocksAuth,
    HttpsProxyAuth,
}

fn config(p: &Peers, via: Via, cert: Option<ClientCert>) -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.proxy_tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.tls.client_cert = cert;
    // s_server -www answers HTTP/1.0 and may close without close_notify.
    cfg.allow_close_without_close_notify = true;
    cfg.max_idle_per_origin = 0;
    let proxy = p.proxy_url(match via {
        Via::Direct => "none",
        Via::SquidAuth => "SQUID_AUTH",
        Via::SocksAuth => "SOCKS_AUTH",
        Via::HttpsProxyAuth => "HTTPS_PROXY_AUTH",
    });
    cfg.proxy = proxy.map(|u| Proxy::parse(&u).unwrap());
    cfg
}

fn cert(pki: &Path, kind: &str) -> ClientCert {
    let chain = std::fs::read(pki.join(format!("{kind}.pem"))).unwrap();
    let key = std::fs::read(pki.join(format!("{kind}.key"))).unwrap();
    ClientCert::from_pem(&chain, &key).unwrap()
}

fn fetch(cfg: ClientConfig, port: u16) -> Result<String, burrow_client::Error> {
    fetch_n(cfg, port, 1, SessionCache::new()).map(|mut pages| pages.remove(0).0)
}

/// `n` fetches on one client sharing `sessions`: each page and whether its session was resumed.
fn fetch_n(
    cfg: ClientConfig,
    port: u16,
    n: usize,
    sessions: SessionCache,
) -> Result<Vec<(String, bool)>, burrow_client::Error> {
    burrow_native::block_on_local(async move {
        let c = Client::with_sessions(TokioNet, cfg, sessions);
        let mut pages = Vec::new();
        for _ in 0..n {
            let mut r = c
                .fetch(Request::get(&format!("https://localhost:{port}/")).unwrap())
                .await?;
            let resumed = r.meta.tls.as_ref().is_some_and(|t| t.resumed);
            let body = r.bytes().await?;
            pages.push((String::from_utf8_lossy(&body).into_owned(), resumed));
        }
        Ok(pages)
    })
    .unwrap()
}

/// The server saw the client certificate `kind` and accepted it.
fn assert_seen(body: &str, kind: &str, what: &str) {
    assert!(
        body.contains(&format!("burrow-client-{kind}")),
        "{what}: the server's page does not show the client certificate:\n{body}"
    );
}

fn each_way(version: &str, kinds: &[&str], tag: &str) {
    let Some(peers) = Peers::load("mTLS tests") else {
        return;
    };
    let pki = client_pki(tag);
    let s = server(&peers, &pki, version);
    for (i, via) in [
        Via::Direct,
        Via::SquidAuth,
        Via::SocksAuth,
        Via::HttpsProxyAuth,
    ]
    .into_iter()
    .enumerate()
    {
        // Every key kind directly; through each proxy, one kind in turn.
        let ks: Vec<&str> = if i == 0 {
            kinds.to_vec()
        } else {
            vec![kinds[i % kinds.len()]]
        };
        for kind in ks {
            let what = format!("{version} {kind} {via:?}");
            let body = fetch(config(&peers, via, Some(cert(&pki, kind))), s.port)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_seen(&body, kind, &what);
        }
    }
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn tls13_client_certificates_every_key_kind_and_every_way() {
    each_way("-tls1_3", &["p256", "p384", "rsa", "ed25519"], "13");
}

#[test]
fn tls12_client_certificates_every_way() {
    // Ed25519 in TLS 1.2 needs the server to offer it in signature_algorithms; OpenSSL
    // does, but the peers' P-256 ECDHE_ECDSA server side is what matters here.
    each_way("-tls1_2", &["p256", "rsa", "p384"], "12");
}

#[test]
fn tls13_without_a_certificate_the_refusal_is_named() {
    let Some(peers) = Peers::load("mTLS tests") else {
        return;
    };
    let pki = client_pki("none");
    let s = server(&peers, &pki, "-tls1_3");
    let e = fetch(config(&peers, Via::Direct, None), s.port).unwrap_err();
    assert_eq!(e.code(), "TLS_CLIENT_CERT_REQUIRED", "{e}");
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn tls12_without_a_certificate_the_refusal_is_named_too() {
    // TLS 1.2 has no certificate_required alert: OpenSSL answers our empty Certificate with
    // handshake_failure, which the handshake names as TLS 1.3's refusal is named.
    let Some(peers) = Peers::load("mTLS tests") else {
        return;
    };
    let pki = client_pki("none12");
    let s = server(&peers, &pki, "-tls1_2");
    let e = fetch(config(&peers, Via::Direct, None), s.port).unwrap_err();
    assert_eq!(e.code(), "TLS_CLIENT_CERT_REQUIRED", "{e}");
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn a_key_that_is_not_the_leafs_is_refused_at_configuration() {
    let pki = client_pki("mismatch");
    let chain = std::fs::read(pki.join("p256.pem")).unwrap();
    let other = std::fs::read(pki.join("ca.key")).unwrap();
    let e = ClientCert::from_pem(&chain, &other).unwrap_err();
    assert_eq!(e.code(), "CLIENT_CERT_KEY_MISMATCH");
    assert!(e.to_string().contains("client_cert.key"), "{e}");
    let rsa = std::fs::read(pki.join("rsa.key")).unwrap();
    assert_eq!(
        ClientCert::from_pem(&chain, &rsa).unwrap_err().code(),
        "CLIENT_CERT_KEY_MISMATCH"
    );
    let good = cert(&pki, "p256");
    let shown = format!("{good:?}");
    let key = String::from_utf8(std::fs::read(pki.join("p256.key")).unwrap()).unwrap();
    let b64 = key.lines().nth(1).unwrap();
    assert!(!shown.contains(&b64[..16]), "Debug shows no key: {shown}");
    // SEC1 "EC PRIVATE KEY" and PKCS#1 "RSA PRIVATE KEY" are read too.
    openssl(&pki, &["ec", "-in", "p256.key", "-out", "p256.sec1"]);
    let sec1 = std::fs::read(pki.join("p256.sec1")).unwrap();
    assert!(String::from_utf8_lossy(&sec1).contains("EC PRIVATE KEY"));
    ClientCert::from_pem(&chain, &sec1).unwrap();
    openssl(
        &pki,
        &["rsa", "-in", "rsa.key", "-traditional", "-out", "rsa.pkcs1"],
    );
    let pkcs1 = std::fs::read(pki.join("rsa.pkcs1")).unwrap();
    assert!(String::from_utf8_lossy(&pkcs1).contains("RSA PRIVATE KEY"));
    ClientCert::from_pem(&std::fs::read(pki.join("rsa.pem")).unwrap(), &pkcs1).unwrap();
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn through_the_offload_seam_the_key_is_imported_once_per_client() {
    let Some(peers) = Peers::load("mTLS tests") else {
        return;
    };
    let pki = client_pki("offload");
    // SEC1 and PKCS#1 keys reach the provider wrapped in PKCS#8, which it reads back.
    openssl(&pki, &["ec", "-in", "p256.key", "-out", "p256.sec1"]);
    openssl(
        &pki,
        &["rsa", "-in", "rsa.key", "-traditional", "-out", "rsa.pkcs1"],
    );
    for (version, kind, key) in [
        ("-tls1_3", "p256", "p256.sec1"),
        ("-tls1_3", "rsa", "rsa.pkcs1"),
        ("-tls1_3", "ed25519", "ed25519.key"),
        ("-tls1_2", "p384", "p384.key"),
    ] {
        let s = server(&peers, &pki, version);
        let chain = std::fs::read(pki.join(format!("{kind}.pem"))).unwrap();
        let cert = ClientCert::from_pem(&chain, &std::fs::read(pki.join(key)).unwrap()).unwrap();
        let provider = Rc::new(InlineOffload::new());
        let mut cfg = config(&peers, Via::Direct, Some(cert));
        cfg.tls.offload = Some(Offload(provider.clone()));
        // Two full handshakes (no session cache), so the second shows the import is kept.
        let what = format!("{version} {kind} ({key}) through InlineOffload");
        let pages = fetch_n(cfg, s.port, 2, SessionCache::disabled())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        for (page, resumed) in &pages {
            assert_seen(page, kind, &what);
            assert!(!resumed, "{what}");
        }
        let n = provider.counts();
        assert_eq!((n.signing_keys, n.signs), (1, 2), "{what}: {n:?}");
        assert!(n.verifies >= 2, "{what}: {n:?}");
    }
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn a_session_a_certificate_authenticated_is_resumed_only_with_that_certificate() {
    let Some(peers) = Peers::load("mTLS tests") else {
        return;
    };
    let pki = client_pki("resume");
    let s = server(&peers, &pki, "-tls1_3");
    let sessions = SessionCache::new();
    let with = |kind: Option<&str>| {
        let cfg = config(&peers, Via::Direct, kind.map(|k| cert(&pki, k)));
        fetch_n(cfg, s.port, 1, sessions.clone()).map(|mut p| p.remove(0))
    };
    let (page, resumed) = with(Some("p256")).unwrap();
    assert_seen(&page, "p256", "first");
    assert!(!resumed);
    // The same certificate resumes (a new client, the shared cache: as a Worker's isolate).
    let (page, resumed) = with(Some("p256")).unwrap();
    assert!(resumed, "the same certificate resumes");
    assert_seen(&page, "p256", "resumed");
    // No certificate: a full handshake the server refuses, not the p256 client's session.
    let e = with(None).unwrap_err();
    assert_eq!(e.code(), "TLS_CLIENT_CERT_REQUIRED", "{e}");
    // Another certificate: a full handshake showing its own subject.
    let (page, resumed) = with(Some("p384")).unwrap();
    assert!(!resumed, "another certificate does not resume");
    assert_seen(&page, "p384", "another certificate");
    let _ = std::fs::remove_dir_all(&pki);
}

#[test]
fn an_https_proxy_that_wants_a_certificate_fails_the_proxy_hop_not_the_origin() {
    let Some(peers) = Peers::load("mTLS tests") else {
        return;
    };
    let pki = client_pki("proxyhop");
    // s_server stands in for an HTTPS proxy that requires a client certificate: in TLS 1.3 its
    // refusal arrives with the first read after the handshake, the CONNECT answer's.
    let s = server(&peers, &pki, "-tls1_3");
    let mut cfg = config(&peers, Via::Direct, Some(cert(&pki, "p256")));
    cfg.proxy = Some(Proxy::parse(&format!("https://localhost:{}", s.port)).unwrap());
    let e = fetch(cfg, peers.port("DEF")).unwrap_err();
    assert_eq!(e.code(), "TLS_CLIENT_CERT_REQUIRED", "{e}");
    assert!(matches!(e, burrow_client::Error::ProxyTls(_)), "{e:?}");
    assert!(
        e.to_string()
            .ends_with("configure one its CA accepts with ClientConfig.proxy_tls.client_cert"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&pki);
}
