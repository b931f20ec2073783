//! Running a statement's typed form ([`super::typed`]): one loop per node over the active lanes'
//! raw bits, into scratch rows the executor keeps, so that a statement allocates nothing.
//!
//! Every entry point either finishes the statement exactly as the general evaluator would, or
//! changes nothing and returns "not handled" so that the general evaluator runs it: when a lane
//! reads an undefined value or one of another type, when the C++17 rules make an operation
//! undefined in some lane (signed overflow, division by zero, a shift out of range: [expr]/4,
//! [expr.mul]/4, [expr.shift]/1-2), when a cross-lane operation's plan is not pure data movement, or when the work
//! budget would run out inside the statement. The general evaluator then gives the values, the
//! reasons and the diagnostics.
//!
//! A cross-lane operation runs once through the dialect's own rule (`builtins::call_op`, the
//! same call the general evaluator makes); when every result moves a lane's operand or a
//! constant ([`crosslane_core::plan::Plan`]), the plan is kept for that call site, keyed by the active
//! mask, the exited lanes and the non-operand arguments, and replayed on the operand's bits
//! whenever that key comes again: a loop whose offset changes every iteration (`K = i & 31`, a
//! butterfly `o >>= 1`) plans each offset once and then replays it. Only under
//! [`TraceMode::None`]: a recorded step keeps the operation's own record.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use rustc_hash::FxHasher;

use super::typed::{int_bits, Node, TExpr, TInst, TNode};
use super::*;
use crate::builtins::call_op;
use crate::exec::Executor;
use crate::trace::{LaneVal, TraceMode, Undef};
use crate::types::{BinOp, KVal, Scalar, ValTy};
use crosslane_core::lanes::LaneMask;
use crosslane_core::plan::{Move, Plan};
use crosslane_core::result::Source;

/// The kept plans of one call site: each key (the active mask, the exited lanes and the
/// non-operand arguments' bits over the active lanes, as [`plan_key`] writes it) maps to what
/// each lane receives. `last_key` and `last` are the key the site used last and its plan,
/// checked before the map is hashed, so that a call whose arguments repeat costs one comparison.
#[derive(Debug, Default)]
struct SitePlans {
    plans: HashMap<Box<[u64]>, Rc<[Move]>, BuildHasherDefault<FxHasher>>,
    last_key: Vec<u64>,
    last: Option<Rc<[Move]>>,
    /// The bytes the kept keys and moves take ([`plan_bytes`]), at most [`PLAN_BYTES_PER_SITE`].
    bytes: usize,
}

/// The memory one call site's kept plans may take before they are all dropped and planning
/// starts over (a bound on the cache, not on the kernel: a dropped plan is made again when its
/// key comes back): about 950 plans of a 32-lane warp (a key of 36 words, 32 moves of 16
/// bytes) or 490 of a 64-lane wavefront, far more than a loop's offsets (32 for `i & 31`).
const PLAN_BYTES_PER_SITE: usize = 1 << 20;

/// The bytes a kept plan takes: its key's words and its moves (the map's own overhead is
/// counted as one more key).
fn plan_bytes(key: &[u64], moves: &[Move]) -> usize {
    2 * std::mem::size_of_val(key) + std::mem::size_of_val(moves)
}

/// Writes a call's plan key into `key`: the active mask and the exited lanes (two words each),
/// then the non-operand arguments' bits over the active lanes, argument by argument. `None`
/// when an argument's row is missing.
fn plan_key<'a>(
    key: &mut Vec<u64>,
    (active, exited): (LaneMask, LaneMask),
    act: LaneMask,
    rows: impl Iterator<Item = Option<&'a [u64]>>,
) -> Option<()> {
    key.clear();
    for m in [active.0, exited.0] {
        key.push(m as u64);
        key.push((m >> 64) as u64);
    }
    for r in rows {
        let r = r?;
        key.extend(act.iter().map(|l| r[l]));
    }
    Some(())
}

/// The typed evaluator's scratch rows and plan caches. Not part of the machine's state: a copy
/// of the executor (a checkpoint) starts with empty ones.
#[derive(Debug, Default)]
pub(crate) struct TypedState {
    rows: Vec<u64>,
    key: Vec<u64>,
    plans: Vec<SitePlans>,
    /// Instructions whose typed form was given up (a call whose plan is not data movement).
    off: Vec<bool>,
}

impl Executor {
    /// Whether statements run in their typed form where they have one (`machine/typed.rs`; on
    /// by default). Off, every statement runs on the general evaluator: the results are the
    /// same, only slower (the equivalence tests and docs/benchmarks.md's general-evaluator
    /// figures use it).
    pub fn with_typed_form(mut self, on: bool) -> Self {
        if !on {
            self.typed = Rc::from(Vec::new());
        }
        self
    }
}

impl Clone for TypedState {
    fn clone(&self) -> Self {
        TypedState::default()
    }
}

/// An integer's value from its raw bits, as [`KVal::as_int`] reads it.
#[inline]
fn as_int(ty: Scalar, bits: u64) -> i128 {
    KVal::Int { ty, bits }.as_int().unwrap_or(0)
}

/// A lane's value from its raw bits in a row of type `ty` (a float's `f64` bits).
#[inline]
fn lane_val(ty: Scalar, bits: u64) -> KVal {
    if ty.is_float() {
        KVal::Float {
            ty,
            x: f64::from_bits(bits),
            approx: None,
        }
    } else {
        KVal::Int { ty, bits }
    }
}

/// A scalar's raw bits in a row (`None` for vectors and pointers).
#[inline]
fn row_bits(k: &KVal) -> Option<u64> {
    match k {
        KVal::Int { bits, .. } => Some(*bits),
        // A value with an accuracy note has no raw-bits form: the general evaluator keeps it.
        KVal::Float {
            x, approx: None, ..
        } => Some(x.to_bits()),
        _ => None,
    }
}

/// The bits a cross-lane operation receives for a row value of type `ty` (`KVal::to_core`).
#[inline]
fn core_bits(ty: Scalar, bits: u64) -> Option<u64> {
    if ty.is_float() {
        lane_val(ty, bits).to_core().map(|v| v.bits)
    } else {
        Some(bits)
    }
}

/// A row value of type `ty` from the bits a cross-lane operation returned (`KVal::from_core`).
#[inline]
fn from_core_bits(ty: Scalar, bits: u64) -> u64 {
    if ty.is_float() {
        row_bits(&KVal::from_core(crosslane_core::value::Value::from_bits(
            ty.value_type(),
            bits,
        )))
        .unwrap_or(0)
    } else {
        bits
    }
}

/// `f` over the active lanes of two rows; false as soon as a lane has no defined result.
#[inline]
fn each(
    act: LaneMask,
    a: &[u64],
    b: &[u64],
    out: &mut [u64],
    f: impl Fn(u64, u64) -> Option<u64>,
) -> bool {
    for l in act.iter() {
        match (a.get(l), b.get(l), out.get_mut(l)) {
            (Some(&x), Some(&y), Some(o)) => match f(x, y) {
                Some(r) => *o = r,
                None => return false,
            },
            _ => return false,
        }
    }
    true
}

/// `op` in every active lane on operands of type `ty` (a shift's count of type `count`), as
/// `types::binary` computes it for integers; false when some lane's result is undefined by the
/// C rules (then the general evaluator says why).
pub(crate) fn bin_row(
    op: BinOp,
    ty: Scalar,
    count: Scalar,
    (a, b): (&[u64], &[u64]),
    out: &mut [u64],
    act: LaneMask,
) -> bool {
    if ty.is_float() {
        return float_row(op, ty, (a, b), out, act);
    }
    let signed = ty.is_signed();
    let width = ty.bits();
    if let Some(done) = bin_row_64(op, ty, (a, b), out, act) {
        return done;
    }
    let (lo, hi) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (i128::MIN, i128::MAX)
    };
    // Signed results outside the type are overflow (C++17 [expr]/4); unsigned ones wrap
    // ([basic.fundamental]/4).
    let fit = |r: i128| (lo..=hi).contains(&r).then(|| int_bits(ty, r));
    let x = |v: u64| as_int(ty, v);
    let cmp = |f: fn(i128, i128) -> bool| move |p: u64, q: u64| Some(u64::from(f(x(p), x(q))));
    match op {
        BinOp::Add => each(act, a, b, out, |p, q| fit(x(p).wrapping_add(x(q)))),
        BinOp::Sub => each(act, a, b, out, |p, q| fit(x(p).wrapping_sub(x(q)))),
        BinOp::Mul => each(act, a, b, out, |p, q| fit(x(p).wrapping_mul(x(q)))),
        BinOp::Div => each(act, a, b, out, |p, q| {
            let d = x(q);
            (d != 0).then(|| fit(x(p).wrapping_div(d))).flatten()
        }),
        // C++17 [expr.mul]/4: a quotient out of range (`INT_MIN % -1`) makes `%` undefined too.
        BinOp::Rem => each(act, a, b, out, |p, q| {
            let d = x(q);
            (d != 0)
                .then(|| fit(x(p).wrapping_div(d)).and_then(|_| fit(x(p).wrapping_rem(d))))
                .flatten()
        }),
        BinOp::And => each(act, a, b, out, |p, q| fit(x(p) & x(q))),
        BinOp::Or => each(act, a, b, out, |p, q| fit(x(p) | x(q))),
        BinOp::Xor => each(act, a, b, out, |p, q| fit(x(p) ^ x(q))),
        BinOp::Lt => each(act, a, b, out, cmp(|p, q| p < q)),
        BinOp::Le => each(act, a, b, out, cmp(|p, q| p <= q)),
        BinOp::Gt => each(act, a, b, out, cmp(|p, q| p > q)),
        BinOp::Ge => each(act, a, b, out, cmp(|p, q| p >= q)),
        BinOp::Eq => each(act, a, b, out, cmp(|p, q| p == q)),
        BinOp::Ne => each(act, a, b, out, cmp(|p, q| p != q)),
        BinOp::Shl | BinOp::Shr => each(act, a, b, out, |p, q| {
            let (v, n) = (x(p), as_int(count, q));
            if n < 0 || n >= i128::from(width) {
                return None;
            }
            if op == BinOp::Shr {
                return Some(int_bits(ty, v >> n));
            }
            // C++17 [expr.shift]/2: a signed shift is defined for a non-negative left operand
            // whose result fits the corresponding unsigned type (converted modulo 2^width).
            let r = v << n;
            if signed && (v < 0 || r > (1i128 << width) - 1) {
                return None;
            }
            Some(int_bits(ty, r))
        }),
    }
}

/// A value's bits sign-extended from `width` bits to 64.
#[inline]
fn sign_extend(width: u32, v: u64) -> i64 {
    let s = 64 - width.clamp(1, 64);
    ((v << s) as i64) >> s
}

/// The bits of type `to` for an integer of type `from` with bits `v`, as `KVal::int(to,
/// as_int(from))` gives them (C++17 [conv.integral]/2-3: modulo 2^width; `bool`: nonzero is 1), in 64-bit
/// arithmetic.
#[inline]
fn convert_int(from: Scalar, to: Scalar, v: u64) -> u64 {
    let v = if from.is_signed() {
        sign_extend(from.bits(), v) as u64
    } else {
        v
    };
    match to.bits() {
        _ if to == Scalar::Bool => u64::from(v != 0),
        64 => v,
        w => v & ((1u64 << w) - 1),
    }
}

/// The arithmetic, bitwise and comparison operators of [`bin_row`] in 64-bit arithmetic (i128 is
/// a library call in wasm): `None` for the others (division, shifts). Unsigned results wrap
/// modulo 2^width (C++17 [basic.fundamental]/4); a signed one is exact in i64 (checked for 64-bit operands) and
/// outside the type is overflow (C++17 [expr]/4).
#[inline]
fn bin_row_64(
    op: BinOp,
    ty: Scalar,
    (a, b): (&[u64], &[u64]),
    out: &mut [u64],
    act: LaneMask,
) -> Option<bool> {
    let width = ty.bits();
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    if !ty.is_signed() {
        return Some(match op {
            BinOp::Add => each(act, a, b, out, |p, q| Some(p.wrapping_add(q) & mask)),
            BinOp::Sub => each(act, a, b, out, |p, q| Some(p.wrapping_sub(q) & mask)),
            BinOp::Mul => each(act, a, b, out, |p, q| Some(p.wrapping_mul(q) & mask)),
            BinOp::And => each(act, a, b, out, |p, q| Some(p & q & mask)),
            BinOp::Or => each(act, a, b, out, |p, q| Some((p | q) & mask)),
            BinOp::Xor => each(act, a, b, out, |p, q| Some((p ^ q) & mask)),
            BinOp::Lt => each(act, a, b, out, |p, q| Some(u64::from(p < q))),
            BinOp::Le => each(act, a, b, out, |p, q| Some(u64::from(p <= q))),
            BinOp::Gt => each(act, a, b, out, |p, q| Some(u64::from(p > q))),
            BinOp::Ge => each(act, a, b, out, |p, q| Some(u64::from(p >= q))),
            BinOp::Eq => each(act, a, b, out, |p, q| Some(u64::from(p == q))),
            BinOp::Ne => each(act, a, b, out, |p, q| Some(u64::from(p != q))),
            _ => return None,
        });
    }
    let (lo, hi) = if width >= 64 {
        (i64::MIN, i64::MAX)
    } else {
        (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
    };
    let fit = move |r: Option<i64>| r.filter(|r| (lo..=hi).contains(r)).map(|r| r as u64 & mask);
    let x = move |v: u64| sign_extend(width, v);
    Some(match op {
        BinOp::Add => each(act, a, b, out, |p, q| fit(x(p).checked_add(x(q)))),
        BinOp::Sub => each(act, a, b, out, |p, q| fit(x(p).checked_sub(x(q)))),
        BinOp::Mul => each(act, a, b, out, |p, q| fit(x(p).checked_mul(x(q)))),
        BinOp::And => each(act, a, b, out, |p, q| Some((x(p) & x(q)) as u64 & mask)),
        BinOp::Or => each(act, a, b, out, |p, q| Some((x(p) | x(q)) as u64 & mask)),
        BinOp::Xor => each(act, a, b, out, |p, q| Some((x(p) ^ x(q)) as u64 & mask)),
        BinOp::Lt => each(act, a, b, out, |p, q| Some(u64::from(x(p) < x(q)))),
        BinOp::Le => each(act, a, b, out, |p, q| Some(u64::from(x(p) <= x(q)))),
        BinOp::Gt => each(act, a, b, out, |p, q| Some(u64::from(x(p) > x(q)))),
        BinOp::Ge => each(act, a, b, out, |p, q| Some(u64::from(x(p) >= x(q)))),
        BinOp::Eq => each(act, a, b, out, |p, q| Some(u64::from(p == q))),
        BinOp::Ne => each(act, a, b, out, |p, q| Some(u64::from(p != q))),
        _ => return None,
    })
}

/// `op` in every active lane on `float` or `double` operands (their `f64` bits), as
/// `types::binary` computes it: `float` arithmetic rounds each result to single precision;
/// a comparison with NaN is false except `!=` (IEEE 754, C11 F.3). `%` and the bitwise
/// operators never reach here (the typed form leaves them to the general evaluator).
fn float_row(
    op: BinOp,
    ty: Scalar,
    (a, b): (&[u64], &[u64]),
    out: &mut [u64],
    act: LaneMask,
) -> bool {
    let single = ty != Scalar::F64;
    let arith = |f: fn(f64, f64) -> f64| {
        move |p: u64, q: u64| {
            let (x, y) = (f64::from_bits(p), f64::from_bits(q));
            let r = if single {
                f(x as f32 as f64, y as f32 as f64) as f32 as f64
            } else {
                f(x, y)
            };
            row_bits(&KVal::float(ty, r))
        }
    };
    let cmp = |f: fn(f64, f64) -> bool| {
        move |p: u64, q: u64| Some(u64::from(f(f64::from_bits(p), f64::from_bits(q))))
    };
    match op {
        BinOp::Add => each(act, a, b, out, arith(|x, y| x + y)),
        BinOp::Sub => each(act, a, b, out, arith(|x, y| x - y)),
        BinOp::Mul => each(act, a, b, out, arith(|x, y| x * y)),
        BinOp::Div => each(act, a, b, out, arith(|x, y| x / y)),
        BinOp::Lt => each(act, a, b, out, cmp(|x, y| x < y)),
        BinOp::Le => each(act, a, b, out, cmp(|x, y| x <= y)),
        BinOp::Gt => each(act, a, b, out, cmp(|x, y| x > y)),
        BinOp::Ge => each(act, a, b, out, cmp(|x, y| x >= y)),
        BinOp::Eq => each(act, a, b, out, cmp(|x, y| x == y)),
        BinOp::Ne => each(act, a, b, out, cmp(|x, y| x != y)),
        _ => false,
    }
}

impl Executor {
    /// Runs instruction `pc` when it is a typed store (an assignment, increment or initialized
    /// declaration of an integer variable); false, having changed nothing, otherwise.
    pub(crate) fn typed_store(
        &mut self,
        w: usize,
        pc: usize,
        active: LaneMask,
        cx: &mut StepCtx,
    ) -> bool {
        let program = Rc::clone(&self.typed);
        let Some(Some(TInst::Store { slot, value })) = program.get(pc) else {
            return false;
        };
        let slot = *slot;
        // An address-taken local is declared (given its memory) by the general path.
        if self.addr_taken.contains(&slot) {
            return false;
        }
        let Some(root) = self.typed_eval(w, pc, value, active) else {
            return false;
        };
        let lanes = self.trace.launch.lanes;
        let warp = &mut self.warps[w];
        if warp.in_memory(slot) {
            return false;
        }
        let Some(reg) = warp.vars.get_mut(slot) else {
            return false;
        };
        let ty = value.nodes[root].ty;
        if !reg.holds(ty) {
            return false;
        }
        self.meter.work(value.work);
        let rows = &self.typed_state.rows[root * lanes..(root + 1) * lanes];
        for l in active.iter().filter(|&l| l < lanes) {
            reg.set_raw_bits(l, rows[l]);
        }
        // Unrecorded here without a trace, but a barrier round that stored a variable is not
        // the same round again (see `BarrierRound`).
        self.barrier_round.changed = true;
        self.spin.epoch = self.spin.epoch.wrapping_add(1);
        if self.mode != TraceMode::None || self.maca.loads_pending() {
            cx.changed.insert(slot);
        }
        true
    }

    /// Evaluates instruction `pc`'s typed condition: (lanes where true, lanes where false), or
    /// `None`, having changed nothing, when it has none or cannot.
    pub(crate) fn typed_cond(
        &mut self,
        w: usize,
        pc: usize,
        active: LaneMask,
    ) -> Option<(LaneMask, LaneMask)> {
        let program = Rc::clone(&self.typed);
        let Some(Some(TInst::Cond(value))) = program.get(pc) else {
            return None;
        };
        let root = self.typed_eval(w, pc, value, active)?;
        self.meter.work(value.work);
        let lanes = self.trace.launch.lanes;
        let row = &self.typed_state.rows[root * lanes..(root + 1) * lanes];
        let float = value.nodes[root].ty.is_float();
        let (mut t, mut f) = (0u128, 0u128);
        for l in active.iter() {
            // C++17 [stmt.select]/4, [conv.bool]/1: a condition holds when it compares unequal to 0 (-0.0 does not;
            // NaN does).
            match row.get(l) {
                Some(&b) if (float && f64::from_bits(b) == 0.0) || (!float && b == 0) => {
                    f |= 1 << l
                }
                Some(_) => t |= 1 << l,
                None => return None,
            }
        }
        Some((LaneMask(t), LaneMask(f)))
    }

    /// Computes every node of `e` into the scratch rows; the root node's index, or `None` when
    /// some lane has no defined value of the node's type (nothing is changed then).
    fn typed_eval(&mut self, w: usize, pc: usize, e: &TExpr, active: LaneMask) -> Option<usize> {
        if self.typed_state.off.get(pc) == Some(&true) || !self.meter.can_work(e.work) {
            return None;
        }
        let lanes = self.trace.launch.lanes;
        let act = LaneMask(active.0 & LaneMask::all(lanes).0);
        let mut rows = std::mem::take(&mut self.typed_state.rows);
        let need = e.nodes.len() * lanes;
        if rows.len() < need {
            rows.resize(need, 0);
        }
        let ok = self.typed_nodes(w, pc, e, (active, act), &mut rows);
        self.typed_state.rows = rows;
        ok.then(|| e.root())
    }

    fn typed_nodes(
        &mut self,
        w: usize,
        pc: usize,
        e: &TExpr,
        (active, act): (LaneMask, LaneMask),
        rows: &mut [u64],
    ) -> bool {
        let lanes = self.trace.launch.lanes;
        for (i, n) in e.nodes.iter().enumerate() {
            let (done, rest) = rows.split_at_mut(i * lanes);
            let out = &mut rest[..lanes];
            let row = |k: u16| {
                let k = k as usize;
                done.get(k * lanes..(k + 1) * lanes)
            };
            let ok = match &n.node {
                Node::Const(c) => {
                    out.fill(*c);
                    true
                }
                Node::Var(slot) => {
                    let warp = &self.warps[w];
                    match warp.vars.get(*slot).and_then(|r| r.raw_lanes(n.ty, act)) {
                        Some(bits) if !warp.in_memory(*slot) => {
                            for l in act.iter() {
                                out[l] = bits[l];
                            }
                            true
                        }
                        _ => false,
                    }
                }
                Node::Geom(g, k) => {
                    for l in act.iter() {
                        out[l] = int_bits(Scalar::U32, self.geometry_index(w, *g, *k, l) as i128);
                    }
                    true
                }
                Node::Conv(a) => match row(*a) {
                    Some(src) => {
                        let from = e.nodes[*a as usize].ty;
                        if from.is_float() || n.ty.is_float() {
                            // Through `KVal::convert`: a float that does not fit an integer
                            // type is undefined (C++17 [conv.fpint]/1), which the general evaluator says.
                            let to = ValTy::scalar(n.ty);
                            act.iter().all(|l| {
                                let k = lane_val(from, src[l]).convert(to).ok();
                                match k.as_ref().and_then(row_bits) {
                                    Some(bits) => {
                                        out[l] = bits;
                                        true
                                    }
                                    None => false,
                                }
                            })
                        } else {
                            for l in act.iter() {
                                out[l] = convert_int(from, n.ty, src[l]);
                            }
                            true
                        }
                    }
                    None => false,
                },
                Node::Bin { op, a, b, operands } => match (row(*a), row(*b)) {
                    (Some(x), Some(y)) => {
                        let count = e.nodes[*b as usize].ty;
                        bin_row(*op, *operands, count, (x, y), out, act)
                    }
                    _ => false,
                },
                Node::Fma {
                    x,
                    y,
                    c,
                    neg_product,
                    neg_addend,
                } => match (row(*x), row(*y), row(*c)) {
                    (Some(p), Some(q), Some(r)) => {
                        let sign = |neg: bool, v: u64| {
                            let v = f64::from_bits(v);
                            if neg {
                                -v
                            } else {
                                v
                            }
                        };
                        for l in act.iter() {
                            let v = crate::contract::fma(
                                n.ty,
                                sign(*neg_product, p[l]),
                                f64::from_bits(q[l]),
                                sign(*neg_addend, r[l]),
                            );
                            out[l] = row_bits(&KVal::float(n.ty, v)).unwrap_or(v.to_bits());
                        }
                        true
                    }
                    _ => false,
                },
                Node::Load { ptr, index } => match row(*index) {
                    Some(idx) => {
                        let count = e.nodes[*index as usize].ty;
                        self.typed_load(w, (*ptr, n.ty), (idx, count), out, act)
                    }
                    None => false,
                },
                Node::Op {
                    spec,
                    args,
                    operand,
                    site,
                    at,
                } => {
                    let call = TypedCall {
                        spec,
                        args,
                        operand: *operand,
                        site: *site,
                        at: *at,
                        ty: n.ty,
                        nodes: &e.nodes,
                    };
                    self.typed_op(w, pc, &call, done, out, (active, act))
                }
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Each active lane's cell `ptr[index]` (elements of type `elem`), as `load` reads it when
    /// the cell holds a value of that type; false when some lane's pointer is undefined, its cell
    /// is outside the buffer, never written, of another type or waiting for a queued MACA copy.
    fn typed_load(
        &mut self,
        w: usize,
        (ptr, elem): (usize, Scalar),
        (idx, count): (&[u64], Scalar),
        out: &mut [u64],
        act: LaneMask,
    ) -> bool {
        if self.maca.cells_pending()
            || self.async_copies.cells_pending()
            || self.warps[w].in_memory(ptr)
        {
            return false;
        }
        // The race check's record of each lane's read (`racecheck`); none in a block of one
        // warp, where it costs this one test.
        let mut who = self.race.on().then(|| self.race_who(w));
        let warp = &self.warps[w];
        let Some((offsets, bufs)) = warp
            .vars
            .get(ptr)
            .and_then(|r| r.ptr_lanes(ValTy::scalar(elem), act))
        else {
            return false;
        };
        // The lock-step check's record of each lane's read (`warp_race`), after the loop.
        let mut seen: Option<Vec<(usize, i64, usize)>> = self
            .warp_race_on()
            .then(|| Vec::with_capacity(act.count() as usize));
        let memory = &self.trace.memory;
        let mut cells = Vec::with_capacity(act.count() as usize);
        for l in act.iter() {
            // The address as `address` computes it: the pointer's offset plus the index.
            let Ok(k) = i64::try_from(as_int(count, idx[l])) else {
                return false;
            };
            let cell = (offsets[l] as i64).saturating_add(k);
            match memory.read(bufs[l] as usize, cell) {
                Ok(Some(KVal::Int { ty, bits })) if ty == elem => out[l] = bits,
                Ok(Some(KVal::Float {
                    ty,
                    x,
                    approx: None,
                })) if ty == elem => out[l] = x.to_bits(),
                _ => return false,
            }
            cells.push((bufs[l] as usize, cell, l));
        }
        // The reads are recorded once every lane's cell holds the element type: a cell of
        // another type (an `int*` over a `char` buffer) is read by `load` in bytes, and a
        // record here would name the element's index as a cell.
        for &(buf, cell, l) in &cells {
            if let Some(v) = seen.as_mut() {
                v.push((buf, cell, l));
            }
            if let Some(me) = who.as_mut() {
                me.lane = u8::try_from(l).unwrap_or(u8::MAX);
                let at = (&self.trace.memory, &mut self.meter);
                self.race.read(at, *me, buf, cell);
            }
        }
        for (buf, cell, l) in seen.into_iter().flatten() {
            self.warp_race_read(w, buf, cell, l);
        }
        true
    }

    /// A cross-lane call from its kept plan, or through the dialect's rule when none fits.
    fn typed_op(
        &mut self,
        w: usize,
        pc: usize,
        call: &TypedCall<'_>,
        done: &[u64],
        out: &mut [u64],
        (active, act): (LaneMask, LaneMask),
    ) -> bool {
        if self.mode != TraceMode::None {
            return false;
        }
        let lanes = self.trace.launch.lanes;
        let row = |k: u16| done.get(k as usize * lanes..(k as usize + 1) * lanes);
        // Threads that returned from the kernel, or never launched, have exited (as `call`).
        let warp = &self.warps[w];
        let mut exited = 0u128;
        for l in 0..lanes {
            if !warp.exists.contains(l) || warp.status.get(l) == Some(&LaneStatus::Returned) {
                exited |= 1 << l;
            }
        }
        let exited = LaneMask(exited);
        let Some(operand) = call.args.get(call.operand).and_then(|&k| row(k)) else {
            return false;
        };
        let state = &mut self.typed_state;
        let rows = call
            .args
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != call.operand)
            .map(|(_, &a)| row(a));
        if plan_key(&mut state.key, (active, exited), act, rows).is_none() {
            return false;
        }
        if state.plans.len() <= call.site {
            state.plans.resize_with(call.site + 1, SitePlans::default);
        }
        let site = &mut state.plans[call.site];
        let key = state.key.as_slice();
        let kept = match &site.last {
            Some(moves) if site.last_key == key => Some(moves.clone()),
            _ => site.plans.get(key).cloned(),
        };
        let moves = match kept {
            Some(moves) => moves,
            None => match self.plan_call(call, done, (active, exited)) {
                Some(moves) => {
                    let moves: Rc<[Move]> = moves.into();
                    let state = &mut self.typed_state;
                    let site = &mut state.plans[call.site];
                    let bytes = plan_bytes(&state.key, &moves);
                    if site.bytes + bytes > PLAN_BYTES_PER_SITE {
                        site.plans.clear();
                        site.bytes = 0;
                    }
                    site.bytes += bytes;
                    site.plans
                        .insert(state.key.as_slice().into(), moves.clone());
                    moves
                }
                None => {
                    let off = &mut self.typed_state.off;
                    if off.len() <= pc {
                        off.resize(pc + 1, false);
                    }
                    off[pc] = true;
                    return false;
                }
            },
        };
        let state = &mut self.typed_state;
        let site = &mut state.plans[call.site];
        if site.last_key != state.key {
            site.last_key.clear();
            site.last_key.extend_from_slice(&state.key);
        }
        site.last = Some(moves.clone());
        let ty = call.ty;
        for l in act.iter() {
            out[l] = match moves.get(l) {
                // An integer moves as it is; a float as the operation receives and returns it
                // (`float` through its single-precision bits).
                Some(Move::Lane(j)) => match operand.get(*j as usize) {
                    Some(&v) if !ty.is_float() => v,
                    Some(&v) => match core_bits(ty, v) {
                        Some(c) => from_core_bits(ty, c),
                        None => return false,
                    },
                    None => return false,
                },
                Some(Move::Const(c)) => from_core_bits(ty, *c),
                _ => return false,
            };
        }
        // The step about to be recorded holds a cross-lane call (`record` counts it as such
        // when the call ran through `cx.ops`; a kept plan leaves no op there).
        self.trace.stats.last_op_step = Some(self.trace.stats.steps);
        true
    }

    /// Runs a cross-lane call through the dialect's rule and returns its plan, when every
    /// active lane's result is a lane's operand or a constant of the operand's type, and the
    /// call noted nothing (else `None`: the general evaluator runs such calls).
    fn plan_call(
        &self,
        call: &TypedCall<'_>,
        done: &[u64],
        (active, exited): (LaneMask, LaneMask),
    ) -> Option<Vec<Move>> {
        let lanes = self.trace.launch.lanes;
        let act = LaneMask(active.0 & LaneMask::all(lanes).0);
        let mut vals: Vec<Vec<LaneVal>> = Vec::with_capacity(call.args.len());
        for &a in call.args.iter() {
            let ty = call.nodes.get(a as usize)?.ty;
            let r = done.get(a as usize * lanes..(a as usize + 1) * lanes)?;
            let mut v = vec![Err(Undef::idle()); lanes];
            for l in act.iter() {
                v[l] = Ok(lane_val(ty, r[l]));
            }
            vals.push(v);
        }
        let idents = vec![None; call.args.len()];
        // The lanes without a thread are not told apart here: they change only the notes, and
        // a call that notes anything is left to the general evaluator.
        let outcome = call_op(
            call.spec,
            lanes,
            active,
            (exited, LaneMask::default()),
            &vals,
            &idents,
            (call.at.line, call.at.col),
            self.config.preprocess.arch.as_deref(),
        );
        let [step] = outcome.steps.as_slice() else {
            return None;
        };
        if !outcome.diagnostics.is_empty()
            || step.ty != call.ty.value_type()
            || step.results.len() < lanes
            || step.results.iter().any(|r| r.source == Source::Undefined)
        {
            return None;
        }
        let plan = Plan::from_step(step);
        let operand = done.get(call.args[call.operand] as usize * lanes..)?;
        for l in act.iter() {
            let r = step.results.get(l)?;
            let v = r.value?;
            if v.ty != step.ty {
                return None;
            }
            match plan.moves.get(l)? {
                Move::Lane(j)
                    if act.contains(*j as usize)
                        && operand
                            .get(*j as usize)
                            .and_then(|&o| core_bits(call.ty, o))
                            == Some(v.bits) => {}
                Move::Const(c) if *c == v.bits => {}
                _ => return None,
            }
        }
        Some(plan.moves)
    }
}

/// One cross-lane call node, borrowed for the call.
struct TypedCall<'a> {
    spec: &'static crosslane_core::op::OpSpec,
    args: &'a [u16],
    operand: usize,
    site: usize,
    at: Span,
    ty: Scalar,
    /// The expression's nodes (for the arguments' types).
    nodes: &'a [TNode],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::binary;
    use proptest::prelude::*;

    const OPS: [BinOp; 16] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Eq,
        BinOp::Ne,
    ];
    const TYPES: [Scalar; 4] = [Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64];

    /// Values near the edges where C's rules change: 0, ±1, the type limits, shift counts.
    fn edge() -> impl Strategy<Value = u64> {
        prop_oneof![
            Just(0u64),
            Just(1),
            Just(u64::MAX),
            Just(31),
            Just(32),
            Just(63),
            Just(64),
            Just(0x7fff_ffff),
            Just(0x8000_0000),
            Just(0xffff_ffff),
            Just(i64::MAX as u64),
            Just(i64::MIN as u64),
            any::<u64>(),
            0u64..70,
        ]
    }

    proptest! {
        /// The typed row loop gives, lane by lane, what `types::binary` gives for the same two
        /// integers (an independent path: boxed values, run-time type dispatch), and refuses
        /// exactly the lanes `binary` calls undefined.
        #[test]
        fn a_typed_row_matches_binary_lane_by_lane(
            op in 0usize..16,
            ta in 0usize..4,
            tb in 0usize..4,
            xs in proptest::collection::vec(edge(), 4),
            ys in proptest::collection::vec(edge(), 4),
        ) {
            let (op, ta, tb) = (OPS[op], TYPES[ta], TYPES[tb]);
            let boxed = |ty: Scalar, v: u64| KVal::int(ty, v as i64 as i128);
            // The conversions the typed form makes explicit, then the row loop.
            let (ty, count) = if matches!(op, BinOp::Shl | BinOp::Shr) {
                (ta.promote(), tb)
            } else {
                (Scalar::common(ta, tb), Scalar::common(ta, tb))
            };
            for l in 0..4 {
                let (a, b) = (boxed(ta, xs[l]), boxed(tb, ys[l]));
                let bits = |k: &KVal, to: Scalar| match k.convert(crate::types::ValTy::scalar(to)) {
                    Ok(KVal::Int { bits, .. }) => bits,
                    other => panic!("{other:?}"),
                };
                let row_a = [bits(&a, ty)];
                let row_b = [bits(&b, count)];
                let mut out = [0u64];
                let ok = bin_row(op, ty, count, (&row_a, &row_b), &mut out, LaneMask::all(1));
                match binary(op, &a, &b) {
                    Ok(KVal::Int { bits, .. }) => {
                        prop_assert!(ok, "{a:?} {op:?} {b:?} refused, binary gives {bits}");
                        prop_assert_eq!(out[0], bits, "{:?} {:?} {:?}", a, op, b);
                    }
                    Ok(other) => panic!("{other:?}"),
                    Err(_) => prop_assert!(!ok, "{a:?} {op:?} {b:?}: binary says undefined"),
                }
            }
        }
    }

    proptest! {
        /// The 64-bit integer conversion gives what `KVal::convert` gives (C++17 [conv.integral]).
        #[test]
        fn an_integer_conversion_matches_kval_convert(
            from in 0usize..9,
            to in 0usize..9,
            v in edge(),
        ) {
            let all = [
                Scalar::Bool, Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16,
                Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64,
            ];
            let (from, to) = (all[from], all[to]);
            let k = KVal::int(from, v as i64 as i128);
            let KVal::Int { bits, .. } = k else { panic!() };
            let want = match k.convert(crate::types::ValTy::scalar(to)) {
                Ok(KVal::Int { bits, .. }) => bits,
                other => panic!("{other:?}"),
            };
            prop_assert_eq!(convert_int(from, to, bits), want, "{:?} -> {:?}", k, to);
        }
    }

    #[test]
    fn signed_overflow_and_division_by_zero_are_refused() {
        let all = LaneMask::all(2);
        let mut out = [0u64; 2];
        // i32::MAX + 1 overflows int (C++17 [expr]/4); 0xffffffffu + 1 wraps to 0 ([basic.fundamental]/4).
        let max = [0x7fff_ffffu64, 1];
        let one = [1u64, 1];
        assert!(!bin_row(
            BinOp::Add,
            Scalar::I32,
            Scalar::I32,
            (&max, &one),
            &mut out,
            all
        ));
        let umax = [0xffff_ffffu64, 2];
        assert!(bin_row(
            BinOp::Add,
            Scalar::U32,
            Scalar::U32,
            (&umax, &one),
            &mut out,
            all
        ));
        assert_eq!(out, [0, 3]);
        let zero = [5u64, 0];
        assert!(!bin_row(
            BinOp::Div,
            Scalar::U32,
            Scalar::U32,
            (&one, &zero),
            &mut out,
            all
        ));
        // Only the active lanes count: lane 1's division by zero is not executed.
        assert!(bin_row(
            BinOp::Div,
            Scalar::U32,
            Scalar::U32,
            (&zero, &zero),
            &mut out,
            LaneMask::all(1)
        ));
        assert_eq!(out[0], 1);
    }
}
