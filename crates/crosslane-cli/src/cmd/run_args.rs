//! The flags of `crosslane run` and what they mean for every kind of input: `run.rs` (scenarios,
//! permalinks, C kernels) and `run_wgsl.rs` (WGSL shaders) both read them from here, so neither
//! imports the other.

use crosslane_kernel::Limits;

use crate::error::CliError;

/// Arguments of `crosslane run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// A scenario JSON file, a kernel source file, `-` for standard input, or a permalink (`v1.…`).
    pub input: String,
    /// Print JSON. Op scenarios always print JSON; a kernel prints its trace as text without it.
    #[arg(long)]
    pub json: bool,
    /// Kernel only: the function to run (default: the first `__global__` / `__simt_vf__` one). A
    /// kernel in a namespace by its qualified name (`ops::k`; `k` too when no other has that
    /// name); a template kernel with its arguments, `'k<float, 4>'`. Of several kernels of one
    /// name, one by its parameter types, `'k(float*, int)'`, or by its parameter count after a
    /// `/`, `'k<float, 4>/3'` (templates overloaded by arity), `k/3`. A source whose kernels are
    /// all templates, run without `--entry`, lists the values to give here (its explicit
    /// instantiations first).
    #[arg(long)]
    pub entry: Option<String>,
    /// Kernel only: blocks launched, `X[,Y,Z]`, 1..=65536 in all (default: a kernel scenario's,
    /// else the launch in host code, else 1).
    #[arg(long, value_parser = parse_dim3)]
    pub blocks: Option<[usize; 3]>,
    /// Kernel only: threads per block, `X[,Y,Z]`, 1..=1024 in all, 1..=2048 for Ascend C
    /// (default: a kernel scenario's, else the launch in host code, else the kernel's
    /// `asc_vf_call` comment, else one warp).
    #[arg(long, value_parser = parse_dim3)]
    pub threads_per_block: Option<[usize; 3]>,
    /// Kernel only: a scalar parameter's value, `NAME=VALUE` (repeatable; default: the launch in
    /// host code, else the parameter's default argument; a scalar nobody set is a diagnostic
    /// naming it). For a pointer parameter, `NAME=null` (also `nullptr`, `NULL`, or `0` as in
    /// C++) passes the null pointer: no buffer, `NAME == nullptr` is true.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub arg: Vec<String>,
    /// Kernel only: a pointer parameter's buffer, `NAME[:LEN]=FILL` (repeatable; in a WGSL
    /// shader NAME may be the binding number). FILL: `index` (cell i = i), `i*K+C` (also `i*K`,
    /// `i+C`, `i*K-C`; K and C integers or decimals such as 0.1 or -1.5: `i*0.25+0.5`), a
    /// number (every cell; `-1.5`), a comma list (integers and decimals mixed, exactly LEN
    /// values when LEN is given; `undef` for an uninitialized cell), `zero`, `undef` or
    /// `random:SEED`; or a typed fill `TYPE:FILL` (TYPE one of i8 u8 i16 u16 i32 u32 i64 u64
    /// f16 bf16 f32 f64) whose values' little-endian bytes are laid over the cells, for a
    /// buffer the kernel reads through a pointer of another type (`x:8=f32:1.5,2.5` on a
    /// `char*` read as `float*`; a typed list without LEN sizes the buffer to its bytes). LEN
    /// defaults to what host code allocates (`cudaMalloc`), else one cell per launched thread.
    #[arg(long = "buffer", value_name = "NAME[:LEN]=FILL")]
    pub buffer: Vec<String>,
    /// Kernel only: dynamic shared memory in bytes, sizing the `extern __shared__` array
    /// (default: the launch's, else one cell per thread of a block).
    #[arg(long)]
    pub shared_bytes: Option<u64>,
    /// Kernel only: nvcc's `--use_fast_math` (off by default): `expf`, `logf`, `sinf`, `powf`, …
    /// run as their intrinsics (`__expf`, …) with those error bounds, and math functions flush
    /// denormals to zero; the trace states it.
    #[arg(long, alias = "use_fast_math")]
    pub use_fast_math: bool,
    /// Kernel only: nvcc's `--fmad=false` turns floating-point contraction off (every product
    /// and sum rounded on its own); `--fmad=true` (the default for CUDA, HIP, MACA, Ascend C)
    /// fuses `a*b+c` within one expression into one fma; the trace's launch states the mode.
    #[arg(long, value_name = "true|false", require_equals = true)]
    pub fmad: Option<bool>,
    /// Kernel only: clang's spelling for HIP, `-ffp-contract=off` (also `--ffp-contract=`):
    /// `off` is `--fmad=false`; `on`, `fast` and `fast-honor-pragmas` fuse.
    #[arg(
        long = "ffp-contract",
        value_name = "off|on|fast|fast-honor-pragmas",
        require_equals = true
    )]
    pub ffp_contract: Option<String>,
    /// Kernel only: the dialect (cuda, hip, ascend, maca, …); default: the file extension
    /// (`.hip` → hip on 64 lanes, `.cu` → cuda, or maca where the source carries MetaX's marks
    /// such as `__builtin_mxc_*`, as MetaX's `cucc` compiles `.cu` files), else inferred from
    /// the source.
    #[arg(long)]
    pub dialect: Option<String>,
    /// Kernel only: lanes per warp (default: the dialect's; HIP on an RDNA `--arch`, gfx10xx,
    /// gfx11xx or gfx12xx, 32 as hipcc compiles for it).
    #[arg(long)]
    pub lanes: Option<usize>,
    /// Kernel only: define a macro before the source, `NAME` (as 1), `NAME=VALUE` or
    /// `NAME(a,b)=BODY` (repeatable; as `clang -D`, after the dialect's predefined macros).
    #[arg(long = "define", short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Kernel only: undefine a macro, predefined or `--define`d (repeatable; applied after
    /// every --define).
    #[arg(long = "undefine", short = 'U', value_name = "NAME")]
    pub undefine: Vec<String>,
    /// Kernel only: the target the predefined macros describe: CUDA `sm_XY` (`__CUDA_ARCH__` =
    /// XY0; default sm_90), HIP an AMD processor `gfxNNN` (`__gfxNNN__`, `__GFXN__`; an RDNA
    /// processor, gfx10xx/gfx11xx/gfx12xx, also makes the default wave 32 lanes, GFX9 and CDNA
    /// keep 64; `--lanes` still wins).
    #[arg(long)]
    pub arch: Option<String>,
    /// Kernel only: go on after a run-time error instead of ending the run with outcome `error`
    /// (exit 1): an error stays a diagnostic, and a branch or loop condition undefined in a lane
    /// takes that lane as false, with a warning naming the lane and the value's reason.
    #[arg(long)]
    pub keep_going: bool,
    /// Kernel only: run the traced launch alone, as if host code made no other launch: no
    /// launch runs before it (its buffers hold what host code wrote) or after it (its final
    /// buffers are its own). By default every launch of the file runs in order.
    #[arg(long)]
    pub single_launch: bool,
    /// Kernel only: trace the N-th launch of the entry kernel host code makes (counted from 1
    /// in host code's order, each iteration of a launch loop one launch; default 1): the
    /// launches before it run first, those after it after it.
    #[arg(long, value_name = "N")]
    pub launch: Option<usize>,
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
    /// Kernel only: deepest chain of device-function calls, recursion included (each call is
    /// inlined, one copy per level; at most 512) [default: 64].
    #[arg(long)]
    pub max_call_depth: Option<u32>,
    /// WGSL only: workgroups dispatched, `X[,Y,Z]` (default 1; `--blocks` means the same).
    #[arg(long, value_parser = parse_dim3)]
    pub workgroups: Option<[usize; 3]>,
    /// WGSL only: the subgroup size, a power of two in 4..=128 (default 32; `--lanes` too).
    #[arg(long)]
    pub subgroup_size: Option<usize>,
    /// WGSL only: an `override` declaration's value, `NAME=VALUE` or `ID=VALUE` for one with
    /// `@id(ID)` (repeatable; default: its initializer). Converted to the override's type as
    /// WebGPU converts pipeline constants (an integer type needs an integral value).
    #[arg(long = "override", value_name = "NAME=VALUE")]
    pub overrides: Vec<String>,
    /// WGSL only: also run the shader on the native GPU (wgpu) and diff every buffer with the
    /// emulator at the device's subgroup size; exit 1 on a mismatching cell, 3 without a GPU.
    #[arg(long)]
    pub gpu: bool,
    /// Kernel only: `full` prints every step; `none` only the outcome, the diagnostics (each
    /// distinct one once), the final buffers and the run's statistics.
    #[arg(long, value_name = "full|none", default_value = "full", value_parser = ["full", "none"])]
    pub trace: String,
}

impl RunArgs {
    /// The contraction asked by `--fmad=…` or `-ffp-contract=…` (`None`: the dialect's
    /// default).
    ///
    /// # Errors
    /// [`CliError::Usage`] for an `-ffp-contract` value clang does not take, or when the two
    /// flags disagree.
    pub fn contraction(&self) -> Result<Option<bool>, CliError> {
        let clang = match self.ffp_contract.as_deref() {
            None => None,
            Some("off") => Some(false),
            Some("on" | "fast" | "fast-honor-pragmas") => Some(true),
            Some(other) => {
                return Err(CliError::Usage(format!(
                    "run: -ffp-contract={} is not one of off, on, fast, fast-honor-pragmas",
                    escape_controls(other)
                )))
            }
        };
        match (self.fmad, clang) {
            (Some(a), Some(b)) if a != b => Err(CliError::Usage(
                "run: --fmad and -ffp-contract disagree; give one".into(),
            )),
            (a, b) => Ok(a.or(b)),
        }
    }
}

/// `-ffp-contract=…` (clang's single-dash spelling) as the `--ffp-contract=…` the parser
/// reads; every other argument as it is.
pub fn clang_spelling(arg: std::ffi::OsString) -> std::ffi::OsString {
    match arg.to_str() {
        Some(a) if a.starts_with("-ffp-contract=") => format!("-{a}").into(),
        _ => arg,
    }
}

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

/// The budgets: `base` (the defaults, or a scenario's) with each flag given, each at most the
/// CLI's ceiling ([`crosslane_kernel::budget::CLI_CEILING`]).
///
/// # Errors
/// [`CliError::Usage`] (exit 2) naming the budget above its ceiling, its flag and the ceiling.
pub fn limits(args: &RunArgs, base: Limits) -> Result<Limits, CliError> {
    let l = flag_limits(args, base);
    match l.above(&crosslane_kernel::budget::CLI_CEILING) {
        Some((field, flag, value, ceiling)) => Err(CliError::Usage(format!(
            "run: the budget {field} = {value} is above the CLI's ceiling of {ceiling} \
             ({flag} and a scenario's budgets may raise it only that far)"
        ))),
        None => Ok(l),
    }
}

fn flag_limits(args: &RunArgs, base: Limits) -> Limits {
    Limits {
        max_work: args.max_work.unwrap_or(base.max_work),
        max_memory: args.max_memory.unwrap_or(base.max_memory),
        max_depth: args.max_depth.unwrap_or(base.max_depth),
        max_tokens: args.max_tokens.unwrap_or(base.max_tokens),
        max_code: args.max_code.unwrap_or(base.max_code),
        max_diagnostics: args.max_diagnostics.unwrap_or(base.max_diagnostics),
        max_call_depth: args.max_call_depth.unwrap_or(base.max_call_depth),
    }
}

/// `X[,Y,Z]` as (x, y, z), the missing ones 1.
fn parse_dim3(text: &str) -> Result<[usize; 3], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{text}`: expected X, X,Y or X,Y,Z"));
    }
    let mut d = [1usize; 3];
    for (k, p) in parts.iter().enumerate() {
        d[k] = p
            .parse()
            .map_err(|_| format!("`{text}`: `{p}` is not a non-negative integer"))?;
    }
    Ok(d)
}

/// A kernel scenario's budgets (`KernelInputs::budgets`: the page's budget fields as typed, by
/// `Limits` field name) over `base`; the `--max-*` flags still override them.
///
/// # Errors
/// [`CliError::Usage`] for a budget that is not a whole number ≥ 1 or a name no budget has.
pub(crate) fn scenario_limits(
    budgets: &std::collections::BTreeMap<String, String>,
    mut l: crosslane_kernel::Limits,
) -> Result<crosslane_kernel::Limits, CliError> {
    for (key, text) in budgets {
        let n = text
            .trim()
            .replace('_', "")
            .parse::<u64>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "run: the scenario's budget {} = `{}` is not a whole number ≥ 1",
                    escape_controls(key),
                    escape_controls(text)
                ))
            })?;
        match key.as_str() {
            "max_work" => l.max_work = n,
            "max_memory" => l.max_memory = n,
            "max_depth" => l.max_depth = u32::try_from(n).unwrap_or(u32::MAX),
            "max_tokens" => l.max_tokens = n,
            "max_code" => l.max_code = n,
            "max_diagnostics" => l.max_diagnostics = n,
            "max_call_depth" => l.max_call_depth = u32::try_from(n).unwrap_or(u32::MAX),
            _ => {
                return Err(CliError::Usage(format!(
                    "run: the scenario names no budget `{}` (max_work, max_memory, max_depth, max_tokens, max_code, max_diagnostics, max_call_depth)",
                    escape_controls(key)
                )))
            }
        }
    }
    Ok(l)
}
