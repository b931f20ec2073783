//! A host function template's explicit specialization (C++17 [temp.expl.spec]/1:
//! `template <> void launch<float>(float* v, …) { k<<<g, b, 0, s>>>(…); }`), DeepSpeed's
//! launcher shape: the primary is only declared (`template <typename T> void launch(T*, …);`)
//! and each specialization is a host function of its own. Kept as a host function under the
//! instance's name, `launch<float>`, and read at a host call `launch<float>(…)` that names
//! those arguments ([`super::host_calls`]), with its parameters bound as any host function's.

use super::host::{param_names, text_of};
use super::Parser;
use crate::lexer::Tok;

impl Parser<'_> {
    /// At `from` after `template <>`: a host function's specialization `RET name<ARGS>(…) {
    /// … }` (no `__device__`/`__global__` before its parameters) kept as the host function
    /// `name<ARGS>` ([`Parser::host_spec_key`]); the position after its `}` when it is one.
    pub(super) fn host_fn_specialization(&mut self, from: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // The name: the identifier before the first `<` at the head's top level.
        let lt = (from..toks.len())
            .take_while(|&i| !matches!(tok(i), Some(Tok::Punct("(" | "{" | ";")) | Some(Tok::Eof)))
            .find(|&i| matches!(tok(i), Some(Tok::Punct("<"))))?;
        let Some(Tok::Ident(name)) = lt.checked_sub(1).and_then(tok) else {
            return None;
        };
        let mut depth = 0usize;
        let gt = (lt..toks.len()).find(|&i| {
            match tok(i) {
                Some(Tok::Punct("<")) => depth += 1,
                Some(Tok::Punct(">")) => {
                    depth = depth.saturating_sub(1);
                    return depth == 0;
                }
                Some(Tok::Punct(">>")) => return depth <= 2,
                Some(Tok::Punct(";" | "{") | Tok::Eof) => return true,
                _ => {}
            }
            false
        })?;
        if !matches!(tok(gt), Some(Tok::Punct(">")))
            || !matches!(tok(gt + 1), Some(Tok::Punct("(")))
        {
            return None;
        }
        let device = toks[from..gt].iter().any(|t| {
            matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "__device__" | "__global__" | "__host__"))
        });
        if device {
            return None;
        }
        let paren_close = self.closing(gt + 1)?;
        let open = (paren_close + 1..toks.len())
            .take_while(|&i| !matches!(tok(i), Some(Tok::Punct(";")) | Some(Tok::Eof)))
            .find(|&i| matches!(tok(i), Some(Tok::Punct("{"))))?;
        let close = self.closing(open)?;
        let key = Self::host_spec_key(name, &text_of(&toks[lt + 1..gt]));
        let names = param_names(&toks[gt + 2..paren_close]);
        let before = self.launches.len();
        self.record_host_fn(&key, names, Vec::new(), (open, close), before);
        Some(close + 1)
    }

    /// The host function name a specialization `name<ARGS>` is kept under, from the
    /// arguments' text as the host reading spells it.
    pub(super) fn host_spec_key(name: &str, args: &str) -> String {
        format!("{name}<{args}>")
    }
}
