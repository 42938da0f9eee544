//! burrow benchmarks: small timing helpers shared by the benchmark binaries, and the
//! receive-path ladder ([`ladder`]) that runs both natively and in wasm32.
//!
//! Benchmarks are native programs (`cargo run --release -p burrow-bench --bin crypto`); they read
//! the clock, which the sans-IO crates never do. Figures come from here, never from timed
//! assertions in tests.

#[cfg(not(target_arch = "wasm32"))]
use std::hint::black_box;
use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

pub use burrow_testkit::corpus;
pub mod ladder;

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
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy)]
struct Stamp {
    wall: Instant,
    cpu: f64,
}

#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods)] // a benchmark reads the clock by design
fn now() -> Stamp {
    Stamp {
        wall: Instant::now(),
        cpu: thread_cpu_seconds(),
    }
}

/// CPU time consumed by the calling thread, in seconds (0 if the clock is unavailable).
#[cfg(all(not(unix), not(target_arch = "wasm32")))]
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

#[cfg(not(target_arch = "wasm32"))]
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
#[cfg(not(target_arch = "wasm32"))]
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

/// A reading of the clock a figure is quoted in (`primary`) and of wall time, in seconds from an
/// arbitrary origin. Natively `primary` is this thread's CPU time; where there is no CPU clock
/// (wasm32) both are wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reading {
    /// Seconds on the clock figures are quoted in.
    pub primary: f64,
    /// Wall-clock seconds.
    pub wall: f64,
}

impl core::ops::Sub for Reading {
    type Output = Reading;
    fn sub(self, rhs: Reading) -> Reading {
        Reading {
            primary: self.primary - rhs.primary,
            wall: self.wall - rhs.wall,
        }
    }
}

impl core::ops::AddAssign for Reading {
    fn add_assign(&mut self, rhs: Reading) {
        self.primary += rhs.primary;
        self.wall += rhs.wall;
    }
}

/// Where the ladder reads the time: [`ThreadCpuClock`] natively, `performance.now()` in wasm.
pub trait Clock {
    /// The current reading.
    fn now(&self) -> Reading;
    /// What `primary` measures, for the report.
    fn describe(&self) -> &'static str;
    /// Whether `primary` differs from wall time (false when there is only a wall clock).
    fn has_cpu_time(&self) -> bool;
}

/// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) as the primary clock, plus wall time.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
pub struct ThreadCpuClock {
    origin: Instant,
}

#[cfg(not(target_arch = "wasm32"))]
impl Default for ThreadCpuClock {
    #[allow(clippy::disallowed_methods)] // a benchmark reads the clock by design
    fn default() -> Self {
        ThreadCpuClock {
            origin: Instant::now(),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Clock for ThreadCpuClock {
    fn now(&self) -> Reading {
        Reading {
            primary: thread_cpu_seconds(),
            wall: self.origin.elapsed().as_secs_f64(),
        }
    }

    fn describe(&self) -> &'static str {
        "thread CPU time"
    }

    fn has_cpu_time(&self) -> bool {
        true
    }
}

/// The result of [`sample`]: per-operation seconds on the primary clock.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    /// Median over the rounds of the mean per operation.
    pub median: f64,
    /// Fastest round.
    pub min: f64,
    /// Slowest round.
    pub max: f64,
    /// Each measured round's mean per operation, in round order.
    pub per_round: Vec<f64>,
    /// Median wall time per operation.
    pub wall_median: f64,
    /// Mean time per operation that the operation reported as not its own (subtracted above).
    pub excluded: f64,
    /// Operations per round.
    pub iterations: u64,
    /// The 10th percentile of the single operations' times over the measured rounds: a figure
    /// load can only push up, so less disturbed by a busy machine than the rounds' means.
    pub p10: f64,
}

impl Sample {
    fn from_rounds(
        mut per_round: Vec<f64>,
        mut wall: Vec<f64>,
        excluded: f64,
        iterations: u64,
        mut ops: Vec<f64>,
    ) -> Sample {
        let min = per_round.iter().copied().fold(f64::INFINITY, f64::min);
        let max = per_round.iter().copied().fold(0.0, f64::max);
        let kept = per_round.clone();
        Sample {
            median: median(&mut per_round),
            min,
            max,
            per_round: kept,
            wall_median: median(&mut wall),
            excluded,
            iterations,
            p10: percentile(&mut ops, 0.10),
        }
    }
}

/// The `q` quantile of `values` (nearest rank; 0 when empty).
fn percentile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((values.len() as f64 - 1.0) * q).round() as usize;
    values[rank.min(values.len() - 1)]
}

/// Median, fastest and slowest of `values` (e.g. per-round differences of two samples).
pub fn stats(values: &[f64]) -> (f64, f64, f64) {
    let mut v = values.to_vec();
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (median(&mut v), min, max)
}

/// Runs setup then the operation; returns (time of the operation less what it excluded, the
/// excluded primary seconds).
type Once<'a> = Box<dyn FnMut(&dyn Clock) -> (Reading, f64) + 'a>;

/// Where a counted run is, for an instruction counter outside the program (see
/// [`set_phase_hook`]): the marks bracket each timed operation and, inside it, the scripted
/// peer's work that the figure leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Phase {
    /// An operation's figure ends here (what follows is setup or bookkeeping).
    OpEnd = 0,
    /// An operation's figure starts here.
    OpStart = 1,
    /// Work of the scripted peer, left out of the figure, starts here.
    PeerStart = 2,
    /// The peer's work ends; the operation's own work goes on.
    PeerEnd = 3,
}

std::thread_local! {
    static PHASE_HOOK: std::cell::Cell<Option<fn(Phase)>> = const { std::cell::Cell::new(None) };
}

/// Has `hook` called at every [`Phase`] mark of this thread (`None`: no marks, the default).
/// `bench/wasm` uses it to have callgrind split its counts of Node running the ladder.
pub fn set_phase_hook(hook: Option<fn(Phase)>) {
    PHASE_HOOK.with(|h| h.set(hook));
}

/// Marks `phase` for the hook, if one is set.
pub fn phase(phase: Phase) {
    if let Some(hook) = PHASE_HOOK.with(std::cell::Cell::get) {
        hook(phase);
    }
}

/// One operation to time, with its untimed setup: see [`sample_interleaved`].
pub struct Op<'a> {
    once: Once<'a>,
}

impl<'a> Op<'a> {
    /// `setup` runs before each operation, outside the figure; `op` returns the time inside it
    /// that is not its own (work of a scripted peer, timed on the same clock), which is
    /// subtracted.
    pub fn new<S>(
        mut setup: impl FnMut() -> S + 'a,
        mut op: impl FnMut(S) -> Reading + 'a,
    ) -> Op<'a> {
        Op {
            once: Box::new(move |clock: &dyn Clock| {
                let input = setup();
                phase(Phase::OpStart);
                let start = clock.now();
                let excluded = op(input);
                let took = clock.now() - start;
                phase(Phase::OpEnd);
                (took - excluded, excluded.primary)
            }),
        }
    }

    /// An operation with no setup and nothing excluded.
    pub fn plain(mut op: impl FnMut() + 'a) -> Op<'a> {
        Op::new(
            || (),
            move |()| {
                op();
                Reading::default()
            },
        )
    }
}

/// Times `ops` on `clock`, one operation at a time (so setups stay outside the figures) and
/// interleaved: within a round the ops' operations alternate, spread evenly, so load that
/// comes and goes on a shared machine hits them alike and per-round differences between them
/// are meaningful. Each op's share of a round is calibrated to about `round_secs`; one warm-up
/// round, then `rounds` rounds.
/// Operations here take milliseconds, so two clock reads per operation do not matter.
pub fn sample_interleaved(
    clock: &dyn Clock,
    round_secs: f64,
    rounds: usize,
    ops: &mut [Op<'_>],
) -> Vec<Sample> {
    let iterations: Vec<u64> = ops
        .iter_mut()
        .map(|op| {
            // Double the count until a batch takes a tenth of a round.
            let mut batch: u64 = 1;
            let per = loop {
                let mut total = 0.0;
                for _ in 0..batch {
                    total += (op.once)(clock).0.primary;
                }
                if total >= round_secs / 10.0 || batch >= 1 << 20 {
                    break total / batch as f64;
                }
                batch *= 2;
            };
            ((round_secs / per.max(1e-9)) as u64).max(1)
        })
        .collect();
    let mut per_round = vec![Vec::with_capacity(rounds); ops.len()];
    let mut wall = vec![Vec::with_capacity(rounds); ops.len()];
    let mut excluded = vec![0.0; ops.len()];
    let mut singles: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
    let total: u64 = iterations.iter().sum();
    for r in 0..=rounds {
        let mut done = vec![0u64; ops.len()];
        let mut sum = vec![Reading::default(); ops.len()];
        let mut ex = vec![0.0; ops.len()];
        // Operation by operation, the op furthest behind its share of the round goes next, so
        // the ops' iterations are spread evenly over the round.
        for _ in 0..total {
            let behind = |i: usize| done[i] as f64 / iterations[i] as f64;
            let i = (0..ops.len())
                .min_by(|&a, &b| behind(a).total_cmp(&behind(b)))
                .unwrap_or(0);
            let (t, e) = (ops[i].once)(clock);
            if r > 0 {
                singles[i].push(t.primary);
            }
            sum[i] += t;
            ex[i] += e;
            done[i] += 1;
        }
        if r > 0 {
            for (i, &n) in iterations.iter().enumerate() {
                per_round[i].push(sum[i].primary / n as f64);
                wall[i].push(sum[i].wall / n as f64);
                excluded[i] += ex[i] / n as f64 / rounds as f64;
            }
        }
    }
    per_round
        .into_iter()
        .zip(wall)
        .zip(excluded)
        .zip(iterations)
        .zip(singles)
        .map(|((((p, w), e), n), one)| Sample::from_rounds(p, w, e, n, one))
        .collect()
}

/// [`sample_interleaved`] of one operation.
pub fn sample(clock: &dyn Clock, round_secs: f64, rounds: usize, op: Op<'_>) -> Sample {
    sample_interleaved(clock, round_secs, rounds, &mut [op])
        .pop()
        .unwrap_or_default()
}
