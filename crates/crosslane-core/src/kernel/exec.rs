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
//! Everything is bounded by [`super::budget::Limits`]: work (an endless loop ends with a message
//! naming its line), bytes of memory plus the recorded trace, code after inlining, diagnostics
//! ([`super::diaglog`]). The accounting is [`super::budget::Meter`]'s; this engine only calls it.
//! [`Executor::step`] and [`Executor::run_for`] let a page run a kernel in slices.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::ast::*;
use super::budget::{self, LimitHit, Limits, Meter, Resource};
use super::builtins::{self, builtin, call_op, find_kernel_op, list_lanes, maca_icmp, Builtin};
use super::diaglog::DiagLog;
use super::memory::{fill_cells, Memory, Space};
use super::parser::{const_int, parse_with, Parsed};
use super::types::{binary, unary, BinOp, KVal, Scalar, Ty, ValTy};
use super::{KernelDiagnostic, KernelError};
use crate::lanes::{LaneMask, MAX_LANES};
use crate::op::Dialect;
use crate::result::{Level, Source};
use crate::trace::Step;
use crate::value::{ValueType, ValuesSpec};

mod maca_mem;

/// Why a lane's value is undefined, and the line that made it so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Undef {
    /// Line (1-based) of the statement or call that produced the undefined value.
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// The rule: "signed overflow …", "asc_shfl_xor: width 31 is not a power of two", ….
    pub why: String,
    /// Whether the value is an uninitialized variable or memory cell.
    pub uninit: bool,
}

impl Undef {
    fn at(span: Span, why: impl Into<String>) -> Self {
        Undef {
            line: span.line,
            col: span.col,
            why: why.into(),
            uninit: false,
        }
    }

    fn idle() -> Self {
        Undef {
            line: 0,
            col: 0,
            why: String::new(),
            uninit: false,
        }
    }
}

/// A lane's value: defined, or undefined with the reason.
pub type LaneVal = Result<KVal, Undef>;

/// One lane as the page reads it: `{"text": "496", "value": {…}}` when defined,
/// `{"text": null, "why": "…", "line": 8}` when undefined.
fn lane_json(v: &LaneVal) -> serde_json::Value {
    match v {
        Ok(k) => serde_json::json!({ "text": k.to_string(), "value": k }),
        Err(u) => serde_json::json!({
            "text": null,
            "why": u.why,
            "line": if u.line == 0 { None } else { Some(u.line) },
            "uninit": u.uninit,
        }),
    }
}

fn ser_lanes<S: serde::Serializer>(v: &[LaneVal], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for lane in v {
        seq.serialize_element(&lane_json(lane))?;
    }
    seq.end()
}

type Vars = [(String, Vec<LaneVal>)];

fn ser_vars<S: serde::Serializer>(v: &Vars, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for (name, lanes) in v {
        let lanes: Vec<serde_json::Value> = lanes.iter().map(lane_json).collect();
        seq.serialize_element(&serde_json::json!({ "name": name, "lanes": lanes }))?;
    }
    seq.end()
}

/// How to launch a kernel. Every field is optional; see [`Launch`] for what is chosen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LaunchConfig {
    /// The function to run; default: the first `__global__` / `__simt_vf__` function, else the
    /// first function.
    pub entry: Option<String>,
    /// The dialect whose operations are looked up first; default: guessed from the source
    /// (`asc_` → Ascend, `__builtin_mxc` → MACA, `_sync(` → CUDA, `hip` → HIP).
    pub dialect: Option<Dialect>,
    /// Lanes per warp; default: the dialect's (32, or 64 for MACA / HIP / AMD).
    pub lanes: Option<usize>,
    /// Threads per block (x, y, z); default: the kernel's `asc_vf_call … dim3{…}` comment, else
    /// one warp.
    pub block_dim: Option<[usize; 3]>,
    /// Blocks (x, y, z); default 1×1×1.
    pub grid_dim: Option<[usize; 3]>,
    /// Kernel arguments by parameter name. A pointer or reference parameter: the initial fill of
    /// its global buffer (`index` — the default —, `index+K`, `index*K`, `zero`, `undef`, one
    /// value, or a comma list). A scalar parameter: its value in each lane of a warp (`lane` —
    /// the default —, `lane+K`, `lane*K`, one value, or one per lane).
    pub args: BTreeMap<String, String>,
    /// Cells of a pointer parameter's buffer; default: one per thread of the launch.
    pub buffer_len: BTreeMap<String, usize>,
    /// Cells of an `extern __shared__` array; default: one per thread of a block.
    pub shared_len: Option<usize>,
    /// The budgets: work, memory in bytes, nesting, tokens, code, diagnostics.
    pub limits: Limits,
}

/// The launch as resolved from the config and the kernel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Launch {
    /// The function run.
    pub entry: String,
    /// The dialect looked up first.
    pub dialect: Dialect,
    /// Lanes per warp.
    pub lanes: usize,
    /// Threads per block (x, y, z).
    pub block_dim: [usize; 3],
    /// Blocks (x, y, z).
    pub grid_dim: [usize; 3],
    /// Warps per block.
    pub warps_per_block: usize,
    /// Where the block shape came from (`config`, `asc_vf_call comment at line N`, `one warp`).
    pub geometry_from: String,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// Every thread finished.
    Finished,
    /// A budget ran out (an endless loop, a kernel too long to trace, a launch too large):
    /// which, its limit, what hit it and the line.
    Limit(LimitHit),
    /// The kernel cannot continue (e.g. a launch the memory cannot hold).
    Error(KernelError),
}

/// A variable's new per-lane values after a step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarChange {
    /// Variable name.
    pub name: String,
    /// Its value in every lane of the warp (lanes that did not run keep their old value).
    #[serde(serialize_with = "ser_lanes")]
    pub values: Vec<LaneVal>,
}

/// One memory cell written by a step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemWrite {
    /// Buffer index in [`Memory::buffers`].
    pub buffer: usize,
    /// Cell.
    pub index: usize,
    /// New content (`None`: an undefined value was stored).
    pub value: Option<KVal>,
    /// The lane that wrote it.
    pub lane: usize,
}

/// One executed statement (or branch / loop test / barrier) of one warp.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelStep {
    /// Position in the trace.
    pub index: usize,
    /// Block.
    pub block: usize,
    /// Warp within the block.
    pub warp: usize,
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// The statement's text (a compound statement's head, `if (…)`).
    pub text: String,
    /// Lanes that executed it.
    pub active: LaneMask,
    /// Lanes in the warp.
    pub lanes: usize,
    /// Variables it changed, with their values in every lane.
    pub changes: Vec<VarChange>,
    /// Memory it wrote.
    pub memory_writes: Vec<MemWrite>,
    /// Cross-lane operations it ran, in order (the same [`Step`] the single-op view draws).
    pub ops: Vec<Step>,
    /// Diagnostics at this step.
    pub diagnostics: Vec<KernelDiagnostic>,
}

/// The final variables of one warp.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WarpState {
    /// Block.
    pub block: usize,
    /// Warp within the block.
    pub warp: usize,
    /// Variables by name, each with its value in every lane (`return` holds a device function's
    /// result).
    #[serde(serialize_with = "ser_vars")]
    pub vars: Vec<(String, Vec<LaneVal>)>,
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelTrace {
    /// The launch.
    pub launch: Launch,
    /// Steps in execution order.
    pub steps: Vec<KernelStep>,
    /// How the run ended (`None` while an [`Executor`] is still running).
    pub outcome: Option<Outcome>,
    /// Diagnostics of the parse and of the launch (step diagnostics are on their steps).
    pub diagnostics: Vec<KernelDiagnostic>,
    /// Memory before the first step.
    pub initial_memory: Memory,
    /// Memory now.
    pub memory: Memory,
    /// Final variables of every warp that finished.
    pub warps: Vec<WarpState>,
}

impl KernelTrace {
    /// Every diagnostic: the parse's, then each step's in order.
    pub fn all_diagnostics(&self) -> impl Iterator<Item = &KernelDiagnostic> {
        self.diagnostics
            .iter()
            .chain(self.steps.iter().flat_map(|s| s.diagnostics.iter()))
    }

    /// A variable's final value in thread `thread` (index within the block) of `block`.
    pub fn value_of(&self, var: &str, block: usize, thread: usize) -> Option<&LaneVal> {
        let lanes = self.launch.lanes.max(1);
        let w = self
            .warps
            .iter()
            .find(|w| w.block == block && w.warp == thread / lanes)?;
        w.vars
            .iter()
            .find(|(n, _)| n == var)
            .and_then(|(_, v)| v.get(thread % lanes))
    }

    /// Memory as it was right after step `index` (the page's slider): the initial contents with
    /// the writes of steps `0..=index` replayed. Buffers allocated later (shared arrays) are
    /// present, empty until written.
    pub fn memory_after(&self, index: usize) -> Memory {
        let mut m = self.memory.clone();
        for (k, b) in m.buffers.iter_mut().enumerate() {
            match self.initial_memory.buffers.get(k) {
                Some(init) => b.cells.clone_from(&init.cells),
                None => b.cells.iter_mut().for_each(|c| *c = None),
            }
        }
        for s in self.steps.iter().take(index.saturating_add(1)) {
            for w in &s.memory_writes {
                let _ = m.write(w.buffer, w.index as i64, w.value.clone());
            }
        }
        m
    }

    /// The variables of warp `warp` of block `block` right after step `index`, each with its
    /// value in every lane, in the order they were first changed.
    pub fn vars_after(&self, index: usize, block: usize, warp: usize) -> Vec<VarChange> {
        let mut vars: Vec<VarChange> = Vec::new();
        for s in self.steps.iter().take(index.saturating_add(1)) {
            if s.block != block || s.warp != warp {
                continue;
            }
            for c in &s.changes {
                match vars.iter_mut().find(|v| v.name == c.name) {
                    Some(v) => v.values.clone_from(&c.values),
                    None => vars.push(c.clone()),
                }
            }
        }
        vars
    }

    /// The final cells of the buffer named `name` (global memory, or block 0's shared memory).
    pub fn buffer(&self, name: &str) -> Option<&[Option<KVal>]> {
        self.memory
            .buffers
            .iter()
            .find(|b| b.name == name)
            .map(|b| b.cells.as_slice())
    }
}

// ------------------------------------------------------------------ compiled form

#[derive(Clone, Debug)]
struct SlotInfo {
    name: String,
    ty: Ty,
}

#[derive(Clone, Debug)]
enum Inst {
    Decl {
        span: Span,
        end: Span,
        storage: Storage,
        decls: Vec<Declarator>,
    },
    Eval {
        span: Span,
        end: Span,
        expr: Expr,
    },
    Branch {
        span: Span,
        end: Span,
        cond: Expr,
        else_pc: usize,
        join_pc: usize,
    },
    ThenEnd,
    Join,
    LoopEnter {
        id: usize,
        cont_pc: usize,
        exit_pc: usize,
        line: u32,
    },
    LoopTest {
        span: Span,
        end: Span,
        cond: Option<Expr>,
    },
    /// A do-while test: false lanes leave; if any lane remains, jump back.
    LoopBack {
        span: Span,
        end: Span,
        cond: Expr,
        target: usize,
    },
    LoopCont,
    LoopExit,
    Jump(usize),
    Break {
        span: Span,
        end: Span,
        cont: bool,
    },
    Return {
        span: Span,
        end: Span,
        value: Option<Expr>,
        /// In an inlined device function: the call's pseudo-loop and result slot.
        target: Option<(usize, Option<usize>)>,
    },
    /// Binds an argument of an inlined device-function call to its parameter slot.
    Bind {
        span: Span,
        end: Span,
        slot: usize,
        expr: Expr,
    },
    End,
}

/// Identifiers, declarations and hoisted calls are keyed by (inlined instance, position): the
/// same source text inlined twice gets different variables.
type Key = (u32, Span);

/// Deepest chain of device-function calls inlined (recursion is refused).
const MAX_INLINE: u32 = 8;

#[derive(Default)]
struct Compiler {
    code: Vec<Inst>,
    code_inst: Vec<u32>,
    slots: Vec<SlotInfo>,
    idents: HashMap<Key, usize>,
    decl_slots: HashMap<Key, usize>,
    hoisted: HashMap<Key, usize>,
    scopes: Vec<HashMap<String, usize>>,
    loops: usize,
    inst: u32,
    next_inst: u32,
    functions: Vec<Function>,
    ret_target: Option<(usize, Option<usize>)>,
    prefix: String,
    call_depth: u32,
    error: Option<KernelError>,
    /// Device functions by name (index into `functions`).
    by_name: HashMap<String, usize>,
    /// Instructions emitted so far, each weighted by its expression nodes.
    cost: u64,
    /// [`Limits::max_code`].
    max_code: u64,
    /// Statements being compiled, one inside another (inlined bodies included).
    nest: u32,
    /// [`Limits::depth`].
    max_nest: u32,
}

/// Expression nodes an instruction carries (its weight in the code budget, beside itself).
fn inst_nodes(i: &Inst) -> u64 {
    match i {
        Inst::Decl { decls, .. } => decls
            .iter()
            .map(|d| {
                1 + d.init.as_ref().map_or(0, Expr::nodes)
                    + match &d.array {
                        Some(Some(n)) => n.nodes(),
                        _ => 0,
                    }
            })
            .sum(),
        Inst::Eval { expr, .. } | Inst::Bind { expr, .. } => expr.nodes(),
        Inst::Branch { cond, .. } | Inst::LoopBack { cond, .. } => cond.nodes(),
        Inst::LoopTest { cond, .. } => cond.as_ref().map_or(0, Expr::nodes),
        Inst::Return { value, .. } => value.as_ref().map_or(0, Expr::nodes),
        _ => 0,
    }
}

impl Compiler {
    fn emit(&mut self, i: Inst) -> usize {
        self.cost = self.cost.saturating_add(1 + inst_nodes(&i));
        if self.cost > self.max_code && self.error.is_none() {
            let line = match &i {
                Inst::Decl { span, .. }
                | Inst::Eval { span, .. }
                | Inst::Branch { span, .. }
                | Inst::Bind { span, .. } => span.line,
                _ => 0,
            };
            let hit = LimitHit {
                resource: Resource::Code,
                limit: self.max_code,
                line,
                what: "inlining device-function calls".into(),
            };
            self.error = Some(KernelError::new(line.max(1), 1, hit.message()));
        }
        self.code.push(i);
        self.code_inst.push(self.inst);
        self.code.len() - 1
    }

    fn fail(&mut self, span: Span, message: String) {
        if self.error.is_none() {
            self.error = Some(KernelError::new(span.line, span.col, message));
        }
    }

    fn declare(&mut self, name: &str, ty: Ty, span: Span) -> usize {
        self.slots.push(SlotInfo {
            name: format!("{}{name}", self.prefix),
            ty,
        });
        let id = self.slots.len() - 1;
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), id);
        }
        self.decl_slots.insert((self.inst, span), id);
        id
    }

    fn user_function(&self, name: &str) -> Option<Function> {
        self.by_name
            .get(name)
            .and_then(|&k| self.functions.get(k))
            .cloned()
    }

    /// Whether `e` contains a call to a device function of the source.
    fn has_user_call(&self, e: &Expr) -> bool {
        let mut found = false;
        visit(e, &mut |x| {
            if let ExprKind::Call(n, _) = &x.kind {
                if self.by_name.contains_key(n) {
                    found = true;
                }
            }
        });
        found
    }

    /// Inlines every device-function call of `e` (innermost first) before the statement that
    /// holds it; the call then reads the function's result slot.
    fn hoist(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Logical(_, a, b) => {
                self.hoist(a);
                if self.has_user_call(b) {
                    self.fail(b.span, "a device-function call on the right of `&&` or `||` is not supported (it would run in lanes that skip it); assign it to a variable first".into());
                }
            }
            ExprKind::Ternary(c, a, b) => {
                self.hoist(c);
                for x in [a, b] {
                    if self.has_user_call(x) {
                        self.fail(x.span, "a device-function call inside `?:` is not supported (it would run in lanes that skip it); use if/else".into());
                    }
                }
            }
            ExprKind::Call(name, args) => {
                for a in args {
                    self.hoist(a);
                }
                // After an error (the code budget, say) nothing more is inlined: a call per
                // line of a huge source must not clone its function each time.
                if self.error.is_none() {
                    if let Some(f) = self.user_function(name) {
                        self.inline_call(e, &f, args);
                    }
                }
            }
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Deref(b)
            | ExprKind::AddrOf(b)
            | ExprKind::Cast(_, b)
            | ExprKind::IncDec { target: b, .. } => self.hoist(b),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                self.hoist(a);
                self.hoist(b);
            }
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::SizeOf(_)
            | ExprKind::Str(_)
            | ExprKind::Ident(_) => {}
        }
    }

    fn inline_call(&mut self, call: &Expr, f: &Function, args: &[Expr]) {
        if self.call_depth >= MAX_INLINE {
            self.fail(
                call.span,
                format!(
                    "calls nested deeper than {MAX_INLINE} (recursion?) are not supported: `{}`",
                    f.name
                ),
            );
            return;
        }
        if args.len() != f.params.len() {
            self.fail(
                call.span,
                format!(
                    "`{}` takes {} argument(s), got {}",
                    f.name,
                    f.params.len(),
                    args.len()
                ),
            );
            return;
        }
        if let Some(p) = f.params.iter().find(|p| p.reference) {
            self.fail(
                p.span,
                format!(
                    "reference parameter `{}` of a called device function is not supported",
                    p.name
                ),
            );
            return;
        }
        let result = match f.ret {
            Ty::Void => None,
            t => {
                self.slots.push(SlotInfo {
                    name: format!("{}()", f.name),
                    ty: t,
                });
                Some(self.slots.len() - 1)
            }
        };
        self.next_inst += 1;
        let inst = self.next_inst;
        let caller = self.inst;
        let mut params = HashMap::new();
        for (p, a) in f.params.iter().zip(args) {
            self.slots.push(SlotInfo {
                name: format!("{}::{}", f.name, p.name),
                ty: p.ty,
            });
            let slot = self.slots.len() - 1;
            params.insert(p.name.clone(), slot);
            self.emit(Inst::Bind {
                span: a.span,
                end: a.span,
                slot,
                expr: a.clone(),
            });
        }
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![params]);
        let saved_prefix = std::mem::replace(&mut self.prefix, format!("{}::", f.name));
        let id = self.loops;
        self.loops += 1;
        let saved_target = self.ret_target.replace((id, result));
        self.inst = inst;
        self.call_depth += 1;
        let enter = self.emit(Inst::Jump(0));
        self.stmt(&f.body);
        let cont_pc = self.emit(Inst::LoopCont);
        let exit_pc = self.emit(Inst::LoopExit);
        self.code[enter] = Inst::LoopEnter {
            id,
            cont_pc,
            exit_pc,
            line: call.span.line,
        };
        self.call_depth -= 1;
        self.inst = caller;
        self.ret_target = saved_target;
        self.prefix = saved_prefix;
        self.scopes = saved_scopes;
        self.hoisted
            .insert((caller, call.span), result.unwrap_or(usize::MAX));
    }

    fn resolve(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(n) => {
                if let Some(id) = self.scopes.iter().rev().find_map(|s| s.get(n)) {
                    self.idents.insert((self.inst, e.span), *id);
                }
            }
            ExprKind::Member(b, _) | ExprKind::Unary(_, b) | ExprKind::Deref(b) => self.resolve(b),
            ExprKind::AddrOf(b) | ExprKind::Cast(_, b) => self.resolve(b),
            ExprKind::IncDec { target, .. } => self.resolve(target),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Logical(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                self.resolve(a);
                self.resolve(b);
            }
            ExprKind::Ternary(a, b, c) => {
                self.resolve(a);
                self.resolve(b);
                self.resolve(c);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| self.resolve(a)),
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::SizeOf(_)
            | ExprKind::Str(_) => {}
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        // Inlining nests a function's statements inside the caller's: bound the sum, so the
        // compiler's recursion stays within the depth budget whatever the call chain.
        if self.nest >= self.max_nest {
            self.fail(
                s.span,
                format!(
                    "statements nested deeper than {} levels (inlined calls included); raise it with --max-depth",
                    self.max_nest
                ),
            );
            return;
        }
        self.nest += 1;
        self.stmt_inner(s);
        self.nest -= 1;
    }

    fn stmt_inner(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl(storage, decls) => {
                for d in decls {
                    if let Some(Some(n)) = &d.array {
                        self.resolve(n);
                    }
                    if let Some(i) = &d.init {
                        self.resolve(i);
                    }
                    if let Some(Some(n)) = &d.array {
                        self.hoist(n);
                    }
                    if let Some(i) = &d.init {
                        self.hoist(i);
                    }
                    let ty = match (d.ty, &d.array) {
                        (Ty::Val(v), Some(_)) => Ty::Ptr(v),
                        (t, _) => t,
                    };
                    self.declare(&d.name, ty, d.span);
                }
                self.emit(Inst::Decl {
                    span: s.span,
                    end: s.end,
                    storage: *storage,
                    decls: decls.clone(),
                });
            }
            StmtKind::Expr(e) => {
                self.resolve(e);
                self.hoist(e);
                self.emit(Inst::Eval {
                    span: s.span,
                    end: s.end,
                    expr: e.clone(),
                });
            }
            StmtKind::If(c, then, els) => {
                self.resolve(c);
                self.hoist(c);
                let at = self.emit(Inst::ThenEnd); // patched below
                self.scoped(then);
                self.emit(Inst::ThenEnd);
                let else_pc = self.code.len();
                if let Some(e) = els {
                    self.scoped(e);
                }
                let join_pc = self.code.len();
                self.emit(Inst::Join);
                self.code[at] = Inst::Branch {
                    span: s.span,
                    end: s.end,
                    cond: c.clone(),
                    else_pc,
                    join_pc,
                };
            }
            StmtKind::While(c, body) => {
                self.resolve(c);
                self.no_calls_in_loop_head(c);
                self.looped(s, None, Some(c.clone()), None, body);
            }
            StmtKind::For(init, c, step, body) => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = c {
                    self.resolve(c);
                    self.no_calls_in_loop_head(c);
                }
                if let Some(st) = step {
                    self.resolve(st);
                    self.no_calls_in_loop_head(st);
                }
                self.looped(s, None, c.clone(), step.clone(), body);
                self.scopes.pop();
            }
            StmtKind::DoWhile(body, c) => {
                self.resolve(c);
                self.no_calls_in_loop_head(c);
                let id = self.loops;
                self.loops += 1;
                let enter = self.code.len();
                self.emit(Inst::Jump(0));
                let top = self.code.len();
                self.scoped(body);
                let cont_pc = self.code.len();
                self.emit(Inst::LoopCont);
                self.emit(Inst::LoopBack {
                    span: c.span,
                    end: s.end,
                    cond: c.clone(),
                    target: top,
                });
                let exit_pc = self.code.len();
                self.emit(Inst::LoopExit);
                self.code[enter] = Inst::LoopEnter {
                    id,
                    cont_pc,
                    exit_pc,
                    line: s.span.line,
                };
            }
            StmtKind::Break | StmtKind::Continue => {
                self.emit(Inst::Break {
                    span: s.span,
                    end: s.end,
                    cont: matches!(s.kind, StmtKind::Continue),
                });
            }
            StmtKind::Return(v) => {
                if let Some(v) = v {
                    self.resolve(v);
                    self.hoist(v);
                }
                self.emit(Inst::Return {
                    span: s.span,
                    end: s.end,
                    value: v.clone(),
                    target: self.ret_target,
                });
            }
            StmtKind::Block(list) => {
                self.scopes.push(HashMap::new());
                for st in list {
                    self.stmt(st);
                }
                self.scopes.pop();
            }
            StmtKind::Empty | StmtKind::Elided => {}
        }
    }

    fn no_calls_in_loop_head(&mut self, e: &Expr) {
        if self.has_user_call(e) {
            self.fail(e.span, "a device-function call in a loop condition or step is not supported; call it in the loop body".into());
        }
    }

    fn scoped(&mut self, s: &Stmt) {
        self.scopes.push(HashMap::new());
        self.stmt(s);
        self.scopes.pop();
    }

    fn looped(
        &mut self,
        s: &Stmt,
        _init: Option<()>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: &Stmt,
    ) {
        let id = self.loops;
        self.loops += 1;
        let enter = self.code.len();
        self.emit(Inst::Jump(0));
        let head = self.code.len();
        self.emit(Inst::LoopTest {
            span: s.span,
            end: s.end,
            cond,
        });
        self.scoped(body);
        let cont_pc = self.code.len();
        self.emit(Inst::LoopCont);
        if let Some(st) = step {
            self.emit(Inst::Eval {
                span: st.span,
                end: s.end,
                expr: st,
            });
        }
        self.emit(Inst::Jump(head));
        let exit_pc = self.code.len();
        self.emit(Inst::LoopExit);
        self.code[enter] = Inst::LoopEnter {
            id,
            cont_pc,
            exit_pc,
            line: s.span.line,
        };
    }
}

/// Calls `f` on `e` and every expression inside it.
fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Member(b, _)
        | ExprKind::Unary(_, b)
        | ExprKind::Deref(b)
        | ExprKind::AddrOf(b)
        | ExprKind::Cast(_, b)
        | ExprKind::IncDec { target: b, .. } => visit(b, f),
        ExprKind::Index(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Logical(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b) => {
            visit(a, f);
            visit(b, f);
        }
        ExprKind::Ternary(a, b, c) => {
            visit(a, f);
            visit(b, f);
            visit(c, f);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| visit(a, f)),
        ExprKind::Int { .. }
        | ExprKind::Float { .. }
        | ExprKind::Bool(_)
        | ExprKind::SizeOf(_)
        | ExprKind::Str(_)
        | ExprKind::Ident(_) => {}
    }
}

// ------------------------------------------------------------------ warps

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LaneStatus {
    Running,
    Broke(usize),
    Continued(usize),
    Returned,
}

#[derive(Clone, Debug)]
enum Frame {
    If {
        cur: LaneMask,
        else_mask: LaneMask,
        else_pc: usize,
        join_pc: usize,
        in_else: bool,
        line: u32,
    },
    Loop {
        id: usize,
        mask: LaneMask,
        cont_pc: usize,
        exit_pc: usize,
        line: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WarpRun {
    Ready,
    AtBarrier,
    Done,
}

#[derive(Clone, Debug)]
struct Warp {
    index: usize,
    exists: LaneMask,
    pc: usize,
    frames: Vec<Frame>,
    status: Vec<LaneStatus>,
    vars: Vec<Vec<LaneVal>>,
    /// Slots bound by reference to a one-cell buffer (reference parameters, `__shared__` scalars).
    refs: HashMap<usize, usize>,
    run: WarpRun,
}

impl Warp {
    /// The end of an `if`'s current branch: the lanes of the `else` still to run take it (when
    /// the then-branch ran and any of them are running), otherwise the warp goes to the join.
    /// Returns false when the innermost construct is not an `if`.
    fn leave_branch(&mut self) -> bool {
        let running = self.running();
        let Some(Frame::If {
            cur,
            else_mask,
            else_pc,
            join_pc,
            in_else,
            ..
        }) = self.frames.last_mut()
        else {
            return false;
        };
        if !*in_else && else_mask.0 & running.0 != 0 {
            *in_else = true;
            *cur = *else_mask;
            self.pc = *else_pc;
        } else {
            self.pc = *join_pc;
        }
        true
    }

    fn running(&self) -> LaneMask {
        let mut m = LaneMask::none();
        for (l, s) in self.status.iter().enumerate() {
            if *s == LaneStatus::Running {
                m = m.with(l);
            }
        }
        m
    }

    fn active(&self) -> LaneMask {
        let base = match self.frames.last() {
            Some(Frame::If { cur, .. }) => *cur,
            Some(Frame::Loop { mask, .. }) => *mask,
            None => self.exists,
        };
        LaneMask(base.0 & self.running().0)
    }

    fn innermost_loop(&self) -> Option<usize> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Loop { id, .. } => Some(*id),
            Frame::If { .. } => None,
        })
    }

    /// The line of the innermost construct that left `lane` out, if any.
    fn why_inactive(&self, lane: usize) -> Option<u32> {
        if !self.exists.contains(lane) {
            return None;
        }
        if self.status.get(lane) != Some(&LaneStatus::Running) {
            return self.frames.iter().rev().find_map(|f| match f {
                Frame::Loop { line, .. } => Some(*line),
                Frame::If { .. } => None,
            });
        }
        self.frames.iter().rev().find_map(|f| match f {
            Frame::If { cur, line, .. } if !cur.contains(lane) => Some(*line),
            _ => None,
        })
    }
}

// ------------------------------------------------------------------ step context

#[derive(Default)]
struct StepCtx {
    diags: Vec<(Level, Span, String, String, Vec<usize>)>,
    /// Index into `diags` by position and message key (a statement of many nodes may note
    /// many diagnostics: no linear search per note).
    diag_index: HashMap<(Span, String), usize>,
    changed: BTreeSet<usize>,
    writes: Vec<MemWrite>,
    written: HashMap<(usize, i64), usize>,
    ops: Vec<Step>,
    barrier: bool,
}

impl StepCtx {
    /// Adds a diagnostic, or adds `lane` to the same one already there (messages that differ
    /// only in an ` (e.g. …)` tail count as the same).
    fn note(&mut self, level: Level, span: Span, message: String, rule: &str, lane: Option<usize>) {
        let k = message.split(" (e.g. ").next().unwrap_or("").to_string();
        if let Some(d) = self
            .diag_index
            .get(&(span, k.clone()))
            .and_then(|&i| self.diags.get_mut(i))
        {
            if let Some(l) = lane {
                if !d.4.contains(&l) {
                    d.4.push(l);
                }
            }
            return;
        }
        self.diag_index.insert((span, k), self.diags.len());
        self.diags.push((
            level,
            span,
            message,
            rule.to_string(),
            lane.into_iter().collect(),
        ));
    }
}

#[derive(Clone, Copy, Debug)]
enum Place {
    Var(usize),
    Comp(usize, usize),
    Mem(usize, i64),
}

/// Runs a kernel in slices.
pub struct Executor {
    code: Vec<Inst>,
    slots: Vec<SlotInfo>,
    code_inst: Vec<u32>,
    cur: u32,
    idents: HashMap<Key, usize>,
    decl_slots: HashMap<Key, usize>,
    hoisted: HashMap<Key, usize>,
    params: Vec<(usize, Param)>,
    ret_slot: Option<usize>,
    snippet: bool,
    functions: Vec<String>,
    config: LaunchConfig,
    trace: KernelTrace,
    block: usize,
    blocks: usize,
    warps: Vec<Warp>,
    current: usize,
    shared: HashMap<(Span, usize), usize>,
    locals: HashMap<(Span, usize, usize, usize), usize>,
    global_bufs: HashMap<String, usize>,
    /// Work and bytes spent against [`LaunchConfig::limits`].
    meter: Meter,
    /// Diagnostics counted, merged and capped.
    diag_log: DiagLog,
    /// The source line of each instruction (0 for structural ones).
    pc_line: Vec<u32>,
    /// Where each source line starts, in characters (for a step's text without rescanning).
    line_starts: Vec<usize>,
    /// The source as characters.
    chars: Vec<char>,
    /// MACA memory queues and the shared cells a queued copy has not yet filled.
    maca: maca_mem::MacaMem,
}

fn guess_dialect(src: &str) -> Dialect {
    if src.contains("asc_") || src.contains("__simt_vf__") || src.contains("__gm__") {
        Dialect::Ascend
    } else if src.contains("__builtin_mxc") {
        Dialect::Maca
    } else if src.contains("_sync(") {
        Dialect::Cuda
    } else if src.contains("hip") {
        Dialect::Hip
    } else {
        Dialect::Cuda
    }
}

fn dims_total(d: [usize; 3]) -> Option<usize> {
    d[0].checked_mul(d[1])?.checked_mul(d[2])
}

impl Executor {
    /// Parses `source` and prepares the launch (global buffers allocated and filled).
    ///
    /// # Errors
    /// [`KernelError`] for a parse error, an unknown entry, a lane count the dialect does not
    /// allow, a block or grid shape of zero or beyond the limits, or an argument that does not
    /// parse.
    pub fn new(source: &str, config: LaunchConfig) -> Result<Self, KernelError> {
        let parsed = parse_with(source, &config.limits)?;
        Self::from_parsed(source, parsed, config)
    }

    /// Prepares the launch of an already parsed program whose spans point into `source` (the
    /// WGSL front end, [`super::wgsl`], lowers a shader to the same program form).
    ///
    /// # Errors
    /// As [`Executor::new`], less the parse errors.
    pub fn from_parsed(
        source: &str,
        parsed: Parsed,
        config: LaunchConfig,
    ) -> Result<Self, KernelError> {
        let program = parsed.program;
        let f = match &config.entry {
            Some(name) => program
                .functions
                .iter()
                .find(|f| &f.name == name)
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        program.functions.iter().map(|f| f.name.as_str()).collect();
                    KernelError::new(
                        1,
                        1,
                        format!(
                            "no function `{name}`; the source defines: {}",
                            names.join(", ")
                        ),
                    )
                })?,
            None => program
                .functions
                .iter()
                .find(|f| f.entry)
                .or_else(|| program.functions.first())
                .ok_or_else(|| KernelError::new(1, 1, "no function to run"))?,
        };
        let at = |msg: String| KernelError::new(f.span.line, f.span.col, msg);
        let dialect = config.dialect.unwrap_or_else(|| guess_dialect(source));
        let lanes = match config.lanes {
            Some(n) => dialect
                .check_lanes(n as i64)
                .map_err(|e| at(format!("lanes: {}", e.message)))?,
            None => dialect.default_lanes(),
        };
        let lanes = lanes.min(MAX_LANES);
        let (block_dim, geometry_from) = match (config.block_dim, f.vf_call_dim) {
            (Some(d), _) => (d, "config".to_string()),
            (None, Some(d)) => (
                [d[0] as usize, d[1] as usize, d[2] as usize],
                "the kernel's asc_vf_call comment".to_string(),
            ),
            (None, None) => ([lanes, 1, 1], "one warp (no block shape given)".to_string()),
        };
        let grid_dim = config.grid_dim.unwrap_or([1, 1, 1]);
        let threads = dims_total(block_dim)
            .filter(|t| (1..=1024).contains(t))
            .ok_or_else(|| {
                at(format!(
                    "threads per block must be 1..=1024, got {block_dim:?}"
                ))
            })?;
        let blocks = dims_total(grid_dim)
            .filter(|b| (1..=65_536).contains(b))
            .ok_or_else(|| at(format!("blocks must be 1..=65536, got {grid_dim:?}")))?;
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
            max_nest: config.limits.depth(),
            ..Compiler::default()
        };
        compiler.scopes.push(HashMap::new());
        let mut params = Vec::new();
        for p in &f.params {
            let id = compiler.declare(&p.name, p.ty, p.span);
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
        if let Some(e) = compiler.error {
            return Err(e);
        }
        let launch = Launch {
            entry: f.name.clone(),
            dialect,
            lanes,
            block_dim,
            grid_dim,
            warps_per_block: threads.div_ceil(lanes),
            geometry_from,
        };
        // Global buffers are held twice (the launch's fill and memory now): each may take half.
        let mut memory = Memory::new(config.limits.max_memory / 2);
        let mut global_bufs = HashMap::new();
        for (_, p) in &params {
            let Ty::Ptr(elem) = p.ty else { continue };
            let len = if p.reference {
                1
            } else {
                config
                    .buffer_len
                    .get(&p.name)
                    .copied()
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
            let cells = fill_cells(elem, len, fill, &p.name)
                .map_err(|e| KernelError::new(p.span.line, p.span.col, e.to_string()))?;
            let buf = memory
                .alloc(&p.name, Space::Global, elem, cells)
                .map_err(|m| KernelError::new(p.span.line, p.span.col, m))?;
            global_bufs.insert(p.name.clone(), buf);
        }
        let mut diag_log = DiagLog::new(config.limits.max_diagnostics);
        let mut diagnostics = diag_log.filter(parsed.diagnostics);
        if f.snippet {
            diagnostics.push(KernelDiagnostic::new(
                f.span,
                Level::Info,
                "a snippet runs as the body of a kernel; `laneId` is the lane's index in its warp",
                "",
            ));
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
                | Inst::Bind { span, .. } => span.line,
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
            diagnostics,
            initial_memory: memory.clone(),
            memory,
            warps: Vec::new(),
        };
        Ok(Executor {
            code: compiler.code,
            code_inst: compiler.code_inst,
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
            locals: HashMap::new(),
            global_bufs,
            meter,
            diag_log,
            pc_line,
            line_starts,
            chars,
            maca: Default::default(),
        })
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
    pub fn into_trace(self) -> KernelTrace {
        self.trace
    }

    /// Runs up to `n` steps; returns how many ran (fewer when the run ends).
    pub fn run_for(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n && self.step().is_some() {
            done += 1;
        }
        done
    }

    /// Runs until the next recorded step and returns it; `None` once the run has ended.
    pub fn step(&mut self) -> Option<&KernelStep> {
        loop {
            if self.trace.outcome.is_some() {
                return None;
            }
            let Some(w) = self.schedule() else {
                if self.trace.outcome.is_none() {
                    self.finish(Outcome::Finished);
                }
                return None;
            };
            if !self.meter.work(1) {
                let line = self.line_of(self.warps[w].pc);
                self.limit(
                    Resource::Work,
                    line,
                    "the statements running (an endless loop?)".to_string(),
                );
                return None;
            }
            // What buffers may still take: the budget less the trace and the lane variables.
            self.trace.memory.limit_bytes = self
                .meter
                .limits
                .max_memory
                .saturating_sub(self.meter.bytes(0));
            let recorded = self.exec(w);
            if self.meter.work_spent() {
                let line = self.trace.steps.last().map_or(1, |s| s.line);
                self.limit(
                    Resource::Work,
                    line,
                    "the statements running (an endless loop?)".to_string(),
                );
                return None;
            }
            if recorded {
                if !self.meter.fits(self.trace.memory.used_bytes, 0) {
                    let line = self.trace.steps.last().map_or(1, |s| s.line);
                    let what = format!(
                        "{} bytes of buffers, {} of lane variables and {} of trace ({} steps)",
                        self.trace.memory.used_bytes,
                        self.meter.var_bytes,
                        self.meter.trace_bytes,
                        self.trace.steps.len()
                    );
                    self.limit(Resource::Memory, line, what);
                    return None;
                }
                return self.trace.steps.last();
            }
        }
    }

    /// Ends the run with `outcome`, adding the summary of the diagnostics left out.
    fn finish(&mut self, outcome: Outcome) {
        let summary = self.diag_log.summary();
        self.trace.diagnostics.extend(summary);
        self.trace.outcome = Some(outcome);
    }

    /// Ends the run because `resource` ran out at `line`, hit by `what`.
    fn limit(&mut self, resource: Resource, line: u32, what: String) {
        let limits = &self.meter.limits;
        let limit = match resource {
            Resource::Work => limits.max_work,
            Resource::Memory => limits.max_memory,
            Resource::Depth => u64::from(limits.depth()),
            Resource::Tokens => limits.max_tokens,
            Resource::Code => limits.max_code,
        };
        let hit = LimitHit {
            resource,
            limit,
            line,
            what,
        };
        self.trace.diagnostics.push(KernelDiagnostic {
            line: line.max(1),
            col: 1,
            level: Level::Error,
            message: format!("{} (stopped)", hit.message()),
            rule: String::new(),
        });
        self.finish(Outcome::Limit(hit));
    }

    fn line_of(&self, pc: usize) -> u32 {
        self.pc_line[..=pc.min(self.pc_line.len().saturating_sub(1))]
            .iter()
            .rev()
            .find(|&&l| l > 0)
            .copied()
            .unwrap_or(1)
    }

    fn fail(&mut self, e: KernelError) {
        self.finish(Outcome::Error(e));
    }

    /// Picks the warp to run next, starting blocks and opening barriers as needed.
    fn schedule(&mut self) -> Option<usize> {
        loop {
            if self.warps.is_empty() {
                if self.block >= self.blocks {
                    return None;
                }
                if let Err(e) = self.start_block() {
                    self.fail(e);
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
                let exited: Vec<usize> = self
                    .warps
                    .iter()
                    .filter(|w| w.run == WarpRun::Done)
                    .map(|w| w.index)
                    .collect();
                let mut line = 1;
                for w in &mut self.warps {
                    if w.run == WarpRun::AtBarrier {
                        w.run = WarpRun::Ready;
                        w.pc += 1;
                        line = self.code[..w.pc]
                            .iter()
                            .rev()
                            .find_map(|i| match i {
                                Inst::Eval { span, .. } => Some(span.line),
                                _ => None,
                            })
                            .unwrap_or(1);
                    }
                }
                if !exited.is_empty() {
                    self.trace.diagnostics.push(KernelDiagnostic {
                        line,
                        col: 1,
                        level: Level::Warning,
                        message: format!(
                            "block {}: warp(s) {} finished without reaching the barrier at line {line}: a barrier not reached by every thread is undefined (the other warps were released)",
                            self.block,
                            list_lanes(&exited)
                        ),
                        rule: "CUDA Programming Guide, __syncthreads(); seed 002 §3.1.9".into(),
                    });
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
                .map(|w| w.vars.iter().map(|v| budget::lanes_bytes(v)).sum::<u64>())
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
                    .filter(|(id, _)| !w.refs.contains_key(id))
                    .map(|(id, s)| {
                        (
                            s.name.clone(),
                            w.vars
                                .get(id)
                                .cloned()
                                .unwrap_or_else(|| vec![Err(Undef::idle()); lanes]),
                        )
                    })
                    .collect();
                self.trace.warps.push(WarpState {
                    block: self.block,
                    warp: w.index,
                    vars,
                });
            }
            self.block += 1;
        }
    }

    fn start_block(&mut self) -> Result<(), KernelError> {
        let launch = &self.trace.launch;
        let lanes = launch.lanes;
        let threads = dims_total(launch.block_dim).unwrap_or(0);
        // Each lane of each variable starts as "`name` is not declared yet": count the bytes
        // before allocating them.
        let per_warp: u64 = self
            .slots
            .iter()
            .map(|s| {
                super::budget::size::VEC
                    + lanes as u64 * (super::budget::size::LANE_VAL + s.name.len() as u64 + 24)
            })
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
            let mut vars: Vec<Vec<LaneVal>> = self
                .slots
                .iter()
                .map(|s| {
                    vec![
                        Err(Undef {
                            line: 0,
                            col: 0,
                            why: format!("`{}` is not declared yet", s.name),
                            uninit: true,
                        });
                        lanes
                    ]
                })
                .collect();
            let mut refs = HashMap::new();
            for (id, p) in &self.params {
                if let Some(&buf) = self.global_bufs.get(&p.name) {
                    let Ty::Ptr(elem) = p.ty else { continue };
                    if p.reference {
                        refs.insert(*id, buf);
                    } else {
                        vars[*id] = vec![
                            Ok(KVal::Ptr {
                                elem,
                                buf,
                                offset: 0
                            });
                            lanes
                        ];
                    }
                    continue;
                }
                let Ty::Val(vt) = p.ty else { continue };
                let text = self.config.args.get(&p.name).map_or("lane", String::as_str);
                let core_ty = if vt.scalar.is_float() {
                    ValueType::F64
                } else {
                    ValueType::I64
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
                vars[*id] = row
                    .into_iter()
                    .map(|v| {
                        KVal::from_core(v)
                            .convert(vt)
                            .map_err(|f| Undef::at(p.span, f.message))
                    })
                    .collect();
            }
            self.warps.push(Warp {
                index: wi,
                exists,
                pc: 0,
                frames: Vec::new(),
                status: vec![LaneStatus::Running; lanes],
                vars,
                refs,
                run: WarpRun::Ready,
            });
        }
        Ok(())
    }

    /// The source text from `span` to `end`, whitespace collapsed, at most 200 characters.
    /// Reads only those lines (through `line_starts`), never the whole source: it runs once per
    /// step.
    fn text(&self, span: Span, end: Span) -> String {
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
    fn exec(&mut self, w: usize) -> bool {
        let pc = self.warps[w].pc;
        self.cur = self.code_inst.get(pc).copied().unwrap_or(0);
        let Some(inst) = self.code.get(pc).cloned() else {
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
        let mut cx = StepCtx::default();
        let recorded: Option<(Span, Span)> = match inst {
            Inst::Decl {
                span,
                end,
                storage,
                decls,
            } => {
                for d in &decls {
                    self.declare(w, d, storage, active, &mut cx);
                }
                self.warps[w].pc += 1;
                Some((span, end))
            }
            Inst::Eval { span, end, expr } => {
                match self.barrier_call(w, &expr, active, &mut cx) {
                    // The warp waits; the pc stays on the barrier until it opens.
                    Some(true) => {}
                    Some(false) => self.warps[w].pc += 1,
                    None => {
                        self.eval(w, &expr, active, &mut cx);
                        self.warps[w].pc += 1;
                    }
                }
                Some((span, end))
            }
            Inst::Branch {
                span,
                end,
                cond,
                else_pc,
                join_pc,
            } => {
                let (t, f) = self.condition(w, &cond, active, &mut cx);
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
            Inst::LoopTest { span, end, cond } => {
                if let Some(c) = cond {
                    let (_, f) = self.condition(w, &c, active, &mut cx);
                    self.leave_loop(w, f);
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
                cond,
                target,
            } => {
                let (_, f) = self.condition(w, &cond, active, &mut cx);
                self.leave_loop(w, f);
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
                value,
                target,
            } => {
                let slot = match target {
                    Some((_, slot)) => slot,
                    None => self.ret_slot,
                };
                if let Some(v) = value {
                    let vals = self.eval(w, &v, active, &mut cx);
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
                expr,
            } => {
                let vals = self.eval(w, &expr, active, &mut cx);
                for l in active.iter() {
                    let val = vals.get(l).cloned().unwrap_or_else(|| Err(Undef::idle()));
                    let _ = self.store_var(w, slot, l, val, span, &mut cx);
                }
                self.warps[w].pc += 1;
                Some((span, end))
            }
            Inst::End => {
                self.warps[w].run = WarpRun::Done;
                None
            }
        };
        let Some((span, end)) = recorded else {
            return false;
        };
        if cx.barrier {
            self.warps[w].run = WarpRun::AtBarrier;
        }
        self.record(w, span, end, active, cx);
        true
    }

    fn leave_loop(&mut self, w: usize, lanes: LaneMask) {
        let warp = &mut self.warps[w];
        if let Some(id) = warp.innermost_loop() {
            for l in lanes.iter() {
                if let Some(s) = warp.status.get_mut(l) {
                    *s = LaneStatus::Broke(id);
                }
            }
        }
    }

    /// Moves an idle warp (no active lane) to where its lanes reconverge.
    fn unwind(&mut self, w: usize) {
        let warp = &mut self.warps[w];
        if warp.leave_branch() {
            return;
        }
        match warp.frames.last() {
            None => warp.run = WarpRun::Done,
            Some(Frame::Loop { cont_pc, .. }) => warp.pc = *cont_pc,
            Some(Frame::If { .. }) => {}
        }
    }

    fn record(&mut self, w: usize, span: Span, end: Span, active: LaneMask, cx: StepCtx) {
        let lanes = self.trace.launch.lanes;
        let warp = &self.warps[w];
        let changes: Vec<VarChange> = cx
            .changed
            .iter()
            .map(|&id| VarChange {
                name: self
                    .slots
                    .get(id)
                    .map_or_else(String::new, |s| s.name.clone()),
                values: warp.vars.get(id).cloned().unwrap_or_default(),
            })
            .collect();
        let diagnostics: Vec<KernelDiagnostic> = cx
            .diags
            .into_iter()
            .map(|(level, at, mut message, rule, mut ls)| {
                ls.sort_unstable();
                if !ls.is_empty() && ls.len() < lanes {
                    message.push_str(&format!(" (lanes {})", list_lanes(&ls)));
                }
                KernelDiagnostic {
                    line: at.line,
                    col: at.col,
                    level,
                    message,
                    rule,
                }
            })
            .collect();
        let diagnostics = self.diag_log.filter(diagnostics);
        let step = KernelStep {
            index: self.trace.steps.len(),
            block: self.block,
            warp: warp.index,
            line: span.line,
            col: span.col,
            text: self.text(span, end),
            active,
            lanes,
            changes,
            memory_writes: cx.writes,
            ops: cx.ops,
            diagnostics,
        };
        self.meter.trace_bytes = self
            .meter
            .trace_bytes
            .saturating_add(budget::step_bytes(&step));
        self.trace.steps.push(step);
    }

    // -------------------------------------------------------------- statements

    fn declare(
        &mut self,
        w: usize,
        d: &Declarator,
        storage: Storage,
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        let Some(&slot) = self.decl_slots.get(&(self.cur, d.span)) else {
            return;
        };
        let lanes = self.trace.launch.lanes;
        let elem = match d.ty {
            Ty::Val(v) | Ty::Ptr(v) => v,
            Ty::Void => ValTy::scalar(Scalar::I32),
        };
        if d.array.is_some() || storage.shared {
            let len = match &d.array {
                Some(Some(n)) => {
                    let v = self.eval(w, n, active, cx);
                    let first = active.iter().find_map(|l| v.get(l).cloned());
                    match first.and_then(|v| v.ok()).and_then(|v| v.as_int()) {
                        Some(n) if n >= 0 => n as usize,
                        _ => {
                            cx.note(
                                Level::Error,
                                d.span,
                                format!("the size of `{}` is not a non-negative integer", d.name),
                                "",
                                None,
                            );
                            0
                        }
                    }
                }
                Some(None) => {
                    let len = self
                        .config
                        .shared_len
                        .unwrap_or_else(|| dims_total(self.trace.launch.block_dim).unwrap_or(1));
                    if storage.shared && storage.external {
                        cx.note(Level::Info, d.span, format!("`extern __shared__ {}[]` gets its size at launch: {len} cells (LaunchConfig.shared_len)", d.name), "", None);
                    } else {
                        cx.note(
                            Level::Warning,
                            d.span,
                            format!(
                                "`{}[]` has no size and is not `extern`: not valid C; given {len} cells as if it were `extern __shared__`",
                                d.name
                            ),
                            "ISO C11 6.7.6.2; CUDA C++ Programming Guide, extern __shared__",
                            None,
                        );
                    }
                    len
                }
                None => 1,
            };
            if storage.shared {
                let key = (d.span, self.block);
                let buf = match self.shared.get(&key) {
                    Some(b) => *b,
                    None => {
                        match self.trace.memory.alloc_uninit(
                            &d.name,
                            Space::Shared {
                                block: self.block as u32,
                            },
                            elem,
                            len,
                        ) {
                            Ok(b) => {
                                self.shared.insert(key, b);
                                b
                            }
                            Err(m) => {
                                cx.note(Level::Error, d.span, m, "", None);
                                return;
                            }
                        }
                    }
                };
                let warp = &mut self.warps[w];
                if d.array.is_some() {
                    if let Some(v) = warp.vars.get_mut(slot) {
                        *v = vec![
                            Ok(KVal::Ptr {
                                elem,
                                buf,
                                offset: 0
                            });
                            lanes
                        ];
                    }
                } else {
                    warp.refs.insert(slot, buf);
                }
                cx.changed.insert(slot);
                return;
            }
            // A local array: one buffer per lane (an index past its end is out of bounds, not
            // another lane's cell), reused when the declaration runs again (a loop body).
            let warp_index = self.warps[w].index;
            for l in active.iter().filter(|&l| l < lanes) {
                let key = (d.span, self.block, warp_index, l);
                let buf = match self.locals.get(&key) {
                    Some(b) => *b,
                    None => {
                        let name = format!(
                            "{} (block {}, warp {warp_index}, lane {l})",
                            d.name, self.block
                        );
                        match self.trace.memory.alloc_uninit(
                            &name,
                            Space::Local {
                                block: self.block as u32,
                                warp: warp_index as u32,
                                lane: l as u32,
                            },
                            elem,
                            len,
                        ) {
                            Ok(b) => {
                                self.locals.insert(key, b);
                                b
                            }
                            Err(m) => {
                                cx.note(Level::Error, d.span, m, "", None);
                                return;
                            }
                        }
                    }
                };
                if let Some(c) = self.warps[w].vars.get_mut(slot).and_then(|v| v.get_mut(l)) {
                    *c = Ok(KVal::Ptr {
                        elem,
                        buf,
                        offset: 0,
                    });
                }
            }
            cx.changed.insert(slot);
            return;
        }
        match &d.init {
            Some(init) => {
                let vals = self.eval(w, init, active, cx);
                for l in active.iter() {
                    let v = vals.get(l).cloned().unwrap_or_else(|| Err(Undef::idle()));
                    let _ = self.store_var(w, slot, l, v, d.span, cx);
                }
            }
            None => {
                let warp = &mut self.warps[w];
                if let Some(v) = warp.vars.get_mut(slot) {
                    for l in active.iter() {
                        if let Some(c) = v.get_mut(l) {
                            *c = Err(Undef {
                                line: d.span.line,
                                col: d.span.col,
                                why: format!(
                                    "`{}` was declared at line {} without a value",
                                    d.name, d.span.line
                                ),
                                uninit: true,
                            });
                        }
                    }
                }
                cx.changed.insert(slot);
            }
        }
    }

    /// A barrier or no-op call used as a statement: `Some(true)` when the warp now waits,
    /// `Some(false)` when it was handled and the warp goes on, `None` when it is no such call.
    fn barrier_call(
        &mut self,
        w: usize,
        e: &Expr,
        active: LaneMask,
        cx: &mut StepCtx,
    ) -> Option<bool> {
        let ExprKind::Call(name, args) = &e.kind else {
            return None;
        };
        match builtin(name) {
            Some(Builtin::Barrier) => {
                let arg0 = args.first().and_then(const_int);
                let syncs = match name.as_str() {
                    "__builtin_mxc_barrier_ex" => arg0 != Some(3),
                    "__syncwarp" => false,
                    n if n.starts_with("__builtin_mxc_barrier_and_wait") => arg0 == Some(1),
                    _ => true,
                };
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, active, cx)).collect();
                self.maca_fence(w, name, &vals, active, e.span, cx);
                if !syncs {
                    cx.note(
                        Level::Info,
                        e.span,
                        format!("`{name}` here orders memory only; besides the queued MACA copies, memory operations complete at once in this emulator"),
                        "seed 002 §3.1.9-3.1.10",
                        None,
                    );
                    return Some(false);
                }
                let warp = &self.warps[w];
                let all = LaneMask(warp.exists.0 & warp.running().0);
                if active != all || warp.frames.iter().any(|f| matches!(f, Frame::If { .. })) {
                    cx.note(
                        Level::Warning,
                        e.span,
                        format!("`{name}` in divergent code: a barrier must be reached by every thread of the block, else the behaviour is undefined"),
                        "CUDA C++ Programming Guide, __syncthreads(); seed 002 §3.1.9",
                        None,
                    );
                }
                cx.note(
                    Level::Info,
                    e.span,
                    format!(
                        "warp {} waits at the barrier until every warp of block {} reaches it",
                        warp.index, self.block
                    ),
                    "",
                    None,
                );
                cx.barrier = true;
                Some(true)
            }
            Some(Builtin::NoOp) if name == "printf" => {
                cx.note(
                    Level::Info,
                    e.span,
                    "printf: the emulator does not print; step through the values instead".into(),
                    "",
                    None,
                );
                Some(false)
            }
            Some(Builtin::NoOp) => {
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, active, cx)).collect();
                self.maca_fence(w, name, &vals, active, e.span, cx);
                cx.note(
                    Level::Info,
                    e.span,
                    format!("`{name}` only orders memory or waits cycles; here every memory operation but the queued MACA copies completes at once"),
                    "seed 002 §3.1.6-3.1.8, §3.8.6",
                    None,
                );
                Some(false)
            }
            _ => None,
        }
    }

    /// Evaluates a condition: (lanes where true, lanes where false). An undefined condition
    /// counts as false, with a warning.
    fn condition(
        &mut self,
        w: usize,
        c: &Expr,
        active: LaneMask,
        cx: &mut StepCtx,
    ) -> (LaneMask, LaneMask) {
        let vals = self.eval(w, c, active, cx);
        let (mut t, mut f) = (LaneMask::none(), LaneMask::none());
        for l in active.iter() {
            match vals.get(l).map(|v| v.as_ref().map(KVal::truthy)) {
                Some(Ok(Some(true))) => t = t.with(l),
                Some(Ok(Some(false))) => f = f.with(l),
                Some(Err(u)) => {
                    cx.note(
                        Level::Warning,
                        c.span,
                        format!(
                            "the condition is undefined ({}); the lane is taken as false",
                            u.why
                        ),
                        "",
                        Some(l),
                    );
                    f = f.with(l);
                }
                _ => {
                    cx.note(
                        Level::Error,
                        c.span,
                        "the condition is not a scalar".into(),
                        "",
                        Some(l),
                    );
                    f = f.with(l);
                }
            }
        }
        (t, f)
    }

    // -------------------------------------------------------------- expressions

    fn lane_thread(&self, w: usize, l: usize) -> usize {
        self.warps[w].index * self.trace.launch.lanes + l
    }

    fn builtin_ident(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        let constant = match name {
            "warpSize" => Some(KVal::int(Scalar::I32, lanes as i128)),
            n => maca_icmp(n).map(|v| KVal::int(Scalar::I32, v)),
        };
        for l in mask.iter() {
            let v = if let Some(c) = &constant {
                Ok(c.clone())
            } else if name == "laneId" && self.snippet {
                Ok(KVal::int(Scalar::I32, l as i128))
            } else {
                let msg = format!("`{name}` is not declared");
                cx.note(Level::Error, e.span, msg.clone(), "", None);
                Err(Undef::at(e.span, msg))
            };
            if let Some(c) = out.get_mut(l) {
                *c = v;
            }
        }
        let _ = w;
        out
    }

    fn geometry(&self, w: usize, base: &str, field: &str, l: usize) -> Option<KVal> {
        let k = match field {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return None,
        };
        let launch = &self.trace.launch;
        let split = |n: usize, d: [usize; 3]| {
            let (x, y) = (d[0].max(1), d[1].max(1));
            [n % x, (n / x) % y, n / (x * y)]
        };
        let v = match base {
            "threadIdx" => split(self.lane_thread(w, l), launch.block_dim)[k],
            "blockIdx" => split(self.block, launch.grid_dim)[k],
            "blockDim" => launch.block_dim[k],
            "gridDim" => launch.grid_dim[k],
            _ => return None,
        };
        Some(KVal::int(Scalar::U32, v as i128))
    }

    fn eval(&mut self, w: usize, e: &Expr, mask: LaneMask, cx: &mut StepCtx) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let idle = || vec![Err(Undef::idle()); lanes];
        // One unit of work per node; once the budget is spent the rest of the statement is
        // skipped (the step then ends the run with the limit).
        if !self.meter.work(1) {
            return idle();
        }
        let lanewise = |mask: LaneMask, f: &mut dyn FnMut(usize) -> LaneVal| -> Vec<LaneVal> {
            let mut out = vec![Err(Undef::idle()); lanes];
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = f(l);
            }
            out
        };
        match &e.kind {
            ExprKind::Int {
                value,
                unsigned,
                long,
            } => {
                let v = *value as i128;
                let ty = if !unsigned && !long && v <= i32::MAX as i128 {
                    Scalar::I32
                } else if *unsigned && !long && v <= u32::MAX as i128 {
                    Scalar::U32
                } else if !unsigned && v <= i64::MAX as i128 {
                    Scalar::I64
                } else {
                    Scalar::U64
                };
                lanewise(mask, &mut |_| Ok(KVal::int(ty, v)))
            }
            ExprKind::Float { value, single } => {
                let ty = if *single { Scalar::F32 } else { Scalar::F64 };
                lanewise(mask, &mut |_| Ok(KVal::float(ty, *value)))
            }
            ExprKind::Bool(b) => lanewise(mask, &mut |_| Ok(KVal::bool(*b))),
            ExprKind::SizeOf(n) => lanewise(mask, &mut |_| Ok(KVal::int(Scalar::U64, *n as i128))),
            ExprKind::Str(_) => {
                let m = "a string literal has no value in a lane".to_string();
                cx.note(Level::Error, e.span, m.clone(), "", None);
                lanewise(mask, &mut |_| Err(Undef::at(e.span, m.clone())))
            }
            ExprKind::Ident(name) => match self.idents.get(&(self.cur, e.span)).copied() {
                Some(slot) => self.read_var(w, slot, e.span, mask, cx),
                None => self.builtin_ident(w, e, name, mask, cx),
            },
            ExprKind::Member(base, field) => {
                if let ExprKind::Ident(b) = &base.kind {
                    if !self.idents.contains_key(&(self.cur, base.span))
                        && matches!(
                            b.as_str(),
                            "threadIdx" | "blockIdx" | "blockDim" | "gridDim"
                        )
                    {
                        let mut out = idle();
                        for l in mask.iter().filter(|&l| l < lanes) {
                            out[l] = self.geometry(w, b, field, l).ok_or_else(|| {
                                let m = format!("`{b}` has fields x, y, z, not `{field}`");
                                cx.note(Level::Error, e.span, m.clone(), "", None);
                                Undef::at(e.span, m)
                            });
                        }
                        return out;
                    }
                }
                let vals = self.eval(w, base, mask, cx);
                let k = match field.as_str() {
                    "x" => Some(0),
                    "y" => Some(1),
                    "z" => Some(2),
                    "w" => Some(3),
                    _ => None,
                };
                lanewise(mask, &mut |l| {
                    let v = vals[l].clone()?;
                    match (&v, k) {
                        (KVal::Vector { items, .. }, Some(k)) if k < items.len() => {
                            Ok(items[k].clone())
                        }
                        _ => {
                            let m = format!("`.{field}` needs a vector with that component");
                            cx.note(Level::Error, e.span, m.clone(), "", None);
                            Err(Undef::at(e.span, m))
                        }
                    }
                })
            }
            ExprKind::Index(base, idx) => {
                let b = self.eval(w, base, mask, cx);
                let i = self.eval(w, idx, mask, cx);
                let mut out = idle();
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match (&b[l], &i[l]) {
                        (Err(u), _) | (_, Err(u)) => Err(u.clone()),
                        (Ok(KVal::Vector { items, .. }), Ok(k)) => {
                            let k = k.as_int().unwrap_or(-1);
                            usize::try_from(k)
                                .ok()
                                .and_then(|k| items.get(k))
                                .cloned()
                                .ok_or_else(|| {
                                    let m = format!("component {k} is outside the vector");
                                    cx.note(Level::Warning, e.span, m.clone(), "", Some(l));
                                    Undef::at(e.span, m)
                                })
                        }
                        (Ok(p), Ok(k)) => match self.address(p, k) {
                            Ok((buf, off)) => self.load(buf, off, e.span, l, cx),
                            Err(m) => {
                                cx.note(Level::Error, e.span, m.clone(), "", Some(l));
                                Err(Undef::at(e.span, m))
                            }
                        },
                    };
                }
                out
            }
            ExprKind::Deref(p) => {
                let ptrs = self.eval(w, p, mask, cx);
                let mut out = idle();
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match &ptrs[l] {
                        Err(u) => Err(u.clone()),
                        Ok(p) => match self.address(p, &KVal::int(Scalar::I32, 0)) {
                            Ok((buf, off)) => self.load(buf, off, e.span, l, cx),
                            Err(m) => {
                                cx.note(Level::Error, e.span, m.clone(), "", Some(l));
                                Err(Undef::at(e.span, m))
                            }
                        },
                    };
                }
                out
            }
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Index(base, idx) => {
                    let b = self.eval(w, base, mask, cx);
                    let i = self.eval(w, idx, mask, cx);
                    lanewise(mask, &mut |l| {
                        let (p, k) = (b[l].clone()?, i[l].clone()?);
                        binary(BinOp::Add, &p, &k).map_err(|f| {
                            cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                            Undef::at(e.span, f.message)
                        })
                    })
                }
                ExprKind::Deref(p) => self.eval(w, p, mask, cx),
                _ => {
                    let m = "taking the address of a variable is not supported (only of array elements)".to_string();
                    cx.note(Level::Error, e.span, m.clone(), "", None);
                    lanewise(mask, &mut |_| Err(Undef::at(e.span, m.clone())))
                }
            },
            ExprKind::Call(name, args) => self.call(w, e, name, args, mask, cx),
            ExprKind::Unary(op, a) => {
                let v = self.eval(w, a, mask, cx);
                lanewise(mask, &mut |l| {
                    let x = v[l].clone()?;
                    unary(*op, &x).map_err(|f| {
                        cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                        Undef::at(e.span, f.message)
                    })
                })
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(w, a, mask, cx);
                let y = self.eval(w, b, mask, cx);
                lanewise(mask, &mut |l| {
                    let (p, q) = (x[l].clone()?, y[l].clone()?);
                    binary(*op, &p, &q).map_err(|f| {
                        cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                        Undef::at(e.span, f.message)
                    })
                })
            }
            ExprKind::Logical(and, a, b) => {
                let x = self.eval(w, a, mask, cx);
                let mut need = LaneMask::none();
                for l in mask.iter().filter(|&l| l < lanes) {
                    if let Ok(v) = &x[l] {
                        if v.truthy() == Some(*and) {
                            need = need.with(l);
                        }
                    }
                }
                let y = self.eval(w, b, need, cx);
                lanewise(mask, &mut |l| {
                    let p = x[l].clone()?;
                    let t = p
                        .truthy()
                        .ok_or_else(|| Undef::at(e.span, "not a scalar"))?;
                    if t != *and {
                        return Ok(KVal::bool(t));
                    }
                    let q = y[l].clone()?;
                    q.truthy()
                        .map(KVal::bool)
                        .ok_or_else(|| Undef::at(e.span, "not a scalar"))
                })
            }
            ExprKind::Ternary(c, a, b) => {
                let (t, f) = self.condition(w, c, mask, cx);
                let x = self.eval(w, a, t, cx);
                let y = self.eval(w, b, f, cx);
                lanewise(mask, &mut |l| {
                    if t.contains(l) {
                        x[l].clone()
                    } else {
                        y[l].clone()
                    }
                })
            }
            ExprKind::Cast(ty, a) => {
                let v = self.eval(w, a, mask, cx);
                lanewise(mask, &mut |l| {
                    let x = v[l].clone()?;
                    match ty {
                        Ty::Val(t) => x.convert(*t).map_err(|f| {
                            cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                            Undef::at(e.span, f.message)
                        }),
                        Ty::Ptr(elem) => match x {
                            KVal::Ptr { buf, offset, .. } => Ok(KVal::Ptr {
                                elem: *elem,
                                buf,
                                offset,
                            }),
                            _ => {
                                let m =
                                    "only pointers can be cast to pointer types here".to_string();
                                cx.note(Level::Error, e.span, m.clone(), "", None);
                                Err(Undef::at(e.span, m))
                            }
                        },
                        Ty::Void => Err(Undef::at(e.span, "(void) has no value")),
                    }
                })
            }
            ExprKind::Comma(a, b) => {
                self.eval(w, a, mask, cx);
                self.eval(w, b, mask, cx)
            }
            ExprKind::Assign(op, lhs, rhs) => {
                let places = self.place(w, lhs, mask, cx);
                let r = self.eval(w, rhs, mask, cx);
                let mut out = idle();
                for l in mask.iter().filter(|&l| l < lanes) {
                    let Ok(place) = places[l].clone() else {
                        out[l] = places[l].clone().map(|_| KVal::bool(false));
                        continue;
                    };
                    let value = match op {
                        None => r[l].clone(),
                        Some(op) => {
                            let old = self.read_place(w, place, l, lhs.span, cx);
                            match (old, r[l].clone()) {
                                (Ok(a), Ok(b)) => binary(*op, &a, &b).map_err(|f| {
                                    cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                                    Undef::at(e.span, f.message)
                                }),
                                (Err(u), _) | (_, Err(u)) => Err(u),
                            }
                        }
                    };
                    out[l] = self.write_place(w, place, l, value, e.span, cx);
                }
                out
            }
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } => {
                let places = self.place(w, target, mask, cx);
                let mut out = idle();
                for l in mask.iter().filter(|&l| l < lanes) {
                    let Ok(place) = places[l].clone() else {
                        continue;
                    };
                    let old = self.read_place(w, place, l, target.span, cx);
                    let new = old.clone().and_then(|v| {
                        let op = if *inc { BinOp::Add } else { BinOp::Sub };
                        binary(op, &v, &KVal::int(Scalar::I32, 1)).map_err(|f| {
                            cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                            Undef::at(e.span, f.message)
                        })
                    });
                    let stored = self.write_place(w, place, l, new, e.span, cx);
                    out[l] = if *prefix { stored } else { old };
                }
                out
            }
        }
    }

    fn read_var(
        &mut self,
        w: usize,
        slot: usize,
        span: Span,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        if let Some(&buf) = self.warps[w].refs.get(&slot) {
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = self.load(buf, 0, span, l, cx);
            }
            return out;
        }
        let name = self
            .slots
            .get(slot)
            .map_or("", |s| s.name.as_str())
            .to_string();
        for l in mask.iter().filter(|&l| l < lanes) {
            let v = self.warps[w].vars.get(slot).and_then(|v| v.get(l)).cloned();
            let v = v.unwrap_or_else(|| Err(Undef::idle()));
            if let Err(u) = &v {
                if u.uninit {
                    cx.note(
                        Level::Warning,
                        span,
                        format!(
                            "`{name}` is read uninitialized ({}): its value is undefined",
                            u.why
                        ),
                        "ISO C11 6.7.9p10; seed 002 §3.8.3 example",
                        Some(l),
                    );
                }
            }
            out[l] = v;
        }
        out
    }

    fn address(&self, p: &KVal, k: &KVal) -> Result<(usize, i64), String> {
        match (p, k.as_int()) {
            (KVal::Ptr { buf, offset, .. }, Some(k)) => {
                let k = i64::try_from(k).map_err(|_| "index out of range".to_string())?;
                Ok((*buf, offset.saturating_add(k)))
            }
            (KVal::Ptr { .. }, None) => Err("an index must be an integer".into()),
            _ => Err("only pointers, arrays and vectors can be indexed".into()),
        }
    }

    fn load(&self, buf: usize, off: i64, span: Span, lane: usize, cx: &mut StepCtx) -> LaneVal {
        if let Some(u) = self.maca_unready(buf, off, span) {
            cx.note(
                Level::Warning,
                span,
                u.why.clone(),
                "seed 002 §3.1.4, §3.1.10",
                Some(lane),
            );
            return Err(u);
        }
        let (name, len) = self
            .trace
            .memory
            .buffers
            .get(buf)
            .map_or((String::new(), 0), |b| (b.name.clone(), b.cells.len()));
        match self.trace.memory.read(buf, off) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => {
                // One message for all lanes; the cell is in each lane's reason.
                cx.note(
                    Level::Warning,
                    span,
                    format!("reads cells of `{name}` that were never written: undefined"),
                    "",
                    Some(lane),
                );
                Err(Undef::at(
                    span,
                    format!("`{name}[{off}]` holds no value (never written)"),
                ))
            }
            Err(m) => {
                cx.note(
                    Level::Warning,
                    span,
                    format!(
                        "reads `{name}` outside its {len} cells: out-of-bounds access is undefined"
                    ),
                    "ISO C11 6.5.6p8",
                    Some(lane),
                );
                Err(Undef::at(span, m))
            }
        }
    }

    fn place(
        &mut self,
        w: usize,
        e: &Expr,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<Result<Place, Undef>> {
        let lanes = self.trace.launch.lanes;
        let mut out: Vec<Result<Place, Undef>> = vec![Err(Undef::idle()); lanes];
        let bad = |cx: &mut StepCtx, m: String| {
            cx.note(Level::Error, e.span, m.clone(), "", None);
            Err(Undef::at(e.span, m))
        };
        match &e.kind {
            ExprKind::Ident(name) => {
                let p = match self.idents.get(&(self.cur, e.span)) {
                    Some(&slot) => match self.warps[w].refs.get(&slot) {
                        Some(&buf) => Ok(Place::Mem(buf, 0)),
                        None => Ok(Place::Var(slot)),
                    },
                    None => bad(cx, format!("`{name}` is not a declared variable")),
                };
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = p.clone();
                }
            }
            ExprKind::Member(base, _) | ExprKind::Index(base, _)
                if matches!(&base.kind, ExprKind::Ident(_))
                    && self.idents.get(&(self.cur, base.span)).is_some_and(|&s| {
                        matches!(self.slots.get(s).map(|s| s.ty), Some(Ty::Val(v)) if v.lanes > 1)
                    }) =>
            {
                let slot = self.idents[&(self.cur, base.span)];
                let ks: Vec<Option<usize>> = match &e.kind {
                    ExprKind::Member(_, _) => {
                        let k = match field_of(e) {
                            "x" => Some(0),
                            "y" => Some(1),
                            "z" => Some(2),
                            "w" => Some(3),
                            _ => None,
                        };
                        vec![k; lanes]
                    }
                    ExprKind::Index(_, idx) => {
                        let i = self.eval(w, idx, mask, cx);
                        i.iter()
                            .map(|v| v.as_ref().ok().and_then(KVal::as_int).and_then(|k| usize::try_from(k).ok()))
                            .collect()
                    }
                    _ => vec![None; lanes],
                };
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match ks[l] {
                        Some(k) => Ok(Place::Comp(slot, k)),
                        None => bad(cx, "not a component of the vector".into()),
                    };
                }
            }
            ExprKind::Index(base, idx) => {
                let b = self.eval(w, base, mask, cx);
                let i = self.eval(w, idx, mask, cx);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match (&b[l], &i[l]) {
                        (Err(u), _) | (_, Err(u)) => {
                            cx.note(Level::Warning, e.span, format!("the address is undefined ({}): nothing is written", u.why), "", Some(l));
                            Err(u.clone())
                        }
                        (Ok(p), Ok(k)) => match self.address(p, k) {
                            Ok((buf, off)) => Ok(Place::Mem(buf, off)),
                            Err(m) => bad(cx, m),
                        },
                    };
                }
            }
            ExprKind::Deref(p) => {
                let ptrs = self.eval(w, p, mask, cx);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match &ptrs[l] {
                        Err(u) => Err(u.clone()),
                        Ok(p) => match self.address(p, &KVal::int(Scalar::I32, 0)) {
                            Ok((buf, off)) => Ok(Place::Mem(buf, off)),
                            Err(m) => bad(cx, m),
                        },
                    };
                }
            }
            _ => {
                let r = bad(cx, "this expression cannot be assigned to".into());
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = r.clone();
                }
            }
        }
        out
    }

    fn read_place(
        &mut self,
        w: usize,
        p: Place,
        l: usize,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        match p {
            Place::Var(slot) => self
                .read_var(w, slot, span, LaneMask::none().with(l), cx)
                .get(l)
                .cloned()
                .unwrap_or_else(|| Err(Undef::idle())),
            Place::Comp(slot, k) => {
                let v = self.read_var(w, slot, span, LaneMask::none().with(l), cx);
                match v.get(l).cloned() {
                    Some(Ok(KVal::Vector { items, .. })) => items
                        .get(k)
                        .cloned()
                        .ok_or_else(|| Undef::at(span, "component outside the vector")),
                    Some(Err(u)) => Err(u),
                    _ => Err(Undef::at(span, "not a vector")),
                }
            }
            Place::Mem(buf, off) => self.load(buf, off, span, l, cx),
        }
    }

    fn store_var(
        &mut self,
        w: usize,
        slot: usize,
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let ty = self.slots.get(slot).map(|s| s.ty);
        let v = v.and_then(|x| match (ty, &x) {
            (Some(Ty::Val(t)), _) => x.convert(t).map_err(|f| {
                cx.note(f.level, span, f.message.clone(), "", Some(l));
                Undef::at(span, f.message)
            }),
            (Some(Ty::Ptr(elem)), KVal::Ptr { buf, offset, .. }) => Ok(KVal::Ptr {
                elem,
                buf: *buf,
                offset: *offset,
            }),
            (Some(Ty::Ptr(_)), _) => {
                let m = "only a pointer can be stored in a pointer variable".to_string();
                cx.note(Level::Error, span, m.clone(), "", Some(l));
                Err(Undef::at(span, m))
            }
            _ => Ok(x),
        });
        if let Some(c) = self.warps[w]
            .vars
            .get_mut(slot)
            .and_then(|vs| vs.get_mut(l))
        {
            *c = v.clone();
        }
        cx.changed.insert(slot);
        v
    }

    fn write_place(
        &mut self,
        w: usize,
        p: Place,
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        match p {
            Place::Var(slot) => self.store_var(w, slot, l, v, span, cx),
            Place::Comp(slot, k) => {
                let cur = self.warps[w]
                    .vars
                    .get(slot)
                    .and_then(|vs| vs.get(l))
                    .cloned();
                let elem = match self.slots.get(slot).map(|s| s.ty) {
                    Some(Ty::Val(t)) => t,
                    _ => return Err(Undef::at(span, "not a vector")),
                };
                let mut items = match cur {
                    Some(Ok(KVal::Vector { items, .. })) => items,
                    _ => vec![KVal::zero(ValTy::scalar(elem.scalar)); elem.lanes as usize],
                };
                let comp = v.and_then(|x| {
                    x.convert(ValTy::scalar(elem.scalar))
                        .map_err(|f| Undef::at(span, f.message))
                });
                match comp {
                    Ok(c) if k < items.len() => {
                        items[k] = c.clone();
                        let _ = self.store_var(
                            w,
                            slot,
                            l,
                            Ok(KVal::Vector {
                                ty: elem.scalar,
                                items,
                            }),
                            span,
                            cx,
                        );
                        Ok(c)
                    }
                    Ok(_) => Err(Undef::at(span, "component outside the vector")),
                    Err(u) => {
                        let _ = self.store_var(w, slot, l, Err(u.clone()), span, cx);
                        Err(u)
                    }
                }
            }
            Place::Mem(buf, off) => {
                let elem = self.trace.memory.buffers.get(buf).map(|b| b.elem);
                let v = match (v, elem) {
                    (Ok(x), Some(t)) => x.convert(t).map_err(|f| {
                        cx.note(f.level, span, f.message.clone(), "", Some(l));
                        Undef::at(span, f.message)
                    }),
                    (v, _) => v,
                };
                let (name, len) = self
                    .trace
                    .memory
                    .buffers
                    .get(buf)
                    .map_or((String::new(), 0), |b| (b.name.clone(), b.cells.len()));
                if let Some(&other) = cx.written.get(&(buf, off)) {
                    if other != l {
                        cx.note(
                            Level::Warning,
                            span,
                            format!("several lanes write `{name}[{off}]` in one statement: one value survives (here the highest lane's)"),
                            "CUDA C++ Programming Guide: concurrent writes to one address by a warp — one succeeds, which is undefined",
                            Some(l),
                        );
                        cx.note(
                            Level::Warning,
                            span,
                            format!("several lanes write `{name}[{off}]` in one statement: one value survives (here the highest lane's)"),
                            "",
                            Some(other),
                        );
                    }
                }
                match self.trace.memory.write(buf, off, v.as_ref().ok().cloned()) {
                    Ok(()) => {
                        cx.written.insert((buf, off), l);
                        cx.writes.push(MemWrite {
                            buffer: buf,
                            index: off as usize,
                            value: v.as_ref().ok().cloned(),
                            lane: l,
                        });
                        if let Err(u) = &v {
                            cx.note(
                                Level::Warning,
                                span,
                                format!("stores undefined values in `{name}` (e.g. {})", u.why),
                                "",
                                Some(l),
                            );
                        }
                        v
                    }
                    Err(m) => {
                        cx.note(
                            Level::Warning,
                            span,
                            format!(
                                "writes `{name}` outside its {len} cells: out-of-bounds access is undefined; nothing is written"
                            ),
                            "ISO C11 6.5.6p8",
                            Some(l),
                        );
                        Err(Undef::at(span, m))
                    }
                }
            }
        }
    }

    /// An atomic read-modify-write: every active lane in turn (lane order; the hardware order
    /// is unspecified) reads the cell, writes the combined value and gets the old one.
    fn atomic(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        let need = if name == "atomicCAS" { 3 } else { 2 };
        let vals: Vec<Vec<LaneVal>> = args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
        if vals.len() != need {
            let m = format!("`{name}` takes {need} arguments, got {}", vals.len());
            cx.note(Level::Error, e.span, m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
            return out;
        }
        const RULE: &str = "CUDA C++ Programming Guide, Atomic Functions";
        if mask.count() > 1 {
            cx.note(
                Level::Info,
                e.span,
                format!("`{name}` from several lanes: applied here in lane order; the hardware order is unspecified"),
                RULE,
                None,
            );
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            let ptr = vals[0][l].clone();
            let operand = vals[1][l].clone();
            let third = vals.get(2).map(|v| v[l].clone());
            let r = (|| -> Result<(usize, i64, LaneVal, LaneVal), Undef> {
                let p = ptr?;
                let (buf, off) = self
                    .address(&p, &KVal::int(Scalar::I32, 0))
                    .map_err(|m| Undef::at(e.span, m))?;
                let old = self.load(buf, off, e.span, l, cx);
                let v = operand?;
                let new = match (&old, name) {
                    (_, "atomicExch") => Ok(v.clone()),
                    (Err(u), _) => Err(u.clone()),
                    (Ok(o), "atomicCAS") => {
                        let val = third.unwrap_or_else(|| Err(Undef::idle()))?;
                        let same = binary(BinOp::Eq, o, &v).ok().and_then(|b| b.truthy());
                        Ok(if same == Some(true) { val } else { o.clone() })
                    }
                    (Ok(o), _) => {
                        let op = match name {
                            "atomicAdd" => Some(BinOp::Add),
                            "atomicSub" => Some(BinOp::Sub),
                            "atomicAnd" => Some(BinOp::And),
                            "atomicOr" => Some(BinOp::Or),
                            "atomicXor" => Some(BinOp::Xor),
                            _ => None,
                        };
                        match op {
                            // Atomics wrap (no signed-overflow rule applies to them).
                            Some(op) => match (o.as_int(), v.as_int()) {
                                (Some(a), Some(b)) if op == BinOp::Add => {
                                    Ok(KVal::int(o.val_ty().scalar, a.wrapping_add(b)))
                                }
                                (Some(a), Some(b)) if op == BinOp::Sub => {
                                    Ok(KVal::int(o.val_ty().scalar, a.wrapping_sub(b)))
                                }
                                _ => binary(op, o, &v).map_err(|f| Undef::at(e.span, f.message)),
                            },
                            None => {
                                let less = binary(BinOp::Lt, &v, o)
                                    .ok()
                                    .and_then(|b| b.truthy())
                                    .unwrap_or(false);
                                let take_new = (name == "atomicMin") == less;
                                Ok(if take_new { v.clone() } else { o.clone() })
                            }
                        }
                    }
                };
                Ok((buf, off, old, new))
            })();
            match r {
                Ok((buf, off, old, new)) => {
                    let elem = self.trace.memory.buffers.get(buf).map(|b| b.elem);
                    let stored = match (new, elem) {
                        (Ok(x), Some(t)) => x.convert(t).ok(),
                        _ => None,
                    };
                    if self.trace.memory.write(buf, off, stored.clone()).is_ok() {
                        cx.writes.push(MemWrite {
                            buffer: buf,
                            index: off as usize,
                            value: stored,
                            lane: l,
                        });
                    }
                    out[l] = old;
                }
                Err(u) => {
                    cx.note(
                        Level::Warning,
                        e.span,
                        format!("`{name}`: {}", u.why),
                        RULE,
                        Some(l),
                    );
                    out[l] = Err(u);
                }
            }
        }
        out
    }

    fn call(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        if let Some(&slot) = self.hoisted.get(&(self.cur, e.span)) {
            // An inlined device function already ran; its result is in `slot`.
            if slot == usize::MAX {
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Err(Undef::at(e.span, format!("`{name}` returns void")));
                }
                return out;
            }
            return self.read_var(w, slot, e.span, mask, cx);
        }
        if let Some(out) = self.maca_memory_call(w, e, name, args, mask, cx) {
            return out;
        }
        match builtin(name) {
            Some(Builtin::LaneId) => {
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Ok(KVal::int(Scalar::U32, l as i128));
                }
                return out;
            }
            Some(Builtin::Barrier | Builtin::NoOp) => {
                for a in args {
                    self.eval(w, a, mask, cx);
                }
                let m = format!("`{name}` has no value; call it as a statement");
                cx.note(Level::Error, e.span, m.clone(), "", None);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Err(Undef::at(e.span, m.clone()));
                }
                return out;
            }
            Some(Builtin::Atomic) => return self.atomic(w, e, name, args, mask, cx),
            Some(Builtin::Math) => {
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
                for l in mask.iter().filter(|&l| l < lanes) {
                    let lane_args: Result<Vec<KVal>, Undef> =
                        vals.iter().map(|v| v[l].clone()).collect();
                    out[l] = lane_args.and_then(|a| {
                        builtins::math(name, &a).map_err(|m| {
                            cx.note(Level::Warning, e.span, m.clone(), "", Some(l));
                            Undef::at(e.span, m)
                        })
                    });
                }
                return out;
            }
            None => {}
        }
        let Some(spec) = find_kernel_op(self.trace.launch.dialect, name) else {
            let m = if self.functions.iter().any(|f| f == name) {
                format!("`{name}` is a function of this source: calls to other kernel functions are not supported (inline its body)")
            } else {
                format!("`{name}` is neither a kernel built-in nor an operation of any dialect the core emulates")
            };
            for a in args {
                self.eval(w, a, mask, cx);
            }
            cx.note(Level::Error, e.span, m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
            return out;
        };
        if spec.name != name {
            cx.note(
                Level::Info,
                e.span,
                format!(
                    "`{name}` is read as `{}` (a documented alias or misspelling)",
                    spec.name
                ),
                spec.source,
                None,
            );
        }
        let vals: Vec<Vec<LaneVal>> = args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
        let idents: Vec<Option<String>> = args
            .iter()
            .map(|a| match &a.kind {
                ExprKind::Ident(n) if !self.idents.contains_key(&(self.cur, a.span)) => {
                    Some(n.clone())
                }
                _ => None,
            })
            .collect();
        // Threads that returned from the kernel, or never launched (a partial warp), have exited.
        let exited = self.warps.get(w).map_or(LaneMask::default(), |warp| {
            (0..lanes)
                .filter(|&l| {
                    !warp.exists.contains(l)
                        || matches!(warp.status.get(l), Some(LaneStatus::Returned))
                })
                .fold(LaneMask::default(), LaneMask::with)
        });
        let mut outcome = call_op(
            spec,
            lanes,
            mask,
            exited,
            &vals,
            &idents,
            (e.span.line, e.span.col),
        );
        // Say which line left a source lane inactive.
        for step in &mut outcome.steps {
            for (i, r) in step.results.iter_mut().enumerate() {
                if r.source != Source::Undefined {
                    continue;
                }
                let Some(j) = r.from else { continue };
                if mask.contains(j) {
                    continue;
                }
                if let Some(line) = self.warps[w].why_inactive(j) {
                    let extra = format!(" — lane {j} is not executing this call: it took the other path at line {line}");
                    if let Some(why) = &mut r.why {
                        why.push_str(&extra);
                    }
                    if let Some(Err(u)) = outcome.values.get_mut(i) {
                        u.why.push_str(&extra);
                    }
                    cx.note(
                        Level::Warning,
                        e.span,
                        format!("{} reads lanes that are inactive here (they took the other path at line {line}): those results are undefined", spec.name),
                        spec.source,
                        Some(i),
                    );
                }
            }
        }
        for (level, message, rule) in outcome.diagnostics {
            cx.note(level, e.span, message, &rule, None);
        }
        cx.ops.extend(outcome.steps);
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = outcome
                .values
                .get(l)
                .cloned()
                .unwrap_or_else(|| Err(Undef::idle()));
        }
        out
    }
}

fn field_of(e: &Expr) -> &str {
    match &e.kind {
        ExprKind::Member(_, f) => f.as_str(),
        _ => "",
    }
}

/// Parses and runs a kernel to the end (or to a limit).
///
/// # Errors
/// [`KernelError`] when the source does not parse or the launch is invalid (see
/// [`Executor::new`]). Faults while running — undefined behaviour, out-of-bounds accesses, the
/// step or cell limit — do not fail: they are diagnostics on their steps and the
/// [`KernelTrace::outcome`].
pub fn run_kernel(source: &str, config: LaunchConfig) -> Result<KernelTrace, KernelError> {
    let mut ex = Executor::new(source, config)?;
    while ex.step().is_some() {}
    Ok(ex.into_trace())
}
