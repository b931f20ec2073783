//! The LDS-crossbar permute engines: a pull (`bpermute`: lane i reads the lane its byte address
//! names) and a push (`permute`: lane i writes to it), with the lane-from-address rule and the
//! collision rule. Shared mechanics: AMD `ds_bpermute_b32` / `ds_permute_b32`
//! (`dialect/amdgcn/permute.rs`, which adds each target's routing) and MetaX
//! `__builtin_mxc_bsm_bpermute` / `bsm_permute` (`dialect/maca/shuffle.rs`, seed 002
//! §3.4.3–3.4.4) both run on them.
//!
//! Source: AMD ISA (GCN3/Vega/RDNA "DS_PERMUTE_B32", "DS_BPERMUTE_B32") as summarised in
//! semantics.md "AMD ds_permute_b32 / ds_bpermute_b32": bpermute `s = ((addr_i + offset) >> 2) %
//! W`, an inactive source gives 0; permute writes in lane order (the highest writer wins), lanes
//! nobody wrote read 0. The address is a 32-bit VGPR and the sum wraps at 32 bits.

use crate::error::InputError;
use crate::gather::{gather, Pick};
use crate::op::OpInput;
use crate::result::LaneResult;
use crate::value::Value;

/// The lane a byte address names: `((addr + offset) mod 2^32) >> 2`, taken mod `lanes`.
pub fn lane_of(addr: i64, offset: i64, lanes: usize) -> usize {
    let byte = (addr as u32).wrapping_add(offset as u32);
    (byte >> 2) as usize % lanes.max(1)
}

/// How a permute addresses lanes and settles collisions; [`Routing::FULL_WAVE`] is the GFX9 /
/// CDNA / RDNA4 reading (and MetaX's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routing {
    /// RDNA3/3.5 wave64: the lane index is taken MOD 32 and each 32-lane half permutes within
    /// itself (see [`lane_in`]).
    pub mod32: bool,
    /// When several lanes write one lane: `None` = the pseudo-code's lane order (the highest
    /// writer wins); `Some(why)` = not deterministic, the destination is undefined.
    pub collision: Option<&'static str>,
}

impl Routing {
    /// The whole wave, collisions by lane order.
    pub const FULL_WAVE: Routing = Routing {
        mod32: false,
        collision: None,
    };
}

/// The lane that lane `lane`'s address names under `routing`: [`lane_of`], or on RDNA3 wave64
/// `(lane & 32) | (index mod 32)`. The RDNA3 guide says "the destination lane is MOD 32
/// regardless of wave size" without saying which half the upper lanes reach; we show each half
/// reaching its own half, because wave64 runs as two wave32 passes on RDNA3 and LLPC builds a
/// full-wave gfx11 bpermute from `v_permlane64` plus two `ds_bpermute`s (GPUOpen LLPC #2238),
/// which is only needed if one `ds_bpermute` stays within its half.
pub fn lane_in(lane: usize, addr: i64, offset: i64, lanes: usize, routing: Routing) -> usize {
    if routing.mod32 && lanes > 32 {
        (lane & !31) | lane_of(addr, offset, 32)
    } else {
        lane_of(addr, offset, lanes)
    }
}

/// The per-lane `addr` / `index` list of `input`, checked to hold one entry per lane.
///
/// # Errors
/// [`InputError`] on `name` when the list is missing or of the wrong length.
pub fn per_lane_addrs<'a>(input: &'a OpInput, name: &str) -> Result<&'a [i64], InputError> {
    let a = input.params.ints(name)?;
    if a.len() != input.lanes {
        return Err(InputError::new(
            name,
            format!(
                "needs exactly {} values (one per lane), got {}",
                input.lanes,
                a.len()
            ),
        ));
    }
    Ok(a)
}

/// Pull engine: lane i reads lane `lane_of(addr[i], offset)`; an inactive source gives 0.
/// `rule` names the document for the why texts.
pub fn bpermute(input: &OpInput, addr: &[i64], offset: i64, rule: &str) -> Vec<LaneResult> {
    bpermute_routed(input, addr, offset, Routing::FULL_WAVE, rule)
}

/// [`bpermute`] with the target's [`Routing`].
pub fn bpermute_routed(
    input: &OpInput,
    addr: &[i64],
    offset: i64,
    routing: Routing,
    rule: &str,
) -> Vec<LaneResult> {
    gather(
        input,
        |i| match addr.get(i) {
            Some(a) => Pick::Lane(lane_in(i, *a, offset, input.lanes, routing)),
            None => Pick::Undefined("no address for this lane".into(), None),
        },
        |_, j| {
            Pick::Zero(format!(
                "source lane {j} is inactive: EXEC[{j}] = 0 gives 0 ({rule})"
            ))
        },
    )
}

/// Push engine: every active lane writes its value to lane `lane_of(addr[i], offset)` in lane
/// order (the highest writer wins); lanes nobody wrote read 0. `rule` names the document.
pub fn permute(input: &OpInput, addr: &[i64], offset: i64, rule: &str) -> Vec<LaneResult> {
    permute_routed(input, addr, offset, Routing::FULL_WAVE, rule)
}

/// [`permute`] with the target's [`Routing`]: under a not-deterministic collision rule a lane
/// written by several lanes is undefined, with the pseudo-code's winner (the highest writer)
/// only as its `from` hint.
pub fn permute_routed(
    input: &OpInput,
    addr: &[i64],
    offset: i64,
    routing: Routing,
    rule: &str,
) -> Vec<LaneResult> {
    let mut writers: Vec<Vec<usize>> = vec![Vec::new(); input.lanes];
    for i in input.active.iter().take_while(|i| *i < input.lanes) {
        if let Some(a) = addr.get(i) {
            if let Some(w) = writers.get_mut(lane_in(i, *a, offset, input.lanes, routing)) {
                w.push(i);
            }
        }
    }
    let zero = Value::from_bits(input.ty, 0);
    writers
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if !input.active.contains(i) {
                return LaneResult::inactive();
            }
            match (w.last(), w.last().and_then(|j| input.values.get(*j))) {
                (Some(j), Some(v)) => {
                    let all: Vec<String> = w.iter().map(usize::to_string).collect();
                    match routing.collision {
                        Some(why) if w.len() > 1 => LaneResult::undefined(
                            format!(
                                "lanes {} all wrote lane {i}: which write lands is not \
                                 deterministic ({why}; {rule}); from = the pseudo-code's \
                                 winner, lane {j}",
                                all.join(", ")
                            ),
                            Some(*j),
                        ),
                        _ => {
                            let mut r = LaneResult::lane(*v, *j);
                            if w.len() > 1 {
                                r.why = Some(format!(
                                    "lanes {} all wrote lane {i}; the highest, lane {j}, wins \
                                     ({rule})",
                                    all.join(", ")
                                ));
                            }
                            r
                        }
                    }
                }
                _ => LaneResult::zero(
                    zero,
                    format!("no active lane wrote lane {i}: it keeps the initial 0 ({rule})"),
                ),
            }
        })
        .collect()
}
