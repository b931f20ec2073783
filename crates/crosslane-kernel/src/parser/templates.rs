//! Function templates: `template <typename T, int N, bool B = true>` before a function. A
//! template is kept as its tokens; each call (`f<float, 32>(x)`, or `f(x)` with the type
//! parameters deduced from the arguments' types and the value parameters from their defaults)
//! names an instantiation `f<float,32>`, parsed once after the program with the type
//! parameters as type aliases and the value parameters as constants. `--entry f<int, 128>`
//! instantiates a template kernel no call names.
//!
//! Source: ISO C++ [temp.deduct.call] for deduction from a parameter of type `T`, `const T`,
//! `T&`, `const T&` and `T*` (the only forms read here); anything else is an error saying to
//! give the arguments explicitly; a struct argument (a functor, a lambda's closure) deduces a
//! struct type. Class templates (`template <typename T, int N> struct W { … };`) are kept as
//! tokens too and parsed once per argument list at their first use (`W<float, 32>`) as the
//! struct `W<float,32>` ([`Parser::instantiate_class`]). Explicit specializations are
//! `explicit_spec.rs`'s, partial ones `partial_spec.rs`'s, parameter packs `packs.rs`'s, the
//! template kernel a run starts in `template_entry.rs`'s.
//!
//! Bounded: at most [`MAX_INSTANCES`] instantiations per source (a template that instantiates
//! itself with growing arguments stops there), each paid from the token budget
//! (`--max-tokens`), and at most [`MAX_CLASS_NEST`] class instantiations nested in one another
//! (a recursive `Unroll<I + 1, N>` names the next instance in its body, parsed there).

use std::collections::HashMap;

use super::targ_undeclared::undeclared_targ;
pub(super) use super::targs::bind_template_args;
pub use super::targs::{mangle, TArg, TParam};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Tok, Token};
use crate::types::{Ty, ValTy};
use crate::KernelError;

/// Most template instantiations in one source: enough for a kernel's several compile-time
/// unrolled loops (`static_for` over 32 steps is 33 class instances, twice that with a member
/// template `run<F>`); each instance's tokens also count against the token budget.
pub const MAX_INSTANCES: usize = 1024;

/// Most class template instantiations nested in one another: a recursive compile-time loop
/// (`template <int I, int N> struct Unroll { static void run() { …; Unroll<I + 1, N>::run(); }
/// }` ended by a specialization) instantiates `Unroll<I + 1, N>` while `Unroll<I, N>`'s body
/// is parsed, one parse deeper on the stack per step (measured in a debug build: about 160 KiB
/// a level, so 100 levels fill 16 MiB; an optimized build's frames are about a tenth, and
/// wasm's stack is 1 MiB). 64 was the bound in effect before (the instantiation budget), and
/// covers the 8-, 16- and 32-step unrolls; a function template recursing through
/// `if constexpr (I < N)` is instantiated after the program, one at a time, and has no such
/// bound.
pub const MAX_CLASS_NEST: u32 = 64;

/// Most nested instantiations parsed at their call (an `auto` template whose body calls
/// another, [`super::fn_types`]): each nests a parse on the stack, which must fit a browser's
/// (a deeper chain is parsed after the program, and its `auto` type is then unknown at the
/// call, an error there).
pub const MAX_EAGER: u32 = 8;

/// A function template: its parameters, the function's tokens (ending in Eof) and, per
/// function parameter, the template type parameter its type names (for deduction).
#[derive(Clone, Debug)]
pub struct Template {
    params: Vec<TParam>,
    tokens: Vec<Token>,
    deduce_from: Vec<Option<String>>,
    /// Per function parameter: whether its type is a pointer or an array reference to the
    /// type parameter (`T* p`, `T (&w)[8]`), deduced from the argument's element type.
    deduce_ptr: Vec<bool>,
    /// Per function parameter: the non-type template parameter its array bound names
    /// (`const T (&a)[N]`), deduced from the argument array's bound ([temp.deduct.type]/8).
    deduce_bound: Vec<Option<String>>,
    /// Per function parameter: its type as a class template's id (`Number<N>`,
    /// `const vec_t<T, N>&`), whose bare parameters are deduced from an instance argument
    /// ([`super::deduce_class`]).
    deduce_class: Vec<Option<super::deduce_class::ClassPattern>>,
    /// A member template's class bindings (the class's template parameters, its constants
    /// and aliases), in force where the member is instantiated.
    env: Option<Box<MemberEnv>>,
    /// False for a function template only declared (`template <…> __device__ Acc mul(A a, B
    /// b);`): its instances are its explicit specializations, and any other is an error.
    defined: bool,
}

/// What a member template sees of its class ([`super::member_templates`]).
#[derive(Clone, Debug, Default)]
pub(super) struct MemberEnv {
    pub(super) aliases: HashMap<String, ValTy>,
    pub(super) consts: HashMap<String, Expr>,
    pub(super) struct_alias: HashMap<String, String>,
    /// The class the member template belongs to: its instance's body calls the class's other
    /// members bare (`twice(x)` in `template <class T> static T run(T x)`,
    /// [class.mfct]/[basic.lookup.unqual]/8), as a member function's body does.
    pub(super) owner: Option<String>,
}

impl Template {
    /// The template parameters' names, in order (`T`, `N`; a pack as `Ts...`).
    pub(super) fn param_names(&self) -> Vec<String> {
        self.params
            .iter()
            .map(|p| {
                if p.pack {
                    format!("{}...", p.name)
                } else {
                    p.name.clone()
                }
            })
            .collect()
    }

    /// A class template (or a partial specialization) of `params` over `tokens`.
    pub(super) fn class(params: Vec<TParam>, tokens: Vec<Token>) -> Template {
        Template {
            params,
            tokens,
            deduce_from: Vec::new(),
            deduce_ptr: Vec::new(),
            deduce_bound: Vec::new(),
            deduce_class: Vec::new(),
            env: None,
            defined: true,
        }
    }

    /// This template as a member of a class whose bindings are `env`.
    pub(super) fn with_env(mut self, env: MemberEnv) -> Template {
        self.env = Some(Box::new(env));
        self
    }

    /// The member template with class `owner` as the class it is a member of (a base's
    /// template inherited by a derived class, [`super::structs`]' bases).
    pub(super) fn with_owner(mut self, owner: &str) -> Template {
        if let Some(env) = self.env.as_mut() {
            env.owner = Some(owner.to_string());
        }
        self
    }

    /// The template's tokens (ending in Eof).
    pub(super) fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The template's parameters.
    pub(super) fn params(&self) -> &[TParam] {
        &self.params
    }

    /// The template's tokens, for a member defined outside the class to take its
    /// declaration's place ([`super::member_splice`]).
    pub(super) fn tokens_mut(&mut self) -> &mut Vec<Token> {
        &mut self.tokens
    }

    /// The function's parameter count (one deduction slot per function parameter).
    pub(super) fn arity(&self) -> usize {
        self.deduce_from.len()
    }

    /// Per function parameter: the template type parameter its type names, and whether
    /// through a pointer or an array reference (`T* p`), as [`Parser::bind_call`] deduces.
    pub(super) fn deduce_sources(&self) -> (&[Option<String>], &[bool]) {
        (&self.deduce_from, &self.deduce_ptr)
    }
}

/// An instantiation waiting to be parsed: mangled name, template name, arguments.
pub type Pending = (String, String, Vec<TArg>);

impl Parser<'_> {
    /// `template <…>` and the function after it, at file scope: recorded, not parsed.
    pub(super) fn template_def(&mut self) -> PResult<()> {
        let at = self.span();
        self.bump(); // template
        self.expect_punct("<")?;
        if self.eat(">") {
            return self.explicit_specialization(at);
        }
        let mut params = Vec::new();
        loop {
            if let Some(name) = self.named_tparam()? {
                params.push(TParam {
                    name,
                    value: None,
                    default: None,
                    pack: false,
                    named: true,
                    placeholder: false,
                    enumeration: None,
                });
                if self.close_angle() {
                    break;
                }
                self.expect_punct(",")?;
                continue;
            }
            // `std::enable_if_t<C, int> = 0`: a constraint ([`super::sfinae`]).
            if let Some(p) = self.enable_if_param(params.len()) {
                params.push(p);
                if self.close_angle() {
                    break;
                }
                self.expect_punct(",")?;
                continue;
            }
            let p_at = self.span();
            let dependent = matches!(self.peek(0), Tok::Ident(w)
                if params.iter().any(|q: &TParam| q.value.is_none() && !q.named && q.name == *w));
            let mut placeholder = false;
            let type_from = self.pos;
            let value = if self.is_word("typename") || self.is_word("class") {
                self.bump();
                None
            } else if dependent {
                // `template <class T, T v>` (`integral_constant`): a value parameter whose type
                // is an earlier type parameter ([temp.param]/4). Its value is bound as an
                // integer; the instance's `T` names the type.
                self.bump();
                Some(ValTy::scalar(crate::types::Scalar::I64))
            } else if self.is_word("auto")
                || (self.is_word("decltype")
                    && matches!(self.peek(1), Tok::Punct("("))
                    && matches!(self.peek(2), Tok::Ident(w) if w == "auto")
                    && matches!(self.peek(3), Tok::Punct(")")))
            {
                // A placeholder type (C++17 [temp.param]/4, [temp.arg.nontype]/1): each
                // argument keeps its own type ([`TArg::Typed`]), which the instance's `N` has.
                self.pos += if self.is_word("auto") { 1 } else { 4 };
                placeholder = true;
                Some(ValTy::scalar(crate::types::Scalar::I64))
            } else {
                let base = self.base_type()?;
                match base {
                    Ty::Val(v) => Some(v),
                    _ => {
                        return Err(KernelError::new(
                            p_at.line,
                            p_at.col,
                            "a template value parameter must be an integer or bool",
                        ))
                    }
                }
            };
            let type_to = self.pos.min(self.toks.len());
            let pack = self.eat("...");
            // An unnamed parameter (`typename = std::enable_if_t<…>`) is only checked.
            let name = if matches!(self.peek(0), Tok::Punct("=" | "," | ">")) {
                format!("<unnamed {}>", params.len())
            } else {
                self.ident()?
            };
            let default = if self.eat("=") {
                let from = self.pos;
                let mut depth = 0usize;
                // Inside parentheses `<`, `>` and `,` are operators (`MIN(16, sizeof(T) * N)`
                // expands to `((16) < (…) ? …)`): only a `>` outside them closes a list.
                let mut parens = 0usize;
                let mut half = false;
                while !matches!(self.peek(0), Tok::Eof) {
                    match self.peek(0) {
                        Tok::Punct("(" | "[") => parens += 1,
                        Tok::Punct(")" | "]") => parens = parens.saturating_sub(1),
                        _ if parens > 0 => {}
                        Tok::Punct("<") => depth += 1,
                        Tok::Punct(">") if depth == 0 => break,
                        Tok::Punct(">") => depth -= 1,
                        // `enable_if_t<is_floating_point_v<T>>>`: a `>>` closing the default's
                        // last list and this parameter list ends the default before it.
                        Tok::Punct(">>") if depth == 1 => {
                            half = true;
                            break;
                        }
                        Tok::Punct(">>") if depth >= 2 => depth -= 2,
                        Tok::Punct(",") if depth == 0 => break,
                        _ => {}
                    }
                    self.bump();
                }
                let mut toks = self.toks[from..self.pos].to_vec();
                if half {
                    // The `>>`'s first `>` ends the default; its second this list.
                    let t = self.bump();
                    toks.push(Token {
                        tok: Tok::Punct(">"),
                        ..t
                    });
                    self.gt_owed = Some(self.pos);
                }
                Some(toks)
            } else {
                None
            };
            let enumeration = value.and_then(|_| self.enums.named(&self.toks[type_from..type_to]));
            params.push(TParam {
                name,
                value,
                default,
                pack,
                named: false,
                placeholder,
                enumeration,
            });
            if self.close_angle() {
                break;
            }
            self.expect_punct(",")?;
        }
        // A union template (OneFlow-style `template <typename T, int N> union Pack { PackType<T,
        // N> storage; T elem[N]; };`) is a class template like a struct's ([class]/1: a union is
        // a class): its instances are defined by the same body as a named union
        // ([`super::structs`]'s `unions`), one storage whose members view the same bytes.
        if self.is_word("struct") || self.is_word("class") || self.is_word("union") {
            // A class template: its tokens up to the `;` after its body, instantiated at use.
            let from = self.pos;
            let Tok::Ident(name) = self.peek(1).clone() else {
                return self.err("the class template's name");
            };
            if matches!(self.peek(2), Tok::Punct("<")) {
                return self.partial_spec_def(at, params);
            }
            let mut k = from;
            while !matches!(
                self.toks[k.min(self.toks.len() - 1)].tok,
                Tok::Punct("{" | ";") | Tok::Eof
            ) {
                k += 1;
            }
            if matches!(self.toks[k.min(self.toks.len() - 1)].tok, Tok::Punct(";")) {
                // A declaration (`template <typename T, int N> struct vec_t;`): its
                // specializations may follow; an instance none matches is an error.
                let undefined = Template {
                    defined: false,
                    ..Template::class(params, Vec::new())
                };
                self.class_templates.entry(name).or_insert(undefined);
                self.pos = k + 1;
                return Ok(());
            }
            let close = self
                .closing(k)
                .ok_or_else(|| KernelError::new(at.line, at.col, "`{` never closed"))?;
            let end = (close + 1).min(self.toks.len() - 1);
            let mut tokens = self.toks[from..=end].to_vec();
            let last = &self.toks[end];
            tokens.push(Token {
                tok: Tok::Eof,
                line: last.end.0,
                col: last.end.1,
                end: last.end,
            });
            self.class_templates
                .insert(name, Template::class(params, tokens));
            self.pos = end + 1;
            return Ok(());
        }
        // A class template's member defined outside the class ([`super::member_splice`]).
        if self.template_member_def(&params)? {
            return Ok(());
        }
        // The function: up to its body's closing brace (or a `;` for a declaration).
        let from = self.pos;
        let mut name = None;
        let mut paren_open = None;
        let mut body_open = None;
        // `(` inside a template argument list of the return type is no parameter list.
        let mut angles = 0usize;
        let mut k = from;
        let end = loop {
            let Some(t) = self.toks.get(k) else {
                return self.err("a function after `template <…>`");
            };
            match &t.tok {
                Tok::Eof => return self.err("a function after `template <…>`"),
                _ if paren_open.is_none() && self.angle_step(k, &mut angles, &mut k) => {}
                // An attribute's arguments (`template <int N> __launch_bounds__(256) __global__
                // void k(…)`, CUDA C++ Programming Guide, "Launch Bounds") are not the
                // function's parameter list.
                Tok::Punct("(")
                    if paren_open.is_none()
                        && matches!(
                            k.checked_sub(1).map(|j| &self.toks[j].tok),
                            Some(Tok::Ident(w)) if matches!(
                                w.as_str(),
                                "__launch_bounds__" | "__maxnreg__" | "__cluster_dims__"
                                    | "__attribute__" | "__align__" | "alignas" | "__declspec"
                            )
                        ) =>
                {
                    k = self
                        .closing(k)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`(` never closed"))?;
                }
                // A parenthesized part of the return type's template arguments
                // (`std::enable_if_t<(width > 0) && C<T>::exists> f(…)`, vLLM's
                // `fused_add_rms_norm_kernel`): after `<`, `,` or an operator, not a name.
                Tok::Punct("(")
                    if paren_open.is_none()
                        && matches!(
                            k.checked_sub(1).map(|j| &self.toks[j].tok),
                            Some(Tok::Punct(p)) if !matches!(*p, ">" | ")" | "]" | "::")
                        )
                        // `operator+(…)`: the operator's parameters.
                        && !matches!(
                            k.checked_sub(2).map(|j| &self.toks[j].tok),
                            Some(Tok::Ident(w)) if w == "operator"
                        ) =>
                {
                    k = self
                        .closing(k)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`(` never closed"))?;
                }
                Tok::Punct("(") if paren_open.is_none() => {
                    paren_open = Some(k);
                    if let Some(Tok::Ident(n)) = k.checked_sub(1).map(|j| &self.toks[j].tok) {
                        name = Some(n.clone());
                    }
                    k = self
                        .closing(k)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`(` never closed"))?;
                }
                // `-> decltype(op(x, 0), U{})`, `noexcept(…)` after the parameters: a `{` or
                // `;` inside parentheses starts no body ([dcl.fct]/1's trailing return type).
                Tok::Punct("(") => {
                    k = self
                        .closing(k)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`(` never closed"))?;
                }
                Tok::Punct(";") => {
                    // A declaration: kept when it is the first word of a device function
                    // template, whose explicit specializations may be all its definitions
                    // ([temp.expl.spec]); nothing to keep otherwise.
                    if self.declared_template(from, name.as_deref(), paren_open) {
                        break k;
                    }
                    self.pos = k + 1;
                    return Ok(());
                }
                Tok::Punct("{") => {
                    body_open = Some(k);
                    break self
                        .closing(k)
                        .ok_or_else(|| KernelError::new(t.line, t.col, "`{` never closed"))?;
                }
                _ => {}
            }
            k += 1;
        };
        let head = &self.toks[from..paren_open.unwrap_or(from)];
        if let Some(k) = head
            .iter()
            .position(|t| matches!(&t.tok, Tok::Ident(w) if w == "operator"))
        {
            // A free operator function template (`template <typename T> V<T> operator+(V<T> a,
            // V<T> b)`): kept as the template `operator+`, whose instance for the operands'
            // types is a candidate where the operator is used ([over.match.oper]/3.2,
            // [temp.deduct.call]; [`super::operators`]).
            let member = k > 0 && matches!(head[k - 1].tok, Tok::Punct("::"));
            let free_op = match head.get(k + 1).map(|t| &t.tok) {
                Some(Tok::Punct(p))
                    if !member
                        && k + 2 == head.len()
                        && super::operator_names::SUPPORTED.contains(p) =>
                {
                    Some(format!("operator{p}"))
                }
                _ => None,
            };
            let t = &head[k];
            match free_op {
                Some(op) => name = Some(op),
                None => {
                    return Err(KernelError::new(
                        t.line,
                        t.col,
                        if member {
                            "a class template's member operator defined outside the class is \
                             not supported; define it inside the class template"
                        } else {
                            "this function template of an operator is not supported; declare \
                             the operator as a member of the class template (`bool \
                             operator<(const Pair& o) const`), or a non-template free operator \
                             for each type used"
                        },
                    ));
                }
            }
        }
        let (Some(name), Some(open)) = (name, paren_open) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a function after `template <…>`",
            ));
        };
        let mut tokens = self.toks[from..=end].to_vec();
        let last = &self.toks[end];
        tokens.push(Token {
            tok: Tok::Eof,
            line: last.end.0,
            col: last.end.1,
            end: last.end,
        });
        // Which template type parameter each function parameter's type names.
        let close = self.closing(open).unwrap_or(open);
        let mut deduce_from = Vec::new();
        let mut deduce_ptr = Vec::new();
        let mut depth = 0usize;
        let mut current: Option<String> = None;
        let mut is_ptr = false;
        let mut deduce_bound = Vec::new();
        let mut bound_name: Option<String> = None;
        let mut after_open_bracket = false;
        for t in &self.toks[open + 1..close] {
            if matches!(t.tok, Tok::Punct("*" | "[")) && current.is_some() && depth <= 1 {
                is_ptr = true;
            }
            if let (true, Tok::Ident(n)) = (after_open_bracket, &t.tok) {
                if params
                    .iter()
                    .any(|p| p.value.is_some() && !p.pack && p.name == *n)
                {
                    bound_name.get_or_insert_with(|| n.clone());
                }
            }
            after_open_bracket = matches!(t.tok, Tok::Punct("["));
            match &t.tok {
                Tok::Punct("(" | "<" | "[") => depth += 1,
                Tok::Punct(")" | ">" | "]") => depth = depth.saturating_sub(1),
                Tok::Punct(",") if depth == 0 => {
                    deduce_from.push(current.take());
                    deduce_ptr.push(std::mem::take(&mut is_ptr));
                    deduce_bound.push(bound_name.take());
                }
                Tok::Ident(n)
                    if depth == 0
                        && current.is_none()
                        && params.iter().any(|p| p.value.is_none() && p.name == *n) =>
                {
                    current = Some(n.clone());
                }
                _ => {}
            }
        }
        if close > open + 1 {
            deduce_from.push(current);
            deduce_ptr.push(is_ptr);
            deduce_bound.push(bound_name);
        }
        let deduce_class = self.class_patterns(&self.toks[open + 1..close], &params);
        // A host function template (`template <class T> void runTest(int n) { … k<T><<<…>>>(…);
        // }`): read at its calls from host code with its parameters bound ([`super::host_calls`]).
        let mut recorded_host = false;
        let device = self.toks[from..body_open.unwrap_or(open)]
            .iter()
            .any(|t| {
                matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "__global__" | "__device__"))
            });
        if let Some(body_open) =
            body_open.filter(|&b| !device && super::host::looks_like_host(&self.toks[b..end]))
        {
            let names = super::host::param_names(&self.toks[open + 1..close]);
            let tparams = params
                .iter()
                .map(|p| (p.name.clone(), p.value.is_none()))
                .collect();
            let before = self.launches.len();
            self.record_host_fn(&name, names, tparams, (body_open, end), before);
            recorded_host = true;
        } else if let Some(body_open) = body_open.filter(|_| !device) {
            // `template <class T> void init(T* a, int n) { for (…) a[i] = …; }`: a fill
            // helper template, read at its calls with `T` bound ([`super::host_calls`]).
            let names = super::host::param_names(&self.toks[open + 1..close]);
            // `template <typename T> bool pick(int n, int& ws, fn_t<T>& kernel) { … }`: a
            // plain (so host) function template that sets its caller's variables through
            // reference parameters ([`super::host_ref_out`], [`super::host_kernel_ptr`]).
            let sets_refs = self.host_ref_params(body_open).into_iter().any(|r| r)
                || self.kernel_ref_param(body_open, end);
            if sets_refs || super::host::fills_param(&self.toks[body_open..end], &names) {
                let tparams = params
                    .iter()
                    .map(|p| (p.name.clone(), p.value.is_none()))
                    .collect();
                let at = self.launches.len();
                self.record_host_fn(&name, names, tparams, (body_open, end), at);
                recorded_host = true;
            }
        }
        // The definition of a template declared before it takes the declaration's place: one
        // of the same template and function parameters; a declaration of another signature
        // stays a template of its own (`template <Op O, typename T = float> T init();` beside
        // `template <Op O, typename T> void init(T* d) { … }`, DeepSpeed's `reduce::init`).
        let key = if body_open.is_some()
            && self.templates.get(&name).is_some_and(|t| {
                !t.defined
                    && t.params.len() == params.len()
                    && t.deduce_from.len() == deduce_from.len()
                    && t.params
                        .iter()
                        .zip(&params)
                        .all(|(a, b)| a.value.is_none() == b.value.is_none() && a.pack == b.pack)
            }) {
            name.clone()
        } else {
            self.template_key(name.clone(), at)?
        };
        if recorded_host {
            self.record_host_fn_key(&name, &key);
        }
        self.templates.insert(
            key,
            Template {
                params,
                tokens,
                deduce_from,
                deduce_ptr,
                deduce_bound,
                deduce_class,
                env: None,
                defined: body_open.is_some(),
            },
        );
        self.pos = end + 1;
        Ok(())
    }

    /// Explicit template arguments after a template's name: `<float, 32>`.
    pub(super) fn template_args(&mut self) -> PResult<Vec<TArg>> {
        self.expect_punct("<")?;
        let mut args = Vec::new();
        if self.eat(">") {
            return Ok(args);
        }
        let mut kinds = Vec::new();
        loop {
            kinds.push(self.targ_kind_here());
            args.push(self.template_arg()?);
            if self.close_angle() {
                self.call_targ_kinds = kinds;
                return Ok(args);
            }
            self.expect_punct(",")?;
        }
    }

    /// One template argument at the position: a function's name, a struct type, a value type
    /// or a constant expression (read up to a `>` or `,` of the list).
    pub(super) fn template_arg(&mut self) -> PResult<TArg> {
        // `f<int, Op<int>, ::B2>()`: the name the file scope declares (C++17
        // [basic.lookup.qual]/4: a name prefixed by the unary scope operator `::` is looked
        // up in global scope); the reading goes on at the name.
        if self.is_punct("::") && matches!(self.peek(1), Tok::Ident(_)) {
            self.bump();
        }
        let at = self.span();
        // A type parameter bound here (`Vec` in `first<Vec, N>(a)` inside `template <typename
        // Vec, int N>`) hides a class template of the same name ([temp.local]/6: a template
        // parameter hides the name in the enclosing scope).
        if let Tok::Ident(w) = self.peek(0) {
            if let Some(v) = self.aliases.get(w).copied() {
                if (self.structs.contains_key(w) || self.class_templates.contains_key(w))
                    && matches!(self.peek(1), Tok::Punct("," | ">" | ">>"))
                {
                    self.bump();
                    return Ok(TArg::Type(v));
                }
            }
        }
        // A type parameter bound to a function pointer type (`Op` deduced as `float (*)(float,
        // float)` from `f(v, plus_op)`) or a function pointer alias, passed on as a template
        // argument (`reduce<W, Op, (S >> 1)>(…)`): that type ([temp.arg.type]/1).
        if let Tok::Ident(w) = self.peek(0) {
            if matches!(self.peek(1), Tok::Punct("," | ">" | ">>")) {
                if let Some(sig) = self.fn_ptr_sigs.get(w).cloned() {
                    self.bump();
                    return Ok(TArg::FnPtr(sig));
                }
            }
        }
        if let Some(n) = self.named_targ(at)?.or_else(|| self.cub_class_targ()) {
            return Ok(TArg::Named(n));
        }
        if let Some(st) = self.identity_trait_struct()? {
            return Ok(TArg::Struct(st));
        }
        if let Some(st) = self.struct_type()? {
            return Ok(TArg::Struct(st));
        }
        if self.type_starts()
            && !matches!(self.peek(0), Tok::Int { .. })
            && !matches!(self.peek(0), Tok::Ident(w) if self.is_struct_name(w))
        {
            return match self.base_type()? {
                // `f<volatile int*>`: a pointer type argument ([temp.arg.type]/1).
                Ty::Val(v) if self.is_punct("*") => {
                    self.bump();
                    self.eat_ptr_qualifiers();
                    if self.is_punct("*") {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "pointers to pointers are not supported",
                        ));
                    }
                    Ok(TArg::Ptr(v))
                }
                Ty::Ptr(v) => Ok(TArg::Ptr(v)),
                Ty::Val(v) => Ok(TArg::Type(v)),
                _ => Err(KernelError::new(
                    at.line,
                    at.col,
                    "a template argument must be a value type or a constant",
                )),
            };
        }
        // A qualified name the source does not declare (`thrust::pair<T, T>`,
        // `torch::headeronly::Half`): a header's type, named in the refusal.
        let unknown = self.undeclared_qualified_name();
        // `>` ends the list ([temp.names]/3); `==`, `&&` and the rest are read.
        let no_gt = std::mem::replace(&mut self.no_gt, true);
        let e = self.binary(1).and_then(|c| self.targ_conditional(c));
        self.no_gt = no_gt;
        let e = match (e, &unknown) {
            (Ok(e), _) => e,
            (Err(_), Some(n)) => return Err(undeclared_targ(at, n)),
            (Err(err), None) => return Err(err),
        };
        let v = self.fold_int(&e).ok_or_else(|| match &unknown {
            Some(n) => undeclared_targ(at, n),
            None => KernelError::new(
                at.line,
                at.col,
                format!(
                    "a template value argument must be a constant expression (literals, \
                     template value parameters, `constexpr` names and `constexpr` \
                     function calls, `sizeof`, arithmetic){}",
                    self.fold_limit_note()
                ),
            ),
        })?;
        Ok(super::targs::value_arg(v, self.expr_type(&e)))
    }

    /// Closes a template argument list: a `>`, or the first half of a `>>` whose second
    /// half closes the enclosing list ([temp.names]/3: C++11 reads `A<B<C>>` so).
    pub(super) fn close_angle(&mut self) -> bool {
        if self.gt_owed == Some(self.pos) {
            self.gt_owed = None;
            return true;
        }
        if self.eat(">") {
            return true;
        }
        if self.eat(">>") {
            self.gt_owed = Some(self.pos);
            return true;
        }
        false
    }

    /// Binds a call of template `name` with explicit arguments `given` and call arguments
    /// `args`: deduces the rest, records the instantiation, and returns its mangled name.
    pub(super) fn instantiate_call(
        &mut self,
        name: &str,
        given: Vec<TArg>,
        args: &[Expr],
        at: Span,
    ) -> PResult<String> {
        // An overload set: the best of the templates substitution leaves and the
        // non-template functions of the name ([`super::sfinae`], [`super::overload`]).
        let chosen = self.choose_overload(name, &given, args, at);
        // `--entry`'s choice is made: what this instance calls is chosen by its calls.
        self.entry_call = false;
        if let Some((key, template)) = chosen? {
            if !template {
                return Ok(key);
            }
            if key != name {
                return self.instantiate_call(&key, given, args, at);
            }
        }
        let (params, bound) = self.bind_call(name, given, args, at)?;
        self.register_instance(name, &params, bound, at)
    }

    /// Deduces and defaults the arguments of a call of template `name` (explicit arguments
    /// `given`, call arguments `args`): the template's parameters and their arguments.
    ///
    /// # Errors
    /// No such template, too many arguments, a parameter neither given nor deduced nor
    /// defaulted, a default that names no type (a false `enable_if`).
    pub(super) fn bind_call(
        &mut self,
        name: &str,
        given: Vec<TArg>,
        args: &[Expr],
        at: Span,
    ) -> PResult<(Vec<TParam>, Vec<TArg>)> {
        let Some(t) = self.templates.get(name) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("no template `{name}`"),
            ));
        };
        let params = t.params.clone();
        let deduce_from = t.deduce_from.clone();
        let deduce_ptr = t.deduce_ptr.clone();
        let deduce_bound = t.deduce_bound.clone();
        let deduce_class = t.deduce_class.clone();
        // A member template's defaults see its class's names (`default_in_class`).
        let class_env = t.env.as_deref().cloned();
        let mut given = given;
        if params.last().is_some_and(|p| p.pack) && given.len() >= params.len() {
            // Explicit arguments past the others are the pack's.
            let items = given.split_off(params.len() - 1);
            given.push(TArg::Pack(items));
        }
        if given.len() > params.len() {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}` takes {} template argument(s), given {}",
                    params.len(),
                    given.len()
                ),
            ));
        }
        let mut bound: Vec<Option<TArg>> = given.into_iter().map(Some).collect();
        bound.resize(params.len(), None);
        for (k, p) in params.iter().enumerate() {
            if bound[k].is_some() {
                continue;
            }
            if p.pack {
                // `f(std::index_sequence<Is...>)` given an `index_sequence<0, 1, 2>`: the
                // pack is the instance's elements ([temp.deduct.type]/9).
                if let Some(a @ TArg::Pack(_)) =
                    self.deduce_from_class(&p.name, &deduce_class, args)
                {
                    bound[k] = Some(a);
                    continue;
                }
                bound[k] = Some(self.deduce_pack(&p.name, &deduce_from, args, at)?);
                continue;
            }
            if p.value.is_none() {
                let at_param = deduce_from
                    .iter()
                    .position(|d| d.as_deref() == Some(p.name.as_str()));
                let from = at_param.and_then(|i| args.get(i));
                if let Some(e) = from {
                    if let Some(c) = self.cub_object_class(e) {
                        bound[k] = Some(TArg::Named(c));
                        continue;
                    }
                    if let Some(g) = self.group_of(e) {
                        bound[k] = Some(TArg::Group(g));
                        continue;
                    }
                    // `T* p` / `T (&w)[8]` from a pointer or an array: its element type.
                    if at_param.is_some_and(|i| deduce_ptr.get(i) == Some(&true)) {
                        if let Some(v) = self.pointee_type(e) {
                            bound[k] = Some(TArg::Type(v));
                            continue;
                        }
                        // `T* a` given an array (or pointer) of structs, `R topK[N]`: `T` is
                        // the struct ([temp.deduct.call]/2, the array decays to `R*`).
                        if let ExprKind::Ident(n) = &e.kind {
                            if let Some(sv) = self
                                .var_struct(n)
                                .filter(|sv| matches!(sv.kind, super::structs::SKind::Many))
                            {
                                bound[k] = Some(TArg::Struct(sv.sname.clone()));
                                continue;
                            }
                        }
                    }
                    // `op` of a function pointer type, passed on (`red<W>(v, lane, op)`):
                    // `Op` is that pointer type, not the id it holds here.
                    if let ExprKind::Ident(n) = &e.kind {
                        if let Some(sig) = self.fn_ptr_vars.get(n).cloned() {
                            bound[k] = Some(TArg::FnPtr(sig));
                            continue;
                        }
                    }
                    if let Some(v) = self.expr_type(e) {
                        bound[k] = Some(TArg::Type(v));
                        continue;
                    }
                    if let Some(st) = self.struct_of(e) {
                        bound[k] = Some(TArg::Struct(st));
                        continue;
                    }
                    // `warp_reduce(v, my_max)`: `Op` is `float (*)(float, float)`.
                    if let Some(sig) = self.fn_addr_sig(e) {
                        bound[k] = Some(TArg::FnPtr(sig));
                        continue;
                    }
                    // `PtrT w` given a pointer or an array (`ws`, `ub_workspace + offset`):
                    // `PtrT` is that pointer type ([temp.deduct.call]/2).
                    if self.is_pointer_expr(e) {
                        if let Some(v) = self.pointee_type(e) {
                            bound[k] = Some(TArg::Ptr(v));
                            continue;
                        }
                    }
                    super::fn_ptr_run::refuse_fn_type_param(e, &p.name, name)?;
                }
            }
            if p.value.is_some() {
                // `const T (&a)[N]` given an array declared `float a[3]`: `N = 3`.
                let len = deduce_bound
                    .iter()
                    .position(|d| d.as_deref() == Some(p.name.as_str()))
                    .and_then(|i| args.get(i))
                    .and_then(|e| match &e.kind {
                        ExprKind::Ident(n) => self.array_len(n),
                        _ => None,
                    });
                if let Some(n) = len {
                    bound[k] = Some(TArg::Value(i128::from(n)));
                    continue;
                }
            }
            // `f(Number<N>)` given a `Number<4>`: `N = 4` ([temp.deduct.type]/8); `f(cg::
            // thread_block_tile<N> const& g)` given a tile of 16: `N = 16`.
            let a = self.deduce_from_class(&p.name, &deduce_class, args);
            if let Some(a) = a.or_else(|| self.deduce_tile_arg(name, p, args)) {
                bound[k] = Some(a);
                continue;
            }
            if let Some(d) = &p.default {
                let d = d.clone();
                // Earlier parameters are bound in the default (`= std::enable_if_t<…T…>`).
                let prior: Vec<(TParam, TArg)> = params
                    .iter()
                    .zip(&bound)
                    .take(k)
                    .filter_map(|(p, a)| Some((p.clone(), a.clone()?)))
                    .collect();
                let r = self.default_in_class(&d, p.value.is_none(), &prior, class_env.as_ref());
                bound[k] = r.map_err(|mut e| {
                    e.message = format!("in `{name}`'s default for `{}`: {}", p.name, e.message);
                    e
                })?;
            }
            if bound[k].is_none() {
                // `template <int W = WIDTH_NOT_DEFINED>`: the default names nothing declared
                // (an undefined macro), which a compiler reports at the name ([basic.lookup]/1)
                // rather than as a deduction failure.
                if let Some(t) = p
                    .default
                    .as_deref()
                    .and_then(|d| self.undeclared_in_default(d, &params[..k]))
                {
                    let w = match &t.tok {
                        Tok::Ident(w) => w.clone(),
                        _ => String::new(),
                    };
                    return Err(KernelError::new(
                        t.line,
                        t.col,
                        format!(
                            "`{w}` is not declared: the default argument of template parameter \
                             `{}` of `{name}` names it, and nothing before it in this file \
                             declares it (a macro no `#define` gives?); declare or `#define` it \
                             (CLI `-D {w}=…`), or give `{}` explicitly (`{name}<…>(…)`)",
                            p.name, p.name
                        ),
                    ));
                }
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "template parameter `{}` of `{name}` cannot be deduced from this call; \
                         give it explicitly (`{name}<…>(…)`)",
                        p.name
                    ),
                ));
            }
        }
        let bound: Vec<TArg> = bound.into_iter().flatten().collect();
        Ok((params, bound))
    }

    /// Records the instance of template `name` with arguments `bound` (parsed now when its
    /// return type is only known from its body, else queued) and returns its mangled name.
    ///
    /// # Errors
    /// Too many instantiations; an error parsing the instance now.
    pub(super) fn register_instance(
        &mut self,
        name: &str,
        params: &[TParam],
        bound: Vec<TArg>,
        at: Span,
    ) -> PResult<String> {
        let bound = super::targs::settle(params, bound);
        let base = crate::ast::overload_base(name);
        let mangled = mangle(name, &bound);
        // A template returning a struct (`T` bound to one, or a struct named before the
        // function's name): its calls write a temporary, known here, before it is parsed.
        if let Some(t) = self.templates.get(name) {
            let named = t
                .tokens
                .iter()
                .position(|x| matches!(&x.tok, Tok::Ident(n) if n == base));
            let head = &t.tokens[..named.unwrap_or(0)];
            for (i, x) in head.iter().enumerate() {
                // `typename P::Acc`: a name before `::` qualifies the type, not names it.
                let qualifies = matches!(head.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("::")));
                if let (Tok::Ident(w), false) = (&x.tok, qualifies) {
                    let s = params
                        .iter()
                        .zip(&bound)
                        .find_map(|(p, a)| match a {
                            TArg::Struct(s) if p.name == *w => Some(s.clone()),
                            _ => None,
                        })
                        .or_else(|| self.structs.contains_key(w).then(|| w.clone()));
                    if let Some(s) = s {
                        self.fn_ret.insert(mangled.clone(), s);
                    }
                }
            }
            let head = t.tokens[..named.unwrap_or(0)].to_vec();
            if let Some(s) = self.class_return(&head, params, &bound) {
                self.fn_ret.insert(mangled.clone(), s);
            }
        }
        if !self.instances.contains(&mangled) {
            if self.instances.len() >= MAX_INSTANCES {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("more than {MAX_INSTANCES} template instantiations"),
                ));
            }
            self.instances.push(mangled.clone());
            let pending = (mangled.clone(), name.to_string(), bound);
            // The instance's return type, for `auto` and deduction at this call
            // ([`super::fn_types`]); an `auto` one is known only from its body, parsed now.
            if self.instance_ret(&pending)? && self.eager < MAX_EAGER {
                if let Some(f) = self.instantiate_one(pending)? {
                    self.extra_fns.push(f);
                }
            } else {
                self.pending.push(pending);
            }
        }
        Ok(mangled)
    }

    /// The arguments `given` to template `name` (parameters `params`), the missing ones from
    /// their defaults, each default read with the parameters before it bound (C++17
    /// [temp.param]/10, [temp.arg]/4: `int BYTES = MIN(16, sizeof(float) * N)`,
    /// `int N = 16 / sizeof(T)`).
    ///
    /// # Errors
    /// Too many arguments, a parameter with neither an argument nor a default, or the error a
    /// default raises (a false `enable_if_t`).
    pub(super) fn with_defaults(
        &mut self,
        name: &str,
        params: &[TParam],
        given: Vec<TArg>,
        at: Span,
    ) -> PResult<Vec<TArg>> {
        if given.len() > params.len() && !params.iter().any(|p| p.pack) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}` takes {} template argument(s), given {}",
                    params.len(),
                    given.len()
                ),
            ));
        }
        let mut bound = given;
        for k in bound.len()..params.len() {
            let p = &params[k];
            let prior: Vec<(TParam, TArg)> = params
                .iter()
                .cloned()
                .zip(bound.iter().cloned())
                .take(k)
                .collect();
            let d = match &p.default {
                Some(d) => self
                    .default_arg_bound(&d.clone(), p.value.is_none(), &prior)
                    .map_err(|mut e| {
                        e.message =
                            format!("in `{name}`'s default for `{}`: {}", p.name, e.message);
                        e
                    })?,
                None => None,
            };
            match d {
                Some(a) => bound.push(a),
                None => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!("`{name}` needs its template argument `{}`", p.name),
                    ))
                }
            }
        }
        Ok(super::targs::settle(params, bound))
    }

    /// A default template argument's tokens as a type or a constant, with the earlier
    /// parameters `prior` bound ([temp.param]/10: a default may name them). `void` (an
    /// `enable_if_t` that holds) is [`TArg::Void`].
    ///
    /// # Errors
    /// An error the default's type raises (an `enable_if_t` whose condition is false).
    pub(super) fn default_arg_bound(
        &mut self,
        toks: &[Token],
        is_type: bool,
        prior: &[(TParam, TArg)],
    ) -> PResult<Option<TArg>> {
        let mut slice = toks.to_vec();
        let Some(last) = slice.last().cloned() else {
            return Ok(None);
        };
        slice.push(Token {
            tok: Tok::Eof,
            ..last
        });
        let mut sub = Parser::new(&slice, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        sub.constexpr_fns = self.constexpr_fns.clone();
        // `template <typename T, int numLanes = warpSize>` (vLLM on ROCm): HIP's `warpSize`
        // is a constant ([`Parser::hip_warp_size`]); CUDA's default stays unread.
        if !self.consts.contains_key("warpSize") {
            let at = Span {
                line: slice[0].line,
                col: slice[0].col,
            };
            if let Some(wave) = self.hip_warp_size(at) {
                sub.consts.insert("warpSize".to_string(), wave);
            }
        }
        let (ps, args): (Vec<TParam>, Vec<TArg>) = prior.iter().cloned().unzip();
        bind_template_args(&mut sub, &ps, &args);
        // A default naming a struct (`typename B = Block1D`, `= Pair<T>`): the struct
        // ([temp.param]/10), read with the source's structs lent to the sub-parser.
        if is_type {
            self.lend(&mut sub);
            let st = sub.struct_type();
            let whole = matches!(sub.peek(0), Tok::Eof);
            self.take_back(&mut sub);
            match st {
                Ok(Some(st)) if whole => return Ok(Some(TArg::Struct(st))),
                Err(e) => return Err(e),
                _ => sub.pos = 0,
            }
        }
        // The source's classes are lent for the rest too: a condition may read a class
        // template's constant (`std::enable_if_t<(W > 0) && Conv<T>::exists>`, vLLM's
        // `_typeConvert<scalar_t>::exists`).
        self.lend(&mut sub);
        let r = if is_type {
            match sub.base_type() {
                Ok(Ty::Val(v)) => Ok(Some(TArg::Type(v))),
                Ok(Ty::Void) => Ok(Some(TArg::Void)),
                Ok(_) => Ok(None),
                // A trait that names no type is the error to report.
                Err(e) if e.message.contains("std::") => Err(e),
                Err(_) => Ok(None),
            }
        } else {
            Ok(sub
                .expr()
                .ok()
                .and_then(|e| sub.fold_int(&e))
                .map(TArg::Value))
        };
        self.take_back(&mut sub);
        r
    }

    /// Parses one instantiation (mangled name, template name, arguments).
    ///
    /// # Errors
    /// A parse error inside it, with the instantiation named.
    pub(super) fn instantiate_one(&mut self, pending: Pending) -> PResult<Option<Function>> {
        let (mangled, name, args) = pending;
        // An explicit specialization (`template <> … name<args>(…)`) is kept under the
        // instance's own name and replaces the primary template for it.
        let Some(t) = self
            .templates
            .get(&mangled)
            .or_else(|| self.templates.get(&name))
        else {
            return Ok(None);
        };
        if !t.defined {
            let first = t.tokens.first();
            return Err(KernelError::new(
                first.map_or(1, |x| x.line),
                first.map_or(1, |x| x.col),
                format!(
                    "`{mangled}` is called but never defined: the template `{name}` here is \
                     only declared, and no explicit specialization `template <> … \
                     {mangled}(…) {{ … }}` is defined (nvcc fails at the device link: an \
                     unresolved extern function)"
                ),
            ));
        }
        // Every instantiation parses the template's tokens again: they count against the
        // token budget, so a source cannot multiply its size by instantiating.
        let params = t.params.clone();
        // A pack's expansions are written out for its length ([`super::packs`]).
        let tokens = match super::packs::pack_of(&params, &args) {
            Some((type_pack, n)) => {
                let names = super::packs::pack_names(&t.tokens, type_pack);
                super::packs::expand(&t.tokens, &names, n, &mut self.syn).map_err(|m| {
                    KernelError::new(
                        t.tokens.first().map_or(1, |x| x.line),
                        1,
                        format!("in `{mangled}`: {m}"),
                    )
                })?
            }
            None => t.tokens.clone(),
        };
        let tokens = super::fn_ptr::substitute_named(tokens, &params, &args);
        // A CUB collective object given to a type parameter (`Scan1<WarpScan, int>(ws, x)`).
        let (tokens, cub_objects) = self.cub_object_params(tokens, &params, &args)?;
        let cost = tokens.len() as u64;
        if cost > self.instance_tokens {
            return Err(KernelError::new(
                tokens.first().map_or(1, |x| x.line),
                1,
                format!(
                    "token limit reached instantiating `{mangled}` (each instantiation parses \
                     the template again); raise it with --max-tokens"
                ),
            ));
        }
        self.instance_tokens -= cost;
        let env = t.env.clone();
        let mut sub = Parser::new(&tokens, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        // Struct aliases (`using false_type = …;`) as the class template instances it makes
        // see them ([`Parser::instantiate_class`]).
        sub.struct_alias = self.struct_alias.clone();
        sub.consts = self.consts.clone();
        if let Some(env) = env {
            sub.aliases.extend(env.aliases);
            sub.consts.extend(env.consts);
            sub.struct_alias.extend(env.struct_alias);
            sub.self_struct = env.owner;
        }
        sub.eager = self.eager + 1;
        sub.class_nest = self.class_nest;
        sub.fn_ptr_types = self.fn_ptr_types.clone();
        sub.fn_ptr_sigs = self.fn_ptr_sigs.clone();
        sub.fn_ptr_vars = self.fn_ptr_vars.clone();
        sub.fn_ptr_tables = self.fn_ptr_tables.clone();
        sub.void_params = self.void_params.clone();
        // File-scope CUB class and operator aliases are seen in the instance too.
        sub.cub = self.cub.clone();
        sub.cub_objects.extend(cub_objects);
        sub.cub_ops = self.cub_ops.clone();
        sub.lib_objects = self.lib_objects.clone();
        sub.lib_aliases = self.lib_aliases.clone();
        bind_template_args(&mut sub, &params, &args);
        sub.templates = std::mem::take(&mut self.templates);
        sub.instances = std::mem::take(&mut self.instances);
        self.lend(&mut sub);
        sub.instance_now = Some(mangled.clone());
        let f = sub.instance_body(&name, &mangled);
        // A body the instance refused (inline GCN `asm` in a device function template,
        // [`super::refused_kernel`]) is refused under the instance's name, which its calls
        // compile (`f<16>`), and named in the message as any error inside it is.
        let own = f
            .as_ref()
            .ok()
            .and_then(Option::as_ref)
            .map(|f| f.name.clone());
        for r in &mut sub.refused_bodies {
            if own.as_ref() == Some(&r.0) || r.0 == name {
                r.0.clone_from(&mangled);
                r.3 = format!("in `{mangled}`: {}", r.3);
            }
        }
        self.take_back(&mut sub);
        self.templates = std::mem::take(&mut sub.templates);
        self.instances = std::mem::take(&mut sub.instances);
        self.pending.append(&mut sub.pending);
        self.diags.append(&mut sub.diags);
        let f = f.map_err(|mut e| {
            e.message = format!("in `{mangled}`: {}", e.message);
            e
        })?;
        Ok(f.map(|mut f| {
            if let Some(s) = self.fn_ret.get(&f.name).cloned() {
                self.fn_ret.insert(mangled.clone(), s);
            }
            self.fn_types.insert(mangled.clone(), f.ret);
            f.name = mangled;
            f
        }))
    }

    /// Parses every pending instantiation (and those they call) as functions.
    ///
    /// # Errors
    /// A parse error inside an instantiation, with the instantiation named.
    pub(super) fn instantiate_pending(&mut self, out: &mut Vec<Function>) -> PResult<()> {
        while let Some(pending) = self.pending.pop() {
            if let Some(f) = self.instantiate_one(pending)? {
                out.push(f);
            }
        }
        // The functions the front end made (member functions, constructors, lambdas), the
        // instances' included, join the program.
        out.append(&mut self.extra_fns);
        Ok(())
    }
}

impl Parser<'_> {
    /// The instance of class template `name` with arguments `given` (the rest from their
    /// defaults): parsed once, as the struct `name<args>`, its members' functions named
    /// `name<args>::member`.
    ///
    /// # Errors
    /// A missing argument, too many, the instantiation limits, or an error inside the
    /// instance (named).
    pub(super) fn instantiate_class(
        &mut self,
        name: &str,
        given: Vec<TArg>,
        at: Span,
    ) -> PResult<String> {
        if name == super::int_seq::MAKE_SEQ || name == super::int_seq::SEQ_FOR {
            return self.make_int_seq(name, given.into_iter().map(TArg::untyped).collect(), at);
        }
        let Some(t) = self.class_templates.get(name).cloned() else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("no class template `{name}`"),
            ));
        };
        let mut given = given;
        let grouped = given.len() == t.params.len() && matches!(given.last(), Some(TArg::Pack(_)));
        if t.params.last().is_some_and(|p| p.pack) && given.len() + 1 >= t.params.len() && !grouped
        {
            // The arguments from the pack's position on are its elements ([temp.variadic]/1).
            let items = given.split_off(t.params.len() - 1);
            given.push(TArg::Pack(items));
        }
        let bound = self.with_defaults(name, &t.params, given, at)?;
        let mangled = mangle(name, &bound);
        if self.structs.contains_key(&mangled) {
            return Ok(mangled);
        }
        // An explicit specialization of exactly these arguments replaces the primary template.
        // Else a partial specialization whose pattern these arguments match.
        let (t, bound_here) = match self.class_templates.get(&mangled).cloned() {
            Some(explicit) => (explicit, bound.clone()),
            None => match self.match_partial(name, &bound, at)? {
                Some((partial, args)) => (partial, args),
                None if !t.defined => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!("`{mangled}`: the class template `{name}` is only declared and no specialization matches these arguments (an incomplete type, C++17 [temp.inst]/1){}", crate::wmma_header::unsupported_hint(&mangled)),
                    ))
                }
                None => (t, bound.clone()),
            },
        };
        if self.instances.len() >= MAX_INSTANCES {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("more than {MAX_INSTANCES} template instantiations"),
            ));
        }
        if self.class_nest >= MAX_CLASS_NEST {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{mangled}` is the {}th class template instantiation nested in the previous \
                     one's body (a recursive compile-time loop); crosslane stops at \
                     {MAX_CLASS_NEST}: unroll with a loop under `#pragma unroll`, or a function \
                     template with `if constexpr (I < N)`, which are not nested",
                    MAX_CLASS_NEST + 1
                ),
            ));
        }
        self.instances.push(mangled.clone());
        let cost = t.tokens.len() as u64;
        if cost > self.instance_tokens {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "token limit reached instantiating `{mangled}`; raise it with --max-tokens"
                ),
            ));
        }
        self.instance_tokens -= cost;
        // A class template's pack expansions and `sizeof...(Ts)` are written out for its
        // length, as a function template's are ([`super::packs`], [temp.variadic]/7).
        let tokens = match super::packs::pack_of(&t.params, &bound_here) {
            Some((type_pack, n)) => {
                let names = super::packs::pack_names(&t.tokens, type_pack);
                super::packs::expand(&t.tokens, &names, n, &mut self.syn).map_err(|m| {
                    KernelError::new(at.line, at.col, format!("in `{mangled}`: {m}"))
                })?
            }
            None => t.tokens.clone(),
        };
        // A pointer or template template argument names itself in the instance
        // ([`super::fn_ptr`]).
        let tokens = super::fn_ptr::substitute_named(tokens, &t.params, &bound_here);
        let mut sub = Parser::new(&tokens, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        // Struct aliases declared above (`using true_type = integral_constant<bool, true>;`)
        // name their struct in the body too, as a base or a member's type.
        sub.struct_alias = self.struct_alias.clone();
        sub.consts = self.consts.clone();
        sub.instance_tokens = self.instance_tokens;
        sub.class_nest = self.class_nest + 1;
        bind_template_args(&mut sub, &t.params, &bound_here);
        sub.templates = std::mem::take(&mut self.templates);
        sub.instances = std::mem::take(&mut self.instances);
        self.lend(&mut sub);
        let r = sub.struct_def(Some(mangled.clone()));
        self.take_back(&mut sub);
        self.templates = std::mem::take(&mut sub.templates);
        self.instances = std::mem::take(&mut sub.instances);
        self.instance_tokens = sub.instance_tokens;
        self.pending.append(&mut sub.pending);
        self.diags.append(&mut sub.diags);
        // This instance's static constants, and those of the instances its body instantiated
        // (`G<2>::v` inside `H<3>`): an instantiation is made once and reused wherever it is
        // named again (C++17 [temp.inst]/1, [temp.spec]/5), so its members must outlive the
        // parse that made it. Nothing else in a class body is named `A::b`.
        for (k, v) in sub.consts.drain() {
            if k.contains("::") && !self.consts.contains_key(&k) {
                self.consts.insert(k, v);
            }
        }
        r.map_err(|mut e| {
            // One `in` per template: a recursive instance's error names its innermost instance
            // once, not the whole chain.
            if !e.message.starts_with(&format!("in `{name}<")) {
                e.message = format!("in `{mangled}`: {}", e.message);
            }
            e
        })?;
        // What a function template's `Number<N>` parameter deduces `N` from.
        if let Some(d) = self.structs.get_mut(&mangled) {
            d.instance_of = Some((name.to_string(), bound));
        }
        Ok(mangled)
    }
}
