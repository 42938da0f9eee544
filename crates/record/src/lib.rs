//! burrow's TLS record layer, sans-IO.
//!
//! * [`RecordReader`]: bytes in (any chunking), records out. Protected records are opened **in
//!   place** in the reader's own buffer, either inline with burrow-crypto or as an [`OpenJob`]
//!   handed to the caller (the Worker answers with WebCrypto) and completed with
//!   [`RecordReader::complete_open`].
//! * [`RecordWriter`]: plaintext in, records out, sealed inline or as [`SealJob`]s.
//! * [`TrafficKeys`]: one direction's AEAD key, IV and sequence number (RFC 8446 §5.3).
//!
//! Limits: 2^14 plaintext, 2^14 + 256 ciphertext, the peer's `record_size_limit` (RFC 8449),
//! at most [`MAX_EMPTY_RECORDS`] empty records in a row, a bounded input buffer.

mod aad;
mod error;
#[doc(hidden)]
pub mod fuzz;
mod header;
mod keys;
mod reader;
mod types;
mod writer;

pub use aad::Aad;
pub use error::RecordError;
pub use header::{Header, HEADER_LEN};
pub(crate) use keys::Tls12Nonce;
pub use keys::{TrafficKeys, TAG_LEN};
pub use reader::{Next, OpenJob, PlainRecord, ReaderLimits, RecordReader, RECV_ROOM};
pub use types::{AlertDescription, AlertLevel, ContentType, ProtocolVersion};
pub use writer::{RecordWriter, SealJob};

/// Largest plaintext fragment (RFC 8446 §5.1): 2^14 bytes.
pub const MAX_PLAINTEXT: usize = 16_384;
/// Largest TLS 1.3 ciphertext fragment (RFC 8446 §5.2): 2^14 + 256 bytes.
pub const MAX_CIPHERTEXT: usize = 16_384 + 256;
/// How many records with nothing in them are accepted in a row before the peer is treated as
/// hostile ([`RecordError::TooManyEmptyRecords`], `TLS_TOO_MANY_EMPTY_RECORDS`): empty
/// application data and the TLS 1.3 change_cipher_spec records dropped unseen; any other record
/// with content but an alert ends the run. Empty handshake and alert fragments are refused
/// outright (RFC 8446 §5.1). BoringSSL's bound (`kMaxEmptyRecords`, ssl/tls_record.cc, which
/// counts the same records); Go stops at 16 (`maxUselessRecords`).
pub const MAX_EMPTY_RECORDS: u32 = 32;
