//! `Client::websocket` against a real WebSocket server, Python's `websockets` 17.4 (pinned in
//! script/bootstrap), started by the test on 127.0.0.1 with free ports (plain and TLS with the
//! peers' `localhost` leaf), directly and through the shared proxies with credentials: squid
//! (CONNECT), microsocks (SOCKS5) and squid's HTTPS port. Echo of text and binary byte-exact,
//! messages over one frame both ways, 1 MiB, pings both ways, close codes both ways,
//! permessage-deflate as websockets agrees it by default, and refused upgrades (a 403 from the
//! WebSocket server, a 200 from nginx) as `WS_HANDSHAKE_STATUS` with the status.
//!
//! Needs `python3` with `websockets` (script/bootstrap installs it) and the shared peers;
//! missing either is a failure with instructions; only `BURROW_PEERS=none` skips, loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use burrow_client::ws::{CloseCode, Event, Kind, Message};
use burrow_client::{
    Class, Client, ClientConfig, Error, Phase, Proxy, Trust, WebSocket, WebSocketOptions,
};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

const SERVER: &str = r#"
import asyncio, json, ssl, sys
from http import HTTPStatus
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

async def handler(ws):
    try:
        await serve_path(ws)
    except ConnectionClosed:
        pass  # a close code other than 1000 ends `async for` with an exception

async def serve_path(ws):
    path = ws.request.path.split("?")[0]
    if path == "/echo":
        async for msg in ws:
            if len(msg) > 100_000:
                # Echoed in fragments: a message larger than one frame.
                step = 40_000
                await ws.send([msg[i:i + step] for i in range(0, len(msg), step)])
            else:
                await ws.send(msg)
    elif path == "/headers":
        fields = [[":path", ws.request.path]] + [[k, v] for k, v in ws.request.headers.raw_items()]
        await ws.send(json.dumps(fields))
        await ws.wait_closed()
    elif path == "/ping":
        pong = await ws.ping(b"srv")
        await asyncio.wait_for(pong, 30)
        await ws.send("pong ok")
        await ws.wait_closed()
    elif path == "/drop":
        await ws.send("bye without a Close")
        ws.transport.abort()
    elif path == "/close":
        await ws.recv()
        await ws.close(4001, "server bye")

def refuse(connection, request):
    if request.path == "/forbidden":
        return connection.respond(HTTPStatus.FORBIDDEN, "no WebSocket here\n")
    return None

def set_cookie(connection, request, response):
    if request.path == "/cookie":
        response.headers["Set-Cookie"] = "sid=abc123; Path=/"
    return None

def chat(ws, offered):
    return "chat" if "chat" in offered else None

async def main():
    pki = sys.argv[1]
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(pki + "/leaf-p256.chain.pem", pki + "/leaf-p256.key")
    # The server would pick h2 if offered: the client's offer must be http/1.1 alone.
    tls.set_alpn_protocols(["h2", "http/1.1"])
    common = dict(max_size=4 * 2**20, process_request=refuse,
                  process_response=set_cookie, select_subprotocol=chat)
    plain = await serve(handler, "127.0.0.1", 0, compression=None, **common)
    deflate = await serve(handler, "127.0.0.1", 0, **common)
    secure = await serve(handler, "127.0.0.1", 0, ssl=tls, **common)
    print(json.dumps([s.sockets[0].getsockname()[1] for s in (plain, deflate, secure)]), flush=True)
    await asyncio.Future()

asyncio.run(main())
"#;

/// The Python servers (killed when dropped) and the shared peers.
struct Servers {
    child: Child,
    peers: Peers,
    /// ws://, no permessage-deflate.
    plain: u16,
    /// ws://, websockets' default permessage-deflate.
    deflate: u16,
    /// wss:// with the `localhost` leaf, default permessage-deflate.
    secure: u16,
}

impl Drop for Servers {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn servers(what: &str) -> Option<Servers> {
    let peers = Peers::load(what)?;
    let ok = Command::new("python3")
        .args(["-c", "import websockets.asyncio.server"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "python3 with the PyPI `websockets` package is needed for the WebSocket tests: run \
         script/bootstrap or `pip install websockets==17.4` (or set BURROW_PEERS=none to skip \
         loudly)"
    );
    let pki = peers.var("PEERS_PKI").expect("peers.env has PEERS_PKI");
    let mut child = Command::new("python3")
        .args(["-c", SERVER, pki])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start python3");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("the servers' ports");
    let ports: Vec<u16> = line
        .trim()
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|p| p.trim().parse().expect("a port"))
        .collect();
    assert_eq!(ports.len(), 3, "the servers' ports: {line:?}");
    Some(Servers {
        child,
        peers,
        plain: ports[0],
        deflate: ports[1],
        secure: ports[2],
    })
}

/// How the client reaches the servers.
#[derive(Clone, Copy, Debug)]
enum Via {
    Direct,
    /// squid with Basic auth: CONNECT.
    SquidAuth,
    /// microsocks with RFC 1929 user/password: SOCKS5.
    SocksAuth,
    /// squid's TLS port with Basic auth: TLS to the proxy, then CONNECT.
    HttpsProxyAuth,
}

const EVERY_WAY: [Via; 4] = [
    Via::Direct,
    Via::SquidAuth,
    Via::SocksAuth,
    Via::HttpsProxyAuth,
];

fn config(s: &Servers, via: Via) -> ClientConfig {
    let p = &s.peers;
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.proxy_tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    let proxy = p.proxy_url(match via {
        Via::Direct => "none",
        Via::SquidAuth => "SQUID_AUTH",
        Via::SocksAuth => "SOCKS_AUTH",
        Via::HttpsProxyAuth => "HTTPS_PROXY_AUTH",
    });
    cfg.proxy = proxy.map(|u| Proxy::parse(&u).unwrap());
    cfg
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    burrow_native::block_on_local(f).unwrap()
}

/// The next message, skipping Pings (already answered) and Pongs.
async fn next_message(ws: &mut WebSocket<TokioNet>) -> Message {
    loop {
        match ws.recv().await {
            Ok(Some(Event::Message(m))) => return m,
            Ok(Some(Event::Ping(_) | Event::Pong(_))) => {}
            other => panic!("expected a message, got {other:?}"),
        }
    }
}

/// Our Close with `code`, the server's Close back with the same code, then `None`.
async fn close_with(ws: &mut WebSocket<TokioNet>, code: u16) {
    ws.close(Some(code), "client bye").await.unwrap();
    loop {
        match ws.recv().await.unwrap() {
            Some(Event::Close(f)) => {
                assert_eq!(f.code, Some(CloseCode(code)), "the server echoes our code");
                break;
            }
            Some(Event::Message(_) | Event::Ping(_) | Event::Pong(_)) => {}
            Some(other) => panic!("unexpected {other:?}"),
            None => panic!("the WebSocket ended without the server's Close"),
        }
    }
    assert!(ws.recv().await.unwrap().is_none(), "closed");
    let e = ws.send_text("late").await.unwrap_err();
    assert_eq!(e.code(), "WS_CLOSED");
}

/// Text (multi-byte), binary (every byte value), one over a frame each way, 1 MiB, all echoed
/// byte-exact.
async fn echo_all(ws: &mut WebSocket<TokioNet>) {
    let text = "κόσμε € 𝄞 tick ".repeat(20);
    ws.send_text(&text).await.unwrap();
    assert_eq!(next_message(ws).await, Message::Text(text));
    let binary: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    ws.send_binary(&binary).await.unwrap();
    assert_eq!(next_message(ws).await, Message::Binary(binary));
    // Over 100 kB: websockets echoes it in 40 kB fragments.
    let big: Vec<u8> = (0..150_000u32).map(|i| (i * 7 % 251) as u8).collect();
    ws.send_binary(&big).await.unwrap();
    assert_eq!(next_message(ws).await, Message::Binary(big));
    let mib: Vec<u8> = (0..1u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    ws.send_binary(&mib).await.unwrap();
    assert_eq!(next_message(ws).await, Message::Binary(mib));
    ws.send_text("").await.unwrap();
    assert_eq!(next_message(ws).await, Message::Text(String::new()));
}

#[test]
fn echo_through_every_proxy_plain_and_tls() {
    let Some(s) = servers("websocket echo") else {
        return;
    };
    for via in EVERY_WAY {
        for (url, tls) in [
            (format!("ws://127.0.0.1:{}/echo", s.plain), false),
            (format!("wss://localhost:{}/echo", s.secure), true),
        ] {
            run(async {
                let client = Client::new(TokioNet, config(&s, via));
                let mut ws = client
                    .websocket(&url, WebSocketOptions::default())
                    .await
                    .unwrap_or_else(|e| panic!("{via:?} {url}: {e}"));
                assert_eq!(ws.tls().is_some(), tls, "{via:?} {url}");
                if let Some(t) = ws.tls() {
                    assert_eq!(t.alpn.as_deref(), Some("http/1.1"), "offered alone");
                }
                assert_eq!(
                    ws.meta().proxied.is_some(),
                    !matches!(via, Via::Direct),
                    "{via:?}"
                );
                echo_all(&mut ws).await;
                close_with(&mut ws, 1000).await;
            });
        }
    }
}

#[test]
fn sent_in_fragments_and_compressed_as_websockets_agrees() {
    let Some(s) = servers("websocket deflate") else {
        return;
    };
    for url in [
        format!("ws://127.0.0.1:{}/echo", s.deflate),
        format!("wss://localhost:{}/echo", s.secure),
    ] {
        run(async {
            let client = Client::new(TokioNet, config(&s, Via::SquidAuth));
            let mut options = WebSocketOptions::default();
            options.config.fragment_size = Some(16 * 1024);
            let mut ws = client.websocket(&url, options).await.unwrap();
            let d = ws.deflate().expect("websockets accepts permessage-deflate");
            // websockets' default answer to Chromium's offer: 12-bit windows both ways.
            assert_eq!(
                (d.server_max_window_bits, d.client_max_window_bits),
                (12, 12),
                "{d:?}"
            );
            assert!(
                ws.extensions().starts_with("permessage-deflate"),
                "{}",
                ws.extensions()
            );
            echo_all(&mut ws).await;
            let json = "{\"price\": 1.25, \"qty\": 3} ".repeat(4000);
            ws.send_text(&json).await.unwrap();
            assert_eq!(next_message(&mut ws).await, Message::Text(json));
            close_with(&mut ws, 4000).await;
        });
    }
    // Without the offer, nothing is agreed.
    run(async {
        let client = Client::new(TokioNet, config(&s, Via::Direct));
        let options = WebSocketOptions {
            deflate: false,
            ..WebSocketOptions::default()
        };
        let url = format!("ws://127.0.0.1:{}/echo", s.deflate);
        let mut ws = client.websocket(&url, options).await.unwrap();
        assert_eq!((ws.deflate(), ws.extensions()), (None, ""));
        echo_all(&mut ws).await;
        close_with(&mut ws, 1000).await;
    });
}

#[test]
fn pings_both_ways_and_the_servers_close() {
    let Some(s) = servers("websocket ping and close") else {
        return;
    };
    for via in [Via::Direct, Via::HttpsProxyAuth] {
        run(async {
            let client = Client::new(TokioNet, config(&s, via));
            let url = format!("wss://localhost:{}/ping", s.secure);
            let mut ws = client
                .websocket(&url, WebSocketOptions::default())
                .await
                .unwrap();
            // The server's Ping is answered by recv itself; the server says when its Pong came.
            assert_eq!(ws.recv().await.unwrap(), Some(Event::Ping(b"srv".to_vec())));
            assert_eq!(next_message(&mut ws).await, Message::Text("pong ok".into()));
            ws.ping(b"cli").await.unwrap();
            assert_eq!(ws.recv().await.unwrap(), Some(Event::Pong(b"cli".to_vec())));
            close_with(&mut ws, 3001).await;

            // The server closes with 4001 and a reason; the reply is ours to send.
            let url = format!("ws://127.0.0.1:{}/close", s.plain);
            let mut ws = client
                .websocket(&url, WebSocketOptions::default())
                .await
                .unwrap();
            ws.send_text("go").await.unwrap();
            match ws.recv().await.unwrap() {
                Some(Event::Close(f)) => {
                    assert_eq!(
                        (f.code, f.reason.as_str()),
                        (Some(CloseCode(4001)), "server bye")
                    );
                }
                other => panic!("expected the server's Close, got {other:?}"),
            }
            assert!(ws.recv().await.unwrap().is_none());
        });
    }
}

#[test]
fn the_upgrade_carries_host_user_agent_headers_and_protocol() {
    let Some(s) = servers("websocket request fields") else {
        return;
    };
    run(async {
        let client = Client::new(TokioNet, config(&s, Via::SocksAuth));
        let options = WebSocketOptions {
            protocols: vec!["superchat".into(), "chat".into()],
            headers: vec![
                ("Origin".into(), "https://app.example".into()),
                ("X-Token".into(), "t0k3n".into()),
            ],
            ..WebSocketOptions::default()
        };
        let url = format!("wss://localhost:{}/headers?x=1", s.secure);
        let mut ws = client.websocket(&url, options).await.unwrap();
        assert_eq!(ws.protocol(), Some("chat"));
        let Message::Text(json) = next_message(&mut ws).await else {
            panic!("the server sends its view as text")
        };
        let fields: Vec<(String, String)> = header_pairs(&json);
        let get = |name: &str| {
            fields
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(
            get("Host"),
            Some(format!("localhost:{}", s.secure).as_str())
        );
        assert_eq!(
            get("User-Agent"),
            ClientConfig::default().user_agent.as_deref()
        );
        assert_eq!(get("Origin"), Some("https://app.example"));
        assert_eq!(get("X-Token"), Some("t0k3n"));
        assert_eq!(get("Sec-WebSocket-Protocol"), Some("superchat, chat"));
        assert_eq!(get("Sec-WebSocket-Version"), Some("13"));
        // Every connection draws its own nonce.
        let key = get("Sec-WebSocket-Key").unwrap().to_string();
        assert_eq!(key.len(), 24, "{key}");
        close_with(&mut ws, 1000).await;
        let mut again = client
            .websocket(&url, WebSocketOptions::default())
            .await
            .unwrap();
        let Message::Text(json) = next_message(&mut again).await else {
            panic!()
        };
        assert!(!json.contains(&key), "a second WebSocket reused the nonce");
        close_with(&mut again, 1000).await;
    });
}

#[test]
fn the_cookie_jar_is_the_fetches_one() {
    let Some(s) = servers("websocket cookies") else {
        return;
    };
    run(async {
        let mut cfg = config(&s, Via::Direct);
        cfg.cookies = true;
        let client = Client::new(TokioNet, cfg);
        let url = format!("ws://127.0.0.1:{}/cookie", s.plain);
        let mut ws = client
            .websocket(&url, WebSocketOptions::default())
            .await
            .unwrap();
        // The server's handler for /cookie ends at once: its Close, then the end.
        assert!(matches!(ws.recv().await.unwrap(), Some(Event::Close(_))));
        let url = format!("ws://127.0.0.1:{}/headers", s.plain);
        let mut ws = client
            .websocket(&url, WebSocketOptions::default())
            .await
            .unwrap();
        let Message::Text(json) = next_message(&mut ws).await else {
            panic!()
        };
        let fields = header_pairs(&json);
        assert!(
            fields
                .iter()
                .any(|(n, v)| n == "Cookie" && v == "sid=abc123"),
            "{fields:?}"
        );
        close_with(&mut ws, 1000).await;
    });
}

/// The `[[name, value], ...]` the `/headers` path sends.
fn header_pairs(json: &str) -> Vec<(String, String)> {
    let v: Vec<Vec<String>> = serde_json::from_str(json).unwrap();
    v.into_iter()
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect()
}

#[test]
fn refused_upgrades_are_typed_errors_with_the_status() {
    let Some(s) = servers("websocket refused") else {
        return;
    };
    let status_of = |e: &Error| match e {
        Error::WebSocket(w) => match w.kind() {
            Kind::NotSwitchingProtocols { status } => status,
            other => panic!("{other:?}"),
        },
        other => panic!("{other}"),
    };
    run(async {
        for via in [Via::Direct, Via::SquidAuth] {
            let client = Client::new(TokioNet, config(&s, via));
            let url = format!("wss://localhost:{}/forbidden", s.secure);
            let e = client
                .websocket(&url, WebSocketOptions::default())
                .await
                .unwrap_err();
            assert_eq!(status_of(&e), 403, "{e}");
            assert_eq!(
                (e.code(), e.phase()),
                ("WS_HANDSHAKE_STATUS", Phase::Headers)
            );
            assert!(e.to_string().contains("status 403"), "{e}");
            // nginx is no WebSocket server: it answers the GET.
            let url = format!("ws://127.0.0.1:{}/1k", s.peers.port("PLAIN"));
            let e = client
                .websocket(&url, WebSocketOptions::default())
                .await
                .unwrap_err();
            assert_eq!(status_of(&e), 200, "{e}");
        }
        // Wrong proxy credentials are the proxy's error, as for a fetch.
        let mut cfg = config(&s, Via::Direct);
        cfg.proxy = Some(
            Proxy::parse(&format!(
                "http://nobody:wrong@127.0.0.1:{}",
                s.peers.port("SQUID_AUTH")
            ))
            .unwrap(),
        );
        let client = Client::new(TokioNet, cfg);
        let url = format!("ws://127.0.0.1:{}/echo", s.plain);
        let e = client
            .websocket(&url, WebSocketOptions::default())
            .await
            .unwrap_err();
        assert_eq!(
            (e.code(), e.phase()),
            ("PROXY_AUTH_REQUIRED", Phase::Proxy),
            "{e}"
        );
        // The caller's mistakes, before any connection.
        let client = Client::new(TokioNet, config(&s, Via::Direct));
        for (url, options, code) in [
            ("ftp://127.0.0.1/x", WebSocketOptions::default(), "BAD_URL"),
            (
                "ws://127.0.0.1/x#frag",
                WebSocketOptions::default(),
                "BAD_URL",
            ),
            (
                "ws://127.0.0.1/x",
                WebSocketOptions {
                    protocols: vec!["a b".into()],
                    ..WebSocketOptions::default()
                },
                "WS_INVALID_ARGUMENT",
            ),
            (
                "ws://127.0.0.1/x",
                WebSocketOptions {
                    headers: vec![("Sec-WebSocket-Key".into(), "x".into())],
                    ..WebSocketOptions::default()
                },
                "BAD_REQUEST",
            ),
        ] {
            let e = client.websocket(url, options).await.unwrap_err();
            assert_eq!((e.code(), e.phase()), (code, Phase::Request), "{url}: {e}");
        }
    });
}

#[test]
fn a_transport_cut_without_a_close_is_an_abnormal_closure() {
    let Some(s) = servers("websocket abnormal closure") else {
        return;
    };
    run(async {
        let client = Client::new(TokioNet, config(&s, Via::SquidAuth));
        let url = format!("wss://localhost:{}/drop", s.secure);
        let mut ws = client
            .websocket(&url, WebSocketOptions::default())
            .await
            .unwrap();
        assert_eq!(
            next_message(&mut ws).await,
            Message::Text("bye without a Close".into())
        );
        let e = ws.recv().await.unwrap_err();
        assert_eq!(
            (e.code(), e.phase(), e.class()),
            ("WS_ABNORMAL_CLOSURE", Phase::Body, Class::ConnectionLost),
            "{e}"
        );
        assert!(ws.recv().await.unwrap().is_none());
    });
}

#[test]
fn a_message_over_the_bound_fails_with_1009() {
    let Some(s) = servers("websocket bound") else {
        return;
    };
    run(async {
        let client = Client::new(TokioNet, config(&s, Via::Direct));
        let mut options = WebSocketOptions::default();
        options.config.max_message_size = 64 * 1024;
        let url = format!("ws://127.0.0.1:{}/echo", s.plain);
        let mut ws = client.websocket(&url, options).await.unwrap();
        ws.send_binary(&vec![1u8; 64 * 1024]).await.unwrap();
        assert_eq!(
            next_message(&mut ws).await,
            Message::Binary(vec![1u8; 64 * 1024])
        );
        ws.send_binary(&vec![2u8; 64 * 1024 + 1]).await.unwrap();
        let e = ws.recv().await.unwrap_err();
        assert_eq!(
            (e.code(), e.phase()),
            ("WS_MESSAGE_TOO_BIG", Phase::Body),
            "{e}"
        );
        assert_eq!(
            match &e {
                Error::WebSocket(w) => w.close_code(),
                _ => None,
            },
            Some(CloseCode::MESSAGE_TOO_BIG)
        );
        assert!(ws.recv().await.unwrap().is_none(), "failed and closed");
    });
}
