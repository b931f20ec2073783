//! One file per vendor dialect; each exports `OPS`, its operations with their rules and sources.
//! This module is also the registry: [`all_ops`], [`dialect_ops`] and [`find_op`] over every
//! dialect's table (re-exported as `crate::op::{all_ops, dialect_ops, find_op}`).

pub mod amdgcn;
pub mod ascend;
pub mod cuda;
pub mod hip;
pub mod maca;
pub mod wgsl;

use crate::error::InputError;
use crate::op::{Dialect, OpSpec};

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

/// Every operation of every dialect.
pub fn all_ops() -> impl Iterator<Item = &'static OpSpec> {
    TABLES.iter().flat_map(|t| t.iter())
}

/// The operations of one dialect.
pub fn dialect_ops(dialect: Dialect) -> impl Iterator<Item = &'static OpSpec> {
    all_ops().filter(move |op| op.dialect == dialect)
}

/// Finds an op by dialect and name (or alias).
///
/// # Errors
/// [`InputError`] on field `op` listing the dialect's operations.
pub fn find_op(dialect: Dialect, name: &str) -> Result<&'static OpSpec, InputError> {
    dialect_ops(dialect)
        .find(|op| op.is_named(name))
        .ok_or_else(|| {
            let names: Vec<&str> = dialect_ops(dialect).map(|o| o.name).collect();
            InputError::new(
                "op",
                format!(
                    "`{name}` is not an operation of {}; allowed: {}",
                    dialect.title(),
                    names.join(", ")
                ),
            )
        })
}
