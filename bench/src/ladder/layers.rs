//! Rungs a–d: one layer of the receive path at a time, through its crate's public API.

use std::hint::black_box;
use std::io::Write as _;

use burrow_crypto::aead::{AeadAlgorithm, AeadKey, TAG_LEN};
use burrow_h1::{Event as H1Event, Limits, RequestInfo};
use burrow_h2::{Connection, Header};
use burrow_record::{
    ContentType, Next, RecordReader, RecordWriter, TrafficKeys, HEADER_LEN, MAX_CIPHERTEXT,
};
use burrow_testkit::tls13_server::Suite;

use super::wire::{self, RECORD_PAYLOAD};
use super::{Line, Options, BODY_LEN};
use crate::{corpus, sample, sample_interleaved, Clock, Op, Sample};

/// Transport read size of `burrow_client::TlsStream` today (17 KiB): the reader is fed in
/// pieces of this size, which do not align with the 16,406-byte records.
const TLS_READ: usize = 17 * 1024;

/// Body read size of the client's HTTP/1.1 body reader and HTTP/2 driver (16 KiB).
const HTTP_READ: usize = 16 * 1024;

/// The record payloads of rung a: the 4 MiB binary body in 16 KiB pieces.
pub(crate) fn record_payloads() -> Vec<Vec<u8>> {
    let body = corpus::binary(BODY_LEN);
    body.chunks(RECORD_PAYLOAD).map(<[u8]>::to_vec).collect()
}

fn key_and_iv(alg: AeadAlgorithm) -> (Vec<u8>, [u8; 12]) {
    (vec![0x11; alg.key_len()], [0x22; 12])
}

/// TLS 1.3 application_data records sealed once, and their parts for opening them without the
/// record layer.
pub(crate) struct RecordSet {
    suite: Suite,
    /// The records back to back, as the wire carries them.
    wire: Vec<u8>,
    /// Per record: nonce, header (the AAD), where `ciphertext || tag` sits in `wire`.
    parts: Vec<([u8; 12], [u8; HEADER_LEN], std::ops::Range<usize>)>,
    /// Content bytes over all records.
    content: usize,
}

impl RecordSet {
    /// Seals `payloads` (one record each) with a fixed key of `suite`'s AEAD.
    pub(crate) fn new<P: AsRef<[u8]>>(suite: Suite, payloads: &[P]) -> RecordSet {
        let alg = suite.aead();
        let (key, iv) = key_and_iv(alg);
        let mut writer = RecordWriter::new();
        writer.set_keys(Some(TrafficKeys::new(alg, &key, &iv, 0).expect("key")));
        let mut wire = Vec::new();
        let mut parts = Vec::new();
        let mut content = 0;
        for (seq, p) in payloads.iter().enumerate() {
            let p = p.as_ref();
            let start = wire.len();
            let _ = writer
                .write(ContentType::APPLICATION_DATA, p, &mut wire)
                .expect("seal");
            let mut nonce = iv;
            for (n, s) in nonce[4..].iter_mut().zip((seq as u64).to_be_bytes()) {
                *n ^= s;
            }
            let mut header = [0u8; HEADER_LEN];
            header.copy_from_slice(&wire[start..start + HEADER_LEN]);
            parts.push((nonce, header, start + HEADER_LEN..wire.len()));
            content += p.len();
        }
        RecordSet {
            suite,
            wire,
            parts,
            content,
        }
    }

    /// a. `RecordReader::recv_buf` + `commit` (17 KiB pieces, the transport's copy) + `next_record` until `NeedData`, a fresh reader
    /// per 4 MiB; interleaved with a'., the AEAD alone over the same records (copy of
    /// `ciphertext || tag` into a reused buffer, `AeadKey::open_in_place`; the key expanded
    /// once, outside the figure).
    pub(crate) fn record_and_aead(&self, clock: &dyn Clock, opts: Options) -> (Line, Line) {
        let alg = self.suite.aead();
        let (key, iv) = key_and_iv(alg);
        let record = Op::plain(|| {
            let mut r = RecordReader::new();
            r.set_keys(Some(TrafficKeys::new(alg, &key, &iv, 0).expect("key")));
            let mut got = 0;
            // As the TLS client reads: the transport writes into the reader's free space.
            for piece in self.wire.chunks(TLS_READ) {
                let room = r.recv_buf();
                let n = piece.len().min(room.len());
                room.get_mut(..n)
                    .expect("room")
                    .copy_from_slice(piece.get(..n).expect("piece"));
                r.commit(n).expect("commit");
                if n < piece.len() {
                    // Less room than a read: take the records, then the rest of the read.
                    while let Next::Record(p) = r.next_record().expect("record") {
                        got += black_box(p.data).len();
                    }
                    let rest = piece.get(n..).expect("rest");
                    r.recv_buf()
                        .get_mut(..rest.len())
                        .expect("a record of room")
                        .copy_from_slice(rest);
                    r.commit(rest.len()).expect("commit");
                }
                loop {
                    match r.next_record().expect("record") {
                        Next::Record(p) => got += black_box(p.data).len(),
                        Next::NeedData => break,
                        Next::NeedOpen(_) => panic!("inline AEAD expected"),
                    }
                }
            }
            assert_eq!(got, self.content);
        });
        let mut samples = sample_interleaved(
            clock,
            opts.round_secs,
            opts.rounds,
            &mut [record, self.aead_op()],
        );
        let aead = samples.pop().unwrap_or_default();
        let record = samples.pop().unwrap_or_default();
        (
            Line {
                name: format!("a. record open, {}", self.suite.aead_name()),
                api: "a. burrow_record::RecordReader::{set_keys, recv_buf, commit, next_record} (inline AEAD)"
                    .to_string(),
                body: self.content,
                sample: record,
            },
            self.aead_result(
                aead,
                format!("a. AEAD open alone, {}", self.suite.aead_name()),
                self.content,
            ),
        )
    }

    /// The AEAD alone over these records: copy `ciphertext || tag` of each into a reused
    /// buffer and `AeadKey::open_in_place` it (the key is expanded once, outside the figure).
    pub(crate) fn aead_op(&self) -> Op<'_> {
        let alg = self.suite.aead();
        let key = AeadKey::new(alg, &key_and_iv(alg).0).expect("key");
        let mut buf = vec![0u8; RECORD_PAYLOAD + 256];
        Op::plain(move || {
            for (nonce, aad, range) in &self.parts {
                let n = range.len();
                let rec = &mut buf[..n];
                rec.copy_from_slice(&self.wire[range.clone()]);
                let (ct, tag) = rec.split_at_mut(n - TAG_LEN);
                let tag: [u8; TAG_LEN] = (&*tag).try_into().expect("tag");
                key.open_in_place(nonce, aad, ct, &tag).expect("open");
                black_box(ct);
            }
        })
    }

    /// The least work the receive path's design allows over these records, with no record
    /// layer, framing or control flow: the transport's copy of the wire into a record buffer the
    /// size of the client's (`4 * RECV_ROOM`, reads as large as its free tail, compacted when
    /// less than a record of room is left), `AeadKey::open_in_place` of each record where it
    /// landed, and the one copy out of its content into a reused chunk of
    /// [`burrow_client::CHUNK_TARGET`] bytes.
    pub(crate) fn floor_op(&self) -> Op<'_> {
        let alg = self.suite.aead();
        let key = AeadKey::new(alg, &key_and_iv(alg).0).expect("key");
        let room = HEADER_LEN + MAX_CIPHERTEXT;
        let mut buf = vec![0u8; 4 * room];
        let chunk_len = burrow_client::CHUNK_TARGET;
        let mut chunk: Vec<u8> = Vec::with_capacity(chunk_len);
        Op::plain(move || {
            let wire = &self.wire;
            // Wire offset of buf[0], bytes in buf, wire bytes read so far.
            let (mut base, mut end, mut fed) = (0usize, 0usize, 0usize);
            let mut got = 0;
            for (nonce, aad, range) in &self.parts {
                while end < range.end - base {
                    if buf.len() - end < room {
                        let keep = range.start - HEADER_LEN - base;
                        buf.copy_within(keep..end, 0);
                        base += keep;
                        end -= keep;
                    }
                    let n = (buf.len() - end).min(wire.len() - fed);
                    buf[end..end + n].copy_from_slice(&wire[fed..fed + n]);
                    end += n;
                    fed += n;
                }
                let rec = &mut buf[range.start - base..range.end - base];
                let (ct, tag) = rec.split_at_mut(range.len() - TAG_LEN);
                let tag: [u8; TAG_LEN] = (&*tag).try_into().expect("tag");
                key.open_in_place(nonce, aad, ct, &tag).expect("open");
                // TLS 1.3: the content ends with its one-byte inner content type.
                let mut content = &ct[..ct.len() - 1];
                got += content.len();
                while !content.is_empty() {
                    let n = (chunk_len - chunk.len()).min(content.len());
                    chunk.extend_from_slice(&content[..n]);
                    content = &content[n..];
                    if chunk.len() == chunk_len {
                        black_box(&chunk);
                        chunk.clear();
                    }
                }
            }
            assert_eq!(got, self.content);
        })
    }

    /// The line for a sample of [`RecordSet::aead_op`], reported per `body` bytes (a whole
    /// path's records carry its body with some framing).
    pub(crate) fn aead_result(&self, sample: Sample, name: String, body: usize) -> Line {
        Line {
            name,
            api: "a. burrow_crypto::aead::AeadKey::open_in_place (+ copy of each record)"
                .to_string(),
            body,
            sample,
        }
    }
}

fn request_headers() -> Vec<Header> {
    vec![
        Header::new(":method", "GET"),
        Header::new(":scheme", "https"),
        Header::new(":authority", "localhost"),
        Header::new(":path", "/4m.bin"),
    ]
}

/// b. A server's byte stream (SETTINGS, SETTINGS ACK, HEADERS, 256 DATA frames of 16 KiB) fed
/// to `Connection::handle_input_with` in 16 KiB pieces that straddle the frames, events drained and
/// every DATA released with `consume`; a fresh connection (the client's h2 settings) per 4 MiB.
pub(crate) fn h2_data(clock: &dyn Clock, opts: Options) -> Line {
    let body = corpus::binary(BODY_LEN);
    let mut stream = Vec::new();
    wire::frame(&mut stream, wire::h2::SETTINGS, 0, 0, &[]);
    wire::frame(&mut stream, wire::h2::SETTINGS, wire::h2::ACK, 0, &[]);
    stream.extend(wire::h2_response(&body, 1).0);
    let config = burrow_client::HttpProfile::burrow().h2;
    let headers = request_headers();
    let s = sample(
        clock,
        opts.round_secs,
        opts.rounds,
        Op::plain(|| {
            let mut c = Connection::new(config.clone());
            let id = c.send_request(&headers, true).expect("request");
            let _ = c.take_transmit();
            let mut got = 0;
            // As the client's driver reads: DATA lent to a sink, credit given back after.
            for piece in stream.chunks(HTTP_READ) {
                let mut lent = 0;
                let mut sink = |sid: burrow_h2::StreamId, data: &[u8], _end: bool| {
                    assert_eq!(sid, id);
                    lent += black_box(data).len();
                };
                c.handle_input_with(piece, &mut sink).expect("h2 input");
                got += lent;
                if lent > 0 {
                    c.consume(id, lent).expect("consume");
                }
                while let Some(ev) = c.poll_event() {
                    black_box(ev);
                }
                black_box(c.take_transmit());
            }
            assert_eq!(got, BODY_LEN);
        }),
    );
    Line {
        name: "b. h2 DATA parse".to_string(),
        api: "b. burrow_h2::Connection::{new, send_request, handle_input_with (DataSink), poll_event, consume, take_transmit}".to_string(),
        body: BODY_LEN,
        sample: s,
    }
}

/// c. A chunked response (16 KiB chunks) fed in 16 KiB pieces to `burrow_h1::Decoder` over a
/// buffer the caller keeps, exactly as `H1Body::chunk` does today: `decode(&buf)`, each
/// `Data(range)` copied out (`to_vec`), `drain(..consumed)`, `extend_from_slice` on
/// `NeedData`.
pub(crate) fn h1_chunked(clock: &dyn Clock, opts: Options) -> Line {
    let body = corpus::binary(BODY_LEN);
    let response = wire::h1_response(&body, true);
    let s = sample(
        clock,
        opts.round_secs,
        opts.rounds,
        Op::plain(|| {
            let mut d = burrow_h1::Decoder::new(Limits::default());
            d.expect_response(RequestInfo::for_method("GET"));
            // As the client's H1Body: framed over each lent piece in place; only a tail the
            // decoder cannot use yet (a chunk-size line split across pieces) is set aside.
            let mut pieces = response.chunks(HTTP_READ);
            let mut carry: Vec<u8> = Vec::new();
            let mut cur: &[u8] = &[];
            let mut got = 0;
            loop {
                let from_carry = !carry.is_empty();
                let input: &[u8] = if from_carry { &carry } else { cur };
                let decoded = d.decode(input).expect("h1");
                let consumed = decoded.consumed.min(input.len());
                let mut need = false;
                match decoded.event {
                    H1Event::Data(range) => got += black_box(&input[range]).len(),
                    H1Event::End { .. } => break,
                    H1Event::NeedData => need = true,
                    _ => {}
                }
                if from_carry {
                    carry.drain(..consumed);
                } else {
                    cur = &cur[consumed..];
                }
                if need {
                    if from_carry || !cur.is_empty() {
                        carry.extend_from_slice(cur);
                        carry.extend_from_slice(pieces.next().expect("more input"));
                        cur = &[];
                    } else {
                        cur = pieces.next().expect("more input");
                    }
                }
            }
            assert_eq!(got, BODY_LEN);
        }),
    );
    Line {
        name: "c. h1 chunked parse".to_string(),
        api: "c. burrow_h1::Decoder::{new, expect_response, decode} over each piece in place (Event::Data(range))".to_string(),
        body: BODY_LEN,
        sample: s,
    }
}

/// d. gzip (flate2 level 6) of 4 MiB of JSON-like text, decoded by `burrow_decode::Decoder`
/// (default backend) fed in 16 KiB pieces; per MB of decoded output.
pub(crate) fn inflate(clock: &dyn Clock, opts: Options) -> Line {
    let text = corpus::json_like_text(BODY_LEN);
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    e.write_all(&text).expect("gzip");
    let gz = e.finish().expect("gzip");
    let mut out = Vec::with_capacity(BODY_LEN);
    let s = sample(
        clock,
        opts.round_secs,
        opts.rounds,
        Op::plain(|| {
            out.clear();
            let mut d = burrow_decode::Decoder::new(&[burrow_decode::Coding::Gzip], None);
            for piece in gz.chunks(HTTP_READ) {
                d.decode(piece, &mut out).expect("gunzip");
            }
            d.finish(&mut out).expect("gunzip");
            assert_eq!(out.len(), BODY_LEN);
        }),
    );
    Line {
        name: format!(
            "d. inflate gzip (ratio {:.1}x)",
            BODY_LEN as f64 / gz.len() as f64
        ),
        api: "d. burrow_decode::Decoder::{new, decode, finish} (gzip, default backend)".to_string(),
        body: BODY_LEN,
        sample: s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Record sizes that do not divide the buffer: full records, small ones, and a run of
    /// sizes that move where each read ends, so the floor compacts and reads across records.
    fn uneven_payloads() -> Vec<Vec<u8>> {
        let sizes = [
            RECORD_PAYLOAD,
            1,
            700,
            RECORD_PAYLOAD - 3,
            9_000,
            16_000,
            2,
            12_345,
        ];
        sizes
            .iter()
            .cycle()
            .take(40)
            .enumerate()
            .map(|(i, &n)| (0..n).map(|b| (b ^ i) as u8).collect())
            .collect()
    }

    #[test]
    fn floor_opens_every_record_and_copies_all_content() {
        // The op asserts the content count itself and panics on an open that fails (a record
        // read from the wrong place); this runs it over uneven records, under both suites.
        let clock = crate::ThreadCpuClock::default();
        for suite in [Suite::Aes128GcmSha256, Suite::ChaCha20Poly1305Sha256] {
            let set = RecordSet::new(suite, &uneven_payloads());
            let mut op = set.floor_op();
            for _ in 0..2 {
                let _ = (op.once)(&clock);
            }
        }
    }

    #[test]
    fn floor_rejects_records_it_did_not_open() {
        // A flipped ciphertext byte must make the floor fail, or it is not opening anything.
        let mut set = RecordSet::new(Suite::ChaCha20Poly1305Sha256, &uneven_payloads());
        let at = set.parts[3].2.start + 10;
        set.wire[at] ^= 1;
        let clock = crate::ThreadCpuClock::default();
        let mut op = set.floor_op();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (op.once)(&clock)));
        assert!(run.is_err(), "a corrupted record was accepted");
    }
}
