//! The defaults a launch written in host code gives a run: entry, grid, block, dynamic shared
//! bytes, scalar arguments, buffer lengths and fills ([`HostLaunch`], read by the parser's
//! `host` module). What the user set (CLI flags, page fields, a scenario) always wins; every
//! default taken is said in one note at the launch's line.
//!
//! Sources: CUDA C++ Programming Guide, "Execution Configuration" (`<<<Dg, Db, Ns, S>>>`; `Ns`
//! is the dynamic shared memory per block in bytes, sizing the `extern __shared__` array); HIP
//! Programming Guide, "Kernel launch" (`hipLaunchKernelGGL`, same order).

use super::ast::{Function, HostLaunch, Program, Stmt, StmtKind, StmtPartRef};
use super::types::{Ty, ValTy};
use super::{KernelDiagnostic, KernelError, LaunchConfig};
use crosslane_core::result::Level;

/// Bytes of one element of `t` in C (`sizeof`).
pub fn c_size(t: ValTy) -> u64 {
    u64::from(t.scalar.bits().div_ceil(8)) * u64::from(t.lanes.max(1))
}

/// Each parameter of `f` with the launch argument written for it. A struct parameter is one
/// parameter per member (`out.v`, `out.idx`: the parser lowers structs to their members), all
/// taking that one argument; for those, `true` ([`struct_leaf`] gives the struct's layout).
pub(crate) fn source_args<'a>(
    f: &'a Function,
    args: &'a [super::ast::HostArg],
) -> Vec<(&'a super::ast::Param, &'a super::ast::HostArg, bool)> {
    let root = |p: &super::ast::Param| p.name.split_once('.').map(|(r, _)| r.to_string());
    let mut groups: Vec<Vec<&super::ast::Param>> = Vec::new();
    for p in &f.params {
        match (groups.last_mut(), root(p)) {
            (Some(g), Some(r)) if g.first().and_then(|q| root(q)).as_deref() == Some(&r) => {
                g.push(p)
            }
            _ => groups.push(vec![p]),
        }
    }
    let mut out = Vec::new();
    // A stateless functor's argument (`Op()`) has no parameter to bind.
    let bound = args
        .iter()
        .enumerate()
        .filter(|(k, _)| !f.empty_params.contains(k))
        .map(|(_, a)| a);
    for (g, a) in groups.into_iter().zip(bound) {
        let member_of = root(g[0]).is_some();
        out.extend(g.into_iter().map(|p| {
            // A pointer member of a struct passed by value with memory of its own.
            let member = p
                .name
                .split_once('.')
                .and_then(|(_, path)| a.member_args.iter().find(|(m, _)| m == path));
            match member {
                Some((_, m)) if matches!(p.ty, Ty::Ptr(_)) => (p, m, false),
                _ => (p, a, member_of),
            }
        }));
    }
    out
}

/// The layout of the struct parameter member `p` of `f` as the parser computed it
/// ([`super::ast::StructLeaf`], the one layout `sizeof` also gives): the struct's size in bytes,
/// by which a `cudaMalloc` size is divided, and the member's elements per struct.
pub(crate) fn struct_leaf(
    program: &Program,
    f: &Function,
    p: &super::ast::Param,
) -> Option<(u64, u64)> {
    program
        .struct_leaves
        .iter()
        .find(|l| l.function == f.name && l.param == p.name)
        .map(|l| (l.stride.max(1), u64::from(l.count.max(1))))
}

/// The index in `args` of launch argument `a` ([`source_args`] gives a struct member's own
/// argument, held inside the struct's).
pub(crate) fn arg_index(args: &[super::ast::HostArg], a: &super::ast::HostArg) -> Option<usize> {
    args.iter()
        .position(|x| std::ptr::eq(x, a) || x.member_args.iter().any(|(_, m)| std::ptr::eq(m, a)))
}

/// The launch that applies to `config`: of `config.entry` when it is set, else of the kernel
/// of the first launch of a function the program defines, the `config.launch`-th (counted
/// from 1, in host code's reading order; default the first).
pub fn chosen_launch<'p>(program: &'p Program, config: &LaunchConfig) -> Option<&'p HostLaunch> {
    let defined = |n: &str| program.functions.iter().any(|f| f.name == n);
    let kernel = match &config.entry {
        Some(e) => e.as_str(),
        None => program
            .launches
            .iter()
            .find(|l| defined(&l.kernel))?
            .kernel
            .as_str(),
    };
    let n = config.launch.unwrap_or(1).max(1);
    program
        .launches
        .iter()
        .filter(|l| l.kernel == kernel)
        .nth(n - 1)
}

/// Refuses a `config.launch` that names no launch: 0, or past the entry kernel's last launch
/// in host code (or a file whose host code launches nothing).
///
/// # Errors
/// The choice and how many launches of the kernel host code makes.
pub fn check_launch_choice(program: &Program, config: &LaunchConfig) -> Result<(), KernelError> {
    let Some(n) = config.launch else {
        return Ok(());
    };
    if n >= 1 && chosen_launch(program, config).is_some() {
        return Ok(());
    }
    let defined = |k: &str| program.functions.iter().any(|f| f.name == k);
    let kernel = config.entry.clone().or_else(|| {
        program
            .launches
            .iter()
            .find(|l| defined(&l.kernel))
            .map(|l| l.kernel.clone())
    });
    let msg = match kernel {
        Some(k) => {
            let count = program.launches.iter().filter(|l| l.kernel == k).count();
            format!(
                "launch {n} of `{k}` was asked for, and host code launches it {count} time(s): \
                 choose 1..={count} (CLI: --launch N)"
            )
        }
        None => format!(
            "launch {n} was asked for, and host code launches no kernel this file defines: \
             leave --launch out"
        ),
    };
    Err(KernelError::new(1, 1, msg))
}

/// The element type of the first `extern __shared__` array in `f`'s body, if any.
fn extern_shared_elem(f: &Function) -> Option<ValTy> {
    let mut stack: Vec<&Stmt> = vec![&f.body];
    while let Some(s) = stack.pop() {
        match &s.kind {
            StmtKind::Decl(storage, decls) if storage.shared && storage.external => {
                if let Some(Ty::Ptr(v) | Ty::Val(v)) = decls.first().map(|d| d.ty) {
                    return Some(v);
                }
            }
            // The parts in source order: pushed, then reversed so the first pops first.
            kind => {
                let at = stack.len();
                kind.for_each_part(|part| {
                    if let StmtPartRef::Stmt(c) = part {
                        stack.push(c);
                    }
                });
                stack[at..].reverse();
            }
        }
    }
    None
}

/// Cells of the `extern __shared__` array of `entry` (default: the first `__global__` function)
/// that `bytes` of dynamic shared memory hold (`bytes / sizeof(element)`); `bytes / 4` when the
/// kernel declares none.
pub fn shared_cells(program: &Program, entry: Option<&str>, bytes: u64) -> usize {
    let f = match entry {
        Some(e) => program.functions.iter().find(|f| f.name == e),
        None => program.functions.iter().find(|f| f.entry),
    };
    let size = f.and_then(extern_shared_elem).map_or(4, c_size).max(1);
    usize::try_from(bytes / size).unwrap_or(usize::MAX)
}

fn dims(d: [u64; 3]) -> Option<[usize; 3]> {
    Some([
        usize::try_from(d[0]).ok()?,
        usize::try_from(d[1]).ok()?,
        usize::try_from(d[2]).ok()?,
    ])
}

pub use super::trace::HostWords;

/// Fills the fields of `config` the user left unset from the launch in host code, and returns
/// the notes saying what was taken (and which arguments could not be read) and what host code
/// says of each parameter ([`HostWords`]). A buffer's length from host code stays when the
/// user gives only its fill: "auto" is what host code says, else one cell per thread.
pub fn apply_host_launch(
    program: &Program,
    config: &mut LaunchConfig,
) -> (Vec<KernelDiagnostic>, HostWords) {
    let mut words = HostWords::new();
    let Some(launch) = chosen_launch(program, config) else {
        return (Vec::new(), words);
    };
    let Some(f) = program.functions.iter().find(|f| f.name == launch.kernel) else {
        return (Vec::new(), words);
    };
    let mut taken: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    // Whether this launch may synchronize its grid (`machine/coop_launch.rs`).
    let line = Some(launch.span.line);
    (config.cooperative_launch_line, config.plain_launch_line) = if launch.cooperative {
        (line, None)
    } else {
        (None, line)
    };
    if config.entry.is_none() {
        config.entry = Some(launch.kernel.clone());
        taken.push(format!("entry `{}`", entry_name(program, f)));
    }
    if config.grid_dim.is_none() {
        if let Some(g) = launch.grid.and_then(dims) {
            config.grid_dim = Some(g);
            taken.push(format!("grid {}x{}x{}", g[0], g[1], g[2]));
        }
    }
    // A grid or block host code gives but that has no value here: said, never replaced
    // quietly by the default.
    for (part, why) in &launch.unread {
        let (unset, flag, default) = match part.as_str() {
            "grid" => (config.grid_dim.is_none(), "--blocks", "one block"),
            _ => (
                config.block_dim.is_none(),
                "--threads-per-block",
                "one warp",
            ),
        };
        if unset {
            notes.push(KernelDiagnostic::new(
                launch.span,
                Level::Warning,
                format!(
                    "the {part} of this launch: {why}; the run uses {default} instead: set it \
                     (CLI: {flag} N)"
                ),
                "",
            ));
        }
    }
    if config.block_dim.is_none() {
        if let Some(b) = launch.block.and_then(dims) {
            config.block_dim = Some(b);
            taken.push(format!("block {}x{}x{}", b[0], b[1], b[2]));
        }
    }
    if let (None, Some(bytes)) = (config.shared_len, launch.shared_bytes) {
        if let Some(elem) = extern_shared_elem(f) {
            let cells = bytes / c_size(elem).max(1);
            config.shared_len = usize::try_from(cells).ok();
            taken.push(format!(
                "{bytes} bytes of dynamic shared memory ({cells} cells of {})",
                elem.name()
            ));
        }
    }
    let launch_line = launch.span.line;
    let user_args: Vec<String> = config.args.keys().cloned().collect();
    for (p, a, member_of) in source_args(f, &launch.args) {
        // A struct member: its struct's layout (size, elements per struct); `Some(None)` when
        // the parser could not lay the struct out (then no length is read from the bytes).
        let stride = member_of.then(|| struct_leaf(program, f, p));
        let user_set = config.args.contains_key(&p.name);
        if let (Ty::Val(_), Some(v)) = (p.ty, &a.scalar) {
            words.insert(
                p.name.clone(),
                format!("{v}, from the launch at line {launch_line}"),
            );
        }
        // A member of a struct passed by value that host code set (`p.n = 20;`).
        let member = p.name.split_once('.').and_then(|(_, path)| {
            if let Some((_, v)) = a.fields.iter().find(|(f, _)| f == path) {
                return Some(v.clone());
            }
            // A vector member set as a whole (`o.dim = make_int3(4, 5, 6);`): its
            // components, kept as `dim.x`, `dim.y`, … (`parser::host_vec`), as `x,y,z`.
            let Ty::Val(vt) = p.ty else { return None };
            let parts: Option<Vec<String>> = ["x", "y", "z", "w"]
                .iter()
                .take(usize::from(vt.lanes))
                .map(|c| {
                    let want = format!("{path}.{c}");
                    a.fields
                        .iter()
                        .find(|(f, _)| *f == want)
                        .map(|(_, v)| v.clone())
                })
                .collect();
            parts.filter(|_| vt.lanes > 1).map(|p| p.join(","))
        });
        let scalar = a.scalar.clone().or(member);
        if let (Ty::Val(_), Some(v), None) = (p.ty, &scalar, &a.scalar) {
            words.insert(
                p.name.clone(),
                format!("{v}, from the launch at line {launch_line}"),
            );
        }
        if user_set && !matches!(p.ty, Ty::Ptr(_)) {
            continue;
        }
        match p.ty {
            Ty::Val(_) => match &scalar {
                Some(v) => {
                    config.args.insert(p.name.clone(), v.clone());
                    taken.push(format!("{} = {v}", p.name));
                }
                None => notes.push(KernelDiagnostic::new(
                    launch.span,
                    Level::Warning,
                    format!(
                        "argument `{}` of this launch (`{}`) is not a constant read here{}; \
                         set it (CLI: --arg {}=VALUE)",
                        p.name,
                        a.text,
                        a.unknown
                            .as_ref()
                            .map(|r| format!(" ({r})"))
                            .unwrap_or_default(),
                        p.name
                    ),
                    "",
                )),
            },
            // `k<<<1, 4>>>(x, nullptr, out)`: the parameter is the null pointer, no buffer.
            Ty::Ptr(_) if !p.reference && !user_set && is_null_constant(a) => {
                config.args.insert(p.name.clone(), NULL_ARG.to_string());
                taken.push(format!("`{}` = `{}` (a null pointer)", p.name, a.text));
            }
            Ty::Ptr(elem) if !p.reference => {
                let from_malloc = a
                    .malloc_bytes
                    .and_then(|b| match stride {
                        Some(Some((size, count))) => Some((b / size).saturating_mul(count)),
                        // A member of a struct whose layout is not known: no length read.
                        Some(None) => None,
                        None => Some(b / c_size(elem).max(1)),
                    })
                    // `d + 16`: the allocation from that element on ([expr.add]/4).
                    .map(|n| n.saturating_sub(a.offset))
                    .and_then(|n| usize::try_from(n).ok());
                // A host array of structs is not read member by member.
                // A host array of structs is read member by member where host code filled
                // its members (`h[i].x = …`).
                let member = p.name.split_once('.').and_then(|(_, path)| {
                    a.members.iter().find(|(m, _)| m == path).map(|(_, v)| v)
                });
                let fill = a.fill.as_ref().filter(|_| stride.is_none()).or(member);
                if stride.is_some() && !a.members.is_empty() && member.is_none() && !user_set {
                    // A member host code never wrote: undefined, never an index fill.
                    config.args.insert(p.name.clone(), "undef".to_string());
                    notes.push(KernelDiagnostic::new(
                        launch.span,
                        Level::Warning,
                        format!(
                            "`{}`: host code copies `{}` into it but never writes this member of its \
                             elements; its cells are undefined here: set them (CLI: --buffer \
                             {}=FILL)",
                            p.name, a.fill_from, p.name
                        ),
                        "C++17 [dcl.init]/12",
                    ));
                }
                // A vector element's fill is its components in order (`make_float4` in a host
                // loop): the elements are the scalars over the lanes.
                let fill_len =
                    fill.map(|v| super::host_fill_bytes::host_fill_elems(elem, a, v.len()));
                let len = match (from_malloc, fill_len) {
                    (Some(m), Some(f)) => Some(m.max(f)),
                    (m, f) => m.or(f),
                };
                // A vector buffer's length counts scalar cells (see `exec`), except MACA's and
                // Ascend's, whose vector buffers count elements.
                let scalars = elem.lanes > 1
                    && !matches!(
                        config.dialect,
                        Some(
                            crosslane_core::op::Dialect::Maca | crosslane_core::op::Dialect::Ascend
                        )
                    );
                let len = len.map(|n| {
                    if scalars {
                        n.saturating_mul(usize::from(elem.lanes))
                    } else {
                        n
                    }
                });
                if let Some(n) = len {
                    let from = match (from_malloc, fill_len) {
                        (Some(m), _) if m == n => a.malloc_from.clone(),
                        _ => format!(
                            "host code's fill of `{}` at line {}",
                            a.fill_from, a.fill_line
                        ),
                    };
                    words.insert(p.name.clone(), format!("{n}, from {from}"));
                }
                if let (false, Some(n)) = (config.buffer_len.contains_key(&p.name), len) {
                    config.buffer_len.insert(p.name.clone(), n);
                    taken.push(format!("`{}` of {n} cells", p.name));
                }
                if user_set {
                    continue;
                }
                notes.extend(super::host_buffers::buffer_notes(
                    launch, p, a, config, &mut taken,
                ));
                if let Some(values) = fill {
                    // Cells host code left undefined for a known reason (a signed overflow):
                    // undefined here too, the reason kept for a read of each.
                    let mut values = values.clone();
                    let per_cell = if scalars {
                        1
                    } else {
                        usize::from(elem.lanes.max(1))
                    };
                    let why = super::host_undef::split_marks(&mut values, per_cell);
                    if !why.is_empty() {
                        notes.push(KernelDiagnostic::new(
                            launch.span,
                            Level::Warning,
                            format!(
                                "`{}`: host code's `{}` has undefined cells: {}; those cells are \
                                 undefined here, the other cells keep their values (an \
                                 unsigned type would wrap instead)",
                                p.name,
                                a.fill_from,
                                super::host_undef::describe(&why)
                            ),
                            "ISO C++17 [expr]/4",
                        ));
                        config.undef_why.insert(p.name.clone(), why);
                    }
                    config.args.insert(
                        p.name.clone(),
                        super::host_fill_bytes::typed_host_fill(elem, a, &values),
                    );
                    let how = if a.managed {
                        "writes its managed memory"
                    } else {
                        "fills"
                    };
                    taken.push(format!(
                        "`{}` filled as host code {how} `{}` (line {})",
                        p.name, a.fill_from, a.fill_line
                    ));
                } else if let Some(h) = &a.fill_unread {
                    // Never silently and never a made-up fill: the device's buffer holds `h`'s
                    // values, which are not known here, so its cells are undefined.
                    config.args.insert(p.name.clone(), "undef".to_string());
                    notes.push(KernelDiagnostic::new(
                        launch.span,
                        Level::Warning,
                        format!(
                            "`{}`: host code copies `{h}` into it, but how `{h}` is filled cannot \
                             be read here (read are: a `for` loop `{h}[i] = …` of constants, two \
                             nested such loops, `for (auto& v : {h}) v = …;` of a constant, a \
                             literal list, std::fill / std::fill_n / std::iota, memset, memcpy / \
                             memmove / std::copy between host arrays, a store `{h}[K] = …` or \
                             through a pointer); its \
                             cells are undefined here: set them (CLI: --buffer {}=FILL)",
                            p.name, p.name
                        ),
                        "",
                    ));
                }
                if !config.args.contains_key(&p.name) && !a.from_param {
                    // Host code passes a pointer whose memory it does not follow here (a
                    // pointer from a call, a place not read): what the device holds there is
                    // not known, so undefined cells, said; never the index fill.
                    config.args.insert(p.name.clone(), "undef".to_string());
                    let why = if a.device.is_empty() {
                        "a pointer the host reading does not follow to an allocation host code \
                         makes here (read are: `cudaMalloc`/`hipMalloc` into a variable, a \
                         struct member or an array element, and pointers assigned from those, \
                         with `+ N`, `&p[N]`, casts and `c ? p : q` on a host constant)"
                    } else {
                        "memory whose contents host code writes in a way not read here"
                    };
                    notes.push(KernelDiagnostic::new(
                        launch.span,
                        Level::Warning,
                        format!(
                            "`{}`: host code passes `{}` at line {launch_line}, {why}; its \
                             cells are undefined here: set them (CLI: --buffer {}=FILL)",
                            p.name, a.text, p.name
                        ),
                        "",
                    ));
                }
            }
            _ => {}
        }
    }
    notes.extend(shared_views(f, launch, config, &user_args, &mut taken));
    if !taken.is_empty() {
        notes.insert(
            0,
            KernelDiagnostic::new(
                launch.span,
                Level::Info,
                format!(
                    "launch of `{}` read from host code: {}",
                    entry_name(program, f),
                    taken.join(", ")
                ),
                "CUDA C++ Programming Guide, Execution Configuration",
            ),
        );
    }
    (notes, words)
}

/// Gives each view in `views` (parameter → (parameter whose buffer it views, element
/// offset), [`LaunchConfig::views`]) the buffer of the parameter it views, in `bufs`
/// (parameter → buffer index); the view is bound at its offset when the kernel starts. Host
/// code's `k<<<1, 32>>>(d, d + 16)` passes one memory to both (C++17 [expr.add]/4), so a
/// write through one is seen through the other; a view gets no buffer, fill or length of its
/// own (`shared_views` makes them from the launch in host code).
pub fn bind_views(
    views: &std::collections::BTreeMap<String, (String, i64)>,
    bufs: &mut std::collections::HashMap<String, usize>,
) {
    for (view, (owner, _)) in views {
        if let Some(&buf) = bufs.get(owner) {
            bufs.insert(view.clone(), buf);
        }
    }
}

/// Pointer parameters given the same device pointer of host code (`k<<<1, 32>>>(d, d)`, `(d,
/// d + 16)`) view one memory (C++17 [expr.add]/4: `d + 16` points into `d`'s array): the one
/// given the lowest offset keeps its buffer (length and fill from the offset host code gives
/// it), each other is a view of it at its offset ([`LaunchConfig::views`]), so a write through
/// one is seen through the other as on the device. Parameters of different element types
/// (`int*` and `float*` of one allocation) are not joined: a warning says they alias. A
/// parameter the user set (`--buffer`) is left alone. Returns the notes.
fn shared_views(
    f: &Function,
    launch: &HostLaunch,
    config: &mut LaunchConfig,
    user_args: &[String],
    taken: &mut Vec<String>,
) -> Vec<KernelDiagnostic> {
    let mut notes = Vec::new();
    let mut groups: Vec<(&str, Vec<(&super::ast::Param, u64)>)> = Vec::new();
    for (p, a, member_of) in source_args(f, &launch.args) {
        if a.device.is_empty()
            || member_of
            || p.reference
            || !matches!(p.ty, Ty::Ptr(_))
            || config.views.contains_key(&p.name)
        {
            continue;
        }
        match groups.iter_mut().find(|g| g.0 == a.device) {
            Some(g) => g.1.push((p, a.offset)),
            None => groups.push((a.device.as_str(), vec![(p, a.offset)])),
        }
    }
    for (device, members) in groups.into_iter().filter(|g| g.1.len() > 1) {
        let Some(&(owner, base)) = members.iter().min_by_key(|m| m.1) else {
            continue;
        };
        let user_set = |n: &str| user_args.iter().any(|u| u == n);
        for &(p, offset) in &members {
            if p.name == owner.name {
                continue;
            }
            if p.ty != owner.ty || user_set(&p.name) || user_set(&owner.name) {
                notes.push(KernelDiagnostic::new(
                    launch.span,
                    Level::Warning,
                    format!(
                        "`{}` and `{}` are given the same device memory (host code's `{device}`)                          but run as two buffers here (their element types differ, or a                          buffer was set by the user): a write through one is not seen through                          the other as it is on the device",
                        owner.name, p.name
                    ),
                    "C++17 [expr.add]/4",
                ));
                continue;
            }
            let at = i64::try_from(offset - base).unwrap_or(i64::MAX);
            config.args.remove(&p.name);
            config.buffer_len.remove(&p.name);
            config
                .views
                .insert(p.name.clone(), (owner.name.clone(), at));
            // Its own length and fill are the owner's now.
            let own = format!("`{}` ", p.name);
            taken.retain(|t| !t.starts_with(&own));
            let plus = if at == 0 {
                String::new()
            } else {
                format!(" + {at}")
            };
            taken.push(format!(
                "`{}` is `{}`{plus} (one buffer: host code passes `{device}` to both)",
                p.name, owner.name
            ));
        }
    }
    notes
}

/// The value of a pointer parameter (in [`LaunchConfig::args`]) that makes it the null pointer:
/// no buffer is made, the parameter compares equal to `nullptr` and 0, `!p` is true, and a read
/// or write through it is undefined, reported at its line (C++17 [conv.ptr]/1: a null pointer
/// constant converts to the null pointer value; [expr.unary.op]/1). [`is_null_arg`] also takes
/// `nullptr` and `NULL`.
pub const NULL_ARG: &str = "null";

/// Whether a pointer parameter's value `text` asks for the null pointer: `null`, `nullptr` or
/// `NULL` (a fill never reads as these words).
pub fn is_null_arg(text: &str) -> bool {
    matches!(text.trim(), "null" | "nullptr" | "NULL")
}

/// When pointer parameter `p` is given the null pointer ([`is_null_arg`] in `config.args`),
/// the note the launch says it with: no buffer is made for it, and a read or write through it
/// is reported where it happens (C++17 [conv.ptr]/1, [expr.unary.op]/1). `None` otherwise.
///
/// # Errors
/// A reference parameter given null: a reference cannot be null (C++17 [dcl.ref]/5); the
/// error names the parameter's fill as the input at fault.
pub fn null_pointer(
    p: &super::ast::Param,
    config: &LaunchConfig,
) -> Result<Option<KernelDiagnostic>, KernelError> {
    if !config.args.get(&p.name).is_some_and(|t| is_null_arg(t)) {
        return Ok(None);
    }
    if p.reference {
        return Err(KernelError::in_input(
            format!("{} fill", p.name),
            format!(
                "`{}` is a reference parameter: a reference cannot be null (C++17 [dcl.ref]/5); \
                 give it a buffer (--buffer {}=FILL)",
                p.name, p.name
            ),
        ));
    }
    Ok(Some(KernelDiagnostic::new(
        p.span,
        Level::Info,
        format!(
            "`{}` is a null pointer: it names no buffer, compares equal to `nullptr`, and a \
             read or write through it is undefined",
            p.name
        ),
        "C++17 [conv.ptr]/1, [expr.unary.op]/1",
    )))
}

/// Whether host code passes a null pointer constant for a pointer parameter: `nullptr`, `NULL`
/// or the literal `0` written as the argument (C++17 [conv.ptr]/1), also converted to a pointer
/// type first (`(const float *)nullptr`, `static_cast<float*>(NULL)`: [expr.cast]/4 and
/// [expr.static.cast]/7 convert a null pointer constant to that type's null pointer value,
/// [conv.ptr]/1). A host variable is not followed: one set to `nullptr` is usually given memory
/// (`cudaMalloc(&d, …)`) before the launch.
fn is_null_constant(a: &super::ast::HostArg) -> bool {
    is_null_text(&a.text) || holds_null(a)
}

/// Whether the argument is a pointer variable or parameter host code gave the null pointer
/// (`const bool* f = nullptr; k<<<…>>>(f)`, or a helper's `finished` its caller passed
/// `nullptr`, vLLM's `topkGatingSoftmaxLauncherHelper(…, nullptr, …)`): its value read here is
/// 0, the null pointer value (C++17 [conv.ptr]/1), and it names no allocation, copy or write.
fn holds_null(a: &super::ast::HostArg) -> bool {
    a.scalar.as_deref() == Some("0")
        && a.device.is_empty()
        && a.malloc_bytes.is_none()
        && a.malloc_from.is_empty()
        && a.fill.is_none()
        && a.fill_unread.is_none()
        && a.write_unread.is_none()
        && a.memset.is_none()
}

/// [`is_null_constant`] on an argument's text.
fn is_null_text(text: &str) -> bool {
    let mut t = text.trim();
    // Each step removes one cast or one pair of parentheses, so the text shrinks every time.
    loop {
        if matches!(t, "nullptr" | "NULL" | "0" | "__null") {
            return true;
        }
        // `static_cast<T*>(X)` / `reinterpret_cast<T*>(X)`: X.
        if let Some(rest) = ["static_cast<", "reinterpret_cast<"]
            .iter()
            .find_map(|c| t.strip_prefix(c))
        {
            let Some(close) = rest.find(">(") else {
                return false;
            };
            let Some(inner) = rest[close + 2..].strip_suffix(')') else {
                return false;
            };
            t = inner.trim();
            continue;
        }
        // `(T*)X` (a C-style cast to a pointer type) or `(X)`.
        let Some(rest) = t.strip_prefix('(') else {
            return false;
        };
        let mut depth = 1usize;
        let mut close = None;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            return false;
        };
        let (inside, after) = (rest[..close].trim(), rest[close + 1..].trim());
        t = if after.is_empty() {
            inside
        } else if inside.ends_with('*') {
            after
        } else {
            return false;
        };
    }
}

/// Gives each parameter of the entry `f` that neither the user nor the launch in host code set
/// its default argument (`const float* mul = nullptr, int mul_stride = 0`; C++17
/// [dcl.fct.default]/1: a call that leaves out trailing arguments gets the defaults): a pointer
/// whose default is a null pointer constant becomes the null pointer ([`NULL_ARG`]), a scalar
/// whose default folds to a constant takes that value. Returns one note naming each default
/// taken. A default that does not fold (a name, a call) is left out: the parameter stays unset,
/// as [`unset_scalars`] says.
pub fn apply_default_args(
    program: &Program,
    f: &Function,
    config: &mut LaunchConfig,
) -> Vec<KernelDiagnostic> {
    if f.defaults.is_empty() || f.snippet {
        return Vec::new();
    }
    // The parameters a launch in host code passes arguments for keep what it passes.
    let passed: Vec<String> = match chosen_launch(program, config) {
        Some(l) if l.kernel == f.name => source_args(f, &l.args)
            .into_iter()
            .map(|(p, _, _)| p.name.clone())
            .collect(),
        _ => Vec::new(),
    };
    let env = std::collections::HashMap::new();
    let mut taken = Vec::new();
    for p in &f.params {
        if config.args.contains_key(&p.name) || passed.contains(&p.name) {
            continue;
        }
        let Some((_, d)) = f.defaults.iter().find(|(n, _)| *n == p.name) else {
            continue;
        };
        let value = super::parser::const_eval(d, &env);
        match (p.ty, value) {
            (Ty::Ptr(_), Some(v)) if v.text().as_deref() == Some("0") && !p.reference => {
                config.args.insert(p.name.clone(), NULL_ARG.to_string());
                taken.push(format!("`{}` = nullptr (a null pointer)", p.name));
            }
            (Ty::Val(v), Some(c)) if v.lanes <= 1 => {
                if let Some(t) = c.text() {
                    taken.push(format!("`{}` = {t}", p.name));
                    config.args.insert(p.name.clone(), t);
                }
            }
            _ => {}
        }
    }
    if taken.is_empty() {
        return Vec::new();
    }
    vec![KernelDiagnostic::new(
        f.span,
        Level::Info,
        format!(
            "parameters the launch does not give take their default arguments: {}",
            taken.join(", ")
        ),
        "C++17 [dcl.fct.default]/1",
    )]
}

/// Fills each `__constant__` table's buffer with its initializer and gives it its length,
/// unless the user set them (`--buffer NAME=…`, the page's fields).
///
/// A table host code copies into more than once holds, at the launch run, the last copy made
/// before it (CUDA Runtime API, cudaMemcpyToSymbol: the copy is made when host code calls it;
/// CUDA C++ Programming Guide, Streams: work on one stream runs in issue order), not a later
/// one: `t.values` holds the last copy of all, which a launch before it never sees.
pub fn apply_constant_tables(program: &Program, config: &mut LaunchConfig) {
    let chosen = chosen_launch(program, config).map(|l| l.id);
    for t in &program.constants {
        if !config.args.contains_key(&t.name) {
            let in_effect = chosen.map(|id| t.copies.iter().rposition(|c| c.at <= id));
            let earlier = match in_effect {
                Some(Some(i)) if i + 1 < t.copies.len() => Some(t.copies[i].values.as_ref()),
                Some(None) if !t.copies.is_empty() => Some(Some(&t.initial)),
                _ => None,
            };
            let fill = match (earlier, t.values.is_empty(), t.copied_unread) {
                (Some(None), _, _) => "undef".to_string(),
                (Some(Some(v)), _, _) if v.is_empty() => "zero".to_string(),
                (Some(Some(v)), _, _) => {
                    // Past what the copy covers: the initializer's cell, else zero
                    // ([dcl.init.aggr]/5, static storage), as `sequence_vars` fills it.
                    (0..t.len)
                        .map(|i| {
                            v.get(i)
                                .or_else(|| t.initial.get(i))
                                .map_or("0", String::as_str)
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                }
                (None, false, _) => t.values.join(","),
                (None, true, true) => "undef".to_string(),
                (None, true, false) => "zero".to_string(),
            };
            config.args.insert(t.name.clone(), fill);
            config.buffer_len.entry(t.name.clone()).or_insert(t.len);
        }
    }
}

/// Why a parameter nobody set is undefined (a `__global__` kernel's scalar, any vector): its
/// kind, name and how to set it. Every lane holds it as its [`super::Undef`] reason, so each
/// result computed from the parameter shows it.
pub fn unset_reason(name: &str, vector: bool) -> String {
    format!(
        "{} parameter `{name}` is not set; set it with --arg {name}=VALUE (CLI) or the \
         page's `{name}` field",
        if vector { "vector" } else { "scalar" }
    )
}

/// Whether `f`'s unset scalar parameters take each lane's index: a bare snippet's, and a
/// device function's run as the kernel (the vendors' examples write a device function over a
/// per-lane operand, `int f(int val)`, and state its results for lane n holding n — seed 002's
/// MACA examples). A `__global__` kernel's scalar is the same in every thread, so nobody setting
/// it leaves it undefined ([`unset_reason`]).
pub fn lane_default(f: &Function) -> bool {
    f.snippet || !f.entry
}

/// Whether parameter type `ty` takes a lane's index when nobody sets it ([`lane_default`]):
/// a scalar. A vector (`v4f32 c`, a lane's registers of an MMA matrix; a `__half2` pair) is
/// not one number per lane, so the vendors' "lane n holds n" convention does not give it a
/// value: unset, it is undefined in every lane, each component with the reason.
fn takes_lane_index(ty: Ty) -> bool {
    matches!(ty, Ty::Val(v) if v.lanes <= 1)
}

/// Gives each unset scalar parameter of `f` its per-lane default where [`lane_default`] says
/// so (`lane`: each lane's index), leaving a `__global__` kernel's unset, and every vector
/// parameter (a vector is not one number per lane).
pub fn default_lane_operands(f: &Function, config: &mut LaunchConfig) {
    if !lane_default(f) {
        return;
    }
    for p in &f.params {
        if takes_lane_index(p.ty) && !config.args.contains_key(&p.name) {
            config.args.insert(p.name.clone(), "lane".to_string());
        }
    }
}

/// A diagnostic for each scalar parameter of `f` that nobody set (no `--arg`, no page field, no
/// constant in a launch in host code), naming it: a kernel's then holds an undefined value in
/// every lane whose reason is [`unset_reason`], never a silent 0 or a number picked for the
/// user; a device function run as the kernel gets each lane's index ([`lane_default`]), said
/// here. None for a snippet.
pub fn unset_scalars(f: &Function, config: &LaunchConfig) -> Vec<KernelDiagnostic> {
    if f.snippet {
        return Vec::new();
    }
    let device = lane_default(f);
    f.params
        .iter()
        .filter(|p| matches!(p.ty, Ty::Val(_)) && !config.args.contains_key(&p.name))
        .map(|p| {
            let name = &p.name;
            let message = if device && !takes_lane_index(p.ty) {
                format!(
                    "vector parameter `{name}` is not set: a vector operand gets no lane index, so it is \
                     undefined in every lane (each component), and so is every result computed \
                     from it; set it (CLI: --arg {name}=VALUE; page: its field)"
                )
            } else if device {
                format!(
                    "scalar parameter `{name}` is not set: this device function runs as the \
                     kernel, so each lane gets its own lane index as its operand; set it (CLI: \
                     --arg {name}=VALUE; page: its field)"
                )
            } else {
                format!(
                    "scalar parameter `{name}` is not set: it is undefined in every lane, and so \
                     is every result computed from it; set it (CLI: --arg {name}=VALUE; page: its \
                     field)"
                )
            };
            KernelDiagnostic::new(p.span, Level::Warning, message, "")
        })
        .collect()
}

/// The kernels a source defines (entry functions first, then device functions), by name.
///
/// # Errors
/// [`KernelError`] when the source does not parse.
pub fn list_kernels(source: &str) -> Result<Vec<String>, KernelError> {
    let parsed = super::parser::parse(source)?;
    let fns = &parsed.program.functions;
    Ok(fns
        .iter()
        .filter(|f| f.entry)
        .chain(fns.iter().filter(|f| !f.entry))
        .map(|f| entry_name(&parsed.program, f))
        .collect())
}

/// The name a function is given to `--entry`: its own, or for one of several functions of a
/// name (overloads, kept as `name`, `name#2`, …) its name with its parameter types
/// (`scale(float*, int)`), which [`resolve_entry`] reads back.
pub fn entry_name(program: &Program, f: &Function) -> String {
    let base = crate::ast::overload_base(&f.name);
    if program
        .functions
        .iter()
        .filter(|g| crate::ast::overload_base(&g.name) == base)
        .count()
        > 1
    {
        format!("{base}({})", param_types_text(f))
    } else {
        f.name.clone()
    }
}

/// The text of a parameter's type (`float*`, `int`, `float&`, `int64_t`, `float4`), in words
/// [`resolve_entry`] reads back.
fn param_type_text(p: &super::ast::Param) -> String {
    let name = |v: ValTy| {
        if v.lanes == 1 {
            v.name()
        } else {
            super::vector_types::cuda_name(v)
        }
    };
    match p.ty {
        Ty::Val(v) => name(v),
        Ty::Ptr(v) if p.reference => format!("{}&", name(v)),
        Ty::Ptr(v) => format!("{}*", name(v)),
        Ty::Void => "void".into(),
    }
}

/// The entry's parameters in order with what the launch gives each, once host code and the
/// user's `--arg`s are merged into `config.args` (the trace's `launch.params`). A file-scope
/// `__constant__` table, which the emulator passes to the entry as a buffer, is listed as
/// `constant` (it is not an argument of the launch in C++).
pub fn launch_params(
    program: &Program,
    f: &Function,
    config: &LaunchConfig,
) -> Vec<super::trace::LaunchParam> {
    f.params
        .iter()
        .map(|p| {
            let given = config.args.get(&p.name);
            let table = program.constants.iter().find(|t| t.name == p.name);
            let (kind, value) = match p.ty {
                _ if table.is_some_and(|t| t.device) => ("device", None),
                _ if table.is_some() => ("constant", None),
                Ty::Ptr(_) if given.is_some_and(|t| is_null_arg(t)) => ("null", None),
                Ty::Ptr(_) => ("buffer", None),
                _ => ("scalar", given.cloned()),
            };
            super::trace::LaunchParam {
                name: p.name.clone(),
                ty: param_type_text(p),
                kind,
                value,
            }
        })
        .collect()
}

/// The text of a function's parameter types, comma-separated (`float*, int`).
pub fn param_types_text(f: &Function) -> String {
    f.params
        .iter()
        .map(param_type_text)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One parameter type as `--entry 'name(T, U*)'` writes it: the type, whether a pointer and
/// whether a reference (a trailing parameter name is allowed and ignored).
fn written_param(text: &str) -> Option<(ValTy, bool, bool)> {
    let spaced = text.replace('*', " * ").replace('&', " & ");
    let words: Vec<&str> = spaced
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const"
                    | "volatile"
                    | "__restrict__"
                    | "__restrict"
                    | "restrict"
                    | "__grid_constant__"
            )
        })
        .collect();
    let pointer = words.contains(&"*");
    let reference = words.contains(&"&");
    let names: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !matches!(*w, "*" | "&"))
        .collect();
    let ty = super::parser::type_of_words(&names).or_else(|| {
        let (_, front) = names.split_last()?;
        super::parser::type_of_words(front)
    })?;
    Some((ty, pointer, reference))
}

/// The function key `--entry` names: a function's own name, or `name(T1, T2…)` choosing one
/// of several functions of a name by its parameter types (C++17 [over.dcl]: overloads differ
/// in their parameter types). A bare name shared by several functions names none of them.
///
/// # Errors
/// A bare name of several functions, or a parameter list no function of the name has: the
/// message lists each one's parameter types and line.
pub fn resolve_entry(program: &Program, entry: &str) -> Result<String, KernelError> {
    if let (name, Some(n)) = split_arity(entry) {
        if !name.contains('<') && !name.contains('(') {
            return entry_of_arity(program, name, n);
        }
    }
    let template_id = entry
        .find('<')
        .is_some_and(|lt| entry.find('(').is_none_or(|p| lt < p));
    if template_id || entry.contains('#') {
        return Ok(entry.to_string());
    }
    let (name, wanted) = match entry.split_once('(') {
        Some((n, rest)) => (n.trim(), Some(rest.trim_end().trim_end_matches(')'))),
        None => (entry.trim(), None),
    };
    let same: Vec<&Function> = program
        .functions
        .iter()
        .filter(|f| crate::ast::overload_base(&f.name) == name)
        .collect();
    let listing = || {
        same.iter()
            .map(|f| format!("`{name}({})` (line {})", param_types_text(f), f.span.line))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(wanted) = wanted else {
        if same.len() > 1 {
            return Err(KernelError::new(
                1,
                1,
                format!(
                    "`{name}` names {} overloaded functions: {}; choose one by its parameter \
                     types, e.g. --entry '{name}({})'",
                    same.len(),
                    listing(),
                    same.last().map(|f| param_types_text(f)).unwrap_or_default()
                ),
            ));
        }
        return Ok(entry.to_string());
    };
    let want: Vec<&str> = wanted
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty() && *w != "void")
        .collect();
    let fits = |f: &Function| {
        f.params.len() == want.len()
            && f.params.iter().zip(&want).all(|(p, w)| {
                written_param(w).is_some_and(|(t, ptr, r)| match p.ty {
                    Ty::Val(v) => v == t && !ptr && !r,
                    Ty::Ptr(v) => v == t && (ptr || r) && p.reference == r,
                    Ty::Void => false,
                })
            })
    };
    match same.iter().find(|f| fits(f)) {
        Some(f) => Ok(f.name.clone()),
        None => Err(KernelError::new(
            1,
            1,
            if same.is_empty() {
                format!("no function `{name}` to choose `{entry}` from")
            } else {
                format!(
                    "no function `{name}` has the parameter types ({wanted}); the source \
                     defines: {}",
                    listing()
                )
            },
        )),
    }
}

/// `k<int, 64>/3` split into the template-id and the parameter count after its last `/`
/// (digits only); `(entry, None)` when there is none.
pub(crate) fn split_arity(entry: &str) -> (&str, Option<usize>) {
    match entry.rsplit_once('/') {
        Some((head, n)) if !n.trim().is_empty() && n.trim().bytes().all(|b| b.is_ascii_digit()) => {
            (head.trim_end(), n.trim().parse().ok())
        }
        _ => (entry, None),
    }
}

/// The one function named `name` (of several overloads) that takes `n` parameters
/// (`--entry k/3`).
fn entry_of_arity(program: &Program, name: &str, n: usize) -> Result<String, KernelError> {
    let same: Vec<&Function> = program
        .functions
        .iter()
        .filter(|f| crate::ast::overload_base(&f.name) == name)
        .collect();
    let fit: Vec<&&Function> = same.iter().filter(|f| f.params.len() == n).collect();
    match fit.as_slice() {
        [f] => Ok(f.name.clone()),
        [] => Err(KernelError::new(
            1,
            1,
            format!(
                "--entry `{name}/{n}`: no function `{name}` takes {n} parameters (the source's \
                 take {})",
                same.iter()
                    .map(|f| f.params.len().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        _ => Err(KernelError::new(
            1,
            1,
            format!(
                "--entry `{name}/{n}`: several functions `{name}` take {n} parameters; choose \
                 one by its parameter types, e.g. --entry '{name}({})'",
                param_types_text(fit[0])
            ),
        )),
    }
}

/// Resolves the entry the user gave (`--entry 'name(T, U*)'`, [`resolve_entry`]) to a
/// function's key before host launches are read; returns whether one was given.
///
/// # Errors
/// As [`resolve_entry`]; a `config.launch` that names no launch ([`check_launch_choice`]).
pub fn resolve_config_entry(
    program: &Program,
    config: &mut LaunchConfig,
) -> Result<bool, KernelError> {
    let Some(e) = config.entry.clone() else {
        check_launch_choice(program, config)?;
        return Ok(false);
    };
    config.entry = Some(resolve_entry(program, &e)?);
    check_launch_choice(program, config)?;
    Ok(true)
}

/// The threads of a block (or the blocks of a grid) of dimensions `d`; `None` on overflow.
pub(crate) fn dims_total(d: [usize; 3]) -> Option<usize> {
    d[0].checked_mul(d[1])?.checked_mul(d[2])
}

/// The function to run: `entry` when given (a function's key; a template `--entry NAME` that
/// host code launched once names that instantiation), else the first `__global__` kernel, else
/// the first function. `resolve`: `entry` is a name to resolve first ([`resolve_entry`]), as a
/// host launch's is (one naming several kernels its arguments did not choose among names none).
///
/// # Errors
/// No function of that name, or no function at all (a template kernel needs its arguments);
/// as [`resolve_entry`].
pub fn entry_function<'p>(
    program: &'p Program,
    entry: Option<&String>,
    resolve: bool,
) -> Result<&'p Function, KernelError> {
    // A launch's key its argument types chose (`k` for the first of `k(float*)`, `k(int*)`)
    // is that function's already, not the bare name of several.
    let chosen = |e: &String| {
        program
            .launches
            .iter()
            .any(|l| l.overload_chosen && &l.kernel == e)
    };
    let resolved = match entry {
        Some(e) if resolve && !chosen(e) => Some(resolve_entry(program, e)?),
        _ => entry.cloned(),
    };
    match resolved.as_ref() {
        Some(name) => program
            .functions
            .iter()
            .find(|f| &f.name == name)
            .or_else(|| {
                // `--entry k` of a template kernel that host code launched once (`k<1024>`):
                // that instantiation.
                let prefix = format!("{name}<");
                let mut inst = program
                    .functions
                    .iter()
                    .filter(|f| f.entry && f.name.starts_with(&prefix));
                match (inst.next(), inst.next()) {
                    (Some(f), None) => Some(f),
                    _ => None,
                }
            })
            .ok_or_else(|| {
                let names: Vec<&str> = program.functions.iter().map(|f| f.name.as_str()).collect();
                KernelError::new(
                    1,
                    1,
                    format!(
                        "no function `{name}`; the source defines: {}",
                        names.join(", ")
                    ),
                )
            }),
        None => program
            .functions
            .iter()
            .find(|f| f.entry)
            .or_else(|| program.functions.first())
            .ok_or_else(|| {
                KernelError::new(
                    1,
                    1,
                    "no function to run (a template kernel runs when a launch or --entry \
                     names its arguments, e.g. --entry 'reduce<int, 128>')",
                )
            }),
    }
}

/// A vector parameter's (`uint3 dims`, `int2 off`, `dim3 grid`) value in each of `lanes`
/// lanes from `text`: `x,y,z` (as many numbers as components) or `x:y:z` is one value for
/// every lane, as a launch passes one argument to every thread; a list of `lanes` items
/// `x:y:z` gives each lane its own. `None` for a scalar parameter or another shape (read then
/// as per-lane scalars, each converted to the vector).
///
/// # Errors
/// A component that is not a number of the vector's component type.
pub(crate) fn vector_arg(
    p: &crate::ast::Param,
    vt: crate::types::ValTy,
    text: &str,
    lanes: usize,
) -> Result<Option<Vec<Result<crate::KVal, crate::lane_val::Undef>>>, KernelError> {
    if vt.lanes <= 1 {
        return Ok(None);
    }
    let items: Vec<&str> = text.split(',').map(str::trim).collect();
    let cells: Vec<String> = if items.len() == usize::from(vt.lanes) && !text.contains(':') {
        vec![items.join(":"); lanes]
    } else if items.len() == 1 && text.contains(':') {
        vec![text.trim().to_string(); lanes]
    } else if items.len() == lanes && items.iter().all(|i| i.contains(':')) {
        items.iter().map(|s| s.to_string()).collect()
    } else {
        return Ok(None);
    };
    cells
        .iter()
        .map(|c| {
            let v = super::memory::parse_cell(vt, c, &p.name).map_err(|e| {
                KernelError::new(
                    p.span.line,
                    p.span.col,
                    format!("{}: {}", p.name, e.message),
                )
            })?;
            Ok(v.ok_or_else(|| {
                crate::lane_val::Undef::at(p.span, format!("`{}` is set to undef", p.name))
            }))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// A warning for each `--arg` / `--buffer` name (`args`' keys) that is no parameter of `f`, the
/// function that runs (`params`: its parameters' names): such a flag changes nothing, and a run
/// that ignored it silently would look like one that used it.
pub(crate) fn unused_args<'a>(
    args: &std::collections::BTreeMap<String, String>,
    params: impl Iterator<Item = &'a str> + Clone,
    f: &Function,
) -> Vec<KernelDiagnostic> {
    let mut out = Vec::new();
    for name in args.keys() {
        if params.clone().any(|p| p == name) {
            continue;
        }
        let theirs: Vec<&str> = params.clone().collect();
        let has = if f.snippet {
            "the source runs as a snippet, which has no parameters".to_string()
        } else if theirs.is_empty() {
            "it has none".to_string()
        } else {
            format!("its parameters: {}", theirs.join(", "))
        };
        out.push(KernelDiagnostic::new(
            f.span,
            Level::Warning,
            format!(
                "`{name}` (--arg / --buffer) names no parameter of `{}`, which runs: it is not \
                 used ({has})",
                f.name
            ),
            "",
        ));
    }
    out
}

/// `--buffer p.ne=…` / `--arg` naming the array member `ne` of a struct parameter `p` passed by
/// value: the function's parameter for it is the copy's source, `p.ne@in`
/// (`parser::structs::by_value`), so the flag is moved to that name. The user's flag wins over
/// what host code gave that name.
pub(crate) fn by_value_array_flags(f: &Function, config: &mut LaunchConfig) {
    for p in &f.params {
        let Some(leaf) = p.name.strip_suffix("@in") else {
            continue;
        };
        if f.params.iter().any(|q| q.name == leaf) {
            continue;
        }
        if let Some(v) = config.args.remove(leaf) {
            config.args.insert(p.name.clone(), v);
        }
        if let Some(n) = config.buffer_len.remove(leaf) {
            config.buffer_len.insert(p.name.clone(), n);
        }
    }
}

/// An `--arg NAME=V` whose `V` is no value the argument grammar reads but names an
/// enumerator of the file (`shflXor`, or qualified by its enum or class:
/// `TiledGroupShflTests::shflXor`) is that enumerator's value (ISO C++ [dcl.enum]/2: each
/// enumerator is a constant of its enum's type; a scalar parameter of an enum type holds one
/// as its underlying integer). Values the grammar reads (`3`, `lane`, `undef`) stay as given.
pub(crate) fn enumerator_args(program: &Program, config: &mut LaunchConfig) {
    if program.enumerators.is_empty() {
        return;
    }
    for text in config.args.values_mut() {
        let t = text.trim();
        let reads = crosslane_core::value::ValuesSpec::parse(t).is_ok_and(|v| {
            v.materialize(crosslane_core::value::ValueType::I64, 1)
                .is_ok()
        });
        if reads {
            continue;
        }
        let name = t.rsplit("::").next().unwrap_or(t).trim();
        if let Some((_, v)) = program.enumerators.iter().find(|(n, _)| n == name) {
            *text = v.to_string();
        }
    }
}

/// A warning when host code launches the entry kernel (`k<<<…>>>` in the source) but the host
/// reading followed no launch of it and the user gave no block: the run then takes the
/// defaults (one warp, one block, buffers filled with their index, scalars unset), which are
/// not the program's. Said so that no number from those defaults passes for the program's.
/// `None` when a launch was read, a block was given, or no such launch text is there. Bounded:
/// one pass over the source's lines.
pub fn unread_launch(
    program: &Program,
    config: &LaunchConfig,
    f: &Function,
    source: &str,
    user_block: bool,
) -> Option<KernelDiagnostic> {
    if user_block
        || chosen_launch(program, config).is_some()
        || program.launches.iter().any(|l| l.kernel == f.name)
    {
        return None;
    }
    let base = f.name.split('<').next().unwrap_or_default();
    let base = base.rsplit("::").next().unwrap_or(base);
    if base.is_empty() {
        return None;
    }
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    for (ln, line) in source.lines().enumerate() {
        let mut from = 0;
        while let Some(i) = line.get(from..).and_then(|l| l.find(base)) {
            let s = from + i;
            let e = s + base.len();
            from = e;
            if ident(line[..s].chars().last()) || ident(line[e..].chars().next()) {
                continue;
            }
            let rest = line[e..].trim_start();
            let launches = rest.starts_with("<<<")
                || (rest.starts_with('<')
                    && rest
                        .find("<<<")
                        .is_some_and(|j| !rest[..j].contains(['(', ';'])));
            if launches {
                let span = super::ast::Span {
                    line: u32::try_from(ln + 1).unwrap_or(u32::MAX),
                    col: u32::try_from(s + 1).unwrap_or(u32::MAX),
                };
                return Some(KernelDiagnostic::new(
                    span,
                    Level::Warning,
                    format!(
                        "host code launches `{base}` here in a way the host reading does not \
                         follow, so this run does not use the program's launch: its block, \
                         grid, scalar arguments and buffers are crosslane's defaults (one \
                         warp, buffers filled with their index), not the program's; set them \
                         (CLI: --threads-per-block, --blocks, --arg, --buffer)"
                    ),
                    "",
                ));
            }
        }
    }
    None
}
