//! The `subgroup_uniformity` rule, which naga 30 does not check: a subgroup or quad built-in
//! called in non-uniform control flow is a shader-creation error unless a
//! `diagnostic(off, subgroup_uniformity)` directive or attribute turns it off (WGSL spec,
//! "Uniformity Analysis" and "Filterable Triggering Rules: subgroup_uniformity").
//!
//! This implements the common cases, not the spec's whole graph: control flow is non-uniform
//! under an `if`, or a loop's `break if`/`break`/`continue` condition, whose value derives from
//! a per-invocation value — `local_invocation_id`/`_index`, `global_invocation_id`,
//! `subgroup_invocation_id`, `subgroup_id`, a load of `read_write` storage or workgroup memory,
//! an atomic's or subgroup built-in's result, or a function variable given such a value or
//! written under such a branch — and stays non-uniform after a `return` under such a branch.

use std::collections::{HashMap, HashSet};

use naga::{AddressSpace, BuiltIn, Expression, Handle, Statement};

use super::naga::NagaShader;
use crate::result::Level;

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
}

/// The severity the shader's diagnostic filters give `subgroup_uniformity` in the entry point
/// (`None`: off). The function's attribute wins over the module's directive.
fn severity(module: &naga::Module, ep: &naga::EntryPoint) -> Option<Level> {
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
    match find(ep.function.diagnostic_filter_leaf).or_else(|| find(module.diagnostic_filter_leaf)) {
        Some(Severity::Off) => None,
        Some(Severity::Info) => Some(Level::Info),
        Some(Severity::Warning) => Some(Level::Warning),
        _ => Some(Level::Error),
    }
}

struct Walk<'a> {
    shader: &'a NagaShader,
    func: &'a naga::Function,
    varying_locals: HashSet<Handle<naga::LocalVariable>>,
    memo: HashMap<Handle<Expression>, Option<String>>,
    /// The function's expressions in arena order, and how many of them `memo` holds.
    handles: Vec<Handle<Expression>>,
    filled: usize,
    findings: Vec<Finding>,
    level: Level,
}

impl Walk<'_> {
    fn at(&self, s: naga::Span) -> (u32, u32) {
        s.to_range()
            .map_or((1, 1), |r| self.shader.lines.line_col(r.start))
    }

    /// Why `h` may differ between invocations, or `None` when it is uniform. Iterative over
    /// the arena order (operands precede their users), so no recursion.
    /// The memo is filled in arena order, so each call computes only what lies between the
    /// last filled handle and `h`: linear over a function, however many calls.
    fn varying(&mut self, h: Handle<Expression>) -> Option<String> {
        let upto = (h.index() + 1).min(self.handles.len());
        while self.filled < upto {
            let k = self.handles[self.filled];
            let v = self.compute(k);
            self.memo.insert(k, v);
            self.filled += 1;
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
                match self.func.arguments.get(*i as usize)?.binding {
                    Some(naga::Binding::BuiltIn(b)) => match b {
                        BuiltIn::LocalInvocationId => Some("local_invocation_id".into()),
                        BuiltIn::LocalInvocationIndex => Some("local_invocation_index".into()),
                        BuiltIn::GlobalInvocationId => Some("global_invocation_id".into()),
                        BuiltIn::SubgroupInvocationId => Some("subgroup_invocation_id".into()),
                        BuiltIn::SubgroupId => Some("subgroup_id".into()),
                        _ => None,
                    },
                    _ => Some("an argument".into()),
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
            Expression::LocalVariable(l) => self.varying_locals.contains(l).then(|| {
                format!(
                    "variable `{}`",
                    self.func.local_variables[*l].name.as_deref().unwrap_or("?")
                )
            }),
            Expression::AtomicResult { .. } => Some("an atomic's result".into()),
            Expression::SubgroupBallotResult | Expression::SubgroupOperationResult { .. } => {
                Some("a subgroup built-in's result".into())
            }
            Expression::CallResult(_) => Some("a function's result".into()),
            Expression::WorkGroupUniformLoadResult { .. } => None,
            Expression::Load { pointer } => self.get(*pointer),
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

    fn flag(&mut self, what: &str, span: naga::Span, why: &str) {
        let (line, col) = self.at(span);
        self.findings.push(Finding {
            line,
            col,
            level: self.level,
            message: format!(
                "{what} is called in non-uniform control flow ({why}); add \
                 `diagnostic(off, subgroup_uniformity);` if the divergence is intended"
            ),
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
                    let a = self.block(accept, why.clone(), depth + 1);
                    let r = self.block(reject, why.clone(), depth + 1);
                    if nu.is_none() && why.is_some() && (returns(accept) || returns(reject)) {
                        nu = why.map(|w| format!("{w}, which returns early"));
                    }
                    nu = nu.or(a).or(r);
                }
                Statement::Switch { selector, cases } => {
                    let why = nu.clone().or_else(|| {
                        self.varying(*selector)
                            .map(|w| format!("the switch depends on {w}"))
                    });
                    for c in cases {
                        self.block(&c.body, why.clone(), depth + 1);
                    }
                }
                Statement::Loop {
                    body,
                    continuing,
                    break_if,
                } => {
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
                    self.block(body, why.clone(), depth + 1);
                    self.block(continuing, why, depth + 1);
                }
                Statement::Block(b) => {
                    if let Some(w) = self.block(b, nu.clone(), depth + 1) {
                        nu = Some(w);
                    }
                }
                Statement::Store { pointer, value } => {
                    if let Some(l) = self.root_local(*pointer) {
                        if nu.is_some() || self.varying(*value).is_some() {
                            self.varying_locals.insert(l);
                        }
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
                Statement::SubgroupCollectiveOperation { op, .. } => {
                    if let Some(w) = &nu {
                        self.flag(&format!("subgroup{op:?}"), *sp, &w.clone());
                    }
                }
                Statement::Call { function, .. } => {
                    let f = &self.shader.module.functions[*function];
                    if self.shader.elect_appended && f.name.as_deref() == Some("subgroupElect") {
                        if let Some(w) = &nu {
                            self.flag("subgroupElect", *sp, &w.clone());
                        }
                    } else if let Some(w) = &nu {
                        // A helper that reaches a subgroup built-in, called here: the built-in
                        // runs in this call's control flow.
                        if let Some(inner) = subgroup_inside(self.shader, *function) {
                            let what = format!(
                                "`{}` (which calls {inner})",
                                f.name.as_deref().unwrap_or("?")
                            );
                            self.flag(&what, *sp, &w.clone());
                        }
                    }
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

/// Whether a block returns on some path (outside nested loops too: a return ends the call).
/// The first subgroup built-in a helper function reaches, through the helpers it calls
/// (each function visited once, so a call graph of any size ends; no recursion).
fn subgroup_inside(shader: &NagaShader, f: Handle<naga::Function>) -> Option<String> {
    let functions = &shader.module.functions;
    let mut seen = HashSet::new();
    let mut todo = vec![f];
    while let Some(fh) = todo.pop() {
        if !seen.insert(fh) {
            continue;
        }
        let mut stack = vec![&functions[fh].body];
        while let Some(b) = stack.pop() {
            for s in b.iter() {
                match s {
                    Statement::SubgroupBallot { .. } => return Some("subgroupBallot".into()),
                    Statement::SubgroupGather { mode, .. } => {
                        return Some(gather_name(mode).to_string())
                    }
                    Statement::SubgroupCollectiveOperation { op, .. } => {
                        return Some(format!("subgroup{op:?}"))
                    }
                    Statement::Call { function, .. } => {
                        let g = &functions[*function];
                        if shader.elect_appended && g.name.as_deref() == Some("subgroupElect") {
                            return Some("subgroupElect".into());
                        }
                        todo.push(*function);
                    }
                    Statement::If { accept, reject, .. } => {
                        stack.push(accept);
                        stack.push(reject);
                    }
                    Statement::Block(i) => stack.push(i),
                    Statement::Loop {
                        body, continuing, ..
                    } => {
                        stack.push(body);
                        stack.push(continuing);
                    }
                    Statement::Switch { cases, .. } => {
                        stack.extend(cases.iter().map(|c| &c.body));
                    }
                    _ => {}
                }
            }
        }
    }
    None
}

fn returns(b: &naga::Block) -> bool {
    let mut stack = vec![b];
    while let Some(b) = stack.pop() {
        for s in b.iter() {
            match s {
                Statement::Return { .. } => return true,
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(i) => stack.push(i),
                Statement::Loop {
                    body, continuing, ..
                } => {
                    stack.push(body);
                    stack.push(continuing);
                }
                Statement::Switch { cases, .. } => stack.extend(cases.iter().map(|c| &c.body)),
                _ => {}
            }
        }
    }
    false
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

/// Checks the entry point `index` of `shader`; findings are empty when the rule is off.
pub fn check(shader: &NagaShader, index: usize) -> Vec<Finding> {
    let ep = &shader.module.entry_points[index];
    let Some(level) = severity(&shader.module, ep) else {
        return Vec::new();
    };
    let mut w = Walk {
        shader,
        func: &ep.function,
        varying_locals: HashSet::new(),
        memo: HashMap::new(),
        handles: ep.function.expressions.iter().map(|(h, _)| h).collect(),
        filled: 0,
        findings: Vec::new(),
        level,
    };
    // Variables become varying as the walk finds stores; walk until that settles.
    for _ in 0..8 {
        let before = w.varying_locals.len();
        w.memo.clear();
        w.filled = 0;
        w.findings.clear();
        w.block(&ep.function.body, None, 0);
        if w.varying_locals.len() == before {
            break;
        }
    }
    w.findings
}
