//! The trace: the ordered record of steps a scenario produced. Renderers, exports and the GPU
//! comparison read only this.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::lanes::LaneMask;
use crate::op::Dialect;
use crate::params::Params;
use crate::result::{Diagnostic, LaneResult, Level};
use crate::value::{Value, ValueType};

/// One cross-lane operation as executed: geometry, inputs, per-lane results and diagnostics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Dialect of the op.
    pub dialect: Dialect,
    /// The op's vendor name (canonical, even when called by an alias).
    pub op: String,
    /// Lanes in the warp.
    pub lanes: usize,
    /// Active mask at the call.
    pub active: LaneMask,
    /// Operand type.
    pub ty: ValueType,
    /// The operand row (one per lane; `None` where a lane's input is itself undefined).
    pub inputs: Vec<Option<Value>>,
    /// Parameters as parsed.
    pub params: Params,
    /// Results: one per lane, or one for a scalar op.
    pub results: Vec<LaneResult>,
    /// Diagnostics of this step.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the op is scalar (one result, reported for lane 0).
    pub scalar: bool,
    /// Where the step came from, e.g. a kernel's `line 7`; `None` for a single op.
    pub label: Option<String>,
}

impl Step {
    /// Whether any diagnostic is an error or warning.
    pub fn has_warnings(&self) -> bool {
        self.diagnostics.iter().any(|d| d.level != Level::Info)
    }

    /// The step in the CLI's `--json` contract (docs/cli.md, "Command-line contract").
    pub fn contract_json(&self) -> serde_json::Value {
        let results: Vec<serde_json::Value> = self
            .results
            .iter()
            .enumerate()
            .map(|(lane, r)| {
                json!({
                    "lane": lane,
                    "value": r.value.map_or(serde_json::Value::Null, Value::to_json),
                    "bits": r.value.map(Value::bits_hex),
                    "source": r.source.name(),
                    "from": r.from,
                    "why": r.why,
                })
            })
            .collect();
        let diagnostics: Vec<serde_json::Value> = self
            .diagnostics
            .iter()
            .map(|d| {
                json!({
                    "level": match d.level { Level::Warning => "warning", Level::Error => "error", Level::Info => "info" },
                    "message": d.message,
                    "rule": d.rule,
                })
            })
            .collect();
        json!({
            "dialect": self.dialect.name(),
            "op": self.op,
            "lanes": self.lanes,
            "active": self.active.to_hex(self.lanes),
            "type": self.ty.name(),
            "results": results,
            "diagnostics": diagnostics,
        })
    }
}

/// The ordered steps of a scenario.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Steps in execution order.
    pub steps: Vec<Step>,
}
