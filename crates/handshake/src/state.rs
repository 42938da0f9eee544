//! The handshake steps: one struct per step, collected in a closed enum.

use crate::conn::{Entropy, Event, HandshakeSummary, Io};
use crate::hello::{self, HelloInput, HelloShape, PskOffer};
use crate::keyschedule as ks;
use crate::messages::{self, ServerHello};
use crate::post::Traffic;
use crate::profile::{ExtensionSlot, Unperformable};
use crate::suites::{self, Suite};
use crate::tls12::{self, Hs12, Start12, Traffic12};
use crate::verify::{self, SignatureCheck, SignedContent, VerifyRequest};
use crate::{Answer, Error, ExtensionType, HandshakeType, KeyLogEntry, NamedGroup, Ticket};
use burrow_crypto::hash::{self, Context};
use burrow_crypto::kx::{Group, KeyShare};

/// Where the handshake is.
pub(crate) enum State {
    ExpectServerHello(Box<ExpectServerHello>),
    ExpectEncryptedExtensions(Box<Hs>),
    ExpectCertificate(Box<Hs>),
    ExpectCertificateVerify(Box<Hs>),
    AwaitVerify(Box<Hs>),
    ExpectFinished(Box<Hs>),
    Traffic(Box<Traffic>),
    /// TLS 1.2: Certificate.
    Tls12Certificate(Box<Hs12>),
    /// TLS 1.2: CertificateStatus (if stapling was agreed) or ServerKeyExchange.
    Tls12KeyExchange(Box<Hs12>),
    /// TLS 1.2: the caller validates the chain.
    Tls12AwaitVerify(Box<Hs12>),
    /// TLS 1.2: CertificateRequest or ServerHelloDone.
    Tls12HelloDone(Box<Hs12>),
    /// TLS 1.2: NewSessionTicket (if agreed) or the server's ChangeCipherSpec.
    Tls12ChangeCipherSpec(Box<Hs12>),
    /// TLS 1.2: the server's Finished.
    Tls12Finished(Box<Hs12>),
    /// TLS 1.2 application data.
    Tls12Traffic(Box<Traffic12>),
    Dead,
}

impl State {
    /// Handles one whole handshake message (`msg` includes its 4-byte header).
    pub(crate) fn handle(
        self,
        typ: HandshakeType,
        msg: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let body = msg.get(4..).ok_or(Error::Decode)?;
        // TLS 1.2 HelloRequest during the handshake: ignored, not part of the transcript
        // (RFC 5246 §7.4.1.1).
        if typ == HandshakeType::HELLO_REQUEST && self.in_tls12_handshake() {
            return if body.is_empty() {
                Ok(self)
            } else {
                Err(Error::Decode)
            };
        }
        match (self, typ) {
            (State::ExpectServerHello(s), HandshakeType::SERVER_HELLO) => s.handle(msg, body, io),
            (State::ExpectEncryptedExtensions(s), HandshakeType::ENCRYPTED_EXTENSIONS) => {
                s.handle_encrypted_extensions(msg, body, io)
            }
            (State::ExpectCertificate(s), HandshakeType::CERTIFICATE) => {
                s.handle_certificate(msg, body)
            }
            (State::ExpectCertificate(s), HandshakeType::COMPRESSED_CERTIFICATE) => {
                s.handle_compressed_certificate(msg, body, io)
            }
            (State::ExpectCertificate(s), HandshakeType::CERTIFICATE_REQUEST) => {
                s.handle_certificate_request(msg, body)
            }
            (State::ExpectCertificateVerify(s), HandshakeType::CERTIFICATE_VERIFY) => {
                s.handle_certificate_verify(msg, body, io)
            }
            (State::ExpectFinished(s), HandshakeType::FINISHED) => s.handle_finished(msg, body, io),
            (State::Traffic(t), _) => (*t)
                .handle(typ, body, io)
                .map(|t| State::Traffic(Box::new(t))),
            (State::Tls12Certificate(s), HandshakeType::CERTIFICATE) => {
                s.handle_certificate(msg, body)
            }
            (State::Tls12KeyExchange(s), HandshakeType::CERTIFICATE_STATUS) => {
                s.handle_certificate_status(msg, body)
            }
            (State::Tls12KeyExchange(s), HandshakeType::SERVER_KEY_EXCHANGE) => {
                s.handle_server_key_exchange(msg, body, io)
            }
            (State::Tls12HelloDone(s), HandshakeType::CERTIFICATE_REQUEST) => {
                s.handle_certificate_request(msg, body)
            }
            (State::Tls12HelloDone(s), HandshakeType::SERVER_HELLO_DONE) => {
                s.handle_server_hello_done(msg, body, io)
            }
            (State::Tls12ChangeCipherSpec(s), HandshakeType::NEW_SESSION_TICKET) => {
                s.handle_new_session_ticket(msg, body)
            }
            (State::Tls12Finished(s), HandshakeType::FINISHED) => s.handle_finished(msg, body, io),
            (State::Tls12Traffic(t), _) => t.handle(typ, body, io),
            _ => Err(Error::UnexpectedMessage),
        }
    }

    /// Applies the caller's answer to an outstanding request.
    pub(crate) fn complete(self, answer: Answer) -> Result<State, Error> {
        match self {
            State::AwaitVerify(hs) => match answer {
                Answer::Verified => Ok(State::ExpectFinished(hs)),
                Answer::Rejected(r) => Err(Error::CertificateRejected(r)),
                Answer::BadSignature => Err(Error::BadCertificateVerify),
            },
            State::Tls12AwaitVerify(hs) => match answer {
                Answer::Verified => Ok(State::Tls12HelloDone(hs)),
                Answer::Rejected(r) => Err(Error::CertificateRejected(r)),
                Answer::BadSignature => Err(Error::BadKeyExchangeSignature),
            },
            other => Ok(other),
        }
    }

    /// A change_cipher_spec record (delivered by the reader only during a TLS 1.2 handshake).
    pub(crate) fn change_cipher_spec(self, io: &mut Io) -> Result<State, Error> {
        match self {
            State::Tls12ChangeCipherSpec(hs) => hs.change_cipher_spec(io),
            _ => Err(Error::UnexpectedMessage),
        }
    }

    fn in_tls12_handshake(&self) -> bool {
        matches!(
            self,
            State::Tls12Certificate(_)
                | State::Tls12KeyExchange(_)
                | State::Tls12HelloDone(_)
                | State::Tls12ChangeCipherSpec(_)
                | State::Tls12Finished(_)
        )
    }

    pub(crate) fn awaiting_answer(&self) -> bool {
        matches!(self, State::AwaitVerify(_) | State::Tls12AwaitVerify(_))
    }

    pub(crate) fn is_traffic(&self) -> bool {
        matches!(self, State::Traffic(_) | State::Tls12Traffic(_))
    }

    pub(crate) fn traffic_mut(&mut self) -> Option<&mut Traffic> {
        match self {
            State::Traffic(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the peer's handshake-phase change_cipher_spec is still acceptable.
    pub(crate) fn before_server_finished(&self) -> bool {
        !matches!(
            self,
            State::Traffic(_) | State::Tls12Traffic(_) | State::Dead
        )
    }
}

struct PskState {
    ticket: Ticket,
    suite: Suite,
    early_secret: Vec<u8>,
}

/// Waiting for ServerHello (or HelloRetryRequest).
pub(crate) struct ExpectServerHello {
    random: [u8; 32],
    session_id: Vec<u8>,
    shares: Vec<KeyShare>,
    retry_seed: Vec<u8>,
    shape: HelloShape,
    client_hello: Vec<u8>,
    /// After a HelloRetryRequest: its suite and the transcript through the second ClientHello.
    retry: Option<(Suite, Context)>,
    cookie: Option<Vec<u8>>,
    psk: Option<PskState>,
    early_data_offered: bool,
    tls12_resume: Option<Ticket>,
}

impl ExpectServerHello {
    /// Builds and sends the first ClientHello.
    pub(crate) fn start(entropy: Entropy, io: &mut Io) -> Result<Self, Error> {
        let profile = &io.config.profile;
        if profile.key_shares.len() != entropy.key_share_seeds.len() {
            return Err(Error::Misuse);
        }
        let mut shares = Vec::new();
        for (g, seed) in profile.key_shares.iter().zip(&entropy.key_share_seeds) {
            let group = Group::from_codepoint(g.0).ok_or(Error::UnsupportedGroup(*g))?;
            shares.push(KeyShare::from_seed(group, seed).map_err(|_| Error::Misuse)?);
        }
        let psk = match &io.config.resumption {
            Some(t)
                if !t.tls12
                    && t.is_usable(io.now_ms)
                    && profile.cipher_suites.contains(&t.suite)
                    && t.server_name == io.config.server_name =>
            {
                let suite = suites::lookup(t.suite).ok_or(Error::Misuse)?;
                let early = ks::early_secret(suite.hash, Some(&t.psk));
                Some(PskState {
                    ticket: t.clone(),
                    suite,
                    early_secret: early.as_ref().to_vec(),
                })
            }
            _ => None,
        };
        let early_data_offered = psk.is_some()
            && hello::offered(profile, ExtensionSlot::EarlyData)
            && psk
                .as_ref()
                .is_some_and(|p| p.ticket.max_early_data.is_some());
        let session_id = if profile.compatibility_mode {
            entropy.session_id.to_vec()
        } else {
            Vec::new()
        };
        // A TLS 1.2 ticket (RFC 5077) needs our session id to recognise the server's resumption.
        let tls12_resume = io.config.resumption.as_ref().filter(|t| {
            t.tls12
                && t.is_usable(io.now_ms)
                && profile.cipher_suites.contains(&t.suite)
                && t.server_name == io.config.server_name
                && !session_id.is_empty()
        });
        let tls12_resume = tls12_resume.cloned();
        let shape = HelloShape::new(profile, &entropy)?;
        let mut s = Self {
            random: entropy.client_random,
            session_id,
            shares,
            retry_seed: entropy.retry_seed,
            shape,
            client_hello: Vec::new(),
            retry: None,
            cookie: None,
            psk,
            early_data_offered,
            tls12_resume,
        };
        s.send_client_hello(io)?;
        io.plain_version_after_first_hello();
        io.reader.set_ccs_allowed(true);
        Ok(s)
    }

    fn send_client_hello(&mut self, io: &mut Io) -> Result<(), Error> {
        let psk_offer = self.psk.as_ref().map(|p| PskOffer {
            identity: &p.ticket.ticket,
            obfuscated_age: p.ticket.obfuscated_age(io.now_ms),
            binder_len: p.suite.hash.output_len(),
            early_data: self.early_data_offered,
        });
        let input = HelloInput {
            profile: &io.config.profile,
            random: &self.random,
            session_id: &self.session_id,
            server_name: io.config.server_name.as_deref(),
            shares: &self.shares,
            cookie: self.cookie.as_deref(),
            psk: psk_offer,
            shape: &self.shape,
            after_retry: self.retry.is_some(),
            tls12_ticket: self.tls12_resume.as_ref().map(|t| t.ticket.as_slice()),
        };
        let (mut ch, binders_len) = hello::build(&input)?;
        if let Some(p) = &self.psk {
            let h = p.suite.hash;
            let trunc = ch.len().checked_sub(binders_len).ok_or(Error::Internal)?;
            let mut ctx = match &self.retry {
                Some((_, c)) => c.clone(),
                None => Context::new(h),
            };
            ctx.update(ch.get(..trunc).ok_or(Error::Internal)?);
            let th = ctx.finish();
            let empty = hash::digest(h, &[]);
            let binder_key = ks::derive(h, &p.early_secret, b"res binder", empty.as_ref())?;
            let binder = ks::finished_mac(h, binder_key.as_ref(), th.as_ref())?;
            let at = ch
                .len()
                .checked_sub(h.output_len())
                .ok_or(Error::Internal)?;
            ch.get_mut(at..)
                .ok_or(Error::Internal)?
                .copy_from_slice(binder.as_ref());
        }
        io.send_handshake(&ch)?;
        if let Some((_, c)) = &mut self.retry {
            c.update(&ch);
        }
        self.client_hello = ch;
        Ok(())
    }

    fn handle(mut self: Box<Self>, msg: &[u8], body: &[u8], io: &mut Io) -> Result<State, Error> {
        let sh = ServerHello::parse(body)?;
        // Version dispatch: supported_versions → TLS 1.3 below; none → legacy_version decides.
        match sh.selected_version()? {
            Some(0x0304) => {}
            Some(_) => return Err(Error::IllegalParameter),
            None if sh.legacy_version == 0x0303 && !sh.is_hrr() => {
                let start = Start12 {
                    client_random: self.random,
                    client_hello: core::mem::take(&mut self.client_hello),
                    shares: core::mem::take(&mut self.shares),
                    retry_seed: core::mem::take(&mut self.retry_seed),
                    hello_retry: self.retry.is_some(),
                    session_id: core::mem::take(&mut self.session_id),
                    resume: self.tls12_resume.take(),
                };
                return tls12::enter(&sh, msg, start, io);
            }
            None => return Err(tls12_not_supported(&sh)),
        }
        if sh.legacy_version != 0x0303 || sh.compression != 0 {
            return Err(Error::IllegalParameter);
        }
        if sh.session_id != self.session_id.as_slice() {
            return Err(Error::SessionIdMismatch);
        }
        if !io.config.profile.cipher_suites.contains(&sh.suite) {
            return Err(Error::UnofferedCipherSuite);
        }
        let suite = suites::lookup(sh.suite).ok_or(if suites::lookup12(sh.suite).is_some() {
            Error::UnofferedCipherSuite
        } else {
            Error::SelectedUnperformable(Unperformable::CipherSuite(sh.suite))
        })?;
        if sh.is_hrr() {
            self.handle_retry(&sh, suite, msg, io)?;
            return Ok(State::ExpectServerHello(self));
        }
        self.handle_server_hello(&sh, suite, msg, io)
    }

    fn handle_retry(
        &mut self,
        hrr: &ServerHello<'_>,
        suite: Suite,
        msg: &[u8],
        io: &mut Io,
    ) -> Result<(), Error> {
        if self.retry.is_some() {
            return Err(Error::SecondHelloRetry);
        }
        let mut selected = None;
        let mut cookie = None;
        for (t, b) in &hrr.extensions {
            match *t {
                ExtensionType::SUPPORTED_VERSIONS => {}
                ExtensionType::KEY_SHARE => selected = Some(NamedGroup(messages::u16_body(b)?)),
                ExtensionType::COOKIE => {
                    let mut r = crate::codec::Reader::new(b);
                    let c = r.vec16()?;
                    r.finish()?;
                    if c.is_empty() {
                        return Err(Error::Decode);
                    }
                    cookie = Some(c.to_vec());
                }
                _ => return Err(Error::UnsupportedExtension),
            }
        }
        if selected.is_none() && cookie.is_none() {
            return Err(Error::HrrPointless);
        }
        if let Some(g) = selected {
            if !io.config.profile.groups.contains(&g) {
                return Err(Error::UnofferedGroup);
            }
            if self.shares.iter().any(|s| s.group().codepoint() == g.0) {
                return Err(Error::HrrPointless);
            }
            let group = Group::from_codepoint(g.0)
                .ok_or(Error::SelectedUnperformable(Unperformable::Group(g)))?;
            let seed = self
                .retry_seed
                .get(..group.seed_len())
                .ok_or(Error::Misuse)?;
            self.shares = vec![KeyShare::from_seed(group, seed).map_err(|_| Error::Misuse)?];
        }
        // Transcript: message_hash(Hash(ClientHello1)) || HelloRetryRequest.
        let mut ctx = Context::new(suite.hash);
        let ch1_hash = hash::digest(suite.hash, &self.client_hello);
        let mut synthetic = vec![HandshakeType::MESSAGE_HASH.0, 0, 0];
        synthetic.push(u8::try_from(suite.hash.output_len()).map_err(|_| Error::Internal)?);
        synthetic.extend_from_slice(ch1_hash.as_ref());
        ctx.update(&synthetic);
        ctx.update(msg);
        self.retry = Some((suite, ctx));
        self.cookie = cookie;
        // A PSK whose hash differs from the retry's suite can no longer be offered.
        if self
            .psk
            .as_ref()
            .is_some_and(|p| p.suite.hash != suite.hash)
        {
            self.psk = None;
        }
        // No early data after a retry (RFC 8446 §4.2.10).
        self.early_data_offered = false;
        if !self.session_id.is_empty() {
            io.send_ccs_once();
        }
        self.send_client_hello(io)
    }

    fn handle_server_hello(
        self: Box<Self>,
        sh: &ServerHello<'_>,
        suite: Suite,
        msg: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let mut transcript = match &self.retry {
            Some((retry_suite, ctx)) => {
                if retry_suite.id != suite.id {
                    return Err(Error::IllegalParameter);
                }
                ctx.clone()
            }
            None => {
                let mut c = Context::new(suite.hash);
                c.update(&self.client_hello);
                c
            }
        };
        let (share, psk_selected) = self.server_hello_extensions(sh)?;
        // We only offer psk_dhe_ke, so a key share is always required.
        let (group, server_share) = share.ok_or(Error::MissingExtension)?;
        let Some(mine) = self
            .shares
            .iter()
            .find(|s| s.group().codepoint() == group.0)
        else {
            return Err(if io.config.profile.groups.contains(&group) {
                Error::IllegalParameter
            } else {
                Error::UnofferedGroup
            });
        };
        let shared = mine.complete(server_share).map_err(Error::KeyExchange)?;
        transcript.update(msg);
        let h = suite.hash;
        let (early, ticket) = match (psk_selected, self.psk) {
            (true, Some(p)) => {
                if p.suite.hash != h {
                    return Err(Error::IllegalParameter);
                }
                (p.early_secret, Some(p.ticket))
            }
            _ => (ks::early_secret(h, None).as_ref().to_vec(), None),
        };
        let client_early = if psk_selected && self.early_data_offered {
            let ch_hash = hash::digest(h, &self.client_hello);
            Some(
                ks::derive(h, &early, b"c e traffic", ch_hash.as_ref())?
                    .as_ref()
                    .to_vec(),
            )
        } else {
            None
        };
        let hs_secret = ks::next_stage(h, &early, Some(shared.as_ref()))?;
        let th = transcript.clone().finish();
        let client_hs = ks::derive(h, hs_secret.as_ref(), b"c hs traffic", th.as_ref())?
            .as_ref()
            .to_vec();
        let server_hs = ks::derive(h, hs_secret.as_ref(), b"s hs traffic", th.as_ref())?
            .as_ref()
            .to_vec();
        if let Some(early) = &client_early {
            io.log_secret(KeyLogEntry::CLIENT_EARLY_TRAFFIC_SECRET, early);
        }
        io.log_secret(KeyLogEntry::CLIENT_HANDSHAKE_TRAFFIC_SECRET, &client_hs);
        io.log_secret(KeyLogEntry::SERVER_HANDSHAKE_TRAFFIC_SECRET, &server_hs);
        io.set_read_keys(suite, &server_hs)?;
        // From here on our records (alerts included) are protected: under the early traffic
        // key while early data is offered, else the handshake key (RFC 8446 §2).
        if io.config.profile.compatibility_mode && client_early.is_none() {
            io.send_ccs_once();
        }
        io.set_write_keys(suite, client_early.as_deref().unwrap_or(&client_hs))?;
        Ok(State::ExpectEncryptedExtensions(Box::new(Hs {
            suite,
            transcript,
            handshake_secret: hs_secret.as_ref().to_vec(),
            client_hs,
            server_hs,
            group,
            resumed: psk_selected,
            hello_retry: self.retry.is_some(),
            alpn: None,
            chain: Vec::new(),
            ocsp: None,
            scts: None,
            cert_requested: None,
            early_data_offered: self.early_data_offered && psk_selected,
            early_data_accepted: false,
            client_early,
            ticket_alpn: ticket.and_then(|t| t.alpn),
            alps: None,
            trust_anchors_offered: !io.config.profile.trust_anchor_ids.is_empty()
                && hello::offered(&io.config.profile, ExtensionSlot::TrustAnchors),
        })))
    }
}

/// The ServerHello extensions TLS 1.3 allows: the server's key share and whether it accepted
/// our PSK (identity 0, the only one offered).
type HelloExtensions<'a> = (Option<(NamedGroup, &'a [u8])>, bool);

impl ExpectServerHello {
    fn server_hello_extensions<'a>(
        &self,
        sh: &ServerHello<'a>,
    ) -> Result<HelloExtensions<'a>, Error> {
        let mut share = None;
        let mut psk_selected = false;
        for (t, b) in &sh.extensions {
            match *t {
                ExtensionType::SUPPORTED_VERSIONS => {}
                ExtensionType::KEY_SHARE => share = Some(messages::server_key_share(b)?),
                ExtensionType::PRE_SHARED_KEY => {
                    if self.psk.is_none() {
                        return Err(Error::UnsupportedExtension);
                    }
                    if messages::u16_body(b)? != 0 {
                        return Err(Error::IllegalParameter);
                    }
                    psk_selected = true;
                }
                _ => return Err(Error::UnsupportedExtension),
            }
        }
        Ok((share, psk_selected))
    }
}

/// A ServerHello below TLS 1.2 (or a malformed version): check the downgrade sentinel and refuse.
fn tls12_not_supported(sh: &ServerHello<'_>) -> Error {
    let tail = sh.random.get(24..).unwrap_or(&[]);
    if tail == b"DOWNGRD\x01" || tail == b"DOWNGRD\x00" {
        Error::Downgrade
    } else {
        Error::ProtocolVersion
    }
}

/// The handshake after ServerHello.
pub(crate) struct Hs {
    suite: Suite,
    transcript: Context,
    handshake_secret: Vec<u8>,
    client_hs: Vec<u8>,
    server_hs: Vec<u8>,
    group: NamedGroup,
    resumed: bool,
    hello_retry: bool,
    alpn: Option<Vec<u8>>,
    chain: Vec<Vec<u8>>,
    ocsp: Option<Vec<u8>>,
    scts: Option<Vec<u8>>,
    cert_requested: Option<Vec<u8>>,
    early_data_offered: bool,
    early_data_accepted: bool,
    client_early: Option<Vec<u8>>,
    ticket_alpn: Option<Vec<u8>>,
    /// The server's ALPS settings, when it negotiated application_settings.
    alps: Option<Vec<u8>>,
    /// Whether the ClientHello carried trust_anchors (a Certificate entry may answer it).
    trust_anchors_offered: bool,
}

impl Hs {
    fn handle_encrypted_extensions(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let mut r = crate::codec::Reader::new(body);
        let exts = messages::extensions(&mut r)?;
        r.finish()?;
        let profile = &io.config.profile;
        for (t, b) in exts {
            match t {
                ExtensionType::ALPN => {
                    if profile.alpn.is_empty() || !hello::offered(profile, ExtensionSlot::Alpn) {
                        return Err(Error::UnsupportedExtension);
                    }
                    let p = messages::alpn_selected(b)?;
                    if !profile.alpn.iter().any(|a| a.as_slice() == p) {
                        return Err(Error::UnofferedAlpn);
                    }
                    self.alpn = Some(p.to_vec());
                }
                ExtensionType::RECORD_SIZE_LIMIT => {
                    if profile.record_size_limit.is_none()
                        || !hello::offered(profile, ExtensionSlot::RecordSizeLimit)
                    {
                        return Err(Error::UnsupportedExtension);
                    }
                    let l = messages::u16_body(b)?;
                    if l < 64 {
                        return Err(Error::IllegalParameter);
                    }
                    io.writer.set_peer_record_size_limit(l);
                }
                ExtensionType::SERVER_NAME => {
                    if io.config.server_name.is_none() || !b.is_empty() {
                        return Err(Error::UnsupportedExtension);
                    }
                }
                ExtensionType::EARLY_DATA => {
                    if !self.early_data_offered || !b.is_empty() {
                        return Err(Error::UnsupportedExtension);
                    }
                    self.early_data_accepted = true;
                }
                ExtensionType::SUPPORTED_GROUPS => {}
                // RFC 9849 §6.2: after ECH GREASE, retry_configs are ignored.
                ExtensionType::ENCRYPTED_CLIENT_HELLO
                    if profile.ech_grease && hello::offered(profile, ExtensionSlot::EchGrease) => {}
                // The server's available trust anchors: informational, we send no retry.
                ExtensionType::TRUST_ANCHORS
                    if !profile.trust_anchor_ids.is_empty()
                        && hello::offered(profile, ExtensionSlot::TrustAnchors) => {}
                t if t.0 == profile.alps_codepoint
                    && !profile.alps.is_empty()
                    && hello::offered(profile, ExtensionSlot::ApplicationSettings) =>
                {
                    if self.alps.is_some() {
                        return Err(Error::IllegalParameter);
                    }
                    self.alps = Some(b.to_vec());
                }
                ExtensionType::KEY_SHARE
                | ExtensionType::SUPPORTED_VERSIONS
                | ExtensionType::PRE_SHARED_KEY
                | ExtensionType::PSK_KEY_EXCHANGE_MODES
                | ExtensionType::COOKIE
                | ExtensionType::SIGNATURE_ALGORITHMS
                | ExtensionType::PADDING
                | ExtensionType::STATUS_REQUEST
                | ExtensionType::SCT => return Err(Error::IllegalParameter),
                _ => return Err(Error::UnsupportedExtension),
            }
        }
        // ALPS needs a negotiated protocol we offered settings for (draft-vvv-tls-alps §4).
        if self.alps.is_some()
            && !self
                .alpn
                .as_ref()
                .is_some_and(|a| io.config.profile.alps.contains(a))
        {
            return Err(Error::IllegalParameter);
        }
        if self.resumed
            && self.alpn.is_some()
            && self.ticket_alpn.is_some()
            && self.alpn != self.ticket_alpn
        {
            // A resumed session must not switch protocols under the same keys.
            return Err(Error::IllegalParameter);
        }
        self.transcript.update(msg);
        if self.resumed {
            Ok(State::ExpectFinished(self))
        } else {
            Ok(State::ExpectCertificate(self))
        }
    }

    fn handle_certificate_request(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
    ) -> Result<State, Error> {
        if self.cert_requested.is_some() {
            return Err(Error::UnexpectedMessage);
        }
        let ctx = messages::certificate_request(body)?;
        self.cert_requested = Some(ctx.to_vec());
        self.transcript.update(msg);
        Ok(State::ExpectCertificate(self))
    }

    /// CompressedCertificate (RFC 8879): only with an algorithm we offered; decompressed
    /// within the handshake message budget, then handled as Certificate (the transcript
    /// takes the compressed message as sent).
    fn handle_compressed_certificate(
        self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let (alg, len, data) = messages::compressed_certificate(body)?;
        let p = &io.config.profile;
        if !p.compress_certificate.contains(&alg)
            || !hello::offered(p, ExtensionSlot::CompressCertificate)
        {
            return Err(Error::IllegalParameter);
        }
        if len > io.config.max_handshake_message {
            return Err(Error::MessageTooLarge);
        }
        let plain = messages::decompress_certificate(alg, len, data)?;
        self.handle_certificate(msg, &plain)
    }

    fn handle_certificate(mut self: Box<Self>, msg: &[u8], body: &[u8]) -> Result<State, Error> {
        let entries = messages::certificate(body)?;
        let trust_anchors_offered = self.trust_anchors_offered;
        for (i, e) in entries.iter().enumerate() {
            for (t, b) in &e.extensions {
                match *t {
                    ExtensionType::STATUS_REQUEST => {
                        let resp = messages::ocsp_response(b)?;
                        if i == 0 {
                            self.ocsp = Some(resp.to_vec());
                        }
                    }
                    ExtensionType::SCT => {
                        if i == 0 {
                            self.scts = Some(b.to_vec());
                        }
                    }
                    // The server says the chain matches one of our trust anchor IDs (an
                    // empty extension on the leaf): informational, the chain is verified.
                    ExtensionType::TRUST_ANCHORS if trust_anchors_offered && b.is_empty() => {}
                    _ => return Err(Error::UnsupportedExtension),
                }
            }
            self.chain.push(e.der.to_vec());
        }
        self.transcript.update(msg);
        Ok(State::ExpectCertificateVerify(self))
    }

    fn handle_certificate_verify(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let (scheme, signature) = messages::certificate_verify(body)?;
        if !io.config.profile.signature_schemes.contains(&scheme)
            || !verify::allowed_in_tls13(scheme)
        {
            return Err(Error::UnofferedSignatureScheme);
        }
        if !crate::profile::scheme_performable(scheme) {
            return Err(Error::SelectedUnperformable(
                Unperformable::SignatureScheme(scheme),
            ));
        }
        let th = self.transcript.clone().finish();
        let message = verify::signed_message(th.as_ref());
        let leaf = self.chain.first().ok_or(Error::BadCertificate)?;
        let signed = match io.config.signature_check {
            SignatureCheck::Inline => {
                verify::check_inline(scheme, leaf, &message, signature)?;
                None
            }
            SignatureCheck::Caller => Some(SignedContent {
                scheme,
                message,
                signature: signature.to_vec(),
                algorithm: verify::algorithm(scheme).ok_or(Error::UnofferedSignatureScheme)?,
                spki: crate::der::spki_of(leaf)?.to_vec(),
            }),
        };
        self.transcript.update(msg);
        io.events.push_back(Event::NeedVerify(VerifyRequest {
            server_name: io.config.server_name.clone(),
            chain: core::mem::take(&mut self.chain),
            ocsp_response: self.ocsp.take(),
            scts: self.scts.take(),
            now_ms: io.now_ms,
            signed,
        }));
        Ok(State::AwaitVerify(self))
    }

    fn handle_finished(
        mut self: Box<Self>,
        msg: &[u8],
        body: &[u8],
        io: &mut Io,
    ) -> Result<State, Error> {
        let h = self.suite.hash;
        if body.len() != h.output_len() {
            return Err(Error::Decode);
        }
        let th = self.transcript.clone().finish();
        ks::check_finished(h, &self.server_hs, th.as_ref(), body)?;
        self.transcript.update(msg);
        let th = self.transcript.clone().finish();
        let master = ks::next_stage(h, &self.handshake_secret, None)?;
        let client_ap = ks::derive(h, master.as_ref(), b"c ap traffic", th.as_ref())?
            .as_ref()
            .to_vec();
        let server_ap = ks::derive(h, master.as_ref(), b"s ap traffic", th.as_ref())?
            .as_ref()
            .to_vec();
        let exporter = ks::derive(h, master.as_ref(), b"exp master", th.as_ref())?
            .as_ref()
            .to_vec();
        io.log_secret(KeyLogEntry::CLIENT_TRAFFIC_SECRET_0, &client_ap);
        io.log_secret(KeyLogEntry::SERVER_TRAFFIC_SECRET_0, &server_ap);
        io.log_secret(KeyLogEntry::EXPORTER_SECRET, &exporter);
        io.set_read_keys(self.suite, &server_ap)?;
        io.reader.set_ccs_allowed(false);
        // Client flight: [EndOfEarlyData], [Certificate], Finished.
        if self.early_data_accepted {
            // The early traffic key is still installed (no early data was sent under it).
            let eoed = crate::codec::handshake_message(HandshakeType::END_OF_EARLY_DATA.0, &[])?;
            io.send_handshake(&eoed)?;
            self.transcript.update(&eoed);
        }
        if self.client_early.is_some() {
            if io.config.profile.compatibility_mode {
                io.send_ccs_once();
            }
            io.set_write_keys(self.suite, &self.client_hs)?;
        }
        if self.alps.is_some() {
            // ALPS: our settings in a client EncryptedExtensions, before Certificate and
            // Finished. burrow has no settings to send for h2: they are empty.
            let mut e = Vec::new();
            crate::codec::put_u16(&mut e, io.config.profile.alps_codepoint);
            crate::codec::put_vec(&mut e, 2, &[])?;
            let mut b = Vec::new();
            crate::codec::put_vec(&mut b, 2, &e)?;
            let m = crate::codec::handshake_message(HandshakeType::ENCRYPTED_EXTENSIONS.0, &b)?;
            io.send_handshake(&m)?;
            self.transcript.update(&m);
        }
        if let Some(ctx) = &self.cert_requested {
            let mut b = Vec::new();
            crate::codec::put_vec(&mut b, 1, ctx)?;
            crate::codec::put_vec(&mut b, 3, &[])?;
            let m = crate::codec::handshake_message(HandshakeType::CERTIFICATE.0, &b)?;
            io.send_handshake(&m)?;
            self.transcript.update(&m);
        }
        let th = self.transcript.clone().finish();
        let verify_data = ks::finished_mac(h, &self.client_hs, th.as_ref())?;
        let fin = crate::codec::handshake_message(HandshakeType::FINISHED.0, verify_data.as_ref())?;
        io.send_handshake(&fin)?;
        self.transcript.update(&fin);
        let th = self.transcript.clone().finish();
        let resumption = ks::derive(h, master.as_ref(), b"res master", th.as_ref())?
            .as_ref()
            .to_vec();
        io.set_write_keys(self.suite, &client_ap)?;
        io.events.push_back(Event::HandshakeDone(HandshakeSummary {
            cipher_suite: self.suite.id,
            group: self.group,
            alpn: self.alpn.clone(),
            resumed: self.resumed,
            hello_retry: self.hello_retry,
            early_data_accepted: self.early_data_accepted,
            extended_master_secret: None,
        }));
        Ok(State::Traffic(Box::new(Traffic::new(
            self.suite,
            client_ap,
            server_ap,
            exporter,
            resumption,
            self.alpn.take(),
        ))))
    }
}
