//! One file per vendor dialect; each exports `OPS`, its operations with their rules and sources.

pub mod ascend;
pub mod maca;

use crate::op::OpSpec;

/// Every dialect's table, in the order the UI lists them.
pub(crate) const TABLES: &[&[OpSpec]] = &[
    ascend::OPS,
    maca::compare::OPS,
    maca::convert::OPS,
    maca::math::OPS,
    maca::mma::OPS,
    maca::memory::PREDICATED,
    maca::memory::OPS,
    maca::sync::OPS,
];
