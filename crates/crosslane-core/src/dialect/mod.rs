//! One file per vendor dialect; each exports `OPS`, its operations with their rules and sources.

pub mod ascend;
pub mod cuda;
pub mod hip;
pub mod wgsl;

use crate::op::OpSpec;

/// Every dialect's table, in the order the UI lists them.
pub(crate) const TABLES: &[&[OpSpec]] = &[ascend::OPS, cuda::OPS, hip::OPS, wgsl::OPS];
