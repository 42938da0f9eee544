//! The receive-path ladder (`burrow_bench::ladder`) in wasm32, for Node: `run_ladder` measures
//! and returns the table. Built by `script/bench` (release profile, `+simd128` from
//! `.cargo/config.toml`), bound with `wasm-bindgen --target nodejs`, run by `run.mjs`.
//!
//! wasm has no thread CPU clock: every figure here is wall time from `performance.now()`, so a
//! busy machine inflates it (the native ladder quotes thread CPU time).
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use burrow_bench::ladder::{self, Options};
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

/// Runs the ladder (`quick`: the rough short run; `only`: rung letters to run, empty for all)
/// and returns the table; progress lines go to `console.error` as each measurement ends.
/// `platform` names the runtime for the header.
#[wasm_bindgen]
pub fn run_ladder(quick: bool, only: &str, platform: &str) -> Result<String, JsError> {
    // A panic would otherwise surface as a bare `unreachable` trap.
    std::panic::set_hook(Box::new(|info| console_error(&format!("panic: {info}"))));
    let mut opts = if quick {
        Options::quick()
    } else {
        Options::full()
    };
    if !only.is_empty() {
        opts = opts
            .only(only)
            .ok_or_else(|| JsError::new("--only takes rung letters a to e"))?;
    }
    let clock: Rc<dyn Clock> = Rc::new(PerformanceClock);
    let report = ladder::run(Rc::clone(&clock), opts, &mut |line| console_error(line));
    Ok(report.table(&*clock, opts, &format!("wasm32 in {platform}")))
}
