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
use crosslane_kernel::budget::{MAIN_THREAD_CEILING, PAGE_CEILING};
use crosslane_kernel::{Executor, KernelError, KernelTrace, LaunchConfig, Limits, UserMacro};
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

/// Where a library call runs, which sets its ceilings: on the caller's thread, where nothing
/// can interrupt a call and each must return or throw within about a second, or in the
/// library's worker (`{ worker: true }`), which the caller can cancel and which has the page's
/// ceilings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// The caller's thread: [`MAIN_THREAD_CEILING`], [`MAIN_THREAD_SOURCE_BYTES`],
    /// [`MAIN_THREAD_SORT_KEYS`].
    Caller,
    /// The library's worker: [`PAGE_CEILING`], [`WORKER_SOURCE_BYTES`], every network length
    /// the core takes.
    Worker,
}

/// Most bytes of kernel source a call on the caller's thread takes: preparing 64 KiB of C++
/// or WGSL takes well under a second in the page's wasm (tests/e2e/hostile-api.test.mjs times it).
pub const MAIN_THREAD_SOURCE_BYTES: usize = 64 << 10;

/// Milliseconds a kernel may run on the caller's thread before the call stops it and throws,
/// pointing to the worker form: work units are not equally long (see
/// [`MAIN_THREAD_CEILING`]), and the trace still has to become JavaScript objects after the run.
pub const MAIN_THREAD_RUN_MS: f64 = 500.0;

/// Statements run between two looks at the clock: a few milliseconds at most.
const STEPS_PER_CLOCK_READ: usize = 64;

/// A clock in milliseconds (`Date.now` in the page).
pub type Clock = fn() -> f64;

/// Most bytes of kernel source the worker form takes: the CLI's standard-input cap, 16 MiB.
pub const WORKER_SOURCE_BYTES: usize = 16 << 20;

/// Most keys of a `sortNetwork` call on the caller's thread: 2^16 keys walk the network's 136
/// stages (2.2·10^6 comparators, Batcher's count) in a few tens of milliseconds; up to the
/// core's 2^20 the worker form walks them.
pub const MAIN_THREAD_SORT_KEYS: usize = 1 << 16;

impl Surface {
    /// The highest budgets a call here may ask for, and the defaults' caps.
    pub fn ceiling(self) -> Limits {
        match self {
            Surface::Caller => MAIN_THREAD_CEILING,
            Surface::Worker => PAGE_CEILING,
        }
    }

    /// Most bytes of kernel source.
    pub fn source_bytes(self) -> usize {
        match self {
            Surface::Caller => MAIN_THREAD_SOURCE_BYTES,
            Surface::Worker => WORKER_SOURCE_BYTES,
        }
    }

    /// What to say after a limit of the caller's thread: where more is allowed.
    fn elsewhere(self, worker_allows: u64) -> String {
        match self {
            Surface::Caller => format!(
                " on the caller's thread; the worker form ({{ worker: true }}) allows up to {worker_allows}"
            ),
            Surface::Worker => " in the library's worker (the page's ceiling)".to_owned(),
        }
    }

    /// The budgets of a run here: the kernel defaults capped at the ceiling, then `max_work` /
    /// `max_memory` as asked, each in `1..=` the ceiling.
    ///
    /// # Errors
    /// [`InputError`] on `max_work` or `max_memory` naming the range and the worker form's.
    pub fn limits(
        self,
        max_work: Option<u64>,
        max_memory: Option<u64>,
    ) -> Result<Limits, InputError> {
        let ceiling = self.ceiling();
        let d = Limits::default();
        let mut limits = Limits {
            max_work: d.max_work.min(ceiling.max_work),
            max_memory: d.max_memory.min(ceiling.max_memory),
            max_depth: d.max_depth.min(ceiling.max_depth),
            max_tokens: d.max_tokens.min(ceiling.max_tokens),
            max_code: d.max_code.min(ceiling.max_code),
            max_diagnostics: d.max_diagnostics.min(ceiling.max_diagnostics),
            max_call_depth: d.max_call_depth.min(ceiling.max_call_depth),
        };
        let asked = [
            (
                "max_work",
                max_work,
                ceiling.max_work,
                PAGE_CEILING.max_work,
            ),
            (
                "max_memory",
                max_memory,
                ceiling.max_memory,
                PAGE_CEILING.max_memory,
            ),
        ];
        for (field, value, most, worker) in asked {
            let Some(value) = value else { continue };
            if value == 0 || value > most {
                return Err(InputError::new(
                    field,
                    format!(
                        "must be in 1..={most}{}, got {value}",
                        self.elsewhere(worker)
                    ),
                ));
            }
            match field {
                "max_work" => limits.max_work = value,
                _ => limits.max_memory = value,
            }
        }
        Ok(limits)
    }
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
    /// Threads per block, 1 up to the engine's limit for the dialect
    /// (`crosslane_kernel::exec::max_threads_per_block`: 1024; 2048 for Ascend C) (default: the
    /// kernel's `asc_vf_call` comment, else one warp).
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
    /// Most units of work (`--max-work`): default the kernel default capped at the surface's
    /// ceiling ([`Surface::limits`]).
    #[serde(default, alias = "maxWork")]
    pub max_work: Option<u64>,
    /// Most bytes of memory (`--max-memory`), as `max_work`.
    #[serde(default, alias = "maxMemory")]
    pub max_memory: Option<u64>,
    /// Floating-point contraction (`--fmad`): `false` rounds every product and sum on its
    /// own; absent, the dialect's default (on for CUDA and HIP, [`LaunchConfig::fmad`]).
    #[serde(default)]
    pub fmad: Option<bool>,
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
            fmad: self.fmad,
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
/// grammar; on `max_work` / `max_memory` past the surface's ceiling; on `source` when the run on
/// the caller's thread passes [`MAIN_THREAD_RUN_MS`] by `clock` (given: the clock is the
/// page's, absent in native tests of other rules). Faults while running are in the trace, as in the CLI: diagnostics, and an error ends
/// the run with outcome `error` (unless `keep_going`).
pub fn kernel_trace(
    source: &str,
    launch: &Launch,
    surface: Surface,
    clock: Option<Clock>,
) -> Result<KernelTrace, InputError> {
    let started = clock.map(|now| now());
    if source.len() > surface.source_bytes() {
        return Err(InputError::new(
            "source",
            format!(
                "at most {} bytes{}, got {}",
                surface.source_bytes(),
                surface.elsewhere(WORKER_SOURCE_BYTES as u64),
                source.len()
            ),
        ));
    }
    let mut config = launch.config();
    config.limits = surface.limits(launch.max_work, launch.max_memory)?;
    for d in &launch.defines {
        config
            .preprocess
            .defines
            .extend(UserMacro::parse_list(d).map_err(|m| InputError::new("defines", m))?);
    }
    config.preprocess.arch.clone_from(&launch.arch);
    let field = |e: KernelError| match e.input {
        Some(field) => InputError::new(field, e.message),
        None => InputError::new("source", e.to_string()),
    };
    let mut ex = Executor::new(source, config).map_err(field)?;
    let deadline = match (surface, clock, started) {
        (Surface::Caller, Some(now), Some(t0)) => Some((now, t0 + MAIN_THREAD_RUN_MS)),
        _ => None,
    };
    let mut steps = 0usize;
    loop {
        let ran = ex.run_for(STEPS_PER_CLOCK_READ);
        steps += ran;
        if ran < STEPS_PER_CLOCK_READ || ex.is_finished() {
            break;
        }
        if let Some((now, end)) = deadline {
            if now() > end {
                return Err(InputError::new(
                    "source",
                    format!(
                        "the run passed {MAIN_THREAD_RUN_MS} ms on the caller's thread after \
                         {steps} statements; run it with the worker form ({{ worker: true }}), \
                         or lower max_work"
                    ),
                ));
            }
        }
    }
    Ok(ex.into_trace())
}

/// [`kernel_trace`] as the JSON `crosslane run FILE --json` prints.
///
/// # Errors
/// As [`kernel_trace`].
pub fn run_kernel(
    source: &str,
    launch: &Launch,
    surface: Surface,
    clock: Option<Clock>,
) -> Result<Value, InputError> {
    let trace = kernel_trace(source, launch, surface, clock)?;
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
/// The core's [`InputError`]: `len` outside `1..=2^20`, or `values` that do not parse; on the
/// caller's thread, `len` above [`MAIN_THREAD_SORT_KEYS`] (pointing to the worker form).
pub fn sort_network(
    n: Option<usize>,
    options: &SortOptions,
    surface: Surface,
) -> Result<Value, InputError> {
    let n = n.or(options.n).or(options.len);
    let keys = n.or_else(|| options.values.as_ref().map(|v| v.split(',').count()));
    if surface == Surface::Caller && keys.is_some_and(|k| k > MAIN_THREAD_SORT_KEYS) {
        return Err(InputError::new(
            "len",
            format!(
                "at most {MAIN_THREAD_SORT_KEYS} keys on the caller's thread; the worker form \
                 (sortNetwork(n, {{ worker: true }})) walks up to 2^20, got {}",
                keys.unwrap_or(0)
            ),
        ));
    }
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
        let r = sort_network(Some(16), &SortOptions::default(), Surface::Caller).unwrap();
        assert_eq!(r["ok"], Value::Bool(true));
        let text = r.to_string();
        assert!(text.contains("63"), "{text}");
        assert!(sort_network(Some(0), &SortOptions::default(), Surface::Caller).is_err());
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
        let e = kernel_trace(
            "__global__ void k() { int x = ; }",
            &Launch::default(),
            Surface::Caller,
            None,
        )
        .unwrap_err();
        assert_eq!(e.field, "source");
        // line:column, then the message (the CLI prints the same after the file name).
        assert!(e.message.starts_with("1:31: "), "{}", e.message);
    }

    #[test]
    fn the_callers_thread_has_its_own_ceilings_and_says_where_more_is_allowed() {
        // Defaults are the kernel defaults capped at the surface's ceiling.
        let caller = Surface::Caller.limits(None, None).unwrap();
        assert_eq!(caller.max_work, MAIN_THREAD_CEILING.max_work);
        let worker = Surface::Worker.limits(None, None).unwrap();
        assert_eq!(worker.max_work, Limits::default().max_work);
        // A budget past the caller's ceiling names the field, the range and the worker's.
        let e = Surface::Caller
            .limits(Some(MAIN_THREAD_CEILING.max_work + 1), None)
            .unwrap_err();
        assert_eq!(e.field, "max_work");
        assert!(e.message.contains("1..=1000000"), "{}", e.message);
        assert!(e.message.contains("worker: true"), "{}", e.message);
        assert_eq!(
            Surface::Worker.limits(None, Some(0)).unwrap_err().field,
            "max_memory"
        );
        assert!(Surface::Worker.limits(Some(u64::MAX), None).is_err());
        // Lowered, a budget stops an endless loop at once: outcome `work`.
        let launch = Launch {
            max_work: Some(1000),
            ..Launch::default()
        };
        let t = run_kernel(
            "__global__ void k(int* a) { while (1) { a[0] = 1; } }\n",
            &launch,
            Surface::Caller,
            None,
        )
        .unwrap();
        assert!(
            t["outcome"].to_string().contains("work"),
            "{}",
            t["outcome"]
        );
        // Source past the caller's cap is refused before anything parses it.
        let big = format!(
            "__global__ void k(int* a) {{ {} }}\n",
            "a[0] = 1; ".repeat(7000)
        );
        let e = kernel_trace(&big, &Launch::default(), Surface::Caller, None).unwrap_err();
        assert_eq!(e.field, "source");
        assert!(e.message.contains("at most 65536 bytes"), "{}", e.message);
    }

    /// A clock that moves a second every time it is read.
    fn fast_clock() -> f64 {
        use std::sync::atomic::{AtomicU64, Ordering};
        static READS: AtomicU64 = AtomicU64::new(0);
        READS.fetch_add(1, Ordering::Relaxed) as f64 * 1000.0
    }

    #[test]
    fn a_run_on_the_callers_thread_stops_by_the_clock_and_names_the_worker_form() {
        let endless = "__global__ void k(int* a) { int x = 0; while (1) { x++; } }\n";
        let e = kernel_trace(
            endless,
            &Launch::default(),
            Surface::Caller,
            Some(fast_clock),
        )
        .unwrap_err();
        assert_eq!(e.field, "source");
        assert!(e.message.contains("worker: true"), "{}", e.message);
        // In the worker the clock does not stop it; the work budget does.
        let launch = Launch {
            max_work: Some(5000),
            ..Launch::default()
        };
        let t = kernel_trace(endless, &launch, Surface::Worker, Some(fast_clock)).unwrap();
        assert!(matches!(
            t.outcome,
            Some(crosslane_kernel::Outcome::Limit(_))
        ));
        // A short kernel ends before its first look at the clock.
        let short = "__global__ void k(int* a) { a[threadIdx.x] = 2; }\n";
        let t = kernel_trace(short, &Launch::default(), Surface::Caller, Some(fast_clock)).unwrap();
        assert!(matches!(
            t.outcome,
            Some(crosslane_kernel::Outcome::Finished)
        ));
    }

    #[test]
    fn run_kernel_takes_fmad() {
        // a = b = 1 + 2^-12, c = -1: fused 2^-11 + 2^-24, unfused 2^-11 (exact rationals in
        // crosslane-kernel's tests/suite/models/contract.py).
        let src =
            "__global__ void k(float* out, float a, float b, float c) { out[0] = a * b + c; }\n";
        let value = |fmad: &str| {
            let json = format!(
                r#"{{"threads_per_block": 1, "fmad": {fmad}, "args": {{"a": "1.000244140625", "b": "1.000244140625", "c": "-1", "out": "zero"}}, "buffer_len": {{"out": 1}}}}"#
            );
            let launch: Launch = serde_json::from_str(&json).expect("a launch");
            let t = kernel_trace(src, &launch, Surface::Worker, None).expect("runs");
            let out = t.buffer("out").expect("out");
            (
                out[0].as_ref().and_then(crosslane_kernel::KVal::as_f64),
                t.launch.fp_contract.clone(),
            )
        };
        let (fused, mode) = value("null");
        assert_eq!(fused, Some(8193.0 / 16_777_216.0));
        assert!(mode.starts_with("floating-point contraction on"), "{mode}");
        let (unfused, mode) = value("false");
        assert_eq!(unfused, Some(1.0 / 2048.0));
        assert!(mode.starts_with("floating-point contraction off"), "{mode}");
    }

    #[test]
    fn sort_on_the_callers_thread_stops_at_two_to_the_sixteen() {
        let e = sort_network(Some(1 << 20), &SortOptions::default(), Surface::Caller).unwrap_err();
        assert_eq!(e.field, "len");
        assert!(e.message.contains("worker: true"), "{}", e.message);
        assert!(sort_network(Some(1 << 16), &SortOptions::default(), Surface::Caller).is_ok());
    }
}
