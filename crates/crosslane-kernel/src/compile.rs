//! The compiled program: the kernel's AST flattened to an instruction list ([`Inst`]) with
//! variables resolved to slots and device-function calls inlined (what a name, a declarator or a
//! hoisted call resolves to is keyed by inlined instance and node id, [`Key`], never by source
//! position), within the code and nesting budgets.

use crate::compile_refs::{alias_deref_stmt, ref_deref_stmt, ref_member, stmt_exprs_mut};
use std::collections::HashMap;

use super::ast::*;
use super::budget::{LimitHit, Resource};
use super::builtins::{self, builtin, find_kernel_op};
use super::types::Ty;
use super::KernelError;
use crosslane_core::op::Dialect;

#[derive(Clone, Debug)]
pub(crate) struct SlotInfo {
    pub(crate) name: String,
    pub(crate) ty: Ty,
}

#[derive(Clone, Debug)]
pub(crate) enum Inst {
    Decl {
        span: Span,
        end: Span,
        storage: Storage,
        decls: Vec<Declarator>,
        /// For a `__shared__` declaration, the function instance it is written in (0 for the
        /// kernel's own body): a block-scope `__shared__` variable has static storage, one
        /// object per instance of its function (C++17 [basic.stc.static], [temp.inst]/3 —
        /// each specialization of a function template is its own function), so two
        /// instantiations of one template never share it while two calls of one do.
        owner: u32,
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
        /// A hidden parameter the front end added (a tile's meta pair,
        /// `crate::parser::HIDDEN_META_PREFIX`): bound without a trace step of its own, unless
        /// the binding notes a diagnostic.
        quiet: bool,
    },
    /// A call one level deeper than [`Limits::max_call_depth`](crate::budget::Limits) allows
    /// (recursion inlined to the budget): a warp that reaches it with any lane active stops the
    /// run with that budget named; a level no lane reaches costs nothing.
    CallTooDeep {
        span: Span,
        /// The function called.
        name: String,
        /// Whether the nesting budget ([`Limits::max_depth`](crate::budget::Limits)) rather
        /// than the call depth ended the inlining: each level of this recursion nests
        /// statements, and one more level would pass it.
        nesting: bool,
    },
    End,
}

/// Identifiers, declarations and hoisted calls are keyed by (inlined instance, node id): the
/// same source text inlined twice gets different variables, and two nodes at one position (a
/// macro expansion, a synthesized lowering) stay apart.
pub(crate) type Key = (u32, NodeId);

#[derive(Default)]
pub(crate) struct Compiler {
    pub(crate) code: Vec<Inst>,
    pub(crate) code_inst: Vec<u32>,
    /// The user's calls into library declarations, by inlined instance ([`crate::lib_site`]).
    pub(crate) lib_sites: crate::lib_site::LibSites,
    pub(crate) slots: Vec<SlotInfo>,
    pub(crate) idents: HashMap<Key, usize>,
    pub(crate) decl_slots: HashMap<Key, usize>,
    pub(crate) hoisted: HashMap<Key, usize>,
    pub(crate) scopes: Vec<HashMap<String, usize>>,
    pub(crate) loops: usize,
    pub(crate) inst: u32,
    pub(crate) next_inst: u32,
    pub(crate) functions: Vec<Function>,
    pub(crate) ret_target: Option<(usize, Option<usize>)>,
    pub(crate) prefix: String,
    pub(crate) call_depth: u32,
    /// [`Limits::call_depth`](crate::budget::Limits::call_depth).
    pub(crate) max_call_depth: u32,
    /// The functions being inlined, outermost first, each with the statement nesting at its
    /// entry: a name found here again is a recursive call, and the nesting since says what
    /// one more level of it costs.
    pub(crate) inlining: Vec<(String, u32)>,
    /// Ids of the function instances holding `__shared__` declarations (see `Inst::Decl`'s
    /// `owner`), by instance name; ids start at 1.
    pub(crate) shared_owners: HashMap<String, u32>,
    pub(crate) error: Option<KernelError>,
    /// Device functions by name (index into `functions`).
    pub(crate) by_name: HashMap<String, usize>,
    /// Instructions emitted so far, each weighted by its expression nodes.
    pub(crate) cost: u64,
    /// [`Limits::max_code`].
    pub(crate) max_code: u64,
    /// Statements being compiled, one inside another (inlined bodies included).
    pub(crate) nest: u32,
    /// [`Limits::depth`].
    pub(crate) max_nest: u32,
    /// Outer scopes an inlined device function sees besides its own: 0 for C (a device
    /// function sees only its parameters and its own names); 2 for WGSL, whose lowered entry
    /// declares the module-scope variables (bindings, `var<workgroup>`, `var<private>`) in its
    /// first two scopes and every helper function may name them (WGSL § Module-scope
    /// declarations).
    pub(crate) module_scopes: usize,
    /// What the name check needs (`None`: no check, as for a lowered WGSL shader, whose names
    /// naga has already resolved).
    pub(crate) check: Option<NameCheck>,
    /// Every unknown name found, in source order, each once: reported together before the run.
    pub(crate) name_errors: Vec<KernelError>,
}

/// What decides whether a name the source uses exists: the dialect whose operations a call may
/// name, whether the entry is a snippet (where `laneId` is predefined), and the names of every
/// function of the source (a call to another kernel gets its own message).
#[derive(Clone, Debug)]
pub(crate) struct NameCheck {
    pub(crate) dialect: Dialect,
    pub(crate) snippet: bool,
    pub(crate) source_functions: Vec<String>,
    /// The source's `#include "…"` lines, not read (`pp::PpRecord::local_includes`): an
    /// undeclared name's message names them.
    pub(crate) local_includes: Vec<(u32, String)>,
    /// The AMD target a HIP or AMD GCN run runs as (`None` for another dialect): the dot
    /// built-ins a target lacks are refused ([`crate::mathlib::amdgcn_dot::target_refusal`]).
    pub(crate) amd_target: Option<String>,
    /// Unknown types by the function they lie in ([`crate::ast::Program::type_errors`]): an
    /// error once the function is compiled.
    pub(crate) type_errors: Vec<(String, u32, u32, String)>,
    /// Blocks in the launch's grid: `grid.sync()` is refused when they are more than the
    /// model device holds at once ([`crate::parser::GRID_SYNC_REFUSAL`]).
    pub(crate) blocks: usize,
    /// Threads per block of the launch (the model device's resident blocks depend on them).
    pub(crate) threads: usize,
    /// Whether host code launches the entry without the cooperative API: its `grid.sync()`
    /// is the run's error where reached (`machine/coop_launch.rs`), not the grid-size refusal.
    pub(crate) plain_launch: bool,
}

/// The built-in variables read as `NAME.x` (CUDA C++ Programming Guide, Built-in Variables;
/// HIP and MACA use the same names).
const GEOMETRY: [&str; 4] = ["threadIdx", "blockIdx", "blockDim", "gridDim"];

/// The expressions an instruction carries (initializers, array sizes, conditions, values).
pub(crate) fn inst_exprs(i: &Inst) -> Vec<&Expr> {
    match i {
        Inst::Decl { decls, .. } => decls
            .iter()
            .flat_map(|d| {
                let size = match &d.array {
                    Some(Some(n)) => Some(n),
                    _ => None,
                };
                d.init.iter().chain(size)
            })
            .collect(),
        Inst::Eval { expr, .. } | Inst::Bind { expr, .. } => vec![expr],
        Inst::Branch { cond, .. } | Inst::LoopBack { cond, .. } => vec![cond],
        Inst::LoopTest { cond, .. } => cond.iter().collect(),
        Inst::Return { value, .. } => value.iter().collect(),
        _ => Vec::new(),
    }
}

/// The local scalar and vector variables of `c`'s code whose address is taken (`&x`): they
/// live in per-lane memory when the kernel runs.
pub(crate) fn addr_taken(
    code: &[Inst],
    code_inst: &[u32],
    idents: &HashMap<Key, usize>,
    slots: &[SlotInfo],
) -> std::collections::HashSet<usize> {
    let mut out = std::collections::HashSet::new();
    for (pc, inst) in code.iter().enumerate() {
        let cur = code_inst.get(pc).copied().unwrap_or(0);
        for e in inst_exprs(inst) {
            for x in e.walk() {
                let ExprKind::AddrOf(inner) = &x.kind else {
                    continue;
                };
                // `&v.x` (`.y .z .w`) of a local vector: the vector lives in memory too, so the
                // component has an address (`(__half2*)&f4.y`).
                let inner = match &inner.kind {
                    ExprKind::Member(base, f)
                        if matches!(f.as_str(), "x" | "y" | "z" | "w")
                            && matches!(base.kind, ExprKind::Ident(_)) =>
                    {
                        base
                    }
                    _ => inner,
                };
                if !matches!(inner.kind, ExprKind::Ident(_)) {
                    continue;
                }
                if let Some(&slot) = idents.get(&(cur, inner.id)) {
                    if matches!(slots.get(slot).map(|s| s.ty), Some(Ty::Val(_))) {
                        out.insert(slot);
                    }
                }
            }
        }
    }
    out
}

/// Expression nodes an instruction carries (its weight in the code budget, beside itself).
pub(crate) fn inst_nodes(i: &Inst) -> u64 {
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
    pub(crate) fn emit(&mut self, i: Inst) -> usize {
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
            let mut m = hit.message();
            // A recursive function is inlined once per level (see `Limits::max_call_depth`):
            // one that calls itself k times costs k^depth copies.
            if let Some(f) = self
                .inlining
                .iter()
                .enumerate()
                .find(|(k, (f, _))| self.inlining[..*k].iter().any(|(g, _)| g == f))
                .map(|(_, (f, _))| f.clone())
            {
                let shape = self.user_function(&f).map(|g| recursion_shape(&g));
                match shape {
                    Some((calls, size)) if calls >= 2 => m.push_str(&format!(
                        " (`{f}` calls itself {calls} times, and crosslane inlines every call \
                         rather than keeping a call stack, so a recursion is expanded to \
                         --max-call-depth ({}) levels whatever its arguments: about {calls}^d \
                         copies of its body (about {size} instructions each) for d levels; \
                         the code limit fits about {} levels. Set --max-call-depth to the \
                         deepest chain of nested calls this run makes (each copy's variables \
                         also count against --max-memory), or write the recursion as a loop \
                         with an explicit stack)",
                        self.max_call_depth,
                        levels_that_fit(calls, size, self.max_code)
                    )),
                    _ => m.push_str(&format!(
                        " (the recursive `{f}` is inlined once per level of calls, up to \
                         --max-call-depth {} levels; lower --max-call-depth to the depth the \
                         run reaches)",
                        self.max_call_depth
                    )),
                }
            }
            self.error = Some(KernelError::new(line.max(1), 1, m));
        }
        self.code.push(i);
        self.code_inst.push(self.inst);
        self.code.len() - 1
    }

    pub(crate) fn fail(&mut self, span: Span, message: String) {
        if self.error.is_none() {
            let (span, message) = self.lib_sites.place(self.inst, span, message);
            self.error = Some(KernelError::new(span.line, span.col, message));
        }
    }

    /// A new variable slot named `name` in the innermost scope.
    pub(crate) fn declare(&mut self, name: &str, ty: Ty) -> usize {
        self.slots.push(SlotInfo {
            name: format!("{}{name}", self.prefix),
            ty,
        });
        let id = self.slots.len() - 1;
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), id);
        }
        id
    }

    /// A new slot for the declarator `d`, found again by its node id when the declaration runs.
    fn declare_local(&mut self, d: &Declarator, ty: Ty) -> usize {
        let id = self.declare(&d.name, ty);
        self.decl_slots.insert((self.inst, d.id), id);
        id
    }

    pub(crate) fn user_function(&self, name: &str) -> Option<Function> {
        self.by_name
            .get(name)
            .and_then(|&k| self.functions.get(k))
            .cloned()
    }

    /// Whether `e` contains a call to a device function of the source.
    pub(crate) fn has_user_call(&self, e: &Expr) -> bool {
        e.walk()
            .any(|x| matches!(&x.kind, ExprKind::Call(n, _) if self.by_name.contains_key(n)))
    }

    /// Inlines every device-function call of `e` (innermost first) before the statement that
    /// holds it; the call then reads the function's result slot.
    pub(crate) fn hoist(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Logical(and, a, b) => {
                self.hoist(a);
                if self.has_user_call(b) {
                    self.short_circuit(e, *and, a, b);
                }
            }
            ExprKind::Ternary(c, a, b) => {
                self.hoist(c);
                if !self.has_user_call(a) && !self.has_user_call(b) {
                    return;
                }
                // `c ? f(x) : y` ([expr.cond]/1: only the chosen operand is evaluated): each
                // operand's calls are inlined under a branch on the condition, so a call runs
                // in the lanes that choose it and no other; the statement then reads each
                // lane's chosen result. The condition is evaluated again there, so it must have
                // no side effect.
                let effect = self.effect_on_reevaluation(c);
                if effect {
                    self.fail(c.span, "a device-function call inside `?:` whose condition has a side effect (an assignment, `++`, a call) is not supported; compute the condition into a local first".into());
                    return;
                }
                let at = self.emit(Inst::ThenEnd); // patched below
                self.hoist(a);
                self.emit(Inst::ThenEnd);
                let else_pc = self.code.len();
                self.hoist(b);
                let join_pc = self.code.len();
                self.emit(Inst::Join);
                self.code[at] = Inst::Branch {
                    span: e.span,
                    end: e.span,
                    cond: (**c).clone(),
                    else_pc,
                    join_pc,
                };
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
            // `&&`, `||` and `?:` are above: their right operands run conditionally.
            kind => kind.for_each_child(|c| self.hoist(c)),
        }
    }

    /// Whether evaluating `c` again would repeat a side effect (an assignment, `++`, a call
    /// of a built-in or an operation). A device-function call and a `&&`/`||` already run by
    /// [`Compiler::short_circuit`] only read their result slots there, so they and what they
    /// hold do not count. An explicit stack: no recursion in the tree's height.
    fn effect_on_reevaluation(&self, c: &Expr) -> bool {
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            let ran = self.hoisted.contains_key(&(self.inst, x.id));
            match &x.kind {
                ExprKind::Logical(..) if ran => continue,
                // The arguments were evaluated when the call ran.
                ExprKind::Call(n, _) if ran || self.by_name.contains_key(n) => continue,
                ExprKind::Assign(..) | ExprKind::IncDec { .. } | ExprKind::Call(..) => return true,
                kind => kind.for_each_child(|y| stack.push(y)),
            }
        }
        false
    }

    /// `a && b` / `a || b` whose right operand calls a device function: the right operand,
    /// its calls inlined, runs in the lanes the left operand leaves undecided and no other
    /// (C++17 [expr.log.and]/1: "the second operand is not evaluated if the first operand is
    /// `false`"; [expr.log.or]/1: not evaluated if the first is `true`). It is compiled as
    /// the `if` it is: `t = (bool)a; if (t) t = (bool)b;` (for `||`, `if (!t)`), so a lane the
    /// left operand decided is inactive for everything the call does, as in a branch (a
    /// shuffle inside sees it inactive, its stores and atomics do not happen), and the
    /// expression then reads `t` ([`Compiler::hoisted`] keyed by the `&&` node). The left
    /// operand is evaluated once, in its place, whatever its side effects. An undefined left
    /// operand is a branch on an undefined condition: an error, as for `if`.
    fn short_circuit(&mut self, e: &Expr, and: bool, a: &Expr, b: &Expr) {
        let bool_ty = Ty::Val(crate::types::ValTy::scalar(crate::types::Scalar::Bool));
        self.slots.push(SlotInfo {
            name: format!("({})", if and { "&&" } else { "||" }),
            ty: bool_ty,
        });
        let t = self.slots.len() - 1;
        let read = |c: &mut Self| {
            let x = Expr::new(
                ExprKind::Ident(format!("({})", if and { "&&" } else { "||" })),
                e.span,
            );
            c.idents.insert((c.inst, x.id), t);
            x
        };
        self.emit(Inst::Bind {
            span: a.span,
            end: a.span,
            slot: t,
            expr: Expr::new(ExprKind::Cast(bool_ty, Box::new(a.clone())), a.span),
            quiet: false,
        });
        let at = self.emit(Inst::ThenEnd); // patched below
        self.hoist(b);
        self.emit(Inst::Bind {
            span: b.span,
            end: b.span,
            slot: t,
            expr: Expr::new(ExprKind::Cast(bool_ty, Box::new(b.clone())), b.span),
            quiet: false,
        });
        self.emit(Inst::ThenEnd);
        let else_pc = self.code.len();
        let join_pc = self.code.len();
        self.emit(Inst::Join);
        let x = read(self);
        let cond = if and {
            x
        } else {
            Expr::new(
                ExprKind::Unary(crate::types::UnOp::Not, Box::new(x)),
                e.span,
            )
        };
        self.code[at] = Inst::Branch {
            span: e.span,
            end: e.span,
            cond,
            else_pc,
            join_pc,
        };
        self.hoisted.insert((self.inst, e.id), t);
    }

    pub(crate) fn inline_call(&mut self, call: &Expr, f: &Function, args: &[Expr]) {
        self.type_errors_of(&f.name);
        // A recursive call: one more level nests about as deep again as the last one did.
        let per_level = self
            .inlining
            .iter()
            .rev()
            .find(|(n, _)| *n == f.name)
            .map(|(_, at)| self.nest.saturating_sub(*at));
        let nesting = per_level
            .is_some_and(|k| self.nest.saturating_add(k.saturating_mul(2)) >= self.max_nest);
        if self.call_depth >= self.max_call_depth || nesting {
            // Past a budget: the call becomes a stop that only the lanes reaching it run, so
            // a recursion that ends within the budget (`fact(11)`) runs, and one that does not
            // stops naming the budget.
            self.emit(Inst::CallTooDeep {
                span: call.span,
                name: f.name.clone(),
                nesting: nesting && self.call_depth < self.max_call_depth,
            });
            let result = match f.ret {
                Ty::Void => usize::MAX,
                t => {
                    self.slots.push(SlotInfo {
                        name: format!("{}()", f.name),
                        ty: t,
                    });
                    self.slots.len() - 1
                }
            };
            self.hoisted.insert((self.inst, call.id), result);
            return;
        }
        // Trailing parameters left out take their default arguments (C++17 [dcl.fct.default]),
        // resolved here, in the caller's scopes.
        let filled: Vec<Expr>;
        let mut args = args;
        if args.len() < f.params.len()
            && f.params[args.len()..]
                .iter()
                .all(|p| f.defaults.iter().any(|(n, _)| *n == p.name))
        {
            let mut all = args.to_vec();
            for p in &f.params[args.len()..] {
                if let Some((_, d)) = f.defaults.iter().find(|(n, _)| *n == p.name) {
                    self.resolve(d);
                    all.push(d.clone());
                }
            }
            filled = all;
            args = &filled;
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
        // A reference parameter (`float& x`, a struct's receiver, a lambda's `[&]` capture)
        // names the caller's variable itself: its slot, no copy.
        let mut aliases = Vec::new();
        // `&x` of a local scalar passed to a `T*` parameter: the parameter names `x` itself,
        // and the body's `*p` / `p[0]` read and write it (a body using `p` otherwise — pointer
        // arithmetic, passing it on — is refused with what to write).
        let mut body = std::borrow::Cow::Borrowed(&f.body);
        let mut by_address = Vec::new();
        for (k, (p, a)) in f.params.iter().zip(args).enumerate() {
            let ExprKind::AddrOf(inner) = &a.kind else {
                continue;
            };
            let ExprKind::Ident(x) = &inner.kind else {
                continue;
            };
            let Some(slot) = self.lookup(x) else { continue };
            if p.reference
                || !matches!(p.ty, Ty::Ptr(_))
                || !matches!(self.slots.get(slot).map(|s| s.ty), Some(Ty::Val(_)))
            {
                continue;
            }
            let mut bad = None;
            let mut b = body.as_ref().clone();
            alias_deref_stmt(&mut b, &p.name, &mut bad);
            if bad.is_some() {
                // The body uses the pointer otherwise (`p + i` passed on, a cast, `p[k]`): it
                // stays a pointer to the local, which lives in per-lane memory because its
                // address is taken (`addr_taken`), so arithmetic, casts and bounds are those
                // of a one-element object ([expr.add]/4: `p + 1` is its end, `p[1]` is out of
                // bounds).
                continue;
            }
            *body.to_mut() = b;
            aliases.push((p.name.clone(), slot));
            by_address.push(k);
        }
        // Reference parameters bound to something other than a variable: a cell in memory
        // (`s[i]`, `*p`: the parameter holds its address and the body's uses read and write
        // through it, [dcl.init.ref]/5.1) or, for a reference to const, a temporary holding
        // the argument's value ([dcl.init.ref]/5.2). Each gets a slot of its own below.
        let mut ref_slots: Vec<(usize, Ty)> = Vec::new();
        for (k, (p, a)) in f.params.iter().zip(args).enumerate() {
            if !p.reference {
                continue;
            }
            let slot = match &a.kind {
                ExprKind::Ident(n) => self.scopes.iter().rev().find_map(|s| s.get(n)).copied(),
                _ => None,
            };
            // A reference to const whose argument has another type binds a temporary holding
            // the converted value ([dcl.init.ref]/5.2.2.2: `const float& d` given a `half`),
            // never the argument's bytes read as the parameter's type.
            if let (Ty::Ptr(v), true) = (p.ty, p.const_ref) {
                if self.arg_value_ty(a).is_some_and(|t| t != v) {
                    ref_slots.push((k, Ty::Val(v)));
                    continue;
                }
            }
            if let Some(slot) = slot {
                aliases.push((p.name.clone(), slot));
                continue;
            }
            let (Ty::Ptr(v), false) = (p.ty, matches!(a.kind, ExprKind::Ident(_))) else {
                self.fail(
                    a.span,
                    format!(
                        "reference parameter `{}` of `{}`: `{}` is not a variable here",
                        p.name,
                        f.name,
                        show_arg(a)
                    ),
                );
                return;
            };
            if matches!(a.kind, ExprKind::Index(..) | ExprKind::Deref(_)) {
                ref_deref_stmt(body.to_mut(), &p.name);
                ref_slots.push((k, Ty::Ptr(v)));
            } else if p.const_ref {
                ref_slots.push((k, Ty::Val(v)));
            } else if let Some((slot, c)) = self.vector_component(a) {
                // `v.y` of a local vector: the parameter names that component of the caller's
                // `v` itself ([dcl.init.ref]/5.1), through a hidden alias of `v`.
                let hidden = format!("{}#ref{k}", p.name);
                stmt_exprs_mut(body.to_mut(), &mut |e| ref_member(e, &p.name, &hidden, &c));
                aliases.push((hidden, slot));
            } else if matches!(a.kind, ExprKind::Member(..)) {
                self.fail(
                    a.span,
                    format!(
                        "reference parameter `{}` of `{}` bound to a vector component is not \
                         supported; copy the component into a local, pass the local, and assign \
                         it back",
                        p.name, f.name
                    ),
                );
                return;
            } else {
                self.fail(
                    a.span,
                    format!(
                        "reference parameter `{}` of `{}` is not `const`, so it cannot bind a \
                         temporary ({}; C++17 [dcl.init.ref]/5.2); pass a variable or an array \
                         cell, or make the parameter `const`",
                        p.name,
                        f.name,
                        show_arg(a)
                    ),
                );
                return;
            }
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
        self.lib_sites.enter_call(caller, inst, call.span, f);
        let mut params = HashMap::new();
        params.extend(aliases);
        for (k, (p, a)) in f.params.iter().zip(args).enumerate().filter(|(k, (p, _))| {
            (!p.reference || ref_slots.iter().any(|(r, _)| r == k)) && !by_address.contains(k)
        }) {
            let held = ref_slots.iter().find(|(r, _)| *r == k).map(|(_, t)| *t);
            self.slots.push(SlotInfo {
                name: format!("{}::{}", f.name, p.name),
                ty: held.unwrap_or(p.ty),
            });
            let slot = self.slots.len() - 1;
            params.insert(p.name.clone(), slot);
            let expr = match held {
                // The cell's address.
                Some(Ty::Ptr(_)) => Expr::new(ExprKind::AddrOf(Box::new(a.clone())), a.span),
                // A reference to const's temporary: the argument converted to its type.
                Some(t @ Ty::Val(_)) => Expr::new(ExprKind::Cast(t, Box::new(a.clone())), a.span),
                _ => a.clone(),
            };
            self.emit(Inst::Bind {
                span: a.span,
                end: a.span,
                slot,
                expr,
                quiet: p.name.starts_with(crate::parser::HIDDEN_META_PREFIX),
            });
        }
        let mut visible: Vec<HashMap<String, usize>> = self
            .scopes
            .iter()
            .take(self.module_scopes)
            .cloned()
            .collect();
        visible.push(params);
        let saved_scopes = std::mem::replace(&mut self.scopes, visible);
        let saved_prefix = std::mem::replace(&mut self.prefix, format!("{}::", f.name));
        let id = self.loops;
        self.loops += 1;
        let saved_target = self.ret_target.replace((id, result));
        self.inst = inst;
        self.call_depth += 1;
        self.inlining.push((f.name.clone(), self.nest));
        let enter = self.emit(Inst::Jump(0));
        self.stmt(&body);
        self.inlining.pop();
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
            .insert((caller, call.id), result.unwrap_or(usize::MAX));
    }

    /// The variable slot `n` names in the scopes visible here.
    fn lookup(&self, n: &str) -> Option<usize> {
        self.scopes.iter().rev().find_map(|s| s.get(n)).copied()
    }

    /// `v.x` (`.y`, `.z`, `.w`) of a vector variable visible here: its slot and the component.
    fn vector_component(&self, a: &Expr) -> Option<(usize, String)> {
        let ExprKind::Member(b, c) = &a.kind else {
            return None;
        };
        let ExprKind::Ident(n) = &b.kind else {
            return None;
        };
        let slot = self.lookup(n)?;
        let vector = matches!(self.slots.get(slot)?.ty, Ty::Val(v) if v.lanes > 1);
        (vector && matches!(c.as_str(), "x" | "y" | "z" | "w")).then(|| (slot, c.clone()))
    }

    /// Records an unknown name at `span` (each position and message once: an inlined function
    /// is compiled once per call).
    /// An undeclared name: its message, and where the source includes headers of its own
    /// (which are not read), which they are and what to do.
    fn undeclared(&mut self, span: Span, message: String) {
        let includes = self
            .check
            .as_ref()
            .map(|c| {
                c.local_includes
                    .iter()
                    .map(|(line, h)| format!("`#include {h}` (line {line})"))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let message = if includes.is_empty() {
            message
        } else {
            format!(
                "{message}; {} is not read (crosslane reads this one file): if the name comes \
                 from there, paste its declarations into the source",
                includes.join(", ")
            )
        };
        self.unknown(span, message);
    }

    /// The unknown types of function `name`, now compiled, as errors of this run.
    pub(crate) fn type_errors_of(&mut self, name: &str) {
        let Some(check) = &self.check else { return };
        let found: Vec<KernelError> = check
            .type_errors
            .iter()
            .filter(|(f, ..)| f == name)
            .map(|(_, line, col, m)| KernelError::new(*line, *col, m.clone()))
            .collect();
        for e in found {
            if !self.name_errors.contains(&e) {
                self.name_errors.push(e);
            }
        }
    }

    fn unknown(&mut self, span: Span, message: String) {
        let e = KernelError::new(span.line, span.col, message);
        if !self.name_errors.contains(&e) {
            self.name_errors.push(e);
        }
    }

    /// Whether `n`, declared nowhere in the source, is a name the machine itself defines:
    /// `warpSize` (CUDA C++ Programming Guide, Built-in Variables), the MACA compare constants
    /// (seed 002), and a snippet's `laneId`.
    /// The names the machine gives a value without a declaration (`machine/eval.rs`: `warpSize`,
    /// the MACA compare modes, the math library's constants such as `FLT_MAX` and `INFINITY`).
    fn predefined(&self, n: &str) -> bool {
        n == "warpSize"
            || builtins::maca_icmp(n).is_some()
            || crate::mathlib::constant(n).is_some()
            || (n == "laneId" && self.check.as_ref().is_some_and(|c| c.snippet))
    }

    /// Checks that a call names a function: one of the source, a built-in, or an operation of
    /// a dialect; an argument that is a bare name in a text parameter of an operation (a
    /// DPP control, a MACA mode) is the operation's own word, not a variable.
    fn resolve_call(&mut self, e: &Expr, name: &str, args: &[Expr]) {
        let Some(check) = self.check.clone() else {
            args.iter().for_each(|a| self.resolve(a));
            return;
        };
        let mut text_args = Vec::new();
        let coresident = super::parser::host_device::max_coresident_blocks(check.threads);
        if name == super::parser::GRID_SYNC && check.blocks > coresident && !check.plain_launch {
            self.unknown(
                e.span,
                format!(
                    "{} (this launch has {} blocks of {} threads; the model device holds {} at \
                     once)",
                    super::parser::GRID_SYNC_REFUSAL,
                    check.blocks,
                    check.threads,
                    coresident
                ),
            );
            return;
        }
        // Programmatic Dependent Launch is CUDA's (`builtins::PDL_CALLS`): HIP and the other
        // dialects declare none of its names.
        if builtins::PDL_CALLS.contains(&name)
            && check.dialect != Dialect::Cuda
            && !self.by_name.contains_key(name)
        {
            self.undeclared(
                e.span,
                format!(
                    "`{name}` is CUDA's Programmatic Dependent Launch (CUDA C++ Programming \
                     Guide, Programmatic Dependent Launch and Synchronization, sm_90) and this \
                     run is {}, which declares no such function: drop the call (with no \
                     programmatic launch before it, it waits for nothing)",
                    check.dialect.title()
                ),
            );
            return;
        }
        if !self.by_name.contains_key(name)
            && name != super::parser::FN_NULL
            && builtin(name).is_none()
            && !super::machine::maca_mem::is_memory_call(name)
            && !super::machine::special_regs::is_register_read(name)
        {
            match find_kernel_op(check.dialect, name) {
                Some(spec) => text_args = builtins::text_arg_positions(spec, args.len()),
                // The device heap (CUDA C++ Programming Guide, "Dynamic Global Memory
                // Allocation and Operations": `malloc`/`free` in device code; HIP the same) is
                // not modelled: refused by name, with what to write instead.
                None if matches!(name, "malloc" | "free") => self.unknown(
                    e.span,
                    format!(
                        "`{name}` in device code uses the device heap (CUDA C++ Programming \
                         Guide, Dynamic Global Memory Allocation and Operations), which is not \
                         supported here: use a local array (`int a[N];`) or a buffer the host \
                         allocates and passes to the kernel"
                    ),
                ),
                None if check.source_functions.iter().any(|f| f == name) => self.unknown(
                    e.span,
                    format!("`{name}` is a kernel of this source: calling another kernel from a kernel is not supported (make it a `__device__` function)"),
                ),
                None => self.undeclared(
                    e.span,
                    format!(
                        "`{name}` is not declared: no function of the source, kernel built-in or \
                         operation of any dialect has this name{}",
                        old_llvm_wrapper_hint(name)
                    ),
                ),
            }
        }
        // A library function with a fixed argument count, called with another (and not defined
        // by the source under that name): refused here rather than undefined in every lane.
        if let Some(n) = crate::mathlib::fixed_arity(name) {
            if args.len() != n && !self.by_name.contains_key(name) {
                self.unknown(
                    e.span,
                    format!(
                        "`{name}` takes {n} argument(s), given {}: write `{name}({})`",
                        args.len(),
                        ["a", "b", "c"][..n.min(3)].join(", ")
                    ),
                );
            }
        }
        let target = check.amd_target.as_deref();
        if let Some(m) = crate::mathlib::amdgcn_dot::target_refusal(name, target)
            .or_else(|| crate::mathlib::amdgcn_fp8::target_refusal(name, target))
            .or_else(|| super::parser::amdgcn_ids::mov_dpp8_refusal(name, args, target))
        {
            if !self.by_name.contains_key(name) {
                self.unknown(e.span, m);
            }
        }
        // An atomic's memory orders and scope: constants the vendor accepts, checked here so a
        // wrong one is refused before the run (machine::atomic::check_call). A C++
        // `memory_order_relaxed` there is the order's own word, not a variable.
        if let Some(form) = crate::atomics::form(name).filter(|_| !self.by_name.contains_key(name))
        {
            if let Err((at, m)) = super::machine::atomic::check_call(name, &form, e.span, args) {
                self.unknown(at, m);
            }
            text_args.extend(form.orders.iter().copied());
        }
        // `__builtin_amdgcn_s_sleep(n)`: clang requires a constant (the count is the
        // instruction's immediate, AMD ISA `S_SLEEP`).
        if name == "__builtin_amdgcn_s_sleep" && !self.by_name.contains_key(name) {
            match args {
                [a] if super::parser::const_int(a).is_some() => {}
                [a] => self.unknown(
                    a.span,
                    format!("`{name}`: the count must be a constant integer (it is the `s_sleep` instruction's immediate), e.g. `{name}(2)`"),
                ),
                _ => self.unknown(e.span, format!("`{name}` takes 1 argument, got {}", args.len())),
            }
        }
        for (k, a) in args.iter().enumerate() {
            match &a.kind {
                ExprKind::Ident(n) if text_args.contains(&k) && self.lookup(n).is_none() => {}
                _ => self.resolve(a),
            }
        }
    }

    pub(crate) fn resolve(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(n) => {
                if let Some(id) = self.lookup(n) {
                    self.idents.insert((self.inst, e.id), id);
                } else if self.check.is_some() && !self.predefined(n) {
                    let hint = if GEOMETRY.contains(&n.as_str()) {
                        format!(" (`{n}` has the fields x, y, z)")
                    } else {
                        String::new()
                    };
                    self.undeclared(e.span, format!("`{n}` is not declared{hint}"));
                }
            }
            ExprKind::Member(b, _)
                if matches!(&b.kind, ExprKind::Ident(n)
                    if GEOMETRY.contains(&n.as_str()) && self.lookup(n).is_none()) => {}
            ExprKind::Call(name, args) => self.resolve_call(e, name, args),
            kind => kind.for_each_child(|c| self.resolve(c)),
        }
    }

    pub(crate) fn stmt(&mut self, s: &Stmt) {
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
        self.lib_sites.enter_stmt(self.inst, s);
        self.stmt_inner(s);
        self.nest -= 1;
    }

    pub(crate) fn stmt_inner(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl(storage, decls) => {
                for d in decls {
                    let ty = match (d.ty, &d.array) {
                        (Ty::Val(v), Some(_)) => Ty::Ptr(v),
                        (t, _) => t,
                    };
                    if let Some(Some(n)) = &d.array {
                        self.resolve(n);
                    }
                    // An array's brace initializer assigns its cells: it names the array,
                    // which is in scope from its declarator on ([basic.scope.pdecl]/1).
                    if d.array.is_some() && d.init.is_some() {
                        self.declare_local(d, ty);
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
                    if !(d.array.is_some() && d.init.is_some()) {
                        self.declare_local(d, ty);
                    }
                }
                let owner = match self.inlining.last() {
                    Some((name, _)) if storage.shared && !storage.external => {
                        let next = u32::try_from(self.shared_owners.len())
                            .unwrap_or(u32::MAX - 1)
                            .saturating_add(1);
                        *self.shared_owners.entry(name.clone()).or_insert(next)
                    }
                    _ => 0,
                };
                self.emit(Inst::Decl {
                    span: s.span,
                    end: s.end,
                    storage: *storage,
                    decls: decls.clone(),
                    owner,
                });
            }
            StmtKind::Expr(e) => {
                self.resolve(e);
                self.eval_discarded(e, s.span, s.end);
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
                self.looped(s, None, Some(c.clone()), None, body);
            }
            StmtKind::For(init, c, step, body) => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = c {
                    self.resolve(c);
                }
                if let Some(st) = step {
                    self.resolve(st);
                }
                self.looped(s, None, c.clone(), step.clone(), body);
                self.scopes.pop();
            }
            StmtKind::DoWhile(body, c) => {
                self.resolve(c);
                let id = self.loops;
                self.loops += 1;
                let enter = self.code.len();
                self.emit(Inst::Jump(0));
                let top = self.code.len();
                self.scoped(body);
                let cont_pc = self.code.len();
                self.emit(Inst::LoopCont);
                // The condition's calls are inlined before each test, in the lanes still
                // looping ([stmt.do]/1: the condition is evaluated after each execution of the
                // body), so a shuffle inside sees exactly those lanes.
                self.hoist(c);
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

    /// An expression whose value is discarded (an expression statement, a `for` step): a
    /// comma expression's operands one after the other, each with its calls inlined before
    /// it ([expr.comma]/1: the left operand is sequenced before the right, so `++j, i += g(j)`
    /// calls `g` with the new `j`).
    pub(crate) fn eval_discarded(&mut self, e: &Expr, span: Span, end: Span) {
        let mut parts = vec![e];
        // Split only where a call must be inlined: else one step, as written.
        let split = matches!(e.kind, ExprKind::Comma(..)) && self.has_user_call(e);
        while let Some(ExprKind::Comma(a, b)) = parts.first().filter(|_| split).map(|x| &x.kind) {
            parts.splice(0..1, [&**a, &**b]);
        }
        for x in parts {
            self.hoist(x);
            self.emit(Inst::Eval {
                span,
                end,
                expr: x.clone(),
            });
        }
    }

    pub(crate) fn scoped(&mut self, s: &Stmt) {
        self.scopes.push(HashMap::new());
        self.stmt(s);
        self.scopes.pop();
    }

    pub(crate) fn looped(
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
        if let Some(c) = &cond {
            // The condition's calls are inlined at the head, before each test, in the lanes
            // still looping ([stmt.while]/1: the condition is evaluated before each execution
            // of the body; [stmt.for]/1 reads `for` as that `while`), so a shuffle inside sees
            // exactly those lanes.
            self.hoist(c);
        }
        self.emit(Inst::LoopTest {
            span: s.span,
            end: s.end,
            cond,
        });
        self.scoped(body);
        let cont_pc = self.code.len();
        self.emit(Inst::LoopCont);
        if let Some(st) = step {
            // The step runs after the body in the lanes that continue: its calls are inlined
            // there, as a statement's ([stmt.for]/1: `for (init; cond; step) body` is
            // `{ init; while (cond) { body; step; } }`).
            self.eval_discarded(&st, st.span, s.end);
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

/// Rewrites `*p` and `p[0]` in `s` to `p` itself, for a pointer parameter `p` that names a
/// caller's local (`&x`); `bad` gets the position of any other use of `p`. The walk's depth is
/// the statement and expression nesting, which the parser's depth budget bounds.
impl Compiler {
    /// The value type of a reference argument that names a variable or a cell through a
    /// pointer variable (`x`, `p[i]`, `*p`), when the compiler knows it.
    fn arg_value_ty(&self, a: &Expr) -> Option<crate::types::ValTy> {
        let slot_ty = |n: &str| {
            self.scopes
                .iter()
                .rev()
                .find_map(|s| s.get(n))
                .and_then(|&slot| self.slots.get(slot))
                .map(|s| s.ty)
        };
        match &a.kind {
            ExprKind::Ident(n) => match slot_ty(n)? {
                Ty::Val(v) => Some(v),
                _ => None,
            },
            ExprKind::Index(b, _) | ExprKind::Deref(b) => match &b.kind {
                ExprKind::Ident(n) => match slot_ty(n)? {
                    Ty::Ptr(v) => Some(v),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
}

/// The argument as a user wrote it, shortly (for a message).
/// How many calls of itself function `f`'s body makes and about how many instructions one
/// inlined copy of it costs (its expressions' nodes and its statements), walking the body
/// with an explicit stack.
fn recursion_shape(f: &Function) -> (u64, u64) {
    let (mut calls, mut size) = (0u64, 0u64);
    let mut stack = vec![&f.body];
    while let Some(s) = stack.pop() {
        size = size.saturating_add(1);
        s.kind.for_each_part(|p| match p {
            StmtPartRef::Expr(e) => {
                size = size.saturating_add(e.nodes());
                calls = calls.saturating_add(
                    e.walk()
                        .filter(|x| matches!(&x.kind, ExprKind::Call(n, _) if *n == f.name))
                        .count() as u64,
                );
            }
            StmtPartRef::Stmt(st) => stack.push(st),
        });
    }
    (calls, size.max(1))
}

/// The most levels `d` of a function calling itself `calls` times (at least 2) whose inlined
/// copies, `size` instructions each, fit `max_code`: `size · (1 + calls + … + calls^d) ≤
/// max_code`.
fn levels_that_fit(calls: u64, size: u64, max_code: u64) -> u32 {
    let (mut level_copies, mut total, mut d) = (1u64, size, 0u32);
    loop {
        level_copies = level_copies.saturating_mul(calls);
        total = total.saturating_add(level_copies.saturating_mul(size));
        if total > max_code || d >= 64 {
            return d;
        }
        d += 1;
    }
}

fn show_arg(a: &Expr) -> String {
    match &a.kind {
        ExprKind::Ident(n) => n.clone(),
        ExprKind::Int { value, .. } => value.to_string(),
        ExprKind::Float { value, .. } => value.to_string(),
        _ => "an expression's value".to_string(),
    }
}

/// For a call of `__llvm_amdgcn_move_dpp` and kin, wrappers of LLVM AMDGPU intrinsics that
/// older HIP headers declared (`__device__ int __llvm_amdgcn_move_dpp(…)
/// __asm("llvm.amdgcn.mov.dpp.i32");`, AMDMIGraphX's device `reduce.hpp`) and the modelled
/// ROCm 6.2 no longer does: where their names are now, or the empty string.
fn old_llvm_wrapper_hint(name: &str) -> String {
    let Some(op) = name.strip_prefix("__llvm_amdgcn_") else {
        return String::new();
    };
    let now = match op {
        "move_dpp" => "`__hip_move_dpp` or `__builtin_amdgcn_mov_dpp`",
        "ds_bpermute" => "`__hip_ds_bpermute` or `__builtin_amdgcn_ds_bpermute`",
        "ds_permute" => "`__hip_ds_permute` or `__builtin_amdgcn_ds_permute`",
        "ds_swizzle" => "`__hip_ds_swizzle` or `__builtin_amdgcn_ds_swizzle`",
        "readfirstlane" => "`__builtin_amdgcn_readfirstlane`",
        "readlane" => "`__builtin_amdgcn_readlane`",
        _ => "the `__builtin_amdgcn_*` builtins",
    };
    format!(
        " (older HIP headers declared `{name}`; ROCm 6.2's do not: call {now}, or \
         declare it as those headers did, `__device__ int {name}(…) \
         __asm(\"llvm.amdgcn.{}\");`)",
        op.replace("move_dpp", "mov.dpp.i32").replace('_', ".")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Executor, LaunchConfig};

    /// The instruction kinds of `src`'s compiled entry, by name.
    fn shape(src: &str) -> Vec<&'static str> {
        let ex = Executor::new(src, LaunchConfig::default()).expect("compiles");
        ex.code
            .iter()
            .map(|i| match i {
                Inst::Decl { .. } => "Decl",
                Inst::Eval { .. } => "Eval",
                Inst::Branch { .. } => "Branch",
                Inst::ThenEnd => "ThenEnd",
                Inst::Join => "Join",
                Inst::LoopEnter { .. } => "LoopEnter",
                Inst::LoopTest { .. } => "LoopTest",
                Inst::LoopBack { .. } => "LoopBack",
                Inst::LoopCont => "LoopCont",
                Inst::LoopExit => "LoopExit",
                Inst::Jump(_) => "Jump",
                Inst::Break { .. } => "Break",
                Inst::Return { .. } => "Return",
                Inst::Bind { .. } => "Bind",
                Inst::CallTooDeep { .. } => "CallTooDeep",
                Inst::End => "End",
            })
            .collect()
    }

    #[test]
    fn an_if_else_is_a_branch_its_two_parts_and_a_join() {
        let s = shape(
            "__global__ void k(int *d) { int x = 1; if (x) { d[0] = 1; } else { d[0] = 2; } }",
        );
        // The then part ends in ThenEnd (which moves the lanes of the else part there); the
        // else part falls through to the Join, where the lanes reconverge.
        assert_eq!(
            s,
            ["Decl", "Branch", "Eval", "ThenEnd", "Eval", "Join", "End"]
        );
    }

    #[test]
    fn a_for_loop_enters_tests_runs_continues_steps_and_exits() {
        let ex = Executor::new(
            "__global__ void k(int *d) { for (int i = 0; i < 3; i++) { d[i] = i; } }",
            LaunchConfig::default(),
        )
        .expect("compiles");
        let kinds: Vec<String> = ex
            .code
            .iter()
            .map(|i| {
                format!("{i:?}")
                    .split([' ', '('])
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "Decl",
                "LoopEnter",
                "LoopTest",
                "Eval",
                "LoopCont",
                "Eval",
                "Jump",
                "LoopExit",
                "End"
            ]
        );
        // The back edge jumps to the test; the loop's exit is the LoopExit.
        assert!(matches!(ex.code[6], Inst::Jump(2)), "{:?}", ex.code[6]);
        assert!(
            matches!(
                ex.code[1],
                Inst::LoopEnter {
                    exit_pc: 7,
                    cont_pc: 4,
                    ..
                }
            ),
            "{:?}",
            ex.code[1]
        );
        // `i` and the pointer `d` are slots; every use of `i` resolves to the same one.
        let names: Vec<&str> = ex.slots.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["d", "i"]);
    }

    #[test]
    fn an_inlined_call_binds_its_argument_and_keeps_its_own_variables() {
        let src = "__device__ int twice(int x) { int y = x * 2; return y; }
__global__ void k(int *d) { d[0] = twice(3) + twice(4); }";
        let ex = Executor::new(src, LaunchConfig::default()).expect("compiles");
        let binds = ex
            .code
            .iter()
            .filter(|i| matches!(i, Inst::Bind { .. }))
            .count();
        assert_eq!(binds, 2, "one Bind per call");
        // Each inlined instance has its own `x` and `y`.
        let xs = ex.slots.iter().filter(|s| s.name.ends_with('x')).count();
        let ys = ex.slots.iter().filter(|s| s.name.ends_with('y')).count();
        assert_eq!((xs, ys), (2, 2), "{:?}", ex.slots);
    }
}
