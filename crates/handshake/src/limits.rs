//! The bounds on what the server controls above the record layer (the record layer bounds
//! empty records itself, `burrow_record::MAX_EMPTY_RECORDS`), each with its named error.
//!
//! "In a row" means without application data in between: a record with content for the caller
//! is the only progress a server cannot fake cheaply, so it is the only thing that ends a run
//! (an empty record does not, nor does another kind of message in the run).

/// Most NewSessionTickets one connection accepts (`TLS_TOO_MANY_TICKETS`). Servers send a few
/// after a handshake (OpenSSL and BoringSSL 2, rustls 2 to 4; RFC 8446 Appendix C.4's example
/// is six, one per HTTP/1.1 connection a browser may open), and burrow keeps one per server, so
/// 32 is far above any real use while each one still costs the caller an event and a copy.
pub const MAX_TICKETS: u32 = 32;

/// Most KeyUpdates in a row (`TLS_KEY_UPDATE_STORM`). BoringSSL allows 32 consecutive
/// KeyUpdates before `TOO_MANY_KEY_UPDATES`, reset when the application reads data
/// (`kMaxKeyUpdates`, ssl/tls13_both.cc); Go's crypto/tls allows 16 post-handshake messages
/// without progress (`maxUselessRecords`, conn.go). Each KeyUpdate costs us a key derivation
/// and, when it asks for one, a KeyUpdate of ours: 16, Go's number.
pub const MAX_KEY_UPDATES_IN_A_ROW: u32 = 16;

/// Most post-handshake messages of any kind in a row (`TLS_TOO_MANY_POST_HANDSHAKE_MESSAGES`):
/// tickets and KeyUpdates mixed stay under their own bounds yet still make no progress. Go
/// stops all of them together at 16 (`maxUselessRecords`); 32 lets a burst of tickets and a
/// full run of KeyUpdates through, and nothing past that.
pub const MAX_POST_HANDSHAKE_IN_A_ROW: u32 = 32;

/// Most warning alerts the connection survives in a row (`TLS_TOO_MANY_WARNING_ALERTS`): the
/// only one burrow survives is user_canceled, which RFC 8446 §6.1 sends before a close.
/// BoringSSL's bound (`kMaxWarningAlerts`, ssl/tls_record.cc).
pub const MAX_WARNING_ALERTS_IN_A_ROW: u32 = 4;

/// TLS 1.2: most HelloRequests per connection, ignored during the handshake and refused with a
/// `no_renegotiation` warning after it; one more is `unexpected_message` (`TLS_PROTOCOL`).
pub const MAX_HELLO_REQUESTS: u32 = 4;
