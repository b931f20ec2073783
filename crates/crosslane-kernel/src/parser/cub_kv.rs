//! CUB's and hipCUB's `KeyValuePair<K, V>` and the `ArgMax` / `ArgMin` reduction operators,
//! for `BlockReduce` / `WarpReduce` over pairs (an argmax of logits, a block top-k step).
//!
//! `cub::KeyValuePair<K, V>` is a struct of two members, `key` then `value` (CUB
//! `cub/util_type.cuh`, `struct KeyValuePair { Key key; Value value; … }`; its default
//! constructor initializes neither, so a pair declared without a value holds undefined
//! members here; `KeyValuePair(k, v)` sets both). It becomes a struct of the parser's own,
//! one per `K, V`, reduced by [`super::cub_record`] like any struct.
//!
//! `cub::ArgMax()(a, b)` returns `b` when `b.value > a.value`, or when the values are equal
//! and `b.key < a.key`, else `a`; `ArgMin` the same with `<` (CUB `cub/thread/thread_operators.cuh`,
//! `struct ArgMax`: "Boolean max operator, preferring the item having the smaller offset in
//! case of ties"; hipCUB's `ArgMax` / `ArgMin` and rocPRIM's `arg_max` / `arg_min` are written
//! the same). So equal values pick the smaller key whatever the order of combination. With a
//! NaN value every comparison is false and `a` is kept (no specialization for NaN is modelled).
//! The operator becomes a device function returning the pair (`__ret.*` reference
//! parameters, the convention of struct results).

use super::structs::{Field, FieldTy, StructDef};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Ty, ValTy};
use crate::KernelError;

/// The prefix of a pair's struct name (`__cub_KeyValuePair_int_float`).
const PAIR: &str = "__cub_KeyValuePair_";

impl Parser<'_> {
    /// Whether `[cub::|hipcub::]KeyValuePair<` starts here (a class of the source's own with
    /// that name is the source's).
    pub(super) fn cub_kv_starts(&self) -> bool {
        let mut k = 0;
        while matches!(self.peek(k), Tok::Ident(w) if w == "cub" || w == "hipcub")
            && matches!(self.peek(k + 1), Tok::Punct("::"))
        {
            k += 2;
        }
        matches!(self.peek(k), Tok::Ident(w) if w == "KeyValuePair" && !self.is_struct_name(w))
            && matches!(self.peek(k + 1), Tok::Punct("<"))
    }

    /// `cub::KeyValuePair<K, V>` read: the name of its struct (made once per `K, V`); `None`
    /// (position kept) when none starts here.
    ///
    /// # Errors
    /// A key or value that is not a scalar type, a list never closed.
    pub(super) fn cub_kv_type(&mut self) -> PResult<Option<String>> {
        if !self.cub_kv_starts() {
            return Ok(None);
        }
        let at = self.span();
        while !self.is_word("KeyValuePair") {
            self.bump();
        }
        self.bump();
        self.expect_punct("<")?;
        let no_gt = std::mem::replace(&mut self.no_gt, true);
        let r = self.cub_kv_args(at);
        self.no_gt = no_gt;
        let (k, v) = r?;
        if !self.close_angle() {
            return self.err("`>` closing KeyValuePair<K, V>");
        }
        // `half2` pairs (ONNX Runtime's `KeyValuePairSum` overloads) are named apart from
        // `half` ones.
        let tag = |t: ValTy| {
            let n = t.scalar.name().replace(' ', "_");
            if t.lanes > 1 {
                format!("{n}x{}", t.lanes)
            } else {
                n
            }
        };
        let name = format!("{PAIR}{}_{}", tag(k), tag(v));
        if !self.structs.contains_key(&name) {
            let field = |n: &str, t: ValTy| Field {
                name: n.to_string(),
                ty: FieldTy::Val(t),
                by_ref: false,
                default: None,
            };
            let def = StructDef {
                fields: vec![field("key", k), field("value", v)],
                ..StructDef::default()
            };
            self.structs.insert(name.clone(), def);
        }
        Ok(Some(name))
    }

    fn cub_kv_args(&mut self, at: Span) -> PResult<(ValTy, ValTy)> {
        let one = |p: &mut Self| match p.base_type() {
            // A scalar or a vector type (`half2`, `float2`): a member of the pair struct.
            Ok(Ty::Val(v)) => Ok(v),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "KeyValuePair<K, V>: K and V must be scalar or vector types here (int, float, \
                 half2, …)",
            )),
        };
        let k = one(self)?;
        self.expect_punct(",")?;
        let v = one(self)?;
        Ok((k, v))
    }

    /// `cub::KeyValuePair<K, V>(k, v)` or `{k, v}` in an expression: the pair's construction.
    ///
    /// # Errors
    /// As [`Parser::cub_kv_type`]; no `(` or `{` after the type.
    pub(super) fn cub_kv_expr(&mut self, span: Span) -> PResult<Expr> {
        let Some(s) = self.cub_kv_type()? else {
            return self.err("KeyValuePair<K, V>");
        };
        let args = if self.is_punct("{") {
            match self.brace_list()?.kind {
                ExprKind::Call(_, items) => items,
                _ => Vec::new(),
            }
        } else if self.eat("(") {
            self.args_closed_by(")")?
        } else {
            return self.err("`(` or `{` after KeyValuePair<K, V>");
        };
        self.node(ExprKind::Call(s, args), span)
    }

    /// The device function of `cub::ArgMax` (`max`) or `cub::ArgMin` over pair struct `s`
    /// (made once), its name.
    ///
    /// # Errors
    /// `s` is not a `KeyValuePair`.
    pub(super) fn cub_arg_op(&mut self, s: &str, max: bool, at: Span) -> PResult<String> {
        let fields = self.structs.get(s).map(|d| d.fields.clone());
        let (Some(fields), true) = (fields, s.starts_with(PAIR)) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cub::{} reduces cub::KeyValuePair<K, V> values; `{s}` is not one (write \
                     a functor for it)",
                    if max { "ArgMax" } else { "ArgMin" }
                ),
            ));
        };
        let ty = |i: usize| match fields[i].ty {
            FieldTy::Val(v) => v,
            _ => super::cub::INT,
        };
        let (kt, vt) = (ty(0), ty(1));
        let fname = format!("{s}_{}", if max { "argmax" } else { "argmin" });
        if self.fn_ret.contains_key(&fname) {
            return Ok(fname);
        }
        let param = |name: &str, t: ValTy, reference: bool| Param {
            name: name.to_string(),
            ty: Ty::Val(t),
            reference,
            const_ref: false,
            span: at,
        };
        let params = vec![
            param("__ret.key", kt, true),
            param("__ret.value", vt, true),
            param("a.key", kt, false),
            param("a.value", vt, false),
            param("b.key", kt, false),
            param("b.value", vt, false),
        ];
        let id = |p: &mut Self, n: &str| p.e_ident(at, n);
        // (b.value > a.value) || (a.value == b.value && b.key < a.key)
        let (bv, av) = (id(self, "b.value"), id(self, "a.value"));
        let better = self.e_bin(at, if max { BinOp::Gt } else { BinOp::Lt }, bv, av);
        let (av, bv) = (id(self, "a.value"), id(self, "b.value"));
        let tie = self.e_bin(at, BinOp::Eq, av, bv);
        let (bk, ak) = (id(self, "b.key"), id(self, "a.key"));
        let smaller = self.e_bin(at, BinOp::Lt, bk, ak);
        let s1 = self.syn_span(at);
        let tie_small = Expr::new(
            ExprKind::Logical(true, Box::new(tie), Box::new(smaller)),
            s1,
        );
        let s2 = self.syn_span(at);
        let pick_b = Expr::new(
            ExprKind::Logical(false, Box::new(better), Box::new(tie_small)),
            s2,
        );
        let stmt = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let copy = |p: &mut Self, from: &str| {
            let mut out = Vec::new();
            for m in ["key", "value"] {
                let t = p.e_ident(at, &format!("__ret.{m}"));
                let v = p.e_ident(at, &format!("{from}.{m}"));
                let s = p.syn_span(at);
                out.push(stmt(StmtKind::Expr(Expr::new(
                    ExprKind::Assign(None, Box::new(t), Box::new(v)),
                    s,
                ))));
            }
            stmt(StmtKind::Block(out))
        };
        let (take_b, take_a) = (copy(self, "b"), copy(self, "a"));
        let body = stmt(StmtKind::Block(vec![
            stmt(StmtKind::If(
                pick_b,
                Box::new(take_b),
                Some(Box::new(take_a)),
            )),
            stmt(StmtKind::Return(None)),
        ]));
        self.fn_ret.insert(fname.clone(), s.to_string());
        self.push_built_fn(&fname, Ty::Void, params, body, at);
        Ok(fname)
    }
}
