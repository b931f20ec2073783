//! CUDA kernels through the SIMT executor. They run the CUDA shuffles through their `OpSpec`s
//! (dialect/cuda.rs) and pass once that dialect is merged.

use crate::cells::cell_ints as ints;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

#[test]
fn shfl_down_sync_reduction_puts_496_in_lane_0() {
    let src = "\
__global__ void warpReduce(int* out) {
  int v = threadIdx.x;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x == 0) out[0] = v;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(t.launch.lanes, 32);
    assert_eq!(ints(t.buffer("out").unwrap())[0], Some(496));
    assert_eq!(t.steps.iter().map(|s| s.ops.len()).sum::<usize>(), 5);
}

#[test]
fn shfl_xor_sync_butterfly_gives_every_lane_the_sum() {
    let src = "\
__global__ void allReduce(float* out) {
  float v = threadIdx.x * 0.5f;
  for (int m = 16; m >= 1; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m, 32);
  out[threadIdx.x] = v;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let out = t.buffer("out").unwrap();
    for (lane, cell) in out.iter().enumerate() {
        assert_eq!(
            cell.as_ref().and_then(KVal::as_f64),
            Some(248.0),
            "lane {lane}"
        );
    }
}

#[test]
fn a_sync_mask_that_leaves_out_a_calling_lane_is_undefined() {
    // Lanes 0-15 call with mask 0x0000ffff, but the shuffle reads lanes 16-31 (xor 16), which
    // are not in the mask and do not execute it.
    let src = "\
__global__ void k(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) {
    v = __shfl_xor_sync(0x0000ffff, v, 16);
  }
  out[threadIdx.x] = v;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let out = t.buffer("out").unwrap();
    assert!(out[..16].iter().all(Option::is_none));
    assert_eq!(ints(&out[16..]), (16..32).map(Some).collect::<Vec<_>>());
    assert!(t
        .all_diagnostics()
        .any(|d| d.line == 4 && d.level == Level::Warning));
}

#[test]
fn activemask_inside_a_branch_shows_the_branch_lanes() {
    let src = "\
__global__ void k(unsigned* out) {
  unsigned m = 0;
  if (threadIdx.x % 2 == 1) m = __activemask();
  out[threadIdx.x] = m;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out[1], Some(0xaaaa_aaaa));
    assert_eq!(out[2], Some(0));
}

/// CUDA C++ Programming Guide, Warp Vote Functions: the sync rule names non-exited threads. A
/// thread that returned, or one a partial warp never launched, has exited: a full-mask ballot of
/// the 8 remaining threads is defined, 0xfe (thread 0's predicate, 0, is false).
#[test]
fn exited_threads_do_not_break_a_full_mask_ballot() {
    let returned = "\
__global__ void vote(unsigned* out) {
  if (threadIdx.x >= 8) return;
  unsigned b = __ballot_sync(0xffffffff, threadIdx.x);
  out[threadIdx.x] = b;
}";
    let t = run_kernel(returned, LaunchConfig::default()).unwrap();
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out[..8], [Some(0xfe); 8]);
    let partial = "\
__global__ void vote(unsigned* out) {
  unsigned b = __ballot_sync(0xffffffff, threadIdx.x);
  out[threadIdx.x] = b;
}";
    let config = LaunchConfig {
        block_dim: Some([8, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(partial, config).unwrap();
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out[..8], [Some(0xfe); 8]);
    assert!(
        !t.steps
            .iter()
            .flat_map(|s| s.ops.iter())
            .flat_map(|op| op.results.iter())
            .any(|r| r.source == crosslane_core::Source::Undefined),
        "no lane undefined"
    );
}

#[test]
fn the_executor_lists_the_entrys_parameters_for_the_pages_argument_fields() {
    use crosslane_kernel::{Executor, Ty};
    let src = "__global__ void k(int* d, int s, unsigned long long& res) { d[threadIdx.x] = s; }";
    let ex = Executor::new(src, LaunchConfig::default()).expect("launches");
    let params: Vec<(&str, bool, bool)> = ex
        .parameters()
        .map(|p| (p.name.as_str(), matches!(p.ty, Ty::Ptr(_)), p.reference))
        .collect();
    // Declaration order; a reference is a one-cell buffer (a pointer parameter).
    assert_eq!(
        params,
        [("d", true, false), ("s", false, false), ("res", true, true)]
    );
    // Unset, `s` is reported (the page shows this beside its field's default).
    assert!(ex
        .trace()
        .diagnostics
        .iter()
        .any(|d| d.message.contains("scalar parameter `s` is not set")));
}

#[test]
fn an_atomic_add_of_an_undefined_sum_leaves_the_cell_undefined() {
    // Lane 31 returns before the reduction, so at offset 16 lane 15 reads an exited lane
    // (undefined: CUDA C++ Programming Guide, Warp Shuffle Functions), and the tree carries it
    // to lane 0 (15 → 7 → 3 → 1 → 0). The atomicAdd still writes the cell: its new value is
    // undefined, not the old value kept. Without the early return every lane adds 1: 0 + 32.
    let body = |early: &str| {
        format!(
            "__global__ void k(int* out) {{
  {early}
  int v = 1;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x == 0) atomicAdd(&out[0], v);
}}"
        )
    };
    let full = run_kernel(&body(""), LaunchConfig::default()).unwrap();
    assert_eq!(full.outcome, Some(Outcome::Finished));
    assert_eq!(ints(full.buffer("out").unwrap())[0], Some(32));
    let t = run_kernel(
        &body("if (threadIdx.x == 31) return;"),
        LaunchConfig::default(),
    )
    .unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(ints(t.buffer("out").unwrap())[0], None);
    // The warning belongs to the step of the atomicAdd (a full trace keeps it there).
    let said = t.steps.iter().flat_map(|s| &s.diagnostics).any(|d| {
        d.level == Level::Warning
            && d.message.contains("atomicAdd")
            && d.message.contains("the cell's new value is undefined")
    });
    assert!(said);
}

/// `__match_all_sync(mask, value, &pred)` writes `*pred` in every calling lane (CUDA C++
/// Programming Guide, "Warp Match Functions": "__match_all_sync: Returns mask if all threads
/// in mask have the same value for value; otherwise 0 is returned. Predicate pred is set to
/// true if all threads in mask have the same value of value; otherwise the predicate is set
/// to false"). Lanes 0-15 pass 7 with mask 0x0000ffff: all equal, so 0xffff = 65535 and
/// pred 1; lanes 16-31 pass their own index with mask 0xffff0000: they differ, so 0 and pred
/// 0 (p starts at -1, so an unwritten pred would show). The pointer form `flags + t` stores
/// into memory: every lane passes 0, so each flag is 1.
#[test]
fn match_all_sync_writes_pred_in_every_lane() {
    let src = "\
__global__ void k(unsigned *ret, int *preds, int *flags) {
  int t = threadIdx.x;
  int p = -1;
  unsigned r;
  if (t < 16) r = __match_all_sync(0x0000ffffu, 7, &p);
  else r = __match_all_sync(0xffff0000u, t, &p);
  ret[t] = r;
  preds[t] = p;
  __match_all_sync(0xffffffffu, 0, flags + t);
}";
    let mut c = LaunchConfig::default();
    for b in ["ret", "preds", "flags"] {
        c.buffer_len.insert(b.into(), 32);
        c.args.insert(b.into(), "9".into());
    }
    let t = run_kernel(src, c).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let want_ret: Vec<Option<i128>> = (0..32)
        .map(|l| Some(if l < 16 { 65535 } else { 0 }))
        .collect();
    let want_pred: Vec<Option<i128>> = (0..32).map(|l| Some(i128::from(l < 16))).collect();
    assert_eq!(ints(t.buffer("ret").unwrap()), want_ret);
    assert_eq!(ints(t.buffer("preds").unwrap()), want_pred);
    assert_eq!(ints(t.buffer("flags").unwrap()), vec![Some(1); 32]);
}

/// A block of 16 threads fills lanes 0-15 of its warp (CUDA C++ Programming Guide, "Thread
/// Hierarchy": a block's threads fill its warps in order); lanes 16-31 hold no thread, so a
/// full mask names 16 lanes that never existed. They do not call and do not break the sync
/// rule ("non-exited threads", Warp Shuffle Functions), and the note says they hold no thread,
/// not that they exited; lanes 0-3, which return first, did exit. Lane 4's value reaches
/// lanes 4-15: out = 4 there, 0 (the fill) in 0-3.
#[test]
fn lanes_past_a_small_block_are_not_counted_as_exited() {
    let src = "\
__global__ void k(int *out) {
  if (threadIdx.x < 4) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 4);
}";
    let mut c = LaunchConfig {
        block_dim: Some([16, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 16);
    c.args.insert("out".into(), "0".into());
    let t = run_kernel(src, c).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let want: Vec<Option<i128>> = (0..16).map(|l| Some(if l < 4 { 0 } else { 4 })).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
    let notes: Vec<String> = t.all_diagnostics().map(|d| d.message.clone()).collect();
    let exited: Vec<&String> = notes.iter().filter(|m| m.contains("have exited")).collect();
    assert_eq!(exited.len(), 1, "{notes:?}");
    assert!(
        exited[0].starts_with("lane(s) 0, 1, 2, 3 in mask 0xffffffff"),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|m| m.starts_with("16 lane(s) 16-31 in mask 0xffffffff hold no thread")),
        "{notes:?}"
    );
}
