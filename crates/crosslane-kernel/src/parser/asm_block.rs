//! A multi-instruction inline PTX block, as inference and bit-trick code writes one:
//! `asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
//! : "=r"(r) : "r"(x));` or several float instructions over `.reg .f32 t;` temporaries. The
//! block becomes a C++ block that runs its instructions in order over named registers:
//!
//! 1. every operand `%N` is copied into a register of its constraint's type first (an input,
//!    a `"+r"` output) — GCC's extended-asm rule that inputs are read before outputs are
//!    written (CUDA C++ Programming Guide, "Inline PTX Assembly in CUDA", follows GCC's);
//! 2. each `.reg .TYPE a, b;` declares registers of that type (PTX ISA 8.5, "Variables":
//!    `.reg`) scoped to the block (`{ }` is a PTX scope);
//! 3. each instruction assigns its destination register, an `@p` / `@!p` guard making it
//!    conditional (PTX ISA, "Predicated Execution");
//! 4. each output operand receives its register at the end.
//!
//! The instructions: `setp.CmpOp.type p, a, b;` (PTX ISA, setp: `eq ne lt le gt ge` and, for
//! integers, the unsigned `lo ls hi hs`; on floats the ordered forms are false when an operand
//! is NaN and `equ neu ltu leu gtu geu` true, `num`/`nan`), `selp.type d, a, b, c;` (d = c ? a
//! : b), `mov.type d, a;`, the integer `add`/`sub` (modulo 2^N), `and`/`or`/`xor`/`not` (also on
//! `.pred`) and `shl`/`shr` (a shift past the width clamps to it: PTX ISA, shl/shr), every
//! instruction of [`crate::ptx_ops`] (and `mov.b32` packing), and the one-source `cvt` of
//! [`crate::ptx_cvt`], and the warp shuffle `shfl.sync.MODE.b32 d|p, a, b, c, m;` with its
//! optional validity predicate (PTX ISA, shfl.sync: the scan step CUB and hand-written warp
//! scans write as `shfl.sync.up.b32 r0|p, …; @p add.s32 r0, r0, …;`), also without `.sync`
//! (the pre-sm_70 form). A source may be a special register (`%%laneid`, read as
//! [`super::asm`] reads it in a one-line `mov`). `.reg .s32 r<4>;` declares `r0` … `r3`.
//! Any other instruction, modifier or register form (`p|q` of `setp`, vector operands
//! elsewhere) is refused before the run, by name.

use super::asm_alu::{instead, letter, parse_float, reg, split_operands};
use super::asm_cvt::Operand;
use super::asm_ops::parse_imm;
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

/// A register of the block: its PTX type letter (`r h l f d`, `p` for `.pred`) and the C++
/// name that holds it (one no source can spell).
#[derive(Clone)]
struct Reg {
    letter: char,
    var: String,
    ptx: String,
}

/// The register letter and signedness of a PTX type suffix (`s32` → ('r', signed)).
fn type_letter(t: &str) -> Option<(char, bool)> {
    Some(match t {
        "pred" => ('p', false),
        "b16" | "u16" | "f16" | "bf16" => ('h', false),
        "s16" => ('h', true),
        "b32" | "u32" => ('r', false),
        "s32" => ('r', true),
        "b64" | "u64" => ('l', false),
        "s64" => ('l', true),
        "f32" => ('f', false),
        "f64" => ('d', false),
        _ => return None,
    })
}

/// The C++ type of a register letter, signed or not.
fn c_scalar(letter: char, signed: bool) -> Scalar {
    match (letter, signed) {
        ('p', _) => Scalar::Bool,
        ('h', true) => Scalar::I16,
        ('r', true) => Scalar::I32,
        ('l', true) => Scalar::I64,
        _ => reg(letter),
    }
}

struct Block<'a> {
    at: Span,
    /// The end of the `asm` statement: each instruction's statement spans the whole `asm`.
    end: Span,
    regs: Vec<Reg>,
    outs: &'a [Operand],
    ins: &'a [Operand],
}

impl Block<'_> {
    fn err(&self, m: String) -> KernelError {
        KernelError::new(self.at.line, self.at.col, m)
    }

    fn e(&self, k: ExprKind) -> Expr {
        Expr::new(k, self.at)
    }

    fn ident(&self, name: &str) -> Expr {
        self.e(ExprKind::Ident(name.into()))
    }

    fn cast(&self, s: Scalar, x: Expr) -> Expr {
        self.e(ExprKind::Cast(Ty::Val(ValTy::scalar(s)), Box::new(x)))
    }

    fn bin(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    fn int(&self, v: u64) -> Expr {
        self.e(ExprKind::Int {
            value: v,
            unsigned: true,
            long: false,
        })
    }

    fn stmt(&self, k: StmtKind) -> Stmt {
        Stmt {
            kind: k,
            span: self.at,
            end: self.end,
        }
    }

    fn assign(&self, d: Expr, v: Expr) -> Stmt {
        self.stmt(StmtKind::Expr(self.e(ExprKind::Assign(
            None,
            Box::new(d),
            Box::new(v),
        ))))
    }

    fn declare(&self, var: &str, s: Scalar, init: Option<Expr>) -> Stmt {
        self.stmt(StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name: var.into(),
                ty: Ty::Val(ValTy::scalar(s)),
                array: None,
                init,
                span: self.at,
                id: NodeId::fresh(),
            }],
        ))
    }

    /// The register an operand names: `%N` or a declared name.
    /// A load or store (`parser/asm_mem.rs`'s forms) between the block's registers and the
    /// memory an address register names: element `j` of `ld.global.v4.u32 {%0, …}, [%4];`
    /// is `((u32*)%4)[j]`, converted to the destination register's type; a `.shared` address
    /// is a shared-window one (`crate::machine::shared_window`).
    fn mem(&self, mnemonic: &str, ops: &[String]) -> Result<Vec<Stmt>, KernelError> {
        let f = super::asm_mem::decode(mnemonic).map_err(|m| self.err(m))?;
        self.arity(ops, 2, mnemonic)?;
        let (regs, addr) = if f.load {
            (&ops[0], &ops[1])
        } else {
            (&ops[1], &ops[0])
        };
        let regs: Vec<&str> = match regs.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            Some(inner) => inner.split(',').map(str::trim).collect(),
            None => vec![regs.as_str()],
        };
        if regs.len() != f.lanes {
            return Err(self.err(format!(
                "`{mnemonic}` moves {} element(s); the instruction names {}",
                f.lanes,
                regs.len()
            )));
        }
        let inner = addr
            .strip_prefix('[')
            .and_then(|a| a.strip_suffix(']'))
            .map(str::trim)
            .ok_or_else(|| self.err(format!("`{mnemonic}`: the address is written `[r]` here")))?;
        let (areg, offset) = match inner.split_once('+') {
            Some((r, n)) => (r.trim(), n.trim().parse::<u64>().ok()),
            None => (inner, Some(0)),
        };
        let size = u64::from(f.elem.bits() / 8);
        let offset = offset.filter(|n| n % size == 0).ok_or_else(|| {
            self.err(format!(
                "`{mnemonic}`: an address offset is a constant multiple of the element's \
                 {size} bytes here"
            ))
        })?;
        let a = self.register(areg).ok_or_else(|| {
            self.err(format!("`{mnemonic}`: the address `{areg}` is no register"))
        })?;
        let mut base = self.ident(&a.var);
        if f.shared {
            base = self.e(ExprKind::Call(
                crate::machine::shared_window::SHARED_PTR.to_string(),
                vec![base],
            ));
        }
        let mut out = Vec::new();
        for (j, r) in regs.iter().enumerate() {
            let r = self.register(r).ok_or_else(|| {
                self.err(format!("`{r}` in `{mnemonic}` is no register of the block"))
            })?;
            // A `.bN` element is the register's bits: a float register reads the cell as its
            // own float type of that width.
            let elem = match r.letter {
                'f' | 'd' if f.untyped && reg(r.letter).bits() == f.elem.bits() => reg(r.letter),
                _ => f.elem,
            };
            let ptr = self.e(ExprKind::Cast(
                Ty::Ptr(ValTy::scalar(elem)),
                Box::new(base.clone()),
            ));
            let cell = self.e(ExprKind::Index(
                Box::new(ptr),
                Box::new(self.int(offset / size + j as u64)),
            ));
            out.push(if f.load {
                let v = self.cast(reg(r.letter), self.cast(elem, cell));
                self.assign(self.ident(&r.var), v)
            } else {
                self.assign(cell, self.cast(elem, self.ident(&r.var)))
            });
        }
        Ok(out)
    }

    fn register(&self, t: &str) -> Option<&Reg> {
        self.regs.iter().find(|r| r.ptx == t)
    }

    /// A destination of type letter `want`.
    fn dest(&self, t: &str, want: char, op: &str) -> Result<Expr, KernelError> {
        let r = self.register(t).ok_or_else(|| {
            self.err(format!(
                "`{t}` in `{op}` is no register of the block (declare it with `.reg`) nor an \
                 operand `%N`"
            ))
        })?;
        if r.letter != want {
            return Err(self.err(format!(
                "the destination `{t}` of `{op}` is a `{}` register; the instruction writes a \
                 `{}` one",
                r.letter, want
            )));
        }
        Ok(self.ident(&r.var))
    }

    /// A source read as type letter `want` (signed `signed`): a register of that letter, or a
    /// constant of the type.
    fn source(&self, t: &str, want: char, signed: bool, op: &str) -> Result<Expr, KernelError> {
        let s = c_scalar(want, signed);
        // A special register (`%%laneid`: the template's `%%` is one `%`).
        if let Some(name) = t.strip_prefix("%%") {
            if !matches!(want, 'r' | 'l') {
                return Err(self.err(format!(
                    "`{t}` in `{op}`: a special register is read into a `.b32` / `.b64` register"
                )));
            }
            let v = super::asm_sreg::special_register(name, self.at).ok_or_else(|| {
                self.err(format!(
                    "`%{name}` in `{op}` is not a special register the emulator reads"
                ))
            })?;
            return Ok(self.cast(s, v));
        }
        if let Some(r) = self.register(t) {
            if r.letter != want {
                return Err(self.err(format!(
                    "the source `{t}` of `{op}` is a `{}` register; the instruction reads a \
                     `{}` one",
                    r.letter, want
                )));
            }
            return Ok(self.cast(s, self.ident(&r.var)));
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
            self.err(format!(
                "`{t}` in `{op}` is no register of the block, operand `%N` or constant"
            ))
        })?;
        Ok(self.cast(s, self.e(lit)))
    }

    /// Checks an instruction's operand count.
    fn arity(&self, ops: &[String], n: usize, op: &str) -> Result<(), KernelError> {
        if ops.len() != n {
            return Err(self.err(format!(
                "`{op}` takes {n} operands, the block gives {}",
                ops.len()
            )));
        }
        Ok(())
    }

    /// The statements of one instruction (`mnemonic` and its operands).
    fn instruction(&self, mnemonic: &str, ops: &[String]) -> Result<Vec<Stmt>, KernelError> {
        let parts: Vec<&str> = mnemonic.split('.').collect();
        let opcode = parts[0];
        let ty = parts.last().copied().unwrap_or("");
        match opcode {
            "setp" => return self.setp(mnemonic, &parts, ops),
            "shfl" => return self.shfl(mnemonic, &parts, ops),
            "selp" if parts.len() == 2 => {
                self.arity(ops, 4, mnemonic)?;
                let (l, signed) = type_letter(ty)
                    .filter(|(l, _)| *l != 'p')
                    .ok_or_else(|| self.err(format!("`{mnemonic}`: no such selp type")))?;
                let c = self.source(&ops[3], 'p', false, mnemonic)?;
                let a = self.source(&ops[1], l, signed, mnemonic)?;
                let b = self.source(&ops[2], l, signed, mnemonic)?;
                let v = self.e(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)));
                return Ok(vec![self.assign(self.dest(&ops[0], l, mnemonic)?, v)]);
            }
            "mov" if parts.len() == 2 && !ops.iter().any(|o| o.contains('{')) => {
                self.arity(ops, 2, mnemonic)?;
                let (l, signed) = type_letter(ty)
                    .ok_or_else(|| self.err(format!("`{mnemonic}`: no such mov type")))?;
                let a = self.source(&ops[1], l, signed, mnemonic)?;
                return Ok(vec![self.assign(self.dest(&ops[0], l, mnemonic)?, a)]);
            }
            "add" | "sub" | "and" | "or" | "xor" | "not" | "shl" | "shr"
                if parts.len() == 2
                    && !(matches!(opcode, "add" | "sub") && ty.starts_with('f')) =>
            {
                return self.integer(mnemonic, opcode, ty, ops);
            }
            "ld" | "st" => return self.mem(mnemonic, ops),
            "cvt" if ops.len() == 2 => {
                let d = self
                    .register(&ops[0])
                    .ok_or_else(|| self.err(format!("`{}`: no register", ops[0])))?;
                let s = self
                    .register(&ops[1])
                    .ok_or_else(|| self.err(format!("`{mnemonic}`: its source is a register")))?;
                let name = crate::ptx_cvt::callee(mnemonic, d.letter, s.letter)
                    .map_err(|m| self.err(m))?;
                let call = self.e(ExprKind::Call(name, vec![self.ident(&s.var)]));
                let v = self.cast(reg(d.letter), call);
                return Ok(vec![self.assign(self.ident(&d.var), v)]);
            }
            _ => {}
        }
        self.alu(mnemonic, opcode, ops)
    }

    /// `shfl.sync.MODE.b32 d[|p], a, b, c, m;` and the pre-`.sync` form `shfl.MODE.b32 d[|p],
    /// a, b, c;`, by PTX ISA 8.5 "shfl.sync"'s definition: with `lane` the lane's index,
    /// `segmask = c[12:8]`, `maxLane = (lane & segmask) | (c[4:0] & ~segmask)` and
    /// `minLane = lane & segmask`, the source lane `j` is `lane - b` (`.up`, valid when
    /// `j >= maxLane`), `lane + b` (`.down`, valid when `j <= maxLane`), `lane ^ b` (`.bfly`,
    /// valid when `j <= maxLane`) or `minLane | (b[4:0] & ~segmask)` (`.idx`, valid when
    /// `j <= maxLane`); an invalid `j` is the lane itself. `d` gets lane `j`'s `a` (read with
    /// `__shfl_sync(m, a, j)`, so a lane outside `m`, or a source lane that is not executing,
    /// is undefined with the intrinsic's rule) and the optional predicate `p` whether `j` was
    /// valid. The form without `.sync` (PTX ISA: deprecated since PTX 6.0, for targets below
    /// sm_70) shuffles among the warp's executing lanes, as the pre-CUDA-9 `__shfl` does, with
    /// that call's warning.
    fn shfl(
        &self,
        mnemonic: &str,
        parts: &[&str],
        ops: &[String],
    ) -> Result<Vec<Stmt>, KernelError> {
        let (sync, mode) = match parts {
            ["shfl", "sync", mode, "b32"] => (true, *mode),
            ["shfl", mode, "b32"] => (false, *mode),
            _ => {
                return Err(self.err(format!(
                    "`{mnemonic}`: the shuffles emulated are `shfl.sync.MODE.b32` and \
                     `shfl.MODE.b32` (MODE up, down, bfly or idx)"
                )))
            }
        };
        if !matches!(mode, "up" | "down" | "bfly" | "idx") {
            return Err(self.err(format!(
                "`{mnemonic}`: `.{mode}` is not a shfl mode (up, down, bfly, idx)"
            )));
        }
        self.arity(ops, if sync { 5 } else { 4 }, mnemonic)?;
        let (d, p) = match ops[0].split_once('|') {
            Some((d, p)) => (d.trim(), Some(p.trim())),
            None => (ops[0].as_str(), None),
        };
        let dreg = self.register(d).ok_or_else(|| {
            self.err(format!(
                "`{d}` in `{mnemonic}` is no register of the block (declare it with `.reg`) nor \
                 an operand `%N`"
            ))
        })?;
        let ld = dreg.letter;
        if !matches!(ld, 'r' | 'f') {
            return Err(self.err(format!(
                "the destination `{d}` of `{mnemonic}` is a `{ld}` register; `.b32` moves a \
                 32-bit one (`.b32`/`.u32`/`.s32`/`.f32`)"
            )));
        }
        // `.b32` takes any 32-bit register (PTX ISA, "Operand Type Information"): the source
        // as its own register's type, a constant as the destination's.
        let la = match self.register(&ops[1]) {
            Some(r) if matches!(r.letter, 'r' | 'f') => r.letter,
            Some(r) => {
                return Err(self.err(format!(
                    "the source `{}` of `{mnemonic}` is a `{}` register; `.b32` moves a \
                     32-bit one",
                    ops[1], r.letter
                )))
            }
            None => ld,
        };
        let a = self.source(&ops[1], la, false, mnemonic)?;
        let int = |x: Expr| self.cast(Scalar::I32, x);
        let lane = int(super::asm_sreg::special_register("laneid", self.at)
            .ok_or_else(|| self.err("no %laneid".into()))?);
        let b = self.source(&ops[2], 'r', false, mnemonic)?;
        let c = self.source(&ops[3], 'r', false, mnemonic)?;
        let five = |x: Expr| int(self.bin(BinOp::And, x, self.int(0x1f)));
        let b5 = five(b);
        let c5 = five(c.clone());
        let seg = five(self.bin(BinOp::Shr, c, self.int(8)));
        let not = |x: Expr| self.e(ExprKind::Unary(UnOp::BitNot, Box::new(x)));
        let max_lane = self.bin(
            BinOp::Or,
            self.bin(BinOp::And, lane.clone(), seg.clone()),
            self.bin(BinOp::And, c5, not(seg.clone())),
        );
        let (j, valid) = match mode {
            "up" => {
                let j = self.bin(BinOp::Sub, lane.clone(), b5);
                (j.clone(), self.bin(BinOp::Ge, j, max_lane))
            }
            "down" => {
                let j = self.bin(BinOp::Add, lane.clone(), b5);
                (j.clone(), self.bin(BinOp::Le, j, max_lane))
            }
            "bfly" => {
                let j = self.bin(BinOp::Xor, lane.clone(), b5);
                (j.clone(), self.bin(BinOp::Le, j, max_lane))
            }
            _ => {
                let min_lane = self.bin(BinOp::And, lane.clone(), seg.clone());
                let j = self.bin(BinOp::Or, min_lane, self.bin(BinOp::And, b5, not(seg)));
                (j.clone(), self.bin(BinOp::Le, j, max_lane))
            }
        };
        let src = self.e(ExprKind::Ternary(
            Box::new(valid.clone()),
            Box::new(j),
            Box::new(lane),
        ));
        let moved = if sync {
            let m = self.source(&ops[4], 'r', false, mnemonic)?;
            self.e(ExprKind::Call("__shfl_sync".into(), vec![m, a, src]))
        } else {
            self.e(ExprKind::Call("__shfl".into(), vec![a, src]))
        };
        let moved = match (la, ld) {
            ('r', 'f') => self.e(ExprKind::Call("__uint_as_float".into(), vec![moved])),
            ('f', 'r') => self.e(ExprKind::Call("__float_as_uint".into(), vec![moved])),
            _ => moved,
        };
        let mut out = Vec::new();
        if let Some(p) = p {
            let pv = self.cast(Scalar::Bool, valid);
            out.push(self.assign(self.dest(p, 'p', mnemonic)?, pv));
        }
        out.push(self.assign(self.dest(d, ld, mnemonic)?, self.cast(reg(ld), moved)));
        Ok(out)
    }

    /// `setp.CmpOp.type p, a, b;`.
    fn setp(
        &self,
        mnemonic: &str,
        parts: &[&str],
        ops: &[String],
    ) -> Result<Vec<Stmt>, KernelError> {
        let [_, cmp, ty] = parts else {
            return Err(self.err(format!(
                "`{mnemonic}`: only `setp.CmpOp.type p, a, b;` is emulated (no `.BoolOp`, no \
                 `.ftz`); combine predicates with `and.pred`"
            )));
        };
        self.arity(ops, 3, mnemonic)?;
        if ops[0].contains('|') {
            return Err(self.err(format!(
                "`{mnemonic}`: the second destination `p|q` is not emulated; write a second \
                 `setp` with the opposite comparison"
            )));
        }
        let (l, signed) = type_letter(ty)
            .filter(|(l, _)| *l != 'p')
            .ok_or_else(|| self.err(format!("`{mnemonic}`: no such setp type `.{ty}`")))?;
        let float = ty.starts_with('f');
        // `.f16`/`.bf16` compare the value a 16-bit register holds; not emulated here.
        if matches!(*ty, "f16" | "bf16") {
            return Err(self.err(format!(
                "`{mnemonic}`: setp on 16-bit floats is not emulated; compare `__half` values"
            )));
        }
        let a = self.source(&ops[1], l, signed, mnemonic)?;
        let b = self.source(&ops[2], l, signed, mnemonic)?;
        let nan = |x: &Expr| self.bin(BinOp::Ne, x.clone(), x.clone());
        let either_nan = self.bin(BinOp::Or, nan(&a), nan(&b));
        let ordered = |op: BinOp| {
            let not_nan = self.e(ExprKind::Unary(UnOp::Not, Box::new(either_nan.clone())));
            // `!(a != a | b != b) & (a op b)` as bools (`&` on bools is `&&` without the
            // short circuit: both sides are plain reads).
            self.bin(BinOp::And, not_nan, self.bin(op, a.clone(), b.clone()))
        };
        let unordered = |op: BinOp| {
            self.bin(
                BinOp::Or,
                either_nan.clone(),
                self.bin(op, a.clone(), b.clone()),
            )
        };
        let int_only = |op: BinOp| -> Result<Expr, KernelError> {
            if float {
                return Err(self.err(format!(
                    "`{mnemonic}`: `.{cmp}` compares integers; on floats write `lt`/`ltu` …"
                )));
            }
            // lo/ls/hi/hs compare unsigned.
            let u = c_scalar(l, false);
            Ok(self.bin(op, self.cast(u, a.clone()), self.cast(u, b.clone())))
        };
        let op = |o| {
            if float {
                ordered(o)
            } else {
                self.bin(o, a.clone(), b.clone())
            }
        };
        let value = match *cmp {
            "eq" => op(BinOp::Eq),
            "ne" => op(BinOp::Ne),
            "lt" => op(BinOp::Lt),
            "le" => op(BinOp::Le),
            "gt" => op(BinOp::Gt),
            "ge" => op(BinOp::Ge),
            "lo" => int_only(BinOp::Lt)?,
            "ls" => int_only(BinOp::Le)?,
            "hi" => int_only(BinOp::Gt)?,
            "hs" => int_only(BinOp::Ge)?,
            "equ" | "neu" | "ltu" | "leu" | "gtu" | "geu" | "num" | "nan" if !float => {
                return Err(self.err(format!(
                    "`{mnemonic}`: `.{cmp}` compares floats (PTX ISA, setp)"
                )))
            }
            "equ" => unordered(BinOp::Eq),
            "neu" => unordered(BinOp::Ne),
            "ltu" => unordered(BinOp::Lt),
            "leu" => unordered(BinOp::Le),
            "gtu" => unordered(BinOp::Gt),
            "geu" => unordered(BinOp::Ge),
            "nan" => either_nan.clone(),
            "num" => self.e(ExprKind::Unary(UnOp::Not, Box::new(either_nan.clone()))),
            other => {
                return Err(self.err(format!(
                    "`{mnemonic}`: the comparison `.{other}` is not one of PTX's (setp)"
                )))
            }
        };
        let v = self.cast(Scalar::Bool, value);
        Ok(vec![self.assign(self.dest(&ops[0], 'p', mnemonic)?, v)])
    }

    /// The integer and logic instructions: `add`/`sub` modulo 2^N, `and`/`or`/`xor`/`not`,
    /// `shl`/`shr` with the shift clamped to the width.
    fn integer(
        &self,
        mnemonic: &str,
        opcode: &str,
        ty: &str,
        ops: &[String],
    ) -> Result<Vec<Stmt>, KernelError> {
        let (l, signed) = type_letter(ty)
            .ok_or_else(|| self.err(format!("`{mnemonic}`: no such type `.{ty}`")))?;
        let pred = l == 'p';
        if pred && !matches!(opcode, "and" | "or" | "xor" | "not") {
            return Err(self.err(format!("`{mnemonic}`: `.pred` takes and/or/xor/not only")));
        }
        if matches!(opcode, "and" | "or" | "xor" | "not") && !ty.starts_with('b') && !pred {
            return Err(self.err(format!(
                "`{mnemonic}`: PTX's logic instructions take `.b16`/`.b32`/`.b64`/`.pred`"
            )));
        }
        let n = if opcode == "not" { 2 } else { 3 };
        self.arity(ops, n, mnemonic)?;
        let unsigned = c_scalar(l, false);
        let width = u64::from(unsigned.bits());
        let a = self.source(&ops[1], l, signed, mnemonic)?;
        let value = match opcode {
            "not" if pred => self.e(ExprKind::Unary(UnOp::Not, Box::new(a))),
            "not" => self.e(ExprKind::Unary(UnOp::BitNot, Box::new(a))),
            "and" | "or" | "xor" => {
                let b = self.source(&ops[2], l, signed, mnemonic)?;
                let op = match opcode {
                    "and" => BinOp::And,
                    "or" => BinOp::Or,
                    _ => BinOp::Xor,
                };
                self.bin(op, a, b)
            }
            "add" | "sub" => {
                // Modulo 2^N (PTX add/sub wrap): computed unsigned, then converted back.
                let b = self.source(&ops[2], l, signed, mnemonic)?;
                let op = if opcode == "add" {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                self.bin(op, self.cast(unsigned, a), self.cast(unsigned, b))
            }
            _ => {
                // shl / shr: the amount is a .u32 and clamps at the width.
                if !matches!(
                    ty,
                    "b16" | "b32" | "b64" | "s16" | "s32" | "s64" | "u16" | "u32" | "u64"
                ) || (opcode == "shl" && !ty.starts_with('b'))
                {
                    return Err(self.err(format!("`{mnemonic}`: no such shift type `.{ty}`")));
                }
                let b = self.source(&ops[2], 'r', false, mnemonic)?;
                let clamp = self.e(ExprKind::Ternary(
                    Box::new(self.bin(BinOp::Gt, b.clone(), self.int(width - 1))),
                    Box::new(self.int(width - 1)),
                    Box::new(b.clone()),
                ));
                if opcode == "shl" {
                    let shifted = self.bin(BinOp::Shl, self.cast(unsigned, a), clamp);
                    self.e(ExprKind::Ternary(
                        Box::new(self.bin(BinOp::Ge, b, self.int(width))),
                        Box::new(self.int(0)),
                        Box::new(shifted),
                    ))
                } else if signed {
                    // Arithmetic: a shift of width - 1 or more fills with the sign.
                    self.bin(BinOp::Shr, a, clamp)
                } else {
                    let shifted = self.bin(BinOp::Shr, a, clamp);
                    self.e(ExprKind::Ternary(
                        Box::new(self.bin(BinOp::Ge, b, self.int(width))),
                        Box::new(self.int(0)),
                        Box::new(shifted),
                    ))
                }
            }
        };
        let v = self.cast(c_scalar(l, signed), value);
        Ok(vec![self.assign(self.dest(&ops[0], l, mnemonic)?, v)])
    }

    /// An instruction of [`crate::ptx_ops`] (packing `mov.b32` included).
    fn alu(&self, mnemonic: &str, opcode: &str, ops: &[String]) -> Result<Vec<Stmt>, KernelError> {
        let mut ops = ops.to_vec();
        let mut name = mnemonic.to_string();
        let mut unpack = false;
        if opcode == "mov" {
            let elements = |t: &str| -> Option<Vec<String>> {
                let inner = t.strip_prefix('{')?.strip_suffix('}')?;
                Some(inner.split(',').map(|s| s.trim().to_string()).collect())
            };
            match (
                mnemonic,
                ops.first().and_then(|t| elements(t)),
                ops.get(1).and_then(|t| elements(t)),
            ) {
                ("mov.b32", Some(d), None) if d.len() == 2 && ops.len() == 2 => {
                    unpack = true;
                    name = "mov.unpack.b32".into();
                    ops = vec![d[0].clone(), d[1].clone(), ops[1].clone()];
                }
                ("mov.b32", None, Some(s)) if s.len() == 2 && ops.len() == 2 => {
                    name = "mov.pack.b32".into();
                    ops = vec![ops[0].clone(), s[0].clone(), s[1].clone()];
                }
                _ => {
                    return Err(self.err(format!(
                        "`{mnemonic}` with these operands is not emulated: `mov.TYPE d, a;` and \
                         the `mov.b32` packing of two 16-bit registers are"
                    )))
                }
            }
        }
        let (row, _) = crate::ptx_ops::decode(&name).map_err(|m| {
            if crate::ptx_ops::is_known_opcode(opcode) {
                self.err(format!("{m}; or write {}", instead(opcode)))
            } else {
                self.err(format!(
                    "`{mnemonic}` is not emulated in an inline PTX block (setp, selp, mov, \
                     add/sub/and/or/xor/not/shl/shr on integers, cvt and the instructions of \
                     docs/kernels.md's inline-PTX rows are); write {} instead",
                    instead(opcode)
                ))
            }
        })?;
        let dests = if unpack { 2 } else { 1 };
        let srcs = if unpack { 1 } else { row.srcs };
        self.arity(&ops, dests + srcs, mnemonic)?;
        let args: Vec<Expr> = ops[dests..]
            .iter()
            .map(|t| {
                // The sources as their registers' values (a constant in the row's type).
                if let Some(r) = self.register(t) {
                    if r.letter != row.ins {
                        return Err(self.err(format!(
                            "the source `{t}` of `{mnemonic}` is a `{}` register; the \
                             instruction reads a `{}` one",
                            r.letter, row.ins
                        )));
                    }
                    return Ok(self.ident(&r.var));
                }
                self.source(t, row.ins, false, mnemonic)
            })
            .collect::<Result<_, _>>()?;
        let callee = crate::ptx_ops::callee(&name);
        let call =
            |args: Vec<Expr>| self.cast(reg(row.out), self.e(ExprKind::Call(callee.clone(), args)));
        if unpack {
            let lo = self.assign(
                self.dest(&ops[0], row.out, mnemonic)?,
                call(vec![args[0].clone(), self.int(0)]),
            );
            let hi = self.assign(
                self.dest(&ops[1], row.out, mnemonic)?,
                call(vec![args[0].clone(), self.int(1)]),
            );
            return Ok(vec![lo, hi]);
        }
        Ok(vec![self.assign(
            self.dest(&ops[0], row.out, mnemonic)?,
            call(args),
        )])
    }
}

/// Whether one-instruction template `single` (spaces removed) is an integer or logic
/// instruction this module runs (`add.u32%0,%1,%2`, `shl.b32…`): a one-line `asm` of it runs
/// as a block of one instruction.
pub(super) fn is_integer_one_liner(single: &str) -> bool {
    if single.contains([';', '{']) {
        return false;
    }
    let mnemonic = single.split('%').next().unwrap_or("");
    let parts: Vec<&str> = mnemonic.split('.').collect();
    matches!(
        parts.as_slice(),
        [op, ty] if matches!(*op, "add" | "sub" | "and" | "or" | "xor" | "not" | "shl" | "shr")
            && matches!(*ty, "b16" | "b32" | "b64" | "u16" | "u32" | "u64" | "s16" | "s32" | "s64")
    )
}

impl Parser<'_> {
    /// A `{ … }` template of several instructions (`text`: the template with `\n`/`\t` as
    /// spaces), with its operands up to the statement's `;`.
    pub(super) fn asm_block(&mut self, at: Span, text: &str) -> PResult<Stmt> {
        let (outs, ins) = self.asm_typed_operands()?;
        let refuse = |m: String| -> PResult<Stmt> { Err(KernelError::new(at.line, at.col, m)) };
        let body = text.trim();
        let Some(inner) = body
            .strip_prefix('{')
            .and_then(|b| b.trim_end().strip_suffix('}'))
        else {
            // `asm("{ .reg .u32 t; ");` … `asm("}");`: a PTX scope (PTX ISA, "Statements":
            // `{ }` groups statements and scopes the registers declared in it) whose braces
            // balance only across several `asm` statements.
            let opens = body.matches('{').count();
            let closes = body.matches('}').count();
            if opens != closes {
                let which = if opens > closes {
                    "opens a PTX scope `{` that no `}` of this statement closes"
                } else {
                    "closes a PTX scope `}` that this statement did not open"
                };
                return refuse(format!(
                    "this `asm` {which}: a PTX scope split across `asm` statements (registers \
                     declared in one statement and used by the next) is not emulated; write \
                     the scope in one `asm` statement, its `.reg` declarations, instructions \
                     and closing `}}` together (a loop of `asm` statements unrolled into the \
                     one template, or each statement its own `{{ .reg …; …; }}`)"
                ));
            }
            return refuse(
                "an inline PTX block is one `{ … }` holding its instructions (nested braces are \
                 not emulated)"
                    .into(),
            );
        };
        if inner.contains(['{', '}']) && !inner.contains("mov") {
            return refuse("nested `{ }` scopes in an inline PTX block are not emulated".into());
        }
        let mut b = Block {
            at,
            end: self.last_end(),
            regs: Vec::new(),
            outs: &outs,
            ins: &ins,
        };
        let tag = format!("{}:{}", at.line, at.col);
        let mut stmts = Vec::new();
        let mut epilogue = Vec::new();
        // The operands, each copied into a register of its constraint's type.
        for (k, (c, x)) in b.outs.iter().chain(b.ins.iter()).enumerate() {
            let l = match letter(c) {
                'n' | 'r' => 'r',
                l @ ('h' | 'l' | 'f' | 'd') => l,
                other => {
                    return refuse(format!(
                        "the constraint `\"{c}\"` (`{other}`) is not one of `h r l f d n`"
                    ))
                }
            };
            let var = format!("%{k}@asm{tag}");
            let output = k < b.outs.len();
            let init = (!output || c.starts_with('+')).then(|| b.cast(reg(l), x.clone()));
            stmts.push(b.declare(&var, reg(l), init));
            if output {
                epilogue.push(b.assign(x.clone(), b.ident(&var)));
            }
            b.regs.push(Reg {
                letter: l,
                var,
                ptx: format!("%{k}"),
            });
        }
        for piece in inner.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            if let Some(decl) = piece.strip_prefix(".reg") {
                let decl = decl.trim();
                let (ty, names) = decl.split_once(char::is_whitespace).unwrap_or((decl, ""));
                let Some((l, signed)) = ty.strip_prefix('.').and_then(type_letter) else {
                    return refuse(format!(
                        "`.reg {ty}`: the register types emulated are .pred, .b16/.u16/.s16/.f16, \
                         .b32/.u32/.s32, .b64/.u64/.s64, .f32, .f64"
                    ));
                };
                // `r<4>` declares `r0` … `r3` (PTX ISA, "Parameterized Variable Names").
                let mut expanded = Vec::new();
                for name in names.split(',').map(str::trim) {
                    match name.strip_suffix('>').and_then(|n| n.split_once('<')) {
                        Some((base, n)) => match n.trim().parse::<u32>() {
                            Ok(n) if n <= 256 => {
                                expanded.extend((0..n).map(|k| format!("{}{k}", base.trim())));
                            }
                            _ => {
                                return refuse(format!(
                                    "`.reg {ty} {name}`: a register range is `name<N>` with N \
                                     a constant up to 256"
                                ))
                            }
                        },
                        None => expanded.push(name.to_string()),
                    }
                }
                for name in expanded.iter().map(String::as_str) {
                    let ok = !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
                    if !ok {
                        return refuse(format!(
                            "`.reg {ty} {name}`: a register is one plain name, or a range \
                             `name<N>`"
                        ));
                    }
                    let var = format!("{name}@asm{tag}");
                    stmts.push(b.declare(&var, c_scalar(l, signed), None));
                    b.regs.push(Reg {
                        letter: l,
                        var,
                        ptx: name.to_string(),
                    });
                }
                continue;
            }
            // `@p` / `@!p` guards.
            let (guard, instr) = match piece.strip_prefix('@') {
                Some(g) => {
                    let (p, rest) = g.split_once(char::is_whitespace).unwrap_or((g, ""));
                    (Some(p.to_string()), rest.trim())
                }
                None => (None, piece),
            };
            let (mnemonic, rest) = instr.split_once(char::is_whitespace).unwrap_or((instr, ""));
            let ops: Vec<String> = split_operands(rest)
                .into_iter()
                .map(|o| o.trim().to_string())
                .collect();
            let body = b.instruction(mnemonic, &ops)?;
            match guard {
                None => stmts.extend(body),
                Some(p) => {
                    let (neg, name) = match p.strip_prefix('!') {
                        Some(n) => (true, n),
                        None => (false, p.as_str()),
                    };
                    let cond = b.source(name, 'p', false, mnemonic)?;
                    let cond = if neg {
                        b.e(ExprKind::Unary(UnOp::Not, Box::new(cond)))
                    } else {
                        cond
                    };
                    let then = b.stmt(StmtKind::Block(body));
                    stmts.push(b.stmt(StmtKind::If(cond, Box::new(then), None)));
                }
            }
        }
        stmts.extend(epilogue);
        Ok(Stmt {
            kind: StmtKind::Block(stmts),
            span: at,
            end: self.last_end(),
        })
    }
}
