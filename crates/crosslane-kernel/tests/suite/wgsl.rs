//! WGSL compute shaders through naga on the kernel engine: outputs derived by hand at a stated
//! subgroup size, and the rules the WGSL spec states (each test cites it).

use crate::support::shader;
use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

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

fn floats(t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

fn run(src: &str, lanes: usize) -> KernelTrace {
    run_wgsl(src, launch(lanes, [1, 1, 1])).unwrap_or_else(|e| panic!("{e}"))
}

fn messages(t: &KernelTrace) -> Vec<String> {
    t.all_diagnostics()
        .map(|d| {
            format!(
                "{:?} {}:{} {} [{}]",
                d.level, d.line, d.col, d.message, d.rule
            )
        })
        .collect()
}

#[test]
fn ballot_broadcast_shuffles_and_elect_at_subgroup_size_8() {
    let t = run(&shader("ballot_broadcast_shuffle.wgsl"), 8);
    // lane % 3 == 0 holds in lanes 0, 3, 6 of each 8-wide subgroup.
    assert_eq!(ints(&t, "counts"), vec![Some(3); 16]);
    // subgroupBroadcast(v, 2u): invocation 2 of subgroup 0 (v = 20), 10 of subgroup 1 (100).
    let bcast: Vec<_> = (0..16)
        .map(|i| Some(if i < 8 { 20 } else { 100 }))
        .collect();
    assert_eq!(ints(&t, "bcast"), bcast);
    let rotated: Vec<_> = (0..16i128)
        .map(|i| Some((i / 8 * 8 + (i % 8 + 1) % 8) * 10))
        .collect();
    assert_eq!(ints(&t, "rotated"), rotated);
    let swapped: Vec<_> = (0..16i128).map(|i| Some((i ^ 1) * 10)).collect();
    assert_eq!(ints(&t, "swapped"), swapped);
    // subgroupShuffleDown by 1: the last invocation of each subgroup reads past its end, an
    // indeterminate value (WGSL spec, subgroupShuffleDown).
    let down: Vec<_> = (0..16i128)
        .map(|i| (i % 8 != 7).then_some((i + 1) * 10))
        .collect();
    assert_eq!(ints(&t, "down"), down);
    let elected: Vec<_> = (0..16).map(|i| Some(i128::from(i % 8 == 0))).collect();
    assert_eq!(ints(&t, "elected"), elected);
}

#[test]
fn mul_min_max_and_multiplicative_scans_at_subgroup_size_8() {
    let t = run(&shader("min_max_mul.wgsl"), 8);
    let v = |i: i128| i % 5 + 1;
    let (mut prod, mut lo, mut hi, mut incl, mut excl) = (vec![], vec![], vec![], vec![], vec![]);
    for i in 0..16i128 {
        let base = i / 8 * 8;
        prod.push(Some((base..base + 8).map(v).product::<i128>()));
        lo.push((base..base + 8).map(v).min());
        hi.push((base..base + 8).map(v).max());
        incl.push(Some((base..=i).map(v).product::<i128>()));
        excl.push(Some((base..i).map(v).product::<i128>()));
    }
    assert_eq!(prod[0], Some(720)); // 1*2*3*4*5*1*2*3
    assert_eq!(prod[8], Some(2400)); // 4*5*1*2*3*4*5*1
    assert_eq!(ints(&t, "prod"), prod);
    assert_eq!(ints(&t, "lo"), lo);
    assert_eq!(ints(&t, "hi"), hi);
    assert_eq!(ints(&t, "incl_prod"), incl);
    assert_eq!(ints(&t, "excl_prod"), excl);
}

#[test]
fn quad_swaps_and_broadcast() {
    for lanes in [4, 8] {
        let t = run(&shader("quad.wgsl"), lanes);
        let f = |g: fn(i128) -> i128| (0..8i128).map(|i| Some(100 + g(i))).collect::<Vec<_>>();
        assert_eq!(ints(&t, "sx"), f(|i| i ^ 1));
        assert_eq!(ints(&t, "sy"), f(|i| i ^ 2));
        assert_eq!(ints(&t, "sd"), f(|i| i ^ 3));
        assert_eq!(ints(&t, "qb"), f(|i| i / 4 * 4 + 3));
    }
}

#[test]
fn workgroup_memory_transpose_with_a_barrier() {
    let t = run(&shader("transpose.wgsl"), 8);
    let want: Vec<_> = (0..16i128).map(|k| Some(k % 4 * 4 + k / 4)).collect();
    assert_eq!(ints(&t, "output"), want, "{:#?}", messages(&t));
}

#[test]
fn atomics_on_storage_and_zeroed_workgroup_memory() {
    let t = run_wgsl(&shader("atomics.wgsl"), launch(8, [2, 1, 1])).unwrap();
    // Two workgroups of 16 each add 1: the counter (filled with its index, 0) ends at 32.
    assert_eq!(ints(&t, "counter"), vec![Some(32)], "{:#?}", messages(&t));
    // Each workgroup's sum starts at zero (WGSL: workgroup memory is zero-initialized) and
    // collects 0 + 1 + … + 15 = 120; totals' other cells keep their fill (cell k holds k).
    let mut want: Vec<_> = (0..32i128).map(Some).collect();
    want[0] = Some(120);
    want[1] = Some(120);
    assert_eq!(ints(&t, "totals"), want);
}

#[test]
fn divergence_inside_a_subgroup_with_the_uniformity_rule_off() {
    let t = run(&shader("divergence.wgsl"), 8);
    // Even lanes add 0+2+4+6 = 12 among themselves; odd lanes take max(1,3,5,7) = 7, + 100.
    let want: Vec<_> = (0..8)
        .map(|i| Some(if i % 2 == 0 { 12 } else { 107 }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn partial_last_subgroup() {
    // num_subgroups is ceil(12 / 8) = 2 (WGSL spec, Built-in Values: num_subgroups).
    let src = "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(12)\nfn main(@builtin(local_invocation_index) i: u32, @builtin(num_subgroups) n: u32) {\n  out[i] = n;\n}\n";
    assert_eq!(ints(&run(src, 8), "out"), vec![Some(2); 12]);
    let t = run(&shader("partial_subgroup.wgsl"), 8);
    let sums: Vec<_> = (0..12).map(|i| Some(if i < 8 { 28 } else { 38 })).collect();
    assert_eq!(ints(&t, "sums"), sums);
    let members: Vec<_> = (0..12).map(|i| Some(if i < 8 { 8 } else { 4 })).collect();
    assert_eq!(ints(&t, "members"), members);
    let ids: Vec<_> = (0..12).map(|i| Some(if i < 8 { 0 } else { 1 })).collect();
    assert_eq!(ints(&t, "ids"), ids);
}

#[test]
fn f16_subgroup_sum() {
    let t = run(&shader("f16.wgsl"), 8);
    // 0.5 * (0+…+7) = 14 and 0.5 * (8+…+15) = 46, exact in f16.
    let want: Vec<_> = (0..16)
        .map(|i| Some(if i < 8 { 14.0 } else { 46.0 }))
        .collect();
    assert_eq!(floats(&t, "out"), want, "{:#?}", messages(&t));
}

const HEAD: &str =
    "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n";

#[test]
fn subgroup_call_under_a_varying_branch_is_refused_citing_subgroup_uniformity() {
    let src = format!(
        "{HEAD}@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {{\n  if (lane == 0u) {{\n    out[0] = subgroupAdd(1u);\n  }}\n}}\n"
    );
    let e = run_wgsl(&src, launch(8, [1, 1, 1])).expect_err("refused");
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("subgroup_uniformity"), "{e}");
    assert!(e.message.contains("subgroup_invocation_id"), "{e}");
    // A value derived from a per-invocation load is varying too; an early return makes the
    // rest of the function non-uniform.
    let src = format!(
        "{HEAD}@compute @workgroup_size(8)\nfn main(@builtin(local_invocation_index) i: u32) {{\n  if (out[i] > 3u) {{ return; }}\n  out[i] = subgroupAdd(1u);\n}}\n"
    );
    let e = run_wgsl(&src, launch(8, [1, 1, 1])).expect_err("refused");
    assert!(e.message.contains("returns early"), "{e}");
    // The same shader with the directive runs.
    let ok = format!("diagnostic(off, subgroup_uniformity);\n{src}");
    assert!(run_wgsl(&ok, launch(8, [1, 1, 1])).is_ok());
    // A branch on a uniform value (subgroup_size) is uniform control flow.
    let uniform = format!(
        "{HEAD}@compute @workgroup_size(8)\nfn main(@builtin(subgroup_size) n: u32, @builtin(local_invocation_index) i: u32) {{\n  if (n == 8u) {{\n    out[i] = subgroupAdd(1u);\n  }}\n}}\n"
    );
    let t = run(&uniform, 8);
    assert_eq!(ints(&t, "out"), vec![Some(8); 8]);
}

#[test]
fn varying_shuffle_xor_mask_makes_lanes_indeterminate_with_a_diagnostic() {
    let src = format!(
        "{HEAD}@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {{\n  out[lane] = subgroupShuffleXor(lane, lane & 1u);\n}}\n"
    );
    let t = run(&src, 8);
    assert_eq!(ints(&t, "out"), vec![None; 8]);
    let m = messages(&t).join("\n");
    assert!(m.contains("Warning 5:"), "{m}");
    assert!(m.contains("must be subgroup-uniform"), "{m}");
}

#[test]
fn non_const_broadcast_id_is_refused() {
    let src = format!(
        "{HEAD}@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {{\n  out[lane] = subgroupBroadcast(lane, lane / 4u);\n}}\n"
    );
    let e = run_wgsl(&src, launch(8, [1, 1, 1])).expect_err("refused");
    assert_eq!(e.line, 5);
    assert!(e.message.contains("const-expression"), "{e}");
    assert!(e.message.contains("WGSL spec"), "{e}");
    assert!(e.message.contains("subgroupBroadcast"), "{e}");
}

#[test]
fn missing_enable_subgroups_warns_and_runs() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {\n  out[lane] = subgroupAdd(lane);\n}\n";
    let t = run(src, 8);
    assert_eq!(ints(&t, "out"), vec![Some(28); 8]);
    let m = messages(&t).join("\n");
    assert!(m.contains("missing `enable subgroups;`"), "{m}");
    // At the first use: the built-in value `subgroup_invocation_id` on line 3, before the
    // call on line 4 (both need the directive).
    assert!(m.contains("Warning 3:9"), "{m}");
    assert!(m.contains("subgroup built-in values"), "{m}");
}

#[test]
fn i32_subgroup_ids_are_accepted() {
    let src = format!(
        "{HEAD}@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {{\n  out[lane] = subgroupShuffle(lane * 10u, i32(lane ^ 1u));\n}}\n"
    );
    let t = run(&src, 8);
    let want: Vec<_> = (0..8i128).map(|i| Some((i ^ 1) * 10)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn naga_errors_are_at_line_and_column() {
    let src = "@compute @workgroup_size(8)\nfn main() {\n  let x: u32 = 1u +;\n}\n";
    let e = run_wgsl(src, launch(8, [1, 1, 1])).expect_err("refused");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.starts_with("naga:"), "{e}");
}

#[test]
fn steps_carry_the_wgsl_lines() {
    let t = run(&shader("reduce_scan.wgsl"), 8);
    let lines: std::collections::BTreeSet<u32> = t.steps.iter().map(|s| s.line).collect();
    // let x = input[gid.x]; and the three stores (lines 11..14 of the file).
    for l in 11..=14 {
        assert!(lines.contains(&l), "{lines:?}");
    }
    let sum_step = t.steps.iter().find(|s| s.line == 12).unwrap();
    assert_eq!(sum_step.ops[0].op, "subgroupAdd");
}

#[test]
fn ballot_compaction() {
    let t = run(&shader("ballot_compaction.wgsl"), 8);
    // input[i] = i: 0, 3, 6 are kept, in lane order, in slots 0, 1, 2; the other cells keep
    // their fill (cell k holds k).
    assert_eq!(
        ints(&t, "output"),
        [0, 3, 6, 3, 4, 5, 6, 7].map(Some).to_vec()
    );
    assert_eq!(ints(&t, "count")[0], Some(3));
}

#[test]
fn executor_new_takes_wgsl_like_c() {
    // The page and `run_kernel` hand any kernel source to Executor::new.
    let cfg = launch(8, [1, 1, 1]);
    let t = crosslane_kernel::run_kernel(&shader("reduce_scan.wgsl"), cfg).unwrap();
    assert_eq!(ints(&t, "sums")[0], Some(28));
}

#[test]
fn switch_with_a_multi_value_case_and_a_default() {
    let t = run(&shader("switch.wgsl"), 8);
    let want: Vec<_> = (0..8i128)
        .map(|i| {
            Some(match i % 4 {
                0 => 10,
                1 | 2 => 20 + i,
                _ => 99,
            })
        })
        .collect();
    assert_eq!(ints(&t, "out"), want, "{:#?}", messages(&t));
}

#[test]
fn i32_overflow_wraps_and_division_by_zero_gives_the_spec_values() {
    // WGSL spec, Arithmetic Expressions: i32 + wraps (two's complement); e1 / 0 = e1, e1 % 0 = 0.
    let t = run(&shader("int_wrap.wgsl"), 8);
    let max = i128::from(i32::MAX);
    let wrap = |v: i128| (v as i32) as i128;
    let mut want: Vec<Option<i128>> = (0..4).map(|i| Some(wrap(max + i))).collect();
    assert_eq!(want[1], Some(i128::from(i32::MIN)));
    want.extend([Some(-7), Some(7), Some(7), Some(3)]); // 7 / (i - 1)
    want.extend([Some(0), Some(0), Some(0), Some(1)]); // 7 % (i - 1)
    assert_eq!(ints(&t, "out"), want, "{:#?}", messages(&t));
    assert!(
        !messages(&t).join("\n").contains("C11"),
        "{:#?}",
        messages(&t)
    );
}

#[test]
fn helper_functions_are_inlined_with_their_early_returns_and_globals() {
    // At subgroup size 4, 8 invocations are two subgroups of 4: subgroup_count() = 4.
    // out[i] = min(i * i, 20) + 4 * 100 + tile[7 - i] * 1000, tile[k] = 2k + 1.
    let t = run(&shader("helpers.wgsl"), 4);
    let squares = [0, 1, 4, 9, 16, 20, 20, 20];
    let want: Vec<Option<i128>> = (0..8i128)
        .map(|i| Some(squares[i as usize] + 400 + (2 * (7 - i) + 1) * 1000))
        .collect();
    assert_eq!(want[0], Some(15_400));
    assert_eq!(ints(&t, "out"), want, "{:#?}", messages(&t));
    let flags: Vec<Option<i128>> = (0..8i128).map(|i| Some(2 * i)).collect();
    assert_eq!(ints(&t, "flags"), flags, "{:#?}", messages(&t));
}

#[test]
fn a_helper_step_is_at_its_own_wgsl_line() {
    let src = shader("helpers.wgsl");
    let t = run(&src, 4);
    // `return x * x;` is line 10 of helpers.wgsl: some step of the trace is there.
    let line = src
        .lines()
        .position(|l| l.contains("return x * x;"))
        .unwrap() as u32
        + 1;
    assert_eq!(line, 10);
    assert!(
        t.steps.iter().any(|s| s.line == line),
        "no step at line {line}"
    );
}

#[test]
fn a_helper_reaching_a_subgroup_call_under_a_varying_branch_is_refused() {
    // WGSL spec, Uniformity Analysis: the call's control flow is the helper's. Reported at
    // the built-in (line 4), as Tint reports it, naming the call (line 12).
    let src = format!(
        "{HEAD}fn inner(v: u32) -> u32 {{\n  return subgroupMax(v);\n}}\nfn outer(v: u32) -> u32 {{\n  return inner(v) + 1u;\n}}\n@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {{\n  if (lane < 2u) {{\n    out[lane] = outer(lane);\n  }}\n}}\n"
    );
    let e = run_wgsl(&src, launch(8, [1, 1, 1])).expect_err("refused");
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("subgroup_uniformity"), "{e}");
    assert!(
        e.message.contains("subgroupMax is called")
            && e.message.contains("through the call of `outer` at 12:"),
        "{e}"
    );
    // With the rule off it runs: lanes 0 and 1 are the active ones, max = 1, + 1; the other
    // cells keep the default fill (the index).
    let off = format!("diagnostic(off, subgroup_uniformity);\n{src}");
    let t = run(&off, 8);
    let mut want = vec![Some(2), Some(2)];
    want.extend((2..8).map(Some));
    assert_eq!(ints(&t, "out")[..8], want[..], "{:#?}", messages(&t));
}

#[test]
fn vectors_by_component_and_flat_vector_buffers() {
    // points is array<vec2<f32>>, 16 cells for 8 invocations, filled with the cell index:
    // points[i] = (2i, 2i + 1). Hand derivation per invocation i:
    // q = p.yx * 2 + 1 = (4i + 3, 4i + 1); v = (q.x, q.y, p.x, p.y), then v.w = i / 2;
    // v = v.wzyx = (i / 2, 2i, 4i + 1, 4i + 3); out[i] = v - 0.5.
    // dot(p, (3, -1)) = 6i - (2i + 1) = 4i - 1.
    let t = run(&shader("vectors.wgsl"), 4);
    let mut out = Vec::new();
    let mut dots = Vec::new();
    let mut ids = Vec::new();
    for i in 0..8 {
        let f = f64::from(i);
        out.extend([f / 2.0 - 0.5, 2.0 * f - 0.5, 4.0 * f + 0.5, 4.0 * f + 2.5].map(Some));
        dots.push(Some(4.0 * f - 1.0));
        // gid.xy = (i, 0); subgroups of 4: subgroupAdd(1) = 4.
        ids.extend([
            Some(i128::from(i)),
            Some(0),
            Some(i128::from(i % 4)),
            Some(4),
        ]);
    }
    assert_eq!(out[4..8], [Some(0.0), Some(1.5), Some(4.5), Some(6.5)]);
    assert_eq!(floats(&t, "out"), out, "{:#?}", messages(&t));
    assert_eq!(floats(&t, "dots"), dots, "{:#?}", messages(&t));
    assert_eq!(ints(&t, "ids"), ids, "{:#?}", messages(&t));
    assert_eq!(t.buffer("points").unwrap().len(), 16);
    // cross2(p, q) = p.x * q.y - p.y * q.x = 2i(4i + 1) - (2i + 1)(4i + 3) = -8i - 3.
    let crosses: Vec<_> = (0..8).map(|i| Some(-8.0 * f64::from(i) - 3.0)).collect();
    assert_eq!(floats(&t, "crosses"), crosses, "{:#?}", messages(&t));
}

#[test]
fn arrays_of_vec3_keep_the_16_byte_stride() {
    // WGSL § Memory Layout: array<vec3<f32>> has a 16-byte stride, so element i is cells
    // 4i..4i+3 and cell 4i+3 is padding the shader never writes (it keeps the index fill).
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<vec3<f32>>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) {\n  out[i] = vec3<f32>(1.0);\n}\n";
    let t = run(src, 4);
    let want: Vec<Option<f64>> = (0..16)
        .map(|c| Some(if c % 4 == 3 { c as f64 } else { 1.0 }))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

#[test]
fn structs_in_storage_buffers_are_flat_in_declaration_order() {
    // Particle = pos.x, pos.y, vel.x, vel.y, mass, charge: 6 cells per element, filled with
    // the cell index c = 6i + m. Per particle i (base b = 6i):
    // pos += vel * 0.5 -> (b + (b + 2) / 2, b + 1 + (b + 3) / 2); vel.y -= mass -> b + 3 - (b + 4);
    // charge = -charge -> -(b + 5). Stats: subgroups of 4 -> n = 4: total 40, lanes 4.
    let t = run(&shader("structs.wgsl"), 4);
    let mut want = Vec::new();
    for i in 0..8 {
        let b = f64::from(6 * i);
        want.extend(
            [
                b + (b + 2.0) / 2.0,
                b + 1.0 + (b + 3.0) / 2.0,
                b + 2.0,
                -1.0,
                b + 4.0,
                -(b + 5.0),
            ]
            .map(Some),
        );
    }
    assert_eq!(
        want[6..12],
        [
            Some(10.0),
            Some(11.5),
            Some(8.0),
            Some(-1.0),
            Some(10.0),
            Some(-11.0)
        ]
    );
    assert_eq!(floats(&t, "particles"), want, "{:#?}", messages(&t));
    assert_eq!(
        ints(&t, "stats"),
        [Some(40), Some(4)],
        "{:#?}",
        messages(&t)
    );
}

#[test]
fn structs_with_padding_mixed_types_and_array_members_follow_the_wgsl_layout() {
    // WGSL § Memory Layout, by hand: S { a: f32 @0, b: vec2<f32> @8 } is 16 bytes, 4 cells
    // (cell 1 padding); M { n: u32 @0, scale: f32 @4, data: array<i32, 4> @8 } is 24 bytes, 6
    // cells of u32 bits (the members mix 32-bit types): scale 0.5 is 0x3f000000, data[i] =
    // -2i its two's complement bits. Reads convert back: f32(data[i]) * 0.5 = -i, and
    // scale * 4 = 2.
    let src = "struct S { a: f32, b: vec2<f32> }
struct M { n: u32, scale: f32, data: array<i32, 4> }
@group(0) @binding(0) var<storage, read_write> out: array<S>;
@group(0) @binding(1) var<storage, read_write> m: M;
@group(0) @binding(2) var<storage, read_write> r: array<f32, 8>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i].a = 1.0;
  out[i].b = vec2<f32>(2.0, 3.0);
  m.data[i] = -i32(i) * 2;
  r[i] = f32(m.data[i]) * 0.5;
  if (i == 0u) {
    m.n = 7u;
    m.scale = 0.5;
    r[4] = m.scale * 4.0;
  }
}
";
    let t = run(src, 4);
    let want: Vec<Option<f64>> = (0..16)
        .map(|c| {
            Some(match c % 4 {
                0 => 1.0,
                1 => c as f64, // padding keeps its fill
                2 => 2.0,
                _ => 3.0,
            })
        })
        .collect();
    assert_eq!(floats(&t, "out"), want);
    let mut m = vec![Some(7), Some(0x3f00_0000)];
    m.extend((0..4).map(|i: i128| Some((-2 * i) & 0xffff_ffff)));
    assert_eq!(ints(&t, "m"), m);
    let r = floats(&t, "r");
    assert_eq!(
        r[..5],
        [Some(0.0), Some(-1.0), Some(-2.0), Some(-3.0), Some(2.0)]
    );
}

#[test]
fn compare_exchange_swaps_only_on_a_match() {
    // slots[i] = i (index fill): even i expect i and swap in 100 + i; odd i expect 999 and fail.
    let t = run(&shader("compare_exchange.wgsl"), 8);
    let even = |i: i128| i % 2 == 0;
    let slots: Vec<_> = (0..8)
        .map(|i| Some(if even(i) { 100 + i } else { i }))
        .collect();
    let won: Vec<_> = (0..8).map(|i| Some(i128::from(even(i)))).collect();
    assert_eq!(ints(&t, "slots"), slots, "{:#?}", messages(&t));
    assert_eq!(ints(&t, "old"), (0..8).map(Some).collect::<Vec<_>>());
    assert_eq!(ints(&t, "won"), won);
}

#[test]
fn contended_compare_exchange_lets_exactly_one_invocation_win() {
    // WGSL spec, atomicCompareExchangeWeak: atomic; of 8 invocations expecting 0, one sees 0
    // and stores its value; the rest see that value (whichever invocation the order picks).
    let src = format!(
        "{HEAD}@group(0) @binding(1) var<storage, read_write> slot: atomic<u32>;\n@compute @workgroup_size(8)\nfn main(@builtin(local_invocation_index) i: u32) {{\n  let r = atomicCompareExchangeWeak(&slot, 0u, i + 1u);\n  out[i] = select(0u, 1u, r.exchanged) * 100u + r.old_value;\n}}\n"
    );
    let mut c = launch(8, [1, 1, 1]);
    c.args.insert("slot".into(), "0".into());
    let t = run_wgsl(&src, c).unwrap_or_else(|e| panic!("{e}"));
    let slot = ints(&t, "slot")[0].unwrap();
    assert!((1..=8).contains(&slot), "{slot}");
    let out: Vec<i128> = ints(&t, "out").into_iter().map(Option::unwrap).collect();
    // The winner (slot - 1) read 0 and exchanged; everyone else read the winner's value.
    for (i, v) in out.iter().enumerate() {
        let want = if i as i128 == slot - 1 { 100 } else { slot };
        assert_eq!(*v, want, "{out:?}");
    }
}

#[test]
fn break_before_the_end_of_a_switch_case_leaves_the_switch_not_the_loop() {
    // Two loop iterations; i % 3 == 0 adds 10, then 5 unless i is odd (the `break` leaves the
    // switch only, so the loop still runs twice); otherwise 20 + i each time.
    let t = run(&shader("switch_break.wgsl"), 8);
    let want: Vec<_> = (0..8i128)
        .map(|i| {
            Some(match (i % 3, i % 2) {
                (0, 1) => 2 * 10,
                (0, _) => 2 * 15,
                _ => 2 * (20 + i),
            })
        })
        .collect();
    assert_eq!(want[3], Some(20));
    assert_eq!(ints(&t, "out"), want, "{:#?}", messages(&t));
}

#[test]
fn a_helper_the_entry_never_calls_is_not_lowered() {
    // `unused` takes a pointer parameter, which the emulator does not lower; it is never
    // called, so the shader runs: out[i] = i + 1.
    let src = format!(
        "{HEAD}fn unused(p: ptr<function, u32>) {{\n  *p = 1u;\n}}\nfn inc(x: u32) -> u32 {{\n  return x + 1u;\n}}\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) {{\n  out[i] = inc(i);\n}}\n"
    );
    let t = run(&src, 4);
    assert_eq!(ints(&t, "out"), [Some(1), Some(2), Some(3), Some(4)]);
}
