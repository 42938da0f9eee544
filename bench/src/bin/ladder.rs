//! The receive-path ladder, native: every layer of the path a response body takes, then the
//! whole path through `burrow_client::Client` (see `burrow_bench::ladder`). The wasm32 twin is
//! `bench/wasm`; `script/bench` runs both.
//!
//! Run: `cargo run --release -p burrow-bench --bin ladder` (`-- --quick` for a fast rough pass,
//! `-- --only ce` for rungs c and e only). Progress goes to stderr, the table to stdout. Each
//! item is measured in a child process of its own (`--item N`), so no figure depends on the heap
//! the items before it left. `--path-only` (with `--only e --item N`) runs item N's whole path
//! alone in rounds of 2 s, for a profiler (`perf record`), like the wasm `profile_item`.

use std::process::Command;
use std::rc::Rc;

use burrow_bench::ladder::{self, Options, Outcome, Report};
use burrow_bench::{Clock, ThreadCpuClock};

/// A steady-state heap, as a long-running client has (and as wasm's allocator, which never
/// gives memory back, always is): glibc would otherwise return freed memory to the system and
/// move its mmap threshold after each large free, and the figures of the 16 KiB body copies
/// would move with it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn steady_heap() {
    // SAFETY: mallopt only sets allocator parameters; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn steady_heap() {}

/// glibc's memcpy switches to `rep movsb` from a few KiB on; on this machine (AMD EPYC) its
/// speed depends on where the buffers sit, so the 16 KiB copies of the path cost 0.2 or 0.9
/// ms/MB from one round to the next (perf: memmove is 20-30% of a whole-path profile). Raising
/// the threshold keeps those copies on the vector loop: every copy is still made and timed, at
/// a speed that no longer depends on placement. An explicit `GLIBC_TUNABLES` is left alone.
const STEADY_MEMCPY: &str = "glibc.cpu.x86_rep_movsb_threshold=2097152";

fn fail(msg: &str) -> ! {
    eprintln!("ladder: {msg}");
    std::process::exit(2)
}

fn main() {
    steady_heap();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| args.get(i + 1).cloned().unwrap_or_default())
    };
    let mut opts = if args.iter().any(|a| a == "--quick") {
        Options::quick()
    } else {
        Options::full()
    };
    if let Some(letters) = value("--only") {
        opts = opts
            .only(&letters)
            .unwrap_or_else(|| fail("--only takes rung letters a to e, e.g. --only ce"));
    }
    if args.iter().any(|a| a == "--path-only") {
        opts.path_only = true;
        opts.round_secs = 2.0;
    }
    let items = ladder::items(opts);
    let clock: Rc<dyn Clock> = Rc::new(ThreadCpuClock::default());

    // Child: measure one item, hand it to the parent on stdout.
    if let Some(n) = value("--item") {
        let item = n
            .parse::<usize>()
            .ok()
            .and_then(|i| items.get(i).copied())
            .unwrap_or_else(|| fail("--item takes an index into the items"));
        print!("{}", ladder::run_item(&clock, opts, item).encode());
        return;
    }

    let exe = std::env::current_exe().unwrap_or_else(|e| fail(&format!("own path: {e}")));
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_else(|_| STEADY_MEMCPY.to_string());
    let mut report = Report::default();
    report.notes.push(format!(
        "Each item ran in its own process, with GLIBC_TUNABLES={tunables} (see STEADY_MEMCPY in \
         src/bin/ladder.rs) and glibc's heap trimming off."
    ));
    for (i, item) in items.iter().enumerate() {
        let out = Command::new(&exe)
            .env("GLIBC_TUNABLES", &tunables)
            .args(&args)
            .args(["--item", &i.to_string()])
            .output()
            .unwrap_or_else(|e| fail(&format!("running an item: {e}")));
        if !out.status.success() {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
            fail(&format!("item {i} ({item:?}) failed: {}", out.status));
        }
        let outcome = Outcome::decode(&String::from_utf8_lossy(&out.stdout))
            .unwrap_or_else(|| fail(&format!("item {i}: unreadable result")));
        for line in outcome.lines(clock.has_cpu_time()) {
            eprintln!("{line}");
        }
        report.add(outcome);
    }
    let platform = format!("native {}", std::env::consts::ARCH);
    print!("{}", report.table(&*clock, opts, &platform));
}
