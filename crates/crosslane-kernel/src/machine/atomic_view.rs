//! An atomic through a pointer whose type differs from the buffer's cells: vLLM's
//! `atomicMax((int*)addr, __float_as_int(v))` on a `float*` buffer, the CUDA C++ Programming
//! Guide's `atomicAdd` for `double` built from `atomicCAS` on `(unsigned long long*)address`
//! ("Atomic Functions": "any atomic operation can be implemented based on atomicCAS()"), an
//! `atomicAdd(&out[i].x, v)` on a `float4` buffer.
//!
//! The atomic acts on the bytes the pointer covers, read as the pointer's type: the
//! function's operand type is the pointer's (`int` for `atomicMax(int*, int)`), and memory is
//! bytes (CUDA C++ Programming Guide, "Device Memory Accesses"; little-endian on every NVIDIA
//! and AMD GPU). ISO C++ makes access through a glvalue of another type undefined
//! ([basic.lval]/11); nvcc's and clang's device code give the bytes, and the emulator models
//! that reading as `reinterpret.rs` says for unions and `memcpy`. So the old value is the
//! cells' bytes read as the pointer's type ([`Executor::load_components`]) and the new value
//! is stored as its bytes ([`Executor::store_components`]): `__int_as_float` of the cell after
//! `atomicMax((int*)f, __float_as_int(2.5f))` is 2.5 exactly. A byte never written leaves the
//! old value undefined, and so the new one; a float cell holding a NaN has no bits here (the
//! emulator keeps floats as values), so such an atomic is undefined with that reason.
//!
//! Refused: an atomic through a vector pointer (`atomicAdd(float2*, …)`) over cells of
//! another type, which no vendor function does on reinterpreted bytes.

use super::*;
use crate::exec::Executor;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, ValTy};
use crate::vector_types::cuda_name;

/// Where an atomic acts when its pointer views the cells as another type: component `at` of
/// the buffer (counted as [`Place::View`] counts) and the pointer's type.
pub(crate) type AtomicView = (i64, ValTy);

impl Executor {
    /// The view an atomic `name` through `p` (element `off` of buffer `buf`) has: `None` for a
    /// whole cell of the pointer's own type (or a signed/unsigned integer of one width, whose
    /// conversion already is the reinterpretation, [conv.integral]/2), else the view.
    ///
    /// # Errors
    /// A message for an atomic through a vector pointer over another type's cells, or the
    /// view's own refusal (an offset out of range).
    pub(crate) fn atomic_view(
        &self,
        name: &str,
        p: &KVal,
        buf: usize,
        off: i64,
    ) -> Result<Option<AtomicView>, String> {
        match self.mem_place(p, buf, off)? {
            Place::View { elem, .. } if elem.lanes > 1 => {
                let cell = self
                    .trace
                    .memory
                    .buffers
                    .get(buf)
                    .map_or_else(String::new, |b| cuda_name(b.elem));
                Err(format!(
                    "`{name}` through a `{}*` into a buffer of `{cell}`: an atomic on a vector \
                     over cells of another type is not modelled; apply the atomic to each \
                     component through a pointer to its scalar type",
                    cuda_name(elem)
                ))
            }
            Place::View { at, elem, .. } => Ok(Some((at, elem))),
            _ => Ok(None),
        }
    }

    /// The old value an atomic reads: the cell (`view` `None`) or the viewed bytes.
    pub(crate) fn atomic_read(
        &mut self,
        (buf, off): (usize, i64),
        view: Option<AtomicView>,
        span: Span,
        l: usize,
        cx: &mut StepCtx,
    ) -> LaneVal {
        // An atomic is no race hazard: its reads are not logged ([`super::racecheck`]).
        match view {
            None => self.load_untracked(buf, off, span, l, cx),
            Some((at, elem)) => {
                let was = self.race.set_on(false);
                let v = self.load_components(buf, at, elem, span, l, cx);
                self.race.set_on(was);
                v
            }
        }
    }

    /// Stores an atomic's new value `v` through its view: the bytes it covers, each cell
    /// touched written back whole (the other bytes kept). The store is the atomic's, not a
    /// plain write: it is left out of the statement's record of written cells, so several
    /// lanes' atomics on one cell are no write race (as for an atomic on a whole cell).
    /// Returns the value stored, converted to the view's type.
    pub(crate) fn atomic_store_view(
        &mut self,
        w: usize,
        (buf, (at, elem)): (usize, AtomicView),
        l: usize,
        v: LaneVal,
        span: Span,
        cx: &mut StepCtx,
    ) -> LaneVal {
        let written = cx.written.clone();
        // Nor are its writes ([`super::racecheck`]).
        let was = self.race.set_on(false);
        let stored = self.store_components(w, (buf, at, elem), l, v, span, cx);
        self.race.set_on(was);
        cx.written = written;
        stored
    }
}

/// The refusal of an atomic whose view cannot be taken, as an undefined value with the
/// message noted as an error (the run stops there).
pub(crate) fn refuse(span: Span, m: String, rule: &'static str, cx: &mut StepCtx) -> Undef {
    cx.note(Level::Error, span, m.clone(), rule, None);
    Undef::at(span, m)
}
