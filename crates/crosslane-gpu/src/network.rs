//! Batcher's odd-even merge sort as WGSL, and the plan of dispatches a host runs it with.
//!
//! Source of the network: seed 004 (shamalgs `OddEvenOrderingPrimitive::merge_step`) and
//! semantics.md "Batcher odd-even merge sort". Thread `t` of stage `(p, k)` owns the comparator whose
//! low index is `x = (k mod p) + 2k·(t / k) + (t mod k)`; it does nothing when `x + k ≥ n` (the
//! comparator would touch the +∞ padding of the power-of-two network) or when
//! `floor(x / 2p) ≠ floor((x + k) / 2p)` (the odd-even merge condition); otherwise it
//! compare-exchanges ascending, keys and values together. `(n + 1) / 2` threads per stage suffice.
//!
//! Dispatches ([`sort_passes`]):
//! * one [`SortPass::Tile`] runs every stage of the phases with `2p ≤ TILE` in workgroup memory, one
//!   workgroup per tile of [`TILE`] keys, `workgroupBarrier` between stages. Those comparators never
//!   leave an aligned block of `2p` keys, so never leave their tile.
//! * every later stage is one [`SortPass::Global`] dispatch in global memory. Stages with a small
//!   comparator distance `k` in a phase with `p ≥ TILE` are *not* fused: for `k < p` the comparators
//!   start at `x ≡ k (mod 2k)` and straddle `2k`-aligned boundaries (e.g. `p = 4, k = 2` pairs
//!   `(2, 4)` and `(3, 5)`), so an aligned tile would miss pairs across its edge.
//!
//! Keys are `u32`, sorted ascending; values (`u32`, e.g. the original index) move with their keys.
//! The network is not stable.

use std::fmt::Write as _;

use crate::error::GpuError;

/// Invocations per workgroup of both sort kernels (WebGPU's default limit is 256).
pub const SORT_WORKGROUP: u32 = 256;

/// Keys per tile of the fused pass: each invocation owns one comparator of `2` keys.
pub const TILE: u32 = 2 * SORT_WORKGROUP;

/// Longest input the kernels accept: `2p` must fit a `u32` for every phase.
pub const MAX_SORT_LEN: u32 = 1 << 30;

/// Bytes between two stages' parameters in the uniform buffer (WebGPU's largest
/// `minUniformBufferOffsetAlignment`, so one stride works on every device).
pub const STAGE_STRIDE: u64 = 256;

/// Largest workgroup count per dimension (WebGPU default limit); more workgroups go into `y`.
pub const MAX_GROUPS_PER_DIM: u32 = 65_535;

/// One dispatch of the sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortPass {
    /// All stages of the phases `p = 1, 2, …, last_p` (each `2p ≤ TILE`), per tile, in workgroup
    /// memory.
    Tile {
        /// The last phase run.
        last_p: u32,
    },
    /// Stage `(p, k)` in global memory.
    Global {
        /// Phase: sorted runs of `p` keys are merged into runs of `2p`.
        p: u32,
        /// Comparator distance.
        k: u32,
    },
}

impl SortPass {
    /// The four `u32` of this pass's uniform block: `(n, p, k, threads)`; for a tile pass `p` is the
    /// last phase and `threads` the number of tiles.
    pub fn params(self, n: u32) -> [u32; 4] {
        match self {
            SortPass::Tile { last_p } => [n, last_p, 0, n.div_ceil(TILE)],
            SortPass::Global { p, k } => [n, p, k, n.div_ceil(2)],
        }
    }

    /// Workgroups to dispatch, `(x, y)`, for `n` keys.
    pub fn workgroups(self, n: u32) -> (u32, u32) {
        let groups = match self {
            SortPass::Tile { .. } => n.div_ceil(TILE),
            SortPass::Global { .. } => n.div_ceil(2).div_ceil(SORT_WORKGROUP),
        };
        split_groups(groups)
    }
}

/// Splits a workgroup count over `x` and `y` so that neither exceeds [`MAX_GROUPS_PER_DIM`]; the
/// kernels rebuild the linear index and skip the excess.
pub fn split_groups(groups: u32) -> (u32, u32) {
    if groups <= MAX_GROUPS_PER_DIM {
        (groups.max(1), 1)
    } else {
        (MAX_GROUPS_PER_DIM, groups.div_ceil(MAX_GROUPS_PER_DIM))
    }
}

/// The dispatches that sort `n` keys: empty for `n ≤ 1`.
///
/// # Errors
/// [`GpuError::Unsupported`] on field `len` when `n` exceeds [`MAX_SORT_LEN`].
pub fn sort_passes(n: u32) -> Result<Vec<SortPass>, GpuError> {
    if n > MAX_SORT_LEN {
        return Err(GpuError::unsupported(
            "len",
            format!("must be in 0..={MAX_SORT_LEN}, got {n}"),
        ));
    }
    let mut passes = Vec::new();
    let mut p = 1u32;
    let mut last_tiled = 0;
    while p < n && 2 * p <= TILE {
        last_tiled = p;
        p *= 2;
    }
    if last_tiled > 0 {
        passes.push(SortPass::Tile { last_p: last_tiled });
    }
    while p < n {
        let mut k = p;
        while k >= 1 {
            passes.push(SortPass::Global { p, k });
            k /= 2;
        }
        p *= 2;
    }
    Ok(passes)
}

/// The comparators of stage `(p, k)` for `n` keys, by the closed form: `(x, x + k)` pairs.
/// The reference the WGSL kernels implement; tests run it on the CPU.
pub fn stage_comparators(n: u32, p: u32, k: u32) -> impl Iterator<Item = (u32, u32)> {
    let two_p = 2 * u64::from(p);
    (0..n.div_ceil(2)).filter_map(move |t| {
        let (t, k64) = (u64::from(t), u64::from(k));
        let x = (k64 % u64::from(p)) + 2 * k64 * (t / k64) + (t % k64);
        let y = x + k64;
        (y < u64::from(n) && x / two_p == y / two_p).then_some((x as u32, y as u32))
    })
}

/// WGSL of both sort kernels: entry points `tile_sort` ([`SortPass::Tile`]) and `stage_global`
/// ([`SortPass::Global`]). Bindings: 0 `keys: array<u32>`, 1 `vals: array<u32>` (read-write
/// storage), 2 the pass's `Stage` uniform at a dynamic offset ([`STAGE_STRIDE`] per pass). No
/// subgroup built-ins, so the text is the same for naga and browsers.
pub fn sort_wgsl() -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r"// crosslane: Batcher odd-even merge sort (seed 004 closed form), ascending u32 keys.
struct Stage {{
    n: u32,
    p: u32,
    k: u32,
    // Threads of a global stage, or tiles of the tile pass.
    count: u32,
}}

@group(0) @binding(0) var<storage, read_write> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> vals: array<u32>;
@group(0) @binding(2) var<uniform> stage: Stage;

const WG: u32 = {wg}u;
const TILE: u32 = {tile}u;

var<workgroup> tile_keys: array<u32, {tile}>;
var<workgroup> tile_vals: array<u32, {tile}>;

// Stage (p, k) in global memory: thread t owns comparator (x, x + k).
@compute @workgroup_size({wg})
fn stage_global(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(num_workgroups) groups: vec3<u32>) {{
    let t = gid.x + gid.y * groups.x * WG;
    if (t >= stage.count) {{
        return;
    }}
    let p = stage.p;
    let k = stage.k;
    let x = (k % p) + 2u * k * (t / k) + (t % k);
    let y = x + k;
    // Guards of the reference network: +inf padding, and the odd-even merge condition.
    if (y >= stage.n || x / (2u * p) != y / (2u * p)) {{
        return;
    }}
    let a = keys[x];
    let b = keys[y];
    if (b < a) {{
        keys[x] = b;
        keys[y] = a;
        let va = vals[x];
        vals[x] = vals[y];
        vals[y] = va;
    }}
}}

// Phases p = 1 .. stage.p (2p <= TILE) on one tile in workgroup memory. The tile's keys sit at
// base + i; local comparator indices are the closed form with the thread's local index, because
// TILE is a multiple of 2p.
@compute @workgroup_size({wg})
fn tile_sort(@builtin(local_invocation_index) lt: u32,
             @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) groups: vec3<u32>) {{
    let tile = wid.x + wid.y * groups.x;
    // Uniform per workgroup: a whole workgroup skips or none of it does.
    if (tile >= stage.count) {{
        return;
    }}
    let base = tile * TILE;
    let n = stage.n;
    for (var i = lt; i < TILE; i += WG) {{
        if (base + i < n) {{
            tile_keys[i] = keys[base + i];
            tile_vals[i] = vals[base + i];
        }}
    }}
    workgroupBarrier();
    for (var p = 1u; p <= stage.p; p *= 2u) {{
        for (var k = p; k > 0u; k /= 2u) {{
            let x = (k % p) + 2u * k * (lt / k) + (lt % k);
            let y = x + k;
            if (base + y < n && x / (2u * p) == y / (2u * p)) {{
                let a = tile_keys[x];
                let b = tile_keys[y];
                if (b < a) {{
                    tile_keys[x] = b;
                    tile_keys[y] = a;
                    let va = tile_vals[x];
                    tile_vals[x] = tile_vals[y];
                    tile_vals[y] = va;
                }}
            }}
            workgroupBarrier();
        }}
    }}
    for (var i = lt; i < TILE; i += WG) {{
        if (base + i < n) {{
            keys[base + i] = tile_keys[i];
            vals[base + i] = tile_vals[i];
        }}
    }}
}}
",
        wg = SORT_WORKGROUP,
        tile = TILE
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the plan on the CPU with the closed form, as the kernels do.
    fn run_plan(keys: &mut [u32]) {
        let n = keys.len() as u32;
        for pass in sort_passes(n).unwrap() {
            let stages: Vec<(u32, u32)> = match pass {
                SortPass::Tile { last_p } => {
                    let mut v = Vec::new();
                    let mut p = 1;
                    while p <= last_p {
                        let mut k = p;
                        while k > 0 {
                            v.push((p, k));
                            k /= 2;
                        }
                        p *= 2;
                    }
                    v
                }
                SortPass::Global { p, k } => vec![(p, k)],
            };
            for (p, k) in stages {
                for (x, y) in stage_comparators(n, p, k) {
                    if keys[y as usize] < keys[x as usize] {
                        keys.swap(x as usize, y as usize);
                    }
                }
            }
        }
    }

    #[test]
    fn comparator_counts_match_semantics() {
        // semantics.md: n = 2^m → (m² − m + 4)·2^(m−2) − 1; n = 10 → 32, n = 100 → 1104.
        let count = |n: u32| -> usize {
            let mut c = 0;
            let mut p = 1;
            while p < n {
                let mut k = p;
                while k > 0 {
                    c += stage_comparators(n, p, k).count();
                    k /= 2;
                }
                p *= 2;
            }
            c
        };
        assert_eq!([2, 4, 8, 16, 32, 64].map(count), [1, 5, 19, 63, 191, 543]);
        assert_eq!(count(10), 32);
        assert_eq!(count(100), 1104);
    }

    #[test]
    fn plan_sorts_on_cpu() {
        for n in [0u32, 1, 2, 3, 5, 10, 100, 511, 512, 513, 1000, 1025, 4097] {
            let mut keys: Vec<u32> = (0..n)
                .map(|i| (i.wrapping_mul(2_654_435_761)) >> 7)
                .collect();
            let mut want = keys.clone();
            want.sort_unstable();
            run_plan(&mut keys);
            assert_eq!(keys, want, "n = {n}");
        }
    }

    proptest::proptest! {
        /// Law: the dispatch plan, run with the closed form, sorts any input like `sort_unstable`.
        #[test]
        fn plan_sorts_any_input(mut keys in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..3000)) {
            let mut want = keys.clone();
            want.sort_unstable();
            run_plan(&mut keys);
            proptest::prop_assert_eq!(keys, want);
        }
    }

    #[test]
    fn plan_shape() {
        assert!(sort_passes(1).unwrap().is_empty());
        assert_eq!(sort_passes(2).unwrap(), vec![SortPass::Tile { last_p: 1 }]);
        assert_eq!(
            sort_passes(512).unwrap(),
            vec![SortPass::Tile { last_p: 256 }]
        );
        let p = sort_passes(1024).unwrap();
        assert_eq!(p.len(), 1 + 10);
        assert_eq!(p[1], SortPass::Global { p: 512, k: 512 });
        assert!(sort_passes(MAX_SORT_LEN + 1).is_err());
        assert_eq!(split_groups(70_000), (65_535, 2));
    }
}
