//! The C++ text of crosslane's declarations of rocPRIM's block-wide neighbour, histogram and
//! sorting classes and of its comparison functors, put after [`super::rocprim_prelude`]'s
//! where a source names `rocprim::` ([`super::rocprim_lib`]). Plain C++ over `__shared__`
//! arrays and `__syncthreads()` (the radix sort over hipCUB's `BlockRadixSort`, which
//! crosslane models: [`super::cub_sort`]); each computes the documented result, not rocPRIM's
//! algorithm.
//!
//! Sources (rocPRIM API reference, the class's page, and its header's comments):
//! - `minus`, `multiplies`, `equal_to`, `not_equal_to`, `less`, `less_equal`, `greater`,
//!   `greater_equal` (`rocprim/functional.hpp`): `a - b`, `a * b`, `a == b`, …;
//! - `block_discontinuity<T, BlockSizeX[, BlockSizeY, BlockSizeZ]>`: `flag_heads(flags,
//!   [tile_predecessor,] input, op[, storage])`, `flag_tails(flags, [tile_successor,] input,
//!   op[, storage])` and `flag_heads_and_tails` (the four combinations): over the block's items
//!   in blocked order, item `i`'s head flag is `op(item[i-1], item[i])` and its tail flag
//!   `op(item[i], item[i+1])`; the block's first item's head flag (last item's tail flag) is
//!   `true` ("the first item in the block is always flagged"), or `op` against the tile
//!   predecessor (successor) when one is given. Operators of two arguments are read (rocPRIM
//!   also takes `op(a, b, b_index)`);
//! - `block_adjacent_difference<T, BlockSizeX[, BlockSizeY, BlockSizeZ]>`: `subtract_left(input,
//!   output, op[, tile_predecessor], storage)` ("output[i] = op(input[i], input[i-1])", the
//!   block's first item copied, or `op(input[0], tile_predecessor)`), `subtract_right` ("output[i]
//!   = op(input[i], input[i+1])", the last copied or against `tile_successor`), and the
//!   `_partial` forms ("just copy invalid items in [valid_items, …)": an item whose neighbour is
//!   not valid is copied);
//! - `block_histogram<T, BlockSize, ItemsPerThread, Bins[, Algorithm, BlockSizeY, BlockSizeZ]>`:
//!   `init_histogram(hist)` (every bin zero), `composite(input, hist[, storage])` (each item
//!   adds one to bin `input[i]`, atomically; "the items must be in [0, Bins)") and
//!   `histogram(input, hist[, storage])` (both, with a barrier between); both algorithms
//!   (`using_atomic`, `using_sort`) give these counts;
//! - `block_radix_sort<Key, BlockSizeX, ItemsPerThread[, Value, BlockSizeY, BlockSizeZ]>`:
//!   `sort`, `sort_desc`, `sort_to_striped`, `sort_desc_to_striped` of keys or key–value pairs,
//!   with or without storage, as hipCUB's `BlockRadixSort` `Sort`, `SortDescending`,
//!   `SortBlockedToStriped`, `SortDescendingBlockedToStriped` (hipCUB forwards to these). A
//!   `begin_bit` / `end_bit` range is not read (no such overload is declared);
//! - `block_sort<Key, BlockSizeX, ItemsPerThread, …>::sort(keys, storage[, compare])` of keys
//!   ("sorts items … in ascending order according to `compare`", `rocprim::less<Key>` by
//!   default; rocPRIM's default algorithm, a merge sort, is stable): integer keys under the
//!   default `less` as the radix sort above (the same sequence), other keys or comparisons by
//!   each item's rank — the keys `compare` puts before it plus the equal ones of lower input
//!   rank — which is the stable sorted order. Key–value `block_sort` is not declared;
//! - `block_run_length_decode<ItemT, BlockSizeX, RunsPerThread, DecodedItemsPerThread[,
//!   DecodedOffsetT]>`: built from each thread's runs (values and lengths, blocked across the
//!   block) it gives the total decoded size; `run_length_decode(items[, offsets][, from])`
//!   gives thread `t`'s decoded items `from + t·D + i` (the value of the run holding that
//!   position, and the position's offset within its run). Positions at or past the total are
//!   not written (rocPRIM assigns them nothing documented). Run lengths, the total and the
//!   offsets are of `DecodedOffsetT` here.

/// The declarations (C++ read by crosslane's parser).
pub(super) const BLOCKS: &str = r#"
namespace rocprim {
struct empty_type { };
template <class T> struct minus { __device__ __host__ T operator()(const T& a, const T& b) const { return a - b; } };
template <class T> struct multiplies { __device__ __host__ T operator()(const T& a, const T& b) const { return a * b; } };
template <class T> struct equal_to { __device__ __host__ bool operator()(const T& a, const T& b) const { return a == b; } };
template <class T> struct not_equal_to { __device__ __host__ bool operator()(const T& a, const T& b) const { return a != b; } };
template <class T> struct less { __device__ __host__ bool operator()(const T& a, const T& b) const { return a < b; } };
template <class T> struct less_equal { __device__ __host__ bool operator()(const T& a, const T& b) const { return a <= b; } };
template <class T> struct greater { __device__ __host__ bool operator()(const T& a, const T& b) const { return a > b; } };
template <class T> struct greater_equal { __device__ __host__ bool operator()(const T& a, const T& b) const { return a >= b; } };
enum class block_histogram_algorithm { using_atomic, using_sort, default_algorithm = using_atomic };
namespace detail {
struct block_discontinuity_storage { };
struct block_adjacent_difference_storage { };
struct block_histogram_storage { };
struct block_radix_sort_storage { };
struct block_sort_storage { };
struct block_run_length_decode_storage { };
}
template <class T, unsigned int BlockSizeX, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_discontinuity {
  using storage_type = detail::block_discontinuity_storage;
  static constexpr unsigned int B = BlockSizeX * BlockSizeY * BlockSizeZ;
  template <unsigned int N, class Flag, class Op>
  __device__ void flags(Flag (&heads)[N], bool with_heads, bool with_pred, T pred, Flag (&tails)[N], bool with_tails, bool with_succ, T succ, const T (&input)[N], Op op) {
    __shared__ T firsts[B];
    __shared__ T lasts[B];
    const unsigned int t = flat_block_thread_id();
    T items[N];
    for (unsigned int i = 0; i < N; i++) items[i] = input[i];
    firsts[t] = items[0];
    lasts[t] = items[N - 1];
    __syncthreads();
    if (with_heads) {
      if (t > 0) heads[0] = op(lasts[t - 1], items[0]);
      else if (with_pred) heads[0] = op(pred, items[0]);
      else heads[0] = Flag(true);
      for (unsigned int i = 1; i < N; i++) heads[i] = op(items[i - 1], items[i]);
    }
    if (with_tails) {
      for (unsigned int i = 0; i + 1 < N; i++) tails[i] = op(items[i], items[i + 1]);
      if (t + 1 < B) tails[N - 1] = op(items[N - 1], firsts[t + 1]);
      else if (with_succ) tails[N - 1] = op(items[N - 1], succ);
      else tails[N - 1] = Flag(true);
    }
    __syncthreads();
  }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads(Flag (&head_flags)[N], const T (&input)[N], Op op) { flags<N>(head_flags, true, false, input[0], head_flags, false, false, input[0], input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads(Flag (&head_flags)[N], const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_heads(head_flags, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads(Flag (&head_flags)[N], T tile_predecessor_item, const T (&input)[N], Op op) { flags<N>(head_flags, true, true, tile_predecessor_item, head_flags, false, false, input[0], input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads(Flag (&head_flags)[N], T tile_predecessor_item, const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_heads(head_flags, tile_predecessor_item, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_tails(Flag (&tail_flags)[N], const T (&input)[N], Op op) { flags<N>(tail_flags, false, false, input[0], tail_flags, true, false, input[0], input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_tails(Flag (&tail_flags)[N], const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_tails(tail_flags, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_tails(Flag (&tail_flags)[N], T tile_successor_item, const T (&input)[N], Op op) { flags<N>(tail_flags, false, false, input[0], tail_flags, true, true, tile_successor_item, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_tails(Flag (&tail_flags)[N], T tile_successor_item, const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_tails(tail_flags, tile_successor_item, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], Flag (&tail_flags)[N], const T (&input)[N], Op op) { flags<N>(head_flags, true, false, input[0], tail_flags, true, false, input[0], input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], Flag (&tail_flags)[N], const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_heads_and_tails(head_flags, tail_flags, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], Flag (&tail_flags)[N], T tile_successor_item, const T (&input)[N], Op op) { flags<N>(head_flags, true, false, input[0], tail_flags, true, true, tile_successor_item, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], Flag (&tail_flags)[N], T tile_successor_item, const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_heads_and_tails(head_flags, tail_flags, tile_successor_item, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], T tile_predecessor_item, Flag (&tail_flags)[N], const T (&input)[N], Op op) { flags<N>(head_flags, true, true, tile_predecessor_item, tail_flags, true, false, input[0], input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], T tile_predecessor_item, Flag (&tail_flags)[N], const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_heads_and_tails(head_flags, tile_predecessor_item, tail_flags, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], T tile_predecessor_item, Flag (&tail_flags)[N], T tile_successor_item, const T (&input)[N], Op op) { flags<N>(head_flags, true, true, tile_predecessor_item, tail_flags, true, true, tile_successor_item, input, op); }
  template <unsigned int N, class Flag, class Op> __device__ void flag_heads_and_tails(Flag (&head_flags)[N], T tile_predecessor_item, Flag (&tail_flags)[N], T tile_successor_item, const T (&input)[N], Op op, detail::block_discontinuity_storage& storage) { flag_heads_and_tails(head_flags, tile_predecessor_item, tail_flags, tile_successor_item, input, op); }
};
template <class T, unsigned int BlockSizeX, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_adjacent_difference {
  using storage_type = detail::block_adjacent_difference_storage;
  static constexpr unsigned int B = BlockSizeX * BlockSizeY * BlockSizeZ;
  template <class Output, unsigned int N, class Op>
  __device__ void left(const T (&input)[N], Output (&output)[N], Op op, bool with_pred, T pred, unsigned int valid) {
    __shared__ T lasts[B];
    const unsigned int t = flat_block_thread_id();
    T items[N];
    for (unsigned int i = 0; i < N; i++) items[i] = input[i];
    lasts[t] = items[N - 1];
    __syncthreads();
    for (unsigned int i = 0; i < N; i++) {
      const unsigned int g = t * N + i;
      if (g >= valid) output[i] = items[i];
      else if (i > 0) output[i] = op(items[i], items[i - 1]);
      else if (t > 0) output[i] = op(items[i], lasts[t - 1]);
      else if (with_pred) output[i] = op(items[i], pred);
      else output[i] = items[i];
    }
    __syncthreads();
  }
  template <class Output, unsigned int N, class Op>
  __device__ void right(const T (&input)[N], Output (&output)[N], Op op, bool with_succ, T succ, unsigned int valid) {
    __shared__ T firsts[B];
    const unsigned int t = flat_block_thread_id();
    T items[N];
    for (unsigned int i = 0; i < N; i++) items[i] = input[i];
    firsts[t] = items[0];
    __syncthreads();
    for (unsigned int i = 0; i < N; i++) {
      const unsigned int g = t * N + i;
      if (g + 1 < valid) output[i] = op(items[i], i + 1 < N ? items[i + 1] : firsts[t + 1]);
      else if (g + 1 == B * N && with_succ) output[i] = op(items[i], succ);
      else output[i] = items[i];
    }
    __syncthreads();
  }
  template <class Output, unsigned int N, class Op> __device__ void subtract_left(const T (&input)[N], Output (&output)[N], Op op, detail::block_adjacent_difference_storage& storage) { left<Output, N>(input, output, op, false, input[0], B * N); }
  template <class Output, unsigned int N, class Op> __device__ void subtract_left(const T (&input)[N], Output (&output)[N], Op op, T tile_predecessor, detail::block_adjacent_difference_storage& storage) { left<Output, N>(input, output, op, true, tile_predecessor, B * N); }
  template <class Output, unsigned int N, class Op> __device__ void subtract_left_partial(const T (&input)[N], Output (&output)[N], Op op, unsigned int valid_items, detail::block_adjacent_difference_storage& storage) { left<Output, N>(input, output, op, false, input[0], valid_items); }
  template <class Output, unsigned int N, class Op> __device__ void subtract_left_partial(const T (&input)[N], Output (&output)[N], Op op, T tile_predecessor, unsigned int valid_items, detail::block_adjacent_difference_storage& storage) { left<Output, N>(input, output, op, true, tile_predecessor, valid_items); }
  template <class Output, unsigned int N, class Op> __device__ void subtract_right(const T (&input)[N], Output (&output)[N], Op op, detail::block_adjacent_difference_storage& storage) { right<Output, N>(input, output, op, false, input[0], B * N); }
  template <class Output, unsigned int N, class Op> __device__ void subtract_right(const T (&input)[N], Output (&output)[N], Op op, T tile_successor, detail::block_adjacent_difference_storage& storage) { right<Output, N>(input, output, op, true, tile_successor, B * N); }
  template <class Output, unsigned int N, class Op> __device__ void subtract_right_partial(const T (&input)[N], Output (&output)[N], Op op, unsigned int valid_items, detail::block_adjacent_difference_storage& storage) { right<Output, N>(input, output, op, false, input[0], valid_items); }
};
template <class T, unsigned int BlockSize, unsigned int ItemsPerThread, unsigned int Bins, block_histogram_algorithm Algorithm = block_histogram_algorithm::using_atomic, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_histogram {
  using storage_type = detail::block_histogram_storage;
  static constexpr unsigned int B = BlockSize * BlockSizeY * BlockSizeZ;
  template <class Counter> __device__ void init_histogram(Counter hist[Bins]) {
    for (unsigned int b = flat_block_thread_id(); b < Bins; b += B) hist[b] = Counter(0);
  }
  template <class Counter> __device__ void composite(T (&input)[ItemsPerThread], Counter hist[Bins]) {
    for (unsigned int i = 0; i < ItemsPerThread; i++) atomicAdd(&hist[static_cast<unsigned int>(input[i])], Counter(1));
  }
  template <class Counter> __device__ void composite(T (&input)[ItemsPerThread], Counter hist[Bins], detail::block_histogram_storage& storage) { composite(input, hist); }
  template <class Counter> __device__ void histogram(T (&input)[ItemsPerThread], Counter hist[Bins]) {
    init_histogram(hist);
    __syncthreads();
    composite(input, hist);
  }
  template <class Counter> __device__ void histogram(T (&input)[ItemsPerThread], Counter hist[Bins], detail::block_histogram_storage& storage) { histogram(input, hist); }
};
template <class Key, unsigned int BlockSizeX, unsigned int ItemsPerThread, class Value = empty_type, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_radix_sort {
  using storage_type = detail::block_radix_sort_storage;
  __device__ void sort(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).Sort(keys); }
  __device__ void sort(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort(keys); }
  __device__ void sort_desc(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortDescending(keys); }
  __device__ void sort_desc(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_desc(keys); }
  __device__ void sort_to_striped(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortBlockedToStriped(keys); }
  __device__ void sort_to_striped(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_to_striped(keys); }
  __device__ void sort_desc_to_striped(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortDescendingBlockedToStriped(keys); }
  __device__ void sort_desc_to_striped(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_desc_to_striped(keys); }
  __device__ void sort(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).Sort(keys, values); }
  __device__ void sort(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort(keys, values); }
  __device__ void sort_desc(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortDescending(keys, values); }
  __device__ void sort_desc(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_desc(keys, values); }
  __device__ void sort_to_striped(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortBlockedToStriped(keys, values); }
  __device__ void sort_to_striped(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_to_striped(keys, values); }
  __device__ void sort_desc_to_striped(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, Value, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortDescendingBlockedToStriped(keys, values); }
  __device__ void sort_desc_to_striped(Key (&keys)[ItemsPerThread], Value (&values)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_desc_to_striped(keys, values); }
};
template <class Key, unsigned int BlockSizeX, unsigned int ItemsPerThread, unsigned int BlockSizeY, unsigned int BlockSizeZ>
struct block_radix_sort<Key, BlockSizeX, ItemsPerThread, empty_type, BlockSizeY, BlockSizeZ> {
  using storage_type = detail::block_radix_sort_storage;
  __device__ void sort(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).Sort(keys); }
  __device__ void sort(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort(keys); }
  __device__ void sort_desc(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortDescending(keys); }
  __device__ void sort_desc(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_desc(keys); }
  __device__ void sort_to_striped(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortBlockedToStriped(keys); }
  __device__ void sort_to_striped(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_to_striped(keys); }
  __device__ void sort_desc_to_striped(Key (&keys)[ItemsPerThread]) { __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp; hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).SortDescendingBlockedToStriped(keys); }
  __device__ void sort_desc_to_striped(Key (&keys)[ItemsPerThread], detail::block_radix_sort_storage& storage) { sort_desc_to_striped(keys); }
};
template <class Key, unsigned int BlockSizeX, unsigned int ItemsPerThread = 1, class Value = empty_type, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_sort {
  using storage_type = detail::block_sort_storage;
  static constexpr unsigned int B = BlockSizeX * BlockSizeY * BlockSizeZ;
  template <class C> __device__ void rank_sort(Key (&keys)[ItemsPerThread], C compare) {
    __shared__ Key all[B * ItemsPerThread];
    const unsigned int t = flat_block_thread_id();
    for (unsigned int i = 0; i < ItemsPerThread; i++) all[t * ItemsPerThread + i] = keys[i];
    __syncthreads();
    unsigned int ranks[ItemsPerThread];
    for (unsigned int i = 0; i < ItemsPerThread; i++) {
      const unsigned int me = t * ItemsPerThread + i;
      unsigned int r = 0;
      for (unsigned int j = 0; j < B * ItemsPerThread; j++) {
        if (compare(all[j], keys[i]) || (j < me && !compare(keys[i], all[j]))) r++;
      }
      ranks[i] = r;
    }
    __syncthreads();
    for (unsigned int i = 0; i < ItemsPerThread; i++) all[ranks[i]] = keys[i];
    __syncthreads();
    for (unsigned int i = 0; i < ItemsPerThread; i++) keys[i] = all[t * ItemsPerThread + i];
    __syncthreads();
  }
  template <class C = less<Key>> __device__ void sort(Key (&keys)[ItemsPerThread], detail::block_sort_storage& storage, C compare = C()) {
    if constexpr (std::is_integral<Key>::value && std::is_same<C, less<Key>>::value) {
      __shared__ typename hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>::TempStorage temp;
      hipcub::BlockRadixSort<Key, BlockSizeX, ItemsPerThread, hipcub::NullType, 4, true, hipcub::BLOCK_SCAN_WARP_SCANS, hipSharedMemBankSizeFourByte, BlockSizeY, BlockSizeZ>(temp).Sort(keys);
    } else {
      rank_sort(keys, compare);
    }
  }
};
template <class ItemT, unsigned int BlockSizeX, unsigned int RunsPerThread, unsigned int DecodedItemsPerThread, class DecodedOffsetT = unsigned int, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_run_length_decode {
  using storage_type = detail::block_run_length_decode_storage;
  static constexpr unsigned int B = BlockSizeX * BlockSizeY * BlockSizeZ;
  ItemT vals[B * RunsPerThread];
  DecodedOffsetT offs[B * RunsPerThread];
  DecodedOffsetT total;
  __device__ block_run_length_decode(detail::block_run_length_decode_storage& storage, ItemT (&run_values)[RunsPerThread], DecodedOffsetT (&run_lengths)[RunsPerThread], DecodedOffsetT& total_decoded_size) {
    __shared__ ItemT sv[B * RunsPerThread];
    __shared__ DecodedOffsetT sl[B * RunsPerThread];
    const unsigned int t = flat_block_thread_id();
    for (unsigned int r = 0; r < RunsPerThread; r++) {
      sv[t * RunsPerThread + r] = run_values[r];
      sl[t * RunsPerThread + r] = run_lengths[r];
    }
    __syncthreads();
    DecodedOffsetT acc = 0;
    for (unsigned int j = 0; j < B * RunsPerThread; j++) {
      vals[j] = sv[j];
      offs[j] = acc;
      acc += sl[j];
    }
    total = acc;
    total_decoded_size = acc;
    __syncthreads();
  }
  __device__ void run_length_decode(ItemT (&decoded_items)[DecodedItemsPerThread], DecodedOffsetT (&item_offsets)[DecodedItemsPerThread], DecodedOffsetT from_decoded_offset = 0) {
    const unsigned int t = flat_block_thread_id();
    for (unsigned int i = 0; i < DecodedItemsPerThread; i++) {
      const DecodedOffsetT idx = from_decoded_offset + t * DecodedItemsPerThread + i;
      if (idx < total) {
        unsigned int r = 0;
        for (unsigned int j = 0; j < B * RunsPerThread; j++) {
          if (offs[j] <= idx) r = j;
        }
        decoded_items[i] = vals[r];
        item_offsets[i] = idx - offs[r];
      }
    }
  }
  __device__ void run_length_decode(ItemT (&decoded_items)[DecodedItemsPerThread], DecodedOffsetT from_decoded_offset = 0) {
    DecodedOffsetT rel[DecodedItemsPerThread];
    run_length_decode(decoded_items, rel, from_decoded_offset);
  }
};
}
"#;
