//! Struct and class definitions: members, default member initializers, member functions
//! (in the struct or after it) and constructors, and the constructs still refused, named.

use super::*;

/// The member name a conversion function `operator T()` is kept under ([class.conv.fct]): one
/// per class here (a class with several conversion functions keeps the last).
pub(crate) const CONV: &str = "operator conv";

impl Parser<'_> {
    /// `struct Name { members };` (or `class`) at file scope; `as_name` names a class
    /// template's instance. Data members, static `constexpr` members, member functions
    /// (`static`, `const`, `operator()`), constructors with initializer lists.
    ///
    /// # Errors
    /// A base class with member functions ([`super::bases`]), destructors and the operators
    /// still refused are named as unsupported at their line.
    pub(crate) fn struct_def(&mut self, as_name: Option<String>) -> PResult<()> {
        self.struct_def_impl(as_name, false)
    }

    /// The `struct …` of `typedef struct [Tag] { … } Name;` ([`Parser::typedef_struct`]).
    pub(super) fn struct_def_typedef(&mut self) -> PResult<()> {
        self.struct_def_impl(None, true)
    }

    fn struct_def_impl(&mut self, as_name: Option<String>, typedef: bool) -> PResult<()> {
        let at = self.span();
        let is_union = self.is_word("union");
        self.bump(); // struct / class / union
        let name = if typedef && self.is_punct("{") {
            // An unnamed struct: named by the typedef after its `}`.
            let close = self
                .closing(self.pos)
                .ok_or_else(|| KernelError::new(at.line, at.col, "`{` never closed"))?;
            match self.toks.get(close + 1).map(|t| &t.tok) {
                Some(Tok::Ident(n)) => n.clone(),
                _ => return self.err("the typedef's name after the struct's `}`"),
            }
        } else if self.is_punct("{") && self.scopes.len() > 1 {
            // `struct { … } v;` in a function: a struct without a name ([class]/1), named here by
            // where it starts.
            anon_struct_name(at)
        } else {
            self.ident()?
        };
        if self.eat(";") {
            return Ok(()); // a forward declaration
        }
        // Base classes: their data members, statics and member types ([`super::bases`]).
        let bases = if self.is_punct(":") {
            let from = self.pos;
            self.base_clause()
                .map_err(|e| self.crtp_refusal(&name, from).unwrap_or(e))?
        } else {
            Vec::new()
        };
        if !self.is_punct("{") {
            return self.err("`{` to start the struct's members");
        }
        let sname = as_name.unwrap_or_else(|| name.clone());
        if sname != name {
            self.struct_alias.insert(name.clone(), sname.clone());
        }
        self.structs.insert(sname.clone(), StructDef::default());
        let mut methods: Vec<usize> = Vec::new();
        if is_union {
            // A union type: data members held as the anonymous union's ([`unions`]), member
            // functions read after them as a struct's.
            self.union_body(&sname, at, &mut methods)?;
        } else {
            self.bump();
        }
        let mut consts: Vec<String> = Vec::new();
        self.inherit(&sname, &bases, &mut consts, at)?;
        // Nested classes' bare names, with what each name meant before (restored after the
        // outer class's member functions: the bare name is the outer class's scope only).
        let mut nested: Vec<(String, Option<String>)> = Vec::new();
        let mut friends: Vec<usize> = Vec::new();
        loop {
            if is_union || self.eat("}") {
                break;
            }
            if matches!(self.peek(0), Tok::Eof) {
                return self.err("`}` to close the struct");
            }
            if self.eat(";") {
                continue;
            }
            if let Tok::Ident(w) = self.peek(0).clone() {
                match w.as_str() {
                    "public" | "private" | "protected"
                        if matches!(self.peek(1), Tok::Punct(":")) =>
                    {
                        self.bump();
                        self.bump();
                        continue;
                    }
                    "template" => {
                        self.member_template(&sname)?;
                        continue;
                    }
                    "friend" => {
                        self.friend_member(&mut friends)?;
                        continue;
                    }
                    "struct" | "union" if matches!(self.peek(1), Tok::Punct("{")) => {
                        self.anon_member(&sname)?;
                        continue;
                    }
                    "__extension__" => {
                        self.skip_extension();
                        continue;
                    }
                    // A nested class ([class.nest]): `struct storage_type { T v[N]; };` in a
                    // class (template), the struct `Outer::storage_type`, named bare inside
                    // the outer class and as `Outer<…>::storage_type` outside it.
                    "struct" | "class"
                        if matches!(self.peek(1), Tok::Ident(_))
                            && matches!(self.peek(2), Tok::Punct("{")) =>
                    {
                        if let Tok::Ident(inner) = self.peek(1).clone() {
                            let full = format!("{sname}::{inner}");
                            nested.push((inner.clone(), self.struct_alias.get(&inner).cloned()));
                            self.struct_def(Some(full.clone()))?;
                            if let Some(def) = self.structs.get_mut(&sname) {
                                def.member_types.insert(
                                    inner,
                                    crate::parser::member_types::MemberTy::Struct(full),
                                );
                            }
                        }
                        continue;
                    }
                    // `enum { value = N * 2 };`: the enumerators are the class's constants.
                    "enum" => {
                        self.member_enum(&sname, &mut consts)?;
                        continue;
                    }
                    "struct" | "class" | "union" => return self.unsupported(
                        "nested type definitions are not supported; define the type at file scope",
                    ),
                    "static_assert" => {
                        self.skip_static_assert()?;
                        continue;
                    }
                    "using" | "typedef" => {
                        if self.member_ptr_alias(&sname) {
                            continue;
                        }
                        let from = self.pos;
                        // `using type = decltype(x);` names the member `x` declared above
                        // ([basic.scope.class]/1: a member is in scope after its declarator).
                        let saved_self = self.self_struct.replace(sname.clone());
                        let r = self.alias();
                        self.self_struct = saved_self;
                        r?;
                        self.record_member_alias(&sname, from);
                        continue;
                    }
                    _ => {}
                }
            }
            if self.destructor(&name, Some(&mut methods))? {
                continue;
            }
            if self.is_word("virtual") {
                return self.unsupported(
                    "virtual member functions are not supported (no dynamic dispatch here); \
                     remove `virtual` and call the function of the object's own class",
                );
            }
            let start = self.pos;
            // `S& operator=(const S&) = default;`, `S(S&&) = delete;`: the implicit member
            // ([`Self::defaulted_member_end`]); nothing to keep.
            if let Some(end) = self.defaulted_member_end() {
                self.pos = end;
                continue;
            }
            // A constructor: the struct's name and `(`.
            let mut k = 0;
            while matches!(self.peek(k), Tok::Ident(w) if super::super::types::QUALIFIERS.contains(&w.as_str()) || w == "explicit")
            {
                k += 1;
            }
            if matches!(self.peek(k), Tok::Ident(w) if *w == name)
                && matches!(self.peek(k + 1), Tok::Punct("("))
            {
                methods.push(start);
                self.skip_member_function()?;
                continue;
            }
            // A conversion operator (`operator T*()`): `SharedMemory<T>`'s over an
            // `extern __shared__` array.
            if matches!(self.peek(k), Tok::Ident(w) if w == "operator")
                && !matches!(self.peek(k + 1), Tok::Punct("("))
            {
                self.pos += k + 1;
                if !self.conversion_operator(&sname)? {
                    // `operator int() const`: a member function ([`Self::member_function`]).
                    self.pos = start;
                    methods.push(start);
                    self.skip_member_function()?;
                }
                continue;
            }
            if self.subscript_operator_starts() {
                self.subscript_operator(&sname)?;
                continue;
            }
            let is_static = (0..k).any(|j| matches!(self.peek(j), Tok::Ident(w) if w == "static"));
            self.qualifiers()?;
            if self.auto_static_member(is_static, &sname, &mut consts)? {
                continue;
            }
            // `auto operator()(…) const { … }`, `auto f(…) -> T`: a member function whose
            // return type its body (or `-> T`) gives ([dcl.spec.auto]/2), read as the others.
            if self.is_word("auto")
                && (matches!(self.peek(1), Tok::Ident(w) if w == "operator")
                    || (matches!(self.peek(1), Tok::Ident(_))
                        && matches!(self.peek(2), Tok::Punct("("))))
            {
                self.pos = start;
                methods.push(start);
                self.skip_member_function()?;
                continue;
            }
            let field_ty = if let Some(s) = self.struct_type()? {
                FieldTy::Struct(s)
            } else {
                match self.base_type()? {
                    Ty::Val(v) => FieldTy::Val(v),
                    Ty::Ptr(v) => FieldTy::Ptr(v),
                    Ty::Void => FieldTy::Val(ValTy::scalar(Scalar::I32)),
                }
            };
            loop {
                let mut ty = field_ty.clone();
                // `TempStorage* ts_;`: a pointer member to one struct, an alias of the object
                // its constructor binds it to ([`super::ref_members`]).
                let mut alias = false;
                while self.eat("*") {
                    ty = match ty {
                        FieldTy::Val(v) => FieldTy::Ptr(v),
                        FieldTy::Struct(s) if !alias && !self.is_punct("*") => {
                            alias = true;
                            FieldTy::Struct(s)
                        }
                        _ => return self.unsupported("this pointer member is not supported (pointers to pointers, or to structs held by pointer members); use a pointer to a scalar type or a reference to the struct"),
                    };
                    // `const float* __restrict__ x;`, `float* const p;`: qualifiers of the
                    // pointer itself ([dcl.ptr]/1), which change no value read or written.
                    self.eat_ptr_qualifiers();
                }
                // `V& operator+=(…)`: an operator returning its receiver.
                let amp = usize::from(
                    self.is_punct("&") && matches!(self.peek(1), Tok::Ident(w) if w == "operator"),
                );
                if self.is_word("operator") || amp == 1 {
                    let call = matches!(self.peek(amp + 1), Tok::Punct("("))
                        && matches!(self.peek(amp + 2), Tok::Punct(")"));
                    let user = match self.operator_id_at(amp) {
                        Some(r) => {
                            r?;
                            true
                        }
                        None => false,
                    };
                    if call || user {
                        self.pos = start;
                        methods.push(start);
                        self.skip_member_function()?;
                        break;
                    }
                    return self.unsupported(
                        "this operator is not supported; write it as a named member function",
                    );
                }
                if self.is_punct("&")
                    && matches!(self.peek(1), Tok::Ident(_))
                    && matches!(self.peek(2), Tok::Punct("("))
                {
                    // `float& at(int i)`: a member function returning a reference.
                    self.pos = start;
                    methods.push(start);
                    self.skip_member_function()?;
                    break;
                }
                if self.is_punct("&") && !alias && !matches!(ty, FieldTy::Ptr(_)) {
                    // `TempStorage& temp_storage_;`, `float& total_;`: a reference member, an
                    // alias of the object its constructor binds it to ([`super::ref_members`]).
                    self.bump();
                    alias = true;
                }
                if self.is_punct("(") && matches!(self.peek(1), Tok::Punct("&")) {
                    return self.unsupported(
                        "a reference member to an array (`float (&a)[32];`) is not supported; \
                         hold a pointer member `float* a;` initialized from the array, or a \
                         reference to a struct holding the array",
                    );
                }
                let f_at = self.span();
                if self.is_punct(":") && !is_static {
                    // `unsigned : 4;`, `int : 0;`: an unnamed bit-field, layout only.
                    let b = self.bitfield_width(None, &ty)?;
                    if let Some(def) = self.structs.get_mut(&sname) {
                        let k = def.fields.len();
                        def.bit_pads.push((k, b));
                    }
                    if self.eat(",") {
                        continue;
                    }
                    self.expect_punct(";")?;
                    break;
                }
                let fname = self.ident()?;
                if self.is_punct("(") {
                    self.pos = start;
                    methods.push(start);
                    self.skip_member_function()?;
                    break;
                }
                if self.is_punct("[") {
                    let n = self.array_member_len(&fname)?;
                    ty = match ty {
                        FieldTy::Val(v) if !is_static => FieldTy::Arr(v, n),
                        FieldTy::Struct(s) if !is_static => FieldTy::SArr(s, n),
                        _ => return self.unsupported(
                            "only arrays of scalars, vectors or structs are supported as members \
                             (not of pointers, nor static ones); use separate members",
                        ),
                    };
                    if self.is_punct("=") || self.is_punct("{") {
                        return self.unsupported(
                            "a default initializer for an array member is not supported; \
                             assign its elements in a constructor or after the declaration",
                        );
                    }
                }
                if self.is_punct(":") && !is_static {
                    // `unsigned valid : 1;` ([`super::bitfields`]).
                    let b = self.bitfield_width(Some(&fname), &ty)?;
                    self.bitfield_names.insert(fname.clone());
                    if let Some(def) = self.structs.get_mut(&sname) {
                        def.bitfields.insert(fname.clone(), b);
                    }
                }
                let default = if self.eat("=") {
                    Some(self.assign_expr()?)
                } else if self.is_punct("{") {
                    self.bump();
                    let e = if self.is_punct("}") {
                        zero(f_at)
                    } else {
                        self.assign_expr()?
                    };
                    self.expect_punct("}")?;
                    Some(e)
                } else {
                    None
                };
                if is_static {
                    // `static constexpr int N = 32;`: a constant `Name::N` (and `N` inside).
                    let Some(d) = default else {
                        return Err(KernelError::new(f_at.line, f_at.col, "a static data member needs a constant initializer here (`static constexpr int N = 32;`)"));
                    };
                    let v = match field_ty {
                        FieldTy::Val(v) => v,
                        _ => ValTy::scalar(Scalar::I32),
                    };
                    let c = Expr::new(ExprKind::Cast(Ty::Val(v), Box::new(d)), f_at);
                    self.consts.insert(format!("{sname}::{fname}"), c.clone());
                    if let Some(def) = self.structs.get_mut(&sname) {
                        def.statics.insert(fname.clone(), c.clone());
                    }
                    self.consts.insert(fname.clone(), c);
                    consts.push(fname);
                } else {
                    if alias
                        && (default.is_some() || matches!(ty, FieldTy::Arr(..) | FieldTy::SArr(..)))
                    {
                        return Err(KernelError::new(f_at.line, f_at.col, "a reference or struct pointer member is supported when a constructor's initializer list binds it (`T& r; S(T& t) : r(t) {}`); bind it there"));
                    }
                    if let Some(def) = self.structs.get_mut(&sname) {
                        def.fields.push(Field {
                            name: fname,
                            ty,
                            by_ref: alias,
                            default,
                        });
                    }
                }
                if self.eat(",") {
                    continue;
                }
                self.expect_punct(";")?;
                break;
            }
        }
        if typedef {
            let t_at = self.span();
            let alias = self.ident()?;
            if alias != sname {
                self.struct_alias.insert(alias, sname.clone());
            }
            if !self.is_punct(";") {
                return Err(KernelError::new(
                    t_at.line,
                    t_at.col,
                    "one name after `typedef struct { … }` is supported (`} name;`)",
                ));
            }
        }
        // In a function, variables may follow the `}` (`struct { int x; } g;`): the caller
        // reads them ([dcl.dcl]/1).
        if !self.eat(";") && self.scopes.len() <= 1 {
            return self
                .err("`;` after the struct's `}` (declaring variables there is not supported)");
        }
        let end = self.pos;
        // Member functions see every member, whatever the order: parsed after them, and each
        // named member function registered before any body is read, so a body calls one
        // declared after it (a member function body is a complete-class context,
        // C++17 [class.mem]/6).
        let saved_self = self.self_struct.replace(sname.clone());
        let r = (|| {
            for m in &methods {
                self.pos = *m;
                self.declare_only = true;
                let r = self.member_function(&name, &sname);
                self.declare_only = false;
                r?;
            }
            for m in &methods {
                self.pos = *m;
                self.member_function(&name, &sname)?;
            }
            Ok(())
        })();
        self.self_struct = saved_self;
        for c in consts {
            self.consts.remove(&c);
        }
        for (inner, before) in nested.into_iter().rev() {
            match before {
                Some(b) => self.struct_alias.insert(inner, b),
                None => self.struct_alias.remove(&inner),
            };
        }
        r?;
        self.friend_functions(&friends)?;
        self.pos = end;
        let _ = at;
        Ok(())
    }

    /// A member function or constructor defined after its struct (`__device__ float
    /// P::get() const { … }`, `P::P(int a) : a(a) {}`), if one starts here: parsed as the
    /// struct's member.
    pub(crate) fn out_of_class_member(&mut self) -> PResult<bool> {
        let mut k = 0;
        let found = loop {
            match (
                self.peek(k),
                self.peek(k + 1),
                self.peek(k + 2),
                self.peek(k + 3),
            ) {
                // `S::~S() {}` defined after the struct ([`Self::destructor`]).
                (Tok::Ident(st), Tok::Punct("::"), Tok::Punct("~"), _)
                    if self.structs.contains_key(st) =>
                {
                    let st = st.clone();
                    self.pos += k + 2;
                    return self.destructor(&st, None);
                }
                // `V V::operator+(…)`: a member operator ([`super::super::operators`]).
                (Tok::Ident(st), Tok::Punct("::"), Tok::Ident(m), _)
                    if m == "operator" && self.structs.contains_key(st) =>
                {
                    break Some(st.clone());
                }
                (Tok::Ident(st), Tok::Punct("::"), Tok::Ident(m), Tok::Punct("(")) => {
                    break (self.structs.contains_key(st) && (m == st || !self.is_struct_name(m)))
                        .then(|| st.clone());
                }
                (Tok::Ident(_) | Tok::Punct("*" | "&"), _, _, _) if k < 16 => k += 1,
                _ => break None,
            }
        };
        let Some(st) = found else {
            return Ok(false);
        };
        let saved = self.self_struct.replace(st.clone());
        let r = self.member_function(&st, &st);
        self.self_struct = saved;
        r.map(|()| true)
    }

    pub(super) fn unsupported<T>(&self, msg: &str) -> PResult<T> {
        let at = self.span();
        Err(KernelError::new(at.line, at.col, msg))
    }

    /// A conversion operator from after the word `operator` to the end of its body. The one
    /// real kernels use is the CUDA samples' `SharedMemory<T>` idiom: `operator T*()` whose body
    /// declares an `extern __shared__` array and returns it as a `T*` (CUDA C++ Programming
    /// Guide, "extern __shared__": every such array starts at the same address). It makes
    /// `SharedMemory<T>()` the dynamic shared array viewed as `T` cells
    /// ([`Self::shared_view_expr`]); any other conversion operator is refused.
    fn conversion_operator(&mut self, sname: &str) -> PResult<bool> {
        let at = self.span();
        while self.is_word("const") || self.is_word("volatile") {
            self.bump();
        }
        // A conversion to a class type (`operator T()` of CCCL's `warp_shuffle_result<T>`
        // whose `T` is a struct): kept when its body returns one member
        // ([`StructDef::member_conv`]), which a `T` initialized or assigned from the class
        // reads ([class.conv.fct]/1, [dcl.init]/17.6.3); any other is not kept, so the class
        // converts to no struct here and its members stay readable (`r.data`).
        let save = self.pos;
        if let Some(target) = self.struct_type()? {
            let open = self.pos + 2;
            if self.is_punct("(") && matches!(self.peek(1), Tok::Punct(")")) {
                if let Some(k) = (open..self.toks.len().min(open + 16))
                    .find(|&k| matches!(self.toks[k].tok, Tok::Punct("{")))
                {
                    if let Some(close) = self.closing(k) {
                        // `{ return m; }`: the conversion reads member `m`.
                        let body: Vec<&Tok> =
                            self.toks[k + 1..close].iter().map(|t| &t.tok).collect();
                        if let [Tok::Ident(r), Tok::Ident(m), Tok::Punct(";")] = body[..] {
                            if r == "return" {
                                let conv = (target, m.clone());
                                if let Some(def) = self.structs.get_mut(sname) {
                                    def.member_conv = Some(conv);
                                }
                            }
                        }
                        self.pos = close + 1;
                        return Ok(true);
                    }
                }
            }
        }
        self.pos = save;
        let base = self.base_type()?;
        let (ty, _) = self.pointers(base)?;
        self.expect_punct("(")?;
        self.expect_punct(")")?;
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "noexcept" | "override" | "__device__" | "__host__"))
        {
            self.bump();
        }
        if !self.is_punct("{") {
            return self.err("the conversion operator's body");
        }
        let close = self.closing(self.pos).ok_or_else(|| {
            let s = self.span();
            KernelError::new(s.line, s.col, "bracket never closed")
        })?;
        let body = &self.toks[self.pos..close];
        let extern_shared = body.windows(2).any(|w| {
            matches!((&w[0].tok, &w[1].tok), (Tok::Ident(a), Tok::Ident(b)) if a == "extern" && b == "__shared__")
        });
        match ty {
            Ty::Ptr(v) if extern_shared => {
                if let Some(def) = self.structs.get_mut(sname) {
                    // `operator const T*() const` beside `operator T*()`: the same view.
                    def.shared_view.get_or_insert(v);
                }
            }
            // A conversion to a scalar or vector type (`integral_constant`'s `constexpr
            // operator value_type() const`): the member function `operator conv`, called where
            // the object is used as a value ([class.conv.fct]/1, [conv]/6).
            Ty::Val(_) => return Ok(false),
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "conversion operators are supported to a scalar or vector type \
                     (`operator int() const`) and in the `SharedMemory<T>` shape (`operator \
                     T*()` returning an `extern __shared__` array); write a named member \
                     function and call it",
                ))
            }
        }
        self.pos = close + 1;
        Ok(true)
    }

    /// `SharedMemory<T>()`: the dynamic `extern __shared__` array as `T` cells. Its declaration
    /// goes before the statement (`extern __shared__ T __shared_view_T[];`, one buffer per name
    /// and block, however often it is declared); the expression names it.
    pub(crate) fn shared_view_expr(&mut self, v: ValTy, at: Span) -> Expr {
        let name = format!("__shared_view_{}", v.name().replace(' ', "_"));
        // The declaration at the use's own position (a key of its own per use); the buffer is
        // one per name and block.
        let decl_at = at;
        self.pre.push(Stmt {
            kind: StmtKind::Decl(
                Storage {
                    shared: true,
                    external: true,
                },
                vec![Declarator {
                    name: name.clone(),
                    ty: Ty::Val(v),
                    array: Some(None),
                    init: None,
                    span: decl_at,
                    id: NodeId::fresh(),
                }],
            ),
            span: at,
            end: at,
        });
        let use_at = self.syn_span(at);
        Expr::new(ExprKind::Ident(name), use_at)
    }

    /// Skips a member function's declaration and body (read again by `member_function`).
    pub(crate) fn skip_member_function(&mut self) -> PResult<()> {
        let mut in_init = false;
        loop {
            match self.peek(0).clone() {
                Tok::Eof => return self.err("a member function's body"),
                Tok::Ident(w) if w == "operator" && matches!(self.peek(1), Tok::Punct("(")) => {
                    self.bump();
                    self.bump();
                    self.expect_punct(")")?;
                }
                Tok::Punct(";") => {
                    self.bump();
                    return Ok(());
                }
                Tok::Punct(":") => {
                    in_init = true;
                    self.bump();
                }
                Tok::Punct("(" | "{") => {
                    let body = self.is_punct("{")
                        && !(in_init
                            && matches!(&self.toks[self.pos.saturating_sub(1)].tok,
                                Tok::Ident(w) if !matches!(w.as_str(), "const" | "noexcept" | "override")));
                    let close = self.closing(self.pos).ok_or_else(|| {
                        let s = self.span();
                        KernelError::new(s.line, s.col, "bracket never closed")
                    })?;
                    self.pos = close + 1;
                    if body {
                        return Ok(());
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// The position after a member function declared `= default;` or `= delete;` that starts
    /// here (no body, no `;` before it at this nesting depth), or `None`.
    fn defaulted_member_end(&self) -> Option<usize> {
        let mut depth = 0usize;
        let mut k = 0usize;
        // Bounded by the tokens left: each step moves one token.
        while self.pos + k < self.toks.len() {
            match self.peek(k) {
                Tok::Eof => return None,
                Tok::Punct("(" | "[" | "<") => depth += 1,
                Tok::Punct(")" | "]" | ">") => depth = depth.saturating_sub(1),
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Punct("{" | ";") if depth == 0 => return None,
                Tok::Punct("=")
                    if depth == 0
                        && k > 0
                        && matches!(self.peek(k - 1), Tok::Punct(")") | Tok::Ident(_))
                        && matches!(self.peek(k + 1), Tok::Ident(w) if w == "default" || w == "delete")
                        && matches!(self.peek(k + 2), Tok::Punct(";")) =>
                {
                    return Some(self.pos + k + 3);
                }
                _ => {}
            }
            k += 1;
        }
        None
    }

    /// One member function or constructor of struct `sname` (spelled `name` in the source),
    /// as a device function.
    pub(crate) fn member_function(&mut self, name: &str, sname: &str) -> PResult<()> {
        let at = self.span();
        // `S() = default;`, `S(const S&) = default;`, `S& operator=(const S&) = default;`,
        // `~S() = default;`, `… = delete;`: an explicitly-defaulted function is the implicit one
        // ([dcl.fct.def.default]/4-5: a defaulted default constructor default-initializes the
        // members, a defaulted copy or move copies them member by member), and a deleted one
        // may not be called ([dcl.fct.def.delete]/2). Neither is registered: the struct keeps
        // the implicit members crosslane gives a struct that declares none.
        if let Some(end) = self.defaulted_member_end() {
            self.pos = end;
            return Ok(());
        }
        let head_from = self.pos;
        let mut is_static = false;
        while let Tok::Ident(w) = self.peek(0).clone() {
            if !(super::super::types::QUALIFIERS.contains(&w.as_str()) || w == "explicit") {
                break;
            }
            if w == "static" {
                is_static = true;
            }
            self.bump();
        }
        // `~P()` with statements: the member function DTOR ([`super::dtor`]).
        let is_dtor = self.eat("~");
        // `P::P(…)` defined after the struct: the constructor.
        if self.is_word(name)
            && matches!(self.peek(1), Tok::Punct("::"))
            && matches!(self.peek(2), Tok::Ident(w) if w == name)
        {
            self.bump();
            self.bump();
        }
        let is_ctor = !is_dtor && self.is_word(name) && matches!(self.peek(1), Tok::Punct("("));
        let mut returns_self = false;
        // `auto f() const { … }`: the type from `-> T` or the body's `return`s
        // ([dcl.spec.auto]/2-3), as for a free function ([`super::super::fn_types`]).
        let mut is_auto = false;
        // `operator T() const`: a conversion function, its type the result's ([class.conv.fct]).
        let conv = !is_ctor
            && self.is_word("operator")
            && !matches!(self.peek(1), Tok::Punct("("))
            && self.operator_id_at(0).is_none();
        // `float& at(int i)` (a scalar or vector by reference): the device function returns
        // a pointer to what `return` names, and a call is that pointer dereferenced, so
        // `acc.at(i) = v;` assigns the member ([dcl.ref]/1, [expr.call]/11: a call of a
        // function returning an lvalue reference is an lvalue).
        let mut ref_ret = false;
        let (mut ret, sret) = if is_ctor || is_dtor {
            self.bump();
            (Ty::Void, None)
        } else if conv {
            self.bump();
            while self.is_word("const") || self.is_word("volatile") {
                self.bump();
            }
            let base = self.base_type()?;
            (self.pointers(base)?.0, None)
        } else if self.is_word("auto") && !matches!(self.peek(1), Tok::Punct("&" | "*")) {
            self.bump();
            is_auto = true;
            (Ty::Void, None)
        } else if let Some(s) = self.struct_type()? {
            let own_ref = s == sname
                && self.is_punct("&")
                && (matches!(self.peek(1), Tok::Ident(w) if w == "operator")
                    || (matches!(self.peek(1), Tok::Ident(w) if w == name)
                        && matches!(self.peek(2), Tok::Punct("::"))
                        && matches!(self.peek(3), Tok::Ident(w) if w == "operator")));
            if own_ref {
                // `V& operator+=(…) { …; return *this; }`: changes the receiver in place.
                self.bump();
                returns_self = true;
                (Ty::Void, None)
            } else {
                if self.is_punct("&") || self.is_punct("*") {
                    return self.unsupported("member functions returning a reference or pointer to a struct are not supported; return the struct by value");
                }
                (Ty::Void, Some(s))
            }
        } else {
            let base = self.base_type()?;
            let (t, r) = self.pointers(base)?;
            ref_ret = r && matches!(t, Ty::Val(_));
            (t, None)
        };
        // `RET P::name(…)` defined after the struct.
        if !is_ctor && self.is_word(name) && matches!(self.peek(1), Tok::Punct("::")) {
            self.bump();
            self.bump();
        }
        let mname = if is_ctor {
            String::new()
        } else if is_dtor {
            super::dtor::DTOR.to_string()
        } else if conv {
            CONV.to_string()
        } else if let Some(r) = self.operator_id_at(0) {
            // `operator+`, `operator<`, … ([`super::super::operators`]): keyed per parameter
            // types.
            let (op, n) = r?;
            self.pos += n;
            let open = self.pos;
            let close = self.closing(open).unwrap_or(open);
            let toks = self.toks.get(open + 1..close).unwrap_or_default().to_vec();
            let sigs = self.param_sigs(&toks, &[]);
            self.member_operator_key(sname, &op, sigs, returns_self, at)?
        } else if self.is_word("operator") {
            self.bump();
            self.expect_punct("(")?;
            self.expect_punct(")")?;
            "operator()".to_string()
        } else {
            self.ident()?
        };
        // A named member function or `operator()` declared again with other parameter types:
        // an overload of its own, `NAME#N` ([`super::method_overload`]).
        let mname = if !is_ctor
            && !is_dtor
            && !conv
            && (mname == "operator()" || !mname.starts_with("operator"))
            // A member function template's instance is named by its template arguments
            // ([`super::super::method_templates`]).
            && !self
                .method_templates
                .contains_key(&format!("{sname}::{mname}"))
        {
            self.method_overload_name(sname, &mname, at)?
        } else {
            mname
        };
        // Named member functions and `operator()` only: other operators keep their own
        // lowering ([`super::super::operators`], [`super::subscript`]).
        let ref_ret = ref_ret
            && !is_ctor
            && !is_dtor
            && !conv
            && (mname == "operator()" || !mname.starts_with("operator"));
        let value_ty = ret;
        if let (true, Ty::Val(v)) = (ref_ret, ret) {
            ret = Ty::Ptr(v);
        }
        if self.declare_only
            && (is_ctor || is_dtor || conv || is_auto || mname.starts_with("operator"))
        {
            // Constructors, destructors, operators and deduced return types keep their
            // place: read once, in order.
            return self.skip_member_function();
        }
        let head_to = self.pos;
        self.expect_punct("(")?;
        let mut params = self.params()?;
        let tiles = std::mem::take(&mut self.tile_slots_now);
        let user_params = self.param_count_now;
        let copies = std::mem::take(&mut self.param_copies);
        let own = std::mem::take(&mut self.pending_svars);
        // The arity a call writes: a struct parameter counts once, not once per leaf.
        let arity =
            params.len() + own.len() - own.iter().map(|(_, sv)| sv.leaves.len()).sum::<usize>();
        // `int get() const`: a const member function ([`super::cv_overload`]).
        let mut is_const_fn = false;
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "noexcept" | "override" | "__device__" | "__host__"))
        {
            is_const_fn |= self.is_word("const");
            self.bump();
        }
        if is_auto {
            if let Some(t) = self.trailing_return()? {
                ret = t;
                is_auto = false;
            }
        }
        let (func, keys) = if is_ctor {
            (format!("{sname}::{name}/{}", params.len()), Vec::new())
        } else if is_dtor || conv || mname.starts_with("operator") {
            (format!("{sname}::{mname}"), vec![mname.clone()])
        } else {
            let def = self.structs.get(sname).cloned().unwrap_or_default();
            super::cv_overload::member_keys(&def, sname, &mname, is_const_fn)
        };
        // Tile parameters: each tile's meta pair as hidden trailing parameters
        // ([`super::super::cg_tile_meta`]); a constructor is chosen by its parameter count, so
        // its tiles keep the block-based pair.
        let mut hidden_defaults = Vec::new();
        if !is_ctor {
            let (hidden, defaults) = self.tile_meta_hidden(&func, tiles, user_params, at);
            params.extend(hidden);
            hidden_defaults = defaults;
        }
        if is_ctor {
            // Constructors are chosen by their parameter count here, so two of one count that
            // differ in types ([over.match.ctor] would rank them) cannot both be kept.
            let types: Vec<Ty> = params.iter().map(|p| p.ty).collect();
            if self.ctor_types.get(&func).is_some_and(|t| *t != types) {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{sname}` has two constructors of {} parameter(s) with different types: \
                         constructors are chosen by their parameter count here; give them \
                         different counts, or write a named function for one",
                        params.len()
                    ),
                ));
            }
            self.ctor_types.insert(func.clone(), types);
        }
        // Registered before the body: a member may call itself or be called by a later one.
        if let Some(def) = self.structs.get_mut(sname) {
            if is_ctor {
                def.ctors.push((arity, func.clone()));
            } else {
                // `static` is written on the declaration only. A base's member of this name is
                // hidden by this one ([class.member.lookup]/1), static or not.
                let was_static = def
                    .methods
                    .get(&mname)
                    .is_some_and(|m| m.is_static && m.inherited.is_none());
                is_static |= was_static;
                // A base's const overload is hidden with its name ([class.member.lookup]/1).
                let ckey = super::cv_overload::const_key(&mname);
                if def
                    .methods
                    .get(&ckey)
                    .is_some_and(|m| m.inherited.is_some())
                {
                    def.methods.remove(&ckey);
                }
                for k in &keys {
                    def.methods.insert(
                        k.clone(),
                        Method {
                            func: func.clone(),
                            is_static,
                            ret: sret.clone().map_or(Ret::Plain, Ret::Struct),
                            ty: value_ty,
                            inherited: None,
                            by_ref: ref_ret,
                        },
                    );
                }
            }
        }
        if is_ctor {
            self.note_ref_binds(sname, &func, &params, &own);
        }
        if self.eat(";") {
            // A declaration in the struct; the definition follows the struct
            // (`RET P::name(…) { … }`).
            return Ok(());
        }
        if self.declare_only {
            // Registered; the body is read in the second pass.
            return self.skip_member_function();
        }
        let mut init_list: Vec<(String, Vec<Expr>, Span)> = Vec::new();
        let mut scope = HashMap::new();
        for p in &params {
            scope.insert(p.name.clone(), p.ty);
        }
        // A by-value struct's array members: local arrays of the body ([`ParamCopy`]).
        for c in &copies {
            scope.insert(c.local.clone(), Ty::Ptr(c.elem));
        }
        self.scopes.push(scope);
        // Reference parameters to one value: their type is the referent's, for `auto` and
        // deduction ([dcl.ref]/1), as in a free function.
        let refs = params
            .iter()
            .filter(|p| p.reference && !self.param_dims.iter().any(|(n, _)| *n == p.name))
            .map(|p| p.name.clone())
            .collect();
        let outer_refs = std::mem::replace(&mut self.value_refs, refs);
        // Array parameters' bounds and dimensions (`T (&items)[N]`, `float t[][33]`), as a free
        // function notes them: a call in the body deduces `N` from `items` ([temp.deduct.call]/1).
        for (n, dims) in std::mem::take(&mut self.param_dims) {
            self.note_dims(&n, dims);
        }
        for (n, len) in std::mem::take(&mut self.param_bounds) {
            self.note_dims(&n, vec![len]);
        }
        let r = (|| -> PResult<Function> {
            for (n, sv) in own {
                let leaves = self.leaves(&sv.sname, at)?;
                self.declare_svar(&n, sv, &leaves);
            }
            let mut all_params = Vec::new();
            if let Some(s) = &sret {
                all_params.extend(self.ret_params(s, at)?);
            }
            if !is_static {
                let leaves = self.leaves(sname, at)?;
                let names: Vec<String> =
                    leaves.iter().map(|l| format!("this.{}", l.path)).collect();
                for (l, n) in leaves.iter().zip(&names) {
                    // An array member: a pointer to the receiver's own elements.
                    let (ty, reference) = match l.ty {
                        Ty::Val(v) if l.count > 0 => (Ty::Ptr(v), false),
                        t => (t, true),
                    };
                    all_params.push(Param {
                        name: n.clone(),
                        ty,
                        reference,
                        const_ref: false,
                        span: at,
                    });
                }
                let sv = SVar {
                    sname: sname.to_string(),
                    kind: SKind::Plain,
                    leaves: names,
                };
                self.declare_svar("this", sv, &leaves);
            }
            all_params.extend(params.iter().cloned());
            if is_ctor && self.eat(":") {
                loop {
                    let m_at = self.span();
                    let m = self.ident()?;
                    let close = if self.eat("(") {
                        ")"
                    } else {
                        self.expect_punct("{")?;
                        "}"
                    };
                    let args = self.args_closed_by(close)?;
                    init_list.push((m, args, m_at));
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            if !self.is_punct("{") {
                return self.err("`{` to start the member function's body");
            }
            let saved_ret = std::mem::replace(&mut self.ret_struct, sret.clone());
            let saved_this = std::mem::replace(&mut self.ret_this, returns_self);
            let saved_addr = std::mem::replace(&mut self.ret_addr, ref_ret);
            let auto_ret = std::mem::replace(&mut self.auto_ret, is_auto.then_some(None));
            // The body's const names: its const parameters, and `this` in a const member
            // function ([class.this]/1: `*this` is const there), for [`super::cv_overload`].
            let mut consts = std::mem::take(&mut self.param_consts);
            if is_const_fn {
                consts.insert("this".to_string());
            }
            let outer_consts = std::mem::replace(&mut self.const_names, consts);
            let fn_shown = if is_ctor {
                name.to_string()
            } else {
                mname.clone()
            };
            let outer_fn = self
                .func_now
                .replace(super::super::scopes::func_name(&fn_shown));
            let body = self.own_destructibles(|p| p.stmt());
            self.func_now = outer_fn;
            self.const_names = outer_consts;
            let deduced = std::mem::replace(&mut self.auto_ret, auto_ret);
            self.ret_struct = saved_ret;
            self.ret_this = saved_this;
            self.ret_addr = saved_addr;
            let mut body = body?;
            if is_auto {
                ret = self.auto_return_type(&func, deduced.flatten())?;
                if let Some(d) = self.structs.get_mut(sname) {
                    for k in &keys {
                        if let Some(m) = d.methods.get_mut(k) {
                            m.ty = ret;
                        }
                    }
                }
            }
            if is_ctor {
                // The initializer list, then the default member initializers of the members it
                // does not name, run before the body ([class.base.init]).
                let def = self.structs.get(sname).cloned().unwrap_or_default();
                let mut first = Vec::new();
                for f in &def.fields {
                    let given = init_list.iter().find(|(m, _, _)| *m == f.name);
                    if f.by_ref {
                        // Bound where the object is constructed ([`super::ref_members`]).
                        continue;
                    }
                    let (value, sp) = match given {
                        Some((_, args, sp)) => match &f.ty {
                            FieldTy::Struct(inner) => (
                                Expr::new(ExprKind::Call(inner.clone(), args.clone()), *sp),
                                *sp,
                            ),
                            _ => (args.first().cloned().unwrap_or_else(|| zero(*sp)), *sp),
                        },
                        None => match &f.default {
                            Some(d) => (d.clone(), at),
                            None => continue,
                        },
                    };
                    let target = Expr::new(
                        ExprKind::Member(Box::new(ident("this", sp)), f.name.clone()),
                        sp,
                    );
                    let assign = Expr::new(
                        ExprKind::Assign(None, Box::new(target), Box::new(value)),
                        sp,
                    );
                    let mark = self.pre.len();
                    let e = self.lower_struct(assign)?;
                    first.extend(self.pre.drain(mark..));
                    first.push(Stmt {
                        kind: StmtKind::Expr(e),
                        span: sp,
                        end: sp,
                    });
                }
                // A union's member that views the held one's bytes (`union U { float f;
                // uint32_t u; U(uint32_t x) : u(x) {} }`): initialized as `this.u = x`, which
                // writes the held member's bytes ([class.union]/2).
                for (m, args, sp) in &init_list {
                    if def.fields.iter().any(|f| f.name == *m)
                        || self.view_of_struct(sname, m).is_none()
                    {
                        continue;
                    }
                    let value = args.first().cloned().unwrap_or_else(|| zero(*sp));
                    let target = Expr::new(
                        ExprKind::Member(Box::new(ident("this", *sp)), m.clone()),
                        *sp,
                    );
                    let assign = Expr::new(
                        ExprKind::Assign(None, Box::new(target), Box::new(value)),
                        *sp,
                    );
                    let mark = self.pre.len();
                    let e = self.lower_struct(assign)?;
                    first.extend(self.pre.drain(mark..));
                    first.push(Stmt {
                        kind: StmtKind::Expr(e),
                        span: *sp,
                        end: *sp,
                    });
                }
                if let Some((m, _, sp)) = init_list.iter().find(|(m, _, _)| {
                    !def.fields.iter().any(|f| f.name == *m)
                        && self.view_of_struct(sname, m).is_none()
                }) {
                    return Err(KernelError::new(
                        sp.line,
                        sp.col,
                        format!("`{sname}` has no member `{m}` to initialize"),
                    ));
                }
                if !first.is_empty() {
                    let (span, end) = (body.span, body.end);
                    first.push(body);
                    body = Stmt {
                        kind: StmtKind::Block(first),
                        span,
                        end,
                    };
                }
            }
            // By-value parameters' array copies first, before an initializer list reads them.
            let body = self.with_param_copies(copies, body)?;
            Ok(Function {
                name: func.clone(),
                entry: false,
                ret,
                params: all_params,
                body,
                launch_bounds: None,
                vf_call_dim: None,
                span: at,
                snippet: false,
                defaults: hidden_defaults,
                empty_params: Vec::new(),
            })
        })();
        self.scopes.pop();
        self.value_refs = outer_refs;
        let f = r?;
        // A `constexpr` conversion function of a class without non-static data members
        // (`integral_constant`'s `operator T()`): its call is a constant expression
        // ([expr.const]/2), so an object of the class converts to a template argument
        // (`twice<i>()` with `i` a `Number<2>`; [`Parser::fold_int`]).
        if conv && f.params.is_empty() {
            let has = self.toks[head_from..head_to]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "constexpr"));
            if has {
                self.record_constexpr(head_from, head_to, &f);
            }
        }
        self.extra_fns.push(f);
        Ok(())
    }
}

/// The name given to a struct defined without one at `at`: not an identifier a source can
/// write (`@`), so it never meets a name of the source.
pub(crate) fn anon_struct_name(at: Span) -> String {
    format!("struct@{}:{}", at.line, at.col)
}

impl Parser<'_> {
    /// A destructor declaration `~S()` of struct `name` (after any `__device__`/`inline`
    /// qualifiers), if one starts here: read and dropped when it does nothing. A destructor
    /// whose body is empty, or one declared `= default` (or only declared), is trivial
    /// ([class.dtor]/6: an implicitly-defined or defaulted destructor of a class whose members
    /// have trivial destructors does nothing), so the object's lifetime ends with nothing run
    /// ([basic.life]/1). `true` when one was read.
    ///
    /// A destructor with statements in its class (`methods` given: the class's member
    /// functions to parse) is one of them, named [`super::dtor::DTOR`]: each block-scope object
    /// of the class runs it where its block ends ([`super::dtor`]).
    ///
    /// # Errors
    /// A destructor with statements defined outside its class (`S::~S() { … }`); a `virtual`
    /// destructor (no dynamic dispatch here).
    pub(super) fn destructor(
        &mut self,
        name: &str,
        methods: Option<&mut Vec<usize>>,
    ) -> PResult<bool> {
        let start = self.pos;
        let mut k = 0;
        while matches!(self.peek(k), Tok::Ident(w) if super::super::types::QUALIFIERS.contains(&w.as_str()) || w == "virtual")
        {
            k += 1;
        }
        if !matches!(self.peek(k), Tok::Punct("~")) {
            return Ok(false);
        }
        if (0..k).any(|j| matches!(self.peek(j), Tok::Ident(w) if w == "virtual")) {
            return self.unsupported(
                "a virtual destructor is not supported (no dynamic dispatch here); remove \
                 `virtual`",
            );
        }
        self.pos += k + 1;
        let at = self.span();
        if !self.is_word(name) {
            return self.err(&format!("`{name}` after `~` (the destructor's name)"));
        }
        self.bump();
        self.expect_punct("(")?;
        if self.is_word("void") {
            self.bump();
        }
        self.expect_punct(")")?;
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "noexcept" | "override" | "__device__" | "__host__"))
        {
            self.bump();
            if self.is_punct("(") {
                let close = self.closing(self.pos).unwrap_or(self.pos);
                self.pos = close + 1;
            }
        }
        if self.eat(";") {
            return Ok(true);
        }
        if self.eat("=") {
            if !(self.is_word("default") || self.is_word("delete")) {
                return self.err("`default` or `delete` after `~S() =`");
            }
            self.bump();
            self.expect_punct(";")?;
            return Ok(true);
        }
        if !self.is_punct("{") {
            return self.err("the destructor's body `{ … }`");
        }
        let close = self
            .closing(self.pos)
            .ok_or_else(|| KernelError::new(at.line, at.col, "`{` never closed"))?;
        let empty = self.toks[self.pos + 1..close]
            .iter()
            .all(|t| matches!(t.tok, Tok::Punct(";")));
        if !empty {
            let Some(methods) = methods else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "a destructor with statements defined outside its class (`{name}::~{name}() \
                         {{ … }}`) is not supported: define it inside the class"
                    ),
                ));
            };
            methods.push(start);
        }
        self.pos = close + 1;
        self.eat(";");
        Ok(true)
    }
}
