//! Gather writes: `write_parts` makes exactly the records `write` makes of the parts'
//! concatenation (boundaries, contents, nonces, seal jobs), for TLS 1.3 and 1.2, inline and
//! offloaded, under every split of a small input and random splits of a many-record one.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_crypto::aead::AeadAlgorithm;
use burrow_record::{ContentType, RecordWriter, SealJob, TrafficKeys, MAX_PLAINTEXT};

#[derive(Clone, Copy, Debug)]
enum Kind {
    Plain,
    Tls13(AeadAlgorithm),
    Tls12(AeadAlgorithm),
}

const KINDS: [Kind; 5] = [
    Kind::Plain,
    Kind::Tls13(AeadAlgorithm::Aes128Gcm),
    Kind::Tls13(AeadAlgorithm::ChaCha20Poly1305),
    Kind::Tls12(AeadAlgorithm::Aes128Gcm),
    Kind::Tls12(AeadAlgorithm::ChaCha20Poly1305),
];

/// A fresh writer: same keys and sequence numbers every time.
fn writer(kind: Kind, offload: bool, limit: Option<u16>) -> RecordWriter {
    let mut w = RecordWriter::new();
    match kind {
        Kind::Plain => {}
        Kind::Tls13(alg) => w.set_keys(Some(
            TrafficKeys::new(alg, &vec![7u8; alg.key_len()], &[9u8; 12], 1).unwrap(),
        )),
        Kind::Tls12(alg) => {
            let iv_len = if alg == AeadAlgorithm::ChaCha20Poly1305 {
                12
            } else {
                4
            };
            w.set_keys(Some(
                TrafficKeys::new_tls12(alg, &vec![7u8; alg.key_len()], &vec![9u8; iv_len], 1)
                    .unwrap(),
            ));
        }
    }
    w.set_offload(offload);
    if let Some(l) = limit {
        w.set_peer_record_size_limit(l);
    }
    w
}

/// Two records ahead of the write under test, so sequence numbers are not at zero.
fn written(
    kind: Kind,
    offload: bool,
    limit: Option<u16>,
    f: impl FnOnce(&mut RecordWriter, &mut Vec<u8>) -> Vec<SealJob>,
) -> (Vec<u8>, Vec<SealJob>) {
    let mut w = writer(kind, offload, limit);
    let mut out = Vec::new();
    let mut jobs = w
        .write(ContentType::APPLICATION_DATA, b"before", &mut out)
        .unwrap();
    jobs.extend(w.write(ContentType::HANDSHAKE, b"hs", &mut out).unwrap());
    jobs.extend(f(&mut w, &mut out));
    jobs.extend(
        w.write(ContentType::APPLICATION_DATA, b"after", &mut out)
            .unwrap(),
    );
    (out, jobs)
}

fn check(kind: Kind, offload: bool, limit: Option<u16>, data: &[u8], cuts: &[usize]) {
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut at = 0;
    for &c in cuts {
        parts.push(&data[at..c]);
        at = c;
    }
    parts.push(&data[at..]);
    let want = written(kind, offload, limit, |w, out| {
        w.write(ContentType::APPLICATION_DATA, data, out).unwrap()
    });
    let got = written(kind, offload, limit, |w, out| {
        w.write_parts(ContentType::APPLICATION_DATA, &parts, out)
            .unwrap()
    });
    assert!(
        want == got,
        "{kind:?} offload={offload} limit={limit:?} len={} cuts={cuts:?}",
        data.len()
    );
}

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + 7) as u8).collect()
}

/// A small deterministic generator (no dependency, reproducible failures).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

#[test]
fn every_split_point_of_a_small_input_matches_the_concatenation() {
    // A record size limit of 64 makes 40 bytes span one record and 150 span three.
    for kind in KINDS {
        for offload in [false, true] {
            for limit in [None, Some(64)] {
                for len in [0usize, 1, 40, 150] {
                    let data = bytes(len);
                    for a in 0..=len {
                        check(kind, offload, limit, &data, &[a]);
                        // Two cuts, including empty middle parts (a == b).
                        for b in (a..=len).step_by(7) {
                            check(kind, offload, limit, &data, &[a, b]);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn random_splits_of_a_many_record_input_match_the_concatenation() {
    let len = 3 * MAX_PLAINTEXT + 12_345;
    let data = bytes(len);
    let mut rng = Lcg(12);
    for kind in KINDS {
        for offload in [false, true] {
            for _ in 0..12 {
                let n = 1 + rng.next(40);
                let mut cuts: Vec<usize> = (0..n).map(|_| rng.next(len + 1)).collect();
                // Some cuts twice: empty parts.
                if n > 3 {
                    cuts[1] = cuts[0];
                }
                cuts.sort_unstable();
                check(kind, offload, None, &data, &cuts);
                check(kind, offload, Some(1000), &data, &cuts);
            }
            // Record-boundary cuts exactly, and one byte either side.
            let m = MAX_PLAINTEXT;
            check(kind, offload, None, &data, &[m - 1, m, m + 1, 2 * m, 3 * m]);
        }
    }
}

#[test]
fn empty_parts_write_nothing_for_application_data_and_fail_otherwise() {
    for kind in KINDS {
        let mut w = writer(kind, false, None);
        let mut out = Vec::new();
        assert!(w
            .write_parts(ContentType::APPLICATION_DATA, &[], &mut out)
            .unwrap()
            .is_empty());
        assert!(w
            .write_parts(ContentType::APPLICATION_DATA, &[b"", b""], &mut out)
            .unwrap()
            .is_empty());
        assert!(out.is_empty());
        assert!(w
            .write_parts(ContentType::HANDSHAKE, &[b""], &mut out)
            .is_err());
    }
}
