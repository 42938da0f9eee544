//! Fuzz the SOCKS5 reply parser (burrow-proxy).
//!
//! Invariants: no panic; the same outcome whether the reply arrives whole, split at a point
//! chosen by the first byte, or byte by byte; on success the tunnel bytes are exactly a suffix of
//! the input (nothing dropped, nothing invented).
#![no_main]

use burrow_proxy::socks5::Socks5Handshake;
use burrow_proxy::{Credentials, Handshake, Progress, Target};
use libfuzzer_sys::fuzz_target;

fn run(pieces: &[&[u8]], with_credentials: bool) -> Result<Vec<u8>, &'static str> {
    let credentials = Credentials {
        username: "u".into(),
        password: "p".into(),
    };
    let mut h = Socks5Handshake::new(
        &Target::Domain("example.com".into(), 443),
        with_credentials.then_some(&credentials),
    )
    .expect("a valid request");
    assert!(!h.take_transmit().is_empty());
    for (i, piece) in pieces.iter().enumerate() {
        match h.feed(piece) {
            Ok(Progress::NeedMore) => {
                let _ = h.take_transmit();
            }
            Ok(Progress::Done { mut leftover }) => {
                for later in &pieces[i + 1..] {
                    leftover.extend_from_slice(later);
                }
                return Ok(leftover);
            }
            Err(e) => {
                assert_eq!(h.feed(b"x").map_err(|e| e.code()), Err(e.code()));
                return Err(e.code());
            }
        }
    }
    Err(h.eof().code())
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let creds = first & 1 == 1;
    let whole = run(&[rest], creds);
    let cut = usize::from(first >> 1).min(rest.len());
    let (a, b) = rest.split_at(cut);
    assert_eq!(run(&[a, b], creds), whole);
    let bytes: Vec<&[u8]> = rest.chunks(1).collect();
    assert_eq!(run(&bytes, creds), whole);
    if let Ok(tunnel) = &whole {
        assert!(rest.ends_with(tunnel));
    }
});
