//! Module-scope `var<private>` variables (WGSL spec, § 7.3 var Declarations: each invocation
//! has its own instance, initialized with the initializer's value when the invocation starts,
//! else with the zero value of its type), `--override` values reaching no entry parameter, and
//! naga 30's f16 `bitcast` gap. Every expected value is worked out by hand in the comment
//! beside it. Each shader here was checked with Tint (`tint --format wgsl FILE`, Dawn's WGSL
//! compiler); its verdict is recorded beside the shader.

use crate::support::{floats_or_nan as floats, ints_or_min as ints, shader};
use crosslane_core::result::Level;
use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KernelTrace, LaunchConfig};

fn config() -> LaunchConfig {
    LaunchConfig {
        lanes: Some(32),
        grid_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    }
}

fn run_with(src: &str, c: LaunchConfig) -> KernelTrace {
    let t = run_wgsl(src, c).unwrap_or_else(|e| panic!("{e}"));
    let noisy: Vec<String> = t
        .all_diagnostics()
        .filter(|d| matches!(d.level, Level::Warning | Level::Error))
        .map(|d| d.message.clone())
        .collect();
    assert!(noisy.is_empty(), "{noisy:#?}");
    t
}

fn run(src: &str) -> KernelTrace {
    run_with(src, config())
}

#[test]
fn a_private_lookup_table_holds_its_initializer() {
    // The tester's shader. Tint: accepted.
    let src = "var<private> LUT : array<f32, 4> = array<f32, 4>(1.0, 2.0, 3.0, 4.0);
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li : u32) { o[li] = LUT[li] + LUT[2]; }
";
    // o[i] = LUT[i] + LUT[2] = (i + 1) + 3.
    assert_eq!(floats(&run(src), "o"), [4.0, 5.0, 6.0, 7.0]);
}

#[test]
fn private_variables_without_an_initializer_start_as_zeros() {
    // Tint: accepted. Each of an array, a vector, a scalar and a struct reads 0 (the zero
    // value), in every invocation.
    let src = "struct S { a: u32, v: vec3<f32> }
var<private> Z : array<f32, 4>;
var<private> V : vec3<f32>;
var<private> X : f32;
var<private> P : S;
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li : u32) { o[li] = Z[li] + V.y + X + f32(P.a) + P.v.z; }
";
    assert_eq!(floats(&run(src), "o"), [0.0; 4]);
}

#[test]
fn initialized_private_vectors_matrices_structs_and_arrays() {
    // Tint: accepted.
    let src = "struct S { a : u32, v : vec3<f32>, m : mat2x2<f32> }
const C = vec2<f32>(5.0, 6.0);
var<private> V : vec4<f32> = vec4<f32>(C, 7.0, 8.0);
var<private> M : mat2x2<f32> = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
var<private> P : S = S(9u, vec3<f32>(10.0, 11.0, 12.0), mat2x2<f32>(vec2(13.0, 14.0), vec2(15.0, 16.0)));
var<private> A3 : array<vec3<f32>, 2> = array(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0));
var<private> AI : array<i32, 3> = array<i32, 3>(-1, 0x7fffffff, 3);
var<private> SP : vec3<u32> = vec3<u32>(4u);
var<private> X : f32 = 2.5;
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(1)
fn main() {
  o[0] = V.x; o[1] = V.y; o[2] = V.z; o[3] = V.w;
  o[4] = M[1][0]; o[5] = (M * vec2(1.0, 1.0)).y;
  o[6] = f32(P.a); o[7] = P.v.z; o[8] = P.m[1][1];
  o[9] = A3[1].y; o[10] = f32(AI[0]); o[11] = f32(AI[1] + 1);
  o[12] = f32(SP.z); o[13] = X;
  V.x = 100.0; A3[0].x = 50.0;
  o[14] = V.x + A3[0].x;
  o[15] = A3[0].z;
}
";
    let mut c = config();
    c.buffer_len.insert("o".into(), 16);
    let t = run_with(src, c);
    // V = (C.x, C.y, 7, 8) = (5, 6, 7, 8). M's columns are (1, 2) and (3, 4): M[1][0] = 3 and
    // M * (1, 1) = column 0 + column 1 = (4, 6). P.a = 9, P.v.z = 12, P.m[1][1] = 16.
    // A3[1].y = 5. AI[0] = -1; AI[1] + 1 = i32::MAX + 1 wraps to -2^31 (WGSL § Arithmetic
    // Expressions). SP = vec3(4u) splats 4. X = 2.5. After the stores, 100 + 50 = 150, and
    // A3[0].z keeps 3 (its vec3's padding cell, cell 3, is never read).
    assert_eq!(
        floats(&t, "o"),
        [
            5.0,
            6.0,
            7.0,
            8.0,
            3.0,
            6.0,
            9.0,
            12.0,
            16.0,
            5.0,
            -1.0,
            -2147483648.0,
            4.0,
            2.5,
            150.0,
            3.0
        ]
    );
}

#[test]
fn each_invocation_has_its_own_private_instance() {
    // examples_wgsl/private_init.wgsl (Tint: accepted; lavapipe matches every cell,
    // LAVAPIPE.md). codes[i] = i (the default fill), c = (3i + 5) & 15 = 5, 8, 11, 14, 1, 4,
    // 7, 10; LUT[c] = (c - 8) / 8; deq = LUT[c] * 2 + 0.5.
    let t = run(&shader("private_init.wgsl"));
    let want: Vec<f64> = (0..8u32)
        .map(|i| {
            let c = (3 * i + 5) & 15;
            (c as f64 - 8.0) / 8.0 * 2.0 + 0.5
        })
        .collect();
    assert_eq!(floats(&t, "deq"), want);
    assert_eq!(want, [-0.25, 0.5, 1.25, 2.0, -1.25, -0.5, 0.25, 1.0]);
    // Each invocation counts twice into its own zeroed HITS (sum 2) and adds c + i into its
    // own SEEN.y; ROT * (AXIS.x, AXIS.z) = (0, 1) * 1 + (-1, 0) * 3 = (-3, 1); shift 4,
    // bias.y -0.5: misc = 2000 + 10 (c + i) + 1 + 3 + 1 + 1. Shared instances would count
    // every invocation's calls.
    let want: Vec<f64> = (0..8u32)
        .map(|i| 2006.0 + 10.0 * (((3 * i + 5) & 15) + i) as f64)
        .collect();
    assert_eq!(floats(&t, "misc"), want);
}

#[test]
fn a_private_initializer_may_read_an_override() {
    // Tint: accepted (a module-scope initializer is a const- or override-expression).
    let src = "override K : f32 = 3.0;
var<private> OK : array<f32, 2> = array<f32, 2>(K, 1.0);
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li : u32) { o[li] = OK[li] + OK[0]; }
";
    // K = 3: o = (3 + 3, 1 + 3).
    assert_eq!(floats(&run(src), "o"), [6.0, 4.0]);
    // K = 0.5 from the launch: o = (0.5 + 0.5, 1 + 0.5); and no warning that `K` names no
    // parameter of `main` (`run_with` fails on any warning).
    let mut c = config();
    c.args.insert("K".into(), "0.5".into());
    assert_eq!(floats(&run_with(src, c), "o"), [1.0, 1.5]);
    // Tint: accepted. An override without a value is an error only where it is used; a
    // private variable the entry point never uses does not use it: o[0] = 5.
    let src = "override N: u32;
var<private> X: u32 = N;
@group(0) @binding(0) var<storage, read_write> o : array<u32>;
@compute @workgroup_size(1)
fn main() { o[0] = 5u; }
";
    assert_eq!(ints(&run(src), "o"), [5]);
}

#[test]
fn an_override_by_id_is_no_unused_argument() {
    // Tint: accepted. `@id(7)` set as `7=77`: o[i] = 77 + i, and no warning.
    let src = "@id(7) override NCOLS : u32 = 4u;
@group(0) @binding(0) var<storage, read_write> o : array<u32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li : u32) { o[li] = NCOLS + li; }
";
    let mut c = config();
    c.args.insert("7".into(), "77".into());
    assert_eq!(ints(&run_with(src, c), "o"), [77, 78]);
    let mut c = config();
    c.args.insert("NCOLS".into(), "77".into());
    assert_eq!(ints(&run_with(src, c), "o"), [77, 78]);
}

#[test]
fn an_f16_vector_bitcast_is_refused_at_the_call_with_what_to_write() {
    // Tint: accepted (WGSL § 17.2 allows bitcast<u32>(vec2<f16>)). naga 30 lowers it to a
    // same-width bitcast, `vec2<u16>`, and refuses the shader; the error names the call.
    let src = "enable f16;
@group(0) @binding(0) var<storage, read_write> o : array<u32>;
@compute @workgroup_size(1)
fn main() {
  let h = vec2<f16>(1.0h, -2.0h);
  o[0] = bitcast<u32>(h);
}
";
    let e = run_wgsl(src, config()).expect_err("naga refuses it");
    assert_eq!((e.line, e.col), (6, 10), "{e}");
    assert!(e.to_string().contains("pack2x16float(vec2<f32>(v))"), "{e}");
    // The form it names gives the bits WGSL defines: 1.0h is 0x3C00 (component 0, the low
    // half), -2.0h is 0xC000: 0xC000_3C00.
    let fixed = src.replace("bitcast<u32>(h)", "pack2x16float(vec2<f32>(h))");
    assert_eq!(ints(&run(&fixed), "o"), [0xC000_3C00]);
    // The other direction, and vec4<f16> to vec2<u32> (Tint: both accepted).
    for body in [
        "let h = bitcast<vec2<f16>>(o[0]); o[1] = u32(h.x);",
        "let v = bitcast<vec2<u32>>(vec4<f16>(1.0h, 2.0h, 3.0h, 4.0h)); o[0] = v.x;",
    ] {
        let s = format!(
            "enable f16;\n@group(0) @binding(0) var<storage, read_write> o : array<u32>;\n\
             @compute @workgroup_size(1)\nfn main() {{ {body} }}\n"
        );
        let e = run_wgsl(&s, config()).expect_err("naga refuses it");
        assert_eq!((e.line, e.col), (4, 21), "{e}");
        assert!(e.to_string().contains("unpack2x16float"), "{e}");
    }
}

#[test]
fn function_and_private_structs_mix_f16_with_4_byte_scalars() {
    // Tint: accepted; lavapipe (`crosslane run FILE --gpu`) matches all 10 cells. P's layout
    // (WGSL § 13.4 Memory Layout, f16 size and alignment 2): a @0, b @2, n @4, v @8, x @16,
    // m @20.
    let src = "enable f16;
struct P { a : f16, b : f16, n : u32, v : vec3<f16>, x : f32, m : mat2x2<f16> }
var<private> G : P = P(0.25h, 0.5h, 3u, vec3<f16>(1.0h, 2.0h, 3.0h), -1.5, mat2x2<f16>(1.0h, 2.0h, 3.0h, 4.0h));
fn bump(q : ptr<function, P>) { (*q).n += 10u; (*q).v.z = (*q).b; }
fn make(k : u32) -> P { return P(f16(k), 1.0h, k * 2u, vec3<f16>(0.0h), f32(k) + 0.5, mat2x2<f16>()); }
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(1)
fn main() {
  var p = P(1.5h, 2.0h, 7u, vec3<f16>(4.0h, 5.0h, 6.0h), 8.0, mat2x2<f16>(vec2<f16>(9.0h, 10.0h), vec2<f16>(11.0h, 12.0h)));
  p.n += 1u;
  let q = P(0.5h, p.a, p.n, p.v.zyx, p.x * 2.0, p.m);
  bump(&p);
  let r = make(5u);
  o[0] = f32(p.a) + f32(p.b); o[1] = f32(p.n); o[2] = f32(q.b); o[3] = f32(q.n);
  o[4] = f32(q.v.x); o[5] = q.x; o[6] = f32(q.m[1][0]); o[7] = f32(p.v.z);
  o[8] = f32(G.a + G.b) + f32(G.n) + G.x + f32(G.v.y) + f32(G.m[1][1]);
  o[9] = f32(r.a) + f32(r.n) + r.x;
}
";
    let mut c = config();
    c.buffer_len.insert("o".into(), 10);
    // p.n = 7 + 1 = 8, then bump: 18 and p.v.z = p.b = 2. q = (0.5, 1.5, 8, (6, 5, 4), 16,
    // p.m) with q.m[1][0] = 11. G: 0.25 + 0.5 + 3 - 1.5 + 2 + 4 = 8.25. r = make(5):
    // 5 + 10 + 5.5 = 20.5.
    assert_eq!(
        floats(&run_with(src, c), "o"),
        [3.5, 18.0, 1.5, 8.0, 6.0, 16.0, 11.0, 2.0, 8.25, 20.5]
    );
    // An element chosen at run time (Tint: accepted): invocation i stores n = 7 at v[i] and
    // reads the other: o[0] = 5 + 7 * 10, o[1] = 4 + 4 * 10.
    let src = "enable f16;
struct P { a : f16, n : u32, v : vec2<f16> }
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i : u32) {
  var p = P(1.5h, 7u, vec2<f16>(4.0h, 5.0h));
  p.v[i] = f16(p.n);
  o[i] = f32(p.v[i ^ 1u]) + f32(p.v.x) * 10.0;
}
";
    assert_eq!(floats(&run(src), "o"), [75.0, 44.0]);
}

#[test]
fn a_buffer_of_a_struct_mixing_f16_and_u32_runs() {
    // Tint: accepted. P { a: f16, b: f16, n: u32 } (WGSL § Alignment and Size): a at 0, b at
    // 2, n at 4, size 8: four 2-byte cells per element, n in cells 2 and 3 (low half first).
    // The default fill gives cell c the value c in its member's type: n = 2 and 6 (two
    // invocations); each adds 1: 3 and 7, whose low halves are cells 2 and 6 (the high
    // halves, cells 3 and 7, are 0).
    let src = "enable f16;
struct P { a : f16, b : f16, n : u32 }
@group(0) @binding(0) var<storage, read_write> p : array<P>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li : u32) { p[li].n = p[li].n + 1u; }
";
    let t = run(src);
    let cells: Vec<Option<i128>> = t
        .buffer("p")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(crosslane_kernel::KVal::as_int))
        .collect();
    assert_eq!(
        [cells[2], cells[3], cells[6], cells[7]],
        [Some(3), Some(0), Some(7), Some(0)]
    );
    // A 4-byte vector beside an f16 member is refused in a function variable.
    let src = "enable f16;
struct Q { a : f16, v : vec2<f32> }
@group(0) @binding(0) var<storage, read_write> o : array<f32>;
@compute @workgroup_size(1)
fn main() { var q = Q(1.0h, vec2<f32>(2.0, 3.0)); o[0] = q.v.y; }
";
    let e = run_wgsl(src, config()).expect_err("refused").to_string();
    assert!(e.contains("4-byte vectors"), "{e}");
}
