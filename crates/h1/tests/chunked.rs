//! The chunked body decoder: extensions, trailers and every rejection.
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

use burrow_h1::{ChunkEvent, ChunkedDecoder, Error, Limits, Stage};
use common::*;

fn chunked(body: &[u8]) -> Vec<u8> {
    let mut r = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    r.extend_from_slice(body);
    r
}

fn trailers_of(evs: &[Ev]) -> Option<burrow_h1::Headers> {
    evs.iter().find_map(|e| match e {
        Ev::Trailers(t) => Some(t.clone()),
        _ => None,
    })
}

#[test]
fn chunks_are_joined() {
    let evs = ok(&chunked(
        b"5\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\n\r\n",
    ));
    assert_eq!(body(&evs), b"hello 0123456789");
    assert_eq!(evs.last(), Some(&Ev::Closed));
    assert!(evs.contains(&Ev::End(true)));
}

#[test]
fn hex_sizes_any_case_and_leading_zeros() {
    let mut data = vec![b'x'; 0x1af];
    let mut b = b"001Af\r\n".to_vec();
    b.append(&mut data);
    b.extend_from_slice(b"\r\n0000\r\n\r\n");
    assert_eq!(body(&ok(&chunked(&b))).len(), 0x1af);
}

#[test]
fn extensions_are_accepted_and_ignored() {
    let evs = ok(&chunked(
        b"3;name=value\r\nabc\r\n3 ; a ; b=\"q s\"\r\ndef\r\n0;last\r\n\r\n",
    ));
    assert_eq!(body(&evs), b"abcdef");
}

#[test]
fn trailers_are_surfaced() {
    let evs = ok(&chunked(
        b"2\r\nok\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n",
    ));
    let t = trailers_of(&evs).expect("trailers");
    assert_eq!(t.len(), 2);
    assert_eq!(t.get("x-checksum"), Some(&b"abc"[..]));
    // Trailers come after the data and before End.
    let ti = evs
        .iter()
        .position(|e| matches!(e, Ev::Trailers(_)))
        .unwrap();
    let ei = evs.iter().position(|e| matches!(e, Ev::End(_))).unwrap();
    assert!(ti < ei);
}

#[test]
fn no_trailers_event_when_section_is_empty() {
    assert!(trailers_of(&ok(&chunked(b"0\r\n\r\n"))).is_none());
}

#[test]
fn rejects_missing_size() {
    assert_eq!(err(&chunked(b"\r\nabc\r\n0\r\n\r\n")), Error::BadChunkSize);
    assert_eq!(err(&chunked(b";ext\r\n")), Error::BadChunkSize);
}

#[test]
fn rejects_non_hex_size() {
    assert_eq!(err(&chunked(b"g\r\n")), Error::BadChunkSize);
    assert_eq!(
        err(&chunked(b"0x5\r\nhello\r\n0\r\n\r\n")),
        Error::BadChunkSize
    );
    assert_eq!(err(&chunked(b"-1\r\n")), Error::BadChunkSize);
}

#[test]
fn rejects_overflowing_size() {
    let e = err(&chunked(b"10000000000000000\r\n"));
    assert_eq!(e, Error::ChunkSizeOverflow);
    assert_eq!(e.code(), "H1_CHUNKED");
    // The largest u64 is a valid size (the body is then just truncated).
    assert_eq!(
        err(&chunked(b"ffffffffffffffff\r\nabc")),
        Error::Truncated {
            stage: Stage::Chunked
        }
    );
}

#[test]
fn rejects_bad_extension() {
    assert_eq!(
        err(&chunked(b"3 x\r\nabc\r\n0\r\n\r\n")),
        Error::BadChunkExtension
    );
    assert_eq!(
        err(&chunked(b"3;a\x00\r\nabc\r\n0\r\n\r\n")),
        Error::BadChunkExtension
    );
}

/// Bare LF is accepted in the head but never inside chunk framing, even with a bare-LF head.
#[test]
fn bare_lf_head_does_not_relax_chunk_framing() {
    let e = err(b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\r\n0\r\n\r\n");
    assert_eq!(e, Error::BareLf);
    let e = err(b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\r\nabc\n0\r\n\r\n");
    assert_ne!(e, Error::BareCr, "{e:?}");
    let e = err(b"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n0\r\nX: 1\n\r\n");
    assert_eq!(e, Error::BareLf);
}

#[test]
fn rejects_bare_lf_in_size_line() {
    assert_eq!(err(&chunked(b"3\nabc\r\n0\r\n\r\n")), Error::BareLf);
    assert_eq!(err(&chunked(b"3;x\nabc\r\n0\r\n\r\n")), Error::BareLf);
}

#[test]
fn rejects_bare_cr_in_size_line() {
    assert_eq!(err(&chunked(b"3\rabc\r\n0\r\n\r\n")), Error::BareCr);
}

#[test]
fn rejects_missing_crlf_after_data() {
    assert_eq!(
        err(&chunked(b"3\r\nabcd\r\n0\r\n\r\n")),
        Error::BadChunkTerminator
    );
    assert_eq!(
        err(&chunked(b"3\r\nabc\rX0\r\n\r\n")),
        Error::BadChunkTerminator
    );
    assert_eq!(
        err(&chunked(b"3\r\nabc\n0\r\n\r\n")),
        Error::BadChunkTerminator
    );
}

#[test]
fn rejects_malformed_trailers() {
    assert_eq!(err(&chunked(b"0\r\nX-A: 1\n\r\n")), Error::BareLf);
    assert_eq!(err(&chunked(b"0\r\n folded\r\n\r\n")), Error::ObsFold);
    assert_eq!(
        err(&chunked(b"0\r\nno colon\r\n\r\n")),
        Error::BadHeaderName
    );
    assert_eq!(
        err(&chunked(b"0\r\nX-A: \x00\r\n\r\n")),
        Error::BadHeaderValue
    );
    assert_eq!(err(&chunked(b"0\r\n\n")), Error::BareLf);
}

#[test]
fn chunk_line_limit() {
    let limits = Limits {
        max_chunk_line: 16,
        ..Limits::default()
    };
    let ok_line = chunked(b"3;abcdefghijkl\r\nabc\r\n0\r\n\r\n"); // 14 bytes
    assert_eq!(error_of(&run_buffered(&[&ok_line], &[get()], limits)), None);
    let long = chunked(b"3;abcdefghijklmnopq\r\nabc\r\n0\r\n\r\n");
    assert_eq!(
        error_of(&run_buffered(&[&long], &[get()], limits)),
        Some(Error::ChunkLineTooLong { limit: 16 })
    );
}

#[test]
fn trailer_size_and_count_limits() {
    let limits = Limits {
        max_trailer_bytes: 32,
        ..Limits::default()
    };
    let small = chunked(b"0\r\nX-A: 1\r\n\r\n");
    assert_eq!(error_of(&run_buffered(&[&small], &[get()], limits)), None);
    let big = chunked(b"0\r\nX-A: 0123456789012345678901234567890123456789\r\n\r\n");
    assert_eq!(
        error_of(&run_buffered(&[&big], &[get()], limits)),
        Some(Error::TrailersTooLarge { limit: 32 })
    );
    let limits = Limits {
        max_headers: 2,
        ..Limits::default()
    };
    let many = chunked(b"0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n");
    assert_eq!(
        error_of(&run_buffered(&[&many], &[get()], limits)),
        Some(Error::TooManyHeaders { limit: 2 })
    );
}

#[test]
fn truncated_chunked_body() {
    for cut in [
        &b"5\r\nhel"[..],
        b"5\r\nhello\r\n",
        b"5",
        b"0\r\n",
        b"0\r\nX-A: 1\r\n",
    ] {
        assert_eq!(
            err(&chunked(cut)),
            Error::Truncated {
                stage: Stage::Chunked
            },
            "{cut:?}"
        );
    }
}

#[test]
fn decoder_reports_ranges_into_input_and_never_more_than_given() {
    let input = b"4\r\nwiki\r\n5;x=y\r\npedia\r\n0\r\nT: v\r\n\r\n";
    let mut dec = ChunkedDecoder::new(Limits::default());
    let mut rest = &input[..];
    let mut out = Vec::new();
    let mut trailers = None;
    loop {
        let (n, ev) = dec.decode(rest).unwrap();
        assert!(n <= rest.len());
        match ev {
            ChunkEvent::Data(r) => {
                assert!(r.end <= n);
                out.extend_from_slice(&rest[r]);
            }
            ChunkEvent::Trailers(t) => trailers = Some(t),
            ChunkEvent::End => break,
            ChunkEvent::NeedData => panic!("whole input given"),
        }
        rest = &rest[n..];
    }
    assert_eq!(out, b"wikipedia");
    assert!(rest.is_empty());
    assert!(dec.is_done());
    assert_eq!(trailers.unwrap().get("t"), Some(&b"v"[..]));
}
