//! The typed form of a statement: its expression compiled once, when the executor is built, into
//! a flat list of nodes whose C types are known before it runs (variables resolved to their
//! slots, literals to their bits, the usual arithmetic conversions (C++17 [expr]/11) to explicit
//! conversion nodes). Running it ([`super::typed_run`]) is a tight loop per node over the active
//! lanes' raw bits, with no value boxes and no heap allocation.
//!
//! Only what has one static type is compiled: integer, `float` and `double` variables and
//! literals, the `threadIdx`/`blockIdx`/`blockDim`/`gridDim` components, arithmetic,
//! comparisons, shifts and casts, loads of such cells through a pointer variable, assignments and `++`/`--` to an integer variable, a scalar declaration with
//! its initializer, a branch or loop condition, and a cross-lane operation call on such an
//! operand. Everything else — and, at run time, any statement where a lane reads an undefined or
//! differently-typed value or an operation is undefined by the C rules — runs on the general
//! evaluator (`eval.rs`), which produces the diagnostics and the undefined values' reasons. The
//! typed form therefore only ever computes what the general evaluator would compute when every
//! lane is defined.

use std::collections::HashMap;

use crate::ast::*;
use crate::builtins::{arg_slots, builtin, find_kernel_op, Slot};
use crate::compile::{Inst, Key, SlotInfo};
use crate::types::{BinOp, KVal, Scalar, Ty};
use crosslane_core::op::{Dialect, OpKind, OpSpec};

/// A node's index in its expression's node list.
pub(crate) type NodeId = u16;

/// A launch-geometry built-in (CUDA C++ Programming Guide, Built-in Variables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Geom {
    /// `threadIdx`.
    ThreadIdx,
    /// `blockIdx`.
    BlockIdx,
    /// `blockDim`.
    BlockDim,
    /// `gridDim`.
    GridDim,
}

impl Geom {
    /// The built-in named `name`, if it is one.
    pub(crate) fn named(name: &str) -> Option<Geom> {
        Some(match name {
            "threadIdx" => Geom::ThreadIdx,
            "blockIdx" => Geom::BlockIdx,
            "blockDim" => Geom::BlockDim,
            "gridDim" => Geom::GridDim,
            _ => return None,
        })
    }
}

/// What a node computes in each active lane; operands are earlier nodes.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A constant: its bits in the node's type.
    Const(u64),
    /// Variable `slot` (a register holding the node's type).
    Var(usize),
    /// Component `k` (x, y, z) of a geometry built-in (`unsigned int`).
    Geom(Geom, u8),
    /// The operand converted to the node's type as C converts it (C++17 [conv]).
    Conv(NodeId),
    /// A binary operator. Both operands have type `operands` (the usual arithmetic conversions),
    /// except a shift's count, which keeps its own type (C++17 [expr.shift]/1).
    Bin {
        op: BinOp,
        a: NodeId,
        b: NodeId,
        operands: Scalar,
    },
    /// `±x·y ± c` rounded once (a contracted product and sum, [`crate::contract`]); the
    /// operands have the node's type (`float` or `double`).
    Fma {
        x: NodeId,
        y: NodeId,
        c: NodeId,
        neg_product: bool,
        neg_addend: bool,
    },
    /// Cell `ptr + index` of the buffer pointer variable `ptr` points into (elements of the
    /// node's type).
    Load { ptr: usize, index: NodeId },
    /// A cross-lane operation: `args` in call order, `operand` the index of the operand among
    /// them, `site` the call's index in the program (its plan cache), `at` the call's position.
    Op {
        spec: &'static OpSpec,
        args: Vec<NodeId>,
        operand: usize,
        site: usize,
        at: Span,
    },
}

/// A node and the C type of its value.
#[derive(Clone, Debug)]
pub(crate) struct TNode {
    pub(crate) node: Node,
    pub(crate) ty: Scalar,
}

/// A compiled expression: its nodes in evaluation order (the last is the value) and the work
/// units the general evaluator charges for it (one per expression node it visits).
#[derive(Clone, Debug)]
pub(crate) struct TExpr {
    pub(crate) nodes: Vec<TNode>,
    pub(crate) work: u64,
}

impl TExpr {
    /// The node giving the expression's value.
    pub(crate) fn root(&self) -> usize {
        self.nodes.len().saturating_sub(1)
    }
}

/// A statement in its typed form.
#[derive(Clone, Debug)]
pub(crate) enum TInst {
    /// Store the value (already of the slot's type) into variable `slot`: an assignment, an
    /// increment or a declaration with its initializer.
    Store { slot: usize, value: TExpr },
    /// A branch or loop condition: lanes whose value is nonzero are true (C++17 [stmt.select]/4, [conv.bool]/1).
    Cond(TExpr),
}

/// What lowering reads of the compiled program.
pub(crate) struct Lowering<'a> {
    pub(crate) slots: &'a [SlotInfo],
    pub(crate) idents: &'a HashMap<Key, usize>,
    pub(crate) decl_slots: &'a HashMap<Key, usize>,
    pub(crate) hoisted: &'a HashMap<Key, usize>,
    pub(crate) dialect: Dialect,
    /// Cross-lane calls numbered so far.
    pub(crate) sites: usize,
    /// Where a product and a sum are fused ([`crate::contract`]).
    pub(crate) contract: &'a crate::contract::Contract,
    /// `--use_fast_math`: it flushes denormals and notes every float division
    /// (`mathlib::fast_binary`), and values with notes have no typed form, so such a launch
    /// has none and runs on the general evaluator alone.
    pub(crate) fast_math: bool,
}

/// Nodes an expression may have (so that a [`NodeId`] always fits).
const MAX_NODES: usize = 256;

/// The C type of an integer literal (C++17 [lex.icon]/2: the first of int, unsigned, long, unsigned
/// long that holds it, unsigned ones only with a `u` suffix; here `long` is 64-bit).
pub(crate) fn int_literal_type(value: u64, unsigned: bool, long: bool) -> Scalar {
    let v = value as i128;
    if !unsigned && !long && v <= i32::MAX as i128 {
        Scalar::I32
    } else if unsigned && !long && v <= u32::MAX as i128 {
        Scalar::U32
    } else if !unsigned && v <= i64::MAX as i128 {
        Scalar::I64
    } else {
        Scalar::U64
    }
}

/// Whether `t` is an integer type (or `bool`).
fn is_int(t: Scalar) -> bool {
    !t.is_float()
}

/// Whether the typed form handles values of `t`: the integers, `float` and `double` (kept as
/// their `f64` bits, as a lane register keeps them); `half`, `bfloat16_t` and the 8-bit floats
/// are left to the general evaluator.
fn is_typed(t: Scalar) -> bool {
    !matches!(t, Scalar::F16 | Scalar::Bf16) && !t.is_fp8()
}

/// A scalar variable type the typed form handles, if `ty` is one.
fn scalar_slot(ty: Ty) -> Option<Scalar> {
    match ty {
        Ty::Val(v) if v.lanes == 1 && is_typed(v.scalar) => Some(v.scalar),
        _ => None,
    }
}

/// The bits of `n` as an integer of type `ty` (wrapping as [`KVal::int`] does).
pub(crate) fn int_bits(ty: Scalar, n: i128) -> u64 {
    match KVal::int(ty, n) {
        KVal::Int { bits, .. } => bits,
        _ => 0,
    }
}

impl Lowering<'_> {
    /// The typed form of every instruction of `code` (`None` where there is none).
    pub(crate) fn program(&mut self, code: &[Inst], code_inst: &[u32]) -> Vec<Option<TInst>> {
        if self.fast_math {
            return vec![None; code.len()];
        }
        code.iter()
            .enumerate()
            .map(|(pc, i)| self.inst(i, code_inst.get(pc).copied().unwrap_or(0)))
            .collect()
    }

    fn inst(&mut self, i: &Inst, inst: u32) -> Option<TInst> {
        match i {
            Inst::Eval { expr, .. } => self.store(expr, inst),
            Inst::Decl { storage, decls, .. } => {
                let [d] = decls.as_slice() else { return None };
                if storage.shared || storage.external || d.array.is_some() {
                    return None;
                }
                let slot = *self.decl_slots.get(&(inst, d.id))?;
                let to = scalar_slot(self.slots.get(slot)?.ty)?;
                let mut b = Builder::default();
                let v = self.expr(&mut b, d.init.as_ref()?, inst)?;
                b.convert(v, to)?;
                Some(TInst::Store {
                    slot,
                    value: b.finish(),
                })
            }
            Inst::Branch { cond, .. } | Inst::LoopBack { cond, .. } => self.cond(cond, inst),
            Inst::LoopTest {
                cond: Some(cond), ..
            } => self.cond(cond, inst),
            _ => None,
        }
    }

    fn cond(&mut self, cond: &Expr, inst: u32) -> Option<TInst> {
        let mut b = Builder::default();
        self.expr(&mut b, cond, inst)?;
        Some(TInst::Cond(b.finish()))
    }

    /// An assignment or increment of an integer variable, as a statement.
    fn store(&mut self, e: &Expr, inst: u32) -> Option<TInst> {
        let mut b = Builder::default();
        let (target, value) = match &e.kind {
            ExprKind::Assign(op, lhs, rhs) => {
                let (slot, ty) = self.var(lhs, inst)?;
                b.work += 1;
                let r = self.expr(&mut b, rhs, inst)?;
                let v = match op {
                    None => r,
                    Some(op) => {
                        let old = b.push(Node::Var(slot), ty)?;
                        // `acc += a*b` / `acc -= a*b` contracted: the product's operands fused
                        // with the old value (`fma(±a, b, acc)`, crate::contract).
                        let product = match b.nodes.get(r as usize).map(|n| &n.node) {
                            Some(Node::Bin {
                                op: BinOp::Mul,
                                a: x,
                                b: y,
                                ..
                            }) if matches!(op, BinOp::Add | BinOp::Sub)
                                && matches!(rhs.kind, ExprKind::Binary(BinOp::Mul, ..))
                                && self.contract.at(e.span.line) =>
                            {
                                Some((*x, *y))
                            }
                            _ => None,
                        };
                        match product.and_then(|(x, y)| b.fma(x, y, old, *op == BinOp::Sub, false))
                        {
                            Some(fused) => fused?,
                            None => b.binary(*op, old, r)?,
                        }
                    }
                };
                ((slot, ty), v)
            }
            ExprKind::IncDec { inc, target, .. } => {
                let (slot, ty) = self.var(target, inst)?;
                b.work += 1;
                let old = b.push(Node::Var(slot), ty)?;
                let one = b.push(Node::Const(1), Scalar::I32)?;
                let op = if *inc { BinOp::Add } else { BinOp::Sub };
                ((slot, ty), b.binary(op, old, one)?)
            }
            _ => return None,
        };
        b.convert(value, target.1)?;
        Some(TInst::Store {
            slot: target.0,
            value: b.finish(),
        })
    }

    /// The slot and type of an integer variable named by `e`.
    fn var(&self, e: &Expr, inst: u32) -> Option<(usize, Scalar)> {
        let ExprKind::Ident(_) = &e.kind else {
            return None;
        };
        let slot = *self.idents.get(&(inst, e.id))?;
        Some((slot, scalar_slot(self.slots.get(slot)?.ty)?))
    }

    /// Lowers `e` into `b`; its value is the returned node.
    fn expr(&mut self, b: &mut Builder, e: &Expr, inst: u32) -> Option<NodeId> {
        b.work += 1;
        match &e.kind {
            ExprKind::Int {
                value,
                unsigned,
                long,
            } => {
                let ty = int_literal_type(*value, *unsigned, *long);
                b.push(Node::Const(int_bits(ty, *value as i128)), ty)
            }
            ExprKind::Float { value, single } => {
                let ty = if *single { Scalar::F32 } else { Scalar::F64 };
                match KVal::float(ty, *value) {
                    KVal::Float { x, .. } => b.push(Node::Const(x.to_bits()), ty),
                    _ => None,
                }
            }
            ExprKind::Ident(_) => {
                let (slot, ty) = self.var(e, inst)?;
                b.push(Node::Var(slot), ty)
            }
            ExprKind::Member(base, field) => {
                let ExprKind::Ident(name) = &base.kind else {
                    return None;
                };
                if self.idents.contains_key(&(inst, base.id)) {
                    return None;
                }
                let g = Geom::named(name)?;
                let k = match field.as_str() {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    _ => return None,
                };
                b.push(Node::Geom(g, k), Scalar::U32)
            }
            // A WGSL division carries the spec's 2.5 ULP bound (a note: the general
            // evaluator's).
            ExprKind::Binary(BinOp::Div, ..) if self.dialect == Dialect::Wgsl => None,
            ExprKind::Binary(op, x, y) => {
                if self.contract.at(e.span.line) {
                    if let Some(f) = crate::contract::split(*op, x, y) {
                        return self.fused(b, &f, inst);
                    }
                }
                let a = self.expr(b, x, inst)?;
                let c = self.expr(b, y, inst)?;
                b.binary(*op, a, c)
            }
            ExprKind::Index(base, index) => {
                // `p[i]` on a pointer variable: the general evaluator visits the pointer too.
                let ExprKind::Ident(_) = &base.kind else {
                    return None;
                };
                let ptr = *self.idents.get(&(inst, base.id))?;
                let elem = match self.slots.get(ptr)?.ty {
                    Ty::Ptr(v) if v.lanes == 1 && is_typed(v.scalar) => v.scalar,
                    _ => return None,
                };
                b.work += 1;
                let index = self.expr(b, index, inst)?;
                if !is_int(b.ty(index)) {
                    return None;
                }
                b.push(Node::Load { ptr, index }, elem)
            }
            ExprKind::Cast(Ty::Val(t), x) if t.lanes == 1 && is_typed(t.scalar) => {
                let a = self.expr(b, x, inst)?;
                b.convert(a, t.scalar)
            }
            ExprKind::Call(name, args) => self.call(b, e, name, args, inst),
            _ => None,
        }
    }

    /// A product and a sum in a contracted expression ([`crate::contract::split`]): the
    /// operands in source order, then one fused node when their types fuse, else the
    /// product and the sum as C computes them. The product's node is visited as the general
    /// evaluator visits it (one work unit).
    fn fused(
        &mut self,
        b: &mut Builder,
        f: &crate::contract::Fusion<'_>,
        inst: u32,
    ) -> Option<NodeId> {
        b.work += 1;
        let (x, y, c) = if f.product_first {
            let x = self.expr(b, f.x, inst)?;
            let y = self.expr(b, f.y, inst)?;
            (x, y, self.expr(b, f.c, inst)?)
        } else {
            let c = self.expr(b, f.c, inst)?;
            let x = self.expr(b, f.x, inst)?;
            (x, self.expr(b, f.y, inst)?, c)
        };
        match b.fma(x, y, c, f.neg_product, f.neg_addend) {
            Some(fused) => fused,
            None => {
                let p = b.binary(BinOp::Mul, x, y)?;
                let op = if f.neg_product || f.neg_addend {
                    BinOp::Sub
                } else {
                    BinOp::Add
                };
                if f.product_first {
                    b.binary(op, p, c)
                } else {
                    b.binary(op, c, p)
                }
            }
        }
    }

    /// A cross-lane operation on an integer operand, called by its own name (no alias note),
    /// with every argument typed.
    fn call(
        &mut self,
        b: &mut Builder,
        e: &Expr,
        name: &str,
        args: &[Expr],
        inst: u32,
    ) -> Option<NodeId> {
        if self.hoisted.contains_key(&(inst, e.id))
            || builtin(name).is_some()
            || name.starts_with("__builtin_mxc")
        {
            return None;
        }
        let spec = find_kernel_op(self.dialect, name)?;
        if spec.name != name || spec.kind != OpKind::Lanes || args.len() > spec.args.len() {
            return None;
        }
        let operand = arg_slots(spec, args.len())
            .iter()
            .position(|s| *s == Slot::Operand)?;
        let mut ids = Vec::with_capacity(args.len());
        for a in args {
            ids.push(self.expr(b, a, inst)?);
        }
        let ty = b.ty(*ids.get(operand)?);
        if !matches!(
            ty,
            Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64 | Scalar::F32 | Scalar::F64
        ) || !spec.types.contains(&ty.value_type())
        {
            return None;
        }
        let site = self.sites;
        self.sites += 1;
        b.push(
            Node::Op {
                spec,
                args: ids,
                operand,
                site,
                at: e.span,
            },
            ty,
        )
    }
}

/// Collects the nodes of one expression.
#[derive(Default)]
struct Builder {
    nodes: Vec<TNode>,
    work: u64,
}

impl Builder {
    fn push(&mut self, node: Node, ty: Scalar) -> Option<NodeId> {
        if self.nodes.len() >= MAX_NODES {
            return None;
        }
        self.nodes.push(TNode { node, ty });
        NodeId::try_from(self.nodes.len() - 1).ok()
    }

    fn ty(&self, n: NodeId) -> Scalar {
        self.nodes.get(n as usize).map_or(Scalar::I32, |t| t.ty)
    }

    /// `n` converted to `to` (itself when it already has that type).
    fn convert(&mut self, n: NodeId, to: Scalar) -> Option<NodeId> {
        if self.ty(n) == to {
            Some(n)
        } else {
            self.push(Node::Conv(n), to)
        }
    }

    /// `a op b` with C's conversions made explicit (as `types::binary` applies them).
    fn binary(&mut self, op: BinOp, a: NodeId, b: NodeId) -> Option<NodeId> {
        let (ta, tb) = (self.ty(a), self.ty(b));
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            if !is_int(ta) || !is_int(tb) {
                return None;
            }
            let ty = ta.promote();
            let a = self.convert(a, ty)?;
            return self.push(
                Node::Bin {
                    op,
                    a,
                    b,
                    operands: ty,
                },
                ty,
            );
        }
        let ty = Scalar::common(ta, tb);
        // `%` and the bitwise operators need integers (an error the general evaluator reports).
        if !is_typed(ty)
            || (ty.is_float() && matches!(op, BinOp::Rem | BinOp::And | BinOp::Or | BinOp::Xor))
        {
            return None;
        }
        let a = self.convert(a, ty)?;
        let b = self.convert(b, ty)?;
        let result = if matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        ) {
            Scalar::Bool
        } else {
            ty
        };
        self.push(
            Node::Bin {
                op,
                a,
                b,
                operands: ty,
            },
            result,
        )
    }

    /// `±x·y ± c` as one fused node of the type [`crate::contract::fused_type`] gives, with the
    /// operands converted to it; `None` when the types do not fuse (nothing pushed),
    /// `Some(None)` when the node list is full.
    fn fma(
        &mut self,
        x: NodeId,
        y: NodeId,
        c: NodeId,
        neg_product: bool,
        neg_addend: bool,
    ) -> Option<Option<NodeId>> {
        let ty = crate::contract::fused_type(self.ty(x), self.ty(y), self.ty(c))?;
        let fused = (|| {
            let x = self.convert(x, ty)?;
            let y = self.convert(y, ty)?;
            let c = self.convert(c, ty)?;
            self.push(
                Node::Fma {
                    x,
                    y,
                    c,
                    neg_product,
                    neg_addend,
                },
                ty,
            )
        })();
        Some(fused)
    }

    fn finish(self) -> TExpr {
        TExpr {
            nodes: self.nodes,
            work: self.work,
        }
    }
}
