//! Allocations per response on the native path (tokio, TLS, HTTP/2 and HTTP/1.1, against
//! nginx in ../shared/peers): a warm GET of `/4m.bin` makes a small constant number of heap
//! allocations, the same as `/1m.bin` — none per record, frame or chunk. A counting global
//! allocator counts this thread's allocations while the response is fetched and read.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::future::Future;

use burrow_client::{Client, ClientConfig, Request, Trust};
use burrow_native::TokioNet;
use burrow_testkit::peers::Peers;

/// Counts allocations (and reallocations) made on threads that turned counting on.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the allocator also runs while thread-locals are being torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded with the caller's arguments.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn run<F: Future>(f: F) -> F::Output {
    burrow_native::block_on_local(f).unwrap()
}

/// Fetches `url` on `client` and reads the body with `next_chunk`; returns (allocations,
/// body length, chunks).
async fn counted_get(client: &Client<TokioNet>, url: &str) -> (u64, usize, usize) {
    let req = Request::get(url).unwrap();
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    let mut r = client.fetch(req).await.unwrap();
    assert_eq!(r.status, 200);
    let (mut len, mut chunks) = (0, 0);
    while let Some(chunk) = r.next_chunk().await.unwrap() {
        len += chunk.len();
        chunks += 1;
    }
    drop(r);
    COUNTING.with(|on| on.set(false));
    (COUNT.with(Cell::get), len, chunks)
}

/// At most this many allocations for one warm response, whatever its size: the request
/// (URL, header fields, the HPACK block or the request head), the response head (its fields
/// as Strings), the response object and the first growth of its chunk buffer.
const MAX_PER_RESPONSE: u64 = 160;

/// 1 MiB or 4 MiB: the margin is for HTTP/2 body buffers (chunk-sized, at most a stream
/// window's worth) that the connection has not yet kept as spares.
const MAX_SIZE_DEPENDENT: u64 =
    2 * (burrow_client::H2_STREAM_WINDOW as usize / burrow_client::CHUNK_TARGET).ilog2() as u64;

fn check(what: &str, port_name: &str, alpn: &[&[u8]]) {
    let Some(p) = Peers::load(what) else {
        return;
    };
    let mut cfg = ClientConfig::default();
    cfg.tls.trust = Trust::AnchorsPem(vec![p.ca_pem()]);
    cfg.tls.alpn = alpn.iter().map(|a| a.to_vec()).collect();
    let base = format!("https://localhost:{}", p.port(port_name));
    run(async {
        let client = Client::new(TokioNet, cfg);
        // Warm: connection, session and buffers.
        let warm = counted_get(&client, &format!("{base}/4m.bin")).await;
        assert_eq!(warm.1, 4 << 20);
        let (small, small_len, _) = counted_get(&client, &format!("{base}/1m.bin")).await;
        let (big, big_len, chunks) = counted_get(&client, &format!("{base}/4m.bin")).await;
        assert_eq!((small_len, big_len), (1 << 20, 4 << 20));
        println!(
            "{what}: warm 1 MiB GET {small} allocations, warm 4 MiB GET {big} allocations \
             ({chunks} chunks); cold 4 MiB GET {}",
            warm.0
        );
        assert!(
            big <= MAX_PER_RESPONSE,
            "{what}: {big} allocations for a warm 4 MiB response (at most {MAX_PER_RESPONSE})"
        );
        assert!(
            big.saturating_sub(small) <= MAX_SIZE_DEPENDENT,
            "{what}: 4 MiB took {big} allocations, 1 MiB {small}: they grow with the size"
        );
        assert!(
            chunks < (4 << 20) / 16_384,
            "{what}: {chunks} chunks for 4 MiB: records were not gathered into chunks"
        );
    });
}

#[test]
fn a_warm_h2_response_allocates_a_constant_amount() {
    check("allocations over h2", "DEF", &[b"h2"]);
}

#[test]
fn a_warm_h1_response_allocates_a_constant_amount() {
    check("allocations over HTTP/1.1", "H1", &[b"http/1.1"]);
}
