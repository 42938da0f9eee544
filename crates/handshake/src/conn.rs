//! The connection: bytes and time in, events and bytes out. It assembles handshake messages
//! from records, hands each to the current step with the connection's [`Wire`] as the step's
//! [`Output`](crate::step::Output), and keeps the one error path.

use crate::config::Config;
use crate::counts::Counts;
use crate::entropy::Entropy;
use crate::event::Event;
use crate::keylog::KeyLogEntry;
use crate::server_hello::ExpectServerHello;
use crate::state::State;
use crate::step::{Env, Message};
use crate::verify::Answer;
use crate::wire::Wire;
use crate::Error;
use burrow_record::{
    AlertDescription, AlertLevel, ContentType, Next, ProtocolVersion, ReaderLimits, RecordReader,
    RecordWriter, SealJob,
};

/// A TLS 1.3 (or TLS 1.2, when the profile offers it and the server picks it) client
/// connection, sans-IO.
///
/// Call order: [`new`](Self::new) (queues the ClientHello) → loop { write out
/// [`take_transmit`](Self::take_transmit); [`poll_event`](Self::poll_event) until
/// [`Event::NeedData`]; answer requests with [`complete`](Self::complete); consume lent
/// [`plaintext`](Self::plaintext); read from the transport into [`recv_buf`](Self::recv_buf)
/// and [`commit`](Self::commit) (or [`feed`](Self::feed)) }. After an error, still flush
/// `take_transmit`: it holds the alert.
///
/// Copies on the receive path: none here. Records are opened in the buffer the transport
/// wrote into, and their content is lent from there; the only memmove is the compaction of at
/// most one partial record when less than a record of room is left.
pub struct Connection {
    config: Config,
    wire: Wire,
    /// Unix milliseconds of the current call.
    now_ms: u64,
    state: State,
    /// What the server has sent of what it could flood us with.
    counts: Counts,
    hs_buf: Vec<u8>,
    reported: usize,
    seal_reported: bool,
    error: Option<Error>,
    peer_closed: bool,
    we_closed: bool,
}

impl core::fmt::Debug for Connection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Connection")
            .field("error", &self.error)
            .field("peer_closed", &self.peer_closed)
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Starts a handshake: the ClientHello is ready in [`take_transmit`](Self::take_transmit).
    /// `now_ms` (Unix milliseconds) dates the ticket age if a ticket is offered.
    pub fn new(config: Config, entropy: Entropy, now_ms: u64) -> Result<Self, Error> {
        config.profile.validate()?;
        let mut reader = RecordReader::new();
        let limits = ReaderLimits {
            max_inner_plaintext: config
                .profile
                .record_size_limit
                .map_or(burrow_record::MAX_PLAINTEXT + 1, |l| {
                    usize::from(l).min(burrow_record::MAX_PLAINTEXT + 1)
                }),
            ..ReaderLimits::default()
        };
        reader.set_limits(limits);
        reader.set_offload(config.aead_offload);
        reader.set_ccs_allowed(true);
        let mut writer = RecordWriter::new();
        writer.set_plain_version(ProtocolVersion::TLS10);
        writer.set_offload(config.aead_offload);
        let mut wire = Wire::new(
            reader,
            writer,
            config.aead_offload,
            config.key_log,
            entropy.client_random,
        );
        let env = Env {
            config: &config,
            now_ms,
        };
        let start = ExpectServerHello::start(entropy, env, &mut wire)?;
        // Every record after the first ClientHello says TLS 1.2 (RFC 8446 §5.1).
        wire.writer.set_plain_version(ProtocolVersion::TLS12);
        Ok(Self {
            config,
            wire,
            now_ms,
            state: State::ServerHello(Box::new(start)),
            counts: Counts::default(),
            hs_buf: Vec::new(),
            reported: 0,
            seal_reported: false,
            error: None,
            peer_closed: false,
            we_closed: false,
        })
    }

    /// Bytes read from the transport. Bytes after the server's close_notify are ignored
    /// (RFC 8446 §6.1).
    pub fn feed(&mut self, data: &[u8]) -> Result<(), Error> {
        self.take_input(|reader| reader.feed(data))
    }

    /// Hands input to the record reader, unless the connection failed or the peer closed.
    fn take_input(
        &mut self,
        give: impl FnOnce(&mut RecordReader) -> Result<(), burrow_record::RecordError>,
    ) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.peer_closed {
            return Ok(());
        }
        let r = give(&mut self.wire.reader).map_err(Error::Record);
        r.or_else(|e| self.fail(e))
    }

    /// The free tail of the record buffer: read the transport straight into it, then
    /// [`commit`](Self::commit) the count (the copy-free [`feed`](Self::feed)). At least one
    /// whole record of room.
    pub fn recv_buf(&mut self) -> &mut [u8] {
        self.wire.reader.recv_buf()
    }

    /// `n` bytes were read into [`recv_buf`](Self::recv_buf). Bytes after the server's
    /// close_notify are ignored.
    pub fn commit(&mut self, n: usize) -> Result<(), Error> {
        self.take_input(|reader| reader.commit(n))
    }

    /// The application data lent by the last [`Event::Plaintext`] and not yet consumed.
    pub fn plaintext(&self) -> &[u8] {
        self.wire.reader.lent()
    }

    /// The caller has used the first `n` bytes of [`plaintext`](Self::plaintext).
    pub fn consume_plaintext(&mut self, n: usize) {
        self.wire.reader.consume_lent(n);
    }

    /// The next event. `now_ms` is the current Unix time in milliseconds.
    pub fn poll_event(&mut self, now_ms: u64) -> Result<Event, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.now_ms = now_ms;
        match self.poll_inner() {
            Ok(ev) => Ok(ev),
            Err(e) => self.fail(e),
        }
    }

    fn poll_inner(&mut self) -> Result<Event, Error> {
        loop {
            if let Some(ev) = self.wire.events.pop_front() {
                return Ok(ev);
            }
            if let Some(job) = self.wire.pending_seals.front() {
                if self.seal_reported {
                    return Ok(Event::AwaitingAnswer);
                }
                self.seal_reported = true;
                return Ok(Event::NeedSeal(*job));
            }
            if self.wire.out.len() > self.reported {
                self.reported = self.wire.out.len();
                return Ok(Event::Transmit);
            }
            if self.state.awaiting_answer() {
                return Ok(Event::AwaitingAnswer);
            }
            let lent = self.wire.reader.lent().len();
            if lent > 0 {
                return Ok(Event::Plaintext(lent));
            }
            if self.peer_closed {
                return Ok(Event::NeedData);
            }
            if self.process_buffered_message()? {
                continue;
            }
            self.wire
                .reader
                .set_ccs_allowed(self.state.before_server_finished());
            self.wire
                .reader
                .set_deliver_ccs(self.state.delivers_change_cipher_spec());
            let rec = match self.wire.reader.next_record()? {
                Next::NeedData => return Ok(Event::NeedData),
                Next::NeedOpen(job) => return Ok(Event::NeedOpen(job)),
                Next::Record(r) => r,
            };
            let (ct, data) = (rec.content_type, rec.data);
            if !self.hs_buf.is_empty() && ct != ContentType::HANDSHAKE {
                return Err(Error::UnexpectedMessage);
            }
            match ct {
                ContentType::HANDSHAKE => {
                    let total = self.hs_buf.len().saturating_add(data.len());
                    if total > self.config.max_handshake_message.saturating_add(4) {
                        return Err(Error::MessageTooLarge);
                    }
                    self.hs_buf.extend_from_slice(data);
                }
                ContentType::ALERT => {
                    let &[level, desc] = data else {
                        return Err(Error::Decode);
                    };
                    let (level, desc) = (AlertLevel(level), AlertDescription(desc));
                    if desc == AlertDescription::CLOSE_NOTIFY {
                        self.peer_closed = true;
                        return Ok(Event::PeerClosed);
                    }
                    if desc == AlertDescription::USER_CANCELED && level == AlertLevel::WARNING {
                        self.counts.warning_alert()?;
                        continue;
                    }
                    if desc == AlertDescription::CERTIFICATE_REQUIRED {
                        return Err(Error::ClientCertificateRequired);
                    }
                    // TLS 1.2 has no certificate_required: OpenSSL refuses our empty
                    // Certificate with handshake_failure, Go with bad_certificate.
                    if (desc == AlertDescription::HANDSHAKE_FAILURE
                        || desc == AlertDescription::BAD_CERTIFICATE)
                        && self.state.sent_empty_certificate12()
                    {
                        return Err(Error::ClientCertificateRequired);
                    }
                    return Err(Error::PeerAlert(desc));
                }
                ContentType::CHANGE_CIPHER_SPEC => {
                    let state = core::mem::replace(&mut self.state, State::Dead);
                    self.state = state.change_cipher_spec(&mut self.wire)?;
                }
                ContentType::APPLICATION_DATA => {
                    if !self.state.is_traffic() {
                        return Err(Error::UnexpectedMessage);
                    }
                    // An empty record is no progress (the record layer bounds a run of them).
                    if data.is_empty() {
                        continue;
                    }
                    self.counts.application_data();
                    let len = data.len();
                    self.wire.reader.lend_last();
                    return Ok(Event::Plaintext(len));
                }
                _ => return Err(Error::UnexpectedMessage),
            }
        }
    }

    /// Handles one whole buffered handshake message, if there is one.
    fn process_buffered_message(&mut self) -> Result<bool, Error> {
        let Some(&[_, a, b, c]) = self.hs_buf.get(..4) else {
            return Ok(false);
        };
        let len = usize::try_from(u32::from_be_bytes([0, a, b, c])).map_err(|_| Error::Decode)?;
        if len > self.config.max_handshake_message {
            return Err(Error::MessageTooLarge);
        }
        let total = len.checked_add(4).ok_or(Error::Decode)?;
        if self.hs_buf.len() < total {
            return Ok(false);
        }
        let raw: Vec<u8> = self.hs_buf.drain(..total).collect();
        let m = Message::new(&raw)?;
        self.counts
            .handshake_message(m.typ, self.state.is_traffic())?;
        self.wire.read_keys_changed = false;
        let env = Env {
            config: &self.config,
            now_ms: self.now_ms,
        };
        let state = core::mem::replace(&mut self.state, State::Dead);
        self.state = state.handle(m, env, &mut self.wire)?;
        // RFC 8446 §5.1: handshake messages must not span a key change.
        if self.wire.read_keys_changed && !self.hs_buf.is_empty() {
            return Err(Error::UnexpectedMessage);
        }
        Ok(true)
    }

    /// Answers the outstanding [`Event::NeedVerify`].
    pub fn complete(&mut self, answer: Answer) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.state.awaiting_answer() || self.state.awaiting_signature() {
            return Err(Error::Misuse);
        }
        let state = core::mem::replace(&mut self.state, State::Dead);
        match state.complete(answer) {
            Ok(s) => {
                self.state = s;
                Ok(())
            }
            Err(e) => self.fail::<()>(e),
        }
    }

    /// Answers the outstanding [`Event::NeedSign`]: the signature, or `None` when the key could
    /// not sign (the connection fails with `TLS_CLIENT_SIGN_FAILED`).
    pub fn complete_sign(&mut self, signature: Option<Vec<u8>>) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.state.awaiting_signature() {
            return Err(Error::Misuse);
        }
        let Some(signature) = signature else {
            return self.fail(Error::ClientSigningFailed);
        };
        let state = core::mem::replace(&mut self.state, State::Dead);
        match state.complete_sign(&signature, &mut self.wire) {
            Ok(s) => {
                self.state = s;
                Ok(())
            }
            Err(e) => self.fail::<()>(e),
        }
    }

    /// Queues application data (after [`Event::HandshakeDone`]).
    pub fn send(&mut self, plaintext: &[u8]) -> Result<(), Error> {
        self.send_parts(&[plaintext])
    }

    /// Queues the concatenation of `parts` as application data, without making it: the
    /// records are exactly those [`send`](Self::send) makes of the concatenation (same
    /// boundaries, contents and nonces), and each byte is copied once, from its part into the
    /// record buffer where it is sealed (inline, or by the caller's seal jobs in offload
    /// mode). Empty parts are allowed.
    pub fn send_parts(&mut self, parts: &[&[u8]]) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.we_closed {
            return Err(Error::Closed);
        }
        if !self.state.is_traffic() {
            return Err(Error::Misuse);
        }
        self.wire
            .write_record_parts(ContentType::APPLICATION_DATA, parts)
    }

    /// Sends a KeyUpdate (optionally asking the server to update too).
    pub fn update_keys(&mut self, request_peer: bool) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(t) = self.state.traffic13_mut() else {
            return Err(Error::Misuse);
        };
        t.update_ours(request_peer, &mut self.wire)
    }

    /// Queues close_notify. Further `send` calls fail.
    pub fn close(&mut self) {
        if !self.we_closed && self.error.is_none() {
            self.we_closed = true;
            self.wire
                .write_alert(AlertLevel::WARNING, AlertDescription::CLOSE_NOTIFY);
        }
    }

    /// Exported keying material (RFC 8446 §7.5), after the handshake.
    pub fn export_keying_material(
        &self,
        label: &[u8],
        context: &[u8],
        out: &mut [u8],
    ) -> Result<(), Error> {
        match &self.state {
            State::Traffic13(t) => t.export(label, context, out),
            _ => Err(Error::Misuse),
        }
    }

    /// Takes the key log entries gathered since the last call (always empty unless
    /// [`Config::key_log`] is set). Secrets are logged as they are derived, so a failed
    /// handshake still yields what it got to; write [`KeyLogEntry::to_line`] of each, one per
    /// line, to the key log file.
    pub fn take_key_log(&mut self) -> Vec<KeyLogEntry> {
        self.wire.take_key_log()
    }

    /// Takes the bytes to write to the transport (in offload mode, only once every
    /// [`Event::NeedSeal`] has been completed; until then this is empty).
    pub fn take_transmit(&mut self) -> Vec<u8> {
        if !self.wire.pending_seals.is_empty() {
            return Vec::new();
        }
        self.reported = 0;
        core::mem::take(&mut self.wire.out)
    }

    /// The bytes to write to the transport, without taking them (see
    /// [`take_transmit`](Self::take_transmit)); after writing them call
    /// [`transmit_done`](Self::transmit_done), which keeps the buffer for the next ones.
    pub fn transmit(&self) -> &[u8] {
        if !self.wire.pending_seals.is_empty() {
            return &[];
        }
        &self.wire.out
    }

    /// The bytes [`transmit`](Self::transmit) showed were written.
    pub fn transmit_done(&mut self) {
        if self.wire.pending_seals.is_empty() {
            self.reported = 0;
            self.wire.out.clear();
        }
    }

    /// Offload mode: `ciphertext || tag` of the record in the outstanding [`Event::NeedOpen`].
    pub fn open_buffer(&mut self) -> Option<&mut [u8]> {
        self.wire.reader.job_data_mut()
    }

    /// Offload mode: answers the outstanding [`Event::NeedOpen`] (`authentic`: the tag verified
    /// and the plaintext is now in place).
    pub fn complete_open(&mut self, authentic: bool) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let r = self
            .wire
            .reader
            .complete_open(authentic)
            .map_err(Error::Record);
        r.or_else(|e| self.fail(e))
    }

    /// Offload mode: the bytes of the outstanding [`Event::NeedSeal`]: inner plaintext followed
    /// by 16 zero bytes for the tag.
    pub fn seal_buffer(&mut self) -> Option<&mut [u8]> {
        let job = *self.wire.pending_seals.front()?;
        let end = job
            .start
            .checked_add(job.len)?
            .checked_add(burrow_record::TAG_LEN)?;
        self.wire.out.get_mut(job.start..end)
    }

    /// Offload mode: the next seal job still to be done, marked as reported — for the caller
    /// that has stopped polling because the connection failed: the fatal alert is queued as a
    /// seal job, so seal it, [`complete_seal`](Self::complete_seal), then flush
    /// [`take_transmit`](Self::take_transmit) and the alert goes out encrypted.
    pub fn pending_seal(&mut self) -> Option<SealJob> {
        let job = *self.wire.pending_seals.front()?;
        self.seal_reported = true;
        Some(job)
    }

    /// Offload mode: the outstanding [`Event::NeedSeal`] is done.
    pub fn complete_seal(&mut self) -> Result<(), Error> {
        if !self.seal_reported || self.wire.pending_seals.pop_front().is_none() {
            return Err(Error::Misuse);
        }
        self.seal_reported = false;
        Ok(())
    }

    /// Whether the server has sent close_notify.
    pub fn peer_closed(&self) -> bool {
        self.peer_closed
    }

    /// The error the connection failed with, if any.
    pub fn error(&self) -> Option<Error> {
        self.error
    }

    /// The one error path: send the alert derived from the error, then stick.
    fn fail<T>(&mut self, e: Error) -> Result<T, Error> {
        if e == Error::Misuse {
            return Err(e);
        }
        if self.error.is_none() {
            if let Some(a) = e.alert() {
                self.wire.write_alert(AlertLevel::FATAL, a);
            }
            self.error = Some(e);
            self.state = State::Dead;
        }
        Err(e)
    }
}
