//! The `subgroup_uniformity` rule, which naga 30 does not check: a subgroup or quad built-in
//! called in non-uniform control flow is a shader-creation error unless a
//! `diagnostic(off, subgroup_uniformity)` directive or attribute turns it off (WGSL spec,
//! "Uniformity Analysis" and "Filterable Triggering Rules: subgroup_uniformity"). The same
//! walk checks `workgroupBarrier`, `storageBarrier` and `workgroupUniformLoad`, which must
//! only be called from uniform control flow whatever the filters say ([`BARRIER_RULE`];
//! naga 30 does not check it either), in the entry point and through helper calls alike.
//!
//! The analysis follows the spec's in the shapes that decide real shaders, checked against
//! Tint (the corpus in tests/wgsl_uniformity with Tint's recorded verdicts):
//! - a value is non-uniform when it derives from `local_invocation_id`/`_index`,
//!   `global_invocation_id`, `subgroup_invocation_id`, a load of `read_write` storage,
//!   workgroup or private memory (not through `workgroupUniformLoad`), an atomic's or a
//!   subgroup built-in's result, a function variable holding such a value where it is read
//!   (flow-sensitive: a later whole uniform assignment makes it uniform again, branches
//!   join, and a variable written non-uniformly anywhere in a loop is non-uniform from the
//!   loop's start, found over rounds until the sets settle), or written in
//!   non-uniform control flow or through a non-uniform index (`a[i % 4u] = 1u` leaves all of
//!   `a` non-uniform, as the spec's partial assignment does), or passed by pointer to a helper
//!   that writes it so (its summary says, per pointer parameter, whether the write is
//!   non-uniform by itself or through which arguments), or a helper's result that depends on
//!   one (`subgroup_id`,
//!   `subgroup_size`, `workgroup_id`, `num_workgroups`, uniform and read-only storage buffers are
//!   uniform, as in Tint);
//! - control flow is non-uniform inside an `if`/`switch` on a non-uniform value, inside a loop
//!   whose `break`, `continue` or `break if` depends on one (the whole body: later iterations
//!   run for fewer invocations), and after a statement on whose non-uniform path a `return`
//!   lies (the spec's `CF_return`) — not after an `if`, `switch` or loop that merely branched
//!   or broke: control flow reconverges there;
//! - `&&` and `||` are statements in naga's IR (an `if` on the left operand), so a subgroup
//!   call in the right operand of a non-uniform left one is in non-uniform control flow;
//! - a helper function is summarised callee first (naga orders functions so): the first
//!   subgroup built-in and the first barrier (or `workgroupUniformLoad`) it reaches, directly
//!   or through its own calls (the spec's call-site tag `CallSiteRequiredToBeUniform`: its
//!   call sites must be in uniform control flow), for each parameter the findings that a
//!   non-uniform argument causes (a barrier's or subgroup built-in's control flow depends on
//!   it, the spec's `ParameterRequiredToBeUniform`, early returns included), and whether its
//!   result is non-uniform by itself or through a parameter (`ReturnValueMayBeNonUniform`,
//!   `ParameterReturnContentsRequiredToBeUniform`). Control flow after a call is as uniform
//!   as before it, whatever returns the helper took (the spec gives a call's `CF_after` no
//!   edge to the callee's `CF_return`; Tint agrees). A finding is reported at the built-in or
//!   barrier inside the helper, as Tint does.

use std::collections::{HashMap, HashSet};

use naga::{AddressSpace, BuiltIn, Expression, Handle, Statement};

use super::naga::{line_col, NagaShader};
use super::walk::find_statement;
use crosslane_core::result::Level;

/// The spec's name for the rule, cited in every finding.
pub const RULE: &str =
    "WGSL spec, Uniformity Analysis; diagnostic rule subgroup_uniformity (a subgroup built-in in \
     non-uniform control flow is a shader-creation error)";

/// One subgroup call in non-uniform control flow.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Line of the call.
    pub line: u32,
    /// Column of the call.
    pub col: u32,
    /// Error by default; a `diagnostic(warning|info, subgroup_uniformity)` lowers it.
    pub level: Level,
    /// What is called and why the control flow is not uniform.
    pub message: String,
    /// A barrier or `workgroupUniformLoad` (always an error, whatever the diagnostic
    /// filters: [`BARRIER_RULE`]) rather than a subgroup built-in ([`RULE`]).
    pub barrier: bool,
}

/// The rule a barrier in non-uniform control flow breaks: not a filterable diagnostic.
pub const BARRIER_RULE: &str = "WGSL spec, Uniformity Analysis: workgroupBarrier, \
     storageBarrier and workgroupUniformLoad must only be called from uniform control flow \
     (a shader-creation error, which no diagnostic filter turns off)";

/// The severity the shader's diagnostic filters give `subgroup_uniformity` in the entry point
/// (`None`: off). The function's attribute wins over the module's directive.
fn severity(module: &naga::Module, ep: &naga::EntryPoint) -> Option<Level> {
    fn_severity(module, &ep.function)
}

/// The severity of `subgroup_uniformity` for a trigger inside `f` (`None`: off): `f`'s own
/// `@diagnostic` attribute, else the module's directive (WGSL spec, § Diagnostic Filtering:
/// the filter whose range holds the triggering location applies; a helper's attribute covers
/// the built-ins it calls, wherever it is called from).
fn fn_severity(module: &naga::Module, f: &naga::Function) -> Option<Level> {
    let find = |mut leaf: Option<Handle<naga::diagnostic_filter::DiagnosticFilterNode>>| {
        let mut guard = 0;
        while let Some(h) = leaf {
            let node = &module.diagnostic_filters[h];
            if let naga::diagnostic_filter::FilterableTriggeringRule::Unknown(name) =
                &node.inner.triggering_rule
            {
                if &**name == "subgroup_uniformity" {
                    return Some(node.inner.new_severity);
                }
            }
            leaf = node.parent;
            guard += 1;
            if guard > 10_000 {
                break;
            }
        }
        None
    };
    use naga::diagnostic_filter::Severity;
    match find(f.diagnostic_filter_leaf).or_else(|| find(module.diagnostic_filter_leaf)) {
        Some(Severity::Off) => None,
        Some(Severity::Info) => Some(Level::Info),
        Some(Severity::Warning) => Some(Level::Warning),
        _ => Some(Level::Error),
    }
}

/// What a helper function's call sites must respect (WGSL spec, Uniformity Analysis: the
/// function tags and the parameter tags).
#[derive(Clone, Debug, Default)]
struct Summary {
    /// The first subgroup built-in the function reaches (name, line, column) whose filter is
    /// not off, with the severity there: a call in non-uniform control flow is reported there.
    reaches: Option<(String, u32, u32, Level)>,
    /// The first barrier or `workgroupUniformLoad` the function reaches (name, line, column):
    /// a call in non-uniform control flow is an error there whatever the filters.
    reaches_barrier: Option<(String, u32, u32)>,
    /// Per parameter: the findings the function gives when that argument is non-uniform (a
    /// subgroup built-in's and a barrier's may both depend on it).
    params: Vec<Vec<Finding>>,
    /// Why the result is non-uniform whatever the arguments.
    ret: Option<String>,
    /// Per parameter: whether the result is non-uniform when that argument is.
    ret_params: Vec<bool>,
    /// Findings inside the function whatever the arguments.
    own: Vec<Finding>,
    /// Per pointer parameter: why what it points to is non-uniform after a call whatever the
    /// arguments (a store through it of a non-uniform value, or in non-uniform control flow:
    /// the spec's `PointerParameterMayBeNonUniform`), `None` when uniform or never written.
    ptr_out: Vec<Option<String>>,
    /// Per parameter: whether the function stores through it (a pointer parameter).
    ptr_written: Vec<bool>,
    /// Per pointer parameter `k`, per parameter `j`: whether what `k` points to is non-uniform
    /// after a call when argument `j` is.
    ptr_out_params: Vec<Vec<bool>>,
}

struct Walk<'a> {
    shader: &'a NagaShader,
    func: &'a naga::Function,
    /// Which parameters are non-uniform (a helper's; an entry point's are built-in values).
    params: Vec<bool>,
    summaries: &'a HashMap<Handle<naga::Function>, Summary>,
    /// The function variables non-uniform at this point of the walk, each with why (WGSL
    /// spec, Uniformity Analysis: a variable's value node is the last assignment's, so
    /// `x = 0u;` after `var x = lid;` makes `x` uniform again).
    local_state: HashMap<Handle<naga::LocalVariable>, String>,
    /// Every variable found non-uniform somewhere in this round (the rounds stop when it and
    /// the loops' sets settle).
    ever: HashSet<Handle<naga::LocalVariable>>,
    /// Per loop (its body's address), the variables written non-uniformly inside it in an
    /// earlier round: non-uniform from the loop's start, since a later iteration reads what
    /// an earlier one wrote.
    loop_sets: HashMap<usize, HashSet<Handle<naga::LocalVariable>>>,
    /// Per loop, the variables non-uniform where an iteration ends (after its `continuing`
    /// block, the back edge) in an earlier round: the state the next iteration starts with
    /// (WGSL spec § Uniformity Analysis, loop statements: the loop's start joins the end of
    /// `continuing`). A variable the body writes non-uniformly and `continuing` rewrites with
    /// a uniform value is uniform at the loop's top.
    loop_back: HashMap<usize, HashSet<Handle<naga::LocalVariable>>>,
    /// The loops around the statement being walked (their keys in `loop_sets`).
    loop_stack: Vec<usize>,
    /// Every variable made non-uniform, in walk order: a `switch` left by a `break` from
    /// the middle of a case joins those its cases marked.
    mark_log: Vec<Handle<naga::LocalVariable>>,
    /// A helper call's result: why it is non-uniform (`None`: uniform).
    call_results: HashMap<Handle<Expression>, Option<String>>,
    memo: HashMap<Handle<Expression>, Option<String>>,
    /// How many expressions of the arena, from its start, `memo` holds: it is always filled as
    /// a prefix, so `varying` goes on from here (starting over from the arena's start for each
    /// question made the check quadratic in one function's size: 2 500 statements took most of
    /// 40 s of a debug build's preparation).
    memo_done: usize,
    findings: Vec<Finding>,
    /// The severity of `subgroup_uniformity` in this function (`None`: off, none recorded).
    level: Option<Level>,
    /// Why a returned value may be non-uniform.
    ret: Option<String>,
    /// Per parameter written through (a pointer parameter): why its pointee is non-uniform
    /// after the function, `None` while uniform.
    ptr_out: HashMap<u32, Option<String>>,
}

impl Walk<'_> {
    fn at(&self, s: naga::Span) -> (u32, u32) {
        s.to_range()
            .map_or((1, 1), |r| line_col(&self.shader.text, r.start))
    }

    /// Why `h` may differ between invocations, or `None` when it is uniform. Iterative over
    /// the arena order (operands precede their users), so no recursion; each expression is
    /// computed once per round, in order, from where the last question stopped.
    fn varying(&mut self, h: Handle<Expression>) -> Option<String> {
        let end = h.index() + 1;
        if end > self.memo_done {
            let func = self.func;
            for k in func.expressions.range_from(self.memo_done) {
                if k.index() >= end {
                    break;
                }
                let v = self.compute(k);
                self.memo.insert(k, v);
            }
            self.memo_done = end.min(func.expressions.len());
        }
        self.memo.get(&h).cloned().flatten()
    }

    fn get(&self, h: Handle<Expression>) -> Option<String> {
        self.memo.get(&h).cloned().flatten()
    }

    fn compute(&self, h: Handle<Expression>) -> Option<String> {
        let module = &self.shader.module;
        let e = &self.func.expressions[h];
        match e {
            Expression::FunctionArgument(i) => {
                let arg = self.func.arguments.get(*i as usize)?;
                match arg.binding {
                    Some(naga::Binding::BuiltIn(b)) => builtin_varying(b),
                    None if is_input_struct(module, arg) => input_struct_varying(module, arg),
                    _ if self.params.get(*i as usize).copied().unwrap_or(true) => Some(format!(
                        "parameter `{}`",
                        self.func.arguments[*i as usize]
                            .name
                            .as_deref()
                            .unwrap_or("?")
                    )),
                    _ => None,
                }
            }
            Expression::GlobalVariable(g) => match module.global_variables[*g].space {
                AddressSpace::Storage { access } if access.contains(naga::StorageAccess::STORE) => {
                    Some("a read_write storage buffer".into())
                }
                AddressSpace::WorkGroup => Some("workgroup memory".into()),
                AddressSpace::Private => Some("a private variable".into()),
                _ => None,
            },
            Expression::LocalVariable(l) => self.local_state.get(l).cloned(),
            Expression::AtomicResult { .. } => Some("an atomic's result".into()),
            Expression::SubgroupBallotResult | Expression::SubgroupOperationResult { .. } => {
                Some("a subgroup built-in's result".into())
            }
            Expression::CallResult(_) => self
                .call_results
                .get(&h)
                .cloned()
                .unwrap_or_else(|| Some("a function's result".into())),
            Expression::WorkGroupUniformLoadResult { .. } => None,
            // A variable's value where the load is (the walk's point: `Emit` computes it).
            Expression::Load { pointer } => match self.root_local(*pointer) {
                Some(l) => self
                    .local_state
                    .get(&l)
                    .cloned()
                    .or_else(|| self.index_reason(*pointer)),
                None => self.get(*pointer),
            },
            Expression::Access { base, index } => self.get(*base).or_else(|| self.get(*index)),
            Expression::AccessIndex { base, .. } => self.get(*base),
            Expression::Unary { expr, .. } | Expression::As { expr, .. } => self.get(*expr),
            Expression::Binary { left, right, .. } => self.get(*left).or_else(|| self.get(*right)),
            Expression::Select {
                condition,
                accept,
                reject,
            } => self
                .get(*condition)
                .or_else(|| self.get(*accept))
                .or_else(|| self.get(*reject)),
            Expression::Math {
                arg,
                arg1,
                arg2,
                arg3,
                ..
            } => [Some(*arg), *arg1, *arg2, *arg3]
                .into_iter()
                .flatten()
                .find_map(|a| self.get(a)),
            Expression::Splat { value, .. } => self.get(*value),
            Expression::Swizzle { vector, .. } => self.get(*vector),
            Expression::Compose { components, .. } => components.iter().find_map(|c| self.get(*c)),
            _ => None,
        }
    }

    fn root_local(&self, mut p: Handle<Expression>) -> Option<Handle<naga::LocalVariable>> {
        for _ in 0..10_000 {
            match self.func.expressions[p] {
                Expression::LocalVariable(l) => return Some(l),
                Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => p = base,
                _ => return None,
            }
        }
        None
    }

    /// Why an index on the way to a place varies (`a[i]` with a non-uniform `i`), from the
    /// memo (the indices precede the access in the arena).
    fn index_reason(&self, mut p: Handle<Expression>) -> Option<String> {
        for _ in 0..10_000 {
            match self.func.expressions[p] {
                Expression::Access { base, index } => {
                    if let Some(w) = self.get(index) {
                        return Some(w);
                    }
                    p = base;
                }
                Expression::AccessIndex { base, .. } => p = base,
                _ => return None,
            }
        }
        None
    }

    /// [`Self::varying`], but a pointer into a function variable reads the variable's state
    /// at this point of the walk (the `LocalVariable` expression itself is made once, at the
    /// declaration, so its memo would hold the state there).
    fn varying_now(&mut self, h: Handle<Expression>) -> Option<String> {
        match self.root_local(h) {
            Some(l) => {
                self.varying(h);
                self.local_state
                    .get(&l)
                    .cloned()
                    .or_else(|| self.index_reason(h))
            }
            None => self.varying(h),
        }
    }

    /// Variable `l` is non-uniform from here (`why`: the value's reason, for a variable
    /// without a name, such as naga's temporary for `a || b`).
    fn mark_local(&mut self, l: Handle<naga::LocalVariable>, why: String) {
        let reason = match self.func.local_variables[l].name.as_deref() {
            Some(n) => format!("variable `{n}`"),
            // naga's temporary for `a || b` is written under the branch on `a`: the reason
            // is what that branch depends on.
            None => match why.split_once(" depends on ") {
                Some((head, tail)) if head.starts_with("the branch at ") => tail.to_string(),
                _ => why,
            },
        };
        self.local_state.insert(l, reason);
        self.ever.insert(l);
        self.mark_log.push(l);
        for k in self.loop_stack.clone() {
            self.loop_sets.entry(k).or_default().insert(l);
        }
    }

    /// The reason variable `l` was made non-uniform, for a join after its state was reset.
    fn break_reason(&self, l: Handle<naga::LocalVariable>) -> String {
        let n = self.func.local_variables[l].name.as_deref().unwrap_or("?");
        format!("variable `{n}`, written non-uniformly before a `break`")
    }

    /// The parameter a pointer expression points into (`*p`, `(*p)[i]`, `(*p).m`).
    fn root_param(&self, mut p: Handle<Expression>) -> Option<u32> {
        for _ in 0..10_000 {
            match self.func.expressions[p] {
                Expression::FunctionArgument(i) => return Some(i),
                Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => p = base,
                _ => return None,
            }
        }
        None
    }

    /// Why a pointer expression's place depends on the invocation: a non-uniform index on
    /// the way to it (`a[i % 4u]`), so a store there leaves the whole variable non-uniform
    /// (WGSL spec, Uniformity Analysis: a partial assignment's value joins the reference's).
    fn varying_index(&mut self, mut p: Handle<Expression>) -> Option<String> {
        for _ in 0..10_000 {
            match self.func.expressions[p] {
                Expression::Access { base, index } => {
                    if let Some(w) = self.varying(index) {
                        return Some(format!("an index that depends on {w}"));
                    }
                    p = base;
                }
                Expression::AccessIndex { base, .. } => p = base,
                _ => return None,
            }
        }
        None
    }

    fn flag(&mut self, what: &str, span: naga::Span, why: &str) {
        // A statement's `@diagnostic` attribute holding the call, else the function's.
        let Some(level) = stmt_level(self.shader, span).unwrap_or(self.level) else {
            return;
        };
        let (line, col) = self.at(span);
        self.findings.push(Finding {
            line,
            col,
            level,
            message: format!(
                "{what} is called in non-uniform control flow ({why}); add \
                 `diagnostic(off, subgroup_uniformity);` if the divergence is intended"
            ),
            barrier: false,
        });
    }

    /// A barrier (or `workgroupUniformLoad`) at `span` in non-uniform control flow.
    fn flag_barrier(&mut self, what: &str, span: naga::Span, why: &str) {
        let (line, col) = self.at(span);
        self.findings.push(Finding {
            line,
            col,
            level: Level::Error,
            message: format!("{what} is called in non-uniform control flow ({why})"),
            barrier: true,
        });
    }

    /// A subgroup built-in inside a helper, at the helper's severity there.
    fn flag_at(&mut self, what: &str, line: u32, col: u32, level: Level, why: &str) {
        self.findings.push(Finding {
            line,
            col,
            level,
            message: format!(
                "{what} is called in non-uniform control flow ({why}); add \
                 `diagnostic(off, subgroup_uniformity);` if the divergence is intended"
            ),
            barrier: false,
        });
    }

    /// Walks a block; `nonuniform` says why control flow here is not uniform. Returns the
    /// reason control flow is non-uniform after the block (a `return` under a varying branch).
    /// Nesting is bounded by naga's parser; the walk keeps its own explicit depth guard.
    fn block(&mut self, b: &naga::Block, nonuniform: Option<String>, depth: u32) -> Option<String> {
        let mut nu = nonuniform;
        if depth > 256 {
            return nu;
        }
        for (s, sp) in b.span_iter() {
            match s {
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    let why = nu.clone().or_else(|| {
                        self.varying(*condition).map(|w| {
                            let (l, c) = self.at(*sp);
                            format!("the branch at {l}:{c} depends on {w}")
                        })
                    });
                    let entry = self.local_state.clone();
                    let a = self.block(accept, why.clone(), depth + 1);
                    let after_accept = std::mem::replace(&mut self.local_state, entry);
                    let r = self.block(reject, why.clone(), depth + 1);
                    join_into(&mut self.local_state, after_accept);
                    // Control flow reconverges after the `if` unless a path through it
                    // returned in non-uniform control flow (the spec's CF_return).
                    if nu.is_none() && (returns(accept) || returns(reject)) {
                        nu = a.or(r).map(|w| format!("{w}, which returns early"));
                    }
                }
                Statement::Switch { selector, cases } => {
                    let why = nu.clone().or_else(|| {
                        self.varying(*selector)
                            .map(|w| format!("the switch depends on {w}"))
                    });
                    let entry = self.local_state.clone();
                    let marks = self.mark_log.len();
                    // Without a `default` case, a selector matching none skips the switch; a
                    // `break` (or `continue`) from a case's middle leaves with its state there.
                    let breaks = cases.iter().any(|c| exits(&c.body));
                    let mut joined = if !breaks
                        && cases
                            .iter()
                            .any(|c| matches!(c.value, naga::SwitchValue::Default))
                    {
                        HashMap::new()
                    } else {
                        entry.clone()
                    };
                    for c in cases {
                        if c.fall_through && c.body.is_empty() {
                            continue; // `case 1u, 2u:`: the next case's body is its own
                        }
                        self.local_state = entry.clone();
                        let after = self.block(&c.body, why.clone(), depth + 1);
                        join_into(&mut joined, std::mem::take(&mut self.local_state));
                        if nu.is_none() && returns(&c.body) {
                            nu = after.map(|w| format!("{w}, which returns early"));
                        }
                    }
                    if breaks {
                        for &l in &self.mark_log[marks..] {
                            let w = self.break_reason(l);
                            joined.entry(l).or_insert(w);
                        }
                    }
                    self.local_state = joined;
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                } => {
                    // Variables non-uniform at the end of an iteration (an earlier round found
                    // them) are non-uniform from the loop's start.
                    let key = body as *const naga::Block as usize;
                    let in_loop = |me: &Self, l: Handle<naga::LocalVariable>| {
                        let n = me.func.local_variables[l].name.as_deref().unwrap_or("?");
                        format!("variable `{n}`, written non-uniformly in the loop")
                    };
                    for l in self.loop_back.get(&key).cloned().unwrap_or_default() {
                        if !self.local_state.contains_key(&l) {
                            let w = in_loop(self, l);
                            self.local_state.insert(l, w);
                        }
                    }
                    // A `continue` or a `break` leaves from the body's middle: there, any
                    // variable the loop writes non-uniformly anywhere may be non-uniform.
                    let mut entry = self.local_state.clone();
                    for l in self.loop_sets.get(&key).cloned().unwrap_or_default() {
                        if let std::collections::hash_map::Entry::Vacant(v) = entry.entry(l) {
                            v.insert(in_loop(self, l));
                        }
                    }
                    self.loop_stack.push(key);
                    let mut why = nu.clone();
                    if why.is_none() {
                        if let Some(b) = break_if {
                            why = self
                                .varying(*b)
                                .map(|w| format!("the loop's `break if` depends on {w}"));
                        }
                    }
                    if why.is_none() {
                        why = self.varying_exit(body, depth + 1);
                    }
                    let after = self.block(body, why.clone(), depth + 1);
                    // A `continue` reaches `continuing` from the body's middle: any state the
                    // loop started with, or a variable it writes non-uniformly (marked above).
                    join_into(&mut self.local_state, entry.clone());
                    self.block(continuing, why, depth + 1);
                    let back = self.loop_back.entry(key).or_default();
                    back.extend(self.local_state.keys().copied());
                    self.loop_stack.pop();
                    // After the loop: any iteration's state (a `break` leaves from the middle).
                    join_into(&mut self.local_state, entry);
                    // A `return` in the loop's non-uniform control flow leaves the code after
                    // the loop non-uniform; a `break` reconverges there.
                    if nu.is_none() && returns(body) {
                        nu = after.map(|w| format!("{w}, which returns early"));
                    }
                }
                Statement::Emit(r) => {
                    // Expressions read the variables' state where they are emitted.
                    if let Some(h) = r.clone().last() {
                        self.varying(h);
                    }
                }
                Statement::Block(b) => {
                    if let Some(w) = self.block(b, nu.clone(), depth + 1) {
                        nu = Some(w);
                    }
                }
                Statement::Store { pointer, value } => {
                    let why = nu
                        .clone()
                        .or_else(|| self.varying(*value))
                        .or_else(|| self.varying_index(*pointer));
                    if let Some(l) = self.root_local(*pointer) {
                        match why {
                            Some(w) => self.mark_local(l, w),
                            // A whole new uniform value: the variable is uniform again (a
                            // store into one element keeps the others' state).
                            None if matches!(
                                self.func.expressions[*pointer],
                                Expression::LocalVariable(_)
                            ) =>
                            {
                                self.local_state.remove(&l);
                            }
                            None => {}
                        }
                    } else if let Some(k) = self.root_param(*pointer) {
                        let entry = self.ptr_out.entry(k).or_insert(None);
                        if entry.is_none() {
                            *entry = why;
                        }
                    }
                }
                Statement::ControlBarrier(flags) if !flags.contains(naga::Barrier::SUB_GROUP) => {
                    if let Some(w) = &nu {
                        let what = if flags.contains(naga::Barrier::STORAGE) {
                            "storageBarrier"
                        } else {
                            "workgroupBarrier"
                        };
                        self.flag_barrier(what, *sp, &w.clone());
                    }
                }
                Statement::WorkGroupUniformLoad { .. } => {
                    if let Some(w) = &nu {
                        self.flag_barrier("workgroupUniformLoad", *sp, &w.clone());
                    }
                }
                Statement::SubgroupBallot { .. } => {
                    if let Some(w) = &nu {
                        self.flag("subgroupBallot", *sp, &w.clone());
                    }
                }
                Statement::SubgroupGather { mode, .. } => {
                    if let Some(w) = &nu {
                        self.flag(gather_name(mode), *sp, &w.clone());
                    }
                }
                Statement::SubgroupCollectiveOperation {
                    op, collective_op, ..
                } => {
                    if let Some(w) = &nu {
                        self.flag(&collective_name(*op, *collective_op), *sp, &w.clone());
                    }
                }
                Statement::Call {
                    function,
                    arguments,
                    result,
                } => {
                    let f = &self.shader.module.functions[*function];
                    let fname = f.name.clone().unwrap_or_default();
                    if self.shader.elect_appended && fname == "subgroupElect" {
                        if let Some(w) = &nu {
                            self.flag("subgroupElect", *sp, &w.clone());
                        }
                        continue;
                    }
                    let (l, c) = self.at(*sp);
                    let summary = self.summaries.get(function).cloned().unwrap_or_default();
                    if let (Some(w), Some((inner, il, ic, lv))) = (&nu, &summary.reaches) {
                        // The built-in runs in this call's control flow; reported at the
                        // built-in, as Tint does.
                        let why = format!("{w}; through the call of `{fname}` at {l}:{c}");
                        self.flag_at(inner, *il, *ic, *lv, &why);
                    }
                    if let (Some(w), Some((inner, il, ic))) = (&nu, &summary.reaches_barrier) {
                        let why = format!("{w}; through the call of `{fname}` at {l}:{c}");
                        self.findings.push(Finding {
                            line: *il,
                            col: *ic,
                            level: Level::Error,
                            message: format!(
                                "{inner} is called in non-uniform control flow ({why})"
                            ),
                            barrier: true,
                        });
                    }
                    let mut ret = summary.ret.clone();
                    for (k, a) in arguments.iter().enumerate() {
                        let Some(w) = self.varying_now(*a) else {
                            continue;
                        };
                        if nu.is_none() {
                            for find in summary.params.get(k).into_iter().flatten() {
                                // At the helper's own severity (a barrier's: an error).
                                let mut find = find.clone();
                                find.message = format!(
                                    "{} (argument {} of the call of `{fname}` at {l}:{c} \
                                     depends on {w})",
                                    find.message,
                                    k + 1
                                );
                                self.findings.push(find);
                            }
                        }
                        if ret.is_none() && summary.ret_params.get(k).copied().unwrap_or(true) {
                            ret = Some(format!("`{fname}`'s result, from {w}"));
                        }
                    }
                    if let Some(r) = result {
                        self.call_results.insert(*r, ret);
                    }
                    // A local passed by pointer: non-uniform after the call when the helper
                    // writes it non-uniformly, or with a non-uniform argument it depends on,
                    // or at all in non-uniform control flow.
                    for (k, a) in arguments.iter().enumerate() {
                        let Some(l) = self.root_local(*a) else {
                            continue;
                        };
                        let Some(base) = summary.ptr_out.get(k) else {
                            continue;
                        };
                        let by_arg = summary.ptr_out_params.get(k).is_some_and(|by| {
                            arguments.iter().enumerate().any(|(j, b)| {
                                by.get(j) == Some(&true) && self.varying_now(*b).is_some()
                            })
                        });
                        let written = summary.ptr_written.get(k).copied().unwrap_or(false);
                        if base.is_some() || by_arg || (written && nu.is_some()) {
                            let why = base
                                .clone()
                                .or_else(|| nu.clone())
                                .unwrap_or_else(|| format!("a write through `{fname}`"));
                            self.mark_local(l, why);
                        }
                    }
                }
                Statement::Return { value: Some(v) } if self.ret.is_none() => {
                    self.ret = nu.clone().or_else(|| self.varying(*v));
                }
                _ => {}
            }
        }
        nu
    }

    /// Why a loop's iterations may differ between invocations: a `break` or `continue` under a
    /// varying branch of its body (not of a nested loop).
    fn varying_exit(&mut self, b: &naga::Block, depth: u32) -> Option<String> {
        if depth > 256 {
            return None;
        }
        for s in b.iter() {
            match s {
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    if exits(accept) || exits(reject) {
                        if let Some(w) = self.varying(*condition) {
                            return Some(format!("the loop's exit depends on {w}"));
                        }
                    }
                    if let Some(w) = self
                        .varying_exit(accept, depth + 1)
                        .or_else(|| self.varying_exit(reject, depth + 1))
                    {
                        return Some(w);
                    }
                }
                Statement::Block(inner) => {
                    if let Some(w) = self.varying_exit(inner, depth + 1) {
                        return Some(w);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// `into` joined with `other`: a variable non-uniform on either path is non-uniform after
/// the paths meet (the reason already held wins).
fn join_into(
    into: &mut HashMap<Handle<naga::LocalVariable>, String>,
    other: HashMap<Handle<naga::LocalVariable>, String>,
) {
    for (l, w) in other {
        into.entry(l).or_insert(w);
    }
}

/// The WGSL name of a reduction or scan: `subgroupAdd`, `subgroupInclusiveAdd`,
/// `subgroupExclusiveMul`, … (WGSL spec, Subgroup Built-in Functions).
fn collective_name(op: naga::SubgroupOperation, c: naga::CollectiveOperation) -> String {
    let scan = match c {
        naga::CollectiveOperation::Reduce => "",
        naga::CollectiveOperation::InclusiveScan => "Inclusive",
        naga::CollectiveOperation::ExclusiveScan => "Exclusive",
    };
    format!("subgroup{scan}{op:?}")
}

fn gather_name(m: &naga::GatherMode) -> &'static str {
    use naga::GatherMode as G;
    match m {
        G::BroadcastFirst => "subgroupBroadcastFirst",
        G::Broadcast(_) => "subgroupBroadcast",
        G::Shuffle(_) => "subgroupShuffle",
        G::ShuffleDown(_) => "subgroupShuffleDown",
        G::ShuffleUp(_) => "subgroupShuffleUp",
        G::ShuffleXor(_) => "subgroupShuffleXor",
        G::QuadBroadcast(_) => "quadBroadcast",
        G::QuadSwap(_) => "a quad swap",
    }
}

/// The first barrier (`workgroupBarrier`, `storageBarrier`) or `workgroupUniformLoad` in
/// `f`'s own body (name and span), any control flow. `subgroupBarrier` is a subgroup
/// built-in ([`first_builtin`]).
fn first_barrier(f: &naga::Function) -> Option<(String, naga::Span)> {
    find_statement(&f.body, |s, sp| match s {
        Statement::ControlBarrier(flags) if !flags.contains(naga::Barrier::SUB_GROUP) => {
            let what = if flags.contains(naga::Barrier::STORAGE) {
                "storageBarrier"
            } else {
                "workgroupBarrier"
            };
            Some((what.into(), sp))
        }
        Statement::WorkGroupUniformLoad { .. } => Some(("workgroupUniformLoad".into(), sp)),
        _ => None,
    })
}

/// The first subgroup built-in in `f`'s own body (name and span), any control flow.
/// The first subgroup built-in of `f` where the rule is not off (its level there, with the
/// function's own `fn_level`).
fn first_builtin(
    shader: &NagaShader,
    f: &naga::Function,
    fn_level: Option<Level>,
) -> Option<(String, naga::Span, Level)> {
    find_statement(&f.body, |s, sp| {
        let level = stmt_level(shader, sp).unwrap_or(fn_level)?;
        builtin_name(shader, s).map(|n| (n, sp, level))
    })
}

/// The WGSL name of a subgroup built-in statement, `None` for any other statement.
fn builtin_name(shader: &NagaShader, s: &Statement) -> Option<String> {
    match s {
        Statement::SubgroupBallot { .. } => Some("subgroupBallot".into()),
        Statement::SubgroupGather { mode, .. } => Some(gather_name(mode).to_string()),
        Statement::SubgroupCollectiveOperation {
            op, collective_op, ..
        } => Some(collective_name(*op, *collective_op)),
        Statement::Call { function, .. } => {
            let g = &shader.module.functions[*function];
            (shader.elect_appended && g.name.as_deref() == Some("subgroupElect"))
                .then(|| "subgroupElect".into())
        }
        _ => None,
    }
}

/// The severity a statement-level `@diagnostic` attribute gives at `span` (the innermost
/// one holding it: `super::stmt_diagnostics`), `None` when none holds it.
fn stmt_level(shader: &NagaShader, span: naga::Span) -> Option<Option<Level>> {
    let at = span.to_range()?.start;
    shader
        .stmt_filters
        .iter()
        .filter(|f| f.start <= at && at < f.end)
        .min_by_key(|f| f.end - f.start)
        .map(|f| f.level)
}

/// The helper functions `f` calls directly.
fn callees(f: &naga::Function) -> Vec<Handle<naga::Function>> {
    let mut out = Vec::new();
    find_statement(&f.body, |s, _| {
        if let Statement::Call { function, .. } = s {
            out.push(*function);
        }
        None::<()>
    });
    out
}

/// Whether a block returns on some path (outside nested loops too: a return ends the call).
fn returns(b: &naga::Block) -> bool {
    find_statement(b, |s, _| {
        matches!(s, Statement::Return { .. }).then_some(())
    })
    .is_some()
}

/// Whether a block breaks or continues its loop (not a nested loop's).
fn exits(b: &naga::Block) -> bool {
    let mut stack = vec![b];
    while let Some(b) = stack.pop() {
        for s in b.iter() {
            match s {
                Statement::Break | Statement::Continue => return true,
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(i) => stack.push(i),
                _ => {}
            }
        }
    }
    false
}

impl<'a> Walk<'a> {
    fn new(
        shader: &'a NagaShader,
        func: &'a naga::Function,
        params: Vec<bool>,
        summaries: &'a HashMap<Handle<naga::Function>, Summary>,
        level: Option<Level>,
    ) -> Self {
        Walk {
            shader,
            func,
            params,
            summaries,
            local_state: HashMap::new(),
            ever: HashSet::new(),
            loop_sets: HashMap::new(),
            loop_back: HashMap::new(),
            loop_stack: Vec::new(),
            mark_log: Vec::new(),
            call_results: HashMap::new(),
            memo: HashMap::new(),
            memo_done: 0,
            findings: Vec::new(),
            level,
            ret: None,
            ptr_out: HashMap::new(),
        }
    }

    /// Walks the function until the set of non-uniform variables settles.
    fn run(&mut self) {
        let size = |w: &Self| {
            (
                w.ever.len(),
                w.loop_sets.values().map(HashSet::len).sum::<usize>(),
                w.loop_back.values().map(HashSet::len).sum::<usize>(),
            )
        };
        for _ in 0..32 {
            let before = size(self);
            self.local_state.clear();
            self.loop_stack.clear();
            self.mark_log.clear();
            self.memo.clear();
            self.memo_done = 0;
            self.findings.clear();
            self.ret = None;
            self.ptr_out.clear();
            let f = self.func;
            self.block(&f.body, None, 0);
            if size(self) == before {
                break;
            }
        }
    }
}

/// Summarises every helper function, callees first (naga's arena order: its validator refuses
/// a call to a function declared later), so no summary needs recursion.
fn summaries(shader: &NagaShader) -> HashMap<Handle<naga::Function>, Summary> {
    let mut out: HashMap<Handle<naga::Function>, Summary> = HashMap::new();
    for (fh, f) in shader.module.functions.iter() {
        let n = f.arguments.len();
        let level = fn_severity(&shader.module, f);
        let place = |(name, sp): (String, naga::Span)| {
            let (l, c) = sp
                .to_range()
                .map_or((1, 1), |r| line_col(&shader.text, r.start));
            (name, l, c)
        };
        // A built-in under an `off` filter reaches no call site's check.
        let own_builtin = first_builtin(shader, f, level).map(|(name, sp, lv)| {
            let (name, l, c) = place((name, sp));
            (name, l, c, lv)
        });
        let reaches = own_builtin.or_else(|| {
            callees(f)
                .iter()
                .find_map(|g| out.get(g).and_then(|s| s.reaches.clone()))
        });
        let reaches_barrier = first_barrier(f).map(place).or_else(|| {
            callees(f)
                .iter()
                .find_map(|g| out.get(g).and_then(|s| s.reaches_barrier.clone()))
        });
        let mut base = Walk::new(shader, f, vec![false; n], &out, level);
        base.run();
        let own = base.findings.clone();
        let ret = base.ret.clone();
        let ptr_written: Vec<bool> = (0..n as u32)
            .map(|k| base.ptr_out.contains_key(&k))
            .collect();
        let ptr_out: Vec<Option<String>> = (0..n as u32)
            .map(|k| base.ptr_out.get(&k).cloned().flatten())
            .collect();
        let mut ptr_out_params = vec![vec![false; n]; n];
        let mut params = Vec::new();
        let mut ret_params = Vec::new();
        for k in 0..n {
            let mut only = vec![false; n];
            only[k] = true;
            let mut w = Walk::new(shader, f, only, &out, level);
            w.run();
            params.push(
                w.findings
                    .into_iter()
                    .filter(|x| !own.contains(x))
                    .collect(),
            );
            ret_params.push(w.ret.is_some());
            for (j, by) in ptr_out_params.iter_mut().enumerate() {
                by[k] = w.ptr_out.get(&(j as u32)).is_some_and(|x| x.is_some());
            }
        }
        out.insert(
            fh,
            Summary {
                reaches,
                reaches_barrier,
                params,
                ret,
                ret_params,
                own,
                ptr_out,
                ptr_written,
                ptr_out_params,
            },
        );
    }
    out
}

/// Checks the entry point `index` of `shader` and the helpers it reaches; findings are empty
/// when the rule is off. Each finding is reported once.
pub fn check(shader: &NagaShader, index: usize) -> Vec<Finding> {
    let ep = &shader.module.entry_points[index];
    // With subgroup_uniformity off, barriers are still checked (their rule is not filterable).
    let filter = severity(&shader.module, ep);
    let sums = summaries(shader);
    let mut w = Walk::new(shader, &ep.function, Vec::new(), &sums, filter);
    w.run();
    let mut out: Vec<Finding> = Vec::new();
    // Helpers reached from the entry point: their own findings (whatever the arguments).
    let mut seen = HashSet::new();
    let mut todo = callees(&ep.function);
    while let Some(f) = todo.pop() {
        if !seen.insert(f) {
            continue;
        }
        if let Some(s) = sums.get(&f) {
            out.extend(s.own.iter().cloned());
        }
        todo.extend(callees(&shader.module.functions[f]));
    }
    out.extend(w.findings);
    let mut unique: Vec<Finding> = Vec::new();
    for f in out {
        if !unique.iter().any(|u| u.line == f.line && u.col == f.col) {
            unique.push(f);
        }
    }
    unique.sort_by_key(|f| (f.line, f.col));
    unique
}

/// Why an entry point's built-in input value may differ between invocations (WGSL spec,
/// § Uniformity Analysis: the invocation ids are non-uniform; the sizes, `workgroup_id`,
/// `num_workgroups` and `subgroup_id` are uniform within a subgroup), or `None`.
fn builtin_varying(b: BuiltIn) -> Option<String> {
    match b {
        BuiltIn::LocalInvocationId => Some("local_invocation_id".into()),
        BuiltIn::LocalInvocationIndex => Some("local_invocation_index".into()),
        BuiltIn::GlobalInvocationId => Some("global_invocation_id".into()),
        BuiltIn::SubgroupInvocationId => Some("subgroup_invocation_id".into()),
        // A fragment entry point's inputs (checked when the module holds one beside the
        // compute entry, `super::prepare`): each fragment's own.
        BuiltIn::Position { .. } => Some("position".into()),
        BuiltIn::FrontFacing => Some("front_facing".into()),
        BuiltIn::SampleIndex => Some("sample_index".into()),
        BuiltIn::SampleMask => Some("sample_mask".into()),
        BuiltIn::PrimitiveIndex => Some("primitive_index".into()),
        // subgroup_id is the same in every invocation of a subgroup.
        _ => None,
    }
}

/// Whether an unbound parameter is a structure with built-in members (entry point inputs).
fn is_input_struct(module: &naga::Module, arg: &naga::FunctionArgument) -> bool {
    arg.binding.is_none()
        && matches!(&module.types[arg.ty].inner, naga::TypeInner::Struct { members, .. }
            if members.iter().any(|m| m.binding.is_some()))
}

/// A structure of entry point inputs: varying when one of its built-in members is, for the
/// parameter as a whole and so for every member read from it (the WGSL spec's uniformity
/// analysis has one node per parameter; Tint refuses `if (inputs.size > 4u) { subgroupAdd(…) }`
/// when `inputs` also holds `subgroup_invocation_id`).
fn input_struct_varying(module: &naga::Module, arg: &naga::FunctionArgument) -> Option<String> {
    let naga::TypeInner::Struct { members, .. } = &module.types[arg.ty].inner else {
        return None;
    };
    members.iter().find_map(|m| match m.binding {
        Some(naga::Binding::BuiltIn(b)) => builtin_varying(b),
        _ => None,
    })
}
