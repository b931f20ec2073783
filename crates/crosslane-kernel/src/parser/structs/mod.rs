//! Structs and classes, lowered in the front end so the engine never sees one.
//!
//! A struct value is its fields' scalars ("leaves", in declaration order, nested structs
//! flattened): a local `Pair p;` is the variables `p.v` and `p.idx`; an array `__shared__ Pair
//! s[32];` is one array per field (`s.v[32]`, `s.idx[32]`); a pointer parameter `Pair* out` is
//! one buffer per field (`out.v`, `out.idx`), so the memory tables show the fields. `p.v`, `p->v`,
//! `s[i].v` name a leaf; `p = q`, `Pair q = p;`, `Pair p{a, b};` and `return p;` copy leaf by
//! leaf. A member function is a device function `Pair::f` whose first parameters are the
//! receiver's leaves as references (`this.v`, `this.idx`), then its own; a static member
//! function has no receiver; `operator()` makes the value callable; a constructor
//! `Pair::Pair/N` runs its initializer list then its body on the receiver. A function that
//! returns a struct gets leading reference parameters `__ret.*` that `return e;` assigns; each
//! call writes into a temporary declared before its statement.
//!
//! Sources: ISO C++ [class.mem] (members, member functions, `this`), [class.static] (static
//! members), [class.base.init] (constructor initializer lists), [dcl.init.aggr] (aggregate
//! initialization: members in declaration order, the rest value-initialized or from their
//! default member initializer), [class.copy.assign] (a copy is member by member), [over.call]
//! (`operator()`), [expr.sizeof] with [basic.align] (a struct's size: each member at a multiple
//! of its alignment, the total rounded up to the largest).

use std::collections::HashMap;

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

mod arrays;
mod auto_static;
mod bases;
mod bitfields;
mod brace_elide;
pub(super) mod by_value;
mod conv;
mod cv_overload;
pub(crate) use by_value::ParamCopy;
pub(crate) use cv_overload::const_key;
mod declare;
mod define;
mod dtor;
pub(crate) use arrays::value_layout as value_layout_of;
pub(crate) use define::{anon_struct_name, CONV};
pub(crate) use dtor::Destructible;
mod layout_view;
mod local_ptr;
mod lower;
mod member_init;
mod method_overload;
mod pun_index;
mod shuffle;
pub(crate) use shuffle::STRUCT_SHFL;
mod punning;
mod ref_members;
mod subscript;
mod unions;
pub(super) mod void_ptr;

pub(crate) use void_ptr::SCAST;

/// Most scalar leaves one struct flattens to.
const MAX_LEAVES: usize = 256;

/// A member's type.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum FieldTy {
    /// A value (scalar or vector).
    Val(ValTy),
    /// A pointer to values (a buffer).
    Ptr(ValTy),
    /// A struct, by name.
    Struct(String),
    /// An array of values with a constant length (`int8_t qs[QK8_0];`): one leaf holding
    /// all elements ([`arrays`]).
    Arr(ValTy, u32),
    /// An array of structs with a constant length (`block_q8_0 b[4];`): each leaf of the
    /// struct once, holding the `count` elements of every array element in turn ([`arrays`]).
    SArr(String, u32),
}

/// A data member.
#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) name: String,
    pub(super) ty: FieldTy,
    /// A lambda's `[&]` capture: the member names the captured variable itself.
    pub(super) by_ref: bool,
    /// The default member initializer.
    pub(super) default: Option<Expr>,
}

/// What a function returns.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ret {
    /// A scalar, a pointer or nothing.
    Plain,
    /// A struct (the function has `__ret.*` reference parameters).
    Struct(String),
}

/// A member function: the device function it became.
#[derive(Clone, Debug)]
pub(super) struct Method {
    pub(super) func: String,
    pub(super) is_static: bool,
    pub(super) ret: Ret,
    /// The function's result type (`void` for a struct result).
    pub(super) ty: Ty,
    /// For a member function inherited from a base class ([`bases`]): the base whose
    /// function it is and the index of that base's first leaf among this struct's leaves
    /// (the base subobject's place): a call passes the receiver's leaves from there, as many
    /// as the base has. `None` for the struct's own member functions.
    pub(super) inherited: Option<(String, usize)>,
    /// Declared returning a reference (`float& at(int i)`): the device function returns a
    /// pointer to the referent, and a call stands for `*call` (an lvalue, [expr.call]/11).
    pub(super) by_ref: bool,
}

/// A struct or class.
#[derive(Clone, Debug, Default)]
pub(super) struct StructDef {
    pub(super) fields: Vec<Field>,
    pub(super) methods: HashMap<String, Method>,
    /// Constructors: parameter count and device function.
    pub(super) ctors: Vec<(usize, String)>,
    /// The cell type of a `SharedMemory<T>`-shaped struct: its conversion operator
    /// `operator T*()` returns the dynamic `extern __shared__` array.
    pub(super) shared_view: Option<ValTy>,
    /// A conversion function to a class type whose body returns one member (`operator T()
    /// const { return data; }` of CCCL's `warp_shuffle_result<T>`): the target struct and the
    /// member ([`Parser::converted_leaves`]).
    pub(super) member_conv: Option<(String, String)>,
    /// The members of anonymous unions that are views of a held member's scalars
    /// ([`unions`]): `d` is `ds.x`.
    pub(super) views: Vec<unions::View>,
    /// Member types (`using acc_t = float;`), named from outside as `S::acc_t`
    /// ([`super::member_types`]).
    pub(super) member_types: HashMap<String, super::member_types::MemberTy>,
    /// The first declared member of a union in it that reinterprets bytes, when that member
    /// is a byte view: a braced list would initialize it ([dcl.init.aggr]/16), so one is
    /// refused.
    pub(super) union_first: Option<String>,
    /// What `v[i]` names when the struct has `operator[]` ([`subscript`]).
    pub(super) subscript: Option<subscript::Subscript>,
    /// The named bit-fields, by member name ([`bitfields`]).
    pub(super) bitfields: HashMap<String, bitfields::Bits>,
    /// The unnamed bit-fields (`unsigned : 4;`, `int : 0;`), each with the index of the member
    /// it comes before: they only move the layout ([`bitfields`]).
    pub(super) bit_pads: Vec<(usize, bitfields::Bits)>,
    /// Every base class subobject, direct and indirect, with the index of its first leaf among
    /// this struct's leaves ([`bases`]): where a base's member function finds its members.
    pub(super) bases: Vec<(String, usize)>,
    /// The direct base classes in declaration order, each with how many of this struct's
    /// `fields` (its first ones, base after base) are that base's: the elements a braced
    /// list gives before the struct's own members ([dcl.init.aggr]/2).
    pub(super) direct_bases: Vec<(String, usize)>,
    /// The class template and arguments this struct is the instance of (`Number<4>`:
    /// `Number`, `[4]`), for deduction from it ([`super::deduce_class`]).
    pub(super) instance_of: Option<(String, Vec<super::targs::TArg>)>,
    /// The static data members' constants, by member name (`value` of
    /// `integral_constant<int, 3>`): kept with the class, which every parse shares, so that an
    /// object's `i.value` reads it wherever the class was instantiated ([class.static]/1).
    pub(super) statics: HashMap<String, Expr>,
    /// Each constructor's bindings of reference (and struct pointer) members: the member and
    /// the index of the argument it is bound to, by constructor function ([`ref_members`]).
    pub(super) ref_binds: HashMap<String, Vec<(String, usize)>>,
}

/// How a struct variable holds its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum SKind {
    /// One value: each leaf a scalar variable.
    Plain,
    /// An array or a pointer: each leaf an array or pointer of the field's type.
    Many,
}

/// A struct variable: its struct and the variable each leaf is.
#[derive(Clone, Debug)]
pub(super) struct SVar {
    pub(super) sname: String,
    pub(super) kind: SKind,
    pub(super) leaves: Vec<String>,
}

/// One scalar of a struct: its path (`v`, `inner.x`), type and whether it is a reference.
/// An array member is one leaf of its element type with `count` elements (0: not an array).
#[derive(Clone, Debug)]
pub(super) struct Leaf {
    pub(super) path: String,
    pub(super) ty: Ty,
    pub(super) by_ref: bool,
    pub(super) count: u32,
}

/// A struct value as its leaves: the path and the expression of each.
pub(super) type Leaves = Vec<(String, Expr)>;

/// A lowered member-function call: the struct it returns with its temporary's leaves (if it
/// returns one), and the expression that stands for the call.
type MethodCall = (Option<(String, Leaves)>, Expr);

fn ident(name: &str, span: Span) -> Expr {
    Expr::new(ExprKind::Ident(name.to_string()), span)
}

fn zero(span: Span) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: 0,
            unsigned: false,
            long: false,
        },
        span,
    )
}

impl Parser<'_> {
    /// A fresh span for a synthesized node on `at`'s line.
    pub(crate) fn syn_span(&mut self, at: Span) -> Span {
        super::build::synthesized(&mut self.syn, at)
    }

    /// Whether `w` names a struct here (a definition, a class template, a bound parameter).
    pub(crate) fn is_struct_name(&self, w: &str) -> bool {
        self.structs.contains_key(w)
            || self.struct_alias.contains_key(w)
            || self.class_templates.contains_key(w)
    }

    /// A struct type at the position (`Pair`, `struct Pair`, `WarpReduce<float, 32>`, a
    /// template parameter bound to a struct), read; `None` (position kept) otherwise, and for a
    /// name followed by `::` (a static member, read as an expression).
    pub(crate) fn struct_type(&mut self) -> PResult<Option<String>> {
        // `cub::KeyValuePair<K, V>`: a struct of the parser's own (`cub_kv`).
        if let Some(s) = self.cub_kv_type()? {
            return Ok(Some(s));
        }
        // `decltype(f_max)` of a struct variable, a lambda's closure or a functor (aiter's
        // `block_reduce<float, decltype(f_max), 256>(v, f_max)`): the variable's struct
        // (C++17 [dcl.type.simple]/4.1: `decltype` of an unparenthesized id-expression is the
        // type of the entity it names).
        if self.is_word("decltype")
            && matches!(self.peek(1), Tok::Punct("("))
            && matches!(self.peek(3), Tok::Punct(")"))
        {
            if let Tok::Ident(n) = self.peek(2).clone() {
                if let Some(sv) = self.var_struct(&n).filter(|sv| sv.kind == SKind::Plain) {
                    let s = sv.sname.clone();
                    self.pos += 4;
                    return Ok(Some(s));
                }
            }
        }
        let save = self.pos;
        if let Some(super::member_types::MemberTy::Struct(s)) = self.member_type()? {
            return Ok(Some(s));
        }
        self.pos = save;
        // `::ns::S<int, 3>` (a name from the global namespace, C++17 [basic.lookup.qual]/4):
        // namespaces are read as file scope here, so `::S` names the source's `S`.
        if matches!(self.peek(0), Tok::Punct("::"))
            && matches!(self.peek(1), Tok::Ident(n) if self.class_templates.contains_key(n)
                || self.structs.contains_key(n)
                || self.struct_alias.contains_key(n))
        {
            self.bump();
        }
        if self.is_word("std")
            && matches!(self.peek(1), Tok::Punct("::"))
            && matches!(self.peek(2), Tok::Ident(n) if self.class_templates.contains_key(n))
        {
            // `std::plus<float>`: a function object of `<functional>` ([`super::std_functional`]).
            self.bump();
            self.bump();
        }
        if (self.is_word("struct") || self.is_word("class") || self.is_word("union"))
            && matches!(self.peek(1), Tok::Ident(n) if self.is_struct_name(n))
        {
            self.bump();
        }
        let Tok::Ident(w) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        let template_id =
            self.class_templates.contains_key(&w) && matches!(self.peek(1), Tok::Punct("<"));
        if let (false, Some(s)) = (template_id, self.struct_alias.get(&w).cloned()) {
            if !matches!(self.peek(1), Tok::Punct("::")) {
                self.bump();
                return Ok(Some(s));
            }
        } else if !template_id && self.structs.contains_key(&w) {
            if !matches!(self.peek(1), Tok::Punct("::")) {
                self.bump();
                return Ok(Some(w));
            }
        } else if template_id {
            let at = self.span();
            self.bump();
            let args = self.template_args()?;
            if self.is_punct("::") {
                self.pos = save;
                return Ok(None);
            }
            return self.instantiate_class(&w, args, at).map(Some);
        }
        self.pos = save;
        Ok(None)
    }

    /// The leaves of struct `sname`, in declaration order.
    pub(crate) fn leaves(&self, sname: &str, at: Span) -> PResult<Vec<Leaf>> {
        self.leaves_ordered(sname, at)
    }

    /// The leaves of a struct, nested struct members flattened, in declaration order (an explicit
    /// stack of (struct, field index, prefix, by_ref) frames, bounded by [`MAX_LEAVES`] and the
    /// nesting budget).
    pub(super) fn leaves_ordered(&self, sname: &str, at: Span) -> PResult<Vec<Leaf>> {
        let mut out = Vec::new();
        // Each frame's last item: how many elements of arrays of structs it is inside (0: none).
        let mut stack: Vec<(String, usize, String, bool, u32)> =
            vec![(sname.to_string(), 0, String::new(), false, 0)];
        while let Some((s, k, prefix, by_ref, times)) = stack.pop() {
            let Some(def) = self.structs.get(&s) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("`{s}` is not a complete struct here"),
                ));
            };
            let Some(f) = def.fields.get(k) else {
                continue;
            };
            stack.push((s.clone(), k + 1, prefix.clone(), by_ref, times));
            let path = format!("{prefix}{}", f.name);
            let r = by_ref || f.by_ref;
            // The elements a leaf holds inside `times` struct elements (bounded: each copy
            // writes them one by one).
            let within = |n: u32| -> PResult<u32> {
                let all = if times == 0 {
                    n
                } else {
                    times.saturating_mul(n.max(1))
                };
                if all > arrays::MAX_ELEMENTS {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "member `{path}` of `{sname}` holds {all} elements; at most {} are \
                             supported in one member",
                            arrays::MAX_ELEMENTS
                        ),
                    ));
                }
                Ok(all)
            };
            let count = match &f.ty {
                FieldTy::Val(_) => within(0)?,
                FieldTy::Arr(_, n) | FieldTy::SArr(_, n) => within(*n)?,
                _ => 0,
            };
            match &f.ty {
                FieldTy::Struct(inner) | FieldTy::SArr(inner, _) => {
                    if stack.len() > self.max_depth as usize {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("struct `{sname}` nests too deeply"),
                        ));
                    }
                    let t = match f.ty {
                        FieldTy::SArr(..) => count,
                        _ => times,
                    };
                    stack.push((inner.clone(), 0, format!("{path}."), r, t));
                }
                FieldTy::Val(v) => out.push(Leaf {
                    path,
                    ty: Ty::Val(*v),
                    by_ref: r,
                    count,
                }),
                FieldTy::Ptr(_) if times > 0 => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "pointer member `{path}` in an array of structs is not supported; \
                             keep pointers out of structs held in array members"
                        ),
                    ))
                }
                FieldTy::Ptr(v) => out.push(Leaf {
                    path,
                    ty: Ty::Ptr(*v),
                    by_ref: r,
                    count: 0,
                }),
                FieldTy::Arr(v, _) => out.push(Leaf {
                    path,
                    ty: Ty::Val(*v),
                    by_ref: r,
                    count,
                }),
            }
            if out.len() > MAX_LEAVES {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("struct `{sname}` has more than {MAX_LEAVES} scalar members"),
                ));
            }
        }
        Ok(out)
    }

    /// `sizeof(S)`: see [`Parser::struct_layout`].
    pub(crate) fn struct_size(&self, sname: &str, at: Span) -> PResult<u64> {
        Ok(self.struct_layout(sname, at)?.size)
    }

    /// The struct variable `name` names here (`None` when a scalar of that name is nearer).
    pub(crate) fn var_struct(&self, name: &str) -> Option<&SVar> {
        let marker = format!("struct:{name}");
        for i in (0..self.scopes.len()).rev() {
            if self.scopes[i].contains_key(name) {
                return None;
            }
            if self.scopes[i].contains_key(&marker) {
                return self.svars.get(&(i, name.to_string()));
            }
        }
        None
    }

    /// Declares struct variable `name` in the innermost scope: each leaf's variable with its
    /// type (`Many`: pointers), and the marker `var_struct` finds.
    pub(crate) fn declare_svar(&mut self, name: &str, sv: SVar, leaves: &[Leaf]) {
        for (l, n) in leaves.iter().zip(&sv.leaves) {
            let ty = match (sv.kind, l.ty) {
                (SKind::Many, Ty::Val(v)) => Ty::Ptr(v),
                // An array member: an array variable, declared as its pointer.
                (_, Ty::Val(v)) if l.count > 0 => Ty::Ptr(v),
                (_, t) => t,
            };
            // A leaf that is another variable (a closure's `[&]` capture names its referent):
            // declared already, and declaring it again here would forget what the parser
            // knows of it (an array's dimensions, [`super::arrays`]).
            let own = n.starts_with(&format!("{name}."));
            if !own && self.scopes.last().and_then(|s| s.get(n)) == Some(&ty) {
                continue;
            }
            // A reference member's array (`temp_storage_.partial` of a `__shared__` object,
            // [`ref_members`]): the bound array, declared where it was.
            if !own && l.by_ref && self.scopes.iter().any(|s| s.contains_key(n)) {
                continue;
            }
            self.declare(n, ty);
        }
        self.declare(&format!("struct:{name}"), Ty::Void);
        let i = self.scopes.len().saturating_sub(1);
        self.local_struct_ptrs.remove(&(i, name.to_string()));
        self.svars.insert((i, name.to_string()), sv);
    }

    /// The struct an expression's value is, where the parser can tell.
    pub(crate) fn struct_of(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Ident(n) => match self.var_struct(n) {
                Some(sv) if sv.kind == SKind::Plain => Some(sv.sname.clone()),
                Some(_) => None,
                None => self.self_field(n).and_then(|f| match f {
                    FieldTy::Struct(s) => Some(s),
                    _ => None,
                }),
            },
            ExprKind::Member(b, f) => {
                let s = self.struct_of(b)?;
                match self
                    .structs
                    .get(&s)?
                    .fields
                    .iter()
                    .find(|x| x.name == *f)?
                    .ty
                {
                    FieldTy::Struct(ref inner) => Some(inner.clone()),
                    _ => None,
                }
            }
            ExprKind::Index(b, _) | ExprKind::Deref(b) => match &b.kind {
                // `o.b[j]` where `b` is an array of structs.
                ExprKind::Member(base, f) => {
                    let s = self.struct_of(base)?;
                    match &self
                        .structs
                        .get(&s)?
                        .fields
                        .iter()
                        .find(|x| x.name == *f)?
                        .ty
                    {
                        FieldTy::SArr(inner, _) => Some(inner.clone()),
                        _ => None,
                    }
                }
                ExprKind::Ident(n) => match self.var_struct(n) {
                    Some(sv) if sv.kind == SKind::Many => Some(sv.sname.clone()),
                    // `*this`: the receiver ([class.this]/1), as `this` names it.
                    Some(sv) if n == "this" && matches!(e.kind, ExprKind::Deref(_)) => {
                        Some(sv.sname.clone())
                    }
                    _ => None,
                },
                ExprKind::Binary(BinOp::Add | BinOp::Sub, p, _) => match &p.kind {
                    ExprKind::Ident(n) => match self.var_struct(n) {
                        Some(sv) if sv.kind == SKind::Many => Some(sv.sname.clone()),
                        _ => None,
                    },
                    _ => None,
                },
                // `*reinterpret_cast<Vec*>(&out[i])`, `reinterpret_cast<Vec*>(out)[i]`: the
                // struct the cast pointer points at ([`void_ptr`]), a place a whole struct is
                // stored to (the vectorized store of ONNX Runtime's and PyTorch's
                // `aligned_vector`).
                ExprKind::Call(n, args) if n.starts_with(void_ptr::SCAST) && args.len() == 1 => {
                    Some(n.trim_start_matches(void_ptr::SCAST).to_string())
                }
                _ => None,
            },
            ExprKind::Ternary(_, a, _) => self.struct_of(a),
            // `(a.operator+=(b), a)` ([`super::operators`]): the receiver.
            ExprKind::Comma(_, b) => self.struct_of(b),
            ExprKind::Assign(None, a, _) => self.struct_of(a),
            ExprKind::Call(name, args) => {
                if self.structs.contains_key(name) {
                    return Some(name.clone());
                }
                if name == STRUCT_SHFL {
                    return self.struct_of(shuffle::shuffled_value(args)?);
                }
                if let Some(s) = self.struct_alias.get(name) {
                    return Some(s.clone());
                }
                if name.starts_with("@m:") {
                    let (s, m, first) = self.method_target(name, args)?;
                    let rest = if first { args.get(1..)? } else { args };
                    let m = self.method_key_quiet(&s, &m, rest);
                    return match &self.structs.get(&s)?.methods.get(&m)?.ret {
                        Ret::Struct(r) => Some(r.clone()),
                        Ret::Plain => None,
                    };
                }
                if let Some(sv) = self.var_struct(name) {
                    let key = self.method_key_quiet(&sv.sname, "operator()", args);
                    let m = self.structs.get(&sv.sname)?.methods.get(&key)?;
                    return match &m.ret {
                        Ret::Struct(r) => Some(r.clone()),
                        Ret::Plain => None,
                    };
                }
                self.fn_ret.get(name).cloned()
            }
            _ => None,
        }
    }

    /// Whether `n` is a union view member ([`unions`]) of the struct whose member function is
    /// being parsed, named bare.
    pub(super) fn self_view(&self, n: &str) -> bool {
        match &self.self_struct {
            Some(s) => self.var_type(n).is_none() && self.view_of_struct(s, n).is_some(),
            None => false,
        }
    }

    /// A data member of the struct whose member function is being parsed, named bare.
    /// The constant of static data member `f` of struct `s` ([`StructDef::statics`]).
    pub(crate) fn static_const(&self, s: &str, f: &str) -> Option<Expr> {
        self.consts
            .get(&format!("{s}::{f}"))
            .or_else(|| self.structs.get(s)?.statics.get(f))
            .cloned()
    }

    /// `x.f` (also `this->f`) for a call `x.f(…)` where `x`'s struct has no member function
    /// `f` but a data member `f` of class type (a functor, a lambda's closure): the call is
    /// that member's `operator()` ([expr.call]/1 with [over.call]/1: `x.f(a)` is
    /// `(x.f).operator()(a)` when `f` names a data member). `None` for any other call.
    pub(super) fn functor_member(&self, e: &Expr, field: &str) -> Option<Expr> {
        let s = self.struct_of(e)?;
        let d = self.structs.get(&s)?;
        let method = d
            .methods
            .keys()
            .any(|k| k == field || k.strip_prefix(field).is_some_and(|r| r.starts_with('#')));
        if method {
            return None;
        }
        let f = d.fields.iter().find(|f| f.name == field)?;
        matches!(f.ty, FieldTy::Struct(_)).then(|| {
            Expr::new(
                ExprKind::Member(Box::new(e.clone()), field.to_string()),
                e.span,
            )
        })
    }

    pub(super) fn self_field(&self, n: &str) -> Option<FieldTy> {
        let s = self.self_struct.as_ref()?;
        if self.var_type(n).is_some() {
            return None;
        }
        self.structs
            .get(s)?
            .fields
            .iter()
            .find(|f| f.name == n)
            .map(|f| f.ty.clone())
    }
}

/// Whether `e` names any of `names` ([`Expr::walk`]: no recursion).
fn mentions(e: &Expr, names: &[String]) -> bool {
    e.walk()
        .any(|x| matches!(&x.kind, ExprKind::Ident(n) if names.contains(n)))
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use crate::ast::*;

    fn body_decl_names(src: &str, func: &str) -> Vec<String> {
        let p = parse(src).unwrap();
        let f = p
            .program
            .functions
            .iter()
            .find(|f| f.name == func)
            .unwrap_or_else(|| panic!("no `{func}`"));
        let StmtKind::Block(list) = &f.body.kind else {
            panic!("body")
        };
        list.iter()
            .flat_map(|s| match &s.kind {
                StmtKind::Decl(_, d) => d.iter().map(|x| x.name.clone()).collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    #[test]
    fn a_struct_local_is_one_variable_per_member_in_order() {
        let src = "struct Pair { float v; int idx; };\n__global__ void k(float* o) {\n  Pair p{1.0f, 2};\n  o[0] = p.v + p.idx;\n}";
        assert_eq!(body_decl_names(src, "k"), vec!["p.v", "p.idx"]);
        let p = parse(src).unwrap();
        let k = &p.program.functions[0];
        let StmtKind::Block(list) = &k.body.kind else {
            panic!()
        };
        // `p.v + p.idx` reads the two member variables.
        let StmtKind::Expr(e) = &list[1].kind else {
            panic!()
        };
        let ExprKind::Assign(None, _, rhs) = &e.kind else {
            panic!("{e:?}")
        };
        let ExprKind::Binary(_, a, b) = &rhs.kind else {
            panic!()
        };
        assert_eq!(a.kind, ExprKind::Ident("p.v".into()));
        assert_eq!(b.kind, ExprKind::Ident("p.idx".into()));
    }

    #[test]
    fn a_struct_pointer_parameter_is_one_buffer_per_member() {
        let p =
            parse("struct P { float x; int id; };\n__global__ void k(P* out) { out[0].x = 1; }")
                .unwrap();
        let names: Vec<(String, bool)> = p.program.functions[0]
            .params
            .iter()
            .map(|q| (q.name.clone(), matches!(q.ty, crate::types::Ty::Ptr(_))))
            .collect();
        assert_eq!(
            names,
            vec![("out.x".to_string(), true), ("out.id".to_string(), true)]
        );
    }

    #[test]
    fn member_functions_take_the_receiver_by_reference() {
        let p = parse("struct C { int n; __device__ void bump(int d) { n += d; } };\n__global__ void k(int* o) { C c{1}; c.bump(2); o[0] = c.n; }").unwrap();
        let f = p
            .program
            .functions
            .iter()
            .find(|f| f.name == "C::bump")
            .unwrap();
        assert_eq!(f.params[0].name, "this.n");
        assert!(f.params[0].reference);
        assert_eq!(f.params[1].name, "d");
        assert!(!f.params[1].reference);
    }

    #[test]
    fn members_defined_after_the_struct_keep_static_and_constructors() {
        let p = parse("struct P {\n  int a;\n  __device__ P(int x);\n  static __device__ int twice(int v);\n};\n__device__ P::P(int x) : a(x) {}\n__device__ int P::twice(int v) { return 2 * v; }\n__global__ void k(int* o) { P p(1); o[0] = p.a + P::twice(3); }").unwrap();
        let names: Vec<&str> = p
            .program
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert!(names.contains(&"P::P/1"), "{names:?}");
        let twice = p
            .program
            .functions
            .iter()
            .find(|f| f.name == "P::twice")
            .unwrap();
        // Static on its declaration: no receiver.
        assert_eq!(twice.params.len(), 1);
        assert_eq!(twice.params[0].name, "v");
    }

    #[test]
    fn class_template_static_members_are_named_per_instance() {
        let p = parse("template <typename T, int N>\nstruct W { static __device__ T twice(T v) { return v * N; } };\n__global__ void k(float* o) { o[0] = W<float, 2>::twice(o[0]); }").unwrap();
        assert!(p
            .program
            .functions
            .iter()
            .any(|f| f.name == "W<float,2>::twice"));
    }

    #[test]
    fn a_reference_capture_is_a_reference_parameter_of_operator_call() {
        let p = parse("__global__ void k(int* o) {\n  int b = 1;\n  auto f = [&](int a) { return a + b; };\n  o[0] = f(2);\n}").unwrap();
        let f = p
            .program
            .functions
            .iter()
            .find(|f| f.name.ends_with("::operator()"))
            .unwrap();
        assert_eq!(f.params[0].name, "this.b");
        assert!(f.params[0].reference);
        assert_eq!(f.params[1].name, "a");
        // The closure holds no copy of `b`: its member is `b` itself.
        assert!(!body_decl_names(
            "__global__ void k(int* o) {\n  int b = 1;\n  auto f = [&](int a) { return a + b; };\n  o[0] = f(2);\n}",
            "k"
        )
        .iter()
        .any(|n| n.starts_with("f.")));
    }

    #[test]
    fn sizeof_a_struct_pads_each_member_to_its_alignment() {
        // char at 0, int at 4, double at 8: 16 bytes ([basic.align]).
        let p = parse("struct S { char c; int i; double d; };\n__global__ void k(int* o) { o[0] = sizeof(S); }").unwrap();
        let StmtKind::Block(list) = &p.program.functions[0].body.kind else {
            panic!()
        };
        let StmtKind::Expr(e) = &list[0].kind else {
            panic!()
        };
        let ExprKind::Assign(None, _, rhs) = &e.kind else {
            panic!()
        };
        assert_eq!(rhs.kind, ExprKind::SizeOf(16));
    }

    #[test]
    fn null_and_nullptr_are_the_null_pointer_constant() {
        let p = parse("__global__ void k(int* o) { if (o != NULL && o != nullptr) o[0] = 1; }")
            .unwrap();
        let StmtKind::Block(list) = &p.program.functions[0].body.kind else {
            panic!()
        };
        let StmtKind::If(c, _, _) = &list[0].kind else {
            panic!()
        };
        let ExprKind::Logical(true, a, _) = &c.kind else {
            panic!()
        };
        let ExprKind::Binary(_, _, z) = &a.kind else {
            panic!()
        };
        assert!(matches!(z.kind, ExprKind::Int { value: 0, .. }));
    }

    #[test]
    fn unsupported_struct_forms_are_named_at_their_line() {
        for (src, line, needle) in [
            (
                "struct B { int a; __device__ B(int x) : a(x) {} };\nstruct D : B { int b; };",
                2,
                "a base class with those is not supported",
            ),
            (
                "struct B { int a; };\nstruct D : virtual B { int b; };",
                2,
                "a virtual base class is not supported",
            ),
            (
                "struct S {\n  static int a[4];\n};",
                2,
                "only arrays of scalars, vectors or structs",
            ),
            (
                "__global__ void k(int* o) {\n  auto f = [](auto... x) { return 0; };\n}",
                2,
                "a generic lambda's parameter pack",
            ),
        ] {
            let e = parse(src).unwrap_err();
            assert_eq!(e.line, line, "{src}");
            assert!(e.message.contains(needle), "{src}: {}", e.message);
        }
    }
}
