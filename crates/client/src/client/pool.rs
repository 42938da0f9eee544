//! The connections a client keeps between requests: idle HTTP/1.1 connections per origin
//! (up to a limit each) and at most one HTTP/2 connection per origin, shared by its requests.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::connect::{ConnInfo, Origin};
use crate::h2::H2Conn;
use crate::net::NetStream;
use crate::transport::Transport;

/// An HTTP/1.1 connection waiting for its next request.
pub(super) struct Idle<S: NetStream> {
    pub(super) stream: Transport<S>,
    pub(super) info: ConnInfo,
}

/// Idle HTTP/1.1 connections and live HTTP/2 connections, by origin.
pub(super) struct Pool<S: NetStream> {
    idle: RefCell<HashMap<Origin, Vec<Idle<S>>>>,
    h2: RefCell<HashMap<Origin, (H2Conn, ConnInfo)>>,
    max_idle_per_origin: usize,
}

impl<S: NetStream> Pool<S> {
    /// An empty pool keeping at most `max_idle_per_origin` idle connections per origin.
    pub(super) fn new(max_idle_per_origin: usize) -> Pool<S> {
        Pool {
            idle: RefCell::new(HashMap::new()),
            h2: RefCell::new(HashMap::new()),
            max_idle_per_origin,
        }
    }

    /// The HTTP/2 connection to `origin`, if one is still usable (a dead one is forgotten).
    pub(super) fn h2_for(&self, origin: &Origin) -> Option<(H2Conn, ConnInfo)> {
        let mut h2 = self.h2.borrow_mut();
        match h2.get(origin) {
            Some((c, _)) if !c.usable() => {
                h2.remove(origin);
                None
            }
            other => other.cloned(),
        }
    }

    /// Makes `h2` the HTTP/2 connection to `origin`.
    pub(super) fn put_h2(&self, origin: Origin, h2: H2Conn, info: ConnInfo) {
        self.h2.borrow_mut().insert(origin, (h2, info));
    }

    /// Forgets the HTTP/2 connection to `origin` (it refused a request; the next one opens anew).
    pub(super) fn forget_h2(&self, origin: &Origin) {
        self.h2.borrow_mut().remove(origin);
    }

    /// The most recently pooled idle connection to `origin`.
    pub(super) fn take_idle(&self, origin: &Origin) -> Option<Idle<S>> {
        self.idle.borrow_mut().get_mut(origin)?.pop()
    }

    /// Keeps `stream` for the next request to `origin`, unless that origin has enough.
    pub(super) fn put_idle(&self, origin: Origin, stream: Transport<S>, info: ConnInfo) {
        let mut idle = self.idle.borrow_mut();
        let list = idle.entry(origin).or_default();
        if list.len() < self.max_idle_per_origin {
            list.push(Idle { stream, info });
        }
    }

    /// Tells every HTTP/2 connection's driver to close (the client is going away).
    pub(super) fn shut_down(&self) {
        for (h2, _) in self.h2.borrow().values() {
            h2.shut_down();
        }
    }
}
