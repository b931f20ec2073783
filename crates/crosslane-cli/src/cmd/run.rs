//! `crosslane run FILE|-|PERMALINK [--json]`: replays a scenario and prints its trace as JSON.
//!
//! The input is a scenario JSON file (`{"version": 1, "view": …}`), `-` for standard input, or a
//! permalink (`v1.…`, given directly, in a file, or as a page URL whose `#` fragment or last
//! `=` parameter holds it). For an `op` view the trace is the step's `--json` contract object.
//!
//! A kernel snippet (a `.cu`/`.cpp`/`.c`/`.txt`/… source file, or any text that is neither a
//! scenario nor a permalink, or a `kernel` scenario) runs through
//! [`crosslane_kernel::run_kernel`] — the interpreter the page steps through — and prints
//! the whole [`crosslane_kernel::KernelTrace`] as JSON with `--json`, or its
//! [`crosslane_kernel::render_text`] rendering otherwise. Sort views are answered by their
//! own module as it lands (one match arm in [`run`]).
//!
//! Bounded: the input is read up to [`MAX_INPUT_BYTES`]; a kernel runs within the budgets of
//! [`crosslane_kernel::Limits`] (`--max-work`, `--max-memory`, …), and a budget that runs
//! out is printed with what hit it and the flag that raises it. Text echoed from the input (the
//! kernel's statements, names, messages) has its control characters escaped, so a kernel cannot
//! send escape sequences to the terminal.

use std::io::Read;

use crosslane_core::scenario::{Scenario, View};
use crosslane_core::{permalink, Dialect};
use crosslane_kernel::edits::{apply_edits, Edits};
use crosslane_kernel::host_launch::shared_cells;
use crosslane_kernel::{
    parse_for_launch, render_text, Executor, KernelError, LaunchConfig, UserMacro,
};
use crosslane_kernel::{run_kernel_traced, KernelTrace, LimitHit, Outcome, TraceMode};

use crate::error::CliError;
use crate::{print_json, print_out};

pub use super::run_args::{escape_controls, RunArgs};
use super::run_args::{limits, scenario_limits};

/// Most bytes read from a file or standard input (a kernel or scenario is a few KiB; a
/// permalink a few hundred bytes).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Runs `crosslane run`.
///
/// # Errors
/// [`CliError::Io`] (exit 1) when the file or stdin cannot be read; [`CliError::Usage`] (exit 2)
/// when the text is neither a scenario nor a permalink, or its view cannot run here;
/// [`CliError::Input`] (exit 2) when an op view's fields do not parse or cannot be encoded.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let text = read_input(&args.input)?;
    let wgsl = |t: &str| crosslane_kernel::wgsl::is_wgsl(t);
    if args.input.ends_with(".wgsl") || (is_kernel_source(&args.input, &text) && wgsl(&text)) {
        return super::run_wgsl::run(args, &text, (0, 0), None);
    }
    if is_kernel_source(&args.input, &text) {
        return run_kernel_file(args, &text, LaunchConfig::default(), &Edits::new(), false);
    }
    let scenario = parse_scenario(&text)?;
    let trace = match &scenario.view {
        View::Op(request) => request.run()?.contract_json(),
        View::Kernel {
            source,
            blocks,
            threads_per_block,
            lanes,
            step: _,
        } => {
            if wgsl(source) {
                return super::run_wgsl::run(
                    args,
                    source,
                    (*blocks, *lanes),
                    Some(&scenario.kernel_inputs),
                );
            }
            let mut config = kernel_config(*blocks, *threads_per_block, *lanes);
            let inputs = &scenario.kernel_inputs;
            config.args.clone_from(&inputs.args);
            config.buffer_len.clone_from(&inputs.buffer_len);
            config.entry.clone_from(&inputs.entry);
            config.use_fast_math = inputs.use_fast_math;
            config.fmad = inputs.fmad;
            config.limits = scenario_limits(&inputs.budgets, config.limits)?;
            if let Some(d) = &inputs.dialect {
                config.dialect = Some(Dialect::parse(d)?);
                config.dialect_from = Some("the scenario".to_string());
            }
            config.preprocess.defines = UserMacro::parse_list(&inputs.defines)
                .map_err(|e| CliError::Usage(format!("run: the scenario's defines: {e}")))?;
            return run_kernel_file(args, source, config, &inputs.edits, true);
        }
        View::Sort { .. } => {
            return Err(CliError::Usage(
                "run: sort scenarios are not replayed by `run` yet; use `crosslane sort`".into(),
            ))
        }
        View::Compare { .. } => {
            return Err(CliError::Usage(
                "run: portability scenarios are not replayed by `run` yet; use `crosslane op … --compare`"
                    .into(),
            ))
        }
        View::Reference { .. } => {
            return Err(CliError::Usage(
                "run: a reference view link holds no computation to replay; use `crosslane ops` or `crosslane op`"
                    .into(),
            ))
        }
    };
    print_out(&format!("{trace}\n"))
}

/// The text named by the `run` argument: stdin, a file, or the argument itself (a permalink).
fn read_input(input: &str) -> Result<String, CliError> {
    Ok(if input == "-" {
        read_capped(std::io::stdin().lock(), "standard input")?
    } else if looks_like_link(input) && !std::path::Path::new(input).exists() {
        input.to_string()
    } else {
        let file = std::fs::File::open(input)
            .map_err(|e| CliError::Io(format!("run: {}: {e}", escape_controls(input))))?;
        read_capped(file, &escape_controls(input))?
    })
}

/// Reads at most [`MAX_INPUT_BYTES`] of UTF-8 text from `r`.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) past the cap or for text that is not UTF-8; [`CliError::Io`]
/// (exit 1) when reading fails.
fn read_capped(r: impl Read, what: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Io(format!("run: reading {what}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(CliError::Usage(format!(
            "run: {what} is larger than {MAX_INPUT_BYTES} bytes, the most `crosslane run` reads"
        )));
    }
    String::from_utf8(bytes)
        .map_err(|e| CliError::Usage(format!("run: {what} is not UTF-8 text: {e}")))
}

/// Scenario JSON when the text starts with `{`, otherwise a permalink.
fn parse_scenario(text: &str) -> Result<Scenario, CliError> {
    let text = text.trim();
    if text.starts_with('{') {
        Scenario::from_json(text.as_bytes()).map_err(|e| CliError::Usage(format!("run: {e}")))
    } else {
        permalink::decode(link_part(text)).map_err(|e| CliError::Usage(format!("run: {e}")))
    }
}

/// The permalink inside a page URL ([`permalink::link_in_text`]).
fn link_part(text: &str) -> &str {
    permalink::link_in_text(text)
}

/// Whether an argument is meant as a permalink rather than a path.
fn looks_like_link(arg: &str) -> bool {
    permalink::format_prefix(link_part(arg.trim())).is_some()
}

/// File name endings of kernel sources (the seed kernels are `.cpp`).
const KERNEL_EXTENSIONS: &[&str] = &[
    "cu", "cuh", "cpp", "cc", "cxx", "c", "h", "hpp", "hip", "asc", "txt",
];

/// Whether the input is a kernel snippet rather than a scenario: a source file by its extension,
/// or any text that is neither scenario JSON nor a permalink (a snippet piped through `-`).
fn is_kernel_source(input: &str, text: &str) -> bool {
    let by_name = std::path::Path::new(input)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| KERNEL_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    let t = text.trim();
    by_name || (!t.starts_with('{') && permalink::format_prefix(link_part(t)).is_none())
}

/// The launch of a kernel scenario: 0 in a field means "not given" (the kernel's own comment
/// or the dialect's default decides), as on the page.
fn kernel_config(blocks: u32, threads_per_block: u32, lanes: u32) -> LaunchConfig {
    let some = |n: u32| (n > 0).then_some(n as usize);
    LaunchConfig {
        grid_dim: some(blocks).map(|b| [b, 1, 1]),
        block_dim: some(threads_per_block).map(|t| [t, 1, 1]),
        lanes: some(lanes),
        ..LaunchConfig::default()
    }
}

/// Runs a kernel source with `config` (command-line flags override it) and prints the trace.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) when the launch flags are invalid; [`CliError::Failed`] (exit 1)
/// when the kernel does not parse or names what does not exist (every error with its
/// line:column; with `--json` an object whose `outcome` is `error`, see [`front_end_error`]), and
/// (after the trace is printed) when the run ended with a budget or an error (an error diagnostic, a branch on an undefined
/// condition) unless `--keep-going`. Undefined behaviour that leaves values undefined (an
/// out-of-bounds access, an unset read, signed overflow) is part of the trace, not an error.
/// `from_link`: `config`'s entry and geometry came from a scenario, so a fault in them is the
/// link's (exit 2, as the page shows it as a field error), like a flag's.
fn run_kernel_file(
    args: &RunArgs,
    source: &str,
    mut config: LaunchConfig,
    edits: &Edits,
    from_link: bool,
) -> Result<(), CliError> {
    // What the link chose, before the flags override it.
    let linked = from_link.then(|| {
        (
            config.entry.is_some(),
            config.grid_dim.is_some(),
            config.block_dim.is_some(),
            config.lanes.is_some(),
        )
    });
    if args.entry.is_some() {
        config.entry.clone_from(&args.entry);
    }
    if let Some(b) = args.blocks {
        config.grid_dim = Some(b);
    }
    if let Some(t) = args.threads_per_block {
        config.block_dim = Some(t);
    }
    if let Some(l) = args.lanes {
        config.lanes = Some(l);
    }
    if let Some(d) = &args.dialect {
        config.dialect = Some(Dialect::parse(d)?);
        config.dialect_from = Some("--dialect".to_string());
    } else if config.dialect.is_none() {
        // The extension decides where the source's own marks say otherwise (a `.hip` file
        // without the HIP header); where they agree the run is the one the page and the
        // library give the same text.
        if let Some((d, why)) = dialect_by_extension(&args.input) {
            let inferred = crosslane_kernel::dialect_guess::infer_dialect(source).0;
            // MetaX compiles CUDA-style `.cu` files for its GPUs (cu-bridge's `cucc`): a `.cu`
            // file carrying MetaX's own marks (`__builtin_mxc_*`, the MACA runtime, the 16-lane
            // shuffles) is MACA code and runs as MACA, on the 64-thread warp.
            let metax_cu = d == Dialect::Cuda && inferred == Dialect::Maca;
            if inferred != d && !metax_cu {
                config.dialect = Some(d);
                config.dialect_from = Some(why);
            }
        }
    }
    apply_launch_flags(args, &mut config)?;
    if args.use_fast_math {
        config.use_fast_math = true;
    }
    if let Some(fmad) = args.contraction()? {
        config.fmad = Some(fmad);
    }
    if args.keep_going {
        config.keep_going = true;
    }
    if args.single_launch {
        config.single_launch = true;
    }
    config.launch = args.launch;
    null_pointer_args(args, source, &mut config);
    if let Some(bytes) = args.shared_bytes {
        // Parsed as the run will be (dialect, --arch, defines), with a template-id entry
        // instantiated: `--entry 'k<float>'` sizes the cells by the instance's element.
        let parsed = parse_for_launch(source, &config).map_err(|e| front_end_error(args, &e))?;
        let entry = parsed.entry.as_deref().or(config.entry.as_deref());
        config.shared_len = Some(shared_cells(&parsed.program, entry, bytes));
    }
    // Without the launch flags (`--entry`, `--blocks`, `--threads-per-block`, `--lanes`) and a
    // link's own choice of them: a source whose launch then prepares had its fault in those.
    let (l_entry, l_grid, l_block, l_lanes) = linked.unwrap_or_default();
    let chosen = [
        args.entry.is_some() || l_entry,
        args.blocks.is_some() || l_grid,
        args.threads_per_block.is_some() || l_block,
        args.lanes.is_some() || l_lanes,
    ];
    let mut unflagged = config.clone();
    if chosen[0] {
        unflagged.entry = None;
    }
    if chosen[1] {
        unflagged.grid_dim = None;
    }
    if chosen[2] {
        unflagged.block_dim = None;
    }
    if chosen[3] {
        unflagged.lanes = None;
    }
    // A budget is never the flags' fault (exit 1 like any budget, whether the cells came from
    // `--buffer` or from the launch geometry's default length).
    // `--entry` naming a function whose own code fails to prepare (an unknown type only that
    // kernel uses) is the kernel's error, not the flag's: the flag names something, and the
    // failure stays with the entry alone kept (exit 1, the error at its line and column).
    let flagged_entry = config.entry.clone().filter(|_| chosen[0]);
    let entry_fails_itself = || {
        let Some(entry) = flagged_entry.as_deref() else {
            return false;
        };
        let mut only = unflagged.clone();
        only.entry = Some(entry.to_string());
        // A template-id (`'k<float>'`) names the instance the parse made.
        let names_one = parse_for_launch(source, &only).is_ok_and(|p| {
            let key = match p.entry.as_deref() {
                Some(instance) if entry.contains('<') => instance,
                _ => entry,
            };
            let owned = key.to_string();
            crosslane_kernel::host_launch::entry_function(&p.program, Some(&owned), true).is_ok()
        });
        names_one && Executor::new(source, only).is_err()
    };
    let flag_fault = |e: &KernelError| {
        chosen.contains(&true)
            && e.line > 0
            && !LimitHit::is_message(&e.message)
            && Executor::new(source, unflagged.clone()).is_ok()
            && !entry_fails_itself()
    };
    let launch_error = |e: KernelError| match &e.input {
        // A fill's fault is the flag's, not a line of the source.
        Some(field) => CliError::Usage(escape_controls(&format!(
            "run: --buffer {}: {}",
            field.trim_end_matches(" fill"),
            e.message
        ))),
        None if e.line > 0 && !flag_fault(&e) => front_end_error(args, &e),
        None => CliError::Usage(escape_controls(&format!("run: {}:{e}", args.input))),
    };
    if !edits.is_empty() {
        // A scenario's memory edits apply over the fills as the page applies them: the launch
        // is prepared once to learn its buffers, then made with the edited cells as fills.
        let first = Executor::new(source, config.clone()).map_err(launch_error)?;
        let applied = apply_edits(&first.trace().initial_memory, &config, edits);
        drop(first);
        if let Some(bad) = applied.invalid {
            return Err(CliError::Usage(escape_controls(&format!(
                "run: the scenario's memory edit {bad}"
            ))));
        }
        if let Some(note) = applied.dropped {
            eprintln!("crosslane: run: {}", escape_controls(&note));
        }
        config = applied.config;
    }
    let mode = if args.trace == "none" {
        TraceMode::None
    } else {
        TraceMode::Full
    };
    let trace = run_kernel_traced(source, config, mode).map_err(launch_error)?;
    if args.json {
        // serde_json escapes control characters itself; the text streams to stdout (a trace of
        // millions of cells is never held whole beside the run's own memory).
        match mode {
            TraceMode::Full => print_json(&trace)?,
            TraceMode::None => print_json(&quiet_json(&trace))?,
        }
    } else {
        print_out(&escape_controls(&render_text(&trace, 10_000)))?;
    }
    // An `--arg` value the parameter's type cannot hold stops the launch: a usage error,
    // naming the argument (the engine's message starts with the parameter's name).
    if let Some(Outcome::Error(e)) = &trace.outcome {
        let bad = args.arg.iter().find(|a| {
            a.split_once('=')
                .is_some_and(|(n, _)| e.message.starts_with(&format!("{}: ", n.trim())))
        });
        if let Some(a) = bad {
            return Err(CliError::Usage(format!(
                "run: --arg `{}`: {}",
                escape_controls(a),
                escape_controls(&e.message)
            )));
        }
    }
    // A run a budget or an error stopped did not finish: its output is partial, so the status
    // says so.
    match &trace.outcome {
        Some(Outcome::Limit(hit)) => Err(CliError::Failed(format!(
            "run: stopped: {}",
            escape_controls(&hit.message())
        ))),
        Some(Outcome::Error(e)) => Err(CliError::Failed(format!(
            "run: {}:{}",
            args.input,
            escape_controls(&e.to_string())
        ))),
        _ => Ok(()),
    }
}

/// `--arg P=0` of a pointer parameter `P` passes the null pointer, as `0` written for a
/// pointer argument in C++ is the null pointer constant (C++17 [conv.ptr]/1), not a buffer of
/// zeros (`--buffer P=0` is that). `--arg P=null` / `nullptr` / `NULL` is the null pointer
/// whatever the parameter (the engine reads those words, [`crosslane_kernel::host_launch::is_null_arg`]).
/// The launch is prepared once to learn which parameters are pointers, only when an `--arg`
/// gives 0 to a name no `--buffer` fills; a launch that does not prepare is left as it is (the
/// run reports its fault).
fn null_pointer_args(args: &RunArgs, source: &str, config: &mut LaunchConfig) {
    let buffers: Vec<&str> = args
        .buffer
        .iter()
        .filter_map(|b| {
            b.split_once('=')
                .map(|(h, _)| h.split(':').next().unwrap_or(h).trim())
        })
        .collect();
    let zeros: Vec<&str> = args
        .arg
        .iter()
        .filter_map(|a| a.split_once('='))
        .filter(|(n, v)| v.trim() == "0" && !buffers.contains(&n.trim()))
        .map(|(n, _)| n.trim())
        .collect();
    if zeros.is_empty() {
        return;
    }
    let Ok(first) = Executor::new(source, config.clone()) else {
        return;
    };
    let pointers: Vec<String> = first
        .parameters()
        .filter(|p| matches!(p.ty, crosslane_kernel::Ty::Ptr(_)) && !p.reference)
        .map(|p| p.name.clone())
        .filter(|n| zeros.contains(&n.as_str()))
        .collect();
    drop(first);
    for n in pointers {
        config
            .args
            .insert(n, crosslane_kernel::host_launch::NULL_ARG.to_string());
    }
}

/// A fault in the source found before the run (a preprocessor `#error`, a parse error, an
/// unknown name, an unsupported construct): the run's outcome is `error`, as for one met while
/// running. With `--json` the JSON object says so — `outcome` (`kind: "error"` with the first
/// error's line, column and message, as a run-time error's) and `diagnostics` (every error, each
/// with its own line:column, all at once) — and the status is exit 1 ([`CliError::Failed`],
/// whose message lists every error on stderr). Exit 2 stays for the command line's own faults.
fn front_end_error(args: &RunArgs, e: &KernelError) -> CliError {
    if args.json {
        let diagnostics: Vec<serde_json::Value> = e
            .each()
            .into_iter()
            .map(|d| {
                serde_json::json!({
                    "level": "error",
                    "line": d.line,
                    "col": d.col,
                    "message": d.message,
                    "count": 1,
                })
            })
            .collect();
        let first = e.each().into_iter().next().unwrap_or_else(|| e.clone());
        let json = serde_json::json!({
            "outcome": Outcome::Error(first),
            "diagnostics": diagnostics,
            "buffers": [],
        });
        if let Err(io) = print_json(&json) {
            return io;
        }
    }
    CliError::Failed(escape_controls(&format!("run: {}:{e}", args.input)))
}

/// The checks `crosslane run` makes on a kernel's launch flags before any work: each `--arg
/// NAME=VALUE` and `--buffer NAME[:LEN]=FILL` (a positive LEN; a list fill of exactly LEN
/// values), written into `config` (the FILL grammar itself is checked at launch, by
/// `crosslane_core::fill`), and the budget flags.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) naming the flag that does not parse.
pub fn apply_launch_flags(args: &RunArgs, config: &mut LaunchConfig) -> Result<(), CliError> {
    for a in &args.arg {
        let (name, value) = a.split_once('=').ok_or_else(|| {
            CliError::Usage(format!(
                "run: --arg `{}`: expected NAME=VALUE",
                escape_controls(a)
            ))
        })?;
        config
            .args
            .insert(name.trim().to_string(), value.trim().to_string());
    }
    for b in &args.buffer {
        let (head, fill) = b.split_once('=').ok_or_else(|| {
            CliError::Usage(format!(
                "run: --buffer `{}`: expected NAME[:LEN]=FILL",
                escape_controls(b)
            ))
        })?;
        let (name, len) = match head.split_once(':') {
            Some((n, l)) => {
                let len: usize = l.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                    CliError::Usage(format!(
                        "run: --buffer `{}`: LEN must be a positive integer",
                        escape_controls(b)
                    ))
                })?;
                (n.trim(), Some(len))
            }
            None => (head.trim(), None),
        };
        if let Some(len) = len {
            let items = fill.split(',').count();
            // A typed fill's values count bytes, not cells: the kernel checks that they fit.
            let typed = crosslane_core::fill::split_typed(fill).is_some();
            if items > 1 && items != len && !typed {
                return Err(CliError::Usage(format!(
                    "run: --buffer `{}`: a list fill needs exactly {len} values, got {items}",
                    escape_controls(b)
                )));
            }
            config.buffer_len.insert(name.to_string(), len);
        }
        config
            .args
            .insert(name.to_string(), fill.trim().to_string());
    }
    config.limits = limits(args, config.limits)?;
    for d in &args.define {
        config.preprocess.defines.push(UserMacro::Define(d.clone()));
    }
    for u in &args.undefine {
        config
            .preprocess
            .defines
            .push(UserMacro::Undefine(u.clone()));
    }
    if args.arch.is_some() {
        config.preprocess.arch.clone_from(&args.arch);
    }
    if config.preprocess.file.is_none() && args.input != "-" && !args.input.starts_with("v1.") {
        config.preprocess.file = Some(args.input.clone());
    }
    Ok(())
}

/// `--trace none --json`: the launch, the outcome, the merged diagnostics (every one of the parse and the run, each distinct one once with its count), the device's
/// `printf` lines, the statistics and each final buffer as the full trace writes it (its cells,
/// and `"values"`: numbers in the element type, `null` where never written or undefined), and
/// the buffers of structs put back together (`"structs"`, as the full trace's `memory.structs`);
/// when the source has a preprocessor conditional, which branch each took and the lines skipped
/// (`"preprocess"`, as the full trace's).
fn quiet_json(t: &KernelTrace) -> Quiet<'_> {
    Quiet {
        buffers: &t.memory.buffers,
        diagnostics: &t.merged_diagnostics,
        launch: &t.launch,
        outcome: &t.outcome,
        preprocess: (!t.preprocess.conditionals.is_empty()).then_some(&t.preprocess),
        printf: &t.printf,
        stats: &t.stats,
        structs: t.memory.structs(),
    }
}

/// [`quiet_json`]'s object, serialized straight into the output text: a `serde_json::Value`
/// tree of the buffers took some 900 bytes per cell (10^7 cells: 9.5 GB) where the run's
/// memory budget had counted 64. Fields in the order of their names, as a JSON object map
/// writes them.
#[derive(serde::Serialize)]
struct Quiet<'a> {
    buffers: &'a [crosslane_kernel::Buffer],
    diagnostics: &'a [crosslane_kernel::diaglog::MergedDiagnostic],
    launch: &'a crosslane_kernel::trace::Launch,
    outcome: &'a Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    preprocess: Option<&'a crosslane_kernel::PpRecord>,
    printf: &'a [crosslane_kernel::printf::PrintfLine],
    stats: &'a crosslane_kernel::trace::RunStats,
    structs: Vec<crosslane_kernel::memory::StructBuffer>,
}

/// The dialect a file's extension names: `.hip` → HIP (64 lanes unless `--lanes 32`), `.cu` /
/// `.cuh` → CUDA, `.asc` → Ascend C; `None` for any other name (the source decides).
fn dialect_by_extension(input: &str) -> Option<(Dialect, String)> {
    let ext = std::path::Path::new(input)
        .extension()?
        .to_str()?
        .to_ascii_lowercase();
    let d = match ext.as_str() {
        "hip" => Dialect::Hip,
        "cu" | "cuh" => Dialect::Cuda,
        // asc-devkit's Ascend C sources (examples/…/simt_add/add.asc).
        "asc" => Dialect::Ascend,
        // MetaX MACA sources (`.maca`, as tilelang-metax and MACA's samples name them).
        "maca" => Dialect::Maca,
        _ => return None,
    };
    Some((d, format!("the file extension .{ext}")))
}
