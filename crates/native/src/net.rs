//! `TokioNet`: burrow-client's [`Net`] over tokio (current-thread runtime + `LocalSet`: the
//! client's futures are `!Send`).

use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::time::Duration;

use burrow_client::{Net, NetStream};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The native platform. Must be used inside a `tokio::task::LocalSet` (for [`Net::spawn`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct TokioNet;

/// A tokio TCP stream (Nagle off).
#[derive(Debug)]
pub struct TcpNetStream(tokio::net::TcpStream);

impl Net for TokioNet {
    type Stream = TcpNetStream;

    async fn connect(&self, host: &str, port: u16) -> io::Result<TcpNetStream> {
        let s = tokio::net::TcpStream::connect((host, port)).await?;
        s.set_nodelay(true)?;
        Ok(TcpNetStream(s))
    }

    async fn sleep(&self, d: Duration) {
        tokio::time::sleep(d).await;
    }

    fn now_ms(&self) -> u64 {
        crate::now_ms()
    }

    fn spawn(&self, task: Pin<Box<dyn Future<Output = ()>>>) {
        tokio::task::spawn_local(task);
    }

    async fn resolve(&self, host: &str) -> io::Result<Vec<IpAddr>> {
        Ok(tokio::net::lookup_host((host, 0))
            .await?
            .map(|a| a.ip())
            .collect())
    }
}

impl NetStream for TcpNetStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).await
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).await
    }

    async fn close(&mut self) -> io::Result<()> {
        self.0.shutdown().await
    }
}
