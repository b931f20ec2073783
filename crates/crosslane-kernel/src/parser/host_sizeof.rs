//! `sizeof` of a host pointer's or array's element in host code: `cudaMallocManaged(&data, N *
//! sizeof(data[0]))`, `sizeof(*data) * N`, `sizeof h[0]`. The operand is not evaluated
//! ([expr.sizeof]/1); its type is the element type of the declared pointer or array
//! ([expr.sub]/1: `E1[E2]` is `*((E1)+(E2))`, [expr.unary.op]/1: `*p` of a `T*` is a `T`), so
//! its size is the element type's: a scalar's or vector's bytes, a struct's layout size
//! (C++17 [expr.sizeof]/2, the parser's one layout, `structs`).
//!
//! The host reading records each host declaration `T *p` / `T p[N]` with the element's size
//! ([`Parser::record_host_elem`]); a host expression's tokens are then rewritten with the size
//! as a `size_t` literal before they are parsed ([`Parser::host_elem_sizes`]), as `sizeof(S)` of
//! a struct is.

use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::types::Ty;

impl Parser<'_> {
    /// The declarator over `from..` of the host declaration starting at `k`, whose name is the
    /// token before `i`: when it declares a pointer `T *p` (one `*`) or a one-dimensional array
    /// `T p[N]` of a type the reading knows, records `p`'s element size; otherwise forgets any
    /// earlier record of the name (a later declaration hides it, [basic.scope.block]/1).
    pub(super) fn record_host_elem(&mut self, k: usize, from: usize, i: usize, name: &str) {
        let toks = self.toks;
        self.host_elems.remove(name);
        self.host_scalars.remove(name);
        self.host_struct_of.remove(name);
        let stars = toks[from..i - 1]
            .iter()
            .filter(|t| matches!(t.tok, Tok::Punct("*")))
            .count();
        let refs = toks[from..i - 1]
            .iter()
            .any(|t| matches!(t.tok, Tok::Punct("&" | "&&")));
        let array = matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Punct("[")))
            && self
                .closing(i)
                .is_some_and(|c| !matches!(toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("["))));
        if refs || !matches!((stars, array), (1, false) | (0, true)) {
            return;
        }
        // The declaration's type: its words before the first declarator's `*`, or before its
        // name; a storage class (`static float h[N];`) is no part of it ([dcl.stc]).
        let mut k = k;
        while matches!(toks.get(k).map(|t| &t.tok), Some(Tok::Ident(w)) if matches!(w.as_str(), "static" | "thread_local" | "extern"))
        {
            k += 1;
        }
        let mut end = k;
        while end < toks.len() && matches!(toks[end].tok, Tok::Ident(_) | Tok::Punct("::")) {
            end += 1;
        }
        if !matches!(toks.get(end).map(|t| &t.tok), Some(Tok::Punct("*"))) {
            end = end.saturating_sub(1);
        }
        if end <= k {
            return;
        }
        if let Some(bytes) = self.type_bytes(k, end) {
            self.host_elems.insert(name.to_string(), bytes);
        }
        if let Some(v) = self.host_type(k, end).filter(|v| v.lanes <= 1) {
            self.host_scalars.insert(name.to_string(), v.scalar);
        }
        // A host array of structs: its struct, for a fill of an array member (`h[i].v[j]`).
        let last = toks[k..end].iter().rev().find_map(|t| match &t.tok {
            Tok::Ident(w) => Some(w.as_str()),
            _ => None,
        });
        if let Some(s) = last.filter(|s| array && self.structs.contains_key(*s)) {
            self.host_struct_of.insert(name.to_string(), s.to_string());
        }
    }

    /// The length of array member `field` of the struct of host array `arr` (`4` of `float
    /// v[4];`), when `arr` is a host array of a struct the file defines and `field` is one of
    /// its array members of scalars or vectors.
    pub(super) fn host_member_len(&self, arr: &str, field: &str) -> Option<u32> {
        let s = self.host_struct_of.get(arr)?;
        self.structs
            .get(s)?
            .fields
            .iter()
            .find(|f| f.name == field)
            .and_then(|f| match f.ty {
                super::structs::FieldTy::Arr(_, n) => Some(n),
                _ => None,
            })
    }

    /// The size of the type spelled by tokens `from..to`: a scalar or vector type's bytes, a
    /// struct's layout size; `None` for anything else.
    fn type_bytes(&mut self, from: usize, to: usize) -> Option<u64> {
        let toks = self.toks;
        let words: Vec<&str> = toks[from..to]
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(w) if !matches!(w.as_str(), "const" | "volatile" | "static") => {
                    Some(w.as_str())
                }
                _ => None,
            })
            .collect();
        let at = Span {
            line: toks[from].line,
            col: toks[from].col,
        };
        match words.as_slice() {
            [s] | ["struct", s] if self.structs.contains_key(*s) => {
                return self.struct_size(s, at).ok();
            }
            _ => {}
        }
        let mut slice: Vec<Token> = toks[from..to].to_vec();
        slice.push(Token {
            tok: Tok::Eof,
            ..toks[to - 1].clone()
        });
        let mut sub = Parser::new(&slice, self.comments, self.max_depth);
        sub.aliases = std::mem::take(&mut self.aliases);
        let ty = sub.base_type();
        let done = matches!(sub.peek(0), Tok::Eof);
        self.aliases = std::mem::take(&mut sub.aliases);
        match ty {
            Ok(Ty::Val(v)) if done => Some(super::structs::value_layout_of(v).0),
            _ => None,
        }
    }

    /// Rewrites `sizeof(p[…])`, `sizeof(*p)`, `sizeof p[…]` and `sizeof *p` of a recorded host
    /// pointer or array `p` in `slice` as the element's size, a `size_t` literal
    /// ([expr.sizeof]/6). One pass; each token is moved once.
    pub(super) fn host_elem_sizes(&self, slice: &mut Vec<Token>) {
        if self.host_elems.is_empty()
            || !slice
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "sizeof"))
        {
            return;
        }
        let tok = |s: &[Token], i: usize| s.get(i).map(|t| t.tok.clone());
        let mut out: Vec<Token> = Vec::with_capacity(slice.len());
        let mut k = 0;
        while k < slice.len() {
            let found = match &slice[k].tok {
                Tok::Ident(w) if w == "sizeof" => {
                    let paren = tok(slice, k + 1) == Some(Tok::Punct("("));
                    let at = k + 1 + usize::from(paren);
                    self.elem_operand(slice, at).and_then(|(bytes, after)| {
                        if !paren {
                            return Some((bytes, after));
                        }
                        (tok(slice, after) == Some(Tok::Punct(")"))).then_some((bytes, after + 1))
                    })
                }
                _ => None,
            };
            match found {
                Some((value, after)) => {
                    out.push(Token {
                        tok: Tok::Int {
                            value,
                            unsigned: true,
                            long: true,
                        },
                        end: slice[after - 1].end,
                        ..slice[k].clone()
                    });
                    k = after;
                }
                None => {
                    out.push(slice[k].clone());
                    k += 1;
                }
            }
        }
        *slice = out;
    }

    /// `*p` or `p[…]` of a recorded host name at `at` in `slice`: the element's bytes and the
    /// index after the operand.
    fn elem_operand(&self, slice: &[Token], at: usize) -> Option<(u64, usize)> {
        let name = |i: usize| match slice.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(n)) => self.host_elems.get(n).copied(),
            _ => None,
        };
        if matches!(slice.get(at).map(|t| &t.tok), Some(Tok::Punct("*"))) {
            return name(at + 1).map(|b| (b, at + 2));
        }
        let bytes = name(at)?;
        if !matches!(slice.get(at + 1).map(|t| &t.tok), Some(Tok::Punct("["))) {
            return None;
        }
        let mut depth = 0usize;
        for (i, t) in slice.iter().enumerate().skip(at + 1) {
            match t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return matches!(t.tok, Tok::Punct("]")).then_some((bytes, i + 1));
                    }
                }
                _ => {}
            }
        }
        None
    }
}
