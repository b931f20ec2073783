//! Named CUB collective objects: `WarpScan ws(temp_storage);` (or `BlockReduce br{temp};`) and
//! later calls of their methods, `ws.InclusiveSum(x, out)`, `br.Sum(x)`. CUB API, the
//! collective classes: the constructor takes the `TempStorage` reference the object keeps, and
//! each method runs the collective on it, so a named object's call is the temporary's call
//! `WarpScan(temp_storage).InclusiveSum(x, out)` (the class's own reading, [`super::cub`]).
//! The object is recorded at its declaration with its class alias and storage expression; a
//! method call hands the storage to the class's call in place of its `(storage).`.
//!
//! Such an object given to a function template (`template <typename ScanTy, typename T> T
//! Scan1(ScanTy& s, T x) { T out; s.InclusiveSum(x, out); return out; }` called
//! `Scan1<WarpScan, int>(ws, x)` or `Scan1(ws, x)`) binds the type parameter to the class
//! (C++17 [temp.deduct.call]/3: `ScanTy&` given the object deduces its class), and the
//! parameter names the same object in the instance. The warp classes keep nothing in their
//! storage here (CUB's shuffle variants), so the instance's object is the class on its own
//! name, and the parameter and the argument are dropped; a block class's object, whose
//! storage is the caller's `__shared__` variable, is refused at the call.

use super::cub::Kind;
use super::targs::{TArg, TParam};
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span, StmtKind};
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// Named collective objects an instance's parameters name: name → (class alias, storage).
type Objects = Vec<(String, (String, Expr))>;

impl Parser<'_> {
    /// `R name(storage);` / `R name{storage};` of a CUB class alias `R` (the position at `R`):
    /// the object recorded, an empty statement. `None` (position kept) for another shape.
    ///
    /// # Errors
    /// A malformed storage expression or a missing `)` / `}` / `;`.
    pub(super) fn cub_object_decl(&mut self) -> PResult<Option<StmtKind>> {
        let save = self.pos;
        let (Tok::Ident(class), Tok::Ident(name)) = (self.peek(0).clone(), self.peek(1).clone())
        else {
            return Ok(None);
        };
        let close = match self.peek(2) {
            Tok::Punct("(") => ")",
            Tok::Punct("{") => "}",
            _ => return Ok(None),
        };
        if !self.cub.contains_key(&class) {
            return Ok(None);
        }
        self.bump();
        self.bump();
        self.bump();
        if self.is_punct(close) {
            // `R name();` is a function declaration ([dcl.ambig.res]); `R name{}` has no storage.
            self.pos = save;
            return Ok(None);
        }
        let storage = self.assign_expr()?;
        self.expect_punct(close)?;
        self.expect_punct(";")?;
        self.cub_objects.insert(name, (class, storage));
        Ok(Some(StmtKind::Empty))
    }

    /// `name.Method(…)` of a named object `name` (the position after `name`, at `.`): the
    /// class's call with the object's storage.
    ///
    /// # Errors
    /// As the class's call.
    pub(super) fn cub_object_call(&mut self, name: &str, at: Span) -> PResult<Expr> {
        let Some((class, storage)) = self.cub_objects.get(name).cloned() else {
            return self.err("a CUB collective object");
        };
        self.cub_object_storage = Some(storage);
        let r = self.cub_call(Some(&class), at);
        self.cub_object_storage = None;
        r
    }

    /// The storage of a class's call and the `.` after it: a named object's (set by
    /// [`Self::cub_object_call`]), else `(storage).` read here.
    ///
    /// # Errors
    /// A missing `(`, `)` or `.`, a malformed storage expression.
    pub(super) fn cub_storage_then_dot(&mut self) -> PResult<Expr> {
        if let Some(st) = self.cub_object_storage.take() {
            self.expect_punct(".")?;
            return Ok(st);
        }
        self.expect_punct("(")?;
        let storage = self.assign_expr()?;
        self.expect_punct(")")?;
        self.expect_punct(".")?;
        Ok(storage)
    }

    /// The class alias of a named collective object `e` (an identifier of one).
    pub(super) fn cub_object_class(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Ident(n) => self.cub_objects.get(n).map(|(c, _)| c.clone()),
            _ => None,
        }
    }

    /// A CUB class alias as a template argument (`Scan1<WarpScan, int>`): its name, read.
    pub(super) fn cub_class_targ(&mut self) -> Option<String> {
        let Tok::Ident(w) = self.peek(0).clone() else {
            return None;
        };
        if !self.cub.contains_key(&w) || !matches!(self.peek(1), Tok::Punct("," | ">" | ">>")) {
            return None;
        }
        self.bump();
        Some(w)
    }

    /// The tokens of a function template's instance whose type parameters `params` were given
    /// CUB class aliases (`args`): each function parameter of such a type (`ScanTy& s`)
    /// removed, with the objects it names in the instance (`s` → the class on storage `s`).
    ///
    /// # Errors
    /// A block class's object (its storage is the caller's), a struct element type.
    pub(super) fn cub_object_params(
        &self,
        mut tokens: Vec<Token>,
        params: &[TParam],
        args: &[TArg],
    ) -> PResult<(Vec<Token>, Objects)> {
        let bound: Vec<(&str, &str)> = params
            .iter()
            .zip(args)
            .filter_map(|(p, a)| match a {
                TArg::Named(n) if !p.named && self.cub.contains_key(n) => {
                    Some((p.name.as_str(), n.as_str()))
                }
                _ => None,
            })
            .collect();
        let mut objects = Vec::new();
        if bound.is_empty() {
            return Ok((tokens, objects));
        }
        // The parameter list: the first `(` after a name other than an attribute's.
        let open = tokens.iter().enumerate().position(|(k, t)| {
            matches!(t.tok, Tok::Punct("("))
                && k > 0
                && matches!(&tokens[k - 1].tok, Tok::Ident(w)
                    if !matches!(w.as_str(), "__launch_bounds__" | "__attribute__" | "alignas"))
        });
        let Some(open) = open else {
            return Ok((tokens, objects));
        };
        let mut depth = 0i64;
        let mut start = open + 1;
        let mut drop: Vec<(usize, usize)> = Vec::new();
        let mut k = open + 1;
        while k < tokens.len() {
            match &tokens[k].tok {
                Tok::Punct("(" | "[" | "{" | "<") => depth += 1,
                Tok::Punct(p @ ("," | ")")) if depth == 0 => {
                    let next = *p == ",";
                    let prev = matches!(tokens[start - 1].tok, Tok::Punct(","));
                    let (span, commas) = ((start, k), (prev, next));
                    self.cub_param(
                        &tokens[start..k],
                        &bound,
                        &mut objects,
                        span,
                        commas,
                        &mut drop,
                    )?;
                    if !next {
                        break;
                    }
                    start = k + 1;
                }
                Tok::Punct(")" | "]" | "}" | ">") => depth -= 1,
                _ => {}
            }
            k += 1;
        }
        for (from, to) in drop.into_iter().rev() {
            tokens.drain(from..to);
        }
        Ok((tokens, objects))
    }

    /// One parameter's tokens `p` (`[const] ScanTy& s`, at `from..to`, its `,` at `to`): when
    /// its type is a type parameter bound to a CUB class, the object it names and the tokens to
    /// drop (the parameter and one comma beside it).
    fn cub_param(
        &self,
        p: &[Token],
        bound: &[(&str, &str)],
        objects: &mut Objects,
        (from, to): (usize, usize),
        (prev_comma, next_comma): (bool, bool),
        drop: &mut Vec<(usize, usize)>,
    ) -> PResult<()> {
        let mut it = p
            .iter()
            .filter(|t| !matches!(&t.tok, Tok::Ident(w) if w == "const"));
        let Some(Tok::Ident(ty)) = it.next().map(|t| &t.tok) else {
            return Ok(());
        };
        let Some(&(_, class)) = bound.iter().find(|(n, _)| n == ty) else {
            return Ok(());
        };
        let Some(name) = p.iter().rev().find_map(|t| match &t.tok {
            Tok::Ident(w) => Some(w.clone()),
            _ => None,
        }) else {
            return Ok(());
        };
        let at = &p[0];
        let c = self.cub.get(class);
        if !c.is_some_and(|c| {
            matches!(c.kind, Kind::WarpReduce | Kind::WarpScan) && c.record.is_none()
        }) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "a `{class}` object given to a function template is not modelled here (only \
                     WarpReduce and WarpScan objects of scalars, whose storage CUB's shuffle \
                     variants do not use): call the collective where its `TempStorage` is \
                     declared"
                ),
            ));
        }
        let span = Span {
            line: at.line,
            col: at.col,
        };
        objects.push((
            name.clone(),
            (class.to_string(), Expr::new(ExprKind::Ident(name), span)),
        ));
        // The parameter with the comma after it (or, for the last, the one before it when
        // that is not dropped already).
        let range = match (next_comma, drop.last()) {
            (true, _) => (from, to + 1),
            (false, Some(&(_, end))) if end == from => (from, to),
            (false, _) if from > 0 && prev_comma => (from - 1, to),
            (false, _) => (from, to),
        };
        drop.push(range);
        Ok(())
    }
}
