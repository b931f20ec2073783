//! Brace elision in an aggregate's braced list: `Vec<float, 4>{a, b, c, d}` of
//! `template <class T, int N> struct Vec { T v[N]; };`, `Pair p{1, 2, 3}` of
//! `struct Pair { int k[2]; int n; };`, `Outer o{1, 2, 3}` of a struct member without its
//! own braces.
//!
//! C++17 [dcl.init.aggr]/15 (C++20 /16): "If the initializer-clause is an expression … and
//! the element is a subaggregate, brace elision is assumed": the element (an array member or a
//! member of aggregate struct type) takes as many of the list's following values as it has
//! elements of its own, and the rest of the list goes on to the next member. The list is
//! regrouped here into the braced lists the members would have had (`{{a, b, c, d}}`), which
//! [`Parser::construct`] then reads member by member as before.
//!
//! A subaggregate's value given whole (a braced list, or a struct value of that type) is not
//! elided. An element of a struct member is elided only where the list is longer than the
//! members (a value the reader cannot type could otherwise be a struct's copy); an array of
//! structs, or a struct nested deeper than [`MAX_NEST`] levels of elision, is left whole.

use super::{Field, FieldTy};
use crate::ast::{Expr, ExprKind};
use crate::parser::Parser;

/// The deepest chain of struct members one elided list fills (a bound on the recursion,
/// whatever the input).
const MAX_NEST: usize = 8;

/// Whether `e` is a braced list (`{…}` as the parser writes it).
fn is_brace(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call(n, _) if n == "@brace")
}

impl Parser<'_> {
    /// The list `args` for `fields` with elided braces put back ([dcl.init.aggr]/15), or `None`
    /// where nothing is elided (or the list is not one this reads: too long, an array of
    /// structs reached without braces).
    pub(super) fn elide_braces(&self, fields: &[Field], args: &[Expr]) -> Option<Vec<Expr>> {
        let overlong = args.len() > fields.len();
        let mut at = 0;
        let out = self.elide_into(fields, args, &mut at, overlong, 0)?;
        let braces = |l: &[Expr]| l.iter().filter(|e| is_brace(e)).count();
        let regrouped = out.len() < args.len() || braces(&out) > braces(args);
        (at == args.len() && regrouped).then_some(out)
    }

    /// The members `fields` filled from `args[*at..]`, each a value or a braced list; `*at`
    /// moves past what they took.
    fn elide_into(
        &self,
        fields: &[Field],
        args: &[Expr],
        at: &mut usize,
        structs_too: bool,
        nest: usize,
    ) -> Option<Vec<Expr>> {
        let mut out = Vec::new();
        for f in fields {
            let Some(first) = args.get(*at) else {
                break;
            };
            let whole = is_brace(first) || self.struct_of(first).is_some();
            match &f.ty {
                FieldTy::Arr(_, n) if !is_brace(first) => {
                    let n = usize::try_from(*n).ok()?.max(1);
                    let end = (*at + n).min(args.len());
                    let items = args.get(*at..end)?.to_vec();
                    out.push(Expr::new(
                        ExprKind::Call("@brace".into(), items),
                        first.span,
                    ));
                    *at = end;
                }
                FieldTy::Struct(inner) if !whole && structs_too => {
                    if nest >= MAX_NEST {
                        return None;
                    }
                    let def = self.structs.get(inner)?;
                    if !def.ctors.is_empty()
                        || def.union_first.is_some()
                        || !def.direct_bases.is_empty()
                    {
                        return None;
                    }
                    let inner_fields = def.fields.clone();
                    let items = self.elide_into(&inner_fields, args, at, true, nest + 1)?;
                    out.push(Expr::new(
                        ExprKind::Call("@brace".into(), items),
                        first.span,
                    ));
                }
                FieldTy::SArr(..) if !is_brace(first) && structs_too => return None,
                _ => {
                    out.push(first.clone());
                    *at += 1;
                }
            }
        }
        Some(out)
    }
}
