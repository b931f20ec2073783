//! Host code's copies and memsets of part of a device allocation, as testers wrote them:
//! device-to-device copies between offsets (CUDA Runtime API, cudaMemcpy: "Copies count bytes
//! from the memory area pointed to by src to the memory area pointed to by dst";
//! `cudaMemcpyDefault` infers the direction, "Unified Virtual Addressing"), launches through
//! pointer views (C++17 [expr.add]/4), memsets laying bytes (cudaMemset: "Fills the first count
//! bytes … with the constant byte value value"), `cudaMemcpyToSymbol` at an offset and
//! `cudaMemcpy2D` of part of each row. Each expected value is derived by hand, written beside
//! it; a cell nothing defined wrote stays undefined (`None`).

use crate::support::{has, ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

/// Runs `src` with `entry` traced, every launch of host code in order.
fn run_entry(src: &str, entry: &str) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.to_string()),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn some(v: impl IntoIterator<Item = i128>) -> Vec<Option<i128>> {
    v.into_iter().map(Some).collect()
}

/// `b` = h = -i (32 cells), then cells 4..20 of `b` take cells 8..24 of `a`.
/// Expected: b[i] = -i for i < 4 and i >= 20, b[i] = a[i + 4] for 4 <= i < 20.
fn partial_expected(a: impl Fn(i128) -> i128) -> Vec<Option<i128>> {
    (0..32)
        .map(|i| Some(if (4..20).contains(&i) { a(i + 4) } else { -i }))
        .collect()
}

#[test]
fn a_partial_device_to_device_copy_takes_exactly_its_cells_of_what_a_launch_left() {
    // seed writes a[i] = 100 + i; b[4..20] = a[8..24] = 108..123; the rest of b is -i.
    let src = "\
__global__ void seed(int* a) { int i = threadIdx.x; a[i] = 100 + i; }
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int *d_a, *d_b, *out;
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = -i;
  cudaMalloc(&d_a, 32 * sizeof(int)); cudaMalloc(&d_b, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemcpy(d_b, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  seed<<<1, 32>>>(d_a);
  cudaMemcpy(d_b + 4, d_a + 8, 16 * sizeof(int), cudaMemcpyDeviceToDevice);
  show<<<1, 32>>>(d_b, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    assert_eq!(ints(&t, "out"), partial_expected(|j| 100 + j));
}

#[test]
fn a_partial_hip_device_to_device_copy_of_host_copied_cells() {
    // a = g = 100 + i by hipMemcpy; b[4..20] = a[8..24] = 108..123; the rest -i.
    let src = "\
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int *d_a, *d_b, *out;
  int h[32], g[32];
  for (int i = 0; i < 32; i++) { h[i] = -i; g[i] = 100 + i; }
  hipMalloc(&d_a, 32 * sizeof(int)); hipMalloc(&d_b, 32 * sizeof(int));
  hipMalloc(&out, 32 * sizeof(int));
  hipMemcpy(d_b, h, 32 * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_a, g, 32 * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_b + 4, d_a + 8, 16 * sizeof(int), hipMemcpyDeviceToDevice);
  hipLaunchKernelGGL(show, 1, 32, 0, 0, d_b, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    assert_eq!(ints(&t, "out"), partial_expected(|j| 100 + j));
}

#[test]
fn an_async_default_kind_copy_keeps_what_a_launch_through_a_view_of_the_destination_left() {
    // b = 0 (memset); bump adds 1000 to b[24..32]; seed writes a[i] = 100 + i; the async
    // copy (cudaMemcpyDefault: both pointers are device memory) puts a[8..24] in b[4..20].
    // out = 0 0 0 0, 108..123, 0 0 0 0, 1000 x 8.
    let src = "\
__global__ void seed(int* a) { int i = threadIdx.x; a[i] = 100 + i; }
__global__ void bump(int* b) { int i = threadIdx.x; b[i] += 1000; }
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int *d_a, *d_b, *out;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMalloc(&d_a, 32 * sizeof(int)); cudaMalloc(&d_b, 32 * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(d_b, 0, 32 * sizeof(int));
  seed<<<1, 32>>>(d_a);
  bump<<<1, 8>>>(d_b + 24);
  cudaMemcpyAsync(d_b + 4, d_a + 8, 16 * sizeof(int), cudaMemcpyDefault, s);
  cudaDeviceSynchronize();
  show<<<1, 32>>>(d_b, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    let want: Vec<Option<i128>> = (0..32)
        .map(|i| {
            Some(match i {
                4..=19 => 104 + i,
                24.. => 1000,
                _ => 0,
            })
        })
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_partial_copy_from_fresh_memory_leaves_its_cells_undefined_and_an_overrun_is_said() {
    // a is never written: b[2..6] undefined, the rest of b = 7 (h).
    let src = "\
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int *a, *b, *out;
  int h[8];
  for (int i = 0; i < 8; i++) h[i] = 7;
  cudaMalloc(&a, 8 * sizeof(int)); cudaMalloc(&b, 8 * sizeof(int));
  cudaMalloc(&out, 8 * sizeof(int));
  cudaMemcpy(b, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(b + 2, a, 4 * sizeof(int), cudaMemcpyDeviceToDevice);
  show<<<1, 8>>>(b, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    let b = ints(&t, "b");
    assert_eq!(b[..2], some([7, 7])[..]);
    assert_eq!(b[2..6], [None, None, None, None]);
    assert_eq!(b[6..], some([7, 7])[..]);
    // 6 cells from element 4 of an 8-cell allocation run past its end.
    let over = src.replace("b + 2, a, 4 * sizeof", "b + 4, a, 6 * sizeof");
    let t = run_entry(&over, "show");
    assert!(
        has(&t, Level::Warning, "past the end of an allocation"),
        "{:?}",
        said(&t, Level::Warning)
    );
    assert!(ints(&t, "b").iter().all(Option::is_none));
}

#[test]
fn launches_through_pointer_views_write_their_cells_over_a_memset() {
    // 0xff bytes: every int -1. put through p = d + 32 writes d[32..64] = 1000 + i; p += 8,
    // put<<<1, 8>>> writes d[40..48] = 1000..1007; the memset of d + 4 clears d[4..12].
    let src = "\
__global__ void put(int* p) { int i = threadIdx.x; p[i] = 1000 + i; }
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int *d, *out;
  cudaMalloc(&d, 80 * sizeof(int)); cudaMalloc(&out, 80 * sizeof(int));
  cudaMemset(d, 0xff, 80 * sizeof(int));
  int* p = d + 32;
  put<<<1, 32>>>(p);
  p += 8;
  put<<<1, 8>>>(p);
  cudaMemset(d + 4, 0, 8 * sizeof(int));
  show<<<1, 80>>>(d, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    let want: Vec<Option<i128>> = (0..80)
        .map(|i| {
            Some(match i {
                4..=11 => 0,
                32..=39 => 1000 + i - 32,
                40..=47 => 1000 + i - 40,
                48..=63 => 1000 + i - 32,
                _ => -1,
            })
        })
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn memset_sets_bytes_of_bool_char_uint8_and_int_buffers() {
    // bool: byte 1 is true; char 3; uint8_t 0xab = 171; int 0x01010101 = 16843009.
    // out = (b ? 1 : 0) + 10 * c + 1000 * u = 1 + 30 + 171000 = 171031.
    let src = "\
#include <cstdint>
__global__ void show(const bool* b, const char* c, const uint8_t* u, const int* n, int* out) {
  int i = threadIdx.x; out[i] = (b[i] ? 1 : 0) + 10 * c[i] + 1000 * u[i]; out[8 + i] = n[i];
}
int main() {
  bool* b; char* c; uint8_t* u; int* n; int* out;
  cudaMalloc(&b, 8); cudaMalloc(&c, 8); cudaMalloc(&u, 8);
  cudaMalloc(&n, 8 * sizeof(int)); cudaMalloc(&out, 16 * sizeof(int));
  cudaMemset(b, 1, 8);
  cudaMemset(c, 3, 8 * sizeof(char));
  cudaMemset(u, 0xab, 8);
  cudaMemset(n, 1, 8 * 4);
  show<<<1, 8>>>(b, c, u, n, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    let mut want = vec![Some(171_031); 8];
    want.extend(vec![Some(0x0101_0101); 8]);
    assert_eq!(ints(&t, "out"), want);
    // A byte no `bool` holds (7 at b[2], b[3]): those cells are undefined, said.
    let bad = src.replace(
        "cudaMemset(b, 1, 8);",
        "cudaMemset(b, 1, 8); cudaMemset(b + 2, 7, 2);",
    );
    let t = run_entry(&bad, "show");
    let out = ints(&t, "out");
    assert_eq!(out[..2], [Some(171_031), Some(171_031)]);
    assert_eq!(out[2..4], [None, None]);
    assert_eq!(out[4..8], [Some(171_031); 4]);
    assert!(
        has(
            &t,
            Level::Warning,
            "a `bool` holds only 0 (false) or 1 (true)"
        ),
        "{:?}",
        said(&t, Level::Warning)
    );
}

#[test]
fn memcpy_to_symbol_at_an_offset_writes_only_its_cells() {
    // c = z (zeros), then 4 ints of h from byte 8 (cell 2): c = 0 0 1 2 3 4 0 0.
    let src = "\
__constant__ int c[8];
__global__ void show(int* out) { int i = threadIdx.x; out[i] = c[i]; }
int main() {
  int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int z[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int *out;
  cudaMalloc(&out, 8 * sizeof(int));
  cudaMemcpyToSymbol(c, z, sizeof(z));
  cudaMemcpyToSymbol(c, h, 4 * sizeof(int), 2 * sizeof(int));
  show<<<1, 8>>>(out);
  int back[4];
  cudaMemcpyFromSymbol(back, c, 4 * sizeof(int), 4 * sizeof(int));
  return 0;
}
";
    let t = run_entry(src, "show");
    assert_eq!(ints(&t, "out"), some([0, 0, 1, 2, 3, 4, 0, 0]));
    // Without the first copy the cells outside the range are zero (static storage).
    let t = run_entry(
        &src.replace("cudaMemcpyToSymbol(c, z, sizeof(z));", ""),
        "show",
    );
    assert_eq!(ints(&t, "out"), some([0, 0, 1, 2, 3, 4, 0, 0]));
}

#[test]
fn memcpy_2d_of_part_of_each_row_keeps_the_memset_elsewhere() {
    // Rows of 4 floats at a 512-byte pitch, cleared; 2 floats of each of 3 rows from h (a
    // 4-float source pitch): out[r * 4 + c] = h[r * 4 + c] = r * 4 + c + 0.5 for c < 2, else 0.
    let src = "\
__global__ void show(const float* d, size_t pitch, int* out) {
  int i = threadIdx.x; int r = i / 4; int col = i % 4;
  const float* row = (const float*)((const char*)d + r * pitch);
  out[i] = (int)(row[col] * 2.0f);
}
int main() {
  float h[12];
  for (int i = 0; i < 12; i++) h[i] = i + 0.5f;
  float *d; int *out; size_t pitch;
  cudaMallocPitch(&d, &pitch, 4 * sizeof(float), 3);
  cudaMalloc(&out, 12 * sizeof(int));
  cudaMemset(d, 0, pitch * 3);
  cudaMemcpy2D(d, pitch, h, 4 * sizeof(float), 2 * sizeof(float), 3, cudaMemcpyHostToDevice);
  show<<<1, 12>>>(d, pitch, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    // Twice the value: 2 * (i + 0.5) = 2i + 1 where copied.
    let want: Vec<Option<i128>> = (0..12)
        .map(|i| Some(if i % 4 < 2 { 2 * i + 1 } else { 0 }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_round_trip_through_the_host_computes_with_what_the_launch_left() {
    // h = i; inc: d = i + i = 2i; back on the host h = 2 * 2i + 1 = 4i + 1; copied in, inc:
    // d = 4i + 1 + i = 5i + 1; copied back, then show: out = 1, 6, 11, …, 36.
    let src = "\
__global__ void inc(int* a) { int i = threadIdx.x; a[i] = a[i] + i; }
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int h[8];
  for (int i = 0; i < 8; i++) h[i] = i;
  int *d, *out;
  cudaMalloc(&d, 8 * sizeof(int)); cudaMalloc(&out, 8 * sizeof(int));
  cudaMemcpy(d, h, 8 * sizeof(int), cudaMemcpyHostToDevice);
  inc<<<1, 8>>>(d);
  cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) h[i] = h[i] * 2 + 1;
  cudaMemcpy(d, h, 8 * sizeof(int), cudaMemcpyHostToDevice);
  inc<<<1, 8>>>(d);
  cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  show<<<1, 8>>>(d, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    assert_eq!(ints(&t, "out"), some((0..8).map(|i| 5 * i + 1)));
    // Traced as the second `inc`'s: it finds 4i + 1.
    let second = src.replace("inc<<<1, 8>>>(d);\n  cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);\n  show", "inc2<<<1, 8>>>(d);\n  cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);\n  show")
        .replace("__global__ void show", "__global__ void inc2(int* a) { int i = threadIdx.x; a[i] = a[i] + i; }\n__global__ void show");
    let t = run_entry(&second, "inc2");
    assert_eq!(ints(&t, "a"), some((0..8).map(|i| 5 * i + 1)));
}

#[test]
fn a_round_trip_keeps_cells_the_launch_left_undefined_undefined() {
    // d is fresh; put writes d[0..4] = 7i; the 8 cells go to the host and back unchanged:
    // out = 0, 7, 14, 21, then four cells nothing wrote (cudaMalloc does not clear memory).
    let src = "\
__global__ void put(int* a) { int i = threadIdx.x; a[i] = 7 * i; }
__global__ void show(const int* b, int* out) { int i = threadIdx.x; out[i] = b[i]; }
int main() {
  int h[8];
  int *d, *out;
  cudaMalloc(&d, 8 * sizeof(int)); cudaMalloc(&out, 8 * sizeof(int));
  put<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  show<<<1, 8>>>(d, out);
  return 0;
}
";
    let t = run_entry(src, "show");
    let out = ints(&t, "out");
    assert_eq!(out[..4], some([0, 7, 14, 21])[..]);
    assert_eq!(out[4..], [None, None, None, None]);
}

/// Traced as the first of two launches with a round trip through the host between them (the
/// default trace): the buffer at the end of the run is the device's after the second launch,
/// which host code gave the allocation again with `cudaMemcpy(d, h, …)`. h = 0; inc: d = 1;
/// back on the host h = 1 * 2 + 1 = 3; copied in, inc: d = 4. Without the host arithmetic the
/// second launch finds 1 and leaves 2.
#[test]
fn the_final_buffer_follows_a_launch_given_the_allocation_again_after_a_round_trip() {
    let src = "\
__global__ void inc(int* d) { d[threadIdx.x] += 1; }
int main() {
  int h[4];
  for (int i = 0; i < 4; ++i) h[i] = 0;
  int* d;
  cudaMalloc(&d, 16);
  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
  inc<<<1, 4>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; ++i) h[i] = h[i] * 2 + 1;
  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
  inc<<<1, 4>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  return 0;
}
";
    let t = run_entry(src, "inc");
    assert_eq!(ints(&t, "d"), some([4, 4, 4, 4]));
    let plain = src.replace("  for (int i = 0; i < 4; ++i) h[i] = h[i] * 2 + 1;\n", "");
    let t = run_entry(&plain, "inc");
    assert_eq!(ints(&t, "d"), some([2, 2, 2, 2]));
}

/// A round trip inside a loop: each iteration's copy back is a copy of its own (the reading
/// counts the times it meets the call), read from what that iteration's launch left, so the
/// loop runs as the device runs it. h = 0; each iteration: d = h, inc: d = h + 1, h = d. After
/// three iterations d = 3.
#[test]
fn a_round_trip_in_a_loop_follows_every_iteration() {
    let src = "\
__global__ void inc(int* d) { d[threadIdx.x] += 1; }
int main() {
  int h[4] = {0, 0, 0, 0};
  int* d;
  cudaMalloc(&d, 16);
  for (int r = 0; r < 3; ++r) {
    cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
    inc<<<1, 4>>>(d);
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  }
  return 0;
}
";
    let t = run_entry(src, "inc");
    assert_eq!(ints(&t, "d"), some([3, 3, 3, 3]));
    assert!(!has(&t, Level::Warning, "which has no value here"));
}

/// Three rounds of +1 on the device and +1 on the host, then the host array copied in once
/// more and incremented: by hand, h = 0 → d 1, h 2 → d 3, h 4 → d 5, h 6; the last launch
/// gives d = 7. Without the final launch the device ends at 5.
#[test]
fn host_changes_between_a_loops_launches_reach_the_next_iteration() {
    let src = "\
__global__ void inc(int* d) { d[threadIdx.x] += 1; }
int main() {
  int h[4] = {0, 0, 0, 0};
  int* d;
  cudaMalloc(&d, 16);
  for (int r = 0; r < 3; ++r) {
    cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
    inc<<<1, 4>>>(d);
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; ++i) h[i] += 1;
  }
  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
  inc<<<1, 4>>>(d);
  return 0;
}
";
    let t = run_entry(src, "inc");
    assert_eq!(ints(&t, "d"), some([7, 7, 7, 7]));
    let short = src.replace(
        "  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);\n  inc<<<1, 4>>>(d);\n  return",
        "  return",
    );
    let t = run_entry(&short, "inc");
    assert_eq!(ints(&t, "d"), some([5, 5, 5, 5]));
}

/// More round trips than the readings crosslane allows (`MAX_ROUNDS`, 16): the iterations
/// within it are followed, the rest leave the host array unknown and the device's buffer
/// undefined, with the limit named — never a number.
#[test]
fn a_loop_past_the_round_budget_ends_undefined_naming_the_limit() {
    let src = "\
__global__ void inc(int* d) { d[threadIdx.x] += 1; }
int main() {
  int h[4] = {0, 0, 0, 0};
  int* d;
  cudaMalloc(&d, 16);
  for (int r = 0; r < 40; ++r) {
    cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
    inc<<<1, 4>>>(d);
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  }
  return 0;
}
";
    let t = run_entry(src, "inc");
    assert_eq!(ints(&t, "d"), vec![None, None, None, None]);
    assert!(has(&t, Level::Warning, "crosslane's limit of 16 readings"));
}

/// A loop that copies the buffer back only to look at it (never copied in again): the launches
/// chain on the device (each finds what the one before left: 1, 2, 3) and the end is 3; the
/// later iterations' copies back are not read again, as nothing the device does depends on
/// them.
#[test]
fn a_loop_that_only_copies_back_chains_its_launches_on_the_device() {
    let src = "\
__global__ void inc(int* d) { d[threadIdx.x] += 1; }
int main() {
  int h[4] = {0, 0, 0, 0};
  int* d;
  cudaMalloc(&d, 16);
  cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice);
  for (int r = 0; r < 3; ++r) {
    inc<<<1, 4>>>(d);
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
  }
  return 0;
}
";
    let t = run_entry(src, "inc");
    assert_eq!(ints(&t, "d"), some([3, 3, 3, 3]));
}
