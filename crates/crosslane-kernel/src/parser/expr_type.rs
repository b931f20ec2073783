//! The type of an expression where the parser can tell it (literals, declared names, casts,
//! indexing a pointer, arithmetic on those), and the scopes that declare names' types: what
//! template argument deduction and `auto` read while parsing (C++17 [temp.deduct.call],
//! [dcl.spec.auto]).

use super::Parser;
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, ValTy};

impl Parser<'_> {
    /// The element type of component `f` (`x`, `y`, `z`, `w`) of `b` when `b` is a vector with
    /// that many components.
    fn vector_component(&self, b: &Expr, f: &str) -> Option<ValTy> {
        let v = self.expr_type(b)?;
        let at = ["x", "y", "z", "w"].iter().position(|c| *c == f)?;
        (v.lanes > 1 && at < usize::from(v.lanes)).then(|| ValTy::scalar(v.scalar))
    }

    /// The type of an expression where the parser can tell (literals, declared names, casts,
    /// indexing a pointer, arithmetic on those); used to deduce template and `auto` types.
    pub(super) fn expr_type(&self, e: &Expr) -> Option<ValTy> {
        let s = ValTy::scalar;
        match &e.kind {
            ExprKind::Int { unsigned, long, .. } => Some(s(match (unsigned, long) {
                (false, false) => Scalar::I32,
                (true, false) => Scalar::U32,
                (false, true) => Scalar::I64,
                (true, true) => Scalar::U64,
            })),
            ExprKind::Float { single, .. } => {
                Some(s(if *single { Scalar::F32 } else { Scalar::F64 }))
            }
            ExprKind::Bool(_) => Some(s(Scalar::Bool)),
            // `warpSize` is an `int` (CUDA C++ Programming Guide, "Built-in Variables"; HIP's
            // the same).
            ExprKind::Ident(n) if n == "warpSize" && self.var_type(n).is_none() => {
                Some(s(Scalar::I32))
            }
            // A member named bare in a member function: `this->n` ([class.mfct.non-static]/2);
            // else a library constant (`INFINITY` is a `float`, `HUGE_VAL` a `double`, C11
            // 7.12p4-5; [`crate::mathlib::constants`]), whose type picks an overload
            // (`asc_reduce_max(c ? INFINITY : x)` is the `float` one).
            ExprKind::Ident(n) if self.var_type(n).is_none() => match self.self_field(n) {
                Some(super::structs::FieldTy::Val(v)) => Some(v),
                Some(_) => None,
                None => crate::mathlib::constant(n).map(|k| k.val_ty()),
            },
            ExprKind::Ident(n) => match self.var_type(n)? {
                Ty::Val(v) => Some(v),
                // A reference parameter names its referent ([dcl.ref]/1): its type is the
                // value's, which deduction and `auto` see ([temp.deduct.call]/3).
                Ty::Ptr(v) if self.value_refs.contains(n) => Some(v),
                _ => None,
            },
            ExprKind::Index(b, _) => match &b.kind {
                // An array member named bare in a member function (a generic lambda's
                // captured array, [`super::lambda_generic`]): its element.
                ExprKind::Ident(n) if self.var_type(n).is_none() => match self.self_field(n)? {
                    super::structs::FieldTy::Ptr(v) => Some(v),
                    _ => None,
                },
                // `u.reg[i]` of an array member (or a union's array view, MIGraphX's
                // `union { uint32_t reg[n]; T data; }`): its element.
                ExprKind::Member(o, f) if self.struct_of(o).is_some() => {
                    self.member_read_type(&self.struct_of(o)?, f, true)
                }
                ExprKind::Ident(n) => match self.var_type(n)? {
                    Ty::Ptr(v) => Some(v),
                    // `v[i]` of a vector: its element (clang, "Vectors and Extended Vectors").
                    Ty::Val(v) if v.lanes > 1 && !self.value_refs.contains(n) => {
                        Some(ValTy::scalar(v.scalar))
                    }
                    _ => None,
                },
                _ => None,
            },
            ExprKind::Deref(b) => match &b.kind {
                ExprKind::Ident(n) => match self.var_type(n)? {
                    Ty::Ptr(v) => Some(v),
                    _ => None,
                },
                // `*reinterpret_cast<uint32_t*>(&x)`, `*(p + 1)`: the pointee of the pointer
                // operand ([expr.unary.op]/1: "the result is an lvalue referring to the
                // object … to which the expression points").
                ExprKind::Cast(Ty::Ptr(v), _) => Some(*v),
                _ if self.is_pointer_expr(b) => self.pointee_type(b),
                _ => None,
            },
            ExprKind::Member(b, f) if self.struct_of(b).is_some() => {
                let st = self.struct_of(b)?;
                let leaves = self.leaves(&st, e.span).ok()?;
                match leaves.iter().find(|l| l.path == *f).map(|l| l.ty) {
                    Some(Ty::Val(v)) => Some(v),
                    // A union's member that is a view of the held one (`u.data`).
                    None => self.member_read_type(&st, f, false),
                    _ => None,
                }
            }
            ExprKind::Call(n, args) if crate::ext_swizzle::is_call(n) => self.swizzle_type(n, args),
            ExprKind::Call(n, args) if self.immediate_lambda(n, args).is_some() => {
                self.immediate_lambda(n, args)
            }
            ExprKind::Call(n, args) if self.method_target(n, args).is_some() => {
                let (st, m, first) = self.method_target(n, args)?;
                let rest = if first { args.get(1..)? } else { args };
                let m = self.method_key_quiet(&st, &m, rest);
                match self.structs.get(&st)?.methods.get(&m)?.ty {
                    Ty::Val(v) => Some(v),
                    _ => None,
                }
            }
            ExprKind::Member(b, f) if matches!(f.as_str(), "x" | "y" | "z") => match &b.kind {
                ExprKind::Ident(n)
                    if matches!(
                        n.as_str(),
                        "threadIdx" | "blockIdx" | "blockDim" | "gridDim"
                    ) =>
                {
                    Some(s(Scalar::U32))
                }
                // A vector's component (`v.y` of a `float2`) has the vector's element type
                // (CUDA C++ Programming Guide, "Built-in Vector Types": the components are
                // fields of the element type), which deduction then sees.
                _ => self.vector_component(b, f),
            },
            ExprKind::Member(b, f) if f == "w" => self.vector_component(b, f),
            ExprKind::Call(n, _) if self.fn_types.contains_key(n) => self.call_type(n),
            // A member-function call already lowered to its device function (`auto t =
            // bar.arrive();`, whose initializer is read lowered): the member's result type
            // ([dcl.spec.auto]/4, deduced from the initializer's type).
            ExprKind::Call(n, _) if n.contains("::") && self.method_fn_type(n).is_some() => {
                self.method_fn_type(n)
            }
            ExprKind::Cast(Ty::Val(v), _) => Some(*v),
            // `++n`, `x++`, `n = 7`, `s += x`: the type of the operand written
            // ([expr.pre.incr]/1, [expr.post.incr]/1, [expr.ass]/1: the left operand's type);
            // `a, b` the right operand's ([expr.comma]/1).
            ExprKind::IncDec { target, .. } => self.expr_type(target),
            ExprKind::Assign(_, lhs, _) => self.expr_type(lhs),
            ExprKind::Comma(_, b) => self.expr_type(b),
            ExprKind::Unary(_, x) => self.expr_type(x),
            // `sizeof` is a `std::size_t` ([expr.sizeof]/6): `unsigned long` on LP64.
            ExprKind::SizeOf(_) => Some(s(Scalar::U64)),
            // A comparison of scalars is a `bool` ([expr.rel]/6, [expr.eq]/7).
            ExprKind::Binary(
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
                a,
                b,
            ) => {
                let (a, b) = (self.expr_type(a)?, self.expr_type(b)?);
                (a.lanes == 1 && b.lanes == 1).then(|| s(Scalar::Bool))
            }
            ExprKind::Binary(_, a, b) => {
                let (a, b) = (self.expr_type(a)?, self.expr_type(b)?);
                if a.lanes == 1 && b.lanes == 1 {
                    return Some(s(Scalar::common(a.scalar, b.scalar)));
                }
                // A vector operand: HIP's vector operators give the vector type, a scalar
                // operand converted to it (`amd_hip_vector_types.h`, [`crate::hip_vector_ops`]),
                // and so do `__half2`'s and `__nv_bfloat162`'s (CUDA Math API, "Half2
                // Arithmetic Functions" operators). CUDA's `float2` and kin have none
                // (vector_types.h): no type, so a use that needs one is refused before the run.
                let (v, other) = if a.lanes > 1 { (a, b) } else { (b, a) };
                let pair16 = v.lanes == 2 && matches!(v.scalar, Scalar::F16 | Scalar::Bf16);
                ((self.hip || pair16) && (other.lanes == 1 || other == v)).then_some(v)
            }
            ExprKind::Ternary(_, a, _) => self.expr_type(a),
            ExprKind::Call(n, _) if n == "__lane_id" => Some(s(Scalar::U32)),
            ExprKind::Call(n, _) if super::bit_cast::type_cast_intrinsic(n).is_some() => {
                super::bit_cast::type_cast_intrinsic(n)
            }
            // The vote, match and bit intrinsics' return types (CUDA C++ Programming Guide,
            // "Warp Vote Functions", "Warp Match Functions"; CUDA Math API, integer intrinsics;
            // HIP's 64-bit masks in HIP sources).
            ExprKind::Call(n, args) => {
                let mask = s(if self.hip { Scalar::U64 } else { Scalar::U32 });
                match n.as_str() {
                    "__ballot_sync" | "__activemask" | "__match_any_sync" | "__match_all_sync"
                    | "__lanemask_lt" | "__lanemask_le" | "__lanemask_gt" | "__lanemask_ge"
                    | "__lanemask_eq" => Some(mask),
                    "__ballot" => Some(s(Scalar::U64)),
                    // `size_t __cvta_generic_to_shared(const void*)` (CUDA C++ Programming
                    // Guide, "Address Space Conversion Functions").
                    crate::machine::shared_window::CVTA_TO_SHARED => Some(s(Scalar::U64)),
                    // A coalesced group's `ballot` / `match_any` by rank and its tiles' member
                    // masks (`parser::cg_lower`): the group mask's type — CUDA's
                    // `coalesced_group::ballot` is `unsigned int` (CUDA C++ Programming Guide,
                    // Cooperative Groups, coalesced_group), HIP's `unsigned long long`
                    // (HIP cooperative groups reference, coalesced_group).
                    "__cg_pack" | "__cg_tile_of" | "__cg_side" => Some(mask),
                    "__any_sync" | "__all_sync" | "__any" | "__all" | "__popc" | "__popcll"
                    | "__clz" | "__clzll" | "__ffs" | "__ffsll" => Some(s(Scalar::I32)),
                    n if n.starts_with("__builtin_popcount")
                        || n.starts_with("__builtin_clz")
                        || n.starts_with("__builtin_ctz")
                        || n.starts_with("__builtin_ffs") =>
                    {
                        Some(s(Scalar::I32))
                    }
                    "__builtin_expect" => Some(s(Scalar::I64)),
                    "__brev"
                    | "__byte_perm"
                    | "__funnelshift_l"
                    | "__funnelshift_r"
                    | "__builtin_bswap32"
                    | "__builtin_bitreverse32"
                    | "__bitextract_u32"
                    | "__bitinsert_u32" => Some(s(Scalar::U32)),
                    "__builtin_bswap64"
                    | "__builtin_bitreverse64"
                    | "__bitextract_u64"
                    | "__bitinsert_u64" => Some(s(Scalar::U64)),
                    n if crate::mathlib::bit_builtin_scalar(n).is_some() => {
                        crate::mathlib::bit_builtin_scalar(n).map(s)
                    }
                    "min" | "max" => {
                        let (a, b) = (
                            self.expr_type(args.first()?)?,
                            self.expr_type(args.get(1)?)?,
                        );
                        (a.lanes == 1 && b.lanes == 1)
                            .then(|| s(Scalar::common(a.scalar, b.scalar)))
                    }
                    crate::builtins::VALID_ONLY => self.expr_type(args.first()?),
                    n if crate::reinterpret::is_reinterpret(n) => {
                        crate::reinterpret::result_type(n)
                    }
                    // The half and bfloat16 intrinsics' declared types (`__float2half` is
                    // `__half`, `__hmul` its operands' type; [`crate::half::result_type`]).
                    n if crate::half::types_result(n) => crate::half::result_type(
                        n,
                        &args.iter().map(|a| self.expr_type(a)).collect::<Vec<_>>(),
                    ),
                    // The cache-hinted loads give the pointee (CUDA C++ Programming Guide,
                    // "Read-Only Data Cache Load Function", "Load Functions Using Cache Hints").
                    "__ldg" | "__ldcg" | "__ldca" | "__ldcs" | "__ldlu" | "__ldcv" => {
                        self.pointee_type(args.first()?)
                    }
                    // `make_float2(…)` and kin: their vector type.
                    w if w.starts_with("make_") => crate::vector_types::constructor(w),
                    "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => {
                        args.get(1).and_then(|a| self.expr_type(a))
                    }
                    "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" => {
                        args.first().and_then(|a| self.expr_type(a))
                    }
                    // An AMD GCN/RDNA cross-lane builtin (`__builtin_amdgcn_mov_dpp`,
                    // `__hip_move_dpp`, `__builtin_amdgcn_ds_swizzle`, …): its prototype's
                    // return type (clang's BuiltinsAMDGPU.def, HIP's amd_warp_functions.h);
                    // an op that passes a float operand through (`__hip_ds_swizzlef`, the DPP
                    // moves over any 32-bit type) gives that float.
                    w if w.starts_with("__builtin_amdgcn_")
                        || w.starts_with("__hip_")
                        || w.starts_with("llvm.amdgcn.") =>
                    {
                        let spec =
                            crate::builtins::find_kernel_op(crosslane_core::Dialect::Amdgcn, w)
                                .filter(|op| op.dialect == crosslane_core::Dialect::Amdgcn)?;
                        let float_arg = args.iter().find_map(|a| {
                            self.expr_type(a)
                                .filter(|v| v.lanes == 1 && v.scalar == Scalar::F32)
                        });
                        match float_arg {
                            Some(f) if spec.types.iter().any(|t| t.is_float()) => Some(f),
                            _ => {
                                let words: Vec<&str> =
                                    spec.proto.returns.split_whitespace().collect();
                                super::overload::type_of_words(&words)
                            }
                        }
                    }
                    // A math-library function: its declared return type for these argument
                    // types (`std::nearbyint(float)` is `float`, `sqrt(2.0)` `double`).
                    w => {
                        let types = args
                            .iter()
                            .map(|a| self.expr_type(a).filter(|v| v.lanes == 1).map(|v| v.scalar))
                            .collect::<Option<Vec<Scalar>>>()?;
                        crate::mathlib::result_type(w, &types).map(s)
                    }
                }
            }
            _ => None,
        }
    }

    /// The declared type of a name in the scopes the parser is in.
    pub(super) fn var_type(&self, name: &str) -> Option<Ty> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// Declares a name's type in the innermost scope.
    pub(super) fn declare(&mut self, name: &str, ty: Ty) {
        // A plain variable hides a cooperative group of the same name (a group's own
        // declaration records the group after this).
        self.groups.remove(name);
        let depth = self.scopes.len();
        self.array_dims
            .retain(|(d, n, _)| !(*d == depth && n == name));
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), ty);
        }
    }
    /// The value type a struct's member function returns, by the name of the device function
    /// it was lowered to (`Method::func`); `None` for none or a non-value result.
    fn method_fn_type(&self, func: &str) -> Option<ValTy> {
        self.structs
            .values()
            .flat_map(|d| d.methods.values())
            .find(|m| m.func == func)
            .and_then(|m| match m.ty {
                Ty::Val(v) => Some(v),
                _ => None,
            })
    }
}
