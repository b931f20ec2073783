//! Shapes of NVIDIA-family sample programs (round two of the corpus) that were refused or left
//! cells unread: a host fill loop that also sums the cells it has just written (`h[i] = …;
//! total += h[i];`, as CUB's examples and the Kepler-reduction blog write their check), …
//! Kernels are written here; expected values come from the Python beside each test.

use crate::support::ints;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_fill_loop_that_reads_back_the_cell_it_wrote_fills_the_array() {
    // The helper writes h[i] = (i * 3) % 7 and sums the cells it wrote (its return value is not
    // needed). The kernel adds its warp's values with __shfl_xor_sync (C++ Programming Guide,
    // "Warp Shuffle Functions"), so each lane holds the sum of its 32 cells. Python:
    //   h = [(i * 3) % 7 for i in range(32)]; sum(h) == 95
    let src = "\
__global__ void total(const int *in, int *out) {
  int v = in[threadIdx.x];
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
  out[threadIdx.x] = v;
}
int init(int *h, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 3) % 7;
    sum += h[i];
  }
  return sum;
}
int main() {
  const int n = 32;
  int *h = new int[n];
  int expect = init(h, n);
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  total<<<1, n>>>(d_in, d_out);
  return expect == 95 ? 0 : 1;
}
";
    let t = run(src);
    let h: Vec<Option<i128>> = (0..32).map(|i| Some((i * 3) % 7)).collect();
    assert_eq!(ints(&t, "in"), h);
    assert_eq!(ints(&t, "out"), vec![Some(95); 32]);
}
