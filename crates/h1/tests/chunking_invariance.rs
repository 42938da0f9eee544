//! The same bytes give the same events however they are split: whole, byte by byte, and random
//! splits from many seeds, through both front-ends (internal buffer and caller-owned buffer).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

mod common;

use burrow_h1::{BodyFraming, Limits, RequestInfo};
use common::*;

struct Case {
    name: &'static str,
    input: Vec<u8>,
    reqs: Vec<RequestInfo>,
    /// Checks the events of the whole-input run, so equality below is not trivially empty.
    check: fn(&[Ev]),
}

fn statuses(evs: &[Ev]) -> Vec<u16> {
    evs.iter()
        .filter_map(|e| match e {
            Ev::Head(h, _) | Ev::Interim(h) => Some(h.status),
            _ => None,
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let big: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let mut content_length =
        b"HTTP/1.1 200 OK\r\nServer: t\r\nContent-Length: 20000\r\n\r\n".to_vec();
    content_length.extend_from_slice(&big);

    let mut chunked =
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n".to_vec();
    chunked.extend_from_slice(b"7;ext=1\r\nchunk-1\r\n");
    chunked.extend_from_slice(b"1000 ; name=\"quoted;value\"\r\n");
    chunked.extend_from_slice(&big[..0x1000]);
    chunked.extend_from_slice(b"\r\n3\r\nend\r\n0;last\r\nX-Sum: 99\r\nX-More: a, b\r\n\r\n");

    let mut close = b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n".to_vec();
    close.extend_from_slice(&big[..5000]);

    let interim = b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".to_vec();

    let pipelined = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\noneHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\nHTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n".to_vec();

    let head_then_get =
        b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".to_vec();

    let get = RequestInfo::for_method("GET");
    vec![
        Case {
            name: "content-length",
            input: content_length,
            reqs: vec![get],
            check: |evs| {
                assert_eq!(head(evs).1, BodyFraming::Length(20_000));
                assert_eq!(body(evs).len(), 20_000);
                assert_eq!(&evs[evs.len() - 2..], &[Ev::End(true), Ev::Closed]);
            },
        },
        Case {
            name: "chunked+extensions+trailers",
            input: chunked,
            reqs: vec![get],
            check: |evs| {
                assert_eq!(head(evs).1, BodyFraming::Chunked);
                let b = body(evs);
                assert_eq!(b.len(), 7 + 0x1000 + 3);
                assert!(b.starts_with(b"chunk-1") && b.ends_with(b"end"));
                let t = evs
                    .iter()
                    .find_map(|e| match e {
                        Ev::Trailers(t) => Some(t.clone()),
                        _ => None,
                    })
                    .unwrap();
                assert_eq!(t.get("x-sum"), Some(&b"99"[..]));
                assert_eq!(t.get("x-more"), Some(&b"a, b"[..]));
            },
        },
        Case {
            name: "close-delimited",
            input: close,
            reqs: vec![get],
            check: |evs| {
                assert_eq!(head(evs).1, BodyFraming::CloseDelimited);
                assert_eq!(body(evs).len(), 5000);
                assert_eq!(&evs[evs.len() - 2..], &[Ev::End(false), Ev::Closed]);
            },
        },
        Case {
            name: "1xx then 200",
            input: interim,
            reqs: vec![get],
            check: |evs| {
                assert_eq!(statuses(evs), vec![100, 103, 200]);
                assert_eq!(body(evs), b"hello");
                assert!(evs.contains(&Ev::End(false)));
            },
        },
        Case {
            name: "pipelined keep-alive",
            input: pipelined,
            reqs: vec![get, get, get],
            check: |evs| {
                assert_eq!(statuses(evs), vec![200, 200, 304]);
                assert_eq!(body(evs), b"onetwo");
                assert_eq!(evs.iter().filter(|e| **e == Ev::End(true)).count(), 3);
            },
        },
        Case {
            name: "HEAD then 204",
            input: head_then_get,
            reqs: vec![RequestInfo::for_method("HEAD"), get],
            check: |evs| {
                assert_eq!(statuses(evs), vec![200, 204]);
                assert!(body(evs).is_empty());
            },
        },
    ]
}

fn error_cases() -> Vec<&'static [u8]> {
    vec![
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello",
    ]
}

fn check_invariant(name: &str, input: &[u8], reqs: &[RequestInfo]) -> Vec<Ev> {
    let limits = Limits::default();
    let want = run_buffered(&[input], reqs, limits);
    let bytes = bytewise(input);
    assert_eq!(
        run_buffered(&bytes, reqs, limits),
        want,
        "{name}: byte-by-byte"
    );
    assert_eq!(run_core(&[input], reqs, limits), want, "{name}: core whole");
    assert_eq!(
        run_core(&bytes, reqs, limits),
        want,
        "{name}: core byte-by-byte"
    );
    for seed in 0..300 {
        let pieces = random_pieces(input, seed);
        assert_eq!(
            run_buffered(&pieces, reqs, limits),
            want,
            "{name}: seed {seed}"
        );
        if seed % 10 == 0 {
            assert_eq!(
                run_core(&pieces, reqs, limits),
                want,
                "{name}: core seed {seed}"
            );
        }
    }
    want
}

#[test]
fn representative_responses_are_chunking_invariant() {
    for case in cases() {
        let want = check_invariant(case.name, &case.input, &case.reqs);
        assert!(error_of(&want).is_none(), "{}: {want:?}", case.name);
        (case.check)(&want);
    }
}

#[test]
fn errors_are_chunking_invariant() {
    for input in error_cases() {
        let want = check_invariant("error case", input, &[RequestInfo::for_method("GET")]);
        assert!(error_of(&want).is_some(), "{want:?}");
    }
}

#[test]
fn all_responses_concatenated_on_one_connection() {
    // Every keep-alive case back to back, then the close-delimited one last.
    let mut input = Vec::new();
    let mut reqs = Vec::new();
    for case in cases() {
        if case.name == "close-delimited" || case.name == "1xx then 200" {
            continue;
        }
        input.extend_from_slice(&case.input);
        reqs.extend_from_slice(&case.reqs);
    }
    let close = cases()
        .into_iter()
        .find(|c| c.name == "close-delimited")
        .unwrap();
    input.extend_from_slice(&close.input);
    reqs.extend_from_slice(&close.reqs);
    let want = check_invariant("concatenated", &input, &reqs);
    assert!(error_of(&want).is_none(), "{want:?}");
    assert_eq!(
        want.iter().filter(|e| matches!(e, Ev::End(_))).count(),
        reqs.len()
    );
}
