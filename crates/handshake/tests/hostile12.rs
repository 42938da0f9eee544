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

fn vec_len24(b: &[u8]) -> usize {
    u32::from_be_bytes([0, b[0], b[1], b[2]]) as usize
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
    /// Extensions appended to the ServerHello: (type, body).
    sh_exts: &'static [(u16, &'static [u8])],
    /// A CertificateStatus body, sent after Certificate.
    status: Option<&'static [u8]>,
    /// CertificateRequest bodies, sent before ServerHelloDone.
    cert_requests: &'static [&'static [u8]],
    /// ServerKeyExchange (curve_type, group, scheme) instead of (named_curve, x25519, ed25519).
    ske: Option<(u8, u16, u16)>,
    /// The server's ECDHE share is on P-256.
    p256: bool,
    /// The NewSessionTicket's lifetime hint (300 unless set).
    ticket_hint: Option<u32>,
    /// The ServerHelloDone body (empty unless set).
    hello_done_body: &'static [u8],
    /// The ServerHello's compression_method (0 unless set).
    compression: u8,
    /// The length of the server Finished's verify_data (12 unless set).
    finished_len: Option<usize>,
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
            share: if script.p256 {
                KeyShare::from_seed(Group::Secp256r1, &[9u8; 32]).unwrap()
            } else {
                KeyShare::from_seed(Group::X25519, &[9u8; 32]).unwrap()
            },
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
        if !self.script.sh_exts.iter().any(|(t, _)| *t == 11) {
            exts.push(ext(11, &[1, 0]));
        }
        if self.script.ticket {
            exts.push(ext(35, &[]));
        }
        for (t, b) in self.script.sh_exts {
            exts.push(ext(*t, b));
        }
        let mut sh = vec![3, 3];
        sh.extend_from_slice(&self.server_random);
        sh.push(0);
        sh.extend_from_slice(&self.script.suite.unwrap_or(SUITE).to_be_bytes());
        sh.push(self.script.compression);
        sh.extend(vec_n(2, &exts.concat()));
        let sh = msg(2, &sh);
        let cert = msg(11, &vec_n(3, &vec_n(3, &self.inner.certificate_der())));
        let (curve_type, group, scheme) =
            self.script
                .ske
                .unwrap_or((3, self.share.group().codepoint(), 0x0807));
        let mut params = vec![curve_type];
        params.extend_from_slice(&group.to_be_bytes());
        params.extend(vec_n(1, self.share.public_key()));
        let mut signed = self.client_random.to_vec();
        signed.extend_from_slice(&self.server_random);
        signed.extend_from_slice(&params);
        let mut sig = self.inner.signing_key.sign(&signed).to_bytes().to_vec();
        if self.script.corrupt_ske_sig {
            sig[10] ^= 1;
        }
        let mut ske = params;
        ske.extend_from_slice(&scheme.to_be_bytes());
        ske.extend(vec_n(2, &sig));
        let ske = msg(12, &ske);
        let mut all = [sh, cert].concat();
        if let Some(st) = self.script.status {
            all.extend(msg(22, st));
        }
        all.extend(ske);
        for cr in self.script.cert_requests {
            all.extend(msg(13, cr));
        }
        all.extend(msg(14, self.script.hello_done_body));
        self.transcript.extend_from_slice(&all);
        plain_record(22, &all)
    }

    /// Reads the client's CKE / CCS / Finished, checks them, answers CCS + Finished.
    fn second_flight(&mut self, sent: &[u8]) -> Vec<u8> {
        let mut r = RecordReader::new();
        r.set_deliver_ccs(true);
        r.feed(sent).unwrap();
        let mut hs: Vec<u8> = Vec::new();
        loop {
            if hs.first() == Some(&11) && hs.len() >= 7 {
                // Our empty Certificate, in answer to a CertificateRequest.
                assert_eq!(
                    &hs[..7],
                    &[11, 0, 0, 3, 0, 0, 0],
                    "empty client Certificate"
                );
                self.transcript.extend(hs.drain(..7));
            }
            if hs.len() >= 4 && hs.len() == 4 + vec_len24(&hs[1..4]) {
                break;
            }
            match r.next_record().unwrap() {
                Next::Record(p) => {
                    assert_eq!(p.content_type, ContentType::HANDSHAKE);
                    hs.extend_from_slice(p.data);
                }
                other => panic!("{other:?}"),
            }
        }
        let cke = hs;
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
            let mut nst = self
                .script
                .ticket_hint
                .unwrap_or(300)
                .to_be_bytes()
                .to_vec();
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
            .write(
                ContentType::HANDSHAKE,
                &msg(20, &vd[..self.script.finished_len.unwrap_or(12)]),
                &mut out,
            )
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

// ---------------------------------------------------------------------------------------------
// One field wrong at a time, and the optional messages of a TLS 1.2 handshake.

/// The first flight of `script` is refused with `want` and a fatal plaintext alert.
fn refused12(script: Script, want: Error, alert: AlertDescription) {
    let (_, _, r, sent) = start(script);
    assert_eq!(r.unwrap_err(), want);
    assert_eq!(want.alert(), Some(alert));
    assert_eq!(
        plaintext_alert(&sent),
        Some((2, alert.0)),
        "alert for {want:?}"
    );
}

/// The first flight was accepted; `after` (plaintext) is then refused with `want`, the alert
/// under the client's new write keys.
fn refused12_after_first_flight(script: Script, after: &[u8], want: Error) {
    let (mut c, mut srv, r, sent) = start(script);
    assert_eq!(r.unwrap(), vec![]);
    let _ = srv.second_flight(&sent); // learns the client's keys, to read its alert
    let (r, sent) = pump(&mut c, after);
    assert_eq!(r.unwrap_err(), want);
    assert_eq!(
        srv.open_client(&sent),
        vec![(21, vec![2, want.alert().unwrap().0])]
    );
}

#[test]
fn server_hello_extensions_are_checked_in_tls12() {
    use AlertDescription as A;
    let with = |sh_exts: &'static [(u16, &'static [u8])]| Script {
        sh_exts,
        ..Script::default()
    };
    // renegotiated_connection must be empty on an initial handshake.
    refused12(
        Script {
            no_reneg: true,
            sh_exts: &[(0xff01, &[1, 0])],
            ..Script::default()
        },
        Error::InsecureRenegotiation,
        A::HANDSHAKE_FAILURE,
    );
    refused12(
        Script {
            no_ems: true,
            sh_exts: &[(23, &[0])],
            ..Script::default()
        },
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    // No uncompressed point format.
    refused12(
        with(&[(11, &[1, 1])]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    refused12(with(&[(11, &[2, 0])]), Error::Decode, A::DECODE_ERROR);
    refused12(
        with(&[(35, &[0])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    refused12(
        with(&[(5, &[0])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    refused12(
        with(&[(0, &[0])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    refused12(
        with(&[(28, &[0x40, 0])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    refused12(
        with(&[(0x1234, &[])]),
        Error::UnsupportedExtension,
        A::UNSUPPORTED_EXTENSION,
    );
    refused12(
        with(&[(16, b"\x00\x03\x02h2")]),
        Error::UnofferedAlpn,
        A::ILLEGAL_PARAMETER,
    );
    refused12(
        Script {
            compression: 1,
            ..Script::default()
        },
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
}

#[test]
fn a_profile_without_sct_refuses_the_servers_scts() {
    let mut p = Profile::default_web();
    p.extension_order.retain(|s| *s != ExtensionSlot::Sct);
    let (mut c, ch) = client_with(p, false);
    let mut srv = Srv12::new(
        &ch,
        Script {
            sh_exts: &[(18, b"\x00\x00")],
            ..Script::default()
        },
    );
    let (r, sent) = pump(&mut c, &srv.first_flight());
    assert_eq!(r.unwrap_err(), Error::UnsupportedExtension);
    assert_eq!(plaintext_alert(&sent), Some((2, 110)));
}

/// Polls until the NeedVerify request.
fn verify_request12(c: &mut Connection, bytes: &[u8]) -> (VerifyRequest, Vec<u8>) {
    c.feed(bytes).unwrap();
    let mut sent = Vec::new();
    loop {
        match c.poll_event(NOW).unwrap() {
            Event::NeedVerify(r) => return (r, sent),
            Event::Transmit => sent.extend(c.take_transmit()),
            e => panic!("{e:?}"),
        }
    }
}

#[test]
fn stapling_scts_alpn_and_sni_agreed_in_tls12() {
    let script = Script {
        sh_exts: &[
            (5, &[]),
            (18, b"\x00\x03sct"),
            (16, b"\x00\x09\x08http/1.1"),
            (0, &[]),
        ],
        status: Some(&[1, 0, 0, 4, b'O', b'C', b'S', b'P']),
        ..Script::default()
    };
    let (mut c, ch) = client_with(Profile::default_web(), false);
    let mut srv = Srv12::new(&ch, script);
    let (req, _) = verify_request12(&mut c, &srv.first_flight());
    assert_eq!(req.ocsp_response.as_deref(), Some(&b"OCSP"[..]));
    assert_eq!(req.scts.as_deref(), Some(&b"\x00\x03sct"[..]));
    assert_eq!(req.chain, vec![srv.inner.certificate_der()]);
    assert_eq!(req.signed, None, "inline mode checked the signature itself");
    c.complete(Answer::Verified).unwrap();
    let (r, sent) = pump(&mut c, &[]);
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    match &pump(&mut c, &reply).0.unwrap()[..] {
        [Event::HandshakeDone(s)] => assert_eq!(s.alpn.as_deref(), Some(&b"http/1.1"[..])),
        other => panic!("{other:?}"),
    }
}

#[test]
fn certificate_status_is_checked() {
    use AlertDescription as A;
    // Not agreed in the ServerHello.
    refused12(
        Script {
            status: Some(&[1, 0, 0, 1, 9]),
            ..Script::default()
        },
        Error::UnexpectedMessage,
        A::UNEXPECTED_MESSAGE,
    );
    let agreed = |status: &'static [u8]| Script {
        sh_exts: &[(5, &[])],
        status: Some(status),
        ..Script::default()
    };
    refused12(
        agreed(&[2, 0, 0, 1, 9]),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    refused12(agreed(&[1, 0, 0, 0]), Error::Decode, A::DECODE_ERROR);
    refused12(agreed(&[1, 0, 0, 1, 9, 9]), Error::Decode, A::DECODE_ERROR);
}

#[test]
fn a_refusal_of_our_empty_certificate_is_client_cert_required_in_tls12() {
    // OpenSSL answers an empty Certificate with handshake_failure, Go with bad_certificate:
    // in TLS 1.2, after the server asked and we had nothing to send, both mean what TLS 1.3's
    // certificate_required does.
    const CR: &[u8] = &[1, 64, 0, 2, 4, 3, 0, 0];
    for alert in [
        AlertDescription::HANDSHAKE_FAILURE,
        AlertDescription::BAD_CERTIFICATE,
    ] {
        let (mut c, _srv, r, _sent) = start(Script {
            cert_requests: &[CR],
            ..Script::default()
        });
        assert_eq!(r.unwrap(), vec![]);
        let (r, _) = pump(&mut c, &plain_record(21, &[2, alert.0]));
        assert_eq!(r, Err(Error::ClientCertificateRequired), "{alert:?}");
        assert_eq!(
            c.error().map(|e| e.code()),
            Some("TLS_CLIENT_CERT_REQUIRED")
        );
        let msg = Error::ClientCertificateRequired.to_string();
        assert!(
            msg.contains("tls.clientCert") && msg.contains("TlsSettings::client_cert"),
            "{msg}"
        );
    }
    // Without a CertificateRequest the same alert is only the server's refusal.
    let (mut c, _srv, r, _sent) = start(Script::default());
    assert_eq!(r.unwrap(), vec![]);
    let (r, _) = pump(&mut c, &plain_record(21, &[2, 40]));
    assert_eq!(
        r,
        Err(Error::PeerAlert(AlertDescription::HANDSHAKE_FAILURE))
    );
}

#[test]
fn certificate_request_gets_an_empty_certificate_in_tls12() {
    // certificate_types, supported_signature_algorithms, certificate_authorities.
    const CR: &[u8] = &[1, 64, 0, 2, 4, 3, 0, 0];
    let (mut c, mut srv, r, sent) = start(Script {
        cert_requests: &[CR],
        ..Script::default()
    });
    assert_eq!(r.unwrap(), vec![]);
    assert!(
        sent.starts_with(&[22, 3, 3]) && sent[5..12] == [11, 0, 0, 3, 0, 0, 0],
        "an empty Certificate first"
    );
    // second_flight checks the Finished over a transcript with that Certificate in it.
    let reply = srv.second_flight(&sent);
    assert!(matches!(
        pump(&mut c, &reply).0.unwrap()[..],
        [Event::HandshakeDone(_)]
    ));
    refused12(
        Script {
            cert_requests: &[CR, CR],
            ..Script::default()
        },
        Error::UnexpectedMessage,
        AlertDescription::UNEXPECTED_MESSAGE,
    );
    refused12(
        Script {
            cert_requests: &[&[1, 64, 0, 2, 4, 3, 0, 0, 0]],
            ..Script::default()
        },
        Error::Decode,
        AlertDescription::DECODE_ERROR,
    );
}

#[test]
fn server_key_exchange_parameters_are_checked() {
    use AlertDescription as A;
    let ske = |t: (u8, u16, u16)| Script {
        ske: Some(t),
        ..Script::default()
    };
    // x448: not in the profile's groups.
    refused12(
        ske((3, 0x001e, 0x0807)),
        Error::UnofferedGroup,
        A::ILLEGAL_PARAMETER,
    );
    // ecdsa_secp521r1_sha512: not offered.
    refused12(
        ske((3, 0x001d, 0x0603)),
        Error::UnofferedSignatureScheme,
        A::ILLEGAL_PARAMETER,
    );
    // rsa_pss_rsae_sha256 is offered, but cannot sign for an ECDHE_ECDSA suite.
    refused12(
        ske((3, 0x001d, 0x0804)),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
    // explicit_prime curve parameters.
    refused12(
        ske((1, 0x001d, 0x0807)),
        Error::IllegalParameter,
        A::ILLEGAL_PARAMETER,
    );
}

#[test]
fn a_server_picking_p256_gets_a_fresh_p256_share() {
    // The ClientHello has only an X25519 share; P-256 is in supported_groups.
    let (mut c, mut srv, r, sent) = start(Script {
        p256: true,
        ..Script::default()
    });
    assert_eq!(r.unwrap(), vec![]);
    // ClientKeyExchange: a 65-byte uncompressed point.
    assert_eq!(&sent[5..11], &[16, 0, 0, 66, 65, 4]);
    let reply = srv.second_flight(&sent);
    match &pump(&mut c, &reply).0.unwrap()[..] {
        [Event::HandshakeDone(s)] => assert_eq!(s.group, NamedGroup::SECP256R1),
        other => panic!("{other:?}"),
    }
}

fn caller_checked_client() -> (Connection, Srv12, VerifyRequest) {
    let profile = Profile::default_web();
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.signature_check = SignatureCheck::Caller;
    let mut c = Connection::new(cfg, entropy, NOW).unwrap();
    let ch = c.take_transmit();
    let mut srv = Srv12::new(
        &ch,
        Script {
            corrupt_ske_sig: true,
            ..Script::default()
        },
    );
    let (req, _) = verify_request12(&mut c, &srv.first_flight());
    (c, srv, req)
}

#[test]
fn the_caller_checks_the_server_key_exchange_signature() {
    let (mut c, srv, req) = caller_checked_client();
    let signed = req.signed.expect("caller mode hands over the signature");
    assert_eq!(signed.scheme, SignatureScheme::ED25519);
    let mut params = vec![3, 0x00, 0x1d, 32];
    params.extend_from_slice(srv.share.public_key());
    assert_eq!(
        signed.message,
        [&srv.client_random[..], &srv.server_random[..], &params].concat()
    );
    assert_eq!(signed.signature.len(), 64);
    assert_eq!(
        signed.algorithm,
        burrow_crypto::sig::VerifyAlgorithm::Ed25519
    );
    assert!(srv
        .inner
        .certificate_der()
        .windows(signed.spki.len())
        .any(|w| w == signed.spki));
    // The caller finds the (corrupted) signature bad.
    assert_eq!(
        c.complete(Answer::BadSignature).unwrap_err(),
        Error::BadKeyExchangeSignature
    );
    assert_eq!(plaintext_alert(&c.take_transmit()), Some((2, 51)));
    // The caller's verifier rejects the chain.
    let (mut c, _, _) = caller_checked_client();
    let rej = CertRejection {
        code: "CERT_UNTRUSTED",
        alert: AlertDescription::UNKNOWN_CA,
    };
    assert_eq!(
        c.complete(Answer::Rejected(rej)).unwrap_err(),
        Error::CertificateRejected(rej)
    );
    assert_eq!(plaintext_alert(&c.take_transmit()), Some((2, 48)));
}

#[test]
fn messages_out_of_place_in_a_tls12_handshake() {
    // A second ServerHelloDone while waiting for the server's ChangeCipherSpec.
    refused12_after_first_flight(
        Script::default(),
        &plain_record(22, &msg(14, &[])),
        Error::UnexpectedMessage,
    );
    // A NewSessionTicket though none was agreed.
    let mut nst = 300u32.to_be_bytes().to_vec();
    nst.extend(vec_n(2, b"t"));
    refused12_after_first_flight(
        Script::default(),
        &plain_record(22, &msg(4, &nst)),
        Error::UnexpectedMessage,
    );
    // A HelloRequest with a body.
    refused12_after_first_flight(
        Script::default(),
        &plain_record(22, &[0, 0, 0, 1, 0]),
        Error::Decode,
    );
    // A ServerHelloDone with a body.
    refused12(
        Script {
            hello_done_body: &[0],
            ..Script::default()
        },
        Error::Decode,
        AlertDescription::DECODE_ERROR,
    );
}

#[test]
fn a_short_server_finished_is_a_decode_error() {
    let (mut c, mut srv, r, sent) = start(Script {
        finished_len: Some(11),
        ..Script::default()
    });
    assert_eq!(r.unwrap(), vec![]);
    let reply = srv.second_flight(&sent);
    let (r, sent) = pump(&mut c, &reply);
    assert_eq!(r.unwrap_err(), Error::Decode);
    assert_eq!(srv.open_client(&sent), vec![(21, vec![2, 50])]);
}

#[test]
fn ticket_lifetime_hints_are_bounded() {
    const DAY_MS: u64 = 24 * 3600 * 1000;
    // 0 means unspecified: an hour; more than seven days: seven days.
    for (hint, keep_ms) in [
        (0u32, 3600 * 1000u64),
        (30 * 24 * 3600, 7 * DAY_MS),
        (300, 300_000),
    ] {
        let (mut c, mut srv, r, sent) = start(Script {
            ticket: true,
            ticket_hint: Some(hint),
            ..Script::default()
        });
        assert_eq!(r.unwrap(), vec![]);
        let reply = srv.second_flight(&sent);
        let evs = pump(&mut c, &reply).0.unwrap();
        let [Event::HandshakeDone(_), Event::NewSessionTicket(t)] = &evs[..] else {
            panic!("{evs:?}")
        };
        assert!(t.is_tls12());
        assert_eq!(t.cipher_suite(), CipherSuite(SUITE));
        assert!(t.is_usable(NOW + keep_ms - 1), "hint {hint}");
        assert!(!t.is_usable(NOW + keep_ms), "hint {hint}");
    }
}

#[test]
fn after_a_tls12_handshake_only_hello_request_is_answered() {
    let (mut c, mut srv) = connected();
    assert_eq!(
        c.update_keys(false).unwrap_err(),
        Error::Misuse,
        "no KeyUpdate in TLS 1.2"
    );
    let mut out = [0u8; 16];
    assert_eq!(
        c.export_keying_material(b"EXPORTER-x", b"", &mut out)
            .unwrap_err(),
        Error::Misuse
    );
    let rec = srv.seal(ContentType::HANDSHAKE, &msg(20, &[0; 12]));
    let (r, sent) = pump(&mut c, &rec);
    assert_eq!(r.unwrap_err(), Error::UnexpectedMessage);
    assert_eq!(srv.open_client(&sent), vec![(21, vec![2, 10])]);
}

#[test]
fn tls12_server_hello_to_a_client_that_cannot_do_tls12() {
    let mut p = Profile::default_web();
    p.cipher_suites.retain(|s| s.0 >> 8 == 0x13);
    for (tail, want) in [
        (None, Error::ProtocolVersion),
        (Some(*b"DOWNGRD\x01"), Error::Downgrade),
    ] {
        let (mut c, ch) = client_with(p.clone(), false);
        let mut srv = Srv12::new(
            &ch,
            Script {
                random_tail: tail,
                ..Script::default()
            },
        );
        let (r, sent) = pump(&mut c, &srv.first_flight());
        assert_eq!(r.unwrap_err(), want);
        assert_eq!(plaintext_alert(&sent), Some((2, want.alert().unwrap().0)));
    }
}

#[test]
fn tls12_server_hello_after_a_hello_retry_request() {
    let (mut c, ch) = client_with(Profile::default_web(), false);
    let mut srv = Srv12::new(&ch, Script::default());
    let hrr_random: [u8; 32] = [
        0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8,
        0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8,
        0x33, 0x9c,
    ];
    let body = srv.inner.server_hello_body(
        hrr_random,
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &[0x00, 0x17])],
    );
    let (r, _) = pump(&mut c, &plain_record(22, &msg(2, &body)));
    assert_eq!(r.unwrap(), vec![]);
    // A HelloRetryRequest is TLS 1.3 only: the server cannot then pick TLS 1.2.
    let (r, sent) = pump(&mut c, &srv.first_flight());
    assert_eq!(r.unwrap_err(), Error::IllegalParameter);
    assert_eq!(plaintext_alert(&sent), Some((2, 47)));
}

#[test]
fn tls12_alpn_from_a_server_when_none_was_offered() {
    let mut p = Profile::default_web();
    p.alpn.clear();
    let (mut c, ch) = client_with(p, false);
    let mut srv = Srv12::new(
        &ch,
        Script {
            sh_exts: &[(16, b"\x00\x09\x08http/1.1")],
            ..Script::default()
        },
    );
    let (r, sent) = pump(&mut c, &srv.first_flight());
    assert_eq!(r.unwrap_err(), Error::UnsupportedExtension);
    assert_eq!(plaintext_alert(&sent), Some((2, 110)));
}
