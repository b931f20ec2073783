//! A kernel launch inside a lambda in host code: `float t = TIME_RECORD(n, ([&]{ k<<<g,
//! b>>>(…); }));` whose macro expands to an immediately-invoked lambda (`[&] { for (…) {
//! func(); } return total; }()`) that calls the lambda it was given, and `auto run = [&]() {
//! k<<<g, b>>>(…); }; run();`. Timing helpers of tutorial repositories wrap every launch so.
//! The lambda's body is read as host code where the lambda stands, as if called once there:
//! its `[&]` captures name the enclosing function's variables (C++17 [expr.prim.lambda.capture]/
//! 12: an entity captured by reference is the entity itself), so the body's launches take the
//! caller's pointers and sizes. A lambda whose body holds no launch is not read. A body's
//! loop of launches is read as other host loops are (once, said, where its count is not read).
//!
//! Bounded: lambdas inside lambdas are read to [`MAX_DEPTH`] levels; each body is read once.

use super::host::{launches_in, HostState};
use super::Parser;
use crate::ast::Span;
use crate::lexer::Tok;
use crosslane_core::result::Level;

/// Deepest nesting of lambdas read.
pub(super) const MAX_DEPTH: u8 = 8;

impl Parser<'_> {
    /// The statement at `k` (ending at `end`, exclusive of its `;`) when it holds a launch
    /// inside a lambda's body: each such body read as host statements; returns the index after
    /// the statement. `None` for any other statement.
    pub(super) fn host_lambda_launches(
        &mut self,
        st: &mut HostState,
        k: usize,
        end: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if st.lambda_depth >= MAX_DEPTH || end <= k || !launches_in(&toks[k..end]) {
            return None;
        }
        // A control statement keeps its own reading (a loop of launches, an `if`).
        if matches!(tok(k), Some(Tok::Ident(w)) if matches!(w.as_str(), "for" | "while" | "do" | "if" | "switch" | "return"))
        {
            return None;
        }
        let mut bodies: Vec<(usize, usize)> = Vec::new();
        let mut i = k;
        while i < end {
            // A lambda-introducer: `[` where an expression starts (not a subscript).
            let starts = i == k
                || matches!(
                    tok(i - 1),
                    Some(Tok::Punct("(" | "=" | "," | "{" | "return" | "?" | ":"))
                );
            if !(starts && matches!(tok(i), Some(Tok::Punct("[")))) {
                i += 1;
                continue;
            }
            let Some(cap) = self.closing(i).filter(|&c| c < end) else {
                i += 1;
                continue;
            };
            let mut j = cap + 1;
            if matches!(tok(j), Some(Tok::Punct("("))) {
                match self.closing(j).filter(|&c| c < end) {
                    Some(c) => j = c + 1,
                    None => {
                        i += 1;
                        continue;
                    }
                }
            }
            // `mutable`, `noexcept`, `-> T` before the body.
            let mut guard = 0;
            while !matches!(tok(j), Some(Tok::Punct("{"))) && j < end && guard < 8 {
                match tok(j) {
                    Some(Tok::Ident(_) | Tok::Punct("->" | "::" | "*" | "&")) => j += 1,
                    _ => break,
                }
                guard += 1;
            }
            if !matches!(tok(j), Some(Tok::Punct("{"))) {
                i += 1;
                continue;
            }
            let Some(body_end) = self.closing(j).filter(|&c| c < end) else {
                i += 1;
                continue;
            };
            if launches_in(&toks[j + 1..body_end]) {
                bodies.push((j, body_end));
            }
            i = body_end + 1;
        }
        if bodies.is_empty() {
            return None;
        }
        self.diag(
            Span {
                line: toks[k].line,
                col: toks[k].col,
            },
            Level::Info,
            "a kernel launch inside a lambda: the lambda's body is read where it stands, as \
             called once there (its `[&]` captures are the enclosing function's variables)"
                .to_string(),
            "C++17 [expr.prim.lambda.capture]/12",
        );
        st.lambda_depth += 1;
        for (open, close) in bodies {
            let mut s = open + 1;
            while s < close {
                s = self.host_statement(st, s, close).max(s + 1);
            }
        }
        st.lambda_depth -= 1;
        Some(end + 1)
    }
}
