//! MetaX MACA builtins (`__builtin_mxc_*`, seed 002) on the 64-lane warp, one submodule per
//! family:
//! * [`shuffle`]: `mov_shfl`, `update_shfl`, `bsm_bpermute`, `bsm_permute` (§3.4.1–3.4.4);
//! * [`lane`]: `readfirstlane`, `readlane`, `writelane`, `read_xmsk` (§3.8.2–3.8.5);
//! * [`bits`]: `byte_perm`, `ubfe`, `sbfe`, `alignbit` (§3.4.5, §3.7.4–3.7.6; scalar).

pub mod bits;
pub mod lane;
pub mod shuffle;

use crate::op::OpSpec;
use crate::value::ValueType;

/// The builtins' prototypes take and return `int`.
pub(crate) const TYPES_INT: &[ValueType] = &[ValueType::I32];

/// Why other types are refused.
pub(crate) const TYPE_NOTE_INT: &str = "seed 002 declares these builtins on int only";

const LEN: usize = shuffle::OPS.len() + lane::OPS.len() + bits::OPS.len();

/// Every MetaX MACA operation.
pub const OPS: &[OpSpec] = &super::concat_ops::<LEN>(&[shuffle::OPS, lane::OPS, bits::OPS]);
