//! burrow-cookies: a sans-IO RFC 6265bis cookie jar ([`Jar`]) and the redirect policy
//! ([`redirect`]) of the burrow HTTP client.
//!
//! * [`Jar::store`] takes one `Set-Cookie` value with the response URL and the current time
//!   (Unix seconds) and stores, replaces or deletes a cookie, or says why it was ignored
//!   ([`Rejected`], each with a stable `code()`).
//! * [`Jar::cookie_header`] builds the `Cookie` header for a request.
//! * [`redirect::next_request`] decides the request that follows a 3xx response.
//!
//! Decisions where RFC 6265bis leaves room ("as defined by the user agent"):
//! * A "secure" origin is `https` only. Plain-http loopback is not treated as potentially
//!   trustworthy: burrow runs in Workers, where loopback means nothing, and failing closed
//!   keeps Secure cookies off cleartext connections.
//! * HttpOnly is stored and sent: there is no script API here to hide cookies from.
//! * SameSite is parsed and stored but not enforced: an HTTP client has no browsing context to
//!   tell same-site from cross-site requests. `SameSite=None` still requires Secure.
//! * The public suffix list is the `psl` crate's compiled-in copy (the `psl` feature, on by
//!   default); an unknown top-level label counts as a public suffix (the list's default `*`
//!   rule), so `Domain=localhost` only works as host-only on `localhost` itself. Without the
//!   feature (the Worker's npm package: the list is 0.9 MB of wasm), a `Domain` attribute the
//!   host domain-matches keeps the cookie host-only: never shared, so never shared across a
//!   public suffix.
//!
//! No I/O, no clock, no randomness; builds for wasm32-unknown-unknown.
//!
//! ```
//! use burrow_cookies::{Jar, Rejected};
//! let now = 1_700_000_000;
//! let mut jar = Jar::new();
//! let url = url::Url::parse("https://www.example.com/login").unwrap();
//! jar.store(&url, "sid=abc; Secure; HttpOnly; Path=/", now).unwrap();
//! jar.store(&url, "lang=en; Domain=example.com", now).unwrap();
//! let api = url::Url::parse("https://api.example.com/v1").unwrap();
//! # #[cfg(feature = "psl")] {
//! let err = jar.store(&url, "x=1; Domain=com", now).unwrap_err();
//! assert_eq!(err.code(), "COOKIE_REJECTED_PUBLIC_SUFFIX");
//! assert!(matches!(err, Rejected::PublicSuffix { .. }));
//! assert_eq!(jar.cookie_header(&api, now + 1).as_deref(), Some("lang=en"));
//! # }
//! let home = url::Url::parse("https://www.example.com/").unwrap();
//! assert_eq!(jar.cookie_header(&home, now + 1).as_deref(), Some("sid=abc; lang=en"));
//! ```

mod date;
mod error;
mod jar;
mod matching;
mod parse;
pub mod redirect;

pub use error::Rejected;
pub use jar::{Cookie, Jar, Limits, MAX_SET_COOKIE_BYTES};
pub use parse::{SameSite, MAX_AGE_LIMIT_SECONDS, MAX_ATTRIBUTE_VALUE_BYTES};
