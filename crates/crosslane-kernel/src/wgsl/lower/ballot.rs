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
    /// of up to 64 invocations (the only ones whose ballot the u64 holds).
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
