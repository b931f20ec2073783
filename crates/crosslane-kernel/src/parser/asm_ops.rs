//! The one-line PTX warp instructions real code writes in inline `asm`, mapped to the CUDA
//! intrinsics that compile to them (so they run through the registry's operations):
//!
//! | PTX (PTX ISA section) | intrinsic |
//! |---|---|
//! | `activemask.b32 %0;` (activemask) | `__activemask()` |
//! | `shfl.sync.bfly.b32 %0, %1, %2, C, M;` (shfl.sync) | `__shfl_xor_sync(M, %1, %2, w)` |
//! | `shfl.sync.down.b32 …` | `__shfl_down_sync(M, %1, %2, w)` |
//! | `shfl.sync.up.b32 …` | `__shfl_up_sync(M, %1, %2, w)` |
//! | `shfl.sync.idx.b32 …` | `__shfl_sync(M, %1, %2, w)` |
//! | `{ .reg .pred p; setp.ne.b32 p, %1, 0; vote.sync.ballot.b32 %0, p, M; }` (setp, vote.sync) | `__ballot_sync(M, %1 != 0)` |
//!
//! `C` packs the segment mask and the clamp (PTX ISA, shfl.sync: `c = ((32 - w) << 8) | clamp`,
//! the clamp `0x1f` for `down`/`bfly`/`idx` and 0 for `up`, as the CUDA headers write it for a
//! width `w`); it must be a constant in that form, and `w` is read from it. `M` (the member
//! mask) and the operands may be `%N` operands or constants. Any other form is refused with the
//! intrinsic to call.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

impl Parser<'_> {
    /// `activemask` or `shfl.sync` in an `asm` statement whose template `instr` (without
    /// spaces) has been read, up to its `;`.
    pub(super) fn asm_warp_op(&mut self, at: Span, instr: &str) -> PResult<Stmt> {
        let refuse = |m: String| Err(KernelError::new(at.line, at.col, m));
        let (outs, ins, float) = self.asm_operands()?;
        // Whether operand `%k` is an `"f"` register.
        let is_float = |text: &str| {
            text.strip_prefix('%')
                .and_then(|k| k.parse::<usize>().ok())
                .is_some_and(|k| float.get(k) == Some(&true))
        };
        let shfl_b32 = instr.starts_with("shfl.sync.") && instr.contains(".b32");
        if float.contains(&true) && !shfl_b32 {
            return refuse(
                "an `\"f\"` (float register) operand is read only for `shfl.sync.*.b32`; pass \
                 the value's bits with `\"r\"(__float_as_uint(x))` and read them back with \
                 `__uint_as_float`"
                    .to_string(),
            );
        }
        let operand = |text: &str| -> Result<Expr, KernelError> {
            if let Some(k) = text.strip_prefix('%') {
                let k: usize = k.parse().map_err(|_| {
                    KernelError::new(at.line, at.col, format!("`{text}` is no operand"))
                })?;
                return outs.iter().chain(&ins).nth(k).cloned().ok_or_else(|| {
                    KernelError::new(at.line, at.col, format!("no operand `{text}`"))
                });
            }
            parse_imm(text)
                .map(|v| super::cg_lower::uint_lit(at, v))
                .ok_or_else(|| {
                    KernelError::new(
                        at.line,
                        at.col,
                        format!("`{text}` is no operand or constant"),
                    )
                })
        };
        if let Some(block) = instr.strip_prefix('{') {
            // `{ .reg .pred p; setp.ne.b32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }`.
            let Some((dest, x, mask)) = ballot_block(block) else {
                return refuse(
                    "of the multi-instruction `asm { … }` blocks only the ballot form \
                     `{ .reg .pred p; setp.ne.b32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }` \
                     is emulated; call `__ballot_sync(mask, x != 0)` instead"
                        .to_string(),
                );
            };
            let zero = self.e_int(at, 0);
            let pred = Expr::new(
                ExprKind::Binary(
                    crate::types::BinOp::Ne,
                    Box::new(operand(&x)?),
                    Box::new(zero),
                ),
                at,
            );
            let call = Expr::new(
                ExprKind::Call("__ballot_sync".into(), vec![operand(&mask)?, pred]),
                at,
            );
            return Ok(self.asm_assign(at, operand(&dest)?, call));
        }
        let (mnemonic, rest) = instr.split_once('%').map_or((instr, ""), |(m, r)| (m, r));
        let ops: Vec<String> = if rest.is_empty() {
            Vec::new()
        } else {
            format!("%{rest}").split(',').map(str::to_string).collect()
        };
        let (dest, value) = match mnemonic {
            "activemask.b32" if ops.len() == 1 => (
                operand(&ops[0])?,
                Expr::new(ExprKind::Call("__activemask".into(), Vec::new()), at),
            ),
            m if m.starts_with("shfl.sync.") && ops.len() == 5 => {
                let mode = m.trim_start_matches("shfl.sync.").trim_end_matches(".b32");
                let (name, clamp) = match mode {
                    "bfly" => ("__shfl_xor_sync", 0x1f),
                    "down" => ("__shfl_down_sync", 0x1f),
                    "up" => ("__shfl_up_sync", 0),
                    "idx" => ("__shfl_sync", 0x1f),
                    _ => {
                        return refuse(format!(
                            "`{m}` is not a shfl.sync mode (up, down, bfly, idx)"
                        ))
                    }
                };
                // C written in the string, or an operand whose value is known before the run
                // (a literal, a constant, a template argument), or one that is not.
                let c_expr = operand(&ops[3])?;
                let known = parse_imm(&ops[3])
                    .or_else(|| super::const_int(&c_expr).and_then(|v| u64::try_from(v).ok()))
                    .or_else(|| self.fold_int(&c_expr).and_then(|v| u64::try_from(v).ok()));
                let form = |c: u64| c & 0xff == clamp && c >> 13 == 0;
                let (w, keep) = match known {
                    Some(c) if form(c) => (self.e_int(at, 32 - (c >> 8) as i64), None),
                    Some(c) => {
                        return refuse(format!(
                            "`{m}`: its third operand is {c:#x}; only the form `((32 - width) << \
                             8) | {clamp:#x}` is emulated (PTX ISA, shfl.sync: the segment mask \
                             and the clamp of a `{name}` of that width); call `{name}` instead"
                        ))
                    }
                    None => self.shfl_runtime_c(at, &c_expr, clamp),
                };
                // `.b32` moves the source's 32 bits unchanged: a float source's bits go in,
                // and a float destination takes the bits back.
                let mut src = operand(&ops[1])?;
                if is_float(&ops[1]) {
                    src = Expr::new(ExprKind::Call("__float_as_uint".into(), vec![src]), at);
                }
                let args = vec![operand(&ops[4])?, src, operand(&ops[2])?, w];
                let mut value = Expr::new(ExprKind::Call(name.into(), args), at);
                if let Some((ok, why)) = keep {
                    value = Expr::new(
                        ExprKind::Call(crate::builtins::VALID_ONLY.into(), vec![value, ok, why]),
                        at,
                    );
                }
                if is_float(&ops[0]) {
                    let value =
                        Expr::new(ExprKind::Call("__uint_as_float".into(), vec![value]), at);
                    let dest = operand(&ops[0])?;
                    return Ok(Stmt {
                        kind: StmtKind::Expr(Expr::new(
                            ExprKind::Assign(None, Box::new(dest), Box::new(value)),
                            at,
                        )),
                        span: at,
                        end: self.last_end(),
                    });
                }
                (operand(&ops[0])?, value)
            }
            _ => {
                return refuse(format!(
                    "inline `asm` `{mnemonic}` with these operands is not emulated; call the \
                     intrinsic (`__activemask()`, `__shfl_sync`, `__shfl_xor_sync`, …)"
                ))
            }
        };
        Ok(self.asm_assign(at, dest, value))
    }

    /// The width of a `shfl.sync` whose operand C (`c`) is known only in the run, each lane's
    /// own (PTX ISA, shfl.sync: `c` is read per thread; its bits 12:8 are the segment mask
    /// `32 - width`): `32 - ((c >> 8) & 0x1f)`, and the check that keeps the result where `c`
    /// has the form `((32 - width) << 8) | clamp` and leaves it undefined elsewhere with the
    /// reason (another segment mask or clamp is not emulated).
    fn shfl_runtime_c(&mut self, at: Span, c: &Expr, clamp: u64) -> (Expr, Option<(Expr, Expr)>) {
        use crate::types::BinOp;
        let bin = |op: BinOp, a: Expr, b: Expr| {
            Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), at)
        };
        let seg = bin(
            BinOp::And,
            bin(BinOp::Shr, c.clone(), self.e_int(at, 8)),
            self.e_int(at, 0x1f),
        );
        let width = bin(BinOp::Sub, self.e_int(at, 32), seg);
        let low = bin(
            BinOp::Eq,
            bin(BinOp::And, c.clone(), self.e_int(at, 0xff)),
            self.e_int(at, clamp as i64),
        );
        let high = bin(
            BinOp::Eq,
            bin(BinOp::Shr, c.clone(), self.e_int(at, 13)),
            self.e_int(at, 0),
        );
        let ok = Expr::new(ExprKind::Logical(true, Box::new(low), Box::new(high)), at);
        let why = Expr::new(
            ExprKind::Str(format!(
                "the shfl.sync operand C is not of the form ((32 - width) << 8) | {clamp:#x} in \
                 this lane; only that form is emulated (PTX ISA, shfl.sync)"
            )),
            at,
        );
        (width, Some((ok, why)))
    }

    /// `dest = (unsigned)value;` as the `asm` statement's own.
    fn asm_assign(&self, at: Span, dest: Expr, value: Expr) -> Stmt {
        let value = Expr::new(
            ExprKind::Cast(Ty::Val(ValTy::scalar(Scalar::U32)), Box::new(value)),
            at,
        );
        Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(dest), Box::new(value)),
                at,
            )),
            span: at,
            end: self.last_end(),
        }
    }

    /// `: "=r"(a) : "r"(b), "r"(c) : "memory")` and the `;`: the outputs' and the inputs'
    /// expressions (32-bit `r` operands or `n` constants; clobbers skipped).
    /// An `"f"` operand (a 32-bit float register) is marked in the third list (outputs, then
    /// inputs, in operand order): only a `.b32` instruction takes one (PTX ISA, "Operand Type
    /// Information": a bit-size type is compatible with any fundamental type of its size).
    #[allow(clippy::type_complexity)]
    fn asm_operands(&mut self) -> PResult<(Vec<Expr>, Vec<Expr>, Vec<bool>)> {
        let mut groups: [Vec<Expr>; 2] = [Vec::new(), Vec::new()];
        let mut float = Vec::new();
        for group in &mut groups {
            if !self.eat(":") {
                break;
            }
            while let Tok::Str(c) = self.peek(0).clone() {
                if !matches!(c.as_str(), "=r" | "r" | "n" | "+r" | "=f" | "f" | "+f") {
                    return self.err("a `\"r\"` operand (32-bit register) here");
                }
                float.push(c.ends_with('f'));
                self.bump();
                self.expect_punct("(")?;
                group.push(self.expr()?);
                self.expect_punct(")")?;
                if !self.eat(",") {
                    break;
                }
            }
        }
        // Clobbers.
        if self.eat(":") {
            while matches!(self.peek(0), Tok::Str(_) | Tok::Punct(",")) {
                self.bump();
            }
        }
        self.expect_punct(")")?;
        self.expect_punct(";")?;
        let [outs, ins] = groups;
        Ok((outs, ins, float))
    }
}

/// The operands of a ballot block (without its `{`, spaces removed): the destination, the
/// value tested against 0 and the member mask (PTX ISA, setp and vote.sync: `setp.ne` makes
/// the predicate `x != 0`, `vote.sync.ballot.b32 d, p, membermask` gathers it per lane).
/// Whether template `instr` (spaces removed) is the one ballot block [`Parser::asm_warp_op`]
/// reads as `__ballot_sync`.
pub(super) fn is_ballot_block(instr: &str) -> bool {
    instr.strip_prefix('{').and_then(ballot_block).is_some()
}

fn ballot_block(block: &str) -> Option<(String, String, String)> {
    let body = block.strip_suffix('}')?;
    let mut parts = body.split(';').filter(|p| !p.is_empty());
    let reg = parts.next()?;
    let pred = reg.strip_prefix(".reg.pred")?;
    let setp = parts.next()?;
    let setp_ops = ["setp.ne.b32", "setp.ne.u32", "setp.ne.s32"]
        .iter()
        .find_map(|m| setp.strip_prefix(m))?;
    let [p, x, zero]: [&str; 3] = setp_ops.split(',').collect::<Vec<_>>().try_into().ok()?;
    if p != pred || parse_imm(zero) != Some(0) {
        return None;
    }
    let vote = parts.next()?.strip_prefix("vote.sync.ballot.b32")?;
    let [d, q, mask]: [&str; 3] = vote.split(',').collect::<Vec<_>>().try_into().ok()?;
    if q != pred || parts.next().is_some() {
        return None;
    }
    Some((d.to_string(), x.to_string(), mask.to_string()))
}

/// A PTX integer constant: decimal or `0x` hexadecimal, a negative one as its 32-bit two's
/// complement (`-1` is `0xffffffff`; PTX ISA, Integer Constants).
pub(super) fn parse_imm(t: &str) -> Option<u64> {
    if let Some(n) = t.strip_prefix('-') {
        return parse_imm(n).map(|v| u64::from((v as u32).wrapping_neg()));
    }
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}
