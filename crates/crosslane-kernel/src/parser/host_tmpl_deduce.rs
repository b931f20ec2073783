//! Host calls of a function template whose arguments are deduced, read for their value:
//! `int grid = ceil_div(n, block);` with `template <typename T> __host__ __device__ constexpr
//! T ceil_div(T a, T b) { return (a + b - 1) / b; }` (FlashInfer's and CUTLASS's helper
//! shape, a grid or block size computed in host code).
//!
//! C++17 [temp.deduct.call]/1-4: each template type parameter that is a function parameter's
//! type by value (`T a`) is deduced from that argument's type, top-level cv-qualifiers dropped;
//! two arguments deducing different types make the call ill-formed ([temp.deduct.type]/2), so
//! no value is read then. The argument's type is read where it is certain: an integer literal
//! (`int`, or `unsigned`/`long` by its suffix, [lex.icon]) or a host variable whose declaration
//! names an arithmetic type. The instance is then a host helper as an explicit call's is
//! ([`super::host_tmpl_call`]): evaluated with each parameter bound to its argument
//! ([expr.call]/4). Any other shape (a pointer parameter, a value parameter, a pack, an
//! argument of an unread type) leaves the call as written, its value unknown.
//!
//! Bounded: one pass over the call's arguments; the instance is parsed once per source.

use super::host_text::split_commas;
use super::overload::AType;
use super::targs::TArg;
use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::types::{Scalar, ValTy};

impl Parser<'_> {
    /// The instance that `slice[k](…)` calls, `slice[k]` a host function template whose
    /// parameters its arguments deduce (see the module documentation).
    pub(super) fn host_deduced_instance(
        &mut self,
        name: String,
        slice: &[Token],
        k: usize,
    ) -> Option<String> {
        let upto = self.host_slice_at? + k;
        let keys = self.host_tmpl_keys(&name);
        let [key] = keys.as_slice() else {
            return None;
        };
        let key = key.clone();
        let open = k + 1;
        let close = close_of(slice, open)?;
        let ranges = split_commas(slice, open + 1, close);
        let ranges = if close == open + 1 {
            Vec::new()
        } else {
            ranges
        };
        if self.tmpl_arity(&key) != Some(ranges.len()) {
            return None;
        }
        let t = self.templates.get(&key)?;
        let params = t.params().to_vec();
        let (from, ptr) = t.deduce_sources();
        let (from, ptr) = (from.to_vec(), ptr.to_vec());
        let mut deduced = Vec::new();
        for p in &params {
            if p.pack || p.value.is_some() || p.named {
                return None;
            }
            let mut found: Option<ValTy> = None;
            for (i, d) in from.iter().enumerate() {
                if d.as_deref() != Some(p.name.as_str()) {
                    continue;
                }
                if ptr.get(i) != Some(&false) {
                    return None;
                }
                let &(a, b) = ranges.get(i)?;
                let ty = self.slice_arg_type(slice.get(a..b)?, upto)?;
                match found {
                    Some(f) if f != ty => return None,
                    _ => found = Some(ty),
                }
            }
            deduced.push(TArg::Type(found?));
        }
        let at = Span {
            line: slice[k].line,
            col: slice[k].col,
        };
        if !self.tmpl_viable(&key, &deduced, at) {
            return None;
        }
        let (_, bound) = self.bind_call(&key, deduced, &[], at).ok()?;
        let inst = super::targs::mangle(&key, &bound);
        self.host_instance((inst.clone(), key, bound), 0)?;
        Some(inst)
    }

    /// The type of a host call's argument `part` when it is certain: an integer literal's, or
    /// a host variable's declared arithmetic type (its declaration before token `upto`).
    fn slice_arg_type(&self, part: &[Token], upto: usize) -> Option<ValTy> {
        let [one] = part else {
            return None;
        };
        let s = match &one.tok {
            Tok::Int { unsigned, long, .. } => match (unsigned, long) {
                (false, false) => Scalar::I32,
                (true, false) => Scalar::U32,
                (false, true) => Scalar::I64,
                (true, true) => Scalar::U64,
            },
            Tok::Ident(n) => match self.host_decl_type(upto, n) {
                AType::Val(v) if v.lanes == 1 => return Some(v),
                _ => return None,
            },
            _ => return None,
        };
        Some(ValTy::scalar(s))
    }
}

/// The index of the `)` closing the `(` at `open` in `slice`.
fn close_of(slice: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in slice.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}
