//! `var<immediate>` (WGSL spec, Address Spaces: immediate data, read-only, set by the API
//! before the dispatch; Tint accepts the declaration, and so does naga 30): held as a
//! read-only buffer without a binding, filled as any buffer. With `p = {n: 3, k: 4}`, each of
//! 32 invocations adds `p.n` in a subgroup of 32 and stores `subgroupAdd(p.n) + p.k * l`:
//! 96 + 4·l by hand.

use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, LaunchConfig};

const IMMEDIATE: &str = "\
enable subgroups;
struct P { n: u32, k: u32 }
var<immediate> p: P;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) l: u32) { o[l] = subgroupAdd(p.n) + p.k * l; }
";

#[test]
fn immediate_data_is_filled_like_a_buffer() {
    let mut config = LaunchConfig {
        lanes: Some(32),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("o".into(), 32);
    config.args.insert("o".into(), "zero".into());
    config.args.insert("p".into(), "3,4".into());
    let t = run_wgsl(IMMEDIATE, config).expect("runs");
    let o: Vec<Option<i128>> = t
        .buffer("o")
        .expect("o")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    let want: Vec<Option<i128>> = (0..32).map(|l| Some(96 + 4 * l)).collect();
    assert_eq!(o, want);
}
