//! burrow-client through TokioNet against the local peers (../shared/peers): every proxy ×
//! origin × body cell byte-exact (size and SHA-256 against `$PEERS_WWW/sha256sums`), plus the
//! behaviours the issue lists (redirects, 500, incremental chunks, POST echo, proxy auth errors,
//! idle timeout).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    clippy::field_reassign_with_default
)]

use std::collections::HashMap;
use std::future::Future;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

use burrow_client::{Client, ClientConfig, Error, Proxy, Request, Response, Trust};
use burrow_crypto::hash::{digest, HashAlgorithm};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

fn run<F: Future>(f: F) -> F::Output {
    burrow_native::block_on_local(f).unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn sums(p: &Peers) -> HashMap<String, String> {
    let text = std::fs::read_to_string(p.www().join("sha256sums")).unwrap();
    text.lines()
        .filter_map(|l| l.split_once("  "))
        .map(|(h, n)| (n.trim().to_string(), h.to_string()))
        .collect()
}

fn config(p: &Peers, proxy: Option<&str>) -> ClientConfig {
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.proxy_tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.proxy = proxy.map(|u| Proxy::parse(u).unwrap());
    cfg
}

fn client(p: &Peers, proxy: Option<&str>) -> Client<TokioNet> {
    Client::new(TokioNet, config(p, proxy))
}

async fn get(c: &Client<TokioNet>, url: &str) -> Result<(Response<TokioNet>, Vec<u8>), Error> {
    let mut r = c.fetch(Request::get(url)?).await?;
    let body = r.bytes().await?;
    Ok((r, body))
}

/// The proxy URL for a peer row of the matrix (`None` = direct).
fn proxy_url(p: &Peers, name: &str) -> Option<String> {
    p.proxy_url(name)
}

/// One matrix row: every origin × body through `proxy`.
fn row(proxy: &str) {
    let Some(p) = Peers::load("client matrix") else {
        return;
    };
    let sums = sums(&p);
    let url = proxy_url(&p, proxy);
    let c = client(&p, url.as_deref());
    let mut failures = Vec::new();
    let mut cells = 0;
    run(async {
        for origin in ["DEF", "H1", "CADDY", "GNUTLS_1K"] {
            for body in ["1k", "1m", "4m.bin"] {
                // gnutls-serv --httpdata answers every path with the 1k file.
                let expect = if origin == "GNUTLS_1K" { "1k" } else { body };
                let u = format!("https://localhost:{}/{body}", p.port(origin));
                cells += 1;
                match get(&c, &u).await {
                    Ok((r, b)) => {
                        let want = &sums[expect];
                        let got = hex(digest(HashAlgorithm::Sha256, &b).as_ref());
                        let size = std::fs::metadata(p.www().join(expect)).unwrap().len();
                        if r.status != 200 || &got != want || b.len() as u64 != size {
                            failures.push(format!(
                                "{proxy} × {origin} × /{body}: status {} len {} sha {got}",
                                r.status,
                                b.len()
                            ));
                        }
                        assert_eq!(r.meta.proxied.is_some(), url.is_some());
                        // nginx and Caddy gzip text (/1k, /1m), not application/octet-stream
                        // (/4m.bin); gnutls-serv never. The body above was checked decoded.
                        let gzip = origin != "GNUTLS_1K" && body != "4m.bin";
                        if gzip != (r.meta.content_encoding.as_deref() == Some("gzip")) {
                            failures.push(format!(
                                "{proxy} × {origin} × /{body}: content_encoding {:?}",
                                r.meta.content_encoding
                            ));
                        }
                        // ALPN picks: nginx DEF and Caddy select h2, H1 http/1.1; gnutls-serv
                        // sends no ALPN and answers HTTP/1.0.
                        let want = match origin {
                            "DEF" | "CADDY" => "HTTP/2",
                            "H1" => "HTTP/1.1",
                            _ => "HTTP/1.0",
                        };
                        if r.meta.http_version != want {
                            failures.push(format!(
                                "{proxy} × {origin} × /{body}: {} (want {want})",
                                r.meta.http_version
                            ));
                        }
                        let tls = r.meta.tls.as_ref().unwrap();
                        assert!(tls.version == 0x0304 || tls.version == 0x0303);
                        assert!(tls.resumed || !tls.peer_chain.is_empty());
                    }
                    Err(e) => failures.push(format!("{proxy} × {origin} × /{body}: {e}")),
                }
            }
        }
    });
    assert_eq!(cells, 12);
    assert!(
        failures.is_empty(),
        "failed cells:\n{}",
        failures.join("\n")
    );
}

#[test]
fn matrix_direct() {
    row("none");
}

#[test]
fn matrix_tinyproxy() {
    row("HTTP_PROXY");
}

#[test]
fn matrix_squid() {
    row("SQUID");
}

#[test]
fn matrix_squid_auth() {
    row("SQUID_AUTH");
}

#[test]
fn matrix_microsocks() {
    row("SOCKS");
}

#[test]
fn matrix_microsocks_auth() {
    row("SOCKS_AUTH");
}

#[test]
fn matrix_https_proxy() {
    row("HTTPS_PROXY");
}

#[test]
fn plain_http_through_proxies_uses_absolute_form() {
    let Some(p) = Peers::load("absolute-form") else {
        return;
    };
    let sums = sums(&p);
    run(async {
        for proxy in ["HTTP_PROXY", "SQUID_AUTH", "HTTPS_PROXY", "SOCKS"] {
            let c = client(&p, proxy_url(&p, proxy).as_deref());
            let u = format!("http://localhost:{}/16k", p.port("PLAIN"));
            let (r, b) = get(&c, &u).await.unwrap_or_else(|e| panic!("{proxy}: {e}"));
            assert_eq!(r.status, 200, "{proxy}");
            assert_eq!(hex(digest(HashAlgorithm::Sha256, &b).as_ref()), sums["16k"]);
            assert!(r.meta.tls.is_none());
        }
    });
}

#[test]
fn redirect_chain_loop_and_500() {
    let Some(p) = Peers::load("redirects") else {
        return;
    };
    let sums = sums(&p);
    let c = client(&p, None);
    let base = format!("https://localhost:{}", p.port("DEF"));
    run(async {
        let (r, b) = get(&c, &format!("{base}/r3")).await.unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.meta.redirects, 3);
        assert_eq!(r.url.path(), "/1k");
        assert_eq!(hex(digest(HashAlgorithm::Sha256, &b).as_ref()), sums["1k"]);

        let e = get(&c, &format!("{base}/redirect-loop")).await.unwrap_err();
        assert_eq!(e.code(), "REDIRECT_LOOP");

        let (r, _) = get(&c, &format!("{base}/status/500")).await.unwrap();
        assert_eq!(r.status, 500);

        let mut cfg = config(&p, None);
        cfg.redirect.max_redirects = 2;
        let limited = Client::new(TokioNet, cfg);
        let e = get(&limited, &format!("{base}/r3")).await.unwrap_err();
        assert_eq!(e.code(), "REDIRECT_LIMIT");
    });
}

#[test]
fn chunked_slow_arrives_incrementally() {
    let Some(p) = Peers::load("chunked-slow") else {
        return;
    };
    let c = client(&p, None);
    run(async {
        let u = format!("https://localhost:{}/chunked-slow", p.port("H1"));
        let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
        let mut pieces = Vec::new();
        while let Some(chunk) = r.chunk().await.unwrap() {
            pieces.push(chunk);
        }
        // echo_sleep 0.3 between "a", "b" and "c": three separate reads, not one.
        assert!(pieces.len() >= 3, "{pieces:?}");
        assert_eq!(pieces.concat(), b"a\nb\nc\n");
    });
}

#[test]
fn post_1m_echoed_byte_exact_and_connection_reused() {
    let Some(p) = Peers::load("echo") else {
        return;
    };
    let c = client(&p, None);
    let body: Vec<u8> = (0..1_048_576u32).map(|i| (i * 7 + i / 251) as u8).collect();
    run(async {
        let u = format!("https://localhost:{}/echo", p.port("H1"));
        let req = Request::new("POST", &u).unwrap().body(body.clone());
        let mut r = c.fetch(req).await.unwrap();
        assert_eq!(r.status, 200);
        assert!(!r.meta.reused);
        assert_eq!(r.bytes().await.unwrap(), body);
        // The same origin again: the keep-alive connection comes from the pool.
        let (r, _) = get(&c, &format!("https://localhost:{}/1k", p.port("H1")))
            .await
            .unwrap();
        assert!(r.meta.reused);
        assert_eq!(r.meta.timings.tls, 0);
        // The same POST over HTTP/2 (DATA frames paced by the server's windows).
        let u = format!("https://localhost:{}/echo", p.port("DEF"));
        let req = Request::new("POST", &u).unwrap().body(body.clone());
        let mut r = c.fetch(req).await.unwrap();
        assert_eq!((r.status, r.meta.http_version), (200, "HTTP/2"));
        assert_eq!(r.bytes().await.unwrap(), body);
    });
}

#[test]
fn wrong_proxy_password_is_proxy_auth_required() {
    let Some(p) = Peers::load("proxy auth") else {
        return;
    };
    let u = format!("https://localhost:{}/1k", p.port("DEF"));
    run(async {
        for proxy in [
            format!("http://proxyuser:wrong@127.0.0.1:{}", p.port("SQUID_AUTH")),
            format!("http://127.0.0.1:{}", p.port("SQUID_AUTH")),
            format!(
                "http://proxyuser:wrong@127.0.0.1:{}",
                p.port("HTTP_PROXY_AUTH")
            ),
            format!(
                "socks5://socksuser:wrong@127.0.0.1:{}",
                p.port("SOCKS_AUTH")
            ),
            format!(
                "https://proxyuser:wrong@localhost:{}",
                p.port("HTTPS_PROXY_AUTH")
            ),
        ] {
            let c = client(&p, Some(&proxy));
            let e = get(&c, &u).await.unwrap_err();
            assert_eq!(e.code(), "PROXY_AUTH_REQUIRED", "{proxy}: {e}");
        }
        // No credentials at all for a SOCKS proxy that needs them: no method in common.
        let proxy = format!("socks5h://127.0.0.1:{}", p.port("SOCKS_AUTH"));
        let e = get(&client(&p, Some(&proxy)), &u).await.unwrap_err();
        assert_eq!(e.code(), "SOCKS5_NO_ACCEPTABLE_METHOD", "{e}");
    });
}

#[test]
fn certificate_errors_are_typed() {
    let Some(p) = Peers::load("cert errors") else {
        return;
    };
    let c = client(&p, None);
    run(async {
        for (peer, code) in [
            ("EXPIRED", "CERT_EXPIRED"),
            ("SELFSIGNED", "CERT_UNTRUSTED"),
            ("WRONGHOST", "CERT_NAME_MISMATCH"),
            ("STAPLE_REVOKED", "OCSP_REVOKED"),
        ] {
            let u = format!("https://localhost:{}/1k", p.port(peer));
            let e = get(&c, &u).await.unwrap_err();
            assert_eq!(e.code(), code, "{peer}: {e}");
        }
        // A good staple is checked and reported.
        let u = format!("https://localhost:{}/1k", p.port("STAPLE_GOOD"));
        let (r, _) = get(&c, &u).await.unwrap();
        let ocsp = &r.meta.tls.unwrap().ocsp;
        assert!(
            matches!(ocsp, burrow_client::StapleStatus::Good(_)),
            "{ocsp:?}"
        );
    });
}

/// A plain-HTTP server on 127.0.0.1:0 that answers each connection with `reply` and then
/// keeps the connection open without sending more (a stalled peer).
fn stalling_server(reply: &'static [u8]) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf);
                let _ = s.write_all(reply);
                std::thread::sleep(Duration::from_secs(5));
            });
        }
    });
    port
}

#[test]
fn stalled_body_is_timeout_idle_direct_and_through_proxy() {
    let Some(p) = Peers::load("idle timeout") else {
        return;
    };
    let port = stalling_server(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly-part");
    run(async {
        for proxy in [None, proxy_url(&p, "HTTP_PROXY"), proxy_url(&p, "SOCKS")] {
            let mut cfg = config(&p, proxy.as_deref());
            cfg.deadlines.idle = Some(Duration::from_millis(300));
            let c = Client::new(TokioNet, cfg);
            let u = format!("http://127.0.0.1:{port}/stall");
            let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
            assert_eq!(r.status, 200);
            let e = r.bytes().await.unwrap_err();
            assert_eq!(e.code(), "TIMEOUT_IDLE", "{proxy:?}: {e}");
        }
    });
}

#[test]
fn stalled_head_is_timeout_headers() {
    let port = stalling_server(b"");
    let mut cfg = ClientConfig::default();
    cfg.deadlines.headers = Some(Duration::from_millis(300));
    let c = Client::new(TokioNet, cfg);
    run(async {
        let u = format!("http://127.0.0.1:{port}/");
        let e = c.fetch(Request::get(&u).unwrap()).await.unwrap_err();
        assert_eq!(e.code(), "TIMEOUT_HEADERS");
    });
}

#[test]
fn content_length_over_the_cap_is_refused_before_reading() {
    let Some(p) = Peers::load("body cap") else {
        return;
    };
    let mut cfg = config(&p, None);
    cfg.max_body_bytes = Some(100_000);
    let c = Client::new(TokioNet, cfg);
    run(async {
        let u = format!("https://localhost:{}/1m.bin", p.port("DEF"));
        let e = c.fetch(Request::get(&u).unwrap()).await.unwrap_err();
        assert_eq!(e.code(), "BODY_TOO_LARGE");
        // Chunked: no length up front, so the wire count stops it.
        let u = format!("https://localhost:{}/chunked", p.port("DEF"));
        let mut cfg = config(&p, None);
        cfg.max_body_bytes = Some(1000);
        let c = Client::new(TokioNet, cfg);
        let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
        assert_eq!(r.bytes().await.unwrap_err().code(), "BODY_TOO_LARGE");
    });
}

#[test]
fn plain_http_through_a_proxy_with_a_wrong_password() {
    let Some(p) = Peers::load("absolute-form auth") else {
        return;
    };
    let u = format!("http://localhost:{}/1k", p.port("PLAIN"));
    run(async {
        let proxy = format!("http://proxyuser:wrong@127.0.0.1:{}", p.port("SQUID_AUTH"));
        let e = get(&client(&p, Some(&proxy)), &u).await.unwrap_err();
        assert_eq!(e.code(), "PROXY_AUTH_REQUIRED", "{e}");
    });
}

#[test]
fn http2_multiplexes_concurrent_requests_on_one_connection() {
    let Some(p) = Peers::load("h2 multiplexing") else {
        return;
    };
    let sums = sums(&p);
    let c = client(&p, None);
    let base = format!("https://localhost:{}", p.port("DEF"));
    run(async {
        let (first, _) = get(&c, &format!("{base}/1k")).await.unwrap();
        assert_eq!(first.meta.http_version, "HTTP/2");
        assert!(!first.meta.reused);
        let mut tasks = Vec::new();
        for i in 0..8 {
            let c = c.clone();
            let path = if i % 2 == 0 { "1m" } else { "16k" };
            let u = format!("{base}/{path}");
            tasks.push(tokio::task::spawn_local(async move {
                let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
                // Read in pieces so the streams interleave.
                let mut body = Vec::new();
                while let Some(piece) = r.chunk().await.unwrap() {
                    body.extend_from_slice(&piece);
                    tokio::task::yield_now().await;
                }
                (path, r.meta.reused, body)
            }));
        }
        for t in tasks {
            let (path, reused, body) = t.await.unwrap();
            assert!(reused, "/{path} did not share the connection");
            assert_eq!(
                hex(digest(HashAlgorithm::Sha256, &body).as_ref()),
                sums[path]
            );
        }
        // http1_only: the same origin over HTTP/1.1.
        let mut cfg = config(&p, None);
        cfg.http1_only = true;
        let h1 = Client::new(TokioNet, cfg);
        let (r, _) = get(&h1, &format!("{base}/1k")).await.unwrap();
        assert_eq!(r.meta.http_version, "HTTP/1.1");
        assert_eq!(r.meta.tls.unwrap().alpn.as_deref(), Some("http/1.1"));
    });
}

/// A plain-HTTP server on 127.0.0.1:0: `/set` answers 302 to `/check` with a Set-Cookie
/// (plus one the jar must refuse: a public suffix domain), `/check` echoes the Cookie header.
fn cookie_server() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&head).into_owned();
            let cookie = head
                .lines()
                .find_map(|l| l.strip_prefix("Cookie: "))
                .unwrap_or("none")
                .to_string();
            let reply = if head.contains(" /set ") {
                "HTTP/1.1 302 Found\r\nLocation: /check\r\nSet-Cookie: sid=abc123; Path=/; HttpOnly\r\n\
                 Set-Cookie: evil=1; Domain=co.uk\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_string()
            } else {
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{cookie}",
                    cookie.len()
                )
            };
            let _ = s.write_all(reply.as_bytes());
        }
    });
    port
}

#[test]
fn a_cookie_is_set_and_sent_back_direct_and_through_proxies() {
    let Some(p) = Peers::load("cookies") else {
        return;
    };
    let port = cookie_server();
    run(async {
        for proxy in [None, proxy_url(&p, "HTTP_PROXY"), proxy_url(&p, "SOCKS")] {
            let mut cfg = config(&p, proxy.as_deref());
            cfg.cookies = true;
            let c = Client::new(TokioNet, cfg);
            let u = format!("http://127.0.0.1:{port}/set");
            let (r, body) = get(&c, &u).await.unwrap();
            assert_eq!((r.status, r.meta.redirects), (200, 1), "{proxy:?}");
            assert_eq!(body, b"sid=abc123", "{proxy:?}");
            // A later request sends it again; without the jar nothing is sent.
            let (_, body) = get(&c, &format!("http://127.0.0.1:{port}/check"))
                .await
                .unwrap();
            assert_eq!(body, b"sid=abc123");
        }
        let (_, body) = get(&client(&p, None), &format!("http://127.0.0.1:{port}/set"))
            .await
            .unwrap();
        assert_eq!(body, b"none");
    });
}

#[test]
fn the_next_connection_resumes_with_a_ticket() {
    let Some(p) = Peers::load("resumption") else {
        return;
    };
    let mut cfg = config(&p, None);
    cfg.max_idle_per_origin = 0; // every request on a new connection
    cfg.http1_only = true;
    // TLS 1.2 resumption is by RFC 5077 ticket: curl's profile (the default) sends no
    // session_ticket extension, burrow's original one does.
    cfg.tls.profile = burrow_client::Profile::default_web();
    let c = Client::new(TokioNet, cfg);
    run(async {
        for (peer, version) in [("H1", 0x0304), ("TLS12", 0x0303)] {
            let u = format!("https://localhost:{}/1k", p.port(peer));
            let (first, _) = get(&c, &u).await.unwrap();
            let tls = first.meta.tls.unwrap();
            assert!(!tls.resumed, "{peer}");
            assert_eq!(tls.version, version, "{peer}");
            assert_eq!(
                tls.peer_chain[0].subject_text(),
                "O=Peers Test, CN=localhost"
            );
            let (second, body) = get(&c, &u).await.unwrap();
            assert!(!second.meta.reused);
            let tls = second.meta.tls.unwrap();
            assert!(tls.resumed, "{peer}: the second connection did not resume");
            assert!(tls.peer_chain.is_empty());
            assert_eq!(body.len(), 1024);
        }
    });
}

/// TokioNet that counts background tasks started and finished.
#[derive(Clone, Default)]
struct CountingNet {
    started: std::rc::Rc<std::cell::Cell<u32>>,
    finished: std::rc::Rc<std::cell::Cell<u32>>,
}

impl burrow_client::Net for CountingNet {
    type Stream = <TokioNet as burrow_client::Net>::Stream;

    async fn connect(&self, host: &str, port: u16) -> std::io::Result<Self::Stream> {
        TokioNet.connect(host, port).await
    }

    async fn sleep(&self, d: Duration) {
        TokioNet.sleep(d).await;
    }

    fn now_ms(&self) -> u64 {
        TokioNet.now_ms()
    }

    fn spawn(&self, task: std::pin::Pin<Box<dyn Future<Output = ()>>>) {
        self.started.set(self.started.get() + 1);
        let finished = self.finished.clone();
        TokioNet.spawn(Box::pin(async move {
            task.await;
            finished.set(finished.get() + 1);
        }));
    }

    async fn resolve(&self, host: &str) -> std::io::Result<Vec<std::net::IpAddr>> {
        TokioNet.resolve(host).await
    }
}

#[test]
fn the_http2_driver_ends_when_the_client_is_dropped() {
    use burrow_client::Net as _;
    let Some(p) = Peers::load("h2 driver lifetime") else {
        return;
    };
    let net = CountingNet::default();
    let c = Client::new(net.clone(), config(&p, None));
    run(async {
        let u = format!("https://localhost:{}/1k", p.port("DEF"));
        let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
        assert_eq!(r.meta.http_version, "HTTP/2");
        r.bytes().await.unwrap();
        drop(r);
        assert_eq!((net.started.get(), net.finished.get()), (1, 0));
        drop(c);
        // The driver sends GOAWAY and ends; nothing else can wake it, so give it a moment.
        for _ in 0..50 {
            if net.finished.get() == 1 {
                break;
            }
            TokioNet.sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(net.finished.get(), 1);
    });
}

/// A plain-HTTP server on 127.0.0.1:0 answering every request with a gzip bomb: 64 MiB of
/// zeros in about 64 KiB (declared Content-Length is the small coded size).
fn gzip_bomb_server() -> u16 {
    use flate2::write::GzEncoder;
    let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        enc.write_all(&zeros).unwrap();
    }
    let bomb = enc.finish().unwrap();
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { return };
            let bomb = bomb.clone();
            std::thread::spawn(move || {
                // The whole request head: closing with unread bytes would reset the
                // connection and could destroy the response in flight.
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
                    head.push(byte[0]);
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
                    bomb.len()
                );
                let _ = s.write_all(head.as_bytes());
                let _ = s.write_all(&bomb);
                let _ = s.shutdown(std::net::Shutdown::Write);
                let _ = s.read(&mut byte);
            });
        }
    });
    port
}

#[test]
fn a_gzip_bomb_is_stopped_by_the_cap_direct_and_through_a_proxy() {
    let Some(p) = Peers::load("gzip bomb") else {
        return;
    };
    let port = gzip_bomb_server();
    run(async {
        for proxy in [None, proxy_url(&p, "HTTP_PROXY"), proxy_url(&p, "SOCKS")] {
            let mut cfg = config(&p, proxy.as_deref());
            cfg.max_body_bytes = Some(8 << 20);
            let c = Client::new(TokioNet, cfg);
            let u = format!("http://127.0.0.1:{port}/bomb");
            let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
            assert_eq!(
                r.meta.content_encoding.as_deref(),
                Some("gzip"),
                "{proxy:?}: status {} {:?}",
                r.status,
                r.headers
            );
            let mut decoded = 0usize;
            let e = loop {
                match r.chunk().await {
                    Ok(Some(piece)) => decoded += piece.len(),
                    Ok(None) => panic!("the bomb decoded completely ({decoded} bytes)"),
                    Err(e) => break e,
                }
            };
            assert_eq!(e.code(), "BODY_TOO_LARGE", "{proxy:?}: {e}");
            assert!(decoded <= 8 << 20, "{decoded}");
        }
        // Passthrough: the coded bytes, headers as sent.
        let mut cfg = config(&p, None);
        cfg.decompress = burrow_client::Decompress::Passthrough;
        let c = Client::new(TokioNet, cfg);
        let u = format!("http://127.0.0.1:{port}/bomb");
        let mut r = c.fetch(Request::get(&u).unwrap()).await.unwrap();
        assert_eq!(r.header("content-encoding"), Some("gzip"));
        let coded = r.bytes().await.unwrap();
        assert_eq!(
            Some(coded.len().to_string().as_str()),
            r.header("content-length")
        );
    });
}

/// A streamed body: `total` bytes in 10 000-byte pieces.
struct Counting {
    left: usize,
    next: u8,
}

impl burrow_client::BodySource for Counting {
    fn next_piece(
        &mut self,
    ) -> std::pin::Pin<Box<dyn Future<Output = std::io::Result<Option<Vec<u8>>>> + '_>> {
        Box::pin(async move {
            if self.left == 0 {
                return Ok(None);
            }
            let n = self.left.min(10_000);
            self.left -= n;
            let piece: Vec<u8> = (0..n)
                .map(|_| {
                    self.next = self.next.wrapping_mul(31).wrapping_add(7);
                    self.next
                })
                .collect();
            tokio::task::yield_now().await;
            Ok(Some(piece))
        })
    }
}

#[test]
fn a_streamed_1m_post_is_echoed_over_http1_chunked_and_http2() {
    let Some(p) = Peers::load("streamed POST") else {
        return;
    };
    let total = 1 << 20;
    let mut expected = Vec::new();
    let mut gen = Counting {
        left: total,
        next: 0,
    };
    run(async {
        use burrow_client::BodySource as _;
        while let Some(piece) = gen.next_piece().await.unwrap() {
            expected.extend(piece);
        }
        let c = client(&p, None);
        for (peer, version, length) in [
            ("H1", "HTTP/1.1", None),
            ("H1", "HTTP/1.1", Some(total as u64)),
            ("DEF", "HTTP/2", None),
        ] {
            let body = burrow_client::BodyStream::new(
                Counting {
                    left: total,
                    next: 0,
                },
                length,
            );
            let u = format!("https://localhost:{}/echo", p.port(peer));
            let req = Request::new("POST", &u).unwrap().body_stream(body);
            let mut r = c.fetch(req).await.unwrap();
            assert_eq!((r.status, r.meta.http_version), (200, version), "{peer}");
            let echoed = r.bytes().await.unwrap();
            assert_eq!(echoed.len(), total, "{peer} {length:?}");
            assert!(echoed == expected, "{peer} {length:?}: echo differs");
        }
    });
}

#[test]
fn abandoned_http2_responses_give_their_window_back() {
    let Some(p) = Peers::load("h2 abandoned bodies") else {
        return;
    };
    let sums = sums(&p);
    let mut cfg = config(&p, None);
    // A leaked window stalls the last request: fail in seconds, not minutes.
    cfg.deadlines.idle = Some(Duration::from_secs(5));
    cfg.deadlines.headers = Some(Duration::from_secs(5));
    cfg.decompress = burrow_client::Decompress::Passthrough;
    let c = Client::new(TokioNet, cfg);
    let base = format!("https://localhost:{}", p.port("DEF"));
    run(async {
        use burrow_client::Net as _;
        // Each abandoned 4 MiB body leaves up to a stream window (1 MiB) of received bytes
        // unread; six of them exceed the 4 MiB connection window unless the credit returns.
        for _ in 0..6 {
            let mut r = c
                .fetch(Request::get(&format!("{base}/4m.bin")).unwrap())
                .await
                .unwrap();
            assert_eq!(r.meta.http_version, "HTTP/2");
            r.chunk().await.unwrap().unwrap();
            // Let the server fill the stream window before we walk away.
            TokioNet.sleep(Duration::from_millis(50)).await;
            drop(r);
        }
        let (r, body) = get(&c, &format!("{base}/1m.bin")).await.unwrap();
        assert!(r.meta.reused);
        assert_eq!(
            hex(digest(HashAlgorithm::Sha256, &body).as_ref()),
            sums["1m.bin"]
        );
    });
}
