//! Cooperative groups beyond tiles, CUDA and HIP alike: coalesced groups, labeled and binary
//! partitions, tiles of a coalesced group, groups passed to device functions and templates,
//! HIP's wave64 tiles; and the `__fns` family they rest on.
//!
//! Expected values are derived beside each test from the rules of the CUDA C++ Programming
//! Guide, "Cooperative Groups" (a coalesced group is the set of threads active where it is made;
//! ranks follow lane order among the members; `shfl(v, r)` reads the member of rank r;
//! `shfl_down(v, d)` / `shfl_up(v, d)` read the member d ranks above / below, a thread with no
//! such member keeps its own value; `ballot` / `match_any` answer with bit k = the member of
//! rank k; `labeled_partition` groups the parent's threads by label, `binary_partition` by a
//! predicate; a tile of a coalesced group takes its members n ranks at a time) and the HIP
//! Programming Guide, "Cooperative groups" (the same API, tiles up to the 64-lane wavefront).
//! Each derivation is a plain model over the member list, written here, independent of the
//! lowering under test.

use crate::cells::cell_ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, dialect: Dialect, threads: usize) -> KernelTrace {
    let t = run_kernel(
        src,
        LaunchConfig {
            dialect: Some(dialect),
            block_dim: Some([threads, 1, 1]),
            ..LaunchConfig::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}",
        t.merged_diagnostics
    );
    let bad: Vec<_> = t
        .merged_diagnostics
        .iter()
        .filter(|d| d.level != crosslane_core::Level::Info)
        .map(|d| d.message.clone())
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
    t
}

fn buffer(t: &KernelTrace, name: &str) -> Vec<i128> {
    let b = t
        .memory
        .buffers
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no buffer {name}"));
    cell_ints(&b.cells)
        .into_iter()
        .map(|c| c.unwrap_or_else(|| panic!("{name}: an undefined cell")))
        .collect()
}

/// Rank of `lane` among `members` (lane order).
fn rank(members: &[usize], lane: usize) -> usize {
    members.iter().position(|&m| m == lane).expect("a member")
}

/// Bits of `pred` over `members`, bit k = the member of rank k.
fn packed(members: &[usize], pred: impl Fn(usize) -> bool) -> i128 {
    members
        .iter()
        .enumerate()
        .filter(|(_, &l)| pred(l))
        .map(|(k, _)| 1i128 << k)
        .sum()
}

#[test]
fn a_coalesced_group_ranks_shuffles_and_votes_by_its_active_lanes() {
    // Lanes with t % 4 != 1 take the branch: 24 members, lanes 0, 2, 3, 4, 6, 7, 8, …
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *rk, int *sz, int *sh, int *dn, int *up, unsigned *bal, int *vote, unsigned *mat) {
    int t = threadIdx.x;
    if (t % 4 != 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        rk[t] = g.thread_rank();
        sz[t] = g.num_threads() * 100 + g.meta_group_rank() * 10 + g.meta_group_size();
        sh[t] = g.shfl(t * 10, 5);
        dn[t] = g.shfl_down(t, 3);
        up[t] = g.shfl_up(t, 2);
        bal[t] = g.ballot(t % 3 == 0);
        vote[t] = g.any(t == 7) * 10 + g.all(t != 1);
        mat[t] = g.match_any(t / 8);
    }
}";
    let t = run(src, Dialect::Cuda, 32);
    let members: Vec<usize> = (0..32).filter(|l| l % 4 != 1).collect();
    assert_eq!(members.len(), 24);
    let (rk, sz, sh, dn, up) = (
        buffer(&t, "rk"),
        buffer(&t, "sz"),
        buffer(&t, "sh"),
        buffer(&t, "dn"),
        buffer(&t, "up"),
    );
    let (bal, vote, mat) = (buffer(&t, "bal"), buffer(&t, "vote"), buffer(&t, "mat"));
    for (k, &l) in members.iter().enumerate() {
        assert_eq!(rk[l], k as i128, "rank of lane {l}");
        // 24 members; a coalesced group made whole is meta rank 0 of 1.
        assert_eq!(sz[l], 2401, "lane {l}");
        // Rank 5 is lane 7.
        assert_eq!(sh[l], 70, "lane {l}");
        let below = members.get(k + 3).copied().unwrap_or(l);
        assert_eq!(dn[l], below as i128, "shfl_down of lane {l}");
        let above = if k >= 2 { members[k - 2] } else { l };
        assert_eq!(up[l], above as i128, "shfl_up of lane {l}");
        assert_eq!(bal[l], packed(&members, |m| m % 3 == 0), "ballot");
        // Lane 7 is a member: any is 1; every member is != 1: all is 1.
        assert_eq!(vote[l], 11);
        assert_eq!(
            mat[l],
            packed(&members, |m| m / 8 == l / 8),
            "match_any of lane {l}"
        );
    }
    // Lanes outside the branch keep the index fill.
    for l in (0..32).filter(|l| l % 4 == 1) {
        assert_eq!(rk[l], l as i128);
    }
}

#[test]
fn labeled_and_binary_partitions_group_by_label_and_predicate() {
    let src = "\
namespace cg = cooperative_groups;
__global__ void k(int *lab, int *bin, int *sh) {
    int t = threadIdx.x;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::coalesced_group byLabel = cg::labeled_partition(warp, t % 3);
    lab[t] = byLabel.size() * 1000 + byLabel.thread_rank() * 10 + (int)byLabel.any(t == 4);
    cg::coalesced_group side = cg::binary_partition(warp, t < 10);
    bin[t] = side.size() * 100 + side.thread_rank();
    sh[t] = byLabel.shfl(t, byLabel.size() - 1);
}";
    let t = run(src, Dialect::Cuda, 32);
    let (lab, bin, sh) = (buffer(&t, "lab"), buffer(&t, "bin"), buffer(&t, "sh"));
    for l in 0..32usize {
        let group: Vec<usize> = (0..32).filter(|m| m % 3 == l % 3).collect();
        let any4 = i128::from(group.contains(&4));
        let want = group.len() as i128 * 1000 + rank(&group, l) as i128 * 10 + any4;
        assert_eq!(lab[l], want, "lane {l}");
        let side: Vec<usize> = (0..32).filter(|&m| (m < 10) == (l < 10)).collect();
        assert_eq!(bin[l], side.len() as i128 * 100 + rank(&side, l) as i128);
        assert_eq!(
            sh[l],
            *group.last().unwrap() as i128,
            "last member of lane {l}'s label"
        );
    }
}

#[test]
fn a_tile_of_a_coalesced_group_takes_its_members_n_ranks_at_a_time() {
    // Members: lanes 3..=31 except multiples of 5 (24 lanes); tiles of 4 by rank.
    let src = "\
namespace cg = cooperative_groups;
__global__ void k(int *r, int *m, int *s) {
    int t = threadIdx.x;
    r[t] = -1; m[t] = -1; s[t] = -1;
    if (t >= 3 && t % 5 != 0) {
        cg::coalesced_group act = cg::coalesced_threads();
        auto quad = cg::tiled_partition(act, 4);
        r[t] = quad.thread_rank();
        m[t] = quad.meta_group_rank() * 100 + quad.meta_group_size() * 10 + quad.size();
        s[t] = quad.shfl(t, 0);
    }
}";
    let t = run(src, Dialect::Cuda, 32);
    let members: Vec<usize> = (0..32).filter(|l| *l >= 3 && l % 5 != 0).collect();
    let n_tiles = members.len().div_ceil(4) as i128;
    let (r, m, s) = (buffer(&t, "r"), buffer(&t, "m"), buffer(&t, "s"));
    for (k, &l) in members.iter().enumerate() {
        let tile: Vec<usize> = members.iter().copied().skip(k / 4 * 4).take(4).collect();
        assert_eq!(r[l], (k % 4) as i128, "lane {l}");
        assert_eq!(
            m[l],
            (k / 4) as i128 * 100 + n_tiles * 10 + tile.len() as i128
        );
        assert_eq!(s[l], tile[0] as i128, "first of lane {l}'s tile");
    }
    assert_eq!(r[0], -1);
}

#[test]
fn a_group_passed_to_a_device_function_or_template_keeps_its_kind() {
    // The shape of the Programming Guide's reduction over a group: a template over the group
    // type with `g.size()` and `g.shfl_down`, on a tile of 16 and on the whole warp (as a
    // tile of 32); a non-template device function taking the tile by reference.
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename Group> __device__ int sum(Group g, int v) {
    for (int i = g.size() / 2; i > 0; i /= 2) v += g.shfl_down(v, i);
    return v;
}
__device__ int where(const cg::thread_block_tile<16>& tile) {
    return tile.meta_group_rank() * 100 + tile.thread_rank();
}
__global__ void k(int *a, int *b, int *c) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    a[threadIdx.x] = sum(tile, (int)threadIdx.x);
    b[threadIdx.x] = sum(warp, 1);
    c[threadIdx.x] = where(tile);
}";
    let t = run(src, Dialect::Cuda, 64);
    let (a, b, c) = (buffer(&t, "a"), buffer(&t, "b"), buffer(&t, "c"));
    // Model of the shfl_down tree on segments of `n`: a source past the segment's end keeps
    // the lane's own value.
    let tree = |n: usize, init: &dyn Fn(usize) -> i128| -> Vec<i128> {
        let mut v: Vec<i128> = (0..64).map(init).collect();
        let mut i = n / 2;
        while i > 0 {
            let old = v.clone();
            for l in 0..64 {
                let src = if l % n + i < n { l + i } else { l };
                v[l] = old[l] + old[src];
            }
            i /= 2;
        }
        v
    };
    assert_eq!(a, tree(16, &|l| l as i128));
    assert_eq!(a[0], (0..16).sum::<i128>());
    assert_eq!(a[16], (16..32).sum::<i128>());
    assert_eq!(b, tree(32, &|_| 1));
    assert_eq!(b[0], 32);
    let want: Vec<i128> = (0..64).map(|l| (l / 16) * 100 + l % 16).collect();
    assert_eq!(c, want);
}

#[test]
fn hip_tiles_reach_the_64_lane_wavefront() {
    // HIP on wave64: a tile of 64 (the whole wavefront) and one of 16; the reductions run
    // through HIP's __shfl_xor / __shfl_up with the tile as the width, the ballot through
    // HIP's 64-bit __ballot.
    let src = "\
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename Group> __device__ int sum(Group g, int v) {
    for (int i = g.size() / 2; i > 0; i /= 2) v += g.shfl_down(v, i);
    return v;
}
__global__ void k(int *red, int *scan, unsigned long long *bal, int *tree, int *hi, int *co) {
    int t = threadIdx.x;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<64> wave = cg::tiled_partition<64>(block);
    auto tile = cg::tiled_partition<16>(block);
    red[t] = cg::reduce(wave, t, cg::plus<int>());
    scan[t] = cg::exclusive_scan(tile, 1);
    bal[t] = wave.ballot(t % 5 == 0);
    tree[t] = sum(wave, 1);
    hi[t] = wave.shfl_xor(t, 32);
    co[t] = -1;
    if (t >= 40) {
        cg::coalesced_group act = cg::coalesced_threads();
        co[t] = act.size() * 100 + act.shfl(t, act.size() - 1);
    }
}";
    let t = run(src, Dialect::Hip, 64);
    assert_eq!(buffer(&t, "red"), vec![(0..64).sum::<i128>(); 64]);
    let scan: Vec<i128> = (0..64).map(|l| l % 16).collect();
    assert_eq!(buffer(&t, "scan"), scan);
    // Bits 0, 5, …, 60 of a 64-bit mask.
    let bits: i128 = (0..64).step_by(5).map(|b| 1i128 << b).sum();
    assert_eq!(buffer(&t, "bal"), vec![bits; 64]);
    assert_eq!(buffer(&t, "tree")[0], 64);
    let hi: Vec<i128> = (0..64).map(|l| l ^ 32).collect();
    assert_eq!(buffer(&t, "hi"), hi);
    // Lanes 40..=63: 24 members, the last is lane 63.
    let co: Vec<i128> = (0..64)
        .map(|l| if l >= 40 { 2400 + 63 } else { -1 })
        .collect();
    assert_eq!(buffer(&t, "co"), co);
}

#[test]
fn what_the_groups_do_not_have_is_refused_at_its_line() {
    for (src, dialect, needle) in [
        (
            "__global__ void k(int *o) {\n  auto g = cg::coalesced_threads();\n  o[0] = g.shfl_xor(1, 1);\n}",
            Dialect::Cuda,
            "3:10: a coalesced group has no shfl_xor",
        ),
        (
            "__global__ void k(int *o) {\n  auto b = cg::this_thread_block();\n  auto g = cg::labeled_partition(b, 1);\n}",
            Dialect::Cuda,
            "3:16: labeled_partition takes a thread_block_tile or a coalesced group",
        ),
        (
            "__global__ void k(int *o) {\n  auto t = cg::tiled_partition<2048>(cg::this_thread_block());\n}",
            Dialect::Cuda,
            "a tile of 2048 threads: tiled_partition takes a power of two up to 1024",
        ),
        (
            "__global__ void k(int *o) {\n  auto g = cg::coalesced_threads();\n  auto s = cg::exclusive_scan(g, 1, [](int a, int b) { return a > b ? a : b; });\n}",
            Dialect::Cuda,
            "cg::exclusive_scan over a coalesced group with a lambda is not supported here",
        ),
    ] {
        let e = run_kernel(
            src,
            LaunchConfig {
                dialect: Some(dialect),
                ..LaunchConfig::default()
            },
        )
        .expect_err(src);
        assert!(e.to_string().contains(needle), "{src}: {e}");
    }
}

#[test]
fn fns_finds_the_nth_set_bit_as_ptx_defines_it() {
    // mask 0b1011_0110 (bits 1, 2, 4, 5, 7). PTX ISA `fns`: offset n > 0 counts set bits
    // upwards from base (base included), n < 0 downwards, n = 0 answers base if set; none:
    // 0xffffffff (CUDA's unsigned), -1 (HIP's __fns32 / __fns64).
    let src = "\
__global__ void k(unsigned *o, int *h) {
    unsigned m = 0xb6u;
    o[0] = __fns(m, 0, 1);
    o[1] = __fns(m, 0, 3);
    o[2] = __fns(m, 3, 1);
    o[3] = __fns(m, 7, -2);
    o[4] = __fns(m, 2, 0);
    o[5] = __fns(m, 3, 0);
    o[6] = __fns(m, 0, 6);
    o[7] = __fns(m, 1, -2);
    h[0] = __fns64(0x8000000000000001ull, 1, 1);
    h[1] = __fns32(m, 6, 2);
}";
    let t = run_kernel(
        src,
        LaunchConfig {
            block_dim: Some([1, 1, 1]),
            buffer_len: [("o".to_string(), 8), ("h".to_string(), 2)].into(),
            ..LaunchConfig::default()
        },
    )
    .unwrap();
    let o = buffer(&t, "o");
    assert_eq!(
        &o[..8],
        &[1, 4, 4, 5, 2, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff]
    );
    assert_eq!(&buffer(&t, "h")[..2], &[63, -1]);
}

#[test]
fn tile_collectives_reduce_and_scan_with_each_operator() {
    // Tiles of 8 over lanes 0..31 with v = (t * 5) % 8 + t / 8: reduce with greater / less /
    // plus, inclusive_scan (plus) and exclusive_scan, each derived over the tile's values.
    let src = "\
namespace cg = cooperative_groups;
__global__ void k(int *mx, int *mn, int *sum, int *inc, int *exc) {
    int t = threadIdx.x;
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    int v = (t * 5) % 8 + t / 8;
    mx[t] = cg::reduce(tile, v, cg::greater<int>());
    mn[t] = cg::reduce(tile, v, cg::less<int>());
    sum[t] = cg::reduce(tile, v, cg::plus<int>());
    inc[t] = cg::inclusive_scan(tile, v);
    exc[t] = cg::exclusive_scan(tile, v, cg::plus<int>());
}";
    let t = run(src, Dialect::Cuda, 32);
    let v = |l: i128| (l * 5) % 8 + l / 8;
    for l in 0..32i128 {
        let first = l / 8 * 8;
        let tile: Vec<i128> = (first..first + 8).map(v).collect();
        let i = l as usize;
        let k = (l - first) as usize;
        assert_eq!(buffer(&t, "mx")[i], *tile.iter().max().unwrap());
        assert_eq!(buffer(&t, "mn")[i], *tile.iter().min().unwrap());
        assert_eq!(buffer(&t, "sum")[i], tile.iter().sum::<i128>());
        assert_eq!(buffer(&t, "inc")[i], tile[..=k].iter().sum::<i128>());
        assert_eq!(buffer(&t, "exc")[i], tile[..k].iter().sum::<i128>());
    }
}

#[test]
fn partition_reduce_and_aggregated_increment_in_the_samples_shapes() {
    // The shapes of CUDA's binaryPartitionCG (a tile split by a predicate, cg::reduce over each
    // part, the part's rank 0 adding to a counter) and warpAggregatedAtomicsCG (the active
    // lanes' leader takes size() slots with one atomicAdd and broadcasts the base by shfl).
    // in[t] = 7t + 1 is odd exactly for even t.
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int aggInc(int *counter) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(counter, active.size());
    base = active.shfl(base, 0);
    return base + active.thread_rank();
}
__global__ void k(const int *in, int *odds, int *sums, int *slot, int *count) {
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    int t = threadIdx.x;
    int elem = in[t];
    auto sub = cg::binary_partition(tile32, elem & 1);
    sums[t] = cg::reduce(sub, elem, cg::plus<int>());
    if (elem & 1) {
        int n = cg::reduce(sub, 1, cg::plus<int>());
        if (sub.thread_rank() == 0) atomicAdd(&odds[0], n);
    }
    slot[t] = -1;
    if (elem % 3 == 0) slot[t] = aggInc(count);
}";
    let mut config = LaunchConfig {
        block_dim: Some([32, 1, 1]),
        ..LaunchConfig::default()
    };
    for (k, v) in [("in", "i*7+1"), ("odds", "zero"), ("count", "zero")] {
        config.args.insert(k.into(), v.into());
    }
    config.buffer_len.insert("odds".into(), 1);
    config.buffer_len.insert("count".into(), 1);
    let t = run_kernel(src, config).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let elem = |l: i128| 7 * l + 1;
    let odd_sum: i128 = (0..32).filter(|l| l % 2 == 0).map(elem).sum();
    let even_sum: i128 = (0..32).filter(|l| l % 2 == 1).map(elem).sum();
    assert_eq!((odd_sum, even_sum), (1696, 1808));
    let sums: Vec<i128> = (0..32)
        .map(|l| if l % 2 == 0 { odd_sum } else { even_sum })
        .collect();
    assert_eq!(buffer(&t, "sums"), sums);
    assert_eq!(buffer(&t, "odds"), vec![16]);
    // 7t + 1 divisible by 3 for t = 2, 5, …, 29: slots 0..9 in lane order, 10 taken.
    let mut next = 0;
    let slot: Vec<i128> = (0..32)
        .map(|l| {
            if elem(l) % 3 == 0 {
                next += 1;
                next - 1
            } else {
                -1
            }
        })
        .collect();
    assert_eq!(buffer(&t, "slot"), slot);
    assert_eq!(buffer(&t, "count"), vec![10]);
}

#[test]
fn groups_without_their_namespace_and_the_free_functions() {
    // `using namespace cooperative_groups;`: the factories and group types unqualified; a
    // `thread_group` from `tiled_partition(block, 4)`; `cg::thread_rank(g)`,
    // `cg::group_size(g)`, `block.sync()`, `cg::sync(block)`; a group made in place.
    let src = "\
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *a, int *b, int *c) {
    thread_block block = this_thread_block();
    thread_group tile4 = tiled_partition(block, 4);
    a[threadIdx.x] = this_thread_block().thread_rank() * 100 + tile4.thread_rank() * 10 + tile4.size();
    block.sync();
    cg::sync(block);
    b[threadIdx.x] = cg::thread_rank(tile4) + cg::group_size(block) * 10;
    c[threadIdx.x] = cg::coalesced_threads().size();
}";
    let t = run(src, Dialect::Cuda, 32);
    let a: Vec<i128> = (0..32).map(|r| r * 100 + (r % 4) * 10 + 4).collect();
    assert_eq!(buffer(&t, "a"), a);
    let b: Vec<i128> = (0..32).map(|r| r % 4 + 320).collect();
    assert_eq!(buffer(&t, "b"), b);
    assert_eq!(buffer(&t, "c"), vec![32; 32]);
}
