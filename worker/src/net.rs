//! [`burrow_client::Net`] over `cloudflare:sockets`.
//!
//! Facts about workerd this driver obeys (each measured or read in workerd's source):
//! - `connect()` is the caller's: a JS Worker passes the function it imported from
//!   `cloudflare:sockets`, so nothing here imports a runtime module (bundler-safe, testable).
//! - Reads use one BYOB reader and one `ArrayBuffer` per socket. A BYOB read detaches the buffer
//!   it is given and resolves with a view over a new one; that new buffer is the one to reuse.
//!   A view over wasm memory is refused (not detachable), so each fill is copied once into
//!   linear memory (`Uint8Array::copy_to`, straight into the caller's buffer).
//! - On the edge a single `write()` above 64 KiB silently kills the connection (workerd issue
//!   7074; local mode does not show it): writes are cut at [`MAX_WRITE`] and go out through one
//!   writer held for the socket's life, from one reused JS buffer.
//! - Workers have no name lookup: [`WorkerNet`] says so (`resolves_names`), and burrow-client
//!   sends a `socks5://` proxy the name as `socks5h://` would (the proxy resolves;
//!   `response.burrow.proxied` says `"socks5h"`).
//! - Every JS call that can throw is `catch`ed and every promise awaited or given a handler:
//!   an uncaught rejection fails the request as a "critical error" instead of an error we
//!   report.

use std::future::{poll_fn, Future};
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use std::time::Duration;

use burrow_client::{Error, Net, NetStream, Phase};
use js_sys::{ArrayBuffer, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::context::RequestContext;
use crate::exec::{awaited, Awaited};
use crate::num::{js_len, js_to_u64};
use crate::timer::Timers;

/// Largest single `write()` (workerd issue 7074: above 64 KiB the edge drops the connection).
pub const MAX_WRITE: usize = 64 * 1024;

/// Default BYOB view size: 64 KiB. Measured in local workerd (`bench/worker-cpu.mjs`, table in
/// `bench/README.md`): CPU per MB of `/4m.bin` fell from 25.8 to 19.0 ms (h2) and 21.0 to 12.3
/// ms (h1) going from 16 to 64 KiB — fewer read promises, the fill handed out in pieces
/// from the JS buffer. A BYOB read resolves with what has arrived, so a larger view adds no
/// latency. (tunnelfetch found 16 KiB best on the edge through proxies; not re-measured there.)
pub const DEFAULT_READ_VIEW: usize = 64 * 1024;

#[wasm_bindgen]
extern "C" {
    /// A `cloudflare:sockets` `Socket`.
    pub type Socket;
    #[wasm_bindgen(method, getter, catch)]
    fn readable(this: &Socket) -> Result<Stream, JsValue>;
    #[wasm_bindgen(method, getter, catch)]
    fn writable(this: &Socket) -> Result<Stream, JsValue>;
    #[wasm_bindgen(method, getter, catch)]
    fn opened(this: &Socket) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch, js_name = close)]
    fn close_socket(this: &Socket) -> Result<Promise, JsValue>;

    /// A `ReadableStream` or `WritableStream`.
    type Stream;
    #[wasm_bindgen(method, catch, js_name = getReader)]
    fn get_reader(this: &Stream, options: &JsValue) -> Result<Reader, JsValue>;
    #[wasm_bindgen(method, catch, js_name = getWriter)]
    fn get_writer(this: &Stream) -> Result<Writer, JsValue>;

    /// A `ReadableStreamBYOBReader` (or a default reader, for request bodies).
    pub(crate) type Reader;
    #[wasm_bindgen(method, catch)]
    pub(crate) fn read(this: &Reader) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch, js_name = read)]
    fn read_into(this: &Reader, view: &Uint8Array) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch, js_name = cancel)]
    pub(crate) fn cancel_reader(this: &Reader) -> Result<Promise, JsValue>;

    /// A `WritableStreamDefaultWriter`.
    type Writer;
    #[wasm_bindgen(method, catch)]
    fn write(this: &Writer, chunk: &Uint8Array) -> Result<Promise, JsValue>;
    #[wasm_bindgen(method, catch, js_name = close)]
    fn close_writer(this: &Writer) -> Result<Promise, JsValue>;
}

/// The `message` of a thrown JS value (or its string form).
pub(crate) fn js_message(e: &JsValue) -> String {
    Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "a JavaScript error without a message".to_string())
}

/// Maps what workerd throws to a typed error.
pub(crate) fn js_io(e: &JsValue) -> io::Error {
    let msg = js_message(e);
    let lower = msg.to_ascii_lowercase();
    if lower.contains("cannot connect to the specified address")
        || lower.contains("proxy request failed")
        || lower.contains("not allowed to connect")
    {
        return Error::Platform {
            code: "CONNECT_FORBIDDEN",
            phase: Phase::Connect,
            message: format!(
                "connect() refused the address ({msg}): Workers cannot open sockets to \
                 Cloudflare's own ranges, and `workerd serve` only to public addresses unless \
                 its network allows `local`; reach the host through a proxy (option `proxy`)"
            ),
        }
        .into_io();
    }
    if lower.contains("different request") || lower.contains("has since ended") {
        return crate::context::cross_request_error().into_io();
    }
    let kind = if lower.contains("refused") {
        io::ErrorKind::ConnectionRefused
    } else if lower.contains("reset") {
        io::ErrorKind::ConnectionReset
    } else if lower.contains("closed") {
        io::ErrorKind::BrokenPipe
    } else {
        io::ErrorKind::Other
    };
    io::Error::new(kind, msg)
}

/// A stream read's result: `(done, value)`. The property names are made once (a string
/// decoded from wasm per read showed in profiles).
pub(crate) fn read_result(r: &JsValue) -> (bool, JsValue) {
    thread_local! {
        static DONE: JsValue = JsValue::from_str("done");
        static VALUE: JsValue = JsValue::from_str("value");
    }
    let done = DONE
        .with(|k| Reflect::get(r, k))
        .ok()
        .and_then(|d| d.as_bool())
        .unwrap_or(true);
    let value = VALUE.with(|k| Reflect::get(r, k)).unwrap_or_default();
    (done, value)
}

/// Attaches a no-op rejection handler, for promises nobody else awaits.
pub(crate) fn ignore_rejection(p: &Promise) {
    thread_local! {
        static NOOP: Closure<dyn FnMut(JsValue)> = Closure::new(|_: JsValue| {});
    }
    NOOP.with(|f| {
        let _ = p.catch(f);
    });
}

/// The platform for burrow-client inside a Worker.
#[derive(Clone)]
pub struct WorkerNet {
    connect: Function,
    read_view: usize,
    context: Rc<RequestContext>,
    /// The deadlines of this client (one JS timer armed at a time: `timer.rs`).
    timers: Rc<Timers>,
}

impl WorkerNet {
    /// A platform that opens sockets with `connect` (the `connect` of `cloudflare:sockets`),
    /// reading through BYOB views of `read_view` bytes. `context` is the request this
    /// platform belongs to (sockets cannot cross requests).
    pub fn new(connect: Function, read_view: usize, context: Rc<RequestContext>) -> WorkerNet {
        WorkerNet {
            connect,
            read_view: read_view.clamp(1024, MAX_WRITE),
            context,
            timers: Timers::new(),
        }
    }

    /// The request context this platform belongs to.
    pub fn context(&self) -> &Rc<RequestContext> {
        &self.context
    }
}

fn set(o: &Object, k: &str, v: &JsValue) -> io::Result<()> {
    Reflect::set(o, &JsValue::from_str(k), v)
        .map(|_| ())
        .map_err(|e| js_io(&e))
}

impl Net for WorkerNet {
    type Stream = WorkerSocket;

    async fn connect(&self, host: &str, port: u16) -> io::Result<WorkerSocket> {
        #[cfg(feature = "test-hooks")]
        crate::hooks::trap_if_asked(host);
        self.context.check().map_err(Error::into_io)?;
        // An IPv6 literal is given to connect() without brackets (as the URL host has them).
        let hostname = host.trim_start_matches('[').trim_end_matches(']');
        let addr = Object::new();
        set(&addr, "hostname", &JsValue::from_str(hostname))?;
        set(&addr, "port", &JsValue::from(port))?;
        let opts = Object::new();
        set(&opts, "secureTransport", &JsValue::from_str("off"))?;
        set(&opts, "allowHalfOpen", &JsValue::FALSE)?;
        let sock: Socket = self
            .connect
            .call2(&JsValue::UNDEFINED, &addr, &opts)
            .map_err(|e| js_io(&e))?
            .unchecked_into();
        let opened = sock.opened().map_err(|e| js_io(&e))?;
        if let Err(e) = awaited(&opened).await {
            if let Ok(p) = sock.close_socket() {
                ignore_rejection(&p);
            }
            return Err(js_io(&e));
        }
        let byob = Object::new();
        set(&byob, "mode", &JsValue::from_str("byob"))?;
        let reader = sock
            .readable()
            .and_then(|r| r.get_reader(&byob))
            .map_err(|e| js_io(&e))?;
        let writer = sock
            .writable()
            .and_then(|w| w.get_writer())
            .map_err(|e| js_io(&e))?;
        let len = u32::try_from(self.read_view).unwrap_or(16 * 1024);
        Ok(WorkerSocket {
            socket: sock,
            reader,
            writer,
            buffer: Some(ArrayBuffer::new(len)),
            inflight: None,
            ready: None,
            eof: false,
            closed: false,
            wbuf: None,
            farewell: false,
            context: Rc::clone(&self.context),
        })
    }

    async fn sleep(&self, d: Duration) {
        let ms = d.as_secs_f64() * 1000.0;
        match self.timers.sleep(ms) {
            Some(s) => s.await,
            // No timers (cannot happen in workerd): never fire rather than fire at once.
            None => std::future::pending::<()>().await,
        }
    }

    fn now_ms(&self) -> u64 {
        // Date.now() is whole milliseconds, never negative in practice.
        let now = js_sys::Date::now();
        if now.is_finite() && now > 0.0 {
            js_to_u64(now)
        } else {
            0
        }
    }

    fn spawn(&self, task: Pin<Box<dyn Future<Output = ()>>>) {
        crate::exec::spawn(task);
    }

    /// Never called: [`resolves_names`](Self::resolves_names) says there is no lookup.
    async fn resolve(&self, host: &str) -> io::Result<Vec<IpAddr>> {
        Err(Error::Platform {
            code: "DNS_UNAVAILABLE",
            phase: Phase::Connect,
            message: format!("cannot resolve {host:?}: Workers have no DNS lookup"),
        }
        .into_io())
    }

    fn resolves_names(&self) -> bool {
        false
    }
}

/// One socket: BYOB reads into one reused buffer, bounded writes through one writer.
pub struct WorkerSocket {
    socket: Socket,
    reader: Reader,
    writer: Writer,
    /// The buffer for the next BYOB read (`None` while a read holds it).
    buffer: Option<ArrayBuffer>,
    /// A BYOB read in flight. Kept here so a dropped `read` future (the HTTP/2 driver cancels
    /// reads) loses no bytes: the next `read` awaits the same promise.
    inflight: Option<Awaited>,
    /// Bytes of the last fill not handed out yet, and where they start.
    ready: Option<(Uint8Array, u32)>,
    eof: bool,
    closed: bool,
    /// The reused JS buffer writes are copied into (made on first write).
    wbuf: Option<Uint8Array>,
    /// Writes and the close are a farewell, sent without waiting (see `farewell`).
    farewell: bool,
    context: Rc<RequestContext>,
}

impl WorkerSocket {
    /// A JS failure as an I/O error; a cross-request refusal marks the context.
    fn fail(&self, e: &JsValue) -> io::Error {
        if js_message(e).contains("different request") || js_message(e).contains("has since ended")
        {
            self.context.mark_foreign();
        }
        js_io(e)
    }

    /// Hands out buffered bytes, if any.
    fn take_ready(&mut self, buf: &mut [u8]) -> Option<usize> {
        let (view, off) = self.ready.as_mut()?;
        let len = view.length();
        let left = len.saturating_sub(*off);
        let n = u32::try_from(buf.len()).unwrap_or(u32::MAX).min(left);
        let dst = buf.get_mut(..js_len(n))?;
        view.subarray(*off, off.saturating_add(n)).copy_to(dst);
        *off = off.saturating_add(n);
        if *off >= len {
            self.ready = None;
        }
        Some(js_len(n))
    }
}

impl NetStream for WorkerSocket {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(n) = self.take_ready(buf) {
                if n > 0 {
                    return Ok(n);
                }
            }
            if self.eof {
                return Ok(0);
            }
            if self.inflight.is_none() {
                self.context.check().map_err(Error::into_io)?;
                let ab = self.buffer.take().ok_or_else(|| {
                    io::Error::new(
                        io::ErrorKind::BrokenPipe,
                        "the socket's read buffer is gone",
                    )
                })?;
                let view = Uint8Array::new(&ab);
                let p = self.reader.read_into(&view).map_err(|e| self.fail(&e))?;
                self.inflight = Some(awaited(&p));
            }
            let res = poll_fn(|cx| match self.inflight.as_mut() {
                Some(f) => Pin::new(f).poll(cx),
                None => Poll::Ready(Err(JsValue::from_str("no read in flight"))),
            })
            .await;
            self.inflight = None;
            let res = res.map_err(|e| self.fail(&e))?;
            let (done, value) = read_result(&res);
            if let Some(view) = value.dyn_ref::<Uint8Array>() {
                // The read detached our buffer and answers with a view over a new one: keep it.
                self.buffer = Some(view.buffer());
                if view.length() > 0 {
                    self.ready = Some((view.clone(), 0));
                }
            }
            if done {
                self.eof = true;
            }
        }
    }

    async fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        if self.closed {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "socket closed"));
        }
        self.context.check().map_err(Error::into_io)?;
        if self.farewell {
            for piece in data.chunks(MAX_WRITE) {
                // Not waited for, so not from the reused buffer: a copy of its own.
                let p = self
                    .writer
                    .write(&Uint8Array::from(piece))
                    .map_err(|e| self.fail(&e))?;
                ignore_rejection(&p);
            }
            return Ok(());
        }
        for piece in data.chunks(MAX_WRITE) {
            let wbuf = self.wbuf.get_or_insert_with(|| {
                Uint8Array::new_with_length(u32::try_from(MAX_WRITE).unwrap_or(u32::MAX))
            });
            // Fits: pieces are at most MAX_WRITE long.
            let view = wbuf.subarray(0, u32::try_from(piece.len()).unwrap_or(u32::MAX));
            view.copy_from(piece);
            let p = self.writer.write(&view).map_err(|e| self.fail(&e))?;
            // Awaited before the next piece: that is the backpressure, and it is what makes
            // reusing `wbuf` safe.
            let r = awaited(&p).await;
            r.map_err(|e| self.fail(&e))?;
        }
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        if self.farewell {
            for p in [self.writer.close_writer(), self.socket.close_socket()]
                .into_iter()
                .flatten()
            {
                ignore_rejection(&p);
            }
            return Ok(());
        }
        if let Ok(p) = self.writer.close_writer() {
            // The peer may have gone first; closing is best effort.
            let _ = awaited(&p).await;
        }
        if let Ok(p) = self.socket.close_socket() {
            let _ = awaited(&p).await;
        }
        Ok(())
    }

    /// The rest is sent without waiting: a promise of a request that has ended never
    /// settles, and a task waiting on one would never end, nor free what it holds (measured:
    /// an HTTP/2 connection's task per request, linear memory growing 128–256 KiB a request).
    fn farewell(&mut self) {
        self.farewell = true;
    }
}

impl Drop for WorkerSocket {
    fn drop(&mut self) {
        if !self.closed {
            if let Ok(p) = self.socket.close_socket() {
                ignore_rejection(&p);
            }
        }
    }
}
