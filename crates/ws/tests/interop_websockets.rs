//! burrow-ws against a real WebSocket server: Python's `websockets` package (pinned in
//! script/bootstrap), started by the test on 127.0.0.1 with random free ports, driven by a
//! blocking `TcpStream` loop. The Upgrade request is encoded and the 101 head parsed by
//! burrow-h1.
//!
//! Three servers: without permessage-deflate, with websockets' default permessage-deflate
//! (context takeover, its 12-bit windows), and with no context takeover and 10/9-bit windows.
//! Echo of 1,000 messages of mixed sizes (0 B to 256 KiB, text and binary, compressible and not,
//! those over 64 KiB sent fragmented and those over 100 kB echoed fragmented) byte-exact, with
//! and without permessage-deflate; pings both ways; the closing handshake started by either
//! side, with codes; a message over the size bound failing with `MessageTooBig` (1009).
//!
//! Needs `python3` with `websockets` (`pip install websockets==17.4`, as script/bootstrap
//! does). Missing is a failure with instructions; only `BURROW_PEERS=none` skips, loudly.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use burrow_h1::{parse_response_head, BodyKind, Limits as H1Limits, RequestHead, Target};
use burrow_ws::{
    Accepted, CloseCode, CloseState, Config, Connection, DeflateParams, Error, Event, Handshake,
    Kind, MaskSource, Message, MessageKind,
};
use common::{keys, Rng};

const SERVER: &str = r#"
import asyncio, json
from websockets.asyncio.server import serve
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

async def handler(ws):
    path = ws.request.path
    if path == "/echo":
        async for msg in ws:
            if len(msg) > 100_000:
                step = 40_000
                await ws.send([msg[i:i + step] for i in range(0, len(msg), step)])
            else:
                await ws.send(msg)
    elif path.startswith("/big/"):
        await ws.send(b"\0" * int(path[5:]))
        await ws.wait_closed()
    elif path == "/close":
        await ws.recv()
        await ws.close(4001, "server bye")
    elif path == "/ping":
        pong = await ws.ping(b"srv")
        await pong
        await ws.send("pong ok")
        await ws.wait_closed()

def select_subprotocol(ws, offered):
    # The server prefers "chat"; a client offering none goes on without one.
    for p in ("chat", "superchat"):
        if p in offered:
            return p
    return None

async def main():
    common = dict(max_size=2**20, select_subprotocol=select_subprotocol)
    plain = await serve(handler, "127.0.0.1", 0, compression=None, **common)
    deflate = await serve(handler, "127.0.0.1", 0, **common)
    strict = await serve(handler, "127.0.0.1", 0, compression=None, extensions=[
        ServerPerMessageDeflateFactory(
            server_no_context_takeover=True, client_no_context_takeover=True,
            server_max_window_bits=10, client_max_window_bits=9)], **common)
    print(json.dumps([s.sockets[0].getsockname()[1] for s in (plain, deflate, strict)]), flush=True)
    await asyncio.Future()

asyncio.run(main())
"#;

/// The Python servers, killed when dropped.
struct Servers {
    child: Child,
    plain: u16,
    deflate: u16,
    strict: u16,
}

impl Drop for Servers {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn servers() -> Option<Servers> {
    if std::env::var("BURROW_PEERS").as_deref() == Ok("none") {
        burrow_testkit::skip_loudly("ws interop with Python websockets", "BURROW_PEERS=none");
        return None;
    }
    let ok = Command::new("python3")
        .args(["-c", "import websockets.asyncio.server"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "python3 with the PyPI `websockets` package is needed for the WebSocket interop tests: \
         run script/bootstrap or `pip install websockets==17.4` (or set BURROW_PEERS=none to \
         skip loudly)"
    );
    let mut child = Command::new("python3")
        .args(["-c", SERVER])
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
    Some(Servers {
        child,
        plain: ports[0],
        deflate: ports[1],
        strict: ports[2],
    })
}

/// A WebSocket client over a blocking socket.
struct Client {
    stream: TcpStream,
    conn: Connection,
    accepted: Accepted,
    keys: Box<dyn MaskSource>,
    eof: bool,
}

impl Client {
    fn connect(port: u16, path: &str, handshake: Handshake, config: Config) -> Client {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        // Only so that a broken server cannot hang the test; never a timing assertion.
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let host = format!("127.0.0.1:{port}");
        let fields = handshake.request_fields();
        let mut req = RequestHead::new("GET", Target::Origin(path), &host);
        for (n, v) in &fields {
            req = req.header(n, v);
        }
        let mut out = Vec::new();
        req.encode(BodyKind::None, &mut out).unwrap();
        stream.write_all(&out).unwrap();
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let (head, used) = loop {
            if let Some(done) = parse_response_head(&buf, &H1Limits::default()).unwrap() {
                break done;
            }
            let n = stream.read(&mut chunk).unwrap();
            assert!(n > 0, "EOF before the 101 head");
            buf.extend_from_slice(&chunk[..n]);
        };
        let accepted = handshake
            .check_response(head.status, head.headers.iter())
            .unwrap_or_else(|e| panic!("handshake: {e}; head {head:?}"));
        let mut conn = Connection::new(config, accepted.deflate);
        // Frames right behind the head belong to the connection; an error there is the
        // connection's, reported by `next_event` like any later one.
        let _ = conn.handle_input(&buf[used..]);
        Client {
            stream,
            conn,
            accepted,
            keys: Box::new(keys()),
            eof: false,
        }
    }

    fn flush(&mut self) {
        if self.conn.wants_transmit() {
            let out = self.conn.take_transmit(&mut *self.keys);
            self.stream.write_all(&out).unwrap();
        }
    }

    /// The next event; `Err` when the connection fails or the transport ends (after a clean
    /// close: `Ok(None)`).
    fn next_event(&mut self) -> Result<Option<Event>, Error> {
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            if let Some(ev) = self.conn.poll_event() {
                return Ok(Some(ev));
            }
            // The Close naming an error goes out before the error is reported.
            self.flush();
            if let Some(e) = self.conn.error() {
                return Err(e);
            }
            if self.eof {
                return Ok(None);
            }
            let n = self.stream.read(&mut chunk).expect("read");
            if n == 0 {
                self.eof = true;
                self.conn.handle_eof()?;
                continue;
            }
            // An error is reported at the top of the loop, after the events before it.
            let _ = self.conn.handle_input(&chunk[..n]);
        }
    }

    /// The next message, answering and skipping the server's keepalive pings.
    fn next_message(&mut self) -> Message {
        loop {
            match self.next_event() {
                Ok(Some(Event::Message(m))) => return m,
                Ok(Some(Event::Ping(_) | Event::Pong(_))) => {}
                other => panic!("expected a message, got {other:?}"),
            }
        }
    }

    /// The closing handshake from our side: Close with `code`, the server's Close back, then
    /// the server ends TCP.
    fn finish(mut self, code: CloseCode) {
        self.conn
            .close(Some(code), "done", &mut *self.keys)
            .unwrap();
        self.flush();
        let mut echoed = None;
        loop {
            match self.next_event().unwrap() {
                Some(Event::Close(f)) => echoed = f.code,
                Some(_) => {}
                None => break,
            }
        }
        assert_eq!(echoed, Some(code), "the server echoes our code");
        assert_eq!(self.conn.close_state(), CloseState::Closed);
    }

    fn send(&mut self, kind: MessageKind, data: &[u8]) {
        self.conn.send(kind, data, &mut *self.keys).unwrap();
        self.flush();
    }
}

fn nonce(rng: &mut Rng) -> [u8; 16] {
    core::array::from_fn(|_| rng.below(256) as u8)
}

/// 1,000 messages: sizes from 0 B to 256 KiB (most small, every tenth up to 256 KiB, and both
/// ends exactly), text (with multi-byte characters) and binary, compressible and random.
fn messages(seed: u64, count: usize) -> Vec<(MessageKind, Vec<u8>)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| {
            let size = match i {
                0 => 0,
                1 => 256 * 1024,
                _ if i % 10 == 0 => rng.below(256 * 1024 + 1),
                _ if i % 10 < 4 => rng.below(16 * 1024),
                _ => rng.below(1024),
            };
            let compressible = i % 3 == 0;
            if i % 2 == 0 {
                let words = ["tick ", "κόσμε ", "€ ", "𝄞 ", "price=1.25 "];
                let mut s = String::new();
                while s.len() < size {
                    if compressible {
                        s.push_str(words[s.len() / 7 % words.len()]);
                    } else {
                        s.push(char::from_u32(0x20 + rng.below(0x2000) as u32).unwrap_or('x'));
                    }
                }
                while s.len() > size {
                    s.pop();
                }
                (MessageKind::Text, s.into_bytes())
            } else {
                let data = if compressible {
                    (0..size).map(|j| (j / 64 % 7) as u8).collect()
                } else {
                    (0..size).map(|_| rng.below(256) as u8).collect()
                };
                (MessageKind::Binary, data)
            }
        })
        .collect()
}

fn echo(port: u16, handshake: Handshake, want: Option<DeflateParams>, count: usize) {
    let config = Config {
        fragment_size: Some(64 * 1024),
        ..Config::default()
    };
    let mut c = Client::connect(port, "/echo", handshake, config);
    assert_eq!(c.accepted.deflate, want);
    let msgs = messages(u64::from(port), count);
    for (i, (kind, data)) in msgs.iter().enumerate() {
        c.send(*kind, data);
        let got = c.next_message();
        let same = match (&got, kind) {
            (Message::Text(t), MessageKind::Text) => t.as_bytes() == data.as_slice(),
            (Message::Binary(b), MessageKind::Binary) => b == data,
            _ => false,
        };
        assert!(
            same,
            "message {i} ({kind:?}, {} bytes) came back different",
            data.len()
        );
    }
    c.finish(CloseCode::NORMAL);
}

#[test]
fn echo_1000_messages_without_permessage_deflate() {
    let Some(s) = servers() else { return };
    // The client offers the extension; this server declines it.
    echo(s.plain, Handshake::new(nonce(&mut Rng::new(1))), None, 1000);
    // The server would accept it; this client does not offer it.
    let h = Handshake::new(nonce(&mut Rng::new(2)))
        .with_deflate(None)
        .unwrap();
    echo(s.deflate, h, None, 200);
}

#[test]
fn echo_1000_messages_with_permessage_deflate() {
    let Some(s) = servers() else { return };
    // websockets' default answer to `permessage-deflate; client_max_window_bits`.
    let default = DeflateParams {
        server_max_window_bits: 12,
        client_max_window_bits: 12,
        ..DeflateParams::default()
    };
    echo(
        s.deflate,
        Handshake::new(nonce(&mut Rng::new(3))),
        Some(default),
        1000,
    );
    let strict = DeflateParams {
        server_no_context_takeover: true,
        client_no_context_takeover: true,
        server_max_window_bits: 10,
        client_max_window_bits: 9,
    };
    echo(
        s.strict,
        Handshake::new(nonce(&mut Rng::new(4))),
        Some(strict),
        300,
    );
}

#[test]
fn subprotocol_is_selected_from_the_offer() {
    let Some(s) = servers() else { return };
    let h = Handshake::new(nonce(&mut Rng::new(5)))
        .with_protocols(&["x-other", "superchat", "chat"])
        .unwrap();
    let c = Client::connect(s.plain, "/echo", h, Config::default());
    // The server's preference wins among the offered ones.
    assert_eq!(c.accepted.protocol.as_deref(), Some("chat"));
    c.finish(CloseCode::GOING_AWAY);
    let h = Handshake::new(nonce(&mut Rng::new(10)))
        .with_protocols(&["superchat"])
        .unwrap();
    let c = Client::connect(s.plain, "/echo", h, Config::default());
    assert_eq!(c.accepted.protocol.as_deref(), Some("superchat"));
    c.finish(CloseCode(4999));
}

#[test]
fn pings_both_ways() {
    let Some(s) = servers() else { return };
    for port in [s.plain, s.deflate] {
        // Ours: the server answers with the same payload.
        let mut c = Client::connect(
            port,
            "/echo",
            Handshake::new(nonce(&mut Rng::new(6))),
            Config::default(),
        );
        c.conn.ping(b"are you there", &mut *c.keys).unwrap();
        c.flush();
        assert_eq!(
            c.next_event().unwrap(),
            Some(Event::Pong(b"are you there".to_vec()))
        );
        c.finish(CloseCode::NORMAL);
        // Theirs: the codec's Pong reaches the server, which then says so.
        let mut c = Client::connect(
            port,
            "/ping",
            Handshake::new(nonce(&mut Rng::new(7))),
            Config::default(),
        );
        assert_eq!(c.next_event().unwrap(), Some(Event::Ping(b"srv".to_vec())));
        assert_eq!(c.next_message(), Message::Text("pong ok".into()));
        c.finish(CloseCode(3000));
    }
}

#[test]
fn server_initiated_close_with_a_code() {
    let Some(s) = servers() else { return };
    for port in [s.plain, s.deflate] {
        let mut c = Client::connect(
            port,
            "/close",
            Handshake::new(nonce(&mut Rng::new(8))),
            Config::default(),
        );
        c.send(MessageKind::Text, b"close me");
        match c.next_event().unwrap() {
            Some(Event::Close(f)) => {
                assert_eq!(
                    (f.code, f.reason.as_str()),
                    (Some(CloseCode(4001)), "server bye")
                )
            }
            other => panic!("expected the server's close, got {other:?}"),
        }
        assert_eq!(c.conn.close_state(), CloseState::CloseReceived);
        // Our echo goes out; the server then closes TCP, which is the clean end.
        assert_eq!(c.next_event().unwrap(), None);
        assert_eq!(c.conn.close_state(), CloseState::Closed);
    }
}

#[test]
fn message_over_the_bound_fails_with_message_too_big() {
    let Some(s) = servers() else { return };
    for port in [s.plain, s.deflate] {
        let config = Config {
            max_message_size: 256 * 1024,
            ..Config::default()
        };
        let path = format!("/big/{}", 300 * 1024);
        let mut c = Client::connect(port, &path, Handshake::new(nonce(&mut Rng::new(9))), config);
        let e = c.next_event().unwrap_err();
        assert_eq!(
            (e.kind(), e.close_code()),
            (Kind::MessageTooBig, Some(CloseCode::MESSAGE_TOO_BIG))
        );
        assert_eq!(c.conn.close_state(), CloseState::CloseSent);
        // The server answers our 1009 with its Close and ends the connection.
        let mut rest = Vec::new();
        c.stream.read_to_end(&mut rest).unwrap();
        assert!(rest.len() >= 4, "the server's close: {rest:?}");
        assert!(
            rest.windows(2).any(|w| w == [0x03, 0xf1]),
            "1009 echoed: {rest:?}"
        );
    }
}
