//! Member functions overloaded by parameter types: `int f(int)` beside `int f(float)`, two
//! `static` functions of one name, `operator()(int)` beside `operator()(float)`.
//!
//! C++17 [over.load]/1 and [over.dcl]/1: two member functions of one name with different
//! parameter types are two functions; [over.match.call]/3 with [over.match.funcs]/2–4: a call
//! `s.f(a)` (or `S::g(a)`, `s(a)`, [over.call]) chooses among them by the arguments, ranked as
//! for free functions ([over.match.best], [over.ics.rank]); the implied object argument is the
//! same for each (one class), so only the explicit arguments rank here. The `const` overload
//! pair (`get()` and `get() const`, same parameters) stays [`super::cv_overload`]'s.
//!
//! Each declaration's parameter types go into the overload set `S::f` of
//! [`super::super::overload`]: the first keeps the name `f`, each later one with other
//! parameter types is `f#N` (its device function `S::f#N`), and a call ranks the set's members
//! with the free functions' rules, then names the chosen one's key.

use super::super::{PResult, Parser};
use crate::ast::{Expr, Span};

/// The overload set of member `m` of the class whose device function is `func` (`S::f#2
/// const` is of the set `S::f`).
fn set_of(func: &str) -> &str {
    let f = func
        .strip_suffix(" const")
        .or_else(|| func.strip_suffix(" (non-const)"))
        .unwrap_or(func);
    match f.rfind('#') {
        Some(i) if f[i + 1..].bytes().all(|b| b.is_ascii_digit()) && i + 1 < f.len() => &f[..i],
        _ => f,
    }
}

impl Parser<'_> {
    /// The key member `mname` of struct `sname` declared with the parameter list at the
    /// current `(` gets: `mname` for the first parameter types, `mname#N` for each other.
    ///
    /// # Errors
    /// More overloads than [`super::super::overload::MAX_FN_OVERLOADS`].
    pub(super) fn method_overload_name(
        &mut self,
        sname: &str,
        mname: &str,
        at: Span,
    ) -> PResult<String> {
        let open = self.pos;
        let close = self.closing(open).unwrap_or(open);
        let toks = self.toks.get(open + 1..close).unwrap_or_default().to_vec();
        let sigs = self.param_sigs(&toks, &[]);
        let set = format!("{sname}::{mname}");
        let key = self.overload_key(&set, sigs, at)?;
        Ok(match key.strip_prefix(set.as_str()) {
            Some(n) if !n.is_empty() => format!("{mname}{n}"),
            _ => mname.to_string(),
        })
    }

    /// The key of the member of `s` that a call of member `m` with the explicit arguments
    /// `args` chooses ([over.match.best]): `m` itself unless `m` has overloads of other
    /// parameter types.
    ///
    /// # Errors
    /// No viable overload, or an ambiguous call (as for a free function).
    pub(in crate::parser) fn resolve_method(
        &mut self,
        s: &str,
        m: &str,
        args: &[Expr],
        at: Span,
    ) -> PResult<String> {
        let Some(func) = self
            .structs
            .get(s)
            .and_then(|d| d.methods.get(m))
            .map(|x| x.func.clone())
        else {
            return Ok(m.to_string());
        };
        let set = set_of(&func).to_string();
        if self.fn_sets.get(&set).is_none_or(|v| v.len() < 2) {
            return Ok(m.to_string());
        }
        let cands = self.plain_candidates(&set);
        let what = format!("{s}::{m}");
        let key = self.best_candidate(&what, cands, args, Vec::new(), at)?.key;
        Ok(match key.strip_prefix(set.as_str()) {
            Some(n) if !n.is_empty() => format!("{m}{n}"),
            _ => m.to_string(),
        })
    }

    /// As [`Parser::resolve_method`] for a type query (what `s.f(a)` returns): the chosen
    /// member's key, or `m` when the call does not resolve to one.
    pub(in crate::parser) fn method_key_quiet(&self, s: &str, m: &str, args: &[Expr]) -> String {
        let Some(func) = self
            .structs
            .get(s)
            .and_then(|d| d.methods.get(m))
            .map(|x| &x.func)
        else {
            return m.to_string();
        };
        let set = set_of(func);
        if self.fn_sets.get(set).is_none_or(|v| v.len() < 2) {
            return m.to_string();
        }
        let cands = self.plain_candidates(set);
        match self
            .best_key_quiet(&cands, args)
            .as_deref()
            .and_then(|k| k.strip_prefix(set))
        {
            Some(n) if !n.is_empty() => format!("{m}{n}"),
            _ => m.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::set_of;

    #[test]
    fn the_set_drops_the_overload_number_and_the_const_mark() {
        assert_eq!(set_of("S::f"), "S::f");
        assert_eq!(set_of("S::f#2"), "S::f");
        assert_eq!(set_of("S::f#3 const"), "S::f");
        assert_eq!(set_of("S::f (non-const)"), "S::f");
        assert_eq!(set_of("lambda#4::operator()"), "lambda#4::operator()");
        assert_eq!(set_of("S::operator()#2"), "S::operator()");
    }
}
