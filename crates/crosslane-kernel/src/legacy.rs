//! CUDA code calling the warp intrinsics without `_sync` (`__shfl`, `__shfl_up`, `__shfl_down`,
//! `__shfl_xor`, `__ballot`, `__any`, `__all`): they still run (by the HIP entries, which keep
//! these names and the same lane rule), with a warning at each call site.
//!
//! Source: CUDA C++ Programming Guide, "Warp Shuffle Functions" and "Warp Vote Functions":
//! the non-`_sync` forms are deprecated since CUDA 9.0 and removed for devices of compute
//! capability 7.x (sm_70) and higher.

use super::ast::{Expr, ExprKind, Program, Stmt, StmtPartRef};
use super::KernelDiagnostic;
use crosslane_core::result::Level;

/// The intrinsics CUDA 9 replaced by `_sync` forms.
const LEGACY: &[&str] = &[
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__ballot",
    "__any",
    "__all",
];

/// One warning per call of a pre-CUDA-9 warp intrinsic in `program` (walked without recursion).
pub fn legacy_warnings(program: &Program) -> Vec<KernelDiagnostic> {
    let mut out = Vec::new();
    let mut stmts: Vec<&Stmt> = program.functions.iter().map(|f| &f.body).collect();
    let mut exprs: Vec<&Expr> = Vec::new();
    while let Some(s) = stmts.pop() {
        s.kind.for_each_part(|part| match part {
            StmtPartRef::Expr(e) => exprs.push(e),
            StmtPartRef::Stmt(c) => stmts.push(c),
        });
    }
    while let Some(e) = exprs.pop() {
        if let ExprKind::Call(name, _) = &e.kind {
            if LEGACY.contains(&name.as_str()) {
                out.push(KernelDiagnostic::new(
                    e.span,
                    Level::Warning,
                    format!(
                        "`{name}` is the pre-CUDA-9 form: deprecated in CUDA 9.0 and removed \
                         for sm_70 and newer; it runs here by its HIP rule (all lanes); \
                         write `{name}_sync(mask, …)`"
                    ),
                    "CUDA C++ Programming Guide, Warp Shuffle Functions / Warp Vote Functions",
                ));
            }
        }
        e.kind.for_each_child(|c| exprs.push(c));
    }
    out.sort_by_key(|d| (d.line, d.col));
    out
}
