//! A host program's launches run in order: the launch a run traces (the entry, chosen as
//! [`super::host_launch::chosen_launch`] says) finds in its buffers what the launches before it
//! left there, as on the device, where launches on one stream run in order, each to
//! completion, on device memory that persists between them (CUDA C++ Programming Guide,
//! "Streams": "commands … execute in order"; HIP Programming Guide, "Streams").
//!
//! Which launches run first: for each buffer argument of the traced launch, the last earlier
//! launch host code gave that buffer since host code last wrote it ([`HostArg::prior_ids`],
//! read by the parser's `host_mem`: a `cudaMemcpy` or `cudaMemset` after a launch is the
//! buffer's newest write and ends the chain), and, in turn, the launches those depend on. They
//! run in host code's order, untraced, each with its own grid, block and arguments as host
//! code gives them, on one work budget with the traced launch ([`super::Limits::max_work`]).
//! Launches that give the traced one nothing (another buffer, another test case) do not run.
//!
//! The launches after the traced one that are given a buffer it writes (and, in turn, those
//! given what they write) run when it finishes ([`Executor::finish_sequence`]), in order, on the
//! same budget: the run's final buffers are the device's after all of them, while its steps
//! stay the traced launch's. A launch under an `if` host code cannot decide
//! ([`HostLaunch::undecided`]) runs only when traced: the device runs one branch.
//!
//! What is said: the traced launch's note names the launches whose result each buffer holds,
//! and another note the launches after it; each warning or error of another launch is repeated
//! naming that launch and its host line; one that hits a limit or stops at an error ends the
//! run with that outcome, naming it (an earlier one before the traced launch starts). A launch
//! that cannot run (a refused kernel, one that does not compile) is said as an error at its line
//! and skipped: the others run, and the run's outcome is that error once they end.

pub(crate) mod readback;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

use super::ast::{HostArg, HostLaunch, Program, Span};
use super::budget::{LimitHit, Resource};
use super::exec::{Executor, LaunchConfig};
use super::memory::Buffer;
use super::parser::Parsed;
use super::sequence_vars::{
    earlier_for_vars, finish_vars, inject_vars, later_for_vars, store_vars, touched, VarState,
};
use super::trace::{Outcome, TraceMode};
use super::{KernelDiagnostic, KernelError};
use crosslane_core::result::Level;

/// Most earlier launches run before one traced launch (a host loop read into many launches
/// stops being followed here; the dependents then warn as before).
pub const MAX_EARLIER: usize = 512;

/// Most later launches a warning names one by one (the rest are counted).
const MAX_NAMED: usize = 6;

/// Why a buffer argument's contents come from a launch: the source launch's id and argument.
type Source = (u32, usize);

/// What the earlier launches left: each buffer by (launch id, argument index, parameter name),
/// the work they spent, what they said, and the outcome that ended the sequence early.
#[derive(Clone, Default)]
pub(crate) struct Ran {
    pub(crate) bufs: HashMap<(u32, usize), Vec<(String, Buffer)>>,
    /// Each kept buffer (launch id, argument index, parameter name) → the allocation of host
    /// code it views ([`HostArg::device`], empty when not known) and the elements past its
    /// start it begins at ([`HostArg::offset`]: `d + 4` views `d` from element 4 on).
    views: HashMap<(u32, usize, String), (String, u64)>,
    /// Bytes of the buffers kept in `bufs`, charged against `--max-memory`: a loop of launches
    /// over a large buffer keeps one copy per launch.
    kept: u64,
    work: u64,
    diags: Vec<KernelDiagnostic>,
    pub(crate) stop: Option<Outcome>,
    /// The first launch host code makes in this run that cannot run (a refused kernel, a
    /// launch that does not compile): the run's error once the other launches ran.
    refused: Option<KernelError>,
    /// The device variables each launched kernel touches (`sequence_vars`).
    pub(crate) touch: HashMap<String, HashSet<String>>,
    /// Each device variable's newest contents, and the launch that left them.
    vars: VarState,
}

/// `` `k(d, 2, 4)` launched at line N `` for a launch: each argument host code gives a
/// constant as its value (a loop's launches differ there), else as written.
fn named(l: &HostLaunch) -> String {
    let args: Vec<&str> = l
        .args
        .iter()
        .map(|a| a.scalar.as_deref().unwrap_or(a.text.as_str()))
        .collect();
    format!(
        "`{}({})` launched at line {}",
        l.kernel,
        args.join(", "),
        l.span.line
    )
}

/// `launches` named in order, a run of the same launch (a loop's) once with its count, at
/// most [`MAX_NAMED`] names and the rest counted.
fn listed(launches: &[HostLaunch]) -> Vec<String> {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for l in launches {
        let n = named(l);
        match runs.last_mut() {
            Some((last, count)) if *last == n => *count += 1,
            _ => runs.push((n, 1)),
        }
    }
    let mut names: Vec<String> = runs
        .iter()
        .take(MAX_NAMED)
        .map(|(n, c)| match c {
            1 => n.clone(),
            c => format!("{n} ({c} times)"),
        })
        .collect();
    let rest: usize = runs.iter().skip(MAX_NAMED).map(|r| r.1).sum();
    if rest > 0 {
        names.push(format!("and {rest} more"));
    }
    names
}

/// The earlier launches `chosen` depends on through its buffers (see the module doc), in host
/// code's order.
pub(crate) fn earlier(
    program: &Program,
    touch: &HashMap<String, HashSet<String>>,
    chosen: &HostLaunch,
) -> Vec<u32> {
    let by_id: HashMap<u32, &HostLaunch> = program.launches.iter().map(|l| (l.id, l)).collect();
    let mut need = BTreeSet::new();
    let mut stack = vec![chosen];
    while let Some(l) = stack.pop() {
        // The launches that left what its device variables hold.
        for id in earlier_for_vars(program, touch, l) {
            let Some(p) = by_id.get(&id) else { continue };
            if id < l.id && !p.vf_launcher && need.len() < MAX_EARLIER && need.insert(id) {
                stack.push(p);
            }
        }
        // Every launch given the buffer since host code last wrote all of it: one through
        // `d + 4` and one through `d` each leave part of it.
        // And the launches whose cells a device-to-device copy took into it.
        let copied = l
            .args
            .iter()
            .flat_map(|a| &a.dev_copies)
            .flat_map(|c| &c.src);
        for &(id, _) in l.args.iter().flat_map(|a| &a.prior_ids).chain(copied) {
            let Some(p) = by_id.get(&id).filter(|p| !p.undecided && !p.vf_launcher) else {
                continue;
            };
            if id < l.id && need.len() < MAX_EARLIER && need.insert(id) {
                stack.push(p);
            }
        }
    }
    need.into_iter().collect()
}

/// The launches after `chosen` that are given a buffer it (or such a later launch) wrote:
/// those that read what it left (`prior_ids`, a device-to-device copy, a device variable), and
/// those given the same device allocation after host code refilled it (`cudaMemcpy(d, h, …)`
/// of a host array a copy back filled from it): either changes what the buffer holds at the
/// end of the run.
fn later<'p>(
    program: &'p Program,
    touch: &HashMap<String, HashSet<String>>,
    chosen: &HostLaunch,
) -> Vec<&'p HostLaunch> {
    let mut reached: BTreeSet<u32> = BTreeSet::from([chosen.id]);
    // Each allocation by its pointer's name and number: another allocation of the same name
    // (a helper that allocates its own `d_a` at each call) is other memory; an argument whose
    // allocation is not numbered matches the name alone.
    let devices_of = |l: &HostLaunch| -> Vec<(String, Option<u32>)> {
        l.args
            .iter()
            .filter(|a| !a.device.is_empty())
            .map(|a| (a.device.clone(), a.alloc_id))
            .collect()
    };
    let mut devices: BTreeSet<(String, Option<u32>)> = devices_of(chosen).into_iter().collect();
    let same = |devices: &BTreeSet<(String, Option<u32>)>, a: &crate::ast::HostArg| {
        devices.iter().any(|(d, id)| {
            *d == a.device && (id.is_none() || a.alloc_id.is_none() || *id == a.alloc_id)
        })
    };
    // Those that find what it left in a device variable.
    let by_vars: BTreeSet<u32> = later_for_vars(program, touch, chosen).into_iter().collect();
    let mut out = Vec::new();
    let mut ls: Vec<&HostLaunch> = program
        .launches
        .iter()
        .filter(|l| l.id > chosen.id && !l.undecided && !l.vf_launcher)
        .collect();
    ls.sort_by_key(|l| l.id);
    for l in ls {
        let reads = by_vars.contains(&l.id)
            || l.args.iter().any(|a| {
                a.prior_ids
                    .iter()
                    .chain(a.dev_copies.iter().flat_map(|c| &c.src))
                    .any(|(id, _)| reached.contains(id))
            })
            || l.args.iter().any(|a| same(&devices, a));
        if reads {
            reached.insert(l.id);
            devices.extend(devices_of(l));
            out.push(l);
        }
    }
    out
}

/// Marks each buffer argument of `l` whose contents an earlier launch left (in `ran`): host
/// code's own account of it (an earlier launch not run, fresh memory, a copy before it) gives
/// way to that launch's result. Returns the arguments so marked with their source.
fn mark(l: &mut HostLaunch, ran: &Ran, by_id: &HashMap<u32, String>) -> Vec<(usize, Vec<Source>)> {
    let mut out = Vec::new();
    for (j, a) in l.args.iter_mut().enumerate() {
        if let Some(srcs) = mark_arg(a, ran, by_id) {
            out.push((j, srcs));
        }
    }
    out
}

/// [`mark`] for one argument (and each pointer member of a struct argument): the earlier
/// launches whose buffers it takes, `None` when none ran.
fn mark_arg(a: &mut HostArg, ran: &Ran, by_id: &HashMap<u32, String>) -> Option<Vec<Source>> {
    let mut members = std::mem::take(&mut a.member_args);
    for (_, m) in &mut members {
        mark_arg(m, ran, by_id);
    }
    let srcs: Vec<Source> = a
        .prior_ids
        .iter()
        .copied()
        .filter(|s| ran.bufs.contains_key(s))
        .collect();
    if srcs.is_empty() {
        a.member_args = members;
        return None;
    }
    let names: Vec<String> = a
        .prior_ids
        .iter()
        .filter_map(|(id, _)| by_id.get(id).cloned())
        .collect();
    // What host code wrote before those launches stays under them: a cell none of them
    // reaches (they were given `d + 4`, this launch `d`) holds it, as on the device.
    *a = HostArg {
        ran_before: names,
        prior_ids: a.prior_ids.clone(),
        text: std::mem::take(&mut a.text),
        malloc_bytes: a.malloc_bytes,
        malloc_from: std::mem::take(&mut a.malloc_from),
        offset: a.offset,
        device: std::mem::take(&mut a.device),
        memset: a.memset.take(),
        fill: a.fill.take(),
        fill_from: std::mem::take(&mut a.fill_from),
        fill_line: a.fill_line,
        managed: a.managed,
        host_cells: std::mem::take(&mut a.host_cells),
        fields: std::mem::take(&mut a.fields),
        member_args: members,
        overlay: std::mem::take(&mut a.overlay),
        overlay_line: a.overlay_line,
        dev_copies: std::mem::take(&mut a.dev_copies),
        ..HostArg::default()
    };
    Some(srcs)
}

/// The buffer launch argument `src` left that parameter `name` given allocation `dev` takes,
/// with the element of the allocation it starts at: the one viewing `dev` (a struct's member
/// passed on as a plain pointer), else the one of the same struct member path.
pub(crate) fn pick<'r>(
    ran: &'r Ran,
    src: Source,
    name: &str,
    dev: &str,
) -> Option<(&'r Buffer, u64)> {
    let kept = ran.bufs.get(&src)?;
    let view = |n: &str| ran.views.get(&(src.0, src.1, n.to_string()));
    let member = |n: &str| n.split_once('.').map_or("", |(_, m)| m).to_string();
    let same_dev = |n: &str| !dev.is_empty() && view(n).is_some_and(|v| v.0 == dev);
    // The members of one array of structs all view its allocation: the same member first.
    let by_both = kept
        .iter()
        .find(|(n, _)| same_dev(n) && member(n) == member(name));
    // A buffer of another name viewing it, when only one does (a struct's pointer member
    // passed on as a plain pointer); several are the members of an array of structs, which a
    // plain pointer does not view member by member.
    let by_dev = || {
        let mut views = kept.iter().filter(|(n, _)| same_dev(n));
        let first = views.next();
        first.filter(|_| views.next().is_none())
    };
    let (n, b) = by_both
        .or_else(by_dev)
        .or_else(|| kept.iter().find(|(n, _)| member(n) == member(name)))?;
    Some((b, view(n).map_or(0, |v| v.1)))
}

/// Copies the cells of `from` into buffer `to` of `ex` (its memory and its fill at launch):
/// as many as both hold. False when the element types differ (the bytes are not
/// reinterpreted here).
///
/// `shift` is the element of `from` that cell 0 of `name` is (the argument views the
/// allocation `shift` elements past where `from`'s launch's did; negative when before): cells
/// outside `from` keep what they held, and so do the cells in `keep` (ranges of `name`'s
/// cells, start and length, host code wrote after `from`'s launch).
fn inject(
    ex: &mut Executor,
    name: &str,
    from: &Buffer,
    at_launch: bool,
    shift: i128,
    keep: &[(u64, u64)],
) -> bool {
    let Some(&b) = ex.global_bufs.get(name) else {
        return false;
    };
    let mems = if at_launch {
        vec![&mut ex.trace.memory, &mut ex.trace.initial_memory]
    } else {
        vec![&mut ex.trace.memory]
    };
    for mem in mems {
        let Some(to) = mem.buffers.get_mut(b) else {
            return false;
        };
        if to.elem != from.elem {
            return false;
        }
        // The allocation the earlier launch saw is the buffer's size: a launch whose own
        // arguments did not give it (a buffer sized by the default of one cell per thread)
        // takes it, so its reads past that default find the cells, not "outside the buffer".
        if shift == 0 && to.cells.len() < from.cells.len() {
            to.cells.resize(from.cells.len(), None);
        }
        for (i, c) in to.cells.iter_mut().enumerate() {
            let kept = keep
                .iter()
                .any(|&(s, n)| (i as u64) >= s && (i as u64) < s.saturating_add(n));
            let src = i128::try_from(i).unwrap_or(i128::MAX).saturating_add(shift);
            let v = usize::try_from(src).ok().and_then(|s| from.cells.get(s));
            if let (false, Some(v)) = (kept, v) {
                c.clone_from(v);
            }
        }
    }
    true
}

/// Writes the cells host code wrote into managed memory after the earlier launches
/// ([`HostArg::overlay`]) over what they left in buffer `name` of `ex` (its memory and its fill
/// at launch), as the device finds them in the one allocation host and device share (CUDA C++
/// Programming Guide, "Unified Memory Programming"). Returns a warning for a value that is no
/// value of the buffer's element type (the cell is then undefined).
fn overlay(ex: &mut Executor, name: &str, a: &HostArg) -> Option<KernelDiagnostic> {
    let &b = ex.global_bufs.get(name)?;
    let mut bad = None;
    for mem in [&mut ex.trace.memory, &mut ex.trace.initial_memory] {
        let Some(to) = mem.buffers.get_mut(b) else {
            continue;
        };
        for (i, v) in &a.overlay {
            let Some(cell) = usize::try_from(*i).ok().and_then(|i| to.cells.get_mut(i)) else {
                continue;
            };
            *cell = match super::memory::parse_cell(to.elem, v, name) {
                Ok(c) => c,
                Err(e) => {
                    bad = Some(e.message);
                    None
                }
            };
        }
    }
    bad.map(|why| {
        KernelDiagnostic::new(
            Span {
                line: a.overlay_line,
                col: 1,
            },
            Level::Warning,
            format!(
                "`{name}`: a value host code writes into it at line {} is no value of its \
                 element type ({why}); that cell is undefined",
                a.overlay_line
            ),
            "",
        )
    })
}

/// Puts into `ex`'s buffers what the earlier launches left, for each marked argument of
/// `launch`; a parameter the user filled keeps the user's fill. Returns a warning per buffer
/// that could not take it.
fn fill_from(
    ex: &mut Executor,
    program: &Program,
    launch: &HostLaunch,
    marked: &[(usize, Vec<Source>)],
    ran: &Ran,
    user: &LaunchConfig,
) -> Vec<KernelDiagnostic> {
    let mut notes = Vec::new();
    let Some(f) = program.functions.iter().find(|f| f.name == launch.kernel) else {
        return notes;
    };
    for (p, a, _) in super::host_launch::source_args(f, &launch.args) {
        let Some(j) = super::host_launch::arg_index(&launch.args, a) else {
            continue;
        };
        let Some((_, srcs)) = marked.iter().find(|(k, _)| *k == j) else {
            continue;
        };
        // A struct's scalar members hold host code's values, not a launch's.
        if user.args.contains_key(&p.name) || !matches!(p.ty, crate::types::Ty::Ptr(_)) {
            continue;
        }
        // Each earlier launch's buffer in host order, the newest last, each at its offset.
        let mut ok = true;
        for src in srcs {
            let found = pick(ran, *src, &p.name, &a.device);
            if found.is_none() && !a.device.is_empty() {
                // That launch was given another allocation of this struct argument.
                continue;
            }
            let from = found.map(|f| f.0);
            let shift = i128::from(a.offset) - i128::from(found.map_or(0, |f| f.1));
            // Host writes after the newest launch only (earlier ones' chains ended there).
            let keep: &[(u64, u64)] = if Some(src) == srcs.last() {
                &a.host_cells
            } else {
                &[]
            };
            ok &= from.is_some_and(|b| inject(ex, &p.name, b, true, shift, keep));
        }
        if ok && !a.overlay.is_empty() {
            notes.extend(overlay(ex, &p.name, a));
        }
        if !ok {
            notes.push(KernelDiagnostic::new(
                launch.span,
                Level::Warning,
                format!(
                    "`{}`: the earlier launch that writes it views the memory with another \
                     element type, which is not reinterpreted here; its cells are undefined \
                     (set them: --buffer {}=FILL)",
                    p.name, p.name
                ),
                "",
            ));
        }
    }
    notes
}

/// Puts into `ex`'s buffers the cells each device-to-device copy before `launch` took from
/// what earlier launches left in another allocation ([`HostArg::dev_copies`]; CUDA Runtime
/// API, cudaMemcpy), over what the buffer holds; a parameter the user filled keeps the user's
/// fill. Returns a warning per copy whose launches did not run here.
fn apply_dev_copies(
    ex: &mut Executor,
    program: &Program,
    launch: &HostLaunch,
    ran: &Ran,
    user: &LaunchConfig,
) -> Vec<KernelDiagnostic> {
    let mut notes = Vec::new();
    let Some(f) = program.functions.iter().find(|f| f.name == launch.kernel) else {
        return notes;
    };
    for (p, a, _) in super::host_launch::source_args(f, &launch.args) {
        if a.dev_copies.is_empty()
            || user.args.contains_key(&p.name)
            || !matches!(p.ty, crate::types::Ty::Ptr(_))
        {
            continue;
        }
        let Some(&b) = ex.global_bufs.get(&p.name) else {
            continue;
        };
        for dc in &a.dev_copies {
            for src in &dc.src {
                let Some((from, view_at)) = pick(ran, *src, "", &dc.src_device) else {
                    notes.push(KernelDiagnostic::new(
                        launch.span,
                        Level::Warning,
                        format!(
                            "`{}`: a device-to-device copy into it takes cells of `{}` an \
                             earlier launch left, which did not run here; those cells hold \
                             what host code wrote into `{}` before it",
                            p.name, dc.src_device, dc.src_device
                        ),
                        "CUDA C++ Programming Guide, Streams",
                    ));
                    continue;
                };
                for mem in [&mut ex.trace.memory, &mut ex.trace.initial_memory] {
                    let Some(to) = mem.buffers.get_mut(b).filter(|t| t.elem == from.elem) else {
                        continue;
                    };
                    for t in 0..dc.len {
                        let se = dc.src_at.saturating_add(t);
                        if dc
                            .src_keep
                            .iter()
                            .any(|&(s, n)| se >= s && se < s.saturating_add(n))
                        {
                            continue;
                        }
                        let v = se
                            .checked_sub(view_at)
                            .and_then(|i| usize::try_from(i).ok())
                            .and_then(|i| from.cells.get(i));
                        let cell = usize::try_from(dc.at.saturating_add(t))
                            .ok()
                            .and_then(|i| to.cells.get_mut(i));
                        if let (Some(v), Some(c)) = (v, cell) {
                            c.clone_from(v);
                        }
                    }
                }
            }
        }
    }
    notes
}

/// How a launch run beside the traced one is named: `the earlier launch `k(d)` launched at
/// line 6 (run before the traced one)` or `the later launch … (run after the traced one)`.
fn which(l: &HostLaunch, later: bool) -> String {
    if later {
        format!("the later launch {} (run after the traced one)", named(l))
    } else {
        format!(
            "the earlier launch {} (run before the traced one)",
            named(l)
        )
    }
}

/// Diagnostic `d` of launch `l` (see [`which`]), said at the traced run.
fn from_other(l: &HostLaunch, later: bool, d: &KernelDiagnostic) -> KernelDiagnostic {
    KernelDiagnostic {
        message: format!("in {}: {}", which(l, later), d.message),
        ..d.clone()
    }
}

/// A scalar `--arg NAME=VALUE` for another launch of the file: where that launch passes a
/// parameter named `NAME` an argument host code gives no constant value (`repeat` read from
/// `atoi(argv[2])`), the user's value, as for the traced launch; an argument host code sets
/// keeps host code's value. Each use is noted.
fn user_scalars(
    parsed: &Parsed,
    l: &HostLaunch,
    user: &LaunchConfig,
    later: bool,
    config: &mut LaunchConfig,
    ran: &mut Ran,
) {
    if user.args.is_empty() {
        return;
    }
    let Some(f) = parsed.program.functions.iter().find(|f| f.name == l.kernel) else {
        return;
    };
    for (p, a, _) in super::host_launch::source_args(f, &l.args) {
        if !matches!(p.ty, crate::types::Ty::Val(_)) || a.scalar.is_some() {
            continue;
        }
        let Some(v) = user.args.get(&p.name) else {
            continue;
        };
        config.args.insert(p.name.clone(), v.clone());
        ran.diags.push(KernelDiagnostic::new(
            l.span,
            Level::Info,
            format!(
                "{}: `{}` = {v} from --arg (host code's argument `{}` has no constant value here)",
                which(l, later),
                p.name,
                a.text
            ),
            "",
        ));
    }
}

/// Runs launch `l` (alone, untraced; before the traced one, or after it when `later`) on what
/// the launches before it left, within what is left of the work budget; records its buffers,
/// work and what it said into `ran`.
pub(crate) fn run_one(
    source: &str,
    parsed: &Parsed,
    mut l: HostLaunch,
    user: &LaunchConfig,
    later: bool,
    ran: &mut Ran,
) {
    let by_id: HashMap<u32, String> = parsed
        .program
        .launches
        .iter()
        .map(|x| (x.id, named(x)))
        .collect();
    let marked = mark(&mut l, ran, &by_id);
    let mut program = parsed.program.clone();
    program.launches = vec![l.clone()];
    let sub = Parsed {
        program,
        diagnostics: Vec::new(),
        entry: None,
        preprocess: parsed.preprocess.clone(),
    };
    // One of several overloads by its parameter types (`k(int*)`), as `--entry` names it:
    // the first overload's key is its bare name, which alone names all of them.
    let entry = parsed
        .program
        .functions
        .iter()
        .find(|f| f.name == l.kernel)
        .map_or_else(
            || l.kernel.clone(),
            |f| super::host_launch::entry_name(&parsed.program, f),
        );
    let mut config = LaunchConfig {
        entry: Some(entry),
        dialect: user.dialect,
        dialect_from: user.dialect_from.clone(),
        lanes: user.lanes,
        limits: user.limits,
        preprocess: user.preprocess.clone(),
        use_fast_math: user.use_fast_math,
        fmad: user.fmad,
        keep_going: user.keep_going,
        ..LaunchConfig::default()
    };
    user_scalars(parsed, &l, user, later, &mut config, ran);
    let mut ex = match Executor::prepare(source, sub.clone(), config.clone()) {
        Ok(ex) => ex.with_trace(TraceMode::None),
        // A launch host code makes that cannot run (a refused kernel's, one that does not
        // compile) is the run's error, said at its line; the other launches still run, so that
        // one refused kernel of a test file does not hide what the others compute. The
        // buffers it would write keep what they held before it.
        Err(e) => {
            let err = reached(&l, e.line, e.col, &e.message);
            ran.diags.push(KernelDiagnostic::new(
                Span {
                    line: e.line,
                    col: e.col,
                },
                Level::Error,
                format!(
                    "{}: that launch does not run (the buffers it would write keep what they \
                     held before it); the run's other launches run, and its outcome is this error",
                    err.message
                ),
                "",
            ));
            ran.refused.get_or_insert(err);
            return;
        }
    };
    let notes = fill_from(
        &mut ex,
        &sub.program,
        &l,
        &marked,
        ran,
        &LaunchConfig::default(),
    );
    ran.diags.extend(notes);
    let notes = apply_dev_copies(&mut ex, &sub.program, &l, ran, &LaunchConfig::default());
    ran.diags.extend(notes);
    let _ = inject_vars(
        &mut ex,
        &sub.program,
        &ran.touch,
        &l,
        &ran.vars,
        &HashSet::new(),
    );
    ex.meter.work = ran.work;
    while ex.advance() {}
    ran.work = ex.meter.work;
    // Each distinct warning or error once (the merged list counts repeats). Read in place: a
    // clone of the trace would copy every buffer of the launch.
    let trace = &ex.trace;
    for d in &trace.merged_diagnostics {
        if matches!(d.level, Level::Warning | Level::Error) && d.line > 0 {
            let k = KernelDiagnostic {
                line: d.line,
                col: d.col,
                level: d.level,
                message: d.message.clone(),
                rule: d.rule.clone(),
            };
            ran.diags.push(from_other(&l, later, &k));
        }
    }
    match trace.outcome.clone() {
        Some(Outcome::Finished) | None => {}
        Some(Outcome::Limit(hit)) => {
            ran.stop = Some(Outcome::Limit(LimitHit {
                what: format!("{}: {}", which(&l, later), hit.what),
                ..hit
            }));
            return;
        }
        Some(Outcome::Error(e)) => {
            ran.stop = Some(Outcome::Error(KernelError {
                message: format!("{} stopped: {}", which(&l, later), e.message),
                ..e
            }));
            return;
        }
    }
    if let Some(f) = sub.program.functions.iter().find(|f| f.name == l.kernel) {
        store(&ex, f, &l, ran);
    }
    let kept = store_vars(&ex, &ran.touch, &l, &mut ran.vars);
    ran.kept = ran.kept.saturating_add(kept);
    let limit = user.limits.max_memory;
    if ran.kept > limit {
        ran.stop = Some(Outcome::Limit(LimitHit {
            resource: Resource::Memory,
            limit,
            line: l.span.line,
            what: format!(
                "{}: the buffers of the launches run so far ({} bytes kept for the launches \
                 after them)",
                which(&l, later),
                ran.kept
            ),
        }));
    }
}

/// Records the buffers `ex` (a run of launch `l` of kernel `f`) left, by `l`'s arguments. One
/// device buffer passed as two arguments (`reduce<<<…>>>(d, d, n)`) is two buffers here: what
/// each changed is merged, cell by cell (a later argument's change wins), so that the next
/// launch finds every write.
fn store(ex: &Executor, f: &super::ast::Function, l: &HostLaunch, ran: &mut Ran) {
    let mut got: Vec<(usize, String, Buffer, Option<Buffer>)> = Vec::new();
    for (p, a, _) in super::host_launch::source_args(f, &l.args) {
        let Some(j) = super::host_launch::arg_index(&l.args, a) else {
            continue;
        };
        let Some(&b) = ex.global_bufs.get(&p.name) else {
            continue;
        };
        let Some(buf) = ex.trace.memory.buffers.get(b) else {
            continue;
        };
        let at_launch = ex.trace.initial_memory.buffers.get(b).cloned();
        got.push((j, p.name.clone(), buf.clone(), at_launch));
    }
    let member = |n: &str| n.split_once('.').map_or("", |(_, m)| m).to_string();
    for k in 0..got.len() {
        let (j, name, mut buf, _) = got[k].clone();
        let text = l.args.get(j).map(|a| a.text.trim());
        for (j2, name2, other, before) in &got {
            let same = *j2 != j
                && l.args.get(*j2).map(|a| a.text.trim()) == text
                && member(name2) == member(&name)
                && other.elem == buf.elem;
            let Some(before) = before.as_ref().filter(|_| same) else {
                continue;
            };
            for ((c, o), b) in buf.cells.iter_mut().zip(&other.cells).zip(&before.cells) {
                if o != b && (*j2 > j || c == b) {
                    c.clone_from(o);
                }
            }
        }
        let cell = std::mem::size_of::<Option<crate::types::KVal>>() as u64;
        ran.kept = ran
            .kept
            .saturating_add((buf.cells.len() as u64).saturating_mul(cell));
        ran.bufs.entry((l.id, j)).or_default().push((name, buf));
    }
    for (p, a, _) in super::host_launch::source_args(f, &l.args) {
        if let Some(j) = super::host_launch::arg_index(&l.args, a) {
            ran.views
                .insert((l.id, j, p.name.clone()), (a.device.clone(), a.offset));
        }
    }
}

impl Ran {
    /// Nothing run yet, with the device variables each kernel of `program` touches.
    pub(crate) fn for_program(program: &Program) -> Self {
        Ran {
            touch: touched(program),
            ..Ran::default()
        }
    }
}

impl Executor {
    /// Prepares the launch of an already parsed program whose spans point into `source` (the
    /// WGSL front end, [`super::wgsl`], lowers a shader to the same program form; [`Executor::new`]
    /// chooses the front end). When host code launches kernels before the chosen launch on
    /// buffers it is given, those launches run first, to completion, and its buffers start
    /// with what they left (see `sequence.rs`'s module doc).
    ///
    /// # Errors
    /// As [`Executor::new`], less the parse errors.
    pub fn from_parsed(
        source: &str,
        mut parsed: Parsed,
        config: LaunchConfig,
    ) -> Result<Self, KernelError> {
        // Device-to-host copies of launches' cells that host code goes on to use: read the
        // program again with their values (`sequence/readback.rs`).
        if !config.single_launch && !parsed.program.readbacks.is_empty() {
            parsed = readback::resolve(source, parsed, &config);
        }
        // The launch `prepare` will choose: the entry as it resolves it.
        let mut probe = config.clone();
        if let Some(instance) = parsed.entry.clone() {
            probe.entry = Some(instance);
        }
        let chosen = super::host_launch::resolve_config_entry(&parsed.program, &mut probe)
            .ok()
            .and_then(|_| super::host_launch::chosen_launch(&parsed.program, &probe))
            .cloned();
        let Some(chosen) = chosen.filter(|_| !config.single_launch) else {
            return Self::prepare(source, parsed, config);
        };

        let mut ran = Ran {
            touch: touched(&parsed.program),
            ..Ran::default()
        };
        // The traced launch shows every device variable (each is a buffer of every kernel):
        // the launches that write any of them run, before or after it, whichever it touches.
        let all: HashSet<String> = parsed
            .program
            .constants
            .iter()
            .filter(|t| t.device)
            .map(|t| t.name.clone())
            .collect();
        if !all.is_empty() {
            ran.touch.insert(chosen.kernel.clone(), all);
        }
        let before = earlier(&parsed.program, &ran.touch, &chosen);
        let no_vars = ran.touch.get(&chosen.kernel).is_none_or(HashSet::is_empty);
        if before.is_empty() && later(&parsed.program, &ran.touch, &chosen).is_empty() && no_vars {
            // One launch on its buffers: nothing to run beside it.
            return Self::prepare(source, parsed, config);
        }
        let by_id: HashMap<u32, String> = parsed
            .program
            .launches
            .iter()
            .map(|x| (x.id, named(x)))
            .collect();
        for id in &before {
            let Some(l) = parsed
                .program
                .launches
                .iter()
                .find(|l| l.id == *id)
                .cloned()
            else {
                continue;
            };
            run_one(source, &parsed, l, &config, false, &mut ran);
            if ran.stop.is_some() {
                break;
            }
        }
        let mut marked = Vec::new();
        if let Some(l) = parsed
            .program
            .launches
            .iter_mut()
            .find(|l| l.id == chosen.id)
        {
            marked = mark(l, &ran, &by_id);
        }
        let after: Vec<HostLaunch> = later(&parsed.program, &ran.touch, &chosen)
            .into_iter()
            .take(MAX_EARLIER)
            .cloned()
            .collect();
        if !after.is_empty() {
            let names = listed(&after);
            ran.diags.push(KernelDiagnostic::new(
                chosen.span,
                Level::Info,
                format!(
                    "host code launches kernels after this one on the buffers it writes: {}; \
                     they run after it, in order, as on the device, so the buffers at the end \
                     of the run are the device's after them (the steps shown are this \
                     launch's; to step through one of them, run it as the entry: --entry NAME)",
                    names.join(", ")
                ),
                "CUDA C++ Programming Guide, Streams",
            ));
        }
        undecided_vars(&parsed.program, &ran.touch, &chosen, &mut ran.diags);
        let diags = std::mem::take(&mut ran.diags);
        parsed.diagnostics.extend(diags);
        let program = parsed.program.clone();
        let keep = Parsed {
            program: program.clone(),
            diagnostics: Vec::new(),
            entry: None,
            preprocess: parsed.preprocess.clone(),
        };
        let mut ex = Self::prepare(source, parsed, config.clone())?;
        let chosen = program
            .launches
            .iter()
            .find(|l| l.id == chosen.id)
            .cloned()
            .unwrap_or(chosen);
        if !marked.is_empty() && ex.config.entry.as_deref() == Some(chosen.kernel.as_str()) {
            for d in fill_from(&mut ex, &program, &chosen, &marked, &ran, &config) {
                ex.trace.diagnostics.push(d);
            }
        }
        if ex.config.entry.as_deref() == Some(chosen.kernel.as_str()) {
            for d in apply_dev_copies(&mut ex, &program, &chosen, &ran, &config) {
                ex.trace.diagnostics.push(d);
            }
            let user: HashSet<String> = config.args.keys().cloned().collect();
            let took = inject_vars(&mut ex, &program, &ran.touch, &chosen, &ran.vars, &user);
            if !took.is_empty() {
                let each: Vec<String> = took
                    .iter()
                    .map(|(v, id)| {
                        let by = by_id.get(id).cloned().unwrap_or_default();
                        format!("`{v}` holds what {by} left in it")
                    })
                    .collect();
                let d = KernelDiagnostic::new(
                    chosen.span,
                    Level::Info,
                    format!(
                        "device variables live for the whole program: {} (the launches that \
                         touch them ran first, in order)",
                        each.join(", ")
                    ),
                    "CUDA C++ Programming Guide, Variable Memory Space Specifiers (__device__)",
                );
                ex.diag_log.admit(&d);
                ex.trace.diagnostics.push(d);
            }
        }
        ex.meter.work = ex.meter.work.saturating_add(ran.work);
        if let Some(stop) = ran.stop.take() {
            ex.finish(stop);
        } else if !after.is_empty() && ex.config.entry.as_deref() == Some(chosen.kernel.as_str()) {
            let later = Later {
                source: source.into(),
                parsed: keep,
                config,
                ran,
                traced: chosen,
                after,
            };
            ex.later = Some(Rc::new(move |ex: &mut Executor| ex.run_later(&later)));
        } else if let Some(e) = ran.refused.take() {
            // A launch before this one could not run: the run's error once this one ends.
            ex.later = Some(Rc::new(move |_: &mut Executor| Outcome::Error(e.clone())));
        }
        Ok(ex)
    }

    /// Ends a run whose threads all finished: host code's launches after it run first (when
    /// there are any, see the module doc), and the run's outcome is theirs.
    pub(crate) fn finish_sequence(&mut self) {
        let outcome = match self.later.take() {
            Some(later) => later(self),
            None => Outcome::Finished,
        };
        self.finish(outcome);
    }

    /// Runs `later`'s launches on the buffers this launch left and puts their result in this
    /// run's final memory; returns the outcome.
    fn run_later(&mut self, later: &Later) -> Outcome {
        let mut ran = later.ran.clone();
        ran.work = self.meter.work;
        let traced = &later.traced;
        let Some(f) = later
            .parsed
            .program
            .functions
            .iter()
            .find(|f| f.name == traced.kernel)
        else {
            return Outcome::Finished;
        };
        // This launch's buffers as it left them, by its arguments.
        store(self, f, traced, &mut ran);
        store_vars(self, &ran.touch, traced, &mut ran.vars);
        let params = super::host_launch::source_args(f, &traced.args);
        for l in &later.after {
            run_one(
                &later.source,
                &later.parsed,
                l.clone(),
                &later.config,
                true,
                &mut ran,
            );
            if ran.stop.is_some() {
                break;
            }
        }
        self.meter.work = ran.work;
        for d in std::mem::take(&mut ran.diags) {
            self.diag_log.admit(&d);
            self.trace.diagnostics.push(d);
        }
        // Each buffer's newest version: follow it from launch to launch.
        for (p, a, _) in &params {
            let Some(j) = super::host_launch::arg_index(&traced.args, a) else {
                continue;
            };
            let mut cur = (traced.id, j);
            // Every launch along the chain, oldest first: a later one given `d + 12` holds
            // only those cells of the allocation, so the cells an earlier one in the chain
            // wrote outside that view (`d + 4`, `d + 8`) come from that one's buffer.
            let mut chain = Vec::new();
            for _ in 0..=later.after.len() {
                // The next launch given this memory: one whose argument lists `cur` among the
                // launches before it (and, for a known allocation, keeps a buffer of it).
                let next = later.after.iter().find_map(|m| {
                    m.args.iter().enumerate().find_map(|(k, b)| {
                        let src = (m.id, k);
                        // Or one given the same allocation after host code wrote all of it
                        // again (`cudaMemcpy(d, h, …)` of a host array copied back from it):
                        // what that launch leaves is the allocation's newest version.
                        let refilled = !a.device.is_empty()
                            && m.id > cur.0
                            && b.device == a.device
                            && (a.alloc_id.is_none()
                                || b.alloc_id.is_none()
                                || a.alloc_id == b.alloc_id)
                            && b.offset == a.offset
                            && b.prior_ids.is_empty();
                        (b.prior_ids.last() == Some(&cur)
                            || (!a.device.is_empty() && b.prior_ids.contains(&cur))
                            || refilled)
                            .then_some(())?;
                        let kept = ran.bufs.contains_key(&src)
                            && (a.device.is_empty()
                                || pick(&ran, src, &p.name, &a.device).is_some());
                        kept.then_some(src)
                    })
                });
                match next {
                    Some(n) => {
                        cur = n;
                        chain.push(n);
                    }
                    None => break,
                }
            }
            for src in chain {
                if let Some((b, at)) = pick(&ran, src, &p.name, &a.device) {
                    let b = b.clone();
                    let shift = i128::from(a.offset) - i128::from(at);
                    inject(self, &p.name, &b, false, shift, &[]);
                }
            }
        }
        finish_vars(self, &ran.vars, traced.id);
        ran.stop
            .or_else(|| ran.refused.take().map(Outcome::Error))
            .unwrap_or(Outcome::Finished)
    }
}

/// Host code's launches after the traced one, run when it finishes
/// ([`Executor::finish_sequence`]): the source and program they are read from, the user's
/// launch options (their limits), what the launches before the traced one left, the traced
/// launch and the later launches in host code's order.
struct Later {
    source: Rc<str>,
    parsed: Parsed,
    config: LaunchConfig,
    ran: Ran,
    traced: HostLaunch,
    after: Vec<HostLaunch>,
}

/// The error `m` (at `line`:`col`) of kernel launch `l`, which this run makes and which
/// cannot run: the run's error, naming the kernel and the line of host code launching it.
fn reached(l: &HostLaunch, line: u32, col: u32, m: &str) -> KernelError {
    KernelError::new(
        line,
        col,
        format!(
            "{m} (in `{}`, which host code launches at line {} in this run; \
             --single-launch runs the entry's launch alone)",
            l.kernel, l.span.line
        ),
    )
}

/// A warning for each launch other than `chosen` under an `if` host code cannot decide
/// ([`HostLaunch::undecided`]) that writes a `__device__` variable this run shows: the device
/// runs it or not, so the variable's cells shown (at `chosen`'s launch for one before it, at
/// the end for one after it) are those of the program that does not run it, never silently.
fn undecided_vars(
    program: &Program,
    touch: &HashMap<String, HashSet<String>>,
    chosen: &HostLaunch,
    diags: &mut Vec<KernelDiagnostic>,
) {
    let device: HashSet<&str> = program
        .constants
        .iter()
        .filter(|t| t.device)
        .map(|t| t.name.as_str())
        .collect();
    for l in program
        .launches
        .iter()
        .filter(|l| l.undecided && l.id != chosen.id && l.kernel != chosen.kernel)
        .take(MAX_NAMED)
    {
        let Some(vars) = touch.get(&l.kernel) else {
            continue;
        };
        let mut vars: Vec<&str> = vars
            .iter()
            .map(String::as_str)
            .filter(|v| device.contains(v))
            .collect();
        if vars.is_empty() {
            continue;
        }
        vars.sort_unstable();
        let when = if l.id < chosen.id {
            "at this launch"
        } else {
            "at the end of the run"
        };
        diags.push(KernelDiagnostic::new(
            chosen.span,
            Level::Warning,
            format!(
                "{} stands under an `if` host code cannot decide here, so it is not run; the \
                 device variable(s) {} it touches are shown {when} as they are without it \
                 (to run it, make it the entry: --entry {})",
                named(l),
                vars.iter()
                    .map(|v| format!("`{v}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                l.kernel
            ),
            "CUDA C++ Programming Guide, Variable Memory Space Specifiers (__device__)",
        ));
    }
}
