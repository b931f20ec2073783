//! A WGSL scan with one undefined operand: WGSL spec, Subgroup Built-in Functions —
//! `subgroupInclusiveAdd`/`Mul` of invocation i combine the active invocations with id ≤ i,
//! `subgroupExclusiveAdd`/`Mul` those with id < i. So only the results at or above
//! (inclusive) / above (exclusive) the undefined operand are undefined; a reduction
//! (`subgroupAdd`) combines every invocation and is undefined everywhere.
//!
//! Operands: v = l + 1, except invocation 5 which reads `w[5]` of a 4-cell workgroup array
//! (out of bounds: undefined, WGSL spec, Out-of-Bounds Access). By hand:
//! exclusive add 0 1 3 6 10 15 ? ?; inclusive add 1 3 6 10 15 ? ? ?;
//! exclusive mul 1 1 2 6 24 120 ? ?; inclusive mul 1 2 6 24 120 ? ? ?; subgroupAdd ? ×8.

use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, LaunchConfig};

const SCANS: &str = "\
enable subgroups;
@group(0) @binding(0) var<storage, read_write> ea: array<u32>;
@group(0) @binding(1) var<storage, read_write> ia: array<u32>;
@group(0) @binding(2) var<storage, read_write> em: array<u32>;
@group(0) @binding(3) var<storage, read_write> im: array<u32>;
@group(0) @binding(4) var<storage, read_write> all: array<u32>;
var<workgroup> w: array<u32, 4>;
@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) l: u32) {
  if (l < 4u) { w[l] = 9u; }
  workgroupBarrier();
  var v = l + 1u;
  if (l == 5u) { v = w[l]; }
  ea[l] = subgroupExclusiveAdd(v);
  ia[l] = subgroupInclusiveAdd(v);
  em[l] = subgroupExclusiveMul(v);
  im[l] = subgroupInclusiveMul(v);
  all[l] = subgroupAdd(v);
}
";

#[test]
fn scans_leave_lanes_below_an_undefined_operand_defined() {
    let mut config = LaunchConfig {
        lanes: Some(32),
        ..LaunchConfig::default()
    };
    for b in ["ea", "ia", "em", "im", "all"] {
        config.buffer_len.insert(b.into(), 8);
        config.args.insert(b.into(), "zero".into());
    }
    let t = run_wgsl(SCANS, config).expect("runs");
    let cells = |name: &str| -> Vec<Option<i128>> {
        t.buffer(name)
            .unwrap_or_else(|| panic!("no buffer {name}"))
            .iter()
            .map(|c| c.as_ref().and_then(KVal::as_int))
            .collect()
    };
    let n = None;
    assert_eq!(
        cells("ea"),
        vec![Some(0), Some(1), Some(3), Some(6), Some(10), Some(15), n, n]
    );
    assert_eq!(
        cells("ia"),
        vec![Some(1), Some(3), Some(6), Some(10), Some(15), n, n, n]
    );
    assert_eq!(
        cells("em"),
        vec![
            Some(1),
            Some(1),
            Some(2),
            Some(6),
            Some(24),
            Some(120),
            n,
            n
        ]
    );
    assert_eq!(
        cells("im"),
        vec![Some(1), Some(2), Some(6), Some(24), Some(120), n, n, n]
    );
    assert_eq!(cells("all"), vec![n; 8]);
    // The undefined lanes name the operand they combine.
    assert!(t
        .all_diagnostics()
        .any(|d| d.message.contains("it combines lane 5's operand")));
}
