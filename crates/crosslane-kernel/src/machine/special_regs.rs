//! The PTX special registers whose values come from the run rather than from the thread's
//! indices (PTX ISA, Special Registers, sections 10.10–10.28; read by `asm("mov.u32 %0,
//! %%clock;" …)`, see `parser::asm`) and CUDA's `clock()` / `clock64()` (CUDA C++
//! Programming Guide, Time Function):
//!
//! - `%clock`, `%clock64`, `clock()`, `clock64()`: the run's work counter (the units the
//!   `--max-work` budget counts: one per statement of a warp and per expression node it
//!   evaluates) when the lane reads it. PTX defines them as a cycle counter whose rate and
//!   start are unspecified; the work counter has the properties programs rely on (it grows
//!   while a warp works, differences measure work, it is the same for every lane of one read).
//!   `%clock` is its low 32 bits.
//! - `%globaltimer`: a nanosecond timer (PTX ISA, %globaltimer) — the emulator has no time
//!   base; the value is undefined with that reason.
//! - `%nwarpid`: "the maximum number of warp identifiers" (PTX ISA, %nwarpid) — a fact of the
//!   SM, not of the launch: the most resident warps per SM of the `--arch` (CUDA C++
//!   Programming Guide, "Technical Specifications per Compute Capability": 64 on compute
//!   capability 7.0, 8.0, 9.0 and 10.x; 32 on 7.5; 48 on 8.6, 8.7, 8.9 and 12.x). Measured: 64
//!   on an NVIDIA H200 (sm_90), 2026-12-04 (docs/benchmarks.md, "On real silicon").
//! - `%smid`, `%nsmid`: which SM runs the warp and how many there are (PTX ISA, %smid: "may
//!   change during execution", %nsmid: "not guaranteed to be contiguous") — no SM exists in
//!   the emulator; the value is undefined with that reason, never a number picked quietly.
//! - `__builtin_amdgcn_s_memtime()`: AMD's `S_MEMTIME`, "return current 64-bit timestamp"
//!   (AMD CDNA3 and RDNA3 ISA, SMEM opcodes: the shader clock counter, rate unspecified):
//!   the work counter, as `clock64()`, as an `unsigned long`.
//! - `__builtin_amdgcn_s_memrealtime()`: `S_MEMREALTIME`, "return current 64-bit RTC" (a
//!   real-time clock at a constant frequency): like `%globaltimer`, no time base exists here;
//!   the value is undefined with that reason.

use super::*;
use crate::ast::Expr;
use crate::exec::Executor;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar};
use crosslane_core::lanes::LaneMask;

/// The internal names the front end gives the register reads.
pub(crate) const CLOCK: &str = "__ptx_reg_clock";
/// `%clock64`.
pub(crate) const CLOCK64: &str = "__ptx_reg_clock64";
/// `%globaltimer`.
pub(crate) const GLOBALTIMER: &str = "__ptx_reg_globaltimer";
/// `%smid`.
pub(crate) const SMID: &str = "__ptx_reg_smid";
/// `%nsmid`.
pub(crate) const NSMID: &str = "__ptx_reg_nsmid";
/// `%nwarpid`.
pub(crate) const NWARPID: &str = "__ptx_reg_nwarpid";

/// The most resident warps per SM of CUDA architecture `arch` (`sm_90`, `compute_86`, `sm_90a`;
/// `None` is the default target, sm_90), the value `%nwarpid` reads. Source: CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability", "Maximum number of
/// resident warps per SM". An architecture the table does not list (a typo is refused earlier,
/// by the preprocessor's `__CUDA_ARCH__`) takes its major version's figure, else 64.
pub(crate) fn max_warps_per_sm(arch: Option<&str>) -> u32 {
    let digits: String = arch
        .unwrap_or("sm_90")
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.as_str() {
        "75" => 32,
        "86" | "87" | "89" => 48,
        d if d.starts_with("12") => 48,
        _ => 64,
    }
}
/// AMD's shader clock read.
/// The warp-collective check of crosslane's `<mma.h>` ([`crate::wmma_header`]): `1` in every
/// lane when the whole warp executes the call, else undefined in each lane with the rule that
/// `nvcuda::wmma` functions "must be called by all threads in the warp" (CUDA C++ Programming
/// Guide, "Warp Matrix Functions").
pub(crate) const WMMA_WARP: &str = "__crosslane_wmma_warp";

const MEMTIME: &str = "__builtin_amdgcn_s_memtime";
/// AMD's real-time clock read.
const MEMREALTIME: &str = "__builtin_amdgcn_s_memrealtime";

/// Whether `name` is a special-register read this module answers (`clock()`, `clock64()`
/// and the front end's names for `%clock`, `%smid`, …).
pub(crate) fn is_register_read(name: &str) -> bool {
    matches!(
        name,
        CLOCK
            | CLOCK64
            | GLOBALTIMER
            | SMID
            | NSMID
            | NWARPID
            | MEMTIME
            | MEMREALTIME
            | "clock"
            | "clock64"
            | WMMA_WARP
            | super::coop_launch::GRID_IS_VALID
    )
}

impl Executor {
    /// The value of special-register read `name` in the lanes of `mask`; `None` when `name`
    /// is no such read.
    pub(crate) fn special_register(
        &mut self,
        e: &Expr,
        name: &str,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Option<Vec<LaneVal>> {
        let lanes = self.trace.launch.lanes;
        let value: Result<KVal, String> = match name {
            WMMA_WARP => {
                let missing: Vec<usize> = (0..lanes).filter(|&l| !mask.contains(l)).collect();
                if missing.is_empty() {
                    Ok(KVal::int(Scalar::I32, 1))
                } else {
                    let shown: Vec<String> = missing.iter().take(8).map(usize::to_string).collect();
                    let more = if missing.len() > 8 { ", …" } else { "" };
                    let m = format!(
                        "an `nvcuda::wmma` call (fill_fragment, load_matrix_sync, mma_sync, \
                         store_matrix_sync) is warp-collective: it \"must be called by all threads \
                         in the warp\" (CUDA C++ Programming Guide, Warp Matrix Functions); \
                         lane(s) {}{more} do not execute it here (diverged, exited or never \
                         launched), so the fragment or the stored values are undefined",
                        shown.join(", ")
                    );
                    cx.note(
                        Level::Warning,
                        e.span,
                        m.clone(),
                        "CUDA C++ Programming Guide, Warp Matrix Functions",
                        None,
                    );
                    Err(m)
                }
            }
            CLOCK => Ok(KVal::int(Scalar::U32, i128::from(self.meter.work as u32))),
            // `clock()` returns a `clock_t` (`long` on LP64), `clock64()` a `long long`.
            CLOCK64 | "clock" | "clock64" => {
                Ok(KVal::int(Scalar::I64, i128::from(self.meter.work)))
            }
            NWARPID => Ok(KVal::int(
                Scalar::U32,
                i128::from(max_warps_per_sm(self.config.preprocess.arch.as_deref())),
            )),
            MEMTIME => Ok(KVal::int(Scalar::U64, i128::from(self.meter.work))),
            MEMREALTIME => Err(
                "__builtin_amdgcn_s_memrealtime reads a constant-rate real-time clock (AMD ISA, \
                 S_MEMREALTIME); the emulator has no time base, so its value is undefined"
                    .to_string(),
            ),
            GLOBALTIMER => Err(
                "%globaltimer is a nanosecond timer (PTX ISA, Special Registers: %globaltimer); \
                 the emulator has no time base, so its value is undefined"
                    .to_string(),
            ),
            SMID | NSMID => Err(format!(
                "%{} names the SM running the warp or how many there are (PTX ISA, Special \
                 Registers: %smid may change during execution); the emulator has no SMs, so \
                 its value is undefined",
                if name == SMID { "smid" } else { "nsmid" }
            )),
            _ => return None,
        };
        let mut out = vec![Err(Undef::idle()); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = value.clone().map_err(|m| Undef::at(e.span, m.clone()));
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::max_warps_per_sm;

    #[test]
    fn nwarpid_is_the_architectures_resident_warps() {
        // Programming Guide, "Technical Specifications per Compute Capability"; 64 was read
        // from %nwarpid on an NVIDIA H200 (sm_90), 2026-12-04.
        assert_eq!(max_warps_per_sm(None), 64);
        assert_eq!(max_warps_per_sm(Some("sm_90a")), 64);
        assert_eq!(max_warps_per_sm(Some("sm_75")), 32);
        assert_eq!(max_warps_per_sm(Some("compute_86")), 48);
        assert_eq!(max_warps_per_sm(Some("sm_89")), 48);
        assert_eq!(max_warps_per_sm(Some("sm_120")), 48);
        assert_eq!(max_warps_per_sm(Some("sm_80")), 64);
    }
}
