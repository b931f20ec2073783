//! Anonymous unions and structs as members: llama.cpp's `block_q8_1`,
//! `union { struct { half d; half s; }; half2 ds; }`.
//!
//! ISO C++ [class.union.anon]/1: the members of an anonymous union are members of the
//! enclosing class, and all occupy the same storage ([class.union]/2: at most one is active,
//! each starts at the union's address). An anonymous struct (`struct { half d; half s; };`, a
//! GCC/Clang extension NVCC and HIP-Clang accept) likewise injects its members, laid out as a
//! struct of its own ([class.mem]/20).
//!
//! How a union is held: by ONE of its members, the first of the widest, preferring a single
//! member over an anonymous struct (`half2 ds` rather than `{d, s}`). That member is an
//! ordinary field (its own leaf, its own buffer `x.ds`). Every other member is a view of the
//! held member's bytes that names the same scalars: a scalar of the held vector's component
//! type at a whole component (`d` is `ds.x`, `s` is `ds.y`), an element of a held array of that
//! type, or a value of the held type itself at the same offset. Reading or writing a view reads
//! or writes those components, which is what the device's shared bytes give. A union whose
//! members reinterpret bytes (`float` over `uint32_t`) is held as [`super::punning`] says.
//!
//! The same body makes a named union type (`union H2U { half2 h; uint32_t u; };`, `typedef
//! union { … } U;`, `union { … } v;` in a function) and a named union member of a struct
//! (`union { float f; uint32_t u; } val;`): a struct of its own whose one held member is its
//! field and whose other members are views.
//!
//! A union template (`template <typename T, int N> union Pack { PackType<T, N> storage; T
//! elem[N]; };`, OneFlow's softmax) is a class template whose instances this body defines
//! ([class]/1: a union is a class). A member of a struct type with one scalar, vector or array
//! member (`Parser::one_leaf`; `PackType` is `aligned_storage<N * sizeof(T), …>::type`, a
//! struct of `T elems[N]`) is held, so the struct is copied whole, and the other members view
//! its member by path (`elem` is `storage.elems`). Reading a member other than the one last
//! written is undefined in ISO C++ ([basic.life]/7) but defined by GCC, Clang and nvcc as
//! reading those bytes (GCC manual, "Options That Control Optimization", `-fstrict-aliasing`:
//! "type-punning is allowed, provided the memory is accessed through the union type"); CUDA
//! code relies on it, and that is what runs. Bytes no member wrote stay undefined.
//!
//! Layout ([class.union]/2, [expr.sizeof]/2): the union's size is its largest member's, its
//! alignment the largest alignment among its members; views never exceed the held member in
//! either (a component is no wider and no more aligned than its vector), so the held member's
//! layout is the union's.

use super::arrays::value_layout;
use super::*;

/// Which scalars of the held member a view names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Sel {
    /// The whole held value (a member of the held type at the same offset).
    Whole,
    /// Component `k` of a held vector (`.x`, `.y`, `.z`, `.w`).
    Comp(u8),
    /// Element `k` of a held array member.
    Elem(u32),
    /// A member of this type whose bytes are read from the held member's scalars: a union
    /// that reinterprets bytes ([`super::punning`]).
    Bytes(FieldTy),
}

/// A member of an anonymous union that is not held: it names scalars of the held member.
#[derive(Clone, Debug)]
pub(crate) struct View {
    /// The view's member name (`d`).
    pub(crate) name: String,
    /// The held field it reads (`ds`).
    pub(super) field: String,
    /// Which of the held field's scalars.
    pub(super) sel: Sel,
    /// Its byte offset from the held field's start (for `offsetof`).
    pub(super) offset: u64,
}

/// One member of an anonymous union: a single declarator, or an anonymous struct's members.
pub(super) enum UMember {
    One(String, FieldTy),
    Group(Vec<(String, FieldTy)>),
}

/// The component names of a vector, in order (CUDA C++ Programming Guide, "Built-in Vector
/// Types": `x`, `y`, `z`, `w`).
const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// Size and alignment of a member's type (`None` for a struct member: not allowed here).
fn ty_layout(t: &FieldTy) -> Option<(u64, u64)> {
    match t {
        FieldTy::Val(v) => Some(value_layout(*v)),
        FieldTy::Arr(v, n) => {
            let (b, a) = value_layout(*v);
            Some((b * u64::from(*n), a))
        }
        FieldTy::Ptr(_) => Some((8, 8)),
        FieldTy::Struct(_) | FieldTy::SArr(..) => None,
    }
}

/// Each member's offset in a struct of `fields` ([class.mem]/20 with [basic.align]), the
/// struct's unrounded end, its size rounded to its alignment, and the alignment.
fn group_layout(fields: &[(String, FieldTy)]) -> (Vec<u64>, u64, u64, u64) {
    let mut at = 0u64;
    let mut align = 1u64;
    let mut offs = Vec::new();
    for (_, t) in fields {
        let (b, a) = ty_layout(t).unwrap_or((0, 1));
        at = at.div_ceil(a) * a;
        offs.push(at);
        at += b;
        align = align.max(a);
    }
    (offs, at, at.div_ceil(align) * align, align)
}

impl Parser<'_> {
    /// The value type of member `f` of struct or union `st` when it is a union's view (a
    /// member not held, [`View`]), or an element of an array member or view (`elem`): what
    /// `u.data` and `u.reg[i]` read, for deduction and `auto` ([temp.deduct.call]/1,
    /// [dcl.spec.auto]/4). `None` when `f` is neither.
    pub(crate) fn member_read_type(&self, st: &str, f: &str, elem: bool) -> Option<ValTy> {
        let d = self.structs.get(st)?;
        let field_ty = |name: &str| d.fields.iter().find(|x| x.name == name).map(|x| &x.ty);
        let ty = match d.views.iter().find(|v| v.name == f) {
            Some(v) => match (&v.sel, field_ty(&v.field)?) {
                (Sel::Bytes(t), _) => t.clone(),
                (Sel::Whole, t) => t.clone(),
                (Sel::Comp(_), FieldTy::Val(h)) => FieldTy::Val(ValTy::scalar(h.scalar)),
                (Sel::Elem(_), FieldTy::Arr(h, _)) => FieldTy::Val(*h),
                _ => return None,
            },
            None => field_ty(f)?.clone(),
        };
        match (ty, elem) {
            (FieldTy::Val(v), false) => Some(v),
            (FieldTy::Arr(v, _), true) => Some(v),
            _ => None,
        }
    }

    /// A `union { … };` or `struct { … };` member of struct `sname`, from its keyword to its
    /// `;` (the caller saw the keyword and `{`). Anonymous: the held members become fields of
    /// `sname`, the others views ([`View`]). Named (`union { … } val;`): a struct of its own,
    /// the member `val` of that type.
    ///
    /// # Errors
    /// A struct-typed or static member, a union whose members can be neither views nor byte
    /// views of the held member ([`super::punning`]), an anonymous struct with tail padding,
    /// and nesting deeper than a struct in a union are named at their line.
    pub(super) fn anon_member(&mut self, sname: &str) -> PResult<()> {
        let at = self.span();
        let is_union = self.is_word("union");
        self.bump(); // union / struct
        let members = self.member_list(is_union, None)?;
        if let Tok::Ident(name) = self.peek(0).clone() {
            // A named member (`union { float f; uint32_t u; } val;`): a type of its own
            // ([class.union]/1, [class.mem]), a struct member of `sname`.
            self.bump();
            self.expect_punct(";")?;
            let inner = format!(
                "{}@{}:{}",
                if is_union { "union" } else { "struct" },
                at.line,
                at.col
            );
            self.structs.insert(inner.clone(), StructDef::default());
            self.place_members(&inner, members, is_union, at)?;
            if let Some(def) = self.structs.get_mut(sname) {
                def.fields.push(Field {
                    name,
                    ty: FieldTy::Struct(inner),
                    by_ref: false,
                    default: None,
                });
            }
            return Ok(());
        }
        self.anon_end()?;
        self.place_members(sname, members, is_union, at)
    }

    /// A union type's body from its `{` through its `}` (`union H2U { half2 h; uint32_t u; }`),
    /// placed in struct `sname`. Its member functions and constructors (`__device__ U(float x)
    /// : f(x) {}`, [class.union]/2: a union may have them) are skipped, their starts pushed to
    /// `methods` for the caller to read after the members.
    pub(super) fn union_body(
        &mut self,
        sname: &str,
        at: Span,
        methods: &mut Vec<usize>,
    ) -> PResult<()> {
        let members = self.member_list(true, Some(methods))?;
        self.place_members(sname, members, true, at)
    }

    /// Places a union's or an anonymous struct's members in struct `sname`.
    fn place_members(
        &mut self,
        sname: &str,
        members: Vec<UMember>,
        is_union: bool,
        at: Span,
    ) -> PResult<()> {
        if !is_union {
            let fields: Vec<(String, FieldTy)> = members
                .into_iter()
                .flat_map(|m| match m {
                    UMember::One(n, t) => vec![(n, t)],
                    UMember::Group(g) => g,
                })
                .collect();
            return self.push_group(sname, fields, at);
        }
        self.place_union(sname, members, at)
    }

    /// The members between `{` and `}` of a union (or an anonymous struct), the braces read.
    fn member_list(
        &mut self,
        is_union: bool,
        mut methods: Option<&mut Vec<usize>>,
    ) -> PResult<Vec<UMember>> {
        self.expect_punct("{")?;
        let mut members: Vec<UMember> = Vec::new();
        while !self.eat("}") {
            if matches!(self.peek(0), Tok::Eof) {
                return self.err("`}` to close the union or anonymous struct");
            }
            if self.eat(";") {
                continue;
            }
            self.skip_extension();
            // `static_assert(sizeof(PackType<T, N>) == sizeof(T) * N, "");` in a union's
            // body (a member-declaration, [class.mem]/1): checked as elsewhere.
            if self.is_word("static_assert") {
                self.skip_static_assert()?;
                continue;
            }
            if (self.is_word("struct") || self.is_word("union"))
                && matches!(self.peek(1), Tok::Punct("{"))
            {
                if !is_union || self.is_word("union") {
                    return self.unsupported(
                        "an anonymous struct or union is supported directly in a struct, or as \
                         a struct in an anonymous union; flatten the deeper nesting",
                    );
                }
                self.bump();
                self.expect_punct("{")?;
                let mut group = Vec::new();
                while !self.eat("}") {
                    if matches!(self.peek(0), Tok::Eof) {
                        return self.err("`}` to close the anonymous struct");
                    }
                    if self.eat(";") {
                        continue;
                    }
                    group.extend(self.plain_members(false)?);
                }
                self.anon_end()?;
                members.push(UMember::Group(group));
                continue;
            }
            if let Some(m) = methods.as_deref_mut() {
                if self.member_function_starts() {
                    m.push(self.pos);
                    self.skip_member_function()?;
                    continue;
                }
            }
            let list = self.plain_members(is_union)?;
            if is_union {
                members.extend(list.into_iter().map(|(n, t)| UMember::One(n, t)));
            } else {
                members.push(UMember::Group(list));
            }
        }
        Ok(members)
    }

    /// `__extension__` (GCC's marker that silences pedantic warnings on an extension; no
    /// meaning of its own), skipped.
    pub(super) fn skip_extension(&mut self) {
        while self.is_word("__extension__") {
            self.bump();
        }
    }

    /// Whether the member at the position is a function or constructor: a `(` after a name
    /// before its `;` or body (an attribute's `alignas(8)` is not one).
    fn member_function_starts(&self) -> bool {
        let mut k = 0;
        while k < 64 {
            match (self.peek(k), self.peek(k + 1)) {
                (Tok::Ident(w), Tok::Punct("("))
                    if !matches!(
                        w.as_str(),
                        "alignas" | "__align__" | "__attribute__" | "__declspec"
                    ) =>
                {
                    return true;
                }
                (Tok::Punct(";" | "{" | "}" | "="), _) | (Tok::Eof, _) => return false,
                // An array declarator's bound (`uint32_t bits[N * sizeof(T) / 4];`): its
                // `sizeof(` is no function; `operator[]` is.
                (Tok::Punct("["), _) if !matches!(k.checked_sub(1).map(|j| self.peek(j)), Some(Tok::Ident(w)) if w == "operator") => {
                    return false
                }
                _ => k += 1,
            }
        }
        false
    }

    /// The `;` after an anonymous struct's `}` inside a union; a name there is refused.
    fn anon_end(&mut self) -> PResult<()> {
        if self.eat(";") {
            return Ok(());
        }
        self.unsupported(
            "a named struct inside a union (`struct { … } s;`) is not supported; leave it \
             unnamed (its members are the union's own) or define the type at file scope",
        )
    }

    /// One member declaration `T a, b[N];` of scalar, vector, pointer or array type; in a
    /// union (`in_union`) also one member of a one-member struct type (`Self::one_leaf`).
    fn plain_members(&mut self, in_union: bool) -> PResult<Vec<(String, FieldTy)>> {
        self.skip_extension();
        if self.is_word("static") {
            return self.unsupported("static members of an anonymous union or struct are not allowed ([class.union.anon]/1)");
        }
        self.qualifiers()?;
        if let Some(st) = self.struct_type()? {
            // A struct of one scalar, vector or array member (OneFlow's `PackType<T, N>`,
            // `aligned_storage<N * sizeof(T), …>::type`, a struct of `T elems[N]`): a union
            // member whose bytes are that member's ([`Self::one_leaf`]).
            if in_union && self.one_leaf(&st).is_some() {
                let name = self.ident()?;
                if self.is_punct("[") || self.is_punct("=") || self.is_punct("{") {
                    return self.unsupported(
                        "a struct-typed union member is supported as one plain declarator \
                         (`PackType<T, N> storage;`)",
                    );
                }
                self.expect_punct(";")?;
                return Ok(vec![(name, FieldTy::Struct(st))]);
            }
            return self.unsupported(
                "struct-typed members of an anonymous union or struct are not supported (in a \
                 union, only a struct of one scalar, vector or array member, `PackType<T, N> \
                 storage;`); use scalar, vector or array members",
            );
        }
        let base = match self.base_type()? {
            Ty::Val(v) => FieldTy::Val(v),
            Ty::Ptr(v) => FieldTy::Ptr(v),
            Ty::Void => return self.err("a member type"),
        };
        let mut out = Vec::new();
        loop {
            let mut ty = base.clone();
            while self.eat("*") {
                ty = match ty {
                    FieldTy::Val(v) => FieldTy::Ptr(v),
                    _ => {
                        return self
                            .unsupported("pointers to pointers are not supported as members")
                    }
                };
            }
            let name = self.ident()?;
            if self.is_punct("[") {
                let n = self.array_member_len(&name)?;
                ty = match ty {
                    FieldTy::Val(v) => FieldTy::Arr(v, n),
                    _ => {
                        return self.unsupported(
                            "only arrays of scalars or vectors are supported as members",
                        )
                    }
                };
            }
            if self.is_punct("=") || self.is_punct("{") {
                return self.unsupported(
                    "default initializers in an anonymous union or struct are not supported; \
                     assign the member after the declaration",
                );
            }
            out.push((name, ty));
            if self.eat(",") {
                continue;
            }
            self.expect_punct(";")?;
            return Ok(out);
        }
    }

    /// An anonymous struct's members become fields of `sname`, if flattening keeps its layout
    /// (no tail padding: the next member would start earlier in the flat struct).
    fn push_group(&mut self, sname: &str, fields: Vec<(String, FieldTy)>, at: Span) -> PResult<()> {
        let (_, end, size, _) = group_layout(&fields);
        if end != size {
            return Err(KernelError::new(
                at.line,
                at.col,
                "an anonymous struct with tail padding (its members' bytes not a multiple of its \
                 alignment) is not supported; give the struct a name at file scope",
            ));
        }
        let Some(def) = self.structs.get_mut(sname) else {
            return Ok(());
        };
        for (name, ty) in fields {
            def.fields.push(Field {
                name,
                ty,
                by_ref: false,
                default: None,
            });
        }
        Ok(())
    }

    /// The one data member of struct `st` when it is a scalar, vector or array and the struct
    /// has nothing else (no base, view or bit-field): the struct's bytes are that member's
    /// ([class.mem]/20: a standard-layout struct's first member is at its start; C++17
    /// [meta.trans.other]'s `aligned_storage<…>::type`, read as a struct of `T elems[N]` by
    /// `aligned_storage.rs`).
    pub(super) fn one_leaf(&self, st: &str) -> Option<(String, FieldTy)> {
        let d = self.structs.get(st)?;
        if !d.views.is_empty() || !d.bases.is_empty() || !d.bitfields.is_empty() {
            return None;
        }
        match d.fields.as_slice() {
            [f] if !f.by_ref && matches!(f.ty, FieldTy::Val(_) | FieldTy::Arr(..)) => {
                Some((f.name.clone(), f.ty.clone()))
            }
            _ => None,
        }
    }

    /// Chooses the held member of an anonymous union and places the others as its views.
    ///
    /// A member of a one-leaf struct type (OneFlow's `union Pack { PackType<T, N> storage; T
    /// elem[N]; }`) is held in preference, so that `pack.storage = *p` copies the struct
    /// whole; the other members view its leaf (`elem` is `storage.elems`).
    fn place_union(&mut self, sname: &str, members: Vec<UMember>, at: Span) -> PResult<()> {
        // A one-leaf struct member's size and alignment are its leaf's.
        let leaf_ty = |t: &FieldTy| match t {
            FieldTy::Struct(st) => self.one_leaf(st).map(|(_, lt)| lt),
            _ => Some(t.clone()),
        };
        let size_of = |m: &UMember| match m {
            UMember::One(_, t) => leaf_ty(t).and_then(|t| ty_layout(&t)).map_or(0, |x| x.0),
            UMember::Group(g) => group_layout(g).2,
        };
        let widest = members.iter().map(size_of).max().unwrap_or(0);
        let held_at = members
            .iter()
            .position(|m| matches!(m, UMember::One(_, FieldTy::Struct(_))) && size_of(m) == widest)
            .or_else(|| {
                members
                    .iter()
                    .position(|m| matches!(m, UMember::One(..)) && size_of(m) == widest)
            })
            .or_else(|| members.iter().position(|m| size_of(m) == widest));
        let Some(held_at) = held_at else {
            return Err(KernelError::new(at.line, at.col, "a union needs a member"));
        };
        let has_struct = members
            .iter()
            .any(|m| matches!(m, UMember::One(_, FieldTy::Struct(_))));
        // The held member's fields with their offsets from the union's start (a one-leaf
        // struct's leaf by its path, `storage.elems`).
        let held: Vec<(String, FieldTy, u64)> = match &members[held_at] {
            UMember::One(n, FieldTy::Struct(st)) => match self.one_leaf(st) {
                Some((leaf, lt)) => vec![(format!("{n}.{leaf}"), lt, 0)],
                None => Vec::new(),
            },
            UMember::One(n, t) => vec![(n.clone(), t.clone(), 0)],
            UMember::Group(g) => {
                let (offs, _, _, _) = group_layout(g);
                g.iter()
                    .zip(offs)
                    .map(|((n, t), o)| (n.clone(), t.clone(), o))
                    .collect()
            }
        };
        let mut views = Vec::new();
        for (k, m) in members.iter().enumerate() {
            if k == held_at {
                continue;
            }
            let fields: Vec<((String, FieldTy), u64)> = match m {
                UMember::One(n, t) => vec![((n.clone(), t.clone()), 0)],
                UMember::Group(g) => {
                    let (offs, _, _, _) = group_layout(g);
                    g.iter().cloned().zip(offs).collect()
                }
            };
            for ((name, ty), off) in fields {
                let Some(v) = view_of(&name, &ty, off, &held) else {
                    if has_struct {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "union member `{name}` does not name the elements of the \
                                 struct-typed member's one field; a struct-typed union member \
                                 is supported beside members of its field's type or element \
                                 type (`PackType<T, N> storage; T elem[N];`), else use a \
                                 scalar, vector or array member"
                            ),
                        ));
                    }
                    // A member that is no view of the held scalars: the union reinterprets
                    // bytes (held so instead, or refused with why).
                    return self.place_punned(sname, members, at);
                };
                views.push(v);
            }
        }
        self.place_held(sname, &members[held_at], held, views, at)
    }

    /// Places a union whose members reinterpret each other's bytes ([`super::punning`]).
    fn place_punned(&mut self, sname: &str, members: Vec<UMember>, at: Span) -> PResult<()> {
        let offsets = |m: &UMember| -> Vec<((String, FieldTy), u64)> {
            match m {
                UMember::One(n, t) => vec![((n.clone(), t.clone()), 0)],
                UMember::Group(g) => {
                    let (offs, _, _, _) = group_layout(g);
                    g.iter().cloned().zip(offs).collect()
                }
            }
        };
        let (held_at, views) = super::punning::pun_layout(&members, offsets)
            .map_err(|m| KernelError::new(at.line, at.col, m))?;
        let held = match &members[held_at] {
            UMember::One(n, t) => vec![(n.clone(), t.clone(), 0)],
            UMember::Group(_) => Vec::new(),
        };
        let first = match members.first() {
            Some(UMember::One(n, _)) => Some(n.clone()),
            Some(UMember::Group(g)) => g.first().map(|(n, _)| n.clone()),
            None => None,
        };
        let held_name = match &members[held_at] {
            UMember::One(n, _) => Some(n.clone()),
            UMember::Group(_) => None,
        };
        if let (Some(def), true) = (self.structs.get_mut(sname), first != held_name) {
            def.union_first = first;
        }
        self.place_held(sname, &members[held_at], held, views, at)
    }

    /// Adds the held member's fields and the views to struct `sname`.
    fn place_held(
        &mut self,
        sname: &str,
        held_member: &UMember,
        held: Vec<(String, FieldTy, u64)>,
        views: Vec<View>,
        at: Span,
    ) -> PResult<()> {
        let fields: Vec<(String, FieldTy)> = held.into_iter().map(|(n, t, _)| (n, t)).collect();
        // The held member's own layout is the union's (see the module's layout note); a
        // held anonymous struct keeps its tail padding check.
        match held_member {
            UMember::Group(_) => self.push_group(sname, fields, at)?,
            // The member itself (a one-leaf struct's `held` names its leaf instead).
            UMember::One(name, ty) => {
                if let Some(def) = self.structs.get_mut(sname) {
                    def.fields.push(Field {
                        name: name.clone(),
                        ty: ty.clone(),
                        by_ref: false,
                        default: None,
                    });
                }
            }
        }
        if let Some(def) = self.structs.get_mut(sname) {
            def.views.extend(views);
        }
        Ok(())
    }

    /// The view of struct `s` named `f`, if one is.
    pub(super) fn view_of_struct(&self, s: &str, f: &str) -> Option<View> {
        self.structs
            .get(s)?
            .views
            .iter()
            .find(|v| v.name == f)
            .cloned()
    }

    /// A view's expression from its held leaf's expression `e` (`x.ds[i]` → `x.ds[i].x`).
    pub(super) fn view_expr(&mut self, v: &View, e: Expr, span: Span) -> PResult<Expr> {
        let sp = self.syn_span(span);
        Ok(match v.sel {
            Sel::Whole => e,
            Sel::Comp(k) => Expr::new(
                ExprKind::Member(
                    Box::new(e),
                    COMPONENTS
                        .get(usize::from(k))
                        .copied()
                        .unwrap_or("x")
                        .to_string(),
                ),
                sp,
            ),
            Sel::Elem(k) => {
                let i = Expr::new(
                    ExprKind::Int {
                        value: u64::from(k),
                        unsigned: false,
                        long: false,
                    },
                    sp,
                );
                self.node(ExprKind::Index(Box::new(e), Box::new(i)), sp)?
            }
            // Read through `Parser::pun_place` before this is reached.
            Sel::Bytes(_) => {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    "this union member reinterprets bytes and is read as a place here",
                ))
            }
        })
    }
}

/// How member `name` of type `ty` at byte `off` of the union names the held member's
/// scalars, if it does (see the module's rule).
fn view_of(name: &str, ty: &FieldTy, off: u64, held: &[(String, FieldTy, u64)]) -> Option<View> {
    for (hn, ht, ho) in held {
        let (hsize, _) = ty_layout(ht)?;
        if off < *ho || off >= ho + hsize {
            continue;
        }
        let rel = off - ho;
        let view = |sel| {
            Some(View {
                name: name.to_string(),
                field: hn.clone(),
                sel,
                offset: rel,
            })
        };
        if ty == ht && rel == 0 {
            return view(Sel::Whole);
        }
        let FieldTy::Val(v) = ty else {
            return None;
        };
        if v.lanes != 1 {
            return None;
        }
        let (one, _) = value_layout(*v);
        match ht {
            FieldTy::Val(h) if h.scalar == v.scalar && h.lanes <= 4 && rel.is_multiple_of(one) => {
                return view(Sel::Comp(u8::try_from(rel / one).ok()?));
            }
            FieldTy::Arr(h, _) if *h == *v && rel.is_multiple_of(one) => {
                return view(Sel::Elem(u32::try_from(rel / one).ok()?));
            }
            _ => return None,
        }
    }
    None
}
