//! The Cloudflare Workers shim for burrow (being built; see issue 2).
