//! A burrow-client [`Net`] in memory: each connection plays a scripted server (its bytes cut into
//! reads as given), records what the client wrote, and ends with EOF; timers never fire unless
//! asked to. [`drive`] polls a future and the spawned tasks (the HTTP/2 driver) in turns, and
//! tells a hang (every future waits and none was woken) from a finish.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{pin, Pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

use burrow_client::{Net, NetStream};

/// What a scripted server does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Bytes one read returns (a read with less room takes them in parts; empty: the end).
    Bytes(Vec<u8>),
    /// Waits for the client to write something since the last bytes were read (a server
    /// answering the next request), for at most [`AWAIT_TURNS`] turns; then goes on.
    AwaitWrite,
}

/// Turns an [`Piece::AwaitWrite`] waits for the client at most: a client with nothing more to
/// send must not look hung because its server waits.
pub const AWAIT_TURNS: u32 = 8;

/// One scripted connection.
#[derive(Clone, Default)]
pub struct Script {
    /// What the server does, in order. After the last piece the stream ends (EOF).
    pub pieces: Vec<Piece>,
    /// Each read waits one turn first (its waker is woken at once), so other tasks run in
    /// between, as when the server's bytes arrive later.
    pub yield_each: bool,
    /// Everything the client wrote.
    pub written: Rc<RefCell<Vec<u8>>>,
}

impl Script {
    /// A connection sending `pieces`, one read each.
    pub fn new(pieces: Vec<Vec<u8>>) -> Script {
        Script {
            pieces: pieces.into_iter().map(Piece::Bytes).collect(),
            ..Script::default()
        }
    }
}

/// A spawned background task.
type Task = Pin<Box<dyn Future<Output = ()>>>;

/// The platform: connections are the scripts, in order; a connect with none left is refused.
#[derive(Clone, Default)]
pub struct ScriptNet {
    conns: Rc<RefCell<VecDeque<Script>>>,
    /// Every connect, as (host, port).
    pub connects: Rc<RefCell<Vec<(String, u16)>>>,
    /// Timers complete at once (to reach the deadlines) instead of never.
    pub timers_fire: bool,
    tasks: Rc<RefCell<Vec<Task>>>,
    spawned: Rc<RefCell<usize>>,
}

impl ScriptNet {
    /// A platform whose connections play `scripts`, in order.
    pub fn with(scripts: Vec<Script>) -> ScriptNet {
        ScriptNet {
            conns: Rc::new(RefCell::new(scripts.into())),
            ..ScriptNet::default()
        }
    }

    /// Background tasks not finished yet.
    pub fn pending_tasks(&self) -> usize {
        self.tasks.borrow().len()
    }
}

/// The client's end of a scripted connection.
pub struct ScriptStream {
    pieces: VecDeque<Piece>,
    yield_each: bool,
    /// The next read has waited its turn (kept here, not in the read's future, since a read
    /// that loses a race is dropped and begun again).
    yielded: bool,
    written: Rc<RefCell<Vec<u8>>>,
    /// Bytes written when the server last sent something.
    written_at_send: usize,
}

impl NetStream for ScriptStream {
    async fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.yield_each && !self.yielded {
            std::future::poll_fn(|cx| {
                if self.yielded {
                    Poll::Ready(())
                } else {
                    self.yielded = true;
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            })
            .await;
        }
        self.yielded = false;
        if self.pieces.front() == Some(&Piece::AwaitWrite) {
            let mut turns = 0;
            std::future::poll_fn(|cx| {
                if self.written.borrow().len() > self.written_at_send || turns >= AWAIT_TURNS {
                    Poll::Ready(())
                } else {
                    turns += 1;
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            })
            .await;
            self.pieces.pop_front();
        }
        self.written_at_send = self.written.borrow().len();
        let Some(Piece::Bytes(mut piece)) = self.pieces.pop_front() else {
            return Ok(0);
        };
        let n = piece.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), piece.get(..n)) {
            to.copy_from_slice(from);
        }
        if n < piece.len() {
            self.pieces.push_front(Piece::Bytes(piece.split_off(n)));
        }
        Ok(n)
    }

    async fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.written.borrow_mut().extend_from_slice(buf);
        Ok(())
    }

    async fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Net for ScriptNet {
    type Stream = ScriptStream;

    async fn connect(&self, host: &str, port: u16) -> io::Result<ScriptStream> {
        self.connects.borrow_mut().push((host.to_string(), port));
        let s =
            self.conns.borrow_mut().pop_front().ok_or_else(|| {
                io::Error::new(io::ErrorKind::ConnectionRefused, "no script left")
            })?;
        Ok(ScriptStream {
            pieces: s.pieces.into(),
            yield_each: s.yield_each,
            yielded: false,
            written: s.written,
            written_at_send: 0,
        })
    }

    async fn sleep(&self, _d: Duration) {
        if !self.timers_fire {
            std::future::pending::<()>().await;
        }
    }

    fn now_ms(&self) -> u64 {
        1_700_000_000_000
    }

    fn spawn(&self, task: Pin<Box<dyn Future<Output = ()>>>) {
        self.tasks.borrow_mut().push(task);
        *self.spawned.borrow_mut() += 1;
    }

    async fn resolve(&self, _host: &str) -> io::Result<Vec<IpAddr>> {
        Ok(vec![IpAddr::from([192, 0, 2, 7])])
    }
}

/// Why [`drive`] stopped before the future finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stuck {
    /// Every future was pending and none had been woken: in a real runtime it would wait
    /// for ever (the scripted reads never wait on anything).
    Hang {
        /// Turns taken.
        turns: usize,
    },
    /// The future was still making progress after this many turns.
    TooManyTurns(usize),
}

/// Records that some waker was woken.
struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Polls `f` and the net's background tasks in turns until `f` is done; `Ok` with its output
/// and the turns taken. Stops with [`Stuck`] when a turn leaves everything pending with no
/// waker woken and no task spawned, or after `max_turns`.
pub fn drive<F: Future>(
    net: &ScriptNet,
    f: F,
    max_turns: usize,
) -> Result<(F::Output, usize), Stuck> {
    let mut f = pin!(f);
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = Waker::from(Arc::clone(&flag));
    let mut cx = Context::from_waker(&waker);
    for turn in 1..=max_turns {
        flag.0.store(false, Ordering::SeqCst);
        let spawned = *net.spawned.borrow();
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return Ok((v, turn));
        }
        let mut tasks: Vec<Task> = net.tasks.borrow_mut().drain(..).collect();
        let before = tasks.len();
        tasks.retain_mut(|t| t.as_mut().poll(&mut cx).is_pending());
        let finished = tasks.len() < before;
        net.tasks.borrow_mut().extend(tasks);
        let woken = flag.0.load(Ordering::SeqCst);
        if !woken && !finished && *net.spawned.borrow() == spawned {
            return Err(Stuck::Hang { turns: turn });
        }
    }
    Err(Stuck::TooManyTurns(max_turns))
}
