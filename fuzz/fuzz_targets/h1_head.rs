//! Fuzz the HTTP/1.1 response head parser and the streaming response decoder.
//!
//! Invariants: no panic; the pure parser reports a head no longer than its input and parses the
//! same head from that exact prefix; the streaming decoder gives the same events whether the
//! input arrives whole or split at a point chosen by the first byte, and never hands out more
//! body bytes than it was given.
#![no_main]

use burrow_h1::{parse_response_head, Limits, Next, RequestInfo, ResponseDecoder};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, PartialEq)]
enum Ev {
    Head(u16, Vec<(Vec<u8>, Vec<u8>)>),
    Data(Vec<u8>),
    Trailers(usize),
    End(bool),
    Closed,
    Err(&'static str),
}

fn run(pieces: &[&[u8]], method: &str) -> Vec<Ev> {
    let limits = Limits {
        max_head_bytes: 4096,
        max_headers: 32,
        ..Limits::default()
    };
    let mut dec = ResponseDecoder::new(limits);
    dec.expect_response(RequestInfo::for_method(method));
    dec.expect_response(RequestInfo::for_method("GET"));
    let mut out: Vec<Ev> = Vec::new();
    let mut eof_sent = false;
    let mut i = 0;
    loop {
        match dec.next_event() {
            Ok(Next::NeedData) => {
                if let Some(p) = pieces.get(i) {
                    dec.receive(p);
                    i += 1;
                } else if !eof_sent {
                    dec.receive_eof();
                    eof_sent = true;
                } else {
                    panic!("NeedData after EOF");
                }
            }
            Ok(Next::Interim(h)) | Ok(Next::Head { head: h, .. }) => out.push(Ev::Head(
                h.status,
                h.headers
                    .iter()
                    .map(|(n, v)| (n.to_vec(), v.to_vec()))
                    .collect(),
            )),
            Ok(Next::Data(d)) => {
                assert!(!d.is_empty());
                if let Some(Ev::Data(prev)) = out.last_mut() {
                    prev.extend_from_slice(d);
                } else {
                    out.push(Ev::Data(d.to_vec()));
                }
            }
            Ok(Next::Trailers(t)) => out.push(Ev::Trailers(t.len())),
            Ok(Next::End { keep_alive }) => out.push(Ev::End(keep_alive)),
            Ok(Next::Closed) => {
                out.push(Ev::Closed);
                return out;
            }
            Ok(_) => return out,
            Err(e) => {
                out.push(Ev::Err(e.code()));
                return out;
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits::default();
    if let Ok(Some((head, n))) = parse_response_head(data, &limits) {
        assert!(n <= data.len());
        assert!((100..=599).contains(&head.status));
        let again = parse_response_head(&data[..n], &limits);
        assert_eq!(again, Ok(Some((head, n))));
    }

    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let method = if first & 0x80 != 0 { "HEAD" } else { "GET" };
    let whole = run(&[rest], method);
    let cut = usize::from(first).min(rest.len());
    let (a, b) = rest.split_at(cut);
    let split = run(&[a, b], method);
    assert_eq!(whole, split);
    let body: usize = whole
        .iter()
        .map(|e| match e {
            Ev::Data(d) => d.len(),
            _ => 0,
        })
        .sum();
    assert!(body <= rest.len());
});
