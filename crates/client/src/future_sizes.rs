//! The futures built on the receive path stay small. Each is built and then moved into the
//! future that awaits it, and every move copies its whole size, so a large one is paid per
//! transport read or per chunk. In wasm each of those copies is a `memory.copy` call out of
//! the module. Two things make them large: a future taken by value (stored twice, as the
//! argument and where it is polled; see `deadline::race`), and a rare path held inline (an
//! event, an error, the TLS-in-TLS hop). The bounds are for 64-bit targets (wasm32's futures
//! are smaller), with room for compiler changes. Before these fixes (issue 12),
//! `Transport::fill_buf`'s future was 1,800 bytes, `Response::next_chunk`'s 5,808 and the
//! HTTP/2 driver's 3,832.

use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::time::Duration;

use crate::net::{Net, NetStream};
use crate::transport::{Hop, Transport};

struct NoStream;

impl NetStream for NoStream {
    async fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        Ok(0)
    }
    async fn write_all(&mut self, _buf: &[u8]) -> io::Result<()> {
        Ok(())
    }
    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct NoNet;

impl Net for NoNet {
    type Stream = NoStream;
    async fn connect(&self, _host: &str, _port: u16) -> io::Result<NoStream> {
        Ok(NoStream)
    }
    async fn sleep(&self, _d: Duration) {}
    fn now_ms(&self) -> u64 {
        0
    }
    fn spawn(&self, _task: Pin<Box<dyn Future<Output = ()>>>) {}
    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        Ok(Vec::new())
    }
}

/// The size of what `f` returns, without calling it.
fn size_of_return<'a, T: 'a, F>(_f: impl FnOnce(&'a mut T) -> F) -> usize {
    std::mem::size_of::<F>()
}

#[test]
fn receive_path_futures_stay_small() {
    type Stream = Transport<NoStream>;
    let fill_buf = size_of_return(|t: &mut Stream| t.fill_buf());
    let fill_buffered = size_of_return(|t: &mut Stream| t.fill_buffered());
    let next_chunk = size_of_return(|r: &mut crate::Response<NoNet>| r.next_chunk());
    let (_conn, driver) = crate::h2::H2Conn::start(
        Transport::Plain(Hop::tcp(NoStream)),
        burrow_h2::Config::default(),
    );
    let driver = std::mem::size_of_val(&driver);
    eprintln!(
        "fill_buf {fill_buf}, fill_buffered {fill_buffered}, next_chunk {next_chunk}, \
         HTTP/2 driver {driver} bytes"
    );
    if cfg!(target_pointer_width = "64") {
        assert!(fill_buf <= 768, "Transport::fill_buf: {fill_buf} bytes");
        assert!(
            fill_buffered <= 768,
            "Transport::fill_buffered: {fill_buffered}"
        );
        assert!(
            next_chunk <= 1280,
            "Response::next_chunk: {next_chunk} bytes"
        );
        assert!(driver <= 2048, "the HTTP/2 driver: {driver} bytes");
    }
}
