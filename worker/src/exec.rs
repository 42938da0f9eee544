//! The Worker's executor and its bridge from JS promises to Rust futures.
//!
//! `wasm-bindgen-futures` pays two costs per await that add up on the byte path, where every
//! socket read, every record's WebCrypto open and every body chunk is a promise: `JsFuture`
//! makes two `Closure`s per promise (each registered with a `FinalizationRegistry`), and each
//! wake-up goes through `queueMicrotask`, which workerd wraps in its own bookkeeping. In a
//! profile of workerd fetching a large body, 12–14 % of the samples were in those two
//! (`bench/README.md`). Here:
//!
//! - [`awaited`] waits for a promise through one callback made once per instance: a small
//!   JS function (below) attaches `then` handlers that call it with the promise's key.
//! - [`spawn`] runs a future as a task of this executor. A task woken while JS calls into
//!   wasm through one of this module's entry points (a promise settling, a timer firing) is
//!   polled before that call returns; woken from anywhere else, it runs in a microtask. A
//!   waker never polls anything itself: it may be called with a `RefCell` borrowed.
//! - [`spawn_promise`] is `future_to_promise` on this executor.
//!
//! Tasks woken during a run are polled in the same run, so one settled promise that hands
//! work from task to task (the HTTP/2 driver to a body reader) costs no further microtask.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use js_sys::Promise;

use crate::num::js_to_u64;
use wasm_bindgen::prelude::*;

// Two snippets, not one: wasm-bindgen gives each function the wasm imports directly from a
// snippet its own `import * as` line keyed by the snippet's path, so two such functions in one
// snippet make an object literal with a duplicate key (a bundler warning on every build).
// `burrowDeferred` is the only direct import of its snippet (`burrowResolve` takes a `bool`,
// which goes through the glue).
#[wasm_bindgen(inline_js = r#"
export function burrowSettle(promise, key, settle) {
  promise.then((v) => settle(key, v, true), (e) => settle(key, e, false));
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = burrowSettle)]
    fn settle_into(promise: &Promise, key: f64, settle: &JsValue);
}

// The JS API's promises (`spawn_promise`): a Rust Worker awaits futures instead.
#[cfg(feature = "js")]
#[wasm_bindgen(inline_js = r#"
const deferred = new Map();
export function burrowDeferred(key) {
  return new Promise((resolve, reject) => deferred.set(key, { resolve, reject }));
}
export function burrowResolve(key, ok, value) {
  const d = deferred.get(key);
  if (d !== undefined) {
    deferred.delete(key);
    (ok ? d.resolve : d.reject)(value);
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = burrowDeferred)]
    fn deferred(key: f64) -> Promise;
    #[wasm_bindgen(js_name = burrowResolve)]
    fn resolve(key: f64, ok: bool, value: &JsValue);
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = queueMicrotask)]
    fn queue_microtask(callback: &JsValue);
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

// The maps below are keyed by counters and hold a handful of entries: B-trees, which need no
// hashing (SipHash showed in profiles of small requests).

struct Slot {
    /// `None` while the task is being polled.
    future: Option<Task>,
    waker: Waker,
    queued: bool,
}

#[derive(Default)]
struct Tasks {
    slots: BTreeMap<u32, Slot>,
    next: u32,
    ready: VecDeque<u32>,
}

thread_local! {
    static TASKS: RefCell<Tasks> = RefCell::default();
    /// Inside [`run`]: wakes only queue.
    static RUNNING: Cell<bool> = const { Cell::new(false) };
    /// Inside an entry point that runs the queue before it returns: wakes only queue.
    static ENTERED: Cell<bool> = const { Cell::new(false) };
    /// A microtask will run the queue.
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
    static RUN: Closure<dyn FnMut()> = Closure::new(|| {
        SCHEDULED.with(|s| s.set(false));
        run();
    });
}

/// Wakes task `id`.
struct TaskWaker(u32);

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        wake(self.0);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        wake(self.0);
    }
}

fn wake(id: u32) {
    let newly = TASKS.with(|t| {
        let mut t = t.borrow_mut();
        match t.slots.get_mut(&id) {
            Some(slot) if !slot.queued => {
                slot.queued = true;
                t.ready.push_back(id);
                true
            }
            _ => false,
        }
    });
    if newly
        && !RUNNING.with(Cell::get)
        && !ENTERED.with(Cell::get)
        && !SCHEDULED.with(|s| s.replace(true))
    {
        schedule();
    }
}

/// Has a microtask run the queue.
#[cfg(target_arch = "wasm32")]
fn schedule() {
    RUN.with(|r| queue_microtask(r.as_ref().unchecked_ref()));
}

/// Natively (the unit tests) the test runs the queue: see `tests::microtask`.
#[cfg(not(target_arch = "wasm32"))]
fn schedule() {}

/// Runs `future` as a task of this executor.
pub(crate) fn spawn(future: impl Future<Output = ()> + 'static) {
    let id = TASKS.with(|t| {
        let mut t = t.borrow_mut();
        let mut id = t.next;
        while t.slots.contains_key(&id) {
            id = id.wrapping_add(1);
        }
        t.next = id.wrapping_add(1);
        t.slots.insert(
            id,
            Slot {
                future: Some(Box::pin(future)),
                waker: Waker::from(Arc::new(TaskWaker(id))),
                queued: false,
            },
        );
        id
    });
    wake(id);
}

/// Polls every queued task, those woken meanwhile included.
fn run() {
    if RUNNING.with(|r| r.replace(true)) {
        return;
    }
    loop {
        let next = TASKS.with(|t| {
            let mut t = t.borrow_mut();
            let id = t.ready.pop_front()?;
            let slot = t.slots.get_mut(&id)?;
            slot.queued = false;
            Some((id, slot.future.take(), slot.waker.clone()))
        });
        let Some((id, future, waker)) = next else {
            // The queue is empty (a finished task's id is skipped the same way).
            if TASKS.with(|t| t.borrow().ready.is_empty()) {
                break;
            }
            continue;
        };
        let Some(mut future) = future else {
            continue;
        };
        // No borrow is held here: the task may spawn, wake, or call into JS.
        let done = future
            .as_mut()
            .poll(&mut Context::from_waker(&waker))
            .is_ready();
        if done {
            // Dropped outside the borrow below: a drop may wake another task.
            drop(future);
            let slot = TASKS.with(|t| t.borrow_mut().slots.remove(&id));
            drop(slot);
        } else {
            TASKS.with(|t| {
                if let Some(slot) = t.borrow_mut().slots.get_mut(&id) {
                    slot.future = Some(future);
                }
            });
        }
    }
    RUNNING.with(|r| r.set(false));
}

/// The result of a promise `awaited` is waiting for.
#[derive(Default)]
struct Pending {
    result: Option<Result<JsValue, JsValue>>,
    waker: Option<Waker>,
}

/// A key for a promise or a deferred: counted up, never reused (2^53 keys are exact as JS
/// numbers), so a callback that comes after its future was dropped finds nothing and does
/// nothing — no entry waits for a promise that may never settle.
fn next_key() -> f64 {
    NEXT_KEY.with(|n| {
        let k = n.get() + 1.0;
        n.set(k);
        k
    })
}

thread_local! {
    static PROMISES: RefCell<BTreeMap<u64, Pending>> = RefCell::default();
    static NEXT_KEY: Cell<f64> = const { Cell::new(0.0) };
    static SETTLE: Closure<dyn FnMut(f64, JsValue, bool)> =
        Closure::new(|key: f64, value: JsValue, ok: bool| {
            from_js(|| settled(js_to_u64(key), if ok { Ok(value) } else { Err(value) }));
        });
}

/// Promise `key` settled: its future gets the result (nothing, if the future is gone).
fn settled(key: u64, result: Result<JsValue, JsValue>) {
    let waker = PROMISES.with(|p| {
        p.borrow_mut().get_mut(&key).and_then(|w| {
            w.result = Some(result);
            w.waker.take()
        })
    });
    if let Some(w) = waker {
        w.wake();
    }
}

/// A promise's outcome as a future (see the module docs); drop it to stop waiting.
pub(crate) struct Awaited {
    key: u64,
}

/// Waits for `promise`.
pub(crate) fn awaited(promise: &Promise) -> Awaited {
    let key = next_key();
    SETTLE.with(|s| settle_into(promise, key, s.as_ref()));
    Awaited::register(js_to_u64(key))
}

impl Awaited {
    /// Waits for what settles `key`.
    fn register(key: u64) -> Awaited {
        PROMISES.with(|p| p.borrow_mut().insert(key, Pending::default()));
        Awaited { key }
    }
}

impl Future for Awaited {
    type Output = Result<JsValue, JsValue>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        PROMISES.with(|p| {
            let mut p = p.borrow_mut();
            let Some(w) = p.get_mut(&self.key) else {
                return Poll::Ready(Err(JsValue::from_str("the promise was already taken")));
            };
            match w.result.take() {
                Some(r) => {
                    p.remove(&self.key);
                    Poll::Ready(r)
                }
                None => {
                    w.waker = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        })
    }
}

impl Drop for Awaited {
    fn drop(&mut self) {
        PROMISES.with(|p| p.borrow_mut().remove(&self.key));
    }
}

/// Tasks alive and promises awaited, for tests: neither may grow from request to request.
#[cfg(feature = "test-hooks")]
pub(crate) fn live() -> (usize, usize) {
    (
        TASKS.with(|t| t.borrow().slots.len()),
        PROMISES.with(|p| p.borrow().len()),
    )
}

/// `future` as a JS promise, run on this executor (the JS API's fetches and body reads).
#[cfg(feature = "js")]
pub(crate) fn spawn_promise(
    future: impl Future<Output = Result<JsValue, JsValue>> + 'static,
) -> Promise {
    let key = next_key();
    let promise = deferred(key);
    spawn(async move {
        match future.await {
            Ok(v) => resolve(key, true, &v),
            Err(e) => resolve(key, false, &e),
        }
    });
    promise
}

/// Runs `f` (a call from JS into wasm that may wake tasks) as an entry point of this
/// executor: what it wakes runs before it returns. Nested entry points run the queue once, at
/// the outermost.
pub(crate) fn from_js<R>(f: impl FnOnce() -> R) -> R {
    let outer = ENTERED.with(|e| e.replace(true));
    let r = f();
    ENTERED.with(|e| e.set(outer));
    if !outer {
        run();
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// What a scheduled microtask does.
    fn microtask() {
        if SCHEDULED.with(|s| s.replace(false)) {
            run();
        }
    }

    /// Pending until `flag` is set; counts its polls.
    fn until(
        flag: Rc<Cell<bool>>,
        polls: Rc<Cell<u32>>,
        waker: Rc<RefCell<Option<Waker>>>,
    ) -> impl Future<Output = ()> {
        std::future::poll_fn(move |cx| {
            polls.set(polls.get().saturating_add(1));
            if flag.get() {
                Poll::Ready(())
            } else {
                *waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        })
    }

    #[test]
    fn a_task_spawned_from_outside_runs_in_a_microtask_and_once_done_is_gone() {
        let ran = Rc::new(Cell::new(false));
        let r = Rc::clone(&ran);
        spawn(async move { r.set(true) });
        assert!(!ran.get(), "polled inside spawn");
        microtask();
        assert!(ran.get());
        assert!(TASKS.with(|t| t.borrow().slots.is_empty()));
    }

    #[test]
    fn tasks_woken_inside_an_entry_point_run_before_it_returns() {
        let (flag, polls, waker) = (Rc::default(), Rc::default(), Rc::default());
        spawn(until(
            Rc::clone(&flag),
            Rc::clone(&polls),
            Rc::clone(&waker),
        ));
        microtask();
        assert_eq!(polls.get(), 1);
        from_js(|| {
            flag.set(true);
            let w = waker.borrow_mut().take();
            w.unwrap().wake();
            // Woken, not yet polled: the entry point runs it on its way out.
            assert_eq!(polls.get(), 1);
        });
        assert_eq!(polls.get(), 2);
        assert!(!SCHEDULED.with(Cell::get), "no microtask was needed");
        assert!(TASKS.with(|t| t.borrow().slots.is_empty()));
    }

    #[test]
    fn a_task_woken_by_another_during_a_run_is_polled_in_the_same_run() {
        let (flag, polls, waker) = (Rc::new(Cell::new(false)), Rc::default(), Rc::default());
        spawn(until(
            Rc::clone(&flag),
            Rc::clone(&polls),
            Rc::clone(&waker),
        ));
        microtask();
        let (f, w) = (Rc::clone(&flag), Rc::clone(&waker));
        spawn(async move {
            f.set(true);
            w.borrow_mut().take().unwrap().wake();
        });
        microtask();
        assert_eq!(polls.get(), 2);
        assert!(!SCHEDULED.with(Cell::get));
        assert!(TASKS.with(|t| t.borrow().slots.is_empty()));
    }

    #[test]
    fn a_waker_never_polls_its_task_in_place() {
        // The task borrows `shared` when polled; it is woken while `shared` is borrowed (as
        // the HTTP/2 state wakes its driver): polling there would panic.
        let shared = Rc::new(RefCell::new(0u32));
        let (flag, polls, waker) = (
            Rc::new(Cell::new(false)),
            Rc::new(Cell::new(0)),
            Rc::default(),
        );
        let s = Rc::clone(&shared);
        let inner = until(Rc::clone(&flag), Rc::clone(&polls), Rc::clone(&waker));
        spawn(async move {
            *s.borrow_mut() += 1;
            inner.await;
            *s.borrow_mut() += 1;
        });
        microtask();
        from_js(|| {
            let mut held = shared.borrow_mut();
            flag.set(true);
            waker.borrow_mut().take().unwrap().wake();
            *held += 10;
        });
        assert_eq!(*shared.borrow(), 12);
    }

    #[test]
    fn a_finished_task_may_wake_another_as_it_is_dropped() {
        // A `poll_fn` keeps its closure (and what it captured) until the task is dropped,
        // after it finished: a drop that wakes must not meet the executor's own borrow.
        struct WakeOnDrop(Rc<RefCell<Option<Waker>>>);
        impl Drop for WakeOnDrop {
            fn drop(&mut self) {
                if let Some(w) = self.0.borrow_mut().take() {
                    w.wake();
                }
            }
        }
        let (flag, polls, waker) = (
            Rc::new(Cell::new(false)),
            Rc::new(Cell::new(0)),
            Rc::default(),
        );
        spawn(until(
            Rc::clone(&flag),
            Rc::clone(&polls),
            Rc::clone(&waker),
        ));
        microtask();
        flag.set(true);
        let guard = WakeOnDrop(Rc::clone(&waker));
        spawn(std::future::poll_fn(move |_| {
            let _kept = &guard;
            Poll::Ready(())
        }));
        microtask();
        assert_eq!(polls.get(), 2, "the woken task ran in the same run");
        assert!(TASKS.with(|t| t.borrow().slots.is_empty()));
    }

    #[test]
    fn a_settled_promise_wakes_its_waiter_and_a_dropped_one_leaves_nothing() {
        let got = Rc::new(RefCell::new(None));
        let key = js_to_u64(next_key());
        let waiting = Awaited::register(key);
        let g = Rc::clone(&got);
        spawn(async move {
            *g.borrow_mut() = Some(waiting.await);
        });
        microtask();
        assert!(got.borrow().is_none());
        from_js(|| settled(key, Ok(JsValue::TRUE)));
        assert!(matches!(&*got.borrow(), Some(Ok(_))));
        assert!(PROMISES.with(|p| p.borrow().is_empty()));

        // Dropped before it settles (its promise may never settle): nothing is kept, and the
        // late callback finds nothing to do.
        let key = js_to_u64(next_key());
        drop(Awaited::register(key));
        assert!(PROMISES.with(|p| p.borrow().is_empty()));
        from_js(|| settled(key, Err(JsValue::NULL)));
        assert!(PROMISES.with(|p| p.borrow().is_empty()));
    }
}
