//! A scripted hostile TLS 1.2 server: it answers the client's real (1.3 + 1.2) ClientHello with
//! a TLS 1.2 flight it computes itself (ECDHE X25519, Ed25519-signed ServerKeyExchange,
//! ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, EMS), then misbehaves in one way per test. Each
//! misbehaviour must fail with the right typed error and alert, never panic.
#![cfg(not(target_arch = "wasm32"))]
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

use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::hash::{self, HashAlgorithm};
use burrow_crypto::kx::{Group, KeyShare};
use burrow_crypto::prf;
use burrow_handshake::*;
use burrow_record::{ContentType, Next, RecordReader, RecordWriter, TrafficKeys};
use burrow_testkit::hex;
use common::server::{ext, msg, pump, Server, NOW};
use ed25519_dalek::Signer;

const H: HashAlgorithm = HashAlgorithm::Sha256;
const SUITE: u16 = 0xc02b;

fn vec_n(n: usize, b: &[u8]) -> Vec<u8> {
    let mut v = (b.len() as u32).to_be_bytes()[4 - n..].to_vec();
    v.extend_from_slice(b);
    v
}

fn plain_record(ct: u8, body: &[u8]) -> Vec<u8> {
    let mut r = vec![ct, 3, 3];
    r.extend_from_slice(&(body.len() as u16).to_be_bytes());
    r.extend_from_slice(body);
    r
}

fn client_with(profile: Profile, require_ems: bool) -> (Connection, Vec<u8>) {
    client_config(profile, require_ems, false)
}

fn client_config(profile: Profile, require_ems: bool, key_log: bool) -> (Connection, Vec<u8>) {
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.require_extended_master_secret = require_ems;
    cfg.key_log = key_log;
    let mut c = Connection::new(cfg, entropy, NOW).unwrap();
    let ch = c.take_transmit();
    (c, ch)
}

/// What the scripted server changes.
#[derive(Clone, Copy, Default)]
struct Script {
    no_ems: bool,
    no_reneg: bool,
    corrupt_ske_sig: bool,
    corrupt_finished: bool,
    random_tail: Option<[u8; 8]>,
    suite: Option<u16>,
    ticket: bool,
}

struct Srv12 {
    inner: Server,
    transcript: Vec<u8>,
    client_random: [u8; 32],
    server_random: [u8; 32],
    share: KeyShare,
    script: Script,
    master: Vec<u8>,
    reader: RecordReader,
    writer: RecordWriter,
}

impl Srv12 {
    fn new(ch_record: &[u8], script: Script) -> Self {
        let inner = Server::new(ch_record);
        let ch = ch_record[5..].to_vec();
        let mut server_random = [7u8; 32];
        if let Some(t) = script.random_tail {
            server_random[24..].copy_from_slice(&t);
        }
        Self {
            client_random: ch[6..38].try_into().unwrap(),
            transcript: ch,
            inner,
            server_random,
            share: KeyShare::from_seed(Group::X25519, &[9u8; 32]).unwrap(),
            script,
            master: Vec::new(),
            reader: RecordReader::new(),
            writer: RecordWriter::new(),
        }
    }

    /// ServerHello, Certificate, ServerKeyExchange, ServerHelloDone as one plaintext record.
    fn first_flight(&mut self) -> Vec<u8> {
        let mut exts = Vec::new();
        if !self.script.no_reneg {
            exts.push(ext(0xff01, &[0]));
        }
        if !self.script.no_ems {
            exts.push(ext(23, &[]));
        }
        exts.push(ext(11, &[1, 0]));
        if self.script.ticket {
            exts.push(ext(35, &[]));
        }
        let mut sh = vec![3, 3];
        sh.extend_from_slice(&self.server_random);
        sh.push(0);
        sh.extend_from_slice(&self.script.suite.unwrap_or(SUITE).to_be_bytes());
        sh.push(0);
        sh.extend(vec_n(2, &exts.concat()));
        let sh = msg(2, &sh);
        let cert = msg(11, &vec_n(3, &vec_n(3, &self.inner.certificate_der())));
        let mut params = vec![3, 0x00, 0x1d];
        params.extend(vec_n(1, self.share.public_key()));
        let mut signed = self.client_random.to_vec();
        signed.extend_from_slice(&self.server_random);
        signed.extend_from_slice(&params);
        let mut sig = self.inner.signing_key.sign(&signed).to_bytes().to_vec();
        if self.script.corrupt_ske_sig {
            sig[10] ^= 1;
        }
        let mut ske = params;
        ske.extend_from_slice(&[0x08, 0x07]);
        ske.extend(vec_n(2, &sig));
        let ske = msg(12, &ske);
        let shd = msg(14, &[]);
        let all = [sh, cert, ske, shd].concat();
        self.transcript.extend_from_slice(&all);
        plain_record(22, &all)
    }

    /// Reads the client's CKE / CCS / Finished, checks them, answers CCS + Finished.
    fn second_flight(&mut self, sent: &[u8]) -> Vec<u8> {
        let mut r = RecordReader::new();
        r.set_deliver_ccs(true);
        r.feed(sent).unwrap();
        let cke = match r.next_record().unwrap() {
            Next::Record(p) => {
                assert_eq!(p.content_type, ContentType::HANDSHAKE);
                p.data.to_vec()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(cke[0], 16, "ClientKeyExchange");
        self.transcript.extend_from_slice(&cke);
        let pms = self.share.complete(&cke[5..]).unwrap();
        let mut master = vec![0u8; 48];
        if self.script.no_ems {
            let seed = [self.client_random, self.server_random].concat();
            prf::tls12(H, pms.as_ref(), b"master secret", &seed, &mut master).unwrap();
        } else {
            let sh = hash::digest(H, &self.transcript);
            prf::tls12(
                H,
                pms.as_ref(),
                b"extended master secret",
                sh.as_ref(),
                &mut master,
            )
            .unwrap();
        }
        let seed = [self.server_random, self.client_random].concat();
        let mut kb = vec![0u8; 40];
        prf::tls12(H, &master, b"key expansion", &seed, &mut kb).unwrap();
        let (ck, sk, civ, siv) = (&kb[..16], &kb[16..32], &kb[32..36], &kb[36..40]);
        match r.next_record().unwrap() {
            Next::Record(p) => assert_eq!(p.content_type, ContentType::CHANGE_CIPHER_SPEC),
            other => panic!("{other:?}"),
        }
        let ckeys = TrafficKeys::new_tls12(AeadAlgorithm::Aes128Gcm, ck, civ, 0).unwrap();
        r.set_keys(Some(ckeys));
        let fin = match r.next_record().unwrap() {
            Next::Record(p) => p.data.to_vec(),
            other => panic!("{other:?}"),
        };
        let th = hash::digest(H, &self.transcript);
        let mut want = [0u8; 12];
        prf::tls12(H, &master, b"client finished", th.as_ref(), &mut want).unwrap();
        assert_eq!(fin, msg(20, &want), "client Finished verifies");
        self.transcript.extend_from_slice(&fin);
        self.reader = r;
        self.master = master;
        let mut out = Vec::new();
        if self.script.ticket {
            let mut nst = 300u32.to_be_bytes().to_vec();
            nst.extend(vec_n(2, b"opaque ticket"));
            let nst = msg(4, &nst);
            self.transcript.extend_from_slice(&nst);
            out.extend(plain_record(22, &nst));
        }
        let th = hash::digest(H, &self.transcript);
        let mut vd = [0u8; 12];
        prf::tls12(H, &self.master, b"server finished", th.as_ref(), &mut vd).unwrap();
        if self.script.corrupt_finished {
            vd[0] ^= 1;
        }
        out.extend(plain_record(20, &[1]));
        self.writer.set_keys(Some(
            TrafficKeys::new_tls12(AeadAlgorithm::Aes128Gcm, sk, siv, 0).unwrap(),
        ));
        self.writer
            .write(ContentType::HANDSHAKE, &msg(20, &vd), &mut out)
            .unwrap();
        out
    }

    fn seal(&mut self, ct: ContentType, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        self.writer.write(ct, data, &mut out).unwrap();
        out
    }

    fn open_client(&mut self, sent: &[u8]) -> Vec<(u8, Vec<u8>)> {
        self.reader.feed(sent).unwrap();
        let mut out = Vec::new();
        while let Next::Record(p) = self.reader.next_record().unwrap() {
            out.push((p.content_type.0, p.data.to_vec()));
        }
        out
    }
}

fn plaintext_alert(sent: &[u8]) -> Option<(u8, u8)> {
    let at = sent.windows(5).position(|w| w == [21, 3, 3, 0, 2])?;
    Some((sent[at + 5], sent[at + 6]))
}

fn start(script: Script) -> (Connection, Srv12, Result<Vec<Event>, Error>, Vec<u8>) {
    let (mut c, ch) = client_with(Profile::default_web(), false);
    let mut srv = Srv12::new(&ch, script);
    let flight = srv.first_flight();
    let (r, sent) = pump(&mut c, &flight);
    (c, srv, r, sent)
}

fn connected() -> (Connection, Srv12) {
    let (mut c, mut srv, r, sent) = start(Script::default());
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    let (r, _) = pump(&mut c, &reply);
    let evs = r.unwrap();
    match &evs[..] {
        [Event::HandshakeDone(s)] => {
            assert_eq!(s.cipher_suite, CipherSuite(SUITE));
            assert_eq!(s.group, NamedGroup::X25519);
            assert_eq!(s.extended_master_secret, Some(true));
        }
        other => panic!("{other:?}"),
    }
    assert!(c.take_key_log().is_empty(), "no key log unless asked for");
    (c, srv)
}

/// The key log's CLIENT_RANDOM line carries the master secret the scripted server computed on
/// its own (extended, or the RFC 5246 form when the server has no EMS).
fn key_log_master_secret(no_ems: bool) {
    let (mut c, ch) = client_config(Profile::default_web(), false, true);
    let mut srv = Srv12::new(
        &ch,
        Script {
            no_ems,
            ..Script::default()
        },
    );
    let flight = srv.first_flight();
    let (r, sent) = pump(&mut c, &flight);
    assert_eq!(r.unwrap(), vec![]);
    let log = c.take_key_log();
    let reply = srv.second_flight(&sent);
    assert_eq!(srv.master.len(), 48);
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].label, "CLIENT_RANDOM");
    assert_eq!(log[0].client_random, srv.client_random);
    assert_eq!(log[0].secret, srv.master);
    assert_eq!(
        log[0].to_line(),
        format!(
            "CLIENT_RANDOM {} {}",
            hex::encode(&srv.client_random),
            hex::encode(&srv.master)
        )
    );
    let evs = pump(&mut c, &reply).0.unwrap();
    assert!(matches!(evs[..], [Event::HandshakeDone(_)]), "{evs:?}");
    assert!(c.take_key_log().is_empty(), "logged once");
}

#[test]
fn key_log_extended_master_secret() {
    key_log_master_secret(false);
}

#[test]
fn key_log_master_secret_without_ems() {
    key_log_master_secret(true);
}

#[test]
fn positive_control_tls12_handshake_and_data() {
    let (mut c, mut srv) = connected();
    let rec = srv.seal(ContentType::APPLICATION_DATA, b"hello 1.2");
    let (r, _) = pump(&mut c, &rec);
    assert_eq!(r.unwrap(), vec![Event::Plaintext(9)]);
    assert_eq!(common::received(), b"hello 1.2");
    c.send(b"ping").unwrap();
    let out = c.take_transmit();
    assert_eq!(srv.open_client(&out), vec![(23, b"ping".to_vec())]);
    c.close();
    let out = c.take_transmit();
    assert_eq!(srv.open_client(&out), vec![(21, vec![1, 0])]);
}

#[test]
fn hello_request_after_the_handshake_is_refused_with_no_renegotiation() {
    let (mut c, mut srv) = connected();
    for _ in 0..4 {
        let hr = srv.seal(ContentType::HANDSHAKE, &[0, 0, 0, 0]);
        let (r, sent) = pump(&mut c, &hr);
        assert_eq!(r.unwrap(), vec![]);
        // warning(1) no_renegotiation(100); the connection stays usable.
        assert_eq!(srv.open_client(&sent), vec![(21, vec![1, 100])]);
    }
    let rec = srv.seal(ContentType::APPLICATION_DATA, b"still here");
    assert_eq!(pump(&mut c, &rec).0.unwrap(), vec![Event::Plaintext(10)]);
    assert_eq!(common::received(), b"still here");
    // A server that keeps insisting is cut off.
    let hr = srv.seal(ContentType::HANDSHAKE, &[0, 0, 0, 0]);
    let (r, sent) = pump(&mut c, &hr);
    assert_eq!(r.unwrap_err(), Error::UnexpectedMessage);
    assert_eq!(srv.open_client(&sent), vec![(21, vec![2, 10])]);
}

#[test]
fn bad_server_key_exchange_signature() {
    let (_, _, r, sent) = start(Script {
        corrupt_ske_sig: true,
        ..Script::default()
    });
    assert_eq!(r.unwrap_err(), Error::BadKeyExchangeSignature);
    assert_eq!(plaintext_alert(&sent), Some((2, 51)), "fatal decrypt_error");
    assert_eq!(
        Error::BadKeyExchangeSignature.code(),
        "TLS12_BAD_KEY_EXCHANGE_SIGNATURE"
    );
}

#[test]
fn bad_server_finished() {
    let (mut c, mut srv, r, sent) = start(Script {
        corrupt_finished: true,
        ..Script::default()
    });
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    let (r, sent) = pump(&mut c, &reply);
    assert_eq!(r.unwrap_err(), Error::BadFinished);
    // The alert goes under the client's write keys.
    assert_eq!(srv.open_client(&sent), vec![(21, vec![2, 51])]);
}

#[test]
fn missing_extended_master_secret_is_refused_when_required() {
    let (mut c, ch) = client_with(Profile::default_web(), true);
    let mut srv = Srv12::new(
        &ch,
        Script {
            no_ems: true,
            ..Script::default()
        },
    );
    let (r, sent) = pump(&mut c, &srv.first_flight());
    assert_eq!(r.unwrap_err(), Error::ExtendedMasterSecretMissing);
    assert_eq!(plaintext_alert(&sent), Some((2, 40)), "handshake_failure");
    assert_eq!(
        Error::ExtendedMasterSecretMissing.code(),
        "TLS12_NO_EXTENDED_MASTER_SECRET"
    );
    assert!(
        Error::ExtendedMasterSecretMissing
            .to_string()
            .contains("require_extended_master_secret"),
        "the message names the option"
    );
}

/// The default accepts a server without EMS (as curl, browsers, rustls and Go do), says so in
/// the summary, and drops the ticket the server issues: such a session is never resumed.
#[test]
fn missing_extended_master_secret_accepted_by_default_but_not_resumable() {
    let (mut c, mut srv, r, sent) = start(Script {
        no_ems: true,
        ticket: true,
        ..Script::default()
    });
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    let evs = pump(&mut c, &reply).0.unwrap();
    match &evs[..] {
        [Event::HandshakeDone(s)] => assert_eq!(s.extended_master_secret, Some(false)),
        other => panic!("no ticket may come out of a session without EMS: {other:?}"),
    }
}

/// The same server with EMS: its ticket does come out (the control for the test above).
#[test]
fn ticket_issued_when_extended_master_secret_was_used() {
    let (mut c, mut srv, r, sent) = start(Script {
        ticket: true,
        ..Script::default()
    });
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    let evs = pump(&mut c, &reply).0.unwrap();
    assert!(
        matches!(&evs[..], [Event::HandshakeDone(s), Event::NewSessionTicket(_)] if s.extended_master_secret == Some(true)),
        "{evs:?}"
    );
}

#[test]
fn missing_renegotiation_info() {
    let (_, _, r, sent) = start(Script {
        no_reneg: true,
        ..Script::default()
    });
    assert_eq!(r.unwrap_err(), Error::InsecureRenegotiation);
    assert_eq!(plaintext_alert(&sent), Some((2, 40)));
}

#[test]
fn downgrade_sentinel_in_a_tls12_server_hello() {
    for tail in [*b"DOWNGRD\x01", *b"DOWNGRD\x00"] {
        let (_, _, r, sent) = start(Script {
            random_tail: Some(tail),
            ..Script::default()
        });
        assert_eq!(r.unwrap_err(), Error::Downgrade);
        assert_eq!(plaintext_alert(&sent), Some((2, 47)), "illegal_parameter");
    }
}

#[test]
fn cipher_not_offered_and_legacy_cipher() {
    // CBC suite, not in the profile.
    let (_, _, r, sent) = start(Script {
        suite: Some(0xc013),
        ..Script::default()
    });
    assert_eq!(r.unwrap_err(), Error::UnofferedCipherSuite);
    assert_eq!(plaintext_alert(&sent), Some((2, 47)));
    // A TLS 1.3 suite in a TLS 1.2 ServerHello.
    let (_, _, r, _) = start(Script {
        suite: Some(0x1301),
        ..Script::default()
    });
    assert_eq!(r.unwrap_err(), Error::IllegalParameter);
    // A profile that lists RSA key transport (for a fingerprint) still refuses it.
    let mut p = Profile::default_web();
    p.cipher_suites.push(CipherSuite(0x009c));
    // Refused at configuration time unless the profile says so.
    let pool = vec![0u8; Entropy::pool_len(&p)];
    let e = Connection::new(
        Config::new(p.clone(), Some("example.test")),
        Entropy::from_pool(&p, &pool).unwrap(),
        NOW,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::ProfileUnperformable(Unperformable::CipherSuite(CipherSuite(0x009c)))
    );
    assert_eq!(e.code(), "TLS_PROFILE_UNPERFORMABLE");
    assert!(e.to_string().contains("0x009c") && e.to_string().contains("allow_unperformable"));
    p.allow_unperformable = true;
    let (mut c, ch) = client_with(p, false);
    let mut srv = Srv12::new(
        &ch,
        Script {
            suite: Some(0x009c),
            ..Script::default()
        },
    );
    let flight = srv.first_flight();
    let (r, sent) = pump(&mut c, &flight);
    assert_eq!(r.unwrap_err(), Error::LegacyCipherSuite);
    assert_eq!(plaintext_alert(&sent), Some((2, 40)));
}

#[test]
fn tls12_flight_under_every_chunking() {
    let (c0, mut srv, _, _) = start(Script::default());
    drop(c0);
    let flight = srv.first_flight_again();
    for step in [1usize, 3, 50, flight.len()] {
        let (mut c, _) = client_with(Profile::default_web(), false);
        let mut sent = Vec::new();
        for chunk in flight.chunks(step) {
            let (r, s) = pump(&mut c, chunk);
            assert_eq!(r.unwrap(), vec![], "step {step}");
            sent.extend(s);
        }
        assert!(sent.starts_with(&[22, 3, 3]), "ClientKeyExchange sent");
        assert!(
            sent.windows(6).any(|w| w == [20, 3, 3, 0, 1, 1]),
            "ChangeCipherSpec sent"
        );
    }
}

impl Srv12 {
    /// The first flight again for a fresh client with the same entropy (same ClientHello).
    fn first_flight_again(&mut self) -> Vec<u8> {
        let (_, ch) = client_with(Profile::default_web(), false);
        let mut s = Srv12::new(&ch, self.script);
        s.first_flight()
    }
}

/// (client result, bytes the client sent, server key block, transcript || master secret).
type Resumed = (Result<Vec<Event>, Error>, Vec<u8>, Vec<u8>, Vec<u8>);

/// A full handshake with a ticket, then a resumption offering it: the client's ClientHello
/// carries the ticket and the server answers with an abbreviated handshake.
fn ticket_then_resume(corrupt_finished: bool, server_ems: bool) -> Resumed {
    let script = Script {
        ticket: true,
        ..Script::default()
    };
    let (mut c, mut srv, r, sent) = start(script);
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    let evs = pump(&mut c, &reply).0.unwrap();
    let ticket = match &evs[..] {
        [Event::HandshakeDone(_), Event::NewSessionTicket(t)] => t.clone(),
        other => panic!("{other:?}"),
    };
    assert!(ticket.is_tls12());
    assert_eq!(ticket.identity(), b"opaque ticket");
    let master = srv.master.clone();
    let profile = Profile::default_web();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x33)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.resumption = Some(ticket);
    cfg.key_log = true;
    let mut c = Connection::new(cfg, entropy, NOW + 1000).unwrap();
    let ch_rec = c.take_transmit();
    let mut ticket_ext = vec![0x00, 0x23];
    ticket_ext.extend(vec_n(2, b"opaque ticket"));
    assert!(
        ch_rec.windows(ticket_ext.len()).any(|w| w == ticket_ext),
        "the ClientHello offers the ticket"
    );
    let ch = ch_rec[5..].to_vec();
    let client_random: [u8; 32] = ch[6..38].try_into().unwrap();
    let sid = Server::new(&ch_rec).session_id;
    assert_eq!(sid.len(), 32);
    let server_random = [8u8; 32];
    let mut sh = vec![3, 3];
    sh.extend_from_slice(&server_random);
    sh.extend(vec_n(1, &sid));
    sh.extend_from_slice(&SUITE.to_be_bytes());
    sh.push(0);
    let mut exts = ext(0xff01, &[0]);
    if server_ems {
        exts.extend(ext(23, &[]));
    }
    sh.extend(vec_n(2, &exts));
    let sh = msg(2, &sh);
    let mut transcript = [ch, sh.clone()].concat();
    let seed = [server_random, client_random].concat();
    let mut kb = vec![0u8; 40];
    prf::tls12(H, &master, b"key expansion", &seed, &mut kb).unwrap();
    let th = hash::digest(H, &transcript);
    let mut vd = [0u8; 12];
    prf::tls12(H, &master, b"server finished", th.as_ref(), &mut vd).unwrap();
    if corrupt_finished {
        vd[3] ^= 4;
    }
    let sfin = msg(20, &vd);
    transcript.extend_from_slice(&sfin);
    let mut w = RecordWriter::new();
    w.set_keys(Some(
        TrafficKeys::new_tls12(AeadAlgorithm::Aes128Gcm, &kb[16..32], &kb[36..40], 0).unwrap(),
    ));
    let mut bytes = plain_record(22, &sh);
    bytes.extend(plain_record(20, &[1]));
    w.write(ContentType::HANDSHAKE, &sfin, &mut bytes).unwrap();
    let (r, sent) = pump(&mut c, &bytes);
    if !server_ems {
        return (r, sent, kb, Vec::new());
    }
    // The resumed session's master secret is logged under the new client random (logged when
    // the server accepts the ticket, before its Finished is checked).
    let log = c.take_key_log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(
        (log[0].label, log[0].client_random, &log[0].secret),
        ("CLIENT_RANDOM", client_random, &master)
    );
    (r, sent, kb, [transcript, master].concat())
}

#[test]
fn ticket_resumption_abbreviated_handshake() {
    let (r, sent, kb, tm) = ticket_then_resume(false, true);
    let evs = r.unwrap();
    match &evs[..] {
        [Event::HandshakeDone(s)] => assert!(s.resumed, "abbreviated handshake"),
        other => panic!("{other:?}"),
    }
    let (transcript, master) = tm.split_at(tm.len() - 48);
    // The client answers with CCS and its Finished under its new keys.
    let mut r = RecordReader::new();
    r.set_deliver_ccs(true);
    r.feed(&sent).unwrap();
    match r.next_record().unwrap() {
        Next::Record(p) => assert_eq!(p.content_type, ContentType::CHANGE_CIPHER_SPEC),
        other => panic!("{other:?}"),
    }
    r.set_keys(Some(
        TrafficKeys::new_tls12(AeadAlgorithm::Aes128Gcm, &kb[..16], &kb[32..36], 0).unwrap(),
    ));
    let fin = match r.next_record().unwrap() {
        Next::Record(p) => p.data.to_vec(),
        other => panic!("{other:?}"),
    };
    let th = hash::digest(H, transcript);
    let mut want = [0u8; 12];
    prf::tls12(H, master, b"client finished", th.as_ref(), &mut want).unwrap();
    assert_eq!(fin, msg(20, &want));
}

#[test]
fn ticket_resumption_with_bad_server_finished() {
    let (r, _, _, _) = ticket_then_resume(true, true);
    assert_eq!(r.unwrap_err(), Error::BadFinished);
}

/// RFC 7627 §5.3: the ticket's session used EMS, the abbreviated ServerHello drops it: the
/// client aborts rather than resume a session without EMS.
#[test]
fn ticket_resumption_without_extended_master_secret_is_refused() {
    let (r, _, _, _) = ticket_then_resume(false, false);
    assert_eq!(r.unwrap_err(), Error::IllegalParameter);
}

/// The whole TLS 1.2 handshake and data with every record AEAD done by the caller (offload
/// mode, 13-byte AAD jobs): the scripted server sees exactly what inline mode produces.
#[test]
fn offloaded_aead_tls12_handshake_and_data() {
    use common::rfc8448::drain_offload;
    let profile = Profile::default_web();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.aead_offload = true;
    let mut c = Connection::new(cfg, entropy, NOW).unwrap();
    let ch = c.take_transmit();
    let mut srv = Srv12::new(&ch, Script::default());
    let (mut keys, mut jobs) = (std::collections::HashMap::new(), 0usize);
    let mut sent = Vec::new();
    c.feed(&srv.first_flight()).unwrap();
    let evs = drain_offload(&mut c, NOW, &mut sent, &mut keys, &mut jobs).unwrap();
    assert!(matches!(evs[..], [Event::NeedVerify(_)]), "{evs:?}");
    c.complete(Answer::Verified).unwrap();
    let evs = drain_offload(&mut c, NOW, &mut sent, &mut keys, &mut jobs).unwrap();
    assert_eq!(evs, vec![]);
    assert_eq!(jobs, 1, "the client Finished was sealed by the caller");
    assert_eq!(keys.len(), 2, "both TLS 1.2 keys announced");
    let reply = srv.second_flight(&sent);
    c.feed(&reply).unwrap();
    let evs = drain_offload(&mut c, NOW, &mut sent, &mut keys, &mut jobs).unwrap();
    assert!(matches!(evs[..], [Event::HandshakeDone(_)]), "{evs:?}");
    assert_eq!(jobs, 2, "the server Finished was opened by the caller");
    c.feed(&srv.seal(ContentType::APPLICATION_DATA, b"offloaded"))
        .unwrap();
    let evs = drain_offload(&mut c, NOW, &mut sent, &mut keys, &mut jobs).unwrap();
    assert_eq!(evs, vec![Event::Plaintext(9)]);
    assert_eq!(common::received(), b"offloaded");
    c.send(b"pong").unwrap();
    let mut out = Vec::new();
    drain_offload(&mut c, NOW, &mut out, &mut keys, &mut jobs).unwrap();
    assert_eq!(srv.open_client(&out), vec![(23, b"pong".to_vec())]);
}

/// A profile naming a group burrow does not implement fails with a code naming the group, not
/// as an API misuse; P-521 is implemented and makes a 133-byte share.
#[test]
fn unsupported_groups_have_their_own_code_and_p521_is_supported() {
    let mut profile = Profile::default_web();
    profile.key_shares = vec![NamedGroup(0x0100)]; // ffdhe2048
    profile.groups = vec![NamedGroup(0x0100)];
    let pool = vec![0x42u8; Entropy::pool_len(&profile)];
    let e = Entropy::from_pool(&profile, &pool).unwrap_err();
    assert_eq!(e, Error::UnsupportedGroup(NamedGroup(0x0100)));
    assert_eq!(e.code(), "TLS_UNSUPPORTED_GROUP");
    assert!(e.to_string().contains("0x0100"), "{e}");

    profile.key_shares = vec![NamedGroup::SECP521R1];
    profile.groups = vec![NamedGroup::SECP521R1];
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut c = Connection::new(Config::new(profile, Some("example.test")), entropy, NOW).unwrap();
    let ch = c.take_transmit();
    // key_share entry: group 0x0019, length 133, uncompressed point.
    assert!(
        ch.windows(5).any(|w| w == [0x00, 0x19, 0x00, 0x85, 0x04]),
        "a P-521 key share is offered"
    );
}

#[test]
fn hello_requests_during_the_handshake_are_capped() {
    // Ignored while the client waits for the server's ChangeCipherSpec, but not without end:
    // they count against the connection's MAX_HELLO_REQUESTS.
    let (mut c, mut srv, r, sent) = start(Script::default());
    assert_eq!(r.unwrap(), vec![]);
    let _ = srv.second_flight(&sent); // learns the client's keys, to read its alert
    let hr = plain_record(22, &[0, 0, 0, 0]);
    for _ in 0..MAX_HELLO_REQUESTS {
        let (r, sent) = pump(&mut c, &hr);
        assert_eq!(r.unwrap(), vec![]);
        assert!(sent.is_empty(), "ignored: no answer during the handshake");
    }
    let (r, sent) = pump(&mut c, &hr);
    assert_eq!(r.unwrap_err(), Error::UnexpectedMessage);
    assert_eq!(srv.open_client(&sent), vec![(21, vec![2, 10])]);
}
