//! `__constant__` data of a struct type (`__constant__ Params c_params;`, `__constant__ Coef
//! c_coefs[4];`) that host code sets by `cudaMemcpyToSymbol(c_params, &h, sizeof(Params))`
//! (HIP: `hipMemcpyToSymbol(HIP_SYMBOL(c_params), …)`). Each member becomes a `__constant__`
//! table of its own, `c_params.n` (one cell per element of the array), device code's
//! `c_params.n` and `c_coefs[i].a` read its cells, and a host copy of a struct (or of an array
//! of structs) gives each table the member's values host code set.

use super::host::SymbolCopy;
use super::structs::FieldTy;
use super::*;

/// A `__constant__` variable of a struct type: its members' names and whether it is an array.
#[derive(Clone, Debug)]
pub(super) struct ConstStruct {
    /// The members, in declaration order, each a table `name.member`.
    pub(super) fields: Vec<String>,
    /// Whether declared as an array (`c_coefs[4]`), read as `c_coefs[i].a`.
    pub(super) array: bool,
}

impl Parser<'_> {
    /// `__constant__ S name;` or `__constant__ S name[N];` of a struct `S` whose members are
    /// all scalars or vectors, at the current token: one [`ConstTable`] per member, none
    /// initialized (host code's `cudaMemcpyToSymbol` fills them, else they are zero as static
    /// storage starts, C++17 [basic.start.static]/2). `None` (position restored) when no such
    /// declaration starts here.
    ///
    /// # Errors
    /// A struct with a member of another kind (a pointer, an array, a nested struct), an
    /// initializer, or a size that is no constant: refused, saying what to write.
    pub(super) fn const_struct_tables(&mut self) -> PResult<Option<Vec<ConstTable>>> {
        let save = self.pos;
        let at = self.span();
        let mut constant = false;
        while let Tok::Ident(w) = self.peek(0) {
            match w.as_str() {
                "__constant__" => constant = true,
                "const" | "static" => {}
                _ => break,
            }
            self.bump();
        }
        self.eat_word("struct");
        let (Tok::Ident(sname), Tok::Ident(name)) = (self.peek(0).clone(), self.peek(1).clone())
        else {
            self.pos = save;
            return Ok(None);
        };
        let Some(def) = self.structs.get(&sname).filter(|_| constant) else {
            self.pos = save;
            return Ok(None);
        };
        let fields = def.fields.clone();
        self.bump();
        self.bump();
        let refuse = |why: String| -> PResult<Option<Vec<ConstTable>>> {
            Err(KernelError::new(at.line, at.col, why))
        };
        let len = if self.eat("[") {
            let e = self.assign_expr()?;
            self.expect_punct("]")?;
            match const_eval(&e, &HashMap::new())
                .and_then(|v| v.int())
                .and_then(|n| usize::try_from(n).ok())
                .filter(|&n| n >= 1)
            {
                Some(n) => Some(n),
                None => return self.err("a constant size for the `__constant__` array"),
            }
        } else {
            None
        };
        if !self.is_punct(";") {
            return refuse(format!(
                "`__constant__ {sname} {name}` is read without an initializer only, set by \
                 host code's cudaMemcpyToSymbol: drop the initializer and copy the values \
                 from host code, or pass the struct as a kernel parameter"
            ));
        }
        self.bump();
        let mut tables = Vec::new();
        let mut names = Vec::new();
        for f in &fields {
            let FieldTy::Val(elem) = f.ty else {
                return refuse(format!(
                    "`__constant__ {sname} {name}`: member `{}` is no scalar or vector; a \
                     `__constant__` struct is read when every member is one: pass the struct \
                     as a kernel parameter instead",
                    f.name
                ));
            };
            let table = format!("{name}.{}", f.name);
            let cells = len.unwrap_or(1);
            let bytes = u64::from(elem.scalar.bits().div_ceil(8))
                * u64::from(elem.lanes.max(1))
                * cells as u64;
            if bytes > 65_536 {
                return refuse(format!(
                    "`__constant__ {sname} {name}` needs more than 64 KB of constant memory \
                     (65536 bytes): pass it as a kernel parameter (a pointer)"
                ));
            }
            names.push(f.name.clone());
            tables.push(ConstTable {
                name: table,
                elem,
                len: cells,
                initial: Vec::new(),
                values: Vec::new(),
                copied_unread: false,
                span: at,
                device: false,
                scalar: false,
                copies: Vec::new(),
            });
        }
        self.const_structs.insert(
            name,
            ConstStruct {
                fields: names,
                array: len.is_some(),
            },
        );
        Ok(Some(tables))
    }

    /// Device code's `c.n` (`base` the variable `c`) of a `__constant__` struct: its table's
    /// one cell, `c.n[0]`; `c[i].n` (`base` is `c[i]`): the table's cell `c.n[i]`. `None` for
    /// any other member access.
    pub(super) fn const_struct_member(
        &mut self,
        base: &Expr,
        field: &str,
        span: Span,
    ) -> PResult<Option<Expr>> {
        let (name, index) = match &base.kind {
            ExprKind::Ident(n) => (n, None),
            ExprKind::Index(b, i) => match &b.kind {
                ExprKind::Ident(n) => (n, Some((**i).clone())),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let Some(c) = self.const_structs.get(name) else {
            return Ok(None);
        };
        // A local of the same name hides the file-scope variable.
        if self.var_type(name).is_some() || c.array != index.is_some() {
            return Ok(None);
        }
        if !c.fields.iter().any(|f| f == field) {
            return Ok(None);
        }
        let table = self.node(ExprKind::Ident(format!("{name}.{field}")), span)?;
        let index = match index {
            Some(i) => i,
            None => self.e_int(span, 0),
        };
        Ok(Some(self.node(
            ExprKind::Index(Box::new(table), Box::new(index)),
            span,
        )?))
    }

    /// `cudaMemcpyToSymbol` copies of a whole `__constant__` struct (or array of structs),
    /// made one copy per member table: `c.n` gets host struct `h`'s member `n` (`h.n = 6;`,
    /// kept as `h.n`), or of an array `h` of structs the cells its fill gave `h[i].n` (kept as
    /// `h.n`). A member host code did not set gives a copy of unread data: undefined.
    pub(super) fn split_struct_copies(&self, copies: Vec<SymbolCopy>) -> Vec<SymbolCopy> {
        let mut out = Vec::with_capacity(copies.len());
        for c in copies {
            let Some(s) = self.const_structs.get(&c.symbol) else {
                out.push(c);
                continue;
            };
            for f in &s.fields {
                let data = c
                    .members
                    .iter()
                    .find(|(m, _)| m == f)
                    .map(|(_, v)| (v.clone(), format!("{}.{f}", c.source), c.line));
                out.push(SymbolCopy {
                    symbol: format!("{}.{f}", c.symbol),
                    data,
                    line: c.line,
                    at: c.at,
                    source: c.source.clone(),
                    members: Vec::new(),
                    // Each member's table from its first cell, as the struct's copy is read.
                    range: None,
                    range_unread: false,
                });
            }
        }
        out
    }
}
