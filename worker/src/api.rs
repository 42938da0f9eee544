//! The JS API's Rust half (wasm-bindgen): `RawClient`, `RawResponse`, `AbortToken`. The
//! WHATWG shapes (`Request`/`Response`, `Headers`, body types, `AbortSignal`,
//! `BurrowError`) are handled in `worker/js/burrow.mjs`, which wraps these; this side takes
//! plain values so each crossing is one call.
//!
//! Failures reject with a plain object `{ code, phase, message }` that the JS side turns into
//! a `BurrowError` (or a `TypeError` for argument mistakes, an `AbortError` for aborts).

use std::cell::{Cell, RefCell};
use std::future::{poll_fn, Future};
use std::pin::pin;
use std::rc::Rc;
use std::task::{Poll, Waker};

use crate::exec::{from_js, spawn_promise};
use burrow_client::{Body, Error, Phase, Request, Response};
use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::context::RequestContext;
use crate::js_body::JsBody;
use crate::net::WorkerNet;
use crate::num::{u64_to_js, usize_to_js};
use crate::options::{self, present};
use crate::setup::{self, Core, Http};
use crate::webcrypto::WebCrypto;

pub(crate) fn set(o: &Object, k: &str, v: impl Into<JsValue>) {
    // Setting a plain property on a fresh object cannot fail.
    let _ = Reflect::set(o, &JsValue::from_str(k), &v.into());
}

/// `{ code, phase, message }` for the JS side: the phase the error says (or `phase`, where
/// the caller knows better: a body being read), the message naming JS options.
pub(crate) fn error_value(e: &Error, phase: Option<Phase>) -> JsValue {
    let o = Object::new();
    set(&o, "code", e.code());
    set(&o, "phase", phase.unwrap_or_else(|| e.phase()).name());
    set(&o, "message", e.message(options::js_name).to_string());
    o.into()
}

/// `CLIENT_CLOSED`: the client was used after `close()`.
fn client_closed() -> Error {
    Error::Platform {
        code: "CLIENT_CLOSED",
        phase: Phase::Request,
        message: "this Client was closed: make a new one".to_string(),
    }
}

fn abort_value() -> JsValue {
    let o = Object::new();
    set(&o, "code", "ABORTED");
    set(&o, "phase", "abort");
    set(&o, "message", "the fetch was aborted");
    o.into()
}

#[derive(Default)]
struct AbortState {
    aborted: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
}

/// Aborts one fetch (request and body): the JS side calls `abort()` when the fetch's
/// `AbortSignal` fires.
#[wasm_bindgen]
#[derive(Clone, Default)]
pub struct AbortToken {
    state: Rc<AbortState>,
}

#[wasm_bindgen]
impl AbortToken {
    /// A token not yet aborted.
    #[wasm_bindgen(constructor)]
    pub fn new() -> AbortToken {
        AbortToken::default()
    }

    /// Aborts whatever the token guards, now and later.
    pub fn abort(&self) {
        from_js(|| {
            self.state.aborted.set(true);
            for w in self.state.wakers.borrow_mut().drain(..) {
                w.wake();
            }
        });
    }
}

impl AbortToken {
    async fn wait(&self) {
        poll_fn(|cx| {
            if self.state.aborted.get() {
                Poll::Ready(())
            } else {
                // Polled once per wake-up of the guarded work: keep one entry per task.
                let mut w = self.state.wakers.borrow_mut();
                if !w.iter().any(|x| x.will_wake(cx.waker())) {
                    w.push(cx.waker().clone());
                }
                Poll::Pending
            }
        })
        .await;
    }

    /// `f`, unless the token aborts first (then `None`, and `f` is dropped: whatever it held,
    /// a connection included, is released).
    async fn guard<T>(&self, f: impl Future<Output = T>) -> Option<T> {
        let mut f = pin!(f);
        let mut stop = pin!(self.wait());
        poll_fn(|cx| {
            // The abort first: work that happens to be ready (bytes already buffered) must not
            // outrun an abort that came before it.
            if stop.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            if let Poll::Ready(v) = f.as_mut().poll(cx) {
                return Poll::Ready(Some(v));
            }
            Poll::Pending
        })
        .await
    }
}

/// burrow's HTTP client for JS (wrapped by `Client` in `burrow.mjs`).
#[wasm_bindgen]
pub struct RawClient {
    http: Rc<RefCell<Option<Http>>>,
    crypto: Option<Rc<WebCrypto>>,
    context: Rc<RequestContext>,
}

#[wasm_bindgen]
impl RawClient {
    /// Parses `options` (throws `TypeError` naming a bad option).
    #[wasm_bindgen(constructor)]
    pub fn new(options: &JsValue) -> Result<RawClient, JsValue> {
        crate::install_panic_hook();
        let o = options::parse(options)?;
        let Core {
            http,
            crypto,
            context,
        } = Core::new(o.connect, o.config)?;
        Ok(RawClient {
            http: Rc::new(RefCell::new(Some(http))),
            crypto,
            context,
        })
    }

    /// Sends a request. `headers` is an array of `[name, value]`; `body` a `Uint8Array`
    /// (replayable), `stream` a `ReadableStream` (sent as it comes), or neither; `redirect`
    /// this request's `"follow"`, `"manual"` or `"error"` (`undefined`: the client's; another
    /// value throws a `TypeError`). Resolves to a `RawResponse` once the head has arrived.
    #[allow(clippy::too_many_arguments)] // one crossing per fetch: each a plain value
    pub fn fetch(
        &self,
        method: String,
        url: String,
        headers: Array,
        body: JsValue,
        stream: JsValue,
        redirect: Option<String>,
        token: &AbortToken,
    ) -> Result<Promise, JsValue> {
        let redirect = match redirect {
            Some(r) => Some(options::redirect_mode(&r, "`redirect`")?),
            None => None,
        };
        let http = self.http.borrow().clone();
        let context = Rc::clone(&self.context);
        let token = token.clone();
        // An entry point of the executor: the task runs before this returns.
        Ok(from_js(|| {
            spawn_promise(async move {
                let Some(http) = http else {
                    return Err(error_value(&client_closed(), None));
                };
                context.check().map_err(|e| error_value(&e, None))?;
                let mut req = Request::new(&method, &url).map_err(|e| error_value(&e, None))?;
                req.redirect_mode = redirect;
                for pair in headers.iter() {
                    let pair: Array = pair.unchecked_into();
                    let (Some(n), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string())
                    else {
                        continue;
                    };
                    req.headers.push((n, v));
                }
                if let Some(bytes) = body.dyn_ref::<Uint8Array>() {
                    req.body = Body::Bytes(Rc::new(bytes.to_vec()));
                } else if present(&stream) {
                    req.body = Body::Stream(
                        JsBody::stream(&stream, None).map_err(|e| error_value(&e, None))?,
                    );
                }
                let result = token.guard(http.fetch(req)).await.ok_or_else(abort_value)?;
                let resp =
                    result.map_err(|e| error_value(&setup::fetch_error(&context, e), None))?;
                Ok(RawResponse::new(resp, token).into())
            })
        }))
    }

    /// Opens a WebSocket (`ws://` or `wss://`) through this client's proxy, trust and
    /// identity: `protocols` an array of subprotocols to offer, `headers` an array of
    /// `[name, value]`; `on_event(type, value)` hears every event after the open (see
    /// `websocket.rs`). Resolves to a `RawWebSocket` once the server switched protocols.
    pub fn websocket(
        &self,
        url: String,
        protocols: Array,
        headers: Array,
        on_event: js_sys::Function,
    ) -> Promise {
        let http = self.http.borrow().clone();
        let context = Rc::clone(&self.context);
        // An entry point of the executor: the task runs before this returns.
        from_js(|| {
            spawn_promise(async move {
                let Some(http) = http else {
                    return Err(error_value(&client_closed(), None));
                };
                context.check().map_err(|e| error_value(&e, None))?;
                let ws = crate::websocket::open(http, url, protocols, headers, on_event)
                    .await
                    .map_err(|e| error_value(&setup::fetch_error(&context, e), None))?;
                Ok(ws.into())
            })
        })
    }

    /// Drops the pool: idle connections close, later fetches fail with `CLIENT_CLOSED`. An
    /// entry point of the executor: HTTP/2 connections say goodbye before this returns.
    pub fn close(&self) {
        let http = self.http.borrow_mut().take();
        from_js(move || drop(http));
    }

    /// Counters for tests and the demo's `/stats`: `{ webcrypto: {...}, wasm: {...},
    /// chainCache: { hits, misses, entries }, pendingHeadsHighWater }`. `chainCache` counts
    /// the cache this client uses (the isolate's, shared with other clients, by default) and
    /// is absent when it is off.
    pub fn stats(&self) -> JsValue {
        let o = Object::new();
        if let Some(c) = &self.crypto {
            let n = c.counts();
            let w = Object::new();
            set(&w, "keys", u64_to_js(n.keys));
            set(&w, "opens", u64_to_js(n.opens));
            set(&w, "seals", u64_to_js(n.seals));
            set(&w, "verifies", u64_to_js(n.verifies));
            set(&w, "inlineOpens", u64_to_js(n.inline_opens));
            set(&w, "inlineSeals", u64_to_js(n.inline_seals));
            set(&w, "inlineKeys", u64_to_js(n.inline_keys));
            set(&w, "inlineVerifies", u64_to_js(n.inline_verifies));
            set(&w, "signingKeys", u64_to_js(n.signing_keys));
            set(&w, "signs", u64_to_js(n.signs));
            set(&w, "inlineSigns", u64_to_js(n.inline_signs));
            set(&o, "webcrypto", w);
        }
        if let Some(h) = self.http.borrow().as_ref() {
            set(
                &o,
                "pendingHeadsHighWater",
                usize_to_js(h.pending_heads_high_water()),
            );
            let chains = &h.config().tls.chain_cache;
            if chains.is_enabled() {
                let n = chains.stats();
                let c = Object::new();
                set(&c, "hits", u64_to_js(n.hits));
                set(&c, "misses", u64_to_js(n.misses));
                set(&c, "entries", usize_to_js(n.entries));
                set(&o, "chainCache", c);
            }
        }
        o.into()
    }
}

/// A response whose head has arrived; the body is read with `next()`.
#[wasm_bindgen]
pub struct RawResponse {
    status: u16,
    status_text: String,
    headers: Array,
    url: String,
    meta_json: String,
    redirects: u32,
    body: Rc<RefCell<Option<Response<WorkerNet>>>>,
    token: AbortToken,
}

impl RawResponse {
    fn new(resp: Response<WorkerNet>, token: AbortToken) -> RawResponse {
        let headers = Array::new();
        for (n, v) in &resp.headers {
            headers.push(&Array::of2(&JsValue::from_str(n), &JsValue::from_str(v)));
        }
        RawResponse {
            status: resp.status,
            status_text: resp.meta.reason.clone(),
            headers,
            url: resp.url.to_string(),
            meta_json: crate::meta::meta_json(&resp.meta),
            redirects: resp.meta.redirects,
            body: Rc::new(RefCell::new(Some(resp))),
            token,
        }
    }
}

#[wasm_bindgen]
impl RawResponse {
    /// Status code.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The status line's reason phrase (`""` over HTTP/2, which has none).
    #[wasm_bindgen(getter, js_name = statusText)]
    pub fn status_text(&self) -> String {
        self.status_text.clone()
    }

    /// Header fields as received, `[name, value]` pairs in order.
    #[wasm_bindgen(getter)]
    pub fn headers(&self) -> Array {
        self.headers.clone()
    }

    /// The final URL (after redirects).
    #[wasm_bindgen(getter)]
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// How the response was obtained, as JSON text (`response.burrow` on the JS side parses it
    /// when first read).
    #[wasm_bindgen(getter, js_name = metaJson)]
    pub fn meta_json(&self) -> String {
        self.meta_json.clone()
    }

    /// Redirects followed (`response.redirected` without parsing the meta).
    #[wasm_bindgen(getter)]
    pub fn redirects(&self) -> u32 {
        self.redirects
    }

    /// The next piece of the body as it arrives (`Uint8Array`), `undefined` at the end.
    pub fn next(&self) -> Promise {
        let cell = Rc::clone(&self.body);
        let token = self.token.clone();
        // An entry point of the executor: the task runs before this returns.
        from_js(|| {
            spawn_promise(async move {
                let Some(mut resp) = cell.borrow_mut().take() else {
                    return Ok(JsValue::UNDEFINED);
                };
                // The chunk is lent from the response's buffer; the body's one copy out of wasm
                // is into the new JS array.
                let next = async { Ok(resp.next_chunk().await?.map(Uint8Array::from)) };
                let got: Result<Option<Uint8Array>, burrow_client::Error> =
                    token.guard(next).await.ok_or_else(abort_value)?;
                match got {
                    Ok(Some(chunk)) => {
                        *cell.borrow_mut() = Some(resp);
                        Ok(chunk.into())
                    }
                    // The response is dropped: its connection goes back to the pool.
                    Ok(None) => Ok(JsValue::UNDEFINED),
                    Err(e) => Err(error_value(&e, Some(Phase::Body))),
                }
            })
        })
    }

    /// Stops reading: the body is dropped and its connection released. A `next()` in flight
    /// holds the body while it waits: the abort makes it let go now (its promise rejects,
    /// unheard), not when its wait ends — which, for a request that has ended, is never.
    pub fn cancel(&self) {
        self.body.borrow_mut().take();
        self.token.abort();
    }
}
