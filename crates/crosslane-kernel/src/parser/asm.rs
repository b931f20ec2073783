//! Inline PTX `asm` (CUDA C++ Programming Guide, "Inline PTX Assembly in CUDA") in the one shape
//! real warp-level code uses it: a `mov` that reads a special register into a C++ variable,
//! `asm("mov.u32 %0, %%laneid;" : "=r"(id));`. Each register is the value PTX ISA section
//! "Special Registers" defines for the emulated 32-lane warp:
//!
//! | register | value (PTX ISA, Special Registers) |
//! |---|---|
//! | `%laneid` | the thread's lane in its warp (0..=31) |
//! | `%lanemask_eq` | `1 << laneid` |
//! | `%lanemask_lt` | lanes below: `(1 << laneid) - 1` |
//! | `%lanemask_le` | lanes at or below: `(2 << laneid) - 1` (32-bit, so lane 31 gives all ones) |
//! | `%lanemask_gt` | `~%lanemask_le` |
//! | `%lanemask_ge` | `~%lanemask_lt` |
//!
//! | `%warpid` | the warp's index in its block as the emulator schedules it: the thread's linear index in the block / `warpSize` (PTX ISA, %warpid: "volatile", the warp's slot may change when it is preempted; real code must not use it as a stable id — the emulator never moves a warp) |
//! | `%nwarpid` | the most warp ids of the SM: its most resident warps for the `--arch` (PTX ISA, %nwarpid; `machine::special_regs::max_warps_per_sm`), 64 on sm_90 — not the warps of the block |
//! | `%clock`, `%clock64` | the run's work counter (`machine::special_regs`), `%clock` its low 32 bits |
//! | `%smid`, `%nsmid`, `%globaltimer` | undefined, with the reason: the emulator has no SMs and no time base |
//!
//! Each is read with `"=r"` (32-bit) or `"=l"` (64-bit, `mov.u64`). The one-line warp
//! instructions `activemask.b32 %0;` and `shfl.sync.{up,down,bfly,idx}.b32` map to the
//! registry's intrinsics ([`super::asm_ops`]); a one-source `cvt` (`cvt.rni.sat.s8.f32 %0, %1;`)
//! runs as the PTX ISA defines it ([`super::asm_cvt`], [`crate::ptx_cvt`]); one fast-math,
//! float, packed-half or bit instruction (`ex2.approx.f32`, `fma.rn.f16x2`, `lop3.b32`, …)
//! runs as [`crate::ptx_ops`] lists ([`super::asm_alu`]); one global load or store
//! (`ld.global.nc.v4.s32`, `st.global.v4.s32`) as its element accesses ([`super::asm_mem`]);
//! `griddepcontrol.wait` / `griddepcontrol.launch_dependents` as the calls of
//! `builtins::PDL_CALLS`; every other instruction is refused
//! before the run, by name, with the intrinsic to call instead.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

impl Parser<'_> {
    /// Skips an `asm` statement's remaining operand lists (inputs, clobbers) to its closing
    /// `)` and reads that `)` and the `;`.
    ///
    /// # Errors
    /// The `)` or the `;` is missing.
    fn skip_asm_rest(&mut self) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.peek(0) {
                Tok::Eof => return self.err("`)` to close the `asm`"),
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") if depth == 0 => break,
                Tok::Punct(")") => depth -= 1,
                _ => {}
            }
            self.bump();
        }
        self.expect_punct(")")?;
        self.expect_punct(";")?;
        Ok(())
    }

    /// `asm [volatile] ("template" : "=r"(out) [: inputs [: clobbers]]);` from the `asm` word,
    /// as the assignment `out = <register's value>`.
    pub(super) fn asm_stmt(&mut self) -> PResult<Stmt> {
        let at = self.span();
        self.bump(); // asm / __asm__ / __asm
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "volatile" | "__volatile__" | "inline"))
        {
            self.bump();
        }
        self.expect_punct("(")?;
        let mut text = String::new();
        while let Tok::Str(s) = self.peek(0).clone() {
            text.push_str(&s);
            self.bump();
        }
        // `\n\t` between instructions are separators, as the whitespace they stand for.
        let text = text.replace("\\n", " ").replace("\\t", " ");
        let instr: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let instr = instr.trim_end_matches(';');
        let refuse = |m: String| Err(KernelError::new(at.line, at.col, m));
        // One `cvt`, alone or in one pair of braces.
        let single = instr
            .strip_prefix('{')
            .and_then(|b| b.strip_suffix('}'))
            .map_or(instr, |b| b.trim_end_matches(';'));
        // One integer or logic instruction (`add.u32 %0, %1, %2;`), or one shuffle without
        // `.sync` (`shfl.up.b32 %0, %1, %2, %3;`, pre-sm_70 code): a block of one
        // ([`super::asm_block`] runs the shuffle by PTX ISA's shfl definition).
        if super::asm_block::is_integer_one_liner(single)
            || (single.starts_with("shfl.")
                && !single.starts_with("shfl.sync")
                && !single.contains(';'))
        {
            let t = text.trim();
            let block = if t.starts_with('{') {
                t.to_string()
            } else {
                format!("{{ {t} }}")
            };
            return self.asm_block(at, &block);
        }
        // One global load or store ([`super::asm_mem`]).
        if super::asm_mem::is_mem(single) {
            return self.asm_mem(at, single);
        }
        // One arithmetic or bit instruction (a two-source packing `cvt` among them).
        if super::asm_alu::is_alu(single) {
            return self.asm_alu(at, single);
        }
        if single.starts_with("cvt.") && !single.contains(';') {
            return self.asm_cvt(at, single);
        }
        // A block of several instructions other than the ballot form: run in order.
        if instr.starts_with('{') && !super::asm_ops::is_ballot_block(instr) {
            return self.asm_block(at, &text);
        }
        if instr.starts_with("activemask")
            || instr.starts_with("shfl.sync")
            || instr.starts_with('{')
        {
            return self.asm_warp_op(at, instr);
        }
        // `griddepcontrol.wait;` / `griddepcontrol.launch_dependents;` (PTX ISA, griddepcontrol:
        // the instructions of `cudaGridDependencySynchronize` and
        // `cudaTriggerProgrammaticLaunchCompletion`): the call of that name
        // (`builtins::PDL_CALLS`), operands and clobbers skipped.
        if let Some(&pdl) = crate::builtins::PDL_CALLS
            .iter()
            .find(|n| n.starts_with("griddepcontrol") && **n == single)
        {
            self.skip_asm_rest()?;
            return Ok(Stmt {
                kind: StmtKind::Expr(Expr::new(ExprKind::Call(pdl.to_string(), Vec::new()), at)),
                span: at,
                end: self.last_end(),
            });
        }
        let reg = [
            "mov.u32%0,%%",
            "mov.b32%0,%%",
            "mov.s32%0,%%",
            "mov.u64%0,%%",
            "mov.b64%0,%%",
            "mov.s64%0,%%",
        ]
        .iter()
        .find_map(|p| instr.strip_prefix(p))
        .or_else(|| {
            // nvcc also reads a special register written with one `%` (`mov.u32 %0,
            // %laneid;`): a `%` before a letter is no operand reference there, and such code
            // compiles (clang, hipcc's compiler, rejects it: LLVM bug 44392), so a CUDA source
            // reads it as the `%%` form.
            if self.hip {
                return None;
            }
            [
                "mov.u32%0,%",
                "mov.b32%0,%",
                "mov.s32%0,%",
                "mov.u64%0,%",
                "mov.b64%0,%",
                "mov.s64%0,%",
            ]
            .iter()
            .find_map(|p| instr.strip_prefix(p))
            .filter(|r| special_register(r, at).is_some())
        });
        let Some(reg) = reg else {
            if let Some(r) = ["mov.u32%0,%", "mov.b32%0,%"]
                .iter()
                .find_map(|p| instr.strip_prefix(p))
            {
                return refuse(format!(
                    "write `%%{r}`: a `%` of a register name is doubled in an inline asm template \
                     (`%0` is the operand)"
                ));
            }
            let op = text.split_whitespace().next().unwrap_or("(empty)");
            // AMD GCN / CDNA / RDNA assembly (`s_nop 4`, `v_max_f32 %0, %1, %1 quad_perm:[…]`,
            // aiter's and AMDMIGraphX's fused DPP reductions): named as such, with the HIP
            // builtins that write it in C++ (AMD's ISA guides: a DPP modifier on a VALU
            // instruction reads another lane's operand as `v_mov_b32_dpp` does).
            let gcn = ["s_", "v_", "ds_", "buffer_", "global_", "flat_"]
                .iter()
                .any(|p| op.starts_with(p));
            if self.hip && gcn {
                return refuse(format!(
                    "inline `asm` `{op}` is AMD GPU assembly, which is not emulated: AMD \
                     GCN/CDNA/RDNA assembly is not read (the PTX forms docs/kernels.md lists are, \
                     for CUDA); write the operation with HIP's builtins: an instruction with a DPP \
                     modifier (`quad_perm:[…]`, `row_shr:N`, `row_half_mirror`, `row_bcast:15`) \
                     is the operation on `__hip_move_dpp(v, dpp_ctrl, row_mask, bank_mask, \
                     bound_ctrl)` (= `__builtin_amdgcn_mov_dpp`; with an `old` value \
                     `__builtin_amdgcn_update_dpp(old, x, ctrl, row_mask, bank_mask, bound_ctrl)`, \
                     rocPRIM's `rocprim::detail::warp_move_dpp<T, ctrl>(x)`), `ds_swizzle_b32` \
                     is `__hip_ds_swizzle`, `ds_bpermute_b32` `__hip_ds_bpermute`, \
                     `v_readlane_b32` `__builtin_amdgcn_readlane`"
                ));
            }
            return refuse(format!(
                "inline `asm` `{op}` is not emulated: only `mov.u32 %0, %%REG;` reads of the special \
                 registers, `activemask.b32 %0;`, one-line `shfl.sync`, `cvt`, one global \
                 `ld`/`st` (`ld.global.nc.v4.s32`), and one \
                 instruction of the fast-math, float, `.f16x2` and bit families \
                 (`ex2.approx.f32`, `fma.rn.f32`, `fma.rn.f16x2`, `lop3.b32`, `prmt.b32`, \
                 `bfe`, `shf`, …; docs/kernels.md lists them) are; write {} instead \
                 (`__shfl_sync` for shfl.sync, `__ballot_sync` for vote.ballot)",
                super::asm_alu::instead(op.split('.').next().unwrap_or(op))
            ));
        };
        let Some(value) = special_register(reg, at) else {
            return refuse(format!(
                "`%{reg}` is not a special register the emulator reads (it reads %laneid, \
                 %lanemask_eq/lt/le/gt/ge, %warpid, %nwarpid, %smid, %nsmid, %clock, \
                 %clock64 and %globaltimer)"
            ));
        };
        // `: "=r"(out)` (a 32-bit register) or `: "=l"(out)` (64-bit).
        self.expect_punct(":")?;
        let Tok::Str(constraint) = self.peek(0).clone() else {
            return self.err("the output constraint `\"=r\"`");
        };
        let wide = match constraint.as_str() {
            "=r" => false,
            "=l" => true,
            _ => {
                return refuse(format!(
                    "the output constraint `{constraint}` is not supported here; write \
                     `\"=r\"(variable)` (or `\"=l\"` for a 64-bit register)"
                ))
            }
        };
        self.bump();
        self.expect_punct("(")?;
        let out = self.expr()?;
        self.expect_punct(")")?;
        // Inputs and clobbers (none for a register read) are skipped to the closing paren.
        self.skip_asm_rest()?;
        let width = if wide { Scalar::U64 } else { Scalar::U32 };
        let value = Expr::new(
            ExprKind::Cast(Ty::Val(ValTy::scalar(width)), Box::new(value)),
            at,
        );
        Ok(Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(out), Box::new(value)),
                at,
            )),
            span: at,
            end: self.last_end(),
        })
    }
}

pub(super) use super::asm_sreg::special_register;
