//! Shapes of NVIDIA-family test programs (round three of the corpus) that ran with a wrong
//! geometry, stopped with an unclear error or left cells unread: a `dim3` given by a braced
//! list (`dim3 g = {2, 1, 1};`, and `g = {16, 8, 1};` after `dim3 g;`), a thread block's
//! `thread_index()` / `group_index()` / `dim_threads()` as values, managed memory a host helper
//! fills between launches, a helper whose fill loop also updates reference parameters from
//! the cells it wrote, CUB's `WarpScan::Broadcast` and `cub::ThreadLoad` / `ThreadStore`.
//! Kernels are written here; expected values come from the Python beside each test.

use crate::support::ints;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run_entry(src: &str, entry: &str) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.to_string()),
        ..LaunchConfig::default()
    };
    run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_dim3_assigned_a_braced_list_after_its_declaration_gives_the_launch_its_geometry() {
    // `dim3 grid; dim3 block;` are (1, 1, 1); `grid = {2};` and `block = {4, 2, 1};` assign
    // (CUDA C++ Programming Guide, "dim3": a component left out is 1). Each thread writes
    // blockDim.x * 100 + blockDim.y * 10 + gridDim.x at its linear index. Python:
    //   [4 * 100 + 2 * 10 + 2] * 16 == [422] * 16
    let src = "\
__global__ void k(int *o) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  o[blockIdx.x * blockDim.x * blockDim.y + t] = blockDim.x * 100 + blockDim.y * 10 + gridDim.x;
}
int main() {
  int *o;
  dim3 grid;
  dim3 block;
  cudaMallocManaged(&o, 16 * sizeof(int));
  grid = {2};
  block = {4, 2, 1};
  k<<<grid, block>>>(o);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(t.launch.block_dim, [4, 2, 1]);
    assert_eq!(ints(&t, "o"), vec![Some(422); 16]);
}

#[test]
fn a_dim3_declared_with_an_equals_braced_list_is_read() {
    // `dim3 DimGrid = {3, 1, 1}; dim3 DimBlock = {32, 1, 1};`: copy-list-initialization.
    let src = "\
__global__ void k(int *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x; }
int main() {
  int *o;
  cudaMalloc(&o, 96 * sizeof(int));
  dim3 DimGrid = {3, 1, 1};
  dim3 DimBlock = {32, 1, 1};
  k<<<DimGrid, DimBlock>>>(o);
  return 0;
}
";
    let t = run(src);
    assert_eq!(t.launch.grid_dim, [3, 1, 1]);
    assert_eq!(t.launch.block_dim, [32, 1, 1]);
    let want: Vec<Option<i128>> = (0..96).map(|i| Some(i / 32)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_dim3_assigned_a_list_host_code_cannot_read_is_not_its_older_value() {
    // `block = {width()};` with `width` declared only: the launch has no block size from host
    // code, and says so; it does not launch the 64 threads the older value gave.
    let src = "\
int width();
__global__ void k(int *o) { o[threadIdx.x] = blockDim.x; }
int main() {
  int *o;
  cudaMalloc(&o, 64 * sizeof(int));
  dim3 block = {64};
  block = {width()};
  k<<<1, block>>>(o);
  return 0;
}
";
    let t = run(src);
    assert_ne!(t.launch.block_dim, [64, 1, 1]);
    assert!(
        t.diagnostics
            .iter()
            .any(|d| d.message.contains("`block` has no constant value")),
        "{:?}",
        t.diagnostics
    );
}

#[test]
fn a_thread_blocks_index_and_dimension_members_are_dim3_values() {
    // CUDA C++ Programming Guide, Cooperative Groups, "Thread Block Group": thread_index() is
    // threadIdx, group_index() blockIdx, dim_threads() (and group_dim()) blockDim. A statement
    // that discards one (`block.thread_index();`) is no error. Two blocks of 4x2 threads; cell
    // = t.x + 10 * t.y + 100 * g.x + 1000 * d.x + 10000 * d.y. Python:
    //   [x + 10*y + 100*b + 4000 + 20000 for b in range(2) for y in range(2) for x in range(4)]
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *o) {
  cg::thread_block block = cg::this_thread_block();
  block.thread_index();
  dim3 t = block.thread_index();
  dim3 g = block.group_index();
  dim3 d = block.dim_threads();
  unsigned dy = block.group_dim().y;
  o[block.group_index().x * 8 + block.thread_rank()] =
      t.x + 10 * t.y + 100 * g.x + 1000 * d.x + 10000 * dy;
}
int main() {
  int *o;
  cudaMalloc(&o, 16 * sizeof(int));
  k<<<2, dim3(4, 2)>>>(o);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..2)
        .flat_map(|b| {
            (0..2).flat_map(move |y| (0..4).map(move |x| Some(x + 10 * y + 100 * b + 24000)))
        })
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn managed_memory_a_helper_fills_between_launches_holds_the_helpers_cells() {
    // `init_data(m, n)` writes m[i] = i through its parameter, before each launch; the second
    // launch (traced) therefore reads 0..31 again, not what the first left. Each launch adds
    // its warp's sum (496) to the cell. Python: [i + 496 for i in range(32)]
    let src = "\
__global__ void add_sum(int *d) {
  int v = d[threadIdx.x];
  int s = v;
  for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(0xffffffff, s, m);
  d[threadIdx.x] = v + s;
}
__global__ void twice(int *d) { d[threadIdx.x] *= 2; }
void init_data(int *data, int num) {
  for (int i = 0; i < num; i++)
    data[i] = i;
}
int main() {
  int *m;
  cudaMallocManaged(&m, 32 * sizeof(int));
  init_data(m, 32);
  twice<<<1, 32>>>(m);
  cudaDeviceSynchronize();
  init_data(m, 32);
  add_sum<<<1, 32>>>(m);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run_entry(src, "add_sum");
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(i + 496)).collect();
    assert_eq!(ints(&t, "d"), want);
}

#[test]
fn a_helpers_fill_loop_that_updates_reference_parameters_from_its_cells_fills_the_array() {
    // A template helper writes in[i] = 3 * i and keeps the largest and smallest cell in its
    // reference parameters (std::max / std::min of the cell just written); the kernel adds
    // 1 to each cell. Python: [3 * i + 1 for i in range(8)]
    let src = "\
#include <algorithm>
template <class T>
void init_value(T *in, size_t size, T &max, T &min) {
  for (int i = 0; i < size; i++) {
    in[i] = 3 * i;
    max = std::max(max, in[i]);
    min = std::min(min, in[i]);
  }
}
__global__ void inc(int *d) { d[threadIdx.x] += 1; }
int main() {
  size_t n = 8;
  int *h = (int *)malloc(n * sizeof(int));
  int max = 0, min = 0;
  init_value<int>(h, n, max, min);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  inc<<<1, 8>>>(d);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..8).map(|i| Some(3 * i + 1)).collect();
    assert_eq!(ints(&t, "d"), want);
}

#[test]
fn warp_scan_broadcast_gives_every_lane_of_the_logical_warp_its_source_lanes_value() {
    // CUB API, cub::WarpScan::Broadcast(input, src_lane): every lane of the logical warp gets
    // lane src_lane's input. Logical warps of 8 with source 3, and of 32 with source 5; input
    // = 10 * thread. Python:
    //   [10 * (8 * (t // 8) + 3) for t in range(32)], [10 * 5] * 32
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *a, int *b) {
  typedef cub::WarpScan<int, 8> Scan8;
  typedef cub::WarpScan<int> Scan32;
  __shared__ typename Scan8::TempStorage t8[4];
  __shared__ typename Scan32::TempStorage t32;
  int v = 10 * threadIdx.x;
  a[threadIdx.x] = Scan8(t8[threadIdx.x / 8]).Broadcast(v, 3);
  b[threadIdx.x] = Scan32(t32).Broadcast(v, 5);
}
int main() {
  int *a, *b;
  cudaMalloc(&a, 32 * sizeof(int));
  cudaMalloc(&b, 32 * sizeof(int));
  k<<<1, 32>>>(a, b);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(10 * (8 * (t / 8) + 3))).collect();
    assert_eq!(ints(&t, "a"), want);
    assert_eq!(ints(&t, "b"), vec![Some(50); 32]);
}

#[test]
fn cub_thread_load_and_store_with_a_cache_modifier_read_and_write_the_cell() {
    // CUB API, ThreadLoad<LOAD_CA>(ptr) / ThreadStore<STORE_CG>(ptr, v): a load and a store
    // with a PTX cache operator (a hint; the value is the cell's). Python: [2 * i + 1 for i in
    // range(32)]
    let src = "\
#include <cub/cub.cuh>
__global__ void k(const int *in, int *out) {
  int v = cub::ThreadLoad<cub::LOAD_CA>(in + threadIdx.x);
  cub::ThreadStore<cub::STORE_CG>(out + threadIdx.x, 2 * v + 1);
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  int *in, *out;
  cudaMalloc(&in, sizeof(h));
  cudaMalloc(&out, sizeof(h));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(in, out);
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(2 * i + 1)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_named_collective_object_runs_its_methods_on_its_storage() {
    // `WarpScan ws(temp); ws.InclusiveSum(x, out);` is `WarpScan(temp).InclusiveSum(x, out)`
    // (CUB API: the constructor keeps the TempStorage reference each method uses); likewise
    // `WarpReduce wr{temp2}; wr.Sum(x)` and `BlockReduce br(temp3); br.Sum(x)`. x = thread
    // index, one warp and a block of 64. Python:
    //   list(itertools.accumulate(range(32))), sum(range(32)) == 496, sum(range(64)) == 2016
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *scan, int *wsum, int *bsum) {
  typedef cub::WarpScan<int> WarpScan;
  typedef cub::WarpReduce<int> WarpReduce;
  typedef cub::BlockReduce<int, 64> BlockReduce;
  __shared__ typename WarpScan::TempStorage temp[2];
  __shared__ typename WarpReduce::TempStorage temp2[2];
  __shared__ typename BlockReduce::TempStorage temp3;
  int w = threadIdx.x / 32;
  WarpScan ws(temp[w]);
  WarpReduce wr{temp2[w]};
  BlockReduce br(temp3);
  int x = threadIdx.x % 32;
  int out;
  ws.InclusiveSum(x, out);
  scan[threadIdx.x] = out;
  int s = wr.Sum(x);
  if (threadIdx.x % 32 == 0) wsum[w] = s;
  int b = br.Sum((int)threadIdx.x);
  if (threadIdx.x == 0) bsum[0] = b;
}
int main() {
  int *scan, *wsum, *bsum;
  cudaMalloc(&scan, 64 * sizeof(int));
  cudaMalloc(&wsum, 2 * sizeof(int));
  cudaMalloc(&bsum, sizeof(int));
  k<<<1, 64>>>(scan, wsum, bsum);
  return 0;
}
";
    let t = run(src);
    let prefix: Vec<Option<i128>> = (0..64)
        .map(|i| {
            let l = i % 32;
            Some(l * (l + 1) / 2)
        })
        .collect();
    assert_eq!(ints(&t, "scan"), prefix);
    assert_eq!(ints(&t, "wsum"), vec![Some(496); 2]);
    assert_eq!(ints(&t, "bsum"), vec![Some(2016)]);
}

#[test]
fn warp_load_and_warp_store_move_a_logical_warps_tile() {
    // CUB API, cub::WarpLoad / cub::WarpStore over logical warps of 8 lanes, 2 items each:
    // WARP_LOAD_TRANSPOSE leaves a blocked arrangement (lane l holds tile items 2l, 2l + 1),
    // WARP_LOAD_STRIPED a striped one (lane l holds items l, l + 8); WARP_STORE_STRIPED
    // writes item i of lane l to tile cell l + 8i. Tile w starts at in + 16w; in[j] = 100 + j.
    // Python:
    //   blk = [100 + 16 * (t // 8) + 2 * (t % 8) + i for t in range(16) for i in range(2)]
    //   stp = [100 + 16 * (t // 8) + (t % 8) + 8 * i for t in range(16) for i in range(2)]
    //   out[16w + l + 8i] = blk item i of lane l  ->  stored
    let src = "\
#include <cub/cub.cuh>
__global__ void k(const int *in, int *blk, int *stp, int *out) {
  using LoadT = cub::WarpLoad<int, 2, cub::WARP_LOAD_TRANSPOSE, 8>;
  using LoadS = cub::WarpLoad<int, 2, cub::WARP_LOAD_STRIPED, 8>;
  using StoreS = cub::WarpStore<int, 2, cub::WARP_STORE_STRIPED, 8>;
  __shared__ typename LoadT::TempStorage t1[2];
  __shared__ typename LoadS::TempStorage t2[2];
  __shared__ typename StoreS::TempStorage t3[2];
  int w = threadIdx.x / 8;
  int a[2], b[2];
  LoadT(t1[w]).Load(in + 16 * w, a);
  LoadS(t2[w]).Load(in + 16 * w, b);
  for (int i = 0; i < 2; i++) {
    blk[threadIdx.x * 2 + i] = a[i];
    stp[threadIdx.x * 2 + i] = b[i];
  }
  StoreS(t3[w]).Store(out + 16 * w, a);
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = 100 + i;
  int *in, *blk, *stp, *out;
  cudaMalloc(&in, sizeof(h));
  cudaMalloc(&blk, sizeof(h));
  cudaMalloc(&stp, sizeof(h));
  cudaMalloc(&out, sizeof(h));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 16>>>(in, blk, stp, out);
  return 0;
}
";
    let t = run(src);
    let blk: Vec<i128> = (0..16)
        .flat_map(|t| (0..2).map(move |i| 100 + 16 * (t / 8) + 2 * (t % 8) + i))
        .collect();
    let stp: Vec<Option<i128>> = (0..16)
        .flat_map(|t| (0..2).map(move |i| Some(100 + 16 * (t / 8) + (t % 8) + 8 * i)))
        .collect();
    let mut out = vec![None; 32];
    for t in 0..16 {
        for i in 0..2 {
            out[(16 * (t / 8) + (t % 8) + 8 * i) as usize] = Some(blk[(2 * t + i) as usize]);
        }
    }
    assert_eq!(
        ints(&t, "blk"),
        blk.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
    assert_eq!(ints(&t, "stp"), stp);
    assert_eq!(ints(&t, "out"), out);
}

#[test]
fn a_cub_class_that_is_not_modelled_is_refused_by_name() {
    // cub::BlockHistogram is a CUB collective crosslane does not run: the refusal names it and
    // the classes it runs, not an unknown type's generic advice.
    let src = "\
#include <cub/cub.cuh>
__global__ void k(unsigned char *d, unsigned int *bins) {
  typedef cub::BlockHistogram<unsigned char, 128, 4, 256> BlockHistogram;
  __shared__ typename BlockHistogram::TempStorage temp_storage;
  __shared__ unsigned int smem_histogram[256];
  unsigned char items[4];
  cub::LoadDirectBlocked(threadIdx.x, d, items);
  BlockHistogram(temp_storage).Histogram(items, smem_histogram);
}
";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused before the run");
    assert!(
        e.message
            .contains("`cub::BlockHistogram` is not modelled here")
            && e.message.contains("BlockExchange"),
        "{}",
        e.message
    );
}

#[test]
fn block_and_warp_exchanges_rearrange_the_items_through_the_storage() {
    // CUB API, cub::BlockExchange<int, 64, 2> and cub::WarpExchange<int, 2, 8>. Thread t holds
    // x = {100 t, 100 t + 1} (a blocked tile of value 100 t + i at position 2t + i).
    // BlockedToStriped: thread t gets the items at positions t and t + 64; BlockedToWarpStriped:
    // at (t / 32) * 64 + t % 32 + 32 i; the warp exchange over logical warps of 8 lanes,
    // StripedToBlocked of the same x (read as striped: item i of lane l at position l + 8 i of
    // the logical warp's tile), gives lane l the items at positions 2l, 2l + 1. Python:
    //   val = lambda p: 100 * (p // 2) + p % 2            # blocked source
    //   st = [val(t + 64 * i) for t in range(64) for i in range(2)]
    //   ws = [val((t // 32) * 64 + t % 32 + 32 * i) for t in range(64) for i in range(2)]
    //   def wx(t):
    //       base, l = 8 * (t // 8), t % 8                 # logical warp's first thread, lane
    //       src = lambda p: (base + p % 8, p // 8)        # striped: position -> (thread, item)
    //       return [100 * src(2 * l + i)[0] + src(2 * l + i)[1] for i in range(2)]
    let src = "\
#include <cub/cub.cuh>
__global__ void k(int *st, int *ws, int *wx) {
  typedef cub::BlockExchange<int, 64, 2> BlockExchange;
  typedef cub::WarpExchange<int, 2, 8> WarpExchange;
  __shared__ typename BlockExchange::TempStorage temp;
  __shared__ typename WarpExchange::TempStorage wtemp[8];
  int t = threadIdx.x;
  int a[2] = {100 * t, 100 * t + 1};
  int b[2] = {100 * t, 100 * t + 1};
  int c[2] = {100 * t, 100 * t + 1};
  BlockExchange(temp).BlockedToStriped(a, a);
  __syncthreads();
  BlockExchange be(temp);
  be.BlockedToWarpStriped(b);
  WarpExchange(wtemp[t / 8]).StripedToBlocked(c, c);
  for (int i = 0; i < 2; i++) {
    st[2 * t + i] = a[i];
    ws[2 * t + i] = b[i];
    wx[2 * t + i] = c[i];
  }
}
int main() {
  int *st, *ws, *wx;
  cudaMalloc(&st, 128 * sizeof(int));
  cudaMalloc(&ws, 128 * sizeof(int));
  cudaMalloc(&wx, 128 * sizeof(int));
  k<<<1, 64>>>(st, ws, wx);
  return 0;
}
";
    let t = run(src);
    let val = |p: i128| 100 * (p / 2) + p % 2;
    let st: Vec<Option<i128>> = (0..64)
        .flat_map(|t| (0..2).map(move |i| Some(val(t + 64 * i))))
        .collect();
    let ws: Vec<Option<i128>> = (0..64)
        .flat_map(|t| (0..2).map(move |i| Some(val((t / 32) * 64 + t % 32 + 32 * i))))
        .collect();
    let wx: Vec<Option<i128>> = (0..64)
        .flat_map(|t| {
            let (base, l) = (8 * (t / 8), t % 8);
            (0..2).map(move |i| {
                let p = 2 * l + i;
                Some(100 * (base + p % 8) + p / 8)
            })
        })
        .collect();
    assert_eq!(ints(&t, "st"), st);
    assert_eq!(ints(&t, "ws"), ws);
    assert_eq!(ints(&t, "wx"), wx);
}

#[test]
fn a_fill_loop_writing_cells_at_an_index_it_computes_fills_them() {
    // A host loop that updates scalars and writes d[4 * i + k] (CUB tests' expected-layout
    // fills): each iteration's cells at the index the statement computes. 2 warps x 4 lanes of
    // a warp-striped tile: d[4i + k] = (i / 4) * 16 + i % 4 + 4k. The kernel adds 1. Python:
    //   [(i // 4) * 16 + i % 4 + 4 * k + 1 for i in range(8) for k in range(4)]
    let src = "\
__global__ void inc(int *d) { d[threadIdx.x] += 1; }
int main() {
  int *d;
  cudaMallocManaged(&d, 32 * sizeof(int));
  size_t warp_id = 0, lane_id = 0, offset = 0;
  for (int i = 0; i < 8; i++) {
    warp_id = i / 4;
    lane_id = i % 4;
    offset = warp_id * 4 * 4;
    d[4 * i + 0] = offset + lane_id + 0 * 4;
    d[4 * i + 1] = offset + lane_id + 1 * 4;
    d[4 * i + 2] = offset + lane_id + 2 * 4;
    d[4 * i + 3] = offset + lane_id + 3 * 4;
  }
  inc<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<i128>> = (0..8)
        .flat_map(|i| (0..4).map(move |k| Some((i / 4) * 16 + i % 4 + 4 * k + 1)))
        .collect();
    assert_eq!(ints(&t, "d"), want);
}
