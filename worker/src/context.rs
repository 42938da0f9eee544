//! Sockets cannot cross request contexts in Workers: an I/O object made while serving one
//! request throws "Cannot perform I/O on behalf of a different request" when touched from
//! another, and a promise made by a request that has ended can never settle. A [`Client`]
//! and its pool therefore belong to one invocation. The first time the runtime says so, the
//! context is marked foreign: every later use of that client fails at once with
//! `CROSS_REQUEST`, before any socket is touched, instead of waiting on a connection that can
//! never answer.
//!
//! [`Client`]: crate::api::RawClient

use std::cell::Cell;

use burrow_client::{Error, Phase};

/// The request a client (and every socket it opened) belongs to.
#[derive(Debug, Default)]
pub struct RequestContext {
    foreign: Cell<bool>,
}

/// The error for a client used outside the request that made it.
pub(crate) fn cross_request_error() -> Error {
    Error::Platform {
        code: "CROSS_REQUEST",
        phase: Phase::Connect,
        message: "this Client was created while serving another request, and Workers do not \
                  let sockets (and so its connection pool) cross requests: create the Client \
                  inside the request handler (one per invocation)"
            .to_string(),
    }
}

impl RequestContext {
    /// A context for the request being served.
    pub fn new() -> RequestContext {
        RequestContext::default()
    }

    /// Fails if the runtime has said this context is not the current request's.
    pub fn check(&self) -> Result<(), Error> {
        if self.foreign.get() {
            Err(cross_request_error())
        } else {
            Ok(())
        }
    }

    /// Records that the runtime refused I/O for this context.
    pub fn mark_foreign(&self) {
        self.foreign.set(true);
    }

    /// Whether the runtime has refused I/O for this context.
    pub fn is_foreign(&self) -> bool {
        self.foreign.get()
    }
}
