//! WGSL matrices, nested structs and arrays, pointer parameters and overrides: buffer cells
//! laid out per WGSL § Alignment and Size (offsets worked out by hand below each test),
//! values derived from the math (by hand or computed here in f64), never from the
//! emulator's output. Read-only inputs keep the default fill: cell c holds c. Each shader
//! also ran on lavapipe (`crosslane run FILE --gpu`); the verdicts are in
//! examples_wgsl/LAVAPIPE.md.

use crate::support::{floats_or_nan as floats, ints_or_min as ints, shader};
use crosslane_kernel::wgsl::{prepare, run_wgsl};
use crosslane_kernel::{KernelTrace, LaunchConfig};

fn config() -> LaunchConfig {
    LaunchConfig {
        lanes: Some(32),
        grid_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    }
}

use crate::support::wgsl_no_errors as run_with;

fn run(src: &str) -> KernelTrace {
    run_with(src, config())
}

#[test]
fn matrices_multiply_transpose_and_determinant_as_the_spec_defines() {
    let t = run(&shader("matrices.wgsl"));
    // Xf { m: mat4x3<f32> @0 (4 columns of vec3, 16 bytes apart), s: f32 @64 }, 80 bytes.
    // Fill: column c of m is (4c, 4c+1, 4c+2); s = 16.
    let col = |c: usize| [4.0 * c as f64, 4.0 * c as f64 + 1.0, 4.0 * c as f64 + 2.0];
    // outv[i] (vec3, 16-byte stride) = (m * v[i]) * 16, v[i] = (4i .. 4i+3).
    let outv = floats(&t, "outv");
    for i in 0..4 {
        for r in 0..3 {
            let want: f64 = (0..4).map(|c| col(c)[r] * (4 * i + c) as f64).sum::<f64>() * 16.0;
            assert_eq!(outv[4 * i + r], want, "outv[{i}][{r}]");
        }
        assert_eq!(
            outv[4 * i + 3],
            (4 * i + 3) as f64,
            "padding keeps its fill"
        );
    }
    // a = [[1,2],[3,4]] (columns), b = [[5,6],[7,8]]: a*b columns (23,34), (31,46);
    // det(a) = 1*4 - 3*2 = -2; transpose(m)[2].w = m[3][2] = 14; the 3x3 with rows
    // (2,0,1),(1,3,2),(1,1,1) has determinant 2*1 - 0 + 1*(-2) = 0; b with b[1][0] = 9 is
    // [[5,6],[9,8]], (1,1) * it = (11, 17); a[1].x = 3; misc[7] keeps its fill.
    assert_eq!(
        floats(&t, "misc"),
        [23.0, 46.0, -2.0, 14.0, 0.0, 17.0, 3.0, 7.0]
    );
    // mout = 2 * [[5,6],[9,8]], through a helper taking and returning a matrix.
    assert_eq!(floats(&t, "mout"), [10.0, 12.0, 18.0, 16.0]);
}

#[test]
fn matrix_and_struct_buffers_mark_their_padding() {
    let p = prepare(&shader("matrices.wgsl"), &config()).unwrap_or_else(|e| panic!("{e}"));
    let xf = p.bindings.iter().find(|b| b.name == "xf").unwrap();
    assert_eq!(xf.fixed_len, Some(20));
    let pads: Vec<usize> = (0..20).filter(|&c| xf.is_padding(c)).collect();
    // mat4x3: cell 3 of each 4-cell column; the struct rounds 68 bytes up to 80.
    assert_eq!(pads, [3, 7, 11, 15, 17, 18, 19]);
    let outv = p.bindings.iter().find(|b| b.name == "outv").unwrap();
    assert!(outv.is_padding(3) && outv.is_padding(7) && !outv.is_padding(4));
}

#[test]
fn nested_structs_runtime_tails_and_pointer_parameters() {
    let t = run(&shader("nested_structs.wgsl"));
    // Inner { w: vec3<f32> @0, k: u32 @12 } 16 bytes; Cell { id @0, inner @16, hist:
    // array<u32, 3> @32 } 48 bytes (44 rounded to 16); Grid { count @0, scale @4, cells @16 }:
    // 4 head cells, then 12 per Cell. Four invocations: 4 + 48 cells, arrayLength = 4.
    let g = ints(&t, "grid");
    assert_eq!(g.len(), 52);
    assert_eq!(g[0], 4, "count = arrayLength(&grid.cells)");
    assert_eq!(g[1], i128::from(1.0f32.to_bits()), "scale = 4 * 0.25");
    for i in 0..4usize {
        let b = 4 + 12 * i;
        let fill = |c: usize| c as i128;
        assert_eq!(
            g[b],
            fill(b) + i as i128 + 1,
            "id += i + 1 through a pointer"
        );
        let w = [i as f32, 1.0, 2.0].map(|x| i128::from(x.to_bits()));
        assert_eq!(g[b + 4..b + 7], w, "inner.w");
        assert_eq!(g[b + 7], 4, "inner.k = arrayLength");
        assert_eq!(
            g[b + 8..b + 11],
            [fill(b + 8), fill(b + 9), i as i128 + 1],
            "hist[2] = i + 1"
        );
    }
    // out[0] = 3 * 2 + 0.5 (function and private pointers); out[1] = tile[2][2] +
    // tile[3][0] = (2 + 10) + (0 + 10); out[2] = |(3, 1, 2)|^2 = 14; out[3] = cell 1's
    // inner.k + hist[2] + id = 4 + 2 + (16 + 2).
    assert_eq!(
        floats(&t, "out"),
        [6.5, 22.0, 14.0, 24.0, 4.0, 5.0, 6.0, 7.0]
    );
}

#[test]
fn a_runtime_tail_takes_its_length_from_the_buffer_length() {
    // --buffer grid:28 = 4 head cells + 2 Cells of 12: arrayLength(&grid.cells) = 2.
    let mut c = config();
    c.buffer_len.insert("grid".into(), 28);
    let src = shader("nested_structs.wgsl").replace("@workgroup_size(4)", "@workgroup_size(2)");
    let t = run_with(&src, c);
    assert_eq!(ints(&t, "grid")[0], 2);
    let p = prepare(&shader("nested_structs.wgsl"), &config()).unwrap_or_else(|e| panic!("{e}"));
    let b = p.bindings.iter().find(|b| b.name == "grid").unwrap();
    assert_eq!((b.fixed_len, b.head, b.components), (None, 4, 12));
    assert!(b.is_padding(2) && b.is_padding(3) && b.is_padding(5) && b.is_padding(15));
    assert!(!b.is_padding(4) && !b.is_padding(11) && !b.is_padding(16));
}

#[test]
fn override_expressions_size_the_workgroup_and_its_arrays() {
    // WG = 8, HALF = WG / 2 = 4, SCALE = 1.5: out[i] = tile[(i + 4) % 8] = 1.5 ((i + 4) % 8).
    let src = shader("overrides.wgsl");
    let t = run(&src);
    let want: Vec<f64> = (0..8).map(|i| 1.5 * ((i + 4) % 8) as f64).collect();
    assert_eq!(floats(&t, "out"), want);
    assert_eq!(t.launch.block_dim, [8, 1, 1]);
    // WG = 4 (so HALF = 2), SCALE = 2: out[i] = 2 ((i + 2) % 4).
    let mut c = config();
    c.args.insert("WG".into(), "4".into());
    c.args.insert("SCALE".into(), "2".into());
    let t = run_with(&src, c);
    assert_eq!(floats(&t, "out"), [4.0, 6.0, 0.0, 2.0]);
    assert_eq!(t.launch.block_dim, [4, 1, 1]);
}

#[test]
fn an_override_without_a_value_names_the_flag() {
    let src = "override N: u32;\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1)\nfn main() { o[0] = N; }\n";
    let e = run_wgsl(src, config()).expect_err("no value").to_string();
    assert!(e.contains("--override N=VALUE"), "{e}");
    let mut c = config();
    c.args.insert("N".into(), "7".into());
    assert_eq!(ints(&run_with(src, c), "o")[0], 7);
}

#[test]
fn a_mat4x4_tile_matmul_sums_exactly() {
    let t = run(&shader("inference/matmul_mat4_tile.wgsl"));
    // Tile t holds cells 16t..16t+15, column-major: element (row r, column c) = 16t + 4c + r.
    // All products and sums are integers below 2^24, exact in f32.
    let at = |t: usize, r: usize, c: usize| (16 * t + 4 * c + r) as f64;
    let mut c_want = Vec::new();
    let mut traces = Vec::new();
    for i in 0..4 {
        let mut tr = 0.0;
        for col in 0..4 {
            for row in 0..4 {
                let mut s = 0.0;
                for k in 0..4 {
                    // b[k] is tile k of its own buffer: element (j, col) = 16k + 4col + j.
                    for j in 0..4 {
                        s += at(4 * i + k, row, j) * ((16 * k + 4 * col + j) as f64);
                    }
                }
                if row == col {
                    tr += s;
                }
                c_want.push(s);
            }
        }
        traces.push(tr);
    }
    assert_eq!(floats(&t, "c"), c_want);
    assert_eq!(floats(&t, "trace_out"), traces);
}

#[test]
fn welford_layernorm_merges_struct_states_across_the_subgroup() {
    let t = run(&shader("inference/layernorm_welford.wgsl"));
    // v = c / 4 for c < 32: mean 3.875, M2 = sum (v - mean)^2 = (32 (32^2 - 1) / 12) / 16
    // = 170.5, exact in f32 at every step of the merge.
    assert_eq!(floats(&t, "stats"), [32.0, 3.875, 170.5]);
    let r = 1.0 / (170.5f64 / 32.0 + 1e-5).sqrt();
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (c, got) in y.iter().enumerate() {
        let want = (c as f64 / 4.0 - 3.875) * r;
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "y[{c}] = {got}, want {want}"
        );
    }
}

#[test]
fn a_matrix_column_and_row_chosen_at_run_time_are_read_and_written() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<f32, 4>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
  var m = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
  m[i][1u - i] = 10.0;
  var v = vec3<f32>(5.0, 6.0, 7.0);
  v[i + 1u] = -1.0;
  o[2u * i] = m[0][1] + m[1][0];
  o[2u * i + 1u] = v[i] + v[2];
}
";
    // i = 0: m[0][1] = 10 → 10 + 3; v = (5, -1, 7) → v[0] + v[2] = 12.
    // i = 1: m[1][0] = 10 → 2 + 10; v = (5, 6, -1) → v[1] + v[2] = 5.
    assert_eq!(floats(&run(src), "o"), [13.0, 12.0, 12.0, 5.0]);
}

#[test]
fn a_buffer_struct_mixing_f16_and_f32_runs() {
    // S { a: f16, b: f32 } (WGSL § Alignment and Size): a at 0, b at 4 (align 4), size 8: four
    // 2-byte cells, cell 1 padding, b in cells 2 (low half) and 3. a = 1.5 from the fill;
    // b = f32(a) = 1.5 = 0x3FC0_0000: cells 2, 3 = 0x0000, 0x3FC0 (Python:
    // struct.unpack('<HH', struct.pack('<f', 1.5)) == (0, 16320)).
    let src = "enable f16;
struct S { a: f16, b: f32 }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1)
fn main() { s.b = f32(s.a); }
";
    let mut c = config();
    c.args.insert("s".into(), "1.5,0,0,0".into());
    let t = run_with(src, c);
    let cells: Vec<Option<i128>> = t.buffer("s").unwrap()[2..4]
        .iter()
        .map(|c| c.as_ref().and_then(crosslane_kernel::KVal::as_int))
        .collect();
    assert_eq!(cells, [Some(0), Some(0x3FC0)]);
}

#[test]
fn every_corpus_shader_has_a_lavapipe_record() {
    let dir = format!("{}/examples_wgsl", env!("CARGO_MANIFEST_DIR"));
    let record = std::fs::read_to_string(format!("{dir}/LAVAPIPE.md")).expect("LAVAPIPE.md");
    let mut missing = Vec::new();
    for sub in ["", "inference/"] {
        let entries = std::fs::read_dir(format!("{dir}/{sub}")).expect("corpus directory");
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".wgsl") && !record.contains(&format!("| `{sub}{name}` |")) {
                missing.push(format!("{sub}{name}"));
            }
        }
    }
    assert!(missing.is_empty(), "no lavapipe record for {missing:?}");
}

#[test]
fn a_kv_cache_append_fills_a_runtime_tail_of_vec4_rows() {
    let t = run(&shader("inference/kv_cache_append.wgsl"));
    // Cache { len @0, dim @4, rows: array<vec4<f32>> @16 }: 4 head cells (2 padding), then
    // one vec4 row per invocation by default: 4 rows, so arrayLength = 4. HEAD_DIM = 8 gives
    // ROWS_PER_KEY = 2: invocations 0 and 1 fill rows 0..4, keys[slot] * 1/sqrt(8); len =
    // min(8, 4) / 2 = 2. The members mix u32 and f32: the cells are u32 bits.
    let c = ints(&t, "cache");
    assert_eq!(c.len(), 20);
    assert_eq!(c[..2], [2, 8]);
    let scale = 1.0f32 / 8f32.sqrt();
    for k in 0..16 {
        let want = k as f32 * scale;
        let got = f32::from_bits(c[4 + k] as u32);
        assert!(
            (got - want).abs() <= 2.0 * f32::EPSILON * want.abs(),
            "row cell {k}: {got}, want {want}"
        );
    }
}

#[test]
fn tint_style_matrix_builtins_write_their_prevent_dce_bindings() {
    let t = run(&shader("inference/tint_e2e_matrix.wgsl"));
    // transpose of columns (1,2,3),(4,5,6) has columns (1,4),(2,5),(3,6).
    assert_eq!(floats(&t, "prevent_dce_t"), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    // The 4x4 is block diagonal: 3 * 4 * det([[2, 1], [1, 5]]) = 12 * 9; the 2x2 with columns
    // (3, 1), (2, 3) has 3 * 3 - 2 * 1.
    assert_eq!(floats(&t, "prevent_dce_d"), [108.0, 7.0]);
    // a * b: column 0 = a (1, 0) = (1, 2, 3); column 1 = a (1, -1) = (1-4, 2-5, 3-6); the
    // 4th cell of each mat2x3 column is padding and keeps its fill.
    assert_eq!(
        floats(&t, "prevent_dce_m"),
        [1.0, 2.0, 3.0, 3.0, -3.0, -3.0, -3.0, 7.0]
    );
}

#[test]
fn an_override_field_parses_name_value_pairs() {
    use crosslane_kernel::wgsl::override_eval::parse_overrides;
    let m = parse_overrides(" WG=64, SCALE=1.5  7=2 ").unwrap();
    let pairs: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(pairs, [("7", "2"), ("SCALE", "1.5"), ("WG", "64")]);
    assert!(parse_overrides("").unwrap().is_empty());
    assert!(parse_overrides("WG").unwrap_err().contains("`WG`"));
    assert!(parse_overrides("=3").is_err());
}

#[test]
fn array_members_of_function_and_private_structs_take_run_time_indices() {
    // Each invocation has its own `var<function>` and `var<private>` (WGSL § Address Spaces),
    // zero-initialized (WGSL § var Declarations).
    // The same shader on lavapipe (`crosslane run FILE --gpu`): 8 of 8 cells match in each
    // buffer.
    let src = "struct P { a: u32, b: vec2<u32> }
struct S { n: u32, items: array<P, 4>, v: array<vec4<f32>, 2>, data: array<u32, 8> }
var<private> p: S;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> out2: array<u32, 8>;
fn fetch(q: ptr<function, S>, k: u32) -> u32 { return (*q).data[k]; }
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var s: S;
  let j = i % 4u;
  s.items[j].a = i;
  s.items[j].b = vec2<u32>(i, 2u * i);
  s.v[i % 2u] = vec4<f32>(f32(i));
  out[i] = s.items[j].a + s.items[(j + 1u) % 4u].b.y + s.items[j].b[i % 2u] + u32(s.v[i % 2u].z);
  s.data[i] = i + 5u;
  p.data[(i + 1u) % 8u] = i;
  out2[i] = fetch(&s, i) + p.data[(i + 1u) % 8u] + s.data[(i + 1u) % 8u];
}
";
    // out: a = i; items[(j+1)%4] is still zero; b[i%2] is i (i even) or 2i (i odd);
    // v[i%2].z = i. So i even: i + 0 + i + i = 3i; i odd: i + 0 + 2i + i = 4i.
    let want: Vec<u32> = (0..8)
        .map(|i| if i % 2 == 0 { 3 * i } else { 4 * i })
        .collect();
    // out2: s.data[i] = i + 5, p.data[(i+1)%8] = i, s.data[(i+1)%8] untouched (0): 2i + 5.
    let want2: Vec<u32> = (0..8).map(|i| 2 * i + 5).collect();
    let t = run(src);
    let got = |name: &str| -> Vec<u32> {
        t.buffer(name)
            .unwrap_or(&[])
            .iter()
            .map(|c| c.as_ref().and_then(|v| v.as_int()).unwrap_or(-1) as u32)
            .collect()
    };
    assert_eq!(got("out"), want);
    assert_eq!(got("out2"), want2);
}

#[test]
fn a_run_time_index_into_a_long_array_member_of_a_local_struct_is_refused_naming_the_limit() {
    let src = "struct S { data: array<u32, 100> }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var s: S;
  s.data[i] = i;
  out[i] = s.data[i];
}
";
    let e = run_wgsl(src, config()).expect_err("refused").to_string();
    assert!(e.contains("at most 64 elements"), "{e}");
}

#[test]
fn local_arrays_hold_their_initializer_or_zeros() {
    // WGSL § var Declarations: a function variable without an initializer (or with the
    // zero-value constructor `array<u32, 3>()`) holds its type's zero value; with one, that
    // value. The same shader on lavapipe: 8 of 8 cells match in each buffer.
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<f32, 8>;
@group(0) @binding(1) var<storage, read_write> outu: array<u32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var m = array<vec2<f32>, 2>(vec2<f32>(1.0, 2.0), vec2<f32>(3.0, f32(i)));
  var a = array<u32, 4>(1u, 2u, 3u, i);
  var z = array<u32, 3>();
  var w: array<u32, 5>;
  z[1] = 7u;
  w[i % 5u] = 9u;
  out[i] = m[i % 2u].y + m[0].x;
  outu[i] = a[i % 4u] * 100u + z[i % 3u] * 10u + w[(i + 1u) % 5u];
}
";
    // out: m[0] = (1, 2), m[1] = (3, i): i even → 2 + 1, i odd → i + 1.
    let want: Vec<f64> = (0..8)
        .map(|i| if i % 2 == 0 { 3.0 } else { f64::from(i) + 1.0 })
        .collect();
    // outu: a = (1, 2, 3, i); z = (0, 7, 0); w is zero but at i % 5, never at (i + 1) % 5.
    let want_u: Vec<i128> = (0..8i128)
        .map(|i| {
            let a = [1, 2, 3, i][(i % 4) as usize];
            let z = [0, 7, 0][(i % 3) as usize];
            a * 100 + z * 10
        })
        .collect();
    let t = run(src);
    assert_eq!(floats(&t, "out"), want);
    let got: Vec<i128> = t
        .buffer("outu")
        .unwrap_or(&[])
        .iter()
        .map(|c| c.as_ref().and_then(|v| v.as_int()).unwrap_or(-1))
        .collect();
    assert_eq!(got, want_u);
    assert!(
        t.all_diagnostics()
            .all(|d| !d.message.contains("never written")),
        "a local array read before any write is zero, not undefined"
    );
}

#[test]
fn a_local_array_initializer_over_the_value_cell_limit_is_refused_naming_it() {
    // 1100 cells, one store each, is over the 1024 cells a value may hold.
    let items = vec!["1u"; 1100].join(", ");
    let src = format!(
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1)
fn main() {{
  var a = array<u32, 1100>({items});
  out[0] = a[3];
}}
"
    );
    let e = run_wgsl(&src, config()).expect_err("refused").to_string();
    assert!(e.contains("more than 1024 cells"), "{e}");
}

#[test]
fn local_arrays_of_vec3_and_structs_take_their_initializer_cell_by_cell() {
    // vec3 elements have a 16-byte stride (WGSL § Alignment and Size: one padding cell each);
    // the initializer fills the data cells. Matches lavapipe in every cell.
    let src = "struct P { a: u32, b: vec3<u32> }
@group(0) @binding(0) var<storage, read_write> out: array<f32, 8>;
@group(0) @binding(1) var<storage, read_write> outu: array<u32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var a = array<vec3<f32>, 2>(vec3<f32>(1.0, 2.0, 3.0), vec3<f32>(4.0, 5.0, f32(i)));
  var p = array<P, 2>(P(1u, vec3<u32>(2u, 3u, 4u)), P(5u, vec3<u32>(6u, 7u, i)));
  out[i] = a[i % 2u].z + a[1].x * 10.0;
  outu[i] = p[i % 2u].b.z + p[1].a * 10u + p[0].b.y * 100u;
}
";
    // out: a[i % 2].z is 3 (i even) or i (odd), plus 4 × 10.
    let want: Vec<f64> = (0..8)
        .map(|i| {
            if i % 2 == 0 {
                43.0
            } else {
                f64::from(i) + 40.0
            }
        })
        .collect();
    // outu: p[i % 2].b.z is 4 or i, plus 5 × 10, plus 3 × 100.
    let want_u: Vec<i128> = (0..8)
        .map(|i| if i % 2 == 0 { 354 } else { i + 350 })
        .collect();
    let t = run(src);
    assert_eq!(floats(&t, "out"), want);
    assert_eq!(ints(&t, "outu"), want_u);
}

#[test]
fn local_arrays_of_arrays_are_indexed_through_both_levels() {
    // A local array of arrays is one run of cells, element (r, c) at r × 2 + c (WGSL §
    // Alignment and Size: the inner array's stride is 2 cells). Matches lavapipe.
    let src = "@group(0) @binding(0) var<storage, read_write> outu: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> outz: array<u32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var g = array<array<u32, 2>, 2>(array<u32, 2>(1u, 2u), array<u32, 2>(3u, i));
  var z: array<array<u32, 2>, 2>;
  z[1][i % 2u] = i;
  outu[i] = g[i % 2u][1] * 10u + g[1][0];
  outz[i] = z[i % 2u][1];
}
";
    // outu: g[i % 2][1] is 2 (i even) or i (odd); × 10, plus 3.
    let want_u: Vec<i128> = (0..8)
        .map(|i| if i % 2 == 0 { 23 } else { 10 * i + 3 })
        .collect();
    // outz: z is zero but z[1][i % 2] = i; z[i % 2][1] is z[0][1] = 0 (i even) or z[1][1] = i.
    let want_z: Vec<i128> = (0..8).map(|i| if i % 2 == 0 { 0 } else { i }).collect();
    let t = run(src);
    assert_eq!(ints(&t, "outu"), want_u);
    assert_eq!(ints(&t, "outz"), want_z);
}

/// Two structs of one layout are two types (WGSL § Structure Types: a declaration names a new
/// type); each binding's header names its own, `b : B` as `B`, not the first of that layout.
#[test]
fn a_binding_names_its_own_struct_when_two_share_a_layout() {
    let src = "struct A { v: array<vec4<f32>> }\nstruct B { v: array<vec4<f32>> }\n\
               @group(0) @binding(0) var<storage, read> a: A;\n\
               @group(0) @binding(1) var<storage, read_write> b: B;\n\
               @compute @workgroup_size(1)\nfn main() { b.v[0] = a.v[0]; }\n";
    let p = prepare(src, &config()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = ["a", "b"]
        .iter()
        .map(|n| {
            let b = p.bindings.iter().find(|b| b.name == *n).unwrap();
            b.wgsl_elem.as_str()
        })
        .collect();
    assert_eq!(names, ["A", "B"]);
}
