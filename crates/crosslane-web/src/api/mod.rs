//! The JavaScript library's semantics side: what `dist/crosslane.js` and the web
//! components of `dist/crosslane-elements.js` call. Every answer is built by the same core code
//! the CLI prints, so the library and `crosslane … --json` cannot drift apart:
//!
//! * [`run_op`] — [`crosslane_core::Step::contract_json`], the object `crosslane op --json` prints;
//! * [`list_ops`] — [`crosslane_core::reference::entries`], as `crosslane ops --json`;
//! * [`run_kernel`] — the [`crosslane_kernel::KernelTrace`] as `crosslane run FILE --json`;
//! * [`sort_network`] — [`crosslane_core::network::report`](fn@crosslane_core::network::report), as `crosslane sort --json`;
//! * [`encode_permalink`] / [`decode_permalink`] — [`crosslane_core::permalink`].
//!
//! The drawings of the elements ([`views`]) come from the page's one renderer
//! ([`crate::render::scene`] and its SVG back end), so an element draws what the page draws.
//!
//! This module is target-independent (its tests run natively); `bindings` (wasm32 only) is the
//! thin wasm-bindgen layer that moves these values across the boundary with serde-wasm-bindgen.

pub mod request;
pub mod views;

#[cfg(target_arch = "wasm32")]
mod bindings;

use crosslane_core::network::report;
use crosslane_core::reference::entries;
use crosslane_core::scenario::Scenario;
use crosslane_core::{permalink, Dialect, InputError};
use crosslane_kernel::{run_kernel as core_run_kernel, KernelTrace, LaunchConfig, UserMacro};
use serde::Deserialize;
use serde_json::Value;

pub use request::{ApiOpRequest, Text};

/// The largest integer a JavaScript number holds exactly, 2^53 − 1 (ECMA-262,
/// `Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `value` with every integer beyond ±[`MAX_SAFE_INTEGER`] turned into the nearest double — what
/// `JSON.parse` makes of the CLI's output for the same number — so serde-wasm-bindgen's
/// JSON-compatible serializer (which refuses such integers rather than round them) always
/// succeeds. Exact bits stay in the contract's `bits` hex text. Iterative: no recursion
/// proportional to the input's depth.
pub fn js_safe(mut value: Value) -> Value {
    let mut stack: Vec<&mut Value> = vec![&mut value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) => {
                let unsafe_int = n.as_u64().is_some_and(|u| u > MAX_SAFE_INTEGER)
                    || n.as_i64()
                        .is_some_and(|i| i.unsigned_abs() > MAX_SAFE_INTEGER);
                if unsafe_int {
                    if let Some(f) = n.as_f64().and_then(serde_json::Number::from_f64) {
                        *n = f;
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
    value
}

/// One operation call: the object `crosslane op DIALECT OP … --json` prints for the same fields
/// (docs/cli.md, "Command-line contract").
///
/// # Errors
/// The core's [`InputError`] (field and allowed range), exactly as the CLI reports it (exit 2).
pub fn run_op(request: &ApiOpRequest) -> Result<Value, InputError> {
    Ok(js_safe(request.to_core()?.run()?.contract_json()))
}

/// The reference entries (signature, rule, source, value types, parameters with ranges and
/// defaults, live example) of every operation, or of `dialect`'s — `crosslane ops [DIALECT]
/// --json`.
///
/// # Errors
/// [`InputError`] on field `dialect` for a name that is not a dialect.
pub fn list_ops(dialect: Option<&str>) -> Result<Value, InputError> {
    let only = dialect.map(Dialect::parse).transpose()?;
    let list: Vec<_> = entries()
        .into_iter()
        .filter(|e| only.is_none_or(|d| e.dialect == d))
        .collect();
    serde_json::to_value(list)
        .map(js_safe)
        .map_err(|e| InputError::new("dialect", format!("reference as JSON: {e}")))
}

/// The launch of a kernel as the library takes it: the fields of `crosslane run`'s kernel flags
/// (`--entry`, `--blocks`, `--threads-per-block`, `--lanes`) and of the scenario's kernel view;
/// a missing field takes the same default as there.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Launch {
    /// The function to run (default: the first `__global__` / `__simt_vf__` one).
    pub entry: Option<String>,
    /// Blocks launched, 1..=65536.
    pub blocks: Option<usize>,
    /// Threads per block, 1..=1024 (default: the kernel's `asc_vf_call` comment, else one warp).
    pub threads_per_block: Option<usize>,
    /// Lanes per warp (default: the dialect's).
    pub lanes: Option<usize>,
    /// User macros in order, each `NAME[=VALUE]` / `-DNAME[=VALUE]` (define) or `-UNAME`
    /// (undefine), as `--define` / `--undefine` ([`crosslane_kernel::UserMacro`]).
    #[serde(default)]
    pub defines: Vec<String>,
    /// The target the predefined macros describe: CUDA `sm_XY`, HIP `gfxNNN` (`--arch`).
    pub arch: Option<String>,
    /// `--keep-going`: go on after a run-time error instead of ending the run with outcome
    /// `error` (default false; [`LaunchConfig::keep_going`]).
    #[serde(default, alias = "keepGoing")]
    pub keep_going: bool,
    /// Scalar values and buffer fills by parameter name (`n` → `64`, `x` → `i*0.25+0.5`): the
    /// CLI's `--arg NAME=VALUE` and `--buffer NAME=FILL`, fills in the one fill grammar
    /// (`crosslane_core::fill`). Default: what host code says, else as the CLI.
    #[serde(default)]
    pub args: std::collections::BTreeMap<String, String>,
    /// Buffer lengths in cells by parameter name (`--buffer NAME:LEN=…`); default ("auto"):
    /// what host code allocates, else one cell per thread.
    #[serde(default)]
    pub buffer_len: std::collections::BTreeMap<String, usize>,
    /// WGSL `override` values by name or `@id` (`WG` → `64`): the CLI's `--override
    /// NAME=VALUE` (WGSL spec, Override Declarations). Default: each override's initializer.
    #[serde(default)]
    pub overrides: std::collections::BTreeMap<String, String>,
}

impl Launch {
    /// The interpreter's launch configuration: the CLI's defaults with these fields over them.
    pub fn config(&self) -> LaunchConfig {
        LaunchConfig {
            entry: self.entry.clone(),
            grid_dim: self.blocks.map(|b| [b, 1, 1]),
            block_dim: self.threads_per_block.map(|t| [t, 1, 1]),
            lanes: self.lanes,
            keep_going: self.keep_going,
            // WGSL has no scalar parameters, so override names cannot clash with args.
            args: self
                .args
                .clone()
                .into_iter()
                .chain(self.overrides.clone())
                .collect(),
            buffer_len: self.buffer_len.clone().into_iter().collect(),
            ..LaunchConfig::default()
        }
    }
}

/// Runs a kernel snippet to its end or to the interpreter's step limit (the same
/// [`crosslane_kernel::run_kernel`] as `crosslane run FILE`).
///
/// # Errors
/// [`InputError`] on field `source` with `L:C: message` when the kernel does not parse or
/// the launch is invalid, or on the input at fault (`x fill`) for a fill outside the fill
/// grammar. Faults while running are in the trace, as in the CLI: diagnostics, and an error ends
/// the run with outcome `error` (unless `keep_going`).
pub fn kernel_trace(source: &str, launch: &Launch) -> Result<KernelTrace, InputError> {
    let mut config = launch.config();
    for d in &launch.defines {
        config
            .preprocess
            .defines
            .extend(UserMacro::parse_list(d).map_err(|m| InputError::new("defines", m))?);
    }
    config.preprocess.arch.clone_from(&launch.arch);
    core_run_kernel(source, config).map_err(|e| match e.input {
        Some(field) => InputError::new(field, e.message),
        None => InputError::new("source", e.to_string()),
    })
}

/// [`kernel_trace`] as the JSON `crosslane run FILE --json` prints.
///
/// # Errors
/// As [`kernel_trace`].
pub fn run_kernel(source: &str, launch: &Launch) -> Result<Value, InputError> {
    let trace = kernel_trace(source, launch)?;
    serde_json::to_value(&trace)
        .map(js_safe)
        .map_err(|e| InputError::new("source", format!("trace as JSON: {e}")))
}

/// Options of [`sort_network`]: `crosslane sort`'s `--seed` (default 1) and `--values`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SortOptions {
    /// Seed of the random keys and of the random verification (default 1, as the CLI's).
    pub seed: Option<u64>,
    /// The keys as a comma list of integers instead of random ones.
    pub values: Option<String>,
    /// The number of keys, as the element's `n` attribute (`sortNetwork({ n: 16 })`); the
    /// first argument, when given, wins.
    pub n: Option<usize>,
    /// The same as `n`, under the CLI's flag name (`--len`), kept for code written with it.
    pub len: Option<usize>,
}

/// The Batcher odd-even merge network's report for `n` keys: `crosslane sort --len N --json`.
///
/// # Errors
/// The core's [`InputError`]: `len` outside `1..=2^20`, or `values` that do not parse.
pub fn sort_network(n: Option<usize>, options: &SortOptions) -> Result<Value, InputError> {
    let n = n.or(options.n).or(options.len);
    let r = report(n, options.seed.unwrap_or(1), options.values.as_deref())?;
    Ok(js_safe(r.to_json()))
}

/// A scenario (`{"version": 1, "view": …}`, as `crosslane run` reads it) as the page's permalink
/// text (`v1.…`).
///
/// # Errors
/// [`InputError`] on field `scenario` when the value is not a scenario of a version this build
/// reads.
pub fn encode_permalink(scenario: &Value) -> Result<String, InputError> {
    let text = scenario.to_string();
    let scenario = Scenario::from_json(text.as_bytes())
        .map_err(|e| InputError::new("scenario", e.to_string()))?;
    Ok(permalink::encode(&scenario))
}

/// The scenario behind a permalink — given alone (`v1.…`) or as a page URL holding it — as JSON.
///
/// # Errors
/// [`InputError`] on field `permalink`: no link, a truncated or corrupt one, or a version this
/// build does not read (the core's [`crosslane_core::permalink::PermalinkError`] text).
pub fn decode_permalink(text: &str) -> Result<Value, InputError> {
    let scenario = permalink::decode(permalink::link_in_text(text))
        .map_err(|e| InputError::new("permalink", e.to_string()))?;
    serde_json::to_value(&scenario)
        .map(js_safe)
        .map_err(|e| InputError::new("permalink", format!("scenario as JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_safe_rounds_only_integers_beyond_two_to_the_53() {
        let v = serde_json::json!({"a": [9007199254740991u64, 9007199254740993u64, -9007199254740993i64], "b": 1.5});
        let out = js_safe(v);
        assert_eq!(out["a"][0].as_u64(), Some(9_007_199_254_740_991));
        // 2^53 + 1 has no double; JSON.parse reads it as 2^53.
        assert_eq!(out["a"][1].as_f64(), Some(9_007_199_254_740_992.0));
        assert!(out["a"][1].as_u64().is_none());
        assert_eq!(out["a"][2].as_f64(), Some(-9_007_199_254_740_992.0));
        assert_eq!(out["b"].as_f64(), Some(1.5));
    }

    #[test]
    fn sort_network_reports_the_network_for_sixteen_keys() {
        // Batcher's odd-even merge sort on 16 keys: 10 stages, 63 comparators (Knuth, TAOCP 3,
        // 5.3.4, Table 1: S(16) = 63 for this network).
        let r = sort_network(Some(16), &SortOptions::default()).unwrap();
        assert_eq!(r["ok"], Value::Bool(true));
        let text = r.to_string();
        assert!(text.contains("63"), "{text}");
        assert!(sort_network(Some(0), &SortOptions::default()).is_err());
    }

    #[test]
    fn permalinks_round_trip_and_refuse_garbage() {
        let s = serde_json::json!({"version": 1, "view": {"op": {"dialect": "ascend", "op": "asc_shfl_xor", "params": {"lane_mask": "1", "width": "16"}}}});
        let link = encode_permalink(&s).unwrap();
        assert!(link.starts_with("v1."));
        let back = decode_permalink(&format!("https://example.org/crosslane/#{link}")).unwrap();
        assert_eq!(back["view"]["op"]["params"]["width"], "16");
        assert_eq!(back["version"], 1);
        let e = decode_permalink("v1.@@@").unwrap_err();
        assert_eq!(e.field, "permalink");
        let e = encode_permalink(&serde_json::json!({"view": 3})).unwrap_err();
        assert_eq!(e.field, "scenario");
    }

    #[test]
    fn list_ops_filters_by_dialect_and_names_a_bad_one() {
        let all = list_ops(None).unwrap();
        let cuda = list_ops(Some("cuda")).unwrap();
        let n_all = all.as_array().map_or(0, Vec::len);
        let n_cuda = cuda.as_array().map_or(0, Vec::len);
        assert!(n_cuda > 0 && n_cuda < n_all);
        assert!(cuda
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "__shfl_xor_sync"));
        assert_eq!(list_ops(Some("opencl")).unwrap_err().field, "dialect");
    }

    #[test]
    fn kernel_errors_name_the_source_and_the_line() {
        let e = kernel_trace("__global__ void k() { int x = ; }", &Launch::default()).unwrap_err();
        assert_eq!(e.field, "source");
        // line:column, then the message (the CLI prints the same after the file name).
        assert!(e.message.starts_with("1:31: "), "{}", e.message);
    }
}
