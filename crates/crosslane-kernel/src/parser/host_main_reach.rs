//! Which host functions `main` reaches: `main` read once the whole file is when it calls a
//! function defined below it, and the launches of host functions `main` never calls dropped
//! (C++17 [basic.start.main]/1: the program runs `main`; a function runs only when called).
//! Split from `host_calls.rs`, which reads the calls themselves.

use super::host_calls::HostFn;
use super::Parser;
use crate::lexer::Tok;
use std::collections::HashMap;

impl Parser<'_> {
    /// Whether `main`, whose body is `open..close`, calls a host function the file defines
    /// only below it (`void run(float*);` above `main`, its body after): then `main` is read
    /// once the whole file is ([`Parser::read_deferred_main`]), so that the call reads the
    /// callee's launches at their place in `main`, before `main`'s later launches, with
    /// `main`'s buffers (C++17 [basic.def.odr]: one definition, wherever it stands).
    pub(super) fn defer_main(&self, open: usize, close: usize) -> bool {
        let toks = self.toks;
        let called: Vec<&str> = (open + 1..close)
            .filter_map(|i| match (&toks[i].tok, toks.get(i + 1).map(|t| &t.tok)) {
                // `run(…)`, and `runTest<int>(…)` of a function template.
                (Tok::Ident(n), Some(Tok::Punct("(" | "<"))) if !self.host_fns.contains_key(n) => {
                    Some(n.as_str())
                }
                _ => None,
            })
            .collect();
        if called.is_empty() {
            return false;
        }
        // A definition below: `name ( … ) {` at brace depth 0 after `main`'s body.
        let mut depth = 0usize;
        let mut i = close + 1;
        while i < toks.len() {
            match &toks[i].tok {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => depth = depth.saturating_sub(1),
                Tok::Ident(n)
                    if depth == 0
                        && called.contains(&n.as_str())
                        && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
                        && self
                            .closing(i + 1)
                            .and_then(|c| toks.get(c + 1))
                            .is_some_and(|t| matches!(t.tok, Tok::Punct("{"))) =>
                {
                    return true;
                }
                _ => {}
            }
            i += 1;
        }
        false
    }

    /// Launches read from the definitions of host functions that `main` never calls are no
    /// launches of the program (C++17 [basic.start.main]/1: the program runs `main`; a
    /// function is executed only when called): dropped, when `main`'s reading found launches
    /// of its own. A file whose `main` launches nothing keeps every launch read (a library
    /// file of launchers, or a call the host reading does not follow).
    pub(super) fn drop_uncalled_launches(&mut self) {
        let Some(range) = self.main_calls.launches.clone() else {
            return;
        };
        if !range.clone().any(|i| !self.superseded.contains(&i)) {
            return;
        }
        // A function main launches (an Ascend C vector kernel whose body launches its SIMT
        // function by `asc_vf_call`) is reached too.
        let launched: std::collections::HashSet<&str> = range
            .filter_map(|i| self.launches.get(i))
            .map(|l| l.kernel.as_str())
            .collect();
        let reached = self.reached_from_main();
        let mut dropped = Vec::new();
        for (name, f) in &self.host_fns {
            if name != "main"
                && !self.main_calls.called.contains(name)
                && !reached.contains(name.as_str())
                && !launched.contains(name.as_str())
            {
                dropped.push(f.launches.clone());
            }
        }
        for r in dropped {
            self.superseded.extend(r);
        }
    }

    /// The host functions `main` may call: each one whose name `main`'s body or the body of
    /// a function reached names (a call `run4();` the host reading did not follow because it
    /// binds nothing, `run1<int>()`, `&run4` or `run4` passed as a function pointer), and so
    /// on through their bodies. C++17 [basic.def.odr]/3: a function named in a potentially
    /// evaluated expression is odr-used, so it may run; the reading cannot tell that it
    /// will not. Explicit specializations (`run<float>`, [`super::host_fn_spec`]) are reached
    /// with the template's name. Each function's body is scanned once.
    fn reached_from_main(&self) -> std::collections::HashSet<&str> {
        let mut reached: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let Some(main) = self.main_calls.body else {
            return reached;
        };
        // Each function by the name its calls write: `run` for `run` and `run<float>`.
        let mut by_base: HashMap<&str, Vec<(&str, &HostFn)>> = HashMap::new();
        for (name, f) in &self.host_fns {
            let base = name.split('<').next().unwrap_or(name);
            by_base.entry(base).or_default().push((name.as_str(), f));
        }
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut work = vec![main];
        // Each name enters `seen` once and each function the work list once, so the loop
        // runs at most once per function, plus `main`.
        while let Some((open, close)) = work.pop() {
            for (i, t) in self.toks.get(open..close).unwrap_or(&[]).iter().enumerate() {
                let Tok::Ident(n) = &t.tok else {
                    continue;
                };
                // A name in a branch that a constant condition does not take where `main` or
                // a call it makes was read (`if (OP == 3) norm_cuda(…);` with `OP` 0) is no
                // call that runs.
                if self
                    .main_calls
                    .skips
                    .iter()
                    .any(|&(a, b)| (a..b).contains(&(open + i)))
                {
                    continue;
                }
                let Some(fns) = by_base.get(n.as_str()) else {
                    continue;
                };
                if !seen.insert(n.as_str()) {
                    continue;
                }
                for &(name, f) in fns {
                    if reached.insert(name) {
                        work.push((f.open, f.close));
                    }
                }
            }
        }
        reached
    }

    /// Reads `main` if [`Parser::defer_main`] kept it.
    pub(super) fn read_deferred_main(&mut self) {
        if let Some((params, at, open, close)) = self.deferred_main.take() {
            self.read_host("main", params, at, open, close);
        }
    }
}
