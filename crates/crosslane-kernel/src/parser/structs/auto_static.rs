//! Static data members declared with a placeholder type (`static constexpr auto value = N;`,
//! `static const auto kSize = sizeof(T) * 4;`): C++17 [dcl.spec.auto]/4 and [dcl.type.auto.deduct]
//! give the member the type deduced from its initializer, as for a variable declared `auto`
//! ([class.static.data]/3: a `constexpr` static member has its initializer in the class). The
//! member is then a constant `Name::value` (and `obj.value`), as a typed one is
//! ([`super::define`]). A member enumeration's enumerators (`enum { value = N * 2 };`, the
//! C++03 form of the same idiom) are the class's constants too ([class.mem]/1: an enumerator is
//! a member; [dcl.enum]/2, /5 their values and type).

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::KernelError;

impl Parser<'_> {
    /// At `auto` after a member's specifiers: reads `auto name = init;` (more declarators after
    /// `,`) as static constants of the initializers' own types and returns `true`; `false`
    /// (position kept) when no `auto` data member starts here (`auto f() {…}` is a member
    /// function). A non-static `auto` member is an error ([dcl.spec.auto]/5 allows the
    /// placeholder only where the declaration has an initializer it may be deduced from,
    /// and [class.mem]/10 a non-static data member never deduces one).
    pub(super) fn auto_static_member(
        &mut self,
        is_static: bool,
        sname: &str,
        consts: &mut Vec<String>,
    ) -> PResult<bool> {
        if !self.is_word("auto")
            || !matches!(self.peek(1), Tok::Ident(_))
            || !matches!(self.peek(2), Tok::Punct("=" | "{"))
        {
            return Ok(false);
        }
        let at = self.span();
        if !is_static {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a non-static data member cannot be declared `auto` (C++17 [dcl.spec.auto]/5); \
                 write its type, or make it `static constexpr auto`",
            ));
        }
        self.bump(); // auto
        loop {
            let f_at = self.span();
            let fname = self.ident()?;
            let init = if self.eat("=") {
                self.assign_expr()?
            } else {
                // `static constexpr auto n{4};`: one element deduces its type (C++17
                // [dcl.type.auto.deduct]/2 after N3922).
                self.expect_punct("{")?;
                let e = self.assign_expr()?;
                self.expect_punct("}")?;
                e
            };
            // The member's type is the initializer's ([dcl.type.auto.deduct]/4); where the
            // parser can name it the constant is cast to it, else it stays the initializer,
            // which has that type wherever it is used.
            let c = match self.expr_type(&init) {
                Some(v) if v.lanes == 1 => Expr::new(
                    ExprKind::Cast(crate::types::Ty::Val(v), Box::new(init)),
                    f_at,
                ),
                _ => init,
            };
            self.consts.insert(format!("{sname}::{fname}"), c.clone());
            if let Some(def) = self.structs.get_mut(sname) {
                def.statics.insert(fname.clone(), c.clone());
            }
            self.consts.insert(fname.clone(), c);
            consts.push(fname);
            if !self.eat(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        Ok(true)
    }

    /// At `enum` in a class body: the enumeration as a file-scope one is read
    /// ([`Parser::enum_def`]), each enumerator also the class's constant `Name::E` (and `obj.E`),
    /// and named bare only inside the class.
    ///
    /// # Errors
    /// What [`Parser::enum_def`] reports.
    pub(super) fn member_enum(&mut self, sname: &str, consts: &mut Vec<String>) -> PResult<()> {
        let before: std::collections::HashSet<String> = self.consts.keys().cloned().collect();
        let from = self.pos;
        self.enum_def()?;
        // The enumerators in order, as written between the braces.
        let mut names = Vec::new();
        let mut depth = 0usize;
        let mut prev: Option<&Tok> = None;
        for t in &self.toks[from..self.pos] {
            match &t.tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]" | "}") => depth = depth.saturating_sub(1),
                // An enumerator starts the list or follows its `,` (not a name its value reads).
                Tok::Ident(w)
                    if depth == 1
                        && matches!(prev, Some(Tok::Punct("{" | ",")))
                        && self.consts.contains_key(w) =>
                {
                    names.push(w.clone());
                }
                _ => {}
            }
            prev = Some(&t.tok);
        }
        for n in names {
            let Some(c) = self.consts.get(&n).cloned() else {
                continue;
            };
            self.consts.insert(format!("{sname}::{n}"), c.clone());
            if let Some(def) = self.structs.get_mut(sname) {
                def.statics.insert(n.clone(), c);
            }
            if !before.contains(&n) {
                consts.push(n);
            }
        }
        Ok(())
    }
}
