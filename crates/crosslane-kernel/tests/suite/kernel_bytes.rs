//! Memory addressed with byte strides: a `char*` buffer read and written through `float*`,
//! `__half*`, `int*` and `float4*` casts (the shape of ggml's
//! `(const float *)((const char *)src + i01*nb01)`), typed fills that lay values' bytes over a
//! buffer's cells, grid groups, RDNA's wave32 default, and the messages of a work-limit stop
//! and of a shuffle from an inactive lane.
//!
//! Expected bytes are IEEE 754 encodings derived by hand beside each test (memory is
//! little-endian on every NVIDIA and AMD GPU: the least significant byte first).

use crate::support::{floats as nums, has};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig};

/// A one-block CUDA launch of `threads` threads with `(name, len, fill)` buffers.
fn launch(threads: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    let mut c = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    for (name, len, fill) in buffers {
        c.buffer_len.insert((*name).into(), *len);
        c.args.insert((*name).into(), (*fill).into());
    }
    c
}

const LOAD: &str = "\
__global__ void k(const char *x, float *y) {
  y[threadIdx.x] = *(const float*)(x + 4*threadIdx.x);
}";

#[test]
fn bytes_float_load_through_a_char_buffer_reads_the_four_bytes() {
    // 1.5 = 0x3FC00000 (sign 0, exponent 127, mantissa 0.5·2^23 = 0x400000), stored
    // 00 00 C0 3F; 2.5 = 0x40200000 (exponent 128, mantissa 0.25·2^23 = 0x200000), stored
    // 00 00 20 40. As int8_t: 0xC0 = -64, 0x3F = 63, 0x20 = 32, 0x40 = 64.
    let t = run_kernel(
        LOAD,
        launch(2, &[("x", 8, "0,0,-64,63,0,0,32,64"), ("y", 2, "zero")]),
    )
    .unwrap();
    assert_eq!(nums(&t, "y"), [Some(1.5), Some(2.5)]);
}

#[test]
fn bytes_typed_fill_lays_float_bytes_over_char_cells() {
    // The same bytes as above, given as floats.
    let t = run_kernel(
        LOAD,
        launch(2, &[("x", 8, "f32:1.5,2.5"), ("y", 2, "zero")]),
    )
    .unwrap();
    let x = nums(&t, "x");
    let want = [0.0, 0.0, -64.0, 63.0, 0.0, 0.0, 32.0, 64.0].map(Some);
    assert_eq!(x, want);
    assert_eq!(nums(&t, "y"), [Some(1.5), Some(2.5)]);
    // Without a length the list sizes the buffer: two floats are 8 char cells.
    let mut c = launch(2, &[("y", 2, "zero")]);
    c.args.insert("x".into(), "f32:1.5,2.5".into());
    let t = run_kernel(LOAD, c).unwrap();
    assert_eq!(nums(&t, "x"), want);
    // 6 cells hold one float: the second value does not fit, and the error says so.
    let e = run_kernel(
        LOAD,
        launch(2, &[("x", 6, "f32:1.5,2.5"), ("y", 2, "zero")]),
    )
    .unwrap_err();
    assert_eq!(e.input.as_deref(), Some("x fill"));
    assert!(
        e.message.contains("8 bytes) for a buffer of 6 bytes"),
        "{}",
        e.message
    );
    // A decimal in a char buffer without a type points at the typed fill.
    let e = run_kernel(LOAD, launch(2, &[("x", 2, "1.5,2.5"), ("y", 2, "zero")])).unwrap_err();
    assert!(e.message.contains("f32:1.5,2.5"), "{}", e.message);
    // An undefined value's bytes are uninitialized cells, and so is the float read there.
    let t = run_kernel(
        LOAD,
        launch(2, &[("x", 8, "f32:1.5,undef"), ("y", 2, "zero")]),
    )
    .unwrap();
    assert_eq!(&nums(&t, "x")[3..5], &[Some(63.0), None]);
    assert_eq!(nums(&t, "y"), [Some(1.5), None]);
    // One number fills every value: f32:1.5 repeats 00 00 C0 3F.
    let t = run_kernel(LOAD, launch(2, &[("x", 8, "f32:1.5"), ("y", 2, "zero")])).unwrap();
    assert_eq!(nums(&t, "y"), [Some(1.5), Some(1.5)]);
}

#[test]
fn bytes_float_store_into_a_char_buffer_writes_the_four_bytes() {
    // -2.0 = 0xC0000000: bytes 00 00 00 C0 (0xC0 = -64 as int8_t); 1.5 as above.
    let src = "\
__global__ void k(char *c, const float *v) {
  *(float*)(c + 4*threadIdx.x) = v[threadIdx.x];
}";
    let t = run_kernel(src, launch(2, &[("c", 8, "zero"), ("v", 2, "1.5,-2")])).unwrap();
    assert_eq!(
        nums(&t, "c"),
        [0.0, 0.0, -64.0, 63.0, 0.0, 0.0, 0.0, -64.0].map(Some)
    );
}

#[test]
fn bytes_ggml_row_stride_through_void_and_char() {
    // Rows of nb01 = 8 bytes (two floats) over a float buffer 1, 2, 3, 4: row t's element 1
    // is float 2t+1, so 2 and 4.
    let src = "\
__global__ void k(const void *src, float *dst, long nb01) {
  const float *row = (const float *)((const char *)src + threadIdx.x*nb01);
  dst[threadIdx.x] = row[1];
}";
    let mut c = launch(2, &[("src", 4, "f32:1,2,3,4"), ("dst", 2, "zero")]);
    c.args.insert("nb01".into(), "8".into());
    let t = run_kernel(src, c).unwrap();
    assert_eq!(nums(&t, "dst"), [Some(2.0), Some(4.0)]);
}

#[test]
fn bytes_half_int_and_float4_views_of_byte_buffers() {
    // binary16 1.0 = 0x3C00 (bytes 00 3C = 0, 60), -2.0 = 0xC000 (bytes 00 C0 = 0, 192).
    let src = "\
__global__ void k(const unsigned char *x, float *y) {
  y[threadIdx.x] = __half2float(*(const __half*)(x + 2*threadIdx.x));
}";
    let t = run_kernel(src, launch(2, &[("x", 4, "0,60,0,192"), ("y", 2, "zero")])).unwrap();
    assert_eq!(nums(&t, "y"), [Some(1.0), Some(-2.0)]);
    // An int read of bytes 01 02 00 00 and FF FF FF FF: 0x0201 = 513 and -1.
    let src = "\
__global__ void k(const char *x, int *y) {
  y[threadIdx.x] = ((const int*)x)[threadIdx.x];
}";
    let t = run_kernel(
        src,
        launch(2, &[("x", 8, "1,2,0,0,-1,-1,-1,-1"), ("y", 2, "zero")]),
    )
    .unwrap();
    assert_eq!(nums(&t, "y"), [Some(513.0), Some(-1.0)]);
    // A float4 over 16 bytes: .x = 1.0 (0x3F800000: 00 00 80 3F), .w = 8.0 (0x41000000:
    // 00 00 00 41 = 65).
    let src = "\
__global__ void k(const char *x, float *y) {
  float4 q = *(const float4*)x;
  y[threadIdx.x] = threadIdx.x == 0 ? q.x : q.w;
}";
    let t = run_kernel(
        src,
        launch(
            2,
            &[
                ("x", 16, "0,0,-128,63,0,0,0,0,0,0,0,0,0,0,0,65"),
                ("y", 2, "zero"),
            ],
        ),
    )
    .unwrap();
    assert_eq!(nums(&t, "y"), [Some(1.0), Some(8.0)]);
    // The bytes of a float buffer read as char: 1.5's bytes 2 and 3 are 0xC0 and 0x3F.
    let src = "\
__global__ void k(const float *x, int *y) {
  y[threadIdx.x] = ((const char*)x)[threadIdx.x + 2];
}";
    let t = run_kernel(src, launch(2, &[("x", 1, "1.5"), ("y", 2, "zero")])).unwrap();
    assert_eq!(nums(&t, "y"), [Some(-64.0), Some(63.0)]);
    // An int buffer read as float: 0x3F800000 = 1065353216 is 1.0.
    let src = "\
__global__ void k(const int *x, float *y) {
  y[threadIdx.x] = ((const float*)x)[threadIdx.x];
}";
    let t = run_kernel(src, launch(1, &[("x", 1, "1065353216"), ("y", 1, "zero")])).unwrap();
    assert_eq!(nums(&t, "y"), [Some(1.0)]);
}

#[test]
fn bytes_misaligned_and_undefined_accesses_are_undefined_with_a_reason() {
    // Byte 2 is not 4-byte aligned for a float (CUDA C++ Programming Guide, Device Memory
    // Accesses).
    let src = "\
__global__ void k(const char *x, float *y) {
  y[threadIdx.x] = *(const float*)(x + 2 + 4*threadIdx.x);
}";
    let t = run_kernel(src, launch(2, &[("x", 12, "zero"), ("y", 2, "zero")])).unwrap();
    assert_eq!(nums(&t, "y"), [None, None]);
    assert!(has(&t, Level::Warning, "not 4-byte aligned"));
    // A float over bytes of which one was never written: undefined, the cell named.
    let t = run_kernel(
        LOAD,
        launch(1, &[("x", 4, "0,0,-64,undef"), ("y", 1, "zero")]),
    );
    let t = match t {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(nums(&t, "y"), [None]);
    assert!(
        t.all_diagnostics().any(|d| d.message.contains("x[3]")),
        "{:?}",
        t.all_diagnostics().collect::<Vec<_>>()
    );
}

const GRID: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void ranks(unsigned *out) {
  cg::grid_group grid = cg::this_grid();
  unsigned r = grid.thread_rank();
  out[r] = r * 1000000 + grid.size() * 10000 + grid.num_blocks() * 100
         + grid.block_rank() * 10 + grid.is_valid();
}
__global__ void barrier(int *out) {
  auto g = cg::this_grid();
  out[g.thread_rank()] = 1;
  g.sync();
}";

#[test]
fn bytes_grid_group_ranks_sizes_and_validity() {
    // 3 blocks of 2 threads: thread t of block b has grid rank 2b + t; size 6, 3 blocks;
    // is_valid is true: no host code launches the kernel, so it runs as a cooperative launch
    // (`machine/coop_launch.rs`; a `<<<…>>>` launch's is false, `kernel_coop_launch.rs`).
    // Cell r holds r·10^6 + 6·10^4 + 3·100 + (r/2)·10 + 1.
    let mut c = launch(2, &[("out", 6, "zero")]);
    c.entry = Some("ranks".into());
    c.grid_dim = Some([3, 1, 1]);
    let t = run_kernel(GRID, c).unwrap();
    let want: Vec<Option<f64>> = (0..6u32)
        .map(|r| Some(f64::from(r * 1_000_000 + 60_000 + 300 + (r / 2) * 10 + 1)))
        .collect();
    assert_eq!(nums(&t, "out"), want);
    // A 2x2 grid of 2x1 blocks: block (x, y) has rank x + 2y, so blocks 0..4 in x-fastest
    // order; size 8, 4 blocks.
    let mut c = launch(2, &[("out", 8, "zero")]);
    c.entry = Some("ranks".into());
    c.grid_dim = Some([2, 2, 1]);
    let t = run_kernel(GRID, c).unwrap();
    let want: Vec<Option<f64>> = (0..8u32)
        .map(|r| Some(f64::from(r * 1_000_000 + 80_000 + 400 + (r / 2) * 10 + 1)))
        .collect();
    assert_eq!(nums(&t, "out"), want);
}

#[test]
fn bytes_grid_sync_is_refused_at_its_line_only_for_the_entry_reaching_it() {
    // 2 threads a block: the model device holds min(2048 / 2, 32) = 32 blocks at once; 33
    // are more than a cooperative launch may have (machine/grid_sync.rs).
    let mut c = launch(2, &[("out", 66, "zero")]);
    c.entry = Some("barrier".into());
    c.grid_dim = Some([33, 1, 1]);
    let e = run_kernel(GRID, c).unwrap_err();
    assert_eq!((e.line, e.col), (12, 3), "{e}");
    assert!(e.message.contains("cooperative launch"), "{}", e.message);
    assert!(!e.message.contains("one block's warps"), "{}", e.message);
}

#[test]
fn bytes_rdna_arch_defaults_to_wave32_and_lanes_still_wins() {
    // hipcc on a wave32-capable processor (GFX10+, RDNA) compiles wave32 unless
    // -mwavefrontsize64; GFX9 / CDNA are wave64 only. warpSize·1000 + the macro: 32032 / 64064.
    let src = "__global__ void k(int *out) { out[threadIdx.x] = warpSize * 1000 + __AMDGCN_WAVEFRONT_SIZE; }";
    let run = |arch: &str, lanes: Option<usize>| {
        let mut c = launch(1, &[("out", 1, "zero")]);
        c.dialect = Some(crosslane_core::Dialect::Hip);
        c.preprocess.arch = Some(arch.into());
        c.lanes = lanes;
        nums(&run_kernel(src, c).unwrap(), "out")
    };
    assert_eq!(run("gfx1100", None), [Some(32032.0)]);
    assert_eq!(run("gfx1030", None), [Some(32032.0)]);
    assert_eq!(run("gfx1200", None), [Some(32032.0)]);
    assert_eq!(run("gfx942", None), [Some(64064.0)]);
    assert_eq!(run("gfx90a", None), [Some(64064.0)]);
    assert_eq!(run("gfx1100", Some(64)), [Some(64064.0)]);
}

#[test]
fn bytes_work_limit_names_the_loop_line_without_a_trace() {
    // The loop is line 3; with no step recorded (trace none) the stop still names line 3, and
    // the condition the budget interrupted is not reported as undefined.
    let src = "\
__global__ void k(int *out, long long n) {
  long long s = 0;
  for (long long i = 0; i < n*n; ++i) { s += i; }
  out[threadIdx.x] = (int)s;
}";
    for mode in [
        crosslane_kernel::TraceMode::None,
        crosslane_kernel::TraceMode::Full,
    ] {
        let mut c = launch(1, &[("out", 1, "zero")]);
        c.args.insert("n".into(), "100000".into());
        c.limits.max_work = 5000;
        let t = crosslane_kernel::run_kernel_traced(src, c, mode).unwrap();
        match &t.outcome {
            Some(crosslane_kernel::Outcome::Limit(hit)) => assert_eq!(hit.line, 3, "{mode:?}"),
            other => panic!("{other:?}"),
        }
        assert!(
            !t.all_diagnostics()
                .any(|d| d.message.contains("condition is undefined")),
            "{mode:?}"
        );
    }
}

#[test]
fn bytes_shuffle_from_an_inactive_lane_says_inactive_not_uninitialized() {
    // Lanes 0-15 read lanes 16-31, which took the other path: undefined because inactive
    // (CUDA C++ Programming Guide, Warp Shuffle Functions), though their `v` is initialized.
    let src = "\
__global__ void k(int *out) {
  int v = threadIdx.x;
  int r = 0;
  if (threadIdx.x < 16) {
    r = __shfl_sync(0xffff, v, threadIdx.x + 16);
  }
  out[threadIdx.x] = r;
}";
    let t = run_kernel(src, launch(32, &[("out", 32, "zero")])).unwrap();
    assert_eq!(nums(&t, "out")[0], None);
    assert_eq!(nums(&t, "out")[16], Some(0.0));
    assert!(has(&t, Level::Warning, "source lane 16 is inactive"));
    assert!(!t
        .all_diagnostics()
        .any(|d| d.message.contains("uninitialized")));
}
