//! WGSL shapes naga or the lowering got wrong against the spec: a module whose `@fragment`
//! entry point calls subgroup built-ins beside the `@compute` one that runs, run-time indices
//! outside a value (`let`/`const`) array or a `var` array. Tint's verdict on each shader
//! (`tint --format wgsl FILE`, Dawn's compiler, run once by hand) is recorded beside it as
//! data, so these tests run without Tint. Every expected value is worked out by hand in the
//! comment beside it, with the WGSL spec section it follows.

use crosslane_core::result::Level;
use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

fn config(entry: Option<&str>, fills: &[(&str, &str)], len: &[(&str, usize)]) -> LaunchConfig {
    let mut c = LaunchConfig {
        lanes: Some(32),
        grid_dim: Some([1, 1, 1]),
        entry: entry.map(str::to_string),
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

fn warnings(t: &KernelTrace) -> Vec<(u32, u32, String)> {
    t.all_diagnostics()
        .filter(|d| d.level == Level::Warning)
        .map(|d| (d.line, d.col, d.message.clone()))
        .collect()
}

/// A module as Dawn's end-to-end tests write them: a `@fragment` entry point that calls
/// `subgroupBallot` (and reads the subgroup built-in values) beside the `@compute` one.
/// Tint: accepts (exit 0).
const FRAGMENT_AND_COMPUTE: &str = "enable subgroups;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

fn ballot_low(p: bool) -> u32 { return subgroupBallot(p).x; }

@fragment
fn frag_main(@builtin(position) pos: vec4<f32>,
             @builtin(subgroup_invocation_id) l: u32) -> @location(0) vec4<u32> {
  let b = subgroupBallot(pos.x > 1.0);
  return b + vec4<u32>(ballot_low(l == 0u)) + vec4<u32>(u32(quadBroadcast(pos.y, 1u)));
}

@compute @workgroup_size(8)
fn compute_main(@builtin(local_invocation_index) i: u32) {
  out[i] = ballot_low(i < 3u) + subgroupAdd(1u);
}
";

/// WGSL spec, "Subgroup Built-in Functions" (and "Quad Operations"): with `enable
/// subgroups;` they "must only be used in compute or fragment shader stages", so the module
/// is valid and its `@compute` entry point runs. `subgroupBallot(i < 3u)` over the 8
/// invocations of one subgroup (size 32) sets bits 0, 1, 2: x = 0b111 = 7; `subgroupAdd(1u)`
/// over 8 active invocations is 8; each cell is 7 + 8 = 15.
#[test]
fn a_fragment_entry_with_subgroup_builtins_beside_the_compute_one() {
    let t = run(
        FRAGMENT_AND_COMPUTE,
        config(Some("compute_main"), &[("out", "zero")], &[("out", 8)]),
    );
    assert_eq!(ints(&t, "out"), vec![Some(15); 8]);
    // Without --entry the one compute entry point is chosen.
    let t = run(
        FRAGMENT_AND_COMPUTE,
        config(None, &[("out", "zero")], &[("out", 8)]),
    );
    assert_eq!(ints(&t, "out"), vec![Some(15); 8]);
    // The fragment entry point is not a compute one: named as such, with the one there is.
    let e = run_wgsl(
        FRAGMENT_AND_COMPUTE,
        config(Some("frag_main"), &[("out", "zero")], &[("out", 8)]),
    )
    .expect_err("frag_main is no compute entry point");
    assert!(
        e.message.contains("no compute entry point `frag_main`")
            && e.message.contains("compute_main"),
        "{e}"
    );
}

/// The same call in a `@vertex` entry point is invalid: WGSL spec, "Subgroup Built-in
/// Functions" (compute or fragment stages only). Tint rejects it: `5:11 error: built-in
/// cannot be used by vertex pipeline stage` (the call, line 5 column 11). crosslane names the
/// same place and the rule, not naga's whole-entry-point "Uses operations forbidden at this
/// stage" at 1:1; a call reached through a helper is found in the helper.
#[test]
fn a_vertex_entry_with_subgroup_builtins_is_refused_at_the_call_as_tint_does() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@vertex
fn vs_main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
  let b = subgroupBallot(v > 1u);
  return vec4<f32>(f32(b.x), 0.0, 0.0, 1.0);
}
@compute @workgroup_size(8)
fn compute_main(@builtin(local_invocation_index) i: u32) {
  out[i] = subgroupBallot(i < 3u).x;
}
";
    let e = run_wgsl(src, config(Some("compute_main"), &[], &[]))
        .expect_err("Tint rejects a subgroup built-in in a vertex shader");
    assert_eq!((e.line, e.col), (5, 11), "{e}");
    assert!(
        e.message.contains("vs_main") && e.message.contains("compute or fragment"),
        "{e}"
    );
    // Through a helper (Tint: `3:30 error: built-in cannot be used by vertex pipeline
    // stage`, the call inside `f`).
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn f(x: u32) -> u32 { return subgroupAdd(x); }
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(f32(f(v)));
}
@compute @workgroup_size(1) fn cs() { out[0] = 1u; }
";
    let e = run_wgsl(src, config(None, &[], &[])).expect_err("Tint rejects it");
    assert_eq!((e.line, e.col), (3, 30), "{e}");
}

/// WGSL spec, § Array Access Expression and § Out-of-Bounds Access: a run-time index outside
/// a value array (a `const` or `let`, not a memory view) gives an indeterminate value of the
/// element type — not the last element. Tint accepts the shader. Invocations 0..3 read T[i]
/// = 10, 20, 30, 40; invocations 4..7 index past the 4 elements: undefined, with a warning
/// naming the index (4 for the first such lane) and the bound.
#[test]
fn a_const_array_indexed_out_of_range_is_undefined_with_the_index() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
const T = array<u32, 4>(10u, 20u, 30u, 40u);
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = T[i];
  out[i] = x;
}
";
    let t = run(src, config(None, &[("out", "zero")], &[("out", 8)]));
    assert_eq!(
        ints(&t, "out"),
        vec![
            Some(10),
            Some(20),
            Some(30),
            Some(40),
            None,
            None,
            None,
            None
        ]
    );
    let w = warnings(&t);
    assert!(
        w.iter().any(|(l, c, m)| (*l, *c) == (5, 11)
            && m.contains("4 elements")
            && m.contains("the index is 4")
            && m.contains("Out-of-Bounds Access")),
        "{w:#?}"
    );
}

/// The same rule for a `let` array of vectors with a negative `i32` index, a `let` vector and
/// a matrix value (WGSL spec, § Vector Access Expression, § Matrix Access Expression: out of
/// range is an indeterminate value). Tint accepts the shader. Per invocation i (0..3), with
/// s = i − 1:
///   v[i]    : v = (1, 2, 3): 1, 2, 3, then undefined (i = 3);
///   a[s].y  : a = ((1,2), (3,4), (5,6)): s = −1 undefined, then 2, 4, 6;
///   m[i][1] : columns (1,2), (3,4): 2, 4, then undefined (i = 2, 3).
#[test]
fn let_vectors_arrays_and_matrices_indexed_out_of_range_are_undefined() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = vec3<f32>(1.0, 2.0, 3.0);
  let s = i32(i) - 1;
  let a = array<vec2<f32>, 3>(vec2(1.0, 2.0), vec2(3.0, 4.0), vec2(5.0, 6.0));
  out[i * 3u] = v[i];
  out[i * 3u + 1u] = a[s].y;
  let m = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
  out[i * 3u + 2u] = m[i][1];
}
";
    let t = run(src, config(None, &[("out", "zero")], &[("out", 12)]));
    let got: Vec<Option<f64>> = t
        .buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    let want = [
        Some(1.0),
        None,
        Some(2.0), // i = 0
        Some(2.0),
        Some(2.0),
        Some(4.0), // i = 1
        Some(3.0),
        Some(4.0),
        None, // i = 2
        None,
        Some(6.0),
        None, // i = 3
    ];
    assert_eq!(got, want);
    let w = warnings(&t);
    assert!(
        w.iter()
            .any(|(l, _, m)| *l == 8 && m.contains("the index is -1")),
        "{w:#?}"
    );
}

/// WGSL spec, § Out-of-Bounds Access, for memory views (function, private, workgroup and
/// storage `var` arrays): a load outside the array may give any value from within it or zero —
/// the spec allows several, so the emulator picks none: undefined, with a warning citing the
/// rule. Tint accepts the shader. Invocations 0..3 read F = (5,6,7,8), P = (1,2,3,4), W[i] =
/// 100 + i (stored before the barrier), src = index fill (0..3); invocations 4 and 5 are
/// outside all four arrays.
#[test]
fn var_arrays_indexed_out_of_range_read_undefined() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> src: array<u32, 4>;
var<private> P = array<u32, 4>(1u, 2u, 3u, 4u);
var<workgroup> W: array<u32, 4>;
@compute @workgroup_size(6)
fn main(@builtin(local_invocation_index) i: u32) {
  var F = array<u32, 4>(5u, 6u, 7u, 8u);
  if (i < 4u) { W[i] = 100u + i; }
  workgroupBarrier();
  out[i * 4u] = F[i];
  out[i * 4u + 1u] = P[i];
  out[i * 4u + 2u] = W[i];
  out[i * 4u + 3u] = src[i];
}
";
    let t = run(
        src,
        config(None, &[("out", "zero"), ("src", "index")], &[("out", 24)]),
    );
    let mut want = Vec::new();
    for i in 0..4 {
        want.extend([Some(5 + i), Some(1 + i), Some(100 + i), Some(i)]);
    }
    want.extend([None; 8]);
    assert_eq!(ints(&t, "out"), want);
    let w = warnings(&t);
    for (line, name) in [(10, "F"), (11, "P"), (12, "W"), (13, "src")] {
        assert!(
            w.iter().any(|(l, _, m)| *l == line
                && m.contains(&format!("reads `{name}"))
                && m.contains("outside its 4 cells")),
            "{name}: {w:#?}"
        );
    }
}

/// naga 30.0.2 (the version in Cargo.lock) still lowers every `bitcast` to a width-keeping
/// `As`, so `bitcast<vec2<f16>>(u)` becomes an `f32` of u's bits and the shader validated:
/// `dot(vec2<f32>(h), vec2(1.0, 1.0))` with u = 0x3C003C00 ran as 0.0157 where WGSL spec §
/// 17.2 gives h = (1.0h, 1.0h) (0x3C00 is f16 1.0, Python: struct.unpack('<e',
/// b'\x00\x3c')) and the dot 2.0. Tint accepts the shader; crosslane now refuses it at the call
/// (6:11) with what to write instead rather than run a wrong value. Where the wrong type makes
/// naga fail later (`h.x` on the "f32"), naga's error names the call as the likely cause.
#[test]
fn a_bitcast_to_an_f16_vector_is_refused_not_run_wrong() {
    let src = "enable f16;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1)
fn main() {
  let u = 0x3C003C00u;
  let h = bitcast<vec2<f16>>(u);
  o[0] = dot(vec2<f32>(h), vec2<f32>(1.0, 1.0));
}
";
    let e = run_wgsl(src, config(None, &[], &[])).expect_err("refused");
    assert_eq!((e.line, e.col), (6, 11), "{e}");
    assert!(e.message.contains("unpack2x16float"), "{e}");
    let src = src.replace(
        "o[0] = dot(vec2<f32>(h), vec2<f32>(1.0, 1.0));",
        "o[0] = f32(h.x);",
    );
    let e = run_wgsl(&src, config(None, &[], &[])).expect_err("refused");
    assert_eq!(e.line, 7, "{e}");
    assert!(
        e.message.contains("bitcast` to an `f16` vector at 6:11"),
        "{e}"
    );
}

/// The fragment entry point's subgroup calls must be in uniform control flow too (WGSL spec,
/// Uniformity Analysis; every fragment input is non-uniform). Tint rejects this module:
/// `7:9 error: 'subgroupBallot' must only be called from subgroup uniform control flow`
/// (the branch on `pos`); crosslane names the same place, though the compute entry point is
/// the one that runs.
#[test]
fn a_fragment_entry_calling_a_subgroup_builtin_under_a_varying_branch_is_refused() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@fragment
fn frag_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<u32> {
  var b = vec4<u32>();
  if (pos.x > 1.0) {
    b = subgroupBallot(true);
  }
  return b;
}
@compute @workgroup_size(8)
fn compute_main(@builtin(local_invocation_index) i: u32) {
  out[i] = subgroupBallot(i < 3u).x;
}
";
    let e = run_wgsl(src, config(Some("compute_main"), &[], &[])).expect_err("Tint rejects it");
    assert_eq!((e.line, e.col), (7, 9), "{e}");
    assert!(
        e.message.contains("frag_main") && e.message.contains("position"),
        "{e}"
    );
}
