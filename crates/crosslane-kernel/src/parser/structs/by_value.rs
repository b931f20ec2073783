//! A struct with an array member passed by value (MIGraphX's `shape` with `int lens[4]`,
//! rocPRIM's and CK's small aggregates): the parameter is a copy ([expr.call]/7: each parameter
//! is initialized from its argument; [class.copy.ctor]/14: an implicit copy copies an array
//! member element by element). The array leaf arrives as a pointer to the caller's elements
//! (`s.lens@in`) and the function's body starts by copying it into a local array of the leaf's
//! own name (`s.lens`), so a write in the callee never reaches the caller.

use super::*;

/// One array member of a by-value struct parameter: the local array, the pointer parameter it
/// is copied from, its element type and count.
#[derive(Clone, Debug)]
pub(crate) struct ParamCopy {
    pub(crate) local: String,
    pub(crate) param: String,
    pub(crate) elem: ValTy,
    pub(crate) count: u32,
    pub(crate) span: Span,
    /// The struct passed (named in a refusal).
    pub(crate) sname: String,
}

/// The pointer parameter's name for array leaf `leaf` (`s.lens` → `s.lens@in`): `@` is no
/// source name's character.
pub(crate) fn copy_param_name(leaf: &str) -> String {
    format!("{leaf}@in")
}

impl Parser<'_> {
    /// `body` preceded by the copies [`Parser::struct_param`] queued for this function's
    /// by-value parameters: each local array declared, then filled from its parameter.
    pub(crate) fn with_param_copies(
        &mut self,
        copies: Vec<ParamCopy>,
        body: Stmt,
    ) -> PResult<Stmt> {
        if copies.is_empty() {
            return Ok(body);
        }
        let span = body.span;
        let end = body.end;
        let decls = copies
            .iter()
            .map(|c| {
                let sp = self.syn_span(c.span);
                Declarator {
                    name: c.local.clone(),
                    ty: Ty::Val(c.elem),
                    array: Some(Some(self.count_expr(c.count, sp))),
                    init: None,
                    span: sp,
                    id: NodeId::fresh(),
                }
            })
            .collect();
        let mut list = vec![Stmt {
            kind: StmtKind::Decl(Storage::default(), decls),
            span,
            end: span,
        }];
        for c in &copies {
            let sp = self.syn_span(c.span);
            let e =
                self.copy_elements(&ident(&c.local, sp), &ident(&c.param, sp), c.count, c.span)?;
            list.push(Stmt {
                kind: StmtKind::Expr(e),
                span,
                end: span,
            });
        }
        list.push(body);
        Ok(Stmt {
            kind: StmtKind::Block(list),
            span,
            end,
        })
    }

    /// Refuses the copies queued by a lambda's parameters (a free or member function's body
    /// is given its prologue; a lambda's is not).
    pub(crate) fn refuse_param_copies(&mut self) -> PResult<()> {
        let copies = std::mem::take(&mut self.param_copies);
        match copies.first() {
            None => Ok(()),
            Some(c) => Err(KernelError::new(
                c.span.line,
                c.span.col,
                format!(
                    "a struct with an array member (`{s}`) passed by value to a lambda is not \
                     supported; take it as `const {s}&` (read only), `{s}&` or `{s}*`",
                    s = c.sname
                ),
            )),
        }
    }
}
