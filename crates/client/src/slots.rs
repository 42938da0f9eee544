//! A cap on requests waiting for their response head at once ([`ClientConfig::max_pending_heads`]):
//! Workers let one invocation have at most six connections awaiting response headers and
//! hold further ones back, so the seventh request waits here, in order, instead of failing or
//! stalling inside the runtime.
//!
//! [`ClientConfig::max_pending_heads`]: crate::ClientConfig::max_pending_heads

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::{Poll, Waker};

/// Counting slots, single-threaded; FIFO among waiters.
#[derive(Debug, Default)]
pub(crate) struct HeadSlots {
    limit: Option<usize>,
    in_use: Cell<usize>,
    /// Waiters in arrival order, by ticket.
    queue: RefCell<VecDeque<(u64, Waker)>>,
    next_ticket: Cell<u64>,
    high_water: Cell<usize>,
}

/// A held slot; dropping it frees the slot and wakes the next waiter.
#[derive(Debug)]
pub(crate) struct HeadSlot {
    slots: Option<Rc<HeadSlots>>,
}

impl HeadSlots {
    pub(crate) fn new(limit: Option<usize>) -> Rc<HeadSlots> {
        Rc::new(HeadSlots {
            limit: limit.map(|l| l.max(1)),
            ..HeadSlots::default()
        })
    }

    /// Most slots held at once so far.
    pub(crate) fn high_water(&self) -> usize {
        self.high_water.get()
    }

    /// Waits for a slot.
    pub(crate) async fn acquire(self: &Rc<Self>) -> HeadSlot {
        // No cap still counts, so the high-water mark says what a cap would have met.
        let limit = self.limit.unwrap_or(usize::MAX);
        let ticket = self.next_ticket.get();
        self.next_ticket.set(ticket.wrapping_add(1));
        // Leaves the queue if this fetch is dropped while waiting.
        let mut guard = Waiting {
            slots: self,
            ticket,
            done: false,
        };
        let mut queued = false;
        poll_fn(|cx| {
            let first = self
                .queue
                .borrow()
                .front()
                .is_none_or(|(t, _)| *t == ticket);
            if self.in_use.get() < limit && first {
                if queued {
                    self.queue.borrow_mut().pop_front();
                }
                let n = self.in_use.get().saturating_add(1);
                self.in_use.set(n);
                self.high_water.set(self.high_water.get().max(n));
                // The next in line may fit too.
                if let Some((_, w)) = self.queue.borrow().front() {
                    w.wake_by_ref();
                }
                return Poll::Ready(());
            }
            let mut q = self.queue.borrow_mut();
            match q.iter_mut().find(|(t, _)| *t == ticket) {
                Some((_, w)) => w.clone_from(cx.waker()),
                None => {
                    q.push_back((ticket, cx.waker().clone()));
                    queued = true;
                }
            }
            Poll::Pending
        })
        .await;
        guard.done = true;
        HeadSlot {
            slots: Some(Rc::clone(self)),
        }
    }

    fn release(&self) {
        self.in_use.set(self.in_use.get().saturating_sub(1));
        if let Some((_, w)) = self.queue.borrow().front() {
            w.wake_by_ref();
        }
    }

    /// A waiter that gave up (its fetch was dropped) leaves the queue.
    fn forget(&self, ticket: u64) {
        self.queue.borrow_mut().retain(|(t, _)| *t != ticket);
        if let Some((_, w)) = self.queue.borrow().front() {
            w.wake_by_ref();
        }
    }
}

struct Waiting<'a> {
    slots: &'a HeadSlots,
    ticket: u64,
    done: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.slots.forget(self.ticket);
        }
    }
}

impl Drop for HeadSlot {
    fn drop(&mut self) {
        if let Some(s) = self.slots.take() {
            s.release();
        }
    }
}
