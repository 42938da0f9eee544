//! Seeds for the connection fuzz targets: whole fuzzer-mode server conversations (null-cipher
//! records, the fixed Finished), answering the driver's own ClientHello for the seed's flags.
//! Written to `fuzz/seeds/<target>/` by `tests/fuzz_seeds.rs`, which also checks they are
//! current; `script/fuzz` replays them under cargo-fuzz and checks each reaches what its
//! name says.

use super::connection::{client, Family, NULL_TAG};
use super::pki::{p256_certificate, tlv};
use crate::fuzz_mode::FINISHED_BYTE;
use crate::Error;
use burrow_crypto::kx::{Group, KeyShare};

/// One seed: its file name (`<expect>.<what>`, `expect` being `app` for "reaches application
/// data", `resumed` for "and a handshake resumed", or the error code it must end with in
/// fuzzer mode) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The file name.
    pub name: String,
    /// The input.
    pub input: Vec<u8>,
}

impl Seed {
    /// What the seed must reach in fuzzer mode: `"app"` or an error code.
    pub fn expect(&self) -> &str {
        self.name.split('.').next().unwrap_or("")
    }
}

/// Parts of the RFC 8448 simple 1-RTT trace (message bodies with their headers, as in the
/// trace) a TLS 1.3 seed is made of when the vectors are at hand.
#[derive(Clone, Debug, Default)]
pub struct Rfc8448 {
    /// The ServerHello record.
    pub server_hello_record: Vec<u8>,
    /// EncryptedExtensions, Certificate, CertificateVerify (the Finished is replaced).
    pub messages: Vec<Vec<u8>>,
    /// The NewSessionTicket message.
    pub new_session_ticket: Vec<u8>,
    /// The server's application data.
    pub app_data: Vec<u8>,
}

const HRR_RANDOM: [u8; 32] = [
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
];
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi";

fn len_prefixed(width: usize, body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX).to_be_bytes();
    let mut v: Vec<u8> = len
        .iter()
        .skip(4_usize.saturating_sub(width))
        .copied()
        .collect();
    v.extend_from_slice(body);
    v
}

fn v8(b: &[u8]) -> Vec<u8> {
    len_prefixed(1, b)
}
fn v16(b: &[u8]) -> Vec<u8> {
    len_prefixed(2, b)
}
fn v24(b: &[u8]) -> Vec<u8> {
    len_prefixed(3, b)
}

fn msg(typ: u8, body: &[u8]) -> Vec<u8> {
    let mut m = vec![typ];
    m.extend(v24(body));
    m
}

fn ext(typ: u16, body: &[u8]) -> Vec<u8> {
    let mut e = typ.to_be_bytes().to_vec();
    e.extend(v16(body));
    e
}

fn plain_record(ct: u8, body: &[u8]) -> Vec<u8> {
    let mut r = vec![ct, 3, 3];
    r.extend(v16(body));
    r
}

/// A TLS 1.3 record under the null cipher: inner plaintext (content, type) and the tag.
fn null13(ct: u8, content: &[u8]) -> Vec<u8> {
    let mut inner = content.to_vec();
    inner.push(ct);
    inner.extend_from_slice(&NULL_TAG);
    plain_record(23, &inner)
}

/// A TLS 1.2 record under the null cipher: the explicit nonce (AES-GCM only), content, tag.
fn null12(ct: u8, content: &[u8], explicit_nonce: bool) -> Vec<u8> {
    let mut body = if explicit_nonce {
        vec![0; 8]
    } else {
        Vec::new()
    };
    body.extend_from_slice(content);
    body.extend_from_slice(&NULL_TAG);
    plain_record(ct, &body)
}

/// A server key share for `group`: a public key, or for the hybrid an ML-KEM ciphertext (any
/// bytes decapsulate, to a pseudorandom secret) and an X25519 key.
fn share(group: Group) -> Vec<u8> {
    if group == Group::X25519MlKem768 {
        let x25519 = share(Group::X25519);
        let mut s = vec![0x42; group.peer_share_len().saturating_sub(x25519.len())];
        s.extend(x25519);
        return s;
    }
    let seed = vec![0x42; group.seed_len()];
    KeyShare::from_seed(group, &seed).map_or_else(|_| Vec::new(), |k| k.public_key().to_vec())
}

/// An ECDSA signature's shape (DER r, s); its value is never checked in fuzzer mode.
fn ecdsa_signature() -> Vec<u8> {
    let int = tlv(0x02, &[0x11; 32]);
    tlv(0x30, &[int.clone(), int].concat())
}

/// The legacy_session_id of the driver's ClientHello for `flags`.
fn session_id(family: Family, flags: u8) -> Result<Vec<u8>, Error> {
    let mut c = client(family, flags)?;
    let ch = c.take_transmit();
    // record header 5, handshake header 4, version 2, random 32: then the session id.
    let at = 5 + 4 + 2 + 32;
    let len = usize::from(*ch.get(at).ok_or(Error::Internal)?);
    let start = at.saturating_add(1);
    ch.get(start..start.saturating_add(len))
        .map(<[u8]>::to_vec)
        .ok_or(Error::Internal)
}

/// An input: flags, split, then the segments.
fn input(flags: u8, split: u8, segments: &[Vec<u8>]) -> Vec<u8> {
    let mut v = vec![flags, split];
    for s in segments {
        v.extend(v16(s));
    }
    v
}

fn seed(name: &str, input: Vec<u8>) -> Seed {
    Seed {
        name: name.to_string(),
        input,
    }
}

/// A TLS 1.3 server conversation's pieces.
struct Srv13 {
    sid: Vec<u8>,
    alpn: &'static [u8],
    suite: u16,
}

impl Srv13 {
    fn new(flags: u8, alpn: &'static [u8]) -> Result<Self, Error> {
        Ok(Self {
            sid: session_id(Family::Tls13, flags)?,
            alpn,
            suite: 0x1301,
        })
    }

    fn hello(&self, random: &[u8; 32], exts: &[Vec<u8>]) -> Vec<u8> {
        let mut b = vec![3, 3];
        b.extend_from_slice(random);
        b.extend(v8(&self.sid));
        b.extend(self.suite.to_be_bytes());
        b.push(0);
        b.extend(v16(&exts.concat()));
        plain_record(22, &msg(2, &b))
    }

    /// ServerHello for `group`, then (in compatibility mode) a change_cipher_spec.
    fn server_hello(&self, group: Group) -> Vec<u8> {
        self.server_hello_psk(group, false)
    }

    /// [`server_hello`](Self::server_hello), selecting our first PSK identity when `psk`.
    fn server_hello_psk(&self, group: Group, psk: bool) -> Vec<u8> {
        let mut ks = group.codepoint().to_be_bytes().to_vec();
        ks.extend(v16(&share(group)));
        let mut exts = vec![ext(43, &[3, 4]), ext(51, &ks)];
        if psk {
            exts.push(ext(41, &[0, 0]));
        }
        let mut r = self.hello(&[0x53; 32], &exts);
        if !self.sid.is_empty() {
            r.extend(plain_record(20, &[1]));
        }
        r
    }

    fn hello_retry(&self, group: Group) -> Vec<u8> {
        let ks = group.codepoint().to_be_bytes();
        self.hello(
            &HRR_RANDOM,
            &[
                ext(43, &[3, 4]),
                ext(51, &ks),
                ext(44, &v16(b"fuzz-cookie")),
            ],
        )
    }

    fn encrypted_extensions(&self) -> Vec<u8> {
        let alpn = ext(16, &v16(&v8(self.alpn)));
        msg(8, &v16(&alpn))
    }

    fn certificate(cert: &[u8]) -> Vec<u8> {
        let mut entry = v24(cert);
        entry.extend([0, 0]);
        let mut body = vec![0];
        body.extend(v24(&entry));
        msg(11, &body)
    }

    fn certificate_verify() -> Vec<u8> {
        let mut b = 0x0403u16.to_be_bytes().to_vec();
        b.extend(v16(&ecdsa_signature()));
        msg(15, &b)
    }

    /// The fuzzer-mode Finished: the suite's hash length of [`FINISHED_BYTE`].
    fn finished(&self) -> Vec<u8> {
        let len = if self.suite == 0x1302 { 48 } else { 32 };
        msg(20, &vec![FINISHED_BYTE; len])
    }

    fn certificate_request() -> Vec<u8> {
        let algs = ext(13, &v16(&[0x04, 0x03, 0x08, 0x04]));
        let mut b = v8(&[]);
        b.extend(v16(&algs));
        msg(13, &b)
    }

    fn new_session_ticket() -> Vec<u8> {
        let mut b = 7200u32.to_be_bytes().to_vec();
        b.extend(0x0102_0304u32.to_be_bytes());
        b.extend(v8(&[0]));
        b.extend(v16(&[0x71; 48]));
        b.extend(v16(&[]));
        msg(4, &b)
    }

    /// EncryptedExtensions .. Finished in one record, with `cert_request` before Certificate.
    fn flight(&self, cert_request: bool) -> Vec<u8> {
        let mut m = self.encrypted_extensions();
        if cert_request {
            m.extend(Self::certificate_request());
        }
        m.extend(Self::certificate(&p256_certificate()));
        m.extend(Self::certificate_verify());
        m.extend(self.finished());
        null13(22, &m)
    }

    /// Ticket, data, KeyUpdate (update_requested), data, close_notify: one segment each.
    fn traffic() -> Vec<Vec<u8>> {
        vec![
            null13(22, &Self::new_session_ticket()),
            null13(23, RESPONSE),
            null13(22, &msg(24, &[1])),
            null13(23, RESPONSE),
            null13(21, &[1, 0]),
        ]
    }
}

fn tls13(rfc8448: Option<&Rfc8448>) -> Result<Vec<Seed>, Error> {
    let mut out = Vec::new();
    let s = Srv13::new(0, b"http/1.1")?;
    let mut segs = vec![s.server_hello(Group::X25519), s.flight(false)];
    segs.extend(Srv13::traffic());
    out.push(seed("app.default-web", input(0, 0, &segs)));
    out.push(seed("app.split-5", input(0, 5, &segs)));
    out.push(seed(
        "app.recv-buf-our-key-update-close",
        input(0x70, 0x80, &segs),
    ));
    out.push(seed("app.key-log", input(0x80, 0, &segs)));

    // Every handshake message in its own record, all in one segment.
    let mut one = s.server_hello(Group::X25519);
    for m in [
        s.encrypted_extensions(),
        Srv13::certificate(&p256_certificate()),
        Srv13::certificate_verify(),
        s.finished(),
        Srv13::new_session_ticket(),
    ] {
        one.extend(null13(22, &m));
    }
    one.extend(null13(23, RESPONSE));
    out.push(seed("app.one-record-per-message", input(0, 0, &[one])));

    let mut segs = vec![s.server_hello(Group::X25519), s.flight(true)];
    segs.extend(Srv13::traffic());
    out.push(seed("app.client-auth", input(4, 0, &segs)));
    out.push(seed("app.client-auth-no-certificate", input(0, 0, &segs)));
    out.push(seed(
        "TLS_CLIENT_SIGN_FAILED.client-auth",
        input(4 | 8, 0, &segs),
    ));

    let mut segs = vec![
        s.hello_retry(Group::Secp256r1),
        s.server_hello(Group::Secp256r1),
        s.flight(false),
    ];
    segs.extend(Srv13::traffic());
    out.push(seed("app.hello-retry-p256", input(0, 0, &segs)));

    // A ticket, then a second connection offering it: PSK with (EC)DHE, no certificate.
    let mut segs = vec![s.server_hello(Group::X25519), s.flight(false)];
    segs.extend(Srv13::traffic());
    segs.push(Vec::new());
    segs.push(s.server_hello_psk(Group::X25519, true));
    segs.push(null13(
        22,
        &[s.encrypted_extensions(), s.finished()].concat(),
    ));
    segs.push(null13(23, RESPONSE));
    segs.push(null13(21, &[1, 0]));
    out.push(seed("resumed.psk-dhe", input(0, 0, &segs)));

    let mut segs = vec![s.server_hello(Group::X25519), s.flight(false)];
    segs.push(null13(21, &[2, 40]));
    out.push(seed("TLS_ALERT.fatal-after-handshake", input(0, 0, &segs)));

    // The SHA-384 suite: its Finished is 48 bytes, which a mutation of the suite alone
    // would not find.
    let aes256 = Srv13 {
        suite: 0x1302,
        ..Srv13::new(0, b"http/1.1")?
    };
    let mut segs = vec![aes256.server_hello(Group::X25519), aes256.flight(false)];
    segs.extend(Srv13::traffic());
    out.push(seed("app.aes256-gcm-sha384", input(0, 0, &segs)));

    let chrome = Srv13::new(1, b"h2")?;
    let mut segs = vec![chrome.server_hello(Group::X25519), chrome.flight(false)];
    segs.extend(Srv13::traffic());
    out.push(seed("app.chrome-h2", input(1, 0, &segs)));
    let mut segs = vec![
        chrome.server_hello(Group::X25519MlKem768),
        chrome.flight(false),
    ];
    segs.extend(Srv13::traffic());
    out.push(seed("app.chrome-x25519mlkem768", input(1, 0, &segs)));

    let curl = Srv13::new(3, b"http/1.1")?;
    let mut segs = vec![curl.server_hello(Group::X25519), curl.flight(false)];
    segs.extend(Srv13::traffic());
    out.push(seed("app.curl", input(3, 0, &segs)));

    if let Some(v) = rfc8448 {
        let mut flight: Vec<u8> = v.messages.concat();
        flight.extend(msg(20, &[FINISHED_BYTE; 32]));
        let segs = vec![
            v.server_hello_record.clone(),
            null13(22, &flight),
            null13(22, &v.new_session_ticket),
            null13(23, &v.app_data),
            null13(21, &[1, 0]),
        ];
        out.push(seed("app.rfc8448-simple-1rtt", input(2, 0, &segs)));
    }
    Ok(out)
}

/// A TLS 1.2 server conversation's pieces.
struct Srv12 {
    suite: u16,
    ticket: bool,
    alpn: &'static [u8],
}

impl Srv12 {
    fn explicit_nonce(&self) -> bool {
        // AES-GCM suites carry an 8-byte explicit nonce; ChaCha20-Poly1305 none.
        self.suite != 0xcca9 && self.suite != 0xcca8
    }

    /// A ServerHello with session id `sid` (a new one, or ours echoed to resume).
    fn server_hello(&self, sid: &[u8]) -> Vec<u8> {
        let mut exts = vec![ext(0xff01, &[0]), ext(23, &[]), ext(11, &[1, 0])];
        if self.ticket {
            exts.push(ext(35, &[]));
        }
        exts.push(ext(16, &v16(&v8(self.alpn))));
        let mut sh = vec![3, 3];
        sh.extend_from_slice(&[0x54; 32]);
        sh.extend(v8(sid));
        sh.extend(self.suite.to_be_bytes());
        sh.push(0);
        sh.extend(v16(&exts.concat()));
        msg(2, &sh)
    }

    /// The abbreviated handshake (RFC 5077 §3.1): ServerHello echoing our session id, then
    /// change_cipher_spec and Finished.
    fn resumption(&self, our_sid: &[u8]) -> Vec<u8> {
        let mut r = plain_record(22, &self.server_hello(our_sid));
        r.extend(plain_record(20, &[1]));
        r.extend(null12(
            22,
            &msg(20, &[FINISHED_BYTE; 12]),
            self.explicit_nonce(),
        ));
        r
    }

    fn first_flight(&self, cert: &[u8], scheme: u16, cert_request: bool) -> Vec<u8> {
        let mut m = self.server_hello(&[0x55; 32]);
        m.extend(msg(11, &v24(&v24(cert))));
        let mut ske = vec![3];
        ske.extend(Group::X25519.codepoint().to_be_bytes());
        ske.extend(v8(&share(Group::X25519)));
        ske.extend(scheme.to_be_bytes());
        let sig = if scheme == 0x0403 {
            ecdsa_signature()
        } else {
            vec![0x33; 128]
        };
        ske.extend(v16(&sig));
        m.extend(msg(12, &ske));
        if cert_request {
            let mut cr = v8(&[1, 64]);
            cr.extend(v16(&[0x04, 0x03, 0x08, 0x04]));
            cr.extend(v16(&[]));
            m.extend(msg(13, &cr));
        }
        m.extend(msg(14, &[]));
        plain_record(22, &m)
    }

    /// [NewSessionTicket], change_cipher_spec, Finished.
    fn finish(&self) -> Vec<u8> {
        let mut r = Vec::new();
        if self.ticket {
            let mut nst = 7200u32.to_be_bytes().to_vec();
            nst.extend(v16(&[0x72; 64]));
            r.extend(plain_record(22, &msg(4, &nst)));
        }
        r.extend(plain_record(20, &[1]));
        r.extend(null12(
            22,
            &msg(20, &[FINISHED_BYTE; 12]),
            self.explicit_nonce(),
        ));
        r
    }

    fn traffic(&self) -> Vec<Vec<u8>> {
        let n = self.explicit_nonce();
        vec![
            null12(23, RESPONSE, n),
            null12(23, RESPONSE, n),
            null12(21, &[1, 0], n),
        ]
    }

    fn conversation(&self, cert: &[u8], scheme: u16, cert_request: bool) -> Vec<Vec<u8>> {
        let mut segs = vec![self.first_flight(cert, scheme, cert_request), self.finish()];
        segs.extend(self.traffic());
        segs
    }
}

fn tls12(rsa_certificate: Option<&[u8]>) -> Result<Vec<Seed>, Error> {
    let cert = p256_certificate();
    let gcm = Srv12 {
        suite: 0xc02b,
        ticket: false,
        alpn: b"http/1.1",
    };
    let segs = gcm.conversation(&cert, 0x0403, false);
    let mut out = vec![
        seed("app.ecdhe-ecdsa-aes128gcm", input(0, 0, &segs)),
        seed("app.split-3", input(0, 3, &segs)),
        seed("app.recv-buf-close", input(0x40 | 0x10, 0x80, &segs)),
        seed("app.key-log", input(0x80, 0, &segs)),
        seed("app.curl-7-88", input(2, 0, &segs)),
        seed("app.require-ems", input(3, 0, &segs)),
    ];
    let segs = gcm.conversation(&cert, 0x0403, true);
    out.push(seed("app.client-auth", input(4, 0, &segs)));
    out.push(seed("app.client-auth-no-certificate", input(0, 0, &segs)));
    out.push(seed(
        "TLS_CLIENT_SIGN_FAILED.client-auth",
        input(4 | 8, 0, &segs),
    ));
    let ticket = Srv12 {
        ticket: true,
        ..gcm
    };
    out.push(seed(
        "app.session-ticket",
        input(0, 0, &ticket.conversation(&cert, 0x0403, false)),
    ));
    // The ticket offered by a second connection: the abbreviated handshake.
    let mut segs = ticket.conversation(&cert, 0x0403, false);
    segs.push(Vec::new());
    let plain = Srv12 {
        ticket: false,
        ..gcm
    };
    segs.push(plain.resumption(&session_id(Family::Tls12, 0)?));
    segs.extend(plain.traffic());
    out.push(seed("resumed.session-ticket", input(0, 0, &segs)));
    let chacha = Srv12 {
        suite: 0xcca9,
        ticket: false,
        alpn: b"h2",
    };
    out.push(seed(
        "app.chrome-chacha20-h2",
        input(1, 0, &chacha.conversation(&cert, 0x0403, false)),
    ));
    let aes256 = Srv12 {
        suite: 0xc02c,
        ..gcm
    };
    out.push(seed(
        "app.ecdhe-ecdsa-aes256gcm-sha384",
        input(0, 0, &aes256.conversation(&cert, 0x0403, false)),
    ));
    let mut segs = gcm.conversation(&cert, 0x0403, false);
    segs.truncate(2);
    segs.push(null12(21, &[2, 40], true));
    out.push(seed("TLS_ALERT.fatal-after-handshake", input(0, 0, &segs)));
    if let Some(rsa) = rsa_certificate {
        let rsa_suite = Srv12 {
            suite: 0xc02f,
            ..gcm
        };
        out.push(seed(
            "app.ecdhe-rsa-rfc8448-certificate",
            input(0, 0, &rsa_suite.conversation(rsa, 0x0804, false)),
        ));
    }
    Ok(out)
}

/// The seeds of the `tls13_connection` target (with the RFC 8448 one when given its parts).
pub fn seeds13(rfc8448: Option<&Rfc8448>) -> Result<Vec<Seed>, Error> {
    tls13(rfc8448)
}

/// The seeds of the `tls12_connection` target (with an ECDHE_RSA one when given an RSA
/// certificate, e.g. RFC 8448's).
pub fn seeds12(rsa_certificate: Option<&[u8]>) -> Result<Vec<Seed>, Error> {
    tls12(rsa_certificate)
}
