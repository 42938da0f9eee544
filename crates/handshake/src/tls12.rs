//! The TLS 1.2 client handshake (RFC 5246 with ECDHE per RFC 8422, extended master secret per RFC
//! 7627, renegotiation_info per RFC 5746), entered from `ExpectServerHello` when the server picks
//! 1.2. Same transcript (the first ClientHello), same certificate request to the caller.
//!
//! Flow: ServerHello → Certificate → [CertificateStatus] → ServerKeyExchange (signature checked,
//! then [`Event::NeedVerify`](crate::Event::NeedVerify)) → [CertificateRequest] → ServerHelloDone →
//! our [Certificate], ClientKeyExchange, ChangeCipherSpec, Finished → [NewSessionTicket] → server
//! ChangeCipherSpec, Finished. Resumption (RFC 5077): ServerHello echoing our session id →
//! [NewSessionTicket] → server ChangeCipherSpec, Finished → our ChangeCipherSpec, Finished.
//!
//! Decisions: a server without extended master secret is accepted unless
//! [`Config::require_extended_master_secret`](crate::Config), but such a session is never resumed:
//! its tickets are dropped and a resumption without EMS is refused (RFC 7627 §5.3, the triple
//! handshake needs resumption); renegotiation_info must be present and empty; HelloRequest is
//! ignored during the handshake and answered with a `no_renegotiation` warning afterwards (the
//! connection stays up; more than [`MAX_HELLO_REQUESTS`](crate::MAX_HELLO_REQUESTS) of them is an `unexpected_message` error);
//! no renegotiation ever.

use crate::client_auth::{self, Chosen};
use crate::event::{Event, HandshakeSummary};
use crate::hello;
use crate::keylog::KeyLogEntry;
use crate::messages::{self, ServerHello};
use crate::profile::ExtensionSlot;
use crate::secret::Secret;
use crate::signature;
use crate::step::{Env, KeyMaterial, Message, Output, Progress};
use crate::suites::{self, Suite12};
use crate::tls12_keys::{self as keys, KeyBlock};
use crate::tls12_msgs as msgs;
use crate::traffic::Traffic12;
use crate::verify::{Answer, SignatureCheck, SignedContent, VerifyRequest};
use crate::{
    CipherSuite, Error, ExtensionType, HandshakeType, NamedGroup, SignRequest, SignatureScheme,
    Ticket,
};
use burrow_crypto::hash::Context;
use burrow_crypto::kx::{Group, KeyShare};
use burrow_record::TrafficKeys;

/// The TLS 1.2 transcript: its running hash and, when a client certificate is configured, the
/// messages themselves, which a CertificateVerify signs whole (RFC 5246 §7.4.8). Bounded by the
/// handshake's message budget; dropped once our flight is out.
struct Transcript12 {
    hash: Context,
    raw: Option<Vec<u8>>,
}

impl Transcript12 {
    fn new(alg: burrow_crypto::hash::HashAlgorithm, keep_raw: bool) -> Self {
        Self {
            hash: Context::new(alg),
            raw: keep_raw.then(Vec::new),
        }
    }

    fn update(&mut self, m: &[u8]) {
        self.hash.update(m);
        if let Some(r) = &mut self.raw {
            r.extend_from_slice(m);
        }
    }

    /// The hash of the messages so far.
    fn hash(&self) -> burrow_crypto::hash::Output {
        self.hash.clone().finish()
    }
}

/// What the 1.3 ClientHello state hands over.
pub(crate) struct Start12 {
    pub(crate) client_random: [u8; 32],
    pub(crate) client_hello: Vec<u8>,
    pub(crate) shares: Vec<KeyShare>,
    pub(crate) retry_seed: Secret,
    pub(crate) hello_retry: bool,
    pub(crate) session_id: Vec<u8>,
    /// A TLS 1.2 ticket offered in the ClientHello.
    pub(crate) resume: Option<Ticket>,
}

/// The TLS 1.2 handshake after ServerHello, step by step.
pub(crate) enum Tls12 {
    Certificate(Box<ExpectCertificate>),
    /// CertificateStatus (if stapling was agreed) or ServerKeyExchange.
    KeyExchange(Box<ExpectKeyExchange>),
    /// The caller validates the chain.
    AwaitVerify(Box<AwaitVerify>),
    /// CertificateRequest or ServerHelloDone.
    HelloDone(Box<ExpectHelloDone>),
    /// NewSessionTicket (if agreed) or the server's ChangeCipherSpec.
    ChangeCipherSpec(Box<ExpectChangeCipherSpec>),
    Finished(Box<ExpectFinished>),
    /// Our flight waits for the caller's CertificateVerify signature.
    AwaitSign(Box<AwaitSign>),
}

impl Tls12 {
    /// Handles one whole handshake message.
    pub(crate) fn handle(
        self,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Progress<Self, Traffic12>, Error> {
        // HelloRequest during the handshake: ignored, not part of the transcript
        // (RFC 5246 §7.4.1.1).
        if m.typ == HandshakeType::HELLO_REQUEST {
            return if m.body.is_empty() {
                Ok(Progress::Handshake(self))
            } else {
                Err(Error::Decode)
            };
        }
        let next = match (self, m.typ) {
            (Self::Certificate(s), HandshakeType::CERTIFICATE) => s.handle(m)?,
            (Self::KeyExchange(s), HandshakeType::CERTIFICATE_STATUS) => {
                s.handle_certificate_status(m)?
            }
            (Self::KeyExchange(s), HandshakeType::SERVER_KEY_EXCHANGE) => {
                s.handle_server_key_exchange(m, env, out)?
            }
            (Self::HelloDone(s), HandshakeType::CERTIFICATE_REQUEST) => {
                s.handle_certificate_request(m, env)?
            }
            (Self::HelloDone(s), HandshakeType::SERVER_HELLO_DONE) => {
                s.handle_server_hello_done(m, out)?
            }
            (Self::ChangeCipherSpec(s), HandshakeType::NEW_SESSION_TICKET) => {
                s.handle_new_session_ticket(m)?
            }
            (Self::Finished(s), HandshakeType::FINISHED) => {
                return s.handle(m, env, out).map(Progress::Traffic)
            }
            _ => return Err(Error::UnexpectedMessage),
        };
        Ok(Progress::Handshake(next))
    }

    /// A change_cipher_spec record (delivered by the reader only during a TLS 1.2 handshake).
    pub(crate) fn change_cipher_spec(self, out: &mut dyn Output) -> Result<Self, Error> {
        match self {
            Self::ChangeCipherSpec(s) => Ok(s.change_cipher_spec(out)),
            _ => Err(Error::UnexpectedMessage),
        }
    }

    /// Applies the caller's answer to [`Event::NeedVerify`].
    pub(crate) fn complete(self, answer: Answer) -> Result<Self, Error> {
        match self {
            Self::AwaitVerify(s) => match answer {
                Answer::Verified => Ok(Self::HelloDone(Box::new(ExpectHelloDone {
                    hello: s.hello,
                    transcript: s.transcript,
                    kx: s.kx,
                    cert_request: None,
                }))),
                Answer::Rejected(r) => Err(Error::CertificateRejected(r)),
                Answer::BadSignature => Err(Error::BadKeyExchangeSignature),
            },
            Self::AwaitSign(_) => Err(Error::Misuse),
            other => Ok(other),
        }
    }

    /// Applies the caller's answer to [`Event::NeedSign`].
    pub(crate) fn complete_sign(
        self,
        signature: &[u8],
        out: &mut dyn Output,
    ) -> Result<Self, Error> {
        match self {
            Self::AwaitSign(s) => s.complete(signature, out),
            _ => Err(Error::Misuse),
        }
    }

    pub(crate) fn awaiting_answer(&self) -> bool {
        matches!(self, Self::AwaitVerify(_) | Self::AwaitSign(_))
    }

    /// Whether a refusal now is of our empty Certificate: the server asked for one, we had
    /// none to send, and its answer to our flight is still to come (a server that refuses
    /// does so on reading our Certificate, before its ChangeCipherSpec).
    pub(crate) fn sent_empty_certificate(&self) -> bool {
        matches!(self, Self::ChangeCipherSpec(s) if s.sent_empty_certificate)
    }

    pub(crate) fn awaiting_signature(&self) -> bool {
        matches!(self, Self::AwaitSign(_))
    }
}

/// What the ServerHello settled, known to every later step.
struct Hello12 {
    suite: Suite12,
    client_random: [u8; 32],
    server_random: [u8; 32],
    /// Extended master secret (RFC 7627) was negotiated.
    ems: bool,
    alpn: Option<Vec<u8>>,
    /// The server agreed to send a NewSessionTicket (RFC 5077).
    ticket_agreed: bool,
}

/// What the full handshake's certificate steps learnt from the ServerHello.
struct CertificateExpectations {
    /// The server agreed to staple (CertificateStatus may come).
    status_expected: bool,
    /// The SCT list the ServerHello carried.
    scts: Option<Vec<u8>>,
}

/// Our ECDHE half: the ClientHello's shares, and the seed for a key in a group it did not
/// cover.
struct OurShares {
    shares: Vec<KeyShare>,
    retry_seed: Secret,
}

/// The ECDHE exchange done: the pre-master secret and the public key we send.
struct KeyExchange12 {
    group: NamedGroup,
    pre_master: Secret,
    our_public: Vec<u8>,
}

/// How the handshake reaches its Finished messages.
enum Kind12 {
    /// A full handshake over this key exchange group.
    Full { group: NamedGroup },
    /// Ticket resumption (RFC 5077 §3.4): the server's Finished comes first; our keys are
    /// installed with our ChangeCipherSpec after it.
    Abbreviated {
        our_keys: TrafficKeys,
        ticket: Ticket,
    },
}

fn sentinel(random: &[u8; 32]) -> Option<u8> {
    match random.get(24..) {
        Some(b"DOWNGRD\x01") => Some(1),
        Some(b"DOWNGRD\x00") => Some(0),
        _ => None,
    }
}

/// The ServerHello chose TLS 1.2 (no supported_versions, legacy_version 0x0303).
pub(crate) fn enter(
    sh: &ServerHello<'_>,
    msg: &[u8],
    start: Start12,
    env: Env<'_>,
    out: &mut dyn Output,
) -> Result<Tls12, Error> {
    let profile = &env.config.profile;
    if !suites::offers_tls12(&profile.cipher_suites) {
        return Err(match sentinel(&sh.random) {
            Some(_) => Error::Downgrade,
            None => Error::ProtocolVersion,
        });
    }
    // RFC 8446 §4.1.3: a client that offered 1.3 aborts on the 1.2 sentinel; the 1.1 sentinel
    // is contradictory with a 1.2 ServerHello and is refused the same way.
    match sentinel(&sh.random) {
        Some(1) if suites::offers_tls13(&profile.cipher_suites) => return Err(Error::Downgrade),
        Some(0) => return Err(Error::Downgrade),
        _ => {}
    }
    if start.hello_retry {
        // A HelloRetryRequest is TLS 1.3 only; the server cannot then pick 1.2.
        return Err(Error::IllegalParameter);
    }
    if sh.compression != 0 {
        return Err(Error::IllegalParameter);
    }
    if !profile.cipher_suites.contains(&sh.suite) {
        return Err(Error::UnofferedCipherSuite);
    }
    let suite = match suites::lookup12(sh.suite) {
        Some(s) => s,
        None if suites::lookup(sh.suite).is_some() => return Err(Error::IllegalParameter),
        None => return Err(Error::LegacyCipherSuite),
    };
    let (hello, expect) = server_hello_extensions(sh, suite, start.client_random, env, out)?;
    // The raw messages are kept only when we may have to sign them (RFC 5246 §7.4.8).
    let mut transcript = Transcript12::new(suite.hash, env.config.client_certificate.is_some());
    transcript.update(&start.client_hello);
    transcript.update(msg);
    match start.resume {
        Some(t) if !start.session_id.is_empty() && sh.session_id == start.session_id => {
            resume(hello, transcript, t, out)
        }
        _ => Ok(Tls12::Certificate(Box::new(ExpectCertificate {
            hello,
            transcript,
            expect,
            shares: OurShares {
                shares: start.shares,
                retry_seed: start.retry_seed,
            },
        }))),
    }
}

/// The server echoed our session id for the ticket we offered: abbreviated handshake
/// (RFC 5077 §3.4) with the ticket's master secret.
fn resume(
    hello: Hello12,
    transcript: Transcript12,
    t: Ticket,
    out: &mut dyn Output,
) -> Result<Tls12, Error> {
    if t.suite != hello.suite.id || t.ems != hello.ems || !hello.ems {
        // RFC 7627 §5.3: a resumption must keep the original session's EMS state, and a
        // session without EMS is never resumed (no such ticket is ever issued to us).
        return Err(Error::IllegalParameter);
    }
    if hello.alpn.is_some() && t.alpn.is_some() && hello.alpn != t.alpn {
        return Err(Error::IllegalParameter);
    }
    if t.psk.len() != 48 {
        return Err(Error::Misuse);
    }
    let master = t.psk.clone();
    let kb = key_block(out, &hello, &master)?;
    let server_keys = make_keys(out, &hello, &kb, true)?;
    let our_keys = make_keys(out, &hello, &kb, false)?;
    Ok(Tls12::ChangeCipherSpec(Box::new(ExpectChangeCipherSpec {
        ticket_may_come: hello.ticket_agreed,
        hello,
        transcript,
        master,
        server_keys,
        kind: Kind12::Abbreviated {
            our_keys,
            ticket: t,
        },
        new_ticket: None,
        sent_empty_certificate: false,
    })))
}

/// The master secret is known: into the key log (when asked for), then the key block.
fn key_block(out: &mut dyn Output, hello: &Hello12, master: &Secret) -> Result<KeyBlock, Error> {
    out.log_secret(KeyLogEntry::CLIENT_RANDOM, master);
    keys::key_block(
        hello.suite,
        master,
        &hello.client_random,
        &hello.server_random,
    )
}

/// One direction's record keys from the key block (announced to an offloading caller).
fn make_keys(
    out: &mut dyn Output,
    hello: &Hello12,
    kb: &KeyBlock,
    for_reading: bool,
) -> Result<TrafficKeys, Error> {
    let (key, iv) = if for_reading {
        (&kb.server_key, &kb.server_iv)
    } else {
        (&kb.client_key, &kb.client_iv)
    };
    out.make_keys(KeyMaterial {
        aead: hello.suite.aead,
        key,
        iv,
        tls12: true,
        for_reading,
    })
}

/// The ServerHello's extensions: only what we offered; renegotiation_info is required.
fn server_hello_extensions(
    sh: &ServerHello<'_>,
    suite: Suite12,
    client_random: [u8; 32],
    env: Env<'_>,
    out: &mut dyn Output,
) -> Result<(Hello12, CertificateExpectations), Error> {
    let mut hello = Hello12 {
        suite,
        client_random,
        server_random: sh.random,
        ems: false,
        alpn: None,
        ticket_agreed: false,
    };
    let mut expect = CertificateExpectations {
        status_expected: false,
        scts: None,
    };
    let mut reneg = false;
    for (t, b) in &sh.extensions {
        reneg |= server_hello_extension(&mut hello, &mut expect, *t, b, env, out)?;
    }
    if !reneg {
        return Err(Error::InsecureRenegotiation);
    }
    if !hello.ems && env.config.require_extended_master_secret {
        return Err(Error::ExtendedMasterSecretMissing);
    }
    Ok((hello, expect))
}

/// One ServerHello extension; `true` for a valid renegotiation_info.
fn server_hello_extension(
    hello: &mut Hello12,
    expect: &mut CertificateExpectations,
    t: ExtensionType,
    b: &[u8],
    env: Env<'_>,
    out: &mut dyn Output,
) -> Result<bool, Error> {
    let config = env.config;
    let profile = &config.profile;
    let offered = |s| hello::offered(profile, s);
    match t {
        ExtensionType::RENEGOTIATION_INFO => {
            // Initial handshake: renegotiated_connection must be empty.
            // Offered by the extension or by the SCSV (RFC 5746 §3.4).
            let scsv = profile.cipher_suites.contains(&CipherSuite(0x00ff));
            if *b != [0u8] || !(offered(ExtensionSlot::RenegotiationInfo) || scsv) {
                return Err(Error::InsecureRenegotiation);
            }
            return Ok(true);
        }
        ExtensionType::EXTENDED_MASTER_SECRET => {
            if !b.is_empty() || !offered(ExtensionSlot::ExtendedMasterSecret) {
                return Err(Error::UnsupportedExtension);
            }
            hello.ems = true;
        }
        ExtensionType::EC_POINT_FORMATS => {
            let mut r = crate::codec::Reader::new(b);
            let formats = r.vec8()?;
            r.finish()?;
            if !formats.contains(&0) {
                return Err(Error::IllegalParameter);
            }
        }
        ExtensionType::SESSION_TICKET => {
            if !b.is_empty() || !offered(ExtensionSlot::SessionTicket) {
                return Err(Error::UnsupportedExtension);
            }
            hello.ticket_agreed = true;
        }
        ExtensionType::STATUS_REQUEST => {
            if !b.is_empty() || !offered(ExtensionSlot::StatusRequest) {
                return Err(Error::UnsupportedExtension);
            }
            expect.status_expected = true;
        }
        ExtensionType::SCT => {
            if !offered(ExtensionSlot::Sct) {
                return Err(Error::UnsupportedExtension);
            }
            expect.scts = Some(b.to_vec());
        }
        ExtensionType::ALPN => {
            if profile.alpn.is_empty() || !offered(ExtensionSlot::Alpn) {
                return Err(Error::UnsupportedExtension);
            }
            let p = messages::alpn_selected(b)?;
            if !profile.alpn.iter().any(|a| a.as_slice() == p) {
                return Err(Error::UnofferedAlpn);
            }
            hello.alpn = Some(p.to_vec());
        }
        ExtensionType::SERVER_NAME => {
            if config.server_name.is_none() || !b.is_empty() {
                return Err(Error::UnsupportedExtension);
            }
        }
        ExtensionType::RECORD_SIZE_LIMIT => {
            if profile.record_size_limit.is_none() || !offered(ExtensionSlot::RecordSizeLimit) {
                return Err(Error::UnsupportedExtension);
            }
            let l = messages::u16_body(b)?;
            if l < 64 {
                return Err(Error::IllegalParameter);
            }
            out.set_peer_record_size_limit(l.saturating_add(1));
        }
        _ => return Err(Error::UnsupportedExtension),
    }
    Ok(false)
}

/// Waiting for the server's Certificate.
pub(crate) struct ExpectCertificate {
    hello: Hello12,
    transcript: Transcript12,
    expect: CertificateExpectations,
    shares: OurShares,
}

impl ExpectCertificate {
    fn handle(mut self: Box<Self>, m: Message<'_>) -> Result<Tls12, Error> {
        let chain: Vec<Vec<u8>> = msgs::certificate(m.body)?
            .iter()
            .map(|c| c.to_vec())
            .collect();
        if chain.is_empty() {
            return Err(Error::BadCertificate);
        }
        self.transcript.update(m.raw);
        Ok(Tls12::KeyExchange(Box::new(ExpectKeyExchange {
            hello: self.hello,
            transcript: self.transcript,
            expect: self.expect,
            shares: self.shares,
            chain,
            ocsp: None,
        })))
    }
}

/// Waiting for CertificateStatus (if stapling was agreed) or ServerKeyExchange.
pub(crate) struct ExpectKeyExchange {
    hello: Hello12,
    transcript: Transcript12,
    expect: CertificateExpectations,
    shares: OurShares,
    /// DER certificates, leaf first (never empty).
    chain: Vec<Vec<u8>>,
    /// The stapled OCSP response, once CertificateStatus came.
    ocsp: Option<Vec<u8>>,
}

impl ExpectKeyExchange {
    fn handle_certificate_status(mut self: Box<Self>, m: Message<'_>) -> Result<Tls12, Error> {
        if !self.expect.status_expected || self.ocsp.is_some() {
            return Err(Error::UnexpectedMessage);
        }
        self.ocsp = Some(msgs::certificate_status(m.body)?.to_vec());
        self.transcript.update(m.raw);
        Ok(Tls12::KeyExchange(self))
    }

    fn handle_server_key_exchange(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Tls12, Error> {
        let ske = msgs::server_key_exchange(m.body)?;
        let config = env.config;
        if !config.profile.groups.contains(&ske.group) {
            return Err(Error::UnofferedGroup);
        }
        if !config.profile.signature_schemes.contains(&ske.scheme) {
            return Err(Error::UnofferedSignatureScheme);
        }
        if !signature::scheme_fits(self.hello.suite.auth, ske.scheme) {
            return Err(Error::IllegalParameter);
        }
        let leaf = self.chain.first().ok_or(Error::BadCertificate)?;
        let mut signed = Vec::with_capacity(ske.params.len().saturating_add(64));
        signed.extend_from_slice(&self.hello.client_random);
        signed.extend_from_slice(&self.hello.server_random);
        signed.extend_from_slice(ske.params);
        let signed_content = match config.signature_check {
            SignatureCheck::Inline => {
                signature::check_signature(ske.scheme, leaf, &signed, ske.signature)?;
                None
            }
            SignatureCheck::Caller => {
                let (_, algorithm, spki) = signature::tls12_key(ske.scheme, leaf)?;
                Some(SignedContent {
                    scheme: ske.scheme,
                    message: signed,
                    signature: ske.signature.to_vec(),
                    algorithm,
                    spki: spki.to_vec(),
                })
            }
        };
        let kx = self.shares.complete(ske.group, ske.point)?;
        self.transcript.update(m.raw);
        out.emit(Event::NeedVerify(VerifyRequest {
            server_name: config.server_name.clone(),
            chain: self.chain,
            ocsp_response: self.ocsp,
            scts: self.expect.scts,
            now_ms: env.now_ms,
            signed: signed_content,
        }));
        Ok(Tls12::AwaitVerify(Box::new(AwaitVerify {
            hello: self.hello,
            transcript: self.transcript,
            kx,
        })))
    }
}

impl OurShares {
    /// Our ECDHE key for `group`: the ClientHello's share for it, or a fresh one from the
    /// retry seed; completed with the server's point.
    fn complete(self, group: NamedGroup, point: &[u8]) -> Result<KeyExchange12, Error> {
        let g = Group::from_codepoint(group.0).ok_or(Error::UnsupportedGroup(group))?;
        let fresh;
        let mine = match self.shares.iter().find(|s| s.group() == g) {
            Some(s) => s,
            None => {
                let seed = self.retry_seed.get(..g.seed_len()).ok_or(Error::Misuse)?;
                fresh = KeyShare::from_seed(g, seed).map_err(|_| Error::Misuse)?;
                &fresh
            }
        };
        let shared = mine.complete(point).map_err(Error::KeyExchange)?;
        Ok(KeyExchange12 {
            group,
            pre_master: Secret::copy_of(shared.as_ref()),
            our_public: mine.public_key().to_vec(),
        })
    }
}

/// The caller is validating the chain ([`Event::NeedVerify`]).
pub(crate) struct AwaitVerify {
    hello: Hello12,
    transcript: Transcript12,
    kx: KeyExchange12,
}

/// Waiting for CertificateRequest or ServerHelloDone.
pub(crate) struct ExpectHelloDone {
    hello: Hello12,
    transcript: Transcript12,
    kx: KeyExchange12,
    /// A CertificateRequest came: our Certificate answers it, with this chain and scheme
    /// (`Some(None)`: an empty Certificate).
    cert_request: Option<Option<Chosen>>,
}

impl ExpectHelloDone {
    fn handle_certificate_request(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
    ) -> Result<Tls12, Error> {
        if self.cert_request.is_some() {
            return Err(Error::UnexpectedMessage);
        }
        let req = client_auth::certificate_request12(m.body)?;
        let chosen = client_auth::choose(
            env.config.client_certificate.as_ref(),
            &env.config.profile.signature_schemes,
            &req.schemes,
            false,
        )
        .filter(|c| client_auth::type_allowed(&req, c.algorithm));
        self.cert_request = Some(chosen);
        self.transcript.update(m.raw);
        Ok(Tls12::HelloDone(self))
    }

    /// ServerHelloDone: our flight, then wait for the server's ChangeCipherSpec.
    fn handle_server_hello_done(
        mut self: Box<Self>,
        m: Message<'_>,
        out: &mut dyn Output,
    ) -> Result<Tls12, Error> {
        if !m.body.is_empty() {
            return Err(Error::Decode);
        }
        self.transcript.update(m.raw);
        let sent_empty_certificate = matches!(self.cert_request, Some(None));
        let chosen = match self.cert_request.take() {
            Some(chosen) => {
                let chain = chosen.as_ref().map_or(&[][..], |c| c.chain.as_slice());
                let b = client_auth::certificate_body(None, chain)?;
                let c = crate::codec::handshake_message(HandshakeType::CERTIFICATE.0, &b)?;
                out.send_handshake(&c)?;
                self.transcript.update(&c);
                chosen
            }
            None => None,
        };
        let mut cke = Vec::new();
        crate::codec::put_vec(&mut cke, 1, &self.kx.our_public)?;
        let cke = crate::codec::handshake_message(HandshakeType::CLIENT_KEY_EXCHANGE.0, &cke)?;
        out.send_handshake(&cke)?;
        self.transcript.update(&cke);
        let hello = &self.hello;
        let session_hash = self.transcript.hash();
        let master = keys::master_secret(
            hello.suite,
            &self.kx.pre_master,
            hello.ems.then_some(session_hash.as_ref()),
            &hello.client_random,
            &hello.server_random,
        )?;
        let rest = RestOfFlight12 {
            hello: self.hello,
            transcript: self.transcript,
            master,
            group: self.kx.group,
            sent_empty_certificate,
        };
        let Some(chosen) = chosen else {
            return rest.finish(out);
        };
        // RFC 5246 §7.4.8: the signature covers every handshake message through ours so far.
        let message = rest.transcript.raw.clone().ok_or(Error::Internal)?;
        out.emit(Event::NeedSign(SignRequest {
            scheme: chosen.scheme,
            algorithm: chosen.algorithm,
            message,
        }));
        Ok(Tls12::AwaitSign(Box::new(AwaitSign {
            rest,
            scheme: chosen.scheme,
        })))
    }
}

/// Our full-handshake flight once ClientKeyExchange is out and the master secret known:
/// [CertificateVerify], ChangeCipherSpec, Finished.
struct RestOfFlight12 {
    hello: Hello12,
    transcript: Transcript12,
    master: Secret,
    group: NamedGroup,
    /// The server asked for a certificate and our Certificate was empty.
    sent_empty_certificate: bool,
}

impl RestOfFlight12 {
    fn finish(mut self, out: &mut dyn Output) -> Result<Tls12, Error> {
        // Nothing more to sign: drop the raw messages.
        self.transcript.raw = None;
        let hello = &self.hello;
        let master = self.master;
        let kb = key_block(out, hello, &master)?;
        let ours = make_keys(out, hello, &kb, false)?;
        out.send_change_cipher_spec(ours)?;
        let server_keys = make_keys(out, hello, &kb, true)?;
        let th = self.transcript.hash();
        let vd = keys::verify_data(hello.suite, &master, b"client finished", th.as_ref())?;
        let fin = crate::codec::handshake_message(HandshakeType::FINISHED.0, &vd)?;
        out.send_handshake(&fin)?;
        self.transcript.update(&fin);
        Ok(Tls12::ChangeCipherSpec(Box::new(ExpectChangeCipherSpec {
            ticket_may_come: self.hello.ticket_agreed,
            hello: self.hello,
            transcript: self.transcript,
            master,
            server_keys,
            kind: Kind12::Full { group: self.group },
            new_ticket: None,
            sent_empty_certificate: self.sent_empty_certificate,
        })))
    }
}

/// The caller is signing our CertificateVerify ([`Event::NeedSign`]).
pub(crate) struct AwaitSign {
    rest: RestOfFlight12,
    scheme: SignatureScheme,
}

impl AwaitSign {
    fn complete(
        mut self: Box<Self>,
        signature: &[u8],
        out: &mut dyn Output,
    ) -> Result<Tls12, Error> {
        let b = client_auth::certificate_verify_body(self.scheme, signature)?;
        let cv = crate::codec::handshake_message(HandshakeType::CERTIFICATE_VERIFY.0, &b)?;
        out.send_handshake(&cv)?;
        self.rest.transcript.update(&cv);
        self.rest.finish(out)
    }
}

/// Waiting for NewSessionTicket (if agreed) or the server's ChangeCipherSpec.
pub(crate) struct ExpectChangeCipherSpec {
    hello: Hello12,
    transcript: Transcript12,
    master: Secret,
    /// The server's keys, in force from the record after its ChangeCipherSpec.
    server_keys: TrafficKeys,
    kind: Kind12,
    /// A NewSessionTicket may still come (agreed, and none came yet).
    ticket_may_come: bool,
    /// A NewSessionTicket from this handshake: (lifetime hint, ticket).
    new_ticket: Option<(u32, Vec<u8>)>,
    /// The server asked for a certificate and our Certificate was empty.
    sent_empty_certificate: bool,
}

impl ExpectChangeCipherSpec {
    fn handle_new_session_ticket(mut self: Box<Self>, m: Message<'_>) -> Result<Tls12, Error> {
        if !self.ticket_may_come {
            return Err(Error::UnexpectedMessage);
        }
        self.ticket_may_come = false;
        let (hint, ticket) = msgs::new_session_ticket(m.body)?;
        // An empty ticket means "no ticket this time" (RFC 5077 §3.3).
        if !ticket.is_empty() {
            self.new_ticket = Some((hint, ticket.to_vec()));
        }
        self.transcript.update(m.raw);
        Ok(Tls12::ChangeCipherSpec(self))
    }

    /// The server's ChangeCipherSpec: its keys take effect for the next record.
    fn change_cipher_spec(self: Box<Self>, out: &mut dyn Output) -> Tls12 {
        out.read_with(self.server_keys);
        Tls12::Finished(Box::new(ExpectFinished {
            hello: self.hello,
            transcript: self.transcript,
            master: self.master,
            kind: self.kind,
            new_ticket: self.new_ticket,
        }))
    }
}

/// Waiting for the server's Finished.
pub(crate) struct ExpectFinished {
    hello: Hello12,
    transcript: Transcript12,
    master: Secret,
    kind: Kind12,
    new_ticket: Option<(u32, Vec<u8>)>,
}

impl ExpectFinished {
    fn handle(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Traffic12, Error> {
        if m.body.len() != 12 {
            return Err(Error::Decode);
        }
        let suite = self.hello.suite;
        let th = self.transcript.hash();
        let want = keys::verify_data(suite, &self.master, b"server finished", th.as_ref())?;
        let good =
            crate::fuzz_mode::server_finished(m.body).unwrap_or_else(|| keys::ct_eq(&want, m.body));
        if !good {
            return Err(Error::BadFinished);
        }
        let (group, alpn, resumed) = match self.kind {
            Kind12::Full { group } => (group, self.hello.alpn.clone(), false),
            Kind12::Abbreviated { our_keys, ticket } => {
                // Abbreviated handshake: our CCS and Finished follow the server's.
                self.transcript.update(m.raw);
                out.send_change_cipher_spec(our_keys)?;
                let th = self.transcript.hash();
                let vd = keys::verify_data(suite, &self.master, b"client finished", th.as_ref())?;
                let fin = crate::codec::handshake_message(HandshakeType::FINISHED.0, &vd)?;
                out.send_handshake(&fin)?;
                // No key exchange: HandshakeSummary::group documents 0 for this case.
                (NamedGroup(0), self.hello.alpn.clone().or(ticket.alpn), true)
            }
        };
        out.emit(Event::HandshakeDone(HandshakeSummary {
            cipher_suite: suite.id,
            group,
            alpn: alpn.clone(),
            resumed,
            hello_retry: false,
            early_data_accepted: false,
            extended_master_secret: Some(self.hello.ems),
        }));
        // Without EMS the session is not resumable (triple handshake, RFC 7627 §1): its
        // ticket is dropped.
        if let Some((hint, ticket)) = self.new_ticket.take().filter(|_| self.hello.ems) {
            // A lifetime hint of 0 means unspecified: keep it for an hour at most.
            let lifetime_s = if hint == 0 {
                3600
            } else {
                hint.min(7 * 24 * 3600)
            };
            out.emit(Event::NewSessionTicket(Ticket {
                suite: suite.id,
                psk: self.master.clone(),
                ticket,
                age_add: 0,
                lifetime_s,
                received_ms: env.now_ms,
                max_early_data: None,
                server_name: env.config.server_name.clone(),
                alpn,
                tls12: true,
                ems: self.hello.ems,
            }));
        }
        Ok(Traffic12)
    }
}
