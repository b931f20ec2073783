//! "Export as code": an operation request as a compilable kernel snippet in CUDA, HIP, Ascend C,
//! MetaX MACA or WGSL, each written with that platform's own intrinsic and parameter names.
//!
//! What it is for: taking a scenario from the playground into a real kernel. The request is first
//! reduced to the data movement it performs ([`Movement`]): a width-segmented shuffle of one of
//! the four families (idx / up / down / xor, the families of [`crate::portability`]), or, for
//! anything else, the op itself. Each target then writes that movement with its own intrinsic
//! (`emit`); where a platform cannot express it exactly (no width segments, another warp size,
//! no such operation, a type the platform lacks), the snippet says so in a `// crosslane:`
//! comment and gives the closest code, never a silent approximation.
//!
//! Edge cases that differ between vendors (inactive source lanes, reads outside the segment)
//! follow each platform's own rule in the generated code: the snippet reproduces the call, not the
//! source dialect's edge-case results (the portability view shows where they differ).
//!
//! Sources: each op's typed argument list (`OpSpec::args`, from which `OpSpec::signature` is
//! derived), and the mapping of [`crate::portability::ShuffleFamily::op_in`].

mod collective;
mod emit;
mod lanes;

use crate::error::InputError;
use crate::lane_expr::LaneExpr;
use crate::op::{Dialect, OpInput, OpSpec};
use crate::params::ParamValue;
use crate::portability::ShuffleFamily;
use crate::request::OpRequest;

pub use collective::{Collective, Combine};
pub use emit::c_type;

/// A platform a snippet is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// CUDA C++ (`__shfl_*_sync`, 32-lane warps).
    Cuda,
    /// HIP C++ (`__shfl*`, warpSize 32 or 64).
    Hip,
    /// Ascend C SIMT (`asc_shfl*`, 32-lane warps).
    Ascend,
    /// MetaX MACA C++ (`__builtin_mxc_*`, 64-lane warps).
    Maca,
    /// WGSL with the `subgroups` extension.
    Wgsl,
}

impl Target {
    /// The platform's name for comments in the exported code.
    pub fn title(self) -> &'static str {
        match self {
            Target::Cuda => "CUDA",
            Target::Hip => "HIP",
            Target::Ascend => "Ascend C",
            Target::Maca => "MetaX MACA",
            Target::Wgsl => "WGSL",
        }
    }

    /// Every target, in menu order.
    pub const ALL: [Target; 5] = [
        Target::Cuda,
        Target::Hip,
        Target::Ascend,
        Target::Maca,
        Target::Wgsl,
    ];

    /// Parses `cuda`, `hip`, `ascend`, `maca`, `wgsl`.
    ///
    /// # Errors
    /// [`InputError`] on field `target`, listing the allowed names.
    pub fn parse(text: &str) -> Result<Target, InputError> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == text.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                InputError::new(
                    "target",
                    format!(
                        "`{text}` is not a code target; allowed: cuda, hip, ascend, maca, wgsl"
                    ),
                )
            })
    }

    /// The target's name (`cuda`, …).
    pub fn name(self) -> &'static str {
        self.dialect().name()
    }

    /// The dialect whose intrinsics the target uses.
    pub fn dialect(self) -> Dialect {
        match self {
            Target::Cuda => Dialect::Cuda,
            Target::Hip => Dialect::Hip,
            Target::Ascend => Dialect::Ascend,
            Target::Maca => Dialect::Maca,
            Target::Wgsl => Dialect::Wgsl,
        }
    }

    /// File extension of a snippet (`cu`, `hip`, `cpp`, `maca`, `wgsl`).
    pub fn extension(self) -> &'static str {
        match self {
            Target::Cuda => "cu",
            Target::Hip => "hip",
            Target::Ascend => "asc.cpp",
            Target::Maca => "maca",
            Target::Wgsl => "wgsl",
        }
    }

    /// Lanes of this platform's warp / wavefront / subgroup that a snippet may assume: CUDA,
    /// Ascend 32; MACA 64; HIP 32 or 64 (wave32 / wave64); WGSL any power of two in 4..=128
    /// (the device chooses).
    pub fn lane_counts(self) -> &'static [usize] {
        match self {
            Target::Cuda | Target::Ascend => &[32],
            Target::Maca => &[64],
            Target::Hip => &[32, 64],
            Target::Wgsl => &[4, 8, 16, 32, 64, 128],
        }
    }
}

/// The data movement a request performs, independent of who names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Movement {
    /// A shuffle of `family` by `amount` (source lane, delta or xor mask) within segments of
    /// `width` lanes (`width` = lane count when the op has no width). Lane `i` reads, with
    /// `base = i & !(width − 1)`: idx `base + (amount mod width)`; up `i − amount` (own value
    /// below `base`); down `i + amount` (own value at or past `base + width`); xor
    /// `i ^ amount` (own value past the segment) — CUDA Programming Guide, "Warp Shuffle
    /// Functions", the rule the other vendors' shuffles copy.
    Shuffle {
        /// idx / up / down / xor.
        family: ShuffleFamily,
        /// src_lane / delta / lane_mask.
        amount: i64,
        /// Segment width in lanes.
        width: i64,
    },
    /// A shuffle of `family` whose amount each lane computes from a lane expression the user
    /// gave (`(lane + 1) % 32`): the same rule as [`Movement::Shuffle`] applied with each lane's
    /// own amount (CUDA, HIP and Ascend take these operands per thread; semantics.md, Per-thread
    /// and uniform operands).
    LaneShuffle {
        /// idx / up / down / xor.
        family: ShuffleFamily,
        /// The user's lane expression for src_lane / delta / lane_mask.
        amount: LaneExpr,
        /// Segment width in lanes (one value for the warp).
        width: i64,
    },
    /// A backward permute by byte address: lane `n` reads lane `(addr[n] >> 2) mod lanes`
    /// (AMD `ds_bpermute_b32`, RDNA / CDNA ISA "DS_BPERMUTE_B32", with its `offset` added;
    /// MetaX `__builtin_mxc_bsm_bpermute`, seed 002 §3.4.3, which follows it).
    Bpermute {
        /// Byte address per lane (offset included).
        addr: Vec<i64>,
    },
    /// An op with no cross-vendor family here: generated only in its own dialect.
    Op,
}

/// One resolved request: the op, its validated input and its movement.
pub struct Resolved {
    /// The op.
    pub spec: &'static OpSpec,
    /// Its validated input.
    pub input: OpInput,
    /// What it does, for other targets.
    pub movement: Movement,
}

/// Validates `req` and finds its movement.
///
/// # Errors
/// The request's [`InputError`] (as [`OpRequest::resolve`]).
pub fn resolve(req: &OpRequest) -> Result<Resolved, InputError> {
    let (spec, input) = req.resolve()?;
    let movement = movement(spec, &input, req);
    Ok(Resolved {
        spec,
        input,
        movement,
    })
}

fn movement(spec: &OpSpec, input: &OpInput, req: &OpRequest) -> Movement {
    let int = |name: &str| match input.params.0.get(name) {
        Some(ParamValue::Int(v)) => Some(*v),
        // A per-lane parameter with one value for every lane is that value.
        Some(ParamValue::Ints(v)) if v.windows(2).all(|w| w[0] == w[1]) => v.first().copied(),
        _ => None,
    };
    let lanes = input.lanes as i64;
    for family in [
        ShuffleFamily::Idx,
        ShuffleFamily::Up,
        ShuffleFamily::Down,
        ShuffleFamily::Xor,
    ] {
        let Some((name, param)) = family.op_in(spec.dialect) else {
            continue;
        };
        if name != spec.name {
            continue;
        }
        let Some(amount) = int(param) else {
            // A per-lane amount the user wrote as a lane expression (under the parameter's
            // name or the vendor's spelling) travels as that expression.
            let given = req
                .params
                .iter()
                .find(|(k, _)| spec.param(k).is_some_and(|p| p.name == param))
                .map(|(_, v)| v.as_str());
            let expr = given
                .filter(|t| crate::lane_expr::looks_like_expr(t))
                .and_then(|t| LaneExpr::parse(t, param).ok())
                .filter(LaneExpr::uses_lane);
            return match (
                expr,
                int("width").or(spec.param("width").is_none().then_some(lanes)),
            ) {
                (Some(amount), Some(width)) => Movement::LaneShuffle {
                    family,
                    amount,
                    width,
                },
                _ => Movement::Op,
            };
        };
        let width = int("width").unwrap_or(lanes);
        return Movement::Shuffle {
            family,
            amount,
            width,
        };
    }
    // Whole-warp reads of one lane are idx shuffles with width = lane count.
    let read = match (spec.dialect, spec.name) {
        (Dialect::Wgsl, "subgroupBroadcast") => int("id"),
        (Dialect::Maca, "__builtin_mxc_readlane") => int("thread"),
        (Dialect::Amdgcn, "v_readlane_b32") => int("lane_sel"),
        _ => None,
    };
    // WGSL's quad operations are shuffles within groups of four (WGSL spec, Quad Operations):
    // quadBroadcast(e, id) reads lane id of the quad; quadSwapX / Y / Diagonal read lane
    // i ^ 1 / 2 / 3.
    let quad = match (spec.dialect, spec.name) {
        (Dialect::Wgsl, "quadBroadcast") => int("id").map(|id| (ShuffleFamily::Idx, id, 4)),
        (Dialect::Wgsl, "quadSwapX") => Some((ShuffleFamily::Xor, 1, lanes)),
        (Dialect::Wgsl, "quadSwapY") => Some((ShuffleFamily::Xor, 2, lanes)),
        (Dialect::Wgsl, "quadSwapDiagonal") => Some((ShuffleFamily::Xor, 3, lanes)),
        _ => None,
    };
    if let Some((family, amount, width)) = quad {
        return Movement::Shuffle {
            family,
            amount,
            width,
        };
    }
    if let Some(amount) = read {
        return Movement::Shuffle {
            family: ShuffleFamily::Idx,
            amount,
            width: lanes,
        };
    }
    let per_lane = |name: &str| match input.params.0.get(name) {
        Some(ParamValue::Ints(v)) => Some(v.clone()),
        Some(ParamValue::Int(v)) => Some(vec![*v; input.lanes]),
        _ => None,
    };
    let addr = match (spec.dialect, spec.name) {
        (Dialect::Amdgcn, "ds_bpermute_b32") => per_lane("addr").map(|a| {
            let offset = int("offset").unwrap_or(0);
            a.into_iter().map(|x| x.wrapping_add(offset)).collect()
        }),
        (Dialect::Maca, "__builtin_mxc_bsm_bpermute") => per_lane("index"),
        _ => None,
    };
    match addr {
        Some(addr) => Movement::Bpermute { addr },
        None => Movement::Op,
    }
}

/// The snippet of `req` for `target`: a kernel that reads the operand from `in`, runs the
/// movement with `target`'s intrinsic, and writes the result to `out`, with `// crosslane:`
/// comments wherever `target` cannot express the scenario exactly.
///
/// # Errors
/// [`InputError`] when `req` does not validate.
pub fn generate(req: &OpRequest, target: Target) -> Result<String, InputError> {
    Ok(emit::snippet(&resolve(req)?, req, target))
}
