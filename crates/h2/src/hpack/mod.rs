//! HPACK (RFC 7541): header compression with a dynamic table and the Huffman code.

mod decoder;
mod encoder;
pub mod huffman;
mod huffman_table;
mod integer;
mod table;

pub use decoder::{Decoder, DEFAULT_MAX_HEADER_LIST_SIZE, DEFAULT_MAX_STRING_LEN};
pub use encoder::{Encoder, EncoderPolicy, FieldEncoding, FieldRule, HuffmanMode, Representation};
pub use table::{entry_size, DynamicTable, ENTRY_OVERHEAD};

/// A header field: raw bytes for name and value (HTTP/2 names are lowercase).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Header {
    /// Field name.
    pub name: Vec<u8>,
    /// Field value.
    pub value: Vec<u8>,
    /// Decoded from (or to be encoded as) a "never indexed" literal (RFC 7541 §6.2.3): the
    /// field must not be put in any compression table, here or by an intermediary.
    pub sensitive: bool,
}

impl Header {
    /// A field from name and value (not sensitive).
    pub fn new(name: impl Into<Vec<u8>>, value: impl Into<Vec<u8>>) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
            sensitive: false,
        }
    }

    /// A field that must be sent as a never-indexed literal.
    pub fn sensitive(name: impl Into<Vec<u8>>, value: impl Into<Vec<u8>>) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
            sensitive: true,
        }
    }

    /// The RFC 7541 / RFC 9113 size of this field (name + value + 32).
    pub fn size(&self) -> usize {
        entry_size(&self.name, &self.value)
    }
}
