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
//!   device-to-device copy): said, naming the statement.

use super::host::{text_of, DevWrite, HostState, READ_CALLS};
use super::Parser;
use crate::ast::HostArg;
use crate::lexer::Tok;

/// Most bytes a partial memset is spelled out for as a byte list (a memset of the whole
/// buffer is one value however large).
const MAX_MEMSET_LIST: u64 = 1 << 20;

/// The `w` bytes a memset fill (`u8:1` over the whole buffer, or `u8:1,1,undef,…`) gives, as
/// a byte list's items; `None` for any other fill.
fn memset_bytes(fill: &str, w: u64) -> Option<Vec<String>> {
    let list = fill.strip_prefix("u8:")?;
    let mut items: Vec<String> = list.split(',').map(str::to_string).collect();
    if items.len() == 1 {
        items = vec![items[0].clone(); usize::try_from(w).ok()?];
    }
    items.resize(usize::try_from(w).ok()?, "undef".to_string());
    Some(items)
}

/// Statements that name a device pointer or host array without writing it.
const NO_WRITE: &[&str] = &[
    "cudaFree",
    "hipFree",
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
    /// fill the bytes give (see the module doc).
    pub(super) fn host_memset(&mut self, st: &mut HostState, k: usize) {
        let toks = self.toks;
        let Some(c) = self.closing(k + 1) else { return };
        let parts = super::host::split_commas(toks, k + 2, c);
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
        let what = format!("`{}` at line {line}", text_of(&toks[k..=c]));
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
                    // The bytes the buffer held, this memset's laid over them.
                    let mut list = match st.writes.get(&d) {
                        Some(DevWrite::Memset(Ok((old, _)))) if !after_launch => {
                            memset_bytes(old, w)
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
                        Some(DevWrite::Memset(Ok((_, old)))) if !after_launch => {
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
    /// is no longer known (each said at the launch that reads it).
    pub(super) fn note_escapes(&mut self, st: &mut HostState, k: usize, end: usize) {
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
        // `void* args[] = {&d, &n};`: an initializer list passes nothing to a call.
        let end = (k + 1..end)
            .find(|&i| {
                matches!(toks[i].tok, Tok::Punct("{")) && matches!(toks[i - 1].tok, Tok::Punct("="))
            })
            .unwrap_or(end);
        let line = toks[k].line;
        let what = || format!("`{}` at line {line}", text_of(&toks[k..end]));
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
            if !(arg || member) {
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
        let managed = st
            .mallocs
            .get(d)
            .filter(|m| m.1.ends_with("Managed"))
            .map(|m| format!("`{}` at line {}", m.1, m.2));
        if let Some(call) = &managed {
            if let Some((values, line)) = st.fills.get(d) {
                arg.fill = Some(values.clone());
                arg.fill_line = *line;
                arg.fill_from = d.to_string();
                arg.managed = true;
                return;
            }
            if let Some(why) = st.unknown.get(d) {
                arg.write_unread = Some(format!(
                    "`{d}` is managed memory ({call}) that host code writes, but not in a way \
                     read here ({why})"
                ));
                return;
            }
        }
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

    /// What launch argument `arg` finds at allocation (or host place) `d` from element `offset`
    /// on: its length, the host copy, memset or launches that wrote it last (`host_mem`).
    pub(super) fn alloc_arg(st: &HostState, d: &str, offset: u64, arg: &mut HostArg) {
        let d = d.to_string();
        arg.offset = offset;
        if st.writes.contains_key(&d) || st.mallocs.contains_key(&d) {
            arg.device.clone_from(&d);
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
                // What host code wrote after the earlier launches is in this one's buffer now.
                st.host_cells.remove(name);
                st.prior.entry(name.to_string()).or_default().push((
                    format!("`{kernel}` launched at line {line}"),
                    id,
                    j,
                ));
            }
        }
    }
}
