//! The built-in profiles against the captured ClientHellos in `$BURROW_VECTORS/clienthello`:
//! the JA4 code is first checked against the JA4/JA3 values the vectors folder gives for the
//! captures themselves, then burrow's hello for the capture's SNI and ALPN must have the
//! capture's JA4, JA4_o (after undoing Chromium's permutation), JA3 and JA3N, and the same
//! extensions with the same contents but for randomness, key shares, GREASE values and the
//! ECH GREASE payload.
#![cfg(not(target_arch = "wasm32"))]
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

use burrow_handshake::*;
use burrow_testkit::fingerprint::{self as fp, is_grease, ClientHello};
use common::server::{ext, msg, pump, Server, NOW};
use serde_json::Value;
use std::path::PathBuf;

/// One capture: its JSON summary and its ClientHello.
struct Capture {
    name: String,
    json: Value,
    hello: ClientHello,
}

fn captures() -> Option<Vec<Capture>> {
    let dir: PathBuf = burrow_testkit::vectors::dir("clienthello captures")?.join("clienthello");
    assert!(
        dir.is_dir(),
        "{} not found: the captured ClientHellos are needed",
        dir.display()
    );
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".json") || name.ends_with("-declared.json") {
            continue;
        }
        let json: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        let hex = std::fs::read_to_string(p.with_extension("hex")).unwrap();
        let hello = ClientHello::from_records(&burrow_testkit::hex::decode(hex.trim()));
        out.push(Capture { name, json, hello });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        out.len() >= 60,
        "expected the 64 captures, found {}",
        out.len()
    );
    Some(out)
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v["client_hello"][k]
        .as_str()
        .unwrap_or_else(|| panic!("{k} missing"))
}

#[test]
fn ja4_and_ja3_code_reproduces_every_capture() {
    let Some(caps) = captures() else { return };
    for c in &caps {
        let h = &c.hello;
        assert_eq!(fp::ja4(h), s(&c.json, "ja4"), "{} ja4", c.name);
        assert_eq!(fp::ja4_r(h), s(&c.json, "ja4_r"), "{} ja4_r", c.name);
        assert_eq!(fp::ja4_o(h), s(&c.json, "ja4_o"), "{} ja4_o", c.name);
        assert_eq!(fp::ja4_ro(h), s(&c.json, "ja4_ro"), "{} ja4_ro", c.name);
        let ja3 = fp::ja3_string(h, false);
        assert_eq!(ja3, s(&c.json, "ja3"), "{} ja3", c.name);
        assert_eq!(
            fp::md5_hex(ja3.as_bytes()),
            s(&c.json, "ja3_md5"),
            "{}",
            c.name
        );
        assert_eq!(
            fp::ja3_string(h, true),
            s(&c.json, "ja3n"),
            "{} ja3n",
            c.name
        );
    }
}

/// The built-in profile a capture's client corresponds to, with the capture's ALPN.
fn profile_for(c: &Capture) -> Option<Profile> {
    let client = c.json["client"].as_str().unwrap();
    let version = c.json["client_version"].as_str().unwrap();
    let mut p = match (client, version) {
        ("chromium" | "chromium_ip", "156.0.8078.108") => Profile::chrome(),
        ("curl_default" | "curl_http2" | "curl_http1.1", "7.88.1") => Profile::curl_7_88(),
        ("mirror-tunnelfetch_curl", "8.21.0") => Profile::curl(),
        _ => return None,
    };
    p.alpn = c.hello.alpn();
    Some(p)
}

/// burrow's first ClientHello for `profile` and `sni`, with pool bytes from `seed`.
fn hello(profile: Profile, sni: Option<&str>, seed: u64) -> ClientHello {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let pool: Vec<u8> = (0..Entropy::pool_len(&profile))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let entropy = Entropy::from_pool(&profile, &pool).unwrap();
    let mut c = Connection::new(Config::new(profile, sni), entropy, NOW).unwrap();
    ClientHello::from_records(&c.take_transmit())
}

fn norm(v: &[u16]) -> Vec<u16> {
    v.iter()
        .map(|x| if is_grease(*x) { 0x0a0a } else { *x })
        .collect()
}

/// Same extension contents but for randomness, key shares, GREASE values and ECH payload.
fn same_contents(name: &str, mine: &ClientHello, cap: &ClientHello) {
    assert_eq!(mine.legacy_version, cap.legacy_version, "{name}");
    assert_eq!(
        mine.session_id.len(),
        cap.session_id.len(),
        "{name} session id"
    );
    assert_eq!(
        norm(&mine.cipher_suites),
        norm(&cap.cipher_suites),
        "{name} suites"
    );
    let mt: Vec<u16> = norm(&mine.extension_types());
    let ct: Vec<u16> = norm(&cap.extension_types());
    assert_eq!(mt, ct, "{name} extension order");
    for ((t, mb), (_, cb)) in mine.extensions.iter().zip(&cap.extensions) {
        match *t {
            t if is_grease(t) => assert_eq!(mb, cb, "{name} GREASE extension body"),
            10 => assert_eq!(norm(&mine.groups()), norm(&cap.groups()), "{name} groups"),
            13 => assert_eq!(
                norm(&mine.signature_algorithms()),
                norm(&cap.signature_algorithms()),
                "{name} sigalgs"
            ),
            43 => assert_eq!(
                norm(&mine.supported_versions()),
                norm(&cap.supported_versions()),
                "{name} versions"
            ),
            51 => {
                let k = |h: &ClientHello| -> Vec<(u16, usize)> {
                    h.key_shares()
                        .into_iter()
                        .map(|(g, n)| (if is_grease(g) { 0x0a0a } else { g }, n))
                        .collect()
                };
                assert_eq!(k(mine), k(cap), "{name} key shares");
                // The GREASE share is one 0x00 byte.
                if is_grease(mine.key_shares()[0].0) {
                    assert_eq!(&mb[2..7], &[mb[2], mb[3], 0, 1, 0], "{name}");
                }
            }
            0xfe0d => {
                // outer, HKDF-SHA256, AES-128-GCM, config id, 32-byte enc, payload.
                assert_eq!(&mb[..5], &cb[..5], "{name} ECH GREASE suite");
                assert_eq!(&mb[6..8], &[0, 32], "{name} ECH enc length");
                let pl = usize::from(u16::from_be_bytes([mb[40], mb[41]]));
                assert_eq!(pl + 42, mb.len(), "{name} ECH payload length");
                assert!(
                    [144, 176, 208, 240].contains(&pl),
                    "{name} ECH payload {pl}"
                );
            }
            21 => {
                assert_eq!(mb.len(), cb.len(), "{name} padding length");
                assert!(mb.iter().all(|b| *b == 0), "{name} padding zeros");
            }
            _ => assert_eq!(mb, cb, "{name} extension 0x{t:04x} body"),
        }
    }
}

#[test]
fn builtin_profiles_match_their_captures() {
    let Some(caps) = captures() else { return };
    let mut checked = 0;
    for (i, c) in caps.iter().enumerate() {
        let Some(p) = profile_for(c) else { continue };
        let permuted = p.permute_extensions;
        let sni = c.hello.server_name();
        let mine = hello(p, sni.as_deref(), i as u64);
        let name = &c.name;
        assert_eq!(fp::ja4(&mine), s(&c.json, "ja4"), "{name} JA4");
        assert_eq!(
            fp::ja3_string(&mine, true),
            s(&c.json, "ja3n"),
            "{name} JA3N"
        );
        // Undo the permutation: our extensions in the capture's order.
        let aligned = if permuted {
            mine.reordered_like(&c.hello.extension_types())
        } else {
            mine.clone()
        };
        assert_eq!(fp::ja4_o(&aligned), s(&c.json, "ja4_o"), "{name} JA4_o");
        assert_eq!(fp::ja4_ro(&aligned), s(&c.json, "ja4_ro"), "{name} JA4_ro");
        let ja3 = fp::ja3_string(&aligned, false);
        assert_eq!(ja3, s(&c.json, "ja3"), "{name} JA3");
        assert_eq!(fp::md5_hex(ja3.as_bytes()), s(&c.json, "ja3_md5"), "{name}");
        same_contents(name, &aligned, &c.hello);
        if !permuted {
            // Deterministic shape: even the record length matches.
            let rl = c.json["client_hello"]["records"][0]["length"]
                .as_u64()
                .unwrap();
            assert_eq!(mine_len(&mine), rl as usize, "{name} record length");
        }
        checked += 1;
    }
    // 24 + 6 Chromium, 18 curl 7.88, 1 curl 8.21.
    assert_eq!(checked, 49, "captures checked");
}

/// The handshake message length (= the single record's length) of a parsed hello.
fn mine_len(h: &ClientHello) -> usize {
    let exts: usize = h.extensions.iter().map(|e| 4 + e.1.len()).sum();
    4 + 2 + 32 + 1 + h.session_id.len() + 2 + 2 * h.cipher_suites.len() + 2 + 2 + exts
}

#[test]
fn by_name_knows_the_builtins() {
    assert_eq!(Profile::by_name("curl"), Some(Profile::curl()));
    assert_eq!(Profile::by_name("curl_7_88"), Some(Profile::curl_7_88()));
    assert_eq!(Profile::by_name("chrome"), Some(Profile::chrome()));
    assert_eq!(Profile::by_name("firefox"), None);
    for n in Profile::NAMES {
        let p = Profile::by_name(n).unwrap();
        p.validate().unwrap();
    }
}

#[test]
fn builtins_refuse_their_unperformable_offers_without_the_flag() {
    for (name, first) in [
        ("curl", Unperformable::CipherSuite(CipherSuite(0x009f))),
        ("curl_7_88", Unperformable::CipherSuite(CipherSuite(0x009f))),
        ("chrome", Unperformable::CipherSuite(CipherSuite(0xc013))),
    ] {
        let mut p = Profile::by_name(name).unwrap();
        p.allow_unperformable = false;
        let e = p.validate().unwrap_err();
        assert_eq!(e, Error::ProfileUnperformable(first), "{name}");
        assert_eq!(e.code(), "TLS_PROFILE_UNPERFORMABLE");
        assert!(e.to_string().contains("allow_unperformable"), "{e}");
        let pool = vec![1u8; Entropy::pool_len(&p)];
        let entropy = Entropy::from_pool(&p, &pool).unwrap();
        let r = Connection::new(Config::new(p, Some("example.test")), entropy, NOW);
        assert_eq!(r.unwrap_err(), Error::ProfileUnperformable(first));
    }
    // What chrome offers but cannot perform, named.
    let u = Profile::chrome().unperformable();
    assert!(u.contains(&Unperformable::SignatureScheme(SignatureScheme::MLDSA65)));
    assert!(u.contains(&Unperformable::CipherSuite(CipherSuite(0x002f))));
    let u = Profile::curl_7_88().unperformable();
    assert!(u.contains(&Unperformable::Group(NamedGroup::X448)));
    assert!(u.contains(&Unperformable::Version(0x0301)));
    assert!(Profile::default_web().unperformable().is_empty());
}

#[test]
fn chrome_permutation_is_fresh_and_always_valid() {
    let mut orders = std::collections::HashSet::new();
    for seed in 0..300u64 {
        let h = hello(Profile::chrome(), Some("example.test"), seed);
        let t = h.extension_types();
        assert!(is_grease(t[0]) && is_grease(*t.last().unwrap()), "{t:x?}");
        assert_ne!(t[0], *t.last().unwrap(), "two different GREASE extensions");
        assert_eq!(h.ext(t[0]).unwrap(), b"", "first GREASE empty");
        assert_eq!(
            h.ext(*t.last().unwrap()).unwrap(),
            [0],
            "last GREASE one byte"
        );
        assert_eq!(fp::ja4(&h), "t13d1517h2_8daaf6152771_cb7bf5808d99");
        orders.insert(t.into_iter().filter(|x| !is_grease(*x)).collect::<Vec<_>>());
    }
    assert!(orders.len() > 250, "only {} distinct orders", orders.len());
    // Deterministic under the same entropy.
    assert_eq!(
        hello(Profile::chrome(), Some("example.test"), 7),
        hello(Profile::chrome(), Some("example.test"), 7)
    );
}

/// A HelloRetryRequest (record) asking for `group`, from the scripted server.
fn hrr(srv: &Server, group: u16) -> Vec<u8> {
    let body = srv.server_hello_body(
        [
            0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65,
            0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2,
            0xc8, 0xa8, 0x33, 0x9c,
        ],
        0x1301,
        &[ext(43, &[3, 4]), ext(51, &group.to_be_bytes())],
    );
    let m = msg(2, &body);
    let mut rec = vec![22, 3, 3];
    rec.extend_from_slice(&(m.len() as u16).to_be_bytes());
    rec.extend(m);
    rec
}

fn client_for(p: Profile, seed: u8) -> (Connection, Vec<u8>) {
    let pool: Vec<u8> = (0..Entropy::pool_len(&p))
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect();
    let entropy = Entropy::from_pool(&p, &pool).unwrap();
    let mut c = Connection::new(Config::new(p, Some("example.test")), entropy, NOW).unwrap();
    let ch = c.take_transmit();
    (c, ch)
}

/// The second ClientHello record in what the client sent after an HRR (after its CCS).
fn second_hello(sent: &[u8]) -> ClientHello {
    let at = if sent[0] == 20 { 6 } else { 0 };
    ClientHello::from_records(&sent[at..])
}

#[test]
fn hello_retry_keeps_extension_set_order_and_grease() {
    for (name, seed) in [
        ("chrome", 1u8),
        ("chrome", 2),
        ("curl", 3),
        ("curl_7_88", 4),
    ] {
        let p = Profile::by_name(name).unwrap();
        let (mut c, ch) = client_for(p, seed);
        let first = ClientHello::from_records(&ch);
        let srv = Server::new(&ch);
        let (r, sent) = pump(&mut c, &hrr(&srv, 0x0017));
        r.unwrap();
        let second = second_hello(&sent);
        assert_eq!(
            first.extension_types(),
            second.extension_types(),
            "{name}: same extensions, same order, same GREASE types"
        );
        assert_eq!(first.cipher_suites, second.cipher_suites, "{name}");
        assert_eq!(first.groups(), second.groups(), "{name}");
        assert_eq!(
            first.ext(0xfe0d),
            second.ext(0xfe0d),
            "{name}: ECH GREASE repeated"
        );
        let shares: Vec<u16> = second.key_shares().iter().map(|k| k.0).collect();
        assert_eq!(shares, [0x0017], "{name}: only the requested share");
    }
}

#[test]
fn hello_retry_to_an_unperformable_group_is_named() {
    let (mut c, ch) = client_for(Profile::curl(), 5);
    let srv = Server::new(&ch);
    let (r, _) = pump(&mut c, &hrr(&srv, 0x001e));
    let e = r.unwrap_err();
    assert_eq!(
        e,
        Error::SelectedUnperformable(Unperformable::Group(NamedGroup::X448))
    );
    assert_eq!(e.code(), "TLS_SELECTED_UNPERFORMABLE");
    assert!(e.to_string().contains("group 0x001e"), "{e}");
}

#[test]
fn server_signing_with_ml_dsa_is_named() {
    let (mut c, ch) = client_for(Profile::chrome(), 6);
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cert = srv.certificate();
    let mut cv = vec![0x09, 0x05, 0x00, 0x04];
    cv.extend([1, 2, 3, 4]);
    bytes.extend(srv.flight(&[ee, cert, msg(15, &cv)]));
    let (r, _) = pump(&mut c, &bytes);
    let e = r.unwrap_err();
    assert_eq!(
        e,
        Error::SelectedUnperformable(Unperformable::SignatureScheme(SignatureScheme::MLDSA65))
    );
    assert!(e.to_string().contains("signature scheme 0x0905"), "{e}");
}

/// Chrome's profile with Ed25519 added, so the scripted server (an Ed25519 key) can sign.
fn chrome_ed25519() -> Profile {
    let mut p = Profile::chrome();
    p.signature_schemes.push(SignatureScheme::ED25519);
    p
}

/// (content type, plaintext) of each record the client sent.
type Records = Vec<(u8, Vec<u8>)>;

/// Runs the scripted server's flight with `ee` extensions; returns the result and what the
/// client sent.
fn handshake_with_ee(p: Profile, ee_exts: &[Vec<u8>]) -> (Result<Vec<Event>, Error>, Records) {
    let (mut c, ch) = client_for(p, 9);
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(ee_exts);
    let cert = srv.certificate();
    bytes.extend(srv.flight(&[ee, cert]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let (r, sent) = pump(&mut c, &bytes);
    let records = srv.open_client(&sent, &srv.client_hs);
    (r, records)
}

#[test]
fn alps_answer_gets_client_encrypted_extensions_before_finished() {
    let alpn = ext(16, &[0, 3, 2, b'h', b'2']);
    let alps = ext(0x44cd, &[0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00]);
    let (r, recs) = handshake_with_ee(chrome_ed25519(), &[alpn.clone(), alps.clone()]);
    let evs = r.unwrap();
    assert!(evs.iter().any(|e| matches!(e, Event::HandshakeDone(_))));
    let hs: Vec<&Vec<u8>> = recs.iter().filter(|r| r.0 == 22).map(|r| &r.1).collect();
    let flight = hs
        .iter()
        .flat_map(|v| v.iter().copied())
        .collect::<Vec<u8>>();
    // EncryptedExtensions { application_settings(0x44cd) = "" }, then Finished.
    assert_eq!(&flight[..10], &[8, 0, 0, 6, 0, 4, 0x44, 0xcd, 0, 0]);
    assert_eq!(flight[10], 20, "Finished follows");
    // Without the ALPS answer: no client EncryptedExtensions.
    let (r, recs) = handshake_with_ee(chrome_ed25519(), std::slice::from_ref(&alpn));
    r.unwrap();
    let first = recs.iter().find(|r| r.0 == 22).unwrap();
    assert_eq!(first.1[0], 20);
    // ALPS for a protocol that was not negotiated is refused.
    let (r, _) = handshake_with_ee(chrome_ed25519(), std::slice::from_ref(&alps));
    assert_eq!(r.unwrap_err(), Error::IllegalParameter);
    // A profile that did not offer ALPS refuses the extension.
    let _ = alpn;
    let (r, _) = handshake_with_ee(Profile::default_web(), &[alps]);
    assert_eq!(r.unwrap_err(), Error::UnsupportedExtension);
}

#[test]
fn ech_retry_configs_and_trust_anchors_in_ee_are_accepted_only_when_offered() {
    let ech = ext(0xfe0d, &[0, 4, 1, 2, 3, 4]);
    let tai = ext(0xca34, &[0, 4, 3, 1, 2, 3]);
    let (r, _) = handshake_with_ee(chrome_ed25519(), &[ech.clone(), tai.clone()]);
    assert!(r
        .unwrap()
        .iter()
        .any(|e| matches!(e, Event::HandshakeDone(_))));
    for e in [ech, tai] {
        let (r, _) = handshake_with_ee(Profile::default_web(), &[e]);
        assert_eq!(r.unwrap_err(), Error::UnsupportedExtension);
    }
}

/// The scripted server's Certificate message, compressed (RFC 8879) with `alg`.
fn compressed(srv: &Server, alg: u16, tamper: impl Fn(&mut u32, &mut Vec<u8>)) -> Vec<u8> {
    use std::io::Write;
    let cert = srv.certificate();
    let body = &cert[4..];
    let mut data = match alg {
        1 => {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(body).unwrap();
            z.finish().unwrap()
        }
        2 => {
            let mut out = Vec::new();
            let mut w = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
            w.write_all(body).unwrap();
            drop(w);
            out
        }
        _ => panic!("alg {alg}"),
    };
    let mut len = body.len() as u32;
    tamper(&mut len, &mut data);
    let mut b = alg.to_be_bytes().to_vec();
    b.extend_from_slice(&len.to_be_bytes()[1..]);
    b.extend_from_slice(&(data.len() as u32).to_be_bytes()[1..]);
    b.extend(data);
    msg(25, &b)
}

/// A handshake whose Certificate is `compressed(alg, tamper)`, fed in pieces of `chunk`.
fn compressed_handshake(
    p: Profile,
    alg: u16,
    chunk: usize,
    tamper: impl Fn(&mut u32, &mut Vec<u8>),
) -> Result<Vec<Event>, Error> {
    let (mut c, ch) = client_for(p, 11);
    let mut srv = Server::new(&ch);
    let mut bytes = srv.server_hello();
    let ee = Server::encrypted_extensions(&[]);
    let cc = compressed(&srv, alg, tamper);
    bytes.extend(srv.flight(&[ee, cc]));
    let cv = srv.certificate_verify(false);
    bytes.extend(srv.flight(&[cv]));
    let fin = srv.finished(false);
    bytes.extend(srv.flight(&[fin]));
    let mut evs = Vec::new();
    for piece in bytes.chunks(chunk) {
        let (r, _) = pump(&mut c, piece);
        evs.extend(r?);
    }
    Ok(evs)
}

fn with_compression(algs: &[u16]) -> Profile {
    let mut p = chrome_ed25519();
    p.compress_certificate = algs.to_vec();
    p
}

#[test]
fn compressed_certificates_decompress_under_every_chunking() {
    for alg in [1u16, 2] {
        for chunk in [1usize, 7, 100, 1 << 20] {
            let evs = compressed_handshake(with_compression(&[2, 1]), alg, chunk, |_, _| {})
                .unwrap_or_else(|e| panic!("alg {alg} chunk {chunk}: {e}"));
            assert!(
                evs.iter().any(|e| matches!(e, Event::HandshakeDone(_))),
                "alg {alg} chunk {chunk}"
            );
        }
    }
}

#[test]
fn compressed_certificates_fail_closed() {
    // An algorithm we did not offer.
    let r = compressed_handshake(with_compression(&[2]), 1, 1 << 20, |_, _| {});
    assert_eq!(r.unwrap_err(), Error::IllegalParameter);
    // A profile offering no compression at all.
    let mut none = chrome_ed25519();
    none.compress_certificate.clear();
    let r = compressed_handshake(none, 2, 1 << 20, |_, _| {});
    assert_eq!(r.unwrap_err(), Error::IllegalParameter);
    // Stated length too small (the output is capped there) or too large.
    for delta in [-1i64, 1] {
        let r = compressed_handshake(with_compression(&[2]), 2, 1 << 20, |len, _| {
            *len = (*len as i64 + delta) as u32;
        });
        let e = r.unwrap_err();
        assert_eq!(e, Error::CertificateDecompression, "delta {delta}");
        assert_eq!(e.code(), "TLS_CERT_DECOMPRESSION");
        assert_eq!(e.alert(), Some(AlertDescription::BAD_CERTIFICATE));
    }
    // A stated length beyond the handshake budget is refused before decompressing.
    let r = compressed_handshake(with_compression(&[1]), 1, 1 << 20, |len, _| {
        *len = 0xff_ffff;
    });
    assert_eq!(r.unwrap_err(), Error::MessageTooLarge);
    // Corrupt compressed bytes.
    let r = compressed_handshake(with_compression(&[1]), 1, 1 << 20, |_, d| {
        d.truncate(d.len() / 2);
    });
    assert_eq!(r.unwrap_err(), Error::CertificateDecompression);
    // A bomb: 16 MiB of zeros claimed as 2 KiB stops at the cap.
    let r = compressed_handshake(with_compression(&[1]), 1, 1 << 20, |len, d| {
        use std::io::Write;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![0u8; 16 << 20]).unwrap();
        *d = z.finish().unwrap();
        *len = 2048;
    });
    assert_eq!(r.unwrap_err(), Error::CertificateDecompression);
}

/// A Certificate whose leaf entry carries `entry_ext`.
fn certificate_with_entry_ext(srv: &Server, entry_ext: &[u8]) -> Vec<u8> {
    let der = srv.certificate_der();
    let v24 = |b: &[u8]| {
        let mut v = (b.len() as u32).to_be_bytes()[1..].to_vec();
        v.extend_from_slice(b);
        v
    };
    let mut entry = v24(&der);
    entry.extend_from_slice(&(entry_ext.len() as u16).to_be_bytes());
    entry.extend_from_slice(entry_ext);
    let mut body = vec![0u8];
    body.extend(v24(&entry));
    msg(11, &body)
}

#[test]
fn a_trust_anchors_match_on_the_leaf_is_accepted_only_when_offered() {
    for (p, ok) in [(chrome_ed25519(), true), (Profile::default_web(), false)] {
        let (mut c, ch) = client_for(p, 12);
        let mut srv = Server::new(&ch);
        let mut bytes = srv.server_hello();
        let ee = Server::encrypted_extensions(&[]);
        let cert = certificate_with_entry_ext(&srv, &ext(0xca34, &[]));
        bytes.extend(srv.flight(&[ee, cert]));
        let cv = srv.certificate_verify(false);
        bytes.extend(srv.flight(&[cv]));
        let fin = srv.finished(false);
        bytes.extend(srv.flight(&[fin]));
        let (r, _) = pump(&mut c, &bytes);
        if ok {
            assert!(r
                .unwrap()
                .iter()
                .any(|e| matches!(e, Event::HandshakeDone(_))));
        } else {
            assert_eq!(r.unwrap_err(), Error::UnsupportedExtension);
        }
    }
}
