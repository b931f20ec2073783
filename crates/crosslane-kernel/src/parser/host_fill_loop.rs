//! One counting host loop whose body writes cells of host arrays and updates host scalars in
//! order: `for (int i = 0; i < n; i++) { acc += i; h[i] = acc; }` (an accumulator),
//! `h[i] = make_float4(i, 0, 0, 1);` (a vector element: its components in order), `h[i].x =
//! i * 0.5f;` of a host array of structs (each member's cells, kept as `h.x`), and a loop
//! over part of an array already filled (`for (i < 4) h[i] = 100;` after a loop over all of
//! it), a chain `a[i] = b[i] = v;` over arrays of one type, and a cell at an index the
//! statement computes from the counter (`h[4 * i + 1] = e;`, a layout of tiles). Each
//! iteration runs the statements in order with the counter bound (C++17
//! [stmt.for]/1, [intro.execution]/9: each full-expression before the next), so a cell holds
//! what the statement wrote with the scalars as they stood then. Cells no iteration writes keep
//! what the array held (undefined for an uninitialized array, [dcl.init]/12); the scalars keep
//! their values after the loop.
//!
//! A struct's array member is written `h[i].v[j] = e;` (the cell `i * len + j` of `h.v`, as
//! the kernel's buffer of the member holds every struct's elements in turn), also in one inner
//! counting loop of constant bounds (`for (int j = 0; j < 4; j++) h[i].v[j] = …;`), whose bounds
//! may not change per iteration.
//!
//! A statement may be an `if` (`else`, `else if`) whose condition each iteration knows (the
//! counter, a scalar, a cell written before): the branch it picks runs ([stmt.if]/1), as in a
//! tridiagonal CSR generator's `if (i > 1) { I[i] = I[i - 1] + 3; } else { I[1] = 2; }`; a
//! condition not known leaves the loop to the other readers. A comma expression `a[x] = e,
//! b[y] = f;` runs its parts in order ([expr.comma]/1); a cell's index may be any expression
//! the iteration knows (`J[start + 1] = i;` after `start = …;`).
//!
//! A signed overflow ([expr]/4: undefined behavior) in a cell's value leaves that cell
//! undefined with the reason (`crate::host_undef`); in a scalar's update
//! (`s = s * 1103515245 + 12345;`), the scalar has no value from then on, and every cell or
//! scalar computed from it is undefined for the same reason. The cells computed before keep
//! their values.
//!
//! Bounded: at most [`MAX_FILL`] iterations (an inner loop's included) and [`MAX_STMTS`]
//! statements in the body; each statement is parsed once.

use std::collections::HashMap;

use super::const_eval::{take_overflow, HostVal};
use super::host::{launches_in, HostState, MAX_FILL};
use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::host_undef::overflow_cell;
use crate::lexer::Tok;

/// Most statements in the body of a loop read here.
pub const MAX_STMTS: usize = 16;

/// One statement of the body.
enum Step {
    /// `h[i] = e;`: the cell at the counter (one component per expression for a vector
    /// element written by `make_T4(…)`); `h[i].v[j] = e;` of an array member `v` of `len`
    /// elements per struct: the cell `i * len + j` of `h.v` (`sub` is `(j, len)`).
    Cell {
        arr: String,
        sub: Option<(Expr, u32)>,
        parts: Vec<Expr>,
        /// `h[4 * i + 1] = e;`: the cell at this index instead of at the counter.
        index: Option<Expr>,
    },
    /// `acc += i;`, `x = e;`, `++n;`: a host scalar updated.
    Scalar(Expr),
    /// An inner counting loop `for (int j = A; j < B; j++) …` of constant bounds whose body
    /// is statements of the other kinds (one level: no loop in it).
    Loop {
        var: String,
        from: i128,
        to: i128,
        steps: Vec<Step>,
    },
    /// `if (c) { … } else { … }` whose condition is known per iteration (the counter, a
    /// scalar, a cell written before): the branch taken runs ([stmt.if]/1); `else if` is an
    /// `If` in `els`.
    If {
        cond: Expr,
        then: Vec<Step>,
        els: Vec<Step>,
    },
}

/// Deepest nesting of `if` statements read in a loop's body.
const MAX_IF_DEPTH: u8 = 4;

/// What one run of the body writes: each array's cells, and the scalars a signed overflow
/// left without a value.
struct Fill {
    cells: HashMap<String, Vec<String>>,
    poisoned: Poisoned,
    /// Arrays host code no longer knows (written before where it was not read): the loop's
    /// writes of them are not run, and they stay unknown with their reason.
    skip: std::collections::HashSet<String>,
}

/// The `make_<type><N>(…)` constructors of CUDA's and HIP's vector types (CUDA C++ Programming
/// Guide, "Built-in Vector Types": `make_<type name>` builds a vector from its components).
pub(super) fn vector_make(name: &str) -> bool {
    name.strip_prefix("make_").is_some_and(|t| {
        t.ends_with(['2', '3', '4'])
            && [
                "float",
                "double",
                "int",
                "uint",
                "short",
                "ushort",
                "char",
                "uchar",
                "long",
                "ulong",
                "longlong",
                "ulonglong",
                // `make_half2(x, y)` (CUDA Math API, Half Precision Conversion and Data
                // Movement: "Vector function, combines two half numbers into one half2") and
                // `make_bfloat162`: the components rounded where the half2 cells are written.
                "half",
                "bfloat16",
            ]
            .iter()
            .any(|b| t.len() == b.len() + 1 && t.starts_with(b))
    })
}

impl Parser<'_> {
    /// The counting `for` loop at `k` (see the module): records each array's cells and the
    /// scalars' values after it, and returns where the next statement starts. `None` for a
    /// loop of another shape, a launch in it, or a value not read (left to the other
    /// readers, which say so).
    pub(super) fn host_fill_loop(&mut self, st: &mut HostState, k: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let (var, from, to, head) = self.for_head(st, k)?;
        if to - from > MAX_FILL || from < 0 {
            return None;
        }
        let braced = matches!(tok(head + 1), Some(Tok::Punct("{")));
        let (body_from, body_to, after) = if braced {
            let c = self.closing(head + 1)?;
            (head + 2, c, c + 1)
        } else {
            let s = (head + 1..toks.len()).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))?;
            (head + 1, s + 1, s + 1)
        };
        if launches_in(&toks[body_from..body_to]) {
            return None;
        }
        // The statements: each up to its `;`, none a control statement or a block but one
        // inner counting loop level.
        let steps = self.fill_steps(st, &var, body_from, body_to, true, 0)?;
        if flat(&steps).len() > MAX_STMTS * 4 {
            return None;
        }
        // Only a shape the simple fill loop does not read makes this reader take it: an update
        // of a scalar, a vector element, a member, an inner loop, or a loop over part of a
        // filled array.
        let needs_more = steps.iter().any(|step| match step {
            Step::Scalar(_) | Step::Loop { .. } | Step::If { .. } => true,
            Step::Cell {
                arr,
                sub,
                parts,
                index,
            } => {
                index.is_some()
                    || parts.len() > 1
                    || sub.is_some()
                    || arr.contains('.')
                    || st.fills.contains_key(arr)
                    || from != 0
            }
        });
        // `a[i] = b[i] = v;`: a chain, which the simple fill loop does not read.
        let chained = toks[body_from..body_to].windows(7).any(|w| {
            matches!(
                (&w[0].tok, &w[1].tok, &w[2].tok, &w[3].tok, &w[4].tok, &w[5].tok, &w[6].tok),
                (Tok::Punct("]"), Tok::Punct("="), Tok::Ident(_), Tok::Punct("["), Tok::Ident(n), Tok::Punct("]"), Tok::Punct("="))
                    if *n == var
            )
        });
        if steps.is_empty() || !(needs_more || chained) {
            return None;
        }
        // Statement runs per iteration: an inner loop's count each.
        let inner: i128 = flat(&steps)
            .into_iter()
            .map(|step| match step {
                Step::Loop { from, to, .. } => (to - from).max(0),
                _ => 0,
            })
            .sum::<i128>()
            .max(1);
        if (to - from).checked_mul(inner)? > MAX_FILL {
            return None;
        }
        let mut env = st.env.clone();
        let mut fill = Fill {
            cells: HashMap::new(),
            // Scalars a signed overflow left without a value ([expr]/4): their value before
            // it (for its type) and the line of the overflow. A cell or scalar computed from
            // one is undefined for the same reason; the cells before it keep their values.
            poisoned: HashMap::new(),
            skip: std::collections::HashSet::new(),
        };
        for step in flat(&steps) {
            if let Step::Cell { arr, sub, .. } = step {
                let old = match st.fills.get(arr) {
                    Some((v, _)) => v.clone(),
                    // An array host code no longer knows (written where it was not read): its
                    // cells are unknown, not undefined, and stay so (a statement reading one
                    // for another array's cell, a scalar or a condition leaves the whole loop
                    // to the other readers, as a value not read does).
                    // A pointer fresh from `malloc` / `new` (its size not read): no values yet.
                    None if st.unknown.contains_key(arr)
                        && st.fresh_alloc.get(arr) != st.unknown.get(arr) =>
                    {
                        fill.skip.insert(arr.clone());
                        continue;
                    }
                    None => {
                        let whole = arr.split('.').next().unwrap_or(arr);
                        let per = sub.as_ref().map_or(1, |s| i128::from(s.1));
                        let n = st
                            .arrays
                            .get(whole)
                            .copied()
                            .unwrap_or(0)
                            .checked_mul(per)?
                            .clamp(0, MAX_FILL);
                        vec!["undef".to_string(); usize::try_from(n).ok()?]
                    }
                };
                fill.cells.insert(arr.clone(), old);
            }
        }
        for i in from..to {
            env.insert(var.clone(), HostVal::Int(i));
            self.run_steps(&steps, i, &mut env, &mut fill)?;
        }
        // The names `h[3]` that bound cells read back are the loop's own.
        env.retain(|n, _| !n.contains('['));
        // The counter is the loop's own ([stmt.for]/1).
        match st.env.get(&var) {
            Some(v) => env.insert(var.clone(), *v),
            None => env.remove(&var),
        };
        for step in flat(&steps) {
            if let Step::Scalar(e) = step {
                if let Some(n) = assigned_name(e) {
                    st.unknown.remove(&n);
                }
            }
        }
        st.env = env;
        for (name, (_, at)) in fill.poisoned {
            let why = format!(
                "a signed overflow at line {at} (undefined behavior, C++17 [expr]/4) left it \
                 without a value"
            );
            Self::mark_unknown(st, std::slice::from_ref(&name), &why);
        }
        let cells = fill.cells;
        let line = toks[k].line;
        for (arr, values) in cells {
            st.unknown.remove(&arr);
            st.fills.insert(arr, (values, line));
        }
        Some(after)
    }

    /// The statements over `from..to` of the body of a loop counting `var`, each up to its
    /// `;`; with `nest`, an inner counting loop among them (its own statements read so, without
    /// a loop). `None` for any other statement, or more than [`MAX_STMTS`].
    fn fill_steps(
        &mut self,
        st: &HostState,
        var: &str,
        from: usize,
        to: usize,
        nest: bool,
        ifs: u8,
    ) -> Option<Vec<Step>> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let mut steps = Vec::new();
        let mut s = from;
        while s < to {
            if steps.len() >= MAX_STMTS {
                return None;
            }
            if nest && matches!(tok(s), Some(Tok::Ident(w)) if w == "for") {
                // Its bounds are read once, before the outer loop runs: not when they name the
                // outer counter or a scalar the body assigns (their value changes per
                // iteration; `for (j = 0; j < i; j++)` is left to the other readers).
                let (v, a, b, head) = self.for_head(st, s)?;
                let changing = self.assigned_in(from, to);
                let varies = toks[s + 1..head].iter().any(|t| {
                    matches!(&t.tok, Tok::Ident(n) if *n != v && (n == var || changing.contains(n)))
                });
                if varies || v == var || a < 0 || b - a > MAX_FILL {
                    return None;
                }
                let (body_from, body_to, after) = if matches!(tok(head + 1), Some(Tok::Punct("{")))
                {
                    let c = self.closing(head + 1)?;
                    (head + 2, c, c + 1)
                } else {
                    let semi = (head + 1..to).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))?;
                    (head + 1, semi + 1, semi + 1)
                };
                if after > to {
                    return None;
                }
                let inner = self.fill_steps(st, var, body_from, body_to, false, ifs)?;
                if inner.is_empty() {
                    return None;
                }
                steps.push(Step::Loop {
                    var: v,
                    from: a,
                    to: b,
                    steps: inner,
                });
                s = after;
                continue;
            }
            if matches!(tok(s), Some(Tok::Ident(w)) if w == "if") {
                let (step, after) = self.fill_if(st, var, s, to, nest, ifs)?;
                steps.push(step);
                s = after;
                continue;
            }
            let semi = (s..to).find(|&i| matches!(tok(i), Some(Tok::Punct(";" | "{" | "}"))))?;
            if !matches!(tok(semi), Some(Tok::Punct(";"))) {
                return None;
            }
            // `J[a] = x, J[b] = y;`: a comma expression runs its parts in order (C++17
            // [expr.comma]/1), each read as its own statement.
            for (a, b) in super::host::split_commas(toks, s, semi) {
                if let Some(chain) = self.chain_steps(var, a, b) {
                    steps.extend(chain);
                } else {
                    steps.push(self.fill_step(var, a, b)?);
                }
                if steps.len() > MAX_STMTS {
                    return None;
                }
            }
            s = semi + 1;
        }
        Some(steps)
    }

    /// The `if` statement at `s` (before `to`) of a loop's body: its condition, its branches'
    /// statements (read as [`Self::fill_steps`] reads a body; `else if` nests), and where the
    /// next statement starts. `None` past [`MAX_IF_DEPTH`] or for a branch of another shape.
    fn fill_if(
        &mut self,
        st: &HostState,
        var: &str,
        s: usize,
        to: usize,
        nest: bool,
        ifs: u8,
    ) -> Option<(Step, usize)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if ifs >= MAX_IF_DEPTH || !matches!(tok(s + 1), Some(Tok::Punct("("))) {
            return None;
        }
        let c = self.closing(s + 1).filter(|&c| c < to)?;
        let cond = self.sub_expr(s + 2, c)?;
        let (then, mut after) = self.fill_branch(st, var, c + 1, to, nest, ifs + 1)?;
        let mut els = Vec::new();
        if matches!(tok(after), Some(Tok::Ident(w)) if w == "else") && after < to {
            if matches!(tok(after + 1), Some(Tok::Ident(w)) if w == "if") {
                let (step, next) = self.fill_if(st, var, after + 1, to, nest, ifs + 1)?;
                els.push(step);
                after = next;
            } else {
                let (steps, next) = self.fill_branch(st, var, after + 1, to, nest, ifs + 1)?;
                els = steps;
                after = next;
            }
        }
        Some((Step::If { cond, then, els }, after))
    }

    /// A branch of an `if` at `b`: a block or one statement up to its `;`.
    fn fill_branch(
        &mut self,
        st: &HostState,
        var: &str,
        b: usize,
        to: usize,
        nest: bool,
        ifs: u8,
    ) -> Option<(Vec<Step>, usize)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if matches!(tok(b), Some(Tok::Punct("{"))) {
            let c = self.closing(b).filter(|&c| c < to)?;
            Some((self.fill_steps(st, var, b + 1, c, nest, ifs)?, c + 1))
        } else {
            if matches!(tok(b), Some(Tok::Ident(w)) if w == "if" || w == "for") {
                return None;
            }
            let semi = (b..to).find(|&i| matches!(tok(i), Some(Tok::Punct(";" | "{" | "}"))))?;
            if !matches!(tok(semi), Some(Tok::Punct(";"))) {
                return None;
            }
            Some((self.fill_steps(st, var, b, semi + 1, false, ifs)?, semi + 1))
        }
    }

    /// Runs `steps` once with the outer counter at `i` (its value bound in `env`), in order
    /// ([intro.execution]/9), writing `fill`. `None` when a value is not read for another
    /// reason than a signed overflow, or a cell falls outside its array.
    fn run_steps(
        &self,
        steps: &[Step],
        i: i128,
        env: &mut HashMap<String, HostVal>,
        fill: &mut Fill,
    ) -> Option<()> {
        for step in steps {
            match step {
                Step::Scalar(e) => {
                    let name = assigned_name(e)?;
                    let before = env.get(&name).copied();
                    // `sum += h[i];` after `h[i] = …;`: a cell this loop wrote before, read
                    // back in the array's type ([intro.execution]/9: the write is sequenced
                    // before the next full-expression).
                    let e = &self.bind_cell_reads(e, env, &fill.cells)?;
                    take_overflow();
                    match super::host_eval::eval_mut(e, env) {
                        Some(_) => {
                            // Assigned anew: a value again, in the type it had.
                            if let Some((Some(old), _)) = fill.poisoned.remove(&name) {
                                let v = old.retype(*env.get(&name)?)?;
                                env.insert(name, v);
                            }
                        }
                        None => {
                            let at = if take_overflow() {
                                e.span.line
                            } else {
                                poisoned_line(e, &fill.poisoned)?
                            };
                            let old = fill.poisoned.get(&name).and_then(|p| p.0).or(before);
                            env.remove(&name);
                            fill.poisoned.insert(name, (old, at));
                        }
                    }
                }
                Step::Cell { arr, .. } if fill.skip.contains(arr) => {}
                Step::Cell {
                    arr,
                    sub,
                    parts,
                    index,
                } => {
                    let mut texts = Vec::with_capacity(parts.len());
                    for p in parts {
                        take_overflow();
                        // `h[i - 1]`: a cell written before, in the array's type.
                        let p = &self.bind_cell_reads(p, env, &fill.cells)?;
                        // Stored converted to the array's element type ([expr.ass]/3:
                        // `int h[]; h[i] = i * 0.5;` holds 0, 0, 1, …).
                        let elem = self.host_scalars.get(arr).copied();
                        let t = match self
                            .host_fold(p, env)
                            .and_then(|v| match elem {
                                Some(s) => v.convert(s),
                                None => Some(v),
                            })
                            .and_then(HostVal::text)
                        {
                            Some(t) => t,
                            None if take_overflow() => overflow_cell(p.span.line),
                            None => overflow_cell(poisoned_line(p, &fill.poisoned)?),
                        };
                        texts.push(t);
                    }
                    let width = texts.len();
                    let at = match (index, sub) {
                        // `h[4 * i + k]`: the index as the statement computes it (a negative one,
                        // or one past the fill bound, is not read).
                        (Some(x), None) => {
                            let x = &self.bind_cell_reads(x, env, &fill.cells)?;
                            let x = self.host_fold(x, env).and_then(HostVal::int)?;
                            if width != 1 || !(0..MAX_FILL).contains(&x) {
                                return None;
                            }
                            usize::try_from(x).ok()?
                        }
                        (Some(_), Some(_)) => return None,
                        (None, sub) => match sub {
                            None => usize::try_from(i).ok()?.checked_mul(width)?,
                            // `h[i].v[j]`: element j of struct i's array member; an index outside
                            // it is undefined ([expr.add]/4): not read.
                            Some((j, len)) => {
                                let j = self.host_fold(j, env).and_then(HostVal::int)?;
                                if width != 1 || !(0..i128::from(*len)).contains(&j) {
                                    return None;
                                }
                                usize::try_from(i * i128::from(*len) + j).ok()?
                            }
                        },
                    };
                    let v = fill.cells.get_mut(arr)?;
                    if v.len() < at + width {
                        v.resize(at + width, "undef".to_string());
                    }
                    for (c, t) in v[at..at + width].iter_mut().zip(texts) {
                        *c = t;
                    }
                }
                Step::If { cond, then, els } => {
                    // The condition as it stands in this iteration; one not known (a value
                    // not read) leaves the loop to the other readers.
                    let c = &self.bind_cell_reads(cond, env, &fill.cells)?;
                    take_overflow();
                    let c = self.host_fold(c, env)?;
                    let taken = match c {
                        HostVal::Float(x) => x != 0.0,
                        HostVal::F32(x) => x != 0.0,
                        v => v.int()? != 0,
                    };
                    self.run_steps(if taken { then } else { els }, i, env, fill)?;
                }
                Step::Loop {
                    var,
                    from,
                    to,
                    steps,
                } => {
                    // The inner counter is its loop's own ([stmt.for]/1).
                    let saved = env.get(var).copied();
                    for j in *from..*to {
                        env.insert(var.clone(), HostVal::Int(j));
                        self.run_steps(steps, i, env, fill)?;
                    }
                    match saved {
                        Some(v) => env.insert(var.clone(), v),
                        None => env.remove(var),
                    };
                }
            }
        }
        Some(())
    }

    /// The statement over `s..semi` (its `;` excluded) of a loop counting `var`.
    /// `a[i] = b[i] = e;` (a chain of cell assignments at the counter, over arrays of one
    /// scalar type): `b[i] = e` then `a[i] = b[i]`, which is `e` again (C++17 [expr.ass]/1:
    /// the assignment groups right to left and its value is the left operand's, here of the
    /// same type, so no conversion lies between). `None` for any other statement, or arrays
    /// of different or unknown types (left to [`Self::fill_step`]).
    fn chain_steps(&mut self, var: &str, s: usize, semi: usize) -> Option<Vec<Step>> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let mut targets = Vec::new();
        let mut p = s;
        while p + 4 < semi
            && matches!(tok(p + 1), Some(Tok::Punct("[")))
            && matches!(tok(p + 2), Some(Tok::Ident(n)) if n == var)
            && matches!(tok(p + 3), Some(Tok::Punct("]")))
            && matches!(tok(p + 4), Some(Tok::Punct("=")))
        {
            let Some(Tok::Ident(arr)) = tok(p) else { break };
            targets.push(arr.clone());
            p += 5;
        }
        if targets.len() < 2 {
            return None;
        }
        let scalar = *self.host_scalars.get(&targets[0])?;
        if targets
            .iter()
            .any(|t| self.host_scalars.get(t) != Some(&scalar))
        {
            return None;
        }
        let e = self.sub_expr(p, semi)?;
        Some(
            targets
                .into_iter()
                .rev()
                .map(|arr| Step::Cell {
                    arr,
                    sub: None,
                    parts: vec![e.clone()],
                    index: None,
                })
                .collect(),
        )
    }

    fn fill_step(&mut self, var: &str, s: usize, semi: usize) -> Option<Step> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let cell = matches!(tok(s), Some(Tok::Ident(_)))
            && matches!(tok(s + 1), Some(Tok::Punct("[")))
            && matches!(tok(s + 2), Some(Tok::Ident(n)) if n == var)
            && matches!(tok(s + 3), Some(Tok::Punct("]")))
            && matches!(tok(s + 4), Some(Tok::Punct("=")));
        // `h[i].x = e;` of a host array of structs: the member's cells, kept as `h.x`.
        let member = matches!(tok(s), Some(Tok::Ident(_)))
            && matches!(tok(s + 1), Some(Tok::Punct("[")))
            && matches!(tok(s + 2), Some(Tok::Ident(n)) if n == var)
            && matches!(tok(s + 3), Some(Tok::Punct("]")))
            && matches!(tok(s + 4), Some(Tok::Punct(".")))
            && matches!(tok(s + 5), Some(Tok::Ident(_)))
            && matches!(tok(s + 6), Some(Tok::Punct("=")));
        if member {
            let (Some(Tok::Ident(arr)), Some(Tok::Ident(field))) = (tok(s), tok(s + 5)) else {
                return None;
            };
            let e = self.sub_expr(s + 7, semi)?;
            // `h[i].p = make_float3(…);` of a vector member: its components in order.
            let parts = match e.kind {
                ExprKind::Call(ref name, ref args) if vector_make(name) => args.clone(),
                _ => vec![e],
            };
            return Some(Step::Cell {
                arr: format!("{arr}.{field}"),
                sub: None,
                parts,
                index: None,
            });
        }
        // `h[i].v[j] = e;` of an array member `v` of the struct of host array `h`.
        let element = matches!(tok(s), Some(Tok::Ident(_)))
            && matches!(tok(s + 1), Some(Tok::Punct("[")))
            && matches!(tok(s + 2), Some(Tok::Ident(n)) if n == var)
            && matches!(tok(s + 3), Some(Tok::Punct("]")))
            && matches!(tok(s + 4), Some(Tok::Punct(".")))
            && matches!(tok(s + 5), Some(Tok::Ident(_)))
            && matches!(tok(s + 6), Some(Tok::Punct("[")));
        if element {
            let (Some(Tok::Ident(arr)), Some(Tok::Ident(field))) = (tok(s), tok(s + 5)) else {
                return None;
            };
            let len = self.host_member_len(arr, field)?;
            let close = self.closing(s + 6).filter(|&c| c < semi)?;
            if !matches!(tok(close + 1), Some(Tok::Punct("="))) {
                return None;
            }
            let j = self.sub_expr(s + 7, close)?;
            let e = self.sub_expr(close + 2, semi)?;
            return Some(Step::Cell {
                arr: format!("{arr}.{field}"),
                sub: Some((j, len)),
                parts: vec![e],
                index: None,
            });
        }
        // `p.dims[i] = e;` of an array member of a host struct, kept as `p.dims`.
        let of_struct = matches!(tok(s), Some(Tok::Ident(_)))
            && matches!(tok(s + 1), Some(Tok::Punct(".")))
            && matches!(tok(s + 2), Some(Tok::Ident(_)))
            && matches!(tok(s + 3), Some(Tok::Punct("[")))
            && matches!(tok(s + 4), Some(Tok::Ident(n)) if n == var)
            && matches!(tok(s + 5), Some(Tok::Punct("]")))
            && matches!(tok(s + 6), Some(Tok::Punct("=")));
        if of_struct {
            let (Some(Tok::Ident(v)), Some(Tok::Ident(field))) = (tok(s), tok(s + 2)) else {
                return None;
            };
            let arr = format!("{v}.{field}");
            self.host_scalars.get(&arr)?;
            let e = self.sub_expr(s + 7, semi)?;
            return Some(Step::Cell {
                arr,
                sub: None,
                parts: vec![e],
                index: None,
            });
        }
        // `h[i] += e;` (any compound assignment): `h[i] = h[i] + e` with `h[i]` read once
        // (C++17 [expr.ass]/7), reading the cell the array holds.
        let compound = match tok(s + 4) {
            Some(Tok::Punct(p)) => super::host_eval::assign_op(p).flatten(),
            _ => None,
        };
        let cell_at = matches!(tok(s), Some(Tok::Ident(_)))
            && matches!(tok(s + 1), Some(Tok::Punct("[")))
            && matches!(tok(s + 2), Some(Tok::Ident(n)) if n == var)
            && matches!(tok(s + 3), Some(Tok::Punct("]")));
        if let (true, Some(op), Some(Tok::Ident(arr))) = (cell_at, compound, tok(s)) {
            let lhs = self.sub_expr(s, s + 4)?;
            let rhs = self.sub_expr(s + 5, semi)?;
            let span = lhs.span;
            let e = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
            return Some(Step::Cell {
                arr: arr.clone(),
                sub: None,
                parts: vec![e],
                index: None,
            });
        }
        // `h[4 * i + 1] = e;`: a cell at an index the counter computes (not a compound
        // assignment, not a member).
        if !cell
            && matches!(tok(s), Some(Tok::Ident(_)))
            && matches!(tok(s + 1), Some(Tok::Punct("[")))
        {
            if let Some(c) = self.closing(s + 1).filter(|&c| c < semi) {
                // `J[start + 1] = e;`, `I[1] = e;`: any index, computed as the iteration
                // stands (a scalar the body assigned before, a constant).
                if matches!(tok(c + 1), Some(Tok::Punct("="))) && c + 2 < semi {
                    let Some(Tok::Ident(arr)) = tok(s) else {
                        return None;
                    };
                    let x = self.sub_expr(s + 2, c)?;
                    let e = self.sub_expr(c + 2, semi)?;
                    return Some(Step::Cell {
                        arr: arr.clone(),
                        sub: None,
                        parts: vec![e],
                        index: Some(x),
                    });
                }
            }
        }
        if cell {
            let Some(Tok::Ident(arr)) = tok(s) else {
                return None;
            };
            let e = self.sub_expr(s + 5, semi)?;
            let parts = match e.kind {
                ExprKind::Call(ref name, ref args) if vector_make(name) => args.clone(),
                _ => vec![e],
            };
            return Some(Step::Cell {
                arr: arr.clone(),
                sub: None,
                parts,
                index: None,
            });
        }
        let e = self.sub_expr(s, semi)?;
        assigned_name(&e).map(|_| Step::Scalar(e))
    }
}

/// Every statement of `steps`, an inner loop's and a branch's included (walked with a list,
/// not by recursion).
fn flat(steps: &[Step]) -> Vec<&Step> {
    let mut out = Vec::new();
    let mut todo: Vec<&Step> = steps.iter().rev().collect();
    while let Some(step) = todo.pop() {
        out.push(step);
        match step {
            Step::Loop { steps, .. } => todo.extend(steps.iter().rev()),
            Step::If { then, els, .. } => {
                todo.extend(els.iter().rev());
                todo.extend(then.iter().rev());
            }
            _ => {}
        }
    }
    out
}

/// Host scalars a signed overflow left without a value: each one's value before the overflow
/// (kept for its type) and the overflow's line.
type Poisoned = HashMap<String, (Option<HostVal>, u32)>;

/// The overflow line of the first scalar in `e` that a signed overflow left without a value,
/// `None` when `e` reads none (its lack of a value has another cause).
fn poisoned_line(e: &Expr, poisoned: &Poisoned) -> Option<u32> {
    e.walk().find_map(|x| match &x.kind {
        ExprKind::Ident(n) => poisoned.get(n).map(|p| p.1),
        _ => None,
    })
}

/// The host scalar an expression statement assigns (`acc += i`, `x = e`, `++n`), when that is
/// all it is.
fn assigned_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Assign(_, target, _) => match &target.kind {
            ExprKind::Ident(n) => Some(n.clone()),
            _ => None,
        },
        ExprKind::IncDec { target, .. } => match &target.kind {
            ExprKind::Ident(n) => Some(n.clone()),
            _ => None,
        },
        _ => None,
    }
}
