//! Template parameters and bound template arguments, and the mangled names of instances: the
//! vocabulary the template modules share (`templates`, `packs`, `partial_spec`,
//! `type_traits`), in a module of its own so none of them imports another for it; and
//! [`bind_template_args`], which binds an instance's arguments in the parser that reads it.

use super::Parser;
use crate::ast::{Expr, ExprKind, Span};
use crate::lexer::Token;
use crate::types::{Scalar, Ty, ValTy};

impl Parser<'_> {
    /// A conditional expression as a template argument, after its condition `c` was read:
    /// `cub::BlockStore<T, B, (K > 0) ? N / 2 : N, …>` (C++17 [temp.arg]/1 takes a
    /// constant-expression, and a conditional-expression is one, [expr.const]/1). Each
    /// operand is read as the condition was, so a `>` outside parentheses still closes the
    /// list ([temp.names]/3); a nested `a ? b : c ? d : e` groups to the right
    /// ([expr.cond]). Without a `?` the condition is the argument.
    pub(super) fn targ_conditional(&mut self, c: Expr) -> super::PResult<Expr> {
        if !self.is_punct("?") {
            return Ok(c);
        }
        // Each nested conditional is one level of the depth budget (`--max-depth`).
        self.enter()?;
        self.bump();
        let r = self.binary(1).and_then(|a| {
            let a = self.targ_conditional(a)?;
            self.expect_punct(":")?;
            let b = self.binary(1)?;
            Ok((a, self.targ_conditional(b)?))
        });
        self.depth -= 1;
        let (a, b) = r?;
        let span = c.span;
        self.node(
            ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
            span,
        )
    }
}

/// A template parameter.
#[derive(Clone, Debug)]
pub struct TParam {
    pub(super) name: String,
    /// `None` for a type parameter; the value's type for a non-type parameter.
    pub(super) value: Option<ValTy>,
    /// The default's tokens.
    pub(super) default: Option<Vec<Token>>,
    /// A type parameter pack (`typename... Ts`).
    pub(super) pack: bool,
    /// A function pointer (`T (*ACT_FN)(const T&)`) or template template (`template
    /// <typename> class Op`) parameter: its argument's name replaces it ([`super::fn_ptr`]).
    pub(super) named: bool,
    /// A value parameter of placeholder type (`template <auto N>`, `decltype(auto)`): its type
    /// is each argument's own (C++17 [temp.param]/4, [temp.arg.nontype]/1), kept by
    /// [`TArg::Typed`].
    pub(super) placeholder: bool,
    /// A value parameter of enumeration type: the enumeration's name
    /// ([`super::enum_targs`]).
    pub(super) enumeration: Option<String>,
}

/// A bound template argument.
#[derive(Clone, Debug, PartialEq)]
pub enum TArg {
    Type(ValTy),
    Value(i128),
    /// A constant with its type when that is not `int` (`3000000000u`, `'a'`, `true`): what a
    /// placeholder parameter (`template <auto N>`) binds, its type deduced from the argument
    /// ([dcl.type.auto.deduct]/2). A parameter of a declared type reads it as a
    /// [`TArg::Value`] converted to that type ([`settle`]).
    Typed(i128, ValTy),
    /// A struct type (a functor, a lambda's closure, a data struct), by name.
    Struct(String),
    /// `void` (an unnamed `typename = std::enable_if_t<…>` parameter's default).
    Void,
    /// A type parameter pack's elements.
    Pack(Vec<TArg>),
    /// A pointer type (`int32_t*`, `volatile float*`), by its pointee's value type: what a
    /// type parameter given by value a pointer argument deduces (C++17 [temp.deduct.call]/2:
    /// an array argument decays to a pointer; [temp.deduct.call]/4 drops the top-level cv-
    /// qualifiers), or an explicit `f<int*>`. Its cv-qualifiers change no value, so they are
    /// not kept.
    Ptr(ValTy),
    /// A cooperative group's type, deduced from a group argument.
    Group(super::cg::Group),
    /// A function pointer type, deduced from a function given to a parameter `Op op`
    /// ([`super::fn_ptr_run`]): in the instance `Op` is that pointer type.
    FnPtr(FnSig),
    /// A function (its instance's name, `silu_kernel<float>`) for a function pointer
    /// parameter, or a class template's name for a template template parameter.
    Named(String),
}

/// The mangled name of an instantiation: `f<float,32>`.
pub fn mangle(name: &str, args: &[TArg]) -> String {
    let parts: Vec<String> = args
        .iter()
        // An empty pack adds no argument (`f<int>`, not `f<int,>`).
        .filter(|a| !matches!(a, TArg::Pack(items) if items.is_empty()))
        .map(|a| match a {
            TArg::Type(t) => t.name(),
            TArg::Ptr(t) => format!("{}*", t.name()),
            TArg::Value(v) => v.to_string(),
            // `f<3000000000u>` and `f<3>` of `template <auto N>` are two instances.
            TArg::Typed(v, t) => format!("({}){v}", t.name()),
            TArg::Struct(s) => s.clone(),
            TArg::Void => "void".to_string(),
            TArg::Group(g) => super::cg::group_type_name(*g),
            TArg::FnPtr(sig) => sig.c_name(),
            TArg::Named(n) => n.clone(),
            // The elements in line: `f<int,float,double>`.
            TArg::Pack(items) => {
                let inner = mangle("", items);
                inner
                    .strip_prefix('<')
                    .and_then(|x| x.strip_suffix('>'))
                    .unwrap_or(&inner)
                    .to_string()
            }
        })
        .collect();
    format!("{name}<{}>", parts.join(","))
}

/// `args` as the parameters `params` bind them: a [`TArg::Typed`] constant given to a parameter
/// of a declared type is that parameter's [`TArg::Value`] (its instance is one whatever the
/// argument's spelling, `C<3u>` is `C<3>` of `template <int N>`: [temp.arg.nontype]/2, a
/// converted constant expression of the parameter's type); one given to a placeholder parameter
/// keeps its type.
pub(super) fn settle(params: &[TParam], args: Vec<TArg>) -> Vec<TArg> {
    let keep = |p: Option<&TParam>| p.is_some_and(|p| p.placeholder);
    let pack_keep = params.last().is_some_and(|p| p.pack && p.placeholder);
    args.into_iter()
        .enumerate()
        .map(|(i, a)| match a {
            TArg::Typed(..) if keep(params.get(i)) || (i >= params.len() && pack_keep) => a,
            TArg::Pack(items) if !keep(params.get(i)) => {
                TArg::Pack(items.into_iter().map(TArg::untyped).collect())
            }
            other if keep(params.get(i)) => other,
            other => other.untyped(),
        })
        .collect()
}

/// A constant template argument `v` of type `ty` (where the parser can tell it): a
/// [`TArg::Typed`] where the type is an integer or `bool` other than `int` (`3000000000u`,
/// `'a'`), which a placeholder parameter takes ([`settle`]); else a [`TArg::Value`].
pub(super) fn value_arg(v: i128, ty: Option<ValTy>) -> TArg {
    match ty {
        Some(t)
            if t.lanes == 1
                && t.scalar != Scalar::I32
                && !t.scalar.is_float()
                && !t.scalar.is_fp8() =>
        {
            TArg::Typed(v, t)
        }
        _ => TArg::Value(v),
    }
}

impl TArg {
    /// A [`TArg::Typed`] constant as a [`TArg::Value`]; any other argument as it is.
    pub(super) fn untyped(self) -> TArg {
        match self {
            TArg::Typed(v, _) => TArg::Value(v),
            other => other,
        }
    }
}

/// The name of the `i`-th element of pack `name` (`Ts…0`, `xs…1`): no C++ name has `…`.
pub(super) fn element(name: &str, i: usize) -> String {
    format!("{name}…{i}")
}

/// A function pointer's signature: its return type and parameter types.
#[derive(Clone, Debug, PartialEq)]
pub struct FnSig {
    pub(super) ret: Ty,
    pub(super) params: Vec<Ty>,
}

impl FnSig {
    /// A text that is equal for equal signatures (the candidates' test).
    pub(super) fn text(&self) -> String {
        sig_text(self.ret, self.params.iter().copied())
    }

    /// The pointer type as C++ spells it (`float(*)(float,float)`), for an instance's name.
    pub(super) fn c_name(&self) -> String {
        let name = |t: &Ty| match t {
            Ty::Val(v) => v.name(),
            Ty::Ptr(v) => format!("{}*", v.name()),
            other => format!("{other:?}"),
        };
        let p: Vec<String> = self.params.iter().map(name).collect();
        format!("{}(*)({})", name(&self.ret), p.join(","))
    }
}

/// The text [`FnSig::text`] compares: the return and parameter types, in order.
pub(super) fn sig_text(ret: Ty, params: impl Iterator<Item = Ty>) -> String {
    let p: Vec<String> = params.map(|t| format!("{t:?}")).collect();
    format!("{ret:?}({})", p.join(","))
}

/// Binds a template's parameters in the parser `sub` that instantiates it: a type argument as a
/// type alias, a struct argument as a struct alias, an integral argument as a constant of the
/// parameter's declared type (`int` when none was declared).
pub(super) fn bind_template_args(sub: &mut Parser<'_>, params: &[TParam], args: &[TArg]) {
    for (p, a) in params.iter().zip(args) {
        if let TArg::Pack(items) = a {
            // Each element under its own name (`Ts…0`, …), as the rewritten tokens name it.
            let each: Vec<TParam> = (0..items.len())
                .map(|i| TParam {
                    name: super::targs::element(&p.name, i),
                    // A value pack's elements keep its declared type (`int... Ns`).
                    value: p.value,
                    default: None,
                    pack: false,
                    named: false,
                    placeholder: p.placeholder,
                    enumeration: p.enumeration.clone(),
                })
                .collect();
            bind_template_args(sub, &each, items);
            continue;
        }
        // The innermost binding of a name wins ([temp.local]/6: a template parameter hides
        // the name outside): a class template instantiated inside a function template's
        // instance whose own `T` named a struct sees its `T` as its own argument.
        sub.struct_alias.remove(&p.name);
        sub.aliases.remove(&p.name);
        sub.ptr_aliases.remove(&p.name);
        sub.group_alias.remove(&p.name);
        sub.value_param_enum.remove(&p.name);
        if matches!(a, TArg::Value(_) | TArg::Typed(..)) {
            sub.value_param_enum
                .insert(p.name.clone(), p.enumeration.clone());
        }
        match a {
            TArg::Type(v) => {
                sub.aliases.insert(p.name.clone(), *v);
            }
            TArg::Ptr(v) => {
                sub.ptr_aliases.insert(p.name.clone(), *v);
            }
            TArg::Struct(st) => {
                sub.struct_alias.insert(p.name.clone(), st.clone());
            }
            TArg::Group(g) => {
                sub.group_alias.insert(p.name.clone(), *g);
            }
            // `Op op` then declares a function pointer parameter ([`super::fn_ptr_run`]).
            TArg::FnPtr(sig) => {
                sub.fn_ptr_sigs.insert(p.name.clone(), sig.clone());
                sub.fn_ptr_types.insert(p.name.clone());
            }
            // Nothing names an unnamed parameter; a named argument replaced its parameter's
            // tokens ([`super::fn_ptr`]).
            TArg::Void | TArg::Pack(_) | TArg::Named(_) => {}
            TArg::Value(_) | TArg::Typed(..) => {
                let (n, own) = match a {
                    TArg::Typed(n, t) => (n, *t),
                    TArg::Value(n) => (n, ValTy::scalar(Scalar::I32)),
                    _ => continue,
                };
                // A placeholder parameter has the argument's type ([dcl.type.auto.deduct]/2: an
                // unsuffixed literal that fits is an `int`); a declared one its own.
                let ty = match p.value {
                    Some(v) if !p.placeholder => v,
                    _ => own,
                };
                let lit = Expr::new(
                    ExprKind::Int {
                        value: *n as u64,
                        unsigned: false,
                        long: false,
                    },
                    Span::default(),
                );
                sub.consts.insert(
                    p.name.clone(),
                    Expr::new(ExprKind::Cast(Ty::Val(ty), Box::new(lit)), Span::default()),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Scalar;

    #[test]
    fn packs_mangle_in_line_and_an_empty_one_adds_nothing() {
        let int = TArg::Type(ValTy::scalar(Scalar::I32));
        let w = TArg::Struct("W<float,32>".into());
        assert_eq!(
            mangle("f", &[int.clone(), TArg::Pack(vec![w, int.clone()])]),
            "f<int,W<float,32>,int>"
        );
        assert_eq!(mangle("f", &[int, TArg::Pack(Vec::new())]), "f<int>");
    }
}
