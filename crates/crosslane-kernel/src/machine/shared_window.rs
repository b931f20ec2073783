//! Shared-window addresses: `__cvta_generic_to_shared(p)` and the `.shared` loads and stores
//! of inline PTX (`ld.shared.u32 %0, [%1];` with `"r"(addr)`, `parser/asm_mem.rs`).
//!
//! Sources: CUDA C++ Programming Guide, "Address Space Conversion Functions":
//! `size_t __cvta_generic_to_shared(const void *ptr)` "returns the result of executing the PTX
//! `cvta.to.shared` instruction on the generic address denoted by `ptr`". PTX ISA, "cvta":
//! converts a generic address to the address of the same location in the `.shared` window;
//! PTX ISA, "State Spaces" / "Generic Addressing": a `.shared` address names a location of
//! the executing CTA's shared memory, and `ld.shared`/`st.shared` take such an address.
//!
//! The emulated shared-window address of byte `n` of `__shared__` buffer `k` is
//! `(k + 1) · 2^18 + n` ([`SHARED_BYTES`] = 2^18 bytes, more than any GPU's shared memory per
//! block): it fits the 32 bits real code keeps it in (`unsigned a = __cvta_generic_to_shared(p)`),
//! byte arithmetic on it stays in the buffer, and it lies below every generic address of
//! `crate::ptr_int` — so a shared-window address cast to a C++ pointer and dereferenced is
//! refused as an integer made from no pointer, as it names no generic location. Only
//! [`SHARED_PTR`] (what `ld.shared`/`st.shared` lower to) reads it back as the buffer's
//! element. A generic address outside shared memory (global, a local) has no shared-window
//! address: its conversion is undefined here, with the reason.

use super::StepCtx;
use crate::ast::Expr;
use crate::exec::Executor;
use crate::memory::Space;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar};
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

/// The CUDA intrinsic (its value: a `size_t` shared-window address).
pub const CVTA_TO_SHARED: &str = "__cvta_generic_to_shared";
/// `__crosslane_shared_ptr(addr)`: the pointer to the `__shared__` cell a shared-window address
/// names (the lowering of `ld.shared`/`st.shared`), typed as the buffer's elements.
pub const SHARED_PTR: &str = "__crosslane_shared_ptr";

/// Bytes of one buffer's shared window.
const SHARED_BYTES: u64 = 1 << 18;
/// The most buffers a 32-bit shared-window address can name.
const MAX_BUF: u64 = (1 << 14) - 2;

/// The rule the reasons cite.
const RULE: &str = "PTX ISA, cvta and State Spaces: a .shared address names a location of the \
                    executing block's shared memory";

impl Executor {
    /// The shared-window calls ([`CVTA_TO_SHARED`], [`SHARED_PTR`]) by `mask` lanes of warp
    /// `w`; `None` for any other name.
    pub(crate) fn shared_window_call(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Option<Vec<LaneVal>> {
        if !matches!(name, CVTA_TO_SHARED | SHARED_PTR) || args.len() != 1 {
            return None;
        }
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        let v = self.eval(w, args.first()?, mask, cx);
        let block = self.block as u32;
        let span = e.span;
        let mut first_error: Option<String> = None;
        for l in mask.iter().filter(|&l| l < lanes) {
            let x = match v.get(l) {
                Some(Ok(x)) => x.clone(),
                Some(Err(u)) => {
                    out[l] = Err(u.clone());
                    continue;
                }
                None => continue,
            };
            let r = if name == CVTA_TO_SHARED {
                self.window_address(&x, block)
            } else {
                self.window_cell(&x, block)
            };
            out[l] = r.map_err(|m| {
                first_error.get_or_insert_with(|| m.clone());
                Undef::at(span, m)
            });
        }
        if let Some(m) = first_error {
            cx.note(Level::Error, span, m, "", None);
        }
        Some(out)
    }

    /// A generic pointer's shared-window address.
    fn window_address(&self, x: &KVal, block: u32) -> Result<KVal, String> {
        let KVal::Ptr { buf, offset, .. } = *x else {
            return Err(format!(
                "`{CVTA_TO_SHARED}` takes a pointer; this lane's argument is no pointer ({RULE})"
            ));
        };
        let b = self.trace.memory.buffers.get(buf);
        match b.map(|b| b.space) {
            Some(Space::Shared { block: at }) if at == block => {}
            _ => {
                let what = b.map_or("no buffer".to_string(), |b| format!("`{}`", b.name));
                return Err(format!(
                    "`{CVTA_TO_SHARED}` of a pointer into {what}, which is not this block's \
                     `__shared__` memory: the address has no `.shared` window address, so the \
                     result is undefined ({RULE})"
                ));
            }
        }
        let bytes = b.map_or(4, |b| {
            u64::from(b.elem.scalar.bits().max(8) / 8) * u64::from(b.elem.lanes.max(1))
        });
        let at = u64::try_from(offset)
            .ok()
            .and_then(|o| o.checked_mul(bytes))
            .filter(|&n| n < SHARED_BYTES && (buf as u64) < MAX_BUF);
        let Some(n) = at else {
            return Err(format!(
                "`{CVTA_TO_SHARED}`: the pointer is outside its `__shared__` array (element \
                 {offset}), so it names no shared location ({RULE})"
            ));
        };
        Ok(KVal::int(
            Scalar::U64,
            i128::from((buf as u64 + 1) * SHARED_BYTES + n),
        ))
    }

    /// The `__shared__` cell a shared-window address names.
    fn window_cell(&self, x: &KVal, block: u32) -> Result<KVal, String> {
        let no_window = |why: &str| {
            format!(
                "a `.shared` load or store at an address {why}: it names no location of this \
                 block's shared memory, so the access is undefined; form the address with \
                 `__cvta_generic_to_shared(p)` of a pointer into a `__shared__` array ({RULE})"
            )
        };
        if let KVal::Ptr { .. } = x {
            return Err(no_window(
                "that is a generic pointer, not a shared-window address",
            ));
        }
        let Some(a) = x.as_int().and_then(|a| u64::try_from(a).ok()) else {
            return Err(no_window("that is no integer"));
        };
        let (k, n) = (a / SHARED_BYTES, a % SHARED_BYTES);
        let buf = usize::try_from(k.wrapping_sub(1)).unwrap_or(usize::MAX);
        let b = (k >= 1)
            .then(|| self.trace.memory.buffers.get(buf))
            .flatten();
        let Some(b) = b.filter(|b| b.space == Space::Shared { block }) else {
            return Err(no_window(&format!(
                "{a:#x} that `__cvta_generic_to_shared` gave for none of this block's \
                 `__shared__` arrays"
            )));
        };
        let bytes = u64::from(b.elem.scalar.bits().max(8) / 8) * u64::from(b.elem.lanes.max(1));
        if n % bytes != 0 {
            return Err(format!(
                "a `.shared` access at byte {n} of `{}`, whose elements are {bytes} bytes: a \
                 misaligned access is undefined (PTX ISA, ld/st: the address must be aligned \
                 to the access size)",
                b.name
            ));
        }
        Ok(KVal::Ptr {
            elem: b.elem,
            buf,
            offset: (n / bytes) as i64,
        })
    }
}

/// Whether `name` is one of this module's calls.
pub(crate) fn is_call(name: &str) -> bool {
    matches!(name, CVTA_TO_SHARED | SHARED_PTR)
}
