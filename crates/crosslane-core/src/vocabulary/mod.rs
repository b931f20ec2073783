//! The vocabulary every other part speaks: lane masks ([`lanes`]), typed values ([`value`]),
//! numbers and lane expressions as typed ([`number`], [`lane_expr`]), parameters and each op's
//! typed argument list ([`params`], [`args`]), what an operation is ([`op`]), per-lane results
//! and diagnostics ([`result`]), the executed step ([`trace`]) and input errors ([`error`]).
//! Imports point only inside this group.

pub mod args;
pub mod error;
pub mod lane_expr;
pub mod lanes;
pub mod number;
pub mod op;
pub mod params;
pub mod result;
pub mod trace;
pub mod value;
