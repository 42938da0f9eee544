//! The JS API's WebSockets: `RawClient::websocket` opens one with burrow-client and hands out a
//! `RawWebSocket`, wrapped by `BurrowWebSocket` in `worker/js/burrow.mjs`.
//!
//! One driver task per WebSocket owns the connection: it sends what JS queued (in order), then
//! waits for the server's next frame, interrupted when JS queues more (the read it drops is
//! cancel-safe: `WebSocket::recv_unless`). Every event goes to one JS callback as it arrives,
//! `(type, value)`: `"message"` with a string or an `ArrayBuffer`, `"close"` with
//! `{ code, reason, wasClean }`, `"error"` with `{ code, phase, message }` (then `"close"`).
//! Pings are answered by the codec while the driver waits.
//!
//! Memory is bounded: the bytes queued and not yet handed to the codec are at most the
//! message bound (`Config::max_message_size`, 16 MiB by default); a send beyond that throws
//! `WS_SEND_QUEUE_FULL`, and a message larger than the bound `WS_MESSAGE_TOO_BIG` (so neither
//! side sends what the other would refuse).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::poll_fn;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

use burrow_client::ws::{CloseCode, CloseFrame, Event, Message, MessageKind};
use burrow_client::{Error, Phase, Received, WebSocket, WebSocketOptions};
use js_sys::{Array, Function, Object, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::{error_value, set};
use crate::exec::{from_js, spawn};
use crate::net::WorkerNet;

/// What JS asked the driver to do, in order.
enum Command {
    Send(MessageKind, Vec<u8>),
    Close(Option<u16>, String),
}

/// What JS and the driver share.
struct Shared {
    commands: VecDeque<Command>,
    /// Payload bytes in `commands`.
    queued: usize,
    /// The most `queued` may be.
    max_queued: usize,
    /// The largest message the server accepts from us, by our own bound.
    max_message: usize,
    /// `close()` was called, or the connection ended: sends are refused.
    closing: bool,
    /// The driver, waiting for the server or for a command.
    waker: Option<Waker>,
}

impl Shared {
    fn push(&mut self, cmd: Command, bytes: usize) {
        self.queued = self.queued.saturating_add(bytes);
        self.commands.push_back(cmd);
        if let Some(w) = self.waker.take() {
            w.wake();
        }
    }
}

/// `WS_SEND_QUEUE_FULL`, `WS_MESSAGE_TOO_BIG` and `WS_CLOSED` for a `send()` that cannot be
/// queued (phase `request`: the caller's call).
fn refused(e: Error) -> JsValue {
    error_value(&e, None)
}

/// An open WebSocket for JS (wrapped by `BurrowWebSocket` in `burrow.mjs`).
#[wasm_bindgen]
pub struct RawWebSocket {
    shared: Rc<RefCell<Shared>>,
    protocol: String,
    extensions: String,
}

#[wasm_bindgen]
impl RawWebSocket {
    /// The subprotocol the server selected (`""`: none).
    #[wasm_bindgen(getter)]
    pub fn protocol(&self) -> String {
        self.protocol.clone()
    }

    /// The extensions the server accepted (`""`: none).
    #[wasm_bindgen(getter)]
    pub fn extensions(&self) -> String {
        self.extensions.clone()
    }

    /// Payload bytes queued and not yet handed to the codec (WHATWG's `bufferedAmount`,
    /// roughly: what the codec has framed may still wait for the socket).
    #[wasm_bindgen(getter, js_name = bufferedAmount)]
    pub fn buffered_amount(&self) -> f64 {
        crate::num::usize_to_js(self.shared.borrow().queued)
    }

    /// Queues a text message.
    #[wasm_bindgen(js_name = sendText)]
    pub fn send_text(&self, text: String) -> Result<(), JsValue> {
        self.send(MessageKind::Text, text.into_bytes())
    }

    /// Queues a binary message (the bytes are copied in).
    #[wasm_bindgen(js_name = sendBinary)]
    pub fn send_binary(&self, data: Vec<u8>) -> Result<(), JsValue> {
        self.send(MessageKind::Binary, data)
    }

    /// Queues the closing handshake: `code` (`undefined`: an empty Close) and `reason` are
    /// checked now (`WS_INVALID_ARGUMENT`). Later calls do nothing.
    pub fn close(&self, code: Option<u16>, reason: String) -> Result<(), JsValue> {
        CloseFrame::check_sendable(code.map(CloseCode), &reason)
            .map_err(|e| error_value(&Error::WebSocket(e), None))?;
        from_js(|| {
            let mut s = self.shared.borrow_mut();
            if s.closing {
                return;
            }
            s.closing = true;
            s.push(Command::Close(code, reason), 0);
        });
        Ok(())
    }
}

impl RawWebSocket {
    fn send(&self, kind: MessageKind, data: Vec<u8>) -> Result<(), JsValue> {
        from_js(|| {
            let mut s = self.shared.borrow_mut();
            if s.closing {
                return Err(refused(Error::Platform {
                    code: "WS_CLOSED",
                    phase: Phase::Request,
                    message: "the WebSocket is closing or closed: open a new one".to_string(),
                }));
            }
            if data.len() > s.max_message {
                return Err(refused(Error::Platform {
                    code: "WS_MESSAGE_TOO_BIG",
                    phase: Phase::Request,
                    message: format!(
                        "a message of {} bytes is over burrow's bound of {} \
                         bytes per message: send it in parts",
                        data.len(),
                        s.max_message
                    ),
                }));
            }
            if s.queued.saturating_add(data.len()) > s.max_queued {
                return Err(refused(Error::Platform {
                    code: "WS_SEND_QUEUE_FULL",
                    phase: Phase::Request,
                    message: format!(
                        "{} bytes are already queued to send (at most {}): \
                         wait until `bufferedAmount` falls before sending more",
                        s.queued, s.max_queued
                    ),
                }));
            }
            let n = data.len();
            s.push(Command::Send(kind, data), n);
            Ok(())
        })
    }
}

/// `{ code, reason, wasClean }`.
fn close_value(code: u16, reason: &str, clean: bool) -> JsValue {
    let o = Object::new();
    set(&o, "code", code);
    set(&o, "reason", reason);
    set(&o, "wasClean", clean);
    o.into()
}

/// Opens a WebSocket (`RawClient::websocket`): resolves to a `RawWebSocket` once the server
/// has switched protocols; `on_event(type, value)` hears what follows.
pub(crate) async fn open(
    http: crate::setup::Http,
    url: String,
    protocols: Array,
    headers: Array,
    on_event: Function,
) -> Result<RawWebSocket, Error> {
    let mut options = WebSocketOptions {
        protocols: protocols.iter().filter_map(|p| p.as_string()).collect(),
        ..WebSocketOptions::default()
    };
    for pair in headers.iter() {
        let pair: Array = pair.unchecked_into();
        if let (Some(n), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
            options.headers.push((n, v));
        }
    }
    let max_message = options.config.max_message_size;
    let ws = http.websocket(&url, options).await?;
    let shared = Rc::new(RefCell::new(Shared {
        commands: VecDeque::new(),
        queued: 0,
        max_queued: max_message,
        max_message,
        closing: false,
        waker: None,
    }));
    let raw = RawWebSocket {
        shared: Rc::clone(&shared),
        protocol: ws.protocol().unwrap_or_default().to_string(),
        extensions: ws.extensions().to_string(),
    };
    spawn(drive(ws, shared, on_event));
    Ok(raw)
}

fn emit(on_event: &Function, kind: &str, value: &JsValue) {
    // The JS side only queues the event: a listener's exception is its own.
    let _ = on_event.call2(&JsValue::NULL, &JsValue::from_str(kind), value);
}

/// The driver: sends what is queued, delivers what arrives, until the WebSocket closes.
async fn drive(mut ws: WebSocket<WorkerNet>, shared: Rc<RefCell<Shared>>, on_event: Function) {
    let mut server_close: Option<CloseFrame> = None;
    let outcome: Result<(), Error> = async {
        loop {
            // What JS queued, in order (no borrow held across an await).
            loop {
                let cmd = {
                    let mut s = shared.borrow_mut();
                    let cmd = s.commands.pop_front();
                    if let Some(Command::Send(_, d)) = &cmd {
                        s.queued = s.queued.saturating_sub(d.len());
                    }
                    cmd
                };
                match cmd {
                    Some(Command::Send(kind, data)) => match ws.send(kind, &data).await {
                        // The server's Close came first: nothing more may be sent, and the
                        // close event says why.
                        Err(Error::WebSocket(e)) if e.code() == "WS_CLOSED" => {}
                        other => other?,
                    },
                    Some(Command::Close(code, reason)) => match ws.close(code, &reason).await {
                        Err(Error::WebSocket(e)) if e.code() == "WS_CLOSED" => {}
                        other => other?,
                    },
                    None => break,
                }
            }
            let queued = poll_fn(|cx| {
                let mut s = shared.borrow_mut();
                if s.commands.is_empty() {
                    s.waker = Some(cx.waker().clone());
                    Poll::Pending
                } else {
                    Poll::Ready(())
                }
            });
            match ws.recv_unless(pin!(queued)).await? {
                Received::Event(Event::Message(Message::Text(t))) => {
                    emit(&on_event, "message", &JsValue::from_str(&t));
                }
                Received::Event(Event::Message(Message::Binary(b))) => {
                    // One copy out of wasm, into an ArrayBuffer of exactly the message.
                    emit(
                        &on_event,
                        "message",
                        &Uint8Array::from(b.as_slice()).buffer(),
                    );
                }
                Received::Event(Event::Close(frame)) => {
                    shared.borrow_mut().closing = true;
                    server_close = Some(frame);
                }
                Received::Event(_) | Received::Interrupted => {}
                Received::Done => return Ok(()),
            }
        }
    }
    .await;
    {
        let mut s = shared.borrow_mut();
        s.closing = true;
        s.commands.clear();
        s.queued = 0;
        s.waker = None;
    }
    match outcome {
        Ok(()) => {
            let (code, reason) =
                server_close.map_or((CloseCode::NO_STATUS_RECEIVED.0, String::new()), |f| {
                    (
                        f.code.map_or(CloseCode::NO_STATUS_RECEIVED.0, |c| c.0),
                        f.reason,
                    )
                });
            emit(&on_event, "close", &close_value(code, &reason, true));
        }
        Err(e) => {
            // The code the Close we sent for it named, else 1006 (no Close: abnormal).
            let code = match &e {
                Error::WebSocket(w) => w.close_code().map_or(1006, |c| c.0),
                _ => 1006,
            };
            emit(&on_event, "error", &error_value(&e, None));
            emit(&on_event, "close", &close_value(code, "", false));
        }
    }
}
