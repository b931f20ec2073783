//! File-scope `__device__` and `__managed__` variables: `__device__ unsigned int count = 0;`,
//! `__device__ int counter;`, `__device__ float table[256];`, `__device__ __managed__ int
//! total;`. Each is global memory shared by every thread of the launch (CUDA C++ Programming
//! Guide, "Variable Memory Space Specifiers": a `__device__` variable "resides in global memory
//! space", has the lifetime of the CUDA context and "is accessible from all the threads within
//! the grid"; `__managed__`, optionally with `__device__`, is such a variable the host reads
//! too; HIP the same, HIP Programming Guide, "Memory management"). It runs as the
//! `__constant__` tables do ([`ConstTable`] with `device`): the kernel gets one trailing
//! pointer parameter of the variable's name, its buffer shown under that name and filled with
//! the initializer, else zero ([`zero_fill_rule`]), and every use of a scalar's name in device
//! code reads and writes that buffer's one cell ([`rewrite_scalars`]), so `count++`,
//! `atomicInc(&count, n)` and `count = 0` act on global memory.

use std::collections::{HashMap, HashSet};

use super::const_eval::const_eval;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::Ty;
use crate::KernelError;
use crosslane_core::result::Level;

/// The rule the variables' notes cite.
pub(super) const DEVICE_VAR_RULE: &str = "CUDA C++ Programming Guide, Variable Memory Space \
     Specifiers (__device__, __managed__); C++17 [basic.start.static]/2";

/// Why a variable without an initializer starts as zero: it has static storage duration, and
/// "if constant initialization is not performed, a variable with static storage duration ...
/// is zero-initialized" (C++17 [basic.start.static]/2); CUDA gives `__device__` variables
/// static storage ("Variable Memory Space Specifiers": the lifetime of the CUDA context).
pub(super) fn zero_fill_rule() -> &'static str {
    "zero: it has no initializer, and a variable of static storage duration is \
     zero-initialized (C++17 [basic.start.static]/2)"
}

impl Parser<'_> {
    /// Whether the specifiers here mark a `__device__`/`__managed__` variable that is not
    /// constant data (`const`, `constexpr`, `__constant__` are read by `const_table`, and
    /// `__shared__` is not global memory).
    fn device_var_starts(&self) -> bool {
        let mut device = false;
        let mut k = 0;
        while let Tok::Ident(w) = self.peek(k) {
            match w.as_str() {
                "__device__" | "__managed__" => device = true,
                "static" | "volatile" => {}
                _ => break,
            }
            k += 1;
        }
        device
    }

    /// `[static] [volatile] __device__ [__managed__] T name [= v | {v}];` or `… T name[N]
    /// [= {…}];` (several declarators `a, b[4]` too): one [`ConstTable`] each, with `device`.
    /// `None` (position restored) when no such declaration starts here (a `__device__`
    /// function, a struct type).
    ///
    /// # Errors
    /// A pointer, a multi-dimensional array, a size or initializer that is not a constant
    /// (CUDA C++ Programming Guide, "Initialization": `__device__` and `__managed__` variables
    /// take constant initializers only), more initializers than cells.
    pub(super) fn device_vars(&mut self) -> PResult<Option<Vec<ConstTable>>> {
        if !self.device_var_starts() {
            return Ok(None);
        }
        let save = self.pos;
        let save_diags = self.diags.len();
        let save_depth = self.depth;
        // Reading a type may note an unknown word (`__forceinline__` of a function): undone
        // with the position when no variable starts here.
        let restore = |p: &mut Self| {
            p.pos = save;
            p.diags.truncate(save_diags);
            p.depth = save_depth;
        };
        let at = self.span();
        let mut managed = false;
        while let Tok::Ident(w) = self.peek(0) {
            match w.as_str() {
                "__managed__" => managed = true,
                "__device__" | "static" | "volatile" => {}
                _ => break,
            }
            self.bump();
        }
        // Function specifiers say a function follows.
        if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "inline" | "__inline__" | "__inline" | "__forceinline__" | "__noinline__" | "__host__" | "__global__" | "constexpr" | "const" | "extern" | "template" | "auto"))
        {
            restore(self);
            return Ok(None);
        }
        let Ok(Ty::Val(elem)) = self.base_type() else {
            restore(self);
            return Ok(None);
        };
        while self.is_word("volatile") {
            self.bump();
        }
        // A variable, not a function: the name is followed by `;`, `=`, `[`, `{` or `,`.
        // (`operator=` names a function.)
        let is_var = matches!(self.peek(0), Tok::Ident(n) if n != "operator")
            && matches!(self.peek(1), Tok::Punct(p) if matches!(*p, ";" | "=" | "[" | "{" | ","));
        if !is_var {
            // `__device__ int* p;`: a pointer variable, not a function returning one.
            let pointer_var = (self.is_punct("*") || self.is_punct("&"))
                && matches!(self.peek(1), Tok::Ident(n) if n != "operator")
                && matches!(self.peek(2), Tok::Punct(p) if matches!(*p, ";" | "=" | "["));
            if pointer_var {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a device variable at file scope that is a pointer or a reference is not \
                     supported (`__device__` scalars and one-dimensional arrays of a value type \
                     are); pass the buffer it would point at as a kernel parameter (CLI \
                     --buffer)",
                ));
            }
            restore(self);
            return Ok(None);
        }
        let spelled = if managed { "__managed__" } else { "__device__" };
        let mut out = Vec::new();
        loop {
            let d_at = self.span();
            let name = self.ident()?;
            out.push(self.device_var_rest(name, elem, spelled, d_at)?);
            if self.eat(";") {
                break;
            }
            self.expect_punct(",")?;
        }
        // Without an initializer the note comes with the fill (host copy or zero), from
        // `fill_constant_tables`.
        for t in out.iter().filter(|t| !t.values.is_empty()) {
            let note = format!(
                "`{spelled} {}` ({}) is global memory every thread of the launch shares: the \
                 kernel gets it as a buffer `{}` filled with its initializer (`--buffer {}=…` \
                 replaces it)",
                t.name,
                t.shape(),
                t.name,
                t.name
            );
            self.diag(t.span, Level::Info, note, DEVICE_VAR_RULE);
        }
        Ok(Some(out))
    }

    /// One declarator's bound and initializer after its name.
    fn device_var_rest(
        &mut self,
        name: String,
        elem: crate::types::ValTy,
        spelled: &str,
        at: Span,
    ) -> PResult<ConstTable> {
        let empty = HashMap::new();
        let mut size = None;
        let mut scalar = true;
        if self.eat("[") {
            scalar = false;
            if !self.eat("]") {
                let e = self.assign_expr()?;
                self.expect_punct("]")?;
                match const_eval(&e, &empty)
                    .and_then(|v| v.int())
                    .and_then(|n| usize::try_from(n).ok())
                {
                    Some(n) => size = Some(n),
                    None => return self.err(&format!("a constant size for `{spelled} {name}[…]`")),
                }
            }
            if self.is_punct("[") {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{spelled} {name}[…][…]`: multi-dimensional `{spelled}` arrays are not \
                         supported; flatten it to one dimension (`{name}[row * COLS + col]`)"
                    ),
                ));
            }
        }
        let mut values = Vec::new();
        let eq = self.eat("=");
        let braced = self.eat("{");
        if eq || braced {
            let mut one = |p: &mut Self| -> PResult<()> {
                let v_at = p.span();
                let e = p.assign_expr()?;
                let Some(v) = const_eval(&e, &empty).and_then(|v| v.text()) else {
                    return Err(KernelError::new(
                        v_at.line,
                        v_at.col,
                        format!(
                            "`{spelled} {name}`: its initializer must be a constant (CUDA C++ \
                             Programming Guide, \"Initialization\": a `__device__` variable \
                             takes no dynamic initialization); assign the value in the kernel"
                        ),
                    ));
                };
                values.push(v);
                Ok(())
            };
            if braced || self.eat("{") {
                while !self.eat("}") {
                    one(self)?;
                    if !self.is_punct("}") {
                        self.expect_punct(",")?;
                    }
                }
            } else if scalar {
                one(self)?;
            } else {
                return self.err(&format!("`{{…}}` initializing the array `{name}`"));
            }
        }
        let len = if scalar {
            1
        } else {
            match size {
                Some(n) => n,
                None if !values.is_empty() => values.len(),
                None => return self.err(&format!("a size for `{spelled} {name}[]`")),
            }
        };
        if values.len() > len {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}` has {} initializers, more than its {len} cell(s)",
                    values.len()
                ),
            ));
        }
        if !values.is_empty() {
            // Cells past the initializers are zero ([dcl.init.aggr]/8, from an empty
            // initializer list: value-initialized).
            values.resize(len, "0".to_string());
        }
        Ok(ConstTable {
            name,
            elem,
            len,
            initial: values.clone(),
            copies: Vec::new(),
            values,
            copied_unread: false,
            span: at,
            device: true,
            scalar,
        })
    }
}

/// Rewrites every use of a scalar `__device__` variable's name in device code as its buffer's
/// one cell, `name[0]`, so reads, stores, `++`, `&name` (the cell's address) and atomics act on
/// global memory; a parameter or local of the same name hides it where C++ scoping says
/// ([basic.scope.block]/1: from its declarator to the end of its block). A member name
/// (`s.name`) is not a use. The walk's depth is the statement and expression nesting, which
/// the parser's depth budget bounds.
pub(super) fn rewrite_scalars(program: &mut Program) {
    let names: HashSet<String> = program
        .constants
        .iter()
        .filter(|t| t.device && t.scalar)
        .map(|t| t.name.clone())
        .collect();
    if names.is_empty() {
        return;
    }
    for f in &mut program.functions {
        let mut hidden: Vec<String> = f
            .params
            .iter()
            .filter(|p| names.contains(&p.name))
            .map(|p| p.name.clone())
            .collect();
        stmt(&mut f.body, &names, &mut hidden);
    }
}

fn stmt(s: &mut Stmt, names: &HashSet<String>, hidden: &mut Vec<String>) {
    let mark = hidden.len();
    match &mut s.kind {
        StmtKind::Decl(_, decls) => {
            for d in decls {
                if let Some(Some(n)) = &mut d.array {
                    expr(n, names, hidden);
                }
                // The name is in scope from its declarator on ([basic.scope.pdecl]/1), its
                // initializer included.
                if names.contains(&d.name) {
                    hidden.push(d.name.clone());
                }
                if let Some(i) = &mut d.init {
                    expr(i, names, hidden);
                }
            }
            // A declaration's names stay for the rest of the enclosing block.
            return;
        }
        StmtKind::Block(list) => {
            for x in list {
                stmt(x, names, hidden);
            }
        }
        kind => kind.for_each_part_mut(|p| match p {
            StmtPart::Expr(e) => expr(e, names, hidden),
            StmtPart::Stmt(x) => stmt(x, names, hidden),
        }),
    }
    hidden.truncate(mark);
}

fn expr(e: &mut Expr, names: &HashSet<String>, hidden: &[String]) {
    if let ExprKind::Ident(n) = &e.kind {
        if names.contains(n) && !hidden.contains(n) {
            let at = e.span;
            let base = std::mem::replace(e, Expr::new(ExprKind::Bool(false), at));
            let zero = super::cg_lower::int_lit(at, 0);
            *e = Expr::new(ExprKind::Index(Box::new(base), Box::new(zero)), at);
        }
        return;
    }
    e.kind.for_each_child_mut(|c| expr(c, names, hidden));
}
