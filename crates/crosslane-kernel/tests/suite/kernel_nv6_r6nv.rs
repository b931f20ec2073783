//! Shapes of NVIDIA-family sample programs (round six of the corpus) that ran with wrong or
//! undefined inputs: a host byte array copied into memory a kernel reads as `uint4` (the
//! histogram samples' `data_t`: cudaMemcpy copies bytes, so each component is four of the
//! host's bytes, little-endian), and a device pointer declared at file scope that one host
//! helper allocates and another passes to its launches (`static uint *d_PartialHistograms;`
//! with `initHistogram64()` and `histogram64(…)`), and a host loop of launches left by `break`
//! (the bitonic sort sample's `if (stride >= LIMIT) global<<<…>>>(…); else { shared<<<…>>>(…);
//! break; }`) or skipping one by `continue`. Kernels are written here; expected values come
//! from the Python beside each test.

use crate::support::ints;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run_entry(src: &str, entry: &str) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.into()),
        ..LaunchConfig::default()
    };
    run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_host_byte_array_copied_into_a_uint4_buffer_lays_its_bytes_over_the_components() {
    // 64 bytes h[i] = (7 i + 3) & 0xFF copied into a `uint4*` buffer of 4 elements: thread t
    // stores its `x` word and the sum of its 16 bytes.
    // Python: h=[(i*7+3)&0xff for i in range(64)]; for t in range(4): b=h[16*t:16*t+16];
    //   x=b[0]|b[1]<<8|b[2]<<16|b[3]<<24 -> [x, sum(b)] per t
    let src = "\
typedef unsigned char uchar;
__device__ unsigned bytes_of(unsigned w) {
  return (w & 0xFFU) + ((w >> 8) & 0xFFU) + ((w >> 16) & 0xFFU) + (w >> 24);
}
__global__ void byte_sums(unsigned *out, uint4 *d_Data, unsigned count) {
  unsigned t = threadIdx.x;
  if (t < count) {
    uint4 v = d_Data[t];
    out[2 * t] = v.x;
    out[2 * t + 1] = bytes_of(v.x) + bytes_of(v.y) + bytes_of(v.z) + bytes_of(v.w);
  }
}
int main() {
  const unsigned byteCount = 64;
  uchar *h_Data = (uchar *)malloc(byteCount);
  for (unsigned i = 0; i < byteCount; i++) h_Data[i] = (uchar)((i * 7 + 3) & 0xFF);
  uchar *d_Data;
  unsigned *d_out;
  cudaMalloc((void **)&d_Data, byteCount);
  cudaMalloc((void **)&d_out, 8 * sizeof(unsigned));
  cudaMemcpy(d_Data, h_Data, byteCount, cudaMemcpyHostToDevice);
  byte_sums<<<1, 4>>>(d_out, (uint4 *)d_Data, byteCount / sizeof(uint4));
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = [
        403_769_859,
        888,
        2_290_186_867,
        2680,
        4_176_603_875,
        1656,
        1_751_210_579,
        2168,
    ]
    .into_iter()
    .map(Some)
    .collect();
    assert_eq!(ints(&t, "out"), want);
    // The buffer holds the 64 bytes: 4 elements of `uint4`, not one per host byte.
    assert_eq!(t.buffer("d_Data").map(<[_]>::len), Some(4));
}

#[test]
fn a_file_scope_pointer_allocated_by_one_helper_is_the_buffer_another_helper_launches_on() {
    // `init()` allocates the file-scope `d_tmp`; `run(out)` launches `produce` into it and
    // `consume` out of it. Python: t=[i*i+1 for i in range(64)]; [2*t[63-i] for i in range(64)]
    let src = "\
static unsigned *d_tmp;
__global__ void produce(unsigned *t) { t[threadIdx.x] = threadIdx.x * threadIdx.x + 1; }
__global__ void consume(unsigned *out, unsigned *t) {
  out[threadIdx.x] = 2 * t[blockDim.x - 1 - threadIdx.x];
}
extern \"C\" void init(void) { cudaMalloc((void **)&d_tmp, 64 * sizeof(unsigned)); }
extern \"C\" void done(void) { cudaFree(d_tmp); }
extern \"C\" void run(unsigned *d_out) {
  produce<<<1, 64>>>(d_tmp);
  consume<<<1, 64>>>(d_out, d_tmp);
}
int main() {
  unsigned *d_out;
  cudaMalloc((void **)&d_out, 64 * sizeof(unsigned));
  init();
  run(d_out);
  done();
  return 0;
}
";
    let t = run_entry(src, "consume");
    let want: Vec<Option<i128>> = (0..64i128)
        .map(|i| Some(2 * ((63 - i) * (63 - i) + 1)))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_host_loop_of_launches_left_by_break_runs_each_iteration_up_to_it() {
    // The bitonic sort sample's stride loop in a helper: `stride >= 4` launches `add_s`, else
    // `twice_plus` and leaves the inner loop. Python: seq = []; for size in (4, 8, 16): s =
    // size // 2; while s > 0: (seq.append(('A', s)), s := s >> 1) if s >= 4 else
    // (seq.append(('B', s)), break) -> B2 A4 B2 A8 A4 B2; d = [0, 1, 2, 3]; A: x + s, B:
    // 2 x + s -> [54, 62, 70, 78]
    let src = "\
__global__ void add_s(int *d, int s) { d[threadIdx.x] += s; }
__global__ void twice_plus(int *d, int s) { d[threadIdx.x] = 2 * d[threadIdx.x] + s; }
void sort_like(int *d, unsigned n) {
  for (unsigned size = 4; size <= n; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1)
      if (stride >= 4) {
        add_s<<<1, 4>>>(d, stride);
      } else {
        twice_plus<<<1, 4>>>(d, stride);
        break;
      }
}
int main() {
  int h[4] = {0, 1, 2, 3};
  int *d;
  cudaMalloc((void **)&d, 4 * sizeof(int));
  cudaMemcpy(d, h, 4 * sizeof(int), cudaMemcpyHostToDevice);
  sort_like(d, 16);
  return 0;
}
";
    let t = run(src);
    assert_eq!(ints(&t, "d"), vec![Some(54), Some(62), Some(70), Some(78)]);
}

#[test]
fn a_host_loop_skipping_a_launch_by_continue_runs_the_other_iterations() {
    // Odd passes `continue` past the launch. Python: e = [10 i for i in range(4)]; for p in
    // range(6): if p % 2: continue; e = [3 x + p for x in e] -> [10, 280, 550, 820]
    let src = "\
__global__ void pass(int *d, int p) { d[threadIdx.x] = 3 * d[threadIdx.x] + p; }
int main() {
  int h[4];
  for (int i = 0; i < 4; i++) h[i] = 10 * i;
  int *d;
  cudaMalloc((void **)&d, 4 * sizeof(int));
  cudaMemcpy(d, h, 4 * sizeof(int), cudaMemcpyHostToDevice);
  for (int p = 0; p < 6; p++) {
    if (p % 2 == 1) continue;
    pass<<<1, 4>>>(d, p);
  }
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        ints(&t, "d"),
        vec![Some(10), Some(280), Some(550), Some(820)]
    );
}
