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
    /// Median CPU time (of the measuring thread) of one operation over the rounds: the figure
    /// to quote, since it is not inflated by other processes on a shared machine.
    pub per_op: Duration,
    /// Median wall time of one operation over the rounds.
    pub wall_per_op: Duration,
    /// Iterations in each round.
    pub iterations: u64,
    /// Rounds measured (after one warm-up round).
    pub rounds: usize,
}

/// A point on both clocks: wall time and this thread's CPU time.
#[derive(Clone, Copy)]
struct Stamp {
    wall: Instant,
    cpu: f64,
}

#[allow(clippy::disallowed_methods)] // a benchmark reads the clock by design
fn now() -> Stamp {
    Stamp {
        wall: Instant::now(),
        cpu: thread_cpu_seconds(),
    }
}

/// CPU time consumed by the calling thread, in seconds (0 if the clock is unavailable).
#[cfg(not(unix))]
fn thread_cpu_seconds() -> f64 {
    0.0
}

/// CPU time consumed by the calling thread, in seconds (0 if the clock is unavailable).
#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

impl Stamp {
    /// (wall seconds, CPU seconds) since `self`.
    fn elapsed(&self) -> (f64, f64) {
        (
            self.wall.elapsed().as_secs_f64(),
            thread_cpu_seconds() - self.cpu,
        )
    }
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(0.0)
}

/// Times `op` (CPU time of this thread, and wall time): calibrates an iteration count so one round takes about `round` of wall time,
/// runs one warm-up round, then `rounds` measured rounds, and returns the median per-op time.
pub fn measure<R>(round: Duration, rounds: usize, mut op: impl FnMut() -> R) -> Measurement {
    // Calibrate: double the count until one batch takes at least a tenth of a round.
    let mut iterations: u64 = 1;
    loop {
        let start = now();
        for _ in 0..iterations {
            black_box(op());
        }
        let (wall, cpu) = start.elapsed();
        let took = if cpu > 0.0 { cpu } else { wall };
        if took >= round.as_secs_f64() / 10.0 || iterations >= 1 << 30 {
            let per = took / iterations as f64;
            iterations = ((round.as_secs_f64() / per.max(1e-9)) as u64).max(1);
            break;
        }
        iterations *= 2;
    }
    let mut cpu = Vec::with_capacity(rounds);
    let mut wall = Vec::with_capacity(rounds);
    for i in 0..=rounds {
        let start = now();
        for _ in 0..iterations {
            black_box(op());
        }
        if i > 0 {
            let (w, c) = start.elapsed();
            wall.push(w / iterations as f64);
            cpu.push(c / iterations as f64);
        }
    }
    Measurement {
        per_op: Duration::from_secs_f64(median(&mut cpu)),
        wall_per_op: Duration::from_secs_f64(median(&mut wall)),
        iterations,
        rounds,
    }
}
