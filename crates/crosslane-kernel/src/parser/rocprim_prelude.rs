//! The C++ text of crosslane's own declarations of rocPRIM's names ([`super::rocprim_lib`]
//! puts it before a source that names `rocprim::`): each class forwards to the hipCUB
//! collective crosslane models ([`super::cub`]), as hipCUB on AMD forwards to rocPRIM.
//!
//! Sources, per name (rocPRIM API reference, the class's page; hipCUB's mapping of its
//! algorithms onto rocPRIM's, `hipcub/backend/rocprim/block/*.hpp`):
//! - `block_scan<T, X, Algorithm = using_warp_scan, Y, Z>`: `inclusive_scan` /
//!   `exclusive_scan` of one value or of an array of items per thread (blocked arrangement),
//!   with the block's `reduction` output or a block prefix callback ("the first warp calls
//!   it with the block-wide reduction; the value it returns is the prefix"); `using_warp_scan`
//!   is hipCUB's `BLOCK_SCAN_WARP_SCANS`, `reduce_then_scan` its `BLOCK_SCAN_RAKING`. The
//!   items overloads run as rocPRIM writes them: each thread folds its items left to right,
//!   the block scans those partials exclusively, each thread scans its items from its prefix
//!   (thread 0 from none, or from `init` / the callback's prefix);
//! - `block_reduce<…, Algorithm>`: `using_warp_reduce`, `raking_reduce` and
//!   `raking_reduce_commutative_only` are hipCUB's `BLOCK_REDUCE_WARP_REDUCTIONS`,
//!   `BLOCK_REDUCE_RAKING` and `BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY`; the items overload
//!   (`reduce(T (&)[ItemsPerThread], T&[, storage][, op])`) folds each thread's items left to
//!   right first, as rocPRIM's thread reduction does, then reduces those partials;
//! - `block_load` / `block_store<T, X, ItemsPerThread, Method>` (`load(ptr, items[, valid[,
//!   oob_default]][, storage])`, `store(ptr, items[, valid][, storage])`) and the direct
//!   functions `block_load_direct_blocked` / `_striped<X>`, `block_store_direct_blocked` /
//!   `_striped<X>`: hipCUB's `BlockLoad` / `BlockStore` algorithms of the same arrangement
//!   (`block_load_direct` = `BLOCK_LOAD_DIRECT`, `_striped`, `_vectorize`, `_transpose`,
//!   `_warp_transpose` likewise) and `LoadDirectBlocked` / `LoadDirectStriped`;
//! - `block_exchange<T, X, ItemsPerThread>`: `blocked_to_striped`, `striped_to_blocked`,
//!   `blocked_to_warp_striped`, `warp_striped_to_blocked` = hipCUB's `BlockExchange`
//!   `BlockedToStriped`, … (warp-striped over the device's wavefront);
//! - `warp_reduce::head_segmented_reduce` / `tail_segmented_reduce`: hipCUB's
//!   `HeadSegmentedReduce` / `TailSegmentedReduce` ("the result is returned to the first
//!   thread of each segment"; `UseAllReduce` does not apply to them, as in rocPRIM);
//! - `warp_sort<Key, LogicalWarpSize[, Value]>::sort(key[, value])` (ascending by
//!   `operator<`): keys only. The result is the logical warp's keys in ascending order, lane
//!   `l` holding the `l`-th smallest ("sorts keys … in the logical warp"), computed here by
//!   each lane counting the keys below its own (a rank, ties broken by lane), which gives the
//!   sorted sequence whatever network rocPRIM runs. Key–value sorts are refused: rocPRIM's
//!   bitonic network is not stable, so which value an equal key carries is its network's.

/// The declarations (C++ read by crosslane's parser; `hipcub::` names are its CUB model).
pub(super) const PRELUDE: &str = r#"
namespace rocprim {
enum class block_reduce_algorithm { using_warp_reduce, raking_reduce, raking_reduce_commutative_only, default_algorithm = using_warp_reduce };
enum class block_scan_algorithm { using_warp_scan, reduce_then_scan, default_algorithm = using_warp_scan };
enum class block_load_method { block_load_direct, block_load_striped, block_load_vectorize, block_load_transpose, block_load_warp_transpose, default_method = block_load_direct };
enum class block_store_method { block_store_direct, block_store_striped, block_store_vectorize, block_store_transpose, block_store_warp_transpose, default_method = block_store_direct };
enum class warp_load_method { warp_load_direct, warp_load_striped, warp_load_vectorize, warp_load_transpose, default_method = warp_load_direct };
enum class warp_store_method { warp_store_direct, warp_store_striped, warp_store_vectorize, warp_store_transpose, default_method = warp_store_direct };
template <class T> struct plus { __device__ __host__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct maximum { __device__ __host__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct minimum { __device__ __host__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
__device__ unsigned int flat_block_thread_id() { return threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x; }
__device__ unsigned int flat_block_id() { return blockIdx.x + (blockIdx.y + blockIdx.z * gridDim.y) * gridDim.x; }
__device__ unsigned int lane_id() { return __lane_id(); }
__device__ unsigned int warp_id() { return flat_block_thread_id() / warpSize; }
__device__ unsigned int device_warp_size() { return warpSize; }
__host__ __device__ constexpr unsigned int __rocprim_warp_size() { return warpSize; }
__host__ __device__ constexpr unsigned int __rocprim_host_warp_size() { return warpSize; }
__device__ void syncthreads() { __syncthreads(); }
__device__ void wave_barrier() { __builtin_amdgcn_wave_barrier(); }
template <class T> __device__ T warp_shuffle(const T& input, int src_lane, int width = warpSize) { return __shfl(input, src_lane, width); }
template <class T> __device__ T warp_shuffle_up(const T& input, unsigned int delta, int width = warpSize) { return __shfl_up(input, delta, width); }
template <class T> __device__ T warp_shuffle_down(const T& input, unsigned int delta, int width = warpSize) { return __shfl_down(input, delta, width); }
template <class T> __device__ T warp_shuffle_xor(const T& input, int lane_mask, int width = warpSize) { return __shfl_xor(input, lane_mask, width); }
__device__ unsigned long long ballot(int predicate) { return __ballot(predicate); }
__device__ unsigned int bit_count(unsigned long long x) { return __popcll(x); }
__device__ unsigned int masked_bit_count(unsigned long long x, unsigned int add = 0) { return __popcll(x & ((1ull << __lane_id()) - 1ull)) + add; }
namespace detail {
template <unsigned int N> __device__ unsigned int logical_warp_id() { return flat_block_thread_id() / N; }
template <unsigned int N> __device__ unsigned int logical_lane_id() { return __lane_id() % N; }
struct warp_reduce_storage { };
struct warp_scan_storage { };
struct warp_sort_storage { };
struct block_reduce_storage { };
struct block_scan_storage { };
struct block_load_storage { };
struct block_store_storage { };
struct block_exchange_storage { };
struct warp_load_storage { };
struct warp_store_storage { };
struct warp_exchange_storage { };
struct block_shuffle_storage { };
template <class T, unsigned int N, class Op>
__device__ T thread_reduce(T (&input)[N], Op op) {
  T partial = input[0];
  for (unsigned int i = 1; i < N; ++i) partial = op(partial, input[i]);
  return partial;
}
template <class T, unsigned int X, block_reduce_algorithm A, unsigned int Y, unsigned int Z, class Op>
__device__ T block_reduce_run(T input, Op op) {
  if constexpr (A == block_reduce_algorithm::raking_reduce) {
    __shared__ typename hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING, Y, Z>::TempStorage temp;
    return hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING, Y, Z>(temp).Reduce(input, op);
  } else if constexpr (A == block_reduce_algorithm::raking_reduce_commutative_only) {
    __shared__ typename hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, Y, Z>::TempStorage temp;
    return hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, Y, Z>(temp).Reduce(input, op);
  } else {
    __shared__ typename hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, Y, Z>::TempStorage temp;
    return hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, Y, Z>(temp).Reduce(input, op);
  }
}
template <class T, unsigned int X, block_reduce_algorithm A, unsigned int Y, unsigned int Z, class Op>
__device__ T block_reduce_valid(T input, unsigned int valid_items, Op op) {
  if constexpr (A == block_reduce_algorithm::raking_reduce) {
    __shared__ typename hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING, Y, Z>::TempStorage temp;
    return hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING, Y, Z>(temp).Reduce(input, op, valid_items);
  } else if constexpr (A == block_reduce_algorithm::raking_reduce_commutative_only) {
    __shared__ typename hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, Y, Z>::TempStorage temp;
    return hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, Y, Z>(temp).Reduce(input, op, valid_items);
  } else {
    __shared__ typename hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, Y, Z>::TempStorage temp;
    return hipcub::BlockReduce<T, X, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, Y, Z>(temp).Reduce(input, op, valid_items);
  }
}
template <class T, unsigned int X, block_scan_algorithm A, unsigned int Y, unsigned int Z>
struct block_scan_run {
  template <class Op> __device__ static void incl(T input, T& output, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).InclusiveScan(input, output, op);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).InclusiveScan(input, output, op);
    }
  }
  template <class Op> __device__ static void incl_red(T input, T& output, T& reduction, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).InclusiveScan(input, output, op, reduction);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).InclusiveScan(input, output, op, reduction);
    }
  }
  template <class Op> __device__ static void excl(T input, T& output, T init, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).ExclusiveScan(input, output, init, op);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).ExclusiveScan(input, output, init, op);
    }
  }
  template <class Op> __device__ static void excl_red(T input, T& output, T init, T& reduction, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).ExclusiveScan(input, output, init, op, reduction);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).ExclusiveScan(input, output, init, op, reduction);
    }
  }
  template <class Op> __device__ static void excl_none(T input, T& output, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).ExclusiveScan(input, output, op);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).ExclusiveScan(input, output, op);
    }
  }
  template <class Op> __device__ static void excl_none_red(T input, T& output, T& reduction, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).ExclusiveScan(input, output, op, reduction);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).ExclusiveScan(input, output, op, reduction);
    }
  }
  template <class Cb, class Op> __device__ static void incl_cb(T input, T& output, Cb& cb, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).InclusiveScan(input, output, op, cb);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).InclusiveScan(input, output, op, cb);
    }
  }
  template <class Cb, class Op> __device__ static void excl_cb(T input, T& output, Cb& cb, Op op) {
    if constexpr (A == block_scan_algorithm::reduce_then_scan) {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_RAKING, Y, Z>(temp).ExclusiveScan(input, output, op, cb);
    } else {
      __shared__ typename hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>::TempStorage temp;
      hipcub::BlockScan<T, X, hipcub::BLOCK_SCAN_WARP_SCANS, Y, Z>(temp).ExclusiveScan(input, output, op, cb);
    }
  }
};
template <class T, unsigned int N, unsigned int W, warp_load_method M>
struct warp_load_run {
  template <class U> __device__ static void load(const U* input, T (&items)[N]) {
    if constexpr (M == warp_load_method::warp_load_direct) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_DIRECT, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_DIRECT, W>(temp).Load(input, items);
    } else if constexpr (M == warp_load_method::warp_load_striped) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_STRIPED, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_STRIPED, W>(temp).Load(input, items);
    } else if constexpr (M == warp_load_method::warp_load_vectorize) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_VECTORIZE, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_VECTORIZE, W>(temp).Load(input, items);
    } else {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_TRANSPOSE, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_TRANSPOSE, W>(temp).Load(input, items);
    }
  }
  template <class U> __device__ static void load_valid(const U* input, T (&items)[N], unsigned int valid) {
    if constexpr (M == warp_load_method::warp_load_direct) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_DIRECT, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_DIRECT, W>(temp).Load(input, items, valid);
    } else if constexpr (M == warp_load_method::warp_load_striped) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_STRIPED, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_STRIPED, W>(temp).Load(input, items, valid);
    } else if constexpr (M == warp_load_method::warp_load_vectorize) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_VECTORIZE, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_VECTORIZE, W>(temp).Load(input, items, valid);
    } else {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_TRANSPOSE, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_TRANSPOSE, W>(temp).Load(input, items, valid);
    }
  }
  template <class U> __device__ static void load_oob(const U* input, T (&items)[N], unsigned int valid, T out_of_bounds) {
    if constexpr (M == warp_load_method::warp_load_direct) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_DIRECT, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_DIRECT, W>(temp).Load(input, items, valid, out_of_bounds);
    } else if constexpr (M == warp_load_method::warp_load_striped) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_STRIPED, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_STRIPED, W>(temp).Load(input, items, valid, out_of_bounds);
    } else if constexpr (M == warp_load_method::warp_load_vectorize) {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_VECTORIZE, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_VECTORIZE, W>(temp).Load(input, items, valid, out_of_bounds);
    } else {
      __shared__ typename hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_TRANSPOSE, W>::TempStorage temp;
      hipcub::WarpLoad<T, N, hipcub::WARP_LOAD_TRANSPOSE, W>(temp).Load(input, items, valid, out_of_bounds);
    }
  }
};
template <class T, unsigned int N, unsigned int W, warp_store_method M>
struct warp_store_run {
  template <class It> __device__ static void store(It output, T (&items)[N]) {
    if constexpr (M == warp_store_method::warp_store_direct) {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_DIRECT, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_DIRECT, W>(temp).Store(output, items);
    } else if constexpr (M == warp_store_method::warp_store_striped) {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_STRIPED, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_STRIPED, W>(temp).Store(output, items);
    } else if constexpr (M == warp_store_method::warp_store_vectorize) {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_VECTORIZE, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_VECTORIZE, W>(temp).Store(output, items);
    } else {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_TRANSPOSE, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_TRANSPOSE, W>(temp).Store(output, items);
    }
  }
  template <class It> __device__ static void store_valid(It output, T (&items)[N], unsigned int valid) {
    if constexpr (M == warp_store_method::warp_store_direct) {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_DIRECT, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_DIRECT, W>(temp).Store(output, items, valid);
    } else if constexpr (M == warp_store_method::warp_store_striped) {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_STRIPED, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_STRIPED, W>(temp).Store(output, items, valid);
    } else if constexpr (M == warp_store_method::warp_store_vectorize) {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_VECTORIZE, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_VECTORIZE, W>(temp).Store(output, items, valid);
    } else {
      __shared__ typename hipcub::WarpStore<T, N, hipcub::WARP_STORE_TRANSPOSE, W>::TempStorage temp;
      hipcub::WarpStore<T, N, hipcub::WARP_STORE_TRANSPOSE, W>(temp).Store(output, items, valid);
    }
  }
};
template <class T, unsigned int X, unsigned int N, block_load_method M, unsigned int Y, unsigned int Z>
struct block_load_run {
  template <class U> __device__ static void load(const U* block_input, T (&items)[N]) {
    if constexpr (M == block_load_method::block_load_direct) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_DIRECT, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_DIRECT, Y, Z>(temp).Load(block_input, items);
    } else if constexpr (M == block_load_method::block_load_striped) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_STRIPED, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_STRIPED, Y, Z>(temp).Load(block_input, items);
    } else if constexpr (M == block_load_method::block_load_vectorize) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_VECTORIZE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_VECTORIZE, Y, Z>(temp).Load(block_input, items);
    } else if constexpr (M == block_load_method::block_load_transpose) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_TRANSPOSE, Y, Z>(temp).Load(block_input, items);
    } else {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_WARP_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_WARP_TRANSPOSE, Y, Z>(temp).Load(block_input, items);
    }
  }
  template <class U> __device__ static void load_valid(const U* block_input, T (&items)[N], unsigned int valid) {
    if constexpr (M == block_load_method::block_load_direct) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_DIRECT, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_DIRECT, Y, Z>(temp).Load(block_input, items, valid);
    } else if constexpr (M == block_load_method::block_load_striped) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_STRIPED, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_STRIPED, Y, Z>(temp).Load(block_input, items, valid);
    } else if constexpr (M == block_load_method::block_load_vectorize) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_VECTORIZE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_VECTORIZE, Y, Z>(temp).Load(block_input, items, valid);
    } else if constexpr (M == block_load_method::block_load_transpose) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_TRANSPOSE, Y, Z>(temp).Load(block_input, items, valid);
    } else {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_WARP_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_WARP_TRANSPOSE, Y, Z>(temp).Load(block_input, items, valid);
    }
  }
  template <class U> __device__ static void load_oob(const U* block_input, T (&items)[N], unsigned int valid, T out_of_bounds) {
    if constexpr (M == block_load_method::block_load_direct) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_DIRECT, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_DIRECT, Y, Z>(temp).Load(block_input, items, valid, out_of_bounds);
    } else if constexpr (M == block_load_method::block_load_striped) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_STRIPED, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_STRIPED, Y, Z>(temp).Load(block_input, items, valid, out_of_bounds);
    } else if constexpr (M == block_load_method::block_load_vectorize) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_VECTORIZE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_VECTORIZE, Y, Z>(temp).Load(block_input, items, valid, out_of_bounds);
    } else if constexpr (M == block_load_method::block_load_transpose) {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_TRANSPOSE, Y, Z>(temp).Load(block_input, items, valid, out_of_bounds);
    } else {
      __shared__ typename hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_WARP_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockLoad<T, X, N, hipcub::BLOCK_LOAD_WARP_TRANSPOSE, Y, Z>(temp).Load(block_input, items, valid, out_of_bounds);
    }
  }
};
template <class T, unsigned int X, unsigned int N, block_store_method M, unsigned int Y, unsigned int Z>
struct block_store_run {
  template <class It> __device__ static void store(It block_output, T (&items)[N]) {
    if constexpr (M == block_store_method::block_store_direct) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_DIRECT, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_DIRECT, Y, Z>(temp).Store(block_output, items);
    } else if constexpr (M == block_store_method::block_store_striped) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_STRIPED, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_STRIPED, Y, Z>(temp).Store(block_output, items);
    } else if constexpr (M == block_store_method::block_store_vectorize) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_VECTORIZE, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_VECTORIZE, Y, Z>(temp).Store(block_output, items);
    } else if constexpr (M == block_store_method::block_store_transpose) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_TRANSPOSE, Y, Z>(temp).Store(block_output, items);
    } else {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_WARP_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_WARP_TRANSPOSE, Y, Z>(temp).Store(block_output, items);
    }
  }
  template <class It> __device__ static void store_valid(It block_output, T (&items)[N], unsigned int valid) {
    if constexpr (M == block_store_method::block_store_direct) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_DIRECT, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_DIRECT, Y, Z>(temp).Store(block_output, items, valid);
    } else if constexpr (M == block_store_method::block_store_striped) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_STRIPED, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_STRIPED, Y, Z>(temp).Store(block_output, items, valid);
    } else if constexpr (M == block_store_method::block_store_vectorize) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_VECTORIZE, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_VECTORIZE, Y, Z>(temp).Store(block_output, items, valid);
    } else if constexpr (M == block_store_method::block_store_transpose) {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_TRANSPOSE, Y, Z>(temp).Store(block_output, items, valid);
    } else {
      __shared__ typename hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_WARP_TRANSPOSE, Y, Z>::TempStorage temp;
      hipcub::BlockStore<T, X, N, hipcub::BLOCK_STORE_WARP_TRANSPOSE, Y, Z>(temp).Store(block_output, items, valid);
    }
  }
};
template <class T, unsigned int N, class Op>
__device__ T thread_fold(T (&input)[N], Op op) {
  T partial = input[0];
  for (unsigned int i = 1; i < N; i++) partial = op(partial, input[i]);
  return partial;
}
template <class T, unsigned int N, class Op>
__device__ void thread_scan_incl(T (&input)[N], T (&output)[N], T prefix, bool has_prefix, Op op) {
  T run = has_prefix ? op(prefix, input[0]) : input[0];
  output[0] = run;
  for (unsigned int i = 1; i < N; i++) { run = op(run, input[i]); output[i] = run; }
}
template <class T, unsigned int N, class Op>
__device__ void thread_scan_excl(T (&input)[N], T (&output)[N], T prefix, Op op) {
  T run = prefix;
  for (unsigned int i = 0; i < N; i++) { T x = input[i]; output[i] = run; run = op(run, x); }
}
}
template <class T, unsigned int VirtualWaveSize = warpSize, bool UseAllReduce = false>
struct warp_reduce {
  using storage_type = detail::warp_reduce_storage;
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, detail::warp_reduce_storage& storage, Op op = Op()) {
    output = hipcub::WarpReduce<T, VirtualWaveSize>(storage).Reduce(input, op);
    if (UseAllReduce) output = __shfl(output, 0, VirtualWaveSize);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, int valid_items, detail::warp_reduce_storage& storage, Op op = Op()) {
    output = hipcub::WarpReduce<T, VirtualWaveSize>(storage).Reduce(input, op, valid_items);
    if (UseAllReduce) output = __shfl(output, 0, VirtualWaveSize);
  }
  template <class Flag, class Op = plus<T>>
  __device__ void head_segmented_reduce(T input, T& output, Flag flag, detail::warp_reduce_storage& storage, Op op = Op()) {
    output = hipcub::WarpReduce<T, VirtualWaveSize>(storage).HeadSegmentedReduce(input, flag, op);
  }
  template <class Flag, class Op = plus<T>>
  __device__ void tail_segmented_reduce(T input, T& output, Flag flag, detail::warp_reduce_storage& storage, Op op = Op()) {
    output = hipcub::WarpReduce<T, VirtualWaveSize>(storage).TailSegmentedReduce(input, flag, op);
  }
};
template <class T, unsigned int VirtualWaveSize = warpSize>
struct warp_scan {
  using storage_type = detail::warp_scan_storage;
  template <class Op = plus<T>>
  __device__ void inclusive_scan(T input, T& output, detail::warp_scan_storage& storage, Op op = Op()) {
    hipcub::WarpScan<T, VirtualWaveSize>(storage).InclusiveScan(input, output, op);
  }
  template <class Op = plus<T>>
  __device__ void inclusive_scan(T input, T& output, T& reduction, detail::warp_scan_storage& storage, Op op = Op()) {
    hipcub::WarpScan<T, VirtualWaveSize>(storage).InclusiveScan(input, output, op, reduction);
  }
  template <class Op = plus<T>>
  __device__ void exclusive_scan(T input, T& output, T init, detail::warp_scan_storage& storage, Op op = Op()) {
    hipcub::WarpScan<T, VirtualWaveSize>(storage).ExclusiveScan(input, output, init, op);
  }
  template <class Op = plus<T>>
  __device__ void exclusive_scan(T input, T& output, T init, T& reduction, detail::warp_scan_storage& storage, Op op = Op()) {
    hipcub::WarpScan<T, VirtualWaveSize>(storage).ExclusiveScan(input, output, init, op, reduction);
  }
  template <class Op = plus<T>>
  __device__ void scan(T input, T& inclusive_output, T& exclusive_output, T init, detail::warp_scan_storage& storage, Op op = Op()) {
    hipcub::WarpScan<T, VirtualWaveSize>(storage).Scan(input, inclusive_output, exclusive_output, init, op);
  }
  template <class Op = plus<T>>
  __device__ void scan(T input, T& inclusive_output, T& exclusive_output, T init, T& reduction, detail::warp_scan_storage& storage, Op op = Op()) {
    hipcub::WarpScan<T, VirtualWaveSize>(storage).InclusiveScan(input, inclusive_output, op, reduction);
    hipcub::WarpScan<T, VirtualWaveSize>(storage).ExclusiveScan(input, exclusive_output, init, op);
  }
  __device__ T broadcast(T input, unsigned int src_lane, detail::warp_scan_storage& storage) {
    return __shfl(input, src_lane, VirtualWaveSize);
  }
};
template <class Key, unsigned int LogicalWarpSize = warpSize, class Value = void>
struct warp_sort {
  using storage_type = detail::warp_sort_storage;
  template <class K = Key>
  __device__ void sort(Key& thread_key) {
    unsigned int lane = __lane_id() % LogicalWarpSize;
    unsigned int rank = 0;
    for (unsigned int j = 0; j < LogicalWarpSize; j++) {
      Key other = __shfl(thread_key, j, LogicalWarpSize);
      if (other < thread_key || (!(thread_key < other) && j < lane)) rank++;
    }
    Key sorted = thread_key;
    for (unsigned int j = 0; j < LogicalWarpSize; j++) {
      unsigned int r = __shfl(rank, j, LogicalWarpSize);
      Key k = __shfl(thread_key, j, LogicalWarpSize);
      if (r == lane) sorted = k;
    }
    thread_key = sorted;
  }
  template <class V>
  __device__ void sort(Key& thread_key, V& second) {
    if constexpr (std::is_same<V, detail::warp_sort_storage>::value) {
      sort(thread_key);
    } else {
      static_assert(sizeof(V) == 0, "rocprim::warp_sort of keys and values is not modelled here (rocPRIM's bitonic network is not stable, so which value an equal key carries is its network's); sort keys only, or sort (key, value) pairs with hipcub::BlockRadixSort, which is stable");
    }
  }
};
template <class T, unsigned int BlockSizeX, block_reduce_algorithm Algorithm = block_reduce_algorithm::using_warp_reduce, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_reduce {
  using storage_type = detail::block_reduce_storage;
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, detail::block_reduce_storage& storage, Op op = Op()) {
    output = detail::block_reduce_run<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>(input, op);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, Op op = Op()) {
    output = detail::block_reduce_run<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>(input, op);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, unsigned int valid_items, detail::block_reduce_storage& storage, Op op = Op()) {
    output = detail::block_reduce_valid<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>(input, valid_items, op);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, unsigned int valid_items, Op op = Op()) {
    output = detail::block_reduce_valid<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>(input, valid_items, op);
  }
  template <unsigned int ItemsPerThread, class Op = plus<T>>
  __device__ void reduce(T (&input)[ItemsPerThread], T& output, detail::block_reduce_storage& storage, Op op = Op()) {
    output = detail::block_reduce_run<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>(detail::thread_reduce<T, ItemsPerThread>(input, op), op);
  }
  template <unsigned int ItemsPerThread, class Op = plus<T>>
  __device__ void reduce(T (&input)[ItemsPerThread], T& output, Op op = Op()) {
    output = detail::block_reduce_run<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>(detail::thread_reduce<T, ItemsPerThread>(input, op), op);
  }
};
template <class T, unsigned int BlockSizeX, block_scan_algorithm Algorithm = block_scan_algorithm::using_warp_scan, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_scan {
  using storage_type = detail::block_scan_storage;
  using run = detail::block_scan_run<T, BlockSizeX, Algorithm, BlockSizeY, BlockSizeZ>;
  template <class Op = plus<T>>
  __device__ void inclusive_scan(T input, T& output, detail::block_scan_storage& storage, Op op = Op()) { run::incl(input, output, op); }
  template <class Op = plus<T>>
  __device__ void inclusive_scan(T input, T& output, Op op = Op()) { run::incl(input, output, op); }
  template <class Op = plus<T>>
  __device__ void inclusive_scan(T input, T& output, T& reduction, detail::block_scan_storage& storage, Op op = Op()) { run::incl_red(input, output, reduction, op); }
  template <class Op = plus<T>>
  __device__ void inclusive_scan(T input, T& output, T& reduction, Op op = Op()) { run::incl_red(input, output, reduction, op); }
  template <class Cb, class Op>
  __device__ void inclusive_scan(T input, T& output, detail::block_scan_storage& storage, Cb& prefix_callback, Op op) { run::incl_cb(input, output, prefix_callback, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void inclusive_scan(T (&input)[N], T (&output)[N], detail::block_scan_storage& storage, Op op = Op()) { inclusive_items<N>(input, output, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void inclusive_scan(T (&input)[N], T (&output)[N], Op op = Op()) { inclusive_items<N>(input, output, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void inclusive_scan(T (&input)[N], T (&output)[N], T& reduction, detail::block_scan_storage& storage, Op op = Op()) { inclusive_items_red<N>(input, output, reduction, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void inclusive_scan(T (&input)[N], T (&output)[N], T& reduction, Op op = Op()) { inclusive_items_red<N>(input, output, reduction, op); }
  template <unsigned int N, class Cb, class Op>
  __device__ void inclusive_scan(T (&input)[N], T (&output)[N], detail::block_scan_storage& storage, Cb& prefix_callback, Op op) {
    T partial = detail::thread_fold<T, N>(input, op);
    T prefix;
    run::excl_cb(partial, prefix, prefix_callback, op);
    detail::thread_scan_incl<T, N>(input, output, prefix, true, op);
  }
  template <class Op = plus<T>>
  __device__ void exclusive_scan(T input, T& output, T init, detail::block_scan_storage& storage, Op op = Op()) { run::excl(input, output, init, op); }
  template <class Op = plus<T>>
  __device__ void exclusive_scan(T input, T& output, T init, Op op = Op()) { run::excl(input, output, init, op); }
  template <class Op = plus<T>>
  __device__ void exclusive_scan(T input, T& output, T init, T& reduction, detail::block_scan_storage& storage, Op op = Op()) { run::excl_red(input, output, init, reduction, op); }
  template <class Op = plus<T>>
  __device__ void exclusive_scan(T input, T& output, T init, T& reduction, Op op = Op()) { run::excl_red(input, output, init, reduction, op); }
  template <class Cb, class Op>
  __device__ void exclusive_scan(T input, T& output, detail::block_scan_storage& storage, Cb& prefix_callback, Op op) { run::excl_cb(input, output, prefix_callback, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void exclusive_scan(T (&input)[N], T (&output)[N], T init, detail::block_scan_storage& storage, Op op = Op()) { exclusive_items<N>(input, output, init, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void exclusive_scan(T (&input)[N], T (&output)[N], T init, Op op = Op()) { exclusive_items<N>(input, output, init, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void exclusive_scan(T (&input)[N], T (&output)[N], T init, T& reduction, detail::block_scan_storage& storage, Op op = Op()) { exclusive_items_red<N>(input, output, init, reduction, op); }
  template <unsigned int N, class Op = plus<T>>
  __device__ void exclusive_scan(T (&input)[N], T (&output)[N], T init, T& reduction, Op op = Op()) { exclusive_items_red<N>(input, output, init, reduction, op); }
  template <unsigned int N, class Cb, class Op>
  __device__ void exclusive_scan(T (&input)[N], T (&output)[N], detail::block_scan_storage& storage, Cb& prefix_callback, Op op) {
    T partial = detail::thread_fold<T, N>(input, op);
    T prefix;
    run::excl_cb(partial, prefix, prefix_callback, op);
    detail::thread_scan_excl<T, N>(input, output, prefix, op);
  }
  template <unsigned int N, class Op>
  __device__ void inclusive_items(T (&input)[N], T (&output)[N], Op op) {
    T partial = detail::thread_fold<T, N>(input, op);
    T prefix;
    run::excl_none(partial, prefix, op);
    detail::thread_scan_incl<T, N>(input, output, prefix, flat_block_thread_id() != 0, op);
  }
  template <unsigned int N, class Op>
  __device__ void inclusive_items_red(T (&input)[N], T (&output)[N], T& reduction, Op op) {
    T partial = detail::thread_fold<T, N>(input, op);
    T prefix;
    run::excl_none_red(partial, prefix, reduction, op);
    detail::thread_scan_incl<T, N>(input, output, prefix, flat_block_thread_id() != 0, op);
  }
  template <unsigned int N, class Op>
  __device__ void exclusive_items(T (&input)[N], T (&output)[N], T init, Op op) {
    T partial = detail::thread_fold<T, N>(input, op);
    T prefix;
    run::excl(partial, prefix, init, op);
    detail::thread_scan_excl<T, N>(input, output, prefix, op);
  }
  template <unsigned int N, class Op>
  __device__ void exclusive_items_red(T (&input)[N], T (&output)[N], T init, T& reduction, Op op) {
    T partial = detail::thread_fold<T, N>(input, op);
    T prefix;
    run::excl_red(partial, prefix, init, reduction, op);
    detail::thread_scan_excl<T, N>(input, output, prefix, op);
  }
};
template <class T, unsigned int BlockSizeX, unsigned int ItemsPerThread, block_load_method Method = block_load_method::block_load_direct, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_load {
  using storage_type = detail::block_load_storage;
  using run = detail::block_load_run<T, BlockSizeX, ItemsPerThread, Method, BlockSizeY, BlockSizeZ>;
  template <class U> __device__ void load(const U* block_input, T (&items)[ItemsPerThread]) { run::load(block_input, items); }
  template <class U> __device__ void load(const U* block_input, T (&items)[ItemsPerThread], detail::block_load_storage& storage) { run::load(block_input, items); }
  template <class U> __device__ void load(const U* block_input, T (&items)[ItemsPerThread], unsigned int valid) { run::load_valid(block_input, items, valid); }
  template <class U> __device__ void load(const U* block_input, T (&items)[ItemsPerThread], unsigned int valid, detail::block_load_storage& storage) { run::load_valid(block_input, items, valid); }
  template <class U> __device__ void load(const U* block_input, T (&items)[ItemsPerThread], unsigned int valid, T out_of_bounds) { run::load_oob(block_input, items, valid, out_of_bounds); }
  template <class U> __device__ void load(const U* block_input, T (&items)[ItemsPerThread], unsigned int valid, T out_of_bounds, detail::block_load_storage& storage) { run::load_oob(block_input, items, valid, out_of_bounds); }
};
template <class T, unsigned int BlockSizeX, unsigned int ItemsPerThread, block_store_method Method = block_store_method::block_store_direct, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_store {
  using storage_type = detail::block_store_storage;
  using run = detail::block_store_run<T, BlockSizeX, ItemsPerThread, Method, BlockSizeY, BlockSizeZ>;
  template <class It> __device__ void store(It block_output, T (&items)[ItemsPerThread]) { run::store(block_output, items); }
  template <class It> __device__ void store(It block_output, T (&items)[ItemsPerThread], detail::block_store_storage& storage) { run::store(block_output, items); }
  template <class It> __device__ void store(It block_output, T (&items)[ItemsPerThread], unsigned int valid) { run::store_valid(block_output, items, valid); }
  template <class It> __device__ void store(It block_output, T (&items)[ItemsPerThread], unsigned int valid, detail::block_store_storage& storage) { run::store_valid(block_output, items, valid); }
};
template <class T, unsigned int BlockSizeX, unsigned int ItemsPerThread, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_exchange {
  using storage_type = detail::block_exchange_storage;
  template <class U> __device__ void blocked_to_striped(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    __shared__ typename hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>::TempStorage temp;
    T in[ItemsPerThread];
    T out[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) in[i] = input[i];
    hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>(temp).BlockedToStriped(in, out);
    for (unsigned int i = 0; i < ItemsPerThread; i++) output[i] = static_cast<U>(out[i]);
  }
  template <class U> __device__ void blocked_to_striped(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread], detail::block_exchange_storage& storage) { blocked_to_striped(input, output); }
  template <class U> __device__ void striped_to_blocked(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    __shared__ typename hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>::TempStorage temp;
    T in[ItemsPerThread];
    T out[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) in[i] = input[i];
    hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>(temp).StripedToBlocked(in, out);
    for (unsigned int i = 0; i < ItemsPerThread; i++) output[i] = static_cast<U>(out[i]);
  }
  template <class U> __device__ void striped_to_blocked(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread], detail::block_exchange_storage& storage) { striped_to_blocked(input, output); }
  template <class U> __device__ void blocked_to_warp_striped(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    __shared__ typename hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>::TempStorage temp;
    T in[ItemsPerThread];
    T out[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) in[i] = input[i];
    hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>(temp).BlockedToWarpStriped(in, out);
    for (unsigned int i = 0; i < ItemsPerThread; i++) output[i] = static_cast<U>(out[i]);
  }
  template <class U> __device__ void blocked_to_warp_striped(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread], detail::block_exchange_storage& storage) { blocked_to_warp_striped(input, output); }
  template <class U> __device__ void warp_striped_to_blocked(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    __shared__ typename hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>::TempStorage temp;
    T in[ItemsPerThread];
    T out[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) in[i] = input[i];
    hipcub::BlockExchange<T, BlockSizeX, ItemsPerThread, false, BlockSizeY, BlockSizeZ>(temp).WarpStripedToBlocked(in, out);
    for (unsigned int i = 0; i < ItemsPerThread; i++) output[i] = static_cast<U>(out[i]);
  }
  template <class U> __device__ void warp_striped_to_blocked(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread], detail::block_exchange_storage& storage) { warp_striped_to_blocked(input, output); }
};
template <class T, class U, unsigned int N>
__device__ void block_load_direct_blocked(unsigned int flat_id, const U* block_input, T (&items)[N]) { hipcub::LoadDirectBlocked(flat_id, block_input, items); }
template <class T, class U, unsigned int N>
__device__ void block_load_direct_blocked(unsigned int flat_id, const U* block_input, T (&items)[N], unsigned int valid) { hipcub::LoadDirectBlocked(flat_id, block_input, items, valid); }
template <class T, class U, unsigned int N, class D>
__device__ void block_load_direct_blocked(unsigned int flat_id, const U* block_input, T (&items)[N], unsigned int valid, D out_of_bounds) { hipcub::LoadDirectBlocked(flat_id, block_input, items, valid, out_of_bounds); }
template <unsigned int BlockSize, class T, class U, unsigned int N>
__device__ void block_load_direct_striped(unsigned int flat_id, const U* block_input, T (&items)[N]) { hipcub::LoadDirectStriped<BlockSize>(flat_id, block_input, items); }
template <unsigned int BlockSize, class T, class U, unsigned int N>
__device__ void block_load_direct_striped(unsigned int flat_id, const U* block_input, T (&items)[N], unsigned int valid) { hipcub::LoadDirectStriped<BlockSize>(flat_id, block_input, items, valid); }
template <class T, class It, unsigned int N>
__device__ void block_store_direct_blocked(unsigned int flat_id, It block_output, T (&items)[N]) { hipcub::StoreDirectBlocked(flat_id, block_output, items); }
template <class T, class It, unsigned int N>
__device__ void block_store_direct_blocked(unsigned int flat_id, It block_output, T (&items)[N], unsigned int valid) { hipcub::StoreDirectBlocked(flat_id, block_output, items, valid); }
template <unsigned int BlockSize, class T, class It, unsigned int N>
__device__ void block_store_direct_striped(unsigned int flat_id, It block_output, T (&items)[N]) { hipcub::StoreDirectStriped<BlockSize>(flat_id, block_output, items); }
template <unsigned int BlockSize, class T, class It, unsigned int N>
__device__ void block_store_direct_striped(unsigned int flat_id, It block_output, T (&items)[N], unsigned int valid) { hipcub::StoreDirectStriped<BlockSize>(flat_id, block_output, items, valid); }
template <class T, unsigned int ItemsPerThread, unsigned int WarpSize = warpSize, warp_load_method Method = warp_load_method::warp_load_direct>
struct warp_load {
  using storage_type = detail::warp_load_storage;
  using run = detail::warp_load_run<T, ItemsPerThread, WarpSize, Method>;
  template <class U> __device__ void load(const U* input, T (&items)[ItemsPerThread]) { run::load(input, items); }
  template <class U> __device__ void load(const U* input, T (&items)[ItemsPerThread], detail::warp_load_storage& storage) { run::load(input, items); }
  template <class U> __device__ void load(const U* input, T (&items)[ItemsPerThread], unsigned int valid) { run::load_valid(input, items, valid); }
  template <class U> __device__ void load(const U* input, T (&items)[ItemsPerThread], unsigned int valid, detail::warp_load_storage& storage) { run::load_valid(input, items, valid); }
  template <class U> __device__ void load(const U* input, T (&items)[ItemsPerThread], unsigned int valid, T out_of_bounds) { run::load_oob(input, items, valid, out_of_bounds); }
  template <class U> __device__ void load(const U* input, T (&items)[ItemsPerThread], unsigned int valid, T out_of_bounds, detail::warp_load_storage& storage) { run::load_oob(input, items, valid, out_of_bounds); }
};
template <class T, unsigned int ItemsPerThread, unsigned int WarpSize = warpSize, warp_store_method Method = warp_store_method::warp_store_direct>
struct warp_store {
  using storage_type = detail::warp_store_storage;
  using run = detail::warp_store_run<T, ItemsPerThread, WarpSize, Method>;
  template <class It> __device__ void store(It output, T (&items)[ItemsPerThread]) { run::store(output, items); }
  template <class It> __device__ void store(It output, T (&items)[ItemsPerThread], detail::warp_store_storage& storage) { run::store(output, items); }
  template <class It> __device__ void store(It output, T (&items)[ItemsPerThread], unsigned int valid) { run::store_valid(output, items, valid); }
  template <class It> __device__ void store(It output, T (&items)[ItemsPerThread], unsigned int valid, detail::warp_store_storage& storage) { run::store_valid(output, items, valid); }
};
template <class T, unsigned int ItemsPerThread, unsigned int WarpSize = warpSize>
struct warp_exchange {
  using storage_type = detail::warp_exchange_storage;
  template <class U> __device__ void blocked_to_striped(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    __shared__ typename hipcub::WarpExchange<T, ItemsPerThread, WarpSize>::TempStorage temp[1024 / WarpSize];
    T in[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) in[i] = input[i];
    hipcub::WarpExchange<T, ItemsPerThread, WarpSize>(temp[flat_block_thread_id() / WarpSize]).BlockedToStriped(in, in);
    for (unsigned int i = 0; i < ItemsPerThread; i++) output[i] = static_cast<U>(in[i]);
  }
  template <class U> __device__ void striped_to_blocked(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    __shared__ typename hipcub::WarpExchange<T, ItemsPerThread, WarpSize>::TempStorage temp[1024 / WarpSize];
    T in[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) in[i] = input[i];
    hipcub::WarpExchange<T, ItemsPerThread, WarpSize>(temp[flat_block_thread_id() / WarpSize]).StripedToBlocked(in, in);
    for (unsigned int i = 0; i < ItemsPerThread; i++) output[i] = static_cast<U>(in[i]);
  }
  template <class U> __device__ void blocked_to_striped(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread], detail::warp_exchange_storage& storage) { blocked_to_striped(input, output); }
  template <class U> __device__ void striped_to_blocked(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread], detail::warp_exchange_storage& storage) { striped_to_blocked(input, output); }
  template <class U> __device__ void blocked_to_striped_shuffle(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    static_assert(WarpSize % ItemsPerThread == 0, "rocprim::warp_exchange: ItemsPerThread must be a divisor of WarpSize for the shuffle exchange");
    blocked_to_striped(input, output);
  }
  template <class U> __device__ void striped_to_blocked_shuffle(const T (&input)[ItemsPerThread], U (&output)[ItemsPerThread]) {
    static_assert(WarpSize % ItemsPerThread == 0, "rocprim::warp_exchange: ItemsPerThread must be a divisor of WarpSize for the shuffle exchange");
    striped_to_blocked(input, output);
  }
};
template <class T, unsigned int BlockSizeX, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_shuffle {
  using storage_type = detail::block_shuffle_storage;
  static constexpr unsigned int B = BlockSizeX * BlockSizeY * BlockSizeZ;
  __device__ void offset(T input, T& output, int distance = 1) {
    __shared__ T buf[B];
    const int t = (int)flat_block_thread_id();
    buf[t] = input;
    __syncthreads();
    const int src = t + distance;
    if (src >= 0 && src < (int)B) output = buf[src];
    __syncthreads();
  }
  __device__ void offset(T input, T& output, int distance, detail::block_shuffle_storage& storage) { offset(input, output, distance); }
  __device__ void rotate(T input, T& output, unsigned int distance = 1) {
    __shared__ T buf[B];
    const unsigned int t = flat_block_thread_id();
    buf[t] = input;
    __syncthreads();
    unsigned int src = t + distance;
    if (src >= B) src -= B;
    output = buf[src];
    __syncthreads();
  }
  __device__ void rotate(T input, T& output, unsigned int distance, detail::block_shuffle_storage& storage) { rotate(input, output, distance); }
  template <unsigned int N> __device__ void up(T (&input)[N], T (&prev)[N]) {
    __shared__ T last[B];
    const unsigned int t = flat_block_thread_id();
    last[t] = input[N - 1];
    __syncthreads();
    for (unsigned int i = N - 1; i > 0; --i) prev[i] = input[i - 1];
    if (t > 0) prev[0] = last[t - 1];
    __syncthreads();
  }
  template <unsigned int N> __device__ void up(T (&input)[N], T (&prev)[N], detail::block_shuffle_storage& storage) { up<N>(input, prev); }
  template <unsigned int N> __device__ void down(T (&input)[N], T (&next)[N]) {
    __shared__ T first[B];
    const unsigned int t = flat_block_thread_id();
    first[t] = input[0];
    __syncthreads();
    for (unsigned int i = 0; i + 1 < N; ++i) next[i] = input[i + 1];
    if (t + 1 < B) next[N - 1] = first[t + 1];
    __syncthreads();
  }
  template <unsigned int N> __device__ void down(T (&input)[N], T (&next)[N], detail::block_shuffle_storage& storage) { down<N>(input, next); }
};
}
"#;
