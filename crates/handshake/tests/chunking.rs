//! The RFC 8448 1-RTT server bytes fed whole, byte by byte and in random splits give the same
//! events, the same application data and the same bytes out — delivered with `feed` (a copy)
//! and with `recv_buf`/`commit` (the transport writing straight into the record buffer).
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

use burrow_handshake::*;
use common::rfc8448::Scenario;

type Run = (Vec<Event>, Vec<u8>, Vec<u8>);

fn run(s: &Scenario, sizes: &[usize]) -> Run {
    let fed = run_with(s, sizes, false);
    assert_eq!(run_with(s, sizes, true), fed, "recv_buf/commit as feed");
    fed
}

fn run_with(s: &Scenario, sizes: &[usize], via_recv_buf: bool) -> Run {
    let profile = Profile::rfc8448();
    let entropy = Entropy::from_pool(&profile, &s.hex("client_rng_pool")).unwrap();
    let mut cfg = Config::new(profile, Some("server"));
    cfg.signature_check = SignatureCheck::Caller;
    let mut c = Connection::new(cfg, entropy, s.ms()).unwrap();
    let mut server = Vec::new();
    for f in [
        "record_server_hello",
        "record_server_handshake_messages",
        "record_new_session_ticket",
        "record_server_app_data",
        "record_server_close_notify",
    ] {
        server.extend(s.hex(f));
    }
    let total: usize = sizes.iter().sum();
    assert_eq!(total, server.len());
    let mut events = Vec::new();
    let mut sent = c.take_transmit();
    let mut at = 0;
    for &n in sizes {
        if via_recv_buf {
            let room = c.recv_buf();
            assert!(
                room.len() >= burrow_record::RECV_ROOM,
                "a record always fits"
            );
            room[..n].copy_from_slice(&server[at..at + n]);
            // Bytes written past `n` and never committed are not data.
            if room.len() > n {
                room[n] = 0xee;
            }
            c.commit(n).unwrap();
        } else {
            c.feed(&server[at..at + n]).unwrap();
        }
        at += n;
        loop {
            match c.poll_event(s.ms()).unwrap() {
                Event::NeedData | Event::AwaitingAnswer => break,
                Event::Transmit => sent.extend(c.take_transmit()),
                Event::NeedVerify(r) => {
                    events.push(Event::NeedVerify(r));
                    c.complete(Answer::Verified).unwrap();
                }
                Event::HandshakeDone(d) => {
                    events.push(Event::HandshakeDone(d));
                    c.send(&s.hex("client_app_data")).unwrap();
                }
                Event::Plaintext(n) => events.push(common::take_lent(&mut c, n)),
                e => events.push(e),
            }
        }
    }
    (events, sent, common::received())
}

fn same_events(json: &str) {
    let s = Scenario::load(json, "simple_1rtt");
    let total: usize = [
        "record_server_hello",
        "record_server_handshake_messages",
        "record_new_session_ticket",
        "record_server_app_data",
        "record_server_close_notify",
    ]
    .iter()
    .map(|f| s.hex(f).len())
    .sum();
    let whole = run(&s, &[total]);
    assert_eq!(whole.0.len(), 5, "{:?}", whole.0); // NeedVerify, Done, Ticket, Plaintext, PeerClosed
    assert!(matches!(whole.0[4], Event::PeerClosed));
    assert_eq!(
        whole.2,
        s.hex("server_app_data"),
        "the lent application data"
    );
    let mut expect_sent = s.hex("record_client_hello_1");
    expect_sent.extend(s.hex("record_client_finished"));
    expect_sent.extend(s.hex("record_client_app_data"));
    assert_eq!(whole.1, expect_sent);
    assert_eq!(run(&s, &vec![1; total]), whole, "byte by byte");
    let mut seed = 0x9e37_79b9u32;
    for _ in 0..50 {
        let mut sizes = Vec::new();
        let mut left = total;
        while left > 0 {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let n = (1 + (seed >> 8) as usize % 300).min(left);
            sizes.push(n);
            left -= n;
        }
        assert_eq!(run(&s, &sizes), whole, "split {sizes:?}");
    }
}

both!(same_events_under_every_chunking, same_events);
