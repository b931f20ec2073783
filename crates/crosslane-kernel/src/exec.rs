//! The SIMT executor: warps of lanes run the kernel in lock-step under an active mask.
//!
//! Control flow follows the reconvergence-stack model of SIMT hardware: a divergent `if` runs
//! its `then` part with the lanes that took it, then its `else` part with the others, and the
//! lanes reconverge after the construct; a loop keeps running while any lane is still in it.
//! `break`, `continue` and `return` park a lane until the construct it leaves ends. A cross-lane
//! call sees the active mask of the moment, so a shuffle that reads a lane which took the other
//! branch is undefined (the vendors' "inactive source lane" rule) and says which line made the
//! lane inactive.
//!
//! Warps of a block run one after another until each finishes or reaches a barrier
//! (`__syncthreads`, `__builtin_mxc_barrier_ex`); when every unfinished warp waits, the barrier
//! opens. Blocks run one after another (they cannot synchronise with each other).
//!
//! Bounded by [`super::budget::Limits`]: work (an endless loop ends naming its line), bytes of
//! memory and trace, code after inlining, diagnostics ([`super::diaglog`]), counted by
//! [`super::budget::Meter`]. [`Executor::step`], [`Executor::run_for`] run it in slices.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::ast::*;
use super::budget::{self, LimitHit, Limits, Meter, Resource};
use super::diaglog::DiagLog;
use super::memory::{fill_cells, Memory, Space};
use super::parser::Parsed;
use super::types::{KVal, Ty, NULL_BUF};
use super::{join_errors, KernelDiagnostic, KernelError};
use crosslane_core::lanes::{LaneMask, MAX_LANES};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_core::value::{ValueType, ValuesSpec};

use super::compile::*;
use super::machine::barrier::BarrierRound;
use super::machine::maca_mem;
use super::machine::regs::{Reasons, Reg};
use super::machine::typed::{Lowering, TInst};
use super::machine::typed_run::TypedState;
use super::machine::*;
pub use super::trace::*;

/// Most threads in one block the interpreter launches (the product of the block's dimensions):
/// CUDA's limit of 1024 threads per block (CUDA C++ Programming Guide, "Thread Hierarchy"),
/// which every dialect's launch here shares.
pub const MAX_THREADS_PER_BLOCK: usize = 1024;

/// Most threads in one Ascend C SIMT block: `asc_vf_call`'s "线程总数=dimx*dimy*dimz，必须<=2048"
/// (CANN asc-devkit SIMT API reference, asc_vf_call, the `threadNums` parameter), the
/// `__launch_bounds__(2048)` of the vendor's SIMT samples.
pub const MAX_THREADS_PER_BLOCK_ASCEND: usize = 2048;

/// The most threads one block of a `dialect` launch may have: [`MAX_THREADS_PER_BLOCK`], or
/// [`MAX_THREADS_PER_BLOCK_ASCEND`] for Ascend C.
pub fn max_threads_per_block(dialect: Dialect) -> usize {
    if dialect == Dialect::Ascend {
        MAX_THREADS_PER_BLOCK_ASCEND
    } else {
        MAX_THREADS_PER_BLOCK
    }
}

/// Most blocks in one launch (the product of the grid's dimensions): a budget of this
/// interpreter, far below the hardware grid limits, so that a launch stays one a page can step.
pub const MAX_BLOCKS: usize = 65_536;

/// How to launch a kernel. Every field is optional; see [`Launch`] for what is chosen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LaunchConfig {
    /// The function to run; default: the first `__global__` / `__simt_vf__` function, else the
    /// first function.
    pub entry: Option<String>,
    /// The dialect whose operations are looked up first; default: inferred from the source
    /// ([`super::dialect_guess::infer_dialect`]: `asc_` → Ascend, `__builtin_mxc` → MACA, the
    /// HIP header or builtins → HIP, `_sync(` / `<<<` → CUDA, `hip` → HIP).
    pub dialect: Option<Dialect>,
    /// Why `dialect` was chosen (`--dialect`, the file extension `.hip`, the page's picker), shown
    /// beside it; default "chosen".
    pub dialect_from: Option<String>,
    /// Lanes per warp; default: the dialect's (32, or 64 for MACA / HIP / AMD).
    pub lanes: Option<usize>,
    /// Threads per block (x, y, z); default: the kernel's `asc_vf_call … dim3{…}` comment, else
    /// one warp.
    pub block_dim: Option<[usize; 3]>,
    /// Blocks (x, y, z); default 1×1×1.
    pub grid_dim: Option<[usize; 3]>,
    /// Kernel arguments by parameter name. A pointer or reference parameter: the initial fill of
    /// its global buffer (`index` — the default —, `index+K`, `index*K`, `zero`, `undef`, one
    /// value, or a comma list). A scalar parameter: its value in each lane of a warp (`lane`,
    /// `lane+K`, `lane*K`, one value, or one per lane); unset, a kernel's is undefined in every
    /// lane with a reason naming it ([`super::host_launch::unset_reason`]), a snippet's or a
    /// device function's run as the kernel is `lane` ([`super::host_launch::lane_default`]).
    pub args: BTreeMap<String, String>,
    /// Cells of a pointer parameter's buffer; default: one per thread of the launch.
    pub buffer_len: BTreeMap<String, usize>,
    /// Buffer → cells host code left undefined (a signed overflow, [`super::host_undef`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub undef_why: BTreeMap<String, super::host_undef::UndefCells>,
    /// Pointer parameter → (the parameter whose buffer it views, element offset into it):
    /// host code's `k<<<…>>>(d, d + 16)` ([`super::host_launch::bind_views`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub views: BTreeMap<String, (String, i64)>,
    /// Cells of an `extern __shared__` array; default: one per thread of a block.
    pub shared_len: Option<usize>,
    /// The budgets: work, memory in bytes, nesting, tokens, code, diagnostics.
    pub limits: Limits,
    /// The preprocessor's user defines and target ([`super::pp::PpOptions`]); the predefined
    /// macros follow the dialect and lane count chosen here.
    #[serde(skip_serializing_if = "super::pp::PpOptions::is_empty")]
    pub preprocess: super::pp::PpOptions,
    /// nvcc's `--use_fast_math` (off by default): the single-precision functions it maps to
    /// their intrinsics run as those (`expf` → `__expf`, …) and their denormal arguments and
    /// results are flushed to zero ([`super::mathlib::fast_math_name`]); stated in the trace.
    pub use_fast_math: bool,
    /// Floating-point contraction: `Some(false)` is nvcc's `--fmad=false` (HIP's
    /// `-ffp-contract=off`), `Some(true)` forces it on, `None` (the default) is the dialect's
    /// default, on for the C dialects ([`super::contract`]); stated in the trace's launch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmad: Option<bool>,
    /// Go on after a run-time error instead of ending the run with [`Outcome::Error`]: an error
    /// diagnostic (an unknown operation, a bad argument count) stays a diagnostic, and a branch
    /// or loop condition undefined in some lane takes that lane as false (with a warning naming
    /// the lane and the value's reason). Default false (`--keep-going`, `keepGoing`).
    pub keep_going: bool,
    /// Run the chosen launch alone, none host code makes before or after it (`--single-launch`,
    /// as a harness launching one kernel does). Default false: all run in order (`sequence.rs`).
    pub single_launch: bool,
    /// The entry kernel's launch to trace, N-th in host code's order (`--launch N`; default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<usize>,
    /// The line of the host launch being run when it is cooperative
    /// (`cudaLaunchCooperativeKernel`, `hipLaunchCooperativeKernel`) or not (`<<<…>>>`,
    /// `cudaLaunchKernel`), from [`super::host_launch::apply_host_launch`]; both `None` for a
    /// kernel no host code launches, which runs as a cooperative launch would. CUDA C++
    /// Programming Guide, Cooperative Groups, Grid Synchronization (`machine/coop_launch.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cooperative_launch_line: Option<u32>,
    /// See [`LaunchConfig::cooperative_launch_line`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plain_launch_line: Option<u32>,
}

/// Runs a kernel in slices ([`Executor::step`], [`Executor::run_for`]); a copy is a checkpoint of
/// the whole machine (the program itself is shared), which [`super::Replay`] keeps.
#[derive(Clone)]
pub struct Executor {
    /// The compiled program, shared so that a step borrows its instruction instead of copying it.
    pub(crate) code: Rc<[Inst]>,
    pub(crate) slots: Vec<SlotInfo>,
    pub(crate) code_inst: Vec<u32>,
    /// The user's calls into library declarations by instance ([`crate::lib_site`]).
    pub(crate) lib_sites: Rc<HashMap<u32, crate::lib_site::LibSite>>,
    pub(crate) cur: u32,
    pub(crate) idents: HashMap<Key, usize>,
    pub(crate) decl_slots: HashMap<Key, usize>,
    pub(crate) hoisted: HashMap<Key, usize>,
    pub(crate) params: Vec<(usize, Param)>,
    pub(crate) ret_slot: Option<usize>,
    pub(crate) snippet: bool,
    pub(crate) functions: Vec<String>,
    pub(crate) config: LaunchConfig,
    pub(crate) trace: KernelTrace,
    pub(crate) block: usize,
    pub(crate) blocks: usize,
    pub(crate) warps: Vec<Warp>,
    pub(crate) current: usize,
    pub(crate) shared: HashMap<(Span, u32, usize), usize>,
    /// Each block's dynamic shared memory, by ("", block): every `extern __shared__` array (any
    /// name, each inlined function, `SharedMemory<T>()`) is it, from its first byte.
    pub(crate) extern_shared: HashMap<(String, usize), usize>,
    pub(crate) locals: HashMap<(Span, usize, usize, usize), usize>,
    /// The local scalar and vector variables whose address the kernel takes (`&x`): they
    /// live in per-lane memory ([`crate::machine::Warp::lane_refs`]).
    pub(crate) addr_taken: std::collections::HashSet<usize>,
    /// Slots declared as arrays (`half reg[8]`, `__shared__ float s[32]`): `&reg` is the
    /// array's address, the same as `reg` converted to a pointer (C++17 [conv.array]).
    pub(crate) array_slots: std::collections::HashSet<usize>,
    pub(crate) global_bufs: HashMap<String, usize>,
    /// Work and bytes spent against [`LaunchConfig::limits`].
    pub(crate) meter: Meter,
    /// Diagnostics counted, merged and capped.
    pub(crate) diag_log: DiagLog,
    /// The source line of each instruction (0 for structural ones).
    pub(crate) pc_line: Vec<u32>,
    /// Where each source line starts, in characters (for a step's text without rescanning).
    pub(crate) line_starts: Vec<usize>,
    /// The source as characters.
    pub(crate) chars: Vec<char>,
    /// MACA memory queues and the shared cells a queued copy has not yet filled.
    pub(crate) maca: maca_mem::MacaMem,
    /// Shared cells an asynchronous copy has not yet completed
    /// ([`super::machine::async_copy`]).
    pub(crate) async_copies: super::machine::async_copy::AsyncCopies,
    /// How much of the run is recorded.
    pub(crate) mode: TraceMode,
    /// The undefined reasons lane registers point at.
    pub(crate) reasons: Reasons,
    /// Each instruction's typed form, where it has one (`machine/typed.rs`), shared like `code`.
    pub(crate) typed: Rc<[Option<TInst>]>,
    /// The typed evaluator's scratch rows and plan caches (not copied with the machine).
    pub(crate) typed_state: TypedState,
    /// Where the warps of the block stood when its barrier last opened, and whether any
    /// variable or memory cell changed since: see [`Executor::barrier_repeats`].
    pub(crate) barrier_round: BarrierRound,
    /// Blocks parked at `grid.sync()` ([`super::machine::grid_sync`]).
    pub(crate) grid_wait: super::machine::grid_sync::GridWait,
    /// Spin loops of one warp that repeat with nothing changed ([`super::machine::spin`]).
    pub(crate) spin: super::machine::spin::SpinWatch,
    /// Lanes of one warp exchanging data through shared memory without `__syncwarp`
    /// ([`super::machine::warp_race`]).
    pub(crate) warp_race: super::machine::warp_race::WarpRace,
    /// Where a product and a sum are fused ([`super::contract`]).
    pub(crate) contract: super::contract::Contract,
    /// Shared-memory hazards between the block's warps ([`super::machine::racecheck`]).
    pub(crate) race: super::machine::racecheck::RaceCheck,
    /// Bytes of memory cells never written whole ([`super::machine::partial`]).
    pub(crate) partial: super::machine::partial::PartialCells,
    /// Runs host code's launches after this one when it finishes (`sequence.rs`).
    pub(crate) later: Option<LaterRun>,
    /// Lane-local arrays shown as their elements ([`Program::element_arrays`]).
    pub(crate) element_arrays: Vec<String>,
    /// Lines of library code ([`Program::library_lines`]), and each (block, warp)'s last
    /// statement at a line of the user's own, where a library step is shown.
    pub(crate) library_lines: Vec<u32>,
    pub(crate) user_sites: HashMap<(usize, usize), (Span, Span)>,
}

/// What runs host code's launches after a finished one and gives the run's outcome.
pub(crate) type LaterRun = Rc<dyn Fn(&mut Executor) -> Outcome>;

impl Executor {
    /// Prepares one launch of an already parsed program whose spans point into `source`, with
    /// no earlier launch run ([`Executor::from_parsed`] runs those first).
    ///
    /// # Errors
    /// As [`Executor::new`], less the parse errors.
    pub(crate) fn prepare(
        source: &str,
        parsed: Parsed,
        mut config: LaunchConfig,
    ) -> Result<Self, KernelError> {
        if let Some(instance) = parsed.entry.clone() {
            // `--entry reduce4<int, 128>` names the instantiation `reduce4<int,128>`.
            config.entry = Some(instance);
        }
        let program = parsed.program;
        let preprocess = parsed.preprocess;
        let mut parsed_diags = parsed.diagnostics;
        // The lexers refuse bidirectional controls in code; those in comments and strings are
        // reported here, for every front end.
        parsed_diags.extend(super::bidi::warnings(source, 100));
        let user_entry = super::host_launch::resolve_config_entry(&program, &mut config)?;
        super::host_launch::enumerator_args(&program, &mut config);
        // Host code's launch fills what the user left unset.
        let user_block = config.block_dim.is_some();
        let (host_notes, host_words) = super::host_launch::apply_host_launch(&program, &mut config);
        parsed_diags.extend(host_notes);
        super::host_launch::apply_constant_tables(&program, &mut config);
        let f = super::host_launch::entry_function(&program, config.entry.as_ref(), !user_entry)?;
        parsed_diags.extend(super::host_launch::unread_launch(
            &program, &config, f, source, user_block,
        ));
        super::host_launch::by_value_array_flags(f, &mut config);
        let at = |msg: String| KernelError::new(f.span.line, f.span.col, msg);
        let (dialect, dialect_from) = match config.dialect {
            Some(d) => (
                d,
                config
                    .dialect_from
                    .clone()
                    .unwrap_or_else(|| "chosen".to_string()),
            ),
            None => super::dialect_guess::infer_dialect(source),
        };
        let defaults = super::host_launch::apply_default_args(&program, f, &mut config);
        parsed_diags.extend(defaults);
        parsed_diags.extend(super::host_launch::unset_scalars(f, &config));
        super::host_launch::default_lane_operands(f, &mut config);
        if dialect == Dialect::Cuda {
            parsed_diags.extend(super::legacy::legacy_warnings(&program));
            super::legacy::arch_gate(&program, config.preprocess.arch.as_deref())?;
        }
        let lanes = match config.lanes {
            Some(n) => dialect
                .check_lanes(n as i64)
                .map_err(|e| at(format!("lanes: {}", e.message)))?,
            None => {
                super::pp::predefined::default_lanes(dialect, config.preprocess.arch.as_deref())
            }
        };
        let lanes = lanes.min(MAX_LANES);
        // The target the AMD operations run as follows the lane count when no --arch names it
        // (a 64-lane HIP run is gfx942, not the registry's wave32-capable gfx1030), and the
        // operations read it from here on; the parse predefined the same target's macros.
        let target =
            super::pp::predefined::amd_target(dialect, config.preprocess.arch.as_deref(), lanes);
        if let Some((name, _)) = &target {
            config.preprocess.arch.get_or_insert_with(|| name.clone());
        }
        let (block_dim, geometry_from) = match (config.block_dim, f.vf_call_dim) {
            (Some(d), _) if user_block => (d, "config".to_string()),
            (Some(d), _) => (d, "the launch in host code".to_string()),
            (None, Some(d)) => (
                [d[0] as usize, d[1] as usize, d[2] as usize],
                "the kernel's asc_vf_call comment".to_string(),
            ),
            (None, None) => ([lanes, 1, 1], "one warp (no block shape given)".to_string()),
        };
        let grid_dim = config.grid_dim.unwrap_or([1, 1, 1]);
        let max_threads = max_threads_per_block(dialect);
        let threads = super::host_launch::dims_total(block_dim)
            .filter(|t| (1..=max_threads).contains(t))
            .ok_or_else(|| {
                // Name where the shape came from: the host expression when host code gave it.
                let from = match super::host_launch::chosen_launch(&program, &config) {
                    Some(l) if !user_block && !l.block_text.is_empty() => format!(
                        "the block `{}` of the launch at line {} in host code",
                        l.block_text, l.span.line
                    ),
                    _ => geometry_from.clone(),
                };
                at(format!(
                    "threads per block must be 1..={max_threads}, got {block_dim:?} \
                     (from {from}); set the block (CLI: --threads-per-block N)"
                ))
            })?;
        let blocks = super::host_launch::dims_total(grid_dim)
            .filter(|b| (1..=MAX_BLOCKS).contains(b))
            .ok_or_else(|| {
                let from = match super::host_launch::chosen_launch(&program, &config) {
                    Some(l) if config.grid_dim.is_some() && !l.block_text.is_empty() => {
                        format!(" (from the launch at line {} in host code)", l.span.line)
                    }
                    _ => String::new(),
                };
                at(format!(
                    "blocks must be 1..={MAX_BLOCKS}, got {grid_dim:?}{from}; set the grid \
                     (CLI: --blocks N)"
                ))
            })?;
        if let Some(b) = f.launch_bounds {
            if threads as u64 > b {
                return Err(at(format!(
                    "{threads} threads per block exceed the kernel's __launch_bounds__({b})"
                )));
            }
        }
        let functions: Vec<Function> = program
            .functions
            .iter()
            .filter(|g| !g.snippet)
            .cloned()
            .collect();
        let mut by_name = HashMap::new();
        for (k, g) in functions.iter().enumerate() {
            by_name.entry(g.name.clone()).or_insert(k);
        }
        let mut compiler = Compiler {
            functions,
            by_name,
            max_code: config.limits.max_code,
            max_call_depth: config.limits.call_depth(),
            max_nest: config.limits.depth(),
            // WGSL's module scope; a C kernel's parameters when `__constant__` tables are
            // among them, so device functions see the tables.
            module_scopes: if dialect == Dialect::Wgsl {
                2
            } else {
                usize::from(!program.constants.is_empty())
            },
            // Names are checked for the C-family dialects; naga has resolved a WGSL shader's.
            check: (dialect != Dialect::Wgsl).then(|| NameCheck {
                dialect,
                snippet: f.snippet,
                source_functions: program.functions.iter().map(|g| g.name.clone()).collect(),
                local_includes: preprocess.local_includes.clone(),
                amd_target: target.as_ref().map(|(t, _)| t.clone()),
                type_errors: program.type_errors.clone(),
                blocks,
                threads,
                // Only CUDA and HIP have a cooperative launch to miss (`machine/coop_launch.rs`).
                plain_launch: config.plain_launch_line.is_some()
                    && matches!(
                        dialect,
                        crosslane_core::op::Dialect::Cuda | crosslane_core::op::Dialect::Hip
                    ),
            }),
            ..Compiler::default()
        };
        compiler.type_errors_of(&f.name);
        compiler.scopes.push(HashMap::new());
        let mut params = Vec::new();
        for p in &f.params {
            let id = compiler.declare(&p.name, p.ty);
            params.push((id, p.clone()));
        }
        let ret_slot = match f.ret {
            Ty::Void => None,
            t => {
                compiler.slots.push(SlotInfo {
                    name: "return".into(),
                    ty: t,
                });
                Some(compiler.slots.len() - 1)
            }
        };
        compiler.stmt(&f.body);
        compiler.emit(Inst::End);
        // Every unknown name at once, before the run (C++17 [basic.lookup]: a name must be
        // declared before it is used), then any other compile error.
        let mut errors = std::mem::take(&mut compiler.name_errors);
        if let Some(e) = compiler.error {
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
        if let Some(e) = join_errors(errors) {
            return Err(e);
        }
        let (contract, fp_contract, pragmas_unhonored) =
            super::contract::for_launch(dialect, config.fmad, &preprocess.fp_contract);
        let launch = Launch {
            fp_contract,
            entry: program.qualified_name(&f.name),
            dialect,
            lanes,
            block_dim,
            grid_dim,
            warps_per_block: threads.div_ceil(lanes),
            geometry_from,
            dialect_from,
            target: target.as_ref().map(|(name, _)| name.clone()),
            target_from: target.map(|(_, from)| from.to_string()),
            host_words,
            params: super::host_launch::launch_params(&program, f, &config),
        };
        // Global buffers are held twice (the launch's fill and memory now): each may take half.
        let mut memory = Memory::new(config.limits.max_memory / 2);
        let mut global_bufs = HashMap::new();
        for (_, p) in params
            .iter()
            .filter(|(_, p)| !config.views.contains_key(&p.name))
        {
            let Ty::Ptr(elem) = p.ty else { continue };
            if let Some(note) = super::host_launch::null_pointer(p, &config)? {
                global_bufs.insert(p.name.clone(), NULL_BUF);
                parsed_diags.push(note);
                continue;
            }
            // A CUDA / HIP vector buffer's given length counts scalar cells (`x:32` of a
            // float4 is 8 elements), filled as one scalar sequence (memory::vector_fill).
            let scalar_cells =
                elem.lanes > 1 && matches!(dialect, Dialect::Cuda | Dialect::Hip) && !p.reference;
            let given = config.buffer_len.get(&p.name).copied();
            let len = if p.reference {
                1
            } else if scalar_cells {
                given.map_or(threads.saturating_mul(blocks), |n| {
                    n / usize::from(elem.lanes)
                })
            } else {
                given
                    .or_else(|| {
                        let fill = config.args.get(&p.name)?;
                        super::memory::typed_list_len(elem, fill)
                    })
                    .unwrap_or(threads.saturating_mul(blocks))
            };
            let need = (len as u64).checked_mul(budget::cell_bytes(elem));
            if need.is_none_or(|n| memory.used_bytes.saturating_add(n) > memory.limit_bytes) {
                let hit = LimitHit {
                    resource: Resource::Memory,
                    limit: config.limits.max_memory,
                    line: p.span.line,
                    what: format!(
                        "buffer `{}` of {len} cells of {} (held twice: its fill at launch and now)",
                        p.name,
                        elem.name()
                    ),
                };
                return Err(KernelError::new(p.span.line, p.span.col, hit.message()));
            }
            let fill = config.args.get(&p.name).map_or("index", String::as_str);
            // A fill is the user's input, not the source: its error names the fill's field.
            let field = format!("{} fill", p.name);
            let cells = if scalar_cells {
                let scalars = given.unwrap_or(len.saturating_mul(usize::from(elem.lanes)));
                super::memory::vector_fill(elem, scalars, fill, &field)
                    .map_err(|m| KernelError::in_input(field.clone(), m))?
            } else {
                fill_cells(elem, len, fill, &field)
                    .map_err(|e| KernelError::in_input(field.clone(), e.message))?
            };
            let buf = memory
                .alloc(&p.name, Space::Global, elem, cells)
                .map_err(|m| KernelError::new(p.span.line, p.span.col, m))?;
            global_bufs.insert(p.name.clone(), buf);
        }
        super::host_launch::bind_views(&config.views, &mut global_bufs);
        let mut diag_log = DiagLog::new(config.limits.max_diagnostics);
        let mut diagnostics = diag_log.filter(parsed_diags);
        for (note, src) in super::contract::launch_infos(config.use_fast_math, pragmas_unhonored) {
            diagnostics.push(KernelDiagnostic::new(f.span, Level::Info, note, src));
            if let Some(d) = diagnostics.last() {
                diag_log.admit(d);
            }
        }
        if f.snippet {
            diagnostics.push(KernelDiagnostic::new(
                f.span,
                Level::Info,
                "a snippet runs as the body of a kernel; `laneId` is the lane's index in its warp",
                "",
            ));
            if let Some(d) = diagnostics.last() {
                diag_log.admit(d);
            }
        }
        let names = params.iter().map(|(_, p)| p.name.as_str());
        for d in super::host_launch::unused_args(&config.args, names, f) {
            diagnostics.push(d);
            if let Some(d) = diagnostics.last() {
                diag_log.admit(d);
            }
        }
        let mut meter = Meter::new(config.limits);
        // The fill at launch is a second copy of the global buffers.
        meter.trace_bytes = memory.used_bytes;
        memory.limit_bytes = config.limits.max_memory;
        let mut pc_line = Vec::with_capacity(compiler.code.len());
        for i in &compiler.code {
            pc_line.push(match i {
                Inst::Decl { span, .. }
                | Inst::Eval { span, .. }
                | Inst::Branch { span, .. }
                | Inst::LoopTest { span, .. }
                | Inst::LoopBack { span, .. }
                | Inst::Break { span, .. }
                | Inst::Return { span, .. }
                | Inst::Bind { span, .. }
                | Inst::CallTooDeep { span, .. } => span.line,
                Inst::LoopEnter { line, .. } => *line,
                _ => 0,
            });
        }
        let chars: Vec<char> = source.chars().collect();
        let mut line_starts = vec![0];
        for (k, c) in chars.iter().enumerate() {
            if *c == '\n' {
                line_starts.push(k + 1);
            }
        }
        let trace = KernelTrace {
            launch,
            steps: Vec::new(),
            outcome: None,
            merged_diagnostics: Vec::new(),
            diagnostics,
            initial_memory: memory.clone(),
            memory,
            warps: Vec::new(),
            stats: RunStats::default(),
            printf: Vec::new(),
            names: compiler.slots.iter().map(|s| s.name.clone()).collect(),
            reasons: Default::default(),
            preprocess,
            own_reserved: crate::trace::reserved_words(source),
        };
        // Locals whose address is taken (`&x` of a scalar or vector variable): per-lane memory.
        let addr_taken = crate::compile::addr_taken(
            &compiler.code,
            &compiler.code_inst,
            &compiler.idents,
            &compiler.slots,
        );
        let typed = Lowering {
            slots: &compiler.slots,
            idents: &compiler.idents,
            decl_slots: &compiler.decl_slots,
            hoisted: &compiler.hoisted,
            dialect: trace.launch.dialect,
            sites: 0,
            contract: &contract,
            fast_math: config.use_fast_math,
        }
        .program(&compiler.code, &compiler.code_inst);
        Ok(Executor {
            contract,
            typed: typed.into(),
            typed_state: TypedState::default(),
            code: compiler.code.into(),
            code_inst: compiler.code_inst,
            lib_sites: Rc::new(compiler.lib_sites.by_inst),
            cur: 0,
            slots: compiler.slots,
            idents: compiler.idents,
            decl_slots: compiler.decl_slots,
            hoisted: compiler.hoisted,
            params,
            ret_slot,
            snippet: f.snippet,
            functions: program.functions.iter().map(|f| f.name.clone()).collect(),
            config,
            trace,
            block: 0,
            blocks,
            warps: Vec::new(),
            current: 0,
            shared: HashMap::new(),
            extern_shared: HashMap::new(),
            locals: HashMap::new(),
            addr_taken,
            array_slots: std::collections::HashSet::new(),
            global_bufs,
            meter,
            diag_log,
            pc_line,
            line_starts,
            chars,
            maca: Default::default(),
            async_copies: Default::default(),
            mode: TraceMode::Full,
            reasons: Reasons::default(),
            barrier_round: BarrierRound::default(),
            grid_wait: Default::default(),
            spin: Default::default(),
            warp_race: Default::default(),
            race: super::machine::racecheck::RaceCheck::new(blocks),
            partial: Default::default(),
            later: None,
            element_arrays: program.element_arrays.clone(),
            library_lines: program.library_lines.clone(),
            user_sites: HashMap::new(),
        })
    }

    /// Records the run as `mode` says (before the first step; [`TraceMode::Full`] by default).
    pub fn with_trace(mut self, mode: TraceMode) -> Self {
        self.mode = mode;
        self
    }

    /// The entry's parameters in declaration order (name, type, reference): what a launch
    /// takes as `--arg` / `--buffer` (pointers, arrays and references are [`Ty::Ptr`]).
    pub fn parameters(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().map(|(_, p)| p)
    }

    /// The trace so far.
    pub fn trace(&self) -> &KernelTrace {
        &self.trace
    }

    /// The memory now; the page may edit it between steps through [`Executor::memory_mut`].
    pub fn memory(&self) -> &Memory {
        &self.trace.memory
    }

    /// The memory, for editing before or between steps.
    pub fn memory_mut(&mut self) -> &mut Memory {
        &mut self.trace.memory
    }

    /// Whether the run has ended (see [`KernelTrace::outcome`]).
    pub fn is_finished(&self) -> bool {
        self.trace.outcome.is_some()
    }

    /// The finished trace.
    pub fn into_trace(mut self) -> KernelTrace {
        if self.trace.outcome.is_none() {
            self.trace.merged_diagnostics = self.diag_log.merged();
        }
        self.trace
    }

    /// Runs up to `n` steps; returns how many ran (fewer when the run ends).
    pub fn run_for(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n && self.advance() {
            done += 1;
        }
        done
    }

    /// Runs until the next recorded step and returns it; `None` once the run has ended (and
    /// always `None` under [`TraceMode::None`], which records no step: use
    /// [`Executor::run_for`] there).
    pub fn step(&mut self) -> Option<&KernelStep> {
        if self.advance() {
            self.trace.steps.last()
        } else {
            None
        }
    }

    /// Runs one statement of a warp (skipping the structural instructions around it); false
    /// once the run has ended.
    pub(crate) fn advance(&mut self) -> bool {
        loop {
            if self.trace.outcome.is_some() {
                return false;
            }
            let Some(w) = self.schedule() else {
                if self.trace.outcome.is_none() {
                    self.note_partial_cells();
                    self.finish_sequence();
                }
                return false;
            };
            if !self.meter.work(1) {
                let line = self.line_of(self.warps[w].pc);
                self.limit(Resource::Work, line, budget::SPIN_HINT.to_string());
                return false;
            }
            // What buffers may still take: the budget less the trace and the lane variables.
            self.trace.memory.limit_bytes = self
                .meter
                .limits
                .max_memory
                .saturating_sub(self.meter.bytes(0));
            // The statement about to run names a limit it hits (trace none records no step).
            let at_line = self.line_of(self.warps[w].pc);
            let recorded = self.exec(w);
            if self.meter.work_spent() {
                let line = at_line;
                self.limit(Resource::Work, line, budget::SPIN_HINT.to_string());
                return false;
            }
            // Checked after every statement, recorded or not: a statement that records no
            // step may still hold bytes (printed text, diagnostics).
            if !self.meter.fits(self.trace.memory.used_bytes, 0) {
                let line = self.trace.steps.last().map_or(1, |s| s.line);
                let what = format!(
                    "{} bytes of buffers, {} of lane variables and {} of trace and printed \
                     text ({} steps)",
                    self.trace.memory.used_bytes,
                    self.meter.var_bytes,
                    self.meter.trace_bytes,
                    self.trace.stats.steps
                );
                self.limit(Resource::Memory, line, what);
                return false;
            }
            if recorded {
                return true;
            }
        }
    }

    /// Ends the run with `outcome`, adding the summary of the diagnostics left out.
    pub(crate) fn finish(&mut self, outcome: Outcome) {
        let summary = self.diag_log.summary();
        self.trace.diagnostics.extend(summary);
        if let Outcome::Error(e) = &outcome {
            self.diag_log.admit(&KernelDiagnostic {
                line: e.line,
                col: e.col,
                level: Level::Error,
                message: format!("{} (stopped)", e.message),
                rule: String::new(),
            });
        }
        self.trace.merged_diagnostics = self.diag_log.merged();
        self.trace.outcome = Some(outcome);
    }

    /// Ends the run because `resource` ran out at `line`, hit by `what`.
    pub(crate) fn limit(&mut self, resource: Resource, line: u32, what: String) {
        let limits = &self.meter.limits;
        let limit = match resource {
            Resource::Work => limits.max_work,
            Resource::Memory => limits.max_memory,
            Resource::Depth => u64::from(limits.depth()),
            Resource::Tokens => limits.max_tokens,
            Resource::Code => limits.max_code,
            Resource::CallDepth => u64::from(limits.call_depth()),
        };
        let hit = LimitHit {
            resource,
            limit,
            line,
            what,
        };
        let d = KernelDiagnostic {
            line: line.max(1),
            col: 1,
            level: Level::Error,
            message: format!("{} (stopped)", hit.message()),
            rule: String::new(),
        };
        self.diag_log.admit(&d);
        self.trace.diagnostics.push(d);
        self.finish(Outcome::Limit(hit));
    }

    pub(crate) fn line_of(&self, pc: usize) -> u32 {
        self.pc_line[..=pc.min(self.pc_line.len().saturating_sub(1))]
            .iter()
            .rev()
            .find(|&&l| l > 0)
            .copied()
            .unwrap_or(1)
    }

    pub(crate) fn fail(&mut self, e: KernelError) {
        self.finish(Outcome::Error(e));
    }

    /// Picks the warp to run next, starting blocks and opening barriers as needed.
    pub(crate) fn schedule(&mut self) -> Option<usize> {
        loop {
            if self.warps.is_empty() {
                if !self.next_block() {
                    return None;
                }
                if self.trace.outcome.is_some() {
                    return None;
                }
                self.current = 0;
            }
            if self.warps.get(self.current).map(|w| w.run) == Some(WarpRun::Ready) {
                return Some(self.current);
            }
            let n = self.warps.len();
            if let Some(k) = (1..=n)
                .map(|d| (self.current + d) % n)
                .find(|&k| self.warps[k].run == WarpRun::Ready)
            {
                self.current = k;
                return Some(k);
            }
            if self.warps.iter().any(|w| w.run == WarpRun::AtBarrier) {
                if !self.open_barrier() {
                    return None;
                }
                self.current = 0;
                continue;
            }
            // Every warp of the block is done: its variables become the warp's final snapshot,
            // kept in the trace (and counted there).
            let lanes = self.trace.launch.lanes;
            let snapshot: u64 = self
                .warps
                .iter()
                .map(|w| {
                    w.vars
                        .iter()
                        .map(|r| r.row_bytes(&self.reasons))
                        .sum::<u64>()
                })
                .sum();
            if !self.meter.fits(
                self.trace.memory.used_bytes,
                snapshot.saturating_sub(self.meter.var_bytes),
            ) {
                let what = format!(
                    "the final variables of block {} ({} warps) kept beside {} earlier blocks'",
                    self.block,
                    self.warps.len(),
                    self.block
                );
                self.warps.clear();
                self.meter.var_bytes = 0;
                self.limit(Resource::Memory, 0, what);
                return None;
            }
            self.meter.var_bytes = 0;
            self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(snapshot);
            for w in std::mem::take(&mut self.warps) {
                let vars = self
                    .slots
                    .iter()
                    .enumerate()
                    .filter(|(id, _)| !w.in_memory(*id))
                    .map(|(id, s)| {
                        (
                            s.name.clone(),
                            w.vars.get(id).map_or_else(
                                || vec![Err(Undef::idle()); lanes],
                                |_| self.shown_row(&w, id),
                            ),
                        )
                    })
                    .collect();
                self.trace.warps.push(WarpState {
                    block: self.block,
                    warp: w.index,
                    vars,
                });
            }
            self.block_ended();
        }
    }

    pub(crate) fn start_block(&mut self) -> Result<(), KernelError> {
        self.barrier_round = BarrierRound::default();
        self.spin = Default::default();
        self.warp_race = Default::default();
        self.race.start_block(self.trace.launch.warps_per_block);
        let launch = &self.trace.launch;
        let lanes = launch.lanes;
        let threads = super::host_launch::dims_total(launch.block_dim).unwrap_or(0);
        // Each variable is a register of raw bits per lane: count the bytes before allocating
        // them.
        let per_warp: u64 = self
            .slots
            .iter()
            .map(|s| Reg::bytes(Some(s.ty), lanes))
            .sum();
        let need = per_warp.saturating_mul(launch.warps_per_block as u64);
        if !self.meter.fits(self.trace.memory.used_bytes, need) {
            let what = format!(
                "the lane variables of block {} ({} warps x {} variables x {lanes} lanes = {need} bytes)",
                self.block,
                launch.warps_per_block,
                self.slots.len()
            );
            self.limit(Resource::Memory, 0, what);
            return Ok(());
        }
        self.meter.var_bytes = need;
        for wi in 0..launch.warps_per_block {
            let mut exists = LaneMask::none();
            for l in 0..lanes {
                if wi * lanes + l < threads {
                    exists = exists.with(l);
                }
            }
            // Every lane of a variable starts undefined: "`name` is not declared yet".
            let mut vars: Vec<Reg> = Vec::with_capacity(self.slots.len());
            for s in &self.slots {
                let (id, bytes) = self.reasons.intern(&Undef {
                    line: 0,
                    col: 0,
                    why: format!("`{}` is not declared yet", s.name),
                    uninit: true,
                });
                self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(bytes);
                vars.push(Reg::new(Some(s.ty), lanes, id));
            }
            let mut refs = HashMap::new();
            for (id, p) in &self.params {
                if let Some(&buf) = self.global_bufs.get(&p.name) {
                    let Ty::Ptr(elem) = p.ty else { continue };
                    if p.reference {
                        refs.insert(*id, buf);
                    } else if let Some(r) = vars.get_mut(*id) {
                        for l in 0..lanes {
                            r.set_val(
                                l,
                                KVal::Ptr {
                                    elem,
                                    buf,
                                    offset: self.config.views.get(&p.name).map_or(0, |v| v.1),
                                },
                            );
                        }
                    }
                    continue;
                }
                let Ty::Val(vt) = p.ty else { continue };
                // A scalar nobody set is undefined, naming how to set it.
                let text = match self.config.args.get(&p.name) {
                    Some(t) => t.as_str(),
                    None if !self.snippet || vt.lanes > 1 => {
                        // A `__global__` kernel's (`host_launch::default_lane_operands` gave the
                        // others theirs).
                        let why = Undef::at(
                            p.span,
                            super::host_launch::unset_reason(&p.name, vt.lanes > 1),
                        );
                        if let Some(r) = vars.get_mut(*id) {
                            for l in 0..lanes {
                                let bytes = r.set(l, Err(why.clone()), &mut self.reasons);
                                self.meter.trace_bytes =
                                    self.meter.trace_bytes.saturating_add(bytes);
                            }
                        }
                        continue;
                    }
                    None => "lane",
                };
                if let Some(cells) = super::host_launch::vector_arg(p, vt, text, lanes)? {
                    if let Some(r) = vars.get_mut(*id) {
                        for (l, v) in cells.into_iter().enumerate() {
                            let bytes = r.set(l, v, &mut self.reasons);
                            self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(bytes);
                        }
                    }
                    continue;
                }
                let core_ty = if vt.scalar.is_float() {
                    ValueType::F64
                } else {
                    ValueType::I64
                };
                // A `bool` takes C++'s literals too (`--arg flag=false`).
                let text = match (vt.scalar, text) {
                    (super::types::Scalar::Bool, "true") => "1",
                    (super::types::Scalar::Bool, "false") => "0",
                    _ => text,
                };
                let spec = ValuesSpec::parse(text)
                    .map_err(|e| KernelError::new(p.span.line, p.span.col, e.to_string()))?;
                let spec = match spec {
                    ValuesSpec::List(items) if items.len() == 1 => {
                        ValuesSpec::List(vec![items[0].clone(); lanes])
                    }
                    other => other,
                };
                let row = spec.materialize(core_ty, lanes).map_err(|e| {
                    KernelError::new(p.span.line, p.span.col, format!("{}: {e}", p.name))
                })?;
                if let Some(r) = vars.get_mut(*id) {
                    for (l, v) in row.into_iter().enumerate() {
                        let v = KVal::from_core(v)
                            .convert(vt)
                            .map_err(|f| Undef::at(p.span, f.message));
                        let bytes = r.set(l, v, &mut self.reasons);
                        self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(bytes);
                    }
                }
            }
            self.warps.push(Warp {
                index: wi,
                exists,
                pc: 0,
                frames: Vec::new(),
                status: vec![LaneStatus::Running; lanes],
                vars,
                refs,
                lane_refs: HashMap::new(),
                run: WarpRun::Ready,
                held: None,
                met: HashMap::new(),
                parked: None,
            });
        }
        Ok(())
    }

    /// The source text from `span` to `end`, whitespace collapsed, at most 200 characters.
    /// Reads only those lines (through `line_starts`), never the whole source: it runs once per
    /// step.
    pub(crate) fn text(&self, span: Span, end: Span) -> String {
        // A synthesized node's or a macro expansion's columns map back to the source's.
        let (span, end) = (span.shown(), end.shown());
        let line_chars = |n: u32| -> &[char] {
            let k = (n as usize).saturating_sub(1);
            let (Some(&from), to) = (
                self.line_starts.get(k),
                self.line_starts
                    .get(k + 1)
                    .map_or(self.chars.len(), |e| e.saturating_sub(1)),
            ) else {
                return &[];
            };
            let line = &self.chars[from.min(to)..to];
            line.strip_suffix(&['\r']).unwrap_or(line)
        };
        let mut out = String::new();
        for n in span.line..=end.line {
            let chars = line_chars(n);
            let from = if n == span.line {
                (span.col as usize).saturating_sub(1)
            } else {
                0
            };
            let to = if n == end.line {
                (end.col as usize).saturating_sub(1).min(chars.len())
            } else {
                chars.len()
            };
            if from < to {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.extend(&chars[from..to]);
            }
            if out.len() > 400 || n > span.line.saturating_add(400) {
                break;
            }
        }
        let collapsed: Vec<&str> = out.split_whitespace().collect();
        let mut t = collapsed.join(" ");
        if t.chars().count() > 200 {
            t = t.chars().take(200).collect::<String>() + "…";
        }
        t
    }

    /// Executes one instruction of warp `w`; returns whether it recorded a step.
    pub(crate) fn exec(&mut self, w: usize) -> bool {
        let pc = self.warps[w].pc;
        self.cur = self.code_inst.get(pc).copied().unwrap_or(0);
        let code = Rc::clone(&self.code);
        let Some(inst) = code.get(pc) else {
            self.warps[w].run = WarpRun::Done;
            return false;
        };
        let structural = matches!(
            inst,
            Inst::ThenEnd
                | Inst::Join
                | Inst::LoopCont
                | Inst::LoopExit
                | Inst::Jump(_)
                | Inst::End
        );
        if !structural && self.warps[w].active().0 == 0 {
            self.unwind(w);
            return false;
        }
        let active = self.warps[w].active();
        if matches!(inst, Inst::Eval { .. } | Inst::Decl { .. }) && self.try_hold(w, pc, active) {
            return false;
        }
        // A joint exchange or a held call's delivery runs on the general evaluator.
        let typed_ok = self.warps[w].held.is_none() && self.warps[w].met.is_empty();
        let mut cx = StepCtx::default();
        let recorded: Option<(Span, Span)> = match *inst {
            Inst::Decl {
                span,
                end,
                storage,
                ref decls,
                owner,
            } => {
                if !(typed_ok && self.typed_store(w, pc, active, &mut cx)) {
                    for d in decls {
                        self.declare(w, d, (storage, owner), active, &mut cx);
                    }
                }
                self.warps[w].pc += 1;
                Some((span, end))
            }
            Inst::Eval {
                span,
                end,
                ref expr,
            } => {
                if typed_ok && self.typed_store(w, pc, active, &mut cx) {
                    self.warps[w].pc += 1;
                    return self.finish_step(w, (span, end), active, cx);
                }
                match self.barrier_call(w, expr, active, &mut cx) {
                    // Lanes parked in a spin loop would never reach it (`machine/spin.rs`).
                    Some(true) if self.warps[w].parked.is_some() => {
                        let p = self.warps[w].parked.take();
                        if let Some(p) = p {
                            self.fail(crate::KernelError::new(p.line, 1, p.message));
                        }
                        return false;
                    }
                    // The warp waits; the pc stays on the barrier until it opens.
                    Some(true) => {}
                    Some(false) => self.warps[w].pc += 1,
                    None => {
                        self.eval(w, expr, active, &mut cx);
                        self.warps[w].pc += 1;
                    }
                }
                Some((span, end))
            }
            Inst::Branch {
                span,
                end,
                ref cond,
                else_pc,
                join_pc,
            } => {
                let (t, f) = match self.typed_cond(w, pc, active) {
                    Some(tf) => tf,
                    None => self.condition(w, cond, active, &mut cx),
                };
                let warp = &mut self.warps[w];
                let (cur, in_else, pc) = if t.0 != 0 {
                    (t, false, pc + 1)
                } else {
                    (f, true, else_pc)
                };
                warp.frames.push(Frame::If {
                    cur,
                    else_mask: f,
                    else_pc,
                    join_pc,
                    in_else,
                    line: span.line,
                });
                warp.pc = if cur.0 == 0 { join_pc } else { pc };
                Some((span, end))
            }
            Inst::ThenEnd => {
                let warp = &mut self.warps[w];
                if !warp.leave_branch() {
                    warp.pc += 1;
                }
                None
            }
            Inst::Join => {
                let warp = &mut self.warps[w];
                // Lanes held at a warp-synchronous call resume there (`machine::converge`).
                if warp
                    .held
                    .as_ref()
                    .is_some_and(|h| h.depth == warp.frames.len())
                {
                    warp.leave_branch();
                    return false;
                }
                warp.frames.pop();
                warp.pc += 1;
                None
            }
            Inst::LoopEnter {
                id,
                cont_pc,
                exit_pc,
                line,
            } => {
                let warp = &mut self.warps[w];
                warp.frames.push(Frame::Loop {
                    id,
                    mask: active,
                    cont_pc,
                    exit_pc,
                    line,
                });
                warp.pc += 1;
                None
            }
            Inst::LoopTest {
                span,
                end,
                ref cond,
            } => {
                if let Some(c) = cond {
                    let (_, f) = match self.typed_cond(w, pc, active) {
                        Some(tf) => tf,
                        None => self.condition(w, c, active, &mut cx),
                    };
                    self.leave_loop(w, f);
                }
                if self.warps[w].active().0 != 0 {
                    if let Some(e) = self.spin_repeats(w, pc) {
                        self.fail(e);
                        return false;
                    }
                }
                let warp = &mut self.warps[w];
                if warp.active().0 == 0 {
                    warp.pc = match warp.frames.last() {
                        Some(Frame::Loop { exit_pc, .. }) => *exit_pc,
                        _ => pc + 1,
                    };
                } else {
                    warp.pc += 1;
                }
                Some((span, end))
            }
            Inst::LoopBack {
                span,
                end,
                ref cond,
                target,
            } => {
                let (_, f) = match self.typed_cond(w, pc, active) {
                    Some(tf) => tf,
                    None => self.condition(w, cond, active, &mut cx),
                };
                self.leave_loop(w, f);
                if self.warps[w].active().0 != 0 {
                    if let Some(e) = self.spin_repeats(w, pc) {
                        self.fail(e);
                        return false;
                    }
                }
                let warp = &mut self.warps[w];
                warp.pc = if warp.active().0 != 0 { target } else { pc + 1 };
                Some((span, end))
            }
            Inst::LoopCont => {
                let warp = &mut self.warps[w];
                if let Some(Frame::Loop {
                    id, mask, exit_pc, ..
                }) = warp.frames.last().cloned()
                {
                    for l in mask.iter() {
                        if warp.status.get(l) == Some(&LaneStatus::Continued(id)) {
                            warp.status[l] = LaneStatus::Running;
                        }
                    }
                    warp.pc = if warp.active().0 == 0 {
                        exit_pc
                    } else {
                        pc + 1
                    };
                } else {
                    warp.pc += 1;
                }
                None
            }
            Inst::LoopExit => {
                let warp = &mut self.warps[w];
                if let Some(Frame::Loop { id, mask, .. }) = warp.frames.pop() {
                    for l in mask.iter() {
                        if matches!(
                            warp.status.get(l),
                            Some(LaneStatus::Broke(i) | LaneStatus::Continued(i)) if *i == id
                        ) {
                            warp.status[l] = LaneStatus::Running;
                        }
                    }
                }
                warp.pc += 1;
                None
            }
            Inst::Jump(t) => {
                self.warps[w].pc = t;
                None
            }
            Inst::Break { span, end, cont } => {
                let warp = &mut self.warps[w];
                match warp.innermost_loop() {
                    Some(id) => {
                        for l in active.iter() {
                            if let Some(s) = warp.status.get_mut(l) {
                                *s = if cont {
                                    LaneStatus::Continued(id)
                                } else {
                                    LaneStatus::Broke(id)
                                };
                            }
                        }
                    }
                    None => cx.note(
                        Level::Error,
                        span,
                        format!(
                            "`{}` outside a loop",
                            if cont { "continue" } else { "break" }
                        ),
                        "",
                        None,
                    ),
                }
                warp.pc += 1;
                Some((span, end))
            }
            Inst::Return {
                span,
                end,
                ref value,
                target,
            } => {
                let slot = match target {
                    Some((_, slot)) => slot,
                    None => self.ret_slot,
                };
                if let Some(v) = value {
                    let vals = self.eval(w, v, active, &mut cx);
                    if let Some(slot) = slot {
                        for l in active.iter() {
                            let val = vals.get(l).cloned().unwrap_or_else(|| Err(Undef::idle()));
                            let _ = self.store_var(w, slot, l, val, span, &mut cx);
                        }
                    }
                }
                let warp = &mut self.warps[w];
                // Returning from an inlined call parks the lane until the call's end.
                let status = match target {
                    Some((id, _)) => LaneStatus::Broke(id),
                    None => LaneStatus::Returned,
                };
                for l in active.iter() {
                    if let Some(s) = warp.status.get_mut(l) {
                        *s = status;
                    }
                }
                warp.pc += 1;
                Some((span, end))
            }
            Inst::Bind {
                span,
                end,
                slot,
                ref expr,
                quiet,
            } => {
                self.param_in_memory(w, slot, span, active, &mut cx);
                let vals = self.eval(w, expr, active, &mut cx);
                for l in active.iter() {
                    let val = vals.get(l).cloned().unwrap_or_else(|| Err(Undef::idle()));
                    let _ = self.store_var(w, slot, l, val, span, &mut cx);
                }
                self.warps[w].pc += 1;
                // A hidden parameter's binding is no statement of the user's: no step, unless
                // it has something to say.
                if quiet && cx.diags.is_empty() && cx.writes.is_empty() && cx.ops.is_empty() {
                    return false;
                }
                Some((span, end))
            }
            Inst::CallTooDeep {
                span,
                ref name,
                nesting,
            } => {
                self.call_too_deep(span, name, nesting, active);
                return false;
            }
            Inst::End => {
                if !self.warps[w].resume_parked() {
                    self.warps[w].run = WarpRun::Done;
                }
                None
            }
        };
        let Some(at) = recorded else {
            return false;
        };
        self.finish_step(w, at, active, cx)
    }

    /// The end of a statement: a warp that reached a barrier waits, and the step is recorded.
    fn finish_step(
        &mut self,
        w: usize,
        at: (Span, Span),
        active: LaneMask,
        mut cx: StepCtx,
    ) -> bool {
        let (span, end) = crate::lib_site::relocate(&self.lib_sites, self.cur, at, &mut cx.diags);
        if cx.barrier {
            self.warps[w].run = WarpRun::AtBarrier;
        }
        // The first error of the step ends the run there (unless the launch keeps going): a run
        // that met an error must not report "finished" with buffers silently wrong.
        let fatal = if self.config.keep_going {
            None
        } else {
            cx.diags
                .iter()
                .find(|d| d.0 == Level::Error)
                .map(|d| KernelError::new(d.1.line, d.1.col, d.2.clone()))
        };
        self.record(w, span, end, active, cx);
        if let Some(e) = fatal {
            self.fail(e);
        }
        true
    }

    /// Every variable of warp `warp` (index within the block running now), each with its value
    /// in every lane, in slot order; empty when no such warp is running.
    pub(crate) fn warp_vars(&self, warp: usize) -> Vec<VarChange> {
        let Some(w) = self.warps.iter().find(|w| w.index == warp) else {
            return Vec::new();
        };
        self.slots
            .iter()
            .zip(&w.vars)
            .enumerate()
            .filter(|(id, _)| !w.in_memory(*id))
            .map(|(_, (s, r))| VarChange {
                name: s.name.clone(),
                values: r.row(&self.reasons),
            })
            .collect()
    }

    /// Under [`TraceMode::None`]: a step's diagnostics go to the trace's top level, each
    /// distinct one once (the log counts the repeats and summarizes them at the end).
    pub(crate) fn record_diagnostics_only(&mut self, lanes: usize, diags: Vec<StepDiag>) {
        for d in crate::machine::step_diagnostics(lanes, diags) {
            let before = self.diag_log.distinct();
            if self.diag_log.admit(&d) && self.diag_log.distinct() > before {
                self.meter.trace_bytes = self
                    .meter
                    .trace_bytes
                    .saturating_add(budget::diagnostic_bytes(&d));
                self.trace.diagnostics.push(d);
            }
        }
    }

    /// Charges the work of `n` notes a step made (one per lane a diagnostic concerns): each is
    /// formatted, keyed and merged whether or not it is kept, which costs far more than a
    /// statement ([`budget::DIAGNOSTIC_WORK`]), so a loop raising one per step ends in time.
    pub(crate) fn charge_diagnostics(&mut self, n: u64) {
        self.meter.work(budget::DIAGNOSTIC_WORK.saturating_mul(n));
    }
}
