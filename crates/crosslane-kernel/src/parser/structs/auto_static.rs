//! Static data members declared with a placeholder type (`static constexpr auto value = N;`,
//! `static const auto kSize = sizeof(T) * 4;`): C++17 [dcl.spec.auto]/4 and [dcl.type.auto.deduct]
//! give the member the type deduced from its initializer, as for a variable declared `auto`
//! ([class.static.data]/3: a `constexpr` static member has its initializer in the class). The
//! member is then a constant `Name::value` (and `obj.value`), as a typed one is
//! ([`super::define`]).

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
}
