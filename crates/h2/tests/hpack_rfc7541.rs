//! RFC 7541 Appendix C, decoded and produced by our encoder byte for byte; never-indexed literals
//! on their own (C.2.3 and our encoder producing that form for a chosen header).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::as_conversions,
    clippy::cast_possible_truncation
)]

use burrow_h2::hpack::{
    Decoder, Encoder, EncoderPolicy, FieldEncoding, HuffmanMode, Representation,
};
use burrow_h2::{Header, HpackError, Kind};
use burrow_testkit::hex::decode as hex;

fn h(n: &str, v: &str) -> Header {
    Header::new(n, v)
}

const DATE1: &str = "Mon, 21 Oct 2013 20:13:21 GMT";
const DATE2: &str = "Mon, 21 Oct 2013 20:13:22 GMT";
const LOC: &str = "https://www.example.com";
const COOKIE: &str = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

fn requests() -> Vec<Vec<Header>> {
    vec![
        vec![
            h(":method", "GET"),
            h(":scheme", "http"),
            h(":path", "/"),
            h(":authority", "www.example.com"),
        ],
        vec![
            h(":method", "GET"),
            h(":scheme", "http"),
            h(":path", "/"),
            h(":authority", "www.example.com"),
            h("cache-control", "no-cache"),
        ],
        vec![
            h(":method", "GET"),
            h(":scheme", "https"),
            h(":path", "/index.html"),
            h(":authority", "www.example.com"),
            h("custom-key", "custom-value"),
        ],
    ]
}

fn responses() -> Vec<Vec<Header>> {
    vec![
        vec![
            h(":status", "302"),
            h("cache-control", "private"),
            h("date", DATE1),
            h("location", LOC),
        ],
        vec![
            h(":status", "307"),
            h("cache-control", "private"),
            h("date", DATE1),
            h("location", LOC),
        ],
        vec![
            h(":status", "200"),
            h("cache-control", "private"),
            h("date", DATE2),
            h("location", LOC),
            h("content-encoding", "gzip"),
            h("set-cookie", COOKIE),
        ],
    ]
}

const C3: [&str; 3] = [
    "828684410f7777772e6578616d706c652e636f6d",
    "828684be58086e6f2d6361636865",
    "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565",
];
const C4: [&str; 3] = [
    "828684418cf1e3c2e5f23a6ba0ab90f4ff",
    "828684be5886a8eb10649cbf",
    "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf",
];
const C5: [&str; 3] = [
    "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d",
    "4803333037c1c0bf",
    "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b2076657273696f6e3d31",
];
const C6: [&str; 3] = [
    "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3",
    "4883640effc1c0bf",
    "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
];

fn uniform(huffman: HuffmanMode) -> EncoderPolicy {
    EncoderPolicy::uniform(FieldEncoding {
        representation: Representation::Indexed,
        huffman_name: huffman,
        huffman_value: huffman,
        index_name: true,
    })
}

/// Decodes the three blocks with one table, checking headers and table sizes, then encodes the
/// same lists with one encoder and checks the bytes.
fn sequence(
    wires: [&str; 3],
    lists: Vec<Vec<Header>>,
    sizes: [usize; 3],
    table: usize,
    huffman: HuffmanMode,
) {
    let mut dec = Decoder::new(table);
    let mut enc = Encoder::with_table_size(uniform(huffman), table);
    for ((wire, list), size) in wires.iter().zip(&lists).zip(sizes) {
        assert_eq!(&dec.decode(&hex(wire)).unwrap(), list);
        assert_eq!(dec.table().size(), size);
        let mut out = Vec::new();
        enc.encode(list, &mut out);
        assert_eq!(burrow_testkit::hex::encode(&out), *wire);
        assert_eq!(enc.table().size(), size);
    }
}

#[test]
fn c3_requests_without_huffman() {
    sequence(C3, requests(), [57, 110, 164], 4096, HuffmanMode::Never);
}

#[test]
fn c4_requests_with_huffman() {
    sequence(C4, requests(), [57, 110, 164], 4096, HuffmanMode::Always);
}

#[test]
fn c5_responses_without_huffman_table_256() {
    sequence(C5, responses(), [222, 222, 215], 256, HuffmanMode::Never);
}

#[test]
fn c6_responses_with_huffman_table_256() {
    sequence(C6, responses(), [222, 222, 215], 256, HuffmanMode::Always);
}

#[test]
fn c2_single_representations() {
    // C.2.1 literal with incremental indexing.
    let mut d = Decoder::new(4096);
    let wire = hex("400a637573746f6d2d6b65790d637573746f6d2d686561646572");
    assert_eq!(
        d.decode(&wire).unwrap(),
        vec![h("custom-key", "custom-header")]
    );
    assert_eq!(d.table().size(), 55);
    // C.2.2 literal without indexing.
    let mut d = Decoder::new(4096);
    assert_eq!(
        d.decode(&hex("040c2f73616d706c652f70617468")).unwrap(),
        vec![h(":path", "/sample/path")]
    );
    assert_eq!(d.table().len(), 0);
    // C.2.4 indexed.
    assert_eq!(d.decode(&hex("82")).unwrap(), vec![h(":method", "GET")]);

    // And our encoder produces C.2.1 / C.2.2 for the chosen representation.
    let raw = |r| FieldEncoding {
        representation: r,
        huffman_name: HuffmanMode::Never,
        huffman_value: HuffmanMode::Never,
        index_name: true,
    };
    let mut e = Encoder::new(EncoderPolicy::default());
    let mut out = Vec::new();
    e.encode_with(
        &[(
            h("custom-key", "custom-header"),
            raw(Representation::Incremental),
        )],
        &mut out,
    );
    assert_eq!(out, wire);
    out.clear();
    e.encode_with(
        &[(
            h(":path", "/sample/path"),
            raw(Representation::WithoutIndexing),
        )],
        &mut out,
    );
    assert_eq!(out, hex("040c2f73616d706c652f70617468"));
}

#[test]
fn never_indexed_literal_c2_3() {
    let wire = hex("100870617373776f726406736563726574");
    let mut d = Decoder::new(4096);
    let got = d.decode(&wire).unwrap();
    assert_eq!(got, vec![Header::sensitive("password", "secret")]);
    assert!(
        got[0].sensitive,
        "the never-indexed flag must survive decoding"
    );
    assert_eq!(
        d.table().len(),
        0,
        "a never-indexed literal must not enter the table"
    );

    // The encoder produces exactly this form when the policy says so for "password" ...
    let never = FieldEncoding {
        representation: Representation::NeverIndexed,
        huffman_name: HuffmanMode::Never,
        huffman_value: HuffmanMode::Never,
        index_name: true,
    };
    let policy = EncoderPolicy::default().with_rule(b"password", never);
    let mut e = Encoder::new(policy);
    let mut out = Vec::new();
    e.encode(&[h("password", "secret")], &mut out);
    assert_eq!(out, wire);
    assert_eq!(e.table().len(), 0);

    // ... and when re-encoding a field that arrived never-indexed (RFC 7541 §7.1.3), whatever the
    // policy says, even when the field is in the static table.
    let raw_policy = EncoderPolicy::uniform(FieldEncoding {
        representation: Representation::Indexed,
        huffman_name: HuffmanMode::Never,
        huffman_value: HuffmanMode::Never,
        index_name: true,
    });
    let mut e = Encoder::new(raw_policy);
    out.clear();
    e.encode(&got, &mut out);
    assert_eq!(out, wire);
    out.clear();
    e.encode(&[Header::sensitive(":method", "GET")], &mut out);
    assert_eq!(
        out,
        hex("1203474554"),
        "indexed name 2, literal value, never indexed"
    );
    assert_eq!(e.table().len(), 0);
}

#[test]
fn path_never_incrementally_indexed_like_curl() {
    let mut e = Encoder::new(EncoderPolicy::curl_like());
    let mut d = Decoder::new(4096);
    let req = vec![
        h(":method", "GET"),
        h(":scheme", "https"),
        h(":authority", "a.example"),
        h(":path", "/x?y=1"),
    ];
    let mut out = Vec::new();
    e.encode(&req, &mut out);
    assert_eq!(d.decode(&out).unwrap(), req);
    // :authority was indexed, :path was not: the table holds exactly one entry.
    assert_eq!(e.table().len(), 1);
    assert_eq!(e.table().get(0).unwrap().0, b":authority");
    // The :path field is a literal without indexing with static name index 4: 0x04.
    let path_pos = out.iter().rposition(|&b| b == 0x04).unwrap();
    assert!(path_pos > 0);
}

#[test]
fn size_update_rules() {
    // An update above the SETTINGS limit.
    let mut d = Decoder::new(4096);
    let e = d.decode(&hex("3fe21f")).unwrap_err(); // size update to 4097
    assert_eq!(e.kind(), Kind::Hpack(HpackError::TableSizeAboveLimit));
    assert_eq!(e.code(), "H2_COMPRESSION");
    // An update after a field.
    let mut d = Decoder::new(4096);
    assert_eq!(
        d.decode(&hex("8220")).unwrap_err().kind(),
        Kind::Hpack(HpackError::MisplacedSizeUpdate)
    );
    // Two updates at the start are fine; three are not.
    let mut d = Decoder::new(4096);
    assert!(d.decode(&hex("202082")).is_ok());
    assert_eq!(
        d.decode(&hex("20202082")).unwrap_err().kind(),
        Kind::Hpack(HpackError::MisplacedSizeUpdate)
    );
    // A lowered limit requires an update in the next block.
    let mut d = Decoder::new(4096);
    d.set_table_size_limit(100);
    assert_eq!(
        d.decode(&hex("82")).unwrap_err().kind(),
        Kind::Hpack(HpackError::MissingSizeUpdate)
    );
    let mut d = Decoder::new(4096);
    d.set_table_size_limit(100);
    assert!(d.decode(&hex("3f4582")).is_ok()); // update to 100, then :method GET
                                               // Index 0 and an index beyond the tables.
    let mut d = Decoder::new(4096);
    assert_eq!(
        d.decode(&hex("80")).unwrap_err().kind(),
        Kind::Hpack(HpackError::BadIndex)
    );
    assert_eq!(
        d.decode(&hex("be")).unwrap_err().kind(),
        Kind::Hpack(HpackError::BadIndex)
    );
}

#[test]
fn encoder_announces_table_size_changes() {
    let mut e = Encoder::new(EncoderPolicy::default());
    let mut d = Decoder::new(4096);
    e.set_peer_limit(0);
    e.set_peer_limit(2048);
    let mut out = Vec::new();
    e.encode(&[h("x-a", "1")], &mut out);
    // Smallest (0) then final (2048), as RFC 7541 §4.2 asks.
    assert_eq!(&out[..4], &hex("203fe10f")[..]);
    assert_eq!(d.decode(&out).unwrap(), vec![h("x-a", "1")]);
    assert_eq!(d.table().max_size(), 2048);
}

#[test]
fn header_list_and_string_caps() {
    // A table entry of ~4 KiB referenced 1000 times: the bomb is refused, the table stays in step.
    let mut e = Encoder::new(EncoderPolicy::default());
    let big = "x".repeat(4000);
    let mut first = Vec::new();
    e.encode(&[h("x-big", &big)], &mut first);
    let mut bomb = Vec::new();
    e.encode(&vec![h("x-big", &big); 1000], &mut bomb);
    assert!(bomb.len() < 1100, "indexed references are one byte each");
    let mut d = Decoder::new(4096);
    d.set_max_header_list_size(64 * 1024);
    assert_eq!(d.decode(&first).unwrap().len(), 1);
    assert_eq!(
        d.decode(&bomb).unwrap_err().kind(),
        Kind::HeaderListTooLarge
    );
    // The decoder is still usable and in step.
    let mut next = Vec::new();
    e.encode(&[h("x-big", &big)], &mut next);
    assert_eq!(d.decode(&next).unwrap(), vec![h("x-big", &big)]);

    let mut d = Decoder::new(4096);
    d.set_max_string_len(10);
    let mut out = Vec::new();
    Encoder::new(EncoderPolicy::default()).encode(&[h("x-long", "0123456789a")], &mut out);
    assert_eq!(
        d.decode(&out).unwrap_err().kind(),
        Kind::Hpack(HpackError::StringTooLong)
    );
}
