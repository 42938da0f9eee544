//! The HPACK decoder (RFC 7541 §3, §6) with its limits.

use super::table::{DynamicTable, STATIC, STATIC_LEN};
use super::{huffman, integer, Header};
use crate::error::{Error, HpackError, Kind, Reason};

/// Default cap on one decoded string (name or value).
pub const DEFAULT_MAX_STRING_LEN: usize = 64 * 1024;
/// Default cap on a decoded header list (RFC 9113 size: name + value + 32 per field).
pub const DEFAULT_MAX_HEADER_LIST_SIZE: usize = 64 * 1024;

/// Decodes header blocks, keeping the dynamic table across blocks.
#[derive(Debug, Clone)]
pub struct Decoder {
    table: DynamicTable,
    /// The SETTINGS_HEADER_TABLE_SIZE we announced: no size update may exceed it.
    limit: usize,
    /// Set when `limit` went below the table's maximum: the next block must start with an update.
    update_required: bool,
    max_string_len: usize,
    max_header_list_size: usize,
}

impl Decoder {
    /// A decoder whose table limit is `table_size_limit` (the SETTINGS_HEADER_TABLE_SIZE we sent;
    /// 4096 by default in HTTP/2).
    pub fn new(table_size_limit: usize) -> Decoder {
        Decoder {
            table: DynamicTable::new(table_size_limit),
            limit: table_size_limit,
            update_required: false,
            max_string_len: DEFAULT_MAX_STRING_LEN,
            max_header_list_size: DEFAULT_MAX_HEADER_LIST_SIZE,
        }
    }

    /// Changes the table size limit (a new SETTINGS_HEADER_TABLE_SIZE that the peer acknowledged).
    /// A lower limit than the current table maximum requires the peer's next block to start with
    /// a size update (RFC 7541 §4.2).
    pub fn set_table_size_limit(&mut self, limit: usize) {
        if limit < self.table.max_size() {
            self.update_required = true;
        }
        self.limit = limit;
    }

    /// Caps each decoded string.
    pub fn set_max_string_len(&mut self, n: usize) {
        self.max_string_len = n;
    }

    /// Caps the decoded header list size (sum of name + value + 32).
    pub fn set_max_header_list_size(&mut self, n: usize) {
        self.max_header_list_size = n;
    }

    /// The dynamic table.
    pub fn table(&self) -> &DynamicTable {
        &self.table
    }

    /// Decodes one complete header block.
    ///
    /// A block whose list exceeds the header-list cap is decoded to the end (so that the dynamic
    /// table stays in step with the peer) but its fields are dropped and `HeaderListTooLarge` is
    /// returned. Any other error leaves the decoder unusable (a connection error).
    pub fn decode(&mut self, block: &[u8]) -> Result<Vec<Header>, Error> {
        let mut out = Vec::new();
        let mut list_size: usize = 0;
        let mut too_large = false;
        let mut rest = block;
        let mut fields_seen = false;
        let mut updates: u8 = 0;
        while let Some(&first) = rest.first() {
            let (field, used) = if first & 0x80 != 0 {
                // Indexed header field (§6.1).
                let (idx, n) = integer::decode(rest, 7)?;
                let (name, value) = self.lookup(idx)?;
                if too_large {
                    // The list is already refused: do not copy (an indexed bomb costs nothing).
                    if self.update_required {
                        return Err(Error::hpack(HpackError::MissingSizeUpdate));
                    }
                    rest = rest.get(n..).unwrap_or_default();
                    continue;
                }
                (
                    Header {
                        name: name.to_vec(),
                        value: value.to_vec(),
                        sensitive: false,
                    },
                    n,
                )
            } else if first & 0xc0 == 0x40 {
                // Literal with incremental indexing (§6.2.1).
                let (h, n) = self.literal(rest, 6, false)?;
                self.table.insert(&h.name, &h.value);
                (h, n)
            } else if first & 0xe0 == 0x20 {
                // Dynamic table size update (§6.3): "MUST occur at the beginning of the first
                // header block following the change"; at most two (§4.2).
                if fields_seen || updates >= 2 {
                    return Err(Error::hpack(HpackError::MisplacedSizeUpdate));
                }
                let (size, n) = integer::decode(rest, 5)?;
                // "The new maximum size MUST be lower than or equal to the limit".
                if size > self.limit {
                    return Err(Error::hpack(HpackError::TableSizeAboveLimit));
                }
                self.table.set_max_size(size);
                self.update_required = false;
                updates = updates.saturating_add(1);
                rest = rest.get(n..).unwrap_or_default();
                continue;
            } else {
                // Without indexing (0000) or never indexed (0001) (§6.2.2, §6.2.3).
                let never = first & 0xf0 == 0x10;
                self.literal(rest, 4, never)?
            };
            if self.update_required {
                return Err(Error::hpack(HpackError::MissingSizeUpdate));
            }
            fields_seen = true;
            rest = rest.get(used..).unwrap_or_default();
            list_size = list_size.saturating_add(field.size());
            if list_size > self.max_header_list_size {
                too_large = true;
                out.clear();
            }
            if !too_large {
                out.push(field);
            }
        }
        if self.update_required && !fields_seen && updates == 0 && !block.is_empty() {
            return Err(Error::hpack(HpackError::MissingSizeUpdate));
        }
        if too_large {
            return Err(Error::conn(Kind::HeaderListTooLarge, Reason::CANCEL));
        }
        Ok(out)
    }

    fn lookup(&self, idx: usize) -> Result<(&[u8], &[u8]), Error> {
        // "The index value of 0 is not used. It MUST be treated as a decoding error".
        let bad = Error::hpack(HpackError::BadIndex);
        if idx == 0 {
            return Err(bad);
        }
        if idx <= STATIC_LEN {
            return STATIC.get(idx.saturating_sub(1)).copied().ok_or(bad);
        }
        self.table
            .get(idx.saturating_sub(STATIC_LEN).saturating_sub(1))
            .ok_or(bad)
    }

    /// A literal field with an N-bit name index prefix; returns the field and bytes used.
    fn literal(&self, b: &[u8], prefix: u8, never: bool) -> Result<(Header, usize), Error> {
        let (idx, mut used) = integer::decode(b, prefix)?;
        let name = if idx == 0 {
            let (s, n) = self.string(b.get(used..).unwrap_or_default())?;
            used = used.saturating_add(n);
            s
        } else {
            self.lookup(idx)?.0.to_vec()
        };
        let (value, n) = self.string(b.get(used..).unwrap_or_default())?;
        used = used.saturating_add(n);
        Ok((
            Header {
                name,
                value,
                sensitive: never,
            },
            used,
        ))
    }

    /// A string literal (§5.2); returns the bytes and the encoded length used.
    fn string(&self, b: &[u8]) -> Result<(Vec<u8>, usize), Error> {
        let huff = b.first().is_some_and(|&f| f & 0x80 != 0);
        let (len, n) = integer::decode(b, 7)?;
        if len > self.max_string_len {
            return Err(Error::hpack(HpackError::StringTooLong));
        }
        let end = n
            .checked_add(len)
            .ok_or(Error::hpack(HpackError::Truncated))?;
        let raw = b.get(n..end).ok_or(Error::hpack(HpackError::Truncated))?;
        let s = if huff {
            let mut s = Vec::with_capacity(len.saturating_mul(8) / 5);
            huffman::decode(raw, &mut s, self.max_string_len)?;
            s
        } else {
            raw.to_vec()
        };
        Ok((s, end))
    }
}
