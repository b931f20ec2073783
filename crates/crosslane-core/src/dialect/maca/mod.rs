//! MetaX MACA builtins (`__builtin_mxc_*`, seed 002) on the 64-lane warp, one submodule per
//! section group of the seed:
//! * [`shuffle`]: `mov_shfl`, `update_shfl`, `bsm_bpermute`, `bsm_permute` (§3.4.1–3.4.4);
//! * [`lane`]: `readfirstlane`, `readlane`, `writelane`, `read_xmsk` (§3.8.2–3.8.5);
//! * [`bits`]: `byte_perm`, `ubfe`, `sbfe`, `alignbit` (§3.4.5, §3.7.4–3.7.6; scalar);
//! * [`compare`]: `uicmp*`, `sicmp*`, `fcmp*` → 64-bit lane masks (§3.2);
//! * [`convert`]: `cvt_f32totf32`, `cvt_pk_f32tou8`, `b*_cast_to_f32` (§3.3);
//! * [`math`]: packed FMA, mad_wide, transcendental builtins (§3.5, §3.7);
//! * [`mma`] with its lane layout table [`mma_layout`]: warp matrix multiply-add (§3.6);
//! * [`memory`]: predicated global loads/stores, `ldg_*_bsm` (§3.1.1–3.1.5);
//! * [`sync`]: `arrive*`, `barrier_ex`, `barrier_and_wait*`, `get_time`, `nop` (§3.1.6–3.1.10, §3.8);
//! * [`arch`]: the target architectures (`xcore1000` … `xcore1520`) that gate some builtins.

pub mod arch;
pub mod bits;
pub mod compare;
pub mod convert;
pub mod lane;
pub mod math;
pub mod memory;
pub mod mma;
pub mod mma_layout;
mod operands;
pub mod shuffle;
pub mod sync;

use crate::op::OpSpec;
use crate::value::ValueType;

/// The builtins' prototypes take and return `int`.
pub(crate) const TYPES_INT: &[ValueType] = &[ValueType::I32];

/// Why other types are refused.
pub(crate) const TYPE_NOTE_INT: &str = "seed 002 declares these builtins on int only";

const PARTS: &[&[OpSpec]] = &[
    shuffle::OPS,
    lane::OPS,
    bits::OPS,
    compare::OPS,
    convert::OPS,
    math::OPS,
    mma::OPS,
    memory::PREDICATED,
    memory::OPS,
    sync::OPS,
];

const LEN: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PARTS.len() {
        n += PARTS[i].len();
        i += 1;
    }
    n
};

/// Every MetaX MACA operation.
pub const OPS: &[OpSpec] = &super::concat_ops::<LEN>(PARTS);
