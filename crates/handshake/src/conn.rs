//! The connection: bytes and time in, events and bytes out.

use crate::keylog::KeyLogEntry;
use crate::state::{ExpectServerHello, State};
use crate::suites::Suite;
use crate::{
    Answer, CipherSuite, Error, HandshakeType, NamedGroup, Profile, SignatureCheck, Ticket,
    VerifyRequest,
};
use burrow_crypto::aead::AeadAlgorithm;
use burrow_crypto::kx::Group;
use burrow_record::{
    AlertDescription, AlertLevel, ContentType, Next, OpenJob, ProtocolVersion, ReaderLimits,
    RecordReader, RecordWriter, SealJob,
};
use std::collections::VecDeque;

/// What the client is configured to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// The ClientHello shape.
    pub profile: Profile,
    /// The DNS name to send as SNI and hand to the verifier (`None` for IP literals).
    pub server_name: Option<String>,
    /// Who checks the CertificateVerify signature.
    pub signature_check: SignatureCheck,
    /// A ticket to offer for PSK resumption (psk_dhe_ke only).
    pub resumption: Option<Ticket>,
    /// Largest handshake message accepted (bytes).
    pub max_handshake_message: usize,
    /// Hand record AEAD work to the caller ([`Event::TrafficKey`], [`Event::NeedOpen`],
    /// [`Event::NeedSeal`]) instead of doing it inline with burrow-crypto.
    pub aead_offload: bool,
    /// TLS 1.2: refuse a server without extended master secret (RFC 7627) with
    /// `TLS12_NO_EXTENDED_MASTER_SECRET`. Off by default, as in curl, browsers, rustls and Go:
    /// such a server is accepted, but its session is never resumed (no
    /// [`Event::NewSessionTicket`] comes out of it), which is where the triple-handshake attack
    /// needs it; [`HandshakeSummary::extended_master_secret`] says which case it was.
    pub require_extended_master_secret: bool,
    /// Collect the connection's secrets in the NSS key log format for
    /// [`Connection::take_key_log`] (the `SSLKEYLOGFILE` of other clients, for decrypting a
    /// capture). Off by default: whoever reads the entries can decrypt the connection.
    pub key_log: bool,
}

impl Config {
    /// A config with `profile` for `server_name`.
    pub fn new(profile: Profile, server_name: Option<&str>) -> Self {
        Self {
            profile,
            server_name: server_name.map(str::to_string),
            signature_check: SignatureCheck::Inline,
            resumption: None,
            max_handshake_message: 128 * 1024,
            aead_offload: false,
            require_extended_master_secret: false,
            key_log: false,
        }
    }
}

/// The randomness a connection needs, drawn by the caller (the core draws none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entropy {
    /// ClientHello.random.
    pub client_random: [u8; 32],
    /// legacy_session_id (used in compatibility mode).
    pub session_id: [u8; 32],
    /// One seed per `profile.key_shares` entry (`Group::seed_len` bytes each).
    pub key_share_seeds: Vec<Vec<u8>>,
    /// Seed for a key share a HelloRetryRequest may ask for (up to 96 bytes; a retry to a group
    /// needing more fails).
    pub retry_seed: Vec<u8>,
    /// One byte per GREASE place (cipher, group, signature algorithm, version, first and
    /// second extension) when the profile sends GREASE; empty otherwise.
    pub grease: Vec<u8>,
    /// Two bytes per extension slot when the profile permutes its extensions; empty otherwise.
    pub permutation: Vec<u8>,
    /// The ECH GREASE extension's randomness (config id, enc, length, payload) when the
    /// profile sends one; empty otherwise.
    pub ech_grease: Vec<u8>,
}

impl Entropy {
    /// How many random bytes [`from_pool`](Self::from_pool) takes for `profile`.
    pub fn pool_len(profile: &Profile) -> usize {
        let shares: usize = profile
            .key_shares
            .iter()
            .map(|g| Group::from_codepoint(g.0).map_or(0, Group::seed_len))
            .fold(0, usize::saturating_add);
        let sid = if profile.compatibility_mode { 32 } else { 0 };
        32usize
            .saturating_add(sid)
            .saturating_add(shares)
            .saturating_add(
                Self::shape_lens(profile)
                    .iter()
                    .fold(0, |a, b| a.saturating_add(*b)),
            )
            .saturating_add(96)
    }

    /// GREASE, permutation and ECH GREASE byte counts for `profile` (0 when unused).
    fn shape_lens(profile: &Profile) -> [usize; 3] {
        [
            if profile.grease.any() {
                crate::hello::GREASE_POOL
            } else {
                0
            },
            crate::hello::permutation_pool(profile),
            if profile.ech_grease {
                crate::hello::ECH_GREASE_POOL
            } else {
                0
            },
        ]
    }

    /// Slices a pool of random bytes in order: client random, session id (compatibility mode
    /// only), each key share seed, the GREASE bytes, the permutation bytes and the ECH GREASE
    /// bytes (each only when the profile uses it), then the retry seed (whatever remains, at
    /// most 96 bytes).
    pub fn from_pool(profile: &Profile, pool: &[u8]) -> Result<Self, Error> {
        let mut rest = pool;
        let mut take = |n: usize| -> Result<&[u8], Error> {
            let (a, b) = rest.split_at_checked(n).ok_or(Error::Misuse)?;
            rest = b;
            Ok(a)
        };
        let client_random: [u8; 32] = take(32)?.try_into().map_err(|_| Error::Misuse)?;
        let mut session_id = [0u8; 32];
        if profile.compatibility_mode {
            session_id.copy_from_slice(take(32)?);
        }
        let mut key_share_seeds = Vec::new();
        for g in &profile.key_shares {
            let group = Group::from_codepoint(g.0).ok_or(Error::UnsupportedGroup(*g))?;
            key_share_seeds.push(take(group.seed_len())?.to_vec());
        }
        let [g, p, e] = Self::shape_lens(profile);
        let grease = take(g)?.to_vec();
        let permutation = take(p)?.to_vec();
        let ech_grease = take(e)?.to_vec();
        let retry_seed = rest.get(..rest.len().min(96)).unwrap_or(&[]).to_vec();
        Ok(Self {
            client_random,
            session_id,
            key_share_seeds,
            retry_seed,
            grease,
            permutation,
            ech_grease,
        })
    }
}

/// What the handshake negotiated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandshakeSummary {
    /// The cipher suite.
    pub cipher_suite: CipherSuite,
    /// The key exchange group.
    pub group: NamedGroup,
    /// The ALPN protocol, if any.
    pub alpn: Option<Vec<u8>>,
    /// Whether a ticket was accepted (PSK resumption).
    pub resumed: bool,
    /// Whether the server sent a HelloRetryRequest.
    pub hello_retry: bool,
    /// Whether the server accepted the (empty) early data indication.
    pub early_data_accepted: bool,
    /// TLS 1.2: whether the session uses extended master secret (RFC 7627); `None` for TLS 1.3,
    /// whose key schedule always binds the transcript. `Some(false)` sessions issue no ticket.
    pub extended_master_secret: Option<bool>,
}

/// Something the caller must act on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// Nothing to do until more bytes are fed.
    NeedData,
    /// Nothing to do until the outstanding request ([`Event::NeedVerify`], [`Event::NeedSeal`])
    /// is answered. Feeding bytes does not help: answer it.
    AwaitingAnswer,
    /// Bytes are waiting in [`Connection::take_transmit`].
    Transmit,
    /// Validate the server's certificate chain; answer with [`Connection::complete`].
    NeedVerify(VerifyRequest),
    /// The handshake finished; application data may flow.
    HandshakeDone(HandshakeSummary),
    /// Application data from the server: this many bytes are lent at
    /// [`Connection::plaintext`], in the record buffer where they were decrypted. The event
    /// repeats until they are all [`Connection::consume_plaintext`]-ed.
    Plaintext(usize),
    /// A ticket for resuming a later connection to the same server.
    NewSessionTicket(Ticket),
    /// The server sent close_notify; nothing more will be read.
    PeerClosed,
    /// Offload mode: a traffic key to import; later jobs name it by `key_id`.
    TrafficKey(TrafficKeyInfo),
    /// Offload mode: open [`Connection::open_buffer`] in place, then
    /// [`Connection::complete_open`].
    NeedOpen(OpenJob),
    /// Offload mode: seal [`Connection::seal_buffer`] in place (ciphertext, then the 16-byte tag
    /// into its last 16 bytes), then [`Connection::complete_seal`].
    NeedSeal(SealJob),
}

/// A traffic key for an offloading caller.
#[derive(Clone, PartialEq, Eq)]
pub struct TrafficKeyInfo {
    /// The id jobs use.
    pub key_id: u32,
    /// The AEAD.
    pub algorithm: AeadAlgorithm,
    /// The raw key.
    pub key: Vec<u8>,
    /// Whether it opens server records (else it seals ours).
    pub for_reading: bool,
}

impl core::fmt::Debug for TrafficKeyInfo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TrafficKeyInfo")
            .field("key_id", &self.key_id)
            .field("algorithm", &self.algorithm)
            .field("for_reading", &self.for_reading)
            .finish_non_exhaustive()
    }
}

/// Everything the handshake steps touch besides their own state.
pub(crate) struct Io {
    pub(crate) config: Config,
    pub(crate) reader: RecordReader,
    pub(crate) writer: RecordWriter,
    pub(crate) out: Vec<u8>,
    pub(crate) events: VecDeque<Event>,
    pub(crate) now_ms: u64,
    next_key_id: u32,
    read_keys_changed: bool,
    ccs_sent: bool,
    pending_seals: VecDeque<SealJob>,
    client_random: [u8; 32],
    key_log: Vec<KeyLogEntry>,
}

impl Io {
    /// Records a secret for the key log, if the caller asked for one.
    pub(crate) fn log_secret(&mut self, label: &'static str, secret: &[u8]) {
        if self.config.key_log {
            self.key_log.push(KeyLogEntry {
                label,
                client_random: self.client_random,
                secret: secret.to_vec(),
            });
        }
    }

    pub(crate) fn send_handshake(&mut self, msg: &[u8]) -> Result<(), Error> {
        self.write_record(ContentType::HANDSHAKE, msg)
    }

    /// Writes records; in offload mode their seal jobs are queued for the caller.
    pub(crate) fn write_record(&mut self, ct: ContentType, data: &[u8]) -> Result<(), Error> {
        self.write_record_parts(ct, &[data])
    }

    /// [`write_record`](Self::write_record) of the parts' concatenation, without making it.
    pub(crate) fn write_record_parts(
        &mut self,
        ct: ContentType,
        parts: &[&[u8]],
    ) -> Result<(), Error> {
        let jobs = self.writer.write_parts(ct, parts, &mut self.out)?;
        self.pending_seals.extend(jobs);
        Ok(())
    }

    pub(crate) fn plain_version_after_first_hello(&mut self) {
        self.writer.set_plain_version(ProtocolVersion::TLS12);
    }

    pub(crate) fn send_ccs_once(&mut self) {
        if !self.ccs_sent {
            self.ccs_sent = true;
            self.out.extend_from_slice(&[20, 3, 3, 0, 1, 1]);
        }
    }

    fn key_id(&mut self) -> u32 {
        self.next_key_id = self.next_key_id.wrapping_add(1);
        self.next_key_id
    }

    fn announce(&mut self, key_id: u32, aead: AeadAlgorithm, key: Vec<u8>, for_reading: bool) {
        if self.config.aead_offload {
            self.events.push_back(Event::TrafficKey(TrafficKeyInfo {
                key_id,
                algorithm: aead,
                key,
                for_reading,
            }));
        }
    }

    /// TLS 1.2 record keys under a fresh key id (announced to an offloading caller).
    pub(crate) fn tls12_keys(
        &mut self,
        aead: AeadAlgorithm,
        key: &[u8],
        iv: &[u8],
        for_reading: bool,
    ) -> Result<burrow_record::TrafficKeys, Error> {
        let id = self.key_id();
        let k = burrow_record::TrafficKeys::new_tls12(aead, key, iv, id).map_err(Error::Record)?;
        self.announce(id, aead, key.to_vec(), for_reading);
        Ok(k)
    }

    pub(crate) fn set_read_keys(&mut self, suite: Suite, secret: &[u8]) -> Result<(), Error> {
        let id = self.key_id();
        let (keys, raw) = crate::keyschedule::traffic_keys(suite, secret, id)?;
        self.reader.set_keys(Some(keys));
        self.read_keys_changed = true;
        self.announce(id, suite.aead, raw, true);
        Ok(())
    }

    pub(crate) fn set_write_keys(&mut self, suite: Suite, secret: &[u8]) -> Result<(), Error> {
        let id = self.key_id();
        let (keys, raw) = crate::keyschedule::traffic_keys(suite, secret, id)?;
        self.writer.set_keys(Some(keys));
        self.announce(id, suite.aead, raw, false);
        Ok(())
    }
}

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
    io: Io,
    state: State,
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
        let mut writer = RecordWriter::new();
        writer.set_plain_version(ProtocolVersion::TLS10);
        let mut io = Io {
            config,
            reader,
            writer,
            out: Vec::new(),
            events: VecDeque::new(),
            now_ms,
            next_key_id: 0,
            read_keys_changed: false,
            ccs_sent: false,
            pending_seals: VecDeque::new(),
            client_random: entropy.client_random,
            key_log: Vec::new(),
        };
        io.reader.set_offload(io.config.aead_offload);
        io.writer.set_offload(io.config.aead_offload);
        let start = ExpectServerHello::start(entropy, &mut io)?;
        Ok(Self {
            io,
            state: State::ExpectServerHello(Box::new(start)),
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
        let r = give(&mut self.io.reader).map_err(Error::Record);
        r.or_else(|e| self.fail(e))
    }

    /// The free tail of the record buffer: read the transport straight into it, then
    /// [`commit`](Self::commit) the count (the copy-free [`feed`](Self::feed)). At least one
    /// whole record of room.
    pub fn recv_buf(&mut self) -> &mut [u8] {
        self.io.reader.recv_buf()
    }

    /// `n` bytes were read into [`recv_buf`](Self::recv_buf). Bytes after the server's
    /// close_notify are ignored.
    pub fn commit(&mut self, n: usize) -> Result<(), Error> {
        self.take_input(|reader| reader.commit(n))
    }

    /// The application data lent by the last [`Event::Plaintext`] and not yet consumed.
    pub fn plaintext(&self) -> &[u8] {
        self.io.reader.lent()
    }

    /// The caller has used the first `n` bytes of [`plaintext`](Self::plaintext).
    pub fn consume_plaintext(&mut self, n: usize) {
        self.io.reader.consume_lent(n);
    }

    /// The next event. `now_ms` is the current Unix time in milliseconds.
    pub fn poll_event(&mut self, now_ms: u64) -> Result<Event, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.io.now_ms = now_ms;
        match self.poll_inner() {
            Ok(ev) => Ok(ev),
            Err(e) => self.fail(e),
        }
    }

    fn poll_inner(&mut self) -> Result<Event, Error> {
        loop {
            if let Some(ev) = self.io.events.pop_front() {
                return Ok(ev);
            }
            if let Some(job) = self.io.pending_seals.front() {
                if self.seal_reported {
                    return Ok(Event::AwaitingAnswer);
                }
                self.seal_reported = true;
                return Ok(Event::NeedSeal(*job));
            }
            if self.io.out.len() > self.reported {
                self.reported = self.io.out.len();
                return Ok(Event::Transmit);
            }
            if self.state.awaiting_answer() {
                return Ok(Event::AwaitingAnswer);
            }
            let lent = self.io.reader.lent().len();
            if lent > 0 {
                return Ok(Event::Plaintext(lent));
            }
            if self.peer_closed {
                return Ok(Event::NeedData);
            }
            if self.process_buffered_message()? {
                continue;
            }
            self.io
                .reader
                .set_ccs_allowed(self.state.before_server_finished());
            let rec = match self.io.reader.next_record()? {
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
                    if total > self.io.config.max_handshake_message.saturating_add(4) {
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
                        continue;
                    }
                    return Err(Error::PeerAlert(desc));
                }
                ContentType::CHANGE_CIPHER_SPEC => {
                    let state = core::mem::replace(&mut self.state, State::Dead);
                    self.state = state.change_cipher_spec(&mut self.io)?;
                }
                ContentType::APPLICATION_DATA => {
                    if let Some(t) = self.state.traffic_mut() {
                        t.saw_data();
                    } else if !self.state.is_traffic() {
                        return Err(Error::UnexpectedMessage);
                    }
                    if data.is_empty() {
                        continue;
                    }
                    let len = data.len();
                    self.io.reader.lend_last();
                    return Ok(Event::Plaintext(len));
                }
                _ => return Err(Error::UnexpectedMessage),
            }
        }
    }

    /// Handles one whole buffered handshake message, if there is one.
    fn process_buffered_message(&mut self) -> Result<bool, Error> {
        let Some(&[typ, a, b, c]) = self.hs_buf.get(..4) else {
            return Ok(false);
        };
        let len = usize::try_from(u32::from_be_bytes([0, a, b, c])).map_err(|_| Error::Decode)?;
        if len > self.io.config.max_handshake_message {
            return Err(Error::MessageTooLarge);
        }
        let total = len.checked_add(4).ok_or(Error::Decode)?;
        if self.hs_buf.len() < total {
            return Ok(false);
        }
        let msg: Vec<u8> = self.hs_buf.drain(..total).collect();
        self.io.read_keys_changed = false;
        let state = core::mem::replace(&mut self.state, State::Dead);
        self.state = state.handle(HandshakeType(typ), &msg, &mut self.io)?;
        // RFC 8446 §5.1: handshake messages must not span a key change.
        if self.io.read_keys_changed && !self.hs_buf.is_empty() {
            return Err(Error::UnexpectedMessage);
        }
        Ok(true)
    }

    /// Answers the outstanding [`Event::NeedVerify`].
    pub fn complete(&mut self, answer: Answer) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.state.awaiting_answer() {
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
        self.io
            .write_record_parts(ContentType::APPLICATION_DATA, parts)
    }

    /// Sends a KeyUpdate (optionally asking the server to update too).
    pub fn update_keys(&mut self, request_peer: bool) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(t) = self.state.traffic_mut() else {
            return Err(Error::Misuse);
        };
        t.update_ours(request_peer, &mut self.io)
    }

    /// Queues close_notify. Further `send` calls fail.
    pub fn close(&mut self) {
        if !self.we_closed && self.error.is_none() {
            self.we_closed = true;
            self.write_alert(AlertLevel::WARNING, AlertDescription::CLOSE_NOTIFY);
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
            State::Traffic(t) => t.export(label, context, out),
            _ => Err(Error::Misuse),
        }
    }

    /// Takes the key log entries gathered since the last call (always empty unless
    /// [`Config::key_log`] is set). Secrets are logged as they are derived, so a failed
    /// handshake still yields what it got to; write [`KeyLogEntry::to_line`] of each, one per
    /// line, to the key log file.
    pub fn take_key_log(&mut self) -> Vec<KeyLogEntry> {
        core::mem::take(&mut self.io.key_log)
    }

    /// Takes the bytes to write to the transport (in offload mode, only once every
    /// [`Event::NeedSeal`] has been completed; until then this is empty).
    pub fn take_transmit(&mut self) -> Vec<u8> {
        if !self.io.pending_seals.is_empty() {
            return Vec::new();
        }
        self.reported = 0;
        core::mem::take(&mut self.io.out)
    }

    /// The bytes to write to the transport, without taking them (see
    /// [`take_transmit`](Self::take_transmit)); after writing them call
    /// [`transmit_done`](Self::transmit_done), which keeps the buffer for the next ones.
    pub fn transmit(&self) -> &[u8] {
        if !self.io.pending_seals.is_empty() {
            return &[];
        }
        &self.io.out
    }

    /// The bytes [`transmit`](Self::transmit) showed were written.
    pub fn transmit_done(&mut self) {
        if self.io.pending_seals.is_empty() {
            self.reported = 0;
            self.io.out.clear();
        }
    }

    /// Offload mode: `ciphertext || tag` of the record in the outstanding [`Event::NeedOpen`].
    pub fn open_buffer(&mut self) -> Option<&mut [u8]> {
        self.io.reader.job_data_mut()
    }

    /// Offload mode: answers the outstanding [`Event::NeedOpen`] (`authentic`: the tag verified
    /// and the plaintext is now in place).
    pub fn complete_open(&mut self, authentic: bool) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let r = self
            .io
            .reader
            .complete_open(authentic)
            .map_err(Error::Record);
        r.or_else(|e| self.fail(e))
    }

    /// Offload mode: the bytes of the outstanding [`Event::NeedSeal`]: inner plaintext followed
    /// by 16 zero bytes for the tag.
    pub fn seal_buffer(&mut self) -> Option<&mut [u8]> {
        let job = *self.io.pending_seals.front()?;
        let end = job
            .start
            .checked_add(job.len)?
            .checked_add(burrow_record::TAG_LEN)?;
        self.io.out.get_mut(job.start..end)
    }

    /// Offload mode: the next seal job still to be done, marked as reported — for the caller
    /// that has stopped polling because the connection failed: the fatal alert is queued as a
    /// seal job, so seal it, [`complete_seal`](Self::complete_seal), then flush
    /// [`take_transmit`](Self::take_transmit) and the alert goes out encrypted.
    pub fn pending_seal(&mut self) -> Option<SealJob> {
        let job = *self.io.pending_seals.front()?;
        self.seal_reported = true;
        Some(job)
    }

    /// Offload mode: the outstanding [`Event::NeedSeal`] is done.
    pub fn complete_seal(&mut self) -> Result<(), Error> {
        if !self.seal_reported || self.io.pending_seals.pop_front().is_none() {
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

    fn write_alert(&mut self, level: AlertLevel, desc: AlertDescription) {
        // In offload mode a protected alert becomes a seal job like any record; after an error
        // the caller finds it with `pending_seal`. Best effort: an alert that cannot be
        // written is not sent.
        let _ = self.io.write_record(ContentType::ALERT, &[level.0, desc.0]);
    }

    /// The one error path: send the alert derived from the error, then stick.
    fn fail<T>(&mut self, e: Error) -> Result<T, Error> {
        if e == Error::Misuse {
            return Err(e);
        }
        if self.error.is_none() {
            if let Some(a) = e.alert() {
                self.write_alert(AlertLevel::FATAL, a);
            }
            self.error = Some(e);
            self.state = State::Dead;
        }
        Err(e)
    }
}
