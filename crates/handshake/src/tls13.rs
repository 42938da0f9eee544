//! The TLS 1.3 handshake after ServerHello (RFC 8446 §4.3, §4.4): EncryptedExtensions →
//! [CertificateRequest] → Certificate (or CompressedCertificate, RFC 8879) →
//! CertificateVerify (signature checked, then [`Event::NeedVerify`]) → Finished, answered with
//! our [EndOfEarlyData], [EncryptedExtensions (ALPS)], [Certificate, [CertificateVerify]] and
//! Finished; with a client certificate to send, the flight waits at CertificateVerify for the
//! caller's signature ([`Event::NeedSign`]). A resumed handshake goes from
//! EncryptedExtensions straight to Finished.
//!
//! One struct per step, holding what that step knows; [`Tls13`] is their closed enum.

use crate::client_auth::{self, Chosen};
use crate::event::{Event, HandshakeSummary};
use crate::hello;
use crate::keylog::KeyLogEntry;
use crate::keyschedule as ks;
use crate::messages::{self, ServerHello};
use crate::profile::ExtensionSlot;
use crate::secret::Secret;
use crate::signature;
use crate::step::{Env, Message, Output, Progress};
use crate::suites::Suite;
use crate::traffic::Traffic13;
use crate::verify::{Answer, SignatureCheck, SignedContent, VerifyRequest};
use crate::{Error, ExtensionType, HandshakeType, NamedGroup, SignRequest, Ticket, Unperformable};
use burrow_crypto::hash::{self, Context};
use burrow_crypto::kx::KeyShare;

/// A ticket offered for PSK resumption, and its early secret.
pub(crate) struct Psk {
    pub(crate) ticket: Ticket,
    pub(crate) suite: Suite,
    pub(crate) early_secret: Secret,
}

/// What the ClientHello step hands over when the server picks TLS 1.3.
pub(crate) struct Start13 {
    /// The last ClientHello sent.
    pub(crate) client_hello: Vec<u8>,
    pub(crate) shares: Vec<KeyShare>,
    /// After a HelloRetryRequest: its suite and the transcript through the second ClientHello.
    pub(crate) retry: Option<(Suite, Context)>,
    pub(crate) psk: Option<Psk>,
    pub(crate) early_data_offered: bool,
}

/// The TLS 1.3 handshake after ServerHello, step by step.
pub(crate) enum Tls13 {
    EncryptedExtensions(Box<ExpectEncryptedExtensions>),
    Certificate(Box<ExpectCertificate>),
    CertificateVerify(Box<ExpectCertificateVerify>),
    /// The caller validates the chain.
    AwaitVerify(Box<AwaitVerify>),
    Finished(Box<ExpectFinished>),
    /// Our flight waits for the caller's CertificateVerify signature.
    AwaitSign(Box<AwaitSign>),
}

impl Tls13 {
    /// Handles one whole handshake message.
    pub(crate) fn handle(
        self,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Progress<Self, Traffic13>, Error> {
        let next = match (self, m.typ) {
            (Self::EncryptedExtensions(s), HandshakeType::ENCRYPTED_EXTENSIONS) => {
                s.handle(m, env, out)?
            }
            (Self::Certificate(s), HandshakeType::CERTIFICATE_REQUEST) => {
                s.handle_certificate_request(m, env)?
            }
            (Self::Certificate(s), HandshakeType::CERTIFICATE) => {
                s.handle_certificate(m.raw, m.body, env)?
            }
            (Self::Certificate(s), HandshakeType::COMPRESSED_CERTIFICATE) => {
                s.handle_compressed_certificate(m, env)?
            }
            (Self::CertificateVerify(s), HandshakeType::CERTIFICATE_VERIFY) => {
                s.handle(m, env, out)?
            }
            (Self::Finished(s), HandshakeType::FINISHED) => return s.handle(m, env, out),
            _ => return Err(Error::UnexpectedMessage),
        };
        Ok(Progress::Handshake(next))
    }

    /// Applies the caller's answer to [`Event::NeedVerify`].
    pub(crate) fn complete(self, answer: Answer) -> Result<Self, Error> {
        match self {
            Self::AwaitVerify(s) => match answer {
                Answer::Verified => Ok(Self::Finished(Box::new(ExpectFinished {
                    hs: s.hs,
                    negotiated: s.negotiated,
                    cert_request: s.cert_request,
                }))),
                Answer::Rejected(r) => Err(Error::CertificateRejected(r)),
                Answer::BadSignature => Err(Error::BadCertificateVerify),
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
    ) -> Result<Progress<Self, Traffic13>, Error> {
        match self {
            Self::AwaitSign(s) => s.complete(signature, out).map(Progress::Traffic),
            _ => Err(Error::Misuse),
        }
    }

    pub(crate) fn awaiting_answer(&self) -> bool {
        matches!(self, Self::AwaitVerify(_) | Self::AwaitSign(_))
    }

    pub(crate) fn awaiting_signature(&self) -> bool {
        matches!(self, Self::AwaitSign(_))
    }
}

/// The handshake so far, carried by every step after ServerHello: the suite, the transcript
/// and the handshake-stage secrets (RFC 8446 §7.1).
struct Handshake {
    suite: Suite,
    transcript: Context,
    handshake_secret: Secret,
    client_hs: Secret,
    server_hs: Secret,
}

/// Whether early data was offered and, after EncryptedExtensions, accepted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EarlyData {
    NotOffered,
    /// Offered: our records are under the early traffic key until our Finished flight.
    Offered,
    /// Accepted: EndOfEarlyData opens our Finished flight.
    Accepted,
}

/// What ServerHello and EncryptedExtensions settled.
struct Negotiated {
    group: NamedGroup,
    resumed: bool,
    hello_retry: bool,
    alpn: Option<Vec<u8>>,
    early_data: EarlyData,
    /// The server negotiated application_settings (ALPS): our own EncryptedExtensions follows.
    alps: bool,
}

/// The ServerHello extensions TLS 1.3 allows: the server's key share and whether it accepted
/// our PSK (identity 0, the only one offered).
type HelloExtensions<'a> = (Option<(NamedGroup, &'a [u8])>, bool);

fn server_hello_extensions<'a>(
    sh: &ServerHello<'a>,
    psk_offered: bool,
) -> Result<HelloExtensions<'a>, Error> {
    let mut share = None;
    let mut psk_selected = false;
    for (t, b) in &sh.extensions {
        match *t {
            ExtensionType::SUPPORTED_VERSIONS => {}
            ExtensionType::KEY_SHARE => share = Some(messages::server_key_share(b)?),
            ExtensionType::PRE_SHARED_KEY => {
                if !psk_offered {
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

/// A TLS 1.3 ServerHello (not a retry) for a suite we offered: the key exchange, the
/// handshake secrets and keys, then EncryptedExtensions.
pub(crate) fn enter(
    sh: &ServerHello<'_>,
    suite: Suite,
    msg: &[u8],
    start: Start13,
    env: Env<'_>,
    out: &mut dyn Output,
) -> Result<Tls13, Error> {
    let mut transcript = match &start.retry {
        Some((retry_suite, ctx)) => {
            if retry_suite.id != suite.id {
                return Err(Error::IllegalParameter);
            }
            ctx.clone()
        }
        None => {
            let mut c = Context::new(suite.hash);
            c.update(&start.client_hello);
            c
        }
    };
    let (share, psk_selected) = server_hello_extensions(sh, start.psk.is_some())?;
    // We only offer psk_dhe_ke, so a key share is always required.
    let (group, server_share) = share.ok_or(Error::MissingExtension)?;
    let Some(mine) = start
        .shares
        .iter()
        .find(|s| s.group().codepoint() == group.0)
    else {
        return Err(if env.config.profile.groups.contains(&group) {
            Error::IllegalParameter
        } else {
            Error::UnofferedGroup
        });
    };
    let shared = mine.complete(server_share).map_err(Error::KeyExchange)?;
    transcript.update(msg);
    let h = suite.hash;
    let (early, ticket) = match (psk_selected, start.psk) {
        (true, Some(p)) => {
            if p.suite.hash != h {
                return Err(Error::IllegalParameter);
            }
            (p.early_secret, Some(p.ticket))
        }
        _ => (ks::early_secret(h, None), None),
    };
    let early_data_offered = psk_selected && start.early_data_offered;
    let client_early = if early_data_offered {
        let ch_hash = hash::digest(h, &start.client_hello);
        Some(ks::derive(h, &early, b"c e traffic", ch_hash.as_ref())?)
    } else {
        None
    };
    let hs_secret = ks::next_stage(h, &early, Some(shared.as_ref()))?;
    let th = transcript.clone().finish();
    let client_hs = ks::derive(h, &hs_secret, b"c hs traffic", th.as_ref())?;
    let server_hs = ks::derive(h, &hs_secret, b"s hs traffic", th.as_ref())?;
    if let Some(early) = &client_early {
        out.log_secret(KeyLogEntry::CLIENT_EARLY_TRAFFIC_SECRET, early);
    }
    out.log_secret(KeyLogEntry::CLIENT_HANDSHAKE_TRAFFIC_SECRET, &client_hs);
    out.log_secret(KeyLogEntry::SERVER_HANDSHAKE_TRAFFIC_SECRET, &server_hs);
    out.read_secret(suite, &server_hs)?;
    // From here on our records (alerts included) are protected: under the early traffic
    // key while early data is offered, else the handshake key (RFC 8446 §2). The compatibility
    // ChangeCipherSpec waits for our second flight (`send_client_flight`), as OpenSSL and
    // BoringSSL send it: queued here, it cost a socket write of its own.
    out.write_secret(suite, client_early.as_deref().unwrap_or(&client_hs))?;
    Ok(Tls13::EncryptedExtensions(Box::new(
        ExpectEncryptedExtensions {
            hs: Handshake {
                suite,
                transcript,
                handshake_secret: hs_secret,
                client_hs,
                server_hs,
            },
            group,
            resumed: psk_selected,
            hello_retry: start.retry.is_some(),
            early_data_offered,
            ticket_alpn: ticket.and_then(|t| t.alpn),
        },
    )))
}

/// Waiting for EncryptedExtensions.
pub(crate) struct ExpectEncryptedExtensions {
    hs: Handshake,
    group: NamedGroup,
    resumed: bool,
    hello_retry: bool,
    early_data_offered: bool,
    /// Resumed: the ALPN protocol of the ticket's connection (it must not change).
    ticket_alpn: Option<Vec<u8>>,
}

impl ExpectEncryptedExtensions {
    fn handle(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Tls13, Error> {
        let mut r = crate::codec::Reader::new(m.body);
        let exts = messages::extensions(&mut r)?;
        r.finish()?;
        let mut n = Negotiated {
            group: self.group,
            resumed: self.resumed,
            hello_retry: self.hello_retry,
            alpn: None,
            early_data: if self.early_data_offered {
                EarlyData::Offered
            } else {
                EarlyData::NotOffered
            },
            alps: false,
        };
        for (t, b) in exts {
            encrypted_extension(&mut n, t, b, env, out)?;
        }
        // ALPS needs a negotiated protocol we offered settings for (draft-vvv-tls-alps §4).
        if n.alps
            && !n
                .alpn
                .as_ref()
                .is_some_and(|a| env.config.profile.alps.contains(a))
        {
            return Err(Error::IllegalParameter);
        }
        if n.resumed && n.alpn.is_some() && self.ticket_alpn.is_some() && n.alpn != self.ticket_alpn
        {
            // A resumed session must not switch protocols under the same keys.
            return Err(Error::IllegalParameter);
        }
        self.hs.transcript.update(m.raw);
        if n.resumed {
            Ok(Tls13::Finished(Box::new(ExpectFinished {
                hs: self.hs,
                negotiated: n,
                cert_request: None,
            })))
        } else {
            Ok(Tls13::Certificate(Box::new(ExpectCertificate {
                hs: self.hs,
                negotiated: n,
                cert_request: None,
            })))
        }
    }
}

/// One EncryptedExtensions extension: only what we offered, nothing that belongs elsewhere.
fn encrypted_extension(
    n: &mut Negotiated,
    t: ExtensionType,
    b: &[u8],
    env: Env<'_>,
    out: &mut dyn Output,
) -> Result<(), Error> {
    let config = env.config;
    let profile = &config.profile;
    match t {
        ExtensionType::ALPN => {
            if profile.alpn.is_empty() || !hello::offered(profile, ExtensionSlot::Alpn) {
                return Err(Error::UnsupportedExtension);
            }
            let p = messages::alpn_selected(b)?;
            if !profile.alpn.iter().any(|a| a.as_slice() == p) {
                return Err(Error::UnofferedAlpn);
            }
            n.alpn = Some(p.to_vec());
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
            out.set_peer_record_size_limit(l);
        }
        ExtensionType::SERVER_NAME => {
            if config.server_name.is_none() || !b.is_empty() {
                return Err(Error::UnsupportedExtension);
            }
        }
        ExtensionType::EARLY_DATA => {
            if n.early_data != EarlyData::Offered || !b.is_empty() {
                return Err(Error::UnsupportedExtension);
            }
            n.early_data = EarlyData::Accepted;
        }
        ExtensionType::SUPPORTED_GROUPS => {}
        // RFC 9849 §6.2: after ECH GREASE, retry_configs are ignored.
        ExtensionType::ENCRYPTED_CLIENT_HELLO
            if profile.ech_grease && hello::offered(profile, ExtensionSlot::EchGrease) => {}
        // The server's available trust anchors: informational, we send no retry.
        ExtensionType::TRUST_ANCHORS if trust_anchors_offered(env) => {}
        t if t.0 == profile.alps_codepoint
            && !profile.alps.is_empty()
            && hello::offered(profile, ExtensionSlot::ApplicationSettings) =>
        {
            if n.alps {
                return Err(Error::IllegalParameter);
            }
            n.alps = true;
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
    Ok(())
}

/// Whether the ClientHello carried trust_anchors.
fn trust_anchors_offered(env: Env<'_>) -> bool {
    let p = &env.config.profile;
    !p.trust_anchor_ids.is_empty() && hello::offered(p, ExtensionSlot::TrustAnchors)
}

/// A CertificateRequest's context and what answers it: our chain and scheme, or (`None`) an
/// empty Certificate.
struct ClientAuth13 {
    context: Vec<u8>,
    chosen: Option<Chosen>,
}

/// Waiting for the server's Certificate (or a CertificateRequest before it).
pub(crate) struct ExpectCertificate {
    hs: Handshake,
    negotiated: Negotiated,
    /// A CertificateRequest, if one came: its context and our answer.
    cert_request: Option<ClientAuth13>,
}

impl ExpectCertificate {
    fn handle_certificate_request(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
    ) -> Result<Tls13, Error> {
        if self.cert_request.is_some() {
            return Err(Error::UnexpectedMessage);
        }
        let req = client_auth::certificate_request13(m.body)?;
        let chosen = client_auth::choose(
            env.config.client_certificate.as_ref(),
            &env.config.profile.signature_schemes,
            &req.schemes,
            true,
        );
        self.cert_request = Some(ClientAuth13 {
            context: req.context.to_vec(),
            chosen,
        });
        self.hs.transcript.update(m.raw);
        Ok(Tls13::Certificate(self))
    }

    /// CompressedCertificate (RFC 8879): only with an algorithm we offered; decompressed
    /// within the handshake message budget, then handled as Certificate (the transcript
    /// takes the compressed message as sent).
    fn handle_compressed_certificate(
        self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
    ) -> Result<Tls13, Error> {
        let (alg, len, data) = messages::compressed_certificate(m.body)?;
        let p = &env.config.profile;
        if !p.compress_certificate.contains(&alg)
            || !hello::offered(p, ExtensionSlot::CompressCertificate)
        {
            return Err(Error::IllegalParameter);
        }
        if len > env.config.max_handshake_message {
            return Err(Error::MessageTooLarge);
        }
        let plain = messages::decompress_certificate(alg, len, data)?;
        self.handle_certificate(m.raw, &plain, env)
    }

    /// Certificate: `raw` is the message as sent, `body` the Certificate body (decompressed).
    fn handle_certificate(
        mut self: Box<Self>,
        raw: &[u8],
        body: &[u8],
        env: Env<'_>,
    ) -> Result<Tls13, Error> {
        let entries = messages::certificate(body)?;
        let trust_anchors_offered = trust_anchors_offered(env);
        let (mut ocsp, mut scts, mut chain) = (None, None, Vec::with_capacity(entries.len()));
        for (i, e) in entries.iter().enumerate() {
            for (t, b) in &e.extensions {
                match *t {
                    ExtensionType::STATUS_REQUEST => {
                        let resp = messages::ocsp_response(b)?;
                        if i == 0 {
                            ocsp = Some(resp.to_vec());
                        }
                    }
                    ExtensionType::SCT => {
                        if i == 0 {
                            scts = Some(b.to_vec());
                        }
                    }
                    // The server says the chain matches one of our trust anchor IDs (an
                    // empty extension on the leaf): informational, the chain is verified.
                    ExtensionType::TRUST_ANCHORS if trust_anchors_offered && b.is_empty() => {}
                    _ => return Err(Error::UnsupportedExtension),
                }
            }
            chain.push(e.der.to_vec());
        }
        self.hs.transcript.update(raw);
        Ok(Tls13::CertificateVerify(Box::new(
            ExpectCertificateVerify {
                hs: self.hs,
                negotiated: self.negotiated,
                cert_request: self.cert_request,
                chain,
                ocsp,
                scts,
            },
        )))
    }
}

/// Waiting for CertificateVerify.
pub(crate) struct ExpectCertificateVerify {
    hs: Handshake,
    negotiated: Negotiated,
    cert_request: Option<ClientAuth13>,
    /// DER certificates, leaf first, as sent.
    chain: Vec<Vec<u8>>,
    /// The leaf's stapled OCSP response.
    ocsp: Option<Vec<u8>>,
    /// The leaf's SCT list.
    scts: Option<Vec<u8>>,
}

impl ExpectCertificateVerify {
    fn handle(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Tls13, Error> {
        let (scheme, sig) = messages::certificate_verify(m.body)?;
        if !env.config.profile.signature_schemes.contains(&scheme)
            || !signature::allowed_in_tls13(scheme)
        {
            return Err(Error::UnofferedSignatureScheme);
        }
        if !crate::profile::scheme_performable(scheme) {
            return Err(Error::SelectedUnperformable(
                Unperformable::SignatureScheme(scheme),
            ));
        }
        let th = self.hs.transcript.clone().finish();
        let message = signature::signed_message(th.as_ref());
        let leaf = self.chain.first().ok_or(Error::BadCertificate)?;
        let signed = match env.config.signature_check {
            SignatureCheck::Inline => {
                signature::check_inline(scheme, leaf, &message, sig)?;
                None
            }
            SignatureCheck::Caller => {
                let (_, algorithm, spki) = signature::tls13_key(scheme, leaf)?;
                Some(SignedContent {
                    scheme,
                    message,
                    signature: sig.to_vec(),
                    algorithm,
                    spki: spki.to_vec(),
                })
            }
        };
        self.hs.transcript.update(m.raw);
        out.emit(Event::NeedVerify(VerifyRequest {
            server_name: env.config.server_name.clone(),
            chain: self.chain,
            ocsp_response: self.ocsp,
            scts: self.scts,
            now_ms: env.now_ms,
            signed,
        }));
        Ok(Tls13::AwaitVerify(Box::new(AwaitVerify {
            hs: self.hs,
            negotiated: self.negotiated,
            cert_request: self.cert_request,
        })))
    }
}

/// The caller is validating the chain ([`Event::NeedVerify`]).
pub(crate) struct AwaitVerify {
    hs: Handshake,
    negotiated: Negotiated,
    cert_request: Option<ClientAuth13>,
}

/// Waiting for the server's Finished.
pub(crate) struct ExpectFinished {
    hs: Handshake,
    negotiated: Negotiated,
    /// A CertificateRequest: our Certificate (and CertificateVerify) answers it.
    cert_request: Option<ClientAuth13>,
}

impl ExpectFinished {
    /// The server's Finished: application secrets, our flight, traffic.
    fn handle(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Progress<Tls13, Traffic13>, Error> {
        let suite = self.hs.suite;
        let h = suite.hash;
        if m.body.len() != h.output_len() {
            return Err(Error::Decode);
        }
        let th = self.hs.transcript.clone().finish();
        ks::check_finished(h, &self.hs.server_hs, th.as_ref(), m.body)?;
        self.hs.transcript.update(m.raw);
        let th = self.hs.transcript.clone().finish();
        let master = ks::next_stage(h, &self.hs.handshake_secret, None)?;
        let client_ap = ks::derive(h, &master, b"c ap traffic", th.as_ref())?;
        let server_ap = ks::derive(h, &master, b"s ap traffic", th.as_ref())?;
        let exporter = ks::derive(h, &master, b"exp master", th.as_ref())?;
        out.log_secret(KeyLogEntry::CLIENT_TRAFFIC_SECRET_0, &client_ap);
        out.log_secret(KeyLogEntry::SERVER_TRAFFIC_SECRET_0, &server_ap);
        out.log_secret(KeyLogEntry::EXPORTER_SECRET, &exporter);
        out.read_secret(suite, &server_ap)?;
        let chosen = self.send_client_flight(env, out)?;
        let rest = RestOfFlight {
            hs: self.hs,
            negotiated: self.negotiated,
            master,
            client_ap,
            server_ap,
            exporter,
        };
        let Some(scheme) = chosen else {
            return rest.finish(out).map(Progress::Traffic);
        };
        // RFC 8446 §4.4.3: the signature covers the transcript through our Certificate.
        let th = rest.hs.transcript.clone().finish();
        out.emit(Event::NeedSign(SignRequest {
            scheme: scheme.scheme,
            algorithm: scheme.algorithm,
            message: client_auth::signed_message13(th.as_ref()),
        }));
        Ok(Progress::Handshake(Tls13::AwaitSign(Box::new(AwaitSign {
            rest,
            scheme: scheme.scheme,
        }))))
    }

    /// Our flight up to the signature: [EndOfEarlyData], [EncryptedExtensions], [Certificate],
    /// each added to the transcript. Returns the scheme to sign with when our Certificate
    /// is not empty (CertificateVerify and Finished follow in [`RestOfFlight`]).
    fn send_client_flight(
        &mut self,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Option<Chosen>, Error> {
        let suite = self.hs.suite;
        let hs = &mut self.hs;
        // RFC 8446 D.4: "immediately before its second flight" (with early data offered it
        // follows EndOfEarlyData, below).
        if env.config.profile.compatibility_mode
            && self.negotiated.early_data == EarlyData::NotOffered
        {
            out.send_compat_ccs();
        }
        if self.negotiated.early_data == EarlyData::Accepted {
            // The early traffic key is still installed (no early data was sent under it).
            send(out, hs, HandshakeType::END_OF_EARLY_DATA, &[])?;
        }
        if self.negotiated.early_data != EarlyData::NotOffered {
            if env.config.profile.compatibility_mode {
                out.send_compat_ccs();
            }
            out.write_secret(suite, &hs.client_hs)?;
        }
        if self.negotiated.alps {
            // ALPS: our settings in a client EncryptedExtensions, before Certificate and
            // Finished. burrow has no settings to send for h2: they are empty.
            let mut e = Vec::new();
            crate::codec::put_u16(&mut e, env.config.profile.alps_codepoint);
            crate::codec::put_vec(&mut e, 2, &[])?;
            let mut b = Vec::new();
            crate::codec::put_vec(&mut b, 2, &e)?;
            send(out, hs, HandshakeType::ENCRYPTED_EXTENSIONS, &b)?;
        }
        let Some(req) = self.cert_request.take() else {
            return Ok(None);
        };
        let chain = req.chosen.as_ref().map_or(&[][..], |c| c.chain.as_slice());
        let b = client_auth::certificate_body(Some(&req.context), chain)?;
        send(out, hs, HandshakeType::CERTIFICATE, &b)?;
        Ok(req.chosen)
    }
}

/// What our flight still has to do once the Certificate is out: [CertificateVerify], Finished,
/// then application traffic.
struct RestOfFlight {
    hs: Handshake,
    negotiated: Negotiated,
    master: Secret,
    client_ap: Secret,
    server_ap: Secret,
    exporter: Secret,
}

impl RestOfFlight {
    /// Our Finished, the resumption secret, our application key, and traffic.
    fn finish(mut self, out: &mut dyn Output) -> Result<Traffic13, Error> {
        let suite = self.hs.suite;
        let h = suite.hash;
        let hs = &mut self.hs;
        let th = hs.transcript.clone().finish();
        let verify_data = ks::finished_mac(h, &hs.client_hs, th.as_ref())?;
        send(out, hs, HandshakeType::FINISHED, verify_data.as_ref())?;
        let th = self.hs.transcript.clone().finish();
        let resumption = ks::derive(h, &self.master, b"res master", th.as_ref())?;
        out.write_secret(suite, &self.client_ap)?;
        let n = self.negotiated;
        out.emit(Event::HandshakeDone(HandshakeSummary {
            cipher_suite: suite.id,
            group: n.group,
            alpn: n.alpn.clone(),
            resumed: n.resumed,
            hello_retry: n.hello_retry,
            early_data_accepted: n.early_data == EarlyData::Accepted,
            extended_master_secret: None,
        }));
        Ok(Traffic13::new(
            suite,
            self.client_ap,
            self.server_ap,
            self.exporter,
            resumption,
            n.alpn,
        ))
    }
}

/// The caller is signing our CertificateVerify ([`Event::NeedSign`]).
pub(crate) struct AwaitSign {
    rest: RestOfFlight,
    scheme: crate::SignatureScheme,
}

impl AwaitSign {
    /// The signature: CertificateVerify, then the rest of the flight.
    fn complete(
        mut self: Box<Self>,
        signature: &[u8],
        out: &mut dyn Output,
    ) -> Result<Traffic13, Error> {
        let b = client_auth::certificate_verify_body(self.scheme, signature)?;
        send(
            out,
            &mut self.rest.hs,
            HandshakeType::CERTIFICATE_VERIFY,
            &b,
        )?;
        self.rest.finish(out)
    }
}

/// Sends one handshake message of ours and adds it to the transcript.
fn send(
    out: &mut dyn Output,
    hs: &mut Handshake,
    typ: HandshakeType,
    body: &[u8],
) -> Result<(), Error> {
    let m = crate::codec::handshake_message(typ.0, body)?;
    out.send_handshake(&m)?;
    hs.transcript.update(&m);
    Ok(())
}
