//! Deadlines: race a future against the platform's timer.

use std::future::Future;
use std::pin::{pin, Pin};
use std::task::Poll;
use std::time::Duration;

use crate::error::Error;
use crate::net::Net;

/// Which deadline of [`Deadlines`] ran out (`Error::Timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// TCP connect to the first hop.
    Connect,
    /// The proxy handshake (CONNECT reply, SOCKS5 exchange, TLS to an HTTPS proxy).
    Proxy,
    /// The origin's TLS handshake.
    Tls,
    /// Waiting for the response head after the request was sent.
    Headers,
    /// The gap between two body reads.
    Idle,
    /// The whole fetch, redirects included.
    Total,
}

impl Deadline {
    /// The stable code of its timeout (`TIMEOUT_CONNECT`, ...).
    pub(crate) fn code(self) -> &'static str {
        match self {
            Deadline::Connect => "TIMEOUT_CONNECT",
            Deadline::Proxy => "TIMEOUT_PROXY",
            Deadline::Tls => "TIMEOUT_TLS",
            Deadline::Headers => "TIMEOUT_HEADERS",
            Deadline::Idle => "TIMEOUT_IDLE",
            Deadline::Total => "TIMEOUT_TOTAL",
        }
    }

    /// What it bounds, in words.
    pub(crate) fn what(self) -> &'static str {
        match self {
            Deadline::Connect => "connect",
            Deadline::Proxy => "proxy handshake",
            Deadline::Tls => "TLS handshake",
            Deadline::Headers => "response head",
            Deadline::Idle => "idle (between two body reads)",
            Deadline::Total => "total",
        }
    }
}

/// Per-phase time limits; `None` = no limit for that phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// TCP connect to the first hop (`TIMEOUT_CONNECT`).
    pub connect: Option<Duration>,
    /// The proxy handshake (`TIMEOUT_PROXY`).
    pub proxy: Option<Duration>,
    /// The origin TLS handshake (`TIMEOUT_TLS`).
    pub tls: Option<Duration>,
    /// From the request sent to the response head (`TIMEOUT_HEADERS`).
    pub headers: Option<Duration>,
    /// Between two body reads (`TIMEOUT_IDLE`).
    pub idle: Option<Duration>,
    /// The whole fetch including redirects, to the end of the response head (`TIMEOUT_TOTAL`);
    /// body reads are bounded by it too.
    pub total: Option<Duration>,
}

impl Default for Deadlines {
    /// 10 s connect, proxy and TLS, 30 s headers and idle, 300 s total.
    fn default() -> Self {
        Deadlines {
            connect: Some(Duration::from_secs(10)),
            proxy: Some(Duration::from_secs(10)),
            tls: Some(Duration::from_secs(10)),
            headers: Some(Duration::from_secs(30)),
            idle: Some(Duration::from_secs(30)),
            total: Some(Duration::from_secs(300)),
        }
    }
}

/// The time left of the total deadline, as an absolute Unix ms instant.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    pub(crate) total_ends_ms: Option<u64>,
}

impl Clock {
    /// Runs `fut` under `deadline`'s limit and the total limit, whichever ends first.
    ///
    /// `fut` is pinned by the caller (`pin!(...)` in the call): a future taken by value is
    /// stored twice in this one (as the argument, and where it is polled), and the body
    /// reads' futures are built and moved per transport read, so their size is copied then.
    pub(crate) async fn run<N: Net, F: Future>(
        &self,
        net: &N,
        deadline: Deadline,
        limit: Option<Duration>,
        fut: Pin<&mut F>,
    ) -> Result<F::Output, Error> {
        let left = self
            .total_ends_ms
            .map(|end| Duration::from_millis(end.saturating_sub(net.now_ms())));
        let (d, which) = match (limit, left) {
            (Some(l), Some(t)) if t < l => (Some(t), Deadline::Total),
            (None, Some(t)) => (Some(t), Deadline::Total),
            (l, _) => (l, deadline),
        };
        match d {
            None => Ok(fut.await),
            Some(d) => race(fut, pin!(net.sleep(d)))
                .await
                .ok_or(Error::Timeout(which)),
        }
    }
}

/// Polls `work` then `timer`; `None` when the timer finished first. Both are pinned by the
/// caller, for the reason given at [`Clock::run`].
pub(crate) fn race<'a, F: Future, T: Future>(
    mut work: Pin<&'a mut F>,
    mut timer: Pin<&'a mut T>,
) -> impl Future<Output = Option<F::Output>> + 'a {
    std::future::poll_fn(move |cx| {
        if let Poll::Ready(v) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(v));
        }
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        Poll::Pending
    })
}
