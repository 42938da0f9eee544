//! `ClientConfig::impersonating`: the real client path writes the captured clients' first
//! bytes. HTTP/1.1 heads are byte-identical to `$BURROW_VECTORS/clienthello/*.http1.hex`;
//! HTTP/2 first flights (over h2c here, so `:scheme` is `http`) are byte-identical to
//! `*.h2.hex` but for that one HPACK byte (static index 6 instead of 7).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use std::cell::RefCell;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use burrow_client::{Client, ClientConfig, HttpProfile, Net, NetStream, Request};
use burrow_testkit::h2::frame;
use serde_json::Value;

/// One connection: the server's bytes, then EOF; what the client wrote is kept.
struct OneStream {
    reply: Option<Vec<u8>>,
    written: Rc<RefCell<Vec<u8>>>,
}

impl NetStream for OneStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(mut r) = self.reply.take() else {
            return Ok(0);
        };
        let n = r.len().min(buf.len());
        buf[..n].copy_from_slice(&r[..n]);
        if n < r.len() {
            self.reply = Some(r.split_off(n));
        }
        Ok(n)
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.written.borrow_mut().extend_from_slice(buf);
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

#[derive(Clone, Default)]
struct OneNet {
    reply: Rc<RefCell<Option<Vec<u8>>>>,
    written: Rc<RefCell<Vec<u8>>>,
    tasks: Rc<RefCell<Vec<Task>>>,
}

impl Net for OneNet {
    type Stream = OneStream;

    async fn connect(&self, _host: &str, _port: u16) -> io::Result<OneStream> {
        Ok(OneStream {
            reply: self.reply.borrow_mut().take(),
            written: Rc::clone(&self.written),
        })
    }

    async fn sleep(&self, _d: Duration) {
        std::future::pending::<()>().await;
    }

    fn now_ms(&self) -> u64 {
        1_700_000_000_000
    }

    fn spawn(&self, task: Pin<Box<dyn Future<Output = ()>>>) {
        self.tasks.borrow_mut().push(task);
    }

    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        Ok(vec![IpAddr::from([127, 0, 0, 1])])
    }
}

fn drive<F: Future>(net: &OneNet, f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..10_000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        let mut tasks: Vec<_> = net.tasks.borrow_mut().drain(..).collect();
        tasks.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
        net.tasks.borrow_mut().extend(tasks);
    }
    panic!("the future never finished");
}

/// GETs `url` with `cfg` against a server answering `reply`; returns what the client wrote.
fn written_for(cfg: ClientConfig, url: &str, reply: Vec<u8>) -> Vec<u8> {
    let net = OneNet::default();
    *net.reply.borrow_mut() = Some(reply);
    let c = Client::new(net.clone(), cfg);
    drive(&net, async {
        let mut r = c.fetch(Request::get(url).unwrap()).await.unwrap();
        assert_eq!(r.status, 200);
        r.bytes().await.unwrap();
    });
    let w = net.written.borrow().clone();
    w
}

/// The captures with a first flight of `kind` ("h2" or "http1"): (name, json, bytes).
fn captures(kind: &str) -> Option<Vec<(String, Value, Vec<u8>)>> {
    let dir = burrow_testkit::vectors::dir("client first-flight captures")?.join("clienthello");
    let suffix = format!(".{kind}.hex");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix(&suffix) else {
            continue;
        };
        let json: Value =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{stem}.json"))).unwrap())
                .unwrap();
        let bytes = burrow_testkit::hex::decode(std::fs::read_to_string(&p).unwrap().trim());
        out.push((name, json, bytes));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Some(out)
}

/// The impersonation for a capture, or `None` for clients burrow does not impersonate.
fn profile_name(json: &Value) -> Option<&'static str> {
    match (json["client"].as_str()?, json["client_version"].as_str()?) {
        ("chromium", "156.0.8078.108") => Some("chrome"),
        ("curl_default" | "curl_http2" | "curl_http1.1", "7.88.1") => Some("curl_7_88"),
        _ => None,
    }
}

#[test]
fn http1_heads_are_byte_identical_to_the_captures() {
    let Some(caps) = captures("http1") else {
        return;
    };
    let mut checked = 0;
    for (name, json, want) in caps {
        let Some(prof) = profile_name(&json) else {
            continue;
        };
        let host = json["http1"]["headers"][0][1].as_str().unwrap();
        let mut cfg = ClientConfig::impersonating(prof).unwrap();
        cfg.http1_only = true;
        let url = format!("http://{host}/deep/path");
        let reply = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".to_vec();
        let got = written_for(cfg, &url, reply);
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 3, "the curl --http1.1 heads");
}

#[test]
fn h2_first_flights_match_the_captures_but_for_the_scheme() {
    let Some(caps) = captures("h2") else { return };
    let mut checked = 0;
    for (name, json, want) in caps {
        let Some(prof) = profile_name(&json) else {
            continue;
        };
        let authority = json["http2"]["headers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h[0] == ":authority")
            .unwrap()[1]
            .as_str()
            .unwrap()
            .to_string();
        let mut cfg = ClientConfig::impersonating(prof).unwrap();
        cfg.http2_prior_knowledge = true;
        let mut reply = frame(4, 0, 0, &[]);
        reply.extend(frame(4, 1, 0, &[]));
        reply.extend(frame(1, 0x4, 1, &[0x88]));
        reply.extend(frame(0, 0x1, 1, b"ok"));
        let got = written_for(cfg, &format!("http://{authority}/deep/path"), reply);
        let got = &got[..want.len().min(got.len())];
        assert_eq!(got.len(), want.len(), "{name}: flight length");
        let diffs: Vec<usize> = (0..want.len()).filter(|i| got[*i] != want[*i]).collect();
        assert_eq!(diffs.len(), 1, "{name}: differs at {diffs:?}");
        let at = diffs[0];
        assert_eq!(
            (want[at], got[at]),
            (0x87, 0x86),
            "{name}: only :scheme https→http"
        );
        checked += 1;
    }
    assert_eq!(checked, 9, "6 curl 7.88 and 3 Chromium flights");
}

#[test]
fn impersonating_knows_the_builtins_and_defaults_stay_burrows() {
    for n in HttpProfile::NAMES {
        assert!(ClientConfig::impersonating(n).is_some(), "{n}");
    }
    assert!(ClientConfig::impersonating("firefox").is_none());
    let c = ClientConfig::impersonating("curl").unwrap();
    assert_eq!(c.user_agent.as_deref(), Some("curl/8.21.0"));
    assert!(!c.tls.request_staple, "curl asks for no staple");
    assert!(
        ClientConfig::impersonating("chrome")
            .unwrap()
            .tls
            .request_staple
    );
    let d = ClientConfig::default();
    assert_eq!(d.tls.profile, burrow_client::Profile::curl());
    assert!(d.tls.request_staple);
}
