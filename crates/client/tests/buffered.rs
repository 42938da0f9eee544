//! `TlsStream::buffered_ready`, the HTTP/2 driver's way to take each buffered record without
//! building a future: it lends exactly what `fill_buffered` would, never touches the
//! transport, and hands over to `fill_buffered` whenever something must be awaited (opens
//! by an offload provider, or an error whose alert must be written).

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

use std::rc::Rc;

use burrow_client::{InlineOffload, NetStream, Offload, TlsSettings};
use burrow_testkit::tls13_server::ServerError;

use common::{connected, connected_with, now, settings};

#[test]
fn lends_the_buffered_records_through_a_key_update_to_close_notify() {
    let (mut tls, wire) = connected();
    {
        let mut w = wire.borrow_mut();
        w.server.send_record(b"one").unwrap();
        w.server.send_key_update(false).unwrap();
        w.server.send_record(b"two").unwrap();
        w.server.send_close_notify().unwrap();
    }
    // One transport read brings them all; it lends the first record.
    assert_eq!(now(tls.fill_buf()).unwrap(), b"one");
    tls.consume(3);
    // The rest is here already: the KeyUpdate is taken on the way, the next record lent.
    assert!(tls.buffered_ready());
    assert_eq!(tls.lent(), b"two");
    assert!(!tls.is_closed());
    tls.consume(3);
    assert!(tls.buffered_ready());
    assert_eq!(tls.lent(), b"");
    assert!(tls.is_closed());
    assert!(tls.received_close_notify());
}

#[test]
fn with_nothing_buffered_it_answers_empty_without_reading() {
    let (mut tls, wire) = connected();
    wire.borrow_mut().server.send_record(b"only").unwrap();
    assert_eq!(now(tls.fill_buf()).unwrap(), b"only");
    tls.consume(4);
    // A record sent now is on the wire, not in the buffer: not read, so not lent.
    wire.borrow_mut().server.send_record(b"later").unwrap();
    assert!(tls.buffered_ready());
    assert_eq!(tls.lent(), b"");
    assert!(!tls.is_closed());
    assert!(
        wire.borrow().server.pending_output() > 0,
        "the fast path read nothing"
    );
    // A partly consumed record stays lent.
    assert_eq!(now(tls.fill_buf()).unwrap(), b"later");
    tls.consume(2);
    assert!(tls.buffered_ready());
    assert_eq!(tls.lent(), b"ter");
}

#[test]
fn a_forged_record_is_left_to_fill_buffered_which_fails_and_sends_the_alert() {
    let (mut tls, wire) = connected();
    {
        let mut w = wire.borrow_mut();
        w.server.send_record(b"good").unwrap();
        w.server.send_record(b"forged").unwrap();
        w.flip_last_byte = true;
        w.allow_refusal = true;
    }
    assert_eq!(now(tls.fill_buf()).unwrap(), b"good");
    tls.consume(4);
    assert!(!tls.buffered_ready(), "a failure needs the alert written");
    assert!(wire.borrow().refused.is_none(), "nothing was written yet");
    let e = now(tls.fill_buffered()).unwrap_err();
    assert!(e.to_string().starts_with("TLS_BAD_RECORD_MAC"), "{e}");
    // bad_record_mac (20) reached the server, which refused it as the alert it is.
    assert!(matches!(
        wire.borrow().refused,
        Some(ServerError::Alert(20))
    ));
    // The connection stays failed: neither path lends anything again.
    assert!(!tls.buffered_ready());
    assert!(now(tls.fill_buffered()).is_err());
}

#[test]
fn with_offloaded_opens_it_hands_each_record_to_fill_buffered() {
    let settings = TlsSettings {
        offload: Some(Offload(Rc::new(InlineOffload::new()))),
        ..settings()
    };
    let (mut tls, wire) = connected_with(&settings);
    // The first write takes the client's Finished out (sealed by the offload).
    now(tls.write_all(b"hello")).unwrap();
    assert!(wire.borrow().server.is_connected());
    assert_eq!(wire.borrow_mut().server.take_received(), b"hello");
    {
        let mut w = wire.borrow_mut();
        w.server.send_record(b"one").unwrap();
        w.server.send_record(b"two").unwrap();
        w.server.send_record(b"three").unwrap();
    }
    assert_eq!(now(tls.fill_buf()).unwrap(), b"one");
    tls.consume(3);
    for want in [&b"two"[..], b"three"] {
        // Every open is a job for the offload: the fast path leaves it to fill_buffered.
        assert!(!tls.buffered_ready());
        assert!(!tls.buffered_ready(), "asking again changes nothing");
        assert_eq!(now(tls.fill_buffered()).unwrap(), want);
        tls.consume(want.len());
    }
    assert!(!tls.buffered_ready());
    assert_eq!(now(tls.fill_buffered()).unwrap(), b"");
}
