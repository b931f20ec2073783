//! The sort view's large runs in the worker: a walk of the odd-even merge network over more than
//! [`WORKER_MIN_LEN`] keys (up to 2^20, seconds of work) is computed by `crosslane-sort-worker.js` in
//! a worker of its own, so the page keeps answering; the page receives the whole
//! [`SortRun`] and steps through it as before.

use crosslane_core::InputError;
use serde::{Deserialize, Serialize};

use crate::views::sort::model::SortRun;

/// Key counts above this are walked in a worker; smaller walks take milliseconds on the page.
pub const WORKER_MIN_LEN: usize = 16_384;

/// What the sort view asks for: `len` random keys from `seed`, wires drawn up to `threshold`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SortJob {
    /// Number of keys.
    pub len: usize,
    /// Seed of the keys.
    pub seed: u64,
    /// Largest n whose wires are drawn.
    pub threshold: usize,
}

/// The walk `job` asks for, as JSON of `Result<SortRun, InputError>` (the run as the page shows
/// it, [`SortRun::new_shown`]); called by `crosslane-sort-worker.js` for a `{sort}` message.
#[cfg(feature = "page")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn worker_sort(job: &str) -> String {
    let result: Result<SortRun, InputError> = serde_json::from_str::<SortJob>(job)
        .map_err(|e| InputError::new("sort", format!("unreadable request: {e}")))
        .and_then(|j| SortRun::new_shown(j.len, j.seed, j.threshold));
    serde_json::to_string(&result).unwrap_or_else(|e| {
        format!(r#"{{"Err":{{"field":"sort","message":"unwritable result: {e}"}}}}"#)
    })
}
