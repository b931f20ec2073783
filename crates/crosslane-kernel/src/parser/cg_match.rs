//! HIP's `match_any` of a tile or coalesced group and its `labeled_partition`, which this
//! model's HIP registry has no single operation for: a device function built as syntax-tree
//! nodes that reads each member's value with the registry's `__shfl` and compares it.
//!
//! Source: HIP Programming Guide, "Cooperative groups" (`coalesced_group::match_any(value)`,
//! `thread_block_tile::match_any(value)`: the mask of the group's threads whose `value` equals
//! the calling thread's, bit k = the group's rank k; `labeled_partition(group, label)`: the
//! group's threads split into coalesced groups by equal `label`). Values compare as the bits
//! the vendor compares: an integer's value, a `float`'s or `double`'s bit pattern.
//!
//! Only members are read: lane k is read only by the threads whose group holds k, and k is then
//! active (it is a member of its own group), so no read meets an inactive lane.

use super::Parser;
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, ValTy};

const U64: ValTy = ValTy {
    scalar: Scalar::U64,
    lanes: 1,
};

impl Parser<'_> {
    /// `value` as the key the match compares and the key's type: a `float` or `double` as
    /// itself, any other value converted to `unsigned long long`. HIP's `__match_any_sync` /
    /// `__match_all_sync` take `float` and `double` values as well as integers (HIP
    /// Programming Guide, "Warp match functions"; ROCm amd_warp_sync_functions.h accepts 4-
    /// and 8-byte integral and floating-point `T`), and ROCm's `__match_any` compares the
    /// lanes' values with `==` on `T` (its waterfall loop: `__shfl(value, first) == value`):
    /// `+0.0` matches `-0.0`, a NaN matches no lane, not even its own. Converting a negative or
    /// fractional value to `unsigned long long` would be undefined ([conv.fpint]/1) and merge
    /// values that differ, so floating-point keys keep their type. The type is the
    /// expression's (an element `in[i]` of a `T*` as well as a variable).
    fn match_key(&mut self, at: Span, value: Expr) -> (Expr, Scalar) {
        let scalar = match &value.kind {
            ExprKind::Ident(n) => match self.var_type(n) {
                Some(Ty::Val(v)) if v.lanes == 1 => Some(v.scalar),
                _ => self.expr_type(&value).map(|t| t.scalar),
            },
            _ => self
                .expr_type(&value)
                .filter(|t| t.lanes == 1)
                .map(|t| t.scalar),
        };
        let key = match scalar {
            Some(Scalar::F32) => Scalar::F32,
            Some(Scalar::F64) => Scalar::F64,
            _ => Scalar::U64,
        };
        let s = self.syn_span(at);
        (
            Expr::new(
                ExprKind::Cast(Ty::Val(ValTy::scalar(key)), Box::new(value)),
                s,
            ),
            key,
        )
    }

    /// The lanes of `members` whose `value` equals the calling thread's (bit k = lane k), as a
    /// call of the generated device function.
    pub(super) fn e_hip_match(&mut self, at: Span, members: Expr, value: Expr) -> Expr {
        let (key, scalar) = self.match_key(at, value);
        let suffix = match scalar {
            Scalar::F32 => "_f32",
            Scalar::F64 => "_f64",
            _ => "",
        };
        let name = format!("__hip_cg_match_any_w{}{suffix}", self.wave);
        if !self.fn_types.contains_key(&name) {
            let f = self.hip_match_fn(&name, at, scalar);
            self.fn_types.insert(name.clone(), f.ret);
            self.extra_fns.push(f);
        }
        self.e_call(at, &name, vec![key, members])
    }

    /// `u64 f(K v, u64 m) { u64 r = 0; for (int k = 0; k < W; k++) if ((m >> k) & 1) r |=
    /// (u64)(__shfl(v, k, W) == v) << k; return r; }` with `K` the key's type.
    fn hip_match_fn(&mut self, name: &str, at: Span, key: Scalar) -> Function {
        let st = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let wave = i64::from(self.wave);
        let zero = self.e_mask(at, 0);
        let sp = self.syn_span(at);
        let r_decl = st(StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name: "r".into(),
                ty: Ty::Val(U64),
                array: None,
                init: Some(zero),
                span: sp,
                id: NodeId::fresh(),
            }],
        ));
        let int = Ty::Val(ValTy::scalar(Scalar::I32));
        let k0 = self.e_int(at, 0);
        let sp = self.syn_span(at);
        let k_decl = st(StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name: "k".into(),
                ty: int,
                array: None,
                init: Some(k0),
                span: sp,
                id: NodeId::fresh(),
            }],
        ));
        let (k, w) = (self.e_ident(at, "k"), self.e_int(at, wave));
        let cond = self.e_bin(at, BinOp::Lt, k, w);
        let k = self.e_ident(at, "k");
        let sp = self.syn_span(at);
        let step = Expr::new(
            ExprKind::IncDec {
                inc: true,
                prefix: false,
                target: Box::new(k),
            },
            sp,
        );
        // if ((m >> k) & 1) if (__shfl(v, k, W) == v) r |= 1ull << k;
        let (m, k) = (self.e_ident(at, "m"), self.e_ident(at, "k"));
        let sh = self.e_bin(at, BinOp::Shr, m, k);
        let one = self.e_mask(at, 1);
        let member = self.e_bin(at, BinOp::And, sh, one);
        let (v, k, w) = (
            self.e_ident(at, "v"),
            self.e_ident(at, "k"),
            self.e_int(at, wave),
        );
        let other = self.e_call(at, "__shfl", vec![v, k, w]);
        let v = self.e_ident(at, "v");
        let same = self.e_bin(at, BinOp::Eq, other, v);
        // `r |= (u64)(same) << k`, no branch on the comparison: an undefined value (an input
        // nothing wrote) makes the mask undefined, as the vendor's result is, instead of
        // stopping the run at a branch the source does not write.
        let sp = self.syn_span(at);
        let same = Expr::new(ExprKind::Cast(Ty::Val(U64), Box::new(same)), sp);
        let k = self.e_ident(at, "k");
        let bit = self.e_bin(at, BinOp::Shl, same, k);
        let r = self.e_ident(at, "r");
        let sp = self.syn_span(at);
        let set = st(StmtKind::Expr(Expr::new(
            ExprKind::Assign(Some(BinOp::Or), Box::new(r), Box::new(bit)),
            sp,
        )));
        let body = st(StmtKind::If(member, Box::new(set), None));
        let lp = st(StmtKind::For(
            Some(Box::new(k_decl)),
            Some(cond),
            Some(step),
            Box::new(body),
        ));
        let r = self.e_ident(at, "r");
        let ret = st(StmtKind::Return(Some(r)));
        let param = |n: &str, s: Scalar| Param {
            name: n.into(),
            ty: Ty::Val(ValTy::scalar(s)),
            reference: false,
            const_ref: false,
            span: at,
        };
        Function {
            name: name.to_string(),
            entry: false,
            ret: Ty::Val(U64),
            params: vec![param("v", key), param("m", Scalar::U64)],
            body: st(StmtKind::Block(vec![r_decl, lp, ret])),
            launch_bounds: None,
            vf_call_dim: None,
            span: at,
            snippet: false,
            defaults: Vec::new(),
            empty_params: Vec::new(),
        }
    }
}
