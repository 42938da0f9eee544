//! The TLS 1.2 client handshake (RFC 5246 with ECDHE per RFC 8422, extended master secret per
//! RFC 7627, renegotiation_info per RFC 5746), entered from `ExpectServerHello` when the server
//! picks 1.2. Same transcript (the first ClientHello), same certificate request to the caller.
//!
//! Flow: ServerHello → Certificate → [CertificateStatus] → ServerKeyExchange (signature checked,
//! then [`Event::NeedVerify`]) → [CertificateRequest] → ServerHelloDone → our [Certificate],
//! ClientKeyExchange, ChangeCipherSpec, Finished → [NewSessionTicket] → server
//! ChangeCipherSpec, Finished. Resumption (RFC 5077): ServerHello echoing our session id →
//! [NewSessionTicket] → server ChangeCipherSpec, Finished → our ChangeCipherSpec, Finished.
//!
//! Decisions: a server without extended master secret is accepted unless
//! [`Config::require_extended_master_secret`](crate::Config), but such a session is never
//! resumed: its tickets are dropped and a resumption without EMS is refused (RFC 7627 §5.3,
//! the triple handshake needs resumption); renegotiation_info must be
//! present and empty; HelloRequest is ignored during the handshake and answered with a
//! `no_renegotiation` warning afterwards (the connection stays up; more than
//! [`MAX_HELLO_REQUESTS`] of them is an `unexpected_message` error); no renegotiation ever.

use crate::conn::{Event, HandshakeSummary, Io};
use crate::hello;
use crate::messages::{self, ServerHello};
use crate::profile::ExtensionSlot;
use crate::state::State;
use crate::suites::{self, Auth, Suite12};
use crate::tls12_keys as keys;
use crate::tls12_msgs as msgs;
use crate::verify::{SignatureCheck, SignedContent, VerifyRequest};
use crate::{
    Error, ExtensionType, HandshakeType, KeyLogEntry, NamedGroup, SignatureScheme, Ticket,
};
use burrow_crypto::hash::Context;
use burrow_crypto::kx::{Group, KeyShare};
use burrow_crypto::sig::{self, VerifyAlgorithm};
use burrow_crypto::CryptoError;
use burrow_record::{ContentType, TrafficKeys};

/// HelloRequests answered with `no_renegotiation` before the connection is failed.
pub(crate) const MAX_HELLO_REQUESTS: u32 = 4;

/// What the 1.3 ClientHello state hands over.
pub(crate) struct Start12 {
    pub(crate) client_random: [u8; 32],
    pub(crate) client_hello: Vec<u8>,
    pub(crate) shares: Vec<KeyShare>,
    pub(crate) retry_seed: Vec<u8>,
    pub(crate) hello_retry: bool,
    pub(crate) session_id: Vec<u8>,
    /// A TLS 1.2 ticket offered in the ClientHello.
    pub(crate) resume: Option<Ticket>,
}

/// The TLS 1.2 handshake in progress.
pub(crate) struct Hs12 {
    suite: Suite12,
    transcript: Context,
    client_random: [u8; 32],
    server_random: [u8; 32],
    shares: Vec<KeyShare>,
    retry_seed: Vec<u8>,
    ems: bool,
    alpn: Option<Vec<u8>>,
    status_expected: bool,
    ticket_expected: bool,
    leaf: Vec<u8>,
    chain: Vec<Vec<u8>>,
    ocsp: Option<Vec<u8>>,
    scts: Option<Vec<u8>>,
    group: NamedGroup,
    pre_master: Vec<u8>,
    our_public: Vec<u8>,
    cert_requested: bool,
    master: [u8; 48],
    server_keys: Option<TrafficKeys>,
    /// Abbreviated handshake: our keys, installed after the server's Finished.
    our_keys: Option<TrafficKeys>,
    /// Abbreviated handshake (ticket resumption): the server's Finished comes first.
    abbreviated: bool,
    /// A NewSessionTicket from this handshake: (lifetime hint, ticket).
    new_ticket: Option<(u32, Vec<u8>)>,
    /// The ticket we resumed with (its ALPN and EMS must carry over).
    resumed_from: Option<Ticket>,
}

/// Application data under TLS 1.2.
pub(crate) struct Traffic12 {
    hello_requests: u32,
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
    io: &mut Io,
) -> Result<State, Error> {
    let profile = &io.config.profile;
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
    let mut hs = Hs12 {
        suite,
        transcript: Context::new(suite.hash),
        client_random: start.client_random,
        server_random: sh.random,
        shares: start.shares,
        retry_seed: start.retry_seed,
        ems: false,
        alpn: None,
        status_expected: false,
        ticket_expected: false,
        leaf: Vec::new(),
        chain: Vec::new(),
        ocsp: None,
        scts: None,
        group: NamedGroup(0),
        pre_master: Vec::new(),
        our_public: Vec::new(),
        cert_requested: false,
        master: [0u8; 48],
        server_keys: None,
        our_keys: None,
        abbreviated: false,
        new_ticket: None,
        resumed_from: None,
    };
    hs.server_hello_extensions(sh, io)?;
    hs.transcript.update(&start.client_hello);
    hs.transcript.update(msg);
    io.reader.set_deliver_ccs(true);
    match start.resume {
        Some(t) if !start.session_id.is_empty() && sh.session_id == start.session_id => {
            hs.resume(t, io)?;
            Ok(State::Tls12ChangeCipherSpec(Box::new(hs)))
        }
        _ => Ok(State::Tls12Certificate(Box::new(hs))),
    }
}

impl Hs12 {
    /// The server echoed our session id for the ticket we offered: abbreviated handshake
    /// (RFC 5077 §3.4) with the ticket's master secret.
    fn resume(&mut self, t: Ticket, io: &mut Io) -> Result<(), Error> {
        if t.suite != self.suite.id || t.ems != self.ems || !self.ems {
            // RFC 7627 §5.3: a resumption must keep the original session's EMS state, and a
            // session without EMS is never resumed (no such ticket is ever issued to us).
            return Err(Error::IllegalParameter);
        }
        if self.alpn.is_some() && t.alpn.is_some() && self.alpn != t.alpn {
            return Err(Error::IllegalParameter);
        }
        self.master = t.psk.as_slice().try_into().map_err(|_| Error::Misuse)?;
        io.log_secret(KeyLogEntry::CLIENT_RANDOM, &self.master);
        let kb = keys::key_block(
            self.suite,
            &self.master,
            &self.client_random,
            &self.server_random,
        )?;
        self.server_keys =
            Some(io.tls12_keys(self.suite.aead, &kb.server_key, &kb.server_iv, true)?);
        self.our_keys =
            Some(io.tls12_keys(self.suite.aead, &kb.client_key, &kb.client_iv, false)?);
        self.group = NamedGroup(0);
        self.abbreviated = true;
        self.resumed_from = Some(t);
        Ok(())
    }

    fn server_hello_extensions(&mut self, sh: &ServerHello<'_>, io: &mut Io) -> Result<(), Error> {
        let profile = &io.config.profile;
        let offered = |s| hello::offered(profile, s);
        let mut reneg = false;
        for (t, b) in &sh.extensions {
            match *t {
                ExtensionType::RENEGOTIATION_INFO => {
                    // Initial handshake: renegotiated_connection must be empty.
                    // Offered by the extension or by the SCSV (RFC 5746 §3.4).
                    let scsv = profile.cipher_suites.contains(&crate::CipherSuite(0x00ff));
                    if *b != [0u8] || !(offered(ExtensionSlot::RenegotiationInfo) || scsv) {
                        return Err(Error::InsecureRenegotiation);
                    }
                    reneg = true;
                }
                ExtensionType::EXTENDED_MASTER_SECRET => {
                    if !b.is_empty() || !offered(ExtensionSlot::ExtendedMasterSecret) {
                        return Err(Error::UnsupportedExtension);
                    }
                    self.ems = true;
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
                    self.ticket_expected = true;
                }
                ExtensionType::STATUS_REQUEST => {
                    if !b.is_empty() || !offered(ExtensionSlot::StatusRequest) {
                        return Err(Error::UnsupportedExtension);
                    }
                    self.status_expected = true;
                }
                ExtensionType::SCT => {
                    if !offered(ExtensionSlot::Sct) {
                        return Err(Error::UnsupportedExtension);
                    }
                    self.scts = Some(b.to_vec());
                }
                ExtensionType::ALPN => {
                    if profile.alpn.is_empty() || !offered(ExtensionSlot::Alpn) {
                        return Err(Error::UnsupportedExtension);
                    }
                    let p = messages::alpn_selected(b)?;
                    if !profile.alpn.iter().any(|a| a.as_slice() == p) {
                        return Err(Error::UnofferedAlpn);
                    }
                    self.alpn = Some(p.to_vec());
                }
                ExtensionType::SERVER_NAME => {
                    if io.config.server_name.is_none() || !b.is_empty() {
                        return Err(Error::UnsupportedExtension);
                    }
                }
                ExtensionType::RECORD_SIZE_LIMIT => {
                    if profile.record_size_limit.is_none()
                        || !offered(ExtensionSlot::RecordSizeLimit)
                    {
                        return Err(Error::UnsupportedExtension);
                    }
                    let l = messages::u16_body(b)?;
                    if l < 64 {
                        return Err(Error::IllegalParameter);
                    }
                    io.writer.set_peer_record_size_limit(l.saturating_add(1));
                }
                _ => return Err(Error::UnsupportedExtension),
            }
        }
        if !reneg {
            return Err(Error::InsecureRenegotiation);
        }
        if !self.ems && io.config.require_extended_master_secret {
            return Err(Error::ExtendedMasterSecretMissing);
        }
        Ok(())
    }

    pub(crate) fn handle_certificate(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
    ) -> Result<State, Error> {
        let chain = msgs::certificate(body)?;
        self.chain = chain.iter().map(|c| c.to_vec()).collect();
        self.leaf = self.chain.first().cloned().ok_or(Error::BadCertificate)?;
        self.transcript.update(msg);
        Ok(State::Tls12KeyExchange(self))
    }

    pub(crate) fn handle_certificate_status(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
    ) -> Result<State, Error> {
        if !self.status_expected || self.ocsp.is_some() {
            return Err(Error::UnexpectedMessage);
        }
        self.ocsp = Some(msgs::certificate_status(body)?.to_vec());
        self.transcript.update(msg);
        Ok(State::Tls12KeyExchange(self))
    }

    pub(crate) fn handle_server_key_exchange(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let ske = msgs::server_key_exchange(body)?;
        let profile = &io.config.profile;
        if !profile.groups.contains(&ske.group) {
            return Err(Error::UnofferedGroup);
        }
        if !profile.signature_schemes.contains(&ske.scheme) {
            return Err(Error::UnofferedSignatureScheme);
        }
        if !scheme_fits(self.suite.auth, ske.scheme) {
            return Err(Error::IllegalParameter);
        }
        let mut signed = Vec::with_capacity(ske.params.len().saturating_add(64));
        signed.extend_from_slice(&self.client_random);
        signed.extend_from_slice(&self.server_random);
        signed.extend_from_slice(ske.params);
        let signed_content = match io.config.signature_check {
            SignatureCheck::Inline => {
                check_signature(ske.scheme, &self.leaf, &signed, ske.signature)?;
                None
            }
            SignatureCheck::Caller => {
                let spki = crate::der::spki_of(&self.leaf)?;
                Some(SignedContent {
                    scheme: ske.scheme,
                    message: signed,
                    signature: ske.signature.to_vec(),
                    algorithm: algorithm12(ske.scheme, spki)
                        .ok_or(Error::UnofferedSignatureScheme)?,
                    spki: spki.to_vec(),
                })
            }
        };
        // Our ECDHE key: the ClientHello's share for that group, or a fresh one from the
        // retry seed.
        let group = Group::from_codepoint(ske.group.0).ok_or(Error::UnsupportedGroup(ske.group))?;
        let fresh;
        let mine = match self.shares.iter().find(|s| s.group() == group) {
            Some(s) => s,
            None => {
                let seed = self
                    .retry_seed
                    .get(..group.seed_len())
                    .ok_or(Error::Misuse)?;
                fresh = KeyShare::from_seed(group, seed).map_err(|_| Error::Misuse)?;
                &fresh
            }
        };
        let shared = mine.complete(ske.point).map_err(Error::KeyExchange)?;
        self.pre_master = shared.as_ref().to_vec();
        self.our_public = mine.public_key().to_vec();
        self.group = ske.group;
        self.shares.clear();
        self.transcript.update(msg);
        io.events.push_back(Event::NeedVerify(VerifyRequest {
            server_name: io.config.server_name.clone(),
            chain: core::mem::take(&mut self.chain),
            ocsp_response: self.ocsp.take(),
            scts: self.scts.take(),
            now_ms: io.now_ms,
            signed: signed_content,
        }));
        Ok(State::Tls12AwaitVerify(self))
    }

    pub(crate) fn handle_certificate_request(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
    ) -> Result<State, Error> {
        if self.cert_requested {
            return Err(Error::UnexpectedMessage);
        }
        msgs::certificate_request(body)?;
        self.cert_requested = true;
        self.transcript.update(msg);
        Ok(State::Tls12HelloDone(self))
    }

    /// ServerHelloDone: our flight, then wait for the server's ChangeCipherSpec.
    pub(crate) fn handle_server_hello_done(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        if !body.is_empty() {
            return Err(Error::Decode);
        }
        self.transcript.update(msg);
        if self.cert_requested {
            let m = crate::codec::handshake_message(HandshakeType::CERTIFICATE.0, &[0, 0, 0])?;
            io.send_handshake(&m)?;
            self.transcript.update(&m);
        }
        let mut cke = Vec::new();
        crate::codec::put_vec(&mut cke, 1, &self.our_public)?;
        let cke = crate::codec::handshake_message(HandshakeType::CLIENT_KEY_EXCHANGE.0, &cke)?;
        io.send_handshake(&cke)?;
        self.transcript.update(&cke);
        let session_hash = self.transcript.clone().finish();
        self.master = keys::master_secret(
            self.suite,
            &self.pre_master,
            self.ems.then_some(session_hash.as_ref()),
            &self.client_random,
            &self.server_random,
        )?;
        self.pre_master.clear();
        io.log_secret(KeyLogEntry::CLIENT_RANDOM, &self.master);
        let kb = keys::key_block(
            self.suite,
            &self.master,
            &self.client_random,
            &self.server_random,
        )?;
        io.write_record(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
        let ours = io.tls12_keys(self.suite.aead, &kb.client_key, &kb.client_iv, false)?;
        io.writer.set_keys(Some(ours));
        self.server_keys =
            Some(io.tls12_keys(self.suite.aead, &kb.server_key, &kb.server_iv, true)?);
        let th = self.transcript.clone().finish();
        let vd = keys::verify_data(self.suite, &self.master, b"client finished", th.as_ref())?;
        let fin = crate::codec::handshake_message(HandshakeType::FINISHED.0, &vd)?;
        io.send_handshake(&fin)?;
        self.transcript.update(&fin);
        Ok(State::Tls12ChangeCipherSpec(self))
    }

    pub(crate) fn handle_new_session_ticket(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
    ) -> Result<State, Error> {
        if !self.ticket_expected {
            return Err(Error::UnexpectedMessage);
        }
        self.ticket_expected = false;
        let (hint, ticket) = msgs::new_session_ticket(body)?;
        // An empty ticket means "no ticket this time" (RFC 5077 §3.3).
        if !ticket.is_empty() {
            self.new_ticket = Some((hint, ticket.to_vec()));
        }
        self.transcript.update(msg);
        Ok(State::Tls12ChangeCipherSpec(self))
    }

    /// The server's ChangeCipherSpec: its keys take effect for the next record.
    pub(crate) fn change_cipher_spec(mut self: Box<Self>, io: &mut Io) -> Result<State, Error> {
        let k = self.server_keys.take().ok_or(Error::Internal)?;
        io.reader.set_keys(Some(k));
        Ok(State::Tls12Finished(self))
    }

    pub(crate) fn handle_finished(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        if body.len() != 12 {
            return Err(Error::Decode);
        }
        let th = self.transcript.clone().finish();
        let want = keys::verify_data(self.suite, &self.master, b"server finished", th.as_ref())?;
        if !keys::ct_eq(&want, body) {
            return Err(Error::BadFinished);
        }
        io.reader.set_deliver_ccs(false);
        if self.abbreviated {
            // Abbreviated handshake: our CCS and Finished follow the server's.
            self.transcript.update(msg);
            io.write_record(ContentType::CHANGE_CIPHER_SPEC, &[1])?;
            io.writer.set_keys(self.our_keys.take());
            let th = self.transcript.clone().finish();
            let vd = keys::verify_data(self.suite, &self.master, b"client finished", th.as_ref())?;
            let fin = crate::codec::handshake_message(HandshakeType::FINISHED.0, &vd)?;
            io.send_handshake(&fin)?;
        }
        let alpn = match (&self.alpn, &self.resumed_from) {
            (None, Some(t)) => t.alpn.clone(),
            (a, _) => a.clone(),
        };
        io.events.push_back(Event::HandshakeDone(HandshakeSummary {
            cipher_suite: self.suite.id,
            group: self.group,
            alpn: alpn.clone(),
            resumed: self.abbreviated,
            hello_retry: false,
            early_data_accepted: false,
            extended_master_secret: Some(self.ems),
        }));
        // Without EMS the session is not resumable (triple handshake, RFC 7627 §1): its
        // ticket is dropped.
        if let Some((hint, ticket)) = self.new_ticket.take().filter(|_| self.ems) {
            // A lifetime hint of 0 means unspecified: keep it for an hour at most.
            let lifetime_s = if hint == 0 {
                3600
            } else {
                hint.min(7 * 24 * 3600)
            };
            io.events.push_back(Event::NewSessionTicket(Ticket {
                suite: self.suite.id,
                psk: self.master.to_vec(),
                ticket,
                age_add: 0,
                lifetime_s,
                received_ms: io.now_ms,
                max_early_data: None,
                server_name: io.config.server_name.clone(),
                alpn,
                tls12: true,
                ems: self.ems,
            }));
        }
        Ok(State::Tls12Traffic(Box::new(Traffic12 {
            hello_requests: 0,
        })))
    }
}

impl Traffic12 {
    /// Post-handshake messages: only HelloRequest exists, and renegotiation is refused.
    pub(crate) fn handle(
        mut self: Box<Self>,
        typ: HandshakeType,
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        if typ != HandshakeType::HELLO_REQUEST || !body.is_empty() {
            return Err(Error::UnexpectedMessage);
        }
        self.hello_requests = self.hello_requests.saturating_add(1);
        if self.hello_requests > MAX_HELLO_REQUESTS {
            return Err(Error::UnexpectedMessage);
        }
        // warning(1) no_renegotiation(100), RFC 5246 §7.2.2.
        io.write_record(ContentType::ALERT, &[1, 100])?;
        Ok(State::Tls12Traffic(self))
    }
}

/// Whether a scheme can sign for the suite's authentication (ECDHE_ECDSA also covers Ed25519,
/// RFC 8422 §5.1.1; no SHA-1).
fn scheme_fits(auth: Auth, s: SignatureScheme) -> bool {
    match auth {
        Auth::Ecdsa => matches!(
            s,
            SignatureScheme::ECDSA_SECP256R1_SHA256
                | SignatureScheme::ECDSA_SECP384R1_SHA384
                | SignatureScheme::ECDSA_SECP521R1_SHA512
                | SignatureScheme::ED25519
        ),
        Auth::Rsa => matches!(
            s,
            SignatureScheme::RSA_PKCS1_SHA256
                | SignatureScheme::RSA_PKCS1_SHA384
                | SignatureScheme::RSA_PKCS1_SHA512
                | SignatureScheme::RSA_PSS_RSAE_SHA256
                | SignatureScheme::RSA_PSS_RSAE_SHA384
                | SignatureScheme::RSA_PSS_RSAE_SHA512
        ),
    }
}

/// DER of the secp384r1 OID (1.3.132.0.34), to tell a P-384 key from a P-256 one.
const P384_OID: [u8; 7] = [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22];
/// DER of the secp521r1 OID (1.3.132.0.35).
const P521_OID: [u8; 7] = [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23];

/// In TLS 1.2 an ECDSA scheme names only the hash; the curve is the key's.
fn algorithm12(s: SignatureScheme, spki: &[u8]) -> Option<VerifyAlgorithm> {
    let p384 = spki.windows(P384_OID.len()).any(|w| w == P384_OID);
    if spki.windows(P521_OID.len()).any(|w| w == P521_OID) {
        return match s {
            SignatureScheme::ECDSA_SECP256R1_SHA256 => Some(VerifyAlgorithm::EcdsaP521Sha256),
            SignatureScheme::ECDSA_SECP384R1_SHA384 => Some(VerifyAlgorithm::EcdsaP521Sha384),
            SignatureScheme::ECDSA_SECP521R1_SHA512 => Some(VerifyAlgorithm::EcdsaP521Sha512),
            _ => None,
        };
    }
    Some(match (s, p384) {
        (SignatureScheme::ECDSA_SECP256R1_SHA256, false) => VerifyAlgorithm::EcdsaP256Sha256,
        (SignatureScheme::ECDSA_SECP256R1_SHA256, true) => VerifyAlgorithm::EcdsaP384Sha256,
        (SignatureScheme::ECDSA_SECP384R1_SHA384, false) => VerifyAlgorithm::EcdsaP256Sha384,
        (SignatureScheme::ECDSA_SECP384R1_SHA384, true) => VerifyAlgorithm::EcdsaP384Sha384,
        (SignatureScheme::ED25519, _) => VerifyAlgorithm::Ed25519,
        (SignatureScheme::RSA_PKCS1_SHA256, _) => VerifyAlgorithm::RsaPkcs1Sha256,
        (SignatureScheme::RSA_PKCS1_SHA384, _) => VerifyAlgorithm::RsaPkcs1Sha384,
        (SignatureScheme::RSA_PKCS1_SHA512, _) => VerifyAlgorithm::RsaPkcs1Sha512,
        (SignatureScheme::RSA_PSS_RSAE_SHA256, _) => VerifyAlgorithm::RsaPssSha256,
        (SignatureScheme::RSA_PSS_RSAE_SHA384, _) => VerifyAlgorithm::RsaPssSha384,
        (SignatureScheme::RSA_PSS_RSAE_SHA512, _) => VerifyAlgorithm::RsaPssSha512,
        _ => return None,
    })
}

fn check_signature(
    s: SignatureScheme,
    leaf: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let spki = crate::der::spki_of(leaf)?;
    let alg = algorithm12(s, spki).ok_or(Error::UnofferedSignatureScheme)?;
    sig::verify(alg, spki, message, signature).map_err(|e| match e {
        CryptoError::BadSignature => Error::BadKeyExchangeSignature,
        _ => Error::BadCertificate,
    })
}
