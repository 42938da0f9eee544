//! The request encoder: exact bytes, caller's order and case, typed refusals.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h1::{encode_chunk, encode_last_chunk, BodyKind, Error, RequestHead, Target};

fn enc(r: &RequestHead<'_>, body: BodyKind) -> Result<String, Error> {
    let mut out = b"prefix|".to_vec();
    match r.encode(body, &mut out) {
        Ok(_) => Ok(String::from_utf8(out[7..].to_vec()).unwrap()),
        Err(e) => {
            assert_eq!(out, b"prefix|", "nothing may be written on error");
            Err(e)
        }
    }
}

#[test]
fn get_origin_form_with_host_first() {
    let r = RequestHead::new("GET", Target::Origin("/a?b=c"), "example.com")
        .header("User-Agent", "burrow")
        .header("accept", "*/*");
    assert_eq!(
        enc(&r, BodyKind::None).unwrap(),
        "GET /a?b=c HTTP/1.1\r\nHost: example.com\r\nUser-Agent: burrow\r\naccept: */*\r\n\r\n"
    );
}

#[test]
fn caller_host_keeps_its_position_and_case() {
    let r = RequestHead::new("GET", Target::Origin("/"), "ignored")
        .header("Accept", "*/*")
        .header("hOsT", "example.com:8443");
    assert_eq!(
        enc(&r, BodyKind::None).unwrap(),
        "GET / HTTP/1.1\r\nAccept: */*\r\nhOsT: example.com:8443\r\n\r\n"
    );
}

#[test]
fn duplicate_headers_are_kept() {
    let r = RequestHead::new("GET", Target::Origin("/"), "h")
        .header("Cookie", "a=1")
        .header("Cookie", "b=2");
    assert_eq!(
        enc(&r, BodyKind::None).unwrap(),
        "GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1\r\nCookie: b=2\r\n\r\n"
    );
}

#[test]
fn absolute_form_for_proxies() {
    let r = RequestHead::new(
        "GET",
        Target::Absolute("http://example.com/x"),
        "example.com",
    );
    assert_eq!(
        enc(&r, BodyKind::None).unwrap(),
        "GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\n\r\n"
    );
}

#[test]
fn connect_authority_form() {
    let r = RequestHead::new(
        "CONNECT",
        Target::Authority("example.com:443"),
        "example.com:443",
    );
    let mut out = Vec::new();
    let info = r.encode(BodyKind::None, &mut out).unwrap();
    assert!(info.is_connect());
    assert_eq!(
        out,
        b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"
    );
    assert_eq!(
        r.encode(BodyKind::Length(1), &mut Vec::new()),
        Err(Error::BodyNotAllowed)
    );
}

#[test]
fn options_asterisk() {
    let r = RequestHead::new("OPTIONS", Target::Asterisk, "h");
    assert_eq!(
        enc(&r, BodyKind::None).unwrap(),
        "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n"
    );
    let r = RequestHead::new("GET", Target::Asterisk, "h");
    assert_eq!(enc(&r, BodyKind::None), Err(Error::InvalidTarget));
}

#[test]
fn content_length_body() {
    let r = RequestHead::new("POST", Target::Origin("/echo"), "h").header("Content-Type", "x/y");
    assert_eq!(
        enc(&r, BodyKind::Length(1048576)).unwrap(),
        "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Type: x/y\r\nContent-Length: 1048576\r\n\r\n"
    );
}

#[test]
fn chunked_body_and_trailers() {
    let r = RequestHead::new("PUT", Target::Origin("/u"), "h");
    let mut out = Vec::new();
    r.encode(BodyKind::Chunked, &mut out).unwrap();
    encode_chunk(b"hello world", &mut out);
    encode_chunk(b"", &mut out); // writes nothing
    encode_chunk(&[b'x'; 300], &mut out);
    encode_last_chunk(&[(b"X-Sum", b"42")], &mut out).unwrap();
    let mut want =
        b"PUT /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nb\r\nhello world\r\n12c\r\n"
            .to_vec();
    want.extend_from_slice(&[b'x'; 300]);
    want.extend_from_slice(b"\r\n0\r\nX-Sum: 42\r\n\r\n");
    assert_eq!(out, want);
}

#[test]
fn last_chunk_rejects_bad_trailers() {
    let mut out = Vec::new();
    assert_eq!(
        encode_last_chunk(&[(b"X-A", b"1\r\nEvil: 1")], &mut out),
        Err(Error::InvalidHeaderValue)
    );
    assert_eq!(
        encode_last_chunk(&[(b"X A", b"1")], &mut out),
        Err(Error::InvalidHeaderName)
    );
    assert!(out.is_empty());
}

#[test]
fn request_info_reflects_method_and_close() {
    let mut out = Vec::new();
    let info = RequestHead::new("HEAD", Target::Origin("/"), "h")
        .encode(BodyKind::None, &mut out)
        .unwrap();
    assert!(info.is_head() && !info.is_close());
    let info = RequestHead::new("GET", Target::Origin("/"), "h")
        .header("Connection", "keep-alive, Close")
        .encode(BodyKind::None, &mut out)
        .unwrap();
    assert!(info.is_close());
}

#[test]
fn rejects_crlf_in_header_value() {
    let r = RequestHead::new("GET", Target::Origin("/"), "h").header("X-A", "a\r\nEvil: 1");
    let e = enc(&r, BodyKind::None).unwrap_err();
    assert_eq!(e, Error::InvalidHeaderValue);
    assert_eq!(e.code(), "H1_INVALID_REQUEST");
}

#[test]
fn rejects_lone_lf_cr_and_nul_in_header_value() {
    for v in ["a\nb", "a\rb", "a\0b", "a\x7fb"] {
        let r = RequestHead::new("GET", Target::Origin("/"), "h").header("X-A", v);
        assert_eq!(
            enc(&r, BodyKind::None),
            Err(Error::InvalidHeaderValue),
            "{v:?}"
        );
    }
}

#[test]
fn rejects_bad_header_names() {
    for n in ["", "X A", "X:A", "X\r\nA", "X\0"] {
        let r = RequestHead::new("GET", Target::Origin("/"), "h").header(n, "v");
        assert_eq!(
            enc(&r, BodyKind::None),
            Err(Error::InvalidHeaderName),
            "{n:?}"
        );
    }
}

#[test]
fn rejects_bad_methods() {
    for m in ["", "GE T", "GET\r\n", "G\0"] {
        let r = RequestHead::new(m, Target::Origin("/"), "h");
        assert_eq!(enc(&r, BodyKind::None), Err(Error::InvalidMethod), "{m:?}");
    }
}

#[test]
fn rejects_bad_targets() {
    for t in [
        Target::Origin(""),
        Target::Origin("a"),
        Target::Origin("/a b"),
        Target::Origin("/a\r\nHost: evil"),
        Target::Origin("/\0"),
        Target::Origin("/é"),
        Target::Absolute("example.com/x"),
        Target::Authority("h:443"), // GET cannot use authority-form
    ] {
        let r = RequestHead::new("GET", t, "h");
        assert_eq!(enc(&r, BodyKind::None), Err(Error::InvalidTarget), "{t:?}");
    }
}

#[test]
fn rejects_bad_host() {
    let r = RequestHead::new("GET", Target::Origin("/"), "h\r\nX: y");
    assert_eq!(enc(&r, BodyKind::None), Err(Error::InvalidHeaderValue));
}

#[test]
fn rejects_caller_framing_headers() {
    for n in ["Content-Length", "transfer-encoding"] {
        let r = RequestHead::new("POST", Target::Origin("/"), "h").header(n, "5");
        assert_eq!(
            enc(&r, BodyKind::Length(5)),
            Err(Error::FramingHeaderSet),
            "{n}"
        );
    }
}

#[test]
fn header_bytes_allow_obs_text() {
    let r = RequestHead::new("GET", Target::Origin("/"), "h").header_bytes(b"X-A", b"caf\xe9");
    let mut out = Vec::new();
    r.encode(BodyKind::None, &mut out).unwrap();
    assert!(out.windows(10).any(|w| w == b"X-A: caf\xe9\r"));
}
