//! A `TlsStream` connected to the scripted TLS 1.3 server over an in-memory wire, and ways to
//! poll its futures by hand, for the tests of what a read does with the records it meets.

#![allow(dead_code)]

use std::cell::RefCell;
use std::future::Future;
use std::io;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use burrow_client::{NetStream, TlsSettings, TlsStream, Trust};
use burrow_testkit::tls13_server::{ServerConfig, ServerError, Tls13Server};

/// The wire between the client and the scripted server, in memory.
pub(crate) struct Wire {
    pub(crate) server: Tls13Server,
    /// While set, every write stays pending (a congested socket).
    pub(crate) block_writes: bool,
    /// `write_all` calls made while writes were blocked.
    pub(crate) blocked_writes: usize,
    /// The next read delivers the server's output with its last byte flipped (a forged
    /// record's tag).
    pub(crate) flip_last_byte: bool,
    /// What the server made of the client's bytes when it refused them; `None` while they
    /// were all good. Only tests that expect a refusal set `allow_refusal`; for the others a
    /// refusal fails the test at once.
    pub(crate) refused: Option<ServerError>,
    pub(crate) allow_refusal: bool,
}

pub(crate) struct MemStream(pub(crate) Rc<RefCell<Wire>>);

impl NetStream for MemStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.borrow().server.pending_output() == 0 {
            // Nothing sent yet: wait, as a socket would (the tests poll once and move on).
            std::future::pending::<()>().await;
        }
        let mut w = self.0.borrow_mut();
        let mut out = w.server.take_output();
        if std::mem::take(&mut w.flip_last_byte) {
            if let Some(b) = out.last_mut() {
                *b ^= 1;
            }
        }
        assert!(
            out.len() <= buf.len(),
            "the test sends less than a read's room"
        );
        buf[..out.len()].copy_from_slice(&out);
        Ok(out.len())
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if self.0.borrow().block_writes {
            self.0.borrow_mut().blocked_writes += 1;
            std::future::pending::<()>().await;
        }
        let mut w = self.0.borrow_mut();
        if let Err(e) = w.server.receive(buf) {
            assert!(
                w.allow_refusal,
                "the server refused the client's bytes: {e}"
            );
            w.refused = Some(e);
        }
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Polls `f` once.
pub(crate) fn poll_once<F: Future>(f: F) -> Poll<F::Output> {
    let mut cx = Context::from_waker(Waker::noop());
    pin!(f).as_mut().poll(&mut cx)
}

/// Runs `f`, which never waits on anything but this in-memory wire.
pub(crate) fn now<F: Future>(f: F) -> F::Output {
    match poll_once(f) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("the future waited"),
    }
}

/// The settings every test starts from: any certificate, no staple.
pub(crate) fn settings() -> TlsSettings {
    TlsSettings {
        trust: Trust::InsecureAcceptAnyCertificate,
        request_staple: false,
        ..TlsSettings::default()
    }
}

/// A fresh wire to the scripted server for `origin.test`, nothing sent yet.
pub(crate) fn wire() -> Rc<RefCell<Wire>> {
    wire_to(ServerConfig::new("origin.test"))
}

/// A fresh wire to the scripted server configured so, nothing sent yet.
pub(crate) fn wire_to(config: ServerConfig) -> Rc<RefCell<Wire>> {
    Rc::new(RefCell::new(Wire {
        server: Tls13Server::new(config),
        block_writes: false,
        blocked_writes: 0,
        flip_last_byte: false,
        refused: None,
        allow_refusal: false,
    }))
}

/// A finished handshake with the scripted server. (With offloaded seals the client's
/// Finished goes out with its first write, so the server may not be connected yet.)
pub(crate) fn connected_with(settings: &TlsSettings) -> (TlsStream<MemStream>, Rc<RefCell<Wire>>) {
    let wire = wire();
    let tls = now(TlsStream::connect(
        MemStream(Rc::clone(&wire)),
        "origin.test",
        settings,
        1_700_000_000_000,
    ))
    .unwrap();
    (tls, wire)
}

/// [`connected_with`] the default [`settings`]: the server is connected.
pub(crate) fn connected() -> (TlsStream<MemStream>, Rc<RefCell<Wire>>) {
    let (tls, wire) = connected_with(&settings());
    assert!(wire.borrow().server.is_connected());
    (tls, wire)
}
