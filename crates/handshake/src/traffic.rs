//! After the handshake: the post-handshake messages of each version. TLS 1.3:
//! NewSessionTicket, KeyUpdate, refused post-handshake authentication; TLS 1.2: HelloRequest,
//! answered with a `no_renegotiation` warning.

use crate::event::Event;
use crate::keyschedule as ks;
use crate::messages;
use crate::secret::Secret;
use crate::step::{Env, Message, Output};
use crate::suites::Suite;
use crate::{Error, HandshakeType, Ticket};
use burrow_crypto::{hash, hkdf};
use burrow_record::AlertDescription;

/// TLS 1.3 application traffic.
pub(crate) struct Traffic13 {
    suite: Suite,
    client_secret: Secret,
    server_secret: Secret,
    exporter_master: Secret,
    resumption_master: Secret,
    alpn: Option<Vec<u8>>,
}

impl Traffic13 {
    pub(crate) fn new(
        suite: Suite,
        client_secret: Secret,
        server_secret: Secret,
        exporter_master: Secret,
        resumption_master: Secret,
        alpn: Option<Vec<u8>>,
    ) -> Self {
        Self {
            suite,
            client_secret,
            server_secret,
            exporter_master,
            resumption_master,
            alpn,
        }
    }

    /// A post-handshake message.
    pub(crate) fn handle(
        &mut self,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<(), Error> {
        match m.typ {
            HandshakeType::NEW_SESSION_TICKET => {
                let t = messages::new_session_ticket(m.body)?;
                let psk = ks::expand_hash_len(
                    self.suite.hash,
                    &self.resumption_master,
                    b"resumption",
                    t.nonce,
                )?;
                out.emit(Event::NewSessionTicket(Ticket {
                    suite: self.suite.id,
                    psk,
                    ticket: t.ticket.to_vec(),
                    age_add: t.age_add,
                    lifetime_s: t.lifetime,
                    received_ms: env.now_ms,
                    max_early_data: t.max_early_data,
                    server_name: env.config.server_name.clone(),
                    alpn: self.alpn.clone(),
                    tls12: false,
                    ems: false,
                }));
            }
            HandshakeType::KEY_UPDATE => {
                let requested = messages::key_update(m.body)?;
                self.server_secret = ks::next_traffic_secret(self.suite.hash, &self.server_secret)?;
                out.read_secret(self.suite, &self.server_secret)?;
                if requested {
                    self.update_ours(false, out)?;
                }
            }
            HandshakeType::CERTIFICATE_REQUEST => return Err(Error::PostHandshakeAuth),
            _ => return Err(Error::UnexpectedMessage),
        }
        Ok(())
    }

    /// Sends a KeyUpdate and switches our write keys.
    pub(crate) fn update_ours(
        &mut self,
        request_peer: bool,
        out: &mut dyn Output,
    ) -> Result<(), Error> {
        let m = crate::codec::handshake_message(
            HandshakeType::KEY_UPDATE.0,
            &[u8::from(request_peer)],
        )?;
        out.send_handshake(&m)?;
        self.client_secret = ks::next_traffic_secret(self.suite.hash, &self.client_secret)?;
        out.write_secret(self.suite, &self.client_secret)
    }

    /// TLS-Exporter(label, context, length) (RFC 8446 §7.5).
    pub(crate) fn export(&self, label: &[u8], context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let h = self.suite.hash;
        let empty = hash::digest(h, &[]);
        let secret = ks::derive(h, &self.exporter_master, label, empty.as_ref())?;
        let ctx_hash = hash::digest(h, context);
        hkdf::expand_label(h, &secret, b"exporter", ctx_hash.as_ref(), out)
            .map_err(|_| Error::Misuse)
    }
}

/// TLS 1.2 application traffic.
pub(crate) struct Traffic12;

impl Traffic12 {
    /// Post-handshake messages: only HelloRequest exists, and renegotiation is refused (the
    /// driver bounds how many, `MAX_HELLO_REQUESTS`).
    pub(crate) fn handle(&mut self, m: Message<'_>, out: &mut dyn Output) -> Result<(), Error> {
        if m.typ != HandshakeType::HELLO_REQUEST || !m.body.is_empty() {
            return Err(Error::UnexpectedMessage);
        }
        out.send_warning(AlertDescription::NO_RENEGOTIATION)
    }
}
