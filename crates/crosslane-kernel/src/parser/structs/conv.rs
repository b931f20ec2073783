//! A class object used where a scalar is needed converts through its conversion function
//! (`operator int() const`, `integral_constant`'s `constexpr operator value_type() const`):
//! a temporary (`Number<3>{} + t`, `static_cast<int>(W{t})`), a struct-returning call, or a
//! class argument of a function or built-in that takes a scalar (`sqrtf(w)`, `take(v)` with
//! `int take(int)`).
//!
//! Sources: ISO C++17 [class.conv.fct]/1 (a conversion function converts the class to its
//! type), [over.match.oper]/7 with [over.built] (no operator function: the operands convert and
//! the built-in operator applies), [over.best.ics]/4 and [over.ics.user] (an argument of class
//! type reaches a scalar parameter through a user-defined conversion sequence),
//! [expr.static.cast]/4 (`static_cast<int>(w)` is the initialization `int t(w);`).

use super::define::CONV;
use super::*;

impl Parser<'_> {
    /// Whether struct `s` declares a conversion function to a scalar or vector type.
    pub(super) fn has_conversion(&self, s: &str) -> bool {
        self.structs
            .get(s)
            .is_some_and(|d| d.methods.contains_key(CONV))
    }

    /// The member through which class `from` converts to struct `to`
    /// ([`StructDef::member_conv`]), if it does.
    pub(super) fn converts_to(&self, from: &str, to: &str) -> Option<String> {
        let (t, m) = self.structs.get(from)?.member_conv.as_ref()?;
        (t == to).then(|| m.clone())
    }

    /// The leaves of a `from` value (`data.x`, `data.y`, `pred`) converted to the struct its
    /// conversion function returns: the leaves under its member, that prefix removed
    /// (`x`, `y`).
    pub(super) fn converted_leaves(&self, from: &str, leaves: Leaves) -> Leaves {
        let Some((_, m)) = self.structs.get(from).and_then(|d| d.member_conv.as_ref()) else {
            return leaves;
        };
        let prefix = format!("{m}.");
        leaves
            .into_iter()
            .filter_map(|(p, e)| p.strip_prefix(&prefix).map(|r| (r.to_string(), e)))
            .collect()
    }

    /// `e`, a value of class `s` (a temporary, a call's result, a variable), converted through
    /// its conversion function and lowered ([class.conv.fct]/1).
    pub(super) fn converted(&mut self, e: Expr, span: Span) -> PResult<Expr> {
        let call = Expr::new(ExprKind::Call(format!("@m:{CONV}"), vec![e]), span);
        self.lower_struct(call)
    }

    /// A call's arguments with each class argument that has a conversion function converted
    /// where the callee takes a scalar there: a non-template function whose every overload's
    /// parameter at that place is a value, or a built-in (no user function of the name), which
    /// takes no class ([over.best.ics]/4, [over.ics.user]). A function template's instance and
    /// a parameter of class type keep the object.
    pub(super) fn convert_class_args(&mut self, name: &str, args: Vec<Expr>) -> PResult<Vec<Expr>> {
        if name.starts_with('@') || name.starts_with("__crosslane") {
            return Ok(args);
        }
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.into_iter().enumerate() {
            let convert = match self.struct_of(&a) {
                Some(s) if self.has_conversion(&s) => self.takes_scalar_at(name, i),
                _ => false,
            };
            if convert {
                let span = a.span;
                out.push(self.converted(a, span)?);
            } else {
                out.push(a);
            }
        }
        Ok(out)
    }

    /// Whether the callee `name` (a function's key, `f` or `f#2`) takes a scalar at parameter
    /// `i`: every declared overload's parameter there is a value or pointer; a name no user
    /// function has is a built-in, whose parameters are scalars.
    fn takes_scalar_at(&self, name: &str, i: usize) -> bool {
        use super::super::overload::PType;
        let overloads: Vec<&super::super::overload::FnOverload> = self
            .fn_sets
            .values()
            .flatten()
            .filter(|f| f.key == name)
            .collect();
        if overloads.is_empty() {
            return !self.fn_types.contains_key(name);
        }
        overloads
            .iter()
            .all(|f| matches!(f.params.get(i).map(|p| &p.ty), Some(PType::Val(_))))
    }
}
