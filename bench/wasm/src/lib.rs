//! The receive-path ladder (`burrow_bench::ladder`) in wasm32, for Node. `run.mjs` measures
//! each item in a fresh instance (`run_item`, after `__wbg_reset_state`) so no figure depends on
//! the heap earlier items left, then formats the table (`table`). Built by `script/bench`
//! (release profile, `+simd128` from `.cargo/config.toml`), bound with `wasm-bindgen --target
//! nodejs --experimental-reset-state-function`.
//!
//! wasm has no thread CPU clock: every figure here is wall time from `performance.now()`, so a
//! busy machine inflates it (the native ladder quotes thread CPU time).
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use burrow_bench::ladder::{self, Options, Outcome, Report};
use burrow_bench::{Clock, Reading};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

/// `performance.now()` (milliseconds) as both readings.
struct PerformanceClock;

impl Clock for PerformanceClock {
    fn now(&self) -> Reading {
        let s = performance_now() / 1e3;
        Reading {
            primary: s,
            wall: s,
        }
    }

    fn describe(&self) -> &'static str {
        "wall time (performance.now(); wasm has no thread CPU clock)"
    }

    fn has_cpu_time(&self) -> bool {
        false
    }
}

/// The options for `quick` (the rough short run) and `only` (rung letters, empty for all).
fn options(quick: bool, only: &str) -> Result<Options, JsError> {
    let opts = if quick {
        Options::quick()
    } else {
        Options::full()
    };
    if only.is_empty() {
        return Ok(opts);
    }
    opts.only(only)
        .ok_or_else(|| JsError::new("--only takes rung letters a to e"))
}

/// How many items these options measure.
#[wasm_bindgen]
pub fn item_count(quick: bool, only: &str) -> Result<usize, JsError> {
    Ok(ladder::items(options(quick, only)?).len())
}

/// Measures item `index`; its table lines go to `console.error`, its result comes back encoded
/// for [`table`].
#[wasm_bindgen]
pub fn run_item(quick: bool, only: &str, index: usize) -> Result<String, JsError> {
    // A panic would otherwise surface as a bare `unreachable` trap.
    std::panic::set_hook(Box::new(|info| console_error(&format!("panic: {info}"))));
    let opts = options(quick, only)?;
    let item = ladder::items(opts)
        .get(index)
        .copied()
        .ok_or_else(|| JsError::new("no such item"))?;
    let clock: Rc<dyn Clock> = Rc::new(PerformanceClock);
    let outcome = ladder::run_item(&clock, opts, item);
    for line in outcome.lines(false) {
        console_error(&line);
    }
    Ok(outcome.encode())
}

/// The table from the items' encoded results (in order); `platform` names the runtime.
#[wasm_bindgen]
pub fn table(
    quick: bool,
    only: &str,
    results: Vec<String>,
    platform: &str,
) -> Result<String, JsError> {
    let opts = options(quick, only)?;
    let mut report = Report::default();
    report.notes.push(
        "Each item ran in a fresh instance of the module (same compiled code, new linear memory)."
            .to_string(),
    );
    for r in &results {
        report.add(Outcome::decode(r).ok_or_else(|| JsError::new("unreadable item result"))?);
    }
    Ok(report.table(&PerformanceClock, opts, &format!("wasm32 in {platform}")))
}

/// Runs rung e's item `index` (as [`run_item`] numbers them for `--only e`) with the whole path
/// alone for about `seconds`, for a profiler (`node --perf-basic-prof` under `perf record`):
/// nothing else runs but the scripted server's setup. Returns the encoded outcome.
#[wasm_bindgen]
pub fn profile_item(index: usize, seconds: f64) -> Result<String, JsError> {
    let opts = Options {
        round_secs: seconds,
        rounds: 1,
        path_only: true,
        ..options(false, "e")?
    };
    run_rung_e(index, opts)
}

/// Runs rung e's item `index` with `opts`; returns the encoded outcome.
fn run_rung_e(index: usize, opts: Options) -> Result<String, JsError> {
    let item = ladder::items(opts)
        .get(index)
        .copied()
        .ok_or_else(|| JsError::new("no such item"))?;
    let clock: Rc<dyn Clock> = Rc::new(PerformanceClock);
    Ok(ladder::run_item(&clock, opts, item).encode())
}

#[wasm_bindgen]
extern "C" {
    /// Defined by `bench/wasm/count.mjs`: records the mark, then calls into Node's C++ where
    /// callgrind dumps its counts.
    #[wasm_bindgen(js_namespace = globalThis, js_name = burrowBenchMark)]
    fn bench_mark(phase: u32);
}

/// Runs rung e's item `index` for an instruction counter: every operation once per round,
/// `rounds` rounds after the calibration pass and a warm-up round, with [`burrow_bench::Phase`]
/// marks passed to `globalThis.burrowBenchMark` (see `bench/wasm/count.mjs`). The timings it
/// returns mean nothing under the counter.
#[wasm_bindgen]
pub fn count_item(index: usize, rounds: usize) -> Result<String, JsError> {
    let opts = Options {
        // No round is long enough for a second iteration: one of each op per round.
        round_secs: 0.0,
        rounds,
        ..options(false, "e")?
    };
    burrow_bench::set_phase_hook(Some(|p| bench_mark(p as u32)));
    let outcome = run_rung_e(index, opts);
    burrow_bench::set_phase_hook(None);
    outcome
}
