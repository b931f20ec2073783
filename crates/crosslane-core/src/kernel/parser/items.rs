//! Top-level items: the program, type aliases, function definitions and parameters.

use super::{PResult, Parser};
use crate::kernel::ast::*;
use crate::kernel::lexer::Tok;
use crate::kernel::types::{Ty, ValTy};
use crate::kernel::KernelError;
use crate::result::Level;

impl Parser<'_> {
    pub(super) fn program(&mut self) -> PResult<Program> {
        let mut program = Program::default();
        let mut loose: Vec<Stmt> = Vec::new();
        let start = self.span();
        while !matches!(self.peek(0), Tok::Eof) {
            if self.eat(";") {
                continue;
            }
            if self.is_word("using") || self.is_word("typedef") {
                let (name, ty) = self.alias()?;
                program.aliases.push((name, ty));
                continue;
            }
            if let Some(f) = self.function()? {
                program.functions.push(f);
                continue;
            }
            if !program.functions.is_empty() {
                return self.err("a function definition (statements belong inside a function)");
            }
            loose.push(self.stmt()?);
        }
        if !loose.is_empty() {
            if !program.functions.is_empty() {
                let s = loose[0].span;
                return Err(KernelError::new(
                    s.line,
                    s.col,
                    "statements outside a function: write either a snippet or functions",
                ));
            }
            let end = self.last_end();
            program.functions.push(Function {
                name: "snippet".into(),
                entry: true,
                ret: Ty::Void,
                params: Vec::new(),
                body: Stmt {
                    kind: StmtKind::Block(loose),
                    span: start,
                    end,
                },
                launch_bounds: None,
                vf_call_dim: None,
                span: start,
                snippet: true,
            });
        }
        if program.functions.is_empty() {
            return Err(KernelError::new(
                start.line,
                start.col,
                "no kernel: write a function or some statements",
            ));
        }
        Ok(program)
    }

    pub(super) fn alias(&mut self) -> PResult<(String, ValTy)> {
        let at = self.span();
        let using = self.is_word("using");
        self.bump();
        let (name, ty) = if using {
            let name = self.ident()?;
            self.expect_punct("=")?;
            let ty = self.base_type()?;
            (name, ty)
        } else {
            let ty = self.base_type()?;
            let name = self.ident()?;
            (name, ty)
        };
        self.expect_punct(";")?;
        match ty {
            Ty::Val(v) => {
                self.aliases.insert(name.clone(), v);
                Ok((name, v))
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "only value types can be aliased",
            )),
        }
    }

    /// A function definition, if one starts here (the position is restored otherwise).
    pub(super) fn function(&mut self) -> PResult<Option<Function>> {
        // A loop, not a call per prototype: a file of a million prototypes must not recurse.
        loop {
            if let Some(f) = self.function_once()? {
                return Ok(f);
            }
        }
    }

    /// One function definition (`Some(Some(f))`), no function here (`Some(None)`), or a
    /// prototype that was skipped (`None`: look again after it).
    pub(super) fn function_once(&mut self) -> PResult<Option<Option<Function>>> {
        let save = self.pos;
        let save_depth = self.depth;
        let saved_diags = self.diags.len();
        let start = self.span();
        let Ok((entry1, _, bounds1)) = self.qualifiers() else {
            self.pos = save;
            self.depth = save_depth;
            return Ok(Some(None));
        };
        let header = (|| -> PResult<Option<(Ty, String)>> {
            if !self.type_starts() && !self.is_word("__NATIVE_VECTOR__") {
                return Ok(None);
            }
            let base = self.base_type()?;
            let (ret, _) = self.pointers(base)?;
            let Tok::Ident(name) = self.peek(0).clone() else {
                return Ok(None);
            };
            if !matches!(self.peek(1), Tok::Punct("(")) {
                return Ok(None);
            }
            self.bump();
            Ok(Some((ret, name)))
        })();
        let Ok(Some((ret, name))) = header else {
            self.pos = save;
            self.depth = save_depth;
            self.diags.truncate(saved_diags);
            return Ok(Some(None));
        };
        let entry = entry1;
        self.expect_punct("(")?;
        let params = self.params()?;
        let (entry2, _, bounds2) = self.qualifiers()?;
        if self.eat(";") {
            // A prototype: nothing to run.
            return Ok(None);
        }
        if !self.is_punct("{") {
            return self.err("`{` to start the function body");
        }
        let body = self.stmt()?;
        let vf_call_dim = self.vf_call_dim(start.line, body.end.line);
        Ok(Some(Some(Function {
            name,
            entry: entry || entry2,
            ret,
            params,
            body,
            launch_bounds: bounds1.or(bounds2),
            vf_call_dim,
            span: start,
            snippet: false,
        })))
    }

    pub(super) fn params(&mut self) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        if self.eat(")") {
            return Ok(params);
        }
        if self.is_punct("..") || self.is_punct("...") {
            let at = self.span();
            self.bump();
            self.expect_punct(")")?;
            self.diag(
                at,
                Level::Info,
                "`(..)`: the page elides the parameters (pseudo-code); the kernel takes none",
                "",
            );
            return Ok(params);
        }
        if self.is_word("void") && matches!(self.peek(1), Tok::Punct(")")) {
            self.bump();
            self.bump();
            return Ok(params);
        }
        loop {
            let at = self.span();
            self.qualifiers()?;
            let base = self.base_type()?;
            let (mut ty, reference) = self.pointers(base)?;
            let name = self.ident()?;
            if self.eat("[") {
                while !self.is_punct("]") && !matches!(self.peek(0), Tok::Eof) {
                    self.bump();
                }
                self.expect_punct("]")?;
                if let Ty::Val(v) = ty {
                    ty = Ty::Ptr(v);
                }
            }
            if self.eat("=") {
                self.assign_expr()?;
            }
            let ty = match (ty, reference) {
                (Ty::Val(v), true) => Ty::Ptr(v),
                (Ty::Void, _) => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a parameter cannot be void",
                    ))
                }
                (t, _) => t,
            };
            params.push(Param {
                name,
                ty,
                reference,
                span: at,
            });
            if self.eat(")") {
                return Ok(params);
            }
            self.expect_punct(",")?;
        }
    }

    /// The Ascend launch comment `// asc_vf_call parameter: dim3{1024, 1, 1}` (seed 000; seed 001
    /// writes `asc_vf_call参数：dim3{…}`) within the function's lines.
    pub(super) fn vf_call_dim(&self, from: u32, to: u32) -> Option<[u64; 3]> {
        let c = self.comments.iter().find(|c| {
            c.line >= from.saturating_sub(1) && c.line <= to && c.text.contains("asc_vf_call")
        })?;
        let after = c.text.split_once("dim3")?.1;
        let inner = after.split_once('{')?.1.split_once('}')?.0;
        let mut dims = [1u64; 3];
        for (k, part) in inner.split(',').take(3).enumerate() {
            dims[k] = part.trim().parse().ok()?;
        }
        Some(dims)
    }
}
