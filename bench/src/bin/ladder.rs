//! The receive-path ladder, native: every layer of the path a response body takes, then the
//! whole path through `burrow_client::Client` (see `burrow_bench::ladder`). The wasm32 twin is
//! `bench/wasm`; `script/bench` runs both.
//!
//! Run: `cargo run --release -p burrow-bench --bin ladder` (`-- --quick` for a fast rough pass,
//! `-- --only ce` for rungs c and e only). Progress goes to stderr, the table to stdout.

use std::rc::Rc;

use burrow_bench::ladder::{self, Options};
use burrow_bench::{Clock, ThreadCpuClock};

/// A steady-state heap, as a long-running client has (and as wasm's allocator, which never
/// gives memory back, always is): glibc would otherwise return freed memory to the system and
/// move its mmap threshold after each large free, so a line's figure (the 16 KiB body copies)
/// depended on which lines ran before it, by up to 5x.
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

fn main() {
    steady_heap();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = if args.iter().any(|a| a == "--quick") {
        Options::quick()
    } else {
        Options::full()
    };
    if let Some(i) = args.iter().position(|a| a == "--only") {
        let letters = args.get(i + 1).map_or("", String::as_str);
        opts = opts.only(letters).unwrap_or_else(|| {
            eprintln!("--only takes rung letters a to e, e.g. --only ce");
            std::process::exit(2)
        });
    }
    let clock: Rc<dyn Clock> = Rc::new(ThreadCpuClock::default());
    let report = ladder::run(Rc::clone(&clock), opts, &mut |line| eprintln!("{line}"));
    let platform = format!("native {}", std::env::consts::ARCH);
    print!("{}", report.table(&*clock, opts, &platform));
}
