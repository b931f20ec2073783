//! Warp-synchronous calls reached from two program points of one warp, per `--arch`.
//!
//! PTX ISA, `shfl.sync` and `vote.sync`: the instruction makes the executing thread "wait until
//! all non-exited threads corresponding to membermask have executed" it "with the same
//! qualifiers and same membermask value"; only "for .target sm_6x or below" must all threads
//! in membermask execute the same instruction in convergence (else undefined). On sm_70+ the
//! two calls of an `if`/`else` therefore meet and exchange as one, each lane with its own
//! operands. Expected values are worked by hand beside each test.

use crate::cells::cell_ints as ints;
use crate::support::has;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, arch: Option<&str>, threads: usize) -> KernelTrace {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = arch.map(str::to_string);
    let t = run_kernel(src, c).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

const SPLIT: &str = "__global__ void k(int *out) {\n\
   int lane = threadIdx.x & 31;\n\
   int v = lane * 10;\n\
   int r;\n\
   if (lane < 16) r = __shfl_sync(0xffffffff, v, 0);\n\
   else r = __shfl_sync(0xffffffff, v, 1);\n\
   out[threadIdx.x] = r;\n\
 }\n";

#[test]
fn full_mask_shuffles_on_both_paths_meet_on_sm70_and_later() {
    for arch in [None, Some("sm_70"), Some("sm_90")] {
        let t = run(SPLIT, arch, 32);
        // Lanes 0-15 read lane 0's v (0); lanes 16-31 read lane 1's v (10).
        let want: Vec<Option<i128>> = (0..32).map(|l| Some(if l < 16 { 0 } else { 10 })).collect();
        assert_eq!(ints(t.buffer("out").unwrap()), want, "{arch:?}");
        assert!(has(&t, Level::Info, "synchronize and exchange as one"));
    }
}

#[test]
fn the_same_kernel_on_sm_6x_stays_undefined_and_names_the_convergence_rule() {
    let t = run(SPLIT, Some("sm_60"), 32);
    assert!(ints(t.buffer("out").unwrap()).iter().all(Option::is_none));
    assert!(has(
        &t,
        Level::Warning,
        "must execute the same instruction in convergence"
    ));
}

#[test]
fn each_path_passes_its_own_operand_and_later_calls_meet_in_turn() {
    let t = run(
        "__global__ void k(int *out, unsigned *b) {\n\
           int lane = threadIdx.x;\n\
           int x = lane + 100, y = lane + 200;\n\
           int r; unsigned m;\n\
           if (lane & 1) { r = __shfl_xor_sync(0xffffffff, x, 1); m = __ballot_sync(0xffffffff, lane < 4); }\n\
           else { r = __shfl_xor_sync(0xffffffff, y, 1); m = __ballot_sync(0xffffffff, lane > 28); }\n\
           out[lane] = r;\n\
           b[lane] = m;\n\
         }\n",
        None,
        32,
    );
    // Odd lane l (passes x) reads lane l-1's y = l-1+200; even lane l (passes y) reads lane
    // l+1's x = l+1+100.
    let want: Vec<Option<i128>> = (0..32)
        .map(|l| Some(if l & 1 == 1 { l - 1 + 200 } else { l + 1 + 100 }))
        .collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
    // Ballot: odd lanes vote lane < 4 (lanes 1, 3), even lanes lane > 28 (lane 30):
    // bits 1, 3, 30 = 0x4000000a in every lane.
    let want: Vec<Option<i128>> = (0..32).map(|_| Some(0x4000_000a)).collect();
    assert_eq!(ints(t.buffer("b").unwrap()), want);
}

const LAST_WARP: &str = "__global__ void k(int *in, int *out) {\n\
   __shared__ int sm[64];\n\
   int tid = threadIdx.x;\n\
   sm[tid] = in[tid];\n\
   __syncthreads();\n\
   if (tid < 32) {\n\
     volatile int *s = sm;\n\
     s[tid] += s[tid + 32];SYNC\n\
     s[tid] += s[tid + 16];SYNC\n\
     s[tid] += s[tid + 8];SYNC\n\
     s[tid] += s[tid + 4];SYNC\n\
     s[tid] += s[tid + 2];SYNC\n\
     s[tid] += s[tid + 1];\n\
   }\n\
   if (tid == 0) out[0] = sm[0];\n\
 }\n";

fn last_warp(sync: &str, arch: Option<&str>) -> KernelTrace {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = arch.map(str::to_string);
    let t = run_kernel(&LAST_WARP.replace("SYNC", sync), c).expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

#[test]
fn a_legacy_last_warp_reduction_without_syncwarp_is_flagged_on_sm70_and_later() {
    // The default `in` holds 0..63: lock-step lanes give 0 + 1 + … + 63 = 2016.
    let t = last_warp("", None);
    assert_eq!(ints(t.buffer("out").unwrap())[0], Some(2016));
    let warned: Vec<String> = t
        .all_diagnostics()
        .filter(|d| d.level == Level::Warning && d.message.contains("without `__syncwarp()`"))
        .map(|d| d.message.clone())
        .collect();
    // One per pair of steps: lines 8/9, 9/10, 10/11, 11/12, 12/13 (line 8 itself reads warp
    // 1's cells, which the barrier ordered); the first: lane 0 reads s[16], which lane 16 wrote.
    assert_eq!(warned.len(), 5, "{warned:?}");
    assert!(has(
        &t,
        Level::Warning,
        "lane 0 reads `sm[16]` at line 9, which lane 16"
    ));
    // The same kernel on sm_6x: lock-step warps, no warning.
    let t = last_warp("", Some("sm_60"));
    assert!(!has(&t, Level::Warning, "without `__syncwarp()`"));
}

#[test]
fn syncwarp_between_the_steps_silences_the_warning() {
    let t = last_warp(" __syncwarp();", None);
    assert_eq!(ints(t.buffer("out").unwrap())[0], Some(2016));
    assert!(!has(&t, Level::Warning, "without `__syncwarp()`"));
}

const SPIN: &str = "__device__ int lock = 0;\n\
 __global__ void k(int *count) {\n\
   while (atomicCAS(&lock, 0, 1) != 0) __nanosleep(100);\n\
   count[0] = count[0] + 1;\n\
   __threadfence();\n\
   atomicExch(&lock, 0);\n\
 }\n";

#[test]
fn an_intra_warp_spin_lock_finishes_on_sm70_and_later() {
    // Independent thread scheduling guarantees the lock holder progresses: every thread of
    // every warp enters the critical section once. `count` starts 0, 1, 2, … (the default fill).
    for threads in [32, 64] {
        let t = run(SPIN, None, threads);
        assert_eq!(ints(t.buffer("count").unwrap())[0], Some(threads as i128));
        assert_eq!(ints(t.buffer("lock").unwrap())[0], Some(0));
    }
}

#[test]
fn the_same_spin_lock_on_sm_6x_stops_with_the_rule_named() {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([32, 1, 1]),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = Some("sm_60".into());
    let t = run_kernel(SPIN, c).expect("kernel runs");
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert!(e.message.contains("livelock"), "{}", e.message);
    assert!(
        e.message.contains("Independent Thread Scheduling"),
        "{}",
        e.message
    );
}

#[test]
fn cg_reduce_and_inclusive_scan_take_a_user_lambda_over_a_tile() {
    // cooperative_groups/reduce.h and scan.h take any binary function object. Tiles of 8 over
    // 32 threads holding v = threadIdx.x; the scan's lambda adds a captured k = 3 at each
    // combine, so rank r gets (sum of the tile's first r + 1 values) + 3 r.
    let t = run(
        "#include <cooperative_groups.h>\n\
         #include <cooperative_groups/reduce.h>\n\
         #include <cooperative_groups/scan.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(int *sum, int *mx, int *sc, int *x) {\n\
           auto tile = cg::tiled_partition<8>(cg::this_thread_block());\n\
           int v = threadIdx.x;\n\
           int k = 3;\n\
           sum[v] = cg::reduce(tile, v, [](int a, int b) { return a + b; });\n\
           mx[v] = cg::reduce(tile, v, [](int a, int b) { return a > b ? a : b; });\n\
           sc[v] = cg::inclusive_scan(tile, v, [k](int a, int b) { return a + b + k; });\n\
           x[v] = cg::reduce(tile, v, cg::bit_xor<int>()) + 100 * cg::reduce(tile, v, cg::greater<int>());\n\
         }\n",
        None,
        32,
    );
    let tile = |l: i128| l / 8 * 8;
    let sum: Vec<Option<i128>> = (0..32)
        .map(|l| Some((tile(l)..tile(l) + 8).sum()))
        .collect();
    assert_eq!(ints(t.buffer("sum").unwrap()), sum);
    let mx: Vec<Option<i128>> = (0..32).map(|l| Some(tile(l) + 7)).collect();
    assert_eq!(ints(t.buffer("mx").unwrap()), mx);
    let sc: Vec<Option<i128>> = (0..32)
        .map(|l| Some((tile(l)..=l).sum::<i128>() + 3 * (l - tile(l))))
        .collect();
    assert_eq!(ints(t.buffer("sc").unwrap()), sc);
    // The xor of 8 consecutive values starting at a multiple of 8 is 0; the max is tile + 7.
    let x: Vec<Option<i128>> = (0..32).map(|l| Some(100 * (tile(l) + 7))).collect();
    assert_eq!(ints(t.buffer("x").unwrap()), x);
}
