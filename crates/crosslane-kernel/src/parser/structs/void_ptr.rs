//! `const void * vx` parameters that the function casts to a struct pointer (`const
//! block_q8_0 * x = (const block_q8_0 *) vx;`, the shape of ggml's dequantize and vec_dot
//! functions): the parameter is read as that struct pointer, one buffer per member, and the
//! cast keeps the struct. A cast to a struct pointer is `@scast:S` around its operand until
//! the struct lowering reads it.
//!
//! Source: ISO C++ [expr.static.cast]/13 (a `void*` converted to `T*` points at the object
//! it pointed at) and [expr.reinterpret.cast]/7; the memory the pointer points at is the
//! struct's, so its members are the struct's buffers.

use super::*;

/// The prefix of a struct pointer cast's marker call (`@scast:block_q8_0`).
pub(crate) const SCAST: &str = "@scast:";

/// How many `void*` locals a chain of `const void * b = a;` copies is followed through when a
/// parameter's struct is looked for (each one scans the body once more).
const VOID_ALIAS_DEPTH: usize = 4;

impl Parser<'_> {
    /// The struct that the body starting after the parameter list casts the `void*`
    /// parameter `name` to: `(const S *) name`, `reinterpret_cast<const S *>(name)` or
    /// `static_cast<…>(name)`. `None` when the body has no such cast.
    ///
    /// # Errors
    /// Casts of one parameter to two different structs.
    pub(crate) fn void_param_struct(&self, name: &str) -> PResult<Option<String>> {
        let Some((k, end)) = self.body_after_params() else {
            return Ok(None);
        };
        self.void_struct_in(name, k, end, 0)
    }

    /// [`Self::void_param_struct`] over the body tokens `k..end`; `depth` counts the `void*`
    /// locals followed so far (`const void * row = vx;` then `f(row, …)`: `row` points where
    /// `vx` does, [dcl.init]/17.6.3), at most [`VOID_ALIAS_DEPTH`] deep.
    fn void_struct_in(
        &self,
        name: &str,
        k: usize,
        end: usize,
        depth: usize,
    ) -> PResult<Option<String>> {
        let word = |j: usize| match self.toks.get(j).map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        };
        let punct = |j: usize, p: &str| matches!(self.toks.get(j).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
        let mut found: Option<(String, usize)> = None;
        // One copy followed per level, so a body with many copies is scanned at most
        // `VOID_ALIAS_DEPTH` more times.
        let mut followed = false;
        for j in k..end {
            // `[const] void * X = name;`: `X` is read as whatever `name` is.
            if !followed && depth < VOID_ALIAS_DEPTH && word(j) == Some("void") {
                let mut i = j + 1;
                while punct(i, "*")
                    || matches!(word(i), Some("const" | "__restrict__" | "__restrict"))
                {
                    i += 1;
                }
                if let (Some(x), true) = (word(i), i > j + 1) {
                    if punct(i + 1, "=") && word(i + 2) == Some(name) && punct(i + 3, ";") {
                        followed = true;
                        if let Some(s) = self.void_struct_in(x, i + 4, end, depth + 1)? {
                            if found.is_none() {
                                found = Some((s, j));
                            }
                        }
                    }
                }
            }
            // `f(…, name, …)` where `f` reads that parameter as a struct pointer.
            if let (Some(f), true) = (word(j), punct(j + 1, "(")) {
                if let Some(list) = self.void_params.get(f) {
                    if let Some(s) = self.arg_struct(j + 1, name, list) {
                        match &found {
                            Some((g, _)) if *g != s => {}
                            Some(_) => {}
                            None => found = Some((s, j)),
                        }
                    }
                }
            }
            // `(` or `<`, then `[const] S [const] *`, then `)` or `>`.
            let (open, close) = if punct(j, "(") {
                ("(", ")")
            } else if punct(j, "<")
                && matches!(
                    word(j.wrapping_sub(1)),
                    Some("reinterpret_cast" | "static_cast")
                )
            {
                ("<", ">")
            } else {
                continue;
            };
            let _ = open;
            let mut i = j + 1;
            if word(i) == Some("const") {
                i += 1;
            }
            let Some(s) = word(i).filter(|w| self.is_struct_name(w)) else {
                continue;
            };
            i += 1;
            if word(i) == Some("const") {
                i += 1;
            }
            if !punct(i, "*") || !punct(i + 1, close) {
                continue;
            }
            i += 2;
            if close == ">" {
                if !punct(i, "(") {
                    continue;
                }
                i += 1;
            }
            if word(i) != Some(name) {
                continue;
            }
            let s = self
                .struct_alias
                .get(s)
                .cloned()
                .unwrap_or_else(|| s.to_string());
            match &found {
                Some((f, at)) if *f != s => {
                    let t = &self.toks[*at];
                    return Err(KernelError::new(
                        t.line,
                        t.col,
                        format!(
                            "`{name}` is cast to `{f}*` here and to `{s}*` later: a `void*` \
                             parameter is read as one struct type; give the function one \
                             `void*` parameter per block type"
                        ),
                    ));
                }
                Some(_) => {}
                None => found = Some((s, j)),
            }
        }
        Ok(found.map(|(s, _)| s))
    }

    /// At `void` of a local `const void * row = p;` whose initializer is a struct pointer (a
    /// `const void*` parameter read as one, a struct pointer, `(const S *) q + i`): that
    /// struct, with the position after `void`, so the declaration reads as `const S * row =
    /// p;` ([expr.static.cast]/13: the `void*` points at the same object, and a later cast
    /// back, or a call passing `row` on, reads it as that struct). `None`, position kept,
    /// otherwise.
    ///
    /// # Errors
    /// None: an initializer that does not read here is left to the declaration's own reading,
    /// which reports it.
    pub(crate) fn void_local_struct(&mut self) -> PResult<Option<String>> {
        if !self.is_word("void") {
            return Ok(None);
        }
        let save = self.pos;
        let mut j = 1;
        while matches!(self.peek(j), Tok::Punct("*"))
            || matches!(self.peek(j), Tok::Ident(w) if matches!(w.as_str(), "const" | "__restrict__" | "__restrict"))
        {
            j += 1;
        }
        if j == 1
            || !matches!(self.peek(j), Tok::Ident(_))
            || !matches!(self.peek(j + 1), Tok::Punct("="))
        {
            return Ok(None);
        }
        self.pos += j + 2;
        // A look ahead: whatever reading the initializer queued is dropped with it (the
        // declaration reads it again).
        let queued = self.pre.len();
        let found = match self.assign_expr() {
            Ok(init) if self.is_punct(";") => self.many_leaves(&init).ok().flatten(),
            _ => None,
        };
        self.pre.truncate(queued);
        self.pos = save;
        match found {
            Some((s, _)) => {
                self.bump();
                Ok(Some(s))
            }
            None => Ok(None),
        }
    }

    /// A call to `name` passing, for a `const void*` parameter the callee reads as a struct
    /// pointer, something that is no pointer to that struct: refused here, naming the
    /// parameter, since the callee takes one buffer per member in its place (left to the
    /// call, the count of those buffers would be reported as the function's arity).
    ///
    /// # Errors
    /// Such an argument, with what to pass instead.
    pub(crate) fn check_void_args(&mut self, name: &str, args: &[Expr]) -> PResult<()> {
        let Some(list) = self.void_params.get(name).cloned() else {
            return Ok(());
        };
        for (index, s) in list {
            let Some(a) = args.get(index) else {
                continue;
            };
            let cast = matches!(&a.kind, ExprKind::Call(n, _) if n.starts_with(SCAST));
            let is_struct = if cast || matches!(a.kind, ExprKind::AddrOf(_)) {
                self.many_leaves(a)?.is_some() || self.leaves_of(a, None)?.is_some()
            } else {
                self.leaves_of(a, None)?.is_some()
            };
            if !is_struct {
                return Err(KernelError::new(
                    a.span.line,
                    a.span.col,
                    format!(
                        "argument {} of `{name}` is its `const void*` parameter, which `{name}` \
                         reads as a `{s}*`: pass a `{s}` pointer there (the kernel's `const \
                         void*` block parameter itself, a `const void*` local copied from it, \
                         or `(const {s} *) vx + i`); a `void*` made by byte arithmetic \
                         (`(const char *) vx + offset`) is not read as `{s}` blocks",
                        index + 1
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The token range of the body that starts after the parameter list being read: its
    /// `{` and its closing `}` (`None` for a declaration without a body).
    fn body_after_params(&self) -> Option<(usize, usize)> {
        let mut k = self.pos;
        let mut depth = 0usize;
        while let Some(t) = self.toks.get(k) {
            match &t.tok {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") if depth == 0 => break,
                Tok::Punct(")") => depth -= 1,
                Tok::Eof => return None,
                _ => {}
            }
            k += 1;
        }
        while let Some(t) = self.toks.get(k) {
            match &t.tok {
                Tok::Punct("{") => break,
                Tok::Punct(";") | Tok::Eof => return None,
                _ => k += 1,
            }
        }
        Some((k, self.closing(k)?))
    }

    /// The value type a `void*` parameter `name` is read as, when every use of `name` in the
    /// body after the parameter list is the operand of a cast to a pointer to that one type
    /// (`(const float *) vx`, `reinterpret_cast<const half *>(vx)`, `static_cast<…>(vx)`):
    /// its cells then show and fill as that type, as the memory the cast reads holds it
    /// ([expr.static.cast]/13: the converted pointer points at the same object). `None` when
    /// a use is anything else, casts go to two types, or the type is a byte (`char`: the
    /// cells stay the default view, read as bytes).
    pub(crate) fn void_param_cells(&self, name: &str) -> Option<ValTy> {
        let (k, end) = self.body_after_params()?;
        let word = |j: usize| match self.toks.get(j).map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        };
        let punct = |j: usize, p: &str| matches!(self.toks.get(j).map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
        let mut found: Option<ValTy> = None;
        for j in k..end {
            if word(j) != Some(name)
                || punct(j.wrapping_sub(1), ".")
                || punct(j.wrapping_sub(1), "->")
            {
                continue;
            }
            // Back from the use: `(` of a named cast, or `)` closing a C cast.
            let (mut i, close) = if punct(j.wrapping_sub(1), ")") {
                (j.wrapping_sub(2), "(")
            } else if punct(j.wrapping_sub(1), "(") && punct(j.wrapping_sub(2), ">") {
                (j.wrapping_sub(3), "<")
            } else {
                return None;
            };
            while matches!(
                word(i),
                Some("const" | "volatile" | "__restrict__" | "__restrict")
            ) {
                i = i.wrapping_sub(1);
            }
            if !punct(i, "*") {
                return None;
            }
            i = i.wrapping_sub(1);
            while word(i) == Some("const") {
                i = i.wrapping_sub(1);
            }
            let t = word(i)?;
            let v = super::super::types::word_type(t).or_else(|| self.aliases.get(t).copied())?;
            i = i.wrapping_sub(1);
            while word(i) == Some("const") {
                i = i.wrapping_sub(1);
            }
            if !punct(i, close) {
                return None;
            }
            if close == "<"
                && !matches!(
                    word(i.wrapping_sub(1)),
                    Some("reinterpret_cast" | "static_cast")
                )
            {
                return None;
            }
            match found {
                Some(f) if f != v => return None,
                _ => found = Some(v),
            }
        }
        // A cast to a byte pointer (`(const char *) src + i * nb01`, ggml's row strides)
        // addresses bytes of whatever the buffer holds: the cells stay the default view.
        found.filter(|v| v.scalar.bits() > 8)
    }

    /// The struct that a call's argument list (opening at token `open`) passes `name` as:
    /// `name` alone as argument `i`, where `list` reads parameter `i` as that struct's pointer.
    fn arg_struct(&self, open: usize, name: &str, list: &[(usize, String)]) -> Option<String> {
        let close = self.closing(open)?;
        let mut index = 0usize;
        let mut depth = 0usize;
        let mut start = open + 1;
        for j in open + 1..=close {
            match &self.toks.get(j)?.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") if j < close => depth = depth.saturating_sub(1),
                Tok::Punct(",") if depth == 0 => {}
                _ if j == close => {}
                _ => continue,
            }
            if depth > 0 || !(j == close || matches!(self.toks.get(j)?.tok, Tok::Punct(","))) {
                continue;
            }
            if j == start + 1 && matches!(&self.toks.get(start)?.tok, Tok::Ident(w) if w == name) {
                if let Some((_, s)) = list.iter().find(|(i, _)| *i == index) {
                    return Some(s.clone());
                }
            }
            index += 1;
            start = j + 1;
        }
        None
    }

    /// After `(` of a cast whose type is a struct pointer (`(const S *) e`), if one starts
    /// here: the marker call around the operand. The position is kept otherwise.
    pub(crate) fn struct_ptr_cast(&mut self) -> PResult<Option<Expr>> {
        let save = self.pos;
        let at = self.span();
        if !self.eat("(") {
            return Ok(None);
        }
        self.eat_word("const");
        let Some(s) = self.struct_type()? else {
            self.pos = save;
            return Ok(None);
        };
        self.eat_word("const");
        if !self.eat("*") || !self.eat(")") {
            self.pos = save;
            return Ok(None);
        }
        let e = self.unary()?;
        self.node(ExprKind::Call(format!("{SCAST}{s}"), vec![e]), at)
            .map(Some)
    }

    /// `reinterpret_cast<const S *>(e)` / `static_cast<…>(e)` after the keyword, when `S` is
    /// a struct: the marker call. The position is kept otherwise.
    pub(crate) fn struct_ptr_named_cast(&mut self) -> PResult<Option<ExprKind>> {
        let save = self.pos;
        if !self.eat("<") {
            return Ok(None);
        }
        self.eat_word("const");
        let Some(s) = self.struct_type()? else {
            self.pos = save;
            return Ok(None);
        };
        self.eat_word("const");
        if !self.eat("*") || !self.eat(">") {
            self.pos = save;
            return Ok(None);
        }
        self.expect_punct("(")?;
        let e = self.expr()?;
        self.expect_punct(")")?;
        Ok(Some(ExprKind::Call(format!("{SCAST}{s}"), vec![e])))
    }

    /// The struct pointer a cast marker stands for: its operand's leaves, when the operand
    /// points at the same struct.
    pub(super) fn cast_leaves(
        &mut self,
        s: &str,
        inner: &Expr,
        span: Span,
    ) -> PResult<Option<(String, Leaves)>> {
        match self.many_leaves(inner)? {
            Some((is, l)) if is == s => Ok(Some((is, l))),
            Some((is, l)) => match self.renamed_view_leaves(s, &is, l, span)? {
                // Layout-compatible ([`super::layout_view`]): member k is member k.
                Some(v) => Ok(Some(v)),
                None => Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "a cast from `{is}*` to `{s}*` reinterprets one struct type as another \
                         that is not layout-compatible with it (the same scalar type in every \
                         member, no padding, [class.mem]/22), which is not modelled: use the \
                         `{is}*` itself"
                    ),
                )),
            },
            None => match self.array_view_leaves(s, inner, span)? {
                Some(l) => Ok(Some(l)),
                None => self.layout_view_or_refuse(s, inner, span),
            },
        }
    }

    /// [`Self::layout_view_leaves`], or the error naming the pointers a cast to `s*` takes.
    fn layout_view_or_refuse(
        &mut self,
        s: &str,
        inner: &Expr,
        span: Span,
    ) -> PResult<Option<(String, Leaves)>> {
        match self.layout_view_leaves(s, inner, span)? {
            Some(l) => Ok(Some(l)),
            None => Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "a cast to `{s}*` needs a `{s}*`, a `void*` parameter that the function \
                         casts to `{s}*` (its buffers are `NAME.member`), or, for a struct of \
                         one array member (`T data[N]`), a `T*` or a `T` array, or, for a \
                         struct of N members of one scalar type `T` without padding, a `T*`, \
                         a pointer to a vector of `T` (`float4*`) or a byte pointer \
                         (`uint8_t*`, `int8_t*`, `char*`: the bytes read as `T`); `{s}` and \
                         this pointer are none of these (their layouts are not compatible; a \
                         struct of mixed member types over bytes is not modelled: view each \
                         member through its own pointer, `reinterpret_cast<T*>(bytes + off)`)"
                ),
            )),
        }
    }

    /// A struct of one array member `T data[N]` (or one `T`) viewed over `T` cells: `inner`, a
    /// `T*` or `&arr` of a `T` array, is that member's pointer, element `i`'s `data[j]` cell
    /// `i * N + j` past it, as the struct's layout puts it (C++17 [class.mem]/19-20: the first
    /// member is at the struct's address, array elements contiguous [dcl.array]/1). The shape
    /// of vectorized loads (`reinterpret_cast<AlignedArray<float, 4>*>(p)`,
    /// `reinterpret_cast<AccessType*>(&row_chunk)`): a struct copy through the pointer reads
    /// or writes those cells. `None` for any other struct or pointee type.
    fn array_view_leaves(
        &mut self,
        s: &str,
        inner: &Expr,
        span: Span,
    ) -> PResult<Option<(String, Leaves)>> {
        let leaves = self.leaves(s, span)?;
        let [leaf] = leaves.as_slice() else {
            return Ok(None);
        };
        let Ty::Val(elem) = leaf.ty else {
            return Ok(None);
        };
        if leaf.by_ref {
            return Ok(None);
        }
        let pointee = match &inner.kind {
            ExprKind::AddrOf(a) => match &a.kind {
                ExprKind::Ident(n) => match self.var_type(n) {
                    Some(Ty::Ptr(v)) => Some(v),
                    _ => None,
                },
                _ => self.pointee_type(inner),
            },
            _ => self.pointee_type(inner),
        };
        if pointee != Some(elem) {
            return Ok(None);
        }
        let inner = self.lower_struct(inner.clone())?;
        Ok(Some((s.to_string(), vec![(leaf.path.clone(), inner)])))
    }
}
