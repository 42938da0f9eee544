//! The scripted TLS 1.3 server against burrow-handshake's real client: the handshake under
//! every suite, application data both ways, and KeyUpdates injected between records.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_handshake::{Answer, Config, Connection, Entropy, Event, Profile};
use burrow_testkit::tls13_server::{ServerConfig, Suite, Tls13Server};

const NOW: u64 = 1_700_000_000_000;

fn client() -> Connection {
    let profile = Profile::curl();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| (i as u8) ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    Connection::new(Config::new(profile, Some("localhost")), entropy, NOW).unwrap()
}

/// Moves bytes both ways (`split`: the client's bytes reach the server one at a time) until
/// neither side has anything to say; returns the client's events.
fn pump(c: &mut Connection, s: &mut Tls13Server, split: bool) -> Vec<Event> {
    let mut events = Vec::new();
    loop {
        let to_server = c.take_transmit();
        if split {
            for b in &to_server {
                s.receive(std::slice::from_ref(b)).unwrap();
            }
        } else {
            s.receive(&to_server).unwrap();
        }
        let to_client = s.take_output();
        if !to_client.is_empty() {
            c.feed(&to_client).unwrap();
        }
        let mut idle = to_server.is_empty() && to_client.is_empty();
        loop {
            match c.poll_event(NOW).unwrap() {
                Event::NeedData => break,
                Event::NeedVerify(req) => {
                    let leaf = burrow_x509::Certificate::from_der(&req.chain[0]);
                    assert!(leaf.is_ok(), "burrow-x509 parses the server's certificate");
                    assert!(req.signed.is_none(), "the signature is checked inline");
                    c.complete(Answer::Verified).unwrap();
                    idle = false;
                }
                Event::Transmit => idle = false,
                Event::Plaintext(n) => {
                    LENT.with(|l| l.borrow_mut().push(c.plaintext().to_vec()));
                    c.consume_plaintext(n);
                    events.push(Event::Plaintext(n));
                    idle = false;
                }
                e => {
                    events.push(e);
                    idle = false;
                }
            }
        }
        if idle && c.take_transmit().is_empty() {
            return events;
        }
    }
}

fn connected(suite: Suite, split: bool) -> (Connection, Tls13Server) {
    let mut c = client();
    let mut s = Tls13Server::new(ServerConfig {
        suite,
        ..ServerConfig::new("localhost")
    });
    let events = pump(&mut c, &mut s, split);
    let done = events
        .iter()
        .find_map(|e| match e {
            Event::HandshakeDone(d) => Some(d),
            _ => None,
        })
        .expect("handshake done");
    assert_eq!(done.cipher_suite.0, suite.code());
    assert_eq!(done.alpn.as_deref(), Some(&b"h2"[..]));
    assert!(s.is_connected());
    (c, s)
}

thread_local! {
    /// The application data `pump` consumed, one entry per `Event::Plaintext`.
    static LENT: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The application data of the `Event::Plaintext`s in `events` (taken from what `pump` kept).
fn plaintexts(events: &[Event]) -> Vec<Vec<u8>> {
    let lent = LENT.with(|l| std::mem::take(&mut *l.borrow_mut()));
    let n = events
        .iter()
        .filter(|e| matches!(e, Event::Plaintext(_)))
        .count();
    assert_eq!(lent.len(), n, "one piece per event");
    lent
}

#[test]
fn handshake_and_data_under_every_suite() {
    for suite in [
        Suite::Aes128GcmSha256,
        Suite::Aes256GcmSha384,
        Suite::ChaCha20Poly1305Sha256,
    ] {
        for split in [false, true] {
            let (mut c, mut s) = connected(suite, split);
            c.send(b"GET / HTTP/1.1\r\n\r\n").unwrap();
            s.send(&vec![7u8; 40_000]).unwrap();
            let events = pump(&mut c, &mut s, split);
            assert_eq!(s.take_received(), b"GET / HTTP/1.1\r\n\r\n");
            assert_eq!(plaintexts(&events).concat(), vec![7u8; 40_000]);
        }
    }
}

#[test]
fn key_update_between_records() {
    for requested in [false, true] {
        let (mut c, mut s) = connected(Suite::Aes128GcmSha256, false);
        s.send_record(b"before").unwrap();
        s.send_key_update(requested).unwrap();
        s.send_record(b"after").unwrap();
        let events = pump(&mut c, &mut s, false);
        assert_eq!(
            plaintexts(&events),
            vec![b"before".to_vec(), b"after".to_vec()]
        );
        assert_eq!(s.key_updates_sent(), 1);
        // Asked to, the client updates its own keys; the server follows and still reads it.
        assert_eq!(s.key_updates_received(), u32::from(requested));
        c.send(b"ping").unwrap();
        pump(&mut c, &mut s, false);
        assert_eq!(s.take_received(), b"ping");
    }
}

#[test]
fn client_key_update_is_followed() {
    let (mut c, mut s) = connected(Suite::ChaCha20Poly1305Sha256, false);
    c.update_keys(true).unwrap();
    c.send(b"after the update").unwrap();
    pump(&mut c, &mut s, false);
    assert_eq!(s.take_received(), b"after the update");
    assert_eq!(s.key_updates_received(), 1);
    // The server answered update_requested with its own KeyUpdate; data still flows.
    assert_eq!(s.key_updates_sent(), 1);
    s.send(b"pong").unwrap();
    let events = pump(&mut c, &mut s, false);
    assert_eq!(plaintexts(&events), vec![b"pong".to_vec()]);
}
