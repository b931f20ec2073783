//! WGSL `switch` → an if/else chain, with the case-body checks it needs.

use super::*;

impl Lower<'_> {
    /// WGSL § switch as an if/else chain: the selector once into a local, each group of cases
    /// (naga's `fall_through` joins `case 1, 2:`) tested in order, the default group last (the
    /// case values are distinct, so the order does not matter).
    pub(super) fn switch(
        &mut self,
        selector: Handle<Expression>,
        cases: &[naga::SwitchCase],
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let t = self.scalar_ty(selector, at)?;
        let name = format!("_switch{}", selector.index());
        let sel = self.expr(selector, 0)?;
        let mut out = vec![self.decl(&name, t, sel, at)];
        let mut groups: Vec<(Vec<&naga::SwitchValue>, &naga::Block)> = Vec::new();
        let mut pending: Vec<&naga::SwitchValue> = Vec::new();
        for c in cases {
            pending.push(&c.value);
            if !c.fall_through {
                groups.push((std::mem::take(&mut pending), &c.body));
            }
        }
        let mut chain: Option<Stmt> = None;
        let mut default: Option<Stmt> = None;
        let mut tests = Vec::new();
        // A `break` before the end of a case leaves the switch: the chain goes inside
        // `do { … } while (false)`, whose `break` does that. A `continue` there would continue
        // the do-while rather than the loop around the switch, so that pair is refused.
        let wrapped = groups.iter().any(|(_, b)| early_break(b));
        if wrapped && groups.iter().any(|(_, b)| has_continue(b)) {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a `switch` with both a `break` before the end of a case and a `continue` is \
                 not emulated yet",
            ));
        }
        for (values, body) in groups {
            self.loops.push(LoopCx {
                continuing: Vec::new(),
                switch: true,
                wrapped,
            });
            let lowered = self.case_body(body, at);
            self.loops.pop();
            let block = stmt(StmtKind::Block(lowered?), at);
            if values
                .iter()
                .any(|v| matches!(v, naga::SwitchValue::Default))
            {
                default = Some(block);
                continue;
            }
            let mut cond: Option<Expr> = None;
            for v in values {
                let lit = match v {
                    naga::SwitchValue::I32(n) => literal(Literal::I32(*n), at),
                    naga::SwitchValue::U32(n) => literal(Literal::U32(*n), at),
                    naga::SwitchValue::Default => continue,
                };
                let id = self.ident(&name, at);
                let eq = bin(BinOp::Eq, id, lit, at);
                cond = Some(match cond {
                    None => eq,
                    Some(c) => ex(ExprKind::Logical(false, Box::new(c), Box::new(eq)), at),
                });
            }
            if let Some(c) = cond {
                tests.push((c, block));
            }
        }
        for (c, block) in tests.into_iter().rev() {
            let els = chain.take().or(default.take()).map(Box::new);
            chain = Some(stmt(StmtKind::If(c, Box::new(block), els), at));
        }
        let chain = chain.or(default);
        if wrapped {
            if let Some(c) = chain {
                out.push(stmt(
                    StmtKind::DoWhile(Box::new(c), ex(ExprKind::Bool(false), at)),
                    at,
                ));
            }
        } else {
            out.extend(chain);
        }
        Ok(vec![stmt(StmtKind::Block(out), at)])
    }

    /// A case's statements, less the `break` that ends it.
    pub(super) fn case_body(
        &mut self,
        body: &naga::Block,
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let n = body.len();
        let mut out = Vec::new();
        for (k, (s, sp)) in body.span_iter().enumerate() {
            if k + 1 == n && matches!(s, Statement::Break) {
                break;
            }
            let sat = self.span_of(*sp, at);
            out.extend(self.statement(s, sat)?);
        }
        Ok(out)
    }
}

/// Whether a case body has a `break` of its switch other than its last statement (one inside
/// an `if` or block of the case; a nested loop's or switch's own `break`s do not count).
fn early_break(body: &naga::Block) -> bool {
    let n = body.len();
    let mut stack: Vec<&naga::Block> = Vec::new();
    for (k, s) in body.iter().enumerate() {
        match s {
            Statement::Break if k + 1 < n => return true,
            Statement::If { accept, reject, .. } => {
                stack.push(accept);
                stack.push(reject);
            }
            Statement::Block(b) => stack.push(b),
            _ => {}
        }
    }
    while let Some(b) = stack.pop() {
        for s in b.iter() {
            match s {
                Statement::Break => return true,
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(b) => stack.push(b),
                _ => {}
            }
        }
    }
    false
}

/// Whether a case body has a `continue` (of the loop around the switch; a nested loop's own
/// do not count, a nested switch's do).
fn has_continue(body: &naga::Block) -> bool {
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        for s in b.iter() {
            match s {
                Statement::Continue => return true,
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(b) => stack.push(b),
                Statement::Switch { cases, .. } => stack.extend(cases.iter().map(|c| &c.body)),
                _ => {}
            }
        }
    }
    false
}
