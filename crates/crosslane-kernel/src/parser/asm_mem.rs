//! Inline PTX global and generic loads and stores, one instruction (PTX ISA, "Data Movement
//! and Conversion Instructions: ld, ld.global.nc, st"): `ld[.sem.scope][.global][.nc][.cache]`
//! `[.v2|.v4].T {%0, %1, …}, [%k];` and `st[.sem.scope][.global][.cache][.v2|.v4].T [%k],`
//! `{%1, …};` as DeepEP, sglang and TensorRT-LLM write them (`ld_global_nc`, `st_global`,
//! `ld_acquire_gpu`, `st_release_sys`). Each is the plain element accesses it
//! performs: element `j` of a vector access is `((T*)addr)[j]` (PTX ISA, "Vectors": a vector
//! access reads or writes consecutive elements), `[%k+N]` adds `N` bytes. The cache and
//! eviction qualifiers (`.nc`, `.ca`, `.cg`, `.cs`, `.lu`, `.cv`, `.L1::no_allocate`,
//! `.L2::128B`, …) and `.volatile`/`.weak` change no value one thread sees, and neither do the
//! memory-ordering forms `ld.relaxed`/`ld.acquire`/`st.relaxed`/`st.release` with a scope
//! (`.cta`, `.cluster`, `.gpu`, `.sys`): the PTX ISA's "Memory Consistency Model" orders a
//! thread's accesses against other threads' and leaves the value one access reads or writes
//! that of the plain access (the interpreter runs each access whole, in program order). A
//! generic address (no state space) is the pointer's own memory, as in C++. Elements of 8 and
//! 16 bits (`.u8`, `.s8`, `.b8`, `.u16`, `.s16`, `.b16`) load into a wider register
//! zero-extended for `.u`/`.b` and sign-extended for `.s` (PTX ISA, `ld`: "the value is
//! sign-extended or zero-extended to the size of the destination register" by the type's
//! signedness), and a store keeps the low bits. `ld.shared`/`st.shared` (also
//! `.shared::cta`) take a shared-window address (PTX ISA, "State Spaces": the `.shared`
//! space is the block's shared memory, addressed by its own window), as
//! `__cvta_generic_to_shared(p)` gives it: the access is the cell of the `__shared__` array
//! it names (`crate::machine::shared_window`); an address no conversion gave is undefined,
//! with the reason. Other state spaces (`.shared::cluster`, `.local`, `.param`, `.const`),
//! `ld.release`/`st.acquire` (not PTX) and other types are refused by name.

use super::asm_cvt::Operand;
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// Whether the whitespace-free template `single` is one load or store (`ld.` / `st.`, any
/// state space: the ones not run are refused by [`Parser::asm_mem`] by name).
pub(super) fn is_mem(single: &str) -> bool {
    (single.starts_with("ld.") || single.starts_with("st."))
        && !single.starts_with("ld.param")
        && !single.contains(';')
}

/// The element type of a load or store's type suffix.
fn elem_of(t: &str) -> Option<Scalar> {
    Some(match t {
        "s8" => Scalar::I8,
        "u8" | "b8" => Scalar::U8,
        "s16" => Scalar::I16,
        "u16" | "b16" => Scalar::U16,
        "s32" => Scalar::I32,
        "u32" | "b32" => Scalar::U32,
        "f32" => Scalar::F32,
        "s64" => Scalar::I64,
        "u64" | "b64" => Scalar::U64,
        "f64" => Scalar::F64,
        _ => return None,
    })
}

/// What a load or store mnemonic says (module doc).
pub(super) struct MemForm {
    /// `ld` (else `st`).
    pub(super) load: bool,
    /// Elements moved: 1, 2 (`.v2`) or 4 (`.v4`).
    pub(super) lanes: usize,
    /// The element type.
    pub(super) elem: Scalar,
    /// A `.bN` type: bits, read as the register's own type.
    pub(super) untyped: bool,
    /// The `.shared` state space: the address is a shared-window address.
    pub(super) shared: bool,
}

/// The qualifiers of the load or store `mnemonic` (`ld.global.nc.v4.u32`).
///
/// # Errors
/// A qualifier or type the module does not list, in words.
pub(super) fn decode(mnemonic: &str) -> Result<MemForm, String> {
    let load = mnemonic.starts_with("ld.");
    let mut lanes = 1usize;
    let mut elem = None;
    // A `.bN` type is bits without a number type: the register's own.
    let mut untyped = false;
    // `.shared` / `.shared::cta`: the address is a shared-window address
    // (`crate::machine::shared_window`).
    let mut shared = false;
    for q in mnemonic.split('.').skip(1) {
        match q {
            "shared" | "shared::cta" if !shared => shared = true,
            "global" | "nc" | "ca" | "cg" | "cs" | "lu" | "cv" | "wb" | "wt" | "volatile"
            | "weak" | "relaxed" | "cta" | "cluster" | "gpu" | "sys" => {}
            "acquire" if load => {}
            "release" if !load => {}
            "acquire" | "release" => {
                return Err(format!(
                    "`{mnemonic}`: PTX has no `{}.{q}` (PTX ISA, `ld`/`st`: a load may be \
                     `.relaxed` or `.acquire`, a store `.relaxed` or `.release`)",
                    if load { "ld" } else { "st" }
                ))
            }
            "local" | "param" | "const" | "tex" | "surf" => {
                return Err(format!(
                    "`{mnemonic}`: a load or store of the `.{q}` state space is not \
                     emulated here (its address is a `.{q}` window address, not a C++ \
                     pointer); global, generic and `.shared` ones are: write the access in C++ \
                     (`x = p[i]`, `p[i] = x`) instead"
                ))
            }
            _ if q.starts_with("L1::") || q.starts_with("L2::") => {}
            "v2" => lanes = 2,
            "v4" => lanes = 4,
            _ => match elem_of(q) {
                Some(s) if elem.is_none() => {
                    untyped = q.starts_with('b');
                    elem = Some(s);
                }
                _ => {
                    return Err(format!(
                        "`{mnemonic}`: the `.{q}` qualifier is not emulated here; global \
                         and generic loads and stores of 8- to 64-bit integer and 32- and \
                         64-bit float elements (`.u8`, `.s16`, `.b16`, `.s32`, `.u32`, \
                         `.b32`, `.f32`, `.s64`, `.u64`, `.b64`, `.f64`), `.v2`/`.v4`, \
                         with cache hints (`.nc`, `.cg`, `.L1::no_allocate`, …) and \
                         `.relaxed`/`.acquire`/`.release` with a scope are; write \
                         the access in C++ (`x = p[i]`, `__ldg(p + i)`, `p[i] = x`) instead"
                    ))
                }
            },
        }
    }
    let Some(elem) = elem else {
        return Err(format!(
            "`{mnemonic}` names no element type (`.s32`, `.f32`, …)"
        ));
    };
    Ok(MemForm {
        load,
        lanes,
        elem,
        untyped,
        shared,
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
        let MemForm {
            load,
            lanes,
            elem,
            untyped,
            shared,
        } = match decode(mnemonic) {
            Ok(f) => f,
            Err(m) => return refuse(m),
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
        // `ld.global.b16 %0` into a `__half` (`"=h"`), `.b32` into a `float` (`"=f"`): the
        // register holds the element's bits (PTX ISA, "Fundamental Types": `.b` types are
        // untyped bits), so the cells are read and written as the register's type.
        let elem = match regs.first().and_then(|r| operand(r)) {
            Some((_, x)) if untyped => self
                .expr_type(x)
                .filter(|t| t.lanes == 1 && t.scalar.is_float() && t.scalar.bits() == elem.bits())
                .map_or(elem, |t| t.scalar),
            _ => elem,
        };
        let Some((_, base)) = operand(reg) else {
            return refuse(format!("`{mnemonic}`: `{reg}` is no operand"));
        };
        // A `.shared` address is read back as the `__shared__` cell it names; a generic or
        // global one is the pointer's own value.
        let base = if shared {
            e(ExprKind::Call(
                crate::machine::shared_window::SHARED_PTR.to_string(),
                vec![base.clone()],
            ))
        } else {
            base.clone()
        };
        let ptr = e(ExprKind::Cast(Ty::Ptr(ValTy::scalar(elem)), Box::new(base)));
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
                // The element's value (`.s8` of a byte 250 is -6), then converted to the
                // register's type: zero- or sign-extended by the element's signedness.
                let v = e(ExprKind::Cast(Ty::Val(ValTy::scalar(elem)), Box::new(cell)));
                ExprKind::Assign(None, Box::new(x.clone()), Box::new(v))
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
