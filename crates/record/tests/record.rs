//! Record layer: framing under every chunking, inline vs offloaded AEAD, limits and RFC 8446 §5 rules.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_crypto::aead::{AeadAlgorithm, AeadKey};
use burrow_record::*;
use burrow_testkit::hex;

fn keys(id: u32) -> TrafficKeys {
    TrafficKeys::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16], &[9u8; 12], id).unwrap()
}

/// Drains every record from `r`, answering open jobs inline with `key` when offloading.
fn drain(
    r: &mut RecordReader,
    offload_key: Option<&AeadKey>,
) -> Result<Vec<(u8, Vec<u8>)>, RecordError> {
    let mut out = Vec::new();
    loop {
        match r.next_record()? {
            Next::NeedData => return Ok(out),
            Next::Record(p) => out.push((p.content_type.0, p.data.to_vec())),
            Next::NeedOpen(job) => {
                let key = offload_key.expect("offload key");
                let data = r.job_data_mut().unwrap();
                let (ct, tag) = data.split_at_mut(job.ciphertext_len);
                let tag: [u8; 16] = (&*tag).try_into().unwrap();
                let ok = key.open_in_place(&job.nonce, &job.aad, ct, &tag).is_ok();
                r.complete_open(ok)?;
            }
        }
    }
}

fn chunkings(len: usize) -> Vec<Vec<usize>> {
    let mut all = vec![vec![len], vec![1; len]];
    let mut seed = 0x1234_5678u32;
    for _ in 0..20 {
        let mut sizes = Vec::new();
        let mut left = len;
        while left > 0 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let n = (1 + (seed >> 16) as usize % 700).min(left);
            sizes.push(n);
            left -= n;
        }
        all.push(sizes);
    }
    all
}

fn read_all(
    wire: &[u8],
    sizes: &[usize],
    offload: bool,
) -> Result<Vec<(u8, Vec<u8>)>, RecordError> {
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.set_offload(offload);
    let key = AeadKey::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16]).unwrap();
    let mut got = Vec::new();
    let mut at = 0;
    for n in sizes {
        r.feed(&wire[at..at + n])?;
        at += n;
        got.extend(drain(&mut r, Some(&key))?);
    }
    Ok(got)
}

fn sample_stream(offload: bool) -> (Vec<u8>, Vec<(u8, Vec<u8>)>) {
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys(1)));
    w.set_offload(offload);
    let mut wire = Vec::new();
    let big: Vec<u8> = (0..40_000u32).map(|i| i as u8).collect();
    let mut expect = Vec::new();
    for (ct, data) in [
        (22u8, b"hello".to_vec()),
        (23, big.clone()),
        (21, vec![1, 0]),
    ] {
        let jobs = w.write(ContentType(ct), &data, &mut wire).unwrap();
        assert_eq!(jobs.is_empty(), !offload);
        let key = AeadKey::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16]).unwrap();
        for j in jobs {
            let tag = key
                .seal_in_place(&j.nonce, &j.aad, &mut wire[j.start..j.start + j.len])
                .unwrap();
            wire[j.start + j.len..j.start + j.len + 16].copy_from_slice(&tag);
        }
        for c in data.chunks(MAX_PLAINTEXT) {
            expect.push((ct, c.to_vec()));
        }
    }
    (wire, expect)
}

#[test]
fn protected_stream_identical_under_all_chunkings_inline_and_offload() {
    let (wire, expect) = sample_stream(false);
    let (wire2, _) = sample_stream(true);
    assert_eq!(
        wire, wire2,
        "offloaded sealing must produce the same bytes as inline sealing"
    );
    for sizes in chunkings(wire.len()) {
        assert_eq!(read_all(&wire, &sizes, false).unwrap(), expect);
        assert_eq!(read_all(&wire, &sizes, true).unwrap(), expect);
    }
}

#[test]
fn rfc8448_server_flight_opens_to_the_trace_plaintext() {
    let json = burrow_testkit::vectors::read_string("rfc8448/rfc8448.json");
    let Some(json) = json else { return };
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let field = |name: &str| hex::decode(v["scenarios"]["simple_1rtt"][name].as_str().unwrap());
    let key = field("server_hs_key");
    let iv = field("server_hs_iv");
    let wire = field("record_server_handshake_messages");
    let plain = field("server_flight_plaintext");
    for offload in [false, true] {
        let mut r = RecordReader::new();
        r.set_keys(Some(
            TrafficKeys::new(AeadAlgorithm::Aes128Gcm, &key, &iv, 3).unwrap(),
        ));
        r.set_offload(offload);
        r.feed(&wire).unwrap();
        let k = AeadKey::new(AeadAlgorithm::Aes128Gcm, &key).unwrap();
        let got = drain(&mut r, Some(&k)).unwrap();
        assert_eq!(got, vec![(22u8, plain.clone())]);
    }
}

fn protected_record(inner: &[u8], _unused: u32) -> Vec<u8> {
    // Hand-sealed at sequence 0 (nonce = IV) so the inner plaintext can be anything.
    let key = AeadKey::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16]).unwrap();
    let h = Header {
        content_type: ContentType::APPLICATION_DATA,
        version: ProtocolVersion::TLS12,
        len: (inner.len() + 16) as u16,
    };
    let mut body = inner.to_vec();
    let tag = key
        .seal_in_place(&[9u8; 12], &h.encode(), &mut body)
        .unwrap();
    let mut rec = h.encode().to_vec();
    rec.extend_from_slice(&body);
    rec.extend_from_slice(&tag);
    rec
}

fn read_one(wire: &[u8]) -> Result<Vec<(u8, Vec<u8>)>, RecordError> {
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.feed(wire)?;
    drain(&mut r, None)
}

#[test]
fn all_zero_inner_plaintext_is_rejected() {
    let e = read_one(&protected_record(&[0, 0, 0, 0], 0)).unwrap_err();
    assert_eq!(e, RecordError::NoInnerContentType);
    assert_eq!(e.alert(), Some(AlertDescription::UNEXPECTED_MESSAGE));
}

#[test]
fn padding_is_stripped() {
    assert_eq!(
        read_one(&protected_record(&[b'x', 23, 0, 0, 0], 0)).unwrap(),
        vec![(23, b"x".to_vec())]
    );
}

#[test]
fn tampered_record_is_bad_record_mac() {
    let mut rec = protected_record(&[b'x', 23], 0);
    rec[6] ^= 1;
    let e = read_one(&rec).unwrap_err();
    assert_eq!(
        (e, e.alert()),
        (
            RecordError::BadRecordMac,
            Some(AlertDescription::BAD_RECORD_MAC)
        )
    );
    assert_eq!(e.code(), "TLS_BAD_RECORD_MAC");
}

#[test]
fn oversized_records_overflow() {
    // Plaintext phase: 2^14 + 1 bytes.
    let mut r = RecordReader::new();
    r.feed(&[22, 3, 3, 0x40, 0x01]).unwrap();
    assert_eq!(r.next_record().unwrap_err(), RecordError::RecordOverflow);
    // Protected phase: 2^14 + 257 bytes.
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.feed(&[23, 3, 3, 0x41, 0x01]).unwrap();
    let e = r.next_record().unwrap_err();
    assert_eq!(
        (e, e.alert()),
        (
            RecordError::RecordOverflow,
            Some(AlertDescription::RECORD_OVERFLOW)
        )
    );
    // Inner plaintext over our advertised record_size_limit.
    let mut r = RecordReader::new();
    r.set_limits(ReaderLimits {
        max_inner_plaintext: 100,
        ..ReaderLimits::default()
    });
    r.set_keys(Some(keys(1)));
    let mut inner = vec![b'a'; 150];
    inner.push(23);
    r.feed(&protected_record(&inner, 0)).unwrap();
    assert_eq!(r.next_record().unwrap_err(), RecordError::RecordOverflow);
}

#[test]
fn ccs_only_where_allowed_and_only_01() {
    let mut r = RecordReader::new();
    r.feed(&[20, 3, 3, 0, 1, 1]).unwrap();
    assert_eq!(
        r.next_record().unwrap_err(),
        RecordError::UnexpectedChangeCipherSpec
    );
    let mut r = RecordReader::new();
    r.set_ccs_allowed(true);
    r.feed(&[20, 3, 3, 0, 1, 1, 22, 3, 3, 0, 1, 9]).unwrap();
    assert_eq!(drain(&mut r, None).unwrap(), vec![(22, vec![9])]);
    let mut r = RecordReader::new();
    r.set_ccs_allowed(true);
    r.feed(&[20, 3, 3, 0, 1, 2]).unwrap();
    assert_eq!(
        r.next_record().unwrap_err(),
        RecordError::UnexpectedChangeCipherSpec
    );
}

#[test]
fn plaintext_rules() {
    for bad in [[23u8, 3, 3, 0, 1, 0], [24, 3, 3, 0, 1, 0]] {
        let mut r = RecordReader::new();
        r.feed(&bad).unwrap();
        assert_eq!(
            r.next_record().unwrap_err(),
            RecordError::UnexpectedContentType
        );
    }
    let mut r = RecordReader::new();
    r.feed(&[22, 3, 3, 0, 0]).unwrap();
    assert_eq!(r.next_record().unwrap_err(), RecordError::EmptyFragment);
    let mut r = RecordReader::new();
    r.feed(b"HTTP/1.1 400").unwrap();
    assert_eq!(r.next_record().unwrap_err().code(), "TLS_NOT_TLS");
}

#[test]
fn empty_record_flood_is_capped() {
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys(1)));
    let mut wire = Vec::new();
    // Empty application data records must be hand-made: the writer never sends them.
    let key = AeadKey::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16]).unwrap();
    for seq in 0..(MAX_EMPTY_RECORDS as u64 + 1) {
        let mut nonce = [9u8; 12];
        for (d, b) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
            *d ^= b;
        }
        let h = Header {
            content_type: ContentType::APPLICATION_DATA,
            version: ProtocolVersion::TLS12,
            len: 17,
        };
        let mut body = vec![23u8];
        let tag = key.seal_in_place(&nonce, &h.encode(), &mut body).unwrap();
        wire.extend_from_slice(&h.encode());
        wire.extend_from_slice(&body);
        wire.extend_from_slice(&tag);
    }
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.feed(&wire).unwrap();
    for _ in 0..MAX_EMPTY_RECORDS {
        assert!(matches!(r.next_record().unwrap(), Next::Record(p) if p.data.is_empty()));
    }
    assert_eq!(
        r.next_record().unwrap_err(),
        RecordError::TooManyEmptyRecords
    );
    assert!(w
        .write(ContentType::APPLICATION_DATA, &[], &mut Vec::new())
        .unwrap()
        .is_empty());
}

#[test]
fn record_size_limit_fragments_outbound() {
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys(1)));
    w.set_peer_record_size_limit(100);
    let mut wire = Vec::new();
    let _ = w
        .write(ContentType::APPLICATION_DATA, &[5u8; 250], &mut wire)
        .unwrap();
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.feed(&wire).unwrap();
    let got = drain(&mut r, None).unwrap();
    assert_eq!(
        got.iter().map(|(_, d)| d.len()).collect::<Vec<_>>(),
        vec![99, 99, 52]
    );
}

#[test]
fn buffer_is_bounded_and_errors_stick() {
    let mut r = RecordReader::new();
    r.set_limits(ReaderLimits {
        max_buffer: 10,
        ..ReaderLimits::default()
    });
    assert_eq!(r.feed(&[0u8; 11]).unwrap_err(), RecordError::BufferFull);
    let mut r = RecordReader::new();
    r.feed(&[9, 9, 9, 9, 9]).unwrap();
    assert!(r.next_record().is_err());
    r.feed(&[22, 3, 3, 0, 1, 1]).unwrap();
    assert!(r.next_record().is_err(), "errors are sticky");
}

#[test]
fn offload_rejects_unauthentic_and_unsolicited_answers() {
    let mut r = RecordReader::new();
    assert_eq!(r.complete_open(true).unwrap_err(), RecordError::JobMismatch);
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.set_offload(true);
    r.feed(&protected_record(&[b'x', 23], 0)).unwrap();
    let Next::NeedOpen(job) = r.next_record().unwrap() else {
        panic!("job expected")
    };
    assert_eq!(job.key_id, 1);
    assert_eq!(job.nonce, [9u8; 12]);
    assert_eq!(
        r.complete_open(false).unwrap_err(),
        RecordError::BadRecordMac
    );
}

#[test]
fn first_client_hello_may_use_0301() {
    let mut w = RecordWriter::new();
    w.set_plain_version(ProtocolVersion::TLS10);
    let mut wire = Vec::new();
    let _ = w
        .write(ContentType::HANDSHAKE, &[1, 0, 0, 0], &mut wire)
        .unwrap();
    assert_eq!(&wire[..5], &[22, 3, 1, 0, 4]);
}

#[test]
fn fuzz_entry_point_survives_samples() {
    let (wire, _) = sample_stream(false);
    for mode in [0u8, 0x05, 0x80, 0x85, 0xc3, 0x3f] {
        let mut d = vec![mode];
        d.extend_from_slice(&wire[..wire.len().min(3000)]);
        burrow_record::fuzz::reader(&d);
        d.truncate(200);
        burrow_record::fuzz::reader(&d);
    }
    let mut seed = 1u32;
    for _ in 0..300 {
        let d: Vec<u8> = (0..64)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (seed >> 16) as u8
            })
            .collect();
        burrow_record::fuzz::reader(&d);
    }
}

/// Like `read_all`, with the transport writing straight into `recv_buf` and every record's
/// content lent (`lend_last`) and consumed in pieces of `take` bytes, with more bytes arriving
/// (and the buffer compacting) while a record is lent.
fn read_all_in_place(
    wire: &[u8],
    sizes: &[usize],
    offload: bool,
    take: usize,
) -> Result<Vec<(u8, Vec<u8>)>, RecordError> {
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.set_offload(offload);
    let key = AeadKey::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16]).unwrap();
    let mut got: Vec<(u8, Vec<u8>)> = Vec::new();
    let mut at = 0;
    let mut sizes = sizes.iter();
    loop {
        // Consume a piece of what is lent, then let the transport in before the rest.
        if r.is_lending() {
            let n = take.min(r.lent().len());
            got.last_mut().unwrap().1.extend_from_slice(&r.lent()[..n]);
            r.consume_lent(n);
        }
        let more = sizes.next();
        if let Some(&n) = more {
            let room = r.recv_buf();
            assert!(room.len() >= RECV_ROOM, "at least a record of room");
            room[..n].copy_from_slice(&wire[at..at + n]);
            r.commit(n)?;
            at += n;
        }
        let idle = loop {
            if r.is_lending() {
                assert!(
                    matches!(r.next_record()?, Next::NeedData),
                    "nothing new while lending"
                );
                break false;
            }
            match r.next_record()? {
                Next::NeedData => break true,
                Next::Record(p) => {
                    got.push((p.content_type.0, Vec::new()));
                    r.lend_last();
                }
                Next::NeedOpen(job) => {
                    let data = r.job_data_mut().unwrap();
                    let (ct, tag) = data.split_at_mut(job.ciphertext_len);
                    let tag: [u8; 16] = (&*tag).try_into().unwrap();
                    let ok = key.open_in_place(&job.nonce, &job.aad, ct, &tag).is_ok();
                    r.complete_open(ok)?;
                }
            }
        };
        if more.is_none() && idle {
            assert_eq!(at, wire.len());
            return Ok(got);
        }
    }
}

#[test]
fn recv_buf_and_lent_records_match_feed_under_all_chunkings() {
    let (wire, expect) = sample_stream(false);
    for sizes in chunkings(wire.len()) {
        for offload in [false, true] {
            for take in [usize::MAX, 5000, 1] {
                if take == 1 && sizes.len() > 100 {
                    continue; // byte-by-byte consumption is covered by the other chunkings
                }
                assert_eq!(
                    read_all_in_place(&wire, &sizes, offload, take).unwrap(),
                    expect,
                    "offload {offload}, take {take}, {} pieces",
                    sizes.len()
                );
            }
        }
    }
}

#[test]
fn uncommitted_bytes_are_not_data_and_commit_is_bounded() {
    let (wire, expect) = sample_stream(false);
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    // A read that wrote garbage and was abandoned (never committed) changes nothing.
    r.recv_buf()[..100].fill(0xee);
    let room = r.recv_buf();
    let n = room.len().min(wire.len());
    room[..n].copy_from_slice(&wire[..n]);
    r.commit(n).unwrap();
    let mut rest = &wire[n..];
    let mut got = Vec::new();
    loop {
        let more = drain(&mut r, None).unwrap();
        got.extend(more);
        if rest.is_empty() {
            break;
        }
        let room = r.recv_buf();
        let k = room.len().min(rest.len());
        room[..k].copy_from_slice(&rest[..k]);
        r.commit(k).unwrap();
        rest = &rest[k..];
    }
    assert_eq!(got, expect);
    // Committing more than was lent is refused, and sticks.
    let mut r = RecordReader::new();
    let room = r.recv_buf().len();
    assert_eq!(r.commit(room + 1).unwrap_err(), RecordError::JobMismatch);
    assert!(r.next_record().is_err());
    // The buffer limit holds for committed bytes too.
    let mut r = RecordReader::new();
    r.set_limits(ReaderLimits {
        max_buffer: 10,
        ..ReaderLimits::default()
    });
    let _ = r.recv_buf();
    assert_eq!(r.commit(11).unwrap_err(), RecordError::BufferFull);
}

/// The other direction's keys after a key change (another key and IV).
fn keys2() -> TrafficKeys {
    TrafficKeys::new(AeadAlgorithm::Aes128Gcm, &[8u8; 16], &[10u8; 12], 2).unwrap()
}

/// `records` written with the writer's keys switched to `keys2()` after any handshake record
/// (as a KeyUpdate does).
fn stream_with_key_change(records: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys(1)));
    let mut wire = Vec::new();
    for (ct, data) in records {
        let _ = w.write(ContentType(*ct), data, &mut wire).unwrap();
        if *ct == 22 {
            w.set_keys(Some(keys2()));
        }
    }
    wire
}

/// Reads `wire` fed in `sizes`, installing `keys2()` when a handshake record comes out (as
/// the handshake layer does for a KeyUpdate); every record and then the error, if any.
fn read_switching_keys(wire: &[u8], sizes: &[usize]) -> (Vec<(u8, Vec<u8>)>, Option<RecordError>) {
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    let mut got = Vec::new();
    let mut at = 0;
    for n in sizes {
        if let Err(e) = r.feed(&wire[at..at + n]) {
            return (got, Some(e));
        }
        at += n;
        loop {
            match r.next_record() {
                Ok(Next::Record(p)) => {
                    let ct = p.content_type.0;
                    got.push((ct, p.data.to_vec()));
                    if ct == 22 {
                        r.set_keys(Some(keys2()));
                    }
                }
                Ok(Next::NeedData) => break,
                Ok(Next::NeedOpen(_)) => panic!("inline reader asked for an open"),
                Err(e) => return (got, Some(e)),
            }
        }
    }
    (got, None)
}

#[test]
fn records_behind_a_key_change_open_with_the_new_keys_under_all_chunkings() {
    // Records buffered behind a key change are opened with the keys installed for it, however
    // the bytes arrived.
    let big: Vec<u8> = (0..16_384u32).map(|i| (i % 251) as u8).collect();
    let records = vec![
        (23u8, b"a".to_vec()),
        (23, big.clone()),
        (22, b"key update".to_vec()),
        (23, big.clone()),
        (23, b"d".to_vec()),
        (22, b"another".to_vec()),
        (23, b"e".to_vec()),
    ];
    let mut wire = stream_with_key_change(&records[..3]);
    // The second change: keys2 again, from a fresh writer at sequence 0.
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys2()));
    for (ct, data) in &records[3..6] {
        let _ = w.write(ContentType(*ct), data, &mut wire).unwrap();
    }
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys2()));
    let _ = w.write(ContentType(23), b"e", &mut wire).unwrap();
    for sizes in chunkings(wire.len()) {
        let (got, err) = read_switching_keys(&wire, &sizes);
        assert_eq!(err, None, "{} pieces", sizes.len());
        assert!(got == records, "{} pieces", sizes.len());
    }
}

#[test]
fn a_bad_record_behind_good_ones_fails_when_it_is_reached() {
    let records: Vec<(u8, Vec<u8>)> = (0..5u8).map(|i| (23, vec![i; 3000])).collect();
    let mut wire = stream_with_key_change(&records);
    // Corrupt the fourth record's ciphertext.
    let rec = 5 + 3000 + 1 + 16;
    wire[3 * rec + 100] ^= 1;
    for sizes in chunkings(wire.len()) {
        let (got, err) = read_switching_keys(&wire, &sizes);
        assert_eq!(got, records[..3], "{} pieces", sizes.len());
        assert_eq!(err, Some(RecordError::BadRecordMac));
    }
}

#[test]
fn full_records_lent_and_compacted_match_under_all_chunkings() {
    // Ten full-size records: the buffer (four records' room) compacts while a record is lent
    // and whole records wait behind it.
    let mut w = RecordWriter::new();
    w.set_keys(Some(keys(1)));
    let mut wire = Vec::new();
    let body: Vec<u8> = (0..10 * MAX_PLAINTEXT as u32)
        .map(|i| (i % 253) as u8)
        .collect();
    let _ = w
        .write(ContentType::APPLICATION_DATA, &body, &mut wire)
        .unwrap();
    let expect: Vec<(u8, Vec<u8>)> = body
        .chunks(MAX_PLAINTEXT)
        .map(|c| (23u8, c.to_vec()))
        .collect();
    let mut all = chunkings(wire.len());
    all.extend([vec![RECV_ROOM; wire.len() / RECV_ROOM], vec![12_000; 13]]);
    for mut sizes in all {
        let fed: usize = sizes.iter().sum();
        if fed < wire.len() {
            sizes.push(wire.len() - fed);
        }
        // A read is at most the room `recv_buf` promises; byte by byte is in the other
        // tests (here it would take minutes).
        if sizes.iter().any(|&n| n > RECV_ROOM) || sizes.len() > 1000 {
            continue;
        }
        for take in [usize::MAX, 5000] {
            let got = read_all_in_place(&wire, &sizes, false, take).unwrap();
            assert!(got == expect, "take {take}, {} pieces", sizes.len());
        }
    }
}

/// A TLS 1.3 record under `keys(1)` at sequence `seq`, its inner plaintext as given
/// (content, then the content type).
fn sealed_inner(seq: u64, inner: &[u8]) -> Vec<u8> {
    let key = AeadKey::new(AeadAlgorithm::Aes128Gcm, &[7u8; 16]).unwrap();
    let mut nonce = [9u8; 12];
    for (d, b) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
        *d ^= b;
    }
    let h = Header {
        content_type: ContentType::APPLICATION_DATA,
        version: ProtocolVersion::TLS12,
        len: (inner.len() + TAG_LEN) as u16,
    };
    let mut body = inner.to_vec();
    let tag = key.seal_in_place(&nonce, &h.encode(), &mut body).unwrap();
    [&h.encode()[..], &body, &tag].concat()
}

#[test]
fn alerts_between_empty_records_do_not_end_their_run() {
    // Warning alerts are bounded above the record layer; if they reset this run, empty
    // records and alerts could alternate forever. A handshake record does end it.
    let mut wire = Vec::new();
    let mut seq = 0;
    let mut push = |inner: &[u8]| {
        wire.extend(sealed_inner(seq, inner));
        seq += 1;
    };
    push(&[23]);
    push(&[24, 0, 0, 1, 0, 22]); // a handshake record (KeyUpdate): the run so far ends
    for _ in 0..MAX_EMPTY_RECORDS {
        push(&[23]);
        push(&[1, 90, 21]);
    }
    push(&[23]);
    let mut r = RecordReader::new();
    r.set_keys(Some(keys(1)));
    r.feed(&wire).unwrap();
    let mut kinds = Vec::new();
    let err = loop {
        match r.next_record() {
            Ok(Next::Record(p)) => kinds.push((p.content_type.0, p.data.len())),
            Ok(other) => panic!("{other:?}"),
            Err(e) => break e,
        }
    };
    assert_eq!(err, RecordError::TooManyEmptyRecords);
    assert_eq!(err.code(), "TLS_TOO_MANY_EMPTY_RECORDS");
    assert_eq!(kinds.len(), 2 + 2 * MAX_EMPTY_RECORDS as usize);
}
