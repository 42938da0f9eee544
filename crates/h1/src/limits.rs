//! Budgets for everything the server controls.

/// Size and count limits applied to every response. The defaults suit a general-purpose client;
/// override single fields with `Limits { max_headers: 200, ..Limits::default() }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum size of a response head (status line + header section + final CRLF), in bytes.
    /// Default 64 KiB.
    pub max_head_bytes: usize,
    /// Maximum number of header fields in a head, and of fields in a trailer section.
    /// Default 100.
    pub max_headers: usize,
    /// Maximum length of a chunk-size line including extensions, without the CRLF. Default 4 KiB.
    pub max_chunk_line: usize,
    /// Maximum size of a trailer section in bytes. Default 16 KiB.
    pub max_trailer_bytes: usize,
    /// Maximum number of 1xx interim responses before the final response. Default 16.
    pub max_interim_responses: usize,
}

impl Limits {
    /// The default limits (same as `Limits::default()`).
    pub const DEFAULT: Limits = Limits {
        max_head_bytes: 64 * 1024,
        max_headers: 100,
        max_chunk_line: 4 * 1024,
        max_trailer_bytes: 16 * 1024,
        max_interim_responses: 16,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
