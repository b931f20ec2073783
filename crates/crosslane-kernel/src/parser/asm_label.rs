//! Function declarations bound to an LLVM AMDGPU intrinsic by an asm label, as older ROCm
//! libraries declared the lane intrinsics HIP did not expose
//! (`__device__ int __llvm_amdgcn_readlane(int index, int offset) __asm("llvm.amdgcn.readlane");`).
//!
//! Source: GCC/clang "Asm Labels" (`declarator asm("name")`: the function's symbol is that
//! name, so a call of the declared function calls the LLVM intrinsic of that name), and clang
//! `BuiltinsAMDGPU.def`, which exposes the same intrinsics as builtins:
//! `llvm.amdgcn.readlane` is `__builtin_amdgcn_readlane`, `llvm.amdgcn.ds.bpermute`
//! `__builtin_amdgcn_ds_bpermute`, `llvm.amdgcn.mov.dpp.i32` `__builtin_amdgcn_mov_dpp`, and
//! so on (the intrinsic's name with `.` for `_`, a trailing overload type such as `.i32`
//! dropped). The declaration becomes a device function whose body calls that builtin with its
//! parameters, converted to the declared parameter types as any call is ([expr.call]/4).
//! A label naming another symbol is refused at its line.

use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind, Function, Param, Span, Stmt, StmtKind};
use crate::lexer::Tok;
use crate::types::Ty;
use crate::KernelError;

/// The LLVM AMDGPU intrinsics an asm label may name, by their builtin's name.
const BUILTINS: &[&str] = &[
    "__builtin_amdgcn_readlane",
    "__builtin_amdgcn_readfirstlane",
    "__builtin_amdgcn_ds_bpermute",
    "__builtin_amdgcn_ds_permute",
    "__builtin_amdgcn_ds_swizzle",
    "__builtin_amdgcn_mov_dpp",
    "__builtin_amdgcn_update_dpp",
    "__builtin_amdgcn_permlane16",
    "__builtin_amdgcn_permlanex16",
    "__builtin_amdgcn_permlane64",
];

/// The builtin for an LLVM intrinsic name (`llvm.amdgcn.mov.dpp.i32` →
/// `__builtin_amdgcn_mov_dpp`), when it is one of [`BUILTINS`].
fn builtin_of(label: &str) -> Option<&'static str> {
    let rest = label.strip_prefix("llvm.amdgcn.")?;
    let mut parts: Vec<&str> = rest.split('.').collect();
    // A trailing overload suffix: `i32`, `f32`, `i64`, `v2f16`, ….
    if parts.len() > 1 {
        let last = parts[parts.len() - 1];
        let typed = last.strip_prefix('v').unwrap_or(last);
        let typed = typed.trim_start_matches(|c: char| c.is_ascii_digit());
        if typed.len() > 1
            && matches!(typed.as_bytes()[0], b'i' | b'f')
            && typed[1..].bytes().all(|b| b.is_ascii_digit())
        {
            parts.pop();
        }
    }
    let name = format!("__builtin_amdgcn_{}", parts.join("_"));
    BUILTINS.iter().copied().find(|b| *b == name)
}

impl Parser<'_> {
    /// `… name(params) __asm("llvm.amdgcn.X");` at the parser's position (just after the
    /// parameter list): the device function that calls the builtin, with the label consumed;
    /// `None` when no asm label follows.
    ///
    /// # Errors
    /// A label that names no AMDGPU lane intrinsic listed here, at the label.
    pub(super) fn asm_label_decl(
        &mut self,
        name: &str,
        ret: Ty,
        params: &[Param],
        start: Span,
    ) -> PResult<Option<Function>> {
        let asm = matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "__asm" | "asm" | "__asm__"));
        if !asm || !matches!(self.peek(1), Tok::Punct("(")) {
            return Ok(None);
        }
        let Tok::Str(label) = self.peek(2).clone() else {
            return Ok(None);
        };
        if !matches!(self.peek(3), Tok::Punct(")")) || !matches!(self.peek(4), Tok::Punct(";")) {
            return Ok(None);
        }
        let at = self.span();
        let Some(builtin) = builtin_of(&label) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}` is declared with the asm label \"{label}\", which names no AMDGPU \
                     lane intrinsic read here (asm labels read: llvm.amdgcn.readlane, \
                     readfirstlane, ds.bpermute, ds.permute, ds.swizzle, mov.dpp, update.dpp, \
                     permlane16, permlanex16, permlane64); call the clang builtin instead, \
                     e.g. `__builtin_amdgcn_readlane(v, lane)`"
                ),
            ));
        };
        for _ in 0..5 {
            self.bump();
        }
        let mut params = params.to_vec();
        for (i, p) in params.iter_mut().enumerate() {
            if p.name.is_empty() {
                p.name = format!("__asm_arg{i}");
            }
        }
        let args: Vec<Expr> = params
            .iter()
            .map(|p| Expr::new(ExprKind::Ident(p.name.clone()), start))
            .collect();
        let call = Expr::new(ExprKind::Call(builtin.to_string(), args), start);
        let st = |kind| Stmt {
            kind,
            span: start,
            end: start,
        };
        let body = if matches!(ret, Ty::Void) {
            st(StmtKind::Expr(call))
        } else {
            st(StmtKind::Return(Some(call)))
        };
        Ok(Some(Function {
            name: name.to_string(),
            entry: false,
            ret,
            params,
            body: st(StmtKind::Block(vec![body])),
            launch_bounds: None,
            vf_call_dim: None,
            span: start,
            snippet: false,
            defaults: Vec::new(),
            empty_params: Vec::new(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::builtin_of;

    #[test]
    fn labels_map_to_builtins() {
        assert_eq!(
            builtin_of("llvm.amdgcn.readlane"),
            Some("__builtin_amdgcn_readlane")
        );
        assert_eq!(
            builtin_of("llvm.amdgcn.ds.bpermute"),
            Some("__builtin_amdgcn_ds_bpermute")
        );
        assert_eq!(
            builtin_of("llvm.amdgcn.mov.dpp.i32"),
            Some("__builtin_amdgcn_mov_dpp")
        );
        assert_eq!(
            builtin_of("llvm.amdgcn.update.dpp.i32"),
            Some("__builtin_amdgcn_update_dpp")
        );
        assert_eq!(builtin_of("llvm.amdgcn.s.barrier"), None);
        assert_eq!(builtin_of("llvm.nvvm.shfl"), None);
    }
}
