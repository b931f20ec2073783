//! MetaX MACA builtins (`__builtin_mxc_*`, seed 002), 64-lane warps. One module per section
//! group of the seed; each exports `OPS`, listed in `dialect/mod.rs` TABLES.

pub mod arch;
pub mod compare;
pub mod convert;
pub mod math;
pub mod memory;
pub mod mma;
pub mod mma_layout;
mod operands;
pub mod sync;
