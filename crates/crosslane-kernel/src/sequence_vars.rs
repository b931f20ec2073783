//! File-scope `__device__` variables between host code's launches: device memory that lives
//! for the whole program (CUDA C++ Programming Guide, "Variable Memory Space Specifiers":
//! a `__device__` variable "resides in global memory space" and has "the lifetime of the CUDA
//! context"; HIP Programming Guide, "Memory management", the same). A launch finds in each one
//! what the launches before it left there, or what host code's last `cudaMemcpyToSymbol` before
//! it copied, else its initializer (zero without one, C++17 [basic.start.static]/2).
//!
//! Every kernel gets every variable as a trailing buffer parameter of its name
//! (`parser::items::add_constant_params`); a kernel *touches* a variable when its body, or a
//! function it calls, names it. The launches that touch a variable a run needs, since host
//! code's last copy into it, run first ([`earlier_for_vars`]), and what the newest of them left
//! is put into the next launch's buffer ([`inject_vars`]).

use std::collections::{HashMap, HashSet};

use super::ast::{ConstTable, Expr, ExprKind, Function, HostLaunch, Program, Stmt, StmtPartRef};
use super::exec::Executor;
use super::memory::Buffer;

/// Each device variable's newest contents: the launch (its [`HostLaunch::id`]) that left them,
/// and the buffer.
pub(crate) type VarState = HashMap<String, (u32, Buffer)>;

/// The names a function's body mentions (identifiers and the functions it calls). Walked with
/// an explicit stack: no recursion on the input's nesting.
fn names_in(f: &Function) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut stmts: Vec<&Stmt> = vec![&f.body];
    let mut exprs: Vec<&Expr> = Vec::new();
    while !stmts.is_empty() || !exprs.is_empty() {
        if let Some(s) = stmts.pop() {
            s.kind.for_each_part(|p| match p {
                StmtPartRef::Expr(e) => exprs.push(e),
                StmtPartRef::Stmt(x) => stmts.push(x),
            });
        }
        if let Some(e) = exprs.pop() {
            match &e.kind {
                ExprKind::Ident(n) | ExprKind::Call(n, _) => {
                    out.insert(n.clone());
                }
                _ => {}
            }
            e.kind.for_each_child(|c| exprs.push(c));
        }
    }
    out
}

/// For each kernel `program` launches: the device variables it touches (its body or a
/// function it calls, at any depth, names them).
pub(crate) fn touched(program: &Program) -> HashMap<String, HashSet<String>> {
    let vars: HashSet<&str> = program
        .constants
        .iter()
        .filter(|t| t.device)
        .map(|t| t.name.as_str())
        .collect();
    let mut out = HashMap::new();
    if vars.is_empty() {
        return out;
    }
    let by_name: HashMap<&str, HashSet<String>> = program
        .functions
        .iter()
        .map(|f| (f.name.as_str(), names_in(f)))
        .collect();
    for l in &program.launches {
        if out.contains_key(&l.kernel) {
            continue;
        }
        let mut seen: HashSet<&str> = HashSet::from([l.kernel.as_str()]);
        let mut stack = vec![l.kernel.as_str()];
        let mut hit = HashSet::new();
        while let Some(f) = stack.pop() {
            let Some(names) = by_name.get(f) else {
                continue;
            };
            for n in names {
                if vars.contains(n.as_str()) {
                    hit.insert(n.clone());
                } else if by_name.contains_key(n.as_str()) && seen.insert(n.as_str()) {
                    stack.push(n.as_str());
                }
            }
        }
        out.insert(l.kernel.clone(), hit);
    }
    out
}

/// The launch id from which on launches give `t` its contents at launch `id`: that of host
/// code's last copy into it before `id` ([`super::ast::SymbolWrite::at`]), else 0.
fn since(t: &ConstTable, id: u32) -> u32 {
    t.copies
        .iter()
        .filter(|c| c.at <= id)
        .map(|c| c.at)
        .max()
        .unwrap_or(0)
}

/// The earlier launches `l` needs for the device variables it touches: each launch that
/// touches one of them since host code last copied into it, the newest first (the caller
/// sorts; when it stops at its bound, the launches nearest `l` are those kept).
pub(crate) fn earlier_for_vars(
    program: &Program,
    touch: &HashMap<String, HashSet<String>>,
    l: &HostLaunch,
) -> Vec<u32> {
    let Some(mine) = touch.get(&l.kernel).filter(|m| !m.is_empty()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in program.constants.iter().filter(|t| mine.contains(&t.name)) {
        let from = since(t, l.id);
        for p in program.launches.iter().rev() {
            let uses = touch.get(&p.kernel).is_some_and(|s| s.contains(&t.name));
            if p.id >= from && p.id < l.id && !p.undecided && uses {
                out.push(p.id);
            }
        }
    }
    out
}

/// Puts into `ex`'s buffer of each device variable launch `l` touches what it holds there: the
/// newest contents an earlier launch left (`state`), unless host code copied into it since;
/// else host code's last copy before `l`, else its initializer (zero without one). A variable
/// the user set (`user`) keeps the user's fill. Returns each variable that took an earlier
/// launch's contents, with that launch's id.
pub(crate) fn inject_vars(
    ex: &mut Executor,
    program: &Program,
    touch: &HashMap<String, HashSet<String>>,
    l: &HostLaunch,
    state: &VarState,
    user: &HashSet<String>,
) -> Vec<(String, u32)> {
    let mut took = Vec::new();
    let Some(mine) = touch.get(&l.kernel) else {
        return took;
    };
    for t in program.constants.iter().filter(|t| mine.contains(&t.name)) {
        if user.contains(&t.name) {
            continue;
        }
        let from = since(t, l.id);
        if let Some((id, b)) = state.get(&t.name).filter(|(id, _)| *id >= from) {
            took.push((t.name.clone(), *id));
            let b = b.clone();
            set_cells(ex, &t.name, |cells, _| {
                for (c, v) in cells.iter_mut().zip(&b.cells) {
                    c.clone_from(v);
                }
            });
            continue;
        }
        // Host code's last copy before this launch, else the initializer.
        let copy = t.copies.iter().rev().find(|c| c.at <= l.id);
        let values: Option<Vec<String>> = match copy {
            Some(c) => c.values.clone(),
            None => Some(t.initial.clone()),
        };
        set_cells(ex, &t.name, |cells, elem| {
            for (i, c) in cells.iter_mut().enumerate() {
                *c = match &values {
                    // A copy whose data is not read: undefined, never made up.
                    None => None,
                    Some(v) => match v.get(i) {
                        Some(text) => super::memory::parse_cell(elem, text, "").ok().flatten(),
                        // Past the initializer (or with none): zero ([dcl.init.aggr]/5).
                        None if copy.is_none() => {
                            super::memory::parse_cell(elem, "0", "").ok().flatten()
                        }
                        // Past what the copy covers: what the initializer put there.
                        None => t
                            .initial
                            .get(i)
                            .map_or(Some("0"), |s| Some(s.as_str()))
                            .and_then(|s| super::memory::parse_cell(elem, s, "").ok().flatten()),
                    },
                };
            }
        });
    }
    took
}

/// Applies `f` to the cells of buffer `name` of `ex`, in its memory and its fill at launch.
fn set_cells(
    ex: &mut Executor,
    name: &str,
    mut f: impl FnMut(&mut Vec<Option<crate::types::KVal>>, crate::types::ValTy),
) {
    let Some(&b) = ex.global_bufs.get(name) else {
        return;
    };
    for mem in [&mut ex.trace.memory, &mut ex.trace.initial_memory] {
        if let Some(buf) = mem.buffers.get_mut(b) {
            let elem = buf.elem;
            f(&mut buf.cells, elem);
        }
    }
}

/// Records into `state` what launch `l` (run in `ex`) left in each device variable it touches;
/// returns the bytes kept.
pub(crate) fn store_vars(
    ex: &Executor,
    touch: &HashMap<String, HashSet<String>>,
    l: &HostLaunch,
    state: &mut VarState,
) -> u64 {
    let Some(mine) = touch.get(&l.kernel) else {
        return 0;
    };
    let mut kept = 0u64;
    for name in mine {
        let Some(buf) = ex
            .global_bufs
            .get(name)
            .and_then(|&b| ex.trace.memory.buffers.get(b))
        else {
            continue;
        };
        let cell = std::mem::size_of::<Option<crate::types::KVal>>() as u64;
        kept = kept.saturating_add((buf.cells.len() as u64).saturating_mul(cell));
        state.insert(name.clone(), (l.id, buf.clone()));
    }
    kept
}

/// The launches after `chosen` that touch a device variable `chosen` touches, with no copy
/// into it by host code between (they find what `chosen` left there).
pub(crate) fn later_for_vars(
    program: &Program,
    touch: &HashMap<String, HashSet<String>>,
    chosen: &HostLaunch,
) -> Vec<u32> {
    let Some(mine) = touch.get(&chosen.kernel).filter(|m| !m.is_empty()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in program.constants.iter().filter(|t| mine.contains(&t.name)) {
        let stop = t
            .copies
            .iter()
            .filter(|c| c.at > chosen.id)
            .map(|c| c.at)
            .min()
            .unwrap_or(u32::MAX);
        for p in &program.launches {
            let uses = touch.get(&p.kernel).is_some_and(|s| s.contains(&t.name));
            if p.id > chosen.id && p.id < stop && !p.undecided && uses {
                out.push(p.id);
            }
        }
    }
    out
}

/// Puts into `ex`'s final memory (not its fill at launch) each device variable's newest
/// contents left by a launch after launch `after` (the launches run after the traced one).
pub(crate) fn finish_vars(ex: &mut Executor, state: &VarState, after: u32) {
    for (name, (id, b)) in state {
        if *id <= after {
            continue;
        }
        let Some(&k) = ex.global_bufs.get(name) else {
            continue;
        };
        if let Some(buf) = ex.trace.memory.buffers.get_mut(k) {
            for (c, v) in buf.cells.iter_mut().zip(&b.cells) {
                c.clone_from(v);
            }
        }
    }
}
