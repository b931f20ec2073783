//! Budgets on the work a kernel may cost, so that no source or launch can hang or exhaust the
//! page or the CLI: tokens (lexing and macro expansion), syntax nesting, instructions after
//! inlining, instructions executed, bytes of memory, and diagnostics kept.
//!
//! Each budget has a default no real kernel reaches (the seed kernels use well under 1 % of
//! each) and can be raised (CLI flags `--max-work`, `--max-memory`, …; the page's fields). A
//! budget that runs out ends the run or the parse with a [`LimitHit`]: which limit, what hit it,
//! and how to raise it. The executor and the parser call [`Meter`]; the accounting lives here,
//! not in the engine, so that a new engine keeps it.
//!
//! Memory is counted in bytes of the interpreter's own data: buffer cells, per-lane variables,
//! the recorded trace (steps, their lane values, operations and diagnostics) and the final warp
//! snapshots. The sizes are the in-memory sizes of those values on a 64-bit host ([`size`] plus their
//! heap parts), so the count follows what the process really holds, within a small factor.

use serde::{Deserialize, Serialize};

use super::lane_val::LaneVal;
use super::types::{KVal, ValTy};
use super::KernelDiagnostic;

/// What a run out of work was doing: a spin on a flag another block or warp writes never sees
/// the write here (blocks run in turn, a warp yields only at a barrier), as it would on a device.
pub(crate) const SPIN_HINT: &str = "the statements running (an endless loop? Or a loop waiting \
     for another block or warp to write a flag: blocks run one after another and a warp yields \
     only at a barrier here, so such a wait never ends)";

/// The budgets of one parse and run. Every field is a ceiling; see [`Limits::default`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Most units of work executed: one per statement, branch or loop test of a warp, and one
    /// per expression node it evaluates (`--max-work`). An endless loop ends here.
    pub max_work: u64,
    /// Most bytes of memory: buffers, per-lane variables, the trace, warp snapshots and
    /// diagnostics (`--max-memory`).
    pub max_memory: u64,
    /// Deepest syntax tree: nesting of statements and expressions, where a flat chain
    /// (`1+1+…`, `a[0][0]…`, a comma list) counts one level per operator (`--max-depth`). At
    /// most [`DEPTH_CEILING`], which keeps the stack safe under wasm.
    pub max_depth: u32,
    /// Most tokens after macro expansion, counting every expansion call too, so that macros
    /// that expand to nothing still cost (`--max-tokens`).
    pub max_tokens: u64,
    /// Most instructions after inlining device functions, each weighted by its expression
    /// nodes (`--max-code`): breadth of inlining as well as depth.
    pub max_code: u64,
    /// Most distinct diagnostics kept (per line, column, rule and message); the rest are
    /// counted and summarized as "and N more" (`--max-diagnostics`).
    pub max_diagnostics: u64,
    /// Deepest chain of device-function calls, recursion included (`--max-call-depth`). CUDA
    /// device code may recurse (CUDA C++ Programming Guide, "C++ Language Support",
    /// recursion: compute capability 2.x and up, each thread's stack sized by
    /// `cudaLimitStackSize`); here each call is inlined when the kernel is compiled, one copy
    /// per level, so a recursive function is inlined this many levels deep and a run whose
    /// recursion goes deeper stops there with this budget named (a device would run out of
    /// stack at some depth too). Inlining nests statements, so the compiler's own recursion is
    /// also bounded by [`Limits::max_depth`] (which keeps the stack safe under wasm), and its
    /// code by [`Limits::max_code`]: a function calling itself twice doubles its code per
    /// level. At most [`DEPTH_CEILING`].
    pub max_call_depth: u32,
}

/// The deepest syntax tree accepted whatever `max_depth` says: each level costs a few stack
/// frames in the parser, the compiler, the evaluator and `Drop`, and wasm's stack is 1 MiB.
/// Measured in an optimized native build on a 1 MiB stack: evaluation survives a tree 800 deep
/// and overflows at 1600; parsing survives 400 nested parentheses (1200 parser levels). 512
/// leaves room. `tests/kernel_budgets.rs` runs trees this deep on a 1 MiB stack (16 MiB in a
/// debug build, whose frames are about ten times larger; the CLI runs on a 64 MiB stack).
pub const DEPTH_CEILING: u32 = 512;

impl Default for Limits {
    /// Defaults far above the seed kernels (the longest seed run takes about 2 000 units of
    /// work and 100 KiB) and small enough to end within seconds in a page.
    fn default() -> Self {
        Limits {
            max_work: 20_000_000,
            max_memory: 256 << 20,
            max_depth: 256,
            max_tokens: 2_000_000,
            max_code: 2_000_000,
            max_diagnostics: 1_000,
            max_call_depth: 64,
        }
    }
}

impl Limits {
    /// The depth actually enforced: `max_depth` capped at [`DEPTH_CEILING`].
    pub fn depth(&self) -> u32 {
        self.max_depth.min(DEPTH_CEILING)
    }

    /// The call depth actually enforced: `max_call_depth` capped at [`DEPTH_CEILING`].
    pub fn call_depth(&self) -> u32 {
        self.max_call_depth.min(DEPTH_CEILING)
    }

    /// The budgets in field order: work, memory, depth, tokens, code, diagnostics, call depth.
    pub fn values(&self) -> [u64; 7] {
        [
            self.max_work,
            self.max_memory,
            u64::from(self.max_depth),
            self.max_tokens,
            self.max_code,
            self.max_diagnostics,
            u64::from(self.max_call_depth),
        ]
    }

    /// The first budget above `ceiling`: its field name, its flag, the value asked for and
    /// the ceiling; `None` when every budget is within it.
    pub fn above(&self, ceiling: &Limits) -> Option<(&'static str, &'static str, u64, u64)> {
        let pairs = [
            ("max_work", "--max-work", self.max_work, ceiling.max_work),
            (
                "max_memory",
                "--max-memory",
                self.max_memory,
                ceiling.max_memory,
            ),
            (
                "max_depth",
                "--max-depth",
                u64::from(self.max_depth),
                u64::from(ceiling.max_depth),
            ),
            (
                "max_tokens",
                "--max-tokens",
                self.max_tokens,
                ceiling.max_tokens,
            ),
            ("max_code", "--max-code", self.max_code, ceiling.max_code),
            (
                "max_diagnostics",
                "--max-diagnostics",
                self.max_diagnostics,
                ceiling.max_diagnostics,
            ),
            (
                "max_call_depth",
                "--max-call-depth",
                u64::from(self.max_call_depth),
                u64::from(ceiling.max_call_depth),
            ),
        ];
        pairs.into_iter().find(|p| p.2 > p.3)
    }
}

/// Units of work one diagnostic note costs (one per lane it concerns, beside its statement's):
/// a note is formatted, keyed and merged into the log whether or not it is kept, which takes
/// some tens of statements' time; without the charge a loop raising one per step
/// (`for (;;) x = 1 / 0;`) ran for minutes inside the default work budget.
pub const DIAGNOSTIC_WORK: u64 = 32;

/// Units of work one lane's `printf` call costs (beside its arguments and one unit per 16
/// bytes printed): parsing the format and formatting, kept or not (past
/// `printf::MAX_PRINTF_LINES` a line is dropped, its call still runs).
pub const PRINTF_WORK: u64 = 32;

/// Units of work one recorded memory write (a store or an atomic, per lane) or one
/// cross-lane operation of a step costs, beside the statement's: each is checked, applied and
/// recorded (an `atomicAdd` in an endless loop writes every lane every step).
pub const MEMORY_OP_WORK: u64 = 8;

/// Units of work one barrier round of a warp costs: the scheduler parks the warp, checks every
/// warp of the block and notes the wait.
pub const BARRIER_WORK: u64 = 64;

/// The highest budgets the CLI accepts from a flag or a scenario (a link's budgets are data:
/// they may raise a budget only this far). Sized so that a stop at the ceiling still comes
/// within minutes and memory a workstation has: 10^10 units of work (a release build runs some
/// 10^7–10^8 a second), 8 GiB, 10^8 tokens and instructions, 10^6 diagnostics; depth at
/// [`DEPTH_CEILING`] (the stack).
pub const CLI_CEILING: Limits = Limits {
    max_work: 10_000_000_000,
    max_memory: 8 << 30,
    max_depth: DEPTH_CEILING,
    max_tokens: 100_000_000,
    max_code: 100_000_000,
    max_diagnostics: 1_000_000,
    max_call_depth: DEPTH_CEILING,
};

/// The highest budgets the page accepts (its fields, a link, the JS API): lower than the
/// CLI's, because the page's wasm memory is at most 4 GiB and shared with the page itself,
/// and a run in the worker should stop within seconds: 10^9 units of work, 1 GiB, 2·10^7
/// tokens and instructions, 10^5 diagnostics.
pub const PAGE_CEILING: Limits = Limits {
    max_work: 1_000_000_000,
    max_memory: 1 << 30,
    max_depth: DEPTH_CEILING,
    max_tokens: 20_000_000,
    max_code: 20_000_000,
    max_diagnostics: 100_000,
    max_call_depth: DEPTH_CEILING,
};

/// The highest budgets of a JavaScript library call on the caller's thread (`runKernel`
/// without `{ worker: true }`, `<crosslane-kernel>`): a call there must return or throw within
/// about a second, because nothing can interrupt it. The seed kernels use at most some 2 000
/// units of work and 100 KiB, so 10^6 units, 1 MiB (the trace is also converted into
/// JavaScript objects after the run, which takes time in proportion: 4 MiB took seconds on a
/// busy machine),
/// 8·10^4 tokens and instructions (64 KiB of C++ is some 16 000 tokens; a WGSL function may
/// then hold 2 000, which naga prepares well within the second) and 1 000 diagnostics leave
/// real kernels room. Work is not time everywhere (a statement that changes a variable in 32
/// lanes costs one unit and far more time than a unit of a memory operation), so the library
/// also stops a run on the caller's thread by the clock (`crosslane-web`'s
/// `MAIN_THREAD_RUN_MS`); the worker form has [`PAGE_CEILING`].
pub const MAIN_THREAD_CEILING: Limits = Limits {
    max_work: 1_000_000,
    max_memory: 1 << 20,
    max_depth: 256,
    max_tokens: 80_000,
    max_code: 80_000,
    max_diagnostics: 1_000,
    max_call_depth: 64,
};

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// [`Limits::max_work`].
    Work,
    /// [`Limits::max_memory`].
    Memory,
    /// [`Limits::max_depth`].
    Depth,
    /// [`Limits::max_tokens`].
    Tokens,
    /// [`Limits::max_code`].
    Code,
    /// [`Limits::max_call_depth`].
    CallDepth,
}

impl Resource {
    /// The CLI flag that raises it.
    pub fn flag(self) -> &'static str {
        match self {
            Resource::Work => "--max-work",
            Resource::Memory => "--max-memory",
            Resource::Depth => "--max-depth",
            Resource::Tokens => "--max-tokens",
            Resource::Code => "--max-code",
            Resource::CallDepth => "--max-call-depth",
        }
    }

    /// What it counts, in words.
    pub fn unit(self) -> &'static str {
        match self {
            Resource::Work => "units of work (statements and expression nodes executed)",
            Resource::Memory => "bytes of memory (buffers, lane variables, trace)",
            Resource::Depth => "levels of nesting",
            Resource::Tokens => "tokens after macro expansion",
            Resource::Code => "instructions after inlining",
            Resource::CallDepth => "nested device-function calls",
        }
    }
}

/// How every [`LimitHit::message`] ends.
const LIMIT_MESSAGE_END: &str = " (or the page's limits)";

/// A budget that ran out: which, its limit, and what hit it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LimitHit {
    /// The budget.
    pub resource: Resource,
    /// Its limit.
    pub limit: u64,
    /// Line (1-based) being parsed or executed when it ran out (0 when none).
    pub line: u32,
    /// What hit it, in words ("the loop at line 3", "buffer `dst` of 4294967296 cells").
    pub what: String,
}

impl LimitHit {
    /// Whether `message` is a [`LimitHit::message`] (a launch can only report a budget through
    /// a [`crate::KernelError`]'s text): a budget stops a run as an error, whatever input
    /// made the work large, so a consumer (the CLI's exit status) must not take it for a fault
    /// of a flag.
    pub fn is_message(message: &str) -> bool {
        message.contains(" reached by ") && message.ends_with(LIMIT_MESSAGE_END)
    }

    /// One sentence: the limit, what hit it and how to raise it.
    pub fn message(&self) -> String {
        format!(
            "{} limit of {} {} reached by {}{}; raise it with {}{LIMIT_MESSAGE_END}",
            match self.resource {
                Resource::Work => "work",
                Resource::Memory => "memory",
                Resource::Depth => "nesting",
                Resource::Tokens => "token",
                Resource::Code => "code",
                Resource::CallDepth => "call depth",
            },
            self.limit,
            self.resource.unit(),
            self.what,
            if self.line > 0 {
                format!(" at line {}", self.line)
            } else {
                String::new()
            },
            self.resource.flag()
        )
    }
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

/// Counts work and bytes against [`Limits`].
#[derive(Clone, Debug, Default)]
pub struct Meter {
    /// The limits.
    pub limits: Limits,
    /// Work done so far.
    pub work: u64,
    /// Bytes held by the trace (steps and warp snapshots), which only grows.
    pub trace_bytes: u64,
    /// Bytes of the live per-lane variables of the block running.
    pub var_bytes: u64,
    /// Bytes of the per-lane variables of the blocks parked at `grid.sync()`, waiting for the
    /// rest of the grid (CUDA C++ Programming Guide, Cooperative Groups, Grid Synchronization).
    pub parked_bytes: u64,
}

impl Meter {
    /// A meter at zero.
    pub fn new(limits: Limits) -> Self {
        Meter {
            limits,
            ..Meter::default()
        }
    }

    /// Adds `n` units of work; false once the work budget is spent.
    pub fn work(&mut self, n: u64) -> bool {
        self.work = self.work.saturating_add(n);
        self.work <= self.limits.max_work
    }

    /// Whether `n` more units of work fit in the budget (nothing is charged).
    pub fn can_work(&self, n: u64) -> bool {
        self.work.saturating_add(n) <= self.limits.max_work
    }

    /// Whether the work budget is spent.
    pub fn work_spent(&self) -> bool {
        self.work > self.limits.max_work
    }

    /// Total bytes with `memory` bytes of buffers.
    pub fn bytes(&self, memory: u64) -> u64 {
        memory
            .saturating_add(self.trace_bytes)
            .saturating_add(self.var_bytes)
            .saturating_add(self.parked_bytes)
    }

    /// Whether `extra` more bytes fit beside `memory` bytes of buffers.
    pub fn fits(&self, memory: u64, extra: u64) -> bool {
        self.bytes(memory).saturating_add(extra) <= self.limits.max_memory
    }
}

/// The in-memory sizes the meter counts, in bytes, as they are on a 64-bit host. They are fixed
/// numbers rather than `size_of` so that the page (wasm32, 4-byte pointers) and the CLI count the
/// same bytes and stop a link at the same point; a unit test keeps them equal to `size_of` on
/// 64-bit hosts.
pub mod size {
    /// `Option<KVal>`: one scalar buffer cell.
    pub const OPTION_KVAL: u64 = 32;
    /// `KVal`: one value.
    pub const KVAL: u64 = 32;
    /// `LaneVal`: one lane's value or undefined reason.
    pub const LANE_VAL: u64 = 40;
    /// `Vec<_>`: a row's header.
    pub const VEC: u64 = 24;
    /// `KernelStep`: one recorded step's fixed part.
    pub const KERNEL_STEP: u64 = 176;
    /// `LaneRow`: one recorded variable's row, its lanes aside.
    pub const LANE_ROW: u64 = 96;
    /// `CellWrite`: one recorded memory write.
    pub const CELL_WRITE: u64 = 32;
    /// `MemWrite`: one memory write as the machine reports it.
    pub const MEM_WRITE: u64 = 56;
    /// `trace::Step`: one recorded cross-lane operation's fixed part.
    pub const STEP: u64 = 176;
    /// `KernelDiagnostic`: one diagnostic's fixed part.
    pub const DIAGNOSTIC: u64 = 64;
}

/// Bytes of one buffer cell of element type `elem` (a vector cell holds its components on the
/// heap).
pub fn cell_bytes(elem: ValTy) -> u64 {
    let base = size::OPTION_KVAL;
    if elem.lanes > 1 {
        base + u64::from(elem.lanes) * size::KVAL
    } else {
        base
    }
}

/// Bytes of a value, heap parts included.
pub fn kval_bytes(v: &KVal) -> u64 {
    let base = size::KVAL;
    match v {
        KVal::Vector { items, .. } => base + items.iter().map(kval_bytes).sum::<u64>(),
        _ => base,
    }
}

/// Bytes of one lane value, its undefined reason included.
pub fn lane_bytes(v: &LaneVal) -> u64 {
    match v {
        Ok(k) => kval_bytes(k) + (size::LANE_VAL - size::KVAL),
        Err(u) => size::LANE_VAL + u.why.len() as u64,
    }
}

/// Bytes of a row of lane values.
pub fn lanes_bytes(row: &[LaneVal]) -> u64 {
    size::VEC + row.iter().map(lane_bytes).sum::<u64>()
}

/// Bytes of a kept diagnostic, its message and rule included.
pub fn diagnostic_bytes(d: &KernelDiagnostic) -> u64 {
    size::DIAGNOSTIC + (d.message.len() + d.rule.len()) as u64
}

#[cfg(test)]
mod ceiling_tests {
    use super::*;

    #[test]
    fn ceilings_hold_the_defaults_and_the_page_is_lower() {
        assert_eq!(Limits::default().above(&PAGE_CEILING), None);
        assert_eq!(PAGE_CEILING.above(&CLI_CEILING), None);
        let l = Limits {
            max_memory: u64::MAX,
            ..Limits::default()
        };
        assert_eq!(
            l.above(&CLI_CEILING),
            Some(("max_memory", "--max-memory", u64::MAX, 8 << 30))
        );
    }
}

#[cfg(all(test, target_pointer_width = "64"))]
mod tests {
    use super::size;
    use crate::trace::LaneVal;
    use crate::{KVal, KernelDiagnostic};
    use std::mem::size_of;

    /// The fixed sizes are this 64-bit host's: the meter counts what the process holds here.
    #[test]
    fn fixed_sizes_are_the_64_bit_host_sizes() {
        assert_eq!(size::OPTION_KVAL, size_of::<Option<KVal>>() as u64);
        assert_eq!(size::KVAL, size_of::<KVal>() as u64);
        assert_eq!(size::LANE_VAL, size_of::<LaneVal>() as u64);
        assert_eq!(size::VEC, size_of::<Vec<LaneVal>>() as u64);
        assert_eq!(size::STEP, size_of::<crosslane_core::trace::Step>() as u64);
        assert_eq!(size::DIAGNOSTIC, size_of::<KernelDiagnostic>() as u64);
    }
}
