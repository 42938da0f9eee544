//! TLS 1.2 record protection: explicit GCM nonces, RFC 7905 ChaCha nonces, 13-byte AAD, real
//! content type outside; round trips under every chunking; tampering detected.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_crypto::aead::{self, AeadAlgorithm};
use burrow_record::{ContentType, Next, RecordError, RecordReader, RecordWriter, TrafficKeys};

fn keys(alg: AeadAlgorithm) -> (Vec<u8>, Vec<u8>) {
    let key = vec![0x42u8; alg.key_len()];
    let iv = match alg {
        AeadAlgorithm::ChaCha20Poly1305 => vec![0x11u8; 12],
        _ => vec![0x11u8; 4],
    };
    (key, iv)
}

fn pair(alg: AeadAlgorithm) -> (RecordWriter, RecordReader) {
    let (k, iv) = keys(alg);
    let mut w = RecordWriter::new();
    w.set_keys(Some(TrafficKeys::new_tls12(alg, &k, &iv, 1).unwrap()));
    let mut r = RecordReader::new();
    r.set_keys(Some(TrafficKeys::new_tls12(alg, &k, &iv, 2).unwrap()));
    (w, r)
}

fn drain(r: &mut RecordReader) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    loop {
        match r.next_record().unwrap() {
            Next::NeedData => return out,
            Next::Record(p) => {
                assert!(p.protected);
                out.push((p.content_type.0, p.data.to_vec()));
            }
            Next::NeedOpen(_) => panic!("inline mode"),
        }
    }
}

const ALGS: [AeadAlgorithm; 3] = [
    AeadAlgorithm::Aes128Gcm,
    AeadAlgorithm::Aes256Gcm,
    AeadAlgorithm::ChaCha20Poly1305,
];

#[test]
fn wire_format_matches_rfc5246_and_rfc7905() {
    for alg in ALGS {
        let (k, iv) = keys(alg);
        let (mut w, _) = pair(alg);
        let mut out = Vec::new();
        w.write(ContentType::HANDSHAKE, b"first", &mut out).unwrap();
        let first_len = out.len();
        w.write(ContentType::APPLICATION_DATA, b"second!", &mut out)
            .unwrap();
        let rec2 = &out[first_len..];
        // Expected, built by hand: seq 1, type 23, 0303, plaintext length 7.
        let mut aad = vec![0, 0, 0, 0, 0, 0, 0, 1, 23, 3, 3, 0, 7];
        let (nonce, explicit): ([u8; 12], Vec<u8>) = match alg {
            AeadAlgorithm::ChaCha20Poly1305 => {
                let mut n = [0x11u8; 12];
                n[11] ^= 1;
                (n, vec![])
            }
            _ => {
                let mut n = [0u8; 12];
                n[..4].copy_from_slice(&iv);
                n[11] = 1;
                (n, n[4..].to_vec())
            }
        };
        let sealed = aead::seal(alg, &k, &nonce, &aad, b"second!").unwrap();
        let mut expect = vec![23, 3, 3];
        let len = explicit.len() + sealed.len();
        expect.extend_from_slice(&(len as u16).to_be_bytes());
        expect.extend_from_slice(&explicit);
        expect.extend_from_slice(&sealed);
        assert_eq!(rec2, &expect[..], "{alg:?}");
        aad.clear();
        assert_eq!(out[0], 22, "real content type outside");
    }
}

#[test]
fn round_trip_under_all_chunkings() {
    for alg in ALGS {
        let (mut w, _) = pair(alg);
        let mut wire = Vec::new();
        w.write(ContentType::HANDSHAKE, &[9u8; 40], &mut wire)
            .unwrap();
        w.write(ContentType::APPLICATION_DATA, &vec![7u8; 20_000], &mut wire)
            .unwrap();
        w.write(ContentType::ALERT, &[1, 0], &mut wire).unwrap();
        let whole = {
            let (_, mut r) = pair(alg);
            r.feed(&wire).unwrap();
            drain(&mut r)
        };
        assert_eq!(whole.len(), 4, "20000 bytes split in two records");
        assert_eq!(whole[0], (22, vec![9u8; 40]));
        assert_eq!(whole[1].1.len() + whole[2].1.len(), 20_000);
        assert_eq!(whole[3], (21, vec![1, 0]));
        for step in [1usize, 7, 333] {
            let (_, mut r) = pair(alg);
            let mut got = Vec::new();
            for c in wire.chunks(step) {
                r.feed(c).unwrap();
                got.extend(drain(&mut r));
            }
            assert_eq!(got, whole, "{alg:?} step {step}");
        }
    }
}

#[test]
fn tampering_and_replay_are_bad_record_mac() {
    for alg in ALGS {
        let (mut w, _) = pair(alg);
        let mut wire = Vec::new();
        w.write(ContentType::APPLICATION_DATA, b"hello", &mut wire)
            .unwrap();
        for i in 0..wire.len() {
            if i == 1 || i == 2 || i == 3 || i == 4 {
                continue; // version / length bytes: other errors
            }
            let mut bad = wire.clone();
            bad[i] ^= 0x80;
            let (_, mut r) = pair(alg);
            r.feed(&bad).unwrap();
            let e = r.next_record().unwrap_err();
            assert!(
                e == RecordError::BadRecordMac || e == RecordError::UnexpectedContentType,
                "{alg:?} byte {i}: {e:?}"
            );
        }
        // The same record twice: the second uses sequence 1 in its AAD and fails.
        let (_, mut r) = pair(alg);
        r.feed(&wire).unwrap();
        r.feed(&wire).unwrap();
        assert!(matches!(r.next_record().unwrap(), Next::Record(_)));
        assert_eq!(r.next_record().unwrap_err(), RecordError::BadRecordMac);
    }
}

#[test]
fn offloaded_jobs_match_inline_protection() {
    for alg in ALGS {
        let (k, _) = keys(alg);
        // Inline reference.
        let (mut w, _) = pair(alg);
        let mut inline = Vec::new();
        w.write(ContentType::HANDSHAKE, b"fin", &mut inline)
            .unwrap();
        w.write(ContentType::APPLICATION_DATA, b"data!", &mut inline)
            .unwrap();
        // Offloaded writer: the caller seals with the job's nonce and 13-byte AAD.
        let (mut w, _) = pair(alg);
        w.set_offload(true);
        let mut wire = Vec::new();
        let mut jobs = w.write(ContentType::HANDSHAKE, b"fin", &mut wire).unwrap();
        jobs.extend(
            w.write(ContentType::APPLICATION_DATA, b"data!", &mut wire)
                .unwrap(),
        );
        assert_eq!(jobs.len(), 2);
        for j in &jobs {
            assert_eq!(j.aad.len(), 13);
            let key = aead::AeadKey::new(alg, &k).unwrap();
            let tag = key
                .seal_in_place(&j.nonce, &j.aad, &mut wire[j.start..j.start + j.len])
                .unwrap();
            wire[j.start + j.len..j.start + j.len + 16].copy_from_slice(&tag);
        }
        assert_eq!(wire, inline, "{alg:?}: offloaded sealing is byte-identical");
        // Offloaded reader.
        let (_, mut r) = pair(alg);
        r.set_offload(true);
        r.feed(&wire).unwrap();
        let mut got = Vec::new();
        loop {
            match r.next_record().unwrap() {
                Next::NeedData => break,
                Next::NeedOpen(job) => {
                    assert_eq!(job.aad.len(), 13);
                    let key = aead::AeadKey::new(alg, &k).unwrap();
                    let buf = r.job_data_mut().unwrap();
                    let (ct, tag) = buf.split_at_mut(job.ciphertext_len);
                    let tag: [u8; 16] = (&*tag).try_into().unwrap();
                    let ok = key.open_in_place(&job.nonce, &job.aad, ct, &tag).is_ok();
                    r.complete_open(ok).unwrap();
                }
                Next::Record(p) => got.push((p.content_type.0, p.data.to_vec())),
            }
        }
        assert_eq!(
            got,
            vec![(22, b"fin".to_vec()), (23, b"data!".to_vec())],
            "{alg:?}"
        );
    }
}

#[test]
fn change_cipher_spec_is_delivered_when_asked() {
    let mut r = RecordReader::new();
    r.set_deliver_ccs(true);
    r.feed(&[20, 3, 3, 0, 1, 1]).unwrap();
    match r.next_record().unwrap() {
        Next::Record(p) => assert_eq!(p.content_type, ContentType::CHANGE_CIPHER_SPEC),
        other => panic!("{other:?}"),
    }
    let mut r = RecordReader::new();
    r.set_deliver_ccs(true);
    r.feed(&[20, 3, 3, 0, 1, 2]).unwrap();
    assert_eq!(
        r.next_record().unwrap_err(),
        RecordError::UnexpectedChangeCipherSpec
    );
}
