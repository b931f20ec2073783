//! Inline PTX global loads and stores, one instruction (PTX ISA, "Data Movement and
//! Conversion Instructions: ld, ld.global.nc, st"): `ld.global[.nc][.cache][.v2|.v4].T`
//! `{%0, %1, …}, [%k];` and `st.global[.cache][.v2|.v4].T [%k], {%1, …};` as DeepEP, sglang and
//! TensorRT-LLM write them (`ld_global_nc`, `st_global`). Each is the plain element accesses it
//! performs: element `j` of a vector access is `((T*)addr)[j]` (PTX ISA, "Vectors": a vector
//! access reads or writes consecutive elements), `[%k+N]` adds `N` bytes. The cache and
//! eviction qualifiers (`.nc`, `.ca`, `.cg`, `.cs`, `.lu`, `.cv`, `.L1::no_allocate`,
//! `.L2::128B`, …) and `.volatile`/`.weak` change no value one thread sees; the
//! memory-ordering forms (`.relaxed`, `.acquire`, `.release` with a scope), other state spaces
//! and other types are refused by name.

use super::asm_cvt::Operand;
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// Whether the whitespace-free template `single` is one global load or store.
pub(super) fn is_mem(single: &str) -> bool {
    (single.starts_with("ld.") || single.starts_with("st."))
        && single
            .split(['{', '[', '%'])
            .next()
            .is_some_and(|m| m.contains(".global"))
        && !single.contains(';')
}

/// The element type of a load or store's type suffix.
fn elem_of(t: &str) -> Option<Scalar> {
    Some(match t {
        "s32" => Scalar::I32,
        "u32" | "b32" => Scalar::U32,
        "f32" => Scalar::F32,
        "s64" => Scalar::I64,
        "u64" | "b64" => Scalar::U64,
        "f64" => Scalar::F64,
        _ => return None,
    })
}

impl Parser<'_> {
    /// One global load or store (module doc) as its element accesses, the operands read
    /// after the template.
    ///
    /// # Errors
    /// A qualifier, type or operand shape the module does not list.
    pub(super) fn asm_mem(&mut self, at: Span, single: &str) -> PResult<Stmt> {
        let refuse = |m: String| -> PResult<Stmt> { Err(KernelError::new(at.line, at.col, m)) };
        let cut = single.find(['{', '[', '%']).unwrap_or(single.len());
        let (mnemonic, rest) = single.split_at(cut);
        let load = mnemonic.starts_with("ld.");
        let mut lanes = 1usize;
        let mut elem = None;
        for q in mnemonic.split('.').skip(1) {
            match q {
                "global" | "nc" | "ca" | "cg" | "cs" | "lu" | "cv" | "wb" | "wt" | "volatile"
                | "weak" => {}
                _ if q.starts_with("L1::") || q.starts_with("L2::") => {}
                "v2" => lanes = 2,
                "v4" => lanes = 4,
                _ => match elem_of(q) {
                    Some(s) if elem.is_none() => elem = Some(s),
                    _ => {
                        return refuse(format!(
                            "`{mnemonic}`: the `.{q}` qualifier is not emulated here; global \
                             loads and stores of 32- and 64-bit elements (`.s32`, `.u32`, \
                             `.b32`, `.f32`, `.s64`, `.u64`, `.b64`, `.f64`), `.v2`/`.v4`, \
                             with cache hints (`.nc`, `.cg`, `.L1::no_allocate`, …) are; write \
                             the access in C++ (`x = p[i]`, `__ldg(p + i)`, `p[i] = x`) instead"
                        ))
                    }
                },
            }
        }
        let Some(elem) = elem else {
            return refuse(format!(
                "`{mnemonic}` names no element type (`.s32`, `.f32`, …)"
            ));
        };
        let ops = super::asm_alu::split_operands(rest);
        let (regs, addr) = match (load, ops.as_slice()) {
            (true, [r, a]) | (false, [a, r]) => (r.clone(), a.clone()),
            _ => {
                return refuse(format!(
                    "`{mnemonic}` takes a register list and an address `[%k]` here"
                ))
            }
        };
        let regs: Vec<String> = match regs.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            Some(inner) => inner.split(',').map(str::to_string).collect(),
            None => vec![regs],
        };
        if regs.len() != lanes {
            return refuse(format!(
                "`{mnemonic}` moves {lanes} element(s); the template names {}",
                regs.len()
            ));
        }
        let Some(inner) = addr.strip_prefix('[').and_then(|a| a.strip_suffix(']')) else {
            return refuse(format!("`{mnemonic}`: the address is written `[%k]` here"));
        };
        let (reg, offset) = match inner.split_once('+') {
            Some((r, n)) => (r, n.parse::<u64>().ok()),
            None => (inner, Some(0)),
        };
        let size = u64::from(elem.bits() / 8);
        let Some(offset) = offset.filter(|n| n % size == 0) else {
            return refuse(format!(
                "`{mnemonic}`: an address offset is a constant multiple of the element's {size} \
                 bytes here"
            ));
        };
        let (outs, ins) = self.asm_typed_operands()?;
        let index = |t: &str| -> Option<usize> { t.strip_prefix('%')?.parse().ok() };
        let operand = |t: &str| -> Option<&Operand> {
            let k = index(t)?;
            if k < outs.len() {
                outs.get(k)
            } else {
                ins.get(k - outs.len())
            }
        };
        let e = |k: ExprKind| Expr::new(k, at);
        let Some((_, base)) = operand(reg) else {
            return refuse(format!("`{mnemonic}`: `{reg}` is no operand"));
        };
        let ptr = e(ExprKind::Cast(
            Ty::Ptr(ValTy::scalar(elem)),
            Box::new(base.clone()),
        ));
        let first = offset / size;
        let mut list = Vec::new();
        for (j, r) in regs.iter().enumerate() {
            let cell = e(ExprKind::Index(
                Box::new(ptr.clone()),
                Box::new(e(ExprKind::Int {
                    value: first + j as u64,
                    unsigned: false,
                    long: false,
                })),
            ));
            let Some((c, x)) = operand(r) else {
                return refuse(format!("`{mnemonic}`: `{r}` is no operand"));
            };
            let written = c.starts_with('=') || c.starts_with('+');
            if written != load {
                return refuse(format!(
                    "`{mnemonic}`: `{r}` must be {} operand",
                    if load {
                        "an output (`\"=r\"(x)`)"
                    } else {
                        "an input (`\"r\"(x)`)"
                    }
                ));
            }
            let assign = if load {
                ExprKind::Assign(None, Box::new(x.clone()), Box::new(cell))
            } else {
                let v = e(ExprKind::Cast(
                    Ty::Val(ValTy::scalar(elem)),
                    Box::new(x.clone()),
                ));
                ExprKind::Assign(None, Box::new(cell), Box::new(v))
            };
            list.push(Stmt {
                kind: StmtKind::Expr(e(assign)),
                span: at,
                end: at,
            });
        }
        Ok(Stmt {
            kind: StmtKind::Block(list),
            span: at,
            end: self.last_end(),
        })
    }
}
