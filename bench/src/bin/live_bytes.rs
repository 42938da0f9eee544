//! Live heap bytes across many sequential requests on one client (a leak check for the path
//! the Worker runs): `cargo run --release -p burrow-bench --bin live_bytes -- URL N CA.pem [h1]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use burrow_client::{Client, ClientConfig, Request, Trust};
use burrow_native::TokioNet;

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args[1].clone();
    let n: usize = args[2].parse().unwrap();
    let ca = std::fs::read(&args[3]).unwrap();
    let h1 = args.get(4).is_some_and(|a| a == "h1");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    tokio::task::LocalSet::new().block_on(&rt, async move {
        let mut cfg = ClientConfig::default();
        cfg.tls.trust = Trust::AnchorsPem(vec![ca]);
        cfg.http1_only = h1;
        let c = Client::new(TokioNet, cfg);
        for i in 0..n {
            let mut r = c.fetch(Request::get(&url).unwrap()).await.unwrap();
            r.bytes().await.unwrap();
            if i == 9 || (i + 1) % 500 == 0 {
                println!(
                    "after {:5} requests: {} live bytes",
                    i + 1,
                    LIVE.load(Ordering::Relaxed)
                );
            }
        }
    });
}
