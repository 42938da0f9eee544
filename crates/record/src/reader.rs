//! Records in: framing across any read boundary, in-place opening (inline or offloaded).

use crate::{
    Aad, ContentType, Header, RecordError, Tls12Nonce, TrafficKeys, HEADER_LEN, MAX_CIPHERTEXT,
    MAX_EMPTY_RECORDS, MAX_PLAINTEXT, TAG_LEN,
};

/// Limits of a [`RecordReader`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderLimits {
    /// Most bytes held (unprocessed) at once; `feed` beyond it is [`RecordError::BufferFull`].
    pub max_buffer: usize,
    /// Largest TLSInnerPlaintext (content + type + padding) accepted: 2^14 + 1, or the
    /// record_size_limit we advertised (RFC 8449).
    pub max_inner_plaintext: usize,
}

impl Default for ReaderLimits {
    fn default() -> Self {
        Self {
            max_buffer: 4 * (HEADER_LEN + MAX_CIPHERTEXT) + 65_536,
            max_inner_plaintext: MAX_PLAINTEXT + 1,
        }
    }
}

/// A record's content, after opening if it was protected. Borrows the reader's buffer.
#[derive(Debug, PartialEq, Eq)]
pub struct PlainRecord<'a> {
    /// The (inner) content type: handshake, alert or application_data.
    pub content_type: ContentType,
    /// Whether the record arrived protected.
    pub protected: bool,
    /// The content, decrypted in place.
    pub data: &'a [u8],
}

/// An AEAD open the caller must perform on [`RecordReader::job_data_mut`], then answer with
/// [`RecordReader::complete_open`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenJob {
    /// Which traffic key (as given to [`TrafficKeys::new`]).
    pub key_id: u32,
    /// The per-record nonce.
    pub nonce: [u8; 12],
    /// The additional data (TLS 1.3: the record header; TLS 1.2: 13 bytes).
    pub aad: Aad,
    /// Ciphertext length; the 16-byte tag follows it in the job data.
    pub ciphertext_len: usize,
}

/// What [`RecordReader::next_record`] produced.
#[derive(Debug, PartialEq, Eq)]
#[must_use]
pub enum Next<'a> {
    /// No complete record buffered: feed more bytes.
    NeedData,
    /// A record.
    Record(PlainRecord<'a>),
    /// A protected record awaits the caller's AEAD open (offload mode).
    NeedOpen(OpenJob),
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    job: OpenJob,
    start: usize,
    answered: bool,
    /// Whole record length (header included), released once answered.
    total: usize,
    /// TLS 1.2: the record's (outer) content type; no inner type to strip.
    tls12_ct: Option<ContentType>,
}

/// Free room [`RecordReader::recv_buf`] guarantees: one whole record, header included.
pub const RECV_ROOM: usize = HEADER_LEN + MAX_CIPHERTEXT;

/// The buffer's first allocation: room for several records, so a large transport read (the
/// Worker's 64 KiB BYOB fill) lands in one piece and compaction is rare.
const FIRST_ALLOCATION: usize = 4 * RECV_ROOM;

/// Reads TLS records from bytes fed in any chunking.
///
/// The buffer is the transport's landing zone: [`recv_buf`](Self::recv_buf) lends its free
/// tail, the transport reads straight into it and [`commit`](Self::commit)s what it wrote.
/// Records are opened where they landed. Unprocessed bytes move to the front only when less
/// than [`RECV_ROOM`] is free (at most one partial record moves). Application data can be lent
/// in place too ([`lend_last`](Self::lend_last)): the record stays where it is until its
/// content is [`consume_lent`](Self::consume_lent)-ed.
#[derive(Debug, Default)]
pub struct RecordReader {
    /// Allocated and zeroed up to its length; `buf[..end]` holds bytes read.
    buf: Vec<u8>,
    end: usize,
    pos: usize,
    /// The last record returned by `next_record` (`start`, `len`), for `lend_last`.
    last: Option<(usize, usize)>,
    /// Application data lent out: `buf[start..end]` still unread by the caller. Its record is
    /// not released (so not moved out of reach) until it is all consumed.
    lent: Option<(usize, usize)>,
    release: usize,
    keys: Option<TrafficKeys>,
    offload: bool,
    pending: Option<Pending>,
    ccs_allowed: bool,
    deliver_ccs: bool,
    empty_run: u32,
    limits: ReaderLimits,
    dead: Option<RecordError>,
}

impl RecordReader {
    /// A reader with default limits, no keys, inline AEAD.
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces the limits.
    pub fn set_limits(&mut self, limits: ReaderLimits) {
        self.limits = limits;
    }

    /// Installs (or removes) the peer's traffic keys; later records must be protected.
    pub fn set_keys(&mut self, keys: Option<TrafficKeys>) {
        self.keys = keys;
    }

    /// The current keys, if any.
    pub fn keys(&self) -> Option<&TrafficKeys> {
        self.keys.as_ref()
    }

    /// In offload mode protected records come out as [`Next::NeedOpen`] jobs.
    pub fn set_offload(&mut self, offload: bool) {
        self.offload = offload;
    }

    /// Whether a plaintext change_cipher_spec `01` is silently dropped (RFC 8446 §5: only
    /// between the first ClientHello and the peer's Finished).
    pub fn set_ccs_allowed(&mut self, allowed: bool) {
        self.ccs_allowed = allowed;
    }

    /// TLS 1.2: a plaintext change_cipher_spec `01` is handed out as a record (content type
    /// change_cipher_spec) so the handshake can switch keys at exactly that point.
    pub fn set_deliver_ccs(&mut self, deliver: bool) {
        self.deliver_ccs = deliver;
    }

    /// Bytes buffered and not yet consumed.
    pub fn buffered(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    /// Appends bytes read from the transport (a copy; [`recv_buf`](Self::recv_buf) avoids it).
    pub fn feed(&mut self, data: &[u8]) -> Result<(), RecordError> {
        self.consume_released();
        let held = self
            .buffered()
            .checked_add(data.len())
            .ok_or(RecordError::BufferFull)?;
        if held > self.limits.max_buffer {
            return Err(RecordError::BufferFull);
        }
        self.make_room(data.len());
        let end = self.end.saturating_add(data.len());
        let dst = self
            .buf
            .get_mut(self.end..end)
            .ok_or(RecordError::BufferFull)?;
        dst.copy_from_slice(data);
        self.end = end;
        Ok(())
    }

    /// The free tail of the buffer, at least [`RECV_ROOM`] bytes: read the transport into it,
    /// then [`commit`](Self::commit) the count. Nothing is taken until committed, so a read
    /// that is abandoned halfway loses nothing.
    pub fn recv_buf(&mut self) -> &mut [u8] {
        self.consume_released();
        self.make_room(RECV_ROOM);
        self.buf.get_mut(self.end..).unwrap_or_default()
    }

    /// `n` bytes were written at the start of [`recv_buf`](Self::recv_buf).
    pub fn commit(&mut self, n: usize) -> Result<(), RecordError> {
        let end = self.end.checked_add(n).ok_or(RecordError::BufferFull)?;
        if end > self.buf.len() {
            return Err(self.fail(RecordError::JobMismatch));
        }
        if end.saturating_sub(self.pos) > self.limits.max_buffer {
            return Err(self.fail(RecordError::BufferFull));
        }
        self.end = end;
        Ok(())
    }

    /// Ensures `want` free bytes after `end`: first by moving the unprocessed bytes (and the
    /// lent range with them) to the front — not while an open job holds its offset — then by
    /// growing the buffer.
    fn make_room(&mut self, want: usize) {
        if self.buf.len().saturating_sub(self.end) >= want {
            return;
        }
        if self.pending.is_none() && self.pos > 0 {
            let shift = self.pos;
            self.buf.copy_within(shift..self.end, 0);
            self.end = self.end.saturating_sub(shift);
            self.pos = 0;
            self.last = None;
            if let Some((s, e)) = self.lent {
                self.lent = Some((s.saturating_sub(shift), e.saturating_sub(shift)));
            }
        }
        let free = self.buf.len().saturating_sub(self.end);
        if free < want {
            let len = self
                .end
                .saturating_add(want)
                .max(FIRST_ALLOCATION.min(self.limits.max_buffer.saturating_add(RECV_ROOM)));
            self.buf.resize(len, 0);
        }
    }

    /// Lends the content of the record just returned by [`next_record`](Self::next_record):
    /// it stays readable through [`lent`](Self::lent) until all of it is
    /// [`consume_lent`](Self::consume_lent)-ed; until then `next_record` returns nothing new.
    pub fn lend_last(&mut self) {
        if let Some((start, len)) = self.last.take() {
            self.lent = Some((start, start.saturating_add(len)));
        }
    }

    /// The lent content not yet consumed (empty when nothing is lent).
    pub fn lent(&self) -> &[u8] {
        match self.lent {
            Some((s, e)) => self.buf.get(s..e).unwrap_or_default(),
            None => &[],
        }
    }

    /// The caller has used the first `n` bytes of [`lent`](Self::lent).
    pub fn consume_lent(&mut self, n: usize) {
        if let Some((s, e)) = self.lent {
            self.lent = Some((s.saturating_add(n).min(e), e));
        }
    }

    /// Whether lent content remains unconsumed.
    pub fn is_lending(&self) -> bool {
        matches!(self.lent, Some((s, e)) if s < e)
    }

    fn consume_released(&mut self) {
        if self.is_lending() {
            return;
        }
        self.lent = None;
        self.pos = self.pos.saturating_add(self.release).min(self.end);
        self.release = 0;
    }

    fn fail(&mut self, e: RecordError) -> RecordError {
        self.dead = Some(e);
        e
    }

    /// The next record, or what is needed to produce it. Errors are sticky.
    pub fn next_record(&mut self) -> Result<Next<'_>, RecordError> {
        if let Some(e) = self.dead {
            return Err(e);
        }
        self.last = None;
        if self.is_lending() {
            return Ok(Next::NeedData);
        }
        match self.step() {
            Ok(Step::NeedData) => Ok(Next::NeedData),
            Ok(Step::Open(job)) => Ok(Next::NeedOpen(job)),
            Ok(Step::Record {
                ct,
                protected,
                start,
                len,
            }) => {
                let end = start.checked_add(len).ok_or(RecordError::JobMismatch)?;
                self.last = Some((start, len));
                let data = self.buf.get(start..end).ok_or(RecordError::JobMismatch)?;
                Ok(Next::Record(PlainRecord {
                    content_type: ct,
                    protected,
                    data,
                }))
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    fn step(&mut self) -> Result<Step, RecordError> {
        if let Some(p) = self.pending {
            if !p.answered {
                return Ok(Step::Open(p.job));
            }
            self.pending = None;
            if let Some(ct) = p.tls12_ct {
                return self.finish_tls12(ct, p.start, p.job.ciphertext_len);
            }
            return self.finish_inner(p.start, p.job.ciphertext_len);
        }
        loop {
            self.consume_released();
            let rest = self.buf.get(self.pos..self.end).unwrap_or(&[]);
            let Some(h) = Header::parse(rest)? else {
                return Ok(Step::NeedData);
            };
            let len = usize::from(h.len);
            let protected_phase = self.keys.is_some();
            let max = if protected_phase {
                MAX_CIPHERTEXT
            } else {
                MAX_PLAINTEXT
            };
            if len > max {
                return Err(RecordError::RecordOverflow);
            }
            let total = HEADER_LEN
                .checked_add(len)
                .ok_or(RecordError::RecordOverflow)?;
            if rest.len() < total {
                return Ok(Step::NeedData);
            }
            let start = self
                .pos
                .checked_add(HEADER_LEN)
                .ok_or(RecordError::RecordOverflow)?;
            if h.content_type == ContentType::CHANGE_CIPHER_SPEC && self.deliver_ccs {
                if rest.get(HEADER_LEN..total) != Some(&[1u8][..]) {
                    return Err(RecordError::UnexpectedChangeCipherSpec);
                }
                self.release = total;
                return Ok(Step::Record {
                    ct: h.content_type,
                    protected: false,
                    start,
                    len,
                });
            }
            if h.content_type == ContentType::CHANGE_CIPHER_SPEC {
                if !self.ccs_allowed || rest.get(HEADER_LEN..total) != Some(&[1u8][..]) {
                    return Err(RecordError::UnexpectedChangeCipherSpec);
                }
                // Dropped unseen, like an empty record: counted with them (as BoringSSL does).
                self.count_empty()?;
                self.release = total;
                continue;
            }
            if !protected_phase {
                if h.content_type != ContentType::HANDSHAKE && h.content_type != ContentType::ALERT
                {
                    return Err(RecordError::UnexpectedContentType);
                }
                if len == 0 {
                    return Err(RecordError::EmptyFragment);
                }
                self.release = total;
                return Ok(Step::Record {
                    ct: h.content_type,
                    protected: false,
                    start,
                    len,
                });
            }
            if let Some(mode) = self.keys.as_ref().and_then(TrafficKeys::tls12_mode) {
                self.release = total;
                return self.open_tls12(mode, h, start, len);
            }
            if h.content_type != ContentType::APPLICATION_DATA {
                return Err(RecordError::UnexpectedContentType);
            }
            let ct_len = len.checked_sub(TAG_LEN).ok_or(RecordError::BadRecordMac)?;
            let keys = self.keys.as_mut().ok_or(RecordError::JobMismatch)?;
            let nonce = keys.next_nonce()?;
            let aad = h.encode();
            self.release = total;
            if self.offload {
                let job = OpenJob {
                    key_id: keys.key_id(),
                    nonce,
                    aad: Aad::header(aad),
                    ciphertext_len: ct_len,
                };
                self.pending = Some(Pending {
                    job,
                    start,
                    answered: false,
                    total,
                    tls12_ct: None,
                });
                // Keep the record buffered until the job is answered.
                self.release = 0;
                return Ok(Step::Open(job));
            }
            let (body, tag) = self
                .buf
                .get_mut(start..start.saturating_add(len))
                .and_then(|r| r.split_at_mut_checked(ct_len))
                .ok_or(RecordError::JobMismatch)?;
            let tag: [u8; TAG_LEN] = (&*tag).try_into().map_err(|_| RecordError::BadRecordMac)?;
            keys.aead()
                .open_in_place(&nonce, &aad, body, &tag)
                .map_err(|_| RecordError::BadRecordMac)?;
            return self.finish_inner(start, ct_len);
        }
    }

    /// The buffer of the pending open job: `ciphertext || tag`. Decrypt the ciphertext part in
    /// place, then call [`complete_open`](Self::complete_open).
    pub fn job_data_mut(&mut self) -> Option<&mut [u8]> {
        let p = self.pending?;
        let end = p
            .start
            .checked_add(p.job.ciphertext_len)?
            .checked_add(TAG_LEN)?;
        self.buf.get_mut(p.start..end)
    }

    /// Answers the pending open job: `authentic` is false when the tag did not verify.
    pub fn complete_open(&mut self, authentic: bool) -> Result<(), RecordError> {
        let Some(p) = self.pending.as_mut() else {
            return Err(self.fail(RecordError::JobMismatch));
        };
        if p.answered {
            return Err(self.fail(RecordError::JobMismatch));
        }
        if !authentic {
            return Err(self.fail(RecordError::BadRecordMac));
        }
        p.answered = true;
        self.release = p.total;
        Ok(())
    }

    /// TLS 1.2 AEAD record: real content type outside, optional explicit nonce, 13-byte AAD.
    fn open_tls12(
        &mut self,
        mode: Tls12Nonce,
        h: Header,
        start: usize,
        len: usize,
    ) -> Result<Step, RecordError> {
        let ct = h.content_type;
        if ct != ContentType::HANDSHAKE
            && ct != ContentType::ALERT
            && ct != ContentType::APPLICATION_DATA
        {
            return Err(RecordError::UnexpectedContentType);
        }
        let explicit_len = match mode {
            Tls12Nonce::ExplicitGcm => 8,
            Tls12Nonce::ChaCha => 0,
        };
        let plen = len
            .checked_sub(explicit_len)
            .and_then(|n| n.checked_sub(TAG_LEN))
            .ok_or(RecordError::BadRecordMac)?;
        if plen > MAX_PLAINTEXT || plen > self.limits.max_inner_plaintext {
            return Err(RecordError::RecordOverflow);
        }
        let end = start.checked_add(len).ok_or(RecordError::JobMismatch)?;
        let rec = self
            .buf
            .get_mut(start..end)
            .ok_or(RecordError::JobMismatch)?;
        let (explicit, rest) = rec
            .split_at_mut_checked(explicit_len)
            .ok_or(RecordError::BadRecordMac)?;
        let explicit: Option<[u8; 8]> = (&*explicit).try_into().ok();
        let (body, tag) = rest
            .split_at_mut_checked(plen)
            .ok_or(RecordError::BadRecordMac)?;
        let tag: [u8; TAG_LEN] = (&*tag).try_into().map_err(|_| RecordError::BadRecordMac)?;
        let keys = self.keys.as_mut().ok_or(RecordError::JobMismatch)?;
        let (seq, nonce) = keys.next_tls12(explicit)?;
        let plen16 = u16::try_from(plen).map_err(|_| RecordError::RecordOverflow)?;
        let aad = crate::writer::tls12_aad(seq, ct, plen16);
        let body_start = start
            .checked_add(explicit_len)
            .ok_or(RecordError::JobMismatch)?;
        if self.offload {
            let job = OpenJob {
                key_id: keys.key_id(),
                nonce,
                aad: Aad::tls12(aad),
                ciphertext_len: plen,
            };
            self.pending = Some(Pending {
                job,
                start: body_start,
                answered: false,
                total: len
                    .checked_add(HEADER_LEN)
                    .ok_or(RecordError::JobMismatch)?,
                tls12_ct: Some(ct),
            });
            self.release = 0;
            return Ok(Step::Open(job));
        }
        keys.aead()
            .open_in_place(&nonce, &aad, body, &tag)
            .map_err(|_| RecordError::BadRecordMac)?;
        self.finish_tls12(ct, body_start, plen)
    }

    /// A TLS 1.2 record's plaintext is ready at `start..start + plen`.
    fn finish_tls12(
        &mut self,
        ct: ContentType,
        start: usize,
        plen: usize,
    ) -> Result<Step, RecordError> {
        if plen == 0 {
            if ct != ContentType::APPLICATION_DATA {
                return Err(RecordError::EmptyFragment);
            }
            self.count_empty()?;
        } else {
            self.content_seen(ct);
        }
        Ok(Step::Record {
            ct,
            protected: true,
            start,
            len: plen,
        })
    }

    /// One more record with nothing for the layers above (empty application data, or a
    /// change_cipher_spec dropped unseen): at most [`MAX_EMPTY_RECORDS`] in a row.
    fn count_empty(&mut self) -> Result<(), RecordError> {
        self.empty_run = self.empty_run.saturating_add(1);
        if self.empty_run > MAX_EMPTY_RECORDS {
            return Err(RecordError::TooManyEmptyRecords);
        }
        Ok(())
    }

    /// A record with content ends a run of empty ones, unless it is an alert: alerts are
    /// bounded above (a warning run) and must not reset this run, or the two could alternate
    /// forever.
    fn content_seen(&mut self, ct: ContentType) {
        if ct != ContentType::ALERT {
            self.empty_run = 0;
        }
    }

    fn finish_inner(&mut self, start: usize, ct_len: usize) -> Result<Step, RecordError> {
        let inner = self
            .buf
            .get(start..start.saturating_add(ct_len))
            .ok_or(RecordError::JobMismatch)?;
        if inner.len() > self.limits.max_inner_plaintext {
            return Err(RecordError::RecordOverflow);
        }
        let Some(type_at) = inner.iter().rposition(|&b| b != 0) else {
            return Err(RecordError::NoInnerContentType);
        };
        let ct = ContentType(inner.get(type_at).copied().unwrap_or(0));
        if type_at > MAX_PLAINTEXT {
            return Err(RecordError::RecordOverflow);
        }
        match ct {
            ContentType::HANDSHAKE | ContentType::ALERT if type_at == 0 => {
                Err(RecordError::EmptyFragment)
            }
            ContentType::HANDSHAKE | ContentType::ALERT | ContentType::APPLICATION_DATA => {
                if type_at == 0 {
                    self.count_empty()?;
                } else {
                    self.content_seen(ct);
                }
                Ok(Step::Record {
                    ct,
                    protected: true,
                    start,
                    len: type_at,
                })
            }
            _ => Err(RecordError::UnexpectedContentType),
        }
    }
}

enum Step {
    NeedData,
    Open(OpenJob),
    Record {
        ct: ContentType,
        protected: bool,
        start: usize,
        len: usize,
    },
}
