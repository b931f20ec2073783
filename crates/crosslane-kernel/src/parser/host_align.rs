//! `reinterpret_cast<uintptr_t>(d) % N` in host code, `d` a CUDA runtime allocation: the
//! address's remainder, known from the runtime's alignment guarantee. CUDA C++ Programming
//! Guide, "Device Memory Accesses": "any address of a variable residing in global memory or
//! returned by one of the memory allocation routines from the driver or runtime API is always
//! aligned to at least 256 bytes". So for `N` dividing 256 the remainder is 0, and the
//! alignment checks a launcher makes before choosing a vectorized kernel (mistral.rs's
//! `reinterpret_cast<uintptr_t>(input) % 16 == 0`) have their value. Other allocations (HIP's,
//! host memory) and other divisors stay unknown.

use super::host::HostState;
use super::Parser;
use crate::lexer::{Tok, Token};

/// The alignment the CUDA runtime's allocations have at least, in bytes.
const CUDA_ALLOC_ALIGN: i128 = 256;

impl Parser<'_> {
    /// The tokens `from..to` with each `reinterpret_cast<T>(d) % e` whose remainder is known
    /// (see the module) replaced by `0`; `None` when there is none.
    pub(super) fn host_align_mods(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<Vec<Token>> {
        let toks = self.toks;
        if to > toks.len() || from >= to {
            return None;
        }
        let mut out: Vec<Token> = Vec::new();
        let mut changed = false;
        let mut i = from;
        while i < to {
            if let Some(end) = self.known_align_mod(st, i, to) {
                out.push(Token {
                    tok: Tok::Int {
                        value: 0,
                        unsigned: false,
                        long: false,
                    },
                    ..toks[i].clone()
                });
                changed = true;
                i = end;
                continue;
            }
            out.push(toks[i].clone());
            i += 1;
        }
        changed.then_some(out)
    }

    /// At `i`, `reinterpret_cast<T>(d) % e` with `d` a CUDA runtime allocation and `e` a host
    /// constant dividing 256: the index after `e`.
    fn known_align_mod(&mut self, st: &HostState, i: usize, to: usize) -> Option<usize> {
        let toks = self.toks;
        let word = |k: usize| match toks.get(k).map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        };
        let punct = |k: usize, p: &str| matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
        if word(i) != Some("reinterpret_cast") || !punct(i + 1, "<") {
            return None;
        }
        let gt = (i + 2..to.min(i + 8)).find(|&k| punct(k, ">"))?;
        if !punct(gt + 1, "(") || !punct(gt + 3, ")") || !punct(gt + 4, "%") {
            return None;
        }
        let d = word(gt + 2)?;
        let (_, call, _) = st.mallocs.get(d)?;
        if !call.starts_with("cuda") {
            return None;
        }
        // The divisor: up to the next comparison, logical operator or closing bracket at its
        // own depth.
        let start = gt + 5;
        let mut depth = 0usize;
        let mut end = start;
        while end < to {
            match &toks[end].tok {
                Tok::Punct("(" | "[") => depth += 1,
                Tok::Punct(")" | "]") if depth == 0 => break,
                Tok::Punct(")" | "]") => depth -= 1,
                Tok::Punct(
                    "==" | "!=" | "&&" | "||" | "?" | ":" | "," | ";" | "<" | ">" | "<=" | ">=",
                ) if depth == 0 => break,
                _ => {}
            }
            end += 1;
        }
        if end == start {
            return None;
        }
        let n = self.host_value(st, start, end)?.int()?;
        (n > 0 && CUDA_ALLOC_ALIGN % n == 0).then_some(end)
    }
}
