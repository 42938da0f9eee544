//! Deadlines on `setTimeout` with at most one JavaScript timer armed per client.
//!
//! Every wait for the peer races a deadline (idle, headers, total), and nearly every deadline
//! is dropped unreached. One `setTimeout` and one `clearTimeout` per wait were in 3 % of the
//! samples of a profile of workerd fetching a large body (`bench/README.md`). Here a deadline is an
//! entry in the client's [`Timers`]; one JS timer is armed for the earliest entry, and a
//! dropped entry leaves it armed. When it fires it wakes what is due and re-arms for the
//! earliest entry left, if any. Waits of one length (the idle deadline) come later than the
//! armed timer, so they make no JS call at all; a wait that must end sooner re-arms it.
//!
//! All timers share one callback, called with the key of their [`Timers`]: a per-timer
//! closure would stay allocated in linear memory while its timer is pending. A JS timer
//! belongs to the request that armed it (workerd cancels it when that request ends), as does
//! the client, so both share one [`crate::RequestContext`].

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout, catch)]
    fn set_timeout_with_key(callback: &JsValue, ms: f64, key: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = clearTimeout, catch)]
    fn clear_timeout(id: &JsValue) -> Result<(), JsValue>;
}

/// One deadline.
struct Entry {
    /// `Date.now()` milliseconds when it is due.
    due: f64,
    fired: bool,
    waker: Option<Waker>,
}

/// A timer may fire this early (milliseconds) and still count: JS timers and `Date.now()` are
/// coarse, and re-arming for a sliver would cost a timer per sliver.
const EARLY_MS: f64 = 1.0;

/// The bookkeeping of [`Timers`], without JavaScript: which deadlines exist, which are due, and
/// when the one JS timer must fire.
#[derive(Default)]
struct Schedule {
    entries: BTreeMap<u32, Entry>,
    next: u32,
    /// When the armed JS timer fires (`None`: none armed).
    armed: Option<f64>,
}

impl Schedule {
    /// A deadline at `due`; and the time to arm the JS timer for, when it must be (re)armed.
    fn add(&mut self, due: f64) -> (u32, Option<f64>) {
        self.next = self.next.wrapping_add(1);
        let id = self.next;
        self.entries.insert(
            id,
            Entry {
                due,
                fired: false,
                waker: None,
            },
        );
        let covered = self.armed.is_some_and(|at| at <= due);
        (id, (!covered).then_some(due))
    }

    /// Whether deadline `id` has fired (or is gone); keeps `waker` otherwise.
    fn poll(&mut self, id: u32, waker: &Waker) -> bool {
        match self.entries.get_mut(&id) {
            Some(e) if e.fired => true,
            Some(e) => {
                e.waker = Some(waker.clone());
                false
            }
            None => true,
        }
    }

    fn remove(&mut self, id: u32) {
        self.entries.remove(&id);
    }

    /// The JS timer fired at `now`: the wakers of what is due, and when to re-arm for the
    /// earliest deadline left (if any).
    fn fire(&mut self, now: f64) -> (Vec<Waker>, Option<f64>) {
        self.armed = None;
        let mut due = Vec::new();
        let mut earliest: Option<f64> = None;
        for e in self.entries.values_mut().filter(|e| !e.fired) {
            if e.due <= now + EARLY_MS {
                e.fired = true;
                due.extend(e.waker.take());
            } else {
                earliest = Some(earliest.map_or(e.due, |x| x.min(e.due)));
            }
        }
        (due, earliest)
    }
}

/// The deadlines of one client and the JS timer armed for the earliest of them.
pub(crate) struct Timers {
    key: u32,
    schedule: RefCell<Schedule>,
    /// The armed JS timer's id.
    handle: RefCell<Option<JsValue>>,
}

thread_local! {
    static ALL: RefCell<BTreeMap<u32, Weak<Timers>>> = RefCell::default();
    static NEXT_KEY: Cell<u32> = const { Cell::new(0) };
    static FIRE: Closure<dyn FnMut(u32)> = Closure::new(|key: u32| {
        if let Some(t) = ALL.with(|all| all.borrow().get(&key).and_then(Weak::upgrade)) {
            crate::exec::from_js(|| t.fire());
        }
    });
}

impl Timers {
    /// The deadlines of a new client.
    pub(crate) fn new() -> Rc<Timers> {
        let key = NEXT_KEY.with(|n| {
            let k = n.get().wrapping_add(1);
            n.set(k);
            k
        });
        let t = Rc::new(Timers {
            key,
            schedule: RefCell::default(),
            handle: RefCell::new(None),
        });
        ALL.with(|all| all.borrow_mut().insert(key, Rc::downgrade(&t)));
        t
    }

    /// A deadline `ms` from now. `None` when no JS timer could be armed (then the caller
    /// never fires rather than firing at once).
    pub(crate) fn sleep(self: &Rc<Self>, ms: f64) -> Option<Sleep> {
        let due = js_sys::Date::now() + ms.max(0.0);
        let (id, arm) = self.schedule.borrow_mut().add(due);
        if let Some(at) = arm {
            if !self.arm(at) {
                self.schedule.borrow_mut().remove(id);
                return None;
            }
        }
        Some(Sleep {
            timers: Rc::clone(self),
            id,
        })
    }

    /// Arms the JS timer for `at`, replacing the armed one.
    fn arm(&self, at: f64) -> bool {
        if let Some(old) = self.handle.borrow_mut().take() {
            let _ = clear_timeout(&old);
        }
        let ms = (at - js_sys::Date::now()).max(0.0);
        match FIRE.with(|f| set_timeout_with_key(f.as_ref(), ms, self.key)) {
            Ok(handle) => {
                *self.handle.borrow_mut() = Some(handle);
                self.schedule.borrow_mut().armed = Some(at);
                true
            }
            Err(_) => false,
        }
    }

    /// The JS timer fired: wakes what is due, re-arms for the earliest deadline left.
    fn fire(&self) {
        self.handle.borrow_mut().take();
        let (due, rearm) = self.schedule.borrow_mut().fire(js_sys::Date::now());
        if let Some(at) = rearm {
            // Failing to re-arm leaves those deadlines unreached: the work they guard still
            // ends by itself, as with no timers at all.
            let _ = self.arm(at);
        }
        for w in due {
            w.wake();
        }
    }
}

impl Drop for Timers {
    fn drop(&mut self) {
        ALL.with(|all| all.borrow_mut().remove(&self.key));
        if let Some(handle) = self.handle.borrow_mut().take() {
            let _ = clear_timeout(&handle);
        }
    }
}

/// A deadline of a [`Timers`]: ready once it is due.
pub(crate) struct Sleep {
    timers: Rc<Timers>,
    id: u32,
}

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.timers.schedule.borrow_mut().poll(self.id, cx.waker()) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        // The JS timer stays armed: it re-arms or lapses when it fires.
        self.timers.schedule.borrow_mut().remove(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn waker() -> (Waker, Arc<Count>) {
        let c = Arc::new(Count(AtomicUsize::new(0)));
        (Waker::from(Arc::clone(&c)), c)
    }

    /// Arms as `Timers::arm` does when `add` asks.
    fn add(s: &mut Schedule, due: f64, arms: &mut Vec<f64>) -> u32 {
        let (id, arm) = s.add(due);
        if let Some(at) = arm {
            s.armed = Some(at);
            arms.push(at);
        }
        id
    }

    #[test]
    fn waits_of_one_length_arm_one_timer() {
        // An idle deadline per read, each dropped when the read completes: one JS timer.
        let mut s = Schedule::default();
        let mut arms = Vec::new();
        for i in 0..1000 {
            let id = add(&mut s, f64::from(i) + 60_000.0, &mut arms);
            s.remove(id);
        }
        assert_eq!(arms, vec![60_000.0]);
        // When it fires with nothing left, nothing is re-armed.
        let (woken, rearm) = s.fire(60_000.0);
        assert!(woken.is_empty());
        assert_eq!(rearm, None);
    }

    #[test]
    fn an_earlier_deadline_rearms_and_a_lapsed_timer_rearms_for_what_is_left() {
        let mut s = Schedule::default();
        let mut arms = Vec::new();
        let (w1, c1) = waker();
        let (w2, c2) = waker();
        let long = add(&mut s, 60_000.0, &mut arms);
        let short = add(&mut s, 5_000.0, &mut arms);
        assert_eq!(arms, vec![60_000.0, 5_000.0]);
        assert!(!s.poll(long, &w1));
        assert!(!s.poll(short, &w2));
        // Fired for the short one: only it is woken; the timer re-arms for the long one.
        let (woken, rearm) = s.fire(5_000.0);
        woken.into_iter().for_each(Waker::wake);
        assert_eq!(rearm, Some(60_000.0));
        assert_eq!(c1.0.load(Ordering::Relaxed), 0);
        assert_eq!(c2.0.load(Ordering::Relaxed), 1);
        assert!(s.poll(short, &w2));
        assert!(!s.poll(long, &w1));
    }

    #[test]
    fn a_timer_that_fires_early_rearms_for_the_rest() {
        let mut s = Schedule::default();
        let mut arms = Vec::new();
        let (w, c) = waker();
        let id = add(&mut s, 1_000.0, &mut arms);
        assert!(!s.poll(id, &w));
        // Early by more than the tolerance: not due, re-armed for it.
        let (woken, rearm) = s.fire(990.0);
        assert!(woken.is_empty());
        assert_eq!(rearm, Some(1_000.0));
        // Early by less than the tolerance: due.
        let (woken, rearm) = s.fire(999.5);
        woken.into_iter().for_each(Waker::wake);
        assert_eq!(rearm, None);
        assert_eq!(c.0.load(Ordering::Relaxed), 1);
        assert!(s.poll(id, &w));
    }

    #[test]
    fn a_dropped_deadline_is_never_woken() {
        let mut s = Schedule::default();
        let mut arms = Vec::new();
        let (w, c) = waker();
        let id = add(&mut s, 10.0, &mut arms);
        assert!(!s.poll(id, &w));
        s.remove(id);
        let (woken, rearm) = s.fire(10.0);
        assert!(woken.is_empty() && rearm.is_none());
        assert_eq!(c.0.load(Ordering::Relaxed), 0);
    }
}
