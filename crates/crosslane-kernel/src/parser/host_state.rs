//! What host code told so far while it is read ([`HostState`]): its variables' values, its
//! host arrays' fills, its device allocations and what was written into them, pointer values
//! and the launches given each allocation. Its own module so that `host` holds the reading
//! and this the state it builds.

use std::collections::HashMap;

use super::const_eval::HostVal;
#[cfg(doc)]
use crate::ast::HostLaunch;

/// A kernel a function pointer holds: its name and, for a template, its template arguments
/// (`host_kernel_ptr`).
pub(super) type KernelRef = (String, Vec<super::targs::TArg>);

/// What a device pointer holds (`host_mem`): the last write host code made into it before the
/// point read.
#[derive(Clone, Debug)]
pub(super) enum DevWrite {
    /// Allocated by the call (`cudaMalloc`) at the line; nothing written since.
    Fresh(String, u32),
    /// A host-to-device copy (its values are in `HostState::copied`).
    Copy,
    /// A memset: the buffer's fill text (typed bytes), and the statement; or why it is not
    /// read.
    Memset(Result<(String, String), String>),
    /// Written by something not read here: what and where.
    Other(String),
}

/// A host pointer's value (`host_ptr`): the allocation it points into (named as in
/// [`HostState::mallocs`] and [`HostState::writes`]) and the elements past its start, `None`
/// when that count is not a host constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PtrVal {
    /// The allocation's name.
    pub alloc: String,
    /// Elements past the allocation's start.
    pub offset: Option<u64>,
}

/// An earlier launch given a device pointer: its name for a message, its
/// [`HostLaunch::id`], and which of its arguments the pointer was.
pub(super) type Prior = (String, u32, usize);

/// What a host function told about its arrays so far.
#[derive(Clone, Default)]
pub(super) struct HostState {
    /// The function read, and its parameters (an Ascend launcher's are forwarded by its
    /// `asc_vf_call`).
    pub(super) name: String,
    pub(super) params: Vec<String>,
    /// Read at a call with its parameters bound (`host_calls::read_call`), not at its
    /// definition: a pointer parameter the caller's reading did not follow then stands for
    /// memory host code writes in a way not read, so a launch given it has undefined cells,
    /// said; at the definition (a launcher no call binds) it keeps the kernel's own default.
    pub(super) bound_call: bool,
    /// Which reading of host code this state is (each function body read, at its definition
    /// or at a call, gets its own number): an `if` left undecided in one reading leaves the
    /// launches under it undecided in that reading only (`Parser::undecided`), so a call
    /// that binds the condition's operands decides them.
    pub(super) reading: u32,
    /// Block-scope type aliases the function declares (`using T = int;`, `typedef float
    /// T;`), each with the alias of that name it hides, put back when the function is read.
    pub(super) local_aliases: Vec<(String, Option<crate::types::ValTy>)>,
    /// The same for aliases of the source's structs (`using R = rec;`).
    pub(super) local_struct_aliases: Vec<(String, Option<String>)>,
    pub(super) env: HashMap<String, HostVal>,
    /// Host array → (values, line of the fill).
    pub(super) fills: HashMap<String, (Vec<String>, u32)>,
    /// Device pointer → host array copied into it.
    pub(super) copies: HashMap<String, String>,
    /// Device pointer → the host array's values when the copy was made (the copy happens
    /// there: a later change of the host array is not on the device), `None` when unknown then.
    pub(super) copied: HashMap<String, Option<(Vec<String>, u32)>>,
    /// Host array → its declared length (`T name[N];` with N constant; R * C for `T
    /// name[R][C];`).
    pub(super) arrays: HashMap<String, i128>,
    /// A 2-D host array (`T name[R][C];`) → its row length C.
    pub(super) cols: HashMap<String, i128>,
    /// Device pointer → bytes allocated, the allocating call's name and its line.
    pub(super) mallocs: HashMap<String, (u64, String, u32)>,
    /// Device pointer → the number of its allocation, unique across host code
    /// ([`crate::ast::HostArg::alloc_id`]).
    pub(super) alloc_ids: HashMap<String, u32>,
    /// Host variable → why it has no value here (set by something not evaluated).
    pub(super) unknown: HashMap<String, String>,
    /// Host pointer declared from a fresh allocation (`float *h = (float *)malloc(n);`,
    /// `new float[n]`) whose size is not read → the reason [`Self::unknown`] holds for it: its
    /// memory holds no values yet ([dcl.init]/12; C17 7.22.3.4: malloc's space is
    /// indeterminate), so a fill loop may write its cells while that reason stands.
    pub(super) fresh_alloc: HashMap<String, String>,
    /// Lambdas whose bodies are being read, outermost first (`host_lambda`).
    pub(super) lambda_depth: u8,
    /// Statements not read (token ranges): the branch of an `if` whose constant condition
    /// does not take it.
    pub(super) skips: Vec<(usize, usize)>,
    /// `if` statements (their token ranges) whose condition had no constant value here, so
    /// that both branches were read: a loop's `break` inside one is not followed
    /// (`host_loop_exit`).
    pub(super) undecided_ifs: Vec<(usize, usize)>,
    /// Once the reading reaches the index: these variables become unknown, for this reason
    /// (set under an `if` whose condition is no constant).
    pub(super) taints: Vec<(usize, Vec<String>, String)>,
    /// Host statements evaluated so far (bounded by `host_eval::MAX_HOST_STEPS`).
    pub(super) steps: u64,
    /// Device pointer → the last write host code made into it (`host_mem`).
    pub(super) writes: HashMap<String, DevWrite>,
    /// Device pointer → the launches given it since host code last wrote it: each named
    /// (`` `k` launched at line 12 ``), with its [`HostLaunch::id`] and the argument index.
    pub(super) prior: HashMap<String, Vec<Prior>>,
    /// `void* args[] = {&a, &b};` or `void* args[2]; args[0] = &a;` → the token range of each
    /// element's variable, `None` for an element host code never sets (`host_launch_api`).
    pub(super) arg_arrays: HashMap<String, Vec<Option<(usize, usize)>>>,
    /// Managed memory (`cudaMallocManaged`) given to a launch → host code's own values of it
    /// as of that launch, and their line (`host_mem`): kept apart from `fills`, so that what
    /// host code writes after the launch is told from what the launch left.
    pub(super) managed_snap: HashMap<String, (Vec<String>, u32)>,
    /// Managed memory → the cells host code wrote one by one (`m[2] = 7;`) since the last
    /// launch given it, by index, and the line of the last such write (`host_mem`).
    pub(super) overlay: HashMap<String, (std::collections::BTreeMap<usize, String>, u32)>,
    /// Host array (`T h[N];` of an arithmetic `T`) → its bytes, for `sizeof(h)`.
    pub(super) array_bytes: HashMap<String, u64>,
    /// Host pointer place (`a2`, `v.data`, `buf[1]`) → the pointer value host code assigned
    /// it (`host_ptr`), `None` when it was assigned something not followed; a place not here
    /// that names an allocation points at its start.
    pub(super) ptrs: HashMap<String, Option<PtrVal>>,
    /// Host pointer → the host array and element host code set it to (`float *p = &h[2];`,
    /// `host_cells`): a store through it writes that array's cell.
    pub(super) host_array_ptrs: HashMap<String, (String, i128)>,
    /// Allocation → bytes of its element, from the `sizeof(T)` of its `cudaMalloc` size: a
    /// memset or copy through `d + N` starts N such elements in.
    pub(super) elem_bytes: HashMap<String, u64>,
    /// Allocation → the scalar type word of that `sizeof(T)` (`int`), for the cell values a
    /// memset's bytes give.
    pub(super) elem_word: HashMap<String, String>,
    /// Allocation → byte ranges (start, length) host code wrote after the launches given it
    /// ([`HostState::prior`]): those bytes hold host code's values, the rest what the
    /// launches left.
    pub(super) host_cells: HashMap<String, Vec<(u64, u64)>>,
    /// Allocation → the device-to-device copies into it of cells launches left in another
    /// allocation (`host_d2d`), since host code last wrote those cells: their `at` counts
    /// from the allocation's start.
    pub(super) dev_copies: HashMap<String, Vec<crate::ast::DevCopy>>,
    /// Function pointer variables holding a kernel (`auto kernel = &k<float, 4>;`, `void
    /// (*f)(float*, int) = k;`): the token index of the kernel's name (`host_kernel_ptr`).
    pub(super) kernel_vars: HashMap<String, usize>,
    /// Function pointer variables a called host function set to a kernel through a reference
    /// parameter (`pick(n, kernel)` of `bool pick(int n, fn_t& kernel) { … kernel = &k<T, 4>;
    /// … }`): the kernel's name and its template arguments, read while the callee's template
    /// arguments were bound (`host_kernel_ptr`).
    pub(super) kernel_insts: HashMap<String, KernelRef>,
}

impl HostState {
    /// Host struct (or array of structs) `h`'s member values as host code set them: each member
    /// path below `h` and its cells (one for a struct's `h.n`, the fill's for an array's).
    pub(super) fn struct_members(&self, h: &str) -> Vec<(String, Vec<String>)> {
        let prefix = format!("{h}.");
        let mut out: Vec<(String, Vec<String>)> = self
            .fills
            .iter()
            .filter_map(|(n, (v, _))| Some((n.strip_prefix(&prefix)?.to_string(), v.clone())))
            .collect();
        for (n, v) in &self.env {
            if let (Some(m), Some(t)) = (n.strip_prefix(&prefix), v.text()) {
                if !out.iter().any(|(o, _)| o == m) {
                    out.push((m.to_string(), vec![t]));
                }
            }
        }
        out.sort();
        out
    }
}

impl HostState {
    /// Removes from allocation `d`'s recorded copies of launches' cells ([`HostState::dev_copies`])
    /// the elements `start..start + len` a later write covers; `None` (a write whose range is not
    /// read) removes them all.
    pub(super) fn cut_dev_copies(&mut self, d: &str, range: Option<(u64, u64)>) {
        let Some((s, n)) = range else {
            self.dev_copies.remove(d);
            return;
        };
        let Some(list) = self.dev_copies.get_mut(d) else {
            return;
        };
        let end = s.saturating_add(n);
        let mut out = Vec::new();
        for r in list.drain(..) {
            let r_end = r.at.saturating_add(r.len);
            if r_end <= s || r.at >= end {
                out.push(r);
                continue;
            }
            if r.at < s {
                out.push(crate::ast::DevCopy {
                    len: s - r.at,
                    ..r.clone()
                });
            }
            if r_end > end {
                let skip = end - r.at;
                out.push(crate::ast::DevCopy {
                    at: end,
                    len: r_end - end,
                    src_at: r.src_at.saturating_add(skip),
                    ..r.clone()
                });
            }
        }
        *list = out;
    }
}

/// The note of a launch inside a host loop running `trips` times when known, read once because
/// the loop cannot be read iteration by iteration (`host_loop_launch` says when it can): the
/// loop's later launches, which would see the buffers the earlier ones left (a multi-pass
/// reduction launching the kernel again on its own output), are not read, so not run.
pub(super) fn loop_note(trips: Option<i128>) -> String {
    let times = match trips {
        Some(n) => format!("the loop runs {n} times; "),
        None => String::new(),
    };
    format!(
        "a launch inside a host loop is read once: {times}the loop cannot be read iteration by \
         iteration here (its condition or step has no constant value in host code, its body \
         holds `return`, `goto`, or a `break` or `continue` under a condition with no constant \
         value, or it runs more iterations than are read one by one), so the kernel runs one time, as the loop's first iteration launches it; later \
         iterations' launches are not run, so a buffer the kernel both reads and writes (a \
         multi-pass reduction launched again on its own output) holds the first launch's \
         values, and a launch whose arguments the loop changes is read with their values before \
         the loop"
    )
}

/// What a statement call of an overloaded host function template reads as
/// (`host_tmpl_call.rs` chooses it; host reading acts on it).
pub(super) enum HostChoice {
    /// The template kept under this key (`f#2`), read at the call with its parameters bound.
    Key(String),
    /// A template whose body only discards its parameters: nothing to read; the next
    /// statement starts at this token.
    NoOp(usize),
}
