//! Overload resolution: which of several functions of one name a call names, as C++17
//! [over.match] chooses it.
//!
//! - Candidates: the non-template functions of the name declared before the call (each later
//!   declaration with other parameter types is kept under `name#N`, N = 2, 3, …; one with the
//!   same parameter types is the same function, [over.dcl]/1) and the templates of the name
//!   whose deduction and `enable_if` hold ([`super::sfinae`]); explicit template arguments
//!   leave only the templates ([temp.arg.explicit]).
//! - Viable ([over.match.viable]): as many arguments as parameters, less the defaulted ones;
//!   each argument has an implicit conversion sequence to its parameter.
//! - Each conversion is ranked ([over.ics.scs] table 13, [conv.prom]): exact match (same type;
//!   `T*` to `T*`) > promotion (`bool`, `char`, `short` and their unsigned forms to `int`;
//!   `float` to `double`) > conversion (any other arithmetic conversion, `0` or a pointer to
//!   `void*`) > user-defined (to or from `__half` / `__nv_bfloat16`, which are classes in
//!   `cuda_fp16.h` / `cuda_bf16.h` converting through constructors and `operator float()`;
//!   two of these compare by the standard conversion after `operator float()`,
//!   [over.ics.rank]/3.3). A vector type (`float2`, `float4`, `__half2`) and a struct only
//!   match themselves: no conversion between them and a scalar or another vector exists
//!   (they are structs, CUDA C++ Programming Guide "Built-in Vector Types"). A reference to
//!   non-const takes only its own type (a converted temporary cannot bind,
//!   [dcl.init.ref]/5.2).
//! - Best viable ([over.match.best]/2): better in no argument worse and one better; on a tie a
//!   non-template beats a template specialization (/2.4), and a more specialized template
//!   beats a less specialized one (/2.5, [temp.func.order]: here a parameter written as a
//!   bare template parameter `T` is less specialized than a compound of one, `T*`, and that
//!   than a type with no template parameter; a template is more specialized when no parameter
//!   is less and one is more). No single best is an error naming every equally good
//!   candidate's line, as nvcc refuses the call. An argument whose type the front end cannot
//!   tell (a pointer of unknown element type, an expression it does not type) counts as
//!   equally good for each; a tie only that leaves goes to the first declared of the tied,
//!   with a warning naming them (the front end's limit, not the source's ambiguity).
//!
//! - `const`: a pointer to const converts to no pointer to non-const and a const lvalue or a
//!   temporary binds no reference to non-const ([conv.qual], [dcl.init.ref]/5); `float*` to
//!   `const float*` and a non-const lvalue to `const float&` are exact matches worse than the
//!   same without `const` ([over.ics.rank]/3.2.5, 3.2.6). An argument is const where it names a
//!   variable or parameter declared so (`const float* g`, `const float y`), or is `&y` or
//!   `g + i` of one.
//!
//! Not modelled (each refused or left to the rules above, never guessed): user structs'
//! converting constructors and conversion functions, `volatile`, `long` and `long long` as
//! distinct types.
//!
//! Bounded: at most [`MAX_FN_OVERLOADS`] non-template functions share a name; each call
//! ranks each candidate's arguments once.

pub(super) use super::param_list::{param_tokens, split_params};
use super::structs::FieldTy;
use super::targs::{TArg, TParam};
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::lexer::{Tok, Token};
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;

/// Most non-template functions (with distinct parameter types) that share one name (the
/// CUDA samples' `helper_math.h` declares 33 `operator-` over its nine vector types).
pub const MAX_FN_OVERLOADS: usize = 64;

/// A parameter's type as overload resolution compares it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum PType {
    /// A value (a scalar or a vector type).
    Val(ValTy),
    /// A pointer to values.
    Ptr(ValTy),
    /// `void*`.
    VoidPtr,
    /// A struct, by value or reference.
    Struct(String),
    /// A pointer to a struct (`Base* b`): matched as an unknown form, read where a derived
    /// object's address is passed (`structs::bases`).
    StructPtr(String),
    /// A form not read here (a group, a function pointer, a pointer to pointers).
    Unknown,
}

/// One parameter of a candidate.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PSig {
    pub(super) ty: PType,
    /// A reference to non-const (`float& x`): takes only its own type.
    pub(super) mut_ref: bool,
    /// A pointer to const (`const float* p`, `float const* p`) or a reference to const
    /// (`const float& x`): what [over.ics.rank]/3.2.5 and 3.2.6 rank below the unqualified
    /// form for an argument that is not const.
    pub(super) to_const: bool,
    /// Whether it has a default argument.
    pub(super) default: bool,
}

/// A non-template function of an overloaded name.
#[derive(Clone, Debug)]
pub(super) struct FnOverload {
    /// The name calls of it are given (`name` for the first, `name#N` after).
    pub(super) key: String,
    /// Its parameters.
    pub(super) params: Vec<PSig>,
    /// The line of its first declaration.
    pub(super) line: u32,
}

/// An argument's type as the front end tells it.
#[derive(Clone, Debug)]
pub(super) enum AType {
    Val(ValTy),
    Ptr(Option<ValTy>),
    Struct(String),
    Unknown,
}

/// Arguments' types, each with whether it is the literal `0`.
pub(super) type ArgTypes = Vec<(AType, bool)>;

/// What the front end knows of an argument's cv-qualification and value category.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ArgQual {
    /// A pointer to const (`const float* g`), or a value that is a const lvalue
    /// (`const float y`).
    pub(super) konst: bool,
    /// Not an lvalue (a literal, an arithmetic result, a call's value): a reference to
    /// non-const cannot bind it ([dcl.init.ref]/5.2).
    pub(super) rvalue: bool,
}

/// Most tokens before a host launch searched for an argument's declaration.
const HOST_DECL_WINDOW: usize = 4096;

/// An implicit conversion sequence's rank ([over.ics.scs] table 13); `User(r)`: a user-defined
/// conversion whose second standard conversion has rank `r`. Declared best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    /// An exact match that adds `const`: `float*` to `const float*` (a qualification
    /// conversion) or a non-const lvalue bound to `const float&`; worse than the exact match
    /// without it ([over.ics.rank]/3.2.5, 3.2.6), better than any promotion.
    ExactConst,
    Promotion,
    Conversion,
    User(u8),
}

/// One argument's conversion to one parameter.
#[derive(Clone, Debug)]
enum Ics {
    Rank(Rank),
    /// The argument's type is not known here: equally good for every candidate.
    Unknown,
    /// No implicit conversion: the candidate is not viable.
    No(String),
}

/// A candidate of a call: a non-template function or a template with its arguments bound.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    /// The non-template's key or the template's key.
    pub(super) key: String,
    pub(super) template: bool,
    pub(super) line: u32,
    pub(super) params: Vec<PSig>,
    /// Per parameter, how specialized its written form is (templates only, [temp.func.order]):
    /// 0 a bare template parameter, 1 a compound of one, 2 no template parameter.
    pub(super) levels: Vec<u8>,
    /// Whether the last parameter is a pack (takes any number of arguments).
    pub(super) variadic: bool,
}

/// The text of a type for messages (`float`, `float4`, `__half*`).
fn type_text(t: &PType) -> String {
    match t {
        PType::Val(v) => crate::vector_types::cuda_name(*v),
        PType::Ptr(v) => format!("{}*", crate::vector_types::cuda_name(*v)),
        PType::VoidPtr => "void*".into(),
        PType::Struct(s) => s.clone(),
        PType::StructPtr(s) => format!("{s}*"),
        PType::Unknown => "?".into(),
    }
}

fn atype_text(t: &AType) -> String {
    match t {
        AType::Val(v) => crate::vector_types::cuda_name(*v),
        AType::Ptr(Some(v)) => format!("{}*", crate::vector_types::cuda_name(*v)),
        AType::Ptr(None) => "a pointer".into(),
        AType::Struct(s) => s.clone(),
        AType::Unknown => "a type not known here".into(),
    }
}

/// Whether `s` is a 16-bit floating type, a class in `cuda_fp16.h` / `cuda_bf16.h`, or an 8-bit
/// one, a class in `cuda_fp8.h` / `hip_fp8.h`.
fn class_float(s: Scalar) -> bool {
    matches!(s, Scalar::F16 | Scalar::Bf16) || s.is_fp8()
}

/// The standard conversion from arithmetic scalar `a` to `p` ([conv.prom], [conv.fpprom]).
fn standard(a: Scalar, p: Scalar) -> Rank {
    if a == p {
        Rank::Exact
    } else if (matches!(
        a,
        Scalar::Bool | Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16
    ) && p == Scalar::I32)
        || (a == Scalar::F32 && p == Scalar::F64)
    {
        Rank::Promotion
    } else {
        Rank::Conversion
    }
}

fn rank_no(r: Rank) -> u8 {
    match r {
        Rank::Exact | Rank::ExactConst => 0,
        Rank::Promotion => 1,
        Rank::Conversion => 2,
        Rank::User(_) => 3,
    }
}

/// The conversion of an argument of type `a` (`zero`: the literal `0`) to parameter `p`.
fn ics(a: &AType, zero: bool, q: ArgQual, p: &PSig) -> Ics {
    let no = |why: &str| Ics::No(why.to_string());
    match (&p.ty, a) {
        (PType::Unknown | PType::StructPtr(_), _) | (_, AType::Unknown) => Ics::Unknown,
        (PType::Val(_), AType::Val(_)) if p.mut_ref && q.konst => {
            no("a reference to non-const cannot bind a const value ([dcl.init.ref]/5)")
        }
        (PType::Val(_), AType::Val(_)) if p.mut_ref && q.rvalue => {
            no("a reference to non-const cannot bind a temporary ([dcl.init.ref]/5.2)")
        }
        (PType::Val(pv), AType::Val(av)) => {
            if pv == av {
                // `const float&` of a non-const lvalue: worse than `float&` ([over.ics.rank]/3.2.6).
                let adds_const = p.to_const && !q.konst && !q.rvalue;
                return Ics::Rank(if adds_const {
                    Rank::ExactConst
                } else {
                    Rank::Exact
                });
            }
            if pv.lanes != 1 || av.lanes != 1 {
                return no("a vector type converts to no other type");
            }
            if p.mut_ref {
                return no("a reference to non-const takes only its own type");
            }
            let (a, p) = (av.scalar, pv.scalar);
            match (class_float(a), class_float(p)) {
                // An 8-bit float converts to and from the 16-bit ones (its constructors from
                // `__half` / `__nv_bfloat16`, its `operator __half()`).
                (true, true) if a.is_fp8() || p.is_fp8() => Ics::Rank(Rank::User(0)),
                (true, true) => no("no conversion between __half and __nv_bfloat16"),
                // `operator float()`, then a standard conversion.
                (true, false) => Ics::Rank(Rank::User(rank_no(standard(Scalar::F32, p)))),
                // A converting constructor.
                (false, true) => Ics::Rank(Rank::User(0)),
                (false, false) => Ics::Rank(standard(a, p)),
            }
        }
        // [conv.qual]: `T*` converts to `const T*`, never back.
        (PType::Ptr(pv), AType::Ptr(Some(av))) if pv == av && q.konst && !p.to_const => {
            no("a pointer to const does not convert to a pointer to non-const ([conv.qual])")
        }
        (PType::Ptr(pv), AType::Ptr(Some(av))) if pv == av => {
            Ics::Rank(if p.to_const && !q.konst {
                Rank::ExactConst
            } else {
                Rank::Exact
            })
        }
        (PType::Ptr(_), AType::Ptr(Some(_))) => no("pointers to other types do not convert"),
        (PType::Ptr(_) | PType::VoidPtr, AType::Ptr(None)) => Ics::Unknown,
        (PType::VoidPtr, AType::Ptr(Some(_))) => Ics::Rank(Rank::Conversion),
        (PType::Ptr(_) | PType::VoidPtr, AType::Val(_)) if zero => Ics::Rank(Rank::Conversion),
        (PType::Struct(ps), AType::Struct(s)) if ps == s => Ics::Rank(Rank::Exact),
        (PType::Struct(_), _) => no("a struct takes only its own type here"),
        (_, AType::Struct(_)) => no("a struct converts to no other type here"),
        (PType::Val(_), AType::Ptr(_)) => no("a pointer is not a value"),
        (PType::Ptr(_) | PType::VoidPtr, AType::Val(_)) => no("a value is not a pointer"),
    }
}

/// How `a` compares with `b` on one argument: `Less` when `a` is better.
fn cmp_ics(a: &Ics, b: &Ics) -> std::cmp::Ordering {
    match (a, b) {
        (Ics::Rank(x), Ics::Rank(y)) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    }
}

/// Whether candidate `a` (conversions `ca`) is better than `b` ([over.match.best]/2).
fn better(a: &Candidate, ca: &[Ics], b: &Candidate, cb: &[Ics]) -> bool {
    use std::cmp::Ordering::{Greater, Less};
    let orders: Vec<_> = ca.iter().zip(cb).map(|(x, y)| cmp_ics(x, y)).collect();
    if orders.contains(&Greater) {
        return false;
    }
    if orders.contains(&Less) {
        return true;
    }
    // A parameter type not read here (`const _f16Vec<scalar_t, width>&` of a class template's
    // member, [`Ics::Unknown`]) against an exact match of the same argument: the exact match
    // is the one known to be viable, the other may take no conversion at all (a struct from a
    // `float`), so the exact match is chosen (vLLM's `_f16Vec::operator*=(float)` beside
    // `operator*=(const _f16Vec&)`). An argument of unknown type is unknown for both.
    let exact = |x: &Ics| matches!(x, Ics::Rank(Rank::Exact | Rank::ExactConst));
    let unknown = |x: &Ics| matches!(x, Ics::Unknown);
    let a_known = ca.iter().zip(cb).any(|(x, y)| exact(x) && unknown(y));
    let b_known = ca.iter().zip(cb).any(|(x, y)| unknown(x) && exact(y));
    if a_known && !b_known {
        return true;
    }
    if b_known && !a_known {
        return false;
    }
    if !a.template && b.template {
        return true;
    }
    // Partial ordering in a call uses only the parameters the call's arguments meet
    // ([temp.deduct.partial]/3.1, "in the context of a function call, the types used are
    // those function parameter types for which the function call has arguments"): a
    // parameter left to its default takes no part (rocPRIM's `scan(T, T&, T& reduction,
    // Op = Op())` beside `scan(T, T&, Op)` for three arguments).
    let n = ca.len();
    if a.template
        && b.template
        && n > 0
        && a.levels.len() >= n
        && b.levels.len() >= n
        && (a.levels.len() == b.levels.len() || (!a.variadic && !b.variadic))
    {
        let pairs = a.levels[..n].iter().zip(&b.levels[..n]);
        if pairs.clone().all(|(x, y)| x >= y) && pairs.clone().any(|(x, y)| x > y) {
            return true;
        }
    }
    a.template && b.template && !a.variadic && b.variadic && at_least_as_specialized(a, b)
}

/// Whether non-variadic template `a` is at least as specialized as variadic template `b` in
/// every parameter a call's arguments meet: where `b`'s trailing pack meets them, its bare
/// pattern (`Rest...`) is the least specialized form. When the two are then at least as
/// specialized as each other, the one without a trailing pack is more specialized (C++17
/// [temp.deduct.partial]/11, [temp.func.order]/5): `f(T)` beats `f(T, Rest...)` for one
/// argument, which is what ends the variadic recursion idiom.
fn at_least_as_specialized(a: &Candidate, b: &Candidate) -> bool {
    let fixed = b.levels.len().saturating_sub(1);
    a.levels
        .iter()
        .enumerate()
        .all(|(i, x)| *x >= b.levels.get(i).copied().filter(|_| i < fixed).unwrap_or(0))
}

/// A parameter's tokens without its default argument, and whether it had one.
fn without_default(toks: &[Token]) -> (&[Token], bool) {
    let mut depth = 0usize;
    for (i, tk) in toks.iter().enumerate() {
        match &tk.tok {
            Tok::Punct("(" | "<" | "[") => depth += 1,
            Tok::Punct(")" | ">" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct("=") if depth == 0 => return (&toks[..i], true),
            _ => {}
        }
    }
    (toks, false)
}

/// How specialized a template's parameter is as written ([temp.func.order]): 0 a bare template
/// parameter (`T`, `const T&`), 1 a compound of one (`T*`, `Vec<T>`), 2 none named.
fn level(toks: &[Token], tparams: &[TParam]) -> u8 {
    let (decl, _) = without_default(toks);
    let kept: Vec<&Tok> = decl
        .iter()
        .map(|t| &t.tok)
        .filter(|t| {
            !matches!(t, Tok::Punct("&" | "&&"))
                && !matches!(t, Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "__restrict__" | "__restrict" | "restrict" | "__grid_constant__" | "typename"))
        })
        .collect();
    let mut kept = kept.as_slice();
    if kept.len() >= 2 && matches!(kept.last(), Some(Tok::Ident(_))) {
        kept = &kept[..kept.len() - 1];
    }
    let names = |t: &Tok| matches!(t, Tok::Ident(w) if tparams.iter().any(|p| &p.name == w));
    match kept {
        [only] if names(only) => 0,
        _ if kept.iter().any(|t| names(t)) => 1,
        _ => 2,
    }
}

impl Parser<'_> {
    /// The parameters of a declaration as overload resolution compares them: `toks` is the
    /// parameter list's tokens; `prior` binds template parameters in them.
    pub(super) fn param_sigs(&mut self, toks: &[Token], prior: &[(TParam, TArg)]) -> Vec<PSig> {
        split_params(toks)
            .iter()
            .map(|p| self.param_sig(p, prior))
            .collect()
    }

    fn param_sig(&mut self, toks: &[Token], prior: &[(TParam, TArg)]) -> PSig {
        let (decl, default) = without_default(toks);
        let word = |w: &str| {
            decl.iter()
                .any(|t| matches!(&t.tok, Tok::Ident(x) if x == w))
        };
        let stars = decl
            .iter()
            .filter(|t| matches!(t.tok, Tok::Punct("*")))
            .count();
        let reference = decl.iter().any(|t| matches!(t.tok, Tok::Punct("&")));
        let mut_ref = reference && !word("const");
        // `const` before the first `*` or `&` qualifies what is pointed or referred to.
        let to_const = decl
            .iter()
            .take_while(|t| !matches!(t.tok, Tok::Punct("*" | "&")))
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"))
            && (stars == 1 || (reference && stars == 0));
        let sig = |ty| PSig {
            ty,
            mut_ref,
            to_const,
            default,
        };
        if word("void") && stars == 1 {
            return sig(PType::VoidPtr);
        }
        let Some(last) = decl.last().cloned() else {
            return sig(PType::Unknown);
        };
        let mut slice = decl.to_vec();
        slice.push(Token {
            tok: Tok::Eof,
            ..last
        });
        let mut sub = Parser::new(&slice, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        // A class template's own name inside its instance (`const Pair& o` in `Pair<int>`).
        sub.struct_alias = self.struct_alias.clone();
        let (ps, args): (Vec<TParam>, Vec<TArg>) = prior.iter().cloned().unzip();
        super::templates::bind_template_args(&mut sub, &ps, &args);
        self.lend(&mut sub);
        let ty = (|| {
            while matches!(sub.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "struct" | "class"))
            {
                sub.bump();
            }
            if let Ok(Some(s)) = sub.struct_type() {
                return match stars {
                    0 => PType::Struct(s),
                    1 => PType::StructPtr(s),
                    _ => PType::Unknown,
                };
            }
            let Ok(base) = sub.base_type() else {
                return PType::Unknown;
            };
            let Ok((ty, _)) = sub.pointers(base) else {
                return PType::Unknown;
            };
            // `T (&out)[K]`, `const T (&keys)[N]`: a reference to an array, which binds an
            // array of `T` ([dcl.init.ref]/5.1) and is matched as that array's `T*` here (the
            // bound is the template's to deduce, [temp.deduct.call]/1).
            let array_ref = sub.is_punct("(")
                && matches!(sub.peek(1), Tok::Punct("&"))
                && match sub.peek(2) {
                    Tok::Ident(_) => {
                        matches!(sub.peek(3), Tok::Punct(")"))
                            && matches!(sub.peek(4), Tok::Punct("["))
                    }
                    Tok::Punct(")") => matches!(sub.peek(3), Tok::Punct("[")),
                    _ => false,
                };
            if array_ref {
                return match ty {
                    Ty::Val(v) => PType::Ptr(v),
                    _ => PType::Unknown,
                };
            }
            if matches!(sub.peek(0), Tok::Ident(_)) {
                sub.bump();
            }
            // `T (&items)[N]`: a reference to an array ([dcl.ref]), which binds the array
            // argument the front end types as a pointer to its elements.
            let array_ref = sub.is_punct("(")
                && matches!(sub.peek(1), Tok::Punct("&"))
                && matches!(sub.peek(2), Tok::Ident(_))
                && matches!(sub.peek(3), Tok::Punct(")"))
                && matches!(sub.peek(4), Tok::Punct("["));
            let array = array_ref || sub.is_punct("[");
            match ty {
                Ty::Val(v) if array => PType::Ptr(v),
                Ty::Val(v) => PType::Val(v),
                Ty::Ptr(v) if !array => PType::Ptr(v),
                _ => PType::Unknown,
            }
        })();
        self.take_back(&mut sub);
        sig(ty)
    }

    /// The types of a host launch's arguments (token ranges `args`, before token `upto`): a
    /// variable's from its declaration in the tokens before (`float* d_x;`, `int n = 4;`), a
    /// literal's or a cast's from the expression.
    pub(super) fn host_arg_types(&mut self, upto: usize, args: &[(usize, usize)]) -> ArgTypes {
        let toks = self.toks;
        args.iter()
            .map(|&(a, b)| {
                if b == a + 1 {
                    if let Some(Tok::Ident(n)) = toks.get(a).map(|t| &t.tok) {
                        return (self.host_decl_type(upto, n), false);
                    }
                }
                match self.sub_expr(a, b) {
                    Some(e) => self.arg_type(&e),
                    None => (AType::Unknown, false),
                }
            })
            .collect()
    }

    /// The declared type of host variable `name` in the tokens before `upto`: the last
    /// `TYPE [*…] name` followed by `;`, `=`, `,`, `)` or `[` (at most [`HOST_DECL_WINDOW`]
    /// tokens back).
    pub(super) fn host_decl_type(&self, upto: usize, name: &str) -> AType {
        let toks = self.toks;
        let from = upto.saturating_sub(HOST_DECL_WINDOW);
        for k in (from.max(1)..upto.min(toks.len())).rev() {
            if !matches!(&toks[k].tok, Tok::Ident(w) if w == name) {
                continue;
            }
            if !matches!(
                toks.get(k + 1).map(|t| &t.tok),
                Some(Tok::Punct(";" | "=" | "," | ")" | "["))
            ) {
                continue;
            }
            let mut j = k;
            let mut stars = 0;
            while j > from {
                match &toks[j - 1].tok {
                    Tok::Punct("*") => stars += 1,
                    Tok::Ident(w)
                        if matches!(
                            w.as_str(),
                            "const" | "volatile" | "__restrict__" | "__restrict" | "restrict"
                        ) => {}
                    _ => break,
                }
                j -= 1;
            }
            let Some(Tok::Ident(w)) = toks.get(j.wrapping_sub(1)).map(|t| &t.tok) else {
                continue;
            };
            let Some(v) = super::types::word_type(w).or_else(|| self.aliases.get(w).copied())
            else {
                continue;
            };
            return match stars {
                0 => AType::Val(v),
                1 => AType::Ptr(Some(v)),
                _ => AType::Unknown,
            };
        }
        AType::Unknown
    }

    /// Each host launch of a kernel with several overloads (`scale<<<…>>>(d_x, n)`) names the
    /// best one for its arguments' types ([`Parser::best_candidate`]); one the types cannot
    /// decide keeps the bare name, which `--entry` resolution then refuses.
    pub(super) fn resolve_launches(&mut self) {
        for (i, types) in std::mem::take(&mut self.launch_arg_types) {
            let Some(l) = self.launches.get(i) else {
                continue;
            };
            let name = l.kernel.clone();
            let span = l.span;
            if self.fn_sets.get(&name).is_none_or(|s| s.len() < 2) {
                continue;
            }
            let cands = self.plain_candidates(&name);
            match self.best_typed(&name, cands, &types, &[], Vec::new(), span) {
                Ok(c) => {
                    if let Some(l) = self.launches.get_mut(i) {
                        l.kernel = c.key;
                        l.overload_chosen = true;
                    }
                }
                Err(e) => self.diag(
                    span,
                    Level::Warning,
                    format!("this launch names no one kernel: {}", e.message),
                    "ISO C++17 [over.match.best]",
                ),
            }
        }
    }

    /// An argument's type as the front end tells it, and whether it is the literal `0`.
    fn arg_type(&self, e: &Expr) -> (AType, bool) {
        let zero = matches!(e.kind, ExprKind::Int { value: 0, .. });
        if let Some(s) = self.struct_of(e) {
            return (AType::Struct(s), zero);
        }
        // A reference parameter to one value (`T& output`) is kept as a pointer but names the
        // value ([dcl.ref]/1, [expr.type]/1: an expression of reference type is adjusted to
        // the referred type), so `f(output)` passes a `T` lvalue.
        let value_ref = matches!(&e.kind, ExprKind::Ident(n) if self.value_refs.contains(n));
        if self.is_pointer_expr(e) && !value_ref {
            return (AType::Ptr(self.pointee_type(e)), zero);
        }
        match &e.kind {
            // A struct member: an array member is a pointer to its element ([conv.array]).
            ExprKind::Member(b, f) if self.struct_of(b).is_some() => {
                let field = self.struct_of(b).and_then(|st| {
                    self.structs
                        .get(&st)
                        .and_then(|d| d.fields.iter().find(|x| x.name == *f))
                        .map(|x| x.ty.clone())
                });
                return match field {
                    Some(FieldTy::Arr(v, _) | FieldTy::Ptr(v)) => (AType::Ptr(Some(v)), zero),
                    Some(FieldTy::Val(v)) => (AType::Val(v), zero),
                    _ => (AType::Unknown, zero),
                };
            }
            // A vector's component (`v.x`): its scalar.
            ExprKind::Member(b, f) if matches!(f.as_str(), "x" | "y" | "z" | "w") => {
                return match self.expr_type(b) {
                    Some(v) if v.lanes > 1 => (AType::Val(ValTy::scalar(v.scalar)), zero),
                    _ => (self.expr_type(e).map_or(AType::Unknown, AType::Val), zero),
                };
            }
            // A row of an array of several dimensions is an array (a pointer), not a value.
            ExprKind::Index(b, _) if matches!(&b.kind, ExprKind::Ident(n) if self.dims_of(n).is_some()) =>
            {
                return (AType::Unknown, zero);
            }
            _ => {}
        }
        match self.expr_type(e) {
            Some(v) => (AType::Val(v), zero),
            None => (AType::Unknown, zero),
        }
    }

    /// The key a non-template function `name` with parameters `params` (declared at `line`)
    /// is kept under: the key of an earlier declaration with the same parameter types, else
    /// `name` for the first and `name#N` for each later overload.
    ///
    /// # Errors
    /// More than [`MAX_FN_OVERLOADS`] overloads of the name.
    pub(super) fn overload_key(
        &mut self,
        name: &str,
        params: Vec<PSig>,
        at: Span,
    ) -> PResult<String> {
        let set = self.fn_sets.entry(name.to_string()).or_default();
        let same = |a: &[PSig], b: &[PSig]| {
            // `const float*` and `float*`, `const float&` and `float&` are other parameter
            // types (the `const` is not top-level, [dcl.fct]/5).
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.ty == y.ty && x.to_const == y.to_const)
        };
        if let Some(f) = set.iter().find(|f| same(&f.params, &params)) {
            return Ok(f.key.clone());
        }
        if set.len() >= MAX_FN_OVERLOADS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("more than {MAX_FN_OVERLOADS} overloads of the function `{name}`"),
            ));
        }
        let key = if set.is_empty() {
            name.to_string()
        } else {
            format!("{name}#{}", set.len() + 1)
        };
        set.push(FnOverload {
            key: key.clone(),
            params,
            line: at.line,
        });
        Ok(key)
    }

    /// The parameter types of `name` when it is one non-template function whose parameters
    /// are all scalars taken by value without defaults (what a function pointer to it is
    /// typed by, [`super::fn_ptr_run`]); `None` otherwise.
    pub(super) fn by_value_scalars(&self, name: &str) -> Option<Vec<ValTy>> {
        let [one] = self.fn_sets.get(name)?.as_slice() else {
            return None;
        };
        one.params
            .iter()
            .map(|p| match p.ty {
                PType::Val(v) if !p.mut_ref && !p.default => Some(v),
                _ => None,
            })
            .collect()
    }

    /// `f(a, {x, y})`: a braced list passed to a struct parameter of the non-template function
    /// `key` (a call's resolved name) is copy-list-initialization of that parameter
    /// ([dcl.init.list]/1, [over.ics.list]), read as the struct's `S{x, y}`. Other arguments
    /// and other callees are left as they are.
    pub(super) fn brace_args_to_params(&self, key: &str, args: Vec<Expr>) -> Vec<Expr> {
        if !args
            .iter()
            .any(|a| matches!(&a.kind, ExprKind::Call(n, _) if n == "@brace"))
        {
            return args;
        }
        let name = key.split('#').next().unwrap_or(key);
        let Some(f) = self
            .fn_sets
            .get(name)
            .and_then(|set| set.iter().find(|f| f.key == key))
        else {
            return args;
        };
        args.into_iter()
            .enumerate()
            .map(|(i, a)| match (&a.kind, f.params.get(i).map(|p| &p.ty)) {
                (ExprKind::Call(n, items), Some(PType::Struct(s))) if n == "@brace" => {
                    Expr::new(ExprKind::Call(s.clone(), items.clone()), a.span)
                }
                _ => a,
            })
            .collect()
    }

    /// The non-template candidates of a call of `name` ([`FnOverload`]s as [`Candidate`]s).
    pub(super) fn plain_candidates(&self, name: &str) -> Vec<Candidate> {
        self.fn_sets
            .get(name)
            .map(|set| {
                set.iter()
                    .map(|f| Candidate {
                        key: f.key.clone(),
                        template: false,
                        line: f.line,
                        params: f.params.clone(),
                        levels: Vec::new(),
                        variadic: false,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A template candidate: template `key` with `params` bound to `bound`, its function
    /// parameters read with them.
    pub(super) fn template_candidate(
        &mut self,
        key: &str,
        line: u32,
        params: &[TParam],
        bound: &[TArg],
    ) -> Candidate {
        let toks: Vec<Token> = self
            .templates
            .get(key)
            .and_then(|t| param_tokens(t.tokens()).map(<[Token]>::to_vec))
            .unwrap_or_default();
        let prior: Vec<(TParam, TArg)> =
            params.iter().cloned().zip(bound.iter().cloned()).collect();
        let pieces = split_params(&toks);
        let levels = pieces.iter().map(|p| level(p, params)).collect();
        let variadic = pieces
            .last()
            .is_some_and(|p| p.iter().any(|t| matches!(t.tok, Tok::Punct("..." | ".."))));
        let sigs = if variadic {
            Vec::new()
        } else {
            self.param_sigs(&toks, &prior)
        };
        Candidate {
            key: key.to_string(),
            template: true,
            line,
            params: sigs,
            levels,
            variadic,
        }
    }

    /// The best of `cands` for `args` ([over.match.best]); `what` names the call in messages.
    ///
    /// # Errors
    /// No viable candidate (each one's reason listed), or several equally good (their lines).
    pub(super) fn best_candidate(
        &mut self,
        name: &str,
        cands: Vec<Candidate>,
        args: &[Expr],
        reasons: Vec<String>,
        at: Span,
    ) -> PResult<Candidate> {
        let types: ArgTypes = args.iter().map(|a| self.arg_type(a)).collect();
        let quals: Vec<ArgQual> = args.iter().map(|a| self.arg_qual(a)).collect();
        self.best_typed(name, cands, &types, &quals, reasons, at)
    }

    /// Whether argument `e` is const (a pointer to const, a const variable) and whether it is
    /// an rvalue, where the front end can tell; otherwise a non-const lvalue (the rules of
    /// [`ics`] then add nothing).
    fn arg_qual(&self, e: &Expr) -> ArgQual {
        let named = |e: &Expr| match &e.kind {
            ExprKind::Ident(n) => Some(n.clone()),
            _ => None,
        };
        let konst = match &e.kind {
            ExprKind::Ident(n) => self.const_names.contains(n),
            // `&y` of a const `y`, `g + i` of a pointer to const.
            ExprKind::AddrOf(x) => named(x).is_some_and(|n| self.const_names.contains(&n)),
            ExprKind::Binary(_, a, _) => {
                self.is_pointer_expr(e) && named(a).is_some_and(|n| self.const_names.contains(&n))
            }
            ExprKind::Cast(_, _) => false,
            _ => false,
        };
        let rvalue = matches!(
            e.kind,
            ExprKind::Int { .. }
                | ExprKind::Float { .. }
                | ExprKind::Bool(_)
                | ExprKind::Binary(..)
                | ExprKind::Logical(..)
                | ExprKind::Cast(..)
        ) && !self.is_pointer_expr(e);
        ArgQual { konst, rvalue }
    }

    /// The key of the one best of `cands` for `args` ([over.match.best]), without a message:
    /// `None` when none is viable or several are equally good (a type query's answer; the
    /// call itself is resolved, and refused, by [`Parser::best_candidate`]).
    pub(super) fn best_key_quiet(&self, cands: &[Candidate], args: &[Expr]) -> Option<String> {
        let types: ArgTypes = args.iter().map(|a| self.arg_type(a)).collect();
        let quals: Vec<ArgQual> = args.iter().map(|a| self.arg_qual(a)).collect();
        let viable: Vec<(&Candidate, Vec<Ics>)> = cands
            .iter()
            .filter(|c| {
                let required = c.params.iter().filter(|p| !p.default).count();
                !c.variadic && types.len() <= c.params.len() && types.len() >= required
            })
            .map(|c| {
                let conv = types
                    .iter()
                    .zip(&c.params)
                    .enumerate()
                    .map(|(i, ((a, zero), p))| {
                        ics(a, *zero, quals.get(i).copied().unwrap_or_default(), p)
                    })
                    .collect::<Vec<_>>();
                (c, conv)
            })
            .filter(|(_, conv)| !conv.iter().any(|x| matches!(x, Ics::No(_))))
            .collect();
        viable
            .iter()
            .find(|(c, cc)| {
                viable
                    .iter()
                    .all(|(o, oc)| std::ptr::eq(*c, *o) || better(c, cc, o, oc))
            })
            .map(|(c, _)| c.key.clone())
    }

    /// As [`Parser::best_candidate`], given the arguments' types.
    fn best_typed(
        &mut self,
        name: &str,
        cands: Vec<Candidate>,
        types: &[(AType, bool)],
        quals: &[ArgQual],
        mut reasons: Vec<String>,
        at: Span,
    ) -> PResult<Candidate> {
        let mut viable: Vec<(Candidate, Vec<Ics>)> = Vec::new();
        for c in cands {
            if c.variadic || self.entry_call {
                viable.push((c, vec![Ics::Unknown; types.len()]));
                continue;
            }
            let required = c.params.iter().filter(|p| !p.default).count();
            if types.len() > c.params.len() || types.len() < required {
                reasons.push(format!(
                    "line {}: takes {} argument(s), given {}",
                    c.line,
                    if required == c.params.len() {
                        required.to_string()
                    } else {
                        format!("{required} to {}", c.params.len())
                    },
                    types.len()
                ));
                continue;
            }
            let conv: Vec<Ics> = types
                .iter()
                .zip(&c.params)
                .enumerate()
                .map(|(i, ((a, zero), p))| {
                    ics(a, *zero, quals.get(i).copied().unwrap_or_default(), p)
                })
                .collect();
            if let Some((i, why)) = conv.iter().enumerate().find_map(|(i, x)| match x {
                Ics::No(w) => Some((i, w.clone())),
                _ => None,
            }) {
                let p = c
                    .params
                    .get(i)
                    .map(|p| type_text(&p.ty))
                    .unwrap_or_default();
                let a = types.get(i).map(|a| atype_text(&a.0)).unwrap_or_default();
                reasons.push(format!(
                    "line {}: argument {} ({a}) cannot become parameter type {p}: {why}",
                    c.line,
                    i + 1
                ));
                continue;
            }
            viable.push((c, conv));
        }
        let best = viable.iter().position(|(c, cc)| {
            viable
                .iter()
                .all(|(o, oc)| std::ptr::eq(c, o) || better(c, cc, o, oc))
        });
        if let Some(i) = best {
            return Ok(viable.swap_remove(i).0);
        }
        let arg_text: Vec<String> = types.iter().map(|(a, _)| atype_text(a)).collect();
        if viable.is_empty() {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "no overload of `{name}` takes these arguments ({}): {} \
                     ([over.match.viable])",
                    arg_text.join(", "),
                    reasons.join("; ")
                ),
            ));
        }
        // Those no other beats: the equally good ones.
        let tied: Vec<String> = viable
            .iter()
            .filter(|(c, cc)| {
                !viable
                    .iter()
                    .any(|(o, oc)| !std::ptr::eq(c, o) && better(o, oc, c, cc))
            })
            .map(|(c, _)| c.line.to_string())
            .collect();
        let unknown = types
            .iter()
            .position(|(a, _)| matches!(a, AType::Unknown | AType::Ptr(None)));
        if let Some(i) = unknown {
            // The front end, not the source, leaves the tie: the first declared of the tied,
            // said in a warning.
            let first = viable
                .into_iter()
                .map(|(c, _)| c)
                .find(|c| tied.first().is_some_and(|l| *l == c.line.to_string()));
            if let Some(c) = first {
                self.diag(
                    at,
                    Level::Warning,
                    format!(
                        "the call of `{name}` could go to the functions of lines {}: the type \
                         of argument {} is not known here, so the first declared (line {}) is \
                         called; cast the argument to the parameter type wanted",
                        tied.join(", "),
                        i + 1,
                        c.line
                    ),
                    "ISO C++ [over.match.best]",
                );
                return Ok(c);
            }
        }
        Err(KernelError::new(
            at.line,
            at.col,
            format!(
                "the call of `{name}` is ambiguous: the functions of lines {} convert its \
                 arguments ({}) equally well ([over.match.best]); cast an argument to the \
                 parameter type wanted",
                tied.join(", "),
                arg_text.join(", ")
            ),
        ))
    }

    /// The function a call of the non-template name `name` names: `name` itself unless
    /// several functions of it are declared, then the best one's key.
    ///
    /// # Errors
    /// As [`Parser::best_candidate`].
    pub(super) fn resolve_plain_call(
        &mut self,
        name: &str,
        args: &[Expr],
        at: Span,
    ) -> PResult<String> {
        match self.fn_sets.get(name) {
            Some(set) if set.len() > 1 => {}
            _ => return Ok(name.to_string()),
        }
        let cands = self.plain_candidates(name);
        Ok(self.best_candidate(name, cands, args, Vec::new(), at)?.key)
    }
}

/// The scalar or vector type words name (`float`, `unsigned int`, `__half`, `float4`), as a
/// declaration spells it; `None` for other words.
pub(crate) fn type_of_words(words: &[&str]) -> Option<ValTy> {
    let s = |x| Some(ValTy::scalar(x));
    match words {
        [w] => super::types::word_type(w),
        ["unsigned", "int"] => s(Scalar::U32),
        ["signed", "int"] => s(Scalar::I32),
        ["unsigned", "char"] => s(Scalar::U8),
        ["signed", "char"] => s(Scalar::I8),
        ["unsigned", "short"] | ["unsigned", "short", "int"] => s(Scalar::U16),
        ["short", "int"] => s(Scalar::I16),
        ["long", "long"] | ["long", "int"] | ["long", "long", "int"] => s(Scalar::I64),
        ["unsigned", "long"] | ["unsigned", "long", "long"] | ["unsigned", "long", "int"] => {
            s(Scalar::U64)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(s: Scalar) -> PSig {
        PSig {
            ty: PType::Val(ValTy::scalar(s)),
            mut_ref: false,
            to_const: false,
            default: false,
        }
    }

    fn rank(a: Scalar, p: Scalar) -> Option<Rank> {
        match ics(
            &AType::Val(ValTy::scalar(a)),
            false,
            ArgQual::default(),
            &val(p),
        ) {
            Ics::Rank(r) => Some(r),
            _ => None,
        }
    }

    #[test]
    fn ranks_follow_the_standard_conversion_table() {
        // [over.ics.scs] table 13, [conv.prom], [conv.fpprom].
        assert_eq!(rank(Scalar::F32, Scalar::F32), Some(Rank::Exact));
        assert_eq!(rank(Scalar::F32, Scalar::F64), Some(Rank::Promotion));
        assert_eq!(rank(Scalar::I16, Scalar::I32), Some(Rank::Promotion));
        assert_eq!(rank(Scalar::Bool, Scalar::I32), Some(Rank::Promotion));
        assert_eq!(rank(Scalar::I16, Scalar::I64), Some(Rank::Conversion));
        assert_eq!(rank(Scalar::F64, Scalar::F32), Some(Rank::Conversion));
        assert_eq!(rank(Scalar::I32, Scalar::U32), Some(Rank::Conversion));
        // `operator float()` then nothing, or then a promotion.
        assert_eq!(rank(Scalar::F16, Scalar::F32), Some(Rank::User(0)));
        assert_eq!(rank(Scalar::F16, Scalar::F64), Some(Rank::User(1)));
        assert_eq!(rank(Scalar::F16, Scalar::Bf16), None);
        let f2 = PSig {
            ty: PType::Val(ValTy {
                scalar: Scalar::F32,
                lanes: 2,
            }),
            mut_ref: false,
            to_const: false,
            default: false,
        };
        assert!(matches!(
            ics(
                &AType::Val(ValTy::scalar(Scalar::F32)),
                false,
                ArgQual::default(),
                &f2
            ),
            Ics::No(_)
        ));
    }
}
