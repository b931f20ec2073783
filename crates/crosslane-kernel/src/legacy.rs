//! CUDA code calling the warp intrinsics without `_sync` (`__shfl`, `__shfl_up`, `__shfl_down`,
//! `__shfl_xor`, `__ballot`, `__any`, `__all`): they still run (by the HIP entries, which keep
//! these names and the same lane rule), with a warning at each call site.
//!
//! Source: CUDA C++ Programming Guide, "Warp Shuffle Functions" and "Warp Vote Functions":
//! the non-`_sync` forms are deprecated since CUDA 9.0 and removed for devices of compute
//! capability 7.x (sm_70) and higher.
//!
//! The other way round, intrinsics newer than the target: the `__reduce_*_sync` functions
//! ("Warp Reduce Functions": "supported by devices of compute capability 8.x or higher") do
//! not exist below sm_80, nor the `__match_*_sync` functions ("Warp Match Functions":
//! "supported by devices of compute capability 7.x or higher") below sm_70, so a CUDA file
//! calling one under an older `--arch` is refused at the call ([`arch_gate`]), as nvcc
//! refuses it.

use super::ast::{Expr, ExprKind, Program, Span, Stmt, StmtPartRef};
use super::{KernelDiagnostic, KernelError};
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
    for (e, name) in calls(program)
        .into_iter()
        .filter(|(_, n)| LEGACY.contains(n))
    {
        out.push(KernelDiagnostic::new(
            e.span,
            Level::Warning,
            format!(
                "`{name}` is the pre-CUDA-9 form: deprecated in CUDA 9.0 and removed for sm_70 \
                 and newer; it runs here by its HIP rule (all lanes); write \
                 `{name}_sync(mask, …)`"
            ),
            "CUDA C++ Programming Guide, Warp Shuffle Functions / Warp Vote Functions",
        ));
    }
    out.sort_by_key(|d| (d.line, d.col));
    out
}

/// Every call in `program`'s function bodies with its callee's name (walked without
/// recursion, in no particular order).
fn calls(program: &Program) -> Vec<(&Expr, &str)> {
    calls_by_function(program)
        .into_iter()
        .map(|(e, n, _)| (e, n))
        .collect()
}

/// [`calls`], each with the index of the function whose body holds it.
fn calls_by_function(program: &Program) -> Vec<(&Expr, &str, usize)> {
    let mut out = Vec::new();
    for (k, f) in program.functions.iter().enumerate() {
        let mut stmts: Vec<&Stmt> = vec![&f.body];
        let mut exprs: Vec<&Expr> = Vec::new();
        while let Some(s) = stmts.pop() {
            s.kind.for_each_part(|part| match part {
                StmtPartRef::Expr(e) => exprs.push(e),
                StmtPartRef::Stmt(c) => stmts.push(c),
            });
        }
        while let Some(e) = exprs.pop() {
            if let ExprKind::Call(name, _) = &e.kind {
                out.push((e, name.as_str(), k));
            }
            e.kind.for_each_child(|c| exprs.push(c));
        }
    }
    out
}

/// A call at `at` inside crosslane's library declarations (`ast::Span::in_library`), in
/// function `f`: the user's call of the library function that leads to it (climbing library
/// callers, at most 16 levels) and that function's name; `None` outside them or when no
/// user call is found.
fn library_caller(program: &Program, at: Span, f: usize) -> Option<(Span, String)> {
    if !at.in_library() {
        return None;
    }
    let all = calls_by_function(program);
    let mut name = program.functions.get(f)?.name.clone();
    for _ in 0..16 {
        let (e, _, k) = all.iter().find(|(_, n, _)| *n == name)?;
        if !e.span.in_library() {
            return Some((e.span, name));
        }
        name = program.functions.get(*k)?.name.clone();
    }
    None
}

/// The warp reduce intrinsics (CUDA C++ Programming Guide, Warp Reduce Functions).
const WARP_REDUCE: &[&str] = &[
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
];

/// The warp match intrinsics (CUDA C++ Programming Guide, Warp Match Functions).
const WARP_MATCH: &[&str] = &["__match_any_sync", "__match_all_sync"];

/// Intrinsics newer than some targets: their names, the first compute capability that has
/// them (as [`sm_number`] counts), the Programming Guide section saying so, and what to write
/// instead.
const ARCH_GATED: &[(&[&str], u32, &str, &str)] = &[
    (
        WARP_REDUCE,
        80,
        "Warp Reduce Functions",
        "write the reduction with `__shfl_xor_sync` (a butterfly over offsets 16, 8, 4, 2, 1)",
    ),
    (
        crate::builtins::PDL_CALLS,
        90,
        "Programmatic Dependent Launch and Synchronization; PTX ISA, griddepcontrol: sm_90 \
         or higher",
        "put the call under `#if __CUDA_ARCH__ >= 900` (a launch with no programmatic \
         dependency starts after the work before it has completed, so it waits for nothing)",
    ),
    (
        WARP_MATCH,
        70,
        "Warp Match Functions",
        "compare each lane's value with the others' through `__shfl_sync` and collect the \
         equal ones with `__ballot_sync`",
    ),
];

/// The compute capability `--arch` names, as 100 × major + 10 × minor's first two digits
/// (`sm_70` → 70, `compute_86` → 86); `None` for none or another spelling.
pub(crate) fn sm_number(arch: Option<&str>) -> Option<u32> {
    let a = arch?;
    let digits: String = a
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Refuses the first call of an intrinsic of `ARCH_GATED` when `--arch` names a target
/// below the first that has it (CUDA C++ Programming Guide: Warp Reduce Functions, compute
/// capability 8.x or higher; Warp Match Functions, 7.x or higher; Programmatic Dependent Launch
/// and Synchronization, 9.0). No `--arch` is sm_90, which has them all. The walk has no recursion.
///
/// # Errors
/// The first such call, at its line, saying what to write instead.
pub fn arch_gate(program: &Program, arch: Option<&str>) -> Result<(), KernelError> {
    let Some(sm) = sm_number(arch) else {
        return Ok(());
    };
    let gated: Vec<_> = ARCH_GATED.iter().filter(|g| sm < g.1).collect();
    if gated.is_empty() {
        return Ok(());
    }
    let arch = arch.unwrap_or_default();
    let mut first: Option<(u32, u32, String, usize, String)> = None;
    for (e, name, f) in calls_by_function(program) {
        let hit = gated.iter().position(|g| g.0.contains(&name));
        if let Some(g) = hit {
            // A call inside crosslane's library declarations is placed at the user's call of
            // the library function ([`library_caller`]).
            let (at, inside) = match library_caller(program, e.span, f) {
                Some((at, lib)) => (at, crate::lib_site::inside_note(&lib)),
                None => (e.span, String::new()),
            };
            if first
                .as_ref()
                .is_none_or(|(l, c, ..)| (at.line, at.col) < (*l, *c))
            {
                first = Some((at.line, at.col, name.to_string(), g, inside));
            }
        }
    }
    match first {
        None => Ok(()),
        Some((line, col, name, g, inside)) => {
            let (_, min, section, instead) = gated[g];
            Err(KernelError::new(
                line,
                col,
                format!(
                    "`{name}` needs compute capability {}.0 or higher (CUDA C++ Programming \
                     Guide, {section}), and `--arch {arch}` is below it: nvcc refuses it for \
                     this target{inside}. Run with `--arch sm_{min}` or later, or {instead}",
                    min / 10
                ),
            ))
        }
    }
}
