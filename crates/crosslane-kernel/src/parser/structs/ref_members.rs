//! Reference data members and pointer members to one struct, bound by a constructor's
//! initializer list: `TempStorage& temp_storage_; BlockReduce(TempStorage& t) :
//! temp_storage_(t) {}` (or `TempStorage* ts_; … : ts_(&t) {}`).
//!
//! Such a member is an alias of the object it is bound to for the life of the object that
//! holds it ([dcl.ref]/1, [class.base.init]/8): the holder's leaves for that member are the
//! bound object's own variables, so a member function's `temp_storage_.partial[w] = v` writes
//! the caller's `__shared__` storage itself, which other warps read after `__syncthreads()`.
//! The binding is read from the constructor's tokens (which member, which parameter) when the
//! constructor is declared, and applied where an object is constructed ([`Parser::construct`]):
//! the argument's leaves stand for the member's leaves, and the constructor's body does not
//! copy into them.
//!
//! Sources: ISO C++ [dcl.ref]/1 and /5 (a reference is bound once, to its initializer's object),
//! [class.base.init]/8 (a mem-initializer binds a reference member), [expr.ref]/2 (`p->m` is
//! `(*p).m`).

use std::collections::HashMap;

use super::{FieldTy, Leaves, SVar};
use crate::ast::{Expr, ExprKind, Param, Span};
use crate::lexer::Tok;
use crate::parser::{PResult, Parser};
use crate::KernelError;

/// Most mem-initializers read from one constructor's tokens.
const MAX_INITS: usize = 256;

impl Parser<'_> {
    /// Whether `e` names a reference or struct pointer member of a struct (`ts_` inside a
    /// member function, `this->ts_`, `r.ts_`): an alias of one bound struct object.
    pub(super) fn is_alias_member(&self, e: &Expr) -> bool {
        let (s, name) = match &e.kind {
            ExprKind::Member(b, f) => (self.struct_of(b), f),
            ExprKind::Ident(n) if self.self_field(n).is_some() => (self.self_struct.clone(), n),
            _ => return false,
        };
        s.and_then(|s| self.structs.get(&s)).is_some_and(|d| {
            d.fields
                .iter()
                .any(|f| f.by_ref && f.name == *name && matches!(f.ty, FieldTy::Struct(_)))
        })
    }

    /// Records which constructor parameter each reference (or struct pointer) member of
    /// `sname` is bound to by the initializer list that starts at the current token, under the
    /// constructor's function `func`. `params` are the constructor's parameters (a struct
    /// parameter as its leaves) and `own` its struct parameters, which give each parameter's
    /// index among the arguments a call writes. Reads tokens only; moves nothing.
    pub(super) fn note_ref_binds(
        &mut self,
        sname: &str,
        func: &str,
        params: &[Param],
        own: &[(String, SVar)],
    ) {
        let Some(def) = self.structs.get(sname) else {
            return;
        };
        if !def.fields.iter().any(|f| f.by_ref) || !matches!(self.peek(0), Tok::Punct(":")) {
            return;
        }
        // The parameters as a call writes them: a struct parameter once.
        let mut names: Vec<String> = Vec::new();
        for p in params {
            let n = own
                .iter()
                .find(|(n, sv)| sv.leaves.contains(&p.name) || p.name.starts_with(&format!("{n}.")))
                .map_or_else(|| p.name.clone(), |(n, _)| n.clone());
            if names.last() != Some(&n) {
                names.push(n);
            }
        }
        let mut binds = Vec::new();
        let mut k = 1;
        for _ in 0..MAX_INITS {
            let Tok::Ident(m) = self.peek(k) else { break };
            let close = match self.peek(k + 1) {
                Tok::Punct("(") => ")",
                Tok::Punct("{") => "}",
                _ => break,
            };
            let amp = usize::from(matches!(self.peek(k + 2), Tok::Punct("&")));
            if let (Tok::Ident(p), Tok::Punct(c)) = (self.peek(k + 2 + amp), self.peek(k + 3 + amp))
            {
                if *c == close && def.fields.iter().any(|f| f.by_ref && f.name == *m) {
                    if let Some(i) = names.iter().position(|n| n == p) {
                        binds.push((m.clone(), i));
                    }
                }
            }
            // To the end of this mem-initializer (bounded by the token budget).
            let mut depth = 0usize;
            k += 1;
            let limit = k + 4096;
            while k < limit {
                match self.peek(k) {
                    Tok::Punct("(" | "{" | "[") => depth += 1,
                    Tok::Punct(")" | "}" | "]") => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            k += 1;
                            break;
                        }
                    }
                    Tok::Eof => return,
                    _ => {}
                }
                k += 1;
            }
            if !matches!(self.peek(k), Tok::Punct(",")) {
                break;
            }
            k += 1;
        }
        if let Some(def) = self.structs.get_mut(sname) {
            def.ref_binds.insert(func.to_string(), binds);
        }
    }

    /// The variables a new object of `s`, built by constructor `func` from `args`, takes for
    /// its reference members: each bound member's leaves (`temp_storage_.partial`) mapped to
    /// the bound object's variables.
    ///
    /// # Errors
    /// A reference member the constructor leaves unbound, or one bound to an expression that is
    /// not a variable (or a struct variable) here.
    pub(super) fn ref_aliases(
        &mut self,
        s: &str,
        func: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<HashMap<String, Expr>> {
        let mut out = HashMap::new();
        let Some(def) = self.structs.get(s).cloned() else {
            return Ok(out);
        };
        let binds = def.ref_binds.get(func).cloned().unwrap_or_default();
        for f in def.fields.iter().filter(|f| f.by_ref) {
            let refuse = |what: &str| {
                KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "the reference member `{}` of `{s}` {what}; bind it in the \
                         constructor's initializer list to a parameter that is a reference \
                         (`{s}(T& t) : {}(t) {{}}`) and pass a variable",
                        f.name, f.name
                    ),
                )
            };
            let Some((_, i)) = binds.iter().find(|(m, _)| *m == f.name) else {
                return Err(refuse("is not bound to a constructor parameter here"));
            };
            let Some(arg) = args.get(*i) else {
                return Err(refuse("has no argument here"));
            };
            // `ts_(&t)` of a pointer member, or a pointer argument `&tmp`: the object itself.
            let arg = match &arg.kind {
                ExprKind::AddrOf(b) => (**b).clone(),
                _ => arg.clone(),
            };
            match &f.ty {
                FieldTy::Struct(inner) => {
                    let leaves: Leaves = match self.leaves_of(&arg, Some(inner))? {
                        Some((is, v)) if is == *inner => v,
                        _ => {
                            return Err(refuse(&format!(
                                "is bound to something that is not a `{inner}` variable here"
                            )))
                        }
                    };
                    for (p, e) in leaves {
                        if !matches!(e.kind, ExprKind::Ident(_)) {
                            return Err(refuse("is bound to a temporary or an element here"));
                        }
                        out.insert(format!("{}.{p}", f.name), e);
                    }
                }
                _ => {
                    let e = self.lower_struct(arg)?;
                    if !matches!(e.kind, ExprKind::Ident(_)) {
                        return Err(refuse("is bound to something that is not a variable here"));
                    }
                    out.insert(f.name.clone(), e);
                }
            }
        }
        Ok(out)
    }
}
