//! A scripted TLS 1.3 server for hostile tests: it answers the client's real ClientHello with
//! crafted messages, computing its own key schedule with burrow-crypto.

use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::hash::{self, HashAlgorithm};
use burrow_crypto::kx::{Group, KeyShare};
use burrow_crypto::{hkdf, hmac};
use burrow_handshake::*;
use burrow_record::{ContentType, Next, RecordReader, RecordWriter, TrafficKeys};

pub(crate) const H: HashAlgorithm = HashAlgorithm::Sha256;
pub(crate) const NOW: u64 = 1_700_000_000_000;

pub(crate) fn msg(typ: u8, body: &[u8]) -> Vec<u8> {
    let mut m = vec![typ];
    m.extend_from_slice(&(body.len() as u32).to_be_bytes()[1..]);
    m.extend_from_slice(body);
    m
}

fn vec16(b: &[u8]) -> Vec<u8> {
    let mut v = (b.len() as u16).to_be_bytes().to_vec();
    v.extend_from_slice(b);
    v
}

pub(crate) fn ext(typ: u16, body: &[u8]) -> Vec<u8> {
    let mut v = typ.to_be_bytes().to_vec();
    v.extend(vec16(body));
    v
}

fn expand(secret: &[u8], label: &[u8], ctx: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    hkdf::expand_label(H, secret, label, ctx, &mut out).unwrap();
    out
}

fn derive(secret: &[u8], label: &[u8], transcript: &[u8]) -> Vec<u8> {
    let th = hash::digest(H, transcript);
    expand(secret, label, th.as_ref(), 32)
}

pub(crate) fn keys(secret: &[u8]) -> TrafficKeys {
    TrafficKeys::new(
        AeadAlgorithm::Aes128Gcm,
        &expand(secret, b"key", &[], 16),
        &expand(secret, b"iv", &[], 12),
        0,
    )
    .unwrap()
}

/// The client under test, with a fixed random pool.
pub(crate) fn client(profile: Profile, check: SignatureCheck) -> (Connection, Vec<u8>) {
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|i| i as u8 ^ 0x5a)
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut cfg = Config::new(profile, Some("example.test"));
    cfg.signature_check = check;
    let mut c = Connection::new(cfg, entropy, NOW).unwrap();
    let ch = c.take_transmit();
    (c, ch)
}

pub(crate) struct Server {
    pub(crate) transcript: Vec<u8>,
    pub(crate) session_id: Vec<u8>,
    pub(crate) client_share: Vec<u8>,
    pub(crate) server_hs: Vec<u8>,
    pub(crate) client_hs: Vec<u8>,
    pub(crate) hs_secret: Vec<u8>,
    pub(crate) server_ap: Vec<u8>,
    pub(crate) client_ap: Vec<u8>,
    pub(crate) writer: RecordWriter,
    pub(crate) signing_key: ed25519_dalek::SigningKey,
}

impl Server {
    /// Parses the client's first ClientHello record.
    pub(crate) fn new(ch_record: &[u8]) -> Self {
        let ch = ch_record[5..].to_vec();
        let sid_len = ch[4 + 2 + 32] as usize;
        let session_id = ch[4 + 2 + 32 + 1..4 + 2 + 32 + 1 + sid_len].to_vec();
        // Find the X25519 key share: "001d0020" followed by 32 bytes.
        let at = ch
            .windows(4)
            .position(|w| w == [0x00, 0x1d, 0x00, 0x20])
            .unwrap()
            + 4;
        let client_share = ch[at..at + 32].to_vec();
        Self {
            transcript: ch,
            session_id,
            client_share,
            server_hs: Vec::new(),
            client_hs: Vec::new(),
            hs_secret: Vec::new(),
            server_ap: Vec::new(),
            client_ap: Vec::new(),
            writer: RecordWriter::new(),
            signing_key: ed25519_dalek::SigningKey::from_bytes(&[42u8; 32]),
        }
    }

    /// A ServerHello body with these fields; extensions appended as given.
    pub(crate) fn server_hello_body(
        &self,
        random: [u8; 32],
        suite: u16,
        exts: &[Vec<u8>],
    ) -> Vec<u8> {
        let mut b = vec![3, 3];
        b.extend_from_slice(&random);
        b.push(self.session_id.len() as u8);
        b.extend_from_slice(&self.session_id);
        b.extend_from_slice(&suite.to_be_bytes());
        b.push(0);
        b.extend(vec16(&exts.concat()));
        b
    }

    /// A normal ServerHello (X25519, AES-128-GCM) as a plaintext record; keys computed.
    pub(crate) fn server_hello(&mut self) -> Vec<u8> {
        let share = KeyShare::from_seed(Group::X25519, &[9u8; 32]).unwrap();
        let mut ks = vec![0x00, 0x1d];
        ks.extend(vec16(share.public_key()));
        let body = self.server_hello_body([7u8; 32], 0x1301, &[ext(43, &[3, 4]), ext(51, &ks)]);
        let m = msg(2, &body);
        self.transcript.extend_from_slice(&m);
        let shared = share.complete(&self.client_share).unwrap();
        let zeros = [0u8; 32];
        let early = hkdf::extract(H, &zeros, &zeros);
        let salt = derive(early.as_ref(), b"derived", &[]);
        self.hs_secret = hkdf::extract(H, &salt, shared.as_ref()).as_ref().to_vec();
        self.client_hs = derive(&self.hs_secret, b"c hs traffic", &self.transcript);
        self.server_hs = derive(&self.hs_secret, b"s hs traffic", &self.transcript);
        let mut rec = vec![22, 3, 3];
        rec.extend(vec16(&m));
        rec
    }

    /// Protects `plain` as records of type `ct` under the current server keys.
    pub(crate) fn seal(&mut self, ct: ContentType, plain: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let _ = self.writer.write(ct, plain, &mut out).unwrap();
        out
    }

    /// Handshake messages under the server handshake key (added to the transcript).
    pub(crate) fn flight(&mut self, msgs: &[Vec<u8>]) -> Vec<u8> {
        if self.writer.keys().is_none() {
            self.writer.set_keys(Some(keys(&self.server_hs)));
        }
        let all = msgs.concat();
        self.transcript.extend_from_slice(&all);
        self.seal(ContentType::HANDSHAKE, &all)
    }

    pub(crate) fn encrypted_extensions(exts: &[Vec<u8>]) -> Vec<u8> {
        msg(8, &vec16(&exts.concat()))
    }

    /// A minimal certificate holding the Ed25519 key (enough for SPKI extraction).
    pub(crate) fn certificate_der(&self) -> Vec<u8> {
        use burrow_der::writer::tlv;
        let oid = tlv(0x06, &[0x2b, 0x65, 0x70]);
        let alg = tlv(0x30, &oid);
        let mut bits = vec![0u8];
        bits.extend_from_slice(self.signing_key.verifying_key().as_bytes());
        let spki = tlv(0x30, &[alg.clone(), tlv(0x03, &bits)].concat());
        let tbs = tlv(
            0x30,
            &[
                tlv(0xa0, &tlv(0x02, &[2])),
                tlv(0x02, &[1]),
                alg.clone(),
                tlv(0x30, &[]),
                tlv(0x30, &[]),
                tlv(0x30, &[]),
                spki,
            ]
            .concat(),
        );
        tlv(0x30, &[tbs, alg, tlv(0x03, &[0u8; 65])].concat())
    }

    pub(crate) fn certificate(&self) -> Vec<u8> {
        let der = self.certificate_der();
        let mut entry = (der.len() as u32).to_be_bytes()[1..].to_vec();
        entry.extend_from_slice(&der);
        entry.extend_from_slice(&[0, 0]);
        let mut body = vec![0u8];
        body.extend_from_slice(&(entry.len() as u32).to_be_bytes()[1..]);
        body.extend(entry);
        msg(11, &body)
    }

    /// CertificateVerify over the transcript so far (Ed25519), optionally corrupted.
    pub(crate) fn certificate_verify(&self, corrupt: bool) -> Vec<u8> {
        use ed25519_dalek::Signer;
        let mut content = vec![0x20u8; 64];
        content.extend_from_slice(b"TLS 1.3, server CertificateVerify\0");
        content.extend_from_slice(hash::digest(H, &self.transcript).as_ref());
        let mut sig = self.signing_key.sign(&content).to_bytes().to_vec();
        if corrupt {
            sig[10] ^= 1;
        }
        let mut body = 0x0807u16.to_be_bytes().to_vec();
        body.extend(vec16(&sig));
        msg(15, &body)
    }

    /// The server Finished over the transcript so far, optionally corrupted.
    pub(crate) fn finished(&self, corrupt: bool) -> Vec<u8> {
        let key = expand(&self.server_hs, b"finished", &[], 32);
        let mut mac = hmac::sign(H, &key, hash::digest(H, &self.transcript).as_ref())
            .as_ref()
            .to_vec();
        if corrupt {
            mac[0] ^= 0x80;
        }
        msg(20, &mac)
    }

    /// After a good Finished: switch to application keys (call after `flight` sent Finished).
    pub(crate) fn enter_traffic(&mut self) {
        let salt = derive(&self.hs_secret, b"derived", &[]);
        let master = hkdf::extract(H, &salt, &[0u8; 32]);
        self.client_ap = derive(master.as_ref(), b"c ap traffic", &self.transcript);
        self.server_ap = derive(master.as_ref(), b"s ap traffic", &self.transcript);
        self.writer.set_keys(Some(keys(&self.server_ap)));
    }

    /// Client records opened with `secret` (plaintext change_cipher_spec skipped).
    pub(crate) fn open_client(&self, bytes: &[u8], secret: &[u8]) -> Vec<(u8, Vec<u8>)> {
        let mut r = RecordReader::new();
        r.set_keys(Some(keys(secret)));
        r.set_ccs_allowed(true);
        r.feed(bytes).unwrap();
        let mut out = Vec::new();
        while let Next::Record(p) = r.next_record().unwrap() {
            out.push((p.content_type.0, p.data.to_vec()));
        }
        out
    }
}

/// Feeds `bytes`, polls until error or NeedData, answering NeedVerify with Verified.
pub(crate) fn pump(c: &mut Connection, bytes: &[u8]) -> (Result<Vec<Event>, Error>, Vec<u8>) {
    let mut sent = Vec::new();
    let mut evs = Vec::new();
    if let Err(e) = c.feed(bytes) {
        sent.extend(c.take_transmit());
        return (Err(e), sent);
    }
    loop {
        let r = c.poll_event(NOW);
        sent.extend(c.take_transmit());
        match r {
            Ok(Event::NeedData) => return (Ok(evs), sent),
            Ok(Event::Transmit) => {}
            Ok(Event::NeedVerify(_)) => {
                if let Err(e) = c.complete(Answer::Verified) {
                    sent.extend(c.take_transmit());
                    return (Err(e), sent);
                }
            }
            Ok(Event::Plaintext(n)) => evs.push(super::take_lent(c, n)),
            Ok(e) => evs.push(e),
            Err(e) => return (Err(e), sent),
        }
    }
}
