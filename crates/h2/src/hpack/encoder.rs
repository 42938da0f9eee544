//! The HPACK encoder, with the representation and Huffman use chosen per header.

use super::table::{find_static, DynamicTable, STATIC_LEN};
use super::{huffman, integer, Header};

/// How a header field is represented (RFC 7541 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Representation {
    /// An indexed field (§6.1) when the static or dynamic table has the exact field; otherwise a
    /// literal with incremental indexing.
    Indexed,
    /// Always a literal with incremental indexing (§6.2.1), even if the field is in a table.
    Incremental,
    /// A literal without indexing (§6.2.2).
    WithoutIndexing,
    /// A literal never indexed (§6.2.3): intermediaries must not index it either.
    NeverIndexed,
}

/// Whether a string literal is Huffman-coded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HuffmanMode {
    /// Always raw.
    Never,
    /// Always Huffman-coded.
    Always,
    /// Huffman-coded when that is shorter (ties stay raw).
    Shorter,
}

/// How one field is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldEncoding {
    /// The representation.
    pub representation: Representation,
    /// Huffman for a literal name.
    pub huffman_name: HuffmanMode,
    /// Huffman for the value.
    pub huffman_value: HuffmanMode,
    /// Refer to the name by table index when a table has it (otherwise the name is a literal).
    pub index_name: bool,
}

impl Default for FieldEncoding {
    fn default() -> FieldEncoding {
        FieldEncoding {
            representation: Representation::Indexed,
            huffman_name: HuffmanMode::Shorter,
            huffman_value: HuffmanMode::Shorter,
            index_name: true,
        }
    }
}

/// A rule: fields with this (lowercase) name use this encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRule {
    /// The field name.
    pub name: Vec<u8>,
    /// Its encoding.
    pub encoding: FieldEncoding,
}

/// The encoder's choices: a default, and per-name rules (first match wins).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EncoderPolicy {
    /// The encoding of fields no rule names.
    pub default: FieldEncoding,
    /// Per-name overrides.
    pub rules: Vec<FieldRule>,
}

impl EncoderPolicy {
    /// One encoding for every field.
    pub fn uniform(encoding: FieldEncoding) -> EncoderPolicy {
        EncoderPolicy {
            default: encoding,
            rules: Vec::new(),
        }
    }

    /// Adds a rule for `name`.
    pub fn with_rule(mut self, name: &[u8], encoding: FieldEncoding) -> EncoderPolicy {
        self.rules.push(FieldRule {
            name: name.to_vec(),
            encoding,
        });
        self
    }

    /// Like curl (nghttp2): `:path` and other sensitive fields never put in the table.
    pub fn curl_like() -> EncoderPolicy {
        let never = FieldEncoding {
            representation: Representation::WithoutIndexing,
            ..FieldEncoding::default()
        };
        EncoderPolicy::default()
            .with_rule(b":path", never)
            .with_rule(b"content-length", never)
            .with_rule(b"if-modified-since", never)
            .with_rule(b"if-none-match", never)
            .with_rule(b"location", never)
            .with_rule(b"set-cookie", never)
            .with_rule(b"etag", never)
            .with_rule(
                b"authorization",
                FieldEncoding {
                    representation: Representation::NeverIndexed,
                    ..FieldEncoding::default()
                },
            )
    }

    /// The encoding for a field: a sensitive field is always never-indexed.
    pub fn encoding_for(&self, h: &Header) -> FieldEncoding {
        let mut e = self
            .rules
            .iter()
            .find(|r| r.name == h.name)
            .map_or(self.default, |r| r.encoding);
        if h.sensitive {
            e.representation = Representation::NeverIndexed;
        }
        e
    }
}

/// Encodes header blocks, keeping its dynamic table in step with the peer's decoder.
#[derive(Debug, Clone)]
pub struct Encoder {
    table: DynamicTable,
    policy: EncoderPolicy,
    /// Our own cap on the table (we may use less than the peer allows).
    own_cap: usize,
    /// Pending size updates to emit at the start of the next block: (smallest, final).
    pending: Option<(usize, usize)>,
}

impl Encoder {
    /// An encoder with the HTTP/2 initial table size (4096) and `policy`.
    pub fn new(policy: EncoderPolicy) -> Encoder {
        Encoder {
            table: DynamicTable::new(4096),
            policy,
            own_cap: 4096,
            pending: None,
        }
    }

    /// An encoder whose table size is `size` from the start (both sides already agree on it, as
    /// in the RFC 7541 Appendix C examples): no size update is emitted for it.
    pub fn with_table_size(policy: EncoderPolicy, size: usize) -> Encoder {
        Encoder {
            table: DynamicTable::new(size),
            policy,
            own_cap: size,
            pending: None,
        }
    }

    /// The policy.
    pub fn policy(&self) -> &EncoderPolicy {
        &self.policy
    }

    /// Replaces the policy.
    pub fn set_policy(&mut self, policy: EncoderPolicy) {
        self.policy = policy;
    }

    /// The dynamic table.
    pub fn table(&self) -> &DynamicTable {
        &self.table
    }

    /// Limits our table to `cap` even if the peer allows more.
    pub fn set_own_cap(&mut self, cap: usize) {
        self.own_cap = cap;
        let limit = self.table.max_size().min(cap);
        self.resize(limit);
    }

    /// The peer's SETTINGS_HEADER_TABLE_SIZE changed: use `min(limit, own cap)` and announce the
    /// change at the start of the next block (RFC 7541 §4.2).
    pub fn set_peer_limit(&mut self, limit: usize) {
        self.resize(limit.min(self.own_cap));
    }

    fn resize(&mut self, size: usize) {
        if size == self.table.max_size() && self.pending.is_none() {
            return;
        }
        self.table.set_max_size(size);
        self.pending = Some(match self.pending {
            Some((min, _)) => (min.min(size), size),
            None => (size, size),
        });
    }

    /// Encodes a block with the policy's choices.
    pub fn encode(&mut self, headers: &[Header], out: &mut Vec<u8>) {
        self.start_block(out);
        for h in headers {
            let e = self.policy.encoding_for(h);
            self.field(h, e, out);
        }
    }

    /// Encodes a block with an explicit encoding per field.
    pub fn encode_with(&mut self, fields: &[(Header, FieldEncoding)], out: &mut Vec<u8>) {
        self.start_block(out);
        for (h, e) in fields {
            self.field(h, *e, out);
        }
    }

    fn start_block(&mut self, out: &mut Vec<u8>) {
        if let Some((min, fin)) = self.pending.take() {
            if min < fin {
                integer::encode(min, 5, 0x20, out);
            }
            integer::encode(fin, 5, 0x20, out);
        }
    }

    fn field(&mut self, h: &Header, e: FieldEncoding, out: &mut Vec<u8>) {
        let (s_full, s_name) = find_static(&h.name, &h.value);
        let (d_full, d_name) = self.table.find(&h.name, &h.value);
        let dyn_index = |i: usize| i.saturating_add(STATIC_LEN).saturating_add(1);
        if e.representation == Representation::Indexed && !h.sensitive {
            if let Some(i) = s_full.or(d_full.map(dyn_index)) {
                integer::encode(i, 7, 0x80, out);
                return;
            }
        }
        let name_idx = if e.index_name {
            s_name.or(d_name.map(dyn_index))
        } else {
            None
        };
        let (prefix, first) = match e.representation {
            Representation::Indexed | Representation::Incremental => (6, 0x40),
            Representation::WithoutIndexing => (4, 0x00),
            Representation::NeverIndexed => (4, 0x10),
        };
        match name_idx {
            Some(i) => integer::encode(i, prefix, first, out),
            None => {
                out.push(first);
                string(&h.name, e.huffman_name, out);
            }
        }
        string(&h.value, e.huffman_value, out);
        if first == 0x40 {
            self.table.insert(&h.name, &h.value);
        }
    }
}

fn string(s: &[u8], mode: HuffmanMode, out: &mut Vec<u8>) {
    let huff = match mode {
        HuffmanMode::Never => false,
        HuffmanMode::Always => true,
        HuffmanMode::Shorter => huffman::encoded_len(s) < s.len(),
    };
    if huff {
        integer::encode(huffman::encoded_len(s), 7, 0x80, out);
        huffman::encode(s, out);
    } else {
        integer::encode(s.len(), 7, 0, out);
        out.extend_from_slice(s);
    }
}
