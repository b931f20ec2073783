//! `subgroupBallot` results: which expressions are ballots and their x/y/z/w components.

use super::*;

impl Lower<'_> {
    pub(super) fn is_ballot_expr(&self, h: Handle<Expression>) -> bool {
        match self.func.expressions[h] {
            Expression::SubgroupBallotResult => true,
            _ => self.ballots.contains(&h),
        }
    }
}

impl Lower<'_> {
    /// [`Self::value_cells`], and for a `subgroupBallot` result (held whole as a u64) its
    /// four `u32` components: what a store, an assignment or an argument of the whole value
    /// reads, one component at a time (`o[i] = subgroupBallot(p);`).
    pub(super) fn held_cells(&self, h: Handle<Expression>) -> Option<Vec<(u32, ValTy)>> {
        if self.is_ballot_expr(h) {
            return Some((0..4).map(|k| (k, ValTy::scalar(Scalar::U32))).collect());
        }
        self.value_cells(h)
    }

    pub(super) fn baked_ballot(&self, h: Handle<Expression>) -> bool {
        self.ballots.contains(&h)
    }

    /// Component `k` of a `subgroupBallot` result, held as a u64 of x (bits 0..32) and y
    /// (bits 32..64) by the registry op: x and y are its halves; z and w are 0 for subgroups
    /// of up to 64 invocations (the only ones whose ballot the u64 holds), and for larger
    /// subgroups (up to 128, WGSL spec § Subgroup Built-in Functions: bit `id % 32` of
    /// component `id / 32`) the two `u32` words [`Self::ballot_high_words`] declared beside it.
    pub(super) fn ballot_component(
        &mut self,
        base: Handle<Expression>,
        k: u32,
        at: ast::Span,
        d: u32,
    ) -> Result<Expr, KernelError> {
        let b = self.expr(base, d)?;
        Ok(match k {
            0 => cast(
                Scalar::U32,
                bin(BinOp::And, b, int_lit(0xffff_ffff, at), at),
                at,
            ),
            1 => cast(Scalar::U32, bin(BinOp::Shr, b, int_lit(32, at), at), at),
            _ if self.lanes <= 64 => {
                let _ = b;
                int_lit(0, at)
            }
            2 | 3
                if matches!(
                    self.func.expressions[base],
                    Expression::SubgroupBallotResult
                ) =>
            {
                let _ = b;
                match self.baked.get(&base).cloned() {
                    Some(name) => self.ident(&high_word_name(&name, k), at),
                    None => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "ballot components z, w read before the ballot ran",
                        ))
                    }
                }
            }
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "ballot components z, w (invocations 64..128) are not emulated yet; use a \
                     subgroup size of at most 64",
                ))
            }
        })
    }
}

/// The local holding component `k` (2 = z, 3 = w) of the ballot whose result is `name`.
fn high_word_name(name: &str, k: u32) -> String {
    format!("{name}__ballot_{}", if k == 2 { "z" } else { "w" })
}

impl Lower<'_> {
    /// Components z and w of a `subgroupBallot` in a subgroup of more than 64 invocations
    /// (WGSL spec § Subgroup Built-in Functions, `subgroupBallot`: bit `id % 32` of component
    /// `id / 32` is set when invocation `id` is active and `pred` is true; subgroups hold up to
    /// 128 invocations). The registry's ballot value is a u64 (x, y); each high word is the
    /// `subgroupAdd` over the same active invocations of `1u << (id - 64)` (z) or
    /// `1u << (id - 96)` (w) where `pred` holds and `id` falls in the word's range, else 0:
    /// every invocation sets a different bit, so the sum is the bitwise or, exactly.
    pub(super) fn ballot_high_words(
        &mut self,
        result: Handle<Expression>,
        predicate: Option<Handle<Expression>>,
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let name = self.result_name(result);
        let mut out = Vec::with_capacity(2);
        for k in 2..4u32 {
            let lo = u64::from(32 * k);
            let p = match predicate {
                Some(p) => self.expr(p, 0)?,
                None => ex(ExprKind::Bool(true), at),
            };
            let id = self.builtin_value(naga::BuiltIn::SubgroupInvocationId, None, at)?;
            let id2 = self.builtin_value(naga::BuiltIn::SubgroupInvocationId, None, at)?;
            let id3 = self.builtin_value(naga::BuiltIn::SubgroupInvocationId, None, at)?;
            let in_word = ex(
                ExprKind::Logical(
                    true,
                    Box::new(bin(BinOp::Ge, id, int_lit(lo, at), at)),
                    Box::new(bin(BinOp::Lt, id2, int_lit(lo + 32, at), at)),
                ),
                at,
            );
            let cond = ex(ExprKind::Logical(true, Box::new(p), Box::new(in_word)), at);
            let bit = cast(
                Scalar::U32,
                bin(
                    BinOp::Shl,
                    cast(Scalar::U32, int_lit(1, at), at),
                    bin(BinOp::Sub, id3, int_lit(lo, at), at),
                    at,
                ),
                at,
            );
            let sel = ex(
                ExprKind::Ternary(
                    Box::new(cond),
                    Box::new(bit),
                    Box::new(cast(Scalar::U32, int_lit(0, at), at)),
                ),
                at,
            );
            let c = ex(ExprKind::Call("subgroupAdd".into(), vec![sel]), at);
            out.push(self.decl(&high_word_name(&name, k), ValTy::scalar(Scalar::U32), c, at));
        }
        Ok(out)
    }
}
