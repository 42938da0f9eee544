//! What the fuzz targets share: a global allocator that aborts once the live heap passes a cap,
//! so "no allocation beyond the documented bounds" is checked on every input, not only when the
//! machine runs out of memory.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live bytes; past `cap` it prints the cap and aborts
/// (libFuzzer then keeps the input as a crash artifact).
pub struct CappedAlloc {
    cap: usize,
    live: AtomicUsize,
    peak: AtomicUsize,
}

impl CappedAlloc {
    /// An allocator that allows at most `cap` live bytes.
    pub const fn new(cap: usize) -> CappedAlloc {
        CappedAlloc {
            cap,
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// The most live bytes seen so far.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    fn grow(&self, n: usize) {
        let live = self.live.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        self.peak.fetch_max(live, Ordering::Relaxed);
        if live > self.cap {
            // Unbuffered, and a static message: no allocation on the way out.
            let _ = std::io::stderr().write_all(
                b"CappedAlloc: live heap above the cap derived from the documented limits\n",
            );
            std::process::abort();
        }
    }
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for CappedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.grow(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.grow(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            self.grow(new_size - layout.size());
        } else {
            self.live
                .fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

/// Whether the targets that can say how far an input got should print it (`BURROW_FUZZ_OUTCOME`
/// set; read once): `script/fuzz` replays seeds this way.
pub fn report_outcomes() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("BURROW_FUZZ_OUTCOME").is_some())
}
