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
/// taking that one argument; for those, the bytes of one struct element without padding (the
/// members' sizes summed), by which a `cudaMalloc` size is divided.
fn source_args<'a>(
    f: &'a Function,
    args: &'a [super::ast::HostArg],
) -> Vec<(&'a super::ast::Param, &'a super::ast::HostArg, Option<u64>)> {
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
    for (g, a) in groups.into_iter().zip(args) {
        let stride = root(g[0]).map(|_| {
            g.iter()
                .map(|p| match p.ty {
                    Ty::Val(v) | Ty::Ptr(v) => c_size(v),
                    Ty::Void => 0,
                })
                .sum::<u64>()
        });
        out.extend(g.into_iter().map(|p| (p, a, stride)));
    }
    out
}

/// The launch that applies to `config`: the first one of `config.entry` when it is set, else
/// the first launch of a function the program defines.
pub fn chosen_launch<'p>(program: &'p Program, config: &LaunchConfig) -> Option<&'p HostLaunch> {
    let defined = |n: &str| program.functions.iter().any(|f| f.name == n);
    match &config.entry {
        Some(e) => program.launches.iter().find(|l| l.kernel == *e),
        None => program.launches.iter().find(|l| defined(&l.kernel)),
    }
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
    if config.entry.is_none() {
        config.entry = Some(launch.kernel.clone());
        taken.push(format!("entry `{}`", launch.kernel));
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
    for (p, a, stride) in source_args(f, &launch.args) {
        let user_set = config.args.contains_key(&p.name);
        if let (Ty::Val(_), Some(v)) = (p.ty, &a.scalar) {
            words.insert(
                p.name.clone(),
                format!("{v}, from the launch at line {launch_line}"),
            );
        }
        if user_set && !matches!(p.ty, Ty::Ptr(_)) {
            continue;
        }
        match p.ty {
            Ty::Val(_) => match &a.scalar {
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
            Ty::Ptr(elem) if !p.reference => {
                let from_malloc = a
                    .malloc_bytes
                    .map(|b| b / stride.unwrap_or_else(|| c_size(elem)).max(1))
                    .and_then(|n| usize::try_from(n).ok());
                // A host array of structs is not read member by member.
                let fill = a.fill.as_ref().filter(|_| stride.is_none());
                let fill_len = fill.map(Vec::len);
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
                if let Some(values) = fill {
                    config.args.insert(p.name.clone(), values.join(","));
                    taken.push(format!(
                        "`{}` filled as host code fills `{}` (line {})",
                        p.name, a.fill_from, a.fill_line
                    ));
                } else if let Some(h) = &a.fill_unread {
                    // Never silently: the buffer the device would see holds `h`'s values.
                    notes.push(KernelDiagnostic::new(
                        launch.span,
                        Level::Warning,
                        format!(
                            "`{}`: host code copies `{h}` into it, but how `{h}` is filled cannot \
                             be read here (read are: a `for` loop `{h}[i] = …` of constants, a \
                             literal list, std::fill / std::fill_n / std::iota, memset to 0); the \
                             index fill (cell i = i) is used instead: set it (CLI: --buffer {}=FILL)",
                            p.name, p.name
                        ),
                        "",
                    ));
                }
            }
            _ => {}
        }
    }
    if !taken.is_empty() {
        notes.insert(
            0,
            KernelDiagnostic::new(
                launch.span,
                Level::Info,
                format!(
                    "launch of `{}` read from host code: {}",
                    launch.kernel,
                    taken.join(", ")
                ),
                "CUDA C++ Programming Guide, Execution Configuration",
            ),
        );
    }
    (notes, words)
}

/// Fills each `__constant__` table's buffer with its initializer and gives it its length,
/// unless the user set them (`--buffer NAME=…`, the page's fields).
pub fn apply_constant_tables(program: &Program, config: &mut LaunchConfig) {
    for t in &program.constants {
        if !config.args.contains_key(&t.name) {
            let fill = match (t.values.is_empty(), t.copied_unread) {
                (false, _) => t.values.join(","),
                (true, true) => "undef".to_string(),
                (true, false) => "zero".to_string(),
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

/// The function to run: `entry` when given (a template `--entry NAME` that host code launched
/// once names that instantiation), else the first `__global__` kernel, else the first function.
///
/// # Errors
/// No function of that name, or no function at all (a template kernel needs its arguments).
pub fn entry_function<'p>(
    program: &'p Program,
    entry: Option<&String>,
) -> Result<&'p Function, KernelError> {
    match entry {
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
