//! After the handshake: NewSessionTicket, KeyUpdate, refused post-handshake authentication.

use crate::conn::{Event, Io};
use crate::keyschedule as ks;
use crate::messages;
use crate::suites::Suite;
use crate::{Error, HandshakeType, Ticket};
use burrow_crypto::{hash, hkdf};

/// Most KeyUpdates accepted in a row without application data between them.
pub(crate) const MAX_KEY_UPDATES_IN_A_ROW: u32 = 16;

/// Application traffic state.
pub(crate) struct Traffic {
    suite: Suite,
    client_secret: Vec<u8>,
    server_secret: Vec<u8>,
    exporter_master: Vec<u8>,
    resumption_master: Vec<u8>,
    alpn: Option<Vec<u8>>,
    key_updates_in_a_row: u32,
}

impl Traffic {
    pub(crate) fn new(
        suite: Suite,
        client_secret: Vec<u8>,
        server_secret: Vec<u8>,
        exporter_master: Vec<u8>,
        resumption_master: Vec<u8>,
        alpn: Option<Vec<u8>>,
    ) -> Self {
        Self {
            suite,
            client_secret,
            server_secret,
            exporter_master,
            resumption_master,
            alpn,
            key_updates_in_a_row: 0,
        }
    }

    pub(crate) fn handle(
        mut self,
        typ: HandshakeType,
        body: &[u8],
        io: &mut Io,
    ) -> Result<Self, Error> {
        match typ {
            HandshakeType::NEW_SESSION_TICKET => {
                let t = messages::new_session_ticket(body)?;
                let psk = ks::expand_hash_len(
                    self.suite.hash,
                    &self.resumption_master,
                    b"resumption",
                    t.nonce,
                )?;
                io.events.push_back(Event::NewSessionTicket(Ticket {
                    suite: self.suite.id,
                    psk,
                    ticket: t.ticket.to_vec(),
                    age_add: t.age_add,
                    lifetime_s: t.lifetime,
                    received_ms: io.now_ms,
                    max_early_data: t.max_early_data,
                    server_name: io.config.server_name.clone(),
                    alpn: self.alpn.clone(),
                    tls12: false,
                    ems: false,
                }));
            }
            HandshakeType::KEY_UPDATE => {
                let requested = messages::key_update(body)?;
                self.key_updates_in_a_row = self.key_updates_in_a_row.saturating_add(1);
                if self.key_updates_in_a_row > MAX_KEY_UPDATES_IN_A_ROW {
                    return Err(Error::KeyUpdateStorm);
                }
                self.server_secret = ks::next_traffic_secret(self.suite.hash, &self.server_secret)?;
                io.set_read_keys(self.suite, &self.server_secret)?;
                if requested {
                    self.update_ours(false, io)?;
                }
            }
            HandshakeType::CERTIFICATE_REQUEST => return Err(Error::PostHandshakeAuth),
            _ => return Err(Error::UnexpectedMessage),
        }
        Ok(self)
    }

    /// Application data arrived: the KeyUpdate run is broken.
    pub(crate) fn saw_data(&mut self) {
        self.key_updates_in_a_row = 0;
    }

    /// Sends a KeyUpdate and switches our write keys.
    pub(crate) fn update_ours(&mut self, request_peer: bool, io: &mut Io) -> Result<(), Error> {
        let m = crate::codec::handshake_message(
            HandshakeType::KEY_UPDATE.0,
            &[u8::from(request_peer)],
        )?;
        io.send_handshake(&m)?;
        self.client_secret = ks::next_traffic_secret(self.suite.hash, &self.client_secret)?;
        io.set_write_keys(self.suite, &self.client_secret)
    }

    /// TLS-Exporter(label, context, length) (RFC 8446 §7.5).
    pub(crate) fn export(&self, label: &[u8], context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let h = self.suite.hash;
        let empty = hash::digest(h, &[]);
        let secret = ks::derive(h, &self.exporter_master, label, empty.as_ref())?;
        let ctx_hash = hash::digest(h, context);
        hkdf::expand_label(h, secret.as_ref(), b"exporter", ctx_hash.as_ref(), out)
            .map_err(|_| Error::Misuse)
    }
}
