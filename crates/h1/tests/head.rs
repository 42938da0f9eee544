//! Status line and header section rules, each rejection with its own test.
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

use burrow_h1::{parse_response_head, BodyFraming, Error, Limits, Version};
use common::*;

const OK_TAIL: &[u8] = b"Content-Length: 0\r\n\r\n";

fn with_status(line: &[u8]) -> Vec<u8> {
    let mut v = line.to_vec();
    v.extend_from_slice(b"\r\n");
    v.extend_from_slice(OK_TAIL);
    v
}

#[test]
fn parses_status_reason_and_headers_in_order() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nServer: x\r\nX-Case: MiXeD\r\nContent-Length: 2\r\n\r\nhi");
    let (h, framing) = head(&evs);
    assert_eq!(h.version, Version::Http11);
    assert_eq!(h.status, 200);
    assert_eq!(h.reason, b"OK");
    let names: Vec<&[u8]> = h.headers.iter().map(|(n, _)| n).collect();
    assert_eq!(names, vec![&b"Server"[..], b"X-Case", b"Content-Length"]);
    assert_eq!(h.headers.get("x-case"), Some(&b"MiXeD"[..]));
    assert_eq!(framing, BodyFraming::Length(2));
    assert_eq!(body(&evs), b"hi");
}

#[test]
fn reason_may_be_empty_or_missing() {
    for line in [&b"HTTP/1.1 204 "[..], b"HTTP/1.1 204"] {
        let (h, _) = head(&ok(&with_status(line)));
        assert_eq!(h.status, 204);
        assert!(h.reason.is_empty());
    }
}

#[test]
fn reason_with_spaces_and_obs_text() {
    let (h, _) = head(&ok(&with_status(b"HTTP/1.1 404 Not \xe9 Found")));
    assert_eq!(h.reason, b"Not \xe9 Found");
}

#[test]
fn http10_and_higher_minor() {
    let (h, _) = head(&ok(&with_status(b"HTTP/1.0 200 OK")));
    assert_eq!(h.version, Version::Http10);
    let (h, _) = head(&ok(&with_status(b"HTTP/1.2 200 OK")));
    assert_eq!(h.version, Version::Http11);
}

#[test]
fn rejects_http2_and_http09_versions() {
    assert_eq!(
        err(&with_status(b"HTTP/2.0 200 OK")),
        Error::UnsupportedVersion
    );
    assert_eq!(
        err(&with_status(b"HTTP/2 200 OK")),
        Error::UnsupportedVersion
    );
}

#[test]
fn rejects_garbage_status_lines() {
    for line in [
        &b"HTTP/1.1 20 OK"[..],
        b"HTTP/1.1 2000 OK",
        b"HTTP/1.1 abc OK",
        b"HTTP/1.1  200 OK",
        b"HTTP/1.1 099 Low",
        b"HTTP/1.1 600 High",
        b"HTTP/1.1\t200 OK",
        b"HTTP/1.1",
        b"HTTP/x.1 200 OK",
        b"http/1.1 200 OK",
        b"ICY 200 OK",
    ] {
        assert_eq!(err(&with_status(line)), Error::BadStatusLine, "{line:?}");
    }
}

#[test]
fn rejects_non_http_bytes_early() {
    // A TLS alert on a plain port: refused at the first byte, without waiting for a line end.
    let mut dec = burrow_h1::ResponseDecoder::default();
    dec.expect_response(get());
    dec.receive(&[0x15, 0x03, 0x01]);
    assert_eq!(dec.next_event(), Err(Error::BadStatusLine));
}

#[test]
fn rejects_control_byte_in_reason() {
    assert_eq!(
        err(&with_status(b"HTTP/1.1 200 O\x00K")),
        Error::BadHeaderValue
    );
    assert_eq!(
        err(&with_status(b"HTTP/1.1 200 O\x7fK")),
        Error::BadHeaderValue
    );
}

#[test]
fn rejects_obs_fold() {
    let e = err(b"HTTP/1.1 200 OK\r\nX-A: 1\r\n  continued\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(e, Error::ObsFold);
    let e = err(b"HTTP/1.1 200 OK\r\nX-A: 1\r\n\tcontinued\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(e, Error::ObsFold);
}

#[test]
fn rejects_whitespace_before_first_header() {
    assert_eq!(err(b"HTTP/1.1 200 OK\r\n X-A: 1\r\n\r\n"), Error::ObsFold);
}

/// RFC 9112 §2.2: a recipient may accept a bare LF as a line terminator, and mainstream
/// clients do: in the status line, in field lines and as the empty line, mixed with CRLF, under
/// every chunking, through both decoders.
#[test]
fn accepts_bare_lf_line_ends_in_the_head() {
    for input in [
        &b"HTTP/1.1 200 OK\nContent-Length: 2\r\n\r\nhi"[..],
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\n\r\nhi",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\nhi",
        b"HTTP/1.1 200 OK\nServer: x\nContent-Length: 2\n\nhi",
        b"HTTP/1.1 200\nContent-Length: 2\n\nhi",
    ] {
        let evs = all_chunkings(input, &[get()], Eof::Clean);
        assert!(error_of(&evs).is_none(), "{input:?}: {evs:?}");
        let (h, framing) = head(&evs);
        assert_eq!(h.status, 200);
        assert_eq!(framing, BodyFraming::Length(2));
        assert_eq!(h.headers.get("content-length"), Some(&b"2"[..]));
        assert_eq!(body(&evs), b"hi", "{input:?}");
        let (ph, n) = parse_response_head(input, &Limits::default())
            .unwrap()
            .unwrap();
        assert_eq!((ph, n), (h, input.len() - 2));
    }
    // An interim response and a close-delimited body with bare LFs.
    let evs = all_chunkings(
        b"HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\nX: y\n\nrest",
        &[get()],
        Eof::Clean,
    );
    assert!(error_of(&evs).is_none(), "{evs:?}");
    assert_eq!(body(&evs), b"rest");
}

/// A bare CR is still refused, and a head that is only a status line is still not a head.
#[test]
fn bare_cr_still_refused_next_to_bare_lf() {
    assert_eq!(err(b"HTTP/1.1 200 OK\nX: a\rb\n\n"), Error::BareCr);
    assert_eq!(err(b"HTTP/1.1 200 OK\r\r\n\n"), Error::BareCr);
    assert_eq!(err(b"HTTP/1.1 200 OK\nX: y\r\r\n\n"), Error::BareCr);
}

#[test]
fn rejects_bare_cr() {
    assert_eq!(err(b"HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n"), Error::BareCr);
    assert_eq!(err(b"HTTP/1.1 200\rOK\r\n\r\n"), Error::BareCr);
}

#[test]
fn rejects_space_before_colon() {
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello"),
        Error::BadHeaderName
    );
}

#[test]
fn rejects_line_without_colon() {
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nNoColonHere\r\n\r\n"),
        Error::BadHeaderName
    );
}

#[test]
fn rejects_empty_and_non_token_names() {
    assert_eq!(err(b"HTTP/1.1 200 OK\r\n: v\r\n\r\n"), Error::BadHeaderName);
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nX(A): v\r\n\r\n"),
        Error::BadHeaderName
    );
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nX\xc3\xa9: v\r\n\r\n"),
        Error::BadHeaderName
    );
}

#[test]
fn rejects_nul_and_controls_in_values() {
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\n\r\n"),
        Error::BadHeaderValue
    );
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nX-A: a\x1bb\r\n\r\n"),
        Error::BadHeaderValue
    );
}

#[test]
fn values_are_trimmed_and_may_be_empty() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nX-A:\t a b \t\r\nX-Empty:\r\nContent-Length: 0\r\n\r\n");
    let (h, _) = head(&evs);
    assert_eq!(h.headers.get("x-a"), Some(&b"a b"[..]));
    assert_eq!(h.headers.get("x-empty"), Some(&b""[..]));
}

#[test]
fn head_size_limit_is_enforced() {
    let limits = Limits {
        max_head_bytes: 100,
        ..Limits::default()
    };
    let mut big = b"HTTP/1.1 200 OK\r\nX-Pad: ".to_vec();
    big.extend(std::iter::repeat_n(b'a', 200));
    big.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n");
    let evs = run_buffered(&[&big], &[get()], limits);
    assert_eq!(error_of(&evs), Some(Error::HeadersTooLarge { limit: 100 }));
    // Exactly at the limit passes.
    let exact = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    let limits = Limits {
        max_head_bytes: exact.len(),
        ..Limits::default()
    };
    let evs = run_buffered(&[exact], &[get()], limits);
    assert_eq!(error_of(&evs), None, "{evs:?}");
    let limits = Limits {
        max_head_bytes: exact.len() - 1,
        ..Limits::default()
    };
    let evs = run_buffered(&[exact], &[get()], limits);
    assert!(matches!(
        error_of(&evs),
        Some(Error::HeadersTooLarge { .. })
    ));
}

#[test]
fn header_count_limit_is_enforced() {
    let limits = Limits {
        max_headers: 3,
        ..Limits::default()
    };
    let three = b"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(error_of(&run_buffered(&[three], &[get()], limits)), None);
    let four = b"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(
        error_of(&run_buffered(&[four], &[get()], limits)),
        Some(Error::TooManyHeaders { limit: 3 })
    );
}

#[test]
fn pure_parser_matches_and_reports_partial() {
    let input = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc";
    let head_len = input.len() - 3;
    for cut in 0..head_len {
        assert_eq!(
            parse_response_head(&input[..cut], &Limits::default()),
            Ok(None),
            "{cut}"
        );
    }
    let (h, n) = parse_response_head(input, &Limits::default())
        .unwrap()
        .unwrap();
    assert_eq!(n, head_len);
    assert_eq!(h.status, 200);
    assert_eq!(
        parse_response_head(b"HTTP/1.1 200 OK\r\nX: a\0\r\n\r\n", &Limits::default()),
        Err(Error::BadHeaderValue)
    );
}

#[test]
fn error_codes_and_messages() {
    assert_eq!(Error::BadStatusLine.code(), "H1_PROTOCOL");
    assert_eq!(
        Error::HeadersTooLarge { limit: 1 }.code(),
        "H1_HEADERS_TOO_LARGE"
    );
    assert_eq!(
        Error::TooManyHeaders { limit: 1 }.code(),
        "H1_HEADERS_TOO_LARGE"
    );
    assert_eq!(
        Error::TransferEncodingWithContentLength.code(),
        "H1_SMUGGLING"
    );
    assert_eq!(Error::ChunkSizeOverflow.code(), "H1_CHUNKED");
    assert_eq!(Error::InvalidHeaderValue.code(), "H1_INVALID_REQUEST");
    assert!(Error::HeadersTooLarge { limit: 65536 }
        .to_string()
        .contains("max_head_bytes"));
    assert!(Error::InvalidHeaderValue.is_caller_error());
    assert!(!Error::BareLf.is_caller_error());
}
