//! The CUDA Math API functions that read an array through a pointer argument: `normf(dim, p)`,
//! `rnormf(dim, p)` and their double forms (CUDA Math API, `norm`: "Calculate the length of a
//! vector p, dimension of which is passed as an argument"). Each lane reads `p[0]` …
//! `p[dim-1]` as a plain load, then [`mathlib::call`] gets `dim` and the values.

use super::*;
use crate::ast::*;
use crate::exec::Executor;
use crate::mathlib;
use crate::trace::{LaneVal, Undef};
use crate::types::KVal;
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

/// The most elements one call reads (a budget on the loop `dim` drives).
const MAX_DIM: i128 = 1 << 16;

impl Executor {
    /// `normf(dim, p)` in every active lane: `dim` must be 1 to [`MAX_DIM`] (the function
    /// names a vector of `dim` elements; none for `dim` ≤ 0, so that is undefined) and `p` a
    /// pointer whose `dim` cells are read.
    pub(super) fn math_array(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        let vals: Vec<Vec<LaneVal>> = args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
        if args.len() != 2 {
            let m = format!(
                "`{name}(dim, p)` takes two arguments, the dimension and a pointer to the values; got {}",
                args.len()
            );
            cx.note(Level::Error, e.span, m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
            return out;
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            let r = self.array_lane(w, e, name, &vals[0][l], &vals[1][l], l, cx);
            if let Err(u) = &r {
                cx.note(Level::Warning, e.span, u.why.clone(), "", Some(l));
            }
            out[l] = r;
        }
        out
    }

    /// `nan(tagp)` / `nanf(tagp)` in every active lane: a quiet NaN (CUDA Math API, `nanf`);
    /// the string is not evaluated (a string literal has no lane value).
    pub(super) fn math_nan(&mut self, e: &Expr, name: &str, mask: LaneMask) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match mathlib::call(name, &[]) {
                Some(Ok(c)) => Ok(c.value),
                Some(Err(m)) => Err(Undef::at(e.span, m)),
                None => Err(Undef::at(
                    e.span,
                    format!("`{name}` is not a math function"),
                )),
            };
        }
        out
    }

    /// One lane of [`Executor::math_array`].
    #[allow(clippy::too_many_arguments)]
    fn array_lane(
        &mut self,
        _w: usize,
        e: &Expr,
        name: &str,
        dim: &LaneVal,
        p: &LaneVal,
        l: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let dim = dim.clone()?;
        let p = p.clone()?;
        let n = dim
            .as_int()
            .ok_or_else(|| Undef::at(e.span, format!("`{name}`: dim must be an integer")))?;
        if n < 1 {
            return Err(Undef::at(
                e.span,
                format!("`{name}({n}, p)`: the CUDA Math API defines the length of a vector of dim elements; dim = {n} names none, so the result is undefined"),
            ));
        }
        if n > MAX_DIM {
            return Err(Undef::at(
                e.span,
                format!(
                    "`{name}({n}, p)`: this interpreter reads at most {MAX_DIM} elements per call"
                ),
            ));
        }
        let mut lane_args = Vec::with_capacity(n as usize + 1);
        lane_args.push(dim);
        for k in 0..n {
            let (buf, off) = self
                .address(&p, &KVal::int(crate::types::Scalar::I64, k))
                .map_err(|m| Undef::at(e.span, format!("`{name}`: {m}")))?;
            lane_args.push(self.load(buf, off, e.span, l, cx)?);
        }
        match mathlib::call(name, &lane_args) {
            Some(Ok(c)) => Ok(c.value),
            Some(Err(m)) => Err(Undef::at(e.span, m)),
            None => Err(Undef::at(
                e.span,
                format!("`{name}` is not a math function"),
            )),
        }
    }
}
