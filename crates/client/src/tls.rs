//! `TlsStream`: burrow's TLS client (1.3 and 1.2, burrow-handshake) over any [`NetStream`],
//! itself a `NetStream` — so TLS inside TLS (origin through an HTTPS proxy) needs nothing more.

use std::io;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use burrow_handshake::{
    Answer, CertRejection, ClientCertificate, Config, Connection, Entropy, Event, ExtensionSlot,
    Profile, SignatureCheck, Ticket, TrafficKeyInfo, VerifyRequest,
};
use burrow_x509::{AnswerBook, Revocation, SignatureFailure, StapleStatus, MAX_ANSWER_ROUNDS};

use crate::error::Error;
use crate::net::NetStream;
use crate::offload::{Offload, RecordKey};
use crate::trust::{CertReport, Judge, Trust, Verdict};

/// Receives NSS key log lines (`LABEL <client_random> <secret>`, no newline) — what
/// `SSLKEYLOGFILE` holds for other clients, so Wireshark can decrypt a capture. Anyone with
/// these lines can read the traffic: debugging only.
#[derive(Clone)]
pub struct KeyLogSink(pub Rc<dyn Fn(&str)>);

impl core::fmt::Debug for KeyLogSink {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("KeyLogSink")
    }
}

/// How to set up TLS to one peer.
#[derive(Clone, Debug)]
pub struct TlsSettings {
    /// The ClientHello shape.
    pub profile: Profile,
    /// Certificate trust.
    pub trust: Trust,
    /// SPKI pins (`sha256/BASE64`), checked on top of validation when non-empty.
    pub pins: Vec<String>,
    /// Stapled OCSP policy.
    pub revocation: Revocation,
    /// Ask for a stapled OCSP response.
    pub request_staple: bool,
    /// ALPN protocols offered, in preference order (empty = no ALPN extension).
    pub alpn: Vec<Vec<u8>>,
    /// Where to write the session secrets (`None`: nowhere, the default).
    pub key_log: Option<KeyLogSink>,
    /// Who performs record AEAD and signature checks (`None`: burrow-crypto inline, the
    /// default; the Worker sets WebCrypto).
    pub offload: Option<Offload>,
    /// TLS 1.2: refuse a server without extended master secret (RFC 7627) with
    /// `TLS12_NO_EXTENDED_MASTER_SECRET`. Off by default: such a server is accepted, its
    /// session is never resumed, and [`TlsInfo::extended_master_secret`] says `Some(false)`.
    pub require_extended_master_secret: bool,
    /// The client certificate offered when the server asks for one (`None`: an empty
    /// Certificate, the default). Built with [`ClientCert::from_pem`](crate::ClientCert),
    /// which refuses a key that does not match the leaf.
    pub client_cert: Option<crate::ClientCert>,
    /// Where validated certificate chains are remembered, so a full handshake to a chain
    /// already validated under the same trust settings skips its path building and chain
    /// signatures (the handshake signature, time, name and staple are checked every time).
    /// Default: a new cache of its own; clones of these settings share it, and
    /// [`ChainCache::disabled`](crate::ChainCache::disabled) turns it off.
    pub chain_cache: crate::ChainCache,
}

impl Default for TlsSettings {
    /// The `curl` profile (curl 8.21's ClientHello, plus the status_request that
    /// `request_staple` adds where `curl --cert-status` puts it), system roots, staples
    /// requested and checked, ALPN h2 then http/1.1. For curl's exact hello set
    /// `request_staple` to false.
    fn default() -> Self {
        TlsSettings {
            profile: Profile::curl(),
            trust: Trust::System,
            pins: Vec::new(),
            revocation: Revocation::CheckStaple,
            request_staple: true,
            alpn: vec![b"h2".to_vec(), b"http/1.1".to_vec()],
            key_log: None,
            offload: None,
            require_extended_master_secret: false,
            client_cert: None,
            chain_cache: crate::ChainCache::new(),
        }
    }
}

/// One certificate of the peer's chain, summarised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertSummary {
    /// The subject Name, DER.
    pub subject: Vec<u8>,
    /// The issuer Name, DER.
    pub issuer: Vec<u8>,
    /// notAfter, Unix seconds.
    pub not_after: i64,
}

impl CertSummary {
    /// The subject as text (`O=..., CN=...`).
    pub fn subject_text(&self) -> String {
        crate::dn::name_to_text(&self.subject)
    }

    /// The issuer as text.
    pub fn issuer_text(&self) -> String {
        crate::dn::name_to_text(&self.issuer)
    }
}

/// What a TLS handshake negotiated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsInfo {
    /// 0x0304 (TLS 1.3) or 0x0303 (TLS 1.2).
    pub version: u16,
    /// The cipher suite code point.
    pub cipher_suite: u16,
    /// The key exchange group code point.
    pub group: u16,
    /// The ALPN protocol the server selected.
    pub alpn: Option<String>,
    /// Whether a ticket resumed the session.
    pub resumed: bool,
    /// The chain as presented, leaf first.
    pub peer_chain: Vec<CertSummary>,
    /// The stapled OCSP verdict.
    pub ocsp: StapleStatus,
    /// TLS 1.2: whether the session uses extended master secret (RFC 7627); `None` for TLS
    /// 1.3. A `Some(false)` session is never resumed (its tickets are dropped).
    pub extended_master_secret: Option<bool>,
    /// Whether the server first asked for another key share (TLS 1.3 HelloRetryRequest).
    pub hello_retry: bool,
    /// What certificate verification concluded (presented chain, validated path, anchor,
    /// leaf pin, staple verdict); `None` when a ticket resumed the session, which carries
    /// no certificate.
    pub certificate: Option<CertReport>,
    /// The OCSP response the server stapled to its leaf, as received (`None`: no staple).
    pub stapled_ocsp: Option<Vec<u8>>,
}

/// Most servers whose session ticket a client keeps; beyond it the cache starts over.
pub const MAX_CACHED_TICKETS: usize = 256;

/// Session tickets by the key [`SessionCache`](crate::SessionCache) files them under, shared by
/// the connections of one client or of the clients sharing a cache: the next connection to the
/// server resumes (one ticket per connection, never reused).
#[derive(Clone, Default)]
pub(crate) struct TicketCache(Rc<RefCell<HashMap<String, Ticket>>>);

impl TicketCache {
    pub(crate) fn len(&self) -> usize {
        self.0.borrow().len()
    }

    pub(crate) fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    fn take(&self, key: &str) -> Option<Ticket> {
        self.0.borrow_mut().remove(key)
    }

    fn put(&self, key: &str, t: Ticket) {
        let mut map = self.0.borrow_mut();
        if map.len() >= MAX_CACHED_TICKETS && !map.contains_key(key) {
            map.clear();
        }
        map.insert(key.to_string(), t);
    }
}

/// Where a connection keeps the tickets its server sends.
#[derive(Clone)]
pub(crate) struct TicketSlot {
    pub(crate) cache: TicketCache,
    pub(crate) key: String,
}

/// Traffic keys imported into the offload provider, by the core's key id. A handful at most:
/// handshake and application keys of both directions, plus one per KeyUpdate; the oldest go
/// first (a job never names a key older than the current one of its direction).
#[derive(Default)]
struct ImportedKeys(Vec<(u32, Rc<dyn RecordKey>)>);

/// Keys kept at once (handshake read/write, application read/write, one update of each).
const MAX_IMPORTED_KEYS: usize = 6;

impl ImportedKeys {
    fn get(&self, id: u32) -> Result<Rc<dyn RecordKey>, Error> {
        self.0
            .iter()
            .find(|(k, _)| *k == id)
            .map(|(_, key)| Rc::clone(key))
            .ok_or(Error::HttpProtocol(
                "TLS offload: a record names a key that was never imported",
            ))
    }

    fn put(&mut self, id: u32, key: Rc<dyn RecordKey>) {
        if self.0.len() >= MAX_IMPORTED_KEYS {
            self.0.remove(0);
        }
        self.0.push((id, key));
    }
}

/// A TLS client connection over `S`.
///
/// Copies on the receive path: one, the transport's. `S::read` writes into the record
/// reader's free space ([`Connection::recv_buf`]; natively the kernel's copy, in the Worker
/// the one JS→wasm copy, through an HTTPS proxy the outer TLS layer's plaintext); records are
/// opened there, inline or offloaded; [`fill_buf`](Self::fill_buf) lends the plaintext in
/// place. [`NetStream::read`] copies it out once more, for callers that want their own
/// buffer (TLS inside TLS, the proxy handshakes); HTTP uses `fill_buf`/`consume`.
///
/// Copies on the send path: one, into the record buffer, where the record is sealed in place
/// (inline, or by the offload provider). [`NetStream::write_all_parts`] fills records
/// straight from the caller's parts ([`Connection::send_parts`]: the same records as the parts'
/// concatenation), so HTTP/1.1 writes its head and the body (or a chunk's size line, the piece
/// and its CRLF) and HTTP/2 its frame heads and the body buffers without joining them first.
/// The sealed records then go to `S::write_all` in one call — the transport's own copy (the
/// kernel's; in the Worker into its JS buffer, in writes of at most 64 KiB). Through an HTTPS
/// proxy `S` is the proxy's `TlsStream`, which copies the origin's records into its own record
/// buffer to seal them again: one more copy per TLS layer, inherent to TLS inside TLS.
///
/// Reading never writes. What the connection must send because of what it read (a
/// KeyUpdate's answer, a no_renegotiation warning) waits in the connection until the next
/// [`write_all`](NetStream::write_all) or [`close`](NetStream::close) — RFC 8446 §4.6.3 asks
/// for the KeyUpdate "prior to sending its next Application Data record", which is exactly
/// that. So a read abandoned halfway (the HTTP/2 driver races reads against new requests)
/// can never cut a record on the wire.
pub struct TlsStream<S: NetStream> {
    inner: S,
    conn: Connection,
    now_ms: u64,
    closed: bool,
    /// The peer's close_notify arrived (a bare TCP close leaves it false).
    close_notify: bool,
    info: TlsInfo,
    tickets: Option<TicketSlot>,
    offload: Option<Offload>,
    keys: ImportedKeys,
    /// A traffic key announced and not yet imported (see `import_pending`).
    unimported: Option<TrafficKeyInfo>,
    /// A job met by [`TlsStream::buffered_ready`] that needs an awaited answer; the next fill
    /// answers it first.
    deferred: Option<Job>,
    /// The offload provider opens and seals the records (not only signatures).
    records_offloaded: bool,
}

/// An offload request to answer (see `TlsStream::job_for`).
enum Job {
    Import,
    Open(burrow_handshake::OpenJob),
    Seal(burrow_handshake::SealJob),
    SealQueued,
}

/// Where [`TlsStream::step`] stopped.
enum Step {
    /// Application data is lent, or the stream ended.
    Lent,
    /// No whole record is buffered.
    NeedData,
    /// A job to await (offload jobs, a key to import).
    Answer(Job),
}

impl<S: NetStream> core::fmt::Debug for TlsStream<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TlsStream")
            .field("info", &self.info)
            .finish()
    }
}

/// The one server name whose TLS connections draw no randomness: their key shares, randoms
/// and GREASE come from a fixed seed published in this source, so that a recorded exchange with
/// it replays byte for byte (the Worker's `warmup()`, which runs one through the real code
/// before any request, where workerd forbids random numbers). `.invalid` never resolves (RFC
/// 6761 §6.4): only a stand-in socket answers for it, and nothing of value may be sent to it,
/// since anyone can derive its keys.
pub const REPLAY_HOST: &str = "warmup.burrow.invalid";

fn entropy(profile: &Profile, host: &str) -> Result<Entropy, Error> {
    let mut pool = vec![0u8; Entropy::pool_len(profile)];
    if host.eq_ignore_ascii_case(REPLAY_HOST) {
        replay_pool(&mut pool);
    } else {
        burrow_crypto::rand::fill(&mut pool).map_err(|_| Error::Rng)?;
    }
    Entropy::from_pool(profile, &pool).map_err(Error::Tls)
}

/// [`REPLAY_HOST`]'s entropy: SHA-256 over a label and a block counter.
fn replay_pool(pool: &mut [u8]) {
    use burrow_crypto::hash::{digest, HashAlgorithm};
    for (n, block) in (0u32..).zip(pool.chunks_mut(32)) {
        let mut input = b"burrow replay entropy ".to_vec();
        input.extend_from_slice(&n.to_be_bytes());
        let d = digest(HashAlgorithm::Sha256, &input);
        for (b, x) in block.iter_mut().zip(d.as_ref()) {
            *b = *x;
        }
    }
}

fn summarise(chain: &[Vec<u8>]) -> Vec<CertSummary> {
    chain
        .iter()
        .filter_map(|der| burrow_x509::Certificate::from_der(der).ok())
        .map(|c| CertSummary {
            subject: c.subject().to_vec(),
            issuer: c.issuer().to_vec(),
            not_after: c.validity().1,
        })
        .collect()
}

fn io_err(e: io::Error) -> Error {
    Error::from_io(e, Error::Io)
}

/// Judges a `NeedVerify` with every signature answered by `offload`: the handshake signature
/// first (CertificateVerify or ServerKeyExchange: a bad one is `Answer::BadSignature`, which
/// the core turns into its own error and alert), then x509's `AnswerBook` rounds over the
/// chain and the staple. The verdict is `None` when only the core's error says what failed.
async fn judge_offloaded(
    judge: &Judge,
    req: &VerifyRequest,
    now: i64,
    offload: &Offload,
) -> (Answer, Option<Verdict>) {
    if let Some(signed) = &req.signed {
        let r = offload
            .0
            .verify(
                signed.algorithm,
                &signed.spki,
                &signed.message,
                &signed.signature,
            )
            .await;
        match r {
            Ok(()) => {}
            Err(burrow_crypto::CryptoError::BadSignature) => return (Answer::BadSignature, None),
            // A key the provider cannot use (too small, wrong type) is a certificate problem.
            Err(_) => {
                let e = burrow_x509::Error::UnsupportedSignatureAlgorithm;
                return (
                    Answer::Rejected(CertRejection {
                        code: e.code(),
                        alert: crate::trust::alert_for(&e),
                    }),
                    Some(Verdict {
                        answer: Answer::Verified,
                        result: Err(e),
                    }),
                );
            }
        }
    }
    let book = AnswerBook::new();
    for _ in 0..MAX_ANSWER_ROUNDS {
        let v = judge.judge_with(req, now, &book);
        let pending = book.take_pending();
        if pending.is_empty() {
            return (v.answer, Some(v));
        }
        for p in pending {
            let alg = burrow_x509::verify_algorithm(p.algorithm);
            let r = offload
                .0
                .verify(alg, &p.spki, &p.message, &p.signature)
                .await
                .map_err(|e| match e {
                    burrow_crypto::CryptoError::BadSignature => SignatureFailure::Invalid,
                    _ => SignatureFailure::Unsupported,
                });
            book.answer(&p, r);
        }
    }
    let e = burrow_x509::Error::BudgetExceeded;
    let v = Verdict {
        answer: Answer::Rejected(CertRejection {
            code: e.code(),
            alert: crate::trust::alert_for(&e),
        }),
        result: Err(e),
    };
    (v.answer, Some(v))
}

impl<S: NetStream> TlsStream<S> {
    /// Runs the handshake over `inner` for `host` (a DNS name, sent as SNI, or an IP literal,
    /// sent without SNI) and verifies the certificate at `now_ms`.
    pub async fn connect(
        inner: S,
        host: &str,
        settings: &TlsSettings,
        now_ms: u64,
    ) -> Result<Self, Error> {
        Self::connect_resuming(inner, host, settings, now_ms, None).await
    }

    /// [`TlsStream::connect`], offering `ticket` for resumption and keeping the newest ticket
    /// the server sends for [`TlsStream::take_ticket`]: for a caller that keeps tickets
    /// itself (a [`crate::Client`] resumes through its own cache).
    pub async fn connect_with_ticket(
        inner: S,
        host: &str,
        settings: &TlsSettings,
        now_ms: u64,
        ticket: Option<Ticket>,
    ) -> Result<Self, Error> {
        let slot = TicketSlot {
            cache: TicketCache::default(),
            key: String::new(),
        };
        if let Some(t) = ticket {
            slot.cache.put(&slot.key, t);
        }
        Self::connect_resuming(inner, host, settings, now_ms, Some(slot)).await
    }

    /// The newest ticket the server has sent so far on a stream opened with
    /// [`TlsStream::connect_with_ticket`], taken out (`None`: none yet, or another kind of
    /// stream).
    pub fn take_ticket(&mut self) -> Option<Ticket> {
        let slot = self.tickets.as_ref()?;
        slot.cache.take(&slot.key)
    }

    /// [`TlsStream::connect`], offering a cached ticket and caching the ones the server sends.
    pub(crate) async fn connect_resuming(
        inner: S,
        host: &str,
        settings: &TlsSettings,
        now_ms: u64,
        tickets: Option<TicketSlot>,
    ) -> Result<Self, Error> {
        let judge = Judge::new(&settings.trust, &settings.pins, settings.revocation, host)
            .map_err(Error::TrustConfig)?
            .chain_cache(settings.chain_cache.clone());
        let mut profile = settings.profile.clone();
        profile.alpn.clone_from(&settings.alpn);
        if settings.alpn.is_empty() {
            profile
                .extension_order
                .retain(|s| *s != ExtensionSlot::Alpn);
        }
        if settings.request_staple {
            profile.add_status_request();
        } else {
            profile
                .extension_order
                .retain(|s| *s != ExtensionSlot::StatusRequest);
        }
        let sni = host.parse::<std::net::IpAddr>().is_err().then_some(host);
        let mut cfg = Config::new(profile.clone(), sni);
        cfg.key_log = settings.key_log.is_some();
        cfg.require_extended_master_secret = settings.require_extended_master_secret;
        cfg.client_certificate = settings.client_cert.as_ref().map(|c| ClientCertificate {
            chain: c.chain().to_vec(),
        });
        let offload = settings.offload.clone();
        if let Some(o) = &offload {
            cfg.aead_offload = o.0.offloads_records();
            if o.0.offloads_signatures() {
                cfg.signature_check = SignatureCheck::Caller;
            }
        }
        cfg.resumption = tickets.as_ref().and_then(|t| t.cache.take(&t.key));
        let records_offloaded = cfg.aead_offload;
        let conn = Connection::new(cfg, entropy(&profile, host)?, now_ms).map_err(Error::Tls)?;
        let mut tls = TlsStream {
            inner,
            conn,
            now_ms,
            closed: false,
            close_notify: false,
            info: TlsInfo {
                version: 0,
                cipher_suite: 0,
                group: 0,
                alpn: None,
                resumed: false,
                peer_chain: Vec::new(),
                ocsp: StapleStatus::NotChecked,
                extended_master_secret: None,
                hello_retry: false,
                certificate: None,
                stapled_ocsp: None,
            },
            tickets,
            offload,
            keys: ImportedKeys::default(),
            unimported: None,
            deferred: None,
            records_offloaded,
        };
        match tls
            .handshake(
                &judge,
                settings.key_log.as_ref(),
                settings.client_cert.as_ref(),
            )
            .await
        {
            Ok(()) => Ok(tls),
            Err(e) => {
                tls.flush_alert().await;
                Err(e)
            }
        }
    }

    async fn handshake(
        &mut self,
        judge: &Judge,
        key_log: Option<&KeyLogSink>,
        client_cert: Option<&crate::ClientCert>,
    ) -> Result<(), Error> {
        let mut verdict: Option<Result<CertReport, burrow_x509::Error>> = None;
        let mut chain = Vec::new();
        let mut stapled_ocsp = None;
        loop {
            let ev = self.conn.poll_event(self.now_ms);
            // Secrets are logged as derived: a failed handshake still leaves what it got to.
            if let Some(sink) = key_log {
                for entry in self.conn.take_key_log() {
                    (sink.0)(&entry.to_line());
                }
            }
            self.flush_transmit().await.map_err(io_err)?;
            let ev = match (ev, &verdict) {
                // A rejection we asked for: report the x509 error, not its TLS echo.
                (Err(_), Some(Err(e))) => return Err(Error::Certificate(*e)),
                (ev, _) => ev.map_err(Error::Tls)?,
            };
            match ev {
                Event::NeedVerify(req) => {
                    chain.clone_from(&req.chain);
                    stapled_ocsp.clone_from(&req.ocsp_response);
                    let now = i64::try_from(self.now_ms / 1000).unwrap_or(i64::MAX);
                    let (answer, judged) = match &self.offload {
                        Some(o) if o.0.offloads_signatures() => {
                            judge_offloaded(judge, &req, now, o).await
                        }
                        _ => {
                            let v = judge.judge(&req, now);
                            (v.answer, Some(v))
                        }
                    };
                    if let Some(v) = judged {
                        verdict = Some(v.result);
                    }
                    if let Err(e) = self.conn.complete(answer) {
                        self.flush_alert().await;
                        return Err(match verdict {
                            Some(Err(x)) => Error::Certificate(x),
                            _ => Error::Tls(e),
                        });
                    }
                }
                Event::NeedSign(req) => {
                    // Through the offload when it signs this kind of key (WebCrypto in a
                    // Worker), inline with burrow-crypto otherwise.
                    let sig = match client_cert {
                        Some(c) => c
                            .sign(self.offload.as_ref(), req.algorithm, &req.message)
                            .await
                            .ok(),
                        None => None,
                    };
                    if let Err(e) = self.conn.complete_sign(sig) {
                        self.flush_alert().await;
                        return Err(Error::Tls(e));
                    }
                }
                Event::NewSessionTicket(t) => {
                    if let Some(slot) = &self.tickets {
                        slot.cache.put(&slot.key, t);
                    }
                }
                Event::HandshakeDone(s) => {
                    let certificate = match verdict {
                        Some(Ok(report)) => Some(report),
                        Some(Err(e)) => return Err(Error::Certificate(e)),
                        None if s.resumed => None,
                        None => {
                            return Err(Error::HttpProtocol(
                                "the TLS handshake finished without certificate verification",
                            ))
                        }
                    };
                    let version = if (0x1301..=0x13ff).contains(&s.cipher_suite.0) {
                        0x0304
                    } else {
                        0x0303
                    };
                    self.info = TlsInfo {
                        version,
                        cipher_suite: s.cipher_suite.0,
                        group: s.group.0,
                        alpn: s.alpn.map(|a| String::from_utf8_lossy(&a).into_owned()),
                        resumed: s.resumed,
                        peer_chain: summarise(&chain),
                        ocsp: certificate
                            .as_ref()
                            .map_or(StapleStatus::NotChecked, |c| c.staple),
                        extended_master_secret: s.extended_master_secret,
                        hello_retry: s.hello_retry,
                        certificate,
                        stapled_ocsp: stapled_ocsp.take(),
                    };
                    return Ok(());
                }
                Event::NeedData => {
                    if !self.read_transport().await? {
                        return Err(Error::HttpProtocol(
                            "the peer closed the connection during the TLS handshake",
                        ));
                    }
                }
                other => {
                    if let Some(job) = self.job_for(other)? {
                        self.run_job(job).await?;
                    }
                }
            }
        }
    }

    /// Reads the transport straight into the record buffer; `false` at its end.
    async fn read_transport(&mut self) -> Result<bool, Error> {
        let room = self.conn.recv_buf();
        let n = self.inner.read(room).await.map_err(io_err)?;
        if n == 0 {
            return Ok(false);
        }
        self.conn.commit(n).map_err(Error::Tls)?;
        Ok(true)
    }

    /// Writes what the connection has queued, keeping its buffer for the next records.
    async fn flush_transmit(&mut self) -> io::Result<()> {
        let out = self.conn.transmit();
        if !out.is_empty() {
            self.inner.write_all(out).await?;
            self.conn.transmit_done();
        }
        Ok(())
    }

    /// What answering an event takes (`TrafficKey`, `NeedOpen`, `NeedSeal`; `None`: other
    /// events are nothing to do here), decided before anything is awaited: the read future of
    /// every record (built and moved per transport read) then holds a [`Job`], tens of bytes,
    /// and not the event (~190) or an error (~110) beside the answer's future.
    fn job_for(&mut self, ev: Event) -> Result<Option<Job>, Error> {
        Ok(Some(match ev {
            Event::TrafficKey(info) => {
                self.unimported = Some(info);
                Job::Import
            }
            Event::NeedOpen(job) => Job::Open(job),
            Event::NeedSeal(job) => Job::Seal(job),
            // A seal job reported to a read that was abandoned before it finished: do it now.
            Event::AwaitingAnswer if self.conn.pending_seal().is_some() => Job::SealQueued,
            Event::AwaitingAnswer => {
                return Err(Error::HttpProtocol(
                    "TLS: the connection waits for an answer nobody is giving",
                ))
            }
            _ => return Ok(None),
        }))
    }

    async fn run_job(&mut self, job: Job) -> Result<(), Error> {
        match job {
            Job::Import => self.import_pending().await,
            Job::Open(job) => {
                let key = self.keys.get(job.key_id)?;
                let buf = self.conn.open_buffer().ok_or(Error::HttpProtocol(
                    "TLS offload: an open job without its record",
                ))?;
                let ok = key.open(&job.nonce, &job.aad, buf).await.map_err(io_err)?;
                self.conn.complete_open(ok).map_err(Error::Tls)
            }
            Job::Seal(job) => self.seal(job).await,
            Job::SealQueued => self.seal_queued().await,
        }
    }

    /// Imports the key of the last `TrafficKey` event. The event is kept until the import
    /// finishes: a read abandoned during the import resumes it instead of losing the key.
    async fn import_pending(&mut self) -> Result<(), Error> {
        let Some(info) = &self.unimported else {
            return Ok(());
        };
        let Some(o) = &self.offload else {
            return Err(Error::HttpProtocol(
                "TLS offload: a traffic key without a provider",
            ));
        };
        let key =
            o.0.import_key(info.algorithm, &info.key)
                .await
                .map_err(io_err)?;
        self.keys.put(info.key_id, key);
        self.unimported = None;
        Ok(())
    }

    async fn seal(&mut self, job: burrow_handshake::SealJob) -> Result<(), Error> {
        let key = self.keys.get(job.key_id)?;
        let buf = self.conn.seal_buffer().ok_or(Error::HttpProtocol(
            "TLS offload: a seal job without its record",
        ))?;
        key.seal(&job.nonce, &job.aad, buf).await.map_err(io_err)?;
        self.conn.complete_seal().map_err(Error::Tls)
    }

    /// Seals whatever records are queued (offload mode; inline mode has none).
    async fn seal_queued(&mut self) -> Result<(), Error> {
        while let Some(job) = self.conn.pending_seal() {
            self.seal(job).await?;
        }
        Ok(())
    }

    /// After a failure: the alert the core queued goes out (sealed first in offload mode). The
    /// peer may be gone already, which changes nothing.
    async fn flush_alert(&mut self) {
        if self.seal_queued().await.is_err() {
            return;
        }
        let _ = self.flush_transmit().await;
    }

    /// What the handshake negotiated.
    pub fn info(&self) -> &TlsInfo {
        &self.info
    }

    /// Whether the stream ended with the peer's close_notify (`false` while it is open, and
    /// after a bare TCP close, which may be a truncation by an attacker).
    pub fn received_close_notify(&self) -> bool {
        self.close_notify
    }

    /// Processes buffered records, without waiting, until application data is lent, the
    /// stream ended, more bytes are needed, or an event needs an answer that awaits (an
    /// offloaded open or seal, a key import), which is handed back.
    fn step(&mut self) -> Result<Step, Error> {
        loop {
            if !self.conn.plaintext().is_empty() || self.closed {
                return Ok(Step::Lent);
            }
            let ev = self.conn.poll_event(self.now_ms).map_err(Error::Tls)?;
            if let Event::Plaintext(_) = ev {
                // `forget`: this variant owns nothing, and dropping an `Event` is otherwise a
                // call of its generic drop per record.
                core::mem::forget(ev);
                return Ok(Step::Lent);
            }
            match ev {
                // Queued for the next write (see the type's docs).
                Event::Transmit => {}
                Event::PeerClosed => {
                    self.closed = true;
                    self.close_notify = true;
                }
                Event::NewSessionTicket(t) => {
                    if let Some(slot) = &self.tickets {
                        slot.cache.put(&slot.key, t);
                    }
                }
                Event::NeedData => return Ok(Step::NeedData),
                other => {
                    if let Some(job) = self.job_for(other)? {
                        return Ok(Step::Answer(job));
                    }
                }
            }
        }
    }

    /// Processes records until application data is lent or the stream ended; with
    /// `read_transport` false, only what is already buffered (no transport I/O, so it never
    /// waits on the peer; offloaded opens still run).
    async fn fill_inner(&mut self, read_transport: bool) -> Result<(), Error> {
        // Checked here, not by calling: a call builds and polls the import's future for
        // every record, though it has work only after a key change.
        if self.unimported.is_some() {
            self.import_pending().await?;
        }
        if let Some(job) = self.deferred.take() {
            self.run_job(job).await?;
        }
        loop {
            match self.step()? {
                Step::Lent => return Ok(()),
                Step::NeedData if !read_transport => return Ok(()),
                Step::NeedData => {
                    // No close_notify at the end: the HTTP layer's framing decides whether
                    // that was a truncation.
                    if !self.read_transport().await? {
                        self.closed = true;
                    }
                }
                Step::Answer(job) => self.run_job(job).await?,
            }
        }
    }

    /// [`fill_buffered`](Self::fill_buffered) without a future, for the common case where
    /// nothing needs to wait: `true` when its answer is ready at [`lent`](Self::lent) (data,
    /// or empty: nothing whole is buffered, or the end); `false` when it needs to await
    /// (record opens by an offload provider, a key import, or an error whose alert must be
    /// written): call `fill_buffered` then. Called once per record by the HTTP/2 driver and
    /// the HTTP/1.1 body reader, which saves building and polling three nested futures per
    /// record.
    pub fn buffered_ready(&mut self) -> bool {
        // With record opens offloaded, every record is a job to await: no use trying.
        if self.records_offloaded || self.unimported.is_some() || self.deferred.is_some() {
            return false;
        }
        match self.step() {
            Ok(Step::Lent | Step::NeedData) => true,
            Ok(Step::Answer(job)) => {
                self.deferred = Some(job);
                false
            }
            // The connection keeps its error: `fill_buffered` meets it again and sends the
            // alert.
            Err(_) => false,
        }
    }

    /// The application data lent now (see [`buffered_ready`](Self::buffered_ready)).
    pub fn lent(&self) -> &[u8] {
        self.conn.plaintext()
    }

    async fn fill(&mut self, read_transport: bool) -> io::Result<&[u8]> {
        if let Err(e) = self.fill_inner(read_transport).await {
            self.flush_alert().await;
            return Err(e.into_io());
        }
        Ok(self.conn.plaintext())
    }

    /// The next application data, lent where it was decrypted (at most one record); empty at
    /// the end of the stream. Use [`consume`](Self::consume) to mark what was used.
    pub async fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.fill(true).await
    }

    /// Like [`fill_buf`](Self::fill_buf), from what has already arrived only: empty when no
    /// whole record is buffered (or at the end; see
    /// [`is_closed`](Self::is_closed)). For gathering several records into one chunk without
    /// waiting for the peer.
    pub async fn fill_buffered(&mut self) -> io::Result<&[u8]> {
        self.fill(false).await
    }

    /// The first `n` bytes of what [`fill_buf`](Self::fill_buf) lent were used.
    pub fn consume(&mut self, n: usize) {
        self.conn.consume_plaintext(n);
    }

    /// Whether the stream has ended (close_notify, or the transport's end).
    pub fn is_closed(&self) -> bool {
        self.closed && self.conn.plaintext().is_empty()
    }
}

impl<S: NetStream> NetStream for TlsStream<S> {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let data = self.fill_buf().await?;
        let n = data.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), data.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.consume(n);
        Ok(n)
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write_all_parts(&[buf]).await
    }

    /// The parts go into records in order, each byte copied once, into the record buffer
    /// ([`Connection::send_parts`]): the records are those of the parts' concatenation. What a
    /// read queued (a KeyUpdate's answer) is ahead of them in that buffer, so it goes out
    /// first; offloaded seals run before anything is written.
    async fn write_all_parts(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        self.conn
            .send_parts(parts)
            .map_err(|e| Error::Tls(e).into_io())?;
        self.seal_queued().await.map_err(Error::into_io)?;
        self.flush_transmit().await
    }

    async fn close(&mut self) -> io::Result<()> {
        self.conn.close();
        // The peer may be gone already; close_notify is a courtesy here.
        if self.seal_queued().await.is_ok() {
            let _ = self.flush_transmit().await;
        }
        self.inner.close().await
    }

    async fn close_after(&mut self, parts: &[&[u8]]) -> io::Result<()> {
        // The parts' records, then close_notify, sealed into the one buffer and written once.
        let queued = self
            .conn
            .send_parts(parts)
            .map_err(|e| Error::Tls(e).into_io());
        self.conn.close();
        let written = match self.seal_queued().await {
            Ok(()) => self.flush_transmit().await,
            Err(e) => Err(e.into_io()),
        };
        let closed = self.inner.close().await;
        queued.and(written).and(closed)
    }

    fn farewell(&mut self) {
        self.inner.farewell();
    }
}
