//! One arithmetic or bit-manipulation PTX instruction in inline `asm`, as inference kernels
//! write it: `asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));`,
//! `asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(d) : "r"(a), "r"(b), "r"(c));`,
//! `asm("mov.b32 {%0, %1}, %2;" : "=h"(lo), "=h"(hi) : "r"(x));`. The statement becomes
//! `dest = <instruction on the sources>`, run by [`crate::ptx_ops`] (its table lists the
//! instructions and where the PTX ISA defines each).
//!
//! Operands follow CUDA C++ Programming Guide, "Inline PTX Assembly in CUDA": `%N` names the
//! N-th operand, outputs first; a constraint's letter is the register's type (`h` .u16, `r`
//! .u32, `l` .u64, `f` .f32, `d` .f64; `n` an immediate integer) and must be the
//! instruction's; an operand is any C++ expression, converted to that register type; a
//! `"+f"` output may also be read as a source. A source may be a constant written in the
//! template: an integer (`0xEA`, `-1`) or a float (`0f3F800000`, `1.0`; PTX ISA, Floating
//! Point Constants). Everything else is refused before the run, saying what is wrong.

use super::asm_cvt::Operand;
use super::asm_ops::parse_imm;
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// Whether template `single` (spaces removed, one instruction) is this module's: an opcode of
/// [`crate::ptx_ops::ROWS`] (a `mov` only with a `{…}` vector operand, a `cvt` only with two
/// sources).
pub(super) fn is_alu(single: &str) -> bool {
    if single.contains(';') {
        return false;
    }
    let op = single.split(['.', '%', '{']).next().unwrap_or("");
    match op {
        "mov" => single.contains('{'),
        "cvt" => single.matches(',').count() == 2,
        _ => crate::ptx_ops::is_known_opcode(op),
    }
}

/// The register type of a constraint letter.
pub(super) fn reg(letter: char) -> Scalar {
    match letter {
        'h' => Scalar::U16,
        'l' => Scalar::U64,
        'f' => Scalar::F32,
        'd' => Scalar::F64,
        _ => Scalar::U32,
    }
}

/// The letter of constraint `c` (`"=r"` → `r`, `"+f"` → `f`).
pub(super) fn letter(c: &str) -> char {
    c.trim_start_matches(['=', '+', '&'])
        .chars()
        .next()
        .unwrap_or('?')
}

/// What a register letter holds, in words.
fn reg_words(l: char) -> &'static str {
    match l {
        'h' => "a 16-bit register (`\"h\"`)",
        'l' => "a 64-bit register (`\"l\"`)",
        'f' => "an .f32 register (`\"f\"`)",
        'd' => "an .f64 register (`\"d\"`)",
        _ => "a 32-bit register (`\"r\"`)",
    }
}

/// The operand list after the mnemonic, split at its top-level commas (`{%0,%1}` is one).
pub(super) fn split_operands(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0u32, String::new());
    for c in rest.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A float constant of a PTX template: `0fXXXXXXXX` (the .f32 bits), `0dXXXXXXXXXXXXXXXX`
/// (.f64 bits) or a decimal (PTX ISA, Floating Point Constants).
pub(super) fn parse_float(t: &str) -> Option<f64> {
    if let Some(h) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        return u32::from_str_radix(h, 16)
            .ok()
            .map(|b| f64::from(f32::from_bits(b)));
    }
    if let Some(h) = t.strip_prefix("0d").or_else(|| t.strip_prefix("0D")) {
        return u64::from_str_radix(h, 16).ok().map(f64::from_bits);
    }
    t.parse().ok()
}

/// Whether `e` reads without side effects: a variable, constant, member or element of one
/// (through casts). Bounded by the expression's depth, which the parser limits.
fn plain(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Int { .. } => true,
        ExprKind::Member(b, _) | ExprKind::Cast(_, b) => plain(b),
        ExprKind::Index(a, i) => plain(a) && plain(i),
        _ => false,
    }
}

/// The C++ to write instead of an instruction crosslane does not run, by opcode.
pub(super) fn instead(op: &str) -> &'static str {
    match op {
        "ld" | "st" => "a plain load or store (`x = p[i]`, `__ldg(p + i)`)",
        "atom" | "red" => "`atomicAdd` / `atomicCAS` / `atomicMax` …",
        "bar" | "barrier" => "`__syncthreads()` or `__syncwarp(mask)`",
        "setp" | "selp" => "a comparison and `?:`",
        "and" | "or" | "xor" | "not" | "shl" | "shr" => {
            "the C++ operator (`&`, `|`, `^`, `~`, `<<`, `>>`)"
        }
        "abs" | "neg" => "`fabsf(x)` / `-x`",
        "mma" | "wmma" | "ldmatrix" => {
            "`nvcuda::wmma` from `#include <mma.h>` (`wmma::fragment`, `load_matrix_sync`, \
             `mma_sync`, `store_matrix_sync`; shapes m16n16k16, m32n8k16, m8n32k16 with `half` or \
             `__nv_bfloat16` inputs and `float` or `half` accumulators)"
        }
        "dp4a" => "`__dp4a(a, b, c)`",
        "cp" => {
            "`__pipeline_memcpy_async(dst, src, bytes)`, `__pipeline_commit()` and \
             `__pipeline_wait_prior(0)` for `cp.async`, `cp.async.commit_group` and \
             `cp.async.wait_group 0` / `cp.async.wait_all` (a read of the destination before \
             the wait is undefined there, as on the device), or a plain copy"
        }
        "bfind" => "`31 - __clz(x)`",
        "fns" => "`__fns(mask, base, offset)`",
        _ => "the CUDA intrinsic or operator it implements",
    }
}

impl Parser<'_> {
    /// The instruction in `asm` template `instr` (spaces removed, no trailing `;`, one
    /// instruction), up to the statement's `;` ([`is_alu`] holds).
    pub(super) fn asm_alu(&mut self, at: Span, instr: &str) -> PResult<Stmt> {
        let refuse = |m: String| -> PResult<Stmt> { Err(KernelError::new(at.line, at.col, m)) };
        let cut = instr.find(['%', '{']).unwrap_or(instr.len());
        let (written, rest) = instr.split_at(cut);
        let mut ops = split_operands(rest);
        // `mov.b32 {%0,%1}, %2;` unpacks, `mov.b32 %0, {%1,%2};` packs.
        let mut mnemonic = written.to_string();
        let mut unpack = false;
        if written.starts_with("mov.") {
            if written != "mov.b32" {
                return refuse(format!(
                    "`{written}` with a vector operand: only `mov.b32` packing two 16-bit \
                     registers (`mov.b32 %0, {{%1, %2}};`) and unpacking them \
                     (`mov.b32 {{%0, %1}}, %2;`) are emulated"
                ));
            }
            let elements = |t: &str| -> Option<Vec<String>> {
                let inner = t.strip_prefix('{')?.strip_suffix('}')?;
                Some(inner.split(',').map(str::to_string).collect())
            };
            match (ops.first().and_then(|t| elements(t)), ops.get(1)) {
                (Some(dests), Some(src)) if ops.len() == 2 && dests.len() == 2 => {
                    unpack = true;
                    mnemonic = "mov.unpack.b32".into();
                    ops = vec![dests[0].clone(), dests[1].clone(), src.clone()];
                }
                (None, Some(src)) if ops.len() == 2 => match elements(src) {
                    Some(srcs) if srcs.len() == 2 => {
                        mnemonic = "mov.pack.b32".into();
                        ops = vec![ops[0].clone(), srcs[0].clone(), srcs[1].clone()];
                    }
                    _ => {
                        return refuse(
                            "`mov.b32` packs exactly two 16-bit registers: `mov.b32 %0, \
                             {%1, %2};`"
                                .into(),
                        )
                    }
                },
                _ => {
                    return refuse(
                        "`mov.b32` unpacks into exactly two 16-bit registers: `mov.b32 \
                         {%0, %1}, %2;`"
                            .into(),
                    )
                }
            }
        }
        let (row, _) = match crate::ptx_ops::decode(&mnemonic) {
            Ok(r) => r,
            Err(m) => {
                let op = written.split('.').next().unwrap_or("");
                return refuse(format!("{m}; or write {}", instead(op)));
            }
        };
        if row.sm > 0 && self.arch_sm > 0 && self.arch_sm < row.sm {
            let alternative = match row.op {
                "tanh" => "call the CUDA math function `tanhf` instead",
                "cvt" => "call `__nv_cvt_float2_to_fp8x2` instead",
                _ => "call the `cuda_fp16.h` / `cuda_bf16.h` intrinsic instead (`__hadd`, `__hfma`, `__hmax`, …)",
            };
            return refuse(format!(
                "`{written}` needs sm_{} or newer (PTX ISA, {}: Target ISA Notes); --arch \
                 sm_{} has none — {alternative}",
                row.sm, row.op, self.arch_sm
            ));
        }
        let dests = if unpack { 2 } else { 1 };
        // The unpacking row's second source is the element index the lowering adds.
        let srcs = if unpack { 1 } else { row.srcs };
        if ops.len() != dests + srcs {
            return refuse(format!(
                "`{written}` takes {} operand(s) here, the template gives {}",
                dests + srcs,
                ops.len()
            ));
        }
        let (outs, ins) = self.asm_typed_operands()?;
        let index = |t: &str| -> Option<usize> { t.strip_prefix('%')?.parse().ok() };
        // A destination: an output operand of the instruction's register type.
        let dest = |t: &str| -> Result<Expr, KernelError> {
            let e = |m: String| KernelError::new(at.line, at.col, m);
            let k =
                index(t).ok_or_else(|| e(format!("`{t}`: a destination is an operand `%N`")))?;
            let (c, x) = outs
                .get(k)
                .ok_or_else(|| e(format!("`%{k}` is a destination of `{written}`: it must be an output operand (`\"={}\"(d)`)", row.out)))?;
            if letter(c) != row.out {
                return Err(e(format!(
                    "the destination of `{written}` is {}; the constraint `\"{c}\"` is not",
                    reg_words(row.out)
                )));
            }
            Ok(x.clone())
        };
        // A source: an input (or read-write output) of the instruction's register type, or
        // a constant in the template.
        let source = |t: &str| -> Result<Expr, KernelError> {
            let e = |m: String| KernelError::new(at.line, at.col, m);
            let want = row.ins;
            let cast = |x: Expr| {
                Expr::new(
                    ExprKind::Cast(Ty::Val(ValTy::scalar(reg(want))), Box::new(x)),
                    at,
                )
            };
            if let Some(k) = index(t) {
                let found: Option<&Operand> = if k < outs.len() {
                    outs.get(k).filter(|(c, _)| c.starts_with('+'))
                } else {
                    ins.get(k - outs.len())
                };
                let (c, x) = found.ok_or_else(|| {
                    e(format!(
                        "`%{k}` is a source of `{written}`: it must be an input operand (or a \
                         `\"+{want}\"` output)"
                    ))
                })?;
                let l = letter(c);
                if l != want && !(l == 'n' && want != 'f' && want != 'd') {
                    return Err(e(format!(
                        "the sources of `{written}` are {}; the constraint `\"{c}\"` of `%{k}` \
                         is not",
                        reg_words(want)
                    )));
                }
                return Ok(cast(x.clone()));
            }
            let lit = if matches!(want, 'f' | 'd') {
                parse_float(t).map(|v| ExprKind::Float {
                    value: v,
                    single: want == 'f',
                })
            } else {
                parse_imm(t).map(|v| ExprKind::Int {
                    value: v,
                    unsigned: true,
                    long: false,
                })
            };
            let lit = lit.ok_or_else(|| {
                e(format!(
                    "`{t}` in `{written}` is no operand `%N` nor a constant of its type"
                ))
            })?;
            Ok(cast(Expr::new(lit, at)))
        };
        let args: Vec<Expr> = ops[dests..]
            .iter()
            .map(|t| source(t))
            .collect::<Result<_, _>>()?;
        let name = crate::ptx_ops::callee(&mnemonic);
        let assign = |d: Expr, args: Vec<Expr>| {
            let call = Expr::new(ExprKind::Call(name.clone(), args), at);
            let value = Expr::new(
                ExprKind::Cast(Ty::Val(ValTy::scalar(reg(row.out))), Box::new(call)),
                at,
            );
            Stmt {
                kind: StmtKind::Expr(Expr::new(
                    ExprKind::Assign(None, Box::new(d), Box::new(value)),
                    at,
                )),
                span: at,
                end: self.last_end(),
            }
        };
        if unpack {
            // Both halves read the source: one without side effects (a variable, a member, an
            // element), so that reading it twice is reading it once.
            if !plain(&args[0]) {
                return refuse(
                    "the source of an unpacking `mov.b32 {%0, %1}, %2;` must be a variable, \
                     member or array element (it is read for each half); store the value in a \
                     variable first"
                        .into(),
                );
            }
            let k = |v| super::cg_lower::uint_lit(at, v);
            let lo = assign(dest(&ops[0])?, vec![args[0].clone(), k(0)]);
            let hi = assign(dest(&ops[1])?, vec![args[0].clone(), k(1)]);
            return Ok(Stmt {
                kind: StmtKind::Block(vec![lo, hi]),
                span: at,
                end: self.last_end(),
            });
        }
        Ok(assign(dest(&ops[0])?, args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_and_constants() {
        assert_eq!(split_operands("{%0,%1},%2"), vec!["{%0,%1}", "%2"]);
        assert_eq!(parse_float("0f3F800000"), Some(1.0));
        assert_eq!(parse_float("0fBF000000"), Some(-0.5));
        assert!(is_alu("ex2.approx.f32%0,%1"));
        assert!(is_alu("mov.b32%0,{%1,%2}"));
        assert!(!is_alu("mov.u32%0,%%laneid"));
        assert!(is_alu("cvt.rn.f16x2.f32%0,%1,%2"));
        assert!(!is_alu("cvt.rn.f16.f32%0,%1"));
    }
}
