//! The first step: the ClientHello is out and the ServerHello (or a HelloRetryRequest) is
//! awaited. The ServerHello decides the version; `tls13` or `tls12` takes over from it.

use crate::entropy::Entropy;
use crate::hello::{self, HelloInput, HelloShape, PskOffer};
use crate::keyschedule as ks;
use crate::messages::{self, ServerHello};
use crate::profile::ExtensionSlot;
use crate::secret::Secret;
use crate::step::{Env, Message, Output};
use crate::suites::{self, Suite};
use crate::tls12::{self, Start12, Tls12};
use crate::tls13::{self, Psk, Start13, Tls13};
use crate::{Error, ExtensionType, HandshakeType, NamedGroup, Ticket, Unperformable};
use burrow_crypto::hash::{self, Context};
use burrow_crypto::kx::{Group, KeyShare};
use zeroize::Zeroize;

/// Waiting for ServerHello (or HelloRetryRequest).
pub(crate) struct ExpectServerHello {
    random: [u8; 32],
    session_id: Vec<u8>,
    shares: Vec<KeyShare>,
    /// The seed of a key share a HelloRetryRequest may ask for.
    retry_seed: Secret,
    shape: HelloShape,
    /// The last ClientHello sent.
    client_hello: Vec<u8>,
    /// After a HelloRetryRequest: its suite and the transcript through the second ClientHello.
    retry: Option<(Suite, Context)>,
    cookie: Option<Vec<u8>>,
    psk: Option<Psk>,
    early_data_offered: bool,
    tls12_resume: Option<Ticket>,
}

/// Where a ServerHello leads.
pub(crate) enum AfterServerHello {
    /// A HelloRetryRequest was answered with a second ClientHello.
    Retry(Box<ExpectServerHello>),
    /// TLS 1.3.
    Tls13(Tls13),
    /// TLS 1.2.
    Tls12(Tls12),
}

impl ExpectServerHello {
    /// Builds and sends the first ClientHello. The key share seeds in `entropy` are wiped once
    /// the shares are made.
    pub(crate) fn start(
        mut entropy: Entropy,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Self, Error> {
        let config = env.config;
        let profile = &config.profile;
        if profile.key_shares.len() != entropy.key_share_seeds.len() {
            return Err(Error::Misuse);
        }
        let mut shares = Vec::new();
        for (g, seed) in profile.key_shares.iter().zip(&entropy.key_share_seeds) {
            let group = Group::from_codepoint(g.0).ok_or(Error::UnsupportedGroup(*g))?;
            shares.push(KeyShare::from_seed(group, seed).map_err(|_| Error::Misuse)?);
        }
        entropy
            .key_share_seeds
            .iter_mut()
            .for_each(Zeroize::zeroize);
        let retry_seed = Secret::copy_of(&entropy.retry_seed);
        entropy.retry_seed.zeroize();
        let offered_to_this_server = |t: &&Ticket| {
            t.is_usable(env.now_ms)
                && profile.cipher_suites.contains(&t.suite)
                && t.server_name == config.server_name
        };
        let psk = match config.resumption.as_ref().filter(offered_to_this_server) {
            Some(t) if !t.tls12 => {
                let suite = suites::lookup(t.suite).ok_or(Error::Misuse)?;
                Some(Psk {
                    ticket: t.clone(),
                    suite,
                    early_secret: ks::early_secret(suite.hash, Some(&t.psk)),
                })
            }
            _ => None,
        };
        let early_data_offered = hello::offered(profile, ExtensionSlot::EarlyData)
            && psk
                .as_ref()
                .is_some_and(|p| p.ticket.max_early_data.is_some());
        let session_id = if profile.compatibility_mode {
            entropy.session_id.to_vec()
        } else {
            Vec::new()
        };
        // A TLS 1.2 ticket (RFC 5077) needs our session id to recognise the server's resumption.
        let tls12_resume = config
            .resumption
            .as_ref()
            .filter(offered_to_this_server)
            .filter(|t| t.tls12 && !session_id.is_empty())
            .cloned();
        let shape = HelloShape::new(
            profile,
            &entropy.grease,
            &entropy.permutation,
            &entropy.ech_grease,
        )?;
        let mut s = Self {
            random: entropy.client_random,
            session_id,
            shares,
            retry_seed,
            shape,
            client_hello: Vec::new(),
            retry: None,
            cookie: None,
            psk,
            early_data_offered,
            tls12_resume,
        };
        s.send_client_hello(env, out)?;
        Ok(s)
    }

    fn send_client_hello(&mut self, env: Env<'_>, out: &mut dyn Output) -> Result<(), Error> {
        let psk_offer = self.psk.as_ref().map(|p| PskOffer {
            identity: &p.ticket.ticket,
            obfuscated_age: p.ticket.obfuscated_age(env.now_ms),
            binder_len: p.suite.hash.output_len(),
            early_data: self.early_data_offered,
        });
        let input = HelloInput {
            profile: &env.config.profile,
            random: &self.random,
            session_id: &self.session_id,
            server_name: env.config.server_name.as_deref(),
            shares: &self.shares,
            cookie: self.cookie.as_deref(),
            psk: psk_offer,
            shape: &self.shape,
            after_retry: self.retry.is_some(),
            tls12_ticket: self.tls12_resume.as_ref().map(|t| t.ticket.as_slice()),
        };
        let (mut ch, binders_len) = hello::build(&input)?;
        if let Some(p) = &self.psk {
            let prefix = match &self.retry {
                Some((_, c)) => c.clone(),
                None => Context::new(p.suite.hash),
            };
            write_binder(p, prefix, &mut ch, binders_len)?;
        }
        out.send_handshake(&ch)?;
        if let Some((_, c)) = &mut self.retry {
            c.update(&ch);
        }
        self.client_hello = ch;
        Ok(())
    }

    pub(crate) fn handle(
        mut self: Box<Self>,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<AfterServerHello, Error> {
        if m.typ != HandshakeType::SERVER_HELLO {
            return Err(Error::UnexpectedMessage);
        }
        let sh = ServerHello::parse(m.body)?;
        // Version dispatch: supported_versions → TLS 1.3 below; none → legacy_version decides.
        match sh.selected_version()? {
            Some(0x0304) => {}
            Some(_) => return Err(Error::IllegalParameter),
            None if sh.legacy_version == 0x0303 && !sh.is_hrr() => {
                let start = Start12 {
                    client_random: self.random,
                    client_hello: self.client_hello,
                    shares: self.shares,
                    retry_seed: self.retry_seed,
                    hello_retry: self.retry.is_some(),
                    session_id: self.session_id,
                    resume: self.tls12_resume,
                };
                return tls12::enter(&sh, m.raw, start, env, out).map(AfterServerHello::Tls12);
            }
            None => return Err(tls12_not_supported(&sh)),
        }
        if sh.legacy_version != 0x0303 || sh.compression != 0 {
            return Err(Error::IllegalParameter);
        }
        if sh.session_id != self.session_id.as_slice() {
            return Err(Error::SessionIdMismatch);
        }
        if !env.config.profile.cipher_suites.contains(&sh.suite) {
            return Err(Error::UnofferedCipherSuite);
        }
        let suite = suites::lookup(sh.suite).ok_or(if suites::lookup12(sh.suite).is_some() {
            Error::UnofferedCipherSuite
        } else {
            Error::SelectedUnperformable(Unperformable::CipherSuite(sh.suite))
        })?;
        if sh.is_hrr() {
            self.handle_retry(&sh, suite, m.raw, env, out)?;
            return Ok(AfterServerHello::Retry(self));
        }
        let start = Start13 {
            client_hello: self.client_hello,
            shares: self.shares,
            retry: self.retry,
            psk: self.psk,
            early_data_offered: self.early_data_offered,
        };
        tls13::enter(&sh, suite, m.raw, start, env, out).map(AfterServerHello::Tls13)
    }

    fn handle_retry(
        &mut self,
        hrr: &ServerHello<'_>,
        suite: Suite,
        msg: &[u8],
        env: Env<'_>,
        out: &mut dyn Output,
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
            if !env.config.profile.groups.contains(&g) {
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
            out.send_compat_ccs();
        }
        self.send_client_hello(env, out)
    }
}

/// Fills in the PSK binder (RFC 8446 §4.2.11.2), the last `binders_len` bytes of the
/// ClientHello `ch`: an HMAC over the transcript through the ClientHello without its binders
/// (`prefix` holds what came before it: nothing, or the retry's transcript).
fn write_binder(
    p: &Psk,
    mut prefix: Context,
    ch: &mut [u8],
    binders_len: usize,
) -> Result<(), Error> {
    let h = p.suite.hash;
    let trunc = ch.len().checked_sub(binders_len).ok_or(Error::Internal)?;
    prefix.update(ch.get(..trunc).ok_or(Error::Internal)?);
    let th = prefix.finish();
    let empty = hash::digest(h, &[]);
    let binder_key = ks::derive(h, &p.early_secret, b"res binder", empty.as_ref())?;
    let binder = ks::finished_mac(h, &binder_key, th.as_ref())?;
    let at = ch
        .len()
        .checked_sub(h.output_len())
        .ok_or(Error::Internal)?;
    ch.get_mut(at..)
        .ok_or(Error::Internal)?
        .copy_from_slice(binder.as_ref());
    Ok(())
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
