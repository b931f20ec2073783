//! The sort view's workers: a walk of more than [`WORKER_MIN_LEN`] keys runs in a worker of its
//! own (`crosslane-sort-worker.js`, the page's own wasm loaded again: the walk needs no kernel
//! engine, and that module is already in the HTTP cache), so the page keeps answering.
//!
//! A worker is kept **warm** (the target: "n = 2^20 to its result in under 0.5 s"): the view
//! starts a spare one when it is first shown and keeps each worker that answered, so a walk does
//! not pay for a fresh worker's wasm load (40–60 ms) nor for running its first walk in the
//! engine's baseline tier. A fresh module instance's first 2^20-key walk took 506–559 ms in
//! headless Chromium where the same walk took 280–300 ms once the engine had optimized its loops
//! (`worker_sort` timed in the page, idle machine, 2026-12-01); the spare therefore walks
//! [`WARM_UP_LEN`] keys when it starts, and answers nothing for it.
//!
//! Messages (`crosslane-sort-worker.js`): the page posts `{sort: SortJob JSON, id}` and the worker
//! answers `{sort: Result JSON, id}`, the id telling the answer of the walk in progress from a
//! late one; `{warm: SortJob JSON}` walks without answering. A worker that cannot load says
//! `{failed: message}` or fires an `error` event.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::worker::client::SORT_WORKER_SCRIPT;
use crate::worker::sort::SortJob;

pub use crate::worker::sort::WORKER_MIN_LEN;

/// Keys the spare worker walks once to warm up: above the core's network limit (2^14), so the
/// walk takes the same `u32` path as the large walks (`SortRun::walk_random`), and small enough
/// (about 10 ms optimized, a few tens of ms before) to be done long before anyone asks.
pub const WARM_UP_LEN: usize = 1 << 15;

/// What a sort worker said.
pub enum Word {
    /// The answer of walk `id`: `Result<SortRun, InputError>` as JSON.
    Answer { id: u64, json: String },
    /// The worker could not load its script or its wasm, or trapped.
    Failed,
    /// Anything else (`{ready}`).
    Other,
}

impl Word {
    /// Reads one event of a worker's `message` or `error` listener.
    pub fn read(event: &JsValue) -> Word {
        let Some(message) = event.dyn_ref::<MessageEvent>() else {
            return Word::Failed; // an `error` event
        };
        let data = message.data();
        let field = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
        if let (Some(json), Some(id)) = (
            field("sort").and_then(|v| v.as_string()),
            field("id").and_then(|v| v.as_f64()),
        ) {
            return Word::Answer {
                id: id as u64,
                json,
            };
        }
        if field("failed").is_some_and(|v| !v.is_undefined()) {
            return Word::Failed;
        }
        Word::Other
    }
}

/// A started sort worker with its listener; dropping it terminates the worker.
pub struct SortWorker {
    /// Tells this worker's words from another's (the listener is told which worker spoke).
    pub serial: u64,
    worker: Worker,
    _listener: Closure<dyn FnMut(JsValue)>,
}

impl SortWorker {
    /// Starts a worker whose messages and errors go to `on_word(serial, word)`; with `warm`, it
    /// walks [`WARM_UP_LEN`] keys first. `None` when the browser starts no module worker (the
    /// view then walks on the page).
    pub fn start(
        serial: u64,
        warm: bool,
        mut on_word: impl FnMut(u64, Word) + 'static,
    ) -> Option<Self> {
        let opts = WorkerOptions::new();
        opts.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(SORT_WORKER_SCRIPT, &opts).ok()?;
        let listener = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            on_word(serial, Word::read(&e));
        });
        worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        worker.set_onerror(Some(listener.as_ref().unchecked_ref()));
        let me = SortWorker {
            serial,
            worker,
            _listener: listener,
        };
        if warm {
            let job = SortJob {
                len: WARM_UP_LEN,
                seed: 1,
                threshold: 1,
            };
            me.post("warm", &job, None).ok()?;
        }
        Some(me)
    }

    /// Posts walk `id` of `job`.
    ///
    /// # Errors
    /// The message could not be built or posted (the worker is then of no use).
    pub fn walk(&self, id: u64, job: &SortJob) -> Result<(), JsValue> {
        self.post("sort", job, Some(id))
    }

    fn post(&self, word: &str, job: &SortJob, id: Option<u64>) -> Result<(), JsValue> {
        let msg = js_sys::Object::new();
        let text = serde_json::to_string(job).map_err(|e| JsValue::from_str(&e.to_string()))?;
        js_sys::Reflect::set(&msg, &word.into(), &JsValue::from_str(&text))?;
        if let Some(id) = id {
            js_sys::Reflect::set(&msg, &"id".into(), &JsValue::from_f64(id as f64))?;
        }
        self.worker.post_message(&msg)
    }
}

impl Drop for SortWorker {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
