//! The device functions that `cg::reduce`, `cg::inclusive_scan` and `cg::exclusive_scan` call,
//! built as syntax-tree nodes ([`super::build`]), never as C++ text: one per collective,
//! operator, group size and value type (`__cg_reduce_plus_16<int>`). The value is a scalar or a
//! struct of scalar members (shuffled member by member, as the library moves a trivially
//! copyable type in 32-bit pieces); the operator a `cg::` function object, a struct's operator
//! it names (`cg::plus<MV>()`: `MV`'s `operator+`, chosen by overload resolution, C++17
//! [over.match.oper]), a lambda or a function object (its `operator()`, a generic lambda's
//! instance for the value's type, called with the closure's members first).
//!
//! Source: CUDA C++ Programming Guide, Cooperative Groups, "reduce" ("the result of the
//! reduction to every thread in the group"), "inclusive_scan" / "exclusive_scan" (thread of
//! rank r gets the combination of ranks 0..=r, or 0..r), over a `thread_block_tile` or a
//! `coalesced_group`, with the operators `cg::plus`, `cg::less`, `cg::greater`, `cg::bit_and`,
//! `cg::bit_or`, `cg::bit_xor` (C++ [function.objects]); HIP Programming Guide, "Cooperative
//! groups" (the same functions, tiles up to the wavefront).
//!
//! - A tile of `n`: `reduce` is a butterfly of the tile's `shfl_xor` (offsets n/2 … 1), the
//!   scans Kogge-Stone steps of its `shfl_up` (distances 1, 2, 4 … below n), the rank `r` the
//!   thread's linear rank modulo `n`; an exclusive scan reads the inclusive result of the rank
//!   below (rank 0: 0 with `plus`, no defined value with another operator). CUDA's shuffles
//!   take the tile's own lanes as their mask and are undefined where the block does not split
//!   into whole tiles of `n` ([`super::cg::partial_tile_why`]); HIP's take the tile as `width`.
//! - A coalesced group (members `m`): every member combines the members' values in rank order,
//!   rank 0 first (each step reads the member of rank k, `__fns(m, 0, k + 1)`), so every member
//!   gets the same result.

use super::build::Build;
pub(super) use super::cg_operator::{unknown_value_type, CgOperator};
use super::structs::Ret;
use super::targs::{mangle, TArg};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// The combining expression of a `cg::` operator over `a` and `b` (the variables `names`
/// holds: C++ [function.objects]: `plus` a + b, `less` / `greater` the smaller / larger,
/// `bit_and` / `bit_or` / `bit_xor`); the one table of them (`super::cg_scan` uses it too).
pub(super) fn combine(
    b: &mut Build<'_>,
    op: &str,
    name: &str,
    (a, bn): (&str, &str),
    at: Span,
) -> PResult<Expr> {
    let (x, y) = (b.ident(a), b.ident(bn));
    let bin = match op {
        "plus" => BinOp::Add,
        "bit_and" => BinOp::And,
        "bit_or" => BinOp::Or,
        "bit_xor" => BinOp::Xor,
        "less" | "greater" => {
            // `(b < a ? b : a)`, `(b > a ? b : a)`.
            let cmp = if op == "less" { BinOp::Lt } else { BinOp::Gt };
            let c = b.bin(cmp, y, x);
            let (y, x) = (b.ident(bn), b.ident(a));
            return Ok(b.ternary(c, y, x));
        }
        other => {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cg::{name} with cg::{other} is not supported here (plus, less, greater, \
                     bit_and, bit_or, bit_xor)"
                ),
            ))
        }
    };
    Ok(b.bin(bin, x, y))
}

/// `int`.
fn int_ty() -> Ty {
    Ty::Val(ValTy::scalar(Scalar::I32))
}

/// A collective's value: each member's suffix (`""` for a scalar; `.mean`, `.inner.x` for a
/// struct's scalar members) and type, and the struct it is.
pub(super) struct Shape {
    pub(super) members: Vec<(String, ValTy)>,
    pub(super) record: Option<String>,
}

impl Shape {
    /// `prefix` with each member's suffix (`v`, or `v.mean`, `v.m2`).
    fn names(&self, prefix: &str) -> Vec<String> {
        self.members
            .iter()
            .map(|(s, _)| format!("{prefix}{s}"))
            .collect()
    }
}

/// How a collective's step combines `a` (its own) and `b` (the value read) into `v`.
pub(super) enum Combine {
    /// A `cg::` operator over a scalar ([`combine`]).
    Op(String),
    /// A device function: a struct's `operator+` (`__r` = `f(a, b)`, then `v = __r`), a
    /// closure's or function object's `operator()` (its captures first, parameters `__op.*`)
    /// returning a struct or a scalar.
    Call {
        func: String,
        struct_ret: bool,
        closure: Vec<(String, Ty)>,
    },
    /// A struct's `operator<` / `operator>` (`cg::less`, `cg::greater`): `c = f(b, a)`, then
    /// each member `v = c ? b : a` (C++ [comparisons]: `less` keeps the smaller).
    Pick { func: String, ty: Ty },
}

impl Combine {
    /// The closure's members, the function's trailing parameters.
    fn closure(&self) -> &[(String, Ty)] {
        match self {
            Combine::Call { closure, .. } => closure,
            _ => &[],
        }
    }
}

/// How far a step reads: a loop variable or a constant.
#[derive(Clone, Copy)]
enum By<'n> {
    Var(&'n str),
    Const(u64),
}

/// A member's initializer by its index.
type Init<'f> = dyn FnMut(&mut Build<'_>, usize) -> Expr + 'f;

/// `name = init(k)` of the k-th member's type for each name: one declaration statement (a
/// struct value's members together, as the struct lowering declares a struct), `init` `None`
/// for names declared without a value.
fn decls(
    b: &mut Build<'_>,
    shape: &Shape,
    names: &[String],
    mut init: Option<&mut Init<'_>>,
) -> Stmt {
    let mut items = Vec::new();
    for (k, n) in names.iter().enumerate() {
        let e = init.as_mut().map(|f| f(b, k));
        items.push((n.clone(), Ty::Val(shape.members[k].1), e));
    }
    b.decls(items)
}

/// `(target[k] = from[k], …)` for each member, as one statement.
fn copies(b: &mut Build<'_>, target: &[String], from: &[String]) -> Vec<Stmt> {
    let mut sets = Vec::new();
    for (t, f) in target.iter().zip(from) {
        let (t, f) = (b.ident(t), b.ident(f));
        sets.push(b.assign(None, t, f));
    }
    b.comma(sets).map(|e| b.expr_stmt(e)).into_iter().collect()
}

/// `func(__r.*, __op.*, x.*, y.*)` as a statement after the declaration of `__r.*`: the
/// struct result of a function of two values.
fn struct_call(
    b: &mut Build<'_>,
    shape: &Shape,
    func: &str,
    closure: &[(String, Ty)],
    (x, y): (&str, &str),
) -> Vec<Stmt> {
    let r = shape.names("__r");
    let mut out = vec![decls(b, shape, &r, None)];
    let mut args: Vec<Expr> = r.iter().map(|n| b.ident(n)).collect();
    for (c, _) in closure {
        args.push(b.ident(&format!("__op{c}")));
    }
    for n in shape.names(x).iter().chain(&shape.names(y)) {
        args.push(b.ident(n));
    }
    let call = b.call(func, args);
    out.push(b.expr_stmt(call));
    out
}

impl Parser<'_> {
    /// The device function of `cg::{name}` over a tile of `n` for a value of shape `shape`
    /// combined by `how` (named by `tag`: the `cg::` operator, or the function's name), built
    /// once; its name (see the module comment). A struct value is shuffled member by member
    /// (the library moves a trivially copyable type in 32-bit pieces, each member's whole in
    /// the same lane); the function then takes its result as references `__ret.*` (the
    /// parser's struct lowering, `super::structs`). `minus`: a struct's `operator-`, for the
    /// exclusive scan with `cg::plus` (rank r's inclusive result less its own value).
    ///
    /// # Errors
    /// An operator that is not one of `cg::`'s.
    pub(super) fn cg_tile_collective_fn(
        &mut self,
        (name, tag): (&str, &str),
        n: u32,
        (shape, how, minus): (&Shape, &Combine, Option<&str>),
        at: Span,
    ) -> PResult<String> {
        let fname = match (&shape.record, shape.members.as_slice(), how) {
            (None, [(_, ty)], Combine::Op(_)) => {
                mangle(&format!("__cg_{name}_{tag}_{n}"), &[TArg::Type(*ty)])
            }
            (None, [(_, ty)], _) => mangle(
                &format!("__cg_{name}_{}_{n}", tidy(tag)),
                &[TArg::Type(*ty)],
            ),
            (Some(s), _, _) => format!("__cg_{name}_{}_{n}_struct_{}", tidy(tag), tidy(s)),
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("cg::{name}: a value of no members"),
                ))
            }
        };
        if self.fn_types.contains_key(&fname) {
            return Ok(fname);
        }
        let op = match how {
            Combine::Op(op) => op.as_str(),
            _ => "",
        };
        let hip = self.cg_wide();
        let why = super::cg::partial_tile_why(n);
        let mut b = Build::fresh(&mut self.syn, at);
        let n64 = u64::from(n);
        let (v_names, a_names, b_names) = (shape.names("v"), shape.names("a"), shape.names("b"));
        // `T b = read(v, by);` per member: the tile's `shfl_xor` or `shfl_up` by `by`.
        let read = |b: &mut Build<'_>, xor: bool, by: By<'_>| -> Vec<Stmt> {
            let mut shuffle = |b: &mut Build<'_>, k: usize| {
                let v = b.ident(&v_names[k]);
                let by = match by {
                    By::Var(x) => b.ident(x),
                    By::Const(c) => b.int(c),
                };
                let width = b.int(n64);
                if hip {
                    return b.call(
                        if xor { "__shfl_xor" } else { "__shfl_up" },
                        vec![v, by, width],
                    );
                }
                // The tile's own lanes as the mask: `(low << ((__lane_id() / n) * n))`.
                let mask = if n >= 32 {
                    b.uint(0xffff_ffff)
                } else {
                    let low = b.uint((1u64 << n) - 1);
                    let lane = b.call("__lane_id", Vec::new());
                    let nn = b.int(n64);
                    let q = b.bin(BinOp::Div, lane, nn);
                    let nn = b.int(n64);
                    let first = b.bin(BinOp::Mul, q, nn);
                    b.bin(BinOp::Shl, low, first)
                };
                let f = if xor {
                    "__shfl_xor_sync"
                } else {
                    "__shfl_up_sync"
                };
                let shfl = b.call(f, vec![mask, v, by, width]);
                // Undefined where the block does not split into whole tiles of `n`.
                let dim = |b: &mut Build<'_>, f: &str| {
                    let d = b.ident("blockDim");
                    b.member(d, f)
                };
                let (x, y, z) = (dim(&mut *b, "x"), dim(&mut *b, "y"), dim(&mut *b, "z"));
                let xy = b.bin(BinOp::Mul, x, y);
                let size = b.bin(BinOp::Mul, xy, z);
                let nn = b.int(n64);
                let rem = b.bin(BinOp::Rem, size, nn);
                let zero = b.int(0);
                let whole = b.bin(BinOp::Eq, rem, zero);
                let why = b.str(&why);
                b.call(crate::builtins::VALID_ONLY, vec![shfl, whole, why])
            };
            if shape.record.is_none() {
                return vec![decls(b, shape, &b_names, Some(&mut shuffle))];
            }
            // A struct: `T b;`, then each member's shuffle its own statement.
            let mut out = vec![decls(b, shape, &b_names, None)];
            for (k, n) in b_names.iter().enumerate() {
                let (target, value) = (b.ident(n), shuffle(b, k));
                let e = b.assign(None, target, value);
                out.push(b.expr_stmt(e));
            }
            out
        };
        // `T a = v; v = combine;` (for a scan, the combination under `if (r >= d)`).
        let step = |b: &mut Build<'_>, guard: Option<Expr>| -> PResult<Vec<Stmt>> {
            let mut out = vec![decls(
                b,
                shape,
                &a_names,
                Some(&mut |b, k| b.ident(&v_names[k])),
            )];
            let mut set = match how {
                Combine::Op(op) => {
                    let target = b.ident("v");
                    let value = combine(b, op, name, ("a", "b"), at)?;
                    let e = b.assign(None, target, value);
                    vec![b.expr_stmt(e)]
                }
                Combine::Call {
                    func,
                    struct_ret: true,
                    closure,
                } => {
                    let mut s = struct_call(b, shape, func, closure, ("a", "b"));
                    s.extend(copies(b, &v_names, &shape.names("__r")));
                    s
                }
                Combine::Call { func, closure, .. } => {
                    let mut args: Vec<Expr> = closure
                        .iter()
                        .map(|(c, _)| b.ident(&format!("__op{c}")))
                        .collect();
                    args.push(b.ident("a"));
                    args.push(b.ident("b"));
                    let (target, value) = (b.ident("v"), b.call(func, args));
                    let e = b.assign(None, target, value);
                    vec![b.expr_stmt(e)]
                }
                Combine::Pick { func, ty } => {
                    let args: Vec<Expr> =
                        b_names.iter().chain(&a_names).map(|x| b.ident(x)).collect();
                    let c = b.call(func, args);
                    let mut s = vec![b.decl("__c", *ty, Some(c))];
                    let mut picks = Vec::new();
                    for k in 0..v_names.len() {
                        let (c, y, x) =
                            (b.ident("__c"), b.ident(&b_names[k]), b.ident(&a_names[k]));
                        let pick = b.ternary(c, y, x);
                        let target = b.ident(&v_names[k]);
                        picks.push(b.assign(None, target, pick));
                    }
                    s.extend(b.comma(picks).map(|e| b.expr_stmt(e)));
                    s
                }
            };
            let set = if set.len() == 1 {
                set.remove(0)
            } else {
                b.block(set)
            };
            out.push(match guard {
                Some(c) => b.if_(c, set, None),
                None => set,
            });
            Ok(out)
        };
        // The end: a scalar returned, a struct's members into `__ret.*`.
        let finish = |b: &mut Build<'_>, from: &[String]| -> Vec<Stmt> {
            if shape.record.is_none() {
                let v = b.ident(&from[0]);
                return vec![b.ret(Some(v))];
            }
            let mut out = copies(b, &shape.names("__ret"), from);
            out.push(b.ret(None));
            out
        };
        let mut body = Vec::new();
        if name == "reduce" {
            // `for (int m = n / 2; m > 0; m >>= 1) { T b = shfl_xor(v, m); T a = v; v = …; }`
            let half = b.int(n64 / 2);
            let init = b.decl("m", int_ty(), Some(half));
            let (m, zero) = (b.ident("m"), b.int(0));
            let cond = b.bin(BinOp::Gt, m, zero);
            let (m, one) = (b.ident("m"), b.int(1));
            let next = b.assign(Some(BinOp::Shr), m, one);
            let mut inner = read(&mut b, true, By::Var("m"));
            inner.extend(step(&mut b, None)?);
            let inner = b.block(inner);
            body.push(b.for_(init, cond, next, inner));
            body.extend(finish(&mut b, &v_names));
        } else {
            // `T own = v; int r = linear % n;`
            let own = shape.names("own");
            body.push(decls(
                &mut b,
                shape,
                &own,
                Some(&mut |b, k| b.ident(&v_names[k])),
            ));
            let linear = linear(&mut b);
            let nn = b.int(n64);
            let r = b.bin(BinOp::Rem, linear, nn);
            body.push(b.decl("r", int_ty(), Some(r)));
            // `for (int d = 1; d < n; d <<= 1) { T b = shfl_up(v, d); T a = v; if (r >= d) v = …; }`
            let one = b.int(1);
            let init = b.decl("d", int_ty(), Some(one));
            let (d, nn) = (b.ident("d"), b.int(n64));
            let cond = b.bin(BinOp::Lt, d, nn);
            let (d, one) = (b.ident("d"), b.int(1));
            let next = b.assign(Some(BinOp::Shl), d, one);
            let mut inner = read(&mut b, false, By::Var("d"));
            let (r, d) = (b.ident("r"), b.ident("d"));
            let guard = b.bin(BinOp::Ge, r, d);
            inner.extend(step(&mut b, Some(guard))?);
            let inner = b.block(inner);
            body.push(b.for_(init, cond, next, inner));
            match (name, op, &shape.record) {
                // A struct: its inclusive result less its own value, `operator-`.
                ("exclusive_scan", _, Some(s)) => {
                    let Some(minus) = minus else {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "cg::exclusive_scan of a struct `{s}` is supported with cg::plus \
                                 and `{s}`'s `operator-` here; scan each member, or take \
                                 cg::inclusive_scan"
                            ),
                        ));
                    };
                    body.extend(struct_call(&mut b, shape, minus, &[], ("v", "own")));
                    body.extend(finish(&mut b, &shape.names("__r")));
                }
                // Rank 0 gets 0 with `plus`, the rank below's inclusive result otherwise.
                ("exclusive_scan", "plus", None) => {
                    body.extend(read(&mut b, false, By::Const(1)));
                    let (r, zero) = (b.ident("r"), b.int(0));
                    let first = b.bin(BinOp::Eq, r, zero);
                    let zero = b.int(0);
                    let zero = b.cast(Ty::Val(shape.members[0].1), zero);
                    let zero = b.ret(Some(zero));
                    body.push(b.if_(first, zero, None));
                    let below = b.ident("b");
                    body.push(b.ret(Some(below)));
                }
                // With another operator rank 0 has no defined value.
                ("exclusive_scan", _, None) => {
                    body.extend(read(&mut b, false, By::Const(1)));
                    let below = b.ident("b");
                    let (r, zero) = (b.ident("r"), b.int(0));
                    let not_first = b.bin(BinOp::Ne, r, zero);
                    let why = b.str(super::cg_scan::EXCLUSIVE_FIRST_WHY);
                    let e = b.call(crate::builtins::VALID_ONLY, vec![below, not_first, why]);
                    body.push(b.ret(Some(e)));
                }
                _ => body.extend(finish(&mut b, &v_names)),
            }
        }
        let body = b.block(body);
        let mut params = Vec::new();
        let ret = match &shape.record {
            Some(_) => {
                for (n, (_, ty)) in shape.names("__ret").iter().zip(&shape.members) {
                    let mut p = b.param(n, Ty::Val(*ty));
                    p.reference = true;
                    params.push(p);
                }
                Ty::Void
            }
            None => Ty::Val(shape.members[0].1),
        };
        for (n, (_, ty)) in v_names.iter().zip(&shape.members) {
            params.push(b.param(n, Ty::Val(*ty)));
        }
        for (c, ty) in how.closure() {
            params.push(b.param(&format!("__op{c}"), *ty));
        }
        if let Some(s) = &shape.record {
            self.fn_ret.insert(fname.clone(), s.clone());
        }
        self.push_built_fn(&fname, ret, params, body, at);
        Ok(fname)
    }

    /// The device function of `cg::reduce` with operator `op` over a coalesced group for a
    /// value of type `ty` (module comment): `(T v, mask m)`, built once; its name.
    ///
    /// # Errors
    /// An operator that is not one of `cg::`'s.
    pub(super) fn cg_coalesced_reduce_fn(
        &mut self,
        op: &str,
        ty: ValTy,
        at: Span,
    ) -> PResult<String> {
        let fname = mangle(&format!("__cg_creduce_{op}"), &[TArg::Type(ty)]);
        if self.fn_types.contains_key(&fname) {
            return Ok(fname);
        }
        let t = Ty::Val(ty);
        let (hip, wave) = (self.cg_wide(), u64::from(self.wave));
        let mask_ty = self.mask_ty();
        let mut b = Build::fresh(&mut self.syn, at);
        // The member of rank `k`'s value: HIP `__shfl(v, __fns64(m, 0, k), wave)`, CUDA
        // `__shfl_sync(__activemask(), v, __fns(m, 0, k), 32)`, `k` given as `k + 1`'s node.
        let read = |b: &mut Build<'_>, k: Expr| -> Expr {
            let (m, zero) = (b.ident("m"), b.int(0));
            let v = b.ident("v");
            if hip {
                let src = b.call("__fns64", vec![m, zero, k]);
                let w = b.int(wave);
                b.call("__shfl", vec![v, src, w])
            } else {
                let active = b.call("__activemask", Vec::new());
                let src = b.call("__fns", vec![m, zero, k]);
                let w = b.int(32);
                b.call("__shfl_sync", vec![active, v, src, w])
            }
        };
        let mut body = Vec::new();
        // `int n = popc(m); T acc = read(1);`
        let m = b.ident("m");
        let count = b.call(if hip { "__popcll" } else { "__popc" }, vec![m]);
        body.push(b.decl("n", int_ty(), Some(count)));
        let one = b.int(1);
        let first = read(&mut b, one);
        body.push(b.decl("acc", t, Some(first)));
        // `for (int k = 1; k < n; k++) { T b = read(k + 1); T a = acc; acc = combine; }`
        let one = b.int(1);
        let init = b.decl("k", int_ty(), Some(one));
        let (k, n) = (b.ident("k"), b.ident("n"));
        let cond = b.bin(BinOp::Lt, k, n);
        let k = b.ident("k");
        let next = b.node(ExprKind::IncDec {
            inc: true,
            prefix: false,
            target: Box::new(k),
        });
        let (k, one) = (b.ident("k"), b.int(1));
        let k1 = b.bin(BinOp::Add, k, one);
        let value = read(&mut b, k1);
        let other = b.decl("b", t, Some(value));
        let acc = b.ident("acc");
        let keep = b.decl("a", t, Some(acc));
        let target = b.ident("acc");
        let value = combine(&mut b, op, "reduce", ("a", "b"), at)?;
        let set = b.assign(None, target, value);
        let set = b.expr_stmt(set);
        let inner = b.block(vec![other, keep, set]);
        body.push(b.for_(init, cond, next, inner));
        let acc = b.ident("acc");
        body.push(b.ret(Some(acc)));
        let body = b.block(body);
        let params = vec![b.param("v", t), b.param("m", mask_ty)];
        self.push_built_fn(&fname, t, params, body, at);
        Ok(fname)
    }
}

/// `s` with every character that is not a letter or digit as `_`, for a function's name.
fn tidy(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The thread's linear rank in its block, `threadIdx.x + blockDim.x * (threadIdx.y +
/// blockDim.y * threadIdx.z)` (CUDA C++ Programming Guide, "Thread Hierarchy").
fn linear(b: &mut Build<'_>) -> Expr {
    let mut part = |base: &str, f: &str| {
        let e = b.ident(base);
        b.member(e, f)
    };
    let x = part("threadIdx", "x");
    let bx = part("blockDim", "x");
    let y = part("threadIdx", "y");
    let by = part("blockDim", "y");
    let z = part("threadIdx", "z");
    let yz = b.bin(BinOp::Mul, by, z);
    let yz = b.bin(BinOp::Add, y, yz);
    let xyz = b.bin(BinOp::Mul, bx, yz);
    b.bin(BinOp::Add, x, xyz)
}

/// The `cg::` function objects a collective takes by name, with the operator each applies to
/// a struct (C++ [arithmetic.operations], [comparisons], [bitwise.operations]).
const CG_OPS: &[(&str, &str)] = &[
    ("plus", "+"),
    ("less", "<"),
    ("greater", ">"),
    ("bit_and", "&"),
    ("bit_or", "|"),
    ("bit_xor", "^"),
];

impl Parser<'_> {
    /// The operator argument of `cg::{name}`, after its `,`.
    ///
    /// # Errors
    /// A `cg::` name that is not one of its function objects; the argument's parse errors.
    pub(super) fn cg_operator(&mut self, name: &str) -> PResult<CgOperator> {
        let op_at = self.span();
        let save = self.pos;
        self.skip_cg_namespace();
        let qualified = self.pos != save;
        if let Tok::Ident(w) = self.peek(0).clone() {
            let known = CG_OPS.iter().any(|(n, _)| *n == w);
            let object = matches!(self.peek(1), Tok::Punct("<" | "(" | "{"));
            if known && object && (qualified || !self.is_struct_name(&w)) {
                self.bump();
                // `plus<int>()` or `plus<>()` or `plus()`, or the same object
                // list-initialized, `plus<int>{}` ([expr.type.conv]/2: both are a
                // value-initialized temporary).
                if self.eat("<") {
                    while !self.eat(">") {
                        if matches!(self.peek(0), Tok::Eof) {
                            return self.err("`>`");
                        }
                        self.bump();
                    }
                }
                if self.eat("{") {
                    self.expect_punct("}")?;
                } else {
                    self.expect_punct("(")?;
                    self.expect_punct(")")?;
                }
                return Ok(CgOperator::Named(w, op_at));
            }
            if qualified && !self.is_struct_name(&w) {
                return Err(KernelError::new(
                    op_at.line,
                    op_at.col,
                    format!(
                        "cg::{name} with cg::{w} is not supported here (plus, less, greater, \
                         bit_and, bit_or, bit_xor, a lambda or a function object)"
                    ),
                ));
            }
        }
        self.pos = save;
        let e = self.assign_expr()?;
        Ok(CgOperator::Callable(e, op_at))
    }

    /// `cg::reduce` / scans over a tile of `n`: a call of the device function built for the
    /// value's shape and the operator ([`Parser::cg_tile_collective_fn`]), its arguments the
    /// value and, for a lambda or function object, the closure (its captures).
    ///
    /// # Errors
    /// A value whose type the parser cannot tell, a struct with array or pointer members, an
    /// operator that does not combine two values of the value's type.
    pub(super) fn cg_collective(
        &mut self,
        name: &str,
        op: CgOperator,
        n: u32,
        value: Expr,
        at: Span,
    ) -> PResult<Expr> {
        self.big_tile_collective(n, name, at)?;
        let record = self.struct_of(&value);
        let shape = match &record {
            Some(s) => Shape {
                members: self.cg_members(s, at)?,
                record: Some(s.clone()),
            },
            None => match self.expr_type(&value) {
                Some(ty) => Shape {
                    members: vec![(String::new(), ty)],
                    record: None,
                },
                None => return Err(unknown_value_type(name, at)),
            },
        };
        // A built-in vector (`int4`, `float2`) other than the 16-bit pairs CUDA's shuffles
        // take (`__half2`, `__nv_bfloat162`): the library moves it in 32-bit pieces and calls
        // its `operator+` / `operator<` (Programming Guide, "reduce": any trivially copyable
        // type of at most 32 bytes), which this lowering does not build for vectors: refused
        // here, with what to write, rather than at the shuffle it would reach.
        if let (None, [(_, ty)]) = (&record, shape.members.as_slice()) {
            if ty.lanes > 1 && !matches!(ty.scalar, Scalar::F16 | Scalar::Bf16) {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "cg::{name} over a value of a built-in vector type (`int4`, `float2`, \
                         …) is not supported here: reduce each component \
                         (`cg::{name}(tile, v.x, op)`, `v.y`, …), or a struct of scalar \
                         members with its own operator"
                    ),
                ));
            }
        }
        let mut callable = None;
        let (how, tag, minus) = match (op, &record) {
            (CgOperator::Named(op, _), None) => (Combine::Op(op.clone()), op, None),
            (CgOperator::Named(op, op_at), Some(s)) => {
                let sym = CG_OPS
                    .iter()
                    .find(|(n, _)| *n == op)
                    .map_or("+", |(_, s)| *s);
                let (func, struct_ret, ty) = self.cg_struct_operator(s, sym, &value, op_at)?;
                let how = match (sym, struct_ret) {
                    ("<" | ">", false) => Combine::Pick {
                        func: func.clone(),
                        ty,
                    },
                    (_, true) if sym != "<" && sym != ">" => Combine::Call {
                        func: func.clone(),
                        struct_ret: true,
                        closure: Vec::new(),
                    },
                    _ => {
                        return Err(KernelError::new(
                            op_at.line,
                            op_at.col,
                            format!(
                                "cg::{name} with cg::{op} over `{s}` needs `{s}`'s \
                                 `operator{sym}` returning {}",
                                if sym == "<" || sym == ">" {
                                    "bool".to_string()
                                } else {
                                    format!("a `{s}`")
                                }
                            ),
                        ))
                    }
                };
                let minus = if name == "exclusive_scan" && op == "plus" {
                    Some(self.cg_struct_operator(s, "-", &value, op_at)?.0)
                } else {
                    None
                };
                (how, op, minus)
            }
            (CgOperator::Callable(e, op_at), _) if self.cg_function_name(&e).is_some() => {
                let func = self.cg_function_name(&e).unwrap_or_default();
                let how = self.cg_function(name, &func, record.as_deref(), op_at)?;
                (how, func, None)
            }
            (CgOperator::Callable(e, op_at), _) => {
                let how = self.cg_callable(name, &e, &value, record.as_deref(), op_at)?;
                let tag = match &how {
                    Combine::Call { func, .. } => func.clone(),
                    _ => String::new(),
                };
                callable = Some(e);
                (how, tag, None)
            }
        };
        let f =
            self.cg_tile_collective_fn((name, &tag), n, (&shape, &how, minus.as_deref()), at)?;
        let mut args = vec![value];
        args.extend(callable);
        Ok(Expr::new(ExprKind::Call(f, args), at))
    }

    /// The scalar members of struct `s` as a collective's value: each suffix and type.
    ///
    /// # Errors
    /// A member that is an array or a pointer: the shuffle is written for scalar members.
    fn cg_members(&self, s: &str, at: Span) -> PResult<Vec<(String, ValTy)>> {
        let mut out = Vec::new();
        for l in self.leaves(s, at)? {
            match l.ty {
                Ty::Val(v) if l.count == 0 => out.push((format!(".{}", l.path), v)),
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "a cooperative-groups collective over `{s}` shuffles its members one \
                             by one here, and member `{}` is an array or a pointer; reduce a \
                             struct of scalar members, or shuffle the members yourself",
                            l.path
                        ),
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The device function of the `operator{sym}` that `value sym value` calls for struct `s`
    /// ([over.match.oper]): its name, whether it returns an `s` (`__ret.*` first), and its
    /// result type otherwise. A member operator's receiver members come where a free one's
    /// first parameter's do.
    ///
    /// # Errors
    /// No such operator, several equally good, or one inherited from a base class.
    fn cg_struct_operator(
        &mut self,
        s: &str,
        sym: &str,
        value: &Expr,
        at: Span,
    ) -> PResult<(String, bool, Ty)> {
        let Some(key) = self.self_operator_key(sym, value, at)? else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("a cooperative-groups collective over `{s}` needs `{s}`'s `operator{sym}`"),
            ));
        };
        let Some(m) = key.strip_prefix("@m:") else {
            let ty = self.fn_types.get(&key).copied().unwrap_or(Ty::Void);
            return Ok((
                key.clone(),
                self.fn_ret.get(&key).is_some_and(|r| r == s),
                ty,
            ));
        };
        match self.structs.get(s).and_then(|d| d.methods.get(m)) {
            Some(method) if method.inherited.is_none() => Ok((
                method.func.clone(),
                method.ret == Ret::Struct(s.to_string()),
                method.ty,
            )),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{s}`'s `operator{sym}` is inherited from a base class; declare it in `{s}` \
                     for a cooperative-groups collective"
                ),
            )),
        }
    }

    /// The function `e` names when it is the name of one non-template device function (not a
    /// variable): `cg::reduce(warp, v, combine)` passes the function, which converts to a
    /// pointer to it ([conv.func]), and cooperative_groups/reduce.h calls it as `op(a, b)`.
    fn cg_function_name(&self, e: &Expr) -> Option<String> {
        // A function named as a value is its address (`__crosslane_fn_addr("f")`,
        // [`super::fn_ptr`]).
        let n = match &e.kind {
            ExprKind::Call(c, a) if c == "__crosslane_fn_addr" => match a.as_slice() {
                [Expr {
                    kind: ExprKind::Str(n),
                    ..
                }] => n,
                _ => return None,
            },
            ExprKind::Ident(n) if self.var_type(n).is_none() && self.var_struct(n).is_none() => n,
            _ => return None,
        };
        let one = self.fn_sets.get(n).is_none_or(|set| set.len() == 1);
        let known = self.fn_types.contains_key(n) || self.fn_ret.contains_key(n);
        (one && known).then(|| n.clone())
    }

    /// The function `func` as the operator of `cg::{name}` over a value of struct `record`
    /// (or a scalar): called as `op(a, b)` with two values of the value's type, returning one
    /// (C++17 [over.call]; cooperative_groups/reduce.h: "a binary function object").
    ///
    /// # Errors
    /// It does not take two values of the value's type or return one.
    fn cg_function(
        &self,
        name: &str,
        func: &str,
        record: Option<&str>,
        at: Span,
    ) -> PResult<Combine> {
        let params = self
            .fn_sets
            .get(func)
            .and_then(|set| set.first())
            .map(|f| f.params.clone())
            .unwrap_or_default();
        let ret = self.fn_ret.get(func).cloned();
        let fits = |p: &super::overload::PSig| match (&p.ty, record) {
            (super::overload::PType::Struct(s), Some(r)) => s == r,
            (super::overload::PType::Val(_), None) => true,
            _ => false,
        };
        let ok = params.len() == 2
            && params.iter().all(fits)
            && match record {
                Some(r) => ret.as_deref() == Some(r),
                None => ret.is_none() && matches!(self.fn_types.get(func), Some(Ty::Val(_))),
            };
        if !ok {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "the operator of cg::{name} takes two values of the value's type ({}) and                      returns one; `{func}` does not",
                    record.map_or("a scalar".to_string(), |r| format!("`{r}`"))
                ),
            ));
        }
        Ok(Combine::Call {
            func: func.to_string(),
            struct_ret: record.is_some(),
            closure: Vec::new(),
        })
    }

    /// A lambda or function object `e` as the operator of `cg::{name}` over `value` (a
    /// `record`, or a scalar): its `operator()` (a generic lambda's instance for the value's
    /// type, an overload chosen for it, C++17 [over.call]) called with the closure's members
    /// first.
    ///
    /// # Errors
    /// `e` is not callable, its result is not the value's type, or it holds an array.
    fn cg_callable(
        &mut self,
        name: &str,
        e: &Expr,
        value: &Expr,
        record: Option<&str>,
        at: Span,
    ) -> PResult<Combine> {
        let Some(s) = self.struct_of(e) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cg::{name} takes a cg:: operator (plus, less, greater, bit_and, bit_or, \
                     bit_xor), a lambda or a function object with `operator()` here"
                ),
            ));
        };
        let args = [value.clone(), value.clone()];
        let mut m = "operator()".to_string();
        let has = self
            .structs
            .get(&s)
            .is_some_and(|d| d.methods.contains_key(&m));
        if !has {
            if let Some(inst) = self.closure_call_template(&s, &args, at)? {
                m = inst;
            }
        }
        let m = self.resolve_method(&s, &m, &args, at)?;
        let shown = if s.starts_with("lambda#") {
            "the lambda".to_string()
        } else {
            format!("`{s}`")
        };
        let Some(method) = self
            .structs
            .get(&s)
            .and_then(|d| d.methods.get(&m))
            .filter(|m| m.inherited.is_none())
            .cloned()
        else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{shown} is not callable here (it has no `operator()` of its own)"),
            ));
        };
        let struct_ret = match (&method.ret, record) {
            (Ret::Struct(r), Some(v)) if r == v => true,
            (Ret::Plain, None) if matches!(method.ty, Ty::Val(_)) => false,
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "the operator of cg::{name} must return the value's type ({}); {shown} \
                         does not",
                        record.map_or("a scalar".to_string(), |r| format!("`{r}`"))
                    ),
                ))
            }
        };
        let mut closure = Vec::new();
        for l in self.leaves(&s, at)? {
            if l.count > 0 {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "{shown} holds the array `{}`; a cooperative-groups collective takes an \
                         operator of scalar members here",
                        l.path
                    ),
                ));
            }
            closure.push((format!(".{}", l.path), l.ty));
        }
        // Its parameters, lowered: the result's members (a struct), the closure's, then two
        // values' members (C++17 [over.call]: `op(a, b)` with two values of the value's type).
        let members = record.map_or(Ok(1), |r| self.leaves(r, at).map(|l| l.len()))?;
        let want = closure.len() + members * (2 + usize::from(struct_ret));
        let given = self
            .extra_fns
            .iter()
            .find(|f| f.name == method.func)
            .map(|f| f.params.len());
        if given.is_some_and(|g| g != want) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "the operator of cg::{name} takes two values of the value's type ({}); \
                     {shown} takes other parameters",
                    record.map_or("a scalar".to_string(), |r| format!("`{r}`")),
                ),
            ));
        }
        Ok(Combine::Call {
            func: method.func,
            struct_ret,
            closure,
        })
    }
}
