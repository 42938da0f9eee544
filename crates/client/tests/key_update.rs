//! A read never writes: the answer to the server's KeyUpdate waits for the next write, so a
//! read abandoned while it is pending (the HTTP/2 driver races every read against new
//! requests) can never cut a record on the wire. Regression test: the old `TlsStream::read`
//! wrote the KeyUpdate answer from inside the read, and a read dropped during that write left
//! a partial record behind.

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

use std::task::Poll;

use burrow_client::NetStream;

use common::{connected, now, poll_once};

#[test]
fn a_key_update_is_answered_with_the_next_write_never_from_a_read() {
    let (mut tls, wire) = connected();
    {
        let mut w = wire.borrow_mut();
        w.server.send_key_update(true).unwrap();
        w.server.send(b"after the update").unwrap();
        // Any write from now on would hang: a read that writes cannot finish.
        w.block_writes = true;
    }
    let mut buf = [0u8; 64];
    let n = match poll_once(tls.read(&mut buf)) {
        Poll::Ready(r) => r.unwrap(),
        Poll::Pending => panic!("the read waited on a write"),
    };
    assert_eq!(&buf[..n], b"after the update");
    assert_eq!(wire.borrow().blocked_writes, 0, "the read wrote nothing");
    assert_eq!(wire.borrow().server.key_updates_received(), 0);

    // A read abandoned while waiting for the peer changes nothing either.
    assert!(poll_once(tls.read(&mut buf)).is_pending());
    assert_eq!(wire.borrow().blocked_writes, 0);

    // The next write carries the KeyUpdate answer first, then the data, both whole: the
    // server (which checks every record) follows the update and reads the data.
    wire.borrow_mut().block_writes = false;
    now(tls.write_all(b"ping")).unwrap();
    let mut w = wire.borrow_mut();
    assert_eq!(w.server.key_updates_received(), 1);
    assert_eq!(w.server.take_received(), b"ping");

    // Traffic goes on under the new keys both ways.
    w.server.send(b"pong").unwrap();
    drop(w);
    let n = now(tls.read(&mut buf)).unwrap();
    assert_eq!(&buf[..n], b"pong");
}

#[test]
fn a_read_dropped_mid_flight_loses_no_bytes() {
    let (mut tls, wire) = connected();
    // Nothing to read: the read is abandoned while pending on the transport...
    {
        let mut empty = [0u8; 8];
        assert!(poll_once(tls.read(&mut empty)).is_pending());
    }
    // ...and the records that arrive afterwards are all there.
    {
        let mut w = wire.borrow_mut();
        w.server.send_record(b"one").unwrap();
        w.server.send_key_update(false).unwrap();
        w.server.send_record(b"two").unwrap();
    }
    let mut got = Vec::new();
    let mut buf = [0u8; 2];
    while got.len() < 6 {
        let n = now(tls.read(&mut buf)).unwrap();
        assert!(n > 0);
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got, b"onetwo");
}
