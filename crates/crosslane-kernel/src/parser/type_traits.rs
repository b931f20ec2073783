//! `<type_traits>` as kernels use it (C++17 [meta]): the value traits `std::is_same_v<A, B>`,
//! `is_integral_v`, `is_floating_point_v`, `is_arithmetic_v`, `is_signed_v`, `is_unsigned_v`,
//! `is_trivially_copyable_v`, `is_base_of_v` (and clang's `__is_base_of(B, D)`)
//! (and their `std::is_same<A, B>::value` forms) read as `true`/`false` where they are written;
//! the type traits `std::conditional_t<C, A, B>`, `std::enable_if_t<C, T>`, `remove_cv_t`,
//! `remove_const_t`, `remove_reference_t`, `decay_t` (and their `typename …<…>::type` forms)
//! and `decltype(expr)` read as the type they name, wherever a type is read.
//!
//! The types are the emulator's scalars, so two names of one scalar are one type here:
//! `is_same_v<long, long long>` is `true` (both 64-bit; C++ says `false`); `__half` and
//! `__nv_bfloat16` are class types in the vendors' headers (CUDA Math API, Half Precision
//! Intrinsics), so `is_floating_point_v<__half>` and `is_arithmetic_v<__half>` are `false` as
//! there. `enable_if_t` with a false condition names no type: among several templates of one
//! name that template is dropped (substitution failure, [temp.deduct]/8, [`super::sfinae`]);
//! alone it is an error naming the condition.

use super::targs::TArg;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Scalar, Ty};
use crate::KernelError;

/// The value traits read here, without their `_v`.
const VALUE_TRAITS: &[&str] = &[
    "is_same",
    "is_integral",
    "is_floating_point",
    "is_arithmetic",
    "is_signed",
    "is_unsigned",
    "is_pod",
    "is_trivial",
    "is_trivially_copyable",
    "is_standard_layout",
    "is_base_of",
];

/// The type traits that name their (first) argument's type unchanged here.
const IDENTITY_TRAITS: &[&str] = &[
    "remove_cv",
    "remove_const",
    "remove_volatile",
    "remove_reference",
    "remove_cvref",
    "decay",
    "type_identity",
];

/// Whether `w` names a value trait (`is_same_v`, `is_same`).
pub(super) fn is_value_trait(w: &str) -> bool {
    VALUE_TRAITS.contains(&w.strip_suffix("_v").unwrap_or(w))
}

/// Whether `w` names a type trait (`conditional_t`, `enable_if`, `decay_t`).
pub(super) fn is_type_trait(w: &str) -> bool {
    let base = w.strip_suffix("_t").unwrap_or(w);
    matches!(base, "conditional" | "enable_if") || IDENTITY_TRAITS.contains(&base)
}

/// The value of trait `name` (without `_v`) for `args`; `None` when the arguments do not fit.
fn trait_of(name: &str, args: &[TArg]) -> Option<bool> {
    let scalar = |a: &TArg| match a {
        TArg::Type(t)
            if t.lanes == 1
                && !matches!(t.scalar, Scalar::F16 | Scalar::Bf16)
                && !t.scalar.is_fp8() =>
        {
            Some(Some(t.scalar))
        }
        // Vector types, the half and 8-bit float types and structs are class types; a
        // pointer is neither integral nor floating ([basic.fundamental], [basic.compound]).
        TArg::Type(_)
        | TArg::Ptr(_)
        | TArg::Struct(_)
        | TArg::Void
        | TArg::Group(_)
        | TArg::FnPtr(_) => Some(None),
        TArg::Value(_) | TArg::Typed(..) | TArg::Pack(_) | TArg::Named(_) => None,
    };
    Some(match (name, args) {
        ("is_same", [a, b]) => a == b,
        ("is_integral", [a]) => scalar(a)?.is_some_and(|s| !s.is_float()),
        ("is_floating_point", [a]) => scalar(a)?.is_some_and(|s| s.is_float()),
        ("is_arithmetic", [a]) => scalar(a)?.is_some(),
        ("is_signed", [a]) => scalar(a)?.is_some_and(|s| s.is_float() || s.is_signed()),
        // `bool` is unsigned: bool(-1) > bool(0) ([meta.unary.prop], is_unsigned).
        ("is_unsigned", [a]) => scalar(a)?.is_some_and(|s| !s.is_float() && !s.is_signed()),
        // Scalars, the vector types and the half and 8-bit float classes are trivially
        // copyable ([basic.types]/9; their copy constructors are implicit). A struct is
        // answered by the caller, which sees its constructors.
        ("is_trivially_copyable", [TArg::Type(_)]) => true,
        _ => return None,
    })
}

impl Parser<'_> {
    /// `std::is_base_of<B, D>` and clang's and GCC's `__is_base_of(B, D)` (which libstdc++'s
    /// and libc++'s `is_base_of` are): true when `D` is `B` or derives from it, directly or
    /// not, both classes ([meta.rel]: "`Base` is a base class of `Derived` … or `Base` and
    /// `Derived` are not unions and name the same class type"); false when either is not a
    /// class (a scalar, a pointer).
    ///
    /// # Errors
    /// Other than two type arguments.
    fn base_of(&self, args: &[TArg], span: Span) -> PResult<bool> {
        match args {
            [TArg::Struct(b), TArg::Struct(d)] => Ok(b == d || self.base_offset(d, b).is_some()),
            [TArg::Value(_) | TArg::Typed(..) | TArg::Pack(_), _]
            | [_, TArg::Value(_) | TArg::Typed(..) | TArg::Pack(_)] => Err(KernelError::new(
                span.line,
                span.col,
                "`is_base_of` takes two types",
            )),
            [_, _] => Ok(false),
            _ => Err(KernelError::new(
                span.line,
                span.col,
                "`is_base_of` takes 2 type argument(s)",
            )),
        }
    }

    /// `__is_base_of(B, D)` (the name read, the `(` next): see [`Parser::base_of`].
    ///
    /// # Errors
    /// Other than two type arguments.
    pub(super) fn builtin_is_base_of(&mut self, span: Span) -> PResult<Expr> {
        self.expect_punct("(")?;
        let b = self.template_arg()?;
        self.expect_punct(",")?;
        let d = self.template_arg()?;
        self.expect_punct(")")?;
        let v = self.base_of(&[b, d], span)?;
        Ok(Expr::new(ExprKind::Bool(v), span))
    }

    /// `is_same_v<A, B>` or `is_same<A, B>::value` (its `std::` already read), as a `bool`.
    ///
    /// # Errors
    /// A trait given the wrong arguments, or a `::` member other than `value`.
    pub(super) fn trait_value(&mut self, span: Span) -> PResult<Expr> {
        let start = self.pos;
        let name = self.ident()?;
        let args = self.template_args()?;
        let base = name.strip_suffix("_v");
        let mut made = false;
        if base.is_none() {
            // `is_same<A, B>::value`, `is_same<A, B>{}` or `is_same<A, B>()` ([meta.help]).
            if self.eat("::") {
                let m_at = self.span();
                if self.ident()? != "value" {
                    return Err(KernelError::new(
                        m_at.line,
                        m_at.col,
                        format!("`std::{name}<…>::value` is the member read here"),
                    ));
                }
            } else if self.eat("{") {
                self.expect_punct("}")?;
                made = true;
            } else {
                self.expect_punct("(")?;
                self.expect_punct(")")?;
                made = true;
            }
        }
        let trait_name = base.unwrap_or(&name);
        if trait_name == "is_base_of" {
            let v = self.base_of(&args, span)?;
            return Ok(Expr::new(ExprKind::Bool(v), span));
        }
        if let (true, [TArg::Struct(st)]) = (trait_name == "is_trivially_copyable", &args[..]) {
            // A struct is trivially copyable without a user-provided copy constructor or
            // destructor ([class.prop]/1): one with a one-parameter constructor (a copy
            // constructor or not, the front end does not tell) or a destructor with
            // statements is not answered.
            let one_param_ctor = self
                .structs
                .get(st)
                .is_some_and(|d| d.ctors.iter().any(|(n, _)| *n == 1));
            if one_param_ctor || self.has_destructor(st) {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "`std::{name}<{st}>`: `{st}` declares a one-parameter constructor or a \
                         destructor, and whether it is trivially copyable is not told here; \
                         write `true` or `false`"
                    ),
                ));
            }
            return Ok(Expr::new(ExprKind::Bool(true), span));
        }
        // The layout traits ([meta.unary.prop]): a scalar, a vector type, `__half` and a struct
        // of the source (no virtual functions or bases here, one access for all members) are
        // trivially copyable and standard-layout; a struct with a user-provided constructor is
        // not trivial, so not POD (vLLM's `static_assert(std::is_pod_v<_f16Vec<T, W>>)`).
        if matches!(
            trait_name,
            "is_pod" | "is_trivial" | "is_trivially_copyable" | "is_standard_layout"
        ) {
            let v = match args.as_slice() {
                [TArg::Void] => false,
                [TArg::Struct(st)] if matches!(trait_name, "is_pod" | "is_trivial") => {
                    self.structs.get(st).is_none_or(|d| d.ctors.is_empty())
                }
                [TArg::Type(_) | TArg::Struct(_)] => true,
                _ => {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`std::{name}` takes 1 type argument(s)"),
                    ))
                }
            };
            return Ok(Expr::new(ExprKind::Bool(v), span));
        }
        let v = trait_of(trait_name, &args).ok_or_else(|| {
            KernelError::new(
                span.line,
                span.col,
                format!(
                    "`std::{name}` takes {} type argument(s)",
                    if trait_name == "is_same" { 2 } else { 1 }
                ),
            )
        })?;
        if made && self.argument_object(start) {
            // `pick(x, std::is_same<T, float>{})`: an object of the trait's base
            // `integral_constant<bool, v>` ([meta.unary]/2, [meta.rel]/2), so that tag
            // dispatch on `std::true_type` / `std::false_type` chooses by its class; a `bool`
            // parameter takes it through its conversion function ([meta.help]/1).
            let st = self.instantiate_class(
                "integral_constant",
                vec![
                    TArg::Type(crate::types::ValTy::scalar(Scalar::Bool)),
                    TArg::Value(i128::from(v)),
                ],
                span,
            )?;
            return self.node(ExprKind::Call(st, Vec::new()), span);
        }
        Ok(Expr::new(ExprKind::Bool(v), span))
    }

    /// Whether the trait object read from token `start` (its name; `std::` before it) to the
    /// current position is a whole argument of a function call (`f(a, std::is_same<A, B>{})`)
    /// while `<type_traits>`' `integral_constant` is declared ([`super::std_constants`]).
    fn argument_object(&self, start: usize) -> bool {
        if !self.class_templates.contains_key("integral_constant") {
            return false;
        }
        let tok = |k: usize| self.toks.get(k).map(|t| &t.tok);
        let mut before = start;
        if before >= 2
            && matches!(tok(before - 1), Some(Tok::Punct("::")))
            && matches!(tok(before - 2), Some(Tok::Ident(w)) if w == "std")
        {
            before -= 2;
        }
        if before == 0 || !matches!(tok(self.pos), Some(Tok::Punct("," | ")"))) {
            return false;
        }
        // Back to the `(` opening the argument list, over nested groups.
        let mut depth = 0usize;
        let mut k = before;
        let floor = before.saturating_sub(4096);
        while k > floor {
            k -= 1;
            match tok(k) {
                Some(Tok::Punct(")" | "]" | "}")) => depth += 1,
                Some(Tok::Punct("(" | "[" | "{")) if depth > 0 => depth -= 1,
                Some(Tok::Punct("(")) => {
                    // A call: a function's name (or a template's `>`) before the `(`, not a
                    // statement keyword or an operator's operand group.
                    // A call of a function the source defines (not `printf`, a builtin or
                    // a statement keyword's parentheses), or of a template's instance.
                    return match tok(k.wrapping_sub(1)) {
                        Some(Tok::Ident(w)) => {
                            self.fn_types.contains_key(w)
                                || self.templates.contains_key(w)
                                || self.overloads.contains_key(w)
                                || self.fn_sets.contains_key(w)
                        }
                        Some(Tok::Punct(">")) => true,
                        _ => false,
                    };
                }
                Some(Tok::Punct("[" | "{" | ";")) => return false,
                Some(Tok::Punct("<" | ">")) if depth == 0 => return false,
                _ => {}
            }
        }
        false
    }

    /// Whether a type trait or `decltype` starts a type here.
    pub(super) fn trait_type_starts(&self) -> bool {
        match (self.peek(0), self.peek(1), self.peek(2)) {
            (Tok::Ident(w), Tok::Punct("("), _) if w == "decltype" => true,
            (Tok::Ident(w), _, _) if w == "typename" => true,
            (Tok::Ident(s), Tok::Punct("::"), Tok::Ident(w)) if s == "std" => {
                is_type_trait(w) || matches!(w.as_str(), "aligned_storage" | "aligned_storage_t")
            }
            (Tok::Ident(w), Tok::Punct("<"), _) => is_type_trait(w),
            _ => false,
        }
    }

    /// A type trait or `decltype(expr)` read as its type; `None` (position kept) when none
    /// starts here.
    ///
    /// # Errors
    /// A false `enable_if` condition, a condition that is no constant, a `decltype` of an
    /// expression whose type the front end cannot tell.
    pub(super) fn trait_type(&mut self) -> PResult<Option<Ty>> {
        if !self.trait_type_starts() {
            return Ok(None);
        }
        let save = self.pos;
        let at = self.span();
        let typename = self.eat_word("typename");
        if self.is_word("std") && matches!(self.peek(1), Tok::Punct("::")) {
            self.bump();
            self.bump();
        }
        let Tok::Ident(w) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        if w == "decltype" {
            self.bump();
            self.expect_punct("(")?;
            let e = self.expr()?;
            self.expect_punct(")")?;
            return match self.expr_type(&e) {
                Some(v) => Ok(Some(Ty::Val(v))),
                None => match &e.kind {
                    ExprKind::Ident(n) => Ok(self.var_type(n)),
                    _ => Err(KernelError::new(
                        at.line,
                        at.col,
                        "cannot tell the type of this `decltype(…)`; write the type",
                    )),
                },
            };
        }
        if matches!(w.as_str(), "aligned_storage" | "aligned_storage_t")
            && matches!(self.peek(1), Tok::Punct("<"))
        {
            // The token pass `aligned_storage.rs` reads `<sizeof(T), alignof(T)>` as `T`; any
            // other storage has no type of its own here.
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`std::{w}` is read only as the storage of one type, \
                     `std::aligned_storage<sizeof(T), alignof(T)>::type` (an array of it is an \
                     array of `T`); write that, or declare an array of the type the storage \
                     holds"
                ),
            ));
        }
        if !is_type_trait(&w) || !matches!(self.peek(1), Tok::Punct("<")) {
            // `typename T::x`, another `typename`: not a trait.
            self.pos = if typename { save + 1 } else { save };
            return Ok(None);
        }
        self.bump();
        self.expect_punct("<")?;
        let base = w.strip_suffix("_t").unwrap_or(&w).to_string();
        let ty = match base.as_str() {
            "conditional" | "enable_if" => {
                let c_at = self.span();
                let no_gt = std::mem::replace(&mut self.no_gt, true);
                let c = self.binary(1);
                self.no_gt = no_gt;
                let c = self.fold_int(&c?).ok_or_else(|| {
                    KernelError::new(
                        c_at.line,
                        c_at.col,
                        format!("the condition of `std::{w}` must be a constant here"),
                    )
                })?;
                if base == "conditional" {
                    self.expect_punct(",")?;
                    let a = self.trait_arg()?;
                    self.expect_punct(",")?;
                    let b = self.trait_arg()?;
                    if c != 0 {
                        a
                    } else {
                        b
                    }
                } else {
                    let t = if self.eat(",") {
                        self.trait_arg()?
                    } else {
                        Ty::Void
                    };
                    if c == 0 {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "`std::{w}`: the condition is false for these template \
                                 arguments, so it names no type: declare a template of the \
                                 same name whose condition holds for them (an overload chosen \
                                 by substitution failure), or select with `if constexpr`"
                            ),
                        ));
                    }
                    t
                }
            }
            _ => self.trait_arg()?,
        };
        if !self.close_angle() {
            return self.err("`>`");
        }
        if !w.ends_with("_t") {
            // `typename std::conditional<…>::type`.
            self.expect_punct("::")?;
            let m_at = self.span();
            if self.ident()? != "type" {
                return Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!("`std::{w}<…>::type` is the member read here"),
                ));
            }
        }
        Ok(Some(ty))
    }

    /// An identity trait of a struct as a template argument: `std::decay_t<F>` with `F` a
    /// struct or a lambda's closure type (vLLM's `DefaultVecOp<…, std::decay_t<ScaOp>>`), also
    /// `std::remove_cvref_t<const S&>` and the `typename std::decay<F>::type` form: that struct
    /// ([meta.trans.other]: `decay` of a class type, cv and reference removed, is the class).
    /// `None`, the position kept, for anything else.
    ///
    /// # Errors
    /// A struct's template arguments that do not parse.
    pub(super) fn identity_trait_struct(&mut self) -> PResult<Option<String>> {
        let save = (self.pos, self.gt_owed);
        let back = |p: &mut Self| {
            p.pos = save.0;
            p.gt_owed = save.1;
        };
        let typename = self.eat_word("typename");
        if self.is_word("std") && matches!(self.peek(1), Tok::Punct("::")) {
            self.bump();
            self.bump();
        }
        let Tok::Ident(w) = self.peek(0).clone() else {
            back(self);
            return Ok(None);
        };
        let base = w.strip_suffix("_t").unwrap_or(&w);
        if !IDENTITY_TRAITS.contains(&base)
            || !matches!(self.peek(1), Tok::Punct("<"))
            || (typename && w.ends_with("_t"))
        {
            back(self);
            return Ok(None);
        }
        self.bump();
        self.bump();
        while self.eat_word("const") || self.eat_word("volatile") {}
        let Some(st) = self.struct_type()? else {
            back(self);
            return Ok(None);
        };
        while self.eat_word("const") || self.eat_word("volatile") {}
        while self.eat("&") || self.eat("&&") {}
        if !self.close_angle() {
            back(self);
            return Ok(None);
        }
        // The `typename std::decay<F>::type` form names its `::type`.
        let named = w.ends_with("_t") || (self.eat("::") && self.eat_word("type"));
        if !named {
            back(self);
            return Ok(None);
        }
        Ok(Some(st))
    }

    /// A type argument of a type trait (`float`, `T*`, `const T&`).
    fn trait_arg(&mut self) -> PResult<Ty> {
        let base = self.base_type()?;
        Ok(self.pointers(base)?.0)
    }

    /// Consumes the word `w` when it is next.
    pub(crate) fn eat_word(&mut self, w: &str) -> bool {
        let here = self.is_word(w);
        if here {
            self.bump();
        }
        here
    }
}
