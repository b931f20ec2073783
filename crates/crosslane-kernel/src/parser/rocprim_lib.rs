//! rocPRIM's (`<rocprim/rocprim.hpp>`) most used warp- and block-level names, declared here
//! over hipCUB's collectives, which crosslane models ([`super::cub`]; hipCUB on AMD *is*
//! rocPRIM: `hipcub::WarpReduce` calls `rocprim::warp_reduce`).
//!
//! A token pass after preprocessing, as [`super::std_constants`] is: where a source names
//! `rocprim::` and defines no `namespace rocprim` of its own (a pasted rocPRIM header keeps its
//! own definitions), declarations of this crate's own are put before the source:
//! - `rocprim::warp_reduce<T, VirtualWaveSize = wave, UseAllReduce = false>` with
//!   `storage_type` and `reduce(input, output, storage[, op])`, `reduce(input, output,
//!   valid_items, storage[, op])` (rocPRIM API, `rocprim::warp_reduce`). Which lanes hold the
//!   result is what hipCUB's model says (lane 0 of each logical warp; rocPRIM's reference does
//!   not promise the others, which stay undefined); `UseAllReduce` gives every lane of the
//!   logical warp lane 0's result ("whether to broadcast final reduction value to all
//!   threads"). `head_segmented_reduce` / `tail_segmented_reduce` are refused by name;
//! - `rocprim::warp_scan<T, VirtualWaveSize>`: `inclusive_scan`, `exclusive_scan` and `scan`,
//!   each with or without the `reduction` output, and `broadcast` (rocPRIM API,
//!   `rocprim::warp_scan`): the reduction is the logical warp's total without `init`;
//! - `rocprim::block_reduce<T, BlockSizeX, Algorithm = using_warp_reduce, BlockSizeY,
//!   BlockSizeZ>`: `reduce(input, output[, valid_items][, storage][, op])` (rocPRIM API,
//!   `rocprim::block_reduce`: "the result is returned to the first thread"); the other
//!   algorithms (`raking_reduce`, …) are refused by name;
//! - `rocprim::plus`, `maximum`, `minimum`; `lane_id()`, `warp_id()`,
//!   `flat_block_thread_id()`, `flat_block_id()`, `device_warp_size()`, `syncthreads()`,
//!   `wave_barrier()`, `detail::logical_warp_id<N>()` / `logical_lane_id<N>()` (a thread's
//!   flat id in its block over `N`, its lane modulo `N`); `warp_shuffle`, `warp_shuffle_up`,
//!   `warp_shuffle_down`, `warp_shuffle_xor` (rocPRIM API, "Warp-level intrinsics", HIP's
//!   `__shfl*` with the same `width`), `ballot`, `bit_count`, `masked_bit_count`.
//!
//! The reductions combine in the order hipCUB's model runs (offsets 1, 2, 4, … of a
//! shuffle-down tree): rocPRIM's DPP variant pairs the same lanes at each step (quad_perm,
//! row_ror, row_bcast), so a commutative operator gives the same value, floats included.
//!
//! Errors inside these declarations point at the source's first `rocprim` token.

use super::std_constants::word;
use crate::lexer::{Tok, Token};

/// The qualifier a rocPRIM name keeps when these declarations do not define it
/// (`rocprim::block_load`): no namespace of the flattened source, so the name stays qualified
/// and its refusal names it ([`REFUSAL`]).
pub(super) const UNKNOWN_NS: &str = "__crosslane_rocprim";

/// What a refusal of a rocPRIM name not declared here says is read instead.
pub(super) const REFUSAL: &str = "rocPRIM's `warp_reduce`, `warp_scan`, `block_reduce` (its \
     `using_warp_reduce` algorithm), `plus` / `maximum` / `minimum`, `warp_shuffle*`, `ballot`, \
     `lane_id`, `warp_id`, `flat_block_thread_id` and `detail::logical_warp_id` / \
     `logical_lane_id` are read here, as are hipCUB's `hipcub::WarpReduce`, `WarpScan`, \
     `BlockReduce`, `BlockScan`, `BlockLoad`, `BlockStore` and `BlockRadixSort`; or paste the \
     rocPRIM definition into the file";

/// The names the declarations define directly in `rocprim`.
const KNOWN: &[&str] = &[
    "block_reduce_algorithm",
    "plus",
    "maximum",
    "minimum",
    "flat_block_thread_id",
    "flat_block_id",
    "lane_id",
    "warp_id",
    "device_warp_size",
    "syncthreads",
    "wave_barrier",
    "warp_shuffle",
    "warp_shuffle_up",
    "warp_shuffle_down",
    "warp_shuffle_xor",
    "ballot",
    "bit_count",
    "masked_bit_count",
    "warp_reduce",
    "warp_scan",
    "block_reduce",
];

/// The names they define in `rocprim::detail`.
const KNOWN_DETAIL: &[&str] = &["logical_warp_id", "logical_lane_id"];

const PRELUDE: &str = "\
namespace rocprim {
enum class block_reduce_algorithm { using_warp_reduce, raking_reduce, raking_reduce_commutative_only };
template <class T> struct plus { __device__ __host__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct maximum { __device__ __host__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct minimum { __device__ __host__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
__device__ unsigned int flat_block_thread_id() { return threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x; }
__device__ unsigned int flat_block_id() { return blockIdx.x + (blockIdx.y + blockIdx.z * gridDim.y) * gridDim.x; }
__device__ unsigned int lane_id() { return __lane_id(); }
__device__ unsigned int warp_id() { return flat_block_thread_id() / warpSize; }
__device__ unsigned int device_warp_size() { return warpSize; }
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
struct block_reduce_storage { };
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
    static_assert(sizeof(Flag) == 0, \"rocprim::warp_reduce::head_segmented_reduce is not modelled here (reduce, with or without valid_items, is; so is hipCUB's WarpReduce::HeadSegmentedReduce)\");
  }
  template <class Flag, class Op = plus<T>>
  __device__ void tail_segmented_reduce(T input, T& output, Flag flag, detail::warp_reduce_storage& storage, Op op = Op()) {
    static_assert(sizeof(Flag) == 0, \"rocprim::warp_reduce::tail_segmented_reduce is not modelled here (reduce, with or without valid_items, is; so is hipCUB's WarpReduce::TailSegmentedReduce)\");
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
template <class T, unsigned int BlockSizeX, block_reduce_algorithm Algorithm = block_reduce_algorithm::using_warp_reduce, unsigned int BlockSizeY = 1, unsigned int BlockSizeZ = 1>
struct block_reduce {
  using storage_type = detail::block_reduce_storage;
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, detail::block_reduce_storage& storage, Op op = Op()) {
    static_assert(Algorithm == block_reduce_algorithm::using_warp_reduce, \"rocprim::block_reduce with an algorithm other than block_reduce_algorithm::using_warp_reduce is not modelled here\");
    __shared__ typename hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>::TempStorage temp;
    output = hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>(temp).Reduce(input, op);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, Op op = Op()) {
    static_assert(Algorithm == block_reduce_algorithm::using_warp_reduce, \"rocprim::block_reduce with an algorithm other than block_reduce_algorithm::using_warp_reduce is not modelled here\");
    __shared__ typename hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>::TempStorage temp;
    output = hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>(temp).Reduce(input, op);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, unsigned int valid_items, detail::block_reduce_storage& storage, Op op = Op()) {
    static_assert(Algorithm == block_reduce_algorithm::using_warp_reduce, \"rocprim::block_reduce with an algorithm other than block_reduce_algorithm::using_warp_reduce is not modelled here\");
    __shared__ typename hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>::TempStorage temp;
    output = hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>(temp).Reduce(input, op, valid_items);
  }
  template <class Op = plus<T>>
  __device__ void reduce(T input, T& output, unsigned int valid_items, Op op = Op()) {
    static_assert(Algorithm == block_reduce_algorithm::using_warp_reduce, \"rocprim::block_reduce with an algorithm other than block_reduce_algorithm::using_warp_reduce is not modelled here\");
    __shared__ typename hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>::TempStorage temp;
    output = hipcub::BlockReduce<T, BlockSizeX, hipcub::BLOCK_REDUCE_WARP_REDUCTIONS, BlockSizeY, BlockSizeZ>(temp).Reduce(input, op, valid_items);
  }
};
}
";

/// `tokens` with rocPRIM's declarations above put before them when the source names
/// `rocprim::` and declares no `namespace rocprim` itself; else `tokens` unchanged.
pub(super) fn rocprim_lib(tokens: Vec<Token>) -> Vec<Token> {
    let names_rocprim = |w: &[Token]| {
        word(w.first()) == Some("rocprim")
            && matches!(w.get(1).map(|t| &t.tok), Some(Tok::Punct("::")))
    };
    let Some(first) = tokens
        .windows(2)
        .find(|w| names_rocprim(w))
        .map(|w| w[0].clone())
    else {
        return tokens;
    };
    let defines_own = tokens
        .windows(2)
        .any(|w| word(w.first()) == Some("namespace") && word(w.get(1)) == Some("rocprim"));
    if defines_own {
        return tokens;
    }
    let Ok(lexed) = crate::lexer::lex(PRELUDE) else {
        return tokens;
    };
    let tokens = mark_unknown(tokens);
    // Each declaration token at the line of the source's first `rocprim` and a column of its
    // own: spans key declarations (a `__shared__` variable is one per declaration site), so
    // two tokens of the prelude never share one.
    let mut out: Vec<Token> = lexed
        .tokens
        .into_iter()
        .filter(|t| !matches!(t.tok, Tok::Eof))
        .enumerate()
        .map(|(i, t)| {
            let col = first
                .col
                .saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
            Token {
                tok: t.tok,
                line: first.line,
                col,
                end: (first.line, col.saturating_add(1)),
            }
        })
        .collect();
    out.extend(tokens);
    out
}

/// `tokens` with the `rocprim` of each `rocprim::NAME` (and `rocprim::detail::NAME`) these
/// declarations do not define renamed [`UNKNOWN_NS`].
fn mark_unknown(mut tokens: Vec<Token>) -> Vec<Token> {
    let colons = |t: Option<&Token>| matches!(t.map(|t| &t.tok), Some(Tok::Punct("::")));
    for k in 0..tokens.len() {
        if word(tokens.get(k)) != Some("rocprim") || !colons(tokens.get(k + 1)) {
            continue;
        }
        let known = match word(tokens.get(k + 2)) {
            Some("detail") if colons(tokens.get(k + 3)) => {
                word(tokens.get(k + 4)).is_some_and(|n| KNOWN_DETAIL.contains(&n))
            }
            Some(n) => KNOWN.contains(&n),
            None => true,
        };
        if !known {
            tokens[k].tok = Tok::Ident(UNKNOWN_NS.to_string());
        }
    }
    tokens
}
