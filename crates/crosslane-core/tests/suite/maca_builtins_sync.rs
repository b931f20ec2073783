//! Seed 002 §3.1.6–3.1.10, §3.8.1, §3.8.6: fences, barriers, the simulated clock.

use crate::common;

use crosslane_core::dialect::maca::sync::{MemQueues, Queue, SimClock};
use crosslane_core::Step;

fn run(op: &str, params: &[(&str, &str)]) -> Result<Step, crosslane_core::InputError> {
    common::maca(op, "", "", "", params).run()
}

fn waited(step: &Step) -> u64 {
    step.results[0].value.expect("count").bits
}

/// §3.1.6 examples: arrive(64) waits for every global access, arrive(4096) for every shared one.
#[test]
fn arrive_examples() {
    let g = run(
        "__builtin_mxc_arrive",
        &[("flag", "64"), ("gvm_pending", "3"), ("bsm_pending", "2")],
    )
    .unwrap();
    assert_eq!(waited(&g), 3);
    let s = run(
        "__builtin_mxc_arrive",
        &[("flag", "4096"), ("gvm_pending", "3"), ("bsm_pending", "2")],
    )
    .unwrap();
    assert_eq!(waited(&s), 2);
    let all = run(
        "__builtin_mxc_arrive",
        &[("flag", "0"), ("gvm_pending", "3"), ("bsm_pending", "2")],
    )
    .unwrap();
    assert_eq!(waited(&all), 5);
    // gvm_cnt = 1 with enable: one of three stays outstanding.
    let one = run(
        "__builtin_mxc_arrive",
        &[("flag", "65"), ("gvm_pending", "3")],
    )
    .unwrap();
    assert_eq!(waited(&one), 2);
    let odd = run("__builtin_mxc_arrive", &[("flag", "2048")]).unwrap();
    assert!(odd.has_warnings());
}

/// §3.1.7 / §3.1.8 examples wait for 0 outstanding; targets outside the range are refused.
#[test]
fn arrive_counts_and_ranges() {
    assert_eq!(
        waited(
            &run(
                "__builtin_mxc_arrive_gvmcnt",
                &[("gvmcnt", "0"), ("gvm_pending", "4")]
            )
            .unwrap()
        ),
        4
    );
    assert_eq!(
        waited(
            &run(
                "__builtin_mxc_arrive_bsmcnt",
                &[("bsmcnt", "0"), ("bsm_pending", "4")]
            )
            .unwrap()
        ),
        4
    );
    let e = run("__builtin_mxc_arrive_gvmcnt", &[("gvmcnt", "64")]).unwrap_err();
    assert_eq!(e.field, "gvmcnt");
    assert!(e.message.contains("0..=63"), "{}", e.message);
    let e = run("__builtin_mxc_arrive_bsmcnt", &[("bsmcnt", "16")]).unwrap_err();
    assert!(e.message.contains("0..=15"), "{}", e.message);
}

/// §3.1.9 flag meanings.
#[test]
fn barrier_ex_flags() {
    let p = [("gvm_pending", "2"), ("bsm_pending", "3")];
    let w = |flag: &str| {
        let mut params = p.to_vec();
        params.push(("flag", flag));
        waited(&run("__builtin_mxc_barrier_ex", &params).unwrap())
    };
    assert_eq!((w("0"), w("1"), w("2"), w("3")), (5, 3, 0, 0));
    assert!(run("__builtin_mxc_barrier_ex", &[("flag", "4")]).is_err());
}

/// §3.1.10 pseudo code `test2`: two ldg_b64_bsm copies; waiting on the first leaves the second
/// outstanding (its shared data not yet visible) until its own wait.
#[test]
fn barrier_and_wait_pipeline() {
    let mut q = MemQueues::default();
    let flag1 = q.issue(Queue::Global);
    let flag2 = q.issue(Queue::Global);
    assert_eq!(q.wait_for(flag1), vec![flag1]);
    assert!(q.is_complete(flag1));
    assert!(
        !q.is_complete(flag2),
        "compute1() must not read the second copy yet"
    );
    assert_eq!(q.wait_for(flag2), vec![flag2]);
    assert!(q.is_complete(flag2));
    // test1: __syncthreads() (barrier_ex 0) waits for both at once.
    let mut q = MemQueues::default();
    let (a, b) = (q.issue(Queue::Global), q.issue(Queue::Global));
    assert_eq!(q.barrier_ex(0), vec![a, b]);
    // Through the op: ret_flag 1 of 2 waits for both (queues complete in order).
    let s = run(
        "__builtin_mxc_barrier_and_wait2",
        &[("scope", "0"), ("ret_flag", "1"), ("gvm_pending", "2")],
    )
    .unwrap();
    assert_eq!(waited(&s), 2);
    let e = run(
        "__builtin_mxc_barrier_and_wait1",
        &[("ret_flag", "3"), ("gvm_pending", "2")],
    )
    .unwrap_err();
    assert_eq!(e.field, "ret_flag");
}

/// §3.8.6 example: nop(32) waits 128 cycles; §3.8.1 get_time reads the clock.
#[test]
fn clock() {
    let mut c = SimClock::default();
    c.nop(32);
    assert_eq!(c.get_time(), 128);
    let t = run("__builtin_mxc_get_time", &[("clock", "128")]).unwrap();
    assert_eq!(t.results[0].value.unwrap().bits, 128);
    let n = run("__builtin_mxc_nop", &[("n", "32"), ("clock", "0")]).unwrap();
    assert!(n
        .diagnostics
        .iter()
        .any(|d| d.message.contains("0 → 128 cycles")));
}
