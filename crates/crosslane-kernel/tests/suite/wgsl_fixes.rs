//! WGSL shaders a tester found giving wrong values: function variables of one name in sibling
//! scopes, signed atomics in mixed structs, mixed-type struct buffer fills, run-time indexing
//! of constant arrays, whole-vector built-in results. Every expected value is worked out by
//! hand in the comment beside it (WGSL spec sections named per test), never copied from the
//! emulator's output.

use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

fn config(fills: &[(&str, &str)], len: &[(&str, usize)]) -> LaunchConfig {
    let mut c = LaunchConfig {
        lanes: Some(32),
        grid_dim: Some([1, 1, 1]),
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

use crate::support::wgsl_no_errors as run_with;

use crate::support::ints_or_min as ints;

/// WGSL § Declaration and Scope: each `var` declaration is its own variable, even where two in
/// sibling scopes share a name (naga hoists both to the function's locals).
#[test]
fn sibling_vars_of_one_name_are_two_variables() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  var n = 0u;
  for (var d = 0u; d < 3u; d++) { n += 1u; }
  for (var d = 0u; d < 4u; d++) { n += 10u; }
  o[0] = n;
}";
    // The first loop runs d = 0, 1, 2 (3 × 1); the second d = 0..3 afresh (4 × 10): 43.
    // (One shared `d` left at 3 gave 3 + 10 = 13.)
    let t = run_with(src, config(&[("o", "zero")], &[("o", 1)]));
    assert_eq!(ints(&t, "o"), vec![43]);

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  var n = 0u;
  { var x = 1u; x += 1u; n += x; }
  o[0] = n;
  { var x = 5u; n += x * 10u; }
  o[1] = n;
}";
    // First block: x = 1 + 1 = 2, n = 2. Second: its own x = 5, n = 2 + 50 = 52.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 2)]));
    assert_eq!(ints(&t, "o"), vec![2, 52]);

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  var n = 0u;
  for (var d = 8u; d > 0u; d >>= 1u) { n += 1u; }
  for (var d = 1u; d < 100u; d *= 2u) { n += 10u; }
  o[0] = n;
}";
    // d = 8, 4, 2, 1: 4 passes; then d = 1, 2, 4, 8, 16, 32, 64: 7 passes: 4 + 70 = 74.
    // (A shared d left at 0 never reached 100: the run went on to the work limit.)
    let t = run_with(src, config(&[("o", "zero")], &[("o", 1)]));
    assert_eq!(ints(&t, "o"), vec![74]);
}

/// WGSL § Declaration and Scope: a `var` or `let` in an inner scope hides an outer `let` of
/// the same name only inside that scope.
#[test]
fn inner_var_and_let_hide_an_outer_let_only_inside() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(2) fn main(@builtin(local_invocation_id) l: vec3<u32>) {
  let x = l.x + 1u;
  { var x = 7u; x += 1u; o[4u * l.x] = x; }
  o[4u * l.x + 1u] = x;
  { let x = l.x * 3u; o[4u * l.x + 2u] = x; }
  o[4u * l.x + 3u] = x;
}";
    // Invocation i: the inner var is 7 + 1 = 8; the outer let is i + 1; the inner let 3i.
    // i = 0: 8, 1, 0, 1. i = 1: 8, 2, 3, 2.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 8)]));
    assert_eq!(ints(&t, "o"), vec![8, 1, 0, 1, 8, 2, 3, 2]);

    // A helper's var of a module-scope variable's name hides it only after its declaration.
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
var<private> k: u32 = 5u;
fn f() -> u32 {
  let a = k;
  var r = 0u;
  { var k = 100u; r = k; }
  return a + r + k;
}
@compute @workgroup_size(1) fn main() {
  o[0] = f();
}";
    // a = the private k (5); r = the inner k (100); then the private k again: 5 + 100 + 5.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 1)]));
    assert_eq!(ints(&t, "o"), vec![110]);

    // A var of a parameter's name in a helper's inner block; a loop variable of the outer
    // loop's name in an inner loop (Dawn's tint accepts both: `tint --format wgsl`, exit 0).
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
fn f(a: u32) -> u32 { var r = a; { var a = 5u; r += a; } return r + a; }
@compute @workgroup_size(1) fn main() {
  var t = 0u;
  for (var i = 0u; i < 2u; i++) {
    var acc = 1u;
    for (var i = 0u; i < 3u; i++) { acc *= 2u; }
    t += acc;
  }
  o[0] = f(2u);
  o[1] = t;
}";
    // f(2): r = 2, plus the inner a (5) = 7, plus the parameter a (2) = 9. The outer loop runs
    // twice, each time acc = 2^3 = 8 (the inner i starts at 0 each pass): t = 16.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 2)]));
    assert_eq!(ints(&t, "o"), vec![9, 16]);
}

/// WGSL § Atomic Read-modify-write: `atomicMax`/`atomicMin` on an `atomic<i32>` compare as
/// i32, also when it sits in a struct beside an `atomic<u32>` (a buffer held as u32 bits).
#[test]
fn signed_atomics_in_a_struct_mixing_i32_and_u32_compare_signed() {
    let src = "struct S { mx: atomic<i32>, mn: atomic<i32>, cnt: atomic<u32>, }
@group(0) @binding(0) var<storage, read_write> o: S;
@group(0) @binding(1) var<storage, read_write> old: array<i32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let v = i32(g.x) - 2;
  atomicMax(&o.mx, v);
  old[g.x] = atomicMin(&o.mn, v);
  atomicAdd(&o.cnt, 1u);
}";
    // v = -2, -1, 0, 1 in invocation order (the engine applies them in lane order).
    // max(0, -2, -1, 0, 1) = 1; min(0, …) = -2; cnt = 4. atomicMin returns the value before
    // each: 0 (first), then -2 for the other three. (Unsigned, -1 = 0xFFFFFFFF was the max and
    // 0 the min.)
    let t = run_with(
        src,
        config(&[("o", "0,0,0"), ("old", "zero")], &[("old", 4)]),
    );
    let o = t.buffer("o").unwrap();
    let member = |k: usize| o[k].as_ref().and_then(KVal::as_int).unwrap();
    // The cells hold u32 bits: -2 is 2^32 - 2 there, read back as i32 by the member.
    assert_eq!(member(0), 1);
    assert_eq!(member(1) as u32 as i32, -2);
    assert_eq!(member(2), 4);
    assert_eq!(ints(&t, "old"), vec![0, -2, -2, -2]);

    let src = "struct S { mx: atomic<i32>, cnt: atomic<u32>, }
var<workgroup> w: S;
@group(0) @binding(0) var<storage, read_write> o: array<i32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let v = i32(i) - 2;
  atomicMax(&w.mx, v);
  atomicAdd(&w.cnt, 1u);
  workgroupBarrier();
  if (i == 0u) { o[0] = atomicLoad(&w.mx); o[1] = i32(atomicLoad(&w.cnt)); }
}";
    // Workgroup memory starts zeroed: max(0, -2, -1, 0, 1) = 1; cnt = 4.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 2)]));
    assert_eq!(ints(&t, "o"), vec![1, 4]);
}

fn floats(t: &KernelTrace, name: &str) -> Vec<f64> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).unwrap_or(f64::NAN))
        .collect()
}

const MIXED: &str = "struct M { a: u32, b: f32, c: i32 }
@group(0) @binding(0) var<storage, read_write> m: array<M>;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let e = m[g.x];
  o[g.x] = f32(e.a) + e.b * 100.0 + f32(e.c) * 10000.0;
}";

/// WGSL § Memory Layout: `struct M { a: u32, b: f32, c: i32 }` is 12 bytes, members at 0, 4
/// and 8 (three cells per element, no padding). Each fill value is the value of its member's
/// type: `3` in `b` is 3.0, `-4` in `c` is -4.
#[test]
fn a_mixed_struct_buffer_is_filled_member_by_member() {
    let fill = "3,3,7,4,6.5,14,5,-4,10,6,1,-110";
    let t = run_with(
        MIXED,
        config(&[("m", fill), ("o", "zero")], &[("m", 12), ("o", 4)]),
    );
    // o = a + 100 b + 10000 c per element:
    // (3, 3.0, 7): 3 + 300 + 70000 = 70303; (4, 6.5, 14): 4 + 650 + 140000 = 140654;
    // (5, -4.0, 10): 5 - 400 + 100000 = 99605; (6, 1.0, -110): 6 + 100 - 1100000 = -1099894.
    assert_eq!(
        floats(&t, "o"),
        vec![70303.0, 140654.0, 99605.0, -1_099_894.0]
    );
    // The cells hold the members' bits: 3.0f32 is 0x40400000 = 1077936128; -110 as i32 bits
    // is 2^32 - 110 = 4294967186.
    let m = t.buffer("m").unwrap();
    let bits = |k: usize| m[k].as_ref().and_then(KVal::as_int).unwrap();
    assert_eq!(bits(1), 1_077_936_128);
    assert_eq!(bits(11), 4_294_967_186);

    // The default fill `index`: cell c holds c as its member's type: element e is
    // (3e, 3e + 1, 3e + 2), so o = 3e + 100 (3e + 1) + 10000 (3e + 2) = 30303 e + 20100.
    let t = run_with(MIXED, config(&[("o", "zero")], &[("m", 12), ("o", 4)]));
    assert_eq!(floats(&t, "o"), vec![20100.0, 50403.0, 80706.0, 111009.0]);

    // A decimal in the u32 member is refused, naming the cell and its member type.
    let e = run_wgsl(
        MIXED,
        config(
            &[("m", "1.5,0,0,0,0,0,0,0,0,0,0,0")],
            &[("m", 12), ("o", 4)],
        ),
    )
    .expect_err("1.5 is no u32");
    assert!(e.to_string().contains("cell 0 (u32 member)"), "{e}");
}

/// WGSL § Array Access Expression: an element of an array value (a `let` or a module `const`
/// lookup table) chosen by an index known only at run time.
#[test]
fn let_and_const_arrays_indexed_at_run_time() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
const T = array<u32, 4>(10u, 20u, 30u, 40u);
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let lut = array<u32, 4>(1u, 2u, 3u, 4u);
  let own = array<u32, 4>(i, 2u * i, 3u, 4u);
  o[i] = lut[3u - i] + T[i] + 100u * own[(i + 1u) % 4u];
}";
    // lut[3 - i] = 4 - i; T[i] = 10 (i + 1); own[(i + 1) % 4] = 2i, 3, 4, 3 (own[0] = i = 3).
    // i = 0: 4 + 10 + 0 = 14; i = 1: 3 + 20 + 300 = 323; i = 2: 2 + 30 + 400 = 432;
    // i = 3: 1 + 40 + 300 = 341.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 4)]));
    assert_eq!(ints(&t, "o"), vec![14, 323, 432, 341]);

    let src = "struct P { a: u32, v: vec2<f32> }
const PS = array<P, 3>(P(1u, vec2(0.5, 1.5)), P(2u, vec2(2.5, 3.5)), P(3u, vec2(4.5, 5.5)));
const V = vec4<f32>(vec2(1.0, 2.0), 3.0, 4.0);
const M = mat2x2<f32>(vec2(1.0, 2.0), vec2(3.0, 4.0));
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  let j = i % 3u;
  o[i] = f32(PS[j].a) * 100.0 + PS[j].v.y * 10.0 + V[i] + M[i % 2u][1];
}";
    // P is { a @0, v @8 } (vec2<f32> aligns to 8): 4 cells, one padding. Per i (j = i % 3):
    // 100 a + 10 v.y + V[i] + M[i % 2][1] (column i % 2, row 1: 2 or 4).
    // i = 0: 100 + 15 + 1 + 2 = 118; i = 1: 200 + 35 + 2 + 4 = 241;
    // i = 2: 300 + 55 + 3 + 2 = 360; i = 3: 100 + 15 + 4 + 4 = 123.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 4)]));
    assert_eq!(floats(&t, "o"), vec![118.0, 241.0, 360.0, 123.0]);

    // A 300-element table: element k = 7k mod 1000, read at 97i + 5 (a select tree of depth
    // ⌈log2 300⌉ = 9, not a chain of 300).
    let table: Vec<String> = (0..300).map(|k| format!("{}u", k * 7 % 1000)).collect();
    let src = format!(
        "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
const T = array<u32, 300>({});
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {{
  o[i] = T[i * 97u + 5u];
}}",
        table.join(",")
    );
    // Python: [((i*97+5)*7) % 1000 for i in range(4)] == [35, 714, 393, 72].
    let t = run_with(&src, config(&[("o", "zero")], &[("o", 4)]));
    assert_eq!(ints(&t, "o"), vec![35, 714, 393, 72]);
}

fn run_lanes(
    src: &str,
    lanes: usize,
    fills: &[(&str, &str)],
    len: &[(&str, usize)],
) -> KernelTrace {
    let mut c = config(fills, len);
    c.lanes = Some(lanes);
    run_with(src, c)
}

/// WGSL § subgroupBallot: a `vec4<u32>` whose bit `id % 32` of component `id / 32` is set
/// for each active invocation whose predicate is true. Stored whole, assigned to a `var`,
/// passed to a helper, and used in vector arithmetic and swizzles like any vec4<u32>.
#[test]
fn whole_ballot_results_are_stored_assigned_and_passed() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> q: array<u32>;
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {
  let p = (i % 3u) == 0u;
  o[i] = subgroupBallot(p);
  let b = subgroupBallot(i < 5u);
  var w: vec4<u32>;
  w = b;
  q[i] = w.x + w.y + b.x * 1000u;
}";
    // Subgroup size 4: invocations 0..3 and 4..7. p holds at i = 0, 3 (lanes 0, 3: 1 + 8 = 9)
    // and at i = 6 (lane 2 of the second: 4). i < 5: lanes 0..3 of the first (15), lane 0
    // of the second (1): q = 15 + 0 + 15000 = 15015, then 1 + 0 + 1000 = 1001.
    let t = run_lanes(
        src,
        4,
        &[("o", "zero"), ("q", "zero")],
        &[("o", 32), ("q", 8)],
    );
    let mut o = Vec::new();
    for i in 0..8 {
        o.extend([if i < 4 { 9 } else { 4 }, 0, 0, 0]);
    }
    assert_eq!(ints(&t, "o"), o);
    assert_eq!(
        ints(&t, "q"),
        vec![15015, 15015, 15015, 15015, 1001, 1001, 1001, 1001]
    );

    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> q: array<u32>;
fn total(v: vec4<u32>) -> u32 { return countOneBits(v.x) + countOneBits(v.y) + v.z + v.w; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let b = subgroupBallot(i >= 30u);
  o[i] = b;
  let m = subgroupBallot(i % 2u == 0u) & vec4<u32>(0xffu, 0xf0u, 0u, 0u);
  q[i] = total(b) * 1000u + m.x + m.y + b.yx.x % 7u;
}";
    // Subgroup size 64: b.x has bits 30, 31 (0xC0000000 = 3221225472), b.y all 32 bits
    // (4294967295), z = w = 0. total(b) = 2 + 32 = 34. The even invocations' ballot is
    // 0x55555555 in x and y: masked, 0x55 = 85 and 0x50 = 80. b.yx.x = b.y; 4294967295 % 7
    // = 3. q = 34000 + 85 + 80 + 3 = 34168.
    let t = run_lanes(
        src,
        64,
        &[("o", "zero"), ("q", "zero")],
        &[("o", 256), ("q", 64)],
    );
    let o = ints(&t, "o");
    for i in 0..64 {
        assert_eq!(
            o[4 * i..4 * i + 4],
            [3_221_225_472, 4_294_967_295, 0, 0],
            "o[{i}]"
        );
    }
    assert_eq!(ints(&t, "q"), vec![34168; 64]);
}

/// `f32(i) + mix(1.0, 3.0, 0.25)` is valid WGSL (§ Abstract Numeric Types: the abstract result
/// converts to f32). Dawn's verdict, `tint --format wgsl` on each shader below: accepted
/// (exit 0), the untyped and the typed forms alike. naga 30 refuses the untyped one: its
/// overloads give `mix` and `smoothstep` abstract forms its constant evaluator does not
/// evaluate (gfx-rs/wgpu#7405, open), and naga has no option for it. The refusal says what
/// to write; the typed form runs.
#[test]
fn abstract_mix_beside_a_runtime_value_says_what_to_write() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  o[i] = f32(i) + mix(1.0, 3.0, 0.25);
}";
    let e = run_wgsl(src, config(&[("o", "zero")], &[("o", 4)])).expect_err("naga 30 refuses it");
    let m = e.to_string();
    assert!(
        m.contains("write the literals typed: `mix(1.0f, 3.0f, 0.25f)`"),
        "{m}"
    );
    assert!(m.contains("gfx-rs/wgpu#7405"), "{m}");
    assert_eq!((e.line, e.col), (3, 23));

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  o[i] = f32(i) + mix(1.0f, 3.0f, 0.25f) + smoothstep(0.0f, 2.0f, 0.5f);
}";
    // WGSL § mix: e1 (1 - e3) + e2 e3 = 0.75 + 0.75 = 1.5. § smoothstep: t = clamp((0.5 - 0)
    // / 2, 0, 1) = 0.25; t² (3 - 2t) = 0.0625 · 2.5 = 0.15625. Both exact in f32.
    let t = run_with(src, config(&[("o", "zero")], &[("o", 4)]));
    assert_eq!(floats(&t, "o"), vec![1.65625, 2.65625, 3.65625, 4.65625]);
}

#[test]
fn a_const_array_of_a_million_elements_is_refused_before_naga_builds_it() {
    // 300 000 elements are 600 000 tokens (a value and a comma each), past the default token
    // limit of 2 000 000 over 8 = 250 000 for one module-scope declaration; the message names
    // the limit and the flag that raises it.
    let n = 300_000;
    let src = format!(
        "const T = array<u32, {n}>({});\n\
         @group(0) @binding(0) var<storage, read_write> o: array<u32>;\n\
         @compute @workgroup_size(1)\nfn main() {{ o[0] = T[5]; }}\n",
        vec!["1u"; n].join(",")
    );
    let e = run_wgsl(&src, config(&[], &[("o", 1)])).expect_err("refused");
    let m = e.to_string();
    assert!(m.contains("longer than 250000 tokens"), "{m}");
    assert!(m.contains("--max-tokens"), "{m}");
}
