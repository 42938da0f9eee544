//! Body framing (RFC 9112 §6.3) and connection persistence, each rule with its own test.
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

use burrow_h1::{BodyFraming, Error, Limits, RequestInfo, Stage};
use common::*;

fn framing_of(evs: &[Ev]) -> BodyFraming {
    head(evs).1
}

fn end_of(evs: &[Ev]) -> Option<bool> {
    evs.iter().find_map(|e| match e {
        Ev::End(k) => Some(*k),
        _ => None,
    })
}

#[test]
fn content_length_body() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
    assert_eq!(framing_of(&evs), BodyFraming::Length(5));
    assert_eq!(body(&evs), b"hello");
    assert_eq!(end_of(&evs), Some(true));
}

#[test]
fn content_length_zero() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(framing_of(&evs), BodyFraming::Length(0));
    assert_eq!(body(&evs), b"");
    assert_eq!(end_of(&evs), Some(true));
}

#[test]
fn identical_duplicate_content_lengths_accepted() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc");
    assert_eq!(framing_of(&evs), BodyFraming::Length(3));
    let evs = ok(b"HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc");
    assert_eq!(framing_of(&evs), BodyFraming::Length(3));
}

#[test]
fn conflicting_content_lengths_rejected() {
    let e = err(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd");
    assert_eq!(e, Error::ConflictingContentLength);
    assert_eq!(e.code(), "H1_SMUGGLING");
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nContent-Length: 3,4\r\n\r\nabcd"),
        Error::ConflictingContentLength
    );
}

#[test]
fn invalid_content_length_rejected() {
    for v in [
        &b"-1"[..],
        b"+5",
        b"0x10",
        b"5 5",
        b"",
        b"abc",
        b"18446744073709551616",
        b"3,",
    ] {
        let mut r = b"HTTP/1.1 200 OK\r\nContent-Length: ".to_vec();
        r.extend_from_slice(v);
        r.extend_from_slice(b"\r\n\r\n");
        assert_eq!(err(&r), Error::BadContentLength, "{v:?}");
    }
}

#[test]
fn transfer_encoding_with_content_length_rejected() {
    let e = err(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    assert_eq!(e, Error::TransferEncodingWithContentLength);
    assert_eq!(e.code(), "H1_SMUGGLING");
}

#[test]
fn transfer_encoding_in_http10_rejected() {
    let e = err(b"HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    assert_eq!(e, Error::TransferEncodingInHttp10);
}

#[test]
fn transfer_codings_other_than_chunked_rejected() {
    for te in [
        &b"gzip"[..],
        b"gzip, chunked",
        b"chunked, gzip",
        b"chunked, chunked",
        b"identity",
        b"chunked;q=1",
        b"",
    ] {
        let mut r = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: ".to_vec();
        r.extend_from_slice(te);
        r.extend_from_slice(b"\r\n\r\n0\r\n\r\n");
        assert_eq!(err(&r), Error::UnsupportedTransferEncoding, "{te:?}");
    }
    // Split over two fields, still two codings.
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"),
        Error::UnsupportedTransferEncoding
    );
}

#[test]
fn chunked_is_case_insensitive() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nTransfer-Encoding:  Chunked \r\n\r\n3\r\nabc\r\n0\r\n\r\n");
    assert_eq!(framing_of(&evs), BodyFraming::Chunked);
    assert_eq!(body(&evs), b"abc");
}

#[test]
fn close_delimited_body_ends_at_eof() {
    let evs = ok(b"HTTP/1.1 200 OK\r\n\r\nuntil the end");
    assert_eq!(framing_of(&evs), BodyFraming::CloseDelimited);
    assert_eq!(body(&evs), b"until the end");
    assert_eq!(end_of(&evs), Some(false));
    assert_eq!(evs.last(), Some(&Ev::Closed));
}

/// RFC 9112 §9.8: a close-delimited body ended by a close that was not authenticated (TLS
/// without close_notify) may be truncated: it fails with its own code, under every chunking,
/// after the bytes that did arrive.
#[test]
fn close_delimited_body_without_authenticated_close_fails() {
    let input = b"HTTP/1.1 200 OK\r\nServer: x\r\n\r\nuntil the end";
    let evs = all_chunkings(input, &[get()], Eof::Unauthenticated);
    assert_eq!(framing_of(&evs), BodyFraming::CloseDelimited);
    assert_eq!(body(&evs), b"until the end");
    assert_eq!(end_of(&evs), None, "never reported complete: {evs:?}");
    assert_eq!(evs.last(), Some(&Ev::Error(Error::UnauthenticatedClose)));
    assert_eq!(Error::UnauthenticatedClose.code(), "BODY_TRUNCATED");
    // An empty close-delimited body is no different.
    let evs = all_chunkings(b"HTTP/1.0 200 OK\r\n\r\n", &[get()], Eof::Unauthenticated);
    assert_eq!(error_of(&evs), Some(Error::UnauthenticatedClose));
    // The same bytes with an authenticated close are complete.
    let evs = all_chunkings(input, &[get()], Eof::Clean);
    assert_eq!(body(&evs), b"until the end");
    assert_eq!(end_of(&evs), Some(false));
}

/// Self-delimited bodies are judged by their framing, whatever the close: complete ones stay
/// complete, cut ones stay `H1_INCOMPLETE`.
#[test]
fn unauthenticated_close_after_framed_bodies() {
    for input in [
        &b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"[..],
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        b"HTTP/1.1 204 No Content\r\n\r\n",
    ] {
        let evs = all_chunkings(input, &[get()], Eof::Unauthenticated);
        assert!(error_of(&evs).is_none(), "{evs:?}");
        assert!(end_of(&evs).is_some(), "{evs:?}");
    }
    let evs = all_chunkings(
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
        &[get()],
        Eof::Unauthenticated,
    );
    assert_eq!(
        error_of(&evs),
        Some(Error::Truncated { stage: Stage::Body })
    );
    let evs = all_chunkings(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
        &[get()],
        Eof::Unauthenticated,
    );
    assert_eq!(
        error_of(&evs),
        Some(Error::Truncated {
            stage: Stage::Chunked
        })
    );
}

#[test]
fn head_response_has_no_body() {
    let req = RequestInfo::for_method("HEAD");
    // The pipelined second response proves no body bytes were taken from the first.
    let input =
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";
    let evs = whole(input, &[req, get()]);
    assert_eq!(framing_of(&evs), BodyFraming::None);
    assert_eq!(
        evs.iter().filter(|e| matches!(e, Ev::End(true))).count(),
        2,
        "{evs:?}"
    );
    assert_eq!(body(&evs), b"hi");
    // HEAD with a chunked header: still no body.
    let evs = whole(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
        &[req],
    );
    assert_eq!(framing_of(&evs), BodyFraming::None);
    assert_eq!(end_of(&evs), Some(true));
}

#[test]
fn status_204_and_304_have_no_body() {
    for status in [&b"204 No Content"[..], b"304 Not Modified"] {
        let mut r = b"HTTP/1.1 ".to_vec();
        r.extend_from_slice(status);
        r.extend_from_slice(b"\r\nContent-Length: 10\r\n\r\n");
        let evs = ok(&r);
        assert_eq!(framing_of(&evs), BodyFraming::None);
        assert_eq!(end_of(&evs), Some(true));
    }
}

#[test]
fn interim_responses_are_surfaced_before_the_final_one() {
    let evs = ok(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    assert!(matches!(&evs[0], Ev::Interim(h) if h.status == 100));
    assert!(
        matches!(&evs[1], Ev::Interim(h) if h.status == 103 && h.headers.get("link").is_some())
    );
    assert!(matches!(&evs[2], Ev::Head(h, _) if h.status == 200));
    assert_eq!(body(&evs), b"ok");
}

#[test]
fn too_many_interim_responses_rejected() {
    let mut r = Vec::new();
    for _ in 0..17 {
        r.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    r.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(err(&r), Error::TooManyInterim { limit: 16 });
}

#[test]
fn unsolicited_101_rejected() {
    assert_eq!(
        err(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"),
        Error::UnsolicitedUpgrade
    );
}

#[test]
fn connect_2xx_becomes_a_tunnel() {
    let mut dec = burrow_h1::ResponseDecoder::default();
    dec.expect_response(RequestInfo::for_method("CONNECT"));
    dec.receive(b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01tls bytes");
    assert!(matches!(
        dec.next_event(),
        Ok(burrow_h1::Next::Head {
            framing: BodyFraming::Tunnel,
            ..
        })
    ));
    assert_eq!(
        dec.next_event(),
        Ok(burrow_h1::Next::End { keep_alive: false })
    );
    assert_eq!(dec.next_event(), Ok(burrow_h1::Next::Closed));
    assert_eq!(dec.take_buffered(), b"\x16\x03\x01tls bytes");
}

#[test]
fn connect_refused_has_a_body() {
    let evs = whole(
        b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 4\r\n\r\ndeny",
        &[RequestInfo::for_method("CONNECT")],
    );
    assert_eq!(framing_of(&evs), BodyFraming::Length(4));
    assert_eq!(body(&evs), b"deny");
}

#[test]
fn keep_alive_http11_default() {
    assert_eq!(
        end_of(&ok(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")),
        Some(true)
    );
}

#[test]
fn keep_alive_http11_connection_close() {
    let evs = ok(b"HTTP/1.1 200 OK\r\nConnection: Upgrade, CLOSE\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(end_of(&evs), Some(false));
    assert_eq!(evs.last(), Some(&Ev::Closed));
}

#[test]
fn keep_alive_http10_default_close() {
    assert_eq!(
        end_of(&ok(b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")),
        Some(false)
    );
}

#[test]
fn keep_alive_http10_with_keep_alive_token() {
    let evs = ok(b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(end_of(&evs), Some(true));
    // ... but not when the body is close-delimited.
    let evs = ok(b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\nbody");
    assert_eq!(end_of(&evs), Some(false));
}

#[test]
fn keep_alive_false_when_request_asked_to_close() {
    let req = RequestInfo::for_method("GET").with_close(true);
    let evs = whole(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", &[req]);
    assert_eq!(end_of(&evs), Some(false));
}

#[test]
fn pipelined_responses_in_order() {
    let simple = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\noneHTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n";
    let evs = whole(simple, &[get(), get()]);
    let statuses: Vec<u16> = evs
        .iter()
        .filter_map(|e| match e {
            Ev::Head(h, _) => Some(h.status),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, vec![200, 404]);
    assert_eq!(evs.iter().filter(|e| matches!(e, Ev::End(true))).count(), 2);
    assert_eq!(evs.last(), Some(&Ev::Closed));
}

#[test]
fn no_response_after_connection_close() {
    // A second response after `Connection: close` is not read, even if a request is pending.
    let input = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\naHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb";
    let evs = whole(input, &[get(), get()]);
    assert_eq!(body(&evs), b"a");
    assert_eq!(evs.last(), Some(&Ev::Closed));
}

#[test]
fn truncated_content_length_body() {
    let e = err(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
    assert_eq!(e, Error::Truncated { stage: Stage::Body });
    assert_eq!(e.code(), "H1_INCOMPLETE");
}

#[test]
fn truncated_head() {
    assert_eq!(
        err(b"HTTP/1.1 200 OK\r\nContent-Len"),
        Error::Truncated { stage: Stage::Head }
    );
}

#[test]
fn closed_before_response() {
    let evs = run_buffered(&[], &[get()], Limits::default());
    assert_eq!(error_of(&evs), Some(Error::ClosedBeforeResponse));
}

#[test]
fn unsolicited_bytes_rejected() {
    let evs = run_buffered(&[b"HTTP/1.1 200 OK\r\n\r\n"], &[], Limits::default());
    assert_eq!(error_of(&evs), Some(Error::UnsolicitedData));
    // After a complete keep-alive response with nothing outstanding.
    let evs = whole(
        b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n",
        &[get()],
    );
    assert_eq!(error_of(&evs), Some(Error::UnsolicitedData));
}

#[test]
fn errors_are_sticky() {
    let mut dec = burrow_h1::ResponseDecoder::default();
    dec.expect_response(get());
    dec.receive(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
    assert_eq!(dec.next_event(), Err(Error::ConflictingContentLength));
    dec.receive(b"more");
    assert_eq!(dec.next_event(), Err(Error::ConflictingContentLength));
}
