//! A scripted TLS 1.3 server for tests and benchmarks, sans-IO and pure Rust (native and
//! wasm32): client bytes in ([`Tls13Server::receive`]), server bytes out
//! ([`Tls13Server::take_output`]).
//!
//! It answers a real client's ClientHello with a full handshake (X25519, one configured cipher
//! suite, an Ed25519 self-signed certificate that burrow-x509 parses, a real CertificateVerify
//! and Finished), checks the client's Finished, and then carries application data both ways.
//! Between application records it can inject a KeyUpdate ([`Tls13Server::send_key_update`]),
//! with or without `update_requested`, and it follows the client's own KeyUpdates.
//!
//! Test use only: the key exchange, the signing key and the server random all come from
//! [`ServerConfig::seed`], so every run is the same; nothing here is fit for a real server.
//! Not supported (the client gets an error, never a silent fallback): HelloRetryRequest (the
//! client must send an X25519 key share), PSK resumption (no tickets are issued), client
//! certificates, TLS 1.2.

use core::fmt;

use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::hash::{self, HashAlgorithm};
use burrow_crypto::kx::{Group, KeyShare};
use burrow_crypto::{hkdf, hmac};
use burrow_der::writer::tlv as der;
use burrow_record::{ContentType, Next, RecordError, RecordReader, RecordWriter, TrafficKeys};

/// Largest application payload one record carries (2^14).
pub const MAX_RECORD_PAYLOAD: usize = 16_384;

/// Handshake message types used here (RFC 8446 §4).
const CLIENT_HELLO: u8 = 1;
const SERVER_HELLO: u8 = 2;
const ENCRYPTED_EXTENSIONS: u8 = 8;
const CERTIFICATE: u8 = 11;
const CERTIFICATE_VERIFY: u8 = 15;
const FINISHED: u8 = 20;
const KEY_UPDATE: u8 = 24;

/// Extension code points used here.
const EXT_ALPN: u16 = 16;
const EXT_SIGNATURE_ALGORITHMS: u16 = 13;
const EXT_SUPPORTED_VERSIONS: u16 = 43;
const EXT_KEY_SHARE: u16 = 51;

/// Ed25519 (RFC 8446 §4.2.3).
const SCHEME_ED25519: u16 = 0x0807;
const X25519: u16 = 0x001d;
const TLS13: u16 = 0x0304;

/// The TLS 1.3 cipher suites the server can be told to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// TLS_AES_128_GCM_SHA256 (0x1301).
    Aes128GcmSha256,
    /// TLS_AES_256_GCM_SHA384 (0x1302).
    Aes256GcmSha384,
    /// TLS_CHACHA20_POLY1305_SHA256 (0x1303).
    ChaCha20Poly1305Sha256,
}

impl Suite {
    /// The cipher suite code point.
    pub fn code(self) -> u16 {
        match self {
            Suite::Aes128GcmSha256 => 0x1301,
            Suite::Aes256GcmSha384 => 0x1302,
            Suite::ChaCha20Poly1305Sha256 => 0x1303,
        }
    }

    /// The record protection algorithm.
    pub fn aead(self) -> AeadAlgorithm {
        match self {
            Suite::Aes128GcmSha256 => AeadAlgorithm::Aes128Gcm,
            Suite::Aes256GcmSha384 => AeadAlgorithm::Aes256Gcm,
            Suite::ChaCha20Poly1305Sha256 => AeadAlgorithm::ChaCha20Poly1305,
        }
    }

    /// The transcript and key-schedule hash.
    pub fn hash(self) -> HashAlgorithm {
        match self {
            Suite::Aes256GcmSha384 => HashAlgorithm::Sha384,
            _ => HashAlgorithm::Sha256,
        }
    }

    /// The AEAD's short name (`AES-128-GCM`, …), for reports.
    pub fn aead_name(self) -> &'static str {
        match self {
            Suite::Aes128GcmSha256 => "AES-128-GCM",
            Suite::Aes256GcmSha384 => "AES-256-GCM",
            Suite::ChaCha20Poly1305Sha256 => "ChaCha20-Poly1305",
        }
    }
}

/// How the server behaves.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The one cipher suite it accepts (the client must offer it).
    pub suite: Suite,
    /// ALPN protocols in the server's preference order; the first one the client offers is
    /// selected. Empty, or no overlap: no ALPN extension in the answer.
    pub alpn: Vec<Vec<u8>>,
    /// The DNS name in the certificate (subject CN and subjectAltName).
    pub host: String,
    /// Everything secret or random derives from this: the Ed25519 key, the X25519 share, the
    /// server random.
    pub seed: [u8; 32],
    /// Send a change_cipher_spec record after the ServerHello (middlebox compatibility mode,
    /// RFC 8446 §D.4), as most servers do.
    pub send_ccs: bool,
    /// Present a leaf issued by a CA of its own ([`Tls13Server::ca_certificate_der`], the
    /// anchor a client trusts; valid from 1970, so a clock reading 0 still accepts it) instead
    /// of a self-signed certificate.
    pub with_ca: bool,
}

impl ServerConfig {
    /// AES-128-GCM, ALPN `h2` then `http/1.1`, a fixed seed, compatibility-mode CCS.
    pub fn new(host: &str) -> ServerConfig {
        ServerConfig {
            suite: Suite::Aes128GcmSha256,
            alpn: vec![b"h2".to_vec(), b"http/1.1".to_vec()],
            host: host.to_string(),
            seed: [42u8; 32],
            send_ccs: true,
            with_ca: false,
        }
    }
}

/// Why the server gave up. The server is then dead: every later call fails the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// The client's records did not parse or authenticate.
    Record(RecordError),
    /// A handshake message did not parse.
    Malformed(&'static str),
    /// The client asked for something this server does not do.
    Unsupported(&'static str),
    /// The client's Finished did not verify.
    BadFinished,
    /// The client sent an alert other than close_notify (its description byte).
    Alert(u8),
    /// A message arrived where it is not allowed.
    Unexpected(&'static str),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Record(e) => write!(f, "client records: {e:?}"),
            ServerError::Malformed(what) => write!(f, "malformed {what}"),
            ServerError::Unsupported(what) => write!(f, "unsupported: {what}"),
            ServerError::BadFinished => f.write_str("the client's Finished did not verify"),
            ServerError::Alert(d) => write!(f, "the client sent alert {d}"),
            ServerError::Unexpected(what) => write!(f, "unexpected {what}"),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<RecordError> for ServerError {
    fn from(e: RecordError) -> Self {
        ServerError::Record(e)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    AwaitClientHello,
    AwaitClientFinished,
    Traffic,
    Closed,
}

/// The server side of one TLS 1.3 connection.
pub struct Tls13Server {
    config: ServerConfig,
    signing_key: ed25519_dalek::SigningKey,
    cert_der: Vec<u8>,
    ca_der: Option<Vec<u8>>,
    state: State,
    reader: RecordReader,
    writer: RecordWriter,
    /// Handshake messages so far (ClientHello .. server Finished).
    transcript: Vec<u8>,
    /// Client handshake bytes not yet forming a whole message.
    hs_buf: Vec<u8>,
    client_finished: Vec<u8>,
    client_secret: Vec<u8>,
    server_secret: Vec<u8>,
    alpn: Option<Vec<u8>>,
    received: Vec<u8>,
    out: Vec<u8>,
    close_notify: bool,
    key_updates_received: u32,
    key_updates_sent: u32,
    records_received: u64,
    next_key_id: u32,
    dead: Option<ServerError>,
}

impl fmt::Debug for Tls13Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tls13Server")
            .field("suite", &self.config.suite)
            .field("state", &self.state)
            .field("alpn", &self.alpn)
            .finish_non_exhaustive()
    }
}

/// `type || uint24 length || body`.
fn handshake_message(typ: u8, body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX).to_be_bytes();
    let mut m = vec![typ, len[1], len[2], len[3]];
    m.extend_from_slice(body);
    m
}

fn vec8(body: &[u8]) -> Vec<u8> {
    let mut v = vec![u8::try_from(body.len()).unwrap_or(u8::MAX)];
    v.extend_from_slice(body);
    v
}

fn vec16(body: &[u8]) -> Vec<u8> {
    let mut v = u16::try_from(body.len())
        .unwrap_or(u16::MAX)
        .to_be_bytes()
        .to_vec();
    v.extend_from_slice(body);
    v
}

fn vec24(body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).unwrap_or(u32::MAX).to_be_bytes();
    let mut v = vec![len[1], len[2], len[3]];
    v.extend_from_slice(body);
    v
}

fn extension(typ: u16, body: &[u8]) -> Vec<u8> {
    let mut v = typ.to_be_bytes().to_vec();
    v.extend(vec16(body));
    v
}

/// A Name of one CN.
fn cn_name(cn: &str) -> Vec<u8> {
    der(
        0x30,
        &der(
            0x31,
            &der(
                0x30,
                &[der(0x06, &[0x55, 0x04, 0x03]), der(0x0c, cn.as_bytes())].concat(),
            ),
        ),
    )
}

/// One extension (critical when `critical`).
fn x509_extension(oid: &[u8], critical: bool, value: &[u8]) -> Vec<u8> {
    let mut body = der(0x06, oid);
    if critical {
        body.extend(der(0x01, &[0xff]));
    }
    body.extend(der(0x04, value));
    der(0x30, &body)
}

/// What a certificate says and who signs it.
struct CertSpec<'a> {
    subject_key: &'a ed25519_dalek::VerifyingKey,
    subject_cn: &'a str,
    /// A leaf's DNS name (subjectAltName); `None` for a CA.
    dns_name: Option<&'a str>,
    issuer_key: &'a ed25519_dalek::SigningKey,
    issuer_cn: &'a str,
    not_before: &'a [u8],
    serial: &'a [u8],
    /// subjectKeyIdentifier (a CA's), authorityKeyIdentifier (what its issuer's says).
    key_ids: (Option<&'a [u8]>, Option<&'a [u8]>),
}

/// An X.509 v3 Ed25519 certificate: a leaf (subjectAltName, keyUsage digitalSignature) or,
/// without a DNS name, a CA (basicConstraints cA, keyUsage keyCertSign), valid from
/// `not_before` (UTCTime) to 2099-12-31.
fn certificate(spec: &CertSpec<'_>) -> Vec<u8> {
    use ed25519_dalek::Signer;
    let ed25519 = der(0x30, &der(0x06, &[0x2b, 0x65, 0x70]));
    let validity = der(
        0x30,
        &[der(0x17, spec.not_before), der(0x18, b"20991231235959Z")].concat(),
    );
    let mut bits = vec![0u8];
    bits.extend_from_slice(spec.subject_key.as_bytes());
    let spki = der(0x30, &[ed25519.clone(), der(0x03, &bits)].concat());
    let mut extensions = match spec.dns_name {
        Some(host) => [
            x509_extension(
                &[0x55, 0x1d, 0x11],
                false,
                &der(0x30, &der(0x82, host.as_bytes())),
            ),
            x509_extension(&[0x55, 0x1d, 0x0f], true, &der(0x03, &[0x07, 0x80])),
        ]
        .concat(),
        None => [
            x509_extension(&[0x55, 0x1d, 0x13], true, &der(0x30, &der(0x01, &[0xff]))),
            x509_extension(&[0x55, 0x1d, 0x0f], true, &der(0x03, &[0x02, 0x04])),
        ]
        .concat(),
    };
    if let Some(id) = spec.key_ids.0 {
        extensions.extend(x509_extension(&[0x55, 0x1d, 0x0e], false, &der(0x04, id)));
    }
    if let Some(id) = spec.key_ids.1 {
        extensions.extend(x509_extension(
            &[0x55, 0x1d, 0x23],
            false,
            &der(0x30, &der(0x80, id)),
        ));
    }
    let tbs = der(
        0x30,
        &[
            der(0xa0, &der(0x02, &[2])),
            der(0x02, spec.serial),
            ed25519.clone(),
            cn_name(spec.issuer_cn),
            validity,
            cn_name(spec.subject_cn),
            spki,
            der(0xa3, &der(0x30, &extensions)),
        ]
        .concat(),
    );
    let mut sig = vec![0u8];
    sig.extend_from_slice(&spec.issuer_key.sign(&tbs).to_bytes());
    der(0x30, &[tbs, ed25519, der(0x03, &sig)].concat())
}

/// A self-signed X.509 v3 Ed25519 certificate for `host` (CN and subjectAltName), valid
/// 2020-01-01 to 2099-12-31, with keyUsage digitalSignature.
fn self_signed_certificate(key: &ed25519_dalek::SigningKey, host: &str) -> Vec<u8> {
    certificate(&CertSpec {
        subject_key: &key.verifying_key(),
        subject_cn: host,
        dns_name: Some(host),
        issuer_key: key,
        issuer_cn: host,
        not_before: b"200101000000Z",
        serial: &[0x01, 0x23, 0x45, 0x67],
        key_ids: (None, None),
    })
}

/// The CN of the CA a [`ServerConfig::with_ca`] server's leaf is issued by.
pub const CA_NAME: &str = "burrow testkit CA";

/// A cursor over a handshake message body; every read fails with `Malformed(what)`.
struct Cursor<'a> {
    rest: &'a [u8],
    what: &'static str,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ServerError> {
        let (head, tail) = self
            .rest
            .split_at_checked(n)
            .ok_or(ServerError::Malformed(self.what))?;
        self.rest = tail;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, ServerError> {
        Ok(self.take(1)?.first().copied().unwrap_or(0))
    }

    fn u16(&mut self) -> Result<u16, ServerError> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([
            b.first().copied().unwrap_or(0),
            b.get(1).copied().unwrap_or(0),
        ]))
    }

    fn vec8(&mut self) -> Result<&'a [u8], ServerError> {
        let n = usize::from(self.u8()?);
        self.take(n)
    }

    fn vec16(&mut self) -> Result<&'a [u8], ServerError> {
        let n = usize::from(self.u16()?);
        self.take(n)
    }
}

/// What the server needs from a ClientHello.
struct Hello<'a> {
    session_id: &'a [u8],
    suites: &'a [u8],
    x25519_share: Option<&'a [u8]>,
    tls13: bool,
    ed25519: bool,
    alpn: Vec<&'a [u8]>,
}

fn parse_client_hello(body: &[u8]) -> Result<Hello<'_>, ServerError> {
    let mut c = Cursor {
        rest: body,
        what: "ClientHello",
    };
    c.take(2 + 32)?; // legacy_version, random
    let session_id = c.vec8()?;
    let suites = c.vec16()?;
    c.vec8()?; // legacy_compression_methods
    let mut exts = Cursor {
        rest: c.vec16()?,
        what: "ClientHello extensions",
    };
    let mut hello = Hello {
        session_id,
        suites,
        x25519_share: None,
        tls13: false,
        ed25519: false,
        alpn: Vec::new(),
    };
    while !exts.rest.is_empty() {
        let typ = exts.u16()?;
        let mut e = Cursor {
            rest: exts.vec16()?,
            what: "ClientHello extension",
        };
        match typ {
            EXT_SUPPORTED_VERSIONS => {
                let list = e.vec8()?;
                hello.tls13 = list.chunks_exact(2).any(|v| v == TLS13.to_be_bytes());
            }
            EXT_SIGNATURE_ALGORITHMS => {
                let list = e.vec16()?;
                hello.ed25519 = list
                    .chunks_exact(2)
                    .any(|v| v == SCHEME_ED25519.to_be_bytes());
            }
            EXT_KEY_SHARE => {
                let mut shares = Cursor {
                    rest: e.vec16()?,
                    what: "key_share",
                };
                while !shares.rest.is_empty() {
                    let group = shares.u16()?;
                    let key = shares.vec16()?;
                    if group == X25519 && key.len() == 32 {
                        hello.x25519_share = Some(key);
                    }
                }
            }
            EXT_ALPN => {
                let mut list = Cursor {
                    rest: e.vec16()?,
                    what: "ALPN",
                };
                while !list.rest.is_empty() {
                    hello.alpn.push(list.vec8()?);
                }
            }
            _ => {}
        }
    }
    Ok(hello)
}

impl Tls13Server {
    /// A server waiting for the client's first flight.
    pub fn new(config: ServerConfig) -> Tls13Server {
        let signing_key =
            ed25519_dalek::SigningKey::from_bytes(&Self::derive_seed(&config.seed, b"ed25519"));
        let (cert_der, ca_der) = if config.with_ca {
            let ca_key =
                ed25519_dalek::SigningKey::from_bytes(&Self::derive_seed(&config.seed, b"ca"));
            let digest = hash::digest(HashAlgorithm::Sha256, ca_key.verifying_key().as_bytes());
            let ca_id = digest.as_ref().get(..20).unwrap_or_default();
            let ca = certificate(&CertSpec {
                subject_key: &ca_key.verifying_key(),
                subject_cn: CA_NAME,
                dns_name: None,
                issuer_key: &ca_key,
                issuer_cn: CA_NAME,
                not_before: b"700101000000Z",
                serial: &[0x01],
                key_ids: (Some(ca_id), None),
            });
            let leaf = certificate(&CertSpec {
                subject_key: &signing_key.verifying_key(),
                subject_cn: &config.host,
                dns_name: Some(&config.host),
                issuer_key: &ca_key,
                issuer_cn: CA_NAME,
                not_before: b"700101000000Z",
                serial: &[0x02],
                key_ids: (None, Some(ca_id)),
            });
            (leaf, Some(ca))
        } else {
            (self_signed_certificate(&signing_key, &config.host), None)
        };
        Tls13Server {
            config,
            signing_key,
            cert_der,
            ca_der,
            state: State::AwaitClientHello,
            reader: RecordReader::new(),
            writer: RecordWriter::new(),
            transcript: Vec::new(),
            hs_buf: Vec::new(),
            client_finished: Vec::new(),
            client_secret: Vec::new(),
            server_secret: Vec::new(),
            alpn: None,
            received: Vec::new(),
            out: Vec::new(),
            close_notify: false,
            key_updates_received: 0,
            key_updates_sent: 0,
            records_received: 0,
            next_key_id: 0,
            dead: None,
        }
    }

    fn derive_seed(seed: &[u8; 32], label: &[u8]) -> [u8; 32] {
        let mut input = seed.to_vec();
        input.extend_from_slice(label);
        let d = hash::digest(HashAlgorithm::Sha256, &input);
        let mut out = [0u8; 32];
        for (o, b) in out.iter_mut().zip(d.as_ref()) {
            *o = *b;
        }
        out
    }

    /// The CA certificate (DER) that issued the leaf, for [`ServerConfig::with_ca`] servers.
    pub fn ca_certificate_der(&self) -> Option<&[u8]> {
        self.ca_der.as_deref()
    }

    /// The certificate (DER) the server presents.
    pub fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }

    /// The configured cipher suite.
    pub fn suite(&self) -> Suite {
        self.config.suite
    }

    /// The ALPN protocol selected, once the ClientHello was answered.
    pub fn alpn(&self) -> Option<&[u8]> {
        self.alpn.as_deref()
    }

    /// True once the client's Finished verified (application data may flow both ways).
    pub fn is_connected(&self) -> bool {
        self.state == State::Traffic
    }

    /// Whether the client sent close_notify.
    pub fn received_close_notify(&self) -> bool {
        self.close_notify
    }

    /// KeyUpdates received from the client.
    pub fn key_updates_received(&self) -> u32 {
        self.key_updates_received
    }

    /// Records received from the client (change_cipher_spec not counted).
    pub fn records_received(&self) -> u64 {
        self.records_received
    }

    /// KeyUpdates sent (requested by [`Tls13Server::send_key_update`] or answering the
    /// client's `update_requested`).
    pub fn key_updates_sent(&self) -> u32 {
        self.key_updates_sent
    }

    /// Feeds bytes the client sent, in any chunking. Handshake messages are answered at once
    /// (the answer is in [`Tls13Server::take_output`]); application data collects in
    /// [`Tls13Server::take_received`].
    pub fn receive(&mut self, bytes: &[u8]) -> Result<(), ServerError> {
        if let Some(e) = &self.dead {
            return Err(e.clone());
        }
        let r = self.receive_inner(bytes);
        if let Err(e) = &r {
            self.dead = Some(e.clone());
        }
        r
    }

    fn receive_inner(&mut self, bytes: &[u8]) -> Result<(), ServerError> {
        // Fed a record's worth at a time so a long write never overflows the reader's buffer.
        for piece in bytes.chunks(MAX_RECORD_PAYLOAD) {
            self.reader.feed(piece)?;
            loop {
                let (ct, data) = match self.reader.next_record()? {
                    Next::NeedData => break,
                    Next::NeedOpen(_) => return Err(ServerError::Unexpected("offloaded open")),
                    Next::Record(r) => (r.content_type, r.data.to_vec()),
                };
                self.records_received = self.records_received.saturating_add(1);
                self.on_record(ct, &data)?;
            }
        }
        Ok(())
    }

    fn on_record(&mut self, ct: ContentType, data: &[u8]) -> Result<(), ServerError> {
        if self.state == State::Closed {
            return Err(ServerError::Unexpected("record after close_notify"));
        }
        match ct {
            ContentType::ALERT => match data {
                [_, 0] => {
                    self.close_notify = true;
                    self.state = State::Closed;
                    Ok(())
                }
                [_, d] => Err(ServerError::Alert(*d)),
                _ => Err(ServerError::Malformed("alert")),
            },
            ContentType::HANDSHAKE => {
                self.hs_buf.extend_from_slice(data);
                while let Some(len) = self.whole_message_len() {
                    let msg: Vec<u8> = self.hs_buf.drain(..len).collect();
                    self.on_handshake(&msg)?;
                }
                Ok(())
            }
            ContentType::APPLICATION_DATA if self.state == State::Traffic => {
                self.received.extend_from_slice(data);
                Ok(())
            }
            _ => Err(ServerError::Unexpected("record content type")),
        }
    }

    /// Length of the first whole handshake message in `hs_buf`, header included.
    fn whole_message_len(&self) -> Option<usize> {
        let h = self.hs_buf.get(..4)?;
        let body = usize::from(*h.get(1)?) << 16 | usize::from(*h.get(2)?) << 8;
        let len = (body | usize::from(*h.get(3)?)).checked_add(4)?;
        (self.hs_buf.len() >= len).then_some(len)
    }

    fn on_handshake(&mut self, msg: &[u8]) -> Result<(), ServerError> {
        let typ = msg.first().copied().unwrap_or(0);
        let body = msg.get(4..).unwrap_or(&[]);
        match (self.state, typ) {
            (State::AwaitClientHello, CLIENT_HELLO) => self.answer_client_hello(msg),
            (State::AwaitClientFinished, FINISHED) => {
                if body != self.client_finished.as_slice() {
                    return Err(ServerError::BadFinished);
                }
                self.reader.set_keys(Some(self.keys(&self.client_secret)?));
                self.state = State::Traffic;
                Ok(())
            }
            (State::Traffic, KEY_UPDATE) => {
                let requested = match body {
                    [0] => false,
                    [1] => true,
                    _ => return Err(ServerError::Malformed("KeyUpdate")),
                };
                self.client_secret = self.next_secret(&self.client_secret)?;
                self.reader.set_keys(Some(self.keys(&self.client_secret)?));
                self.key_updates_received = self.key_updates_received.saturating_add(1);
                if requested {
                    self.send_key_update(false)?;
                }
                Ok(())
            }
            (State::Traffic, _) => Err(ServerError::Unsupported(
                "post-handshake messages other than KeyUpdate",
            )),
            _ => Err(ServerError::Unexpected("handshake message")),
        }
    }

    fn hash_len(&self) -> usize {
        self.config.suite.hash().output_len()
    }

    fn expand(&self, secret: &[u8], label: &[u8], len: usize) -> Result<Vec<u8>, ServerError> {
        let mut out = vec![0u8; len];
        hkdf::expand_label(self.config.suite.hash(), secret, label, &[], &mut out)
            .map_err(|_| ServerError::Unsupported("key length"))?;
        Ok(out)
    }

    /// Derive-Secret over the transcript so far.
    fn derive(&self, secret: &[u8], label: &[u8], transcript: &[u8]) -> Vec<u8> {
        let h = self.config.suite.hash();
        let th = hash::digest(h, transcript);
        hkdf::derive_secret(h, secret, label, th.as_ref())
            .as_ref()
            .to_vec()
    }

    fn next_secret(&self, secret: &[u8]) -> Result<Vec<u8>, ServerError> {
        self.expand(secret, b"traffic upd", self.hash_len())
    }

    fn keys(&self, secret: &[u8]) -> Result<TrafficKeys, ServerError> {
        let alg = self.config.suite.aead();
        let key = self.expand(secret, b"key", alg.key_len())?;
        let iv = self.expand(secret, b"iv", 12)?;
        Ok(TrafficKeys::new(alg, &key, &iv, self.next_key_id)?)
    }

    fn set_write_keys(&mut self, secret: &[u8]) -> Result<(), ServerError> {
        let keys = self.keys(secret)?;
        self.next_key_id = self.next_key_id.wrapping_add(1);
        self.writer.set_keys(Some(keys));
        Ok(())
    }

    fn finished_mac(&self, secret: &[u8]) -> Result<Vec<u8>, ServerError> {
        let h = self.config.suite.hash();
        let key = self.expand(secret, b"finished", self.hash_len())?;
        let th = hash::digest(h, &self.transcript);
        Ok(hmac::sign(h, &key, th.as_ref()).as_ref().to_vec())
    }

    fn answer_client_hello(&mut self, msg: &[u8]) -> Result<(), ServerError> {
        let hello = parse_client_hello(msg.get(4..).unwrap_or(&[]))?;
        let suite = self.config.suite;
        if !hello.tls13 {
            return Err(ServerError::Unsupported("a client without TLS 1.3"));
        }
        if !hello
            .suites
            .chunks_exact(2)
            .any(|s| s == suite.code().to_be_bytes())
        {
            return Err(ServerError::Unsupported(
                "a client that does not offer the configured suite",
            ));
        }
        if !hello.ed25519 {
            return Err(ServerError::Unsupported(
                "a client without Ed25519 signatures",
            ));
        }
        let client_share = hello.x25519_share.ok_or(ServerError::Unsupported(
            "a client without an X25519 key share (HelloRetryRequest)",
        ))?;
        self.alpn = self
            .config
            .alpn
            .iter()
            .find(|p| hello.alpn.contains(&p.as_slice()))
            .cloned();
        let session_id = hello.session_id.to_vec();
        let client_share = client_share.to_vec();
        self.transcript = msg.to_vec();

        // ServerHello.
        let kx_seed = Self::derive_seed(&self.config.seed, b"x25519");
        let share = KeyShare::from_seed(Group::X25519, &kx_seed)
            .map_err(|_| ServerError::Unsupported("X25519"))?;
        let mut key_share = X25519.to_be_bytes().to_vec();
        key_share.extend(vec16(share.public_key()));
        let mut sh = vec![3, 3];
        sh.extend_from_slice(&Self::derive_seed(&self.config.seed, b"random"));
        sh.extend(vec8(&session_id));
        sh.extend_from_slice(&suite.code().to_be_bytes());
        sh.push(0);
        sh.extend(vec16(
            &[
                extension(EXT_SUPPORTED_VERSIONS, &TLS13.to_be_bytes()),
                extension(EXT_KEY_SHARE, &key_share),
            ]
            .concat(),
        ));
        let sh = handshake_message(SERVER_HELLO, &sh);
        self.transcript.extend_from_slice(&sh);
        let _ = self
            .writer
            .write(ContentType::HANDSHAKE, &sh, &mut self.out)?;
        if self.config.send_ccs {
            self.out.extend_from_slice(&[20, 3, 3, 0, 1, 1]);
        }

        // Handshake secrets.
        let h = suite.hash();
        let shared = share
            .complete(&client_share)
            .map_err(|_| ServerError::Malformed("X25519 key share"))?;
        let zeros = vec![0u8; self.hash_len()];
        let early = hkdf::extract(h, &zeros, &zeros);
        let salt = self.derive(early.as_ref(), b"derived", &[]);
        let hs_secret = hkdf::extract(h, &salt, shared.as_ref());
        let client_hs = self.derive(hs_secret.as_ref(), b"c hs traffic", &self.transcript);
        let server_hs = self.derive(hs_secret.as_ref(), b"s hs traffic", &self.transcript);
        self.set_write_keys(&server_hs)?;
        self.reader.set_keys(Some(self.keys(&client_hs)?));
        self.reader.set_ccs_allowed(true);

        // EncryptedExtensions, Certificate, CertificateVerify, Finished.
        let ee_exts = match &self.alpn {
            Some(p) => extension(EXT_ALPN, &vec16(&vec8(p))),
            None => Vec::new(),
        };
        let mut flight = handshake_message(ENCRYPTED_EXTENSIONS, &vec16(&ee_exts));
        let mut entry = vec24(&self.cert_der);
        entry.extend_from_slice(&[0, 0]);
        let mut cert = vec![0u8];
        cert.extend(vec24(&entry));
        flight.extend(handshake_message(CERTIFICATE, &cert));
        self.transcript.extend_from_slice(&flight);
        let cv = self.certificate_verify();
        self.transcript.extend_from_slice(&cv);
        flight.extend(cv);
        let fin = handshake_message(FINISHED, &self.finished_mac(&server_hs)?);
        self.transcript.extend_from_slice(&fin);
        flight.extend(fin);
        let _ = self
            .writer
            .write(ContentType::HANDSHAKE, &flight, &mut self.out)?;

        // Application secrets (the transcript ends with the server Finished).
        self.client_finished = self.finished_mac(&client_hs)?;
        let salt = self.derive(hs_secret.as_ref(), b"derived", &[]);
        let master = hkdf::extract(h, &salt, &zeros);
        self.client_secret = self.derive(master.as_ref(), b"c ap traffic", &self.transcript);
        self.server_secret = self.derive(master.as_ref(), b"s ap traffic", &self.transcript);
        let server_ap = self.server_secret.clone();
        self.set_write_keys(&server_ap)?;
        self.state = State::AwaitClientFinished;
        Ok(())
    }

    fn certificate_verify(&self) -> Vec<u8> {
        use ed25519_dalek::Signer;
        let mut content = vec![0x20u8; 64];
        content.extend_from_slice(b"TLS 1.3, server CertificateVerify\0");
        content
            .extend_from_slice(hash::digest(self.config.suite.hash(), &self.transcript).as_ref());
        let sig = self.signing_key.sign(&content).to_bytes();
        let mut body = SCHEME_ED25519.to_be_bytes().to_vec();
        body.extend(vec16(&sig));
        handshake_message(CERTIFICATE_VERIFY, &body)
    }

    fn check_traffic(&self) -> Result<(), ServerError> {
        if let Some(e) = &self.dead {
            return Err(e.clone());
        }
        // Sending right after the server Finished (before the client's) is allowed (0.5-RTT).
        match self.state {
            State::Traffic | State::AwaitClientFinished => Ok(()),
            _ => Err(ServerError::Unexpected("send before the handshake")),
        }
    }

    /// Queues `data` as application data, in records of at most [`MAX_RECORD_PAYLOAD`] bytes.
    pub fn send(&mut self, data: &[u8]) -> Result<(), ServerError> {
        self.check_traffic()?;
        let _ = self
            .writer
            .write(ContentType::APPLICATION_DATA, data, &mut self.out)?;
        Ok(())
    }

    /// Queues exactly one application data record carrying `payload` (1 to
    /// [`MAX_RECORD_PAYLOAD`] bytes), so the caller chooses the record boundaries.
    pub fn send_record(&mut self, payload: &[u8]) -> Result<(), ServerError> {
        if payload.is_empty() || payload.len() > MAX_RECORD_PAYLOAD {
            return Err(ServerError::Unexpected("record payload size"));
        }
        self.send(payload)
    }

    /// Queues a KeyUpdate (asking the client to update too when `update_requested`) and
    /// switches the server's write keys: everything sent after it uses the next secret. The
    /// client's answering KeyUpdate is followed when it arrives
    /// ([`Tls13Server::key_updates_received`]).
    pub fn send_key_update(&mut self, update_requested: bool) -> Result<(), ServerError> {
        if self.state != State::Traffic {
            return Err(ServerError::Unexpected(
                "KeyUpdate before the handshake completed",
            ));
        }
        let m = handshake_message(KEY_UPDATE, &[u8::from(update_requested)]);
        let _ = self
            .writer
            .write(ContentType::HANDSHAKE, &m, &mut self.out)?;
        self.server_secret = self.next_secret(&self.server_secret)?;
        let next = self.server_secret.clone();
        self.set_write_keys(&next)?;
        self.key_updates_sent = self.key_updates_sent.saturating_add(1);
        Ok(())
    }

    /// Queues a close_notify alert.
    pub fn send_close_notify(&mut self) -> Result<(), ServerError> {
        let _ = self
            .writer
            .write(ContentType::ALERT, &[1, 0], &mut self.out)?;
        Ok(())
    }

    /// Bytes queued for the client.
    pub fn pending_output(&self) -> usize {
        self.out.len()
    }

    /// Takes the bytes queued for the client (records in the order they were sealed).
    #[must_use]
    pub fn take_output(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.out)
    }

    /// Appends the bytes queued for the client to `out`.
    pub fn append_output(&mut self, out: &mut Vec<u8>) {
        out.append(&mut self.out);
    }

    /// Takes the application data received from the client so far.
    #[must_use]
    pub fn take_received(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.received)
    }

    /// The application data received and not yet taken.
    pub fn received(&self) -> &[u8] {
        &self.received
    }

    /// Drops the first `n` bytes of the received application data.
    pub fn discard_received(&mut self, n: usize) {
        let n = n.min(self.received.len());
        self.received.drain(..n);
    }
}
