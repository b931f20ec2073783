//! WGSL compute shaders through naga on the kernel engine: outputs derived by hand at a stated
//! subgroup size, and the rules the WGSL spec states (each test cites it).

use crosslane_core::kernel::wgsl::run_wgsl;
use crosslane_core::kernel::{KVal, KernelTrace, LaunchConfig};

fn shader(name: &str) -> String {
    let p = format!("{}/examples_wgsl/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn launch(lanes: usize, dispatch: [usize; 3]) -> LaunchConfig {
    LaunchConfig {
        lanes: Some(lanes),
        grid_dim: Some(dispatch),
        ..LaunchConfig::default()
    }
}

fn ints(t: &KernelTrace, name: &str) -> Vec<Option<i128>> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect()
}

#[test]
fn reduce_and_scans_at_subgroup_size_8() {
    let t = run_wgsl(&shader("reduce_scan.wgsl"), launch(8, [1, 1, 1])).unwrap();
    let d: Vec<String> = t.all_diagnostics().map(|d| d.message.clone()).collect();
    eprintln!("{d:#?}");
    // input[i] = i; subgroups are invocations 0..8 and 8..16 (linear mapping).
    let mut sums = Vec::new();
    let mut incl = Vec::new();
    let mut excl = Vec::new();
    for i in 0..16i128 {
        let base = i / 8 * 8;
        sums.push(Some((base..base + 8).sum::<i128>()));
        incl.push(Some((base..=i).sum::<i128>()));
        excl.push(Some((base..i).sum::<i128>()));
    }
    assert_eq!(sums[0], Some(28));
    assert_eq!(sums[8], Some(92));
    assert_eq!(ints(&t, "sums"), sums);
    assert_eq!(ints(&t, "incl"), incl);
    assert_eq!(ints(&t, "excl"), excl);
}
