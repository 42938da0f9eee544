//! burrow benchmarks: small timing helpers shared by the benchmark binaries.
//!
//! Benchmarks are native programs (`cargo run --release -p burrow-bench --bin crypto`); they read
//! the clock, which the sans-IO crates never do. Figures come from here, never from timed
//! assertions in tests.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// How one operation was measured.
#[derive(Clone, Copy, Debug)]
pub struct Measurement {
    /// Median time of one operation over the rounds.
    pub per_op: Duration,
    /// Iterations in each round.
    pub iterations: u64,
    /// Rounds measured (after one warm-up round).
    pub rounds: usize,
}

#[allow(clippy::disallowed_methods)] // a benchmark reads the clock by design
fn now() -> Instant {
    Instant::now()
}

/// Times `op`: calibrates an iteration count so one round takes about `round` of wall time,
/// runs one warm-up round, then `rounds` measured rounds, and returns the median per-op time.
pub fn measure<R>(round: Duration, rounds: usize, mut op: impl FnMut() -> R) -> Measurement {
    // Calibrate: double the count until one batch takes at least a tenth of a round.
    let mut iterations: u64 = 1;
    loop {
        let start = now();
        for _ in 0..iterations {
            black_box(op());
        }
        let took = start.elapsed();
        if took >= round / 10 || iterations >= 1 << 30 {
            let per = took.as_secs_f64() / iterations as f64;
            iterations = ((round.as_secs_f64() / per.max(1e-9)) as u64).max(1);
            break;
        }
        iterations *= 2;
    }
    let mut samples = Vec::with_capacity(rounds);
    for i in 0..=rounds {
        let start = now();
        for _ in 0..iterations {
            black_box(op());
        }
        if i > 0 {
            samples.push(start.elapsed().as_secs_f64() / iterations as f64);
        }
    }
    samples.sort_by(f64::total_cmp);
    let median = samples.get(samples.len() / 2).copied().unwrap_or(0.0);
    Measurement {
        per_op: Duration::from_secs_f64(median),
        iterations,
        rounds,
    }
}
