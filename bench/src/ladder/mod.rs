//! The receive-path ladder: each layer of the path a response body takes, timed alone through
//! its crate's public API, then the whole path through `burrow_client::Client`, natively
//! (`src/bin/ladder.rs`) and in wasm32 under Node (`bench/wasm`). `script/bench` runs both.
//!
//! Rungs (4 MiB of body each; MB = 10^6 bytes of body, not of wire bytes):
//! * a. record open: `burrow_record::RecordReader` (`recv_buf`/`commit` + `next_record`) over sealed 16 KiB
//!   TLS 1.3 records, and burrow-crypto's AEAD alone over the same records.
//! * b. h2 DATA parse: `burrow_h2::Connection::handle_input_with` (a `DataSink`) + `consume`.
//! * c. h1 chunked parse: `burrow_h1::Decoder` over the caller's buffer, as the client uses it.
//! * d. inflate: `burrow_decode::Decoder`, gzip, per MB of decoded output.
//! * e. the whole path, ciphertext in → body chunks out, through `Client::fetch` +
//!   `Response::chunk` over an in-memory `Net` to a scripted TLS 1.3 server
//!   (`burrow_testkit::tls13_server`), h2 and HTTP/1.1; minus the AEAD over the same records
//!   it is "the path cost beyond the AEAD".

mod layers;
mod path;
mod wire;

use std::fmt::Write as _;
use std::rc::Rc;

use burrow_testkit::tls13_server::Suite;

use crate::{Clock, Sample};

pub use path::Http;

/// Body bytes every rung carries: 4 MiB, like the peers' `/4m.bin`.
pub const BODY_LEN: usize = 4 * 1024 * 1024;

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Seconds per round (after calibration).
    pub round_secs: f64,
    /// Measured rounds per line (after one warm-up round).
    pub rounds: usize,
    /// The whole path under AES-128-GCM and ChaCha20-Poly1305 (else ChaCha20-Poly1305 only).
    pub all_suites: bool,
    /// Which rungs run: bit 0 is a, … bit 4 is e (see [`Options::only`]).
    pub rungs: u8,
}

impl Options {
    /// The full run: ~200 ms rounds, 7 rounds, both suites.
    pub fn full() -> Options {
        Options {
            round_secs: 0.2,
            rounds: 7,
            all_suites: true,
            rungs: ALL_RUNGS,
        }
    }

    /// A fast rough run: ~50 ms rounds, 3 rounds, ChaCha20-Poly1305 only for the whole path
    /// (its AEAD is the smaller part in wasm, so "beyond the AEAD" is the less noisy there).
    pub fn quick() -> Options {
        Options {
            round_secs: 0.05,
            rounds: 3,
            all_suites: false,
            rungs: ALL_RUNGS,
        }
    }

    /// Only the rungs named by their letters (`"ce"`: c and e); `None` if a letter is not one
    /// of `a` to `e`.
    pub fn only(self, letters: &str) -> Option<Options> {
        let mut rungs = 0;
        for l in letters.chars() {
            let i = "abcde".find(l)?;
            rungs |= 1 << i;
        }
        Some(Options { rungs, ..self })
    }

    fn runs(&self, letter: char) -> bool {
        "abcde"
            .find(letter)
            .is_some_and(|i| self.rungs & (1 << i) != 0)
    }
}

const ALL_RUNGS: u8 = 0b1_1111;

/// One measured line.
#[derive(Clone, Debug)]
pub struct Line {
    /// Rung letter and what was timed.
    pub name: String,
    /// The public API timed.
    pub api: &'static str,
    /// Body bytes per operation.
    pub body: usize,
    /// The timing.
    pub sample: Sample,
}

impl Line {
    /// Milliseconds per MB (10^6 bytes) of body, median.
    pub fn ms_per_mb(&self) -> f64 {
        ms_per_mb(self.sample.median, self.body)
    }
}

fn ms_per_mb(secs: f64, body: usize) -> f64 {
    secs * 1e3 / (body as f64 / 1e6)
}

/// A whole-path line with the AEAD figure it is compared with.
#[derive(Clone, Debug)]
pub struct PathResult {
    /// The whole path.
    pub path: Line,
    /// The AEAD alone over the same records (same payload sizes, same suite, same run).
    pub aead: Line,
    /// Client records the scripted server opened per response (its subtracted work).
    pub client_records: f64,
    /// Path cost beyond the AEAD, ms per MB of body: median, fastest and slowest over the
    /// rounds of (whole path − AEAD), the two measured in alternation within each round.
    pub beyond: (f64, f64, f64),
}

/// Everything one run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The per-layer lines (rungs a–d).
    pub layers: Vec<Line>,
    /// The whole-path lines (rung e).
    pub paths: Vec<PathResult>,
}

/// Runs the ladder; `progress` gets a line as each measurement finishes (the caller sends it
/// to stderr or the console), the returned report is the table.
pub fn run(clock: Rc<dyn Clock>, opts: Options, progress: &mut dyn FnMut(&str)) -> Report {
    let mut report = Report::default();
    let add = |report: &mut Report, line: Line, progress: &mut dyn FnMut(&str)| {
        progress(&format_line(&line, clock.has_cpu_time()));
        report.layers.push(line);
    };
    if opts.runs('a') {
        for suite in [Suite::Aes128GcmSha256, Suite::ChaCha20Poly1305Sha256] {
            let set = layers::RecordSet::new(suite, &layers::record_payloads());
            let (record, aead) = set.record_and_aead(&*clock, opts);
            add(&mut report, record, progress);
            add(&mut report, aead, progress);
        }
    }
    if opts.runs('b') {
        add(&mut report, layers::h2_data(&*clock, opts), progress);
    }
    if opts.runs('c') {
        add(&mut report, layers::h1_chunked(&*clock, opts), progress);
    }
    if opts.runs('d') {
        add(&mut report, layers::inflate(&*clock, opts), progress);
    }
    let suites: &[Suite] = if !opts.runs('e') {
        &[]
    } else if opts.all_suites {
        &[Suite::Aes128GcmSha256, Suite::ChaCha20Poly1305Sha256]
    } else {
        &[Suite::ChaCha20Poly1305Sha256]
    };
    for &suite in suites {
        for http in [Http::H2, Http::H1Length, Http::H1Chunked] {
            let r = path::whole_path(Rc::clone(&clock), opts, suite, http);
            progress(&format_line(&r.path, clock.has_cpu_time()));
            progress(&format_line(&r.aead, clock.has_cpu_time()));
            report.paths.push(r);
        }
    }
    report
}

fn format_line(l: &Line, wall_column: bool) -> String {
    let s = &l.sample;
    let mut out = format!(
        "{:<52} {:>8.1} {:>8.3}  {:>6.3}-{:<6.3}",
        l.name,
        l.body as f64 / s.median / 1e6,
        l.ms_per_mb(),
        ms_per_mb(s.min, l.body),
        ms_per_mb(s.max, l.body),
    );
    if wall_column {
        let _ = write!(out, " {:>8.3}", ms_per_mb(s.wall_median, l.body));
    }
    out
}

impl Report {
    /// The table: a header saying how it was measured, every line, then the derived "beyond
    /// the AEAD" figures. `platform` names where it ran (e.g. `native x86_64`, `wasm32 in Node
    /// 22.23.5`).
    pub fn table(&self, clock: &dyn Clock, opts: Options, platform: &str) -> String {
        let wall = clock.has_cpu_time();
        let mut t = String::new();
        let _ = writeln!(
            t,
            "burrow receive-path ladder, {platform}: {} per operation, median of {} rounds of \
             ~{:.0} ms after a warm-up round; body {} bytes per operation; MB = 10^6 body bytes",
            clock.describe(),
            opts.rounds,
            opts.round_secs * 1e3,
            BODY_LEN
        );
        let _ = writeln!(
            t,
            "{:<52} {:>8} {:>8}  {:<13}{}",
            "line",
            "MB/s",
            "ms/MB",
            "rounds ms/MB",
            if wall { "  wall ms/MB" } else { "" }
        );
        for l in &self.layers {
            let _ = writeln!(t, "{}", format_line(l, wall));
        }
        for p in &self.paths {
            let _ = writeln!(t, "{}", format_line(&p.path, wall));
            let _ = writeln!(t, "{}", format_line(&p.aead, wall));
        }
        let _ = writeln!(t);
        let _ = writeln!(
            t,
            "path cost beyond the AEAD = whole path - AEAD open alone over the same records, \
             measured in alternation in the same rounds; median of the per-round differences \
             [fastest-slowest round], ms per MB of body:"
        );
        for p in &self.paths {
            let (mid, lo, hi) = p.beyond;
            let _ = writeln!(
                t,
                "  {:<36} {:>7.3} [{:.3}-{:.3}]   (medians: path {:.3}, AEAD {:.3}; server work \
                 subtracted {:.3} ms/MB, {:.0} client records opened per response)",
                p.path.name.trim_start_matches("e. whole path, "),
                mid,
                lo,
                hi,
                p.path.ms_per_mb(),
                p.aead.ms_per_mb(),
                ms_per_mb(p.path.sample.excluded, p.path.body),
                p.client_records,
            );
        }
        let _ = writeln!(t);
        let _ = writeln!(
            t,
            "e.: the scripted server's records are sealed before each timed fetch (outside the \
             figure); inside it, the server's opening of the client's records (request, \
             WINDOW_UPDATEs) and its frame parsing are timed on the same clock and subtracted \
             (\"server work subtracted\"). Warm client: one connection, pooled and reused; \
             each transport read returns Pending once, as a socket read would."
        );
        let _ = writeln!(t, "APIs timed:");
        let mut seen: Vec<&str> = Vec::new();
        for l in self.layers.iter().chain(self.paths.iter().map(|p| &p.path)) {
            if !seen.contains(&l.api) {
                seen.push(l.api);
                let _ = writeln!(t, "  {}", l.api);
            }
        }
        t
    }
}
