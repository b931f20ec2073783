//! File-scope host variables shared by the host functions that use them: a device pointer
//! declared at file scope (`static uint *d_PartialHistograms;`, the CUDA samples'
//! `histogram64.cu`) that one host function allocates (`initHistogram64()` calling
//! `cudaMalloc(&d_PartialHistograms, …)`) and another passes to its launches
//! (`histogram64(…)`). C++17 [basic.scope.namespace]/1: a name declared at namespace scope is
//! in scope to the end of the translation unit, so every function names the one object
//! ([basic.stc.static]/1: it lives for the program's duration); the host reading, which reads
//! each called function with a state of its own ([`super::host_calls`]), hands the caller's
//! knowledge of such a pointer to the callee and takes the callee's back after the call.

use super::host_state::HostState;
use super::Parser;
use crate::lexer::Tok;
use std::collections::HashMap;

/// Copies `map`'s entries for `names` from `from` into `to`: each name's entry as `from`
/// holds it, removed from `to` where `from` has none.
fn share<V: Clone>(names: &[&String], from: &HashMap<String, V>, to: &mut HashMap<String, V>) {
    for &n in names {
        match from.get(n) {
            Some(v) => {
                to.insert(n.clone(), v.clone());
            }
            None => {
                to.remove(n);
            }
        }
    }
}

/// What the host reading knows of a device pointer under `names`, copied from `from` to `to`:
/// its allocation, its element, host code's writes and the launches given it since, and the
/// pointer value host code assigned it.
fn share_state(names: &[&String], from: &HostState, to: &mut HostState) {
    share(names, &from.mallocs, &mut to.mallocs);
    share(names, &from.alloc_ids, &mut to.alloc_ids);
    share(names, &from.elem_bytes, &mut to.elem_bytes);
    share(names, &from.elem_word, &mut to.elem_word);
    share(names, &from.writes, &mut to.writes);
    share(names, &from.prior, &mut to.prior);
    share(names, &from.host_cells, &mut to.host_cells);
    share(names, &from.dev_copies, &mut to.dev_copies);
    share(names, &from.copies, &mut to.copies);
    share(names, &from.copied, &mut to.copied);
    share(names, &from.ptrs, &mut to.ptrs);
}

impl Parser<'_> {
    /// Records the names a file-scope host declaration over `from..end` declares (each
    /// declarator's identifier: the one before `;`, `=`, `,` or `[` outside parentheses and
    /// braces), so that the host functions reading them share them ([`Self::globals_in`]).
    pub(super) fn record_file_scope_names(&mut self, from: usize, end: usize) {
        let toks = self.toks;
        let mut depth = 0usize;
        let mut names = Vec::new();
        for i in from..end.min(toks.len()) {
            match &toks[i].tok {
                Tok::Punct("(" | "{") => depth += 1,
                Tok::Punct(")" | "}") => depth = depth.saturating_sub(1),
                Tok::Ident(n) if depth == 0 => {
                    let next = toks.get(i + 1).map(|t| &t.tok);
                    if matches!(next, Some(Tok::Punct(";" | "=" | "," | "["))) {
                        names.push(n.clone());
                    }
                }
                _ => {}
            }
            // An initializer's own names are no declarators: skip to the next `,` or `;`.
            if depth == 0 && matches!(toks[i].tok, Tok::Punct("=")) {
                break;
            }
        }
        self.file_scope_vars.extend(names);
    }

    /// Whether the body of the host function `name` names a file-scope variable its
    /// parameters do not hide.
    pub(super) fn names_file_scope_var(&self, name: &str) -> bool {
        let Some(f) = self.host_fns.get(name) else {
            return false;
        };
        let toks = self.toks;
        let globals = self.visible_globals(&f.params);
        !globals.is_empty()
            && toks[f.open..f.close.min(toks.len())]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(n) if globals.contains(&n)))
    }

    /// The file-scope names `params` (the callee's parameters) do not hide.
    fn visible_globals<'a>(&'a self, params: &[String]) -> Vec<&'a String> {
        let mut v: Vec<&String> = self
            .file_scope_vars
            .iter()
            .filter(|n| !params.contains(n))
            .collect();
        v.sort();
        v
    }

    /// Before a host function is read at a call: the caller's knowledge of the file-scope
    /// pointers the callee may use.
    pub(super) fn globals_in(&self, caller: &HostState, inner: &mut HostState) {
        let names = self.visible_globals(&inner.params);
        share_state(&names, caller, inner);
    }

    /// After it is read: what the callee did to them (an allocation, a write, a launch given
    /// one) is the caller's from then on.
    pub(super) fn globals_out(&self, inner: &HostState, caller: &mut HostState) {
        let names = self.visible_globals(&inner.params);
        share_state(&names, inner, caller);
    }
}
