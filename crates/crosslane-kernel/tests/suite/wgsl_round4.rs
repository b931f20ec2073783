//! WGSL shapes from the fourth corpus round that were refused or ran wrong. Every expected
//! value is worked out from the WGSL spec sections named per test, by hand or by the Python
//! line quoted beside it, never copied from the emulator's output.

use crate::support::{ints_or_min, wgsl_no_errors as run_with, wgsl_out};
use crosslane_kernel::LaunchConfig;

/// `o` of `o_cells` zeroed cells and `c` of 128, `lanes` wide.
fn config(lanes: usize, o_cells: usize) -> LaunchConfig {
    let mut c = wgsl_out(lanes, o_cells);
    c.args.insert("c".into(), "zero".into());
    c.buffer_len.insert("c".into(), 128);
    c
}

/// WGSL § Subgroup Built-in Functions, subgroupBallot: bit `id % 32` of component `id / 32`
/// is set for each active invocation whose predicate is true; a subgroup holds up to 128
/// invocations (the WebGPU CTS's `subgroupBallot` tests run 128 invocations and read all four
/// components). At `--lanes 128` the shader was refused ("ballot components z, w … are not
/// emulated yet"). Here the ballot is read directly, through a `let`, a `var` updated with
/// `&=`, a helper returning it, and `countOneBits`; half the invocations return early, so the
/// ballot in the branch counts only the active ones.
#[test]
fn a_ballot_of_a_128_wide_subgroup_has_all_four_components() {
    let src = "enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> o: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> c: array<u32>;
fn vote(p: bool) -> vec4<u32> { return subgroupBallot(p); }
@compute @workgroup_size(128)
fn main(@builtin(subgroup_invocation_id) id: u32, @builtin(local_invocation_index) lid: u32) {
  let b = subgroupBallot(id % 3u == 0u);
  var v = b;
  v.w &= 0xffu;
  let h = vote(id >= 100u);
  c[lid] = countOneBits(b.z) + countOneBits(h).w * 1000u + subgroupBallot(true).w;
  if (id % 2u == 1u) { return; }
  o[lid] = v + subgroupBallot(true);
}";
    // m = sum(1 << i for i in range(128) if i % 3 == 0)
    // [hex((m >> 32*k) & 0xffffffff) for k in range(4)]
    //   = ['0x49249249', '0x92492492', '0x24924924', '0x49249249'];  v.w & 0xff = 0x49
    // even = sum(1 << i for i in range(0, 128, 2)): every component 0x55555555
    // c: bin(m >> 64 & 0xffffffff).count('1') = 10; ids 100..127 in w: 28 bits;
    //    10 + 28 * 1000 + 0xffffffff wraps to 28009
    let t = run_with(src, config(128, 512));
    let o = ints_or_min(&t, "o");
    let v = [0x4924_9249_i128, 0x9249_2492, 0x2492_4924, 0x49];
    for lid in 0..128 {
        for k in 0..4 {
            let want = if lid % 2 == 0 {
                (v[k] + 0x5555_5555) & 0xffff_ffff
            } else {
                0
            };
            assert_eq!(o[lid * 4 + k], want, "invocation {lid} component {k}");
        }
    }
    let c = ints_or_min(&t, "c");
    assert!(c.iter().all(|&x| x == 28009), "{c:?}");

    // 64 lanes: two subgroups of 64, z and w are 0 in both; the ids (0..64) repeat.
    let t = run_with(src, config(64, 512));
    let c = ints_or_min(&t, "c");
    assert!(c.iter().all(|&x| x == 0), "{c:?}");
}

/// WGSL § Uniformity Analysis, loop statements: an iteration starts with the state the
/// previous one ended with, after its `continuing` block. A variable the body sets to
/// `local_invocation_index` and `continuing` resets to 0 is uniform again at the loop's top,
/// so the `subgroupAdd` under `if (t == 0u)` is in uniform control flow (Tint accepts it; it
/// was refused: "depends on variable `t`, written non-uniformly in the loop"). Three
/// iterations, each adding the 32 invocations' 1: 96 everywhere.
#[test]
fn a_variable_continuing_resets_is_uniform_at_the_loops_top() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var t = 0u;
  var n = 0u;
  loop {
    if (t == 0u) { o[lid] += subgroupAdd(1u); }
    t = lid;
    continuing { t = 0u; n++; break if n >= 3u; }
  }
}";
    let t = run_with(src, wgsl_out(32, 32));
    assert_eq!(ints_or_min(&t, "o"), vec![96; 32]);

    // The same reset reached only on some iterations (under a branch) keeps `t` varying.
    let partial = src.replace("t = 0u; n++;", "if (n == 1u) { t = 0u; } n++;");
    let e = crosslane_kernel::wgsl::run_wgsl(&partial, wgsl_out(32, 32))
        .expect_err("`t` is varying at the top when continuing does not always reset it");
    assert!(e.to_string().contains("variable `t`"), "{e}");
}

/// WGSL spec § Uniformity Analysis: a subgroup call in non-uniform control flow is a
/// shader-creation error, so the whole module is refused (Tint checks every entry point and
/// the browser's `createShaderModule` fails) whichever entry point a pipeline would name.
/// A multi-pass file whose first kernel clears a buffer and whose second calls
/// `subgroupExclusiveAdd` in a loop bounded by the invocation id ran its first kernel
/// ("finished"); it is refused, naming the second.
#[test]
fn a_module_is_refused_when_another_entry_point_fails_uniformity() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn clear(@builtin(global_invocation_id) id: vec3<u32>) {
  o[id.x] = 0u;
}
@compute @workgroup_size(32) fn scan(@builtin(local_invocation_id) lid: vec3<u32>) {
  for (var i = lid.x; i < 64u; i += 32u) { o[i] = subgroupExclusiveAdd(o[i]); }
}";
    let e = crosslane_kernel::wgsl::run_wgsl(src, wgsl_out(32, 64))
        .expect_err("the second entry point's divergent subgroup call refuses the module");
    let m = e.to_string();
    assert!(
        m.contains("subgroupExclusiveAdd") && m.contains("`scan`"),
        "{m}"
    );

    // Bounded uniformly, both kernels are valid and the first runs: o = 0 everywhere.
    let fixed = src.replace(
        "for (var i = lid.x; i < 64u; i += 32u) { o[i] = subgroupExclusiveAdd(o[i]); }",
        "for (var k = 0u; k < 2u; k++) { o[lid.x + 32u * k] = subgroupExclusiveAdd(1u); }",
    );
    let t = run_with(&fixed, wgsl_out(32, 32));
    assert_eq!(ints_or_min(&t, "o"), vec![0; 32]);
}

/// WGSL spec § Expressions: a bitwise expression chains one of `&`, `|`, `^` over unary
/// operands, and a relational expression compares two shift expressions, so `1u & 2u | 3u`
/// and `x & m != 0u` need parentheses (Tint: "mixing '&' and '|' requires parenthesis", at
/// the expression's first operator). A module-scope `const` mix ran with C's precedence (naga
/// folds it before any IR check: the shader stored 3), and `x & m != 0u` was refused with
/// naga's "Incompatible operands: LogicalAnd(u32, _)" at 1:1. Both are refused at Tint's line
/// and column; the parenthesized forms run.
#[test]
fn operator_mixes_in_consts_and_comparisons_are_refused_where_tint_refuses_them() {
    let folded = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
const K = 1u & 2u | 3u;
@compute @workgroup_size(1) fn main() { o[0] = K; }";
    let e = crosslane_kernel::wgsl::run_wgsl(folded, wgsl_out(32, 1)).expect_err("mix");
    assert_eq!((e.line, e.col), (2, 14), "{e}");
    assert!(e.to_string().contains("mixing `&` and `|`"), "{e}");

    let compared = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let m = 1u;
  if (i & m != 0u && i > 1u) { o[i] = 1u; }
}";
    let e = crosslane_kernel::wgsl::run_wgsl(compared, wgsl_out(4, 4)).expect_err("mix");
    assert_eq!((e.line, e.col), (4, 9), "{e}");
    assert!(e.to_string().contains("mixing `&` and `!=`"), "{e}");

    // Grouped as WGSL wants: (1 & 2) | 3 = 3; invocations 3 (odd and > 1) store 1.
    let t = run_with(
        &folded.replace("1u & 2u | 3u", "(1u & 2u) | 3u"),
        wgsl_out(32, 1),
    );
    assert_eq!(ints_or_min(&t, "o"), vec![3]);
    let t = run_with(
        &compared.replace("i & m != 0u", "(i & m) != 0u"),
        wgsl_out(4, 4),
    );
    assert_eq!(ints_or_min(&t, "o"), vec![0, 0, 0, 1]);
}

/// WGSL § Memory Layout: `bool` is not host-shareable, so a workgroup struct holding one
/// beside 32-bit members (`struct Inner { b: bool, v: vec4<i32>, f: f32 }`, Tint's
/// `workgroupUniformLoad` structures test) has no layout a buffer must match; each `bool`
/// member with 4 bytes of its own takes a 4-byte cell (non-zero reads true). It was refused:
/// "structs mixing `f16` … (or `bool` with anything) are emulated only as function or private
/// variables". Each invocation writes element `i`, then reads element `3 - i` and `t`.
#[test]
fn a_workgroup_struct_holds_bool_beside_32_bit_members() {
    let src = "struct Inner { b: bool, v: vec4<i32>, f: f32, }
var<workgroup> s: array<Inner, 4>;
var<workgroup> t: Inner;
@group(0) @binding(0) var<storage, read_write> o: array<i32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  s[i].b = (i % 2u) == 1u;
  s[i].v = vec4<i32>(i32(i), 2, 3, 4);
  s[i].f = 0.5 * f32(i);
  if (i == 0u) { t.b = true; t.f = 1.5; }
  workgroupBarrier();
  let j = 3u - i;
  o[i] = select(0, 100, s[j].b) + s[j].v.x * 10 + i32(s[j].f * 2.0)
       + select(0, 1000, t.b) + i32(t.f * 2.0) * 10000;
}";
    // [(100 if (3-i) % 2 else 0) + (3-i)*10 + (3-i) + 1000 + 30000 for i in range(4)]
    let t = run_with(src, wgsl_out(4, 4));
    assert_eq!(ints_or_min(&t, "o"), vec![31133, 31022, 31111, 31000]);

    // Two `bool` members one byte apart (naga's layout) would share a cell: still refused.
    let packed = "struct P { a: bool, b: bool, c: u32 }
var<workgroup> s: P;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() { s.a = true; s.b = false; o[0] = select(0u, 1u, s.a); }";
    let e = crosslane_kernel::wgsl::run_wgsl(packed, wgsl_out(1, 1)).expect_err("refused");
    assert!(e.to_string().contains("closer than 4 bytes"), "{e}");
}

/// WGSL § workgroupUniformLoad: `workgroupUniformLoad(p: ptr<workgroup, T>) -> T` for any
/// constructible `T` (Dawn's tests load vectors, matrices, arrays and structs). A vector,
/// matrix, array or struct result was refused ("a whole vector here is not emulated yet");
/// it is loaded cell by cell after the barrier, directly and from a helper returning it.
/// Invocation 1 writes, every invocation loads after the barrier:
/// o[i] = v.w + m[1].z * 10 + a[4] * 100 + v[i] + s.a + s.b = 4 + 70 + 900 + (i + 1) + 3 + 0.5.
#[test]
fn workgroup_uniform_load_of_vectors_matrices_arrays_and_structs() {
    let src = "struct S { a: u32, b: f32, v: vec4<i32> }
var<workgroup> v: vec4<f32>;
var<workgroup> m: mat2x3<f32>;
var<workgroup> a: array<u32, 5>;
var<workgroup> t: S;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
fn load_s() -> S { return workgroupUniformLoad(&t); }
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 1u) {
    v = vec4<f32>(1.0, 2.0, 3.0, 4.0);
    m[1] = vec3<f32>(5.0, 6.0, 7.0);
    a[4] = 9u;
    t.a = 3u; t.b = 0.5; t.v = vec4<i32>(1, 2, 3, 4);
  }
  let x = workgroupUniformLoad(&v);
  let y = workgroupUniformLoad(&m);
  let z = workgroupUniformLoad(&a);
  let s = load_s();
  o[i] = x.w + y[1].z * 10.0 + f32(z[4]) * 100.0 + x[i] + f32(s.a) + s.b;
}";
    let t = run_with(src, wgsl_out(4, 4));
    assert_eq!(
        crate::support::floats_or_nan(&t, "o"),
        vec![978.5, 979.5, 980.5, 981.5]
    );
}
