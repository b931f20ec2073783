//! WGSL shapes Tint (Chrome's compiler) accepts and naga 30 or the lowering refused: a
//! structure of `@builtin` entry point inputs (WGSL spec, § Entry Point Inputs and Outputs),
//! `subgroup_invocation_id` / `subgroup_id` in a 2-D or 3-D workgroup (§ Built-in Values), and
//! pointer parameters in the `storage`, `uniform` and `workgroup` address spaces (§ Language
//! Extensions, `unrestricted_pointer_parameters`). Tint's verdict on each shader (`tint
//! --format wgsl FILE`, run once by hand) is recorded beside it, so the tests run without
//! Tint. Expected values come from the Python model in each comment; the subgroup mapping is
//! the linear one crosslane states (SEMANTICS.md: subgroup = local_invocation_index / size).

use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

fn config(
    lanes: usize,
    groups: usize,
    fills: &[(&str, &str)],
    len: &[(&str, usize)],
) -> LaunchConfig {
    let mut c = LaunchConfig {
        lanes: Some(lanes),
        grid_dim: Some([groups, 1, 1]),
        ..LaunchConfig::default()
    };
    for (k, v) in fills {
        c.args.insert(k.to_string(), v.to_string());
    }
    for (k, n) in len {
        c.buffer_len.insert(k.to_string(), *n);
    }
    c
}

use crate::support::wgsl_no_errors as run;

use crate::support::ints;

fn floats(t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

/// Tint: accepts. Each member of the input structure is its built-in value; a subgroup
/// reduction of one member runs in uniform control flow.
const STRUCT_INPUTS: &str = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Inputs {
  @builtin(local_invocation_index) li: u32,
  @builtin(subgroup_invocation_id) sid: u32,
  @builtin(subgroup_size) size: u32,
  @builtin(workgroup_id) wg: vec3<u32>,
}
@compute @workgroup_size(16)
fn main(inputs: Inputs) {
  let s = subgroupAdd(inputs.li);
  out[inputs.wg.x * 16u + inputs.li] = inputs.sid * 100u + inputs.size + inputs.wg.x * 1000u + s * 10000u;
}
";

#[test]
fn a_structure_of_builtin_inputs_reads_each_member() {
    // Python: [sid*100 + 8 + wg*1000 + sum(range(8*sg, 8*sg+8))*10000
    //          for wg in range(2) for li in range(16) for sid, sg in [(li % 8, li // 8)]]
    let want: Vec<i128> = vec![
        280008, 280108, 280208, 280308, 280408, 280508, 280608, 280708, 920008, 920108, 920208,
        920308, 920408, 920508, 920608, 920708, 281008, 281108, 281208, 281308, 281408, 281508,
        281608, 281708, 921008, 921108, 921208, 921308, 921408, 921508, 921608, 921708,
    ];
    let t = run(
        STRUCT_INPUTS,
        config(8, 2, &[("out", "zero")], &[("out", 32)]),
    );
    assert_eq!(
        ints(&t, "out"),
        want.into_iter().map(Some).collect::<Vec<_>>()
    );
}

/// Tint: rejects ("'subgroupAdd' must only be called from subgroup uniform control flow"): a
/// branch on a member that is an invocation id is non-uniform, as the built-in itself is. The
/// spec's uniformity analysis has one node per parameter, so a structure holding a
/// non-uniform member makes every member read from it non-uniform (Tint rejects a branch on
/// `inputs.size` there too); a structure of uniform members only is uniform (Tint accepts).
#[test]
fn a_branch_on_an_input_structure_follows_the_parameter_uniformity() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Inputs { @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) size: u32 }
@compute @workgroup_size(8)
fn main(inputs: Inputs) {
  if (inputs.sid < 4u) { out[inputs.sid] = subgroupAdd(inputs.sid); }
}
";
    let c = || config(8, 1, &[("out", "zero")], &[("out", 8)]);
    let e = run_wgsl(src, c()).unwrap_err();
    assert!(e.to_string().contains("subgroup_invocation_id"), "{e}");
    let also_rejected = src.replace("inputs.sid < 4u", "inputs.size > 4u");
    let e = run_wgsl(&also_rejected, c()).unwrap_err();
    assert!(e.to_string().contains("non-uniform control flow"), "{e}");
    let accepted = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Sizes { @builtin(subgroup_size) size: u32, @builtin(workgroup_id) wg: vec3<u32> }
@compute @workgroup_size(8)
fn main(sizes: Sizes, @builtin(subgroup_invocation_id) sid: u32) {
  if (sizes.size > 4u) { out[sid] = subgroupAdd(sid + sizes.wg.x); }
}
";
    let t = run(accepted, c());
    // subgroupAdd of 0..7 (workgroup 0) = 28 in every invocation.
    assert_eq!(ints(&t, "out"), vec![Some(28); 8]);
}

/// Tint: accepts a 3-D workgroup reading `subgroup_invocation_id` and `subgroup_id` (naga 30
/// refuses: "Workgroup size is multi dimensional").
#[test]
fn subgroup_ids_in_a_three_dimensional_workgroup() {
    let src = "enable subgroups;
requires subgroup_id;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4, 4, 2)
fn main(@builtin(local_invocation_index) li: u32,
        @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_id) sg: u32) {
  out[li] = lane + 100u * sg + 1000u * subgroupAdd(li);
}
";
    // Python: [li % 8 + 100*(li // 8) + 1000*sum(range(8*(li//8), 8*(li//8)+8)) for li in range(32)]
    let want: Vec<i128> = vec![
        28000, 28001, 28002, 28003, 28004, 28005, 28006, 28007, 92100, 92101, 92102, 92103, 92104,
        92105, 92106, 92107, 156200, 156201, 156202, 156203, 156204, 156205, 156206, 156207,
        220300, 220301, 220302, 220303, 220304, 220305, 220306, 220307,
    ];
    let t = run(src, config(8, 1, &[("out", "zero")], &[("out", 32)]));
    assert_eq!(
        ints(&t, "out"),
        want.into_iter().map(Some).collect::<Vec<_>>()
    );
}

/// Tint: accepts helpers taking `ptr<storage, …>` (called with two different buffers),
/// `ptr<workgroup, …>` and `ptr<uniform, …>` parameters (naga 30 refuses every one).
#[test]
fn storage_workgroup_and_uniform_pointer_parameters() {
    let src = "enable subgroups;
struct Params { scale: f32, n: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;
var<workgroup> partial: array<f32, 4>;

fn lane_sum(src: ptr<storage, array<f32>, read>, i: u32) -> f32 {
  return subgroupAdd((*src)[i]);
}
fn keep(dst: ptr<workgroup, array<f32, 4>>, slot: u32, v: f32) {
  dst[slot] = v;
}
fn scaled_total(p: ptr<workgroup, array<f32, 4>>, q: ptr<uniform, Params>) -> f32 {
  var t = 0.0;
  for (var k = 0u; k < (*q).n; k++) { t += p[k]; }
  return t * q.scale;
}

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) li: u32,
        @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32) {
  let d = lane_sum(&a, li) - lane_sum(&b, li);
  if (lane == 0u) { keep(&partial, li / size, d); }
  workgroupBarrier();
  if (li == 0u) { out[0] = scaled_total(&partial, &params); }
}
";
    // a[i] = 2i, b[i] = i: the four subgroups of 4 give sum(2i - i) per subgroup; the total
    // over 4 subgroups is sum(range(16)) = 120, times scale 0.5 = 60.
    let c = config(
        4,
        1,
        &[
            ("a", "i*2"),
            ("b", "index"),
            ("out", "zero"),
            ("params", "0.5,4"),
        ],
        &[("a", 16), ("b", 16), ("out", 1)],
    );
    let t = run(src, c);
    assert_eq!(floats(&t, "out"), vec![Some(60.0)]);
}

/// Tint accepts (`tint --format wgsl`, recorded here) `f(&s.v)` with `s` a storage structure
/// and `g(&wg.w)` with `wg` a workgroup structure: pointers to members (WGSL § Memory Views,
/// with `unrestricted_pointer_parameters`). By hand: `s` filled 0, 1, 2, 3, 4 (v = cells 0..3,
/// w = cell 4); f sets v[0] = 1 and v[3] = v[2] + 0.5 = 2.5; g adds 5 to wg.w = 1, and
/// invocation 0 stores it in s.w: [1, 1, 2, 2.5, 6].
#[test]
fn pointers_to_storage_and_workgroup_members_reach_the_helper() {
    let src = "struct S { v: array<f32, 4>, w: f32 }
struct W { a: u32, w: u32 }
@group(0) @binding(0) var<storage, read_write> s: S;
var<workgroup> wg: W;
fn f(p: ptr<storage, array<f32, 4>, read_write>) { p[0] = 1.0; p[3] = p[2] + 0.5; }
fn g(p: ptr<workgroup, u32>) { *p = *p + 5u; }
@compute @workgroup_size(1) fn main() {
  f(&s.v);
  wg.w = 1u;
  g(&wg.w);
  s.w = f32(wg.w);
}
";
    let t = run(src, config(4, 1, &[("s", "index")], &[("s", 5)]));
    assert_eq!(
        floats(&t, "s"),
        vec![Some(1.0), Some(1.0), Some(2.0), Some(2.5), Some(6.0)]
    );
}

/// Tint accepts (`tint --format wgsl`, recorded here): a pointer to a structure local's array
/// member passed to a helper, which passes it on, beside a pointer to a scalar member and to
/// one cell of the array (WGSL § Function Calls, § Memory Views). By hand, invocation i: w =
/// 10 + 1 = 11; v = [1, 2, 3, 4] → v[2] + 1 = 4 → v[1] = i → v[3] + 100 = 104; out = w · 10000 +
/// (v[0] + 2 v[1] + 3 v[2] + 4 v[3]) = 110000 + 1 + 2i + 12 + 416.
#[test]
fn a_pointer_to_a_structure_locals_array_member_reaches_the_helper() {
    let src = "struct S { w: u32, v: array<u32, 4> }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn bump(p: ptr<function, u32>) { *p = *p + 1u; }
fn add100(p: ptr<function, array<u32, 4>>, k: u32) { (*p)[k] = (*p)[k] + 100u; }
fn fill(p: ptr<function, array<u32, 4>>, x: u32) { (*p)[1] = x; add100(p, 3u); }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  var s: S;
  s.w = 10u;
  s.v = array<u32, 4>(1u, 2u, 3u, 4u);
  bump(&s.w);
  bump(&s.v[2]);
  fill(&s.v, i);
  var sum = 0u;
  for (var k = 0u; k < 4u; k++) { sum = sum + s.v[k] * (k + 1u); }
  out[i] = s.w * 10000u + sum;
}
";
    let t = run(src, config(4, 1, &[("out", "zero")], &[("out", 4)]));
    let want: Vec<Option<i128>> = (0..4)
        .map(|i| Some(110_000 + 1 + 2 * i + 12 + 416))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// Shapes naga 30 accepts and Tint refuses at shader creation, refused before the run at the
/// place Tint names: `subgroupBallot()` without its bool (Tint: "no matching call to
/// 'subgroupBallot()'", 5:12), a constant `quadBroadcast` id of 4 (Tint: "the id argument of
/// quadBroadcast must be less than 4", 5:30) and `subgroupBroadcast` ids 128 and -1 (Tint:
/// "… must be less than 128" / "… greater than or equal to zero", 5:34). Ids 3 and 127 are
/// accepted by both.
#[test]
fn calls_tint_refuses_at_shader_creation_are_refused_before_the_run() {
    let shader = |call: &str| {
        format!(
            "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) li: u32) {{
  out[0] = {call};
}}
"
        )
    };
    let c = || config(32, 1, &[("out", "zero")], &[("out", 1)]);
    for (call, col, words) in [
        ("subgroupBallot().x", 12, "subgroupBallot(true)"),
        ("quadBroadcast(li, 4u)", 30, "[0, 4), got 4"),
        ("subgroupBroadcast(li, 128u)", 34, "[0, 128), got 128"),
        ("subgroupBroadcast(li, -1i)", 34, "[0, 128), got -1"),
    ] {
        let e = run_wgsl(&shader(call), c()).unwrap_err();
        assert_eq!((e.line, e.col), (5, col), "{call}: {e}");
        assert!(e.to_string().contains(words), "{call}: {e}");
    }
    for call in ["quadBroadcast(li, 3u)", "subgroupBallot(true).x"] {
        run(&shader(call), c());
    }
}

/// Tint: accepts. Structures of built-in inputs passed whole to helpers and copied with `let`
/// (the split into uniform and non-uniform structures that the per-parameter uniformity rule
/// makes libraries write): each cell of the copy is its member's built-in value.
#[test]
fn structures_of_builtin_inputs_pass_whole_to_helpers() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Uniform { @builtin(num_workgroups) nwg: vec3u, @builtin(workgroup_id) wgid: vec3u, @builtin(subgroup_size) sgsz: u32 }
struct Varying { @builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lidx: u32, @builtin(subgroup_invocation_id) sgid: u32 }
fn linear_group(u: Uniform) -> u32 {
  return u.wgid.z * u.nwg.y * u.nwg.x + u.wgid.y * u.nwg.x + u.wgid.x;
}
fn lane_sum(u: Uniform, v: Varying) -> u32 {
  return subgroupAdd(v.sgid) + u.sgsz * 1000u;
}
@compute @workgroup_size(8)
fn main(uni: Uniform, var_in: Varying) {
  let copy = var_in;
  let s = lane_sum(uni, var_in);
  out[linear_group(uni) * 8u + copy.lidx] = s + copy.gid.x * 100000u;
}
";
    // 4 lanes: subgroupAdd(0..3) = 6, plus 4 * 1000, plus gid.x * 100000 (gid.x = 0..15).
    // Python: [6 + 4000 + g * 100000 for g in range(16)]
    let t = run(src, config(4, 2, &[("out", "zero")], &[("out", 16)]));
    let want: Vec<Option<i128>> = (0..16).map(|g| Some(4006 + g * 100_000)).collect();
    assert_eq!(ints(&t, "out"), want);
}
