//! Per-lane results with provenance, and diagnostics.

use serde::{Deserialize, Serialize};

use crate::value::Value;

/// Where a result lane's value came from (the canvas draws it; the GPU diff uses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Read from another lane (or this lane by the normal rule), given in `from`.
    Lane,
    /// A rule's fallback returned the caller's own value (e.g. Ascend `delta >= width`).
    Own,
    /// The rule wrote zero (ds_swizzle inactive source, DPP `bound_ctrl`, MACA `bc = 0`).
    Zero,
    /// The old / fill value was kept (DPP `old`, MACA `old_val`, `ret_val`).
    Old,
    /// Computed from several lanes (reductions, scans, ballots, votes).
    Computed,
    /// The vendor calls the result undefined; `why` says which rule.
    Undefined,
    /// The destination lane is not active: it computes nothing.
    Inactive,
}

impl Source {
    /// The contract name (`"lane"`, `"own"`, …) as in docs/cli.md's JSON.
    pub fn name(self) -> &'static str {
        match self {
            Source::Lane => "lane",
            Source::Own => "own",
            Source::Zero => "zero",
            Source::Old => "old",
            Source::Computed => "computed",
            Source::Undefined => "undefined",
            Source::Inactive => "inactive",
        }
    }
}

/// One lane of an operation's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneResult {
    /// The value; `None` when undefined or inactive.
    pub value: Option<Value>,
    /// Provenance.
    pub source: Source,
    /// The lane read (for `Lane`, `Own`), or the lane the rule selected when the result is
    /// undefined (a hint, e.g. the inactive source).
    pub from: Option<usize>,
    /// Why the value is undefined / inactive / a fallback, citing the rule.
    pub why: Option<String>,
}

impl LaneResult {
    /// A value read from lane `from`.
    pub fn lane(value: Value, from: usize) -> Self {
        LaneResult {
            value: Some(value),
            source: Source::Lane,
            from: Some(from),
            why: None,
        }
    }

    /// The caller's own value, returned by a fallback rule `why`.
    pub fn own(value: Value, lane: usize, why: impl Into<String>) -> Self {
        LaneResult {
            value: Some(value),
            source: Source::Own,
            from: Some(lane),
            why: Some(why.into()),
        }
    }

    /// Zero written by rule `why`.
    pub fn zero(value: Value, why: impl Into<String>) -> Self {
        LaneResult {
            value: Some(value),
            source: Source::Zero,
            from: None,
            why: Some(why.into()),
        }
    }

    /// The old / fill value kept by rule `why`.
    pub fn old(value: Value, why: impl Into<String>) -> Self {
        LaneResult {
            value: Some(value),
            source: Source::Old,
            from: None,
            why: Some(why.into()),
        }
    }

    /// A value computed from several lanes (reductions, ballots).
    pub fn computed(value: Value) -> Self {
        LaneResult {
            value: Some(value),
            source: Source::Computed,
            from: None,
            why: None,
        }
    }

    /// An undefined result; `hint` is the lane the rule would have read, if any.
    pub fn undefined(why: impl Into<String>, hint: Option<usize>) -> Self {
        LaneResult {
            value: None,
            source: Source::Undefined,
            from: hint,
            why: Some(why.into()),
        }
    }

    /// An inactive destination lane.
    pub fn inactive() -> Self {
        LaneResult {
            value: None,
            source: Source::Inactive,
            from: None,
            why: Some("lane is not in the active mask: it computes nothing".into()),
        }
    }
}

/// Severity of a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The op ran; some lanes may be undefined by the vendor's rules.
    Warning,
    /// The op cannot run as written (shown, but nothing was computed from it).
    Error,
    /// A note on a documented inference or portability detail.
    Info,
}

/// A warning or error that cites the rule it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Severity.
    pub level: Level,
    /// One sentence a user can act on, e.g. "width 31 is not a power of two: asc_shfl_* results
    /// are undefined".
    pub message: String,
    /// The document and section of the rule, e.g. "Ascend asc_shfl_down, 约束说明".
    pub rule: String,
}

impl Diagnostic {
    /// A warning citing `rule`.
    pub fn warning(message: impl Into<String>, rule: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Warning,
            message: message.into(),
            rule: rule.into(),
        }
    }

    /// An informational note citing `rule`.
    pub fn info(message: impl Into<String>, rule: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Info,
            message: message.into(),
            rule: rule.into(),
        }
    }

    /// An error citing `rule`.
    pub fn error(message: impl Into<String>, rule: impl Into<String>) -> Self {
        Diagnostic {
            level: Level::Error,
            message: message.into(),
            rule: rule.into(),
        }
    }
}
