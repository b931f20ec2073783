//! `crosslane run FILE|-|PERMALINK [--json]`: replays a scenario and prints its trace as JSON.
//!
//! The input is a scenario JSON file (`{"version": 1, "view": …}`), `-` for standard input, or a
//! permalink (`v1.…`, given directly, in a file, or as a page URL whose `#` fragment or last
//! `=` parameter holds it). For an `op` view the trace is the step's `--json` contract object.
//!
//! A kernel snippet (a `.cu`/`.cpp`/`.c`/`.txt`/… source file, or any text that is neither a
//! scenario nor a permalink, or a `kernel` scenario) runs through
//! [`crosslane_core::kernel::run_kernel`] — the interpreter the page steps through — and prints
//! the whole [`crosslane_core::kernel::KernelTrace`] as JSON with `--json`, or its
//! [`crosslane_core::kernel::render_text`] rendering otherwise. Sort views are answered by their
//! own module as it lands (one match arm in [`run`]).
//!
//! Bounded: the input is read up to [`MAX_INPUT_BYTES`]; a kernel runs within the budgets of
//! [`crosslane_core::kernel::Limits`] (`--max-work`, `--max-memory`, …), and a budget that runs
//! out is printed with what hit it and the flag that raises it. Text echoed from the input (the
//! kernel's statements, names, messages) has its control characters escaped, so a kernel cannot
//! send escape sequences to the terminal.

use std::io::Read;

use crosslane_core::kernel::{render_text, run_kernel, LaunchConfig, Limits};
use crosslane_core::permalink;
use crosslane_core::scenario::{Scenario, View};

use crate::error::CliError;
use crate::print_out;

/// Arguments of `crosslane run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// A scenario JSON file, a kernel source file, `-` for standard input, or a permalink (`v1.…`).
    pub input: String,
    /// Print JSON. Op scenarios always print JSON; a kernel prints its trace as text without it.
    #[arg(long)]
    pub json: bool,
    /// Kernel only: the function to run (default: the first `__global__` / `__simt_vf__` one).
    #[arg(long)]
    pub entry: Option<String>,
    /// Kernel only: blocks launched, 1..=65536 (default: a kernel scenario's, else 1).
    #[arg(long)]
    pub blocks: Option<usize>,
    /// Kernel only: threads per block, 1..=1024 (default: a kernel scenario's, else the kernel's
    /// `asc_vf_call` comment, else one warp).
    #[arg(long)]
    pub threads_per_block: Option<usize>,
    /// Kernel only: lanes per warp (default: the dialect's).
    #[arg(long)]
    pub lanes: Option<usize>,
    /// Kernel only: most units of work (one per statement of a warp and per expression node it
    /// evaluates); an endless loop stops here [default: 20000000].
    #[arg(long)]
    pub max_work: Option<u64>,
    /// Kernel only: most bytes of buffers, lane variables and trace [default: 268435456].
    #[arg(long)]
    pub max_memory: Option<u64>,
    /// Kernel only: deepest syntax nesting, a chain of operators counting one level each
    /// (at most 512) [default: 256].
    #[arg(long)]
    pub max_depth: Option<u32>,
    /// Kernel only: most tokens after macro expansion, every expansion counting
    /// [default: 2000000].
    #[arg(long)]
    pub max_tokens: Option<u64>,
    /// Kernel only: most instructions after inlining device functions, weighted by expression
    /// nodes [default: 2000000].
    #[arg(long)]
    pub max_code: Option<u64>,
    /// Kernel only: most distinct diagnostics listed; the rest are counted [default: 1000].
    #[arg(long)]
    pub max_diagnostics: Option<u64>,
}

/// Most bytes read from a file or standard input (a kernel or scenario is a few KiB; a
/// permalink a few hundred bytes).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// `text` with every control character except line feed and tab written as `\u{…}`, so that
/// nothing echoed from the input can drive the terminal (ANSI escapes, carriage returns, bells).
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs `crosslane run`.
///
/// # Errors
/// [`CliError::Io`] (exit 1) when the file or stdin cannot be read; [`CliError::Usage`] (exit 2)
/// when the text is neither a scenario nor a permalink, or its view cannot run here;
/// [`CliError::Input`] (exit 2) when an op view's fields do not parse or cannot be encoded.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let text = read_input(&args.input)?;
    if is_kernel_source(&args.input, &text) {
        return run_kernel_file(args, &text, LaunchConfig::default());
    }
    let scenario = parse(&text)?;
    let trace = match &scenario.view {
        View::Op(request) => request.run()?.contract_json(),
        View::Kernel {
            source,
            blocks,
            threads_per_block,
            lanes,
            step: _,
        } => {
            let config = kernel_config(*blocks, *threads_per_block, *lanes);
            return run_kernel_file(args, source, config);
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
fn parse(text: &str) -> Result<Scenario, CliError> {
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
    "cu", "cuh", "cpp", "cc", "cxx", "c", "h", "hpp", "hip", "txt",
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
/// [`CliError::Usage`] (exit 2) when the kernel does not parse or the launch is invalid, with
/// the line:column of the fault. Faults while running (undefined behaviour, the step limit) are
/// part of the trace, not errors.
fn run_kernel_file(args: &RunArgs, source: &str, mut config: LaunchConfig) -> Result<(), CliError> {
    if args.entry.is_some() {
        config.entry.clone_from(&args.entry);
    }
    if let Some(b) = args.blocks {
        config.grid_dim = Some([b, 1, 1]);
    }
    if let Some(t) = args.threads_per_block {
        config.block_dim = Some([t, 1, 1]);
    }
    if let Some(l) = args.lanes {
        config.lanes = Some(l);
    }
    config.limits = limits(args, config.limits);
    let trace = run_kernel(source, config)
        .map_err(|e| CliError::Usage(escape_controls(&format!("run: {}:{e}", args.input))))?;
    if args.json {
        // serde_json escapes control characters itself.
        let json = serde_json::to_string(&trace)
            .map_err(|e| CliError::Io(format!("run: writing the trace as JSON: {e}")))?;
        print_out(&format!("{json}\n"))
    } else {
        print_out(&escape_controls(&render_text(&trace, 10_000)))
    }
}

/// The budgets: `base` with each flag given.
fn limits(args: &RunArgs, base: Limits) -> Limits {
    Limits {
        max_work: args.max_work.unwrap_or(base.max_work),
        max_memory: args.max_memory.unwrap_or(base.max_memory),
        max_depth: args.max_depth.unwrap_or(base.max_depth),
        max_tokens: args.max_tokens.unwrap_or(base.max_tokens),
        max_code: args.max_code.unwrap_or(base.max_code),
        max_diagnostics: args.max_diagnostics.unwrap_or(base.max_diagnostics),
    }
}
