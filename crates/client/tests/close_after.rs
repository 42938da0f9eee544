//! A connection's last words (HTTP/2's GOAWAY) and its close_notify leave in one transport
//! write: `TlsStream::close_after` seals both into one buffer. Before, they were two socket
//! writes per connection (~0.1 ms each in workerd, bench/RESULTS.md).
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

use std::cell::Cell;
use std::io;
use std::rc::Rc;

use burrow_client::{NetStream, TlsStream};

use common::{now, settings, MemStream};

/// The in-memory wire, counting the transport writes made on it.
struct Counting {
    inner: MemStream,
    writes: Rc<Cell<usize>>,
}

impl NetStream for Counting {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).await
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writes.set(self.writes.get() + 1);
        self.inner.write_all(buf).await
    }

    async fn close(&mut self) -> io::Result<()> {
        self.inner.close().await
    }
}

#[test]
fn last_words_and_close_notify_are_one_write() {
    let wire = common::wire();
    let writes = Rc::new(Cell::new(0));
    let stream = Counting {
        inner: MemStream(Rc::clone(&wire)),
        writes: Rc::clone(&writes),
    };
    let mut tls = now(TlsStream::connect(
        stream,
        "origin.test",
        &settings(),
        1_700_000_000_000,
    ))
    .unwrap();
    // Whatever the handshake left queued (its Finished) goes with the first write.
    now(tls.write_all(b"request")).unwrap();
    assert!(wire.borrow().server.is_connected());
    assert_eq!(wire.borrow_mut().server.take_received(), b"request");

    writes.set(0);
    now(tls.close_after(&[b"last ", b"words"])).unwrap();
    assert_eq!(
        writes.get(),
        1,
        "the parts' records and close_notify in one write"
    );
    let mut w = wire.borrow_mut();
    assert_eq!(w.server.take_received(), b"last words");
    assert!(w.server.received_close_notify());
}
