//! Host statements evaluated in order: the host reading ([`super::host`]) keeps each host
//! variable's value as a [`HostVal`]; this module runs what changes it before a launch, so that
//! a launch reads the value the variable holds at that point (C++17 [intro.execution]/9: each
//! full-expression is sequenced before the next), never its initial one.
//!
//! Evaluated: expression statements that assign (`x = e`, `x op= e` for `+ - * / % << >> & | ^`,
//! `++x`, `x--`, C++17 [expr.ass], [expr.pre.incr], [expr.post.incr]), declarations `T x = e;`,
//! blocks, `if`/`else`, `while`, `do … while`, `for`, `break` and `continue` ([stmt.if],
//! [stmt.iter], [stmt.jump]), in C++ types ([`super::const_eval::binary`]: unsigned wraps, a
//! signed overflow is no value, `float` stays `float`).
//! An `if` whose condition is a constant in host code reads only the branch it takes.
//!
//! What cannot be evaluated (a call, an array cell, a pointer, a name with no value) is never
//! read as a stale value: every variable the statement assigns becomes unknown with the reason,
//! and a launch argument that uses it says so (`HostArg::unknown`).
//!
//! Bounded: at most [`MAX_HOST_STEPS`] statements and loop tests per host function reading; a
//! loop that runs past it is not evaluated (its variables become unknown, the note names the
//! limit). Statements nest at most [`MAX_NEST`] deep. Each expression is parsed once per run.

use std::collections::HashMap;

use super::const_eval::{binary, const_eval, member_path, HostVal};
use super::host::{launches_in, source_text, text_of, HostState};
use super::Parser;
use crate::ast::{Expr, ExprKind, Span};
use crate::lexer::{Tok, Token};
use crate::types::BinOp;
use crosslane_core::result::Level;

/// Most host statements (and loop tests) evaluated in one host function's reading.
pub const MAX_HOST_STEPS: u64 = 100_000;

/// Deepest nesting of host statements evaluated (blocks, `if`, loops).
pub const MAX_NEST: u32 = 64;

/// Keywords that may stand before a name without declaring it (`else n = 3;`, `return n;`):
/// C++17 [lex.key], those a statement or expression may open with.
const NOT_TYPES: &[&str] = &[
    "else",
    "return",
    "do",
    "case",
    "goto",
    "throw",
    "sizeof",
    "delete",
    "co_return",
    "co_yield",
    "co_await",
    "new",
    "typeid",
    "alignof",
    "noexcept",
    "decltype",
];

/// How a statement ended.
#[derive(PartialEq)]
enum Flow {
    Next,
    Break,
    Continue,
}

/// One evaluation: the variables, steps taken and each expression parsed so far.
struct Run<'s> {
    env: HashMap<String, HostVal>,
    unknown: &'s HashMap<String, String>,
    steps: u64,
    cache: HashMap<(usize, usize), Option<Expr>>,
    /// The host arrays' cells the statement reads and writes (`host_cells`).
    cells: super::host_cells::RunCells,
}

/// The first name of the postfix expression whose member `toks[k]` is (`h` of `h[i].v.n`,
/// `p` of `p->n`), walking back over `.`, `->` and bracketed subscripts or calls; `None` when
/// it starts with no name (`(*p).n`, `f().n`).
fn member_root(toks: &[crate::lexer::Token], k: usize) -> Option<&String> {
    let mut j = k;
    loop {
        // `toks[j]` is a name; before it a `.` or `->` continues the chain.
        if !matches!(
            j.checked_sub(1).map(|i| &toks[i].tok),
            Some(Tok::Punct("." | "->"))
        ) {
            return match &toks[j].tok {
                Tok::Ident(n) => Some(n),
                _ => None,
            };
        }
        j = j.checked_sub(2)?;
        // Back over `[…]` and `(…)` to the name they follow.
        let mut depth = 0usize;
        while matches!(toks[j].tok, Tok::Punct("]" | ")")) || depth > 0 {
            match toks[j].tok {
                Tok::Punct("]" | ")") => depth += 1,
                Tok::Punct("[" | "(") => depth = depth.checked_sub(1)?,
                _ => {}
            }
            j = j.checked_sub(1)?;
            if depth == 0 && !matches!(toks[j].tok, Tok::Punct("]" | ")")) {
                break;
            }
        }
        if !matches!(toks[j].tok, Tok::Ident(_)) {
            return None;
        }
    }
}

/// The assignment operators, and the binary operator of each compound one.
pub(super) fn assign_op(p: &str) -> Option<Option<BinOp>> {
    Some(Some(match p {
        "=" => return Some(None),
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "*=" => BinOp::Mul,
        "/=" => BinOp::Div,
        "%=" => BinOp::Rem,
        "<<=" => BinOp::Shl,
        ">>=" => BinOp::Shr,
        "&=" => BinOp::And,
        "|=" => BinOp::Or,
        "^=" => BinOp::Xor,
        _ => return None,
    }))
}

/// Evaluates `e` with its assignments and increments applied to `env`. `None` when a part is
/// no constant (an assignment to anything but a name, a call, an array cell).
pub(super) fn eval_mut(e: &Expr, env: &mut HashMap<String, HostVal>) -> Option<HostVal> {
    let _math = super::const_eval::HostMath::on();
    match &e.kind {
        // `x = e`, and `p.n = e` of a struct member (kept under its dotted name).
        ExprKind::Assign(op, target, rhs) => {
            let n = member_path(target)?;
            let r = eval_mut(rhs, env)?;
            let v = match op {
                None => r,
                Some(op) => binary(*op, *env.get(&n)?, r)?,
            };
            // Stored converted to the variable's type ([expr.ass]/3): the type of the value
            // it holds.
            let v = match env.get(&n) {
                Some(old) => old.retype(v)?,
                None => v,
            };
            env.insert(n, v);
            Some(v)
        }
        ExprKind::IncDec {
            inc,
            prefix,
            target,
        } => {
            let ExprKind::Ident(n) = &target.kind else {
                return None;
            };
            let old = *env.get(n)?;
            let op = if *inc { BinOp::Add } else { BinOp::Sub };
            let new = old.retype(binary(op, old, HostVal::Int(1))?)?;
            env.insert(n.clone(), new);
            Some(if *prefix { new } else { old })
        }
        ExprKind::Comma(a, b) => {
            eval_mut(a, env)?;
            eval_mut(b, env)
        }
        ExprKind::Binary(op, a, b) => {
            let a = eval_mut(a, env)?;
            binary(*op, a, eval_mut(b, env)?)
        }
        ExprKind::Logical(and, a, b) => {
            let a = eval_mut(a, env)?.int()? != 0;
            if a != *and {
                Some(HostVal::Int(i128::from(a)))
            } else {
                Some(HostVal::Int(i128::from(eval_mut(b, env)?.int()? != 0)))
            }
        }
        ExprKind::Ternary(c, a, b) => {
            if eval_mut(c, env)?.int()? != 0 {
                eval_mut(a, env)
            } else {
                eval_mut(b, env)
            }
        }
        _ => const_eval(e, env),
    }
}

impl Parser<'_> {
    /// The index after the statement starting at `i` (a block, a control statement with what it
    /// controls, or a simple statement up to its `;`), within `..close`.
    pub(super) fn stmt_extent(&self, i: usize, close: usize) -> Option<usize> {
        self.extent_at(i, close, 0)
    }

    fn extent_at(&self, i: usize, close: usize, depth: u32) -> Option<usize> {
        if depth > MAX_NEST || i >= close {
            return None;
        }
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let head = |i: usize| match tok(i + 1) {
            Some(Tok::Punct("(")) => self.closing(i + 1).filter(|&c| c < close),
            _ => None,
        };
        match tok(i)? {
            Tok::Punct("{") => self.closing(i).filter(|&c| c < close).map(|c| c + 1),
            Tok::Ident(w) if w == "if" => {
                let then_end = self.extent_at(head(i)? + 1, close, depth + 1)?;
                match tok(then_end) {
                    Some(Tok::Ident(e)) if e == "else" => {
                        self.extent_at(then_end + 1, close, depth + 1)
                    }
                    _ => Some(then_end),
                }
            }
            Tok::Ident(w) if w == "for" || w == "while" || w == "switch" => {
                self.extent_at(head(i)? + 1, close, depth + 1)
            }
            Tok::Ident(w) if w == "do" => {
                let body_end = self.extent_at(i + 1, close, depth + 1)?;
                let c = head(body_end)?;
                match tok(c + 1) {
                    Some(Tok::Punct(";")) => Some(c + 2),
                    _ => None,
                }
            }
            _ => self.semi(i, close).map(|s| s + 1),
        }
    }

    /// The `;` ending the simple statement at `i` (outside brackets), before `close`.
    fn semi(&self, i: usize, close: usize) -> Option<usize> {
        let mut k = i;
        while k < close {
            match &self.toks.get(k)?.tok {
                Tok::Punct("(" | "[" | "{") => k = self.closing(k)?,
                Tok::Punct(";") => return Some(k),
                Tok::Punct("}") => return None,
                _ => {}
            }
            k += 1;
        }
        None
    }

    /// The names tokens `from..to` assign: `x = …`, `x op= …`, `++x`, `x--`, and `&x` passed to
    /// a call (an out-pointer).
    pub(super) fn assigned_in(&self, from: usize, to: usize) -> Vec<String> {
        let toks = self.toks.get(from..to).unwrap_or(&[]);
        let mut names: Vec<String> = Vec::new();
        for (k, t) in toks.iter().enumerate() {
            let Tok::Ident(n) = &t.tok else { continue };
            let prev = k.checked_sub(1).map(|j| &toks[j].tok);
            let prev2 = k.checked_sub(2).map(|j| &toks[j].tok);
            let next = toks.get(k + 1).map(|t| &t.tok);
            // `h[i] = …`: a cell of the host array `h`.
            let cell = matches!(next, Some(Tok::Punct("[")))
                && self
                    .closing(from + k + 1)
                    .and_then(|c| self.toks.get(c + 1))
                    .is_some_and(|t| matches!(&t.tok, Tok::Punct(p) if assign_op(p).is_some() || *p == "++" || *p == "--"));
            let assigned = cell
                || matches!(next, Some(Tok::Punct(p)) if assign_op(p).is_some() || *p == "++" || *p == "--")
                || matches!(prev, Some(Tok::Punct("++" | "--")))
                || (matches!(prev, Some(Tok::Punct("&")))
                    && matches!(prev2, Some(Tok::Punct("(" | ","))));
            // `h[i].n = …`, `p->n = …`: a member of `h` (or what `p` points at), not a
            // variable `n`: the object written is the expression's first name.
            let n = if matches!(prev, Some(Tok::Punct("." | "->"))) {
                match member_root(toks, k) {
                    Some(r) => r,
                    None => continue,
                }
            } else {
                n
            };
            if assigned && !names.contains(n) {
                names.push(n.clone());
            }
        }
        // A name declared inside (`for (int i = 0; …)`, `int t = …;` in the body) is the
        // statement's own ([basic.scope.block]): nothing outside sees it.
        // `else n = 3;`, `return n;`, `case`, `do`: a keyword before the name declares nothing
        // ([stmt.if], [stmt.return]), so the name stays the outer variable.
        let local = |n: &String| {
            toks.windows(2).any(|w| {
                matches!((&w[0].tok, &w[1].tok), (Tok::Ident(t), Tok::Ident(m))
                    if m == n && !NOT_TYPES.contains(&t.as_str()))
            })
        };
        names.retain(|n| !local(n));
        names
    }

    /// Registers that `names` become unknown for `reason` once the reading reaches `at`.
    pub(super) fn taint(st: &mut HostState, at: usize, names: Vec<String>, reason: String) {
        if !names.is_empty() {
            st.taints.push((at, names, reason));
        }
    }

    /// A host loop at `k` (ending at `end`) whose launches are read once
    /// (`host_state::loop_note`): how many times its body runs is not read, so every variable
    /// it assigns (and every host array it stores into through a pointer) is unknown after it
    /// (C++17 [stmt.iter]: the body runs as often as the condition says).
    pub(super) fn taint_loop_read_once(&mut self, st: &mut HostState, k: usize, end: usize) {
        let mut names = self.assigned_in(k, end);
        for t in self.pointer_targets(st, k, end) {
            if !names.contains(&t) {
                names.push(t);
            }
        }
        let line = self.toks[k].line;
        let reason = format!(
            "it is assigned in the host loop at line {line}, whose launches are read once: \
             how many times its body runs is not read here"
        );
        Self::taint(st, end, names, reason);
    }

    /// The `while` or `do` loop at `k` (within `..close`), when it holds a launch and is read
    /// once: what it assigns is unknown after it ([`Self::taint_loop_read_once`]).
    pub(super) fn taint_launch_loop(&mut self, st: &mut HostState, k: usize, close: usize) {
        if let Some(end) = self.stmt_extent(k, close) {
            let body = &self.toks[k..end];
            if launches_in(body) || self.launcher_call_in(body) {
                self.taint_loop_read_once(st, k, end);
            }
        }
    }

    /// Applies the taints whose point the reading at `k` has reached.
    pub(super) fn apply_taints(st: &mut HostState, k: usize) {
        if st.taints.iter().all(|t| t.0 > k) {
            return;
        }
        let (due, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut st.taints)
            .into_iter()
            .partition(|t| t.0 <= k);
        st.taints = rest;
        for (_, names, reason) in due {
            Self::mark_unknown(st, &names, &reason);
        }
    }

    /// Makes `names` unknown, for `reason` (a host array's fill too: its cells are no longer
    /// those read).
    pub(super) fn mark_unknown(st: &mut HostState, names: &[String], reason: &str) {
        for n in names {
            st.env.remove(n);
            st.fills.remove(n);
            st.unknown.insert(n.clone(), reason.to_string());
        }
    }

    /// Why tokens `from..to` have no value: the first name in them that is unknown, with its
    /// reason.
    pub(super) fn unknown_reason(&self, st: &HostState, from: usize, to: usize) -> Option<String> {
        self.toks
            .get(from..to.min(self.toks.len()))?
            .iter()
            .find_map(|t| match &t.tok {
                Tok::Ident(n) => st.unknown.get(n).map(|r| format!("`{n}` is unknown: {r}")),
                _ => None,
            })
    }

    /// `while (…) …`, `do … while (…);` or `for (…; …; …) …` at `k` with no launch in it:
    /// evaluated, and the variables it changes keep their values after it. `None` when it
    /// cannot be (then those variables become unknown where the loop ends, with a note).
    pub(super) fn host_loop(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let end = self.stmt_extent(k, close)?;
        if launches_in(&self.toks[k..end]) || self.launcher_call_in(&self.toks[k..end]) {
            return None;
        }
        self.host_run(st, k, end, "loop")
    }

    /// An expression statement that assigns (`x += e;`, `++x;`, `x <<= 1;`) at `k`: evaluated.
    /// `None` when `k` starts none.
    pub(super) fn host_assign(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `p.n = 20;`: a struct member's name, `.member` after `.member`, is the target.
        let mut t = k + 1;
        while matches!(tok(t), Some(Tok::Punct("."))) && matches!(tok(t + 1), Some(Tok::Ident(_))) {
            t += 2;
        }
        let shape = match (tok(k), tok(t)) {
            (Some(Tok::Punct("++" | "--")), Some(Tok::Ident(_))) if t == k + 1 => true,
            (Some(Tok::Ident(_)), Some(Tok::Punct(p))) if t > k + 1 => {
                *p == "=" || assign_op(p).is_some_and(|o| o.is_some())
            }
            (Some(Tok::Ident(_)), Some(Tok::Punct(p))) => {
                *p == "++" || *p == "--" || assign_op(p).is_some_and(|o| o.is_some())
            }
            _ => false,
        };
        if !shape {
            return self.host_cond_assign(st, k, close);
        }
        let end = self.semi(k, close)? + 1;
        self.host_run(st, k, end, "statement")
    }

    /// `c ? n = 1 : n = 2;`, `(m > 3) && (n = 4);` (tried by [`Self::host_assign`] when its
    /// statement is not `x = …`): an expression statement that assigns only
    /// under a conditional operator or a `&&`/`||` (C++17 [expr.cond]/1, [expr.log.and]/1:
    /// only the operand chosen is evaluated) is evaluated as [`Self::host_assign`] does; when
    /// the condition has no value, the names it assigns become unknown after it. `None` when
    /// `k` starts none.
    fn host_cond_assign(&mut self, st: &mut HostState, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        if !matches!(
            toks.get(k).map(|t| &t.tok),
            Some(Tok::Ident(_) | Tok::Punct("("))
        ) {
            return None;
        }
        let end = self.semi(k, close)?;
        let part = &toks[k..end];
        let branches = part
            .iter()
            .any(|t| matches!(t.tok, Tok::Punct("?" | "&&" | "||")));
        let assigns = part.iter().any(|t| {
            matches!(&t.tok, Tok::Punct(p) if assign_op(p).is_some() || *p == "++" || *p == "--")
        });
        // A declaration, a control statement or a launch is read elsewhere.
        let opens_stmt = matches!(&toks[k].tok, Tok::Ident(w) if matches!(
            w.as_str(),
            "if" | "for" | "while" | "do" | "switch" | "return" | "else" | "case" | "default"
        ));
        if !branches
            || !assigns
            || opens_stmt
            || launches_in(part)
            || self.declared(k, end).is_some()
        {
            return None;
        }
        self.host_run(st, k, end + 1, "statement")
    }

    /// The statement `k..end` evaluated as [`Self::host_assign`] evaluates one (`host_cells`).
    pub(super) fn host_eval_stmt(
        &mut self,
        st: &mut HostState,
        k: usize,
        end: usize,
    ) -> Option<usize> {
        self.host_run(st, k, end, "statement")
    }

    /// Runs the statement `k..end` on a copy of the variables; on success they replace the
    /// reading's. Else the variables it assigns become unknown (at `end`), with a note.
    fn host_run(&mut self, st: &mut HostState, k: usize, end: usize, what: &str) -> Option<usize> {
        let mut names = self.assigned_in(k, end);
        let targets = self.pointer_targets(st, k, end);
        let cells = self.run_cells(st, k, end);
        let result = {
            let mut run = Run {
                env: st.env.clone(),
                unknown: &st.unknown,
                steps: st.steps,
                cache: HashMap::new(),
                cells,
            };
            let r = self.run_stmt(&mut run, k, end, 0);
            // Steps count even when the run fails: the budget bounds the whole reading.
            st.steps = run.steps;
            r.map(|_| (run.env, run.cells))
        };
        match result {
            Ok((env, cells)) => {
                st.env = env;
                Self::commit_cells(st, cells, self.toks[k].line);
                for n in &names {
                    fold_dim_members(&mut st.env, n);
                    if st.env.contains_key(n) {
                        st.unknown.remove(n);
                    }
                }
                Some(end)
            }
            Err(why) => {
                // A store through a pointer that was not evaluated: its array is unknown too.
                for t in targets {
                    if !names.contains(&t) {
                        names.push(t);
                    }
                }
                let line = self.toks[k].line;
                let reason = format!("the host {what} at line {line} is not evaluated: {why}");
                if !names.is_empty() {
                    let list = names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    self.diag(
                        Span {
                            line,
                            col: self.toks[k].col,
                        },
                        Level::Info,
                        format!(
                            "{reason}; {list} {} no value after it",
                            if names.len() == 1 { "has" } else { "have" }
                        ),
                        "",
                    );
                }
                Self::taint(st, end, names, reason);
                None
            }
        }
    }

    /// The value of tokens `a..b`, with its side effects applied.
    fn eval_range(&mut self, run: &mut Run<'_>, a: usize, b: usize) -> Result<HostVal, String> {
        // `v.size()` of a host vector whose cells this run reads: its length now (a
        // `push_back` in the loop changes it, so this reading is not cached).
        let sized = self.toks.get(a..b).and_then(|toks| {
            let mut out = toks.to_vec();
            let mut changed = false;
            let mut i = 0;
            while i + 4 < out.len() {
                let len = match (&out[i].tok, &out[i + 1].tok, &out[i + 2].tok) {
                    (Tok::Ident(n), Tok::Punct("."), Tok::Ident(m))
                        if m == "size"
                            && matches!(out[i + 3].tok, Tok::Punct("("))
                            && matches!(out.get(i + 4).map(|t| &t.tok), Some(Tok::Punct(")")))
                            && !(i > 0 && matches!(out[i - 1].tok, Tok::Punct("." | "->"))) =>
                    {
                        run.cells.len_of(n)
                    }
                    _ => None,
                };
                if let Some(len) = len {
                    let t = Token {
                        // `size_type`: `std::size_t`, unsigned and 64-bit here.
                        tok: Tok::Int {
                            value: u64::try_from(len).unwrap_or(u64::MAX),
                            unsigned: true,
                            long: true,
                        },
                        ..out[i].clone()
                    };
                    out.splice(i..i + 5, [t]);
                    changed = true;
                }
                i += 1;
            }
            changed.then_some(out)
        });
        if let Some(toks) = sized {
            let text = text_of(&toks);
            let e = self
                .sub_expr_of(toks)
                .ok_or_else(|| format!("`{text}` is not an expression read here"))?;
            let v = self
                .eval_cells(&e, &mut run.env, &mut run.cells, eval_mut)
                .map_err(|why| format!("`{text}`: {why}"))?;
            return v.ok_or_else(|| format!("`{text}` has no constant value"));
        }
        let e = match run.cache.get(&(a, b)) {
            Some(e) => e.clone(),
            None => {
                let e = self.sub_expr(a, b);
                run.cache.insert((a, b), e.clone());
                e
            }
        };
        let text = || source_text(&self.toks[a..b]);
        let Some(e) = e else {
            return Err(format!("`{}` is not an expression read here", text()));
        };
        let v = self
            .eval_cells(&e, &mut run.env, &mut run.cells, eval_mut)
            .map_err(|why| format!("`{}`: {why}", text()))?;
        v.ok_or_else(|| {
            let why = self.toks[a..b].iter().find_map(|t| match &t.tok {
                Tok::Ident(n) if run.unknown.contains_key(n) && !run.env.contains_key(n) => run
                    .unknown
                    .get(n)
                    .map(|r| format!(" (`{n}` is unknown: {r})")),
                _ => None,
            });
            format!(
                "`{}` has no constant value{}",
                text(),
                why.unwrap_or_default()
            )
        })
    }

    /// Counts one step against [`MAX_HOST_STEPS`].
    fn step(run: &mut Run<'_>) -> Result<(), String> {
        run.steps += 1;
        if run.steps > MAX_HOST_STEPS {
            return Err(format!(
                "it runs past the host evaluation budget of {MAX_HOST_STEPS} steps \
                 (MAX_HOST_STEPS); set the values it computes (CLI: --arg NAME=VALUE)"
            ));
        }
        Ok(())
    }

    /// Runs the statement at `i` (ending before `close`): where the next one starts and how
    /// this one ended.
    fn run_stmt(
        &mut self,
        run: &mut Run<'_>,
        i: usize,
        close: usize,
        depth: u32,
    ) -> Result<(usize, Flow), String> {
        Self::step(run)?;
        if depth > MAX_NEST {
            return Err(format!("statements nest deeper than {MAX_NEST}"));
        }
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let unread = || "a statement the host reading does not follow".to_string();
        let head = |p: &Self, i: usize| match tok(i + 1) {
            Some(Tok::Punct("(")) => p.closing(i + 1).filter(|&c| c < close).ok_or_else(unread),
            _ => Err(unread()),
        };
        let word = match tok(i) {
            Some(Tok::Ident(w)) => w.as_str(),
            Some(Tok::Punct(";")) => return Ok((i + 1, Flow::Next)),
            Some(Tok::Punct("{")) => {
                let c = self.closing(i).filter(|&c| c < close).ok_or_else(unread)?;
                let mut j = i + 1;
                while j < c {
                    let (n, flow) = self.run_stmt(run, j, c, depth + 1)?;
                    if flow != Flow::Next {
                        return Ok((c + 1, flow));
                    }
                    j = n.max(j + 1);
                }
                return Ok((c + 1, Flow::Next));
            }
            _ => "",
        };
        match word {
            "break" | "continue" => {
                let s = self.semi(i, close).ok_or_else(unread)?;
                let flow = if word == "break" {
                    Flow::Break
                } else {
                    Flow::Continue
                };
                Ok((s + 1, flow))
            }
            "if" => {
                let c = head(self, i)?;
                let end = self.stmt_extent(i, close).ok_or_else(unread)?;
                let then_end = self.stmt_extent(c + 1, close).ok_or_else(unread)?;
                let taken = self.eval_range(run, i + 2, c)?.int().ok_or_else(unread)? != 0;
                let flow = if taken {
                    self.run_stmt(run, c + 1, then_end, depth + 1)?.1
                } else if then_end < end {
                    // `else` at `then_end`.
                    self.run_stmt(run, then_end + 1, end, depth + 1)?.1
                } else {
                    Flow::Next
                };
                Ok((end, flow))
            }
            "while" => {
                let c = head(self, i)?;
                let end = self.stmt_extent(i, close).ok_or_else(unread)?;
                while self.eval_range(run, i + 2, c)?.int().ok_or_else(unread)? != 0 {
                    Self::step(run)?;
                    if self.run_stmt(run, c + 1, end, depth + 1)?.1 == Flow::Break {
                        break;
                    }
                }
                Ok((end, Flow::Next))
            }
            "do" => {
                let body_end = self.stmt_extent(i + 1, close).ok_or_else(unread)?;
                if !matches!(tok(body_end), Some(Tok::Ident(w)) if w == "while") {
                    return Err(unread());
                }
                let c = head(self, body_end)?;
                loop {
                    Self::step(run)?;
                    if self.run_stmt(run, i + 1, body_end, depth + 1)?.1 == Flow::Break {
                        break;
                    }
                    if self
                        .eval_range(run, body_end + 2, c)?
                        .int()
                        .ok_or_else(unread)?
                        == 0
                    {
                        break;
                    }
                }
                Ok((c + 2, Flow::Next))
            }
            "for" => {
                let c = head(self, i)?;
                let end = self.stmt_extent(i, close).ok_or_else(unread)?;
                let semis: Vec<usize> = (i + 2..c)
                    .filter(|&j| matches!(tok(j), Some(Tok::Punct(";"))))
                    .collect();
                let [s1, s2] = semis.as_slice() else {
                    return Err(unread());
                };
                let (s1, s2) = (*s1, *s2);
                // The loop's own variable is scoped to the loop ([stmt.for]/1).
                let own = self.declared(i + 2, s1);
                let saved = own.as_ref().map(|n| run.env.get(n).copied());
                self.run_simple(run, i + 2, s1)?;
                loop {
                    Self::step(run)?;
                    if s2 > s1 + 1
                        && self.eval_range(run, s1 + 1, s2)?.int().ok_or_else(unread)? == 0
                    {
                        break;
                    }
                    if self.run_stmt(run, c + 1, end, depth + 1)?.1 == Flow::Break {
                        break;
                    }
                    if c > s2 + 1 {
                        self.eval_range(run, s2 + 1, c)?;
                    }
                }
                if let (Some(n), Some(old)) = (own, saved) {
                    match old {
                        Some(v) => run.env.insert(n, v),
                        None => run.env.remove(&n),
                    };
                }
                Ok((end, Flow::Next))
            }
            _ => {
                let s = self.semi(i, close).ok_or_else(unread)?;
                self.run_simple(run, i, s)?;
                Ok((s + 1, Flow::Next))
            }
        }
    }

    /// The name a declaration `T [*]name [= e]` in `a..b` declares, when it is one.
    fn declared(&self, a: usize, b: usize) -> Option<String> {
        let toks = self.toks;
        let mut j = a;
        while j < b && matches!(toks[j].tok, Tok::Ident(_) | Tok::Punct("*" | "&" | "::")) {
            j += 1;
        }
        let idents = toks[a..j]
            .iter()
            .filter(|t| matches!(t.tok, Tok::Ident(_)))
            .count();
        match (&toks[j.saturating_sub(1)].tok, toks.get(j).map(|t| &t.tok)) {
            (Tok::Ident(n), Some(Tok::Punct("=" | ";"))) if idents >= 2 && j > a => Some(n.clone()),
            (Tok::Ident(n), _) if idents >= 2 && j == b && j > a => Some(n.clone()),
            _ => None,
        }
    }

    /// A declaration or an expression statement over `a..b` (its `;` excluded).
    fn run_simple(&mut self, run: &mut Run<'_>, a: usize, b: usize) -> Result<(), String> {
        if a >= b {
            return Ok(());
        }
        if let Some(name) = self.declared(a, b) {
            let eq = (a..b).find(|&j| matches!(self.toks[j].tok, Tok::Punct("=")));
            match eq {
                Some(eq) => {
                    let v = self.eval_range(run, eq + 1, b)?;
                    let v = self.to_declared(a, eq, v).ok_or_else(|| {
                        format!(
                            "`{}` converts to its declared type with an undefined result",
                            source_text(&self.toks[a..b])
                        )
                    })?;
                    run.env.insert(name, v);
                }
                // Declared without a value: it has none ([dcl.init]/12).
                None => {
                    run.env.remove(&name);
                }
            }
            return Ok(());
        }
        if let Some(r) = self.run_vec_member(run, a, b) {
            return r;
        }
        self.eval_range(run, a, b).map(|_| ())
    }

    /// `h.push_back(e)`, `h.emplace_back(e)` or `h.resize(n[, v])` over `a..b` on a host vector
    /// whose cells this evaluation reads ([`super::host_cells::RunCells::vec_member`]); `None`
    /// for any other statement.
    fn run_vec_member(
        &mut self,
        run: &mut Run<'_>,
        a: usize,
        b: usize,
    ) -> Option<Result<(), String>> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let (
            Some(Tok::Ident(h)),
            Some(Tok::Punct(".")),
            Some(Tok::Ident(m)),
            Some(Tok::Punct("(")),
        ) = (tok(a), tok(a + 1), tok(a + 2), tok(a + 3))
        else {
            return None;
        };
        if !matches!(
            m.as_str(),
            "push_back" | "emplace_back" | "resize" | "reserve" | "shrink_to_fit" | "clear"
        ) || self.closing(a + 3) != Some(b - 1)
            || !run.cells.has_array(h)
        {
            return None;
        }
        let mut vals = Vec::new();
        for (x, y) in super::host::split_commas(toks, a + 4, b - 1) {
            match self.eval_range(run, x, y) {
                Ok(v) => vals.push(v),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(run.cells.vec_member(h, m, &vals))
    }

    /// An `if` condition `from..to` that is a call of one of the source's host functions,
    /// `f(args)` or `!f(args)` (`if (!warp_softmax_kernel<T>(n, ws, kernel)) return false;`):
    /// the call read as a statement is ([`Parser::host_call_from`]: what it sets through
    /// reference parameters and the launches it makes), then the condition's value from what
    /// it returned (C++17 [stmt.if]/1: the condition is evaluated, call included, before
    /// either branch). `None` when the condition is no such call or its value is not read.
    fn host_if_call(&mut self, st: &mut HostState, from: usize, to: usize) -> Option<i128> {
        let toks = self.toks;
        let not = matches!(toks.get(from).map(|t| &t.tok), Some(Tok::Punct("!")));
        let at = from + usize::from(not);
        let Some(Tok::Ident(name)) = toks.get(at).map(|t| &t.tok) else {
            return None;
        };
        if !self.host_fns.contains_key(name) {
            return None;
        }
        // The call spans the whole condition: its `(`, after any template arguments, closes
        // just before `to`.
        let open = (at + 1..to).find(|&i| matches!(toks[i].tok, Tok::Punct("(")))?;
        if self.closing(open) != Some(to - 1) {
            return None;
        }
        let (_, v) = self.host_call_from(st, from, at, to, true)?;
        let v = v?.int()?;
        Some(if not { i128::from(v == 0) } else { v })
    }

    /// The runtime calls in the condition of the `if` at `k`, read as the statements they
    /// are: `if (hipMemcpy(d, h, n, kind) != hipSuccess) exit(1);` (an error-checking macro
    /// such as `#define check(x) if (x != hipSuccess) exit(EXIT_FAILURE)` expanded) copies
    /// before the branch is chosen (C++17 [stmt.if]/1: the condition is evaluated, its call
    /// included, whichever branch then runs). Each call is read once, in order; the
    /// condition's tokens bound the walk.
    pub(super) fn host_condition_calls(&mut self, st: &mut HostState, k: usize) {
        let toks = self.toks;
        if !matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return;
        }
        let Some(c) = self.closing(k + 1) else {
            return;
        };
        let mut i = k + 2;
        while i < c {
            let call = matches!(&toks[i].tok, Tok::Ident(n) if super::host_text::READ_CALLS.contains(&n.as_str()))
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")));
            match self.closing(i + 1).filter(|&e| call && e < c) {
                Some(e) => {
                    self.host_statement(st, i, e + 1);
                    i = e + 1;
                }
                None => i += 1,
            }
        }
    }

    /// `if (c) … [else …]` at `k`: when `c` is a constant here, only the branch it takes is read
    /// (the other is skipped, with a note when a launch is in the statement). When it is not,
    /// both branches are read as before and the variables they assign become unknown after
    /// the statement. Returns where reading goes on, or `None` to read the head as before.
    pub(super) fn host_if(&mut self, st: &mut HostState, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        if !matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return None;
        }
        let c = self.closing(k + 1).filter(|&c| c < close)?;
        let end = self.stmt_extent(k, close)?;
        let then_end = self.stmt_extent(c + 1, close)?;
        let launches = launches_in(&toks[k..end]);
        let cond = source_text(&toks[k + 2..c]);
        let line = toks[k].line;
        let span = Span {
            line,
            col: toks[k].col,
        };
        // `if (!init(…)) return 1;`: the call is read as a statement is, then its value decides.
        let called = self.host_if_call(st, k + 2, c);
        let Some(v) = called.or_else(|| self.host_value(st, k + 2, c).and_then(HostVal::int))
        else {
            let mut names = self.assigned_in(c + 1, end);
            // `if (x) *p = v;`: the host array `p` points into (`host_cells`).
            for t in self.pointer_targets(st, c + 1, end) {
                if !names.contains(&t) {
                    names.push(t);
                }
            }
            let why = self
                .unknown_reason(st, k + 2, c)
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            let reason = format!(
                "it is assigned under `if ({cond})` at line {line}, whose condition has no \
                 constant value in host code{why}"
            );
            if launches {
                self.diag(
                    span,
                    Level::Info,
                    format!(
                        "`if ({cond})` has no constant value in host code{why}: the launches \
                         of both branches are read and the first one runs; none of them runs \
                         before or after another launch (choose one: --entry)"
                    ),
                    "",
                );
            }
            Self::taint(st, end, names, reason);
            st.undecided_ifs.push((k, end));
            if launches {
                // Only one branch runs on the device: no sequence runs these launches.
                self.undecided.push((k, end, Some(st.reading)));
            }
            return None;
        };
        if launches {
            let which = if v != 0 { "its first" } else { "the other" };
            self.diag(
                span,
                Level::Info,
                format!(
                    "`if ({cond})` is {} in host code: {which} branch is read",
                    v != 0
                ),
                "C++17 [stmt.if]/1",
            );
        }
        if v != 0 {
            if then_end < end {
                st.skips.push((then_end, end));
            }
            Some(c + 1)
        } else {
            // The branch not taken, kept so that a function named only there is not counted
            // as reached from `main` (`host_calls::reached_from_main`).
            st.skips.push((c + 1, then_end.min(end)));
            if then_end < end {
                Some(then_end + 1)
            } else {
                Some(end)
            }
        }
    }
}

/// `dim3 grid; grid.x = 4;`: a component assigned by its member name is the `dim3`'s own
/// (CUDA C++ Programming Guide, "dim3": a `uint3` whose `x`, `y`, `z` a launch reads), so
/// `grid.x` kept under its dotted name is folded into `grid`'s value, which the launch reads.
fn fold_dim_members(env: &mut HashMap<String, HostVal>, name: &str) {
    let Some(HostVal::Dim(mut d)) = env.get(name).copied() else {
        return;
    };
    for (i, c) in ["x", "y", "z"].iter().enumerate() {
        if let Some(v) = env.remove(&format!("{name}.{c}")) {
            match v.int() {
                Some(n) => d[i] = n,
                None => {
                    // Not an integer: keep it by its name, the `dim3` unchanged.
                    env.insert(format!("{name}.{c}"), v);
                }
            }
        }
    }
    env.insert(name.to_string(), HostVal::Dim(d));
}
