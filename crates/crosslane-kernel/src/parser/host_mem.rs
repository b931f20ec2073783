//! What a device buffer holds when host code launches a kernel on it: the host reading
//! ([`super::host`]) follows each device pointer from its allocation to the launch and says
//! which write came last, so that the run's buffer holds what the device's would, or says what
//! it could not read. Never silently the index fill.
//!
//! - `cudaMalloc` / `hipMalloc` and nothing written after it: the memory is not cleared (CUDA
//!   Runtime API, cudaMalloc: "The memory is not cleared"; the HIP Runtime API's hipMalloc
//!   promises no contents either), so every cell is undefined.
//! - `cudaMemset(d, v, n)` / `hipMemset` (also `…Async`): the first `n` bytes each hold the low
//!   byte of `v` (CUDA Runtime API, cudaMemset: "Fills the first count bytes of the memory area
//!   pointed to by devPtr with the constant byte value value"); a memset of 1 over `int` cells
//!   gives 0x01010101.
//! - memory from `cudaMallocManaged` / `hipMallocManaged` that host code writes element by
//!   element (`x[i] = …` in a loop): the host's writes are the device's values (CUDA C++
//!   Programming Guide, "Unified Memory Programming": one pointer valid on host and device).
//! - an earlier launch given the buffer: recorded with the launch (`HostArg::prior_ids`), which
//!   runs first (`crate::sequence`), so the buffer holds what it left, as on the device.
//! - anything else that may write it (a call the reading does not know given the pointer, a
//!   device-to-device copy): said, naming the statement. A call whose parameter there is a
//!   pointer or reference to const (`bool is_aligned(const void* p)`) only reads it (C++17
//!   [dcl.type.cv]/4), so the buffer keeps its cells.

use super::host::{source_text, DevWrite, HostState, READ_CALLS};
use super::Parser;
use crate::ast::HostArg;
use crate::lexer::{Tok, Token};

/// Most bytes a partial memset is spelled out for as a byte list (a memset of the whole
/// buffer is one value however large).
const MAX_MEMSET_LIST: u64 = 1 << 20;

/// Statements that name a device pointer or host array without writing it.
const NO_WRITE: &[&str] = &[
    "cudaFree",
    "hipFree",
    "mcFree",
    "mcFreeHost",
    "free",
    "cudaFreeHost",
    "hipHostFree",
    "printf",
    "fprintf",
    "delete",
    "return",
];

impl Parser<'_> {
    /// `cudaMemset(d, v, bytes)` / `hipMemset` / their `Async` forms at `k`: records the
    /// fill the bytes give (see the module doc). CANN AscendCL's `aclrtMemset(d, maxCount, v,
    /// bytes)` (also `aclrtMemsetAsync(…, stream)`) sets the same bytes: its value and count are
    /// the third and fourth arguments (AscendCL API reference, aclrtMemset).
    pub(super) fn host_memset(&mut self, st: &mut HostState, k: usize) {
        let toks = self.toks;
        let Some(c) = self.closing(k + 1) else { return };
        let mut parts = super::host::split_commas(toks, k + 2, c);
        if matches!(&toks[k].tok, Tok::Ident(n) if n.starts_with("aclrtMemset")) {
            if parts.len() < 4 {
                return;
            }
            parts = vec![parts[0], parts[2], parts[3]];
        }
        let (Some(&(a, b)), Some(&(va, vb)), Some(&(na, nb))) =
            (parts.first(), parts.get(1), parts.get(2))
        else {
            return;
        };
        // `d`, `d + 2`, `&d[2]`, an alias of `d` (`host_ptr`).
        let ptr = self.ptr_value(st, a, b);
        let Some(d) = ptr.as_ref().map(|p| p.alloc.clone()).or_else(|| {
            toks[a..b].iter().rev().find_map(|t| match &t.tok {
                Tok::Ident(n) => Some(n.clone()),
                _ => None,
            })
        }) else {
            return;
        };
        let line = toks[k].line;
        let what = format!("`{}` at line {line}", source_text(&toks[k..=c]));
        let value = self
            .host_value(st, va, vb)
            .and_then(super::const_eval::HostVal::int);
        let bytes = self
            .host_value(st, na, nb)
            .and_then(super::const_eval::HostVal::int)
            .and_then(|n| u64::try_from(n).ok());
        let whole = st.mallocs.get(&d).map(|m| m.0);
        // The first byte set: the pointer's element offset times its element's bytes.
        let start = match ptr.as_ref().map(|p| p.offset) {
            None | Some(Some(0)) => Some(0),
            Some(Some(n)) => st.elem_bytes.get(&d).map(|e| n.saturating_mul(*e)),
            Some(None) => None,
        };
        // Copies of launches' cells into the cells it sets give way to it (`host_d2d`).
        let e = st.elem_bytes.get(&d).copied().unwrap_or(1).max(1);
        let range = start
            .zip(bytes)
            .map(|(s, n)| (s / e, (s % e + n).div_ceil(e)));
        st.cut_dev_copies(&d, range);
        // Launches given `d` before: a memset of part of it keeps what they wrote elsewhere.
        let after_launch = st.prior.get(&d).is_some_and(|p| !p.is_empty());
        // A memset of whole cells over a host copy whose values are known: the copy's
        // values with those cells each the byte repeated (`host_copy::memset_cell`).
        if let (Some(v), Some(n), Some(start), Some(DevWrite::Copy)) =
            (value, bytes, start, st.writes.get(&d))
        {
            let word = st.elem_word.get(&d).cloned();
            let e = st.elem_bytes.get(&d).copied().unwrap_or(0);
            let cell = word
                .as_deref()
                .and_then(|w| super::host_copy::memset_cell(w, (v & 0xff) as u8));
            let old = st.copied.get(&d).cloned().flatten();
            if let (Some(cell), Some((mut values, _)), true) =
                (cell, old, e > 0 && start % e == 0 && n % e == 0)
            {
                let total = whole.map_or(values.len() as u64, |w| w / e);
                values.resize(usize::try_from(total).unwrap_or(0), "undef".to_string());
                let (s0, s1) = ((start / e) as usize, ((start + n) / e) as usize);
                for c in values.iter_mut().take(s1).skip(s0) {
                    c.clone_from(&cell);
                }
                if after_launch {
                    st.host_cells.entry(d.clone()).or_default().push((start, n));
                } else {
                    st.prior.remove(&d);
                }
                st.copied.insert(d.clone(), Some((values, line)));
                return;
            }
        }
        let fill = match (value, bytes, start) {
            (Some(v), Some(n), Some(start)) => {
                // The value converted to unsigned char (CUDA Runtime API, cudaMemset).
                let byte = (v & 0xff) as u8;
                let n = whole.map_or(n, |w| n.min(w.saturating_sub(start)));
                if start == 0 && whole.is_some_and(|w| n >= w) {
                    st.prior.remove(&d);
                    st.host_cells.remove(&d);
                    Ok((format!("u8:{byte}"), what))
                } else if let Some(w) = whole.filter(|&w| w <= MAX_MEMSET_LIST) {
                    // The bytes the buffer held, this memset's laid over them. After
                    // launches these are what lies under them: a cell no launch reaches
                    // keeps the earlier memset's bytes (`sequence.rs` puts the launches'
                    // cells over them, but for this memset's, `host_cells`).
                    let mut list = match st.writes.get(&d) {
                        Some(DevWrite::Memset(Ok((old, _)))) => {
                            super::host_d2d::memset_bytes(old, w)
                        }
                        _ => None,
                    }
                    .unwrap_or_else(|| vec!["undef".to_string(); w as usize]);
                    let (s, e) = (start as usize, (start + n) as usize);
                    for cell in list.iter_mut().take(e).skip(s) {
                        *cell = byte.to_string();
                    }
                    if after_launch {
                        st.host_cells.entry(d.clone()).or_default().push((start, n));
                    }
                    let what = match st.writes.get(&d) {
                        Some(DevWrite::Memset(Ok((_, old)))) => {
                            format!("{old} then {what}")
                        }
                        _ => what,
                    };
                    Ok((format!("u8:{}", list.join(",")), what))
                } else {
                    Err(format!(
                        "{what} sets {n} bytes of `{d}`, whose size is not read here"
                    ))
                }
            }
            (_, _, None) => Err(format!(
                "{what} sets `{d}` from an element whose byte offset is not read here"
            )),
            _ => Err(format!(
                "{what} sets `{d}` with a value or size that has no constant value in host code"
            )),
        };
        if fill.is_err() {
            st.prior.remove(&d);
            st.host_cells.remove(&d);
        }
        st.writes.insert(d.clone(), DevWrite::Memset(fill));
    }

    /// A statement `k..end` the host reading does not otherwise follow: each device pointer or
    /// filled host array it passes to a call (`init(h.data(), n)`, `curandGenerate(g, d, n)`,
    /// `fread(h, …)`), or a host array it changes by a member call (`h.push_back(v)`), may be
    /// written there: a device pointer's last write becomes that statement, a host array's fill
    /// is no longer known (each said at the launch that reads it). `except`: device pointers
    /// whose contents a host call read here already gave back (`host_calls::read_call`).
    pub(super) fn note_escapes(
        &mut self,
        st: &mut HostState,
        k: usize,
        end: usize,
        except: &[String],
    ) {
        let toks = self.toks;
        let Some(Tok::Ident(first)) = toks.get(k).map(|t| &t.tok) else {
            return;
        };
        // hip-tests' `HipTest::launchKernel(k, …, args…)` is a launch.
        if NO_WRITE.contains(&first.as_str())
            || first == "HipTest"
            || first == "launchKernel"
            || matches!(
                first.as_str(),
                "if" | "for" | "while" | "do" | "switch" | "else"
            )
            || super::host::launches_in(&toks[k..end])
            || toks[k..end]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(n) if READ_CALLS.contains(&n.as_str())))
        {
            return;
        }
        // `args[1] = (void*)&d;` of an argument array (`host_launch_api`): an address kept,
        // passed to no call.
        if let Tok::Ident(a) = &toks[k].tok {
            let cell = st.arg_arrays.contains_key(a)
                && matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("[")));
            if let Some(c) = self.closing(k + 1).filter(|&c| cell && c + 2 <= end) {
                if matches!(toks[c + 1].tok, Tok::Punct("="))
                    && super::host_launch_api::arg_address(toks, c + 2, end).is_some()
                {
                    return;
                }
            }
        }
        // `void* args[] = {&d, &n};`: an initializer list passes nothing to a call.
        let end = (k + 1..end)
            .find(|&i| {
                matches!(toks[i].tok, Tok::Punct("{")) && matches!(toks[i - 1].tok, Tok::Punct("="))
            })
            .unwrap_or(end);
        let line = toks[k].line;
        let what = || format!("`{}` at line {line}", source_text(&toks[k..end]));
        for j in k..end {
            let Tok::Ident(n) = &toks[j].tok else {
                continue;
            };
            let prev = j.checked_sub(1).map(|p| &toks[p].tok);
            let prev2 = j.checked_sub(2).map(|p| &toks[p].tok);
            let next = toks.get(j + 1).map(|t| &t.tok);
            let next2 = toks.get(j + 2).map(|t| &t.tok);
            // An argument: `(n`, `, n`, `(&n`, `, &n`, each also `n.data()`.
            let arg = j > k
                && (matches!(prev, Some(Tok::Punct("(" | ",")))
                    || (matches!(prev, Some(Tok::Punct("&")))
                        && matches!(prev2, Some(Tok::Punct("(" | ",")))));
            let member = j == k
                && matches!(next, Some(Tok::Punct(".")))
                && !matches!(next2, Some(Tok::Ident(m)) if matches!(m.as_str(), "size" | "data" | "begin" | "end"));
            // `reinterpret_cast<uint8_t*>(h.data())` (also `static_cast`, `const_cast`): a cast,
            // no call — the pointer keeps `h`'s address ([expr.reinterpret.cast]/7) and the
            // declaration it initializes is read as a view of `h` (`host_view::vector_view`).
            // Only where the view is then read alone as a copy's source: a write through it
            // would change `h` unseen.
            let cast = matches!(prev, Some(Tok::Punct("(")))
                && matches!(prev2, Some(Tok::Punct(">")))
                && (k..j.saturating_sub(2)).rev().take(8).any(|i| {
                    matches!(&toks[i].tok, Tok::Ident(c)
                        if matches!(c.as_str(), "reinterpret_cast" | "static_cast" | "const_cast"))
                })
                && copy_source_only(toks, k, end);
            // `reinterpret_cast<uintptr_t>(d) % 16`: the pointer converted to an integer, its
            // address read and nothing through it ([expr.reinterpret.cast]/4), mistral.rs's
            // alignment checks before a launch.
            let int_cast = matches!(prev, Some(Tok::Punct("(")))
                && matches!(prev2, Some(Tok::Punct(">")))
                && int_cast_before(toks, j - 2);
            // `std::vector<T> expected(output.size())`, `f(v.size())`: `size()` reads the
            // length only ([container.requirements.general], a const member), so `v` is not
            // passed on.
            let size_only = matches!(next, Some(Tok::Punct(".")))
                && matches!(next2, Some(Tok::Ident(m)) if m == "size")
                && matches!(toks.get(j + 3).map(|t| &t.tok), Some(Tok::Punct("(")));
            if !(arg || member) || cast || int_cast || size_only || except.contains(n) {
                continue;
            }
            // `is_aligned(d)` with `bool is_aligned(const void* p)`: a read (`const_param_arg`).
            if arg && !matches!(prev, Some(Tok::Punct("&"))) && self.const_param_arg(k, j) {
                continue;
            }
            // `run(sizes[i])` with `void run(int bs)`: a copy of one element, a read.
            if arg && !matches!(prev, Some(Tok::Punct("&"))) && self.by_value_element_arg(k, j) {
                continue;
            }
            // An alias of a device pointer (`host_ptr`): the allocation it points into.
            let alias = Self::place_value(st, n).map(|v| v.alloc);
            let n = alias.as_ref().unwrap_or(n);
            if st.fills.contains_key(n) && !st.mallocs.contains_key(n) {
                let why = format!(
                    "{} passes it to code the host reading does not follow",
                    what()
                );
                Self::mark_unknown(st, std::slice::from_ref(n), &why);
            } else if st.writes.contains_key(n) {
                let why = format!("{} may write it (not read here)", what());
                st.writes.insert(n.clone(), DevWrite::Other(why));
            }
        }
    }

    /// What device pointer `d` (a launch argument) holds at this launch, into `arg`: a managed
    /// buffer's host-written values, a memset's bytes, undefined cells for memory nothing wrote,
    /// or the statement that wrote it in a way not read; and the earlier launches given it.
    /// A host-to-device copy is read by the launch itself (`HostState::copies`).
    pub(super) fn device_contents(st: &HostState, d: &str, arg: &mut HostArg) {
        if let Some(call) = managed_call(st, d) {
            if let Some(why) = st.unknown.get(d) {
                arg.write_unread = Some(format!(
                    "`{d}` is managed memory ({call}) that host code writes, but not in a way \
                     read here ({why})"
                ));
                return;
            }
            let view = managed_view(st, d);
            let prior = st.prior.get(d).filter(|p| !p.is_empty() && !view.whole);
            let Some(prior) = prior else {
                // No launch given it since host code last wrote all of it: host code's
                // values are the device's.
                if let Some((values, line)) = view.values {
                    arg.fill = Some(values);
                    arg.fill_line = line;
                    arg.fill_from = d.to_string();
                    arg.managed = true;
                    return;
                }
                return Self::written_contents(st, d, arg);
            };
            // The earlier launches run first (`crate::sequence`) and the cells host code
            // wrote after them lie over what they left. Host code's own values stand in for
            // a run where they do not run (`--single-launch`), said there.
            arg.prior_launches = prior.iter().map(|p| p.0.clone()).collect();
            arg.prior_ids = prior.iter().map(|p| (p.1, p.2)).collect();
            arg.overlay = view
                .written
                .iter()
                .filter_map(|(&i, v)| {
                    Some((u64::try_from(i).ok()?.checked_sub(arg.offset)?, v.clone()))
                })
                .collect();
            arg.overlay_line = view.line;
            if let Some((values, line)) = view.values {
                arg.fill = Some(values);
                arg.fill_line = line;
                arg.fill_from = d.to_string();
                arg.managed = true;
                return;
            }
        }
        Self::written_contents(st, d, arg);
    }

    /// The rest of [`Self::device_contents`]: the earlier launches given `d`, and the last
    /// write host code made into it through the runtime (allocation, memset, a call not read).
    fn written_contents(st: &HostState, d: &str, arg: &mut HostArg) {
        if let Some(prior) = st.prior.get(d) {
            arg.prior_launches = prior.iter().map(|p| p.0.clone()).collect();
            arg.prior_ids = prior.iter().map(|p| (p.1, p.2)).collect();
        }
        match st.writes.get(d) {
            Some(DevWrite::Fresh(call, line)) => {
                arg.uninit = Some(format!(
                    "`{call}` at line {line} does not clear memory and host code writes \
                     nothing into `{d}` before the launch"
                ));
            }
            Some(DevWrite::Memset(Ok((fill, what)))) => {
                arg.memset = Some((fill.clone(), what.clone()));
            }
            Some(DevWrite::Memset(Err(why)) | DevWrite::Other(why)) => {
                arg.write_unread = Some(why.clone());
            }
            Some(DevWrite::Copy) | None => {}
        }
    }

    /// `P p; p.dims[0] = 2; …` passed by value (`prefix` is `p.`): each array member's cells
    /// as host code filled them, for the kernel's `p.dims@in` (`structs/by_value.rs`); the
    /// copy is made at the call ([expr.call]/7), so they are the host's values there.
    pub(super) fn struct_array_args(st: &HostState, prefix: &str, arg: &mut HostArg) {
        let mut filled: Vec<&String> = st
            .fills
            .keys()
            .filter(|n| n.starts_with(prefix) && st.arrays.contains_key(*n))
            .collect();
        filled.sort();
        for leaf in filled {
            let (values, line) = &st.fills[leaf];
            let m = HostArg {
                text: leaf.clone(),
                fill: Some(values.clone()),
                fill_from: leaf.clone(),
                fill_line: *line,
                ..HostArg::default()
            };
            let path = super::structs::by_value::copy_param_name(&leaf[prefix.len()..]);
            arg.member_args.push((path, m));
        }
    }

    /// What launch argument `arg` finds at allocation (or host place) `d` from element `offset`
    /// on: its length, the host copy, memset or launches that wrote it last (`host_mem`).
    pub(super) fn alloc_arg(st: &HostState, d: &str, offset: u64, arg: &mut HostArg) {
        let d = d.to_string();
        arg.offset = offset;
        if st.writes.contains_key(&d) || st.mallocs.contains_key(&d) {
            arg.device.clone_from(&d);
            arg.alloc_id = st.alloc_ids.get(&d).copied();
        }
        let d = &d;
        {
            if let Some((n, call, line)) = st.mallocs.get(d) {
                arg.malloc_bytes = Some(*n);
                arg.malloc_from = format!("{call} at line {line}");
            }
            // The last write into `d` was a host-to-device copy (or is not known).
            let copied_last = matches!(st.writes.get(d), None | Some(DevWrite::Copy));
            if let Some(h) = st.copies.get(d).filter(|_| copied_last) {
                let at_copy = match st.copied.get(d) {
                    Some(snapshot) => snapshot.as_ref(),
                    None => st.fills.get(h),
                };
                if let Some((values, line)) = at_copy {
                    arg.fill = Some(values.clone());
                    arg.fill_line = *line;
                    arg.fill_from.clone_from(h);
                } else {
                    arg.fill_unread = Some(h.clone());
                }
            }
            // `h[i].x = …` of a host array of structs copied into `d`: per member.
            let (members, line) = Self::copied_members(st, d);
            if let (false, true, Some(h)) = (members.is_empty(), copied_last, st.copies.get(d)) {
                (arg.fill_unread, arg.fill_line, arg.members) = (None, line, members);
                arg.fill_from.clone_from(h);
            }
            Self::device_contents(st, d, arg);
            Self::view_of_alloc(st, d, offset, arg);
            if copied_last {
                arg.dev_copies = super::host_d2d::view_copies(st, d, offset);
            }
            if let Some(fill) = arg.fill.as_mut() {
                fill.drain(
                    ..usize::try_from(offset)
                        .unwrap_or(usize::MAX)
                        .min(fill.len()),
                );
            }
        }
    }

    /// The parts of `arg` (a launch's view of allocation `d` from element `offset` on) that
    /// host code states per byte of the allocation: a memset's byte list from the view's first
    /// byte, and the host-written cells after earlier launches as the view's elements.
    pub(super) fn view_of_alloc(st: &HostState, d: &str, offset: u64, arg: &mut HostArg) {
        let elem = st.elem_bytes.get(d).copied().unwrap_or(1).max(1);
        let skip = offset.saturating_mul(elem);
        if let Some((fill, _)) = arg.memset.as_mut().filter(|_| skip > 0) {
            if let Some(list) = fill.strip_prefix("u8:").filter(|l| l.contains(',')) {
                let rest: Vec<&str> = list
                    .split(',')
                    .skip(usize::try_from(skip).unwrap_or(usize::MAX))
                    .collect();
                *fill = format!("u8:{}", rest.join(","));
            }
        }
        if let Some(ranges) = st.host_cells.get(d) {
            arg.host_cells = ranges
                .iter()
                .filter_map(|&(s, n)| {
                    let first = s / elem;
                    let last = s.saturating_add(n).div_ceil(elem);
                    let first = first.max(offset) - offset;
                    let last = last.checked_sub(offset)?;
                    (last > first).then_some((first, last - first))
                })
                .collect();
        }
    }

    /// After a launch (its [`crate::ast::HostLaunch::id`] `id`) at `line` of `kernel` with
    /// `args` (their texts): each device pointer passed is one this launch may write, which a
    /// later launch given it finds (`crate::sequence` runs the launch first).
    pub(super) fn record_launch_writes(
        st: &mut HostState,
        kernel: &str,
        line: u32,
        id: u32,
        args: &[HostArg],
    ) {
        for (j, a) in args.iter().enumerate() {
            // A struct's pointer members: each member's allocation.
            for (_, m) in &a.member_args {
                if m.device.is_empty() {
                    continue;
                }
                st.host_cells.remove(&m.device);
                st.dev_copies.remove(&m.device);
                st.prior.entry(m.device.clone()).or_default().push((
                    format!("`{kernel}` launched at line {line}"),
                    id,
                    j,
                ));
            }
            // The allocation the argument points into (`d`, `d + 4`, an alias of `d`).
            let name = if a.device.is_empty() {
                a.text.trim()
            } else {
                a.device.as_str()
            };
            if st.writes.contains_key(name) || st.mallocs.contains_key(name) {
                if managed_call(st, name).is_some() {
                    // What host code wrote so far is what this launch found; what it writes
                    // from here on lies over what the launch leaves.
                    let view = managed_view(st, name);
                    st.fills.remove(name);
                    st.overlay.remove(name);
                    st.unknown.remove(name);
                    match view.values {
                        Some(v) => st.managed_snap.insert(name.to_string(), v),
                        None => st.managed_snap.remove(name),
                    };
                }
                // What host code wrote after the earlier launches is in this one's buffer now.
                st.host_cells.remove(name);
                st.dev_copies.remove(name);
                st.prior.entry(name.to_string()).or_default().push((
                    format!("`{kernel}` launched at line {line}"),
                    id,
                    j,
                ));
            }
        }
    }

    /// `m[i] = v;` at tokens `k..end` (`i` and `v` over `i..c` and `c + 2..end`) of managed
    /// memory `m` given to a launch since host code last filled it: the cell lies over what
    /// that launch leaves (see [`HostState::overlay`]). False when `m` is no such memory (the
    /// statement is then read as a host array's cell).
    pub(super) fn managed_cell(
        &mut self,
        st: &mut HostState,
        name: &str,
        k: usize,
        (i, c, end): (usize, usize, usize),
    ) -> bool {
        let toks = self.toks;
        let given = st.prior.get(name).is_some_and(|p| !p.is_empty());
        if managed_call(st, name).is_none() || !given || st.fills.contains_key(name) {
            return false;
        }
        let plain = matches!(toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("=")));
        let index = self
            .host_value(st, i + 1, c)
            .and_then(super::const_eval::HostVal::int)
            .and_then(|x| usize::try_from(x).ok())
            .filter(|&x| x < super::host::MAX_FILL as usize);
        let value = if plain {
            self.host_value(st, c + 2, end)
                .and_then(super::const_eval::HostVal::text)
        } else {
            None
        };
        let line = toks[k].line;
        match (index, value) {
            (Some(x), Some(v)) => {
                let cells = st.overlay.entry(name.to_string()).or_default();
                cells.0.insert(x, v);
                cells.1 = line;
            }
            _ => {
                // `m[i] += 1` reads what the kernel left, which host code does not know here.
                let why = format!(
                    "`{}` at line {line} changes a cell of `{name}` in a way not read",
                    source_text(&toks[k..end])
                );
                Self::mark_unknown(st, &[name.to_string()], &why);
            }
        }
        true
    }
}

impl Parser<'_> {
    /// `m[i] = v;` (or `*m = v;`, cell 0) of managed memory `m` that no launch was given yet and
    /// no fill wrote: the allocation's cells become a fill of cells nothing wrote (undefined,
    /// C++17 [dcl.init]/12) with this one set, so the next launch reads it (the CG sample's
    /// `*dot_result = 0.0;`, a training exercise's `*sum = 0;`). False (nothing recorded) for
    /// any other memory, a cell count or index not known, or a value with no constant value.
    pub(super) fn managed_first_cell(
        &mut self,
        st: &mut HostState,
        name: &str,
        index: Option<usize>,
        value: Option<String>,
    ) -> bool {
        if managed_call(st, name).is_none()
            || st.prior.get(name).is_some_and(|p| !p.is_empty())
            || st.fills.contains_key(name)
            || st.unknown.contains_key(name)
        {
            return false;
        }
        let Some(&(bytes, _, _)) = st.mallocs.get(name) else {
            return false;
        };
        let Some(&elem) = st.elem_bytes.get(name).filter(|&&e| e > 0) else {
            return false;
        };
        let cells = bytes / elem;
        let (Some(x), Some(v)) = (index, value) else {
            return false;
        };
        if cells == 0 || cells > super::host::MAX_FILL as u64 || x as u64 >= cells {
            return false;
        }
        let Ok(n) = usize::try_from(cells) else {
            return false;
        };
        let mut values = vec!["undef".to_string(); n];
        values[x] = v;
        let line = self.toks.get(self.pos).map_or(0, |t| t.line);
        st.fills.insert(name.to_string(), (values, line));
        true
    }

    /// Whether the copy `cudaMemcpy(d, s, bytes, kind)` (its comma-separated parts) is a
    /// device-to-device copy of all of `d` from a device pointer `s` host code follows: the
    /// kind is `cudaMemcpyDeviceToDevice` / `hipMemcpyDeviceToDevice`, and `bytes` is `d`'s
    /// allocation and no more than `s`'s (a part of `d` left as it was is not read here).
    pub(super) fn device_to_device(&mut self, st: &HostState, parts: &[(usize, usize)]) -> bool {
        let toks = self.toks;
        let (Some(&(da, db)), Some(&(sa, sb)), Some(&(na, nb)), Some(&(ka, kb))) =
            (parts.first(), parts.get(1), parts.get(2), parts.get(3))
        else {
            return false;
        };
        let kind = toks[ka..kb]
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(n) if n.ends_with("DeviceToDevice")));
        let name = |a: usize, b: usize| match &toks[a..b] {
            [t] => match &t.tok {
                Tok::Ident(n) => Some(n.clone()),
                _ => None,
            },
            _ => None,
        };
        let (Some(d), Some(s)) = (name(da, db), name(sa, sb)) else {
            return false;
        };
        let bytes = self
            .host_value(st, na, nb)
            .and_then(super::const_eval::HostVal::int)
            .and_then(|n| u64::try_from(n).ok());
        let (Some(n), Some(dm), Some(sm)) = (bytes, st.mallocs.get(&d), st.mallocs.get(&s)) else {
            return false;
        };
        kind && st.writes.contains_key(&s) && n == dm.0 && n <= sm.0
    }

    /// After a device-to-device copy of all of `d` from `s`: `d` holds what `s` holds — the
    /// same host copy, memset or fresh (undefined) memory, and the same earlier launches, whose
    /// result for `s` is then `d`'s (CUDA Runtime API, cudaMemcpy: `cudaMemcpyDeviceToDevice`
    /// copies the bytes within device memory).
    pub(super) fn copy_device(st: &mut HostState, d: &str, s: &str) {
        let write = st.writes.get(s).cloned();
        if let Some(w) = write {
            st.writes.insert(d.to_string(), w);
        }
        match st.prior.get(s).cloned() {
            Some(p) => st.prior.insert(d.to_string(), p),
            None => st.prior.remove(d),
        };
        match st.copies.get(s).cloned() {
            Some(h) => st.copies.insert(d.to_string(), h),
            None => st.copies.remove(d),
        };
        match st.copied.get(s).cloned() {
            Some(c) => st.copied.insert(d.to_string(), c),
            None => st.copied.remove(d),
        };
        // What host code wrote after those launches, and the copies of other launches'
        // cells into `s`, are `d`'s now too (same offsets: all of `d` from `s`'s start).
        match st.host_cells.get(s).cloned() {
            Some(c) => st.host_cells.insert(d.to_string(), c),
            None => st.host_cells.remove(d),
        };
        match st.dev_copies.get(s).cloned() {
            Some(c) => st.dev_copies.insert(d.to_string(), c),
            None => st.dev_copies.remove(d),
        };
    }
}

/// The allocating call of `d` (`` `cudaMallocManaged` at line 5 ``) when it is managed memory.
fn managed_call(st: &HostState, d: &str) -> Option<String> {
    st.mallocs
        .get(d)
        .filter(|m| super::host_text::host_visible(&m.1))
        .map(|m| format!("`{}` at line {}", m.1, m.2))
}

/// What host code has written into managed memory `d` (see [`managed_view`]).
struct ManagedView {
    /// Host code's own values of every cell it knows (its values at the last launch given `d`,
    /// with what it wrote since over them), and the line of the newest write.
    values: Option<(Vec<String>, u32)>,
    /// The cells written since the last launch given `d`, by index.
    written: std::collections::BTreeMap<usize, String>,
    /// The line of the newest of `written`.
    line: u32,
    /// Whether host code wrote, since that launch, as many cells as it knew before it (a
    /// loop over the whole array again): nothing the launch left remains.
    whole: bool,
}

/// Managed memory `d` as host code wrote it: a fill since the last launch given it (`fills`)
/// lies over single cells written since (`overlay`; a cell written after a fill changes the
/// fill itself), which lie over host code's values at that launch (`managed_snap`).
fn managed_view(st: &HostState, d: &str) -> ManagedView {
    let mut written = std::collections::BTreeMap::new();
    let mut line = 0;
    if let Some((cells, at)) = st.overlay.get(d) {
        written.clone_from(cells);
        line = *at;
    }
    let fill = st.fills.get(d);
    if let Some((values, at)) = fill {
        for (i, v) in values.iter().enumerate() {
            written.insert(i, v.clone());
        }
        line = line.max(*at);
    }
    let snap = st.managed_snap.get(d);
    let whole = match (fill, snap) {
        (Some(f), Some(s)) => f.0.len() >= s.0.len(),
        _ => false,
    };
    let values = match snap {
        Some((values, at)) => {
            let mut v = values.clone();
            for (&i, x) in &written {
                if let Some(c) = v.get_mut(i) {
                    c.clone_from(x);
                }
            }
            Some((v, if written.is_empty() { *at } else { line }))
        }
        None => fill.cloned(),
    };
    ManagedView {
        values,
        written,
        line,
        whole,
    }
}

/// Calls that copy from a host source: their second argument is read, never written.
const COPY_CALLS: &[&str] = &[
    "cudaMemcpy",
    "hipMemcpy",
    "mcMemcpy",
    "aclrtMemcpy",
    "cudaMemcpyAsync",
    "hipMemcpyAsync",
    "mcMemcpyAsync",
];

/// Most tokens after a declaration searched for its pointer's uses ([`copy_source_only`]).
const VIEW_USES: usize = 4096;

/// Whether the statement `toks[k..end]` declares a pointer `T* p = …;` whose every later use
/// (within [`VIEW_USES`] tokens) is an argument of a copy call ([`COPY_CALLS`]) whose
/// destination is not `p` (the copy reads `p`'s cells, never writes them): a view read only as
/// a copy's source.
fn copy_source_only(toks: &[crate::lexer::Token], k: usize, end: usize) -> bool {
    let Some(eq) = (k..end).find(|&i| matches!(toks[i].tok, Tok::Punct("="))) else {
        return false;
    };
    let Some(Tok::Ident(p)) = eq.checked_sub(1).map(|i| &toks[i].tok) else {
        return false;
    };
    if !matches!(
        eq.checked_sub(2).map(|i| &toks[i].tok),
        Some(Tok::Punct("*"))
    ) {
        return false;
    }
    let last = (end + VIEW_USES).min(toks.len());
    (end..last)
        .filter(|&i| matches!(&toks[i].tok, Tok::Ident(n) if n == p))
        .all(|i| copy_source_use(toks, i))
}

/// Whether the name at `i` is a copy call's source: `COPY(dst, …, p, …)`, a `,` before `p`,
/// the call's name ([`COPY_CALLS`]) opening the statement, and `p` not its first argument.
fn copy_source_use(toks: &[crate::lexer::Token], i: usize) -> bool {
    let start = (i.saturating_sub(32)..i)
        .rev()
        .find(|&q| matches!(toks[q].tok, Tok::Punct(";" | "{" | "}")))
        .map_or(i.saturating_sub(32), |q| q + 1);
    i > 0
        && matches!(toks[i - 1].tok, Tok::Punct(","))
        && matches!(&toks[start].tok, Tok::Ident(c) if COPY_CALLS.contains(&c.as_str()))
}

/// Whether a host function's body `toks[open..close]` uses its pointer parameter `p` only as
/// a copy call's source (`cudaMemcpy(d, p, bytes, cudaMemcpyHostToDevice)`), or not at all:
/// the call leaves the caller's array as it was, whether or not the parameter is declared
/// `const` (HeCBench's `jaccard_weight(…, int* csr_ptr, …)` called twice on one array).
pub(super) fn copy_source_param(
    toks: &[crate::lexer::Token],
    open: usize,
    close: usize,
    p: &str,
) -> bool {
    (open..close.min(toks.len()))
        .filter(|&i| matches!(&toks[i].tok, Tok::Ident(n) if n == p))
        .all(|i| copy_source_use(toks, i))
}

/// Most declarations of one callee [`Parser::const_param_arg`] reads.
const MAX_DECLS: usize = 16;

/// Most tokens walked back from an argument to the `(` of its call.
const MAX_ARG_BACK: usize = 256;

impl Parser<'_> {
    /// Whether the argument whose first token is `j` (in the statement starting at `k`) is given
    /// to a function of the source that every one of its declarations takes there as a pointer
    /// or reference to const (`bool is_aligned(const void* p)`, `T const* x`, `const S& s`):
    /// the call cannot write the cells through it (C++17 [dcl.type.cv]/4; for the host reading a
    /// pointer-to-const parameter is a read), so the buffer keeps what it held. `false` where no
    /// declaration is found, one takes it otherwise (`T*`, `T* const`, `const T**`), or a body
    /// casts a pointer's const away (`const_cast`, a C-style `(T*)` cast).
    pub(super) fn const_param_arg(&self, k: usize, j: usize) -> bool {
        self.every_param_decl(k, j, |seg, body| {
            const_pointee(seg) && !body.is_some_and(casts_const_away)
        })
    }

    /// Whether the argument whose first token is `j` (in the statement starting at `k`) is a
    /// subscript `n[…]` standing alone (`run(sizes[i])`) given to a function of the source that
    /// every one of its declarations takes there by value (`void run(int bs)`: no `*`, `&` or
    /// `&&` in the parameter's declaration): the parameter is a copy of the element (C++17
    /// [expr.call]/4, [dcl.init]/17), so the call cannot write `n`'s cells and `n` keeps
    /// what it held.
    pub(super) fn by_value_element_arg(&self, k: usize, j: usize) -> bool {
        let toks = self.toks;
        let whole = matches!(toks.get(j + 1).map(|t| &t.tok), Some(Tok::Punct("[")))
            && self
                .closing(j + 1)
                .and_then(|c| toks.get(c + 1))
                .is_some_and(|t| matches!(t.tok, Tok::Punct(")" | ",")));
        whole
            && self.every_param_decl(k, j, |seg, _| {
                !seg.is_empty()
                    && !seg
                        .iter()
                        .any(|t| matches!(t.tok, Tok::Punct("*" | "&" | "&&" | "[")))
            })
    }

    /// Whether every declaration the source gives the callee of the argument whose first token
    /// is `j` (in the statement starting at `k`) satisfies `ok` at that argument's parameter
    /// (its declaration's tokens without a default argument, and the function's body when it
    /// has one). `false` where no declaration is found or more than [`MAX_DECLS`] are.
    fn every_param_decl(
        &self,
        k: usize,
        j: usize,
        ok: impl Fn(&[crate::lexer::Token], Option<&[crate::lexer::Token]>) -> bool,
    ) -> bool {
        let toks = self.toks;
        // The `(` of the call whose argument this is, and the argument's position.
        let (mut depth, mut index, mut open) = (0usize, 0usize, None);
        for i in (k..j).rev().take(MAX_ARG_BACK) {
            match toks[i].tok {
                Tok::Punct(")" | "]" | "}") => depth += 1,
                Tok::Punct("(" | "[" | "{") if depth > 0 => depth -= 1,
                Tok::Punct("(") => {
                    open = Some(i);
                    break;
                }
                Tok::Punct("[" | "{") => return false,
                Tok::Punct(",") if depth == 0 => index += 1,
                _ => {}
            }
        }
        let Some(Tok::Ident(callee)) = open.and_then(|o| o.checked_sub(1)).map(|c| &toks[c].tok)
        else {
            return false;
        };
        let mut found = 0usize;
        for (i, t) in toks.iter().enumerate() {
            if !matches!(&t.tok, Tok::Ident(n) if n == callee)
                || !matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
            {
                continue;
            }
            // A declaration: a type before the name (`bool f(`, `T* f(`, `S<T> f(`), and after
            // its parameters a body or `;`.
            let declared = i.checked_sub(1).is_some_and(|p| match &toks[p].tok {
                Tok::Ident(w) => !matches!(
                    w.as_str(),
                    "return" | "else" | "case" | "new" | "delete" | "throw" | "sizeof" | "do"
                ),
                Tok::Punct("*" | "&" | ">") => true,
                _ => false,
            });
            let Some(close) = self.closing(i + 1).filter(|_| declared) else {
                continue;
            };
            let mut after = close + 1;
            while matches!(toks.get(after).map(|t| &t.tok), Some(Tok::Ident(w)) if matches!(w.as_str(), "const" | "noexcept" | "override"))
            {
                after += 1;
            }
            let body = match toks.get(after).map(|t| &t.tok) {
                Some(Tok::Punct(";")) => None,
                Some(Tok::Punct("{")) => match self.closing(after) {
                    Some(c) => Some((after, c)),
                    None => return false,
                },
                _ => continue,
            };
            found += 1;
            if found > MAX_DECLS {
                return false;
            }
            let parts = super::host::split_commas(toks, i + 2, close);
            let Some(&(a, b)) = parts.get(index) else {
                return false;
            };
            // A default argument is no part of the type.
            let b = (a..b)
                .find(|&q| matches!(toks[q].tok, Tok::Punct("=")))
                .unwrap_or(b);
            if !ok(&toks[a..b], body.map(|(o, c)| &toks[o..c])) {
                return false;
            }
        }
        found > 0
    }
}

/// Whether a parameter's declaration `seg` is a pointer or reference to const: `const` before
/// its first `*` or `&` (east const included: `T const* p`), at most one `*`, and not both a
/// `*` and a `&` (`const T*& p` may change the caller's pointer).
fn const_pointee(seg: &[crate::lexer::Token]) -> bool {
    let first_ref = seg
        .iter()
        .position(|t| matches!(t.tok, Tok::Punct("*" | "&" | "&&")));
    let first_const = seg
        .iter()
        .position(|t| matches!(&t.tok, Tok::Ident(n) if n == "const"));
    let stars = seg
        .iter()
        .filter(|t| matches!(t.tok, Tok::Punct("*")))
        .count();
    let refs = seg
        .iter()
        .filter(|t| matches!(t.tok, Tok::Punct("&" | "&&")))
        .count();
    match (first_const, first_ref) {
        (Some(c), Some(r)) => c < r && stars + refs == 1,
        _ => false,
    }
}

/// Whether a body holds `const_cast` or a C-style cast to a pointer type written without
/// `const` (`(char*)p`, `(void *) p`): a write through a parameter whose const it casts away.
fn casts_const_away(body: &[crate::lexer::Token]) -> bool {
    body.iter().enumerate().any(|(i, t)| match &t.tok {
        Tok::Ident(n) => n == "const_cast",
        Tok::Punct("(") => {
            let inner: Vec<_> = body[i + 1..]
                .iter()
                .take(6)
                .take_while(|t| !matches!(t.tok, Tok::Punct(")")))
                .collect();
            inner.len() < 6
                && body
                    .get(i + 1 + inner.len())
                    .is_some_and(|t| matches!(t.tok, Tok::Punct(")")))
                && inner
                    .first()
                    .is_some_and(|t| matches!(t.tok, Tok::Ident(_)))
                && inner
                    .last()
                    .is_some_and(|t| matches!(t.tok, Tok::Punct("*")))
                && inner.iter().all(|t| {
                    matches!(&t.tok, Tok::Ident(n) if n != "const")
                        || matches!(t.tok, Tok::Punct("*" | "::"))
                })
        }
        _ => false,
    })
}

/// Whether the `>` at `gt` closes `reinterpret_cast<T>` (or `static_cast`, `(T)`'s named form)
/// with `T` an integer type (`uintptr_t`, `size_t`, `unsigned long long`, …): a cast of a
/// pointer to an integer reads its address only.
fn int_cast_before(toks: &[Token], gt: usize) -> bool {
    const INT_WORDS: &[&str] = &[
        "uintptr_t",
        "intptr_t",
        "size_t",
        "ptrdiff_t",
        "uint64_t",
        "int64_t",
        "uint32_t",
        "int32_t",
        "unsigned",
        "signed",
        "long",
        "int",
        "short",
        "std",
        "::",
    ];
    // The words of `T`, back to the `<` (a few tokens at most).
    let Some(lt) = (gt.saturating_sub(6)..gt)
        .rev()
        .find(|&i| matches!(toks[i].tok, Tok::Punct("<")))
    else {
        return false;
    };
    let words_ok = lt + 1 < gt
        && toks[lt + 1..gt].iter().all(|t| match &t.tok {
            Tok::Ident(w) => INT_WORDS.contains(&w.as_str()),
            Tok::Punct("::") => true,
            _ => false,
        });
    words_ok && lt > 0 && matches!(&toks[lt - 1].tok, Tok::Ident(c) if c == "reinterpret_cast")
}
