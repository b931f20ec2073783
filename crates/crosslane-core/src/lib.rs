//! crosslane-core: the semantics of GPU cross-lane operations.
//!
//! What it is for: turning an operation request (dialect, op, lane count, active mask, operand
//! row, vendor parameters) into a [`Step`] of per-lane results with provenance, undefined lanes
//! carrying why, and diagnostics that cite the vendor's rule. Every rule lives in one dialect file
//! (`dialect/*.rs`) next to the document section it comes from; shared machinery (lane masks,
//! values, segments, the gather engine) exists once.
//!
//! What it is not for: drawing, DOM, GPUs or files. Those crates depend on this one, never the
//! other way round.

pub mod args;
pub mod arith;
pub mod codegen;
pub mod dialect;
pub mod dpp;
pub mod error;
pub mod fill;
pub mod gather;
pub mod kernel;
pub mod lane_expr;
pub mod lanes;
pub mod network;
pub mod op;
pub mod params;
pub mod permalink;
pub mod plan;
pub mod portability;
pub mod reference;
pub mod request;
pub mod result;
pub mod scenario;
pub mod segment;
pub mod trace;
pub mod value;

pub use error::InputError;
pub use lanes::{LaneMask, MAX_LANES};
pub use op::{all_ops, dialect_ops, find_op, Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
pub use params::{ParamDefault, ParamKind, ParamSpec, ParamValue, Params};
pub use portability::{compare, compare_lanes, Comparison, LaneParam, ShuffleFamily};
pub use reference::{entries, example_for_arch, RefEntry, RefExample, RefParam};
pub use request::OpRequest;
pub use result::{Diagnostic, LaneResult, Level, Source};
pub use scenario::{Scenario, View};
pub use trace::{Step, Trace};
pub use value::{Value, ValueType, ValuesSpec};
