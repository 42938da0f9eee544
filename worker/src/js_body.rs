//! A request body read from a JS `ReadableStream` as it comes, never buffered whole: the body
//! of a JS `fetch` given a stream, and of a `worker::Request` in the Rust API.

use std::future::Future;
use std::io;
use std::pin::Pin;

use burrow_client::{BodySource, BodyStream, Error};
use js_sys::{Function, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::exec::awaited;
use crate::net::{ignore_rejection, js_io, read_result, Reader};

/// Pieces of a `ReadableStream` of `Uint8Array`s, through its default reader. Dropped before
/// the end (a fetch that failed or was aborted), it cancels the stream.
pub(crate) struct JsBody {
    reader: Reader,
}

impl JsBody {
    /// A body from `stream` (anything with `getReader()`), `length` bytes long if known.
    pub(crate) fn stream(stream: &JsValue, length: Option<u64>) -> Result<BodyStream, Error> {
        let reader = Reflect::get(stream, &JsValue::from_str("getReader"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .and_then(|f| f.call0(stream).ok())
            .ok_or(Error::BadRequest("the request body stream cannot be read"))?;
        Ok(BodyStream::new(
            JsBody {
                reader: reader.unchecked_into(),
            },
            length,
        ))
    }
}

impl BodySource for JsBody {
    fn next_piece(&mut self) -> Pin<Box<dyn Future<Output = io::Result<Option<Vec<u8>>>> + '_>> {
        Box::pin(async move {
            let p = self.reader.read().map_err(|e| js_io(&e))?;
            let r = awaited(&p).await.map_err(|e| js_io(&e))?;
            let (done, v) = read_result(&r);
            if done {
                return Ok(None);
            }
            match v.dyn_ref::<Uint8Array>() {
                Some(a) => Ok(Some(a.to_vec())),
                None => Err(io::Error::other(
                    "the request body stream gave something that is not a Uint8Array",
                )),
            }
        })
    }
}

impl Drop for JsBody {
    fn drop(&mut self) {
        if let Ok(p) = self.reader.cancel_reader() {
            ignore_rejection(&p);
        }
    }
}
