//! Vector values in host code: `make_int3(2, 5, 9)` or a `dim3` passed as a launch argument to
//! a vector parameter, and a struct member or variable assigned one (`o.dim = make_int3(4, 5,
//! 6);`). `make_<type>N(…)` builds the vector from its components in order (CUDA C++
//! Programming Guide, "Built-in Vector Types"); a vector is kept in host code as one value per
//! component, under the names `v.x`, `v.y`, `v.z`, `v.w` (so a struct passed by value gives
//! each vector member its components, `host_launch`).

use super::const_eval::HostVal;
use super::host::HostState;
use super::host_fill_loop::vector_make;
use super::Parser;
use crate::ast::ExprKind;
use crate::lexer::Tok;

/// The component names of a vector, in order.
pub(super) const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

impl Parser<'_> {
    /// The components of the host expression over `from..to` when it is `make_<type>N(…)` of
    /// constants or a `dim3` value: their texts in order; `None` otherwise.
    pub(super) fn host_vector(
        &mut self,
        st: &HostState,
        from: usize,
        to: usize,
    ) -> Option<Vec<String>> {
        let e = self.sub_expr(from, to)?;
        match &e.kind {
            ExprKind::Call(name, args) if vector_make(name) => {
                let mut out = Vec::with_capacity(args.len());
                for a in args {
                    out.push(self.host_fold(a, &st.env)?.text()?);
                }
                Some(out)
            }
            // A vector variable or member assigned as a whole before (`v = make_int3(…);`):
            // its components as kept.
            ExprKind::Ident(_) | ExprKind::Member(..)
                if super::const_eval::member_path(&e)
                    .is_some_and(|p| st.env.contains_key(&format!("{p}.x"))) =>
            {
                let p = super::const_eval::member_path(&e)?;
                let parts: Vec<String> = COMPONENTS
                    .iter()
                    .map_while(|c| st.env.get(&format!("{p}.{c}")).and_then(|v| v.text()))
                    .collect();
                (parts.len() >= 2).then_some(parts)
            }
            _ => match self.host_fold(&e, &st.env)? {
                HostVal::Dim(d) => Some(d.iter().map(i128::to_string).collect()),
                _ => None,
            },
        }
    }

    /// `v = make_float2(…);`, `float2 v = make_float2(…);`, `o.in.off = make_float2(…);` at `k`:
    /// each component of the
    /// target becomes a host value (`v.x`, `v.y`, …). Returns where the next statement starts;
    /// `None` for another statement.
    pub(super) fn host_vec_assign(&mut self, st: &mut HostState, k: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `int3 d = make_int3(…);`: a declaration of a vector type names its variable next.
        let k = match (tok(k), tok(k + 1), tok(k + 2)) {
            (Some(Tok::Ident(ty)), Some(Tok::Ident(_)), Some(Tok::Punct("=")))
                if ty.ends_with(['2', '3', '4']) =>
            {
                k + 1
            }
            _ => k,
        };
        let mut t = k + 1;
        while matches!(tok(t), Some(Tok::Punct("."))) && matches!(tok(t + 1), Some(Tok::Ident(_))) {
            t += 2;
        }
        if !matches!(tok(k), Some(Tok::Ident(_)))
            || !matches!(tok(t), Some(Tok::Punct("=")))
            || !matches!(tok(t + 1), Some(Tok::Ident(n)) if vector_make(n))
        {
            return None;
        }
        let semi =
            (t + 1..toks.len()).find(|&i| matches!(tok(i), Some(Tok::Punct(";" | "{" | "}"))))?;
        if !matches!(tok(semi), Some(Tok::Punct(";"))) {
            return None;
        }
        let parts = self.host_vector(st, t + 1, semi)?;
        let target = super::host::text_of(&toks[k..t]).replace(' ', "");
        for (c, v) in COMPONENTS.iter().zip(&parts) {
            let name = format!("{target}.{c}");
            let parsed = match v.parse::<i128>() {
                Ok(n) => HostVal::Int(n),
                Err(_) => HostVal::Float(v.parse::<f64>().ok()?),
            };
            st.unknown.remove(&name);
            st.env.insert(name, parsed);
        }
        Some(semi + 1)
    }
}
