//! MACA memory fences, barriers and the clock (seed 002 §3.1.6–3.1.10, §3.8.1, §3.8.6):
//! `__builtin_mxc_arrive`, `arrive_gvmcnt`, `arrive_bsmcnt`, `barrier_ex`,
//! `barrier_and_wait1/2/4`, `get_time`, `nop`.
//!
//! The model ([`MemQueues`]): every global access (loads, stores, `ldg_*_bsm` copies) enters the
//! global queue and every shared access the shared queue, in program order; a fence waits until
//! the queue holds at most its target count ("当访存操作队列中未完成的操作数量达到或低于目标值时，
//! 代码才可以继续向后执行"), completing the oldest first. An access that is still queued is not
//! visible: the kernel interpreter shows a read of its result (or of shared memory an `ldg_*_bsm`
//! has not yet filled) as undefined — that is how skipping a wait becomes visible.
//!
//! The single-op view: params `gvm_pending` / `bsm_pending` say how many accesses are
//! outstanding before the call; the result is how many the call waits for, with the reason.
//! The clock ([`SimClock`]) counts cycles; `nop(n)` advances it by 4·n ("每个空操作等于4拍").

use std::collections::VecDeque;

use crate::args::{Arg, Role};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult, Source};
use crate::value::{Value, ValueType};

/// A memory queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    /// Global memory accesses (gvm_cnt).
    Global,
    /// Shared memory accesses (bsm_cnt).
    Shared,
}

/// The decoded `flag` of `__builtin_mxc_arrive` (seed §3.1.6 table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArriveFlag {
    /// flag\[5:0\]: target of outstanding global accesses.
    pub gvm_cnt: u32,
    /// flag\[6\]: wait on the global queue.
    pub gvm_enable: bool,
    /// flag\[10:7\]: target of outstanding shared accesses.
    pub bsm_cnt: u32,
    /// flag\[12\]: wait on the shared queue.
    pub bsm_enable: bool,
}

impl ArriveFlag {
    /// Decodes a flag; 0 means "wait for every global and shared access" (seed).
    pub fn decode(flag: u32) -> Self {
        if flag == 0 {
            return ArriveFlag {
                gvm_cnt: 0,
                gvm_enable: true,
                bsm_cnt: 0,
                bsm_enable: true,
            };
        }
        ArriveFlag {
            gvm_cnt: flag & 0x3f,
            gvm_enable: flag & (1 << 6) != 0,
            bsm_cnt: (flag >> 7) & 0xf,
            bsm_enable: flag & (1 << 12) != 0,
        }
    }

    /// Bits the seed gives no meaning (11 and 13..=31).
    pub fn unused_bits(flag: u32) -> u32 {
        flag & !(0x3f | (1 << 6) | (0xf << 7) | (1 << 12))
    }
}

/// Outstanding memory accesses of one warp, oldest first, by ticket.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemQueues {
    next: u64,
    global: VecDeque<u64>,
    shared: VecDeque<u64>,
}

impl MemQueues {
    /// Queues an access; the ticket names it (an `ldg_*_bsm`'s `ret_flag`).
    pub fn issue(&mut self, queue: Queue) -> u64 {
        let t = self.next;
        self.next += 1;
        self.queue_mut(queue).push_back(t);
        t
    }

    fn queue_mut(&mut self, queue: Queue) -> &mut VecDeque<u64> {
        match queue {
            Queue::Global => &mut self.global,
            Queue::Shared => &mut self.shared,
        }
    }

    /// Outstanding accesses in `queue`.
    pub fn pending(&self, queue: Queue) -> usize {
        match queue {
            Queue::Global => self.global.len(),
            Queue::Shared => self.shared.len(),
        }
    }

    /// Whether the access `ticket` has completed (is visible).
    pub fn is_complete(&self, ticket: u64) -> bool {
        !self.global.contains(&ticket) && !self.shared.contains(&ticket)
    }

    /// Completes the oldest accesses until at most `target` remain; returns those completed.
    pub fn wait_until(&mut self, queue: Queue, target: usize) -> Vec<u64> {
        let q = self.queue_mut(queue);
        let mut done = Vec::new();
        while q.len() > target {
            if let Some(t) = q.pop_front() {
                done.push(t);
            }
        }
        done
    }

    /// `__builtin_mxc_arrive(flag)`.
    pub fn arrive(&mut self, flag: u32) -> Vec<u64> {
        let f = ArriveFlag::decode(flag);
        let mut done = Vec::new();
        if f.gvm_enable {
            done.extend(self.wait_until(Queue::Global, f.gvm_cnt as usize));
        }
        if f.bsm_enable {
            done.extend(self.wait_until(Queue::Shared, f.bsm_cnt as usize));
        }
        done
    }

    /// `__builtin_mxc_barrier_and_wait*(scope, ret_flag)`: completes `ticket` and everything
    /// queued before it in its queue (the queue completes in order).
    pub fn wait_for(&mut self, ticket: u64) -> Vec<u64> {
        for queue in [Queue::Global, Queue::Shared] {
            let q = self.queue_mut(queue);
            if let Some(pos) = q.iter().position(|t| *t == ticket) {
                return q.drain(..=pos).collect();
            }
        }
        Vec::new()
    }

    /// `__builtin_mxc_barrier_ex(flag)`: 0 = barrier + every memory fence, 1 = barrier + shared
    /// fence, 2 = barrier only, 3 = neither (seed §3.1.9). `__syncthreads()` is flag 0.
    pub fn barrier_ex(&mut self, flag: u32) -> Vec<u64> {
        let mut done = Vec::new();
        if flag == 0 {
            done.extend(self.wait_until(Queue::Global, 0));
        }
        if flag <= 1 {
            done.extend(self.wait_until(Queue::Shared, 0));
        }
        done
    }
}

/// A simulated cycle counter for `get_time` and `nop`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimClock {
    /// Cycles since the kernel started.
    pub cycles: u64,
}

impl SimClock {
    /// `__builtin_mxc_get_time()`: the current 64-bit timestamp.
    pub fn get_time(&self) -> u64 {
        self.cycles
    }

    /// `__builtin_mxc_nop(n)`: n empty operations of 4 cycles each.
    pub fn nop(&mut self, n: u32) {
        self.cycles = self.cycles.saturating_add(4 * n as u64);
    }
}

const GVM_PENDING: ParamSpec = ParamSpec {
    name: "gvm_pending",
    kind: ParamKind::Int { min: 0, max: 63 },
    default: ParamDefault::Int(1),
    doc: "global accesses outstanding before the call (the simulated queue)",
};
const BSM_PENDING: ParamSpec = ParamSpec {
    name: "bsm_pending",
    kind: ParamKind::Int { min: 0, max: 15 },
    default: ParamDefault::Int(1),
    doc: "shared accesses outstanding before the call (the simulated queue)",
};
const CLOCK: ParamSpec = ParamSpec {
    name: "clock",
    kind: ParamKind::Int {
        min: 0,
        max: i64::MAX,
    },
    default: ParamDefault::Int(0),
    doc: "the simulated clock before the call, in cycles",
};

fn scalar(
    value: Option<Value>,
    why: String,
    diagnostics: Vec<Diagnostic>,
) -> Result<OpOutput, InputError> {
    Ok(OpOutput {
        results: vec![LaneResult {
            value,
            source: if value.is_some() {
                Source::Computed
            } else {
                Source::Undefined
            },
            from: None,
            why: Some(why),
        }],
        diagnostics,
    })
}

/// Queues filled to the `gvm_pending` / `bsm_pending` params.
fn queues_of(input: &OpInput) -> Result<MemQueues, InputError> {
    let mut q = MemQueues::default();
    for _ in 0..input.params.int("gvm_pending")? {
        q.issue(Queue::Global);
    }
    for _ in 0..input.params.int("bsm_pending")? {
        q.issue(Queue::Shared);
    }
    Ok(q)
}

fn waited(q: &MemQueues, done: usize, rule: &str) -> Result<OpOutput, InputError> {
    let why = format!(
        "waits for {done} access(es); outstanding after: {} global, {} shared",
        q.pending(Queue::Global),
        q.pending(Queue::Shared)
    );
    scalar(
        Some(Value::from_bits(ValueType::U32, done as u64)),
        why,
        vec![Diagnostic::info(
            "void builtin: the value shown is the number of accesses waited for",
            rule,
        )],
    )
}

fn run_arrive(input: &OpInput) -> Result<OpOutput, InputError> {
    let flag = input.params.int("flag")? as u32;
    let mut diagnostics = Vec::new();
    let f = ArriveFlag::decode(flag);
    if ArriveFlag::unused_bits(flag) != 0 {
        diagnostics.push(Diagnostic::warning(
            format!("flag bits 0x{:x} have no meaning (defined: [5:0] gvm_cnt, [6] gvm enable, [10:7] bsm_cnt, [12] bsm enable)", ArriveFlag::unused_bits(flag)),
            "seed 002 §3.1.6",
        ));
    }
    if flag != 0 && !f.gvm_enable && !f.bsm_enable {
        diagnostics.push(Diagnostic::warning(
            "neither gvm_cnt_enable (bit 6) nor bsm_cnt_enable (bit 12) is set: the fence waits for nothing",
            "seed 002 §3.1.6",
        ));
    }
    let mut q = queues_of(input)?;
    let done = q.arrive(flag).len();
    let mut out = waited(&q, done, "seed 002 §3.1.6")?;
    diagnostics.append(&mut out.diagnostics);
    out.diagnostics = diagnostics;
    Ok(out)
}

fn run_gvmcnt(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut q = queues_of(input)?;
    let done = q
        .wait_until(Queue::Global, input.params.int("gvmcnt")? as usize)
        .len();
    waited(&q, done, "seed 002 §3.1.7")
}

fn run_bsmcnt(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut q = queues_of(input)?;
    let done = q
        .wait_until(Queue::Shared, input.params.int("bsmcnt")? as usize)
        .len();
    waited(&q, done, "seed 002 §3.1.8")
}

fn run_barrier_ex(input: &OpInput) -> Result<OpOutput, InputError> {
    let flag = input.params.int("flag")? as u32;
    let mut q = queues_of(input)?;
    let done = q.barrier_ex(flag).len();
    let what = match flag {
        0 => "instruction barrier and memory fence (global and shared)",
        1 => "instruction barrier and shared-memory fence",
        2 => "instruction barrier only: no fence",
        _ => "no barrier and no fence: only blocks compiler reordering",
    };
    let mut out = waited(&q, done, "seed 002 §3.1.9")?;
    out.diagnostics.push(Diagnostic::info(
        format!("flag {flag}: {what}"),
        "seed 002 §3.1.9",
    ));
    Ok(out)
}

fn run_and_wait(input: &OpInput) -> Result<OpOutput, InputError> {
    // ret_flag names the ldg_*_bsm among the gvm_pending queued accesses (0 = oldest).
    let mut q = queues_of(input)?;
    let ticket = input.params.int("ret_flag")? as u64;
    let pending = input.params.int("gvm_pending")? as u64;
    if ticket >= pending {
        return Err(InputError::new(
            "ret_flag",
            format!(
                "must name one of the {pending} outstanding ldg_*_bsm accesses: 0..={}",
                pending.saturating_sub(1)
            ),
        ));
    }
    let done = q.wait_for(ticket).len();
    let scope = input.params.int("scope")?;
    let mut out = waited(&q, done, "seed 002 §3.1.10")?;
    out.diagnostics.push(Diagnostic::info(
        if scope == 0 {
            "scope 0: memory fence only (shared data not shared across warps)"
        } else {
            "scope 1: memory fence and instruction barrier, like __syncthreads()"
        },
        "seed 002 §3.1.10",
    ));
    Ok(out)
}

fn run_get_time(input: &OpInput) -> Result<OpOutput, InputError> {
    let clock = SimClock {
        cycles: input.params.int("clock")? as u64,
    };
    scalar(
        Some(Value::from_bits(ValueType::I64, clock.get_time())),
        "the simulated clock, in cycles".into(),
        Vec::new(),
    )
}

fn run_nop(input: &OpInput) -> Result<OpOutput, InputError> {
    let mut clock = SimClock {
        cycles: input.params.int("clock")? as u64,
    };
    let before = clock.cycles;
    clock.nop(input.params.int("n")? as u32);
    scalar(
        None,
        "the seed declares an int result but does not say what it holds".into(),
        vec![Diagnostic::info(
            format!(
                "clock {before} → {} cycles (4 cycles per nop)",
                clock.cycles
            ),
            "seed 002 §3.8.6",
        )],
    )
}

macro_rules! wait_op {
    ($name:literal, $proto:expr, $args:expr, $rule:literal, $src:literal, $settings:expr, $run:expr) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: $name,
            aliases: &[],
            proto: $proto,
            args: $args,
            rule: $rule,
            source: $src,
            settings: $settings,
            types: &[ValueType::U32],
            type_note: "a void builtin: the value shown is the number of accesses waited for",
            kind: OpKind::Scalar,
            run: $run,
        }
    };
}

const SCOPE: ParamSpec = ParamSpec {
    name: "scope",
    kind: ParamKind::Int { min: 0, max: 1 },
    default: ParamDefault::Int(1),
    doc: "0: memory fence only; 1: fence and barrier (like __syncthreads())",
};

const RET_FLAG: ParamSpec = ParamSpec {
    name: "ret_flag",
    kind: ParamKind::Int { min: 0, max: 62 },
    default: ParamDefault::Int(0),
    doc: "which outstanding ldg_*_bsm (0 = oldest) the flag came from",
};

/// The `barrier_and_wait*` settings that are not call arguments: the simulated queues.
const AND_WAIT_SETTINGS: &[ParamSpec] = &[GVM_PENDING, BSM_PENDING];

/// The fences, barriers and clock builtins.
pub const OPS: &[OpSpec] = &[
    wait_op!(
        "__builtin_mxc_arrive",
        Proto::returns("void"), &[Arg::immediate("flag", "unsigned", Role::Control, ParamSpec {
                name: "flag",
                kind: ParamKind::Int { min: 0, max: u32::MAX as i64 },
                default: ParamDefault::Int(0),
                doc: "[5:0] gvm_cnt, [6] gvm_cnt_enable, [10:7] bsm_cnt, [12] bsm_cnt_enable; 0 = wait for all",
            })],
        "Waits until outstanding global accesses ≤ flag[5:0] (if flag[6]) and outstanding shared \
         accesses ≤ flag[10:7] (if flag[12]); flag 0 waits for every access. Other bits have no \
         meaning (warning). Queues complete oldest first.",
        "seed 002 §3.1.6",
        &[GVM_PENDING, BSM_PENDING],
        run_arrive
    ),
    wait_op!(
        "__builtin_mxc_arrive_gvmcnt",
        Proto::returns("void"), &[Arg::immediate("gvmcnt", "unsigned", Role::Control, ParamSpec {
                name: "gvmcnt",
                kind: ParamKind::Int { min: 0, max: 63 },
                default: ParamDefault::Int(0),
                doc: "target of outstanding global accesses; seed: 有效值范围 0~63",
            })],
        "Waits until at most gvmcnt global accesses are outstanding (valid 0..=63).",
        "seed 002 §3.1.7",
        &[GVM_PENDING, BSM_PENDING],
        run_gvmcnt
    ),
    wait_op!(
        "__builtin_mxc_arrive_bsmcnt",
        Proto::returns("void"), &[Arg::immediate("bsmcnt", "unsigned", Role::Control, ParamSpec {
                name: "bsmcnt",
                kind: ParamKind::Int { min: 0, max: 15 },
                default: ParamDefault::Int(0),
                doc: "target of outstanding shared accesses; seed: 有效值范围 0~15",
            })],
        "Waits until at most bsmcnt shared accesses are outstanding (valid 0..=15). The seed's table \
         says 全局内存队列 (global queue) for bsmcnt: a copy slip, the description and name say shared.",
        "seed 002 §3.1.8",
        &[GVM_PENDING, BSM_PENDING],
        run_bsmcnt
    ),
    wait_op!(
        "__builtin_mxc_barrier_ex",
        Proto::returns("void"), &[Arg::immediate("flag", "int", Role::Control, ParamSpec {
                name: "flag",
                kind: ParamKind::Int { min: 0, max: 3 },
                default: ParamDefault::Int(0),
                doc: "0 barrier + fences, 1 barrier + shared fence, 2 barrier only, 3 none",
            })],
        "All threads of the block reach this point before any continues. flag 0: barrier and memory \
         fence (global and shared); 1: barrier and shared fence; 2: barrier only; 3: neither (only \
         blocks compiler reordering).",
        "seed 002 §3.1.9",
        &[GVM_PENDING, BSM_PENDING],
        run_barrier_ex
    ),
    wait_op!(
        "__builtin_mxc_barrier_and_wait1",
        Proto::returns("void").note("Used for 32bit load"), &[Arg::immediate("scope", "int", Role::Control, SCOPE), Arg::immediate("ret_flag", "v1u32", Role::Control, RET_FLAG)],
        "Waits for the ldg_b32_bsm that returned ret_flag (and the accesses queued before it) to land \
         in shared memory; scope 1 also acts as a block barrier like __syncthreads().",
        "seed 002 §3.1.10",
        AND_WAIT_SETTINGS,
        run_and_wait
    ),
    wait_op!(
        "__builtin_mxc_barrier_and_wait2",
        Proto::returns("void").note("Used for 64bit load"), &[Arg::immediate("scope", "int", Role::Control, SCOPE), Arg::immediate("ret_flag", "v2u32", Role::Control, RET_FLAG)],
        "As barrier_and_wait1, for ldg_b64_bsm.",
        "seed 002 §3.1.10",
        AND_WAIT_SETTINGS,
        run_and_wait
    ),
    wait_op!(
        "__builtin_mxc_barrier_and_wait4",
        Proto::returns("void").note("Used for 128bit load"), &[Arg::immediate("scope", "int", Role::Control, SCOPE), Arg::immediate("ret_flag", "v4u32", Role::Control, RET_FLAG)],
        "As barrier_and_wait1, for ldg_b128_bsm.",
        "seed 002 §3.1.10",
        AND_WAIT_SETTINGS,
        run_and_wait
    ),
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_get_time",
        aliases: &[],
        proto: Proto::returns("int64_t"),
        args: &[],
        rule: "The current 64-bit timestamp: here the simulated clock in cycles (advanced by nop, 4 \
               cycles each).",
        source: "seed 002 §3.8.1",
        settings: &[CLOCK],
        types: &[ValueType::I64],
        type_note: "the result is int64_t",
        kind: OpKind::Scalar,
        run: run_get_time,
    },
    OpSpec {
        dialect: Dialect::Maca,
        name: "__builtin_mxc_nop",
        aliases: &[],
        proto: Proto::returns("int"),
        args: &[Arg::immediate("n", "int", Role::Control, ParamSpec {
                name: "n",
                kind: ParamKind::Int { min: 0, max: i32::MAX as i64 },
                default: ParamDefault::Int(1),
                doc: "number of empty operations (4 cycles each)",
            })],
        rule: "Inserts n empty operations of 4 cycles each (nop(32) waits 128 cycles): the simulated \
               clock advances by 4·n. The int result's meaning is not given (undefined).",
        source: "seed 002 §3.8.6",
        settings: &[CLOCK],
        types: &[ValueType::I32],
        type_note: "the result is int",
        kind: OpKind::Scalar,
        run: run_nop,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrive_flag_examples() {
        // §3.1.6: arrive(64) = 1 << 6 waits for all global; arrive(4096) = 1 << 12 for all shared.
        let g = ArriveFlag::decode(64);
        assert!(g.gvm_enable && !g.bsm_enable && g.gvm_cnt == 0);
        let s = ArriveFlag::decode(4096);
        assert!(s.bsm_enable && !s.gvm_enable && s.bsm_cnt == 0);
        let all = ArriveFlag::decode(0);
        assert!(all.gvm_enable && all.bsm_enable);
        assert_eq!(ArriveFlag::unused_bits(1 << 11), 1 << 11);
    }
}
