mod common;
use crosslane_core::OpRequest;
use crosslane_gpu::LoweringChoice;

#[test]
fn smoke() {
    let Some(g) = common::gpu() else { return };
    let req = OpRequest { dialect: "ascend".into(), op: "asc_shfl_xor".into(), active: "0xfffffff0".into(), params: [("lane_mask".to_string(), "3".to_string())].into(), ..Default::default() };
    let step = req.run().unwrap();
    let (cmp, run) = g.compare_step(&step, LoweringChoice::Auto).unwrap();
    println!("{}", run.wgsl);
    println!("{}", cmp.to_table());
    let s = g.sorter().unwrap();
    let keys: Vec<u32> = (0..3000u32).map(|i| i.wrapping_mul(2654435761) >> 5).collect();
    let vals: Vec<u32> = (0..3000).collect();
    let r = s.sort(&keys, &vals).unwrap();
    let mut want = keys.clone(); want.sort_unstable();
    assert_eq!(r.keys, want);
    println!("{:?} {}", r.timing, r.passes);
}
