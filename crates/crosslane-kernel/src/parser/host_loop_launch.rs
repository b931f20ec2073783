//! A host loop whose body launches a kernel, read once per iteration with the loop's variables
//! as they are at it, so that each iteration's launch is its own (its arguments, grid and
//! block): `for (int pass = 0; pass < 10; pass++) k<<<1, 32>>>(d, 2);`, a bitonic sort's
//! stages `for (k = 2; k <= N; k <<= 1) for (j = k >> 1; j > 0; j >>= 1) step<<<…>>>(d, j, k);`,
//! a multi-pass reduction `while (n > 1) { reduce<<<…>>>(d, d, n); n = (n + 255) / 256; }`.
//! The launches then run in host code's order, each on what the one before left
//! (`crate::sequence`), as the device runs them.
//!
//! `do { k<<<…>>>(d); n = (n + 1) / 2; } while (n > 1);` is read the same way, its body once
//! before the condition is first tested.
//!
//! Sources: C++17 [stmt.for]/1 (the init once, the condition before each iteration, the
//! expression after each), [stmt.while]/1 (the condition before each iteration), [stmt.do]/1
//! (the condition after each iteration).
//!
//! Read this way only when every iteration can be: the init and step evaluated, the condition
//! a constant in host code before each iteration, no `return` or `goto` in the body and each
//! of the loop's own `break` and `continue` reached only in branches host code decides
//! (`host_loop_exit`), at most [`MAX_ITERATIONS`] iterations of one loop and [`MAX_UNROLLED`]
//! launches read in a file. Otherwise the loop is read once, as its note says
//! (`host_state::loop_note`), and whatever the attempt read is undone.

use super::const_eval::HostVal;
use super::host::{text_of, HostState};
use super::host_eval::eval_mut;
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

/// Most iterations of one host loop read one by one.
pub const MAX_ITERATIONS: u32 = 1024;

/// Most launches a file's host loops are read into.
pub const MAX_UNROLLED: usize = 2048;

/// Parts of a loop: the init's and the condition's token ranges, the step's, the body's;
/// whether the condition is tested before the first iteration (`for`, `while`) or only after
/// each (`do … while`), and where reading goes on after the loop.
struct Parts {
    init: Option<(usize, usize)>,
    cond: (usize, usize),
    step: Option<(usize, usize)>,
    body: (usize, usize),
    test_first: bool,
    resume: usize,
}

impl Parser<'_> {
    /// `for (init; cond; step) body` at `k`, its head closing at `head_close` and its body
    /// ending before `after`, with a launch in the body: read per iteration. Returns where
    /// reading goes on, or `None` when it cannot be (nothing is changed then).
    pub(super) fn host_for_launches(
        &mut self,
        st: &mut HostState,
        k: usize,
        head_close: usize,
        after: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let mut semis = Vec::new();
        let mut i = k + 2;
        while i < head_close {
            match &toks[i].tok {
                Tok::Punct("(" | "[" | "{") => i = self.closing(i)?,
                Tok::Punct(";") => semis.push(i),
                _ => {}
            }
            i += 1;
        }
        let [s1, s2] = semis[..] else {
            return None;
        };
        let parts = Parts {
            init: (s1 > k + 2).then_some((k + 2, s1)),
            cond: (s1 + 1, s2),
            step: (head_close > s2 + 1).then_some((s2 + 1, head_close)),
            body: (head_close + 1, after),
            test_first: true,
            resume: after,
        };
        self.host_unroll(st, k, &parts)
    }

    /// `while (cond) body` at `k` with a launch in the body: read per iteration, as
    /// [`Parser::host_for_launches`].
    pub(super) fn host_while_launches(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        if !matches!(self.toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return None;
        }
        let c = self.closing(k + 1).filter(|&c| c < close)?;
        let end = self.stmt_extent(k, close)?;
        let parts = Parts {
            init: None,
            cond: (k + 2, c),
            step: None,
            body: (c + 1, end),
            test_first: true,
            resume: end,
        };
        self.host_unroll(st, k, &parts)
    }

    /// `do body while (cond);` at `k` with a launch in the body: read per iteration as
    /// [`Parser::host_while_launches`], the body once before the condition is first tested
    /// (C++17 [stmt.do]/1: "the substatement is executed repeatedly until the value of the
    /// expression becomes false. The test takes place after each execution of the
    /// statement").
    pub(super) fn host_do_launches(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let end = self.stmt_extent(k, close)?;
        // `do BODY while ( COND ) ;`: the `(` after the `while` that precedes the last `;`.
        let semi = end.checked_sub(1)?;
        let c = semi.checked_sub(1)?;
        if !matches!(self.toks.get(c).map(|t| &t.tok), Some(Tok::Punct(")"))) {
            return None;
        }
        let open = (k + 1..c)
            .rev()
            .find(|&i| matches!(self.toks[i].tok, Tok::Punct("(")) && self.closing(i) == Some(c))?;
        let w = open.checked_sub(1)?;
        if !matches!(&self.toks[w].tok, Tok::Ident(x) if x == "while") {
            return None;
        }
        let parts = Parts {
            init: None,
            cond: (open + 1, c),
            step: None,
            body: (k + 1, w),
            test_first: false,
            resume: end,
        };
        self.host_unroll(st, k, &parts)
    }

    /// Reads the loop at `k` iteration by iteration (see the module doc).
    fn host_unroll(&mut self, st: &mut HostState, k: usize, parts: &Parts) -> Option<usize> {
        let toks = self.toks;
        let (b0, b1) = parts.body;
        if b1 > toks.len() || self.unrolled >= MAX_UNROLLED {
            return None;
        }
        let exits = self.loop_exits(b0, b1)?;
        let saved = st.clone();
        let marks = (
            self.launches.len(),
            self.diags.len(),
            self.launch_arg_types.len(),
            self.vf_calls.len(),
        );
        // The init: `int k = 2` (a declaration: the name is the loop's own) or `k = 2`.
        let mut declared = None;
        if let Some((a, b)) = parts.init {
            let eq = (a..b).find(|&i| matches!(toks[i].tok, Tok::Punct("=")))?;
            let Some(Tok::Ident(var)) = eq.checked_sub(1).map(|i| &toks[i].tok) else {
                return None;
            };
            let v = self.host_value(st, eq + 1, b)?;
            if eq - 1 > a {
                declared = Some((
                    var.clone(),
                    st.env.get(var).copied(),
                    st.unknown.get(var).cloned(),
                ));
            }
            st.env.insert(var.clone(), v);
            st.unknown.remove(var);
        }
        let step = match parts.step {
            Some((a, b)) => Some(self.sub_expr(a, b)?),
            None => None,
        };
        let skips = st.skips.len();
        let undecided = st.undecided_ifs.len();
        let undecided_launch_ifs = self.undecided.len();
        let mut iterations = 0u32;
        let done = loop {
            if parts.test_first || iterations > 0 {
                let Some(c) = self
                    .host_value(st, parts.cond.0, parts.cond.1)
                    .and_then(HostVal::int)
                else {
                    break false;
                };
                if c == 0 {
                    break true;
                }
            }
            iterations += 1;
            if iterations > MAX_ITERATIONS
                || self.unrolled + (self.launches.len() - marks.0) > MAX_UNROLLED
            {
                break false;
            }
            // A branch an `if` of the last iteration skipped is decided again.
            st.skips.truncate(skips);
            st.undecided_ifs.truncate(undecided);
            // So is an `if` holding a launch that an earlier iteration could not decide.
            self.undecided.truncate(undecided_launch_ifs);
            let mut i = b0;
            let mut exit = None;
            self.unroll_depth += 1;
            while i < b1 {
                // The loop's own `break` / `continue`, reached (not skipped): followed when no
                // `if` whose condition is unknown holds it (`host_loop_exit`).
                let skipped = st.skips.iter().any(|s| s.0 == i);
                if let Some(e) = exits.at(i).filter(|_| !skipped) {
                    exit = Some(e);
                    break;
                }
                i = self.host_statement(st, i, b1).max(i + 1);
            }
            self.unroll_depth -= 1;
            if let Some(at) = exit.map(|_| i) {
                if st.undecided_ifs[undecided..]
                    .iter()
                    .any(|&(a, e)| a < at && at < e)
                {
                    break false;
                }
            }
            Self::apply_taints(st, b1);
            st.steps += 1;
            if exit == Some(super::host_loop_exit::Exit::Break) {
                break true;
            }
            if let Some(e) = &step {
                if eval_mut(e, &mut st.env).is_none() {
                    break false;
                }
            }
        };
        let read = self.launches.len() - marks.0;
        if !done || read == 0 {
            *st = saved;
            self.launches.truncate(marks.0);
            self.diags.truncate(marks.1);
            self.launch_arg_types.truncate(marks.2);
            self.vf_calls.truncate(marks.3);
            return None;
        }
        self.unrolled += read;
        st.skips.truncate(skips);
        st.undecided_ifs.truncate(undecided);
        if let Some((var, old, unknown)) = declared {
            match old {
                Some(v) => st.env.insert(var.clone(), v),
                None => st.env.remove(&var),
            };
            if let Some(u) = unknown {
                st.unknown.insert(var, u);
            }
        }
        // Each note of the body once, not once per iteration.
        let mut seen = std::collections::HashSet::new();
        let mut at = 0;
        self.diags.retain(|d| {
            at += 1;
            at <= marks.1 || seen.insert((d.line, d.col, d.message.clone()))
        });
        if self.unroll_depth > 0 {
            // A loop inside one being read per iteration: the outer loop's note says it.
            return Some(parts.resume);
        }
        let word = text_of(&toks[k..=k]);
        let times = match iterations {
            1 => "once".to_string(),
            n => format!("{n} times"),
        };
        self.diag(
            Span {
                line: toks[k].line,
                col: toks[k].col,
            },
            Level::Info,
            format!(
                "this `{word}` loop is read once per iteration: it runs {times} here, and the \
                 {read} kernel launch(es) in it are read each with the loop's values at it; \
                 they run in order, each on the buffers the one before left, as on the device"
            ),
            "C++17 [stmt.for]/1, [stmt.while]/1, [stmt.do]/1; CUDA C++ Programming Guide, Streams",
        );
        Some(parts.resume)
    }
}
