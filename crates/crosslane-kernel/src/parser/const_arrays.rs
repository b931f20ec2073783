//! Elements of file-scope `const`/`constexpr` arrays of constants as constant expressions:
//! `constexpr int kSizes[] = {32, 64, 128};` makes `kSizes[1]` a constant (C++17
//! [expr.const]/2.7.1: an lvalue-to-rvalue conversion of a const object initialized with a
//! constant expression is allowed in one), usable as a template argument or a `case` label
//! (ONNX Runtime's `constexpr int block_size = kSizes[1] / 4;`). Each element is kept among
//! the parser's constants under the name `name[k]`, which no identifier can spell.

use std::collections::HashMap;

use super::const_eval::const_eval;
use super::Parser;
use crate::ast::*;
use crate::types::Ty;

impl Parser<'_> {
    /// Records the elements of a one-dimensional array declarator whose initializer assigns
    /// constants (`name[k] = v`, the lowering of `{…}`) as constants named `name[k]` (no
    /// identifier can be spelled so); anything else records nothing.
    pub(super) fn record_const_elements(&mut self, d: &Declarator) {
        const MAX_ELEMENTS: usize = 4096;
        let (Some(_), Some(init), Ty::Val(v)) = (&d.array, &d.init, d.ty) else {
            return;
        };
        let empty = HashMap::new();
        let mut found = Vec::new();
        let mut stack = vec![init];
        while let Some(e) = stack.pop() {
            if found.len() > MAX_ELEMENTS {
                return;
            }
            match &e.kind {
                ExprKind::Comma(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                ExprKind::Assign(None, cell, val) => {
                    let ExprKind::Index(base, k) = &cell.kind else {
                        return;
                    };
                    let (ExprKind::Ident(n), ExprKind::Int { value, .. }) = (&base.kind, &k.kind)
                    else {
                        return;
                    };
                    if *n != d.name || const_eval(val, &empty).is_none() {
                        return;
                    }
                    found.push((*value, (**val).clone()));
                }
                _ => return,
            }
        }
        for (k, val) in found {
            let e = Expr::new(ExprKind::Cast(Ty::Val(v), Box::new(val.clone())), val.span);
            self.consts.insert(format!("{}[{k}]", d.name), e);
        }
    }

    /// At a file-scope item starting with `const`/`constexpr` words that the device reading
    /// does not take (a host constant array): records its elements
    /// ([`Parser::record_const_elements`]) and leaves the position where it was.
    pub(super) fn peek_const_array(&mut self) {
        let mut k = 0;
        let mut is_const = false;
        while let crate::lexer::Tok::Ident(w) = self.peek(k) {
            match w.as_str() {
                "const" | "constexpr" => is_const = true,
                "static" | "inline" => {}
                _ => break,
            }
            k += 1;
        }
        if !is_const {
            return;
        }
        let (save, save_diags, save_depth) = (self.pos, self.diags.len(), self.depth);
        // The trial reading declares nothing: the host reading declares the array itself.
        let (scope, dims) = (self.scopes.last().cloned(), self.array_dims.clone());
        if let Ok(stmt) = self.simple_stmt() {
            if let StmtKind::Decl(storage, decls) = &stmt.kind {
                if !storage.shared {
                    for d in decls {
                        self.record_const_elements(d);
                    }
                }
            }
        }
        self.pos = save;
        self.diags.truncate(save_diags);
        self.depth = save_depth;
        if let (Some(s), Some(last)) = (scope, self.scopes.last_mut()) {
            *last = s;
        }
        self.array_dims = dims;
    }

    /// The constant element `name[k]` of a file-scope `const`/`constexpr` array
    /// ([`Parser::record_const_elements`]), where no inner scope declares `name`.
    pub(super) fn const_element(&self, name: &str, k: i128) -> Option<Expr> {
        // A name declared in an inner scope hides the file-scope array; the file scope's own
        // declaration of it (the host reading's) is the array itself.
        let inner = self.scopes.iter().skip(1).any(|s| s.contains_key(name));
        if inner {
            return None;
        }
        self.consts.get(&format!("{name}[{k}]")).cloned()
    }
}
