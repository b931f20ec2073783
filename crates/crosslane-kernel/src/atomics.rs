//! The atomic functions a kernel may call, by spelling: what each does to its cell, what it
//! gives back, and which of its arguments are a memory order or a scope. One table for the
//! three families real code uses:
//!
//! - CUDA's `atomicAdd` … `atomicCAS` and their `_block` / `_system` variants (CUDA C++
//!   Programming Guide, "Atomic Functions"), which HIP also declares (HIP documentation,
//!   "Atomic functions"), with HIP's `unsafeAtomicAdd/Max/Min`, `safeAtomicAdd/Max/Min` and
//!   `atomicAddNoRet`;
//! - GCC's and clang's `__atomic_*` builtins (GCC manual, "Built-in Functions for Memory Model
//!   Aware Atomic Operations"; clang adds `__atomic_fetch_min/max`);
//! - clang's `__hip_atomic_*` builtins, which take a memory order and a HIP memory scope
//!   (`__HIP_MEMORY_SCOPE_WAVEFRONT` …; HIP's own atomics are written over them);
//! - Ascend C's SIMT atomics `asc_atomic_add`, `_sub`, `_exch`, `_max`, `_min`, `_inc`, `_dec`,
//!   `_cas`, `_and`, `_or`, `_xor` (CANN asc-devkit SIMT API reference, "atomic operations",
//!   header `simt_api/device_atomic_functions.h`): each returns "UB或Global Memory上的初始数据"
//!   (the cell's value before it) and does what CUDA's function of the same word does —
//!   `asc_atomic_inc(p, v)` stores 0 where the old value is at least `v`, else old + 1;
//!   `asc_atomic_dec(p, v)` stores `v` where the old value is 0 or above `v`, else old − 1;
//!   `asc_atomic_cas(p, compare, val)` stores `val` where the old value equals `compare` —
//!   with `uint64_t` overloads of `inc` and `dec` besides `uint32_t`.
//!
//! Why scope and order change no value here: the emulator runs one device whose memory
//! operations complete at once, in one order (`machine/atomic.rs`: every active lane of a warp
//! in lane order, warps in the order they run). A scope only limits which threads are
//! guaranteed to observe the atomic (CUDA C++ Programming Guide, "Atomic Functions": "the
//! atomic operation is atomic only with respect to" the threads of the scope), and a memory
//! order only constrains how other accesses are ordered around it (GCC manual, same section);
//! with every access applied at once in one order both are already met, so each scoped or
//! ordered form gives exactly what the unscoped, sequentially consistent one gives. The orders
//! and scopes are still checked: they must be constants, and ones the vendor rejects for the
//! operation are refused before the run ([`check_order`], [`check_scope`]).

/// What an atomic does to its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `old + v` (integers wrap; floats round as `+` does).
    Add,
    /// `old - v`.
    Sub,
    /// `old & v`.
    And,
    /// `old | v`.
    Or,
    /// `old ^ v`.
    Xor,
    /// `~(old & v)` (GCC's `__atomic_fetch_nand`).
    Nand,
    /// The smaller of `old` and `v`.
    Min,
    /// The larger of `old` and `v`.
    Max,
    /// `v` (an exchange).
    Exch,
    /// CUDA's `atomicCAS(p, compare, val)`: `val` where `old == compare`, else `old`.
    Cas,
    /// `atomicInc(p, v)`: `(old >= v) ? 0 : old + 1`.
    Inc,
    /// `atomicDec(p, v)`: `((old == 0) || (old > v)) ? v : old - 1`.
    Dec,
    /// A read: the cell is not written.
    Load,
    /// A write of `v`; nothing is read back.
    Store,
    /// GCC's / clang's compare-exchange: `(p, expected*, desired, …)` stores `desired` where the
    /// cell's bits equal `*expected`'s, else writes the cell's value to `*expected`.
    CompareExchange,
}

/// What an atomic call gives back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gives {
    /// The cell's value before the operation (`atomicAdd`, `__atomic_fetch_add`).
    Old,
    /// The cell's value after it (`__atomic_add_fetch`).
    New,
    /// `true` where the compare-exchange stored, else `false`.
    Success,
    /// Nothing: the function returns `void` (`__atomic_store_n`, `atomicAddNoRet`).
    Nothing,
}

/// An atomic function's shape: its operation, result and arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtomicForm {
    /// What it does to the cell.
    pub op: AtomicOp,
    /// What it returns.
    pub gives: Gives,
    /// How many arguments it takes.
    pub arity: usize,
    /// The positions of its memory-order arguments (the success order first for a
    /// compare-exchange, then the failure order).
    pub orders: &'static [usize],
    /// The position of its HIP memory-scope argument (`__hip_atomic_*` only).
    pub scope: Option<usize>,
    /// The position of GCC's `weak` flag (`__atomic_compare_exchange_n`): any value is
    /// accepted; a weak compare-exchange may fail spuriously, and the run's one outcome is the
    /// one where it does not (GCC manual: "weak … may fail spuriously").
    pub weak: Option<usize>,
}

impl AtomicForm {
    /// The positions of the arguments that are values (the pointer first, then the operands):
    /// every argument that is neither an order, a scope nor a weak flag.
    pub fn value_positions(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.arity)
            .filter(|k| !self.orders.contains(k) && self.scope != Some(*k) && self.weak != Some(*k))
    }
}

/// The CUDA names and operations shared by their scoped and HIP variants.
const CUDA: &[(&str, AtomicOp)] = &[
    ("atomicAdd", AtomicOp::Add),
    ("atomicSub", AtomicOp::Sub),
    ("atomicExch", AtomicOp::Exch),
    ("atomicMin", AtomicOp::Min),
    ("atomicMax", AtomicOp::Max),
    ("atomicAnd", AtomicOp::And),
    ("atomicOr", AtomicOp::Or),
    ("atomicXor", AtomicOp::Xor),
    ("atomicCAS", AtomicOp::Cas),
    ("atomicInc", AtomicOp::Inc),
    ("atomicDec", AtomicOp::Dec),
];

/// The read-modify-write words of `__atomic_fetch_X` / `__atomic_X_fetch` /
/// `__hip_atomic_fetch_X`.
const RMW: &[(&str, AtomicOp)] = &[
    ("add", AtomicOp::Add),
    ("sub", AtomicOp::Sub),
    ("and", AtomicOp::And),
    ("or", AtomicOp::Or),
    ("xor", AtomicOp::Xor),
    ("nand", AtomicOp::Nand),
    ("min", AtomicOp::Min),
    ("max", AtomicOp::Max),
];

/// The operation of Ascend C's `asc_atomic_<word>` (module comment), `None` for another name.
pub fn ascend_op(name: &str) -> Option<AtomicOp> {
    Some(match name.strip_prefix("asc_atomic_")? {
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "exch" => AtomicOp::Exch,
        "max" => AtomicOp::Max,
        "min" => AtomicOp::Min,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        "cas" => AtomicOp::Cas,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        _ => return None,
    })
}

fn rmw(word: &str) -> Option<AtomicOp> {
    RMW.iter().find(|(w, _)| *w == word).map(|(_, op)| *op)
}

/// The prefix of the names `cuda::atomic_ref`'s member calls are lowered to
/// (`cuda::atomic_ref::fetch_add`, by `parser::atomic_ref`): each has the form of the GCC
/// builtin of the same meaning ([`atomic_ref_builtin`]), and is libcu++'s, which nvcc compiles.
pub const ATOMIC_REF: &str = "cuda::atomic_ref::";

/// The GCC builtin a `cuda::atomic_ref` member does (its arguments: the reference's
/// pointer, the member's, then the memory orders): `fetch_add` → `__atomic_fetch_add`, `load`
/// → `__atomic_load_n`, `store` → `__atomic_store_n`, `exchange` → `__atomic_exchange_n`,
/// `compare_exchange_strong` → `__atomic_compare_exchange_n`; `None` for any other name.
pub fn atomic_ref_builtin(member: &str) -> Option<&'static str> {
    Some(match member {
        "fetch_add" => "__atomic_fetch_add",
        "fetch_sub" => "__atomic_fetch_sub",
        "fetch_and" => "__atomic_fetch_and",
        "fetch_or" => "__atomic_fetch_or",
        "fetch_xor" => "__atomic_fetch_xor",
        "fetch_max" => "__atomic_fetch_max",
        "fetch_min" => "__atomic_fetch_min",
        "load" => "__atomic_load_n",
        "store" => "__atomic_store_n",
        "exchange" => "__atomic_exchange_n",
        "compare_exchange_strong" => "__atomic_compare_exchange_n",
        _ => return None,
    })
}

/// The form of the atomic function `name`, or `None` when it names none.
pub fn form(name: &str) -> Option<AtomicForm> {
    if let Some(member) = name.strip_prefix(ATOMIC_REF) {
        return atomic_ref_builtin(member).and_then(form);
    }
    let plain = |op: AtomicOp, gives: Gives| AtomicForm {
        op,
        gives,
        arity: if op == AtomicOp::Cas { 3 } else { 2 },
        orders: &[],
        scope: None,
        weak: None,
    };
    // CUDA's scoped variants (`atomicAdd_block`, `atomicCAS_system`): the same operation.
    let base = name
        .strip_suffix("_block")
        .or_else(|| name.strip_suffix("_system"))
        .unwrap_or(name);
    if let Some((_, op)) = CUDA.iter().find(|(n, _)| *n == base) {
        return Some(plain(*op, Gives::Old));
    }
    if let Some(op) = ascend_op(name) {
        return Some(plain(op, Gives::Old));
    }
    let gcc = |op: AtomicOp, gives: Gives, arity: usize, orders: &'static [usize]| AtomicForm {
        op,
        gives,
        arity,
        orders,
        scope: None,
        weak: None,
    };
    let hip = |op: AtomicOp, gives: Gives, arity: usize, orders: &'static [usize]| AtomicForm {
        op,
        gives,
        arity,
        orders,
        scope: Some(arity - 1),
        weak: None,
    };
    Some(match name {
        // HIP's float atomics that skip the CAS loop (`unsafe…`) or keep it (`safe…`): the
        // same value either way (HIP documentation, "Atomic functions"); `atomicAddNoRet`
        // returns nothing.
        "unsafeAtomicAdd" | "safeAtomicAdd" => plain(AtomicOp::Add, Gives::Old),
        "unsafeAtomicMax" | "safeAtomicMax" => plain(AtomicOp::Max, Gives::Old),
        "unsafeAtomicMin" | "safeAtomicMin" => plain(AtomicOp::Min, Gives::Old),
        "atomicAddNoRet" => plain(AtomicOp::Add, Gives::Nothing),
        "__atomic_load_n" => gcc(AtomicOp::Load, Gives::Old, 2, &[1]),
        "__atomic_store_n" => gcc(AtomicOp::Store, Gives::Nothing, 3, &[2]),
        "__atomic_exchange_n" => gcc(AtomicOp::Exch, Gives::Old, 3, &[2]),
        "__atomic_compare_exchange_n" => AtomicForm {
            weak: Some(3),
            ..gcc(AtomicOp::CompareExchange, Gives::Success, 6, &[4, 5])
        },
        "__hip_atomic_load" => hip(AtomicOp::Load, Gives::Old, 3, &[1]),
        "__hip_atomic_store" => hip(AtomicOp::Store, Gives::Nothing, 4, &[2]),
        "__hip_atomic_exchange" => hip(AtomicOp::Exch, Gives::Old, 4, &[2]),
        "__hip_atomic_compare_exchange_strong" | "__hip_atomic_compare_exchange_weak" => {
            hip(AtomicOp::CompareExchange, Gives::Success, 6, &[3, 4])
        }
        _ => {
            if let Some(op) = name.strip_prefix("__hip_atomic_fetch_").and_then(rmw) {
                if op == AtomicOp::Nand {
                    return None;
                }
                return Some(hip(op, Gives::Old, 4, &[2]));
            }
            if let Some(op) = name.strip_prefix("__atomic_fetch_").and_then(rmw) {
                return Some(gcc(op, Gives::Old, 3, &[2]));
            }
            let op = name
                .strip_prefix("__atomic_")
                .and_then(|r| r.strip_suffix("_fetch"))
                .and_then(rmw)?;
            gcc(op, Gives::New, 3, &[2])
        }
    })
}

/// The memory orders, by value: GCC's and clang's predefined `__ATOMIC_RELAXED` (0),
/// `__ATOMIC_CONSUME` (1), `__ATOMIC_ACQUIRE` (2), `__ATOMIC_RELEASE` (3), `__ATOMIC_ACQ_REL`
/// (4), `__ATOMIC_SEQ_CST` (5) (GCC manual, "Built-in Functions for Memory Model Aware Atomic
/// Operations"; the C++ `std::memory_order` enumerators have the same values in libstdc++ and
/// libc++).
pub const ORDERS: [&str; 6] = [
    "__ATOMIC_RELAXED",
    "__ATOMIC_CONSUME",
    "__ATOMIC_ACQUIRE",
    "__ATOMIC_RELEASE",
    "__ATOMIC_ACQ_REL",
    "__ATOMIC_SEQ_CST",
];

/// The HIP memory scopes, by value: clang predefines `__HIP_MEMORY_SCOPE_SINGLETHREAD` (1),
/// `_WAVEFRONT` (2), `_WORKGROUP` (3), `_AGENT` (4), `_SYSTEM` (5) for HIP.
pub const SCOPES: [&str; 5] = [
    "__HIP_MEMORY_SCOPE_SINGLETHREAD",
    "__HIP_MEMORY_SCOPE_WAVEFRONT",
    "__HIP_MEMORY_SCOPE_WORKGROUP",
    "__HIP_MEMORY_SCOPE_AGENT",
    "__HIP_MEMORY_SCOPE_SYSTEM",
];

/// Checks the constant memory order `v` given as the `which`-th order argument (0: the only
/// or success order, 1: a compare-exchange's failure order) of an atomic doing `op`.
///
/// # Errors
/// What to write instead when `v` is no memory order, or one the GCC manual excludes for the
/// operation: a load may not be `__ATOMIC_RELEASE` or `__ATOMIC_ACQ_REL`; a store only
/// `__ATOMIC_RELAXED`, `__ATOMIC_RELEASE` or `__ATOMIC_SEQ_CST`; a compare-exchange's failure
/// order not `__ATOMIC_RELEASE` or `__ATOMIC_ACQ_REL` (GCC manual, "Built-in Functions for
/// Memory Model Aware Atomic Operations"; C++17 [atomics.types.operations]).
pub fn check_order(op: AtomicOp, which: usize, v: i128) -> Result<(), String> {
    let Some(k) = usize::try_from(v).ok().filter(|&k| k < ORDERS.len()) else {
        return Err(format!(
            "{v} is not a memory order: write one of {}",
            ORDERS.join(", ")
        ));
    };
    if allowed(op, which, k) {
        return Ok(());
    }
    let what = match (op, which) {
        (AtomicOp::Load, _) => "a load",
        (AtomicOp::Store, _) => "a store",
        _ => "a compare-exchange's failure order",
    };
    let valid: Vec<&str> = (0..ORDERS.len())
        .filter(|&j| allowed(op, which, j))
        .map(|j| ORDERS[j])
        .collect();
    Err(format!(
        "`{}` is not a valid memory order for {what} (GCC manual, Built-in Functions for Memory \
         Model Aware Atomic Operations): write one of {}",
        ORDERS[k],
        valid.join(", ")
    ))
}

/// Whether the order of index `k` in [`ORDERS`] is valid as the `which`-th order of `op`.
fn allowed(op: AtomicOp, which: usize, k: usize) -> bool {
    const CONSUME: usize = 1;
    const ACQUIRE: usize = 2;
    const RELEASE: usize = 3;
    const ACQ_REL: usize = 4;
    match (op, which) {
        (AtomicOp::Load, _) | (AtomicOp::CompareExchange, 1) => !matches!(k, RELEASE | ACQ_REL),
        (AtomicOp::Store, _) => !matches!(k, CONSUME | ACQUIRE | ACQ_REL),
        _ => true,
    }
}

/// Checks a constant HIP memory scope.
///
/// # Errors
/// What to write instead when `v` is not one of [`SCOPES`] (clang rejects any other
/// synchronization scope).
pub fn check_scope(v: i128) -> Result<(), String> {
    if (1..=SCOPES.len() as i128).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{v} is not a HIP memory scope: write one of {}",
            SCOPES.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_map_to_their_operation() {
        for (name, op, gives, arity) in [
            ("atomicAdd_block", AtomicOp::Add, Gives::Old, 2),
            ("atomicCAS_system", AtomicOp::Cas, Gives::Old, 3),
            ("atomicInc_block", AtomicOp::Inc, Gives::Old, 2),
            ("atomicAddNoRet", AtomicOp::Add, Gives::Nothing, 2),
            ("__atomic_fetch_max", AtomicOp::Max, Gives::Old, 3),
            ("__atomic_nand_fetch", AtomicOp::Nand, Gives::New, 3),
            (
                "__atomic_compare_exchange_n",
                AtomicOp::CompareExchange,
                Gives::Success,
                6,
            ),
            ("__hip_atomic_fetch_or", AtomicOp::Or, Gives::Old, 4),
            ("__hip_atomic_store", AtomicOp::Store, Gives::Nothing, 4),
        ] {
            let f = form(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!((f.op, f.gives, f.arity), (op, gives, arity), "{name}");
        }
        for name in [
            "atomicFoo",
            "atomicAdd_warp",
            "__hip_atomic_fetch_nand",
            "__atomic_load",
        ] {
            assert_eq!(form(name), None, "{name}");
        }
        let f = form("__hip_atomic_compare_exchange_weak").unwrap();
        assert_eq!((f.orders, f.scope), (&[3usize, 4][..], Some(5)));
        assert_eq!(f.value_positions().collect::<Vec<_>>(), vec![0, 1, 2]);
        let f = form("__atomic_compare_exchange_n").unwrap();
        assert_eq!(f.value_positions().collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    #[test]
    fn orders_follow_the_gcc_manual() {
        // Load: RELEASE (3) and ACQ_REL (4) excluded; store: CONSUME (1), ACQUIRE (2),
        // ACQ_REL (4) excluded; a failure order: RELEASE and ACQ_REL excluded.
        let ok = |op, which| {
            (0..6)
                .filter(|&v| check_order(op, which, v).is_ok())
                .collect::<Vec<_>>()
        };
        assert_eq!(ok(AtomicOp::Load, 0), vec![0, 1, 2, 5]);
        assert_eq!(ok(AtomicOp::Store, 0), vec![0, 3, 5]);
        assert_eq!(ok(AtomicOp::Add, 0), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(ok(AtomicOp::CompareExchange, 1), vec![0, 1, 2, 5]);
        assert!(check_order(AtomicOp::Add, 0, 6).is_err());
        assert!(check_order(AtomicOp::Add, 0, -1).is_err());
        assert!(check_scope(0).is_err() && check_scope(6).is_err());
        assert!((1..=5).all(|s| check_scope(s).is_ok()));
    }
}
