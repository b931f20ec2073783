//! WGSL shapes from the fifth corpus round that ran wrong or were refused. Every expected
//! value is worked out from the WGSL spec sections named per test, by hand or by the Python
//! line quoted beside it, never copied from the emulator's output. Tint accepts every shader
//! here (`tint --format wgsl`, run by hand).

use crate::support::{ints_or_min, wgsl_no_errors as run_with, wgsl_out};
use crosslane_kernel::LaunchConfig;

/// `r` of `r_cells` zeroed cells, `o` of 40 zeroed cells, `lanes` wide.
fn config(lanes: usize, r_cells: usize) -> LaunchConfig {
    let mut c = wgsl_out(lanes, r_cells);
    c.args.insert("r".into(), "zero".into());
    c.buffer_len.insert("r".into(), r_cells);
    c.args.insert("o".into(), "zero".into());
    c.buffer_len.insert("o".into(), 40);
    c
}

/// A quantized block as LLM shaders declare it: `struct B { d: f16, m: f16, qs: array<u32,
/// 4> }`. WGSL § 13.4 Memory Layout: d at byte 0, m at 2, qs at 4 (align 4) with stride 4, so
/// `qs[j]` is bytes 4 + 4j..8 + 4j and the struct is 20 bytes. Such a buffer is held in 2-byte
/// cells; `qs[j]` was placed at byte 4 + 2j (the element's own 4-byte cell counted as one
/// 2-byte cell), so `qs[1]` was misaligned and dropped and `qs[2]` overwrote `qs[1]`'s bytes
/// (a wrong number, with a CUDA misalignment warning). Here eight invocations write the
/// elements of two blocks in workgroup memory and each reads another's element, the whole
/// array through a `let`, the block through a `let` and a `var`, and stores a constructed
/// block to a storage buffer that it reads back.
#[test]
fn a_u32_array_member_beside_f16_members_steps_four_bytes() {
    let src = "enable f16;
struct B { d: f16, m: f16, qs: array<u32, 4> }
@group(0) @binding(0) var<storage, read_write> o: array<B>;
@group(0) @binding(1) var<storage, read_write> r: array<u32>;
var<workgroup> w: array<B, 2>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) t: u32) {
  w[t / 4u].qs[t % 4u] = t * 10u + 1u;
  if (t % 4u == 0u) { w[t / 4u].d = f16(t) + 0.5h; w[t / 4u].m = 2.0h; }
  workgroupBarrier();
  let b = t / 4u;
  r[t] = w[b].qs[(t + 1u) % 4u];
  let a = w[b].qs;
  r[8u + t] = a[0] + a[1] + a[2] + a[3];
  let blk = w[b];
  var acc = 0u;
  for (var j = 0u; j < 4u; j++) { acc += blk.qs[j] * (j + 1u); }
  r[16u + t] = acc + u32(blk.d);
  var loc = w[b];
  loc.qs[t % 4u] = 1000u;
  r[24u + t] = loc.qs[0] + loc.qs[3] + u32(loc.m);
  if (t < 2u) {
    o[t] = B(1.5h, 2.5h, array<u32, 4>(7u, 8u, 9u, t));
    r[32u + t] = o[t].qs[1] + o[t].qs[2] * 10u + o[t].qs[3] * 100u + u32(o[t].m);
  }
}";
    // Python model of the workgroup blocks and each invocation's reads:
    // qs = [[t*10+1 for t in range(b*4, b*4+4)] for b in (0, 1)]
    //    = [[1, 11, 21, 31], [41, 51, 61, 71]];  d = [0.5, 4.5], m = 2.0
    // r[t]      = qs[t//4][(t+1)%4]               -> 11 21 31 1 51 61 71 41
    // r[8+t]    = sum(qs[t//4])                   -> 64 x4, 224 x4
    // r[16+t]   = sum(q*(j+1)) + int(d)           -> 1+22+63+124+0 = 210, 41+102+183+284+4 = 614
    // r[24+t]   = loc.qs[0] + loc.qs[3] + 2 with qs[t%4] = 1000:
    //             block 0: t=0 -> 1000+31+2 = 1033, t=1,2 -> 1+31+2 = 34, t=3 -> 1+1000+2 = 1003
    //             block 1: t=4 -> 1000+71+2 = 1073, t=5,6 -> 41+71+2 = 114, t=7 -> 41+1000+2 = 1043
    // r[32+t]   = 8 + 9*10 + t*100 + 2            -> 100, 200
    let want: [i128; 34] = [
        11, 21, 31, 1, 51, 61, 71, 41, //
        64, 64, 64, 64, 224, 224, 224, 224, //
        210, 210, 210, 210, 614, 614, 614, 614, //
        1033, 34, 34, 1003, 1073, 114, 114, 1043, //
        100, 200,
    ];
    for lanes in [4, 8, 32] {
        let t = run_with(src, config(lanes, 34));
        assert_eq!(ints_or_min(&t, "r"), want, "{lanes} lanes");
    }
}

/// The same layout in a storage buffer written element by element (ggml-webgpu's Q8_1
/// quantizer shape: `src1q[i].qs[k] = pack4xI8(…)`, `src1q[i].d = f16(d)`), each invocation reading back its own element after a
/// `storageBarrier`. `struct Q { d: f16, m: f16, qs: array<u32,
/// 8> }` is 36 bytes (WGSL § 13.4: qs at 4, stride 4, size 4 + 32 rounded to align 4).
#[test]
fn a_storage_block_written_per_element_reads_back() {
    let src = "enable f16;
struct Q { d: f16, m: f16, qs: array<u32, 8> }
@group(0) @binding(0) var<storage, read_write> o: array<Q>;
@group(0) @binding(1) var<storage, read_write> r: array<u32>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) t: u32) {
  let i = t / 8u;
  o[i].qs[t % 8u] = pack4xI8(vec4<i32>(i32(t), -1, 2, -3));
  if (t % 8u == 0u) { o[i].d = f16(t) * 0.25h; }
  storageBarrier();
  r[t] = o[i].qs[t % 8u];
  r[16u + t] = u32(f32(o[i].d) * 4.0);
}";
    // pack4xI8: byte k = component k & 0xff, component 0 lowest (WGSL § pack4xI8):
    // [ (t & 0xff) | 0xff << 8 | 2 << 16 | 0xfd << 24 for t in range(16) ]
    //   = 0xfd02ff00 + t;  d = f16(i*8) * 0.25 -> r[16+t] = i*8
    let mut want: Vec<i128> = (0..16).map(|t| 0xfd02_ff00 + t).collect();
    want.extend((0..16).map(|t| (t / 8) * 8));
    // 36 bytes per block: 18 two-byte cells, two blocks.
    let mut c = config(32, 32);
    c.buffer_len.insert("o".into(), 36);
    let t = run_with(src, c);
    assert_eq!(ints_or_min(&t, "r"), want);
}

/// Dawn's experimental subgroup matrices (ggml-webgpu's `mul_mat_subgroup_matrix.wgsl`, ONNX
/// Runtime's `subgroup_matrix_matmul_nbits`): the matrices' layout across the subgroup is the
/// implementation's (Dawn, docs/dawn/features/subgroup_matrix.md), so the shader is refused at
/// the `enable` directive, naming the extension. It was refused at the template list
/// `subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(…)` as "mixing `<` and `<` requires
/// parentheses", which Tint does not say (Tint accepts the shader); without the directive
/// (Tint: "use of 'subgroup_matrix_*' requires enabling extension") the template list is no
/// longer read as comparisons.
#[test]
fn subgroup_matrices_are_refused_at_their_enable_directive() {
    let src = "enable f16;
enable subgroups;
enable chromium_experimental_subgroup_matrix;
var<workgroup> sh: array<f16, 256>;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) t: u32) {
  let a = subgroupMatrixLoad<subgroup_matrix_left<f16, 8, 8>>(&sh, 0u, false, 8u);
  var c: subgroup_matrix_result<f16, 8, 8>;
  subgroupMatrixStore(&sh, 128u, c, false, 8u);
  o[t] = f32(sh[t]);
}";
    let e = crosslane_kernel::wgsl::run_wgsl(src, wgsl_out(32, 32)).expect_err("refused");
    assert_eq!((e.line, e.col), (3, 8), "{e}");
    assert!(e.message.contains("subgroup matrices"), "{e}");
    let without = src.replace("enable chromium_experimental_subgroup_matrix;\n", "");
    let e = crosslane_kernel::wgsl::run_wgsl(&without, wgsl_out(32, 32)).expect_err("refused");
    assert!(!e.message.contains("requires parentheses"), "{e}");
}

/// The same block layout through the other ways a shader reaches it: a `var<private>` with a
/// constructor initializer (was refused: "a private array or nested struct of structs mixing
/// `f16` …"), a module `const`, a helper taking `ptr<storage, B, read_write>`, a helper taking
/// the block by value, and `workgroupUniformLoad` of a workgroup block (WGSL § 13.4 Memory
/// Layout: `qs` at byte 4, stride 4, in every address space).
#[test]
fn a_block_with_a_u32_array_in_private_const_pointer_and_uniform_load() {
    let src = "enable f16;
struct B { d: f16, m: f16, qs: array<u32, 4> }
@group(0) @binding(0) var<storage, read_write> o: array<B>;
@group(0) @binding(1) var<storage, read_write> r: array<u32>;
var<private> p: B = B(1.5h, 2.5h, array<u32, 4>(7u, 8u, 9u, 10u));
const C = B(0.5h, 4.5h, array<u32, 4>(1u, 2u, 3u, 4u));
var<workgroup> w: B;
fn put(q: ptr<storage, B, read_write>, k: u32, v: u32) { (*q).qs[k] = v; }
fn total(b: B) -> u32 { return b.qs[0] + b.qs[1] + b.qs[2] + b.qs[3] + u32(b.m); }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) t: u32) {
  p.qs[t] = 100u + t;
  r[t] = p.qs[0] + p.qs[1] * 10u + p.qs[2] * 100u + p.qs[3] * 1000u + u32(p.m * 2.0h);
  r[4u + t] = C.qs[t] + u32(C.m * 2.0h);
  put(&o[1], t, t + 100u);
  r[8u + t] = o[1].qs[t];
  w.qs[t] = t * 10u + 1u;
  if (t == 0u) { w.m = 3.0h; }
  let u = workgroupUniformLoad(&w);
  r[12u + t] = u.qs[(t + 1u) % 4u] + total(u) * 1000u;
}";
    // r[t]: qs = [7, 8, 9, 10] with qs[t] = 100 + t; p.m = 2.5 -> 5:
    //   t=0: 100 + 80 + 900 + 10000 + 5 = 11085; t=1: 7 + 1010 + 900 + 10000 + 5 = 11922
    //   t=2: 7 + 80 + 10200 + 10000 + 5 = 20292; t=3: 7 + 80 + 900 + 103000 + 5 = 103992
    // r[4+t]: C.qs[t] + 9 = 10, 11, 12, 13;  r[8+t]: 100 + t
    // r[12+t]: w.qs = [1, 11, 21, 31], m = 3: total = 64 + 3 = 67;
    //   qs[(t+1)%4] + 67000 = 67011, 67021, 67031, 67001
    let want: [i128; 16] = [
        11085, 11922, 20292, 103992, 10, 11, 12, 13, 100, 101, 102, 103, 67011, 67021, 67031, 67001,
    ];
    let t = run_with(src, config(32, 16));
    assert_eq!(ints_or_min(&t, "r"), want);
}

/// A struct mixing `f16` members with a runtime-sized `array<u32>` tail: the tail starts at
/// byte 4 with stride 4 (WGSL § 13.4 Memory Layout), so a 24-byte buffer holds 5 elements
/// (§ arrayLength: (24 - 4) / 4). `data[1]` was written at byte 6 (misaligned, dropped).
#[test]
fn a_runtime_u32_tail_after_f16_members_steps_four_bytes() {
    let src = "enable f16;
struct T { d: f16, m: f16, data: array<u32> }
@group(0) @binding(0) var<storage, read_write> b: T;
@group(0) @binding(1) var<storage, read_write> r: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) t: u32) {
  b.data[t] = t * 3u + 1u;
  if (t == 0u) { b.m = 2.0h; }
  storageBarrier();
  r[t] = b.data[t] + arrayLength(&b.data) * 100u + u32(b.m) * 1000u;
}";
    // data = [1, 4, 7, 10]; 5 elements; m = 2: 2501, 2504, 2507, 2510.
    let mut c = config(32, 4);
    c.args.insert("b".into(), "zero".into());
    c.buffer_len.insert("b".into(), 12);
    let t = run_with(src, c);
    assert_eq!(ints_or_min(&t, "r"), [2501, 2504, 2507, 2510]);
}
