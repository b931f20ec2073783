//! The wasm-bindgen exports behind `dist/crosslane.js`. Objects cross the boundary as
//! JavaScript objects through serde-wasm-bindgen with [`Serializer::json_compatible`] — `null`
//! where the CLI prints null, plain objects, never an ES `Map` or `undefined` — so a result equals
//! `JSON.parse` of the CLI's `--json` output for the same call.
//!
//! Every export returns `Err(object)` instead of panicking: `{field, message}` of the core's
//! [`InputError`] (the field as the user knows it and what is allowed); `crosslane.js` turns it
//! into a thrown `CrosslaneError`. The names carry a `lib_` prefix so they stay apart from the
//! page's own exports in the one shared wasm module.

use crosslane_core::InputError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;

use super::views::{self, KernelView, SortView};
use super::{ApiOpRequest, Launch, SortOptions, Surface};

/// `value` as a plain JavaScript value (JSON-compatible serializer).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&Serializer::json_compatible())
        .map_err(|e| error("result", &e.to_string()))
}

/// The thrown object: `{field, message}`.
fn error(field: &str, message: &str) -> JsValue {
    to_js(&InputError::new(field, message)).unwrap_or_else(|e| e)
}

fn input_error(e: InputError) -> JsValue {
    error(&e.field, &e.message)
}

/// A JavaScript object as `T`, through a JSON value: serde-wasm-bindgen reads a struct by its
/// declared field names only, so a misspelt key (`param` for `params`) would pass unnoticed; read
/// whole, `#[serde(deny_unknown_fields)]` names it. A wrong shape is an error on `field` with
/// serde's one-line reason.
fn parse<T: DeserializeOwned>(value: JsValue, field: &str) -> Result<T, JsValue> {
    let json: serde_json::Value =
        serde_wasm_bindgen::from_value(value).map_err(|e| error(field, &e.to_string()))?;
    serde_json::from_value(json).map_err(|e| error(field, &e.to_string()))
}

/// [`parse`], with `undefined` or `null` meaning all defaults.
fn from_js<T: DeserializeOwned + Default>(value: JsValue, field: &str) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    parse(value, field)
}

fn request(value: JsValue) -> Result<ApiOpRequest, JsValue> {
    parse(value, "request")
}

/// `runOp(request)`: the `crosslane op --json` object ([`super::run_op`]).
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn lib_run_op(request_value: JsValue) -> Result<JsValue, JsValue> {
    let r = request(request_value)?;
    to_js(&super::run_op(&r).map_err(input_error)?)
}

/// `listOps(dialect?)`: the reference entries ([`super::list_ops`]).
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn lib_list_ops(dialect: Option<String>) -> Result<JsValue, JsValue> {
    to_js(&super::list_ops(dialect.as_deref()).map_err(input_error)?)
}

/// Where a call runs: `true` from the library's worker (`crosslane-lib-worker.js`).
#[cfg(any(feature = "engine", feature = "lib"))]
fn surface(worker: bool) -> Surface {
    if worker {
        Surface::Worker
    } else {
        Surface::Caller
    }
}

/// `runKernel(source, launch)`: the kernel trace ([`super::run_kernel`]) under the ceilings of
/// the caller's thread, or of the worker when `worker`.
#[cfg(feature = "engine")]
#[wasm_bindgen]
pub fn lib_run_kernel(source: &str, launch: JsValue, worker: bool) -> Result<JsValue, JsValue> {
    let launch: Launch = from_js(launch, "launch")?;
    let clock: super::Clock = js_sys::Date::now;
    let trace =
        super::kernel_trace(source, &launch, surface(worker), Some(clock)).map_err(input_error)?;
    // As JSON text, read by the engine's own JSON.parse: the CLI's `--json` exactly (integers
    // past 2^53 rounded as JSON.parse rounds them), and several times faster for a long trace
    // than building the objects one by one across the boundary.
    let text = serde_json::to_string(&trace)
        .map_err(|e| error("source", &format!("trace as JSON: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| error("source", "trace as JSON: JSON.parse refused it"))
}

/// `sortNetwork(n, options?)`: the network's report ([`super::sort_network`]); `n` is
/// `undefined` when `options.values` gives the keys; `worker` as in `lib_run_kernel`.
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn lib_sort_network(
    n: Option<f64>,
    options: JsValue,
    worker: bool,
) -> Result<JsValue, JsValue> {
    let options: SortOptions = from_js(options, "options")?;
    let n = n.map(|n| length(n, "len")).transpose()?;
    to_js(&super::sort_network(n, &options, surface(worker)).map_err(input_error)?)
}

/// A JavaScript number as a count: a whole number, 0 or more (the core checks the range).
fn length(n: f64, field: &str) -> Result<usize, JsValue> {
    if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= super::MAX_SAFE_INTEGER as f64 {
        Ok(n as usize)
    } else {
        Err(error(
            field,
            &format!("must be a whole number ≥ 0, got {n}"),
        ))
    }
}

/// `encodePermalink(scenario)` ([`super::encode_permalink`]).
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn lib_encode_permalink(scenario: JsValue) -> Result<String, JsValue> {
    let value: serde_json::Value =
        serde_wasm_bindgen::from_value(scenario).map_err(|e| error("scenario", &e.to_string()))?;
    super::encode_permalink(&value).map_err(input_error)
}

/// `decodePermalink(text)` ([`super::decode_permalink`]).
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn lib_decode_permalink(text: &str) -> Result<JsValue, JsValue> {
    to_js(&super::decode_permalink(text).map_err(input_error)?)
}

/// `<crosslane-op>`'s drawing: [`views::op_view`] `width` CSS pixels wide.
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub fn lib_op_view(request_value: JsValue, width: f64) -> Result<JsValue, JsValue> {
    let r = request(request_value)?;
    to_js(&views::op_view(&r, width).map_err(input_error)?)
}

/// `<crosslane-sort>`'s model: the network walked once, drawn at any stage.
#[cfg(feature = "lib")]
#[wasm_bindgen]
pub struct LibSortView(SortView);

#[cfg(feature = "lib")]
#[wasm_bindgen]
impl LibSortView {
    /// Walks the network over `n` keys from `seed`, or over `values` ([`SortView::new`]).
    #[wasm_bindgen(constructor)]
    pub fn new(n: Option<f64>, seed: Option<f64>, values: Option<String>) -> Result<Self, JsValue> {
        let n = n.map(|n| length(n, "n")).transpose()?;
        let seed = seed.map(|s| length(s, "seed")).transpose()?.unwrap_or(1) as u64;
        SortView::new(n, seed, values.as_deref())
            .map(LibSortView)
            .map_err(input_error)
    }

    /// Number of stages.
    pub fn stages(&self) -> usize {
        self.0.stages()
    }

    /// The picture at stage position `at` ([`SortView::frame`]).
    pub fn frame(&self, at: usize, width: f64) -> Result<JsValue, JsValue> {
        to_js(&self.0.frame(at, width))
    }
}

/// `<crosslane-kernel>`'s model: the kernel run once, shown at any statement.
#[cfg(feature = "engine")]
#[wasm_bindgen]
pub struct LibKernelView(KernelView);

#[cfg(feature = "engine")]
#[wasm_bindgen]
impl LibKernelView {
    /// Runs `source` with `launch` ([`KernelView::new`]).
    #[wasm_bindgen(constructor)]
    pub fn new(source: &str, launch: JsValue) -> Result<Self, JsValue> {
        let launch: Launch = from_js(launch, "launch")?;
        let clock: super::Clock = js_sys::Date::now;
        KernelView::new(source, &launch, Some(clock))
            .map(LibKernelView)
            .map_err(input_error)
    }

    /// Statements executed.
    pub fn steps(&self) -> usize {
        self.0.steps()
    }

    /// The picture after `pos` statements ([`KernelView::frame`]).
    pub fn frame(&self, pos: usize, width: f64) -> Result<JsValue, JsValue> {
        to_js(&self.0.frame(pos, width))
    }
}
