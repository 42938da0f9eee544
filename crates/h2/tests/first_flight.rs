//! The HTTP/2 first flight (preface, SETTINGS, WINDOW_UPDATE, HEADERS) of `Config::curl_7_88`
//! and `Config::chrome` is byte-identical to the captured flights in
//! `$BURROW_VECTORS/clienthello/*.h2.hex` for the same request (the captured header list,
//! in its order).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h2::{Config, Connection, Header};
use serde_json::Value;

#[test]
fn first_flights_are_byte_identical_to_the_captures() {
    let Some(dir) = burrow_testkit::vectors::dir("h2 first-flight captures") else {
        return;
    };
    let dir = dir.join("clienthello");
    let mut checked = 0;
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().ends_with(".h2.hex"))
        .collect();
    names.sort();
    for h2 in names {
        let name = h2.file_name().unwrap().to_str().unwrap().to_string();
        let config = if name.starts_with("chromium-156") {
            Config::chrome()
        } else if name.contains("-7.88.1-") {
            Config::curl_7_88()
        } else {
            panic!("no profile for {name}");
        };
        let json_path = dir.join(name.replace(".h2.hex", ".json"));
        let json: Value = serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
        let headers: Vec<Header> = json["http2"]["headers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| Header::new(h[0].as_str().unwrap(), h[1].as_str().unwrap()))
            .collect();
        let want = burrow_testkit::hex::decode(std::fs::read_to_string(&h2).unwrap().trim());
        let mut c = Connection::new(config);
        c.send_request(&headers, true).unwrap();
        let got = c.take_transmit();
        assert_eq!(
            burrow_testkit::hex::encode(&got),
            burrow_testkit::hex::encode(&want),
            "{name}"
        );
        checked += 1;
    }
    // 6 curl 7.88 (default and --http2) and 3 Chromium flights.
    assert_eq!(checked, 9);
}

#[test]
fn curl_8_21_settings_and_window_as_declared() {
    let mut c = Connection::new(Config::curl());
    let out = c.take_transmit();
    let settings = &out[24..24 + 9 + 18];
    assert_eq!(
        burrow_testkit::hex::encode(settings),
        "000012040000000000000300000064000400010000000200000000"
    );
    let wu = &out[24 + 27..];
    assert_eq!(
        burrow_testkit::hex::encode(wu),
        "000004080000000000".to_string() + "3e7f0001"
    );
}
