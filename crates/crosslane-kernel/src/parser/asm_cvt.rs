//! The PTX `cvt` instruction in inline `asm`, as int8 quantization and half-conversion code
//! writes it: `asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(d) : "f"(x));`, also inside
//! one pair of braces (`"{ cvt.rn.f16.f32 %0, %1; }"`). The statement becomes the assignment
//! `d = <cvt of x>` whose callee [`crate::ptx_cvt`] names and runs (PTX ISA, cvt; the operand
//! constraints `h r l f d` of CUDA C++ Programming Guide, "Inline PTX Assembly in CUDA").
//! A form `ptx_cvt` does not emulate is refused here, before the run, naming what it is.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// An `asm` operand: its constraint (`"=r"`, `"f"`) and its expression.
pub(super) type Operand = (String, Expr);

impl Parser<'_> {
    /// `cvt…` in an `asm` statement whose template `instr` (spaces removed, no trailing `;`,
    /// braces removed) has been read, up to its `;`.
    pub(super) fn asm_cvt(&mut self, at: Span, instr: &str) -> PResult<Stmt> {
        let refuse = |m: String| Err(KernelError::new(at.line, at.col, m));
        let (outs, ins) = self.asm_typed_operands()?;
        let (mnemonic, rest) = instr.split_once('%').unwrap_or((instr, ""));
        let ops: Vec<&str> = rest.split(',').collect();
        let index = |t: &str| t.trim_start_matches('%').parse::<usize>().ok();
        let (Some(d), Some(a), 2) = (index(ops[0]), ops.get(1).and_then(|t| index(t)), ops.len())
        else {
            return refuse(format!(
                "`{mnemonic}`: write it as `{mnemonic} %0, %1;` with one output and one input \
                 operand (only the one-source cvt is emulated)"
            ));
        };
        let out = outs.get(d).cloned();
        let input = a.checked_sub(outs.len()).and_then(|k| ins.get(k)).cloned();
        let (Some((oc, dest)), Some((ic, src))) = (out, input) else {
            return refuse(format!(
                "`{mnemonic}`: its destination must be an output operand (`\"=r\"(d)`) and its \
                 source an input operand (`\"f\"(x)`)"
            ));
        };
        let letter = |c: &str| {
            c.trim_start_matches(['=', '+'])
                .chars()
                .next()
                .unwrap_or('?')
        };
        let (o, i) = (letter(&oc), letter(&ic));
        let name = match crate::ptx_cvt::callee(mnemonic, o, i) {
            Ok(n) => n,
            Err(m) => return refuse(m),
        };
        let reg = match o {
            'h' => Scalar::U16,
            'l' => Scalar::U64,
            'f' => Scalar::F32,
            'd' => Scalar::F64,
            _ => Scalar::U32,
        };
        let call = Expr::new(ExprKind::Call(name, vec![src]), at);
        let value = Expr::new(
            ExprKind::Cast(Ty::Val(ValTy::scalar(reg)), Box::new(call)),
            at,
        );
        Ok(Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(dest), Box::new(value)),
                at,
            )),
            span: at,
            end: self.last_end(),
        })
    }

    /// `: "=r"(a) : "f"(b) : "memory")` and the `;`: the outputs' and the inputs' constraints
    /// with their expressions (clobbers skipped). An empty group's two colons may be one `::`
    /// token (`asm("st…" :: "l"(p), "r"(v));`, GCC's extended asm: the output list is empty).
    pub(super) fn asm_typed_operands(&mut self) -> PResult<(Vec<Operand>, Vec<Operand>)> {
        let mut groups: [Vec<Operand>; 2] = [Vec::new(), Vec::new()];
        // The colon that opens the next group, when a `::` gave it already.
        let mut opened = false;
        for group in &mut groups {
            if opened {
                opened = false;
            } else if self.eat("::") {
                // This group is empty; the next one is open.
                opened = true;
                continue;
            } else if !self.eat(":") {
                break;
            }
            while let Tok::Str(c) = self.peek(0).clone() {
                self.bump();
                self.expect_punct("(")?;
                group.push((c, self.expr()?));
                self.expect_punct(")")?;
                if !self.eat(",") {
                    break;
                }
            }
        }
        if opened || self.eat(":") || self.eat("::") {
            while matches!(self.peek(0), Tok::Str(_) | Tok::Punct(",")) {
                self.bump();
            }
        }
        self.expect_punct(")")?;
        self.expect_punct(";")?;
        let [outs, ins] = groups;
        Ok((outs, ins))
    }
}
