//! The messages between the kernel view (the page) and the kernel worker: JSON text both ways, so
//! that the page and the worker — the same wasm module, loaded twice — agree by construction.
//!
//! The worker owns the [`crosslane_kernel::Executor`]; the page owns what it shows (the
//! position on the trace, the warp picked, the memory pages) and sends it with every request as
//! [`At`]. Every request is answered by one [`Frame`]: everything the view shows at that
//! position, already built (the tables as HTML, the cross-lane call as its [`Step`]), so a
//! frame costs the page a few `innerHTML`s however large the launch.

use std::collections::BTreeMap;

use crosslane_core::Step;
use crosslane_kernel::LaunchConfig;
use serde::{Deserialize, Serialize};

use crate::kit::Html;

/// What the page shows, sent with every request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct At {
    /// Position on the trace: 0 = before the first step, k = after step k.
    pub pos: usize,
    /// The warp the lane table shows (block, warp); `None` = the warp of the step shown.
    pub warp: Option<(usize, usize)>,
    /// The memory table's page per buffer index, where the user moved it.
    pub pages: BTreeMap<usize, usize>,
}

/// What the worker is asked to do before it answers with the frame at [`At::pos`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// One request at a time crosses, as JSON: the size of a load (its `LaunchConfig`, which has
// grown past clippy's threshold on wasm32 too) does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Parse `source` and launch it with `config` (a new executor at position 0).
    Load {
        /// The kernel text.
        source: String,
        /// The launch, its buffer fills and budgets included.
        config: LaunchConfig,
        /// Memory cells edited before the first step ([`Edits`]), applied over the fills as
        /// long as the buffer keeps its name and the cell exists.
        #[serde(default, with = "edit_list")]
        edits: Edits,
    },
    /// Nothing: the frame at the position given.
    Show,
    /// One step forward: along the recorded trace, or one more statement interpreted.
    Step,
    /// Interpret until the trace reaches `target` steps (`None`: to the end or a budget),
    /// reporting progress about every [`PROGRESS_MS`].
    Run {
        /// Trace length to stop at.
        target: Option<usize>,
        /// The position to show once the run has stopped (a link's step, before the length
        /// its run had: the slider spans the whole run, its cursor at the step); `None` = where
        /// the run stopped.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        show: Option<usize>,
        /// Stop at `target` without learning whether the kernel ends there (a link made while
        /// the run was paused opens paused, as it was made); `false` = a run stopped at its
        /// target says "finished" where the kernel ends there, as a run to the end would.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        paused: bool,
    },
    /// Memory cell `index` of buffer `buffer` edited before the first step: checked, then kept
    /// with the other [`Edits`] and the launch rebuilt.
    Edit {
        /// Buffer index in the launch's memory.
        buffer: usize,
        /// Cell.
        index: usize,
        /// The text typed.
        text: String,
    },
}

/// Memory cells edited before the first step: buffer name → cell index → the value as typed
/// (the scenario's `KernelInputs::edits`).
pub use crosslane_kernel::edits::Edits;

/// [`Edits`] inside [`Command`] as a list of `[buffer, cell, value]`: an internally tagged
/// enum reads its fields through serde's buffered form, which cannot turn a JSON object key
/// back into a number.
mod edit_list {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Edits;

    pub fn serialize<S: Serializer>(edits: &Edits, s: S) -> Result<S::Ok, S::Error> {
        let list: Vec<(&str, usize, &str)> = edits
            .iter()
            .flat_map(|(name, cells)| {
                cells
                    .iter()
                    .map(move |(i, text)| (name.as_str(), *i, text.as_str()))
            })
            .collect();
        list.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Edits, D::Error> {
        let list = Vec::<(String, usize, String)>::deserialize(d)?;
        let mut edits = Edits::new();
        for (name, i, text) in list {
            edits.entry(name).or_default().insert(i, text);
        }
        Ok(edits)
    }
}

/// [`Frame::drawn`] as JSON text: its [`Step`] holds a [`crosslane_core::LaneMask`] of up to 128
/// bits, which a `serde_json::Value` (where the page reads the rest of the frame) would turn into
/// a float past 64 bits; as text it is read by its own derived deserializer, exactly.
pub mod drawn_text {
    use serde::{
        de::Error as _, ser::Error as _, Deserialize, Deserializer, Serialize, Serializer,
    };

    use super::Drawn;

    /// `drawn` as a JSON string (`null` for `None`).
    ///
    /// # Errors
    /// What serde_json says of the step (never for the types it holds).
    pub fn serialize<S: Serializer>(drawn: &Option<Drawn>, s: S) -> Result<S::Ok, S::Error> {
        match drawn {
            Some(d) => serde_json::to_string(d)
                .map_err(S::Error::custom)?
                .serialize(s),
            None => s.serialize_none(),
        }
    }

    /// The call back from its JSON string.
    ///
    /// # Errors
    /// The text is not a [`Drawn`]'s JSON.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Drawn>, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(text) => read(&text).map(Some).map_err(D::Error::custom),
            None => Ok(None),
        }
    }

    /// A [`Drawn`] from its JSON text.
    ///
    /// # Errors
    /// The text is not a [`Drawn`]'s JSON.
    pub fn read(text: &str) -> Result<Drawn, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// Milliseconds between progress messages of a run; also the worker's heartbeat, which the page's
/// watchdog listens for.
pub const PROGRESS_MS: f64 = 100.0;

/// One request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// What to do.
    pub command: Command,
    /// What the page shows.
    pub at: At,
}

/// A wavy underline in the editor: line, column (1-based), level (`error`, `warning`, `info`),
/// message.
pub type Squiggle = (u32, u32, String, String);

/// The cross-lane call drawn on the canvas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Drawn {
    /// The call, as the single-op view draws it.
    pub step: Step,
    /// Its line.
    pub line: u32,
    /// Whether it belongs to the step shown (else it is the last call before it).
    pub current: bool,
    /// The caption (op, line, block, warp, active mask).
    pub caption: String,
}

/// Everything the kernel view shows at one position.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The position shown (the request's, clamped to the trace).
    pub pos: usize,
    /// Steps recorded.
    pub len: usize,
    /// `section#view-kernel[data-state]`: `idle`, `finished`, `stopped` or `error`.
    pub state: String,
    /// `#kernel-status`.
    pub status: String,
    /// `#kernel-error`: "line L:C: message" of a parse or launch error, or "x fill: message"
    /// for a launch input's.
    pub error: Option<String>,
    /// The launch input the error is in (`x fill`: the page marks that field), when it is
    /// an input's and not the source's.
    pub error_input: Option<String>,
    /// The kernels of the source, the default first (the entry menu).
    pub entries: Vec<String>,
    /// `#kernel-geometry`.
    pub geometry: String,
    /// `#kernel-position`.
    pub position: String,
    /// The line of the step shown.
    pub current_line: Option<u32>,
    /// Squiggles: the fault and the diagnostics so far (at most [`MAX_SQUIGGLES`]).
    pub squiggles: Vec<Squiggle>,
    /// `#kernel-diagnostics` items.
    pub diagnostics_html: Html,
    /// The warps of the launch for the warp menu (empty when there are too many to list).
    pub warps: Vec<(usize, usize)>,
    /// `table#kernel-vars`.
    pub vars_html: Html,
    /// `#kernel-mask`.
    pub mask_html: Html,
    /// `#kernel-warp`.
    pub warp_text: String,
    /// `table#kernel-memory`.
    pub memory_html: Html,
    /// A memory edit that did not parse: "`NAME[i]`: message".
    pub memory_error: Option<String>,
    /// The cross-lane call to draw: JSON text inside the frame's JSON ([`drawn_text`]), so that
    /// the page reads the frame field by field (`worker::wire`) and only this with serde.
    #[serde(with = "drawn_text")]
    pub drawn: Option<Drawn>,
    /// The memory edits the launch applied ([`Edits`]; the page keeps them for later loads
    /// and the link). Those that no longer apply are left out and said in [`Frame::edits_note`].
    pub edits: Edits,
    /// What the last load or edit dropped of the memory edits, and why (a buffer renamed or
    /// gone, cells past a buffer's new end, a value that does not parse); `None` = nothing.
    pub edits_note: Option<String>,
    /// The entry's parameters in declaration order: the kernel view's argument fields.
    pub params: Vec<ParamField>,
    /// `#kernel-dialect-from`: which dialect runs and why (the launch's `dialect_from`).
    pub dialect_line: String,
    /// Source lines the preprocessor's conditionals skipped, `(first, last)`: greyed.
    pub skipped: Vec<(u32, u32)>,
    /// For a WGSL compute shader, its resource bindings (the GPU panel's table, discovered in
    /// the worker: the page's own module has no WGSL front end); `None` for a C kernel.
    pub wgsl_bindings: Option<Vec<GpuBinding>>,
}

/// One `var<storage>` / `var<uniform>` of a WGSL shader, as the GPU panel's bindings table
/// shows it (from `crosslane_kernel::wgsl::Binding`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuBinding {
    /// The variable's name.
    pub name: String,
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// `storage` (`read` or `read_write`) or `uniform`.
    pub space: String,
    /// The element type as written (`u32`, `f16`, `atomic<u32>`).
    pub wgsl_elem: String,
    /// Fixed length in cells; `None` for a runtime-sized array.
    pub fixed_len: Option<usize>,
}

/// One parameter of the entry, as the page's argument fields need it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamField {
    /// The parameter's name (the key of `LaunchConfig::args` / `buffer_len`).
    pub name: String,
    /// A pointer, array or reference: a global buffer with a length and a fill (FILL grammar,
    /// `crosslane_core::fill`); else a scalar with a per-lane value.
    pub pointer: bool,
    /// A reference parameter: a one-cell buffer, so no length field.
    pub reference: bool,
    /// What host code says of it (a buffer's length, a scalar's value) and where:
    /// `64, from cudaMalloc at line 12`; shown beside the field as what "auto" means.
    pub host: Option<String>,
}

/// Most squiggles sent to the editor; the diagnostics list says how many more there are.
pub const MAX_SQUIGGLES: usize = 500;

/// The worker's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The frame.
    Frame(Box<Frame>),
    /// A request the worker could not read (a bug between page and worker, never user input).
    Error(String),
}
