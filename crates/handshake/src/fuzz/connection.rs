//! A whole client connection driven from fuzzed server bytes: the driver of the
//! `tls13_connection` and `tls12_connection` fuzz targets.
//!
//! Record protection is offloaded ([`Config::aead_offload`]) and answered here with a null
//! cipher: a record's "ciphertext" is its inner plaintext and its tag is [`NULL_TAG`], so a
//! mutated record still opens (and a mutated tag is still `bad_record_mac`). Chain and
//! signature checks go out as [`Event::NeedVerify`] ([`SignatureCheck::Caller`]) and are
//! answered valid. The randomness is a fixed pool. What is left between the fuzzer and the
//! states after the server's Finished is the Finished MAC, which fuzzer mode
//! (`--cfg fuzzing`, `src/fuzz_mode.rs`) replaces by `FINISHED_BYTE`
//! repeated. Outside fuzzer mode the same driver runs with the real Finished check.
//!
//! Input: `[flags, split, segment*]`, each segment `u16 length || bytes` (a short last one takes
//! what is left). `flags` picks the profile (bits 0-1, from [`profiles`]), a client certificate
//! (bit 2), a signing failure (bit 3), a KeyUpdate of ours after the handshake (bit 4,
//! requesting the server's with bit 5), our close_notify at the end (bit 6) and the key log
//! (bit 7). `split & 0x7f` is the size of the pieces each segment is fed in (0: whole), and
//! bit 7 of `split` feeds through `recv_buf`/`commit` instead of `feed`. After each segment
//! every event is answered until the connection needs data. An empty segment starts a new
//! connection (at most [`MAX_CONNECTIONS`] in all), offering the last ticket received, so
//! PSK resumption (TLS 1.3) and the abbreviated handshake (TLS 1.2) are reached too.

use crate::{
    Answer, ClientCertificate, Config, Connection, Entropy, Error, Event, Profile, SignatureCheck,
    Ticket,
};

/// The null cipher's tag: sealed records carry it, opened records must.
pub const NULL_TAG: [u8; burrow_record::TAG_LEN] = [0xA7; burrow_record::TAG_LEN];

/// The server name the driver connects to.
pub const SERVER_NAME: &str = "example.com";

/// The time the driver passes in, Unix milliseconds.
pub const NOW_MS: u64 = 1_700_000_000_000;

/// What the client sends once the handshake is done.
pub const REQUEST: &[u8] = b"GET / HTTP/1.1\r\nhost: example.com\r\n\r\n";

/// The live heap a connection target may use (its capped allocator aborts past it): the
/// connection's own bounds — one handshake message of `Config::max_handshake_message`
/// (128 KiB) buffered and copied into a `VerifyRequest`, a decompressed certificate of the
/// same bound, the record buffers (two records of 16 KiB + 256 each way), the ML-KEM keys
/// (under 10 KiB) — total under 1 MiB; 16 MiB leaves room for the allocator's rounding and the
/// harness, and still catches anything that grows with the input.
pub const MAX_LIVE_HEAP: usize = 16 << 20;

/// Connections one input may open: each costs a key generation, so the count is bounded
/// rather than proportional to the input.
pub const MAX_CONNECTIONS: u32 = 4;

/// The signature the driver answers a [`Event::NeedSign`] with.
const CLIENT_SIGNATURE: [u8; 64] = [0x5C; 64];

/// Which protocol version a target concentrates on (it picks the profiles; both offer 1.3 and
/// 1.2 where the profile does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// TLS 1.3 first: the web default, Chrome's shape, RFC 8448's, curl's.
    Tls13,
    /// TLS 1.2 first: the web default, Chrome's shape, curl 7.88's (1.0 to 1.3 in
    /// supported_versions), the web default requiring extended master secret.
    Tls12,
}

/// The four profiles `flags & 3` picks from, and whether extended master secret is required.
pub fn profiles(family: Family) -> [(Profile, bool); 4] {
    match family {
        Family::Tls13 => [
            (Profile::default_web(), false),
            (Profile::chrome(), false),
            (Profile::rfc8448(), false),
            (Profile::curl(), false),
        ],
        Family::Tls12 => [
            (Profile::default_web(), false),
            (Profile::chrome(), false),
            (Profile::curl_7_88(), false),
            (Profile::default_web(), true),
        ],
    }
}

/// The fixed random pool of the driver's client (its ClientHello is a function of the flags).
pub fn entropy(profile: &Profile) -> Result<Entropy, Error> {
    let pool: Vec<u8> = (0..Entropy::pool_len(profile))
        .map(|i| u8::try_from(i % 251).unwrap_or(0) ^ 0x3c)
        .collect();
    Entropy::from_pool(profile, &pool)
}

/// The client the driver runs for `flags`, before any server byte (its ClientHello queued).
pub fn client(family: Family, flags: u8) -> Result<Connection, Error> {
    client_resuming(family, flags, None)
}

/// [`client`], offering `ticket` for resumption.
pub fn client_resuming(
    family: Family,
    flags: u8,
    ticket: Option<Ticket>,
) -> Result<Connection, Error> {
    let [a, b, c, d] = profiles(family);
    let (profile, require_ems) = match flags & 3 {
        0 => a,
        1 => b,
        2 => c,
        _ => d,
    };
    let entropy = entropy(&profile)?;
    let mut config = Config::new(profile, Some(SERVER_NAME));
    config.signature_check = SignatureCheck::Caller;
    config.aead_offload = true;
    config.require_extended_master_secret = require_ems;
    config.key_log = flags & 0x80 != 0;
    config.resumption = ticket;
    if flags & 4 != 0 {
        config.client_certificate = Some(ClientCertificate {
            chain: vec![super::pki::p256_certificate()],
        });
    }
    Connection::new(config, entropy, NOW_MS)
}

/// How far a connection got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// [`Event::NeedVerify`] requests answered.
    pub verify_requests: u32,
    /// [`Event::NeedSign`] requests answered.
    pub sign_requests: u32,
    /// Connections opened.
    pub connections: u32,
    /// A handshake finished.
    pub handshake_done: bool,
    /// A handshake finished by resumption.
    pub resumed: bool,
    /// Bytes of application data received.
    pub app_bytes: usize,
    /// Tickets received.
    pub tickets: u32,
    /// The server's close_notify arrived.
    pub peer_closed: bool,
    /// The error the connection stopped with, if any.
    pub error: Option<Error>,
}

impl core::fmt::Display for Outcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "connections={} verify={} sign={} handshake_done={} resumed={} app_bytes={} tickets={} peer_closed={} error={}",
            self.connections,
            self.verify_requests,
            self.sign_requests,
            self.handshake_done,
            self.resumed,
            self.app_bytes,
            self.tickets,
            self.peer_closed,
            self.error.map_or("none", |e| e.code()),
        )
    }
}

/// Runs one input (see the module doc); never panics unless the connection breaks its own
/// contract (an event loop that makes no progress, lent plaintext of the wrong length).
pub fn connection(data: &[u8], family: Family) -> Outcome {
    let (&flags, rest) = data.split_first().unwrap_or((&0, &[]));
    let (&split, mut rest) = rest.split_first().unwrap_or((&0, &[]));
    let mut d = Driver {
        flags,
        outcome: Outcome::default(),
        ticket: None,
    };
    let Some(mut c) = d.open(family) else {
        return d.outcome;
    };
    // Every poll either returns an event that is answered, or NeedData; the bound is
    // generous (events per input byte) and only a connection that loops trips it.
    let budget = data.len().saturating_mul(8).saturating_add(256);
    while !rest.is_empty() && d.outcome.error.is_none() {
        let (segment, tail) = next_segment(rest);
        rest = tail;
        if segment.is_empty() {
            if d.outcome.connections < MAX_CONNECTIONS {
                flush_after_error(&mut c);
                match d.open(family) {
                    Some(next) => c = next,
                    None => break,
                }
            }
            continue;
        }
        let piece = usize::from(split & 0x7f);
        let piece = if piece == 0 {
            segment.len().max(1)
        } else {
            piece
        };
        for chunk in segment.chunks(piece) {
            let fed = if split & 0x80 != 0 {
                commit(&mut c, chunk)
            } else {
                c.feed(chunk)
            };
            if let Err(e) = fed {
                d.outcome.error = Some(e);
                break;
            }
            d.pump(&mut c, budget);
            if d.outcome.error.is_some() {
                break;
            }
        }
    }
    if flags & 0x40 != 0 && d.outcome.error.is_none() {
        c.close();
        d.pump(&mut c, budget);
    }
    flush_after_error(&mut c);
    d.outcome
}

/// The next `u16 length || bytes` segment and what follows it.
fn next_segment(data: &[u8]) -> (&[u8], &[u8]) {
    let Some((len, rest)) = data.split_first_chunk::<2>() else {
        return (data, &[]);
    };
    let len = usize::from(u16::from_be_bytes(*len));
    rest.split_at_checked(len).unwrap_or((rest, &[]))
}

/// `feed` by way of the copy-free path: write into `recv_buf`, then `commit`.
fn commit(c: &mut Connection, mut chunk: &[u8]) -> Result<(), Error> {
    while !chunk.is_empty() {
        let room = c.recv_buf();
        // Documented as at least a record of room; none would loop here forever.
        assert!(!room.is_empty(), "recv_buf has no room");
        let n = room.len().min(chunk.len());
        let (now, later) = chunk.split_at_checked(n).unwrap_or((chunk, &[]));
        if let Some(dst) = room.get_mut(..n) {
            dst.copy_from_slice(now);
        }
        c.commit(n)?;
        chunk = later;
    }
    Ok(())
}

struct Driver {
    flags: u8,
    outcome: Outcome,
    /// The last ticket received, offered by the next connection.
    ticket: Option<Ticket>,
}

impl Driver {
    /// A new connection offering the last ticket; `None` (the error noted) if it cannot start.
    fn open(&mut self, family: Family) -> Option<Connection> {
        self.outcome.connections = self.outcome.connections.saturating_add(1);
        match client_resuming(family, self.flags, self.ticket.take()) {
            Ok(mut c) => {
                // What the client writes is taken and dropped: the server is the input.
                let _ = c.take_transmit();
                Some(c)
            }
            Err(e) => {
                self.outcome.error = Some(e);
                None
            }
        }
    }

    /// Answers every event until the connection needs data or fails.
    fn pump(&mut self, c: &mut Connection, budget: usize) {
        for _ in 0..budget {
            let ev = match c.poll_event(NOW_MS) {
                Ok(ev) => ev,
                Err(e) => {
                    self.outcome.error = Some(e);
                    return;
                }
            };
            match self.answer(c, ev) {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    self.outcome.error = Some(e);
                    return;
                }
            }
        }
        // Reaching here means `budget` events without NeedData: a loop in the connection.
        assert!(
            self.outcome.error.is_some(),
            "poll_event made no progress in {budget} events"
        );
    }

    /// Answers one event; `false` when the connection waits for data.
    fn answer(&mut self, c: &mut Connection, ev: Event) -> Result<bool, Error> {
        match ev {
            // Every request is answered as it comes, so AwaitingAnswer is a wait for data too.
            Event::NeedData | Event::AwaitingAnswer => return Ok(false),
            Event::Transmit => {
                let _ = c.take_transmit();
            }
            Event::NeedVerify(_) => {
                self.outcome.verify_requests = self.outcome.verify_requests.saturating_add(1);
                c.complete(Answer::Verified)?;
            }
            Event::NeedSign(_) => {
                self.outcome.sign_requests = self.outcome.sign_requests.saturating_add(1);
                let sig = (self.flags & 8 == 0).then(|| CLIENT_SIGNATURE.to_vec());
                c.complete_sign(sig)?;
            }
            Event::HandshakeDone(summary) => {
                self.outcome.handshake_done = true;
                self.outcome.resumed |= summary.resumed;
                c.send(REQUEST)?;
                if self.flags & 0x10 != 0 {
                    // Misuse is TLS 1.2's answer (no KeyUpdate there): not a failure.
                    match c.update_keys(self.flags & 0x20 != 0) {
                        Ok(()) | Err(Error::Misuse) => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            Event::Plaintext(n) => {
                assert_eq!(c.plaintext().len(), n, "the event names the lent length");
                self.outcome.app_bytes = self.outcome.app_bytes.saturating_add(n);
                c.consume_plaintext(n);
                // Answer like an HTTP client that pipelines: more data after each response.
                c.send(REQUEST)?;
            }
            Event::NewSessionTicket(t) => {
                self.outcome.tickets = self.outcome.tickets.saturating_add(1);
                self.ticket = Some(t);
            }
            Event::PeerClosed => self.outcome.peer_closed = true,
            Event::TrafficKey(_) => {}
            Event::NeedOpen(_) => {
                let authentic = c
                    .open_buffer()
                    .and_then(|b| {
                        b.len()
                            .checked_sub(NULL_TAG.len())
                            .and_then(|at| b.get(at..))
                    })
                    .is_some_and(|tag| tag == NULL_TAG);
                c.complete_open(authentic)?;
            }
            Event::NeedSeal(_) => seal(c)?,
        }
        let _ = c.take_key_log();
        Ok(true)
    }
}

/// After a failure the fatal alert may wait as a seal job: seal it and flush, as a caller
/// that stopped polling must.
fn flush_after_error(c: &mut Connection) {
    if c.error().is_some() {
        while c.pending_seal().is_some() {
            if seal(c).is_err() {
                break;
            }
        }
    }
    let _ = c.take_transmit();
}

/// The null seal: the inner plaintext stays, [`NULL_TAG`] goes into the tag's place.
fn seal(c: &mut Connection) -> Result<(), Error> {
    if let Some(b) = c.seal_buffer() {
        let at = b.len().saturating_sub(NULL_TAG.len());
        for (dst, src) in b.iter_mut().skip(at).zip(NULL_TAG) {
            *dst = src;
        }
    }
    c.complete_seal()
}
