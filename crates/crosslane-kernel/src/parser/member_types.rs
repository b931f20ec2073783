//! Member types named from outside their class: `Ops<float>::acc_t x;`,
//! `using V = typename FloatVec<T>::Type;`, `typename O::acc_t s;` with `O` bound to a struct.
//!
//! ISO C++17 [class.member.lookup] with [basic.lookup.qual]/1: a name after `C::` is looked up
//! in class `C`; a member alias-declaration or typedef ([dcl.typedef]/2) is such a member. In a
//! template, [temp.res]/3 requires `typename` before a qualified name that depends on a
//! template parameter; the parser binds template parameters before it reads a body, so the
//! keyword is read and the class is known either way. A class template's instance is the one
//! [`Parser::instantiate_class`] makes (an explicit or partial specialization chosen as for
//! any use), so `Ops<float>::acc_t` is the specialization's member.

use super::{PResult, Parser};
use crate::lexer::Tok;
use crate::types::{Ty, ValTy};
use crate::KernelError;

/// What a member type alias names.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum MemberTy {
    /// A value type (`using acc_t = float;`).
    Val(ValTy),
    /// A struct (`using Storage = Pair;`).
    Struct(String),
    /// A pointer to values (`using pointer = T*;`, `typedef float* ptr_t;`): kept in the class
    /// body by the pointer-alias token pass (`ptr_alias.rs`) so it is a member here too.
    Ptr(ValTy),
}

impl Parser<'_> {
    /// Records the alias declared at tokens `from..self.pos` (a `using N = …;` or
    /// `typedef … N;` the caller just read with [`Parser::alias`]) as a member type of struct
    /// `sname`.
    pub(super) fn record_member_alias(&mut self, sname: &str, from: usize) {
        let using =
            matches!(self.toks.get(from).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "using");
        // `using N =` names it second; `typedef … N;` just before the `;`.
        let at = if using {
            from + 1
        } else {
            self.pos.saturating_sub(2)
        };
        let Some(Tok::Ident(name)) = self.toks.get(at).map(|t| t.tok.clone()) else {
            return;
        };
        let ty = if let Some(s) = self.struct_alias.get(&name) {
            MemberTy::Struct(s.clone())
        } else if let Some(v) = self.aliases.get(&name) {
            MemberTy::Val(*v)
        } else {
            return;
        };
        if let Some(def) = self.structs.get_mut(sname) {
            def.member_types.insert(name, ty);
        }
    }

    /// A pointer member type at the position (`using pointer = T*;`, `typedef const float*
    /// cptr;`, [dcl.typedef]/2), read and recorded as a member type of struct `sname`; `false`
    /// (position kept) for any other alias.
    pub(super) fn member_ptr_alias(&mut self, sname: &str) -> bool {
        let save = self.pos;
        // Only a declaration spelling a `*` before its `;` (and no function type's `(`).
        let star = self.toks[self.pos..]
            .iter()
            .take(64)
            .take_while(|t| !matches!(t.tok, Tok::Punct(";" | "{" | "}" | "(")))
            .any(|t| matches!(t.tok, Tok::Punct("*")));
        if !star {
            return false;
        }
        let using = self.is_word("using");
        self.bump();
        let name = if using {
            let Tok::Ident(n) = self.peek(0).clone() else {
                self.pos = save;
                return false;
            };
            self.bump();
            if !self.eat("=") {
                self.pos = save;
                return false;
            }
            Some(n)
        } else {
            None
        };
        self.eat("typename");
        let ty = self
            .base_type()
            .and_then(|b| self.pointers(b))
            .ok()
            .map(|t| t.0);
        let name = match name {
            Some(n) => Some(n),
            None => match self.peek(0).clone() {
                Tok::Ident(n) => {
                    self.bump();
                    Some(n)
                }
                _ => None,
            },
        };
        match (ty, name) {
            (Some(Ty::Ptr(v)), Some(n)) if self.eat(";") => {
                if let Some(def) = self.structs.get_mut(sname) {
                    def.member_types.insert(n, MemberTy::Ptr(v));
                }
                true
            }
            _ => {
                self.pos = save;
                false
            }
        }
    }

    /// Whether `[typename] C[<…>]::name` followed by a declarator (a name, `*` or `&`) starts
    /// here, `C` a struct, a struct alias or a class template: a declaration of a member type,
    /// never an expression (`C::f(x)` is a call). Looks ahead without reading.
    pub(super) fn member_type_starts(&self) -> bool {
        let mut k = usize::from(self.is_word("typename"));
        match self.peek(k) {
            Tok::Ident(w) if self.is_struct_name(w) => {}
            _ => return false,
        }
        k += 1;
        if matches!(self.peek(k), Tok::Punct("<")) {
            let mut depth = 0usize;
            loop {
                match self.peek(k) {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct(">>") => {
                        depth = depth.saturating_sub(2);
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct(";" | "{" | "}") | Tok::Eof => return false,
                    _ => {}
                }
                k += 1;
            }
            k += 1;
        }
        // `C<…>::template f<…>(…)` names a member template ([temp.names]/4), a call here,
        // never a member type.
        matches!(self.peek(k), Tok::Punct("::"))
            && matches!(self.peek(k + 1), Tok::Ident(w) if w != "template")
            && matches!(self.peek(k + 2), Tok::Ident(_) | Tok::Punct("*" | "&"))
    }

    /// `[typename] C[<args>]::name` read as the member type it names; `None` (position kept)
    /// where no class is named before a `::` here.
    ///
    /// # Errors
    /// A class with no member type of that name, named with the class.
    pub(super) fn member_type(&mut self) -> PResult<Option<MemberTy>> {
        let save = self.pos;
        let at = self.span();
        self.eat_word("typename");
        let Tok::Ident(w) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        let template_id =
            self.class_templates.contains_key(&w) && matches!(self.peek(1), Tok::Punct("<"));
        let class = if template_id {
            // Only a `C<…>::` is read here: anything else is the caller's.
            let Some(close) = self.angle_close(self.pos + 1) else {
                self.pos = save;
                return Ok(None);
            };
            if !matches!(
                self.toks.get(close + 1).map(|t| &t.tok),
                Some(Tok::Punct("::"))
            ) {
                self.pos = save;
                return Ok(None);
            }
            self.bump();
            let args = self.template_args()?;
            self.instantiate_class(&w, args, at)?
        } else if let Some(s) = self.struct_alias.get(&w).cloned() {
            self.bump();
            s
        } else if self.structs.contains_key(&w) {
            self.bump();
            w
        } else {
            self.pos = save;
            return Ok(None);
        };
        if !matches!(self.peek(0), Tok::Punct("::")) || !matches!(self.peek(1), Tok::Ident(_)) {
            self.pos = save;
            return Ok(None);
        }
        let Tok::Ident(name) = self.peek(1).clone() else {
            self.pos = save;
            return Ok(None);
        };
        // `C<…>::template run<T>(…)`: the keyword before a member template's name
        // ([temp.names]/4), a call the caller reads, never a member type named `template`.
        if name == "template" {
            self.pos = save;
            return Ok(None);
        }
        let found = self
            .structs
            .get(&class)
            .and_then(|d| d.member_types.get(&name))
            .cloned();
        match found {
            Some(t) => {
                self.bump();
                self.bump();
                Ok(Some(t))
            }
            // `C::value` (a static member) or `C::f(…)`: an expression, the caller's.
            None if !matches!(self.peek(2), Tok::Ident(_) | Tok::Punct("*" | "&")) => {
                self.pos = save;
                Ok(None)
            }
            None => Err(KernelError::new(
                at.line,
                at.col,
                format!("`{class}` has no member type `{name}` (a `using {name} = …;` or `typedef … {name};` in its body)"),
            )),
        }
    }

    /// The index of the `>` closing the `<` at token `open` (nested `<…>` counted, `>>` as
    /// two), if it closes before a `;`, `{` or `}`.
    fn angle_close(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (k, t) in self.toks.iter().enumerate().skip(open) {
            match &t.tok {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => depth = depth.checked_sub(1)?,
                Tok::Punct(">>") => depth = depth.checked_sub(2)?,
                Tok::Punct(";" | "{" | "}") | Tok::Eof => return None,
                _ => {}
            }
            if depth == 0 {
                return Some(k);
            }
        }
        None
    }

    /// [`Parser::member_type`] where a value type is wanted: a struct member type is left to
    /// the caller's struct path (position kept).
    pub(super) fn member_value_type(&mut self) -> PResult<Option<Ty>> {
        let save = self.pos;
        match self.member_type()? {
            Some(MemberTy::Val(v)) => Ok(Some(Ty::Val(v))),
            Some(MemberTy::Ptr(v)) => Ok(Some(Ty::Ptr(v))),
            Some(MemberTy::Struct(_)) => {
                self.pos = save;
                Ok(None)
            }
            None => Ok(None),
        }
    }
}
