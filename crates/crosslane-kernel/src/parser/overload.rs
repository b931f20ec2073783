//! Overloaded device functions that are not templates (`f(float)` beside `f(double)`,
//! `f(int)` beside `f(unsigned)`, `g(int)` beside `g(int, int)`), and a non-template beside a
//! function template of its name: a call picks the best viable function as C++17
//! [over.match] does.
//!
//! - Viable ([over.match.viable]): as many arguments as parameters (trailing ones with
//!   defaults may be left out), each argument convertible to its parameter: no conversion
//!   exists between a scalar and a vector type (the CUDA vector types are structs), between a
//!   pointer and an arithmetic value, or to a reference to non-const of another type.
//! - Each argument's implicit conversion sequence is ranked ([over.ics.scs], Table 12):
//!   exact match (the same type; a reference binding directly), promotion ([conv.prom]:
//!   `bool`, `char`, `short` and their unsigned kinds to `int`; [conv.fpprom]: `float` to
//!   `double`), conversion (every other arithmetic conversion, a pointer to `void*`), and a
//!   user-defined conversion for `__half` / `__nv_bfloat16` (classes whose conversion
//!   operators make the value).
//! - The best function ([over.match.best]/1) is at least as good in every argument and better
//!   in one; among equals a non-template beats a template specialization (/1.6). None best is
//!   an ambiguous call, an error as nvcc gives it.
//!
//! The first definition of a name keeps it; each later one of other parameter types is kept
//! under `name#N` (N = 2, 3, …), the key a call names once chosen. An argument whose type the
//! front end does not know here counts as an exact match for every candidate (the choice then
//! rests on the arguments it knows); a tie that leaves goes to the first defined, with a
//! warning naming the candidates.

use super::structs::FieldTy;
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Param, Span};
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;

/// Most non-template functions that share one name.
pub const MAX_PLAIN_OVERLOADS: usize = 16;

/// One non-template function of an overload set: its key, parameters (type and whether a
/// reference, and whether to const) and how many arguments it needs at least.
#[derive(Clone, Debug)]
pub(super) struct PlainFn {
    key: String,
    params: Vec<(Ty, bool, bool)>,
    min_args: usize,
    line: u32,
}

/// What the front end knows of an argument ([`Parser::arg_kind`]).
enum ArgKind {
    Value(ValTy),
    Pointer(Option<ValTy>),
    Unknown,
}

/// A conversion's rank ([over.ics.scs] Table 12, then user-defined [over.ics.user]): lower
/// is better.
type Rank = u8;
const EXACT: Rank = 0;
const PROMOTION: Rank = 1;
const CONVERSION: Rank = 2;
const USER: Rank = 3;

/// The rank of converting a value of type `from` to a parameter of type `to`; `None`: no
/// implicit conversion (a scalar and a vector, two vectors of different types).
fn value_rank(from: ValTy, to: ValTy) -> Option<Rank> {
    if from == to {
        return Some(EXACT);
    }
    if from.lanes != 1 || to.lanes != 1 {
        return None;
    }
    let (f, t) = (from.scalar, to.scalar);
    if matches!(f, Scalar::F16 | Scalar::Bf16) || matches!(t, Scalar::F16 | Scalar::Bf16) {
        return Some(USER);
    }
    let promotes = matches!(
        (f, t),
        (
            Scalar::Bool | Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16,
            Scalar::I32
        ) | (Scalar::F32, Scalar::F64)
    );
    Some(if promotes { PROMOTION } else { CONVERSION })
}

impl Parser<'_> {
    /// The key a non-template function `name` defined with `params` is kept under: `name`
    /// for the first of its name (or a redefinition of the same parameter types), else
    /// `name#N`, recorded in the overload set.
    ///
    /// # Errors
    /// More than [`MAX_PLAIN_OVERLOADS`] functions of one name.
    pub(super) fn plain_fn_key(
        &mut self,
        name: &str,
        params: &[Param],
        defaults: usize,
        at: Span,
    ) -> PResult<String> {
        let sig: Vec<(Ty, bool, bool)> = params
            .iter()
            .map(|p| (p.ty, p.reference, p.const_ref))
            .collect();
        let list = self.plain_fns.entry(name.to_string()).or_default();
        if let Some(same) = list.iter().find(|f| f.params == sig) {
            return Ok(same.key.clone());
        }
        if list.len() >= MAX_PLAIN_OVERLOADS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("more than {MAX_PLAIN_OVERLOADS} functions named `{name}`"),
            ));
        }
        let key = if list.is_empty() {
            name.to_string()
        } else {
            format!("{name}#{}", list.len() + 1)
        };
        list.push(PlainFn {
            key: key.clone(),
            params: sig,
            min_args: params.len().saturating_sub(defaults),
            line: at.line,
        });
        Ok(key)
    }

    /// What the front end knows of `arg` here: a value of a type, a pointer (and its
    /// pointee), or nothing (a struct member, which may be an array, and what
    /// [`Parser::expr_type`] cannot type).
    fn arg_kind(&self, arg: &Expr) -> ArgKind {
        if self.is_pointer_expr(arg) {
            return ArgKind::Pointer(self.pointee_type(arg));
        }
        // A struct member: an array member is a pointer to its element ([conv.array]).
        if let ExprKind::Member(b, f) = &arg.kind {
            let field = self.struct_of(b).and_then(|st| {
                self.structs
                    .get(&st)
                    .and_then(|d| d.fields.iter().find(|x| x.name == *f))
                    .map(|x| x.ty.clone())
            });
            return match field {
                Some(FieldTy::Arr(v, _) | FieldTy::Ptr(v)) => ArgKind::Pointer(Some(v)),
                Some(FieldTy::Val(v)) => ArgKind::Value(v),
                _ => ArgKind::Unknown,
            };
        }
        let value = match &arg.kind {
            ExprKind::Member(..) => false,
            ExprKind::Index(b, _) => match &b.kind {
                ExprKind::Ident(n) => self.dims_of(n).is_none(),
                _ => false,
            },
            _ => true,
        };
        match self.expr_type(arg) {
            Some(v) if value => ArgKind::Value(v),
            _ => ArgKind::Unknown,
        }
    }

    /// Whether the front end knows every argument's type here.
    fn types_known(&self, args: &[Expr]) -> bool {
        args.iter()
            .all(|a| !matches!(self.arg_kind(a), ArgKind::Unknown | ArgKind::Pointer(None)))
    }

    /// The rank of passing `arg` to a parameter `(ty, reference, const_ref)`; `None` where it
    /// cannot be passed; `Some(EXACT)` where the argument's type is not known here.
    fn arg_rank(&self, arg: &Expr, (ty, reference, const_ref): (Ty, bool, bool)) -> Option<Rank> {
        let kind = self.arg_kind(arg);
        match (ty, kind) {
            (Ty::Void, _) => None,
            (_, ArgKind::Unknown) | (Ty::Ptr(_), ArgKind::Pointer(None)) => Some(EXACT),
            (Ty::Ptr(to), ArgKind::Value(from)) if reference => {
                if from == to {
                    Some(EXACT)
                } else if const_ref {
                    // A reference to const of another type binds a converted temporary
                    // ([dcl.init.ref]/5.2); one to non-const cannot.
                    value_rank(from, to)
                } else {
                    None
                }
            }
            (Ty::Ptr(_), ArgKind::Pointer(_)) if reference => None,
            (Ty::Ptr(to), ArgKind::Pointer(Some(from))) => (from == to).then_some(EXACT),
            // A null pointer constant converts to any pointer ([conv.ptr]/1).
            (Ty::Ptr(_), ArgKind::Value(_)) => {
                matches!(arg.kind, ExprKind::Int { value: 0, .. }).then_some(CONVERSION)
            }
            (Ty::Val(_), ArgKind::Pointer(_)) => None,
            (Ty::Val(to), ArgKind::Value(from)) => value_rank(from, to),
        }
    }

    /// Each argument's rank for candidate `f`, or `None` when `f` is not viable.
    fn ranks(&self, f: &PlainFn, args: &[Expr]) -> Option<Vec<Rank>> {
        if args.len() > f.params.len() || args.len() < f.min_args {
            return None;
        }
        args.iter()
            .zip(&f.params)
            .map(|(a, p)| self.arg_rank(a, *p))
            .collect()
    }

    /// The key of the non-template function of `name` a call with `args` picks, when `name`
    /// has several (`None`: one or none, nothing to choose).
    ///
    /// # Errors
    /// No function of the name takes the arguments, or no one is better than the others
    /// (an ambiguous call).
    pub(super) fn choose_plain(
        &mut self,
        name: &str,
        args: &[Expr],
        at: Span,
    ) -> PResult<Option<String>> {
        let Some(list) = self.plain_fns.get(name).filter(|l| l.len() > 1).cloned() else {
            return Ok(None);
        };
        match self.best_plain(&list, args) {
            Ok(Some((f, _))) => Ok(Some(f.key.clone())),
            // An argument of a type not known here: the first defined of the tied, as
            // before overloads were ranked.
            Err(tied) if !self.types_known(args) => {
                let first = tied.first().map(|f| (f.key.clone(), f.line));
                if let Some((_, line)) = first {
                    self.diag(
                        at,
                        Level::Warning,
                        format!(
                            "the call of `{name}` could go to the functions of lines {}: an \
                             argument's type is not known here, so the first defined (line \
                             {line}) is called; cast the argument to the parameter type wanted",
                            lines(tied.into_iter())
                        ),
                        "ISO C++ [over.match.best]",
                    );
                }
                Ok(first.map(|(k, _)| k))
            }
            Ok(None) => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "no function `{name}` takes these arguments (lines {}): the argument count \
                     or a type does not convert ([over.match.viable])",
                    lines(list.iter())
                ),
            )),
            Err(tied) => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "the call of `{name}` is ambiguous: the functions of lines {} convert its \
                     arguments equally well ([over.match.best]); cast an argument to the \
                     parameter type wanted",
                    lines(tied.into_iter())
                ),
            )),
        }
    }

    /// The best viable function of `list` for `args` with its ranks (`Ok(None)`: none
    /// viable), or the viable functions none of which is best.
    fn best_plain<'a>(
        &self,
        list: &'a [PlainFn],
        args: &[Expr],
    ) -> Result<Option<(&'a PlainFn, Vec<Rank>)>, Vec<&'a PlainFn>> {
        let viable: Vec<(&PlainFn, Vec<Rank>)> = list
            .iter()
            .filter_map(|f| Some((f, self.ranks(f, args)?)))
            .collect();
        let better = |a: &[Rank], b: &[Rank]| {
            a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
        };
        for (f, r) in &viable {
            if viable
                .iter()
                .all(|(g, s)| std::ptr::eq(*f, *g) || better(r, s))
            {
                return Ok(Some((f, r.clone())));
            }
        }
        if viable.is_empty() {
            return Ok(None);
        }
        Err(viable.into_iter().map(|(f, _)| f).collect())
    }

    /// For a call of `name` (a function template name) with `args` and no explicit template
    /// arguments: the non-template function of that name to call instead, when one is
    /// viable with every argument an exact match. A template's deduced parameters match
    /// exactly, so a non-template needing a conversion loses to it, and one matching
    /// exactly ties and wins ([over.match.best]/1.6).
    pub(super) fn plain_over_template(&self, name: &str, args: &[Expr]) -> Option<String> {
        let list = self.plain_fns.get(name)?;
        let (f, ranks) = self.best_plain(list, args).ok().flatten()?;
        ranks.iter().all(|r| *r == EXACT).then(|| f.key.clone())
    }
}

/// The definition lines of `fns`, for a message.
fn lines<'a>(fns: impl Iterator<Item = &'a PlainFn>) -> String {
    fns.map(|f| f.line.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_standard_conversion_table() {
        let s = ValTy::scalar;
        assert_eq!(value_rank(s(Scalar::F32), s(Scalar::F32)), Some(EXACT));
        assert_eq!(value_rank(s(Scalar::F32), s(Scalar::F64)), Some(PROMOTION));
        assert_eq!(value_rank(s(Scalar::I16), s(Scalar::I32)), Some(PROMOTION));
        assert_eq!(value_rank(s(Scalar::I32), s(Scalar::U32)), Some(CONVERSION));
        assert_eq!(value_rank(s(Scalar::F64), s(Scalar::F32)), Some(CONVERSION));
        assert_eq!(value_rank(s(Scalar::I32), s(Scalar::F64)), Some(CONVERSION));
        assert_eq!(value_rank(s(Scalar::F16), s(Scalar::F32)), Some(USER));
        let f2 = ValTy {
            scalar: Scalar::F32,
            lanes: 2,
        };
        assert_eq!(value_rank(s(Scalar::F32), f2), None);
    }
}
