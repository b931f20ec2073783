//! Enumerations: `enum [class|struct] [Name] [: type] { … };` read as integer constants and a
//! name for the underlying type (ISO C++ [dcl.enum]).

use super::const_eval::const_eval;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Ty, UnOp, ValTy};
use crate::KernelError;
use std::collections::HashMap;

impl Parser<'_> {
    /// `enum [class|struct] [Name] [: type] { A, B = expr, … };` (or `typedef enum { … } Name;`):
    /// each enumerator becomes an integer constant (one more than the one before, 0 first, or
    /// its constant initializer), and `Name` a name for the underlying type (`int` unless given).
    /// A scoped enumerator `Name::A` is read as `A` (`super::scopes`). Returns the type's name
    /// and type. Source: ISO C++ [dcl.enum] paragraphs 2 and 5.
    ///
    /// # Errors
    /// An initializer that is not a constant integer, an enumerator named twice with two
    /// values (two `enum class`es sharing a name), or a malformed definition.
    pub(super) fn enum_def(&mut self) -> PResult<(Option<String>, ValTy)> {
        let typedef = self.is_word("typedef");
        if typedef {
            self.bump();
        }
        self.bump(); // `enum`
        if self.is_word("class") || self.is_word("struct") {
            self.bump();
        }
        let mut name = match self.peek(0) {
            Tok::Ident(n) => {
                let n = n.clone();
                self.bump();
                Some(n)
            }
            _ => None,
        };
        let mut ty = ValTy::scalar(crate::types::Scalar::I32);
        if self.eat(":") {
            match self.base_type()? {
                Ty::Val(v) if !v.scalar.is_float() && v.lanes <= 1 => ty = v,
                _ => return self.err("an integer type after `:` (the enum's underlying type)"),
            }
        }
        if let Some(n) = &name {
            self.aliases.insert(n.clone(), ty);
        }
        if self.eat(";") {
            // An opaque declaration `enum class E : int;`.
            return Ok((name, ty));
        }
        self.expect_punct("{")?;
        let empty = HashMap::new();
        // The next implicit value, as a number: each enumerator's constant is a literal, never
        // a chain of `+ 1`s as long as the enum.
        let mut next: i128 = 0;
        while !self.eat("}") {
            let at = self.span();
            let enumerator = self.ident()?;
            let v = if self.eat("=") {
                let value = self.assign_expr()?;
                let Some(v) = const_eval(&value, &empty).and_then(|v| v.int()) else {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!("enumerator `{enumerator}`: its value must be a constant integer"),
                    ));
                };
                v
            } else {
                next
            };
            next = v.saturating_add(1);
            let magnitude = Expr::new(
                ExprKind::Int {
                    value: u64::try_from(v.unsigned_abs()).unwrap_or(u64::MAX),
                    unsigned: false,
                    long: v.unsigned_abs() > i32::MAX as u128,
                },
                at,
            );
            let literal = if v < 0 {
                Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(magnitude)), at)
            } else {
                magnitude
            };
            let e = Expr::new(ExprKind::Cast(Ty::Val(ty), Box::new(literal)), at);
            if let Some(old) = self.consts.get(&enumerator) {
                let same = const_eval(old, &empty).and_then(|o| o.int()) == Some(v);
                if !same {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "enumerator `{enumerator}` is already a constant with another value: \
                             scoped names are read without their enum (`E::{enumerator}` as \
                             `{enumerator}`), so two enums cannot share an enumerator name here; \
                             rename one"
                        ),
                    ));
                }
            }
            self.enum_const(enumerator, v, e);
            if !self.is_punct("}") {
                self.expect_punct(",")?;
            }
        }
        if typedef {
            let n = self.ident()?;
            self.aliases.insert(n.clone(), ty);
            name = Some(n);
        } else if let Tok::Ident(_) = self.peek(0) {
            return self.err("`;` after the enum (a variable declared with its definition is not supported; declare it separately)");
        }
        self.expect_punct(";")?;
        Ok((name, ty))
    }
}
