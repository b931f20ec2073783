//! crosslane-core: the semantics of GPU cross-lane operations.
//!
//! What it is for: turning an operation request (dialect, op, lane count, active mask, operand
//! row, vendor parameters) into a [`Step`] of per-lane results with provenance, undefined lanes
//! carrying why, and diagnostics that cite the vendor's rule. Every rule lives in one dialect file
//! (`dialect/*.rs`) next to the document section it comes from; shared machinery (lane masks,
//! values, segments, the gather engine) exists once.
//!
//! The folders show the layers, each importing only those above it:
//! * [`vocabulary`] — lanes, values, parameters, argument lists, op specs, results, the trace;
//! * [`mechanics`] — gather, segments, DPP, permutes, arithmetic, plans, shared by the dialects;
//! * [`dialect`] — one file or folder per vendor, and the registry over them;
//! * [`application`] — request, reference, portability, codegen, network, scenario and
//!   permalink.
//!
//! Read first: [`OpRequest::run`] (one call, from text to a [`Step`]), the registry in
//! [`dialect`] and one dialect file (`dialect/ascend.rs` is the shortest), then
//! [`gather`](mod@gather) (how a dialect says which lane each lane reads). The kernel interpreter
//! is its own crate, `crosslane-kernel`, built on this one; `ARCHITECTURE.md` at the repository
//! root maps the rest.
//!
//! What it is not for: drawing, DOM, GPUs or files. Those crates depend on this one, never the
//! other way round.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod application;
pub mod dialect;
pub mod mechanics;
pub mod vocabulary;

// Every module keeps its path from before the grouping (`crosslane_core::value::Value`,
// `crate::gather::gather`): the groups are folders, the public paths stay flat.
pub use application::{
    codegen, fields, network, permalink, portability, reference, request, scenario,
};
pub use mechanics::{arith, dpp, gather, permute, plan, segment};
pub use vocabulary::{args, error, fill, lane_expr, lanes, number, params, result, trace, value};

/// The operation types ([`vocabulary::op`]) and the registry that finds them ([`dialect`]), at
/// their path from before the grouping (`crosslane_core::op::find_op`).
pub mod op {
    pub use crate::dialect::{all_ops, dialect_ops, find_op};
    pub use crate::vocabulary::op::*;
}

pub use error::InputError;
pub use lanes::{LaneMask, MAX_LANES};
pub use op::{all_ops, dialect_ops, find_op, Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
pub use params::{ParamDefault, ParamKind, ParamSpec, ParamValue, Params};
pub use portability::{compare, compare_lanes, parse_width, Comparison, LaneParam, ShuffleFamily};
pub use reference::{entries, example_for_arch, RefEntry, RefExample, RefParam};
pub use request::OpRequest;
pub use result::{Diagnostic, LaneResult, Level, Source};
pub use scenario::{Scenario, View};
pub use trace::{Step, Trace};
pub use value::{Value, ValueType, ValuesSpec};
