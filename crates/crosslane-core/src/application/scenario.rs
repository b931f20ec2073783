//! The scenario model: everything needed to reproduce what a user sees — the page state, a CLI
//! `run` file, a permalink — as one serde value.
//!
//! Every scenario carries `"version"` from the first day (docs/embedding.md, "Permalinks and scenarios"), so that a link
//! made now still means the same thing later. Version 1 is the only one so far; a change that
//! alters what an existing field means takes a new version, and [`Scenario::from_json`] keeps
//! reading the old ones.
//!
//! The JSON form is externally tagged:
//! `{"version": 1, "view": {"op": {"dialect": "ascend", "op": "asc_shfl_xor", …}}, "gpu_panel": false}`.

use serde::{Deserialize, Serialize};

use crate::request::OpRequest;

/// The scenario format version this build writes, and the only one it reads.
pub const SCENARIO_VERSION: u32 = 1;

/// A reproducible view of crosslane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// Format version; [`SCENARIO_VERSION`] for everything this build writes. Required: a file
    /// without it is refused rather than guessed.
    pub version: u32,
    /// What is shown.
    pub view: View,
    /// Whether the GPU comparison panel is open.
    #[serde(default)]
    pub gpu_panel: bool,
    /// A kernel view's launch inputs beyond the view's own fields: scalar arguments, buffer
    /// fills and lengths, the dialect. Left out of the JSON when empty, so a link made before
    /// they existed encodes and decodes exactly as it did.
    #[serde(default, skip_serializing_if = "KernelInputs::is_empty")]
    pub kernel_inputs: KernelInputs,
    /// How values are shown (hex). Left out of the JSON when every option is off, so a link
    /// made before display options existed encodes and decodes exactly as it did.
    #[serde(default, skip_serializing_if = "Display::is_plain")]
    pub display: Display,
    /// The page tab that showed the scenario (`op`, `maca`, …), for a view kind more than one
    /// tab can show (a MetaX op in the operation view or in the MACA view); `None` = the first
    /// tab that takes it, as links made before tabs were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
}

/// What a kernel run takes besides its source and shape: every value as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelInputs {
    /// Scalar parameter values and buffer fills, by parameter name (`n` → `1024`, `in` →
    /// `i*2+1`); the syntax of `crosslane run --arg` / `--buffer`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub args: std::collections::BTreeMap<String, String>,
    /// Buffer lengths in cells, by parameter name.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub buffer_len: std::collections::BTreeMap<String, usize>,
    /// The dialect chosen (`cuda`, `hip`, …); `None` = from the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<String>,
    /// The entry, a function or a template-id (`reduce4<int, 128>`); `None` = the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// Memory cells edited before the first step: buffer name → cell index → the value as
    /// typed. Applied over the buffer's fill at every launch for as long as the buffer has that
    /// name and the cell exists (a resize keeps the cells that still fit).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub edits: std::collections::BTreeMap<String, std::collections::BTreeMap<usize, String>>,
    /// The budget fields as typed, by `Limits` field name (`max_work` → `5000`); a field left
    /// empty (the page's default) is absent.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub budgets: std::collections::BTreeMap<String, String>,
    /// The warp the lane table shows, `[block, warp]`; `None` = the warp of the step shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warp: Option<[usize; 2]>,
    /// User macros as typed, `-DNAME[=VALUE] -UNAME` (a bare `NAME[=VALUE]` defines), read by
    /// `crosslane_kernel::UserMacro::parse_list`; empty in links made before it existed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub defines: String,
    /// WGSL `override` values by name or `@id` (`WG` → `64`), as typed: the pipeline's
    /// constants (WGSL spec, Override Declarations; `crosslane run --override NAME=VALUE`).
    /// Empty in links made before it existed (the overrides' initializers apply).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub overrides: std::collections::BTreeMap<String, String>,
    /// nvcc's `--use_fast_math` for the launch (`LaunchConfig::use_fast_math`); written only
    /// when on, so a link made before it existed encodes as it did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub use_fast_math: bool,
    /// Floating-point contraction for the launch (`LaunchConfig::fmad`): `false` is nvcc's
    /// `--fmad=false`; absent (the default, and in links made before it existed) is the
    /// dialect's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fmad: Option<bool>,
    /// The steps the page's run had when the link was made (the step slider's length), written
    /// only where more than the view's `step` (the user stepped back): the page runs that far
    /// and shows `step`, so the later steps are there as they were. Absent (and in links made
    /// before it existed): the run goes to `step`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_steps: Option<u32>,
    /// Whether the page's run was paused when the link was made (steps run, the kernel's end
    /// not reached: "paused after N steps" after clicking "step", or a cancelled run), written
    /// only when true: the page runs to the link's steps and stays paused there, as the user
    /// saw it. Absent (a finished, stopped or failed run, and links made before it existed):
    /// a run stopped at the link's steps learns whether the kernel ends there, and a link made
    /// at the end of a finished run opens "finished".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
}

impl KernelInputs {
    /// Whether nothing is set (nothing to store).
    pub fn is_empty(&self) -> bool {
        *self == KernelInputs::default()
    }
}

/// Display options: how the page writes values, in every view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Display {
    /// "values in hex": lane values as their raw bits in hexadecimal.
    #[serde(default)]
    pub hex: bool,
}

impl Display {
    /// Whether every option is at its default (nothing to store).
    pub fn is_plain(&self) -> bool {
        *self == Display::default()
    }
}

/// What a scenario shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// One operation, with every field exactly as the user typed it (so an invalid entry survives
    /// a reload and shows the same error).
    Op(OpRequest),
    /// A kernel snippet stepped through one line at a time.
    Kernel {
        /// The snippet's text (vendor C/C++ or WGSL), as typed.
        source: String,
        /// Thread blocks (workgroups) launched.
        blocks: u32,
        /// Threads per block.
        threads_per_block: u32,
        /// Lanes per warp / wavefront / subgroup.
        lanes: u32,
        /// The position of the page's step slider: 0 = before the first statement, s = after step s.
        step: u32,
    },
    /// The odd-even merge sort.
    Sort {
        /// Number of keys.
        len: u32,
        /// Seed of the generated keys (ignored when `values` is given).
        seed: u64,
        /// The keys as a comma list, as typed; `None` = generated from `seed`.
        values: Option<String>,
        /// The dialect whose shuffles run the network; `None` = the page's default.
        dialect: Option<String>,
        /// The step position shown: 0 = the input, s = after the network's stage s (the in-warp
        /// sort shows the same stage's shuffles); `None` = the input.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stage: Option<u32>,
        /// The largest key count drawn as wires and comparators (the page's "draw wires up to
        /// n ="; above it the page plots the keys); `None` = the page's default.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        threshold: Option<u32>,
    },
    /// The portability view: one shuffle-family request under CUDA, HIP wave32/64, Ascend C and
    /// WGSL ([`crate::portability::compare_lanes`]), every field as typed.
    Compare {
        /// The family: `idx`, `up`, `down` or `xor`.
        family: String,
        /// The family's lane parameter (source lane, delta or lane mask), as typed.
        param: String,
        /// The width, as typed (empty = the warp).
        width: String,
        /// The input values, as typed.
        values: String,
        /// The active mask, as typed.
        active: String,
    },
    /// The reference view: every operation's article, filtered by a search, with the AMD
    /// examples run for one target. A variant of its own, added after the others, so that every
    /// link made before it decodes as it did.
    Reference {
        /// The search box's text, as typed (the articles holding every word are shown); empty =
        /// every article.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        search: String,
        /// The AMD target the amdgcn and HIP examples run for (`gfx90a`, …; the names of
        /// [`crate::dialect::amdgcn::arch::TARGETS`]); `None` = the default target.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// The place jumped to: the element id of a dialect group (`ref-cuda`) or an article
        /// (`ref-cuda-__shfl_xor_sync`), as the view's contents list and "open in playground"
        /// set it; `None` = the top of the list.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        article: Option<String>,
    },
}

/// Why a text is not a scenario this build can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// Not JSON of the scenario's shape; the message is serde's one line (what and where).
    #[error("not a crosslane scenario: {0}")]
    NotAScenario(String),
    /// A version this build does not read.
    #[error(
        "scenario version {found} is not supported; this build reads version {SCENARIO_VERSION}"
    )]
    UnsupportedVersion {
        /// The version the scenario carries.
        found: u32,
    },
}

impl Scenario {
    /// A scenario of the current version with the GPU panel closed.
    pub fn new(view: View) -> Self {
        Scenario {
            version: SCENARIO_VERSION,
            view,
            gpu_panel: false,
            kernel_inputs: KernelInputs::default(),
            display: Display::default(),
            tab: None,
        }
    }

    /// Reads a scenario from JSON bytes and checks its version.
    ///
    /// # Errors
    /// [`ScenarioError::NotAScenario`] when the bytes are not JSON of this shape (a missing
    /// `version` included); [`ScenarioError::UnsupportedVersion`] for any version but
    /// [`SCENARIO_VERSION`].
    pub fn from_json(bytes: &[u8]) -> Result<Self, ScenarioError> {
        // Read the version first, so a future version with a different shape reports its
        // version rather than a confusing field error.
        #[derive(Deserialize)]
        struct Versioned {
            version: u32,
        }
        let v: Versioned = serde_json::from_slice(bytes)
            .map_err(|e| ScenarioError::NotAScenario(e.to_string()))?;
        if v.version != SCENARIO_VERSION {
            return Err(ScenarioError::UnsupportedVersion { found: v.version });
        }
        let mut scenario: Scenario = serde_json::from_slice(bytes)
            .map_err(|e| ScenarioError::NotAScenario(e.to_string()))?;
        scenario.pin_amd_target();
        Ok(scenario)
    }

    /// Scenarios written before AMD targets existed carry no `arch`. They were computed with the
    /// GFX8/9 DPP controls available, so one that uses a control only GFX9 has (`row_bcast`,
    /// the wave shifts and rotates) gets gfx900, where it means what it meant when the link was
    /// made, instead of the default target, which would refuse it. Every other scenario is left
    /// as typed (the page always writes the picker's `arch`).
    fn pin_amd_target(&mut self) {
        let View::Op(req) = &mut self.view else {
            return;
        };
        if !req.dialect.trim().eq_ignore_ascii_case("amdgcn") || req.params.contains_key("arch") {
            return;
        }
        if let Some(target) = req
            .params
            .get("dpp_ctrl")
            .and_then(|ctrl| crate::dialect::amdgcn::arch::legacy_target(ctrl))
        {
            req.params.insert("arch".into(), target.into());
        }
    }

    /// The scenario as compact JSON.
    pub fn to_json(&self) -> String {
        // Serializing this plain data (strings, integers, a string-keyed map) cannot fail; the
        // fallback only keeps library code free of panics.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_inputs_are_written_only_when_set_and_read_back() {
        let view = View::Kernel {
            source: "__global__ void k(int* a, int n) {}".into(),
            blocks: 1,
            threads_per_block: 32,
            lanes: 0,
            step: 0,
        };
        let plain = Scenario::new(view.clone());
        assert!(!plain.to_json().contains("kernel_inputs"));
        let mut s = Scenario::new(view);
        s.kernel_inputs.args.insert("n".into(), "1024".into());
        s.kernel_inputs.buffer_len.insert("a".into(), 64);
        s.kernel_inputs.dialect = Some("hip".into());
        let json = s.to_json();
        assert!(
            json.contains(
                r#""kernel_inputs":{"args":{"n":"1024"},"buffer_len":{"a":64},"dialect":"hip"}"#
            ),
            "{json}"
        );
        assert_eq!(Scenario::from_json(json.as_bytes()), Ok(s));
    }

    #[test]
    fn memory_edits_budgets_and_warp_round_trip_and_older_links_decode_without_them() {
        let view = View::Kernel {
            source: "__global__ void k(int* dst) {}".into(),
            blocks: 1,
            threads_per_block: 32,
            lanes: 0,
            step: 0,
        };
        // A link made before these fields: no `edits`, `budgets` or `warp`, decoded as empty.
        let old = r#"{"version":1,"view":{"kernel":{"source":"s","blocks":1,"threads_per_block":32,"lanes":0,"step":0}},"gpu_panel":false,"kernel_inputs":{"args":{"dst":"index"}}}"#;
        let decoded = Scenario::from_json(old.as_bytes()).unwrap();
        assert!(decoded.kernel_inputs.edits.is_empty());
        assert!(decoded.kernel_inputs.budgets.is_empty());
        assert_eq!(decoded.kernel_inputs.warp, None);
        assert_eq!(decoded.to_json(), old);
        let mut s = Scenario::new(view);
        s.kernel_inputs
            .edits
            .entry("dst".into())
            .or_default()
            .insert(2, "999".into());
        s.kernel_inputs
            .budgets
            .insert("max_work".into(), "5000".into());
        s.kernel_inputs.warp = Some([1, 0]);
        let json = s.to_json();
        assert!(
            json.contains(
                r#""kernel_inputs":{"edits":{"dst":{"2":"999"}},"budgets":{"max_work":"5000"},"warp":[1,0]}"#
            ),
            "{json}"
        );
        assert_eq!(Scenario::from_json(json.as_bytes()), Ok(s));
    }

    #[test]
    fn json_shape_is_externally_tagged_and_versioned() {
        let s = Scenario::new(View::Sort {
            len: 8,
            seed: 7,
            values: None,
            dialect: Some("cuda".into()),
            stage: None,
            threshold: None,
        });
        assert_eq!(
            s.to_json(),
            r#"{"version":1,"view":{"sort":{"len":8,"seed":7,"values":null,"dialect":"cuda"}},"gpu_panel":false}"#
        );
        assert_eq!(Scenario::from_json(s.to_json().as_bytes()), Ok(s));
    }

    #[test]
    fn new_fields_are_written_only_when_set_and_read_back() {
        let mut s = Scenario::new(View::Compare {
            family: "down".into(),
            param: "33".into(),
            width: "16".into(),
            values: "lane".into(),
            active: "0xffffffff".into(),
        });
        s.display.hex = true;
        assert_eq!(
            s.to_json(),
            r#"{"version":1,"view":{"compare":{"family":"down","param":"33","width":"16","values":"lane","active":"0xffffffff"}},"gpu_panel":false,"display":{"hex":true}}"#
        );
        assert_eq!(Scenario::from_json(s.to_json().as_bytes()), Ok(s));
        let mut maca = Scenario::new(View::Op(OpRequest {
            dialect: "maca".into(),
            op: "__builtin_mxc_ldg_b32_predicator".into(),
            ..OpRequest::default()
        }));
        maca.tab = Some("maca".into());
        let json = maca.to_json();
        assert!(
            json.ends_with(r#""gpu_panel":false,"tab":"maca"}"#),
            "{json}"
        );
        assert_eq!(Scenario::from_json(json.as_bytes()), Ok(maca));
        let sort = Scenario::new(View::Sort {
            len: 16,
            seed: 1,
            values: None,
            dialect: None,
            stage: Some(3),
            threshold: Some(8),
        });
        let json = sort.to_json();
        assert!(
            json.contains(r#""dialect":null,"stage":3,"threshold":8}"#),
            "{json}"
        );
        assert_eq!(Scenario::from_json(json.as_bytes()), Ok(sort));
    }

    #[test]
    fn reference_view_writes_only_what_is_set_and_reads_back() {
        let plain = Scenario::new(View::Reference {
            search: String::new(),
            target: None,
            article: None,
        });
        assert_eq!(
            plain.to_json(),
            r#"{"version":1,"view":{"reference":{}},"gpu_panel":false}"#
        );
        assert_eq!(Scenario::from_json(plain.to_json().as_bytes()), Ok(plain));
        let mut s = Scenario::new(View::Reference {
            search: "dpp row_shr".into(),
            target: Some("gfx90a".into()),
            article: Some("ref-amdgcn-v_mov_b32_dpp".into()),
        });
        s.tab = Some("reference".into());
        let json = s.to_json();
        assert_eq!(
            json,
            r#"{"version":1,"view":{"reference":{"search":"dpp row_shr","target":"gfx90a","article":"ref-amdgcn-v_mov_b32_dpp"}},"gpu_panel":false,"tab":"reference"}"#
        );
        assert_eq!(Scenario::from_json(json.as_bytes()), Ok(s));
    }

    #[test]
    fn op_view_keeps_text_as_typed_and_defaults_missing_fields() {
        let s = Scenario::from_json(
            br#"{"version":1,"view":{"op":{"dialect":"ascend","op":"asc_shfl_xor","params":{"width":"0x10"}}}}"#,
        )
        .unwrap();
        let View::Op(req) = &s.view else {
            panic!("op view expected, got {:?}", s.view)
        };
        assert_eq!(req.params.get("width").map(String::as_str), Some("0x10"));
        assert_eq!(req.lanes, "");
        assert!(!s.gpu_panel);
    }

    #[test]
    fn version_is_required_and_checked() {
        let e = Scenario::from_json(
            br#"{"view":{"sort":{"len":8,"seed":1,"values":null,"dialect":null}}}"#,
        )
        .unwrap_err();
        assert!(
            matches!(&e, ScenarioError::NotAScenario(m) if m.contains("version")),
            "{e}"
        );
        let e = Scenario::from_json(br#"{"version":2,"view":{"hologram":{}}}"#).unwrap_err();
        assert_eq!(e, ScenarioError::UnsupportedVersion { found: 2 });
        assert_eq!(
            e.to_string(),
            "scenario version 2 is not supported; this build reads version 1"
        );
    }
}
