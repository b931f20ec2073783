//! CUB / hipCUB `WarpReduce` and `BlockReduce` over a struct (`cub::BlockReduce<TopK_2, 64>`
//! with `Reduce(partial, reduce_topk_op_2)`, FasterTransformer's and TensorRT-LLM's top-k
//! sampling): the collective of [`super::cub`] with each value a struct's members.
//!
//! CUB shuffles a value that is no primitive word by word (CUB `ShuffleDown` copies the
//! value's 32-bit words through `SHFL_DOWN`); a member's words arrive whole in the same lane,
//! so shuffling each member ("leaf") gives the same value. The operator is a device function
//! or a stateless functor taking two structs and returning one (CUB: any binary functor); it
//! is called at the same points, in the same order, as the scalar reduction's `op(a, b)`
//! ([`super::cub`] derives the order from CUB's `WarpReduceShfl` and
//! `BlockReduceWarpReductions`, and from rocPRIM for hipCUB). Only lane 0 (warp) or thread 0
//! (block) holds the result; the other threads' members are undefined with the library's
//! reason. `Sum` of a struct (also `Reduce(x, cub::Sum())`) calls the struct's `operator+`
//! that overload resolution chooses ([`super::operators`]); `Max`/`Min` of a struct are
//! refused.
//!
//! The function is built already lowered: its parameters are the result's members (`__ret.*`,
//! references), the value's, the valid count, and for a block the `TempStorage`'s member
//! arrays (a `__shared__` array of the struct, one array per member).

use super::cub::{Body, CubClass, Kind, Op, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty, ValTy};
use crate::KernelError;

/// A struct's scalar members by path (`p`, `u`, `inner.x`).
type Members = Vec<(String, ValTy)>;

impl Parser<'_> {
    /// `R(t).Reduce(x, op[, valid])` of a collective over struct `c.record`, after the
    /// method's name (`method`, at `m_at`): the call of its device function, a struct value
    /// (the caller's lowering gives it a temporary).
    ///
    /// # Errors
    /// `Sum` or another method; an operator that is not a device function or stateless
    /// functor; a struct with array or pointer members.
    pub(super) fn cub_record_call(
        &mut self,
        c: &CubClass,
        storage: Expr,
        method: &str,
        m_at: Span,
        at: Span,
    ) -> PResult<Expr> {
        let s = c.record.clone().unwrap_or_default();
        if method != "Reduce" && method != "Sum" {
            return Err(KernelError::new(
                m_at.line,
                m_at.col,
                format!(
                    "{method} of a struct `{s}` is not modelled here: write Reduce(x, op) with \
                     op combining two `{s}` values, or Sum(x) with `{s}`'s `operator+`"
                ),
            ));
        }
        self.expect_punct("(")?;
        let x = self.assign_expr()?;
        let op_at = self.span();
        let op = if method == "Sum" {
            Op::Sum
        } else {
            self.expect_punct(",")?;
            self.cub_op()?
        };
        let op = match op {
            Op::ArgMax => Op::Func(self.cub_arg_op(&s, true, op_at)?),
            Op::ArgMin => Op::Func(self.cub_arg_op(&s, false, op_at)?),
            // `cub::Sum`'s `a + b` ([`super::operators`]): the struct's `operator+`.
            Op::Sum => Op::Func(self.record_plus(&x, op_at)?),
            op => op,
        };
        let Op::Func(f) = &op else {
            return Err(KernelError::new(
                op_at.line,
                op_at.col,
                format!(
                    "a reduction of struct `{s}` needs an operator combining two `{s}` values (a \
                     device function or a functor, or cub::Sum with `{s}`'s `operator+`); \
                     cub::Max/Min of a struct are not modelled here"
                ),
            ));
        };
        // A device function's struct result, or a functor's `operator()`'s.
        let returns = self.fn_ret.get(f).cloned().or_else(|| {
            self.structs.values().find_map(|d| {
                d.methods.values().find_map(|m| match &m.ret {
                    super::structs::Ret::Struct(r) if m.func == *f => Some(r.clone()),
                    _ => None,
                })
            })
        });
        if returns.as_ref() != Some(&s) {
            return Err(KernelError::new(
                op_at.line,
                op_at.col,
                format!("the reduction operator must return a `{s}` here"),
            ));
        }
        let valid = self.cub_rest()?;
        let members = self.record_members(&s, at)?;
        let fname = self.cub_record_function(c, &s, &members, &op, valid.is_some(), at);
        let mut args = vec![x];
        args.extend(valid);
        if c.kind == Kind::BlockReduce {
            let st = self.cub_storage_arg(c, storage, at)?;
            self.cub_storage_use(&st, at);
            // The storage as `&t[k]`: each member array's pointer ([`Parser::expand_args`]).
            let st = match st.kind {
                ExprKind::AddrOf(_) => st,
                _ => {
                    let z = self.e_int(at, 0);
                    let sp = self.syn_span(at);
                    let cell = Expr::new(ExprKind::Index(Box::new(st), Box::new(z)), sp);
                    let sp = self.syn_span(at);
                    Expr::new(ExprKind::AddrOf(Box::new(cell)), sp)
                }
            };
            args.push(st);
        }
        let sp = self.syn_span(at);
        Ok(Expr::new(ExprKind::Call(fname, args), sp))
    }

    /// The device function of the `operator+` that `x + x` calls ([over.match.oper]), for
    /// `cub::Sum` of a struct: a member's receiver members and a free operator's first
    /// parameter's come in the same place, after `__ret.*`.
    ///
    /// # Errors
    /// No `operator+` for the struct, or several equally good.
    fn record_plus(&mut self, x: &Expr, at: Span) -> PResult<String> {
        let Some(key) = self.self_operator_key("+", x, at)? else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "cub::Sum of a struct needs the struct's `operator+`",
            ));
        };
        let Some(m) = key.strip_prefix("@m:") else {
            return Ok(key);
        };
        let s = self.struct_of(x).unwrap_or_default();
        Ok(self
            .structs
            .get(&s)
            .and_then(|d| d.methods.get(m))
            .map_or(key.clone(), |m| m.func.clone()))
    }

    /// The scalar members of struct `s`.
    ///
    /// # Errors
    /// An array or pointer member (CUB would shuffle its words; not modelled).
    fn record_members(&self, s: &str, at: Span) -> PResult<Members> {
        let mut out = Vec::new();
        for l in self.leaves(s, at)? {
            match l.ty {
                Ty::Val(v) if l.count == 0 => out.push((l.path, v)),
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "a CUB reduction of `{s}`, whose member `{}` is an array or a \
                             pointer, is not modelled here",
                            l.path
                        ),
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The device function of a collective over struct `s` with operator `op` (made once per
    /// shape), its name.
    fn cub_record_function(
        &mut self,
        c: &CubClass,
        s: &str,
        members: &Members,
        op: &Op,
        valid: bool,
        at: Span,
    ) -> String {
        let kind = match c.kind {
            Kind::BlockReduce => "block_reduce",
            _ => "warp_reduce",
        };
        let lib = if self.hip { "hipcub" } else { "cub" };
        let tag = |x: &str| x.replace(|ch: char| !ch.is_ascii_alphanumeric(), "_");
        let fname = format!(
            "__{lib}_{kind}_{}_{}_{}_w{}{}",
            op.tag(),
            tag(s),
            c.threads,
            self.cub_warp(),
            if valid { "_valid" } else { "" }
        );
        if self.fn_ret.contains_key(&fname) {
            return fname;
        }
        let r = Record {
            b: Body::new(self, c, at),
            members: members.clone(),
            op: match op {
                Op::Func(f) => f.clone(),
                _ => String::new(),
            },
            temps: 0,
        };
        let (params, body) = if c.kind == Kind::BlockReduce {
            r.block_reduce(self, valid)
        } else {
            r.warp_reduce(self, valid)
        };
        self.fn_ret.insert(fname.clone(), s.to_string());
        self.push_built_fn(&fname, Ty::Void, params, body, at);
        fname
    }
}

/// Builds one struct collective's device function.
struct Record {
    b: Body,
    members: Members,
    /// The operator's device function (`__ret.*` first, then the two values' members).
    op: String,
    /// Temporaries made so far (their names differ).
    temps: u32,
}

impl Record {
    /// `prefix.member` for each member.
    fn names(&self, prefix: &str) -> Vec<String> {
        self.members
            .iter()
            .map(|(m, _)| format!("{prefix}.{m}"))
            .collect()
    }

    /// Declares `prefix.member = init(member's name in v)` for each member.
    fn decl_all(
        &self,
        p: &mut Parser<'_>,
        prefix: &str,
        mut init: impl FnMut(&mut Parser<'_>, &str) -> Expr,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (m, ty) in self.members.clone() {
            let e = init(p, &m);
            let span = p.syn_span(self.b.at);
            out.push(self.b.stmt(StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: format!("{prefix}.{m}"),
                    ty: Ty::Val(ty),
                    array: None,
                    init: Some(e),
                    span,
                    id: NodeId::fresh(),
                }],
            )));
        }
        out
    }

    /// `v = op(v, other)`: the operator's call into a fresh result, then its members into `v`.
    fn combine(&mut self, p: &mut Parser<'_>, other: &str) -> Vec<Stmt> {
        let at = self.b.at;
        self.temps += 1;
        let r = format!("__r{}", self.temps);
        let mut out = self.decl_all(p, &r, |p, m| p.e_ident(at, &format!("v.{m}")));
        let mut args = Vec::new();
        for prefix in [r.as_str(), "v", other] {
            for n in self.names(prefix) {
                args.push(p.e_ident(at, &n));
            }
        }
        let call = p.e_call(at, &self.op, args);
        out.push(self.b.stmt(StmtKind::Expr(call)));
        for (v, rn) in self.names("v").into_iter().zip(self.names(&r)) {
            let e = p.e_ident(at, &rn);
            out.push(self.b.assign(p, &v, e));
        }
        out
    }

    /// The shuffle tree over `width` lanes on `v` (lane variable `lane`): at offsets 1, 2, 4,
    /// …, each member shuffled down, then `v = op(v, other)` where `lane + off < valid`.
    fn tree(&mut self, p: &mut Parser<'_>, width: u32, valid: &Expr) {
        let at = self.b.at;
        let mut off = 1;
        while off < width {
            self.temps += 1;
            let o = format!("__o{}", self.temps);
            let shuffled = self.decl_all(p, &o, |p, m| {
                self.b.shfl_down(p, &format!("v.{m}"), off, width)
            });
            self.b.stmts.extend(shuffled);
            let l = p.e_ident(at, "lane");
            let eo = p.e_int(at, i64::from(off));
            let sum = p.e_bin(at, BinOp::Add, l, eo);
            let cond = p.e_bin(at, BinOp::Lt, sum, valid.clone());
            let comb = self.combine(p, &o);
            let block = self.b.stmt(StmtKind::Block(comb));
            let s = self.b.when(cond, block);
            self.b.stmts.push(s);
            off <<= 1;
        }
    }

    /// The parameters: the result's members (references), the value's.
    fn params(&self) -> Vec<Param> {
        let mut out: Vec<Param> = self
            .members
            .iter()
            .map(|(m, ty)| Param {
                name: format!("__ret.{m}"),
                ty: Ty::Val(*ty),
                reference: true,
                const_ref: false,
                span: self.b.at,
            })
            .collect();
        for (m, ty) in &self.members {
            out.push(self.b.param(&format!("v.{m}"), Ty::Val(*ty)));
        }
        out
    }

    /// `__ret.m = __crosslane_valid_only(v.m, cond, why)` for each member, then `return;`.
    fn finish(mut self, p: &mut Parser<'_>, cond: Expr, why: String) -> Stmt {
        let at = self.b.at;
        for (ret, v) in self.names("__ret").into_iter().zip(self.names("v")) {
            let ev = p.e_ident(at, &v);
            let sp = p.syn_span(at);
            let w = Expr::new(ExprKind::Str(why.clone()), sp);
            let r = p.e_call(at, crate::builtins::VALID_ONLY, vec![ev, cond.clone(), w]);
            let s = self.b.assign(p, &ret, r);
            self.b.stmts.push(s);
        }
        let ret = self.b.stmt(StmtKind::Return(None));
        self.b.stmts.push(ret);
        let stmts = std::mem::take(&mut self.b.stmts);
        self.b.stmt(StmtKind::Block(stmts))
    }

    fn warp_reduce(mut self, p: &mut Parser<'_>, valid: bool) -> (Vec<Param>, Stmt) {
        let at = self.b.at;
        let n = self.b.threads;
        let mut params = self.params();
        let lane_id = p.e_lane(at);
        let nn = p.e_int(at, i64::from(n));
        let lane = p.e_bin(at, BinOp::Rem, lane_id, nn);
        self.b.decl(p, "lane", INT, lane);
        let limit = if valid {
            params.push(self.b.param("valid", Ty::Val(INT)));
            p.e_ident(at, "valid")
        } else {
            p.e_int(at, i64::from(n))
        };
        self.tree(p, n, &limit);
        let (l, z) = (p.e_ident(at, "lane"), p.e_int(at, 0));
        let cond = p.e_bin(at, BinOp::Eq, l, z);
        let why = if self.b.hip {
            format!(
                "hipcub::WarpReduce<T, {n}> returns the reduction to the first lane of each \
                 logical warp only (hipCUB / rocPRIM warp_reduce: the result is valid in lane 0); \
                 this lane's result is undefined"
            )
        } else {
            format!(
                "cub::WarpReduce<T, {n}> returns the aggregate to lane 0 of each logical warp only \
                 (CUB API, WarpReduce::Reduce: \"the output is valid in warp lane 0\"); this \
                 lane's result is undefined"
            )
        };
        (params, self.finish(p, cond, why))
    }

    fn block_reduce(mut self, p: &mut Parser<'_>, valid: bool) -> (Vec<Param>, Stmt) {
        let at = self.b.at;
        let ws = self.b.warp;
        let threads = self.b.threads;
        let warps = threads.div_ceil(ws).max(1);
        let mut params = self.params();
        if valid {
            params.push(self.b.param("num_valid", Ty::Val(INT)));
        }
        for (m, ty) in &self.members {
            params.push(self.b.param(&format!("agg.{m}"), Ty::Ptr(*ty)));
        }
        let lin = p.e_linear(at);
        self.b.decl(p, "tid", INT, lin);
        let num_valid = if valid {
            p.e_ident(at, "num_valid")
        } else {
            p.e_int(at, i64::from(threads))
        };
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(ws)));
        let lane = p.e_bin(at, BinOp::Rem, t, w);
        self.b.decl(p, "lane", INT, lane);
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(ws)));
        let warp = p.e_bin(at, BinOp::Div, t, w);
        self.b.decl(p, "warp", INT, warp);
        let (wi, w) = (p.e_ident(at, "warp"), p.e_int(at, i64::from(ws)));
        let first = p.e_bin(at, BinOp::Mul, wi, w);
        let wn = p.e_bin(at, BinOp::Sub, num_valid.clone(), first);
        self.b.decl(p, "warp_valid", INT, wn);
        let limit = p.e_ident(at, "warp_valid");
        self.tree(p, ws.min(threads.next_power_of_two()), &limit);
        // Lane 0 of each warp stores its aggregate's members; then a barrier.
        let mut stores = Vec::new();
        for (a, v) in self.names("agg").into_iter().zip(self.names("v")) {
            let cell = cell(p, at, &a, "warp");
            let ev = p.e_ident(at, &v);
            let sp = p.syn_span(at);
            let e = Expr::new(ExprKind::Assign(None, Box::new(cell), Box::new(ev)), sp);
            stores.push(self.b.stmt(StmtKind::Expr(e)));
        }
        let (l, z) = (p.e_ident(at, "lane"), p.e_int(at, 0));
        let lane0 = p.e_bin(at, BinOp::Eq, l, z);
        let block = self.b.stmt(StmtKind::Block(stores));
        let st = self.b.when(lane0, block);
        self.b.stmts.push(st);
        let sync = p.e_call(at, "__syncthreads", Vec::new());
        let st = self.b.stmt(StmtKind::Expr(sync));
        self.b.stmts.push(st);
        if self.b.hip {
            self.hip_second_stage(p, warps, &num_valid);
        } else {
            self.cuda_second_stage(p, warps, &num_valid);
        }
        let (t, z) = (p.e_ident(at, "tid"), p.e_int(at, 0));
        let cond = p.e_bin(at, BinOp::Eq, t, z);
        let why = if self.b.hip {
            format!(
                "hipcub::BlockReduce<T, {threads}> returns the block-wide reduction to thread 0 \
                 only (hipCUB / rocPRIM block_reduce: the result is valid in the first thread); \
                 this thread's result is undefined"
            )
        } else {
            format!(
                "cub::BlockReduce<T, {threads}> returns the block-wide aggregate to thread 0 only \
                 (CUB API, BlockReduce::Reduce: \"the return value is undefined in threads other \
                 than thread 0\")"
            )
        };
        (params, self.finish(p, cond, why))
    }

    /// CUB: thread 0 folds the warp aggregates left to right, `v = op(v, agg[k])` for each
    /// k ≥ 1 with `ws · k < num_valid` (`BlockReduceWarpReductions::ApplyWarpAggregates`).
    fn cuda_second_stage(&mut self, p: &mut Parser<'_>, warps: u32, num_valid: &Expr) {
        let at = self.b.at;
        let mut inner = Vec::new();
        for k in 1..warps {
            let a = format!("__agg{k}");
            let mut body = self.decl_all(p, &a, |p, m| {
                let i = p.e_int(at, i64::from(k));
                let base = p.e_ident(at, &format!("agg.{m}"));
                let sp = p.syn_span(at);
                Expr::new(ExprKind::Index(Box::new(base), Box::new(i)), sp)
            });
            body.extend(self.combine(p, &a));
            let inside = self.b.stmt(StmtKind::Block(body));
            let first = p.e_int(at, i64::from(k * self.b.warp));
            let cond = p.e_bin(at, BinOp::Lt, first, num_valid.clone());
            inner.push(self.b.when(cond, inside));
        }
        if inner.is_empty() {
            return;
        }
        let (t, z) = (p.e_ident(at, "tid"), p.e_int(at, 0));
        let cond = p.e_bin(at, BinOp::Eq, t, z);
        let block = self.b.stmt(StmtKind::Block(inner));
        let s = self.b.when(cond, block);
        self.b.stmts.push(s);
    }

    /// rocPRIM: the first warp reads the partials (lane k the k-th) and reduces them with a
    /// second shuffle tree over the next power of two of the warp count, valid partials
    /// `⌈num_valid / ws⌉`.
    fn hip_second_stage(&mut self, p: &mut Parser<'_>, warps: u32, num_valid: &Expr) {
        let at = self.b.at;
        if warps <= 1 {
            return;
        }
        let ws = i64::from(self.b.warp);
        let up = p.e_int(at, ws - 1);
        let sum = p.e_bin(at, BinOp::Add, num_valid.clone(), up);
        let w = p.e_int(at, ws);
        let nw = p.e_bin(at, BinOp::Div, sum, w);
        let outer = std::mem::take(&mut self.b.stmts);
        self.b.decl(p, "valid_warps", INT, nw);
        let mut reads = Vec::new();
        for (v, a) in self.names("v").into_iter().zip(self.names("agg")) {
            let c = cell(p, at, &a, "lane");
            reads.push(self.b.assign(p, &v, c));
        }
        let (l, vw) = (p.e_ident(at, "lane"), p.e_ident(at, "valid_warps"));
        let has = p.e_bin(at, BinOp::Lt, l, vw);
        let block = self.b.stmt(StmtKind::Block(reads));
        let s = self.b.when(has, block);
        self.b.stmts.push(s);
        let limit = p.e_ident(at, "valid_warps");
        self.tree(p, warps.next_power_of_two(), &limit);
        let inner = std::mem::replace(&mut self.b.stmts, outer);
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, ws));
        let first_warp = p.e_bin(at, BinOp::Lt, t, w);
        let block = self.b.stmt(StmtKind::Block(inner));
        let s = self.b.when(first_warp, block);
        self.b.stmts.push(s);
    }
}

/// `array[index]` of two variables.
fn cell(p: &mut Parser<'_>, at: Span, array: &str, index: &str) -> Expr {
    let (a, i) = (p.e_ident(at, array), p.e_ident(at, index));
    let sp = p.syn_span(at);
    Expr::new(ExprKind::Index(Box::new(a), Box::new(i)), sp)
}
