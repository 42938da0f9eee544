//! A monotonic millisecond clock for timing work inside the Worker.
//!
//! In workerd this is `performance.now()`. Note that workerd may coarsen or freeze timers while
//! JavaScript runs without I/O (a Spectre mitigation), so a short measurement can read 0.

#[cfg(target_arch = "wasm32")]
mod imp {
    use wasm_bindgen::prelude::wasm_bindgen;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
    }

    /// Milliseconds since an arbitrary origin.
    pub(crate) fn now_ms() -> f64 {
        performance_now()
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::sync::OnceLock;
    use std::time::Instant;

    /// Milliseconds since the first call (native builds and tests).
    #[allow(clippy::disallowed_methods)] // the Worker shell is not sans-IO; natively Instant works
    pub(crate) fn now_ms() -> f64 {
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        let origin = *ORIGIN.get_or_init(Instant::now);
        origin.elapsed().as_secs_f64() * 1000.0
    }
}

pub(crate) use imp::now_ms;
