//! Expressions: built-in identifiers, geometry, per-lane evaluation and variable reads.

use super::typed::{int_literal_type, Geom};
use super::*;
use crate::ast::*;
use crate::builtins::maca_icmp;
use crate::exec::Executor;
use crate::trace::{LaneVal, Undef};
use crate::types::{binary, unary, BinOp, KVal, Scalar, Ty};
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

impl Executor {
    // -------------------------------------------------------------- expressions

    pub(crate) fn lane_thread(&self, w: usize, l: usize) -> usize {
        self.warps[w].index * self.trace.launch.lanes + l
    }

    pub(crate) fn builtin_ident(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        let constant = match name {
            "warpSize" => Some(KVal::int(Scalar::I32, lanes as i128)),
            n => maca_icmp(n)
                .map(|v| KVal::int(Scalar::I32, v))
                .or_else(|| crate::mathlib::constant(n)),
        };
        for l in mask.iter() {
            let v = if let Some(c) = &constant {
                Ok(c.clone())
            } else if name == "laneId" && self.snippet {
                Ok(KVal::int(Scalar::I32, l as i128))
            } else {
                let msg = format!("`{name}` is not declared");
                cx.note(Level::Error, e.span, msg.clone(), "", None);
                Err(Undef::at(e.span, msg))
            };
            if let Some(c) = out.get_mut(l) {
                *c = v;
            }
        }
        let _ = w;
        out
    }

    pub(crate) fn geometry(&self, w: usize, base: &str, field: &str, l: usize) -> Option<KVal> {
        let k = match field {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return None,
        };
        let g = Geom::named(base)?;
        Some(KVal::int(
            Scalar::U32,
            self.geometry_index(w, g, k, l) as i128,
        ))
    }

    /// Component `k` (0 = x, 1 = y, 2 = z) of geometry built-in `g` in lane `l` of warp `w`:
    /// a thread's index splits x-fastest over the block's dimensions (CUDA C++ Programming
    /// Guide, Thread Hierarchy).
    pub(crate) fn geometry_index(&self, w: usize, g: Geom, k: u8, l: usize) -> usize {
        let k = usize::from(k.min(2));
        let launch = &self.trace.launch;
        let split = |n: usize, d: [usize; 3]| {
            let (x, y) = (d[0].max(1), d[1].max(1));
            [n % x, (n / x) % y, n / (x * y)]
        };
        match g {
            Geom::ThreadIdx => split(self.lane_thread(w, l), launch.block_dim)[k],
            Geom::BlockIdx => split(self.block, launch.grid_dim)[k],
            Geom::BlockDim => launch.block_dim[k],
            Geom::GridDim => launch.grid_dim[k],
        }
    }

    pub(crate) fn eval(
        &mut self,
        w: usize,
        e: &Expr,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let idle = || vec![Err(Undef::idle()); lanes];
        // One unit of work per node; once the budget is spent the rest of the statement is
        // skipped (the step then ends the run with the limit).
        if !self.meter.work(1) {
            return idle();
        }
        let lanewise = |mask: LaneMask, f: &mut dyn FnMut(usize) -> LaneVal| -> Vec<LaneVal> {
            let mut out = vec![Err(Undef::idle()); lanes];
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = f(l);
            }
            out
        };
        match &e.kind {
            ExprKind::Int {
                value,
                unsigned,
                long,
            } => {
                let v = *value as i128;
                let ty = int_literal_type(*value, *unsigned, *long);
                lanewise(mask, &mut |_| Ok(KVal::int(ty, v)))
            }
            ExprKind::Float { value, single } => {
                let ty = if *single { Scalar::F32 } else { Scalar::F64 };
                lanewise(mask, &mut |_| Ok(KVal::float(ty, *value)))
            }
            ExprKind::Bool(b) => lanewise(mask, &mut |_| Ok(KVal::bool(*b))),
            ExprKind::SizeOf(n) => lanewise(mask, &mut |_| Ok(KVal::int(Scalar::U64, *n as i128))),
            // A string literal's value is a pointer to its first character (C++17
            // [conv.array]/1 of the literal's array, [lex.string]/8), read-only
            // ([`crate::memory::STRING_BUF`]).
            ExprKind::Str(text) => {
                match self
                    .trace
                    .memory
                    .intern_string(&crate::printf::unescape(text))
                {
                    Some(buf) => lanewise(mask, &mut |_| {
                        Ok(KVal::Ptr {
                            elem: crate::types::ValTy::scalar(Scalar::I8),
                            buf,
                            offset: 0,
                        })
                    }),
                    None => {
                        let m = "more distinct string literals than the run holds".to_string();
                        cx.note(Level::Error, e.span, m.clone(), "", None);
                        lanewise(mask, &mut |_| Err(Undef::at(e.span, m.clone())))
                    }
                }
            }
            ExprKind::Ident(name) => match self.idents.get(&(self.cur, e.id)).copied() {
                Some(slot) => self.read_var(w, slot, e.span, mask, cx),
                None => self.builtin_ident(w, e, name, mask, cx),
            },
            ExprKind::Member(base, field) => {
                if let ExprKind::Ident(b) = &base.kind {
                    if !self.idents.contains_key(&(self.cur, base.id))
                        && matches!(
                            b.as_str(),
                            "threadIdx" | "blockIdx" | "blockDim" | "gridDim"
                        )
                    {
                        let mut out = idle();
                        for l in mask.iter().filter(|&l| l < lanes) {
                            out[l] = self.geometry(w, b, field, l).ok_or_else(|| {
                                let m = format!("`{b}` has fields x, y, z, not `{field}`");
                                cx.note(Level::Error, e.span, m.clone(), "", None);
                                Undef::at(e.span, m)
                            });
                        }
                        return out;
                    }
                }
                let vals = self.eval(w, base, mask, cx);
                let k = match field.as_str() {
                    "x" => Some(0),
                    "y" => Some(1),
                    "z" => Some(2),
                    "w" => Some(3),
                    _ => None,
                };
                lanewise(mask, &mut |l| {
                    let v = vals[l].clone()?;
                    // `q.__x`: an 8-bit float's storage member (crate::fp8::storage).
                    if field == "__x" {
                        if let Some(r) = crate::fp8::storage(&v) {
                            return r.map_err(|m| {
                                cx.note(Level::Error, e.span, m.clone(), "", None);
                                Undef::at(e.span, m)
                            });
                        }
                    }
                    match (&v, k) {
                        (KVal::Vector { items, .. }, Some(k)) if k < items.len() => {
                            Ok(items[k].clone())
                        }
                        _ => {
                            let m = format!("`.{field}` needs a vector with that component");
                            cx.note(Level::Error, e.span, m.clone(), "", None);
                            Err(Undef::at(e.span, m))
                        }
                    }
                })
            }
            ExprKind::Index(base, idx) => {
                let b = self.eval(w, base, mask, cx);
                let i = self.eval(w, idx, mask, cx);
                let mut out = idle();
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match (&b[l], &i[l]) {
                        (Err(u), _) | (_, Err(u)) => Err(u.clone()),
                        (Ok(KVal::Vector { items, .. }), Ok(k)) => {
                            let k = k.as_int().unwrap_or(-1);
                            usize::try_from(k)
                                .ok()
                                .and_then(|k| items.get(k))
                                .cloned()
                                .ok_or_else(|| {
                                    let m = format!("component {k} is outside the vector");
                                    cx.note(Level::Warning, e.span, m.clone(), "", Some(l));
                                    Undef::at(e.span, m)
                                })
                        }
                        (Ok(p), Ok(k)) => match self.address(p, k) {
                            Ok(at) => self.load_as(p, at, e.span, l, cx),
                            Err(m) => {
                                cx.note(Level::Error, e.span, m.clone(), "", Some(l));
                                Err(Undef::at(e.span, m))
                            }
                        },
                    };
                }
                out
            }
            ExprKind::Deref(p) => {
                let ptrs = self.eval(w, p, mask, cx);
                let mut out = idle();
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = match &ptrs[l] {
                        Err(u) => Err(u.clone()),
                        Ok(p) => match self.address(p, &KVal::int(Scalar::I32, 0)) {
                            Ok(at) => self.load_as(p, at, e.span, l, cx),
                            Err(m) => {
                                cx.note(Level::Error, e.span, m.clone(), "", Some(l));
                                Err(Undef::at(e.span, m))
                            }
                        },
                    };
                }
                out
            }
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Index(base, idx) => {
                    let b = self.eval(w, base, mask, cx);
                    let i = self.eval(w, idx, mask, cx);
                    lanewise(mask, &mut |l| {
                        let (p, k) = (b[l].clone()?, i[l].clone()?);
                        binary(BinOp::Add, &p, &k).map_err(|f| {
                            cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                            Undef::at(e.span, f.message)
                        })
                    })
                }
                ExprKind::Deref(p) => self.eval(w, p, mask, cx),
                // A variable held in memory (a `__shared__` scalar, a reference parameter): its
                // one cell, so `atomicAdd(&count, 1)` works on a shared counter.
                ExprKind::Ident(_)
                    if self
                        .idents
                        .get(&(self.cur, inner.id))
                        .is_some_and(|s| self.warps[w].refs.contains_key(s)) =>
                {
                    let slot = self.idents[&(self.cur, inner.id)];
                    let buf = self.warps[w].refs[&slot];
                    let elem = self.trace.memory.buffers.get(buf).map(|b| b.elem);
                    lanewise(mask, &mut |_| match elem {
                        Some(elem) => Ok(KVal::Ptr {
                            elem,
                            buf,
                            offset: 0,
                        }),
                        None => Err(Undef::idle()),
                    })
                }
                // `&arr` of an array: its first element's address (the array converted to a
                // pointer), which a cast then views as another type (`(float4*)&reg`).
                ExprKind::Ident(_)
                    if self
                        .idents
                        .get(&(self.cur, inner.id))
                        .is_some_and(|s| self.array_slots.contains(s)) =>
                {
                    self.eval(w, inner, mask, cx)
                }
                // A local whose address is taken lives in its lane's own cell.
                ExprKind::Ident(_)
                    if self
                        .idents
                        .get(&(self.cur, inner.id))
                        .is_some_and(|s| self.warps[w].lane_refs.contains_key(s)) =>
                {
                    let slot = self.idents[&(self.cur, inner.id)];
                    let warp = &self.warps[w];
                    let memory = &self.trace.memory;
                    lanewise(mask, &mut |l| {
                        let buf = warp.lane_ref(slot, l).ok_or_else(|| {
                            Undef::at(inner.span, "the variable is not declared in this lane")
                        })?;
                        let elem = memory
                            .buffers
                            .get(buf)
                            .map(|b| b.elem)
                            .ok_or_else(Undef::idle)?;
                        Ok(KVal::Ptr {
                            elem,
                            buf,
                            offset: 0,
                        })
                    })
                }
                // `&out[i].x`: a component of a vector element in memory.
                ExprKind::Member(_, f) if matches!(f.as_str(), "x" | "y" | "z" | "w") => {
                    self.component_address(w, e, inner, mask, cx)
                }
                _ => {
                    let m = super::vector_mem::NO_ADDRESS.to_string();
                    cx.note(Level::Error, e.span, m.clone(), "", None);
                    lanewise(mask, &mut |_| Err(Undef::at(e.span, m.clone())))
                }
            },
            ExprKind::Call(name, args) => self.call(w, e, name, args, mask, cx),
            ExprKind::Unary(op, a) => {
                let v = self.eval(w, a, mask, cx);
                let dialect = self.trace.launch.dialect;
                lanewise(mask, &mut |l| {
                    let x = v[l].clone()?;
                    let refused = crate::vector_types::unary_refusal(dialect, *op, &x)
                        .map(crate::types::Fault::error);
                    let run = || {
                        let hip = dialect == crosslane_core::op::Dialect::Hip;
                        hip.then(|| crate::hip_vector_ops::apply_unary(*op, &x))
                            .flatten()
                            .unwrap_or_else(|| unary(*op, &x))
                    };
                    refused.map_or_else(run, Err).map_err(|f| {
                        cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                        Undef::at(e.span, f.message)
                    })
                })
            }
            ExprKind::Binary(op, a, b) => {
                if self.contract.at(e.span.line) {
                    if let Some(f) = crate::contract::split(*op, a, b) {
                        return self.eval_fused(w, e, &f, mask, cx);
                    }
                }
                let x = self.eval(w, a, mask, cx);
                let y = self.eval(w, b, mask, cx);
                let dialect = self.trace.launch.dialect;
                let fast = self.config.use_fast_math;
                lanewise(mask, &mut |l| {
                    let (p, q) = (x[l].clone()?, y[l].clone()?);
                    vendor_binary(dialect, fast, *op, &p, &q).map_err(|f| {
                        cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                        Undef::at(e.span, f.message)
                    })
                })
            }
            ExprKind::Logical(_, _, _) if self.hoisted.contains_key(&(self.cur, e.id)) => {
                // Its right operand calls a device function: the compiler ran it as a branch
                // and left the result in a slot (`Compiler::short_circuit`).
                let slot = self.hoisted[&(self.cur, e.id)];
                self.read_var(w, slot, e.span, mask, cx)
            }
            ExprKind::Logical(and, a, b) => {
                let x = self.eval(w, a, mask, cx);
                // WGSL: an indeterminate value is some value of its type (WGSL spec,
                // § Indeterminate Values), so where the left operand is indeterminate and the
                // right one alone decides (`x || true`, `x && false`), the result is that value.
                // The right operand is evaluated there too (a WGSL one is pure: naga makes its
                // calls statements, and such an operand keeps its branch).
                let indeterminate_left =
                    self.trace.launch.dialect == crosslane_core::op::Dialect::Wgsl;
                let mut need = LaneMask::none();
                for l in mask.iter().filter(|&l| l < lanes) {
                    match &x[l] {
                        Ok(v) if v.truthy() == Some(*and) => need = need.with(l),
                        Err(_) if indeterminate_left => need = need.with(l),
                        _ => {}
                    }
                }
                let y = self.eval(w, b, need, cx);
                lanewise(mask, &mut |l| {
                    let p = match x[l].clone() {
                        Ok(p) => p,
                        Err(u) => {
                            let decides = indeterminate_left
                                && y[l].as_ref().is_ok_and(|q| q.truthy() == Some(!*and));
                            return if decides {
                                Ok(KVal::bool(!*and))
                            } else {
                                Err(u)
                            };
                        }
                    };
                    let t = p
                        .truthy()
                        .ok_or_else(|| Undef::at(e.span, "not a scalar"))?;
                    if t != *and {
                        return Ok(KVal::bool(t));
                    }
                    let q = y[l].clone()?;
                    q.truthy()
                        .map(KVal::bool)
                        .ok_or_else(|| Undef::at(e.span, "not a scalar"))
                })
            }
            ExprKind::Ternary(c, a, b) => {
                // An undefined condition makes the result undefined with the condition's own
                // reason: neither operand is evaluated in that lane.
                let (t, f, undefined) = self.condition_split(w, c, mask, cx);
                let x = self.eval(w, a, t, cx);
                let y = self.eval(w, b, f, cx);
                lanewise(mask, &mut |l| {
                    if t.contains(l) {
                        x[l].clone()
                    } else if f.contains(l) {
                        y[l].clone()
                    } else {
                        Err(undefined
                            .iter()
                            .find(|(k, _)| *k == l)
                            .map_or_else(Undef::idle, |(_, u)| u.clone()))
                    }
                })
            }
            ExprKind::Cast(ty, a) => {
                let v = self.eval(w, a, mask, cx);
                let buffers = self.trace.memory.buffers.len();
                lanewise(mask, &mut |l| {
                    let x = v[l].clone()?;
                    match ty {
                        // A pointer to an integer: its emulated address (`crate::ptr_int`).
                        Ty::Val(t) if t.lanes == 1 && !t.scalar.is_float() => match x {
                            KVal::Ptr { elem, buf, offset } => {
                                Ok(crate::ptr_int::to_int(elem, buf, offset, t.scalar))
                            }
                            x => x.convert(*t).map_err(|f| {
                                cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                                Undef::at(e.span, f.message)
                            }),
                        },
                        Ty::Val(t) => x.convert(*t).map_err(|f| {
                            cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                            Undef::at(e.span, f.message)
                        }),
                        Ty::Ptr(elem) => match x {
                            KVal::Ptr {
                                elem: from,
                                buf,
                                offset,
                            } => crate::vector_types::recast(from, *elem, offset)
                                .map(|offset| KVal::Ptr {
                                    elem: *elem,
                                    buf,
                                    offset,
                                })
                                .map_err(|f| {
                                    cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                                    Undef::at(e.span, f.message)
                                }),
                            KVal::Int { .. } => match x.as_int() {
                                Some(n) => crate::ptr_int::from_int(n, *elem, buffers),
                                None => Err(crate::types::Fault::error("not an integer")),
                            }
                            .map_err(|f| {
                                cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                                Undef::at(e.span, f.message)
                            }),
                            _ => {
                                let m =
                                    "only pointers can be cast to pointer types here".to_string();
                                cx.note(Level::Error, e.span, m.clone(), "", None);
                                Err(Undef::at(e.span, m))
                            }
                        },
                        Ty::Void => Err(Undef::at(e.span, "(void) has no value")),
                    }
                })
            }
            ExprKind::Comma(a, b) => {
                // A no-op built-in (`__builtin_amdgcn_wave_barrier()`, a fence) as the discarded
                // left operand: a void expression is allowed there (C++ [expr.comma]/1), so
                // only its arguments are evaluated. Reserved `__` names only: `printf` and
                // user functions take the ordinary call.
                match &a.kind {
                    ExprKind::Call(name, args)
                        if name.starts_with("__")
                            && crate::builtins::builtin(name)
                                == Some(crate::builtins::Builtin::NoOp) =>
                    {
                        for x in args {
                            self.eval(w, x, mask, cx);
                        }
                    }
                    _ => {
                        self.eval(w, a, mask, cx);
                    }
                }
                self.eval(w, b, mask, cx)
            }
            ExprKind::Assign(op, lhs, rhs) => {
                // C++17 [expr.ass]/1: "The right operand is sequenced before the left
                // operand", for `=` and every compound `op=`: `o[i++] = i` reads `i` before the
                // index's increment. So the value is computed first, then the place.
                // `acc += a*b` / `acc -= a*b` contracted (crate::contract): the factors are
                // kept to fuse with the old value.
                let factors = match (op, &rhs.kind) {
                    (Some(BinOp::Add | BinOp::Sub), ExprKind::Binary(BinOp::Mul, x, y))
                        if self.contract.at(e.span.line) =>
                    {
                        if !self.meter.work(1) {
                            return idle();
                        }
                        let xs = self.eval(w, x, mask, cx);
                        let ys = self.eval(w, y, mask, cx);
                        Some((xs, ys))
                    }
                    _ => None,
                };
                let r = match &factors {
                    Some((xs, ys)) => self.product_lanes(rhs, xs, ys, mask, cx),
                    None => self.eval(w, rhs, mask, cx),
                };
                let places = self.place(w, lhs, mask, cx);
                let mut out = idle();
                // A warp runs `o[0] += v` as one load of every lane, then one store of every
                // lane (CUDA C++ Programming Guide, SIMT Architecture: "If a non-atomic
                // instruction executed by a warp writes to the same location … for more than
                // one of the threads of the warp, … which thread performs the final write is
                // undefined"): every lane reads the old value before any lane writes, so lanes
                // that race on one cell each store their own `old op v` and one of those
                // survives (`bytes_written`'s warning names which), never a running sum.
                let mut values = Vec::with_capacity(lanes);
                for l in mask.iter().filter(|&l| l < lanes) {
                    let Ok(place) = places[l].clone() else {
                        out[l] = places[l].clone().map(|_| KVal::bool(false));
                        continue;
                    };
                    let value = match op {
                        None => r[l].clone(),
                        Some(op) => {
                            let old = self.read_place(w, place, l, lhs.span, cx);
                            let fused = match (&factors, &old) {
                                (Some((xs, ys)), Ok(a)) => match (&xs[l], &ys[l]) {
                                    (Ok(p), Ok(q)) => fused_lane(
                                        self.config.use_fast_math,
                                        (*op == BinOp::Sub, false),
                                        (p, q, a),
                                    ),
                                    _ => None,
                                },
                                _ => None,
                            };
                            match (old, r[l].clone()) {
                                (Ok(_), Ok(_)) if fused.is_some() => {
                                    fused.ok_or_else(|| Undef::at(e.span, "no fused value"))
                                }
                                (Ok(a), Ok(b)) => vendor_binary(
                                    self.trace.launch.dialect,
                                    self.config.use_fast_math,
                                    *op,
                                    &a,
                                    &b,
                                )
                                .map_err(|f| {
                                    cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                                    Undef::at(e.span, f.message)
                                }),
                                (Err(u), _) | (_, Err(u)) => Err(u),
                            }
                        }
                    };
                    values.push((l, place, value));
                }
                for (l, place, value) in values {
                    out[l] = self.write_place(w, place, l, value, e.span, cx);
                }
                out
            }
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } => {
                let places = self.place(w, target, mask, cx);
                let mut out = idle();
                // Every lane loads before any lane stores, as for `op=` above: `o[0]++` in a
                // whole warp stores `old + 1`, whichever lane's write survives.
                let mut values = Vec::with_capacity(lanes);
                for l in mask.iter().filter(|&l| l < lanes) {
                    let Ok(place) = places[l].clone() else {
                        continue;
                    };
                    let old = self.read_place(w, place, l, target.span, cx);
                    let new = old.clone().and_then(|v| {
                        let op = if *inc { BinOp::Add } else { BinOp::Sub };
                        binary(op, &v, &KVal::int(Scalar::I32, 1)).map_err(|f| {
                            cx.note(f.level, e.span, f.message.clone(), "", Some(l));
                            Undef::at(e.span, f.message)
                        })
                    });
                    values.push((l, place, old, new));
                }
                for (l, place, old, new) in values {
                    let stored = self.write_place(w, place, l, new, e.span, cx);
                    out[l] = if *prefix { stored } else { old };
                }
                out
            }
        }
    }

    pub(crate) fn read_var(
        &mut self,
        w: usize,
        slot: usize,
        span: Span,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        if let Some(&buf) = self.warps[w].refs.get(&slot) {
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = self.load(buf, 0, span, l, cx);
            }
            return out;
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match self.warps[w].lane_ref(slot, l) {
                Some(buf) => self.load(buf, 0, span, l, cx),
                None => self.reg_lane(w, slot, span, l, cx),
            };
        }
        out
    }

    /// Lane `l`'s value of variable `slot` (through its buffer for a reference); reading an
    /// uninitialized one notes a diagnostic. Allocates nothing for a defined value.
    pub(crate) fn read_lane(
        &mut self,
        w: usize,
        slot: usize,
        span: Span,
        l: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        if let Some(&buf) = self.warps[w].refs.get(&slot) {
            return self.load(buf, 0, span, l, cx);
        }
        if let Some(buf) = self.warps[w].lane_ref(slot, l) {
            return self.load(buf, 0, span, l, cx);
        }
        self.reg_lane(w, slot, span, l, cx)
    }

    /// Lane `l` of the register of `slot` (not a reference).
    fn reg_lane(&self, w: usize, slot: usize, span: Span, l: usize, cx: &mut StepCtx) -> LaneVal {
        let v = self.warps[w]
            .vars
            .get(slot)
            .and_then(|r| r.get(l, &self.reasons))
            .unwrap_or_else(|| Err(Undef::idle()));
        if let Err(u) = &v {
            if u.uninit && !cx.operand_read {
                let name = self.slots.get(slot).map_or("", |s| s.name.as_str());
                cx.note(
                    Level::Warning,
                    span,
                    format!(
                        "`{name}` is read uninitialized ({}): its value is undefined",
                        u.why
                    ),
                    "ISO C++17 [dcl.init]/12; seed 002 §3.8.3 example",
                    Some(l),
                );
            }
        }
        v
    }
}

impl Executor {
    /// A contracted `a*b ± c` / `c ± a*b` ([`crate::contract::split`]): the operands in
    /// source order, then per lane the fused value when their types fuse, else the product
    /// and the sum as C computes them.
    fn eval_fused(
        &mut self,
        w: usize,
        e: &Expr,
        f: &crate::contract::Fusion<'_>,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        // The product node, as `eval` visits it.
        if !self.meter.work(1) {
            return vec![Err(Undef::idle()); lanes];
        }
        let (xs, ys, cs) = if f.product_first {
            let xs = self.eval(w, f.x, mask, cx);
            let ys = self.eval(w, f.y, mask, cx);
            (xs, ys, self.eval(w, f.c, mask, cx))
        } else {
            let cs = self.eval(w, f.c, mask, cx);
            let xs = self.eval(w, f.x, mask, cx);
            (xs, self.eval(w, f.y, mask, cx), cs)
        };
        let dialect = self.trace.launch.dialect;
        let op = if f.neg_product || f.neg_addend {
            BinOp::Sub
        } else {
            BinOp::Add
        };
        let fast = self.config.use_fast_math;
        let products = self.product_lanes(f.product, &xs, &ys, mask, cx);
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = (|| {
                let (p, q, c) = (xs[l].clone()?, ys[l].clone()?, cs[l].clone()?);
                if let Some(v) = fused_lane(fast, (f.neg_product, f.neg_addend), (&p, &q, &c)) {
                    return Ok(v);
                }
                let prod = products[l].clone()?;
                let (a, b) = if f.product_first {
                    (&prod, &c)
                } else {
                    (&c, &prod)
                };
                vendor_binary(dialect, fast, op, a, b).map_err(|fault| {
                    cx.note(fault.level, e.span, fault.message.clone(), "", Some(l));
                    Undef::at(e.span, fault.message)
                })
            })();
        }
        out
    }

    /// `x * y` in each lane of `mask` (the product expression `at`), as `eval` computes it.
    fn product_lanes(
        &mut self,
        at: &Expr,
        xs: &[LaneVal],
        ys: &[LaneVal],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let dialect = self.trace.launch.dialect;
        let fast = self.config.use_fast_math;
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match (&xs[l], &ys[l]) {
                (Ok(p), Ok(q)) => vendor_binary(dialect, fast, BinOp::Mul, p, q).map_err(|f| {
                    cx.note(f.level, at.span, f.message.clone(), "", Some(l));
                    Undef::at(at.span, f.message)
                }),
                (Err(u), _) | (_, Err(u)) => Err(u.clone()),
            };
        }
        out
    }
}

/// A contracted lane's fused value ([`crate::contract::fused_value`]); under `--use_fast_math`
/// (`fast`) a `float` one's denormal operands and result are flushed (`-ftz=true`).
fn fused_lane(fast: bool, signs: (bool, bool), (p, q, c): (&KVal, &KVal, &KVal)) -> Option<KVal> {
    if !fast {
        return crate::contract::fused_value(signs, p, q, c);
    }
    let flush = |v: &KVal| crate::mathlib::flush_denormal(v.clone());
    crate::contract::fused_value(signs, &flush(p), &flush(q), &flush(c))
        .map(crate::mathlib::flush_denormal)
}

/// `op` as the dialect defines it ([`vendor_binary_exact`]), and under `--use_fast_math`
/// (`fast`) as nvcc's fast math compiles it ([`crate::mathlib::fast_binary`]).
fn vendor_binary(
    dialect: crosslane_core::op::Dialect,
    fast: bool,
    op: BinOp,
    a: &KVal,
    b: &KVal,
) -> Result<KVal, crate::types::Fault> {
    if fast {
        crate::mathlib::fast_binary(op, a, b, |a, b| vendor_binary_exact(dialect, op, a, b))
    } else {
        vendor_binary_exact(dialect, op, a, b)
    }
}

/// A binary operator as the dialect's headers define it on vector operands
/// ([`crate::vector_types`]: refused where they define none, `__half2` comparisons as
/// "both halves"), else with C semantics ([`binary`]).
fn vendor_binary_exact(
    dialect: crosslane_core::op::Dialect,
    op: BinOp,
    a: &KVal,
    b: &KVal,
) -> Result<KVal, crate::types::Fault> {
    use crate::vector_types::{half_pair_compare, operator_refusal};
    if let Some(m) = operator_refusal(dialect, op, a, b) {
        return Err(crate::types::Fault::error(m));
    }
    if dialect == crosslane_core::op::Dialect::Hip {
        if let Some(r) = crate::hip_vector_ops::apply(op, a, b) {
            return r;
        }
    }
    if matches!(
        dialect,
        crosslane_core::op::Dialect::Cuda | crosslane_core::op::Dialect::Hip
    ) {
        if let Some(r) = half_pair_compare(op, a, b) {
            return Ok(r);
        }
    }
    let r = binary(op, a, b)?;
    if dialect == crosslane_core::op::Dialect::Wgsl && op == BinOp::Div {
        return Ok(wgsl_division(r, a, b));
    }
    Ok(r)
}

/// A WGSL f32 quotient with its accuracy note: WGSL spec § 15.7.4, "x / y: 2.5 ULP for |y| in
/// the range [2^-126, 2^126]" ([`crate::wgsl::inherited::division_bound`]), the operands'
/// errors carried through it. Other types and integer quotients are returned as they are.
fn wgsl_division(r: KVal, a: &KVal, b: &KVal) -> KVal {
    let KVal::Float {
        ty: crate::types::Scalar::F32,
        x,
        ..
    } = r
    else {
        return r;
    };
    let (p, q) = (
        a.as_f64().unwrap_or(f64::NAN),
        b.as_f64().unwrap_or(f64::NAN),
    );
    let own = crate::mathlib::intrinsics::named_note(
        "x/y (WGSL f32)",
        crate::wgsl::inherited::division_bound(q),
    );
    KVal::propagated(
        crate::types::Scalar::F32,
        x,
        own,
        &[(p, a.approx()), (q, b.approx())],
        &|v| v[0] / v[1],
    )
}
