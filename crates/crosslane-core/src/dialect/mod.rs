//! One file per vendor dialect; each exports `OPS`, its operations with their rules and sources.

pub mod amdgcn;
pub mod ascend;
pub mod cuda;
pub mod hip;
pub mod maca;
pub mod wgsl;

use crate::op::OpSpec;

/// Every dialect's table, in the order the UI lists them.
pub(crate) const TABLES: &[&[OpSpec]] = &[
    ascend::OPS,
    cuda::OPS,
    hip::OPS,
    amdgcn::OPS,
    maca::OPS,
    wgsl::OPS,
];

/// Joins a dialect's per-topic tables into one array at compile time, so that a dialect split
/// into submodules (`amdgcn/swizzle.rs`, `amdgcn/dpp.rs`, …) still exports a single `OPS`.
/// `N` must be the sum of the parts' lengths (a mismatch fails the build, never a run).
pub(crate) const fn concat_ops<const N: usize>(parts: &[&[OpSpec]]) -> [OpSpec; N] {
    // A placeholder to fill the array with; every slot is overwritten below.
    let mut out = [parts[0][0]; N];
    let mut filled = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut k = 0;
        while k < parts[p].len() {
            out[filled] = parts[p][k];
            filled += 1;
            k += 1;
        }
        p += 1;
    }
    assert!(filled == N, "concat_ops: N must equal the total length");
    out
}
