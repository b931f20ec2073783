//! User-defined operators: `a + b`, `-a`, `a += b`, `a < b` on a struct operand call the
//! operator function C++ overload resolution chooses, through the call machinery member
//! functions and overloaded free functions already use.
//!
//! - Declaring ([over.oper]/1): a member `R operator@(…)` is a member function keyed
//!   `operator@` (a later one of other parameter types `operator@#N`,
//!   [over.dcl]/1); a free or `friend` one is a function named `operator@`, kept per parameter
//!   types as every overloaded free function is ([`super::overload`]).
//! - Using ([over.match.oper]/1-3): when an operand of a binary or unary operator, or the left
//!   operand of a compound assignment, has class type, the candidates are the left operand's
//!   member `operator@` (its implicit object parameter takes exactly that class,
//!   [over.match.funcs]/4-5) and the free `operator@`s; the best by [over.match.best] is
//!   called — `a @ b` as `a.operator@(b)` or `operator@(a, b)` ([over.binary]/1), `@a` as
//!   `a.operator@()` or `operator@(a)` ([over.unary]/1), `a @= b` as `a.operator@=(b)`
//!   ([over.ass]: no compound operator is made from `@`), `++a` / `a++` as `operator++(a)` /
//!   `operator++(a, 0)` ([over.inc]/1). When no operand has class type the operator is the
//!   built-in ([over.match.oper]/1); a vector type (`float2`, a struct in CUDA's
//!   `vector_types.h`) calls a free operator declared for it, else keeps the built-in
//!   arithmetic.
//! - A member `operator=` ([over.ass]/1): `a = b` whose left operand has class type calls it
//!   when overload resolution picks it; the implicitly declared copy assignment (member by
//!   member, [class.copy.assign]/12) is the other candidate unless the class declares a copy
//!   assignment operator itself ([class.copy.assign]/2: one taking the class, `const C&` or
//!   `C&`), so `a = b` of the same class with only `operator=(float)` declared copies.
//!   Declarations and initializations are no assignments: `C a = b;` copies ([dcl.init]/17).
//! - An operator returning a reference to its own struct (`V& operator+=(…) { …; return
//!   *this; }`) changes its receiver in place: its `return *this;` ends the call, and the
//!   expression is `(call, receiver)`: as a statement the call, as a value the receiver after
//!   it (`(a += b).x`, `c = a += b`).
//!
//! Refused at their line with what to write instead: `operator&&`, `operator||`, `operator,`, `operator->`, `operator->*`, `operator<=>`,
//! `operator new` / `delete`, literal operators, and function templates of an operator.

use super::operator_names::SUPPORTED;
use super::overload::{Candidate, PSig, PType};
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Span};
use crate::lexer::Tok;
use crate::KernelError;

/// Most member operators of one spelling (with distinct parameter types) in one struct.
const MAX_MEMBER_OVERLOADS: usize = super::overload::MAX_FN_OVERLOADS;

/// One member operator of a struct: how calls name it and its declared parameters.
#[derive(Clone, Debug)]
pub(crate) struct MemberOp {
    /// The operator's spelling (`+`, `+=`, `<`).
    op: String,
    /// The key of its method (`operator+`, `operator+#2`).
    key: String,
    /// Its declared parameters (the implicit object parameter not among them).
    params: Vec<PSig>,
    /// The line it was declared on.
    line: u32,
    /// It returns a reference to its receiver (`V& operator+=(…) { …; return *this; }`).
    returns_self: bool,
}

/// What to write instead of an operator that is refused.
fn refusal(op: &str) -> String {
    match op {
        "<=>" => "`operator<=>` is C++20 and not supported; declare `operator<` (and the other \
                  comparisons the kernel uses) instead"
            .into(),
        "new" | "delete" => format!(
            "`operator {op}` is not supported (a GPU lane allocates nothing here); use a local or \
             a buffer"
        ),
        _ => format!(
            "`operator{op}` is not supported; write a named member function and call it \
             (supported operators: arithmetic, bitwise, comparison, compound assignment, unary \
             `- + ! ~`, `++`/`--`, `()` and `[]`)"
        ),
    }
}

impl Parser<'_> {
    /// The operator-function-id at token `k` (the word `operator`): the operator's spelling and
    /// how many tokens it spans, `operator` included; `None` when `k` is not `operator` or
    /// starts a conversion function (`operator float()`), `()` or `[]` (read elsewhere).
    ///
    /// # Errors
    /// An operator that is refused ([`refusal`]), at its line.
    pub(super) fn operator_id_at(&self, k: usize) -> Option<PResult<(String, usize)>> {
        if !matches!(self.peek(k), Tok::Ident(w) if w == "operator") {
            return None;
        }
        let t = self.toks.get(self.pos + k)?;
        let refuse = |op: &str| Some(Err(KernelError::new(t.line, t.col, refusal(op))));
        match self.peek(k + 1) {
            Tok::Punct("(" | "[") => None,
            Tok::Punct("<=") if matches!(self.peek(k + 2), Tok::Punct(">")) => refuse("<=>"),
            Tok::Punct("-") if matches!(self.peek(k + 2), Tok::Punct(">")) => refuse("->"),
            Tok::Punct(p) if SUPPORTED.contains(p) => Some(Ok((p.to_string(), 2))),
            Tok::Punct(p) => refuse(p),
            Tok::Ident(w) if matches!(w.as_str(), "new" | "delete") => refuse(w),
            Tok::Str(_) => refuse("\"\""),
            _ => None,
        }
    }

    /// The method key member operator `op` of struct `sname` with parameters `params`
    /// (declared at `at`) is kept under: the key of an earlier declaration with the same
    /// parameter types, else `operator@` for the first and `operator@#N` after.
    ///
    /// # Errors
    /// More than [`MAX_MEMBER_OVERLOADS`] of them.
    pub(super) fn member_operator_key(
        &mut self,
        sname: &str,
        op: &str,
        params: Vec<PSig>,
        returns_self: bool,
        at: Span,
    ) -> PResult<String> {
        let ops = self.member_ops.entry(sname.to_string()).or_default();
        let same = |a: &[PSig], b: &[PSig]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.ty == y.ty)
        };
        let mine: Vec<&MemberOp> = ops.iter().filter(|m| m.op == op).collect();
        if let Some(m) = mine.iter().find(|m| same(&m.params, &params)) {
            return Ok(m.key.clone());
        }
        if mine.len() >= MAX_MEMBER_OVERLOADS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("more than {MAX_MEMBER_OVERLOADS} overloads of `{sname}::operator{op}`"),
            ));
        }
        let key = if mine.is_empty() {
            format!("operator{op}")
        } else {
            format!("operator{op}#{}", mine.len() + 1)
        };
        ops.push(MemberOp {
            op: op.to_string(),
            key: key.clone(),
            params,
            line: at.line,
            returns_self,
        });
        Ok(key)
    }

    /// The key of the operator function that `x op x` calls, as [`Parser::operator_call`]
    /// chooses it ([over.match.oper]; a member operator's key starts `@m:`); `None` where the
    /// built-in applies.
    ///
    /// # Errors
    /// As [`Parser::operator_call`].
    pub(super) fn self_operator_key(
        &mut self,
        op: &str,
        x: &Expr,
        span: Span,
    ) -> PResult<Option<String>> {
        Ok(
            match self.operator_call(op, vec![x.clone(), x.clone()], span)? {
                Some(Expr {
                    kind: ExprKind::Call(key, _),
                    ..
                }) => Some(key),
                _ => None,
            },
        )
    }

    /// `op` applied to `args` (one operand for a unary operator, two for a binary or compound
    /// assignment one; a postfix `++`/`--` has the `0` second argument of [over.inc]/1) as a
    /// call of the operator function overload resolution chooses; `None` when no operand has
    /// class type, so the built-in applies ([over.match.oper]/1).
    ///
    /// # Errors
    /// A class operand with no viable operator function, or several equally good.
    pub(super) fn operator_call(
        &mut self,
        op: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> PResult<Option<Expr>> {
        let refs: Vec<&Expr> = args.iter().collect();
        if !self.overloadable(op, &refs) {
            return Ok(None);
        }
        let classes: Vec<Option<String>> = args.iter().map(|a| self.struct_of(a)).collect();
        let free = format!("operator{op}");
        let class_operand = classes.iter().any(Option::is_some);
        let mut cands: Vec<Candidate> = Vec::new();
        if let Some(Some(s)) = classes.first() {
            let members = self.member_ops.get(s).cloned().unwrap_or_default();
            for m in members.into_iter().filter(|m| m.op == op) {
                // The implicit object parameter: the class itself, never converted
                // ([over.match.funcs]/5).
                let mut params = vec![PSig {
                    ty: PType::Struct(s.clone()),
                    mut_ref: false,
                    to_const: false,
                    default: false,
                }];
                params.extend(m.params);
                cands.push(Candidate {
                    key: format!("@m:{}", m.key),
                    template: false,
                    line: m.line,
                    params,
                    levels: Vec::new(),
                    variadic: false,
                });
            }
        }
        cands.extend(self.plain_candidates(&free));
        if cands.is_empty() {
            if !class_operand {
                return Ok(None);
            }
            if let Some(call) = self.operator_template_call(&free, &args, span)? {
                return Ok(Some(call));
            }
            // No operator function: each class operand converts through its conversion
            // function and the built-in operator applies ([over.match.oper]/7, [over.built]).
            let converts = classes.iter().flatten().all(|s| {
                self.structs
                    .get(s)
                    .is_some_and(|d| d.methods.contains_key(super::structs::CONV))
            });
            if converts {
                return Ok(None);
            }
            let types: Vec<String> = classes
                .iter()
                .zip(&args)
                .map(|(c, a)| {
                    c.clone().unwrap_or_else(|| {
                        self.expr_type(a)
                            .map_or("a scalar".into(), crate::vector_types::cuda_name)
                    })
                })
                .collect();
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "no `operator{op}` is declared for {} ([over.match.oper]); declare one as a \
                     member (`__device__ R operator{op}(…) const`) or a free function, or use \
                     the members",
                    types.join(" and ")
                ),
            ));
        }
        let chosen = match self.best_candidate(&free, cands, &args, Vec::new(), span) {
            Ok(c) => c,
            // A vector type with no viable free operator keeps its built-in arithmetic.
            Err(_) if !class_operand => return Ok(None),
            Err(e) => match self.operator_template_call(&free, &args, span)? {
                Some(call) => return Ok(Some(call)),
                None => return Err(e),
            },
        };
        let receiver = args.first().cloned();
        let returns_self = chosen.key.strip_prefix("@m:").is_some_and(|k| {
            classes.first().cloned().flatten().is_some_and(|s| {
                self.member_ops
                    .get(&s)
                    .is_some_and(|ops| ops.iter().any(|m| m.key == k && m.returns_self))
            })
        });
        let call = self.node(ExprKind::Call(chosen.key, args), span)?;
        match receiver {
            // `(a += b).x`, `c = a += b`: the value is the receiver after the call, `(call,
            // a)` ([over.ass]; the operator returns `*this`).
            Some(r) if returns_self => self
                .node(ExprKind::Comma(Box::new(call), Box::new(r)), span)
                .map(Some),
            _ => Ok(Some(call)),
        }
    }

    /// Whether `op` on `args` may name an operator function: an operand of class type, or a
    /// vector-type operand with a free `operator@` declared ([over.match.oper]/1). Checked
    /// before the operands are copied, so a long chain of built-in operators costs no copies.
    pub(super) fn overloadable(&self, op: &str, args: &[&Expr]) -> bool {
        if args.iter().any(|a| self.struct_of(a).is_some()) {
            return true;
        }
        self.fn_sets.contains_key(&format!("operator{op}"))
            && args
                .iter()
                .any(|a| self.expr_type(a).is_some_and(|v| v.lanes > 1))
    }

    /// A compound assignment `l op= r` whose left operand has class type: its
    /// `operator@=` ([over.ass], [over.match.oper]); `None` for the built-in.
    ///
    /// # Errors
    /// As [`Parser::operator_call`].
    pub(super) fn compound_operator(
        &mut self,
        op: crate::types::BinOp,
        l: &Expr,
        r: &Expr,
        span: Span,
    ) -> PResult<Option<Expr>> {
        let Some(text) = bin_text(op) else {
            return Ok(None);
        };
        if self.struct_of(l).is_none() && !self.fn_sets.contains_key(&format!("operator{text}=")) {
            return Ok(None);
        }
        self.operator_call(&format!("{text}="), vec![l.clone(), r.clone()], span)
    }

    /// An assignment `l = r` whose left operand has class type with a member `operator=`: the
    /// call of the one overload resolution chooses ([over.ass]/1, [over.match.oper]); `None`
    /// for the built-in copy, which is the implicitly declared copy assignment when `r` is of
    /// the same class and the class declares none itself ([class.copy.assign]/2,12).
    ///
    /// # Errors
    /// As [`Parser::operator_call`].
    pub(super) fn assign_operator(
        &mut self,
        l: &Expr,
        r: &Expr,
        span: Span,
    ) -> PResult<Option<Expr>> {
        let Some(s) = self.struct_of(l) else {
            return Ok(None);
        };
        let Some(ops) = self.member_ops.get(&s) else {
            return Ok(None);
        };
        let mine: Vec<&MemberOp> = ops.iter().filter(|m| m.op == "=").collect();
        if mine.is_empty() {
            return Ok(None);
        }
        let user_copy = mine
            .iter()
            .any(|m| m.params.len() == 1 && matches!(&m.params[0].ty, PType::Struct(n) if *n == s));
        if !user_copy && self.struct_of(r).as_deref() == Some(s.as_str()) {
            return Ok(None);
        }
        self.operator_call("=", vec![l.clone(), r.clone()], span)
    }

    /// `friend` in a struct's body: a friend function's declaration is skipped (access is not
    /// checked), its definition read after the struct as a free function ([class.friend]/6-7:
    /// a function first declared in a friend declaration is a member of the enclosing
    /// namespace); `friend class X;` is skipped. The positions of definitions are returned
    /// through `defs`.
    pub(super) fn friend_member(&mut self, defs: &mut Vec<usize>) -> PResult<()> {
        self.bump(); // friend
        let start = self.pos;
        if self.is_word("class") || self.is_word("struct") {
            while !self.is_punct(";") && !matches!(self.peek(0), Tok::Eof) {
                self.bump();
            }
            self.eat(";");
            return Ok(());
        }
        // A refused operator is named here, at its line.
        let mut k = 0;
        while k < 64 && !matches!(self.peek(k), Tok::Punct("(" | ";") | Tok::Eof) {
            if let Some(r) = self.operator_id_at(k) {
                r?;
                break;
            }
            k += 1;
        }
        // A definition has a body: `{` after its parameter list.
        self.skip_member_function()?;
        let body = matches!(
            self.toks.get(self.pos.saturating_sub(1)).map(|t| &t.tok),
            Some(Tok::Punct("}"))
        );
        if body {
            defs.push(start);
        }
        Ok(())
    }

    /// Reads the friend functions defined in a struct (at `defs`) as free functions into the
    /// functions made by the front end.
    pub(super) fn friend_functions(&mut self, defs: &[usize]) -> PResult<()> {
        let saved = self.self_struct.take();
        let r = (|| {
            for &d in defs {
                self.pos = d;
                if let Some(f) = self.function()? {
                    self.extra_fns.push(f);
                }
            }
            Ok(())
        })();
        self.self_struct = saved;
        r
    }
}

/// The spelling of a binary operator that has a compound assignment form.
fn bin_text(op: crate::types::BinOp) -> Option<&'static str> {
    use crate::types::BinOp;
    Some(match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        _ => return None,
    })
}

impl Parser<'_> {
    /// `operator@` applied to `args` through a free operator function template of that name
    /// (`template <typename T> V<T> operator+(V<T> a, V<T> b)`), when one is declared and
    /// deduction from the operands succeeds ([temp.deduct.call], [over.match.oper]/3.2): the
    /// call of its instance, parsed now so that a struct result lowers. A non-template
    /// operator that is viable was chosen before this is tried: with the operands' class types
    /// taken only as themselves, its conversions are exact too, and then the non-template wins
    /// ([over.match.best]/1.6). `None` when no such template binds.
    ///
    /// # Errors
    /// An error inside the instance.
    fn operator_template_call(
        &mut self,
        free: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<Expr>> {
        if !self.templates.contains_key(free) {
            return Ok(None);
        }
        if self.bind_call(free, Vec::new(), args, span).is_err() {
            return Ok(None);
        }
        let mangled = self.instantiate_method_now(free, Vec::new(), args, span)?;
        self.node(ExprKind::Call(mangled, args.to_vec()), span)
            .map(Some)
    }
}
