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
    /// Rung e: time the whole path only (no AEAD-alone or inside-measured operation), for a
    /// profiler to see the path and nothing else but the server's setup.
    pub path_only: bool,
}

impl Options {
    /// The full run: ~200 ms rounds, 7 rounds, both suites.
    pub fn full() -> Options {
        Options {
            round_secs: 0.2,
            rounds: 7,
            all_suites: true,
            rungs: ALL_RUNGS,
            path_only: false,
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
            path_only: false,
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
    pub api: String,
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

    /// This line's cost beyond `base` (timed in the same rounds), ms per MB of this line's
    /// body: (median of the per-round differences, lowest, highest), and the difference of the
    /// two 10th percentiles.
    pub fn beyond(&self, base: &Line) -> ((f64, f64, f64), f64) {
        let diffs: Vec<f64> = self
            .sample
            .per_round
            .iter()
            .zip(&base.sample.per_round)
            .map(|(l, b)| ms_per_mb(l - b, self.body))
            .collect();
        (
            crate::stats(&diffs),
            ms_per_mb(self.sample.p10 - base.sample.p10, self.body),
        )
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
    /// The least work the design allows over the same records (no record layer, framing or
    /// control flow: the copy in, the AEAD in place, the copy out), timed in the same rounds;
    /// `None` when only the path ran.
    pub floor: Option<Line>,
    /// Client records the scripted server opened per response (its subtracted work).
    pub client_records: f64,
    /// Path cost beyond the AEAD, ms per MB of body: median, fastest and slowest over the
    /// rounds of (whole path − AEAD), the two measured in alternation within each round.
    pub beyond: (f64, f64, f64),
    /// The same from the 10th percentiles of single operations (whole path − AEAD), ms per MB:
    /// a second estimate, less moved by load than the rounds' means.
    pub beyond_p10: f64,
    /// Offload lines: the cost beyond the AEAD measured inside one operation (the record opens
    /// timed and left out), so without a second measurement to subtract.
    pub direct: Option<Direct>,
}

impl PathResult {
    /// The design floor's cost beyond the AEAD, ms per MB of body, by the path's two
    /// estimators: (median of the per-round differences, lowest, highest), and from the 10th
    /// percentiles.
    pub fn floor_beyond(&self) -> Option<((f64, f64, f64), f64)> {
        Some(self.floor.as_ref()?.beyond(&self.aead))
    }
}

/// The path cost beyond the AEAD measured inside the operation (see [`PathResult::direct`]),
/// ms per MB of body.
#[derive(Clone, Copy, Debug)]
pub struct Direct {
    /// Median over the rounds.
    pub median: f64,
    /// 10th percentile of the single operations.
    pub p10: f64,
    /// Fastest round.
    pub lowest: f64,
    /// Slowest round.
    pub highest: f64,
    /// Record opens timed per response.
    pub opens: f64,
    /// What the clock reads around those opens cost (included in the figures above).
    pub clock_cost: f64,
}

/// Everything one run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The per-layer lines (rungs a–d).
    pub layers: Vec<Line>,
    /// The whole-path lines (rung e).
    pub paths: Vec<PathResult>,
    /// How the run was set up beyond the options (printed under the table).
    pub notes: Vec<String>,
}

/// One independently measured piece of the ladder (a rung, or one suite or HTTP version of
/// it). Natively each runs in its own process and in wasm in a fresh instance, so a figure does
/// not depend on the heap the earlier items left behind (which moved h1 figures by 3x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// a. record open and the AEAD alone, one suite.
    Records(Suite),
    /// b.
    H2Data,
    /// c.
    H1Chunked,
    /// d.
    Inflate,
    /// e. one suite, one HTTP version, and whether record AEAD goes through the offload seam
    /// (`TlsSettings::offload` = `InlineOffload`: the job protocol the Worker's WebCrypto
    /// provider answers, here answered at once with burrow-crypto).
    Path(Suite, Http, bool),
}

/// The items `opts` selects, in table order.
pub fn items(opts: Options) -> Vec<Item> {
    let mut out = Vec::new();
    if opts.runs('a') {
        out.push(Item::Records(Suite::Aes128GcmSha256));
        out.push(Item::Records(Suite::ChaCha20Poly1305Sha256));
    }
    if opts.runs('b') {
        out.push(Item::H2Data);
    }
    if opts.runs('c') {
        out.push(Item::H1Chunked);
    }
    if opts.runs('d') {
        out.push(Item::Inflate);
    }
    if opts.runs('e') {
        let suites: &[Suite] = if opts.all_suites {
            &[Suite::Aes128GcmSha256, Suite::ChaCha20Poly1305Sha256]
        } else {
            &[Suite::ChaCha20Poly1305Sha256]
        };
        for &suite in suites {
            for http in [Http::H2, Http::H1Length, Http::H1Chunked] {
                out.push(Item::Path(suite, http, false));
            }
        }
        // The seam's own cost, under the suite whose AEAD is the smaller part in wasm (in the
        // Worker, ChaCha20-Poly1305 connections go through the seam too).
        out.push(Item::Path(Suite::ChaCha20Poly1305Sha256, Http::H2, true));
        if opts.all_suites {
            out.push(Item::Path(
                Suite::ChaCha20Poly1305Sha256,
                Http::H1Length,
                true,
            ));
        }
    }
    out
}

/// What one item measured.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Per-layer lines.
    Lines(Vec<Line>),
    /// A whole-path line with its AEAD comparison.
    Path(Box<PathResult>),
}

/// Measures one item.
pub fn run_item(clock: &Rc<dyn Clock>, opts: Options, item: Item) -> Outcome {
    match item {
        Item::Records(suite) => {
            let set = layers::RecordSet::new(suite, &layers::record_payloads());
            let (record, aead) = set.record_and_aead(&**clock, opts);
            Outcome::Lines(vec![record, aead])
        }
        Item::H2Data => Outcome::Lines(vec![layers::h2_data(&**clock, opts)]),
        Item::H1Chunked => Outcome::Lines(vec![layers::h1_chunked(&**clock, opts)]),
        Item::Inflate => Outcome::Lines(vec![layers::inflate(&**clock, opts)]),
        Item::Path(suite, http, offload) => Outcome::Path(Box::new(path::whole_path(
            Rc::clone(clock),
            opts,
            suite,
            http,
            offload,
        ))),
    }
}

impl Outcome {
    /// The table lines of this outcome (`wall`: with the wall-time column).
    pub fn lines(&self, wall: bool) -> Vec<String> {
        match self {
            Outcome::Lines(ls) => ls.iter().map(|l| format_line(l, wall)).collect(),
            Outcome::Path(p) => [Some(&p.path), Some(&p.aead), p.floor.as_ref()]
                .into_iter()
                .flatten()
                .map(|l| format_line(l, wall))
                .collect(),
        }
    }

    /// A text form that [`Outcome::decode`] reads back exactly (to cross a process or a wasm
    /// instance): one line per `Line`, tab-separated; a path outcome starts with its figures.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let mut line = |l: &Line| {
            let s = &l.sample;
            let rounds: Vec<String> = s.per_round.iter().map(f64::to_string).collect();
            let _ = writeln!(
                out,
                "L\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                l.name,
                l.api,
                l.body,
                s.median,
                s.min,
                s.max,
                s.wall_median,
                s.excluded,
                s.iterations,
                rounds.join(","),
                s.p10
            );
        };
        match self {
            Outcome::Lines(ls) => ls.iter().for_each(&mut line),
            Outcome::Path(p) => {
                let (mid, lo, hi) = p.beyond;
                let direct = match &p.direct {
                    Some(d) => format!(
                        "\t{}\t{}\t{}\t{}\t{}\t{}",
                        d.median, d.p10, d.lowest, d.highest, d.opens, d.clock_cost
                    ),
                    None => String::new(),
                };
                let head = format!(
                    "P\t{}\t{mid}\t{lo}\t{hi}\t{}{direct}\n",
                    p.client_records, p.beyond_p10
                );
                line(&p.path);
                line(&p.aead);
                if let Some(f) = &p.floor {
                    line(f);
                }
                out.insert_str(0, &head);
            }
        }
        out
    }

    /// Reads [`Outcome::encode`]'s text; `None` if it is not that.
    pub fn decode(text: &str) -> Option<Outcome> {
        // client records, (median, lowest, highest), p10, measured inside
        type PathFigures = (f64, (f64, f64, f64), f64, Option<Direct>);
        let mut path: Option<PathFigures> = None;
        let mut lines = Vec::new();
        for row in text.lines().filter(|r| !r.is_empty()) {
            let f: Vec<&str> = row.split('\t').collect();
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok());
            match f.first() {
                Some(&"P") => {
                    let direct = match num(6) {
                        Some(median) => Some(Direct {
                            median,
                            p10: num(7)?,
                            lowest: num(8)?,
                            highest: num(9)?,
                            opens: num(10)?,
                            clock_cost: num(11)?,
                        }),
                        None => None,
                    };
                    path = Some((num(1)?, (num(2)?, num(3)?, num(4)?), num(5)?, direct));
                }
                Some(&"L") => {
                    let per_round = match f.get(10) {
                        Some(v) if !v.is_empty() => v
                            .split(',')
                            .map(|x| x.parse::<f64>().ok())
                            .collect::<Option<Vec<f64>>>()?,
                        _ => Vec::new(),
                    };
                    lines.push(Line {
                        name: f.get(1)?.to_string(),
                        api: f.get(2)?.to_string(),
                        body: f.get(3)?.parse().ok()?,
                        sample: Sample {
                            median: num(4)?,
                            min: num(5)?,
                            max: num(6)?,
                            per_round,
                            wall_median: num(7)?,
                            excluded: num(8)?,
                            iterations: f.get(9)?.parse().ok()?,
                            p10: num(11)?,
                        },
                    });
                }
                _ => return None,
            }
        }
        match path {
            Some((client_records, beyond, beyond_p10, direct)) => {
                let mut it = lines.into_iter();
                let (path, aead, floor) = (it.next()?, it.next()?, it.next());
                Some(Outcome::Path(Box::new(PathResult {
                    path,
                    aead,
                    floor,
                    client_records,
                    beyond,
                    beyond_p10,
                    direct,
                })))
            }
            None => Some(Outcome::Lines(lines)),
        }
    }
}

impl Report {
    /// Adds an item's outcome.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Lines(ls) => self.layers.extend(ls),
            Outcome::Path(p) => self.paths.push(*p),
        }
    }
}

/// Runs every item in this process, one after the other; `progress` gets the table lines as
/// each item finishes. (The native binary and the wasm runner isolate the items instead.)
pub fn run(clock: Rc<dyn Clock>, opts: Options, progress: &mut dyn FnMut(&str)) -> Report {
    let mut report = Report::default();
    for item in items(opts) {
        let outcome = run_item(&clock, opts, item);
        for l in outcome.lines(clock.has_cpu_time()) {
            progress(&l);
        }
        report.add(outcome);
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
            if let Some(f) = &p.floor {
                let _ = writeln!(t, "{}", format_line(f, wall));
            }
        }
        let _ = writeln!(t);
        let _ = writeln!(
            t,
            "path cost beyond the AEAD = whole path - AEAD open alone over the same records, \
             measured in alternation in the same rounds; median of the per-round differences \
             [lowest to highest round], ms per MB of body (NOISY: the rounds disagree by more \
             than twice the figure); p10: the same from the 10th percentiles of the single \
             operations (a figure load only pushes up):"
        );
        for p in &self.paths {
            let (mid, lo, hi) = p.beyond;
            // Rounds that disagree by more than twice the figure: load noise, not a result.
            let noisy = if hi - lo > 2.0 * mid.abs() {
                " NOISY"
            } else {
                ""
            };
            let _ = writeln!(
                t,
                "  {:<36} {:>7.3} [{:.3} to {:.3}]{noisy}  p10: {:.3}   (medians: path {:.3}, \
                 AEAD {:.3}; server work subtracted {:.3} ms/MB, {:.0} client records opened \
                 per response)",
                p.path.name.trim_start_matches("e. whole path, "),
                mid,
                lo,
                hi,
                p.beyond_p10,
                p.path.ms_per_mb(),
                p.aead.ms_per_mb(),
                ms_per_mb(p.path.sample.excluded, p.path.body),
                p.client_records,
            );
            if let Some(((mid, lo, hi), p10)) = p.floor_beyond() {
                let _ = writeln!(
                    t,
                    "  {:<36} {:>7.3} [{:.3} to {:.3}]  p10: {:.3}   (the design floor over the \
                     same records: copy in, open in place, copy out; no record layer, framing \
                     or control flow)",
                    "  design floor", mid, lo, hi, p10,
                );
            }
            if let Some(d) = &p.direct {
                let _ = writeln!(
                    t,
                    "  {:<36} {:>7.3} [{:.3} to {:.3}]  p10: {:.3}   (measured inside: the \
                     operation less its {:.0} timed record opens; the clock reads around them \
                     cost {:.3} ms/MB, included)",
                    "  same, measured inside",
                    d.median,
                    d.lowest,
                    d.highest,
                    d.p10,
                    d.opens,
                    d.clock_cost,
                );
            }
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
        for n in &self.notes {
            let _ = writeln!(t, "{n}");
        }
        let _ = writeln!(t, "APIs timed:");
        let mut seen: Vec<&str> = Vec::new();
        let path_lines = self
            .paths
            .iter()
            .flat_map(|p| std::iter::once(&p.path).chain(p.floor.as_ref()));
        for l in self.layers.iter().chain(path_lines) {
            if !seen.contains(&l.api.as_str()) {
                seen.push(&l.api);
                let _ = writeln!(t, "  {}", l.api);
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, rounds: &[f64], p10: f64) -> Line {
        Line {
            name: name.to_string(),
            api: "api".to_string(),
            body: BODY_LEN,
            sample: Sample {
                median: rounds[1],
                min: rounds[0],
                max: rounds[2],
                per_round: rounds.to_vec(),
                wall_median: rounds[1],
                excluded: 0.0,
                iterations: 3,
                p10,
            },
        }
    }

    #[test]
    fn path_outcome_with_its_floor_survives_encode_and_decode() {
        let per_mb = BODY_LEN as f64 / 1e6 / 1e3; // seconds per (ms per MB)
        let p = PathResult {
            path: line(
                "e. whole path, h2",
                &[5.3, 5.4, 5.6].map(|x| x * per_mb),
                5.2 * per_mb,
            ),
            aead: line(
                "   AEAD",
                &[5.0, 5.1, 5.2].map(|x| x * per_mb),
                5.0 * per_mb,
            ),
            floor: Some(line(
                "   floor",
                &[5.1, 5.1, 5.4].map(|x| x * per_mb),
                5.05 * per_mb,
            )),
            client_records: 10.0,
            beyond: (0.3, 0.3, 0.4),
            beyond_p10: 0.2,
            direct: None,
        };
        let ((mid, lo, hi), p10) = p.floor_beyond().expect("a floor");
        assert!((mid - 0.1).abs() < 1e-9 && (lo - 0.0).abs() < 1e-9 && (hi - 0.2).abs() < 1e-9);
        assert!((p10 - 0.05).abs() < 1e-9);
        let Some(Outcome::Path(back)) = Outcome::decode(&Outcome::Path(Box::new(p)).encode())
        else {
            panic!("not read back as a path outcome");
        };
        assert_eq!(
            back.floor.as_ref().map(|f| f.name.as_str()),
            Some("   floor")
        );
        let ((mid2, _, _), p10b) = back.floor_beyond().expect("the floor read back");
        assert!((mid2 - mid).abs() < 1e-9 && (p10b - p10).abs() < 1e-9);
        // Without a floor (a path-only run) the outcome reads back without one.
        let mut none = (*back).clone();
        none.floor = None;
        let Some(Outcome::Path(again)) = Outcome::decode(&Outcome::Path(Box::new(none)).encode())
        else {
            panic!("not read back as a path outcome");
        };
        assert!(again.floor.is_none() && again.floor_beyond().is_none());
    }
}
