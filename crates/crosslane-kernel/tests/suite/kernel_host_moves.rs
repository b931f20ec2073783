//! Host code moving its device pointers between launches: `std::swap(d_a, d_b)` of a
//! ping-pong loop (C++17 [utility.swap]: the two values exchanged), `p += N`, `p -= N`, `++p`,
//! `p++`, `--p` (C++17 [expr.ass]/6, [expr.pre.incr]/1, [expr.post.incr]/1, [expr.add]/4),
//! launches in a loop through an advancing pointer (their writes all in the final buffers),
//! `--single-launch` finding the `cudaMemcpyToSymbol` made before the launch, and a partial
//! device-to-device copy said instead of dropped. Every expected value is derived by hand in
//! the comment beside it.

use crate::support::{has, ints};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, entry: &str, launch: usize, single: bool) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.to_string()),
        launch: Some(launch),
        single_launch: single,
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

use crate::support::ints_at_launch as at_launch;

fn some(v: &[i128]) -> Vec<Option<i128>> {
    v.iter().map(|&x| Some(x)).collect()
}

const PING_PONG: &str = "\
#include <utility>
__global__ void inc(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x] + 1; }
int main() {
  int h[4] = {10, 20, 30, 40};
  int *d_a, *d_b;
  cudaMalloc(&d_a, 4 * sizeof(int));
  cudaMalloc(&d_b, 4 * sizeof(int));
  cudaMemcpy(d_a, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemset(d_b, 0, sizeof(h));
  for (int it = 0; it < 3; it++) {
    inc<<<1, 4>>>(d_a, d_b);
    std::swap(d_a, d_b);
  }
  return 0;
}
";

#[test]
fn std_swap_of_two_device_pointers_ping_pongs_between_the_buffers() {
    // Launch 1: A = 10 20 30 40 -> B = 11 21 31 41; swap; launch 2: B -> A = 12 22 32 42;
    // swap; launch 3: A -> B = 13 23 33 43.
    let t = run(PING_PONG, "inc", 1, false);
    // Launch 1's `in` is A, `out` B: the final buffers after all three launches.
    assert_eq!(ints(&t, "in"), some(&[12, 22, 32, 42]));
    assert_eq!(ints(&t, "out"), some(&[13, 23, 33, 43]));
    let t = run(PING_PONG, "inc", 2, false);
    // Launch 2's `in` is B (launch 1's result), its `out` A (still the host copy).
    assert_eq!(at_launch(&t, "in"), some(&[11, 21, 31, 41]));
    assert_eq!(at_launch(&t, "out"), some(&[10, 20, 30, 40]));
    assert_eq!(ints(&t, "in"), some(&[13, 23, 33, 43]));
    assert_eq!(ints(&t, "out"), some(&[12, 22, 32, 42]));
    assert!(!has(&t, Level::Info, "one buffer"));
}

#[test]
fn compound_assignment_and_increments_move_a_host_pointer() {
    let src = "\
__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void copy(const int *a, int *o) { o[threadIdx.x] = a[threadIdx.x]; }
int main() {
  int *d, *o, *r;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMalloc(&o, 4 * sizeof(int));
  cudaMalloc(&r, 4 * sizeof(int));
  fill<<<1, 32>>>(d);
  int *p = d;
  p += 8;
  p++;
  ++p;
  p--;
  copy<<<1, 4>>>(p, o);
  int *s = d + 20;
  s -= 2;
  --s;
  copy<<<1, 4>>>(s, r);
  return 0;
}
";
    // d[i] = i. p: 0 + 8 + 1 + 1 - 1 = 9, so o = d[9..13] = 9 10 11 12.
    let t = run(src, "copy", 1, false);
    assert_eq!(ints(&t, "o"), some(&[9, 10, 11, 12]));
    // s: 20 - 2 - 1 = 17, so r = d[17..21] = 17 18 19 20.
    let t = run(src, "copy", 2, false);
    assert_eq!(ints(&t, "o"), some(&[17, 18, 19, 20]));
}

#[test]
fn a_pointer_moved_by_a_count_host_code_does_not_know_is_said_not_kept() {
    let src = "\
__global__ void copy(const int *a, int *o) { o[threadIdx.x] = a[threadIdx.x]; }
int main() {
  int *d, *o;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMalloc(&o, 4 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  int n = rand();
  int *p = d;
  p += n;
  copy<<<1, 4>>>(p, o);
  return 0;
}
";
    // The old value (d, all zeros) would give 0 0 0 0: the offset is unknown instead.
    let t = run(src, "copy", 1, false);
    assert!(has(&t, Level::Warning, "offset that has no constant value"));
    assert_eq!(ints(&t, "o"), vec![None; 4]);
}

#[test]
fn the_final_buffers_hold_every_launch_of_a_loop_through_an_advancing_pointer() {
    let src = "\
__global__ void fill(int *p, int base) { p[threadIdx.x] = base + threadIdx.x; }
int main() {
  int *d;
  cudaMalloc(&d, 16 * sizeof(int));
  cudaMemset(d, 0, 16 * sizeof(int));
  int *q = d;
  for (int c = 0; c < 4; c++) {
    fill<<<1, 2>>>(q, c * 100);
    q = q + 4;
  }
  return 0;
}
";
    // Launch c writes d[4c], d[4c + 1] = 100c, 100c + 1; the rest stays 0.
    let t = run(src, "fill", 1, false);
    let want = [0, 1, 0, 0, 100, 101, 0, 0, 200, 201, 0, 0, 300, 301, 0, 0];
    assert_eq!(ints(&t, "p"), some(&want));
    // Launch 2 views d from element 4 on: launches 2, 3 and 4 in it.
    let t = run(src, "fill", 2, false);
    assert_eq!(ints(&t, "p"), some(&want[4..]));
}

const SYMBOLS: &str = "\
__device__ int g_counter;
__global__ void count(int *out) { out[threadIdx.x] = atomicAdd(&g_counter, 1); }
int main() {
  int *out;
  cudaMalloc(&out, 4 * sizeof(int));
  int zero = 0, five = 5;
  cudaMemcpyToSymbol(g_counter, &zero, sizeof(int));
  count<<<1, 4>>>(out);
  cudaMemcpyToSymbol(g_counter, &five, sizeof(int));
  count<<<1, 4>>>(out);
  return 0;
}
";

#[test]
fn a_single_launch_finds_the_symbol_copy_made_before_it() {
    // Launch 1 finds 0 (the copy before it): the four lanes' atomicAdd return 0..3 in lane
    // order and leave 4. Launch 2 finds 5: 5..8, leaving 9.
    let t = run(SYMBOLS, "count", 1, true);
    assert_eq!(at_launch(&t, "g_counter"), some(&[0]));
    assert_eq!(ints(&t, "out"), some(&[0, 1, 2, 3]));
    assert_eq!(ints(&t, "g_counter"), some(&[4]));
    let t = run(SYMBOLS, "count", 2, true);
    assert_eq!(at_launch(&t, "g_counter"), some(&[5]));
    assert_eq!(ints(&t, "out"), some(&[5, 6, 7, 8]));
    // The note no longer says the one copy fills it.
    assert!(has(&t, Level::Info, "copies into it 2 times"));
}

#[test]
fn a_partial_device_to_device_copy_is_said_not_dropped() {
    let src = "\
__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x * 3; }
__global__ void addk(const int *a, int *o) { o[threadIdx.x] = a[threadIdx.x] + 1000; }
int main() {
  int *a, *b, *o;
  cudaMalloc(&a, 8 * sizeof(int));
  cudaMalloc(&b, 8 * sizeof(int));
  cudaMalloc(&o, 8 * sizeof(int));
  cudaMemset(b, 0, 8 * sizeof(int));
  fill<<<1, 8>>>(a);
  cudaMemcpy(b + 2, a, 4 * sizeof(int), cudaMemcpyDeviceToDevice);
  addk<<<1, 8>>>(b, o);
  return 0;
}
";
    // Dropping the copy gave 1000 x 8 (the memset's zeros). fill leaves a[i] = 3i; the copy
    // puts a[0..4] = 0, 3, 6, 9 in b[2..6] (CUDA Runtime API, cudaMemcpy: count bytes), the
    // rest of b stays 0: o = b + 1000 = 1000, 1000, 1000, 1003, 1006, 1009, 1000, 1000.
    let t = run(src, "addk", 1, false);
    assert_eq!(
        ints(&t, "o"),
        [1000, 1000, 1000, 1003, 1006, 1009, 1000, 1000]
            .map(Some)
            .to_vec()
    );
}
