//! `crosslane run FILE.wgsl`: a WGSL compute shader on the kernel engine (naga front end,
//! [`crosslane_kernel::wgsl`]), its buffers printed after the run, and with `--gpu` the
//! same shader dispatched through wgpu and every buffer diffed cell by cell.
//!
//! ```text
//! crosslane run FILE.wgsl [--entry NAME] [--workgroups X[,Y,Z]] [--subgroup-size N]
//!                         [--buffer NAME_OR_BINDING[:LEN]=FILL]... [--json] [--gpu]
//! ```
//!
//! JSON: `entry`, `workgroup_size`, `workgroups`, `subgroup_size`, `subgroup_mapping`,
//! `buffers` (each `name`, `group`, `binding`, `type`, `values`: numbers in the element type,
//! null where undefined or indeterminate), `diagnostics`, `outcome`, and with `--gpu`
//! `gpu: {adapter, subgroup_size, buffers: [{name, match, within_ulp, within_bound, mismatch,
//! indeterminate, mismatches, within}]}` (`within_ulp`: cells whose bits differ by no more than
//! the ulp bound their inexact built-in documents, each listed in `within` as
//! `match (within N ulp)`).

use crosslane_core::fill::{parse_fill, Fill};
use crosslane_kernel::wgsl::{prepare, run_wgsl_traced, Binding};
use crosslane_kernel::{budget, KVal, KernelTrace, LaunchConfig, Outcome, Scalar, TraceMode};

use super::run_args::{escape_controls, limits, RunArgs};
use crate::error::CliError;
use crate::{print_json, print_out};

/// What the emulator says about how invocations map to subgroups (WGSL leaves it open).
pub const MAPPING: &str = "linear: subgroup = local_invocation_index / subgroup_size, \
                           lane = local_invocation_index % subgroup_size";

fn usage(m: impl Into<String>) -> CliError {
    CliError::Usage(escape_controls(&m.into()))
}

/// One `--buffer NAME_OR_BINDING[:LEN]=FILL`, resolved against the shader's bindings.
/// Returns the buffer's name and fill when its length is not known yet (a runtime-sized array
/// without `:LEN` and a fill that is not a list: one cell per invocation of the dispatch).
fn apply_buffer(
    spec: &str,
    bindings: &[Binding],
    config: &mut LaunchConfig,
) -> Result<Option<(String, Fill)>, CliError> {
    let (target, fill) = spec.split_once('=').ok_or_else(|| {
        usage(format!(
            "--buffer: NAME_OR_BINDING[:LEN]=FILL, got `{spec}`"
        ))
    })?;
    let (who, len) = match target.split_once(':') {
        Some((w, l)) => {
            let n = l
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=(1 << 24)).contains(n))
                .ok_or_else(|| {
                    usage(format!(
                        "--buffer {w}: LEN must be in 1..=16777216, got `{l}`"
                    ))
                })?;
            (w.trim(), Some(n))
        }
        None => (target.trim(), None),
    };
    let b = match who.parse::<u32>() {
        Ok(n) => {
            let hits: Vec<&Binding> = bindings.iter().filter(|b| b.binding == n).collect();
            match hits.as_slice() {
                [one] => *one,
                [] => return Err(usage(format!("--buffer: no @binding({n}) in the shader"))),
                _ => {
                    return Err(usage(format!(
                        "--buffer: @binding({n}) is in several groups; name the variable"
                    )))
                }
            }
        }
        Err(_) => bindings.iter().find(|b| b.name == who).ok_or_else(|| {
            let names: Vec<&str> = bindings.iter().map(|b| b.name.as_str()).collect();
            usage(format!(
                "--buffer: no buffer `{who}`; the shader binds: {}",
                names.join(", ")
            ))
        })?,
    };
    let field = format!("buffer {}", b.name);
    if crosslane_core::fill::split_typed(fill).is_some() {
        // A typed fill (`f32:1.5,2.5`): its values' bytes laid over the cells, as for a C
        // kernel's buffer; the engine reads it (`crosslane_kernel::memory::typed_cells`). A
        // list without LEN sizes the buffer to its bytes.
        let len = len
            .or(b.fixed_len)
            .or_else(|| crosslane_kernel::memory::typed_list_len(b.elem, fill));
        if let Some(n) = len {
            config.buffer_len.insert(b.name.clone(), n);
        }
        config.args.insert(b.name.clone(), fill.trim().to_string());
        return Ok(None);
    }
    let fill = parse_fill(fill, &field)?;
    if let (Some(f), Some(l)) = (b.fixed_len, len) {
        if f != l {
            return Err(usage(format!(
                "--buffer {}: the shader declares {f} cells, not {l}",
                b.name
            )));
        }
    }
    let len = len.or(b.fixed_len).or(fill.list_len());
    if let Some(n) = len {
        config.buffer_len.insert(b.name.clone(), n);
        config
            .args
            .insert(b.name.clone(), fill.cells(n, &field)?.join(","));
        Ok(None)
    } else {
        Ok(Some((b.name.clone(), fill)))
    }
}

/// Cell `k` of buffer `b` (of `cells`) as its member's type: a struct mixing 32-bit types is
/// held as `u32` bits, so an `f32` or `i32` member's cell is shown as that member's value (the
/// same bits); in 2-byte cells (a struct mixing `f16` with 4-byte scalars) an `f16` cell is
/// its half and a 4-byte member's first cell the whole member
/// (`crosslane_kernel::wgsl::fills::member_value`). An undefined part leaves it undefined.
fn as_member(b: &Binding, k: usize, cells: &[Option<KVal>]) -> Option<KVal> {
    let c = cells.get(k).cloned().flatten();
    match b.member_type(k) {
        Some(_) => crosslane_kernel::wgsl::fills::member_value(b, cells, k),
        None => c,
    }
}

/// A cell as JSON or text where the buffer is read as members: the second cell of a 4-byte
/// member in 2-byte cells is no value of its own.
fn is_high_half(b: &Binding, k: usize) -> bool {
    b.member_type(k) == Some(crosslane_kernel::wgsl::lower::HIGH_HALF)
}

/// A cell as JSON: a number in the element type, null where undefined or indeterminate, and a
/// string (`"inf"`, `"-inf"`, `"NaN"`) for a float JSON has no number for (as the kernel
/// trace's buffers write them; `serde_json` would turn it into null, read as undefined).
pub fn cell_json(c: &Option<KVal>) -> serde_json::Value {
    match c {
        None => serde_json::Value::Null,
        Some(KVal::Int {
            ty: Scalar::Bool,
            bits,
        }) => serde_json::Value::Bool(*bits != 0),
        Some(v) => match v.as_int() {
            Some(n) => serde_json::json!(n as i64),
            None => v.as_f64().map_or(serde_json::Value::Null, |x| {
                if x.is_finite() {
                    serde_json::json!(x)
                } else {
                    serde_json::Value::String(format!("{x}"))
                }
            }),
        },
    }
}

fn cell_text(c: &Option<KVal>) -> String {
    match cell_json(c) {
        serde_json::Value::Null => "?".into(),
        serde_json::Value::String(s) => s,
        v => v.to_string(),
    }
}

/// Runs a WGSL shader for `crosslane run`.
///
/// # Errors
/// [`CliError::Usage`] (exit 2) for a shader naga refuses (at line:column), a rule the spec
/// makes a shader-creation error, or a flag that does not parse; [`CliError::Failed`] (exit 1)
/// when a budget stopped the run (naming it; `--gpu` then does not dispatch) or `--gpu` finds
/// a mismatching cell.
///
/// `scenario` is a kernel scenario's launch (blocks, lanes; 0 = not given) and `inputs` its
/// fills, lengths, entry and budgets, which the flags override.
pub fn run(
    args: &RunArgs,
    source: &str,
    scenario: (u32, u32),
    inputs: Option<&crosslane_core::scenario::KernelInputs>,
) -> Result<(), CliError> {
    let given = |n: u32| (n > 0).then_some(n as usize);
    let mut config = LaunchConfig {
        entry: args
            .entry
            .clone()
            .or_else(|| inputs.and_then(|i| i.entry.clone())),
        lanes: args.subgroup_size.or(args.lanes).or(given(scenario.1)),
        grid_dim: Some(
            args.workgroups
                .or(args.blocks)
                .or(given(scenario.0).map(|n| [n, 1, 1]))
                .unwrap_or([1, 1, 1]),
        ),
        ..LaunchConfig::default()
    };
    if let Some(i) = inputs {
        // A scenario's buffer fills and lengths and its budgets (within the CLI's ceilings), as
        // the page applies them; the flags override them.
        config.args.clone_from(&i.args);
        // The scenario's override values (WGSL has no scalar parameters: no name clashes).
        config
            .args
            .extend(i.overrides.iter().map(|(k, v)| (k.clone(), v.clone())));
        config.buffer_len.clone_from(&i.buffer_len);
        config.limits = super::run_args::scenario_limits(&i.budgets, config.limits)?;
    }
    config.limits = limits(args, config.limits)?;
    let at = |e: crosslane_kernel::KernelError| usage(format!("run: {}:{e}", args.input));
    let mut set = Vec::new();
    for o in &args.overrides {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| usage(format!("--override: NAME=VALUE, got `{o}`")))?;
        let name = name.trim().to_string();
        config.args.insert(name.clone(), value.trim().to_string());
        set.push(name);
    }
    let probe = prepare(source, &config).map_err(at)?;
    for name in set {
        let by_id = name.parse::<u16>().is_ok();
        if !by_id && !probe.overrides.contains(&name) {
            return Err(usage(format!(
                "--override: no override `{name}`; the shader declares: {}",
                if probe.overrides.is_empty() {
                    "none".to_string()
                } else {
                    probe.overrides.join(", ")
                }
            )));
        }
    }
    // Saturating: `--workgroups 4294967296,4294967296` must not overflow (the engine refuses
    // the launch against its budgets).
    let threads: usize = probe
        .workgroup_size
        .iter()
        .fold(1usize, |n, &d| n.saturating_mul(d.max(1) as usize));
    let blocks: usize = config
        .grid_dim
        .unwrap_or([1, 1, 1])
        .iter()
        .fold(1usize, |n, &d| n.saturating_mul(d));
    let invocations = threads.saturating_mul(blocks);
    for spec in &args.buffer {
        if let Some((name, fill)) = apply_buffer(spec, &probe.bindings, &mut config)? {
            // The fill is written out cell by cell before the engine sees it: checked against
            // the memory budget first (a buffer is held twice, its fill and its cells, so each
            // may take half), so a huge dispatch allocates nothing.
            let need = (invocations as u64).saturating_mul(budget::size::OPTION_KVAL);
            if need > config.limits.max_memory / 2 {
                return Err(CliError::Failed(format!(
                    "run: memory limit of {} bytes reached by --buffer {name}: {invocations} \
                     cells (one per invocation) take {need} bytes, held twice; raise it with \
                     --max-memory or launch fewer workgroups",
                    config.limits.max_memory
                )));
            }
            let field = format!("buffer {name}");
            let cells = fill.cells(invocations, &field)?;
            config.buffer_len.insert(name.clone(), invocations);
            config.args.insert(name, cells.join(","));
        }
    }
    // The steps are never printed for a shader; `--trace none` keeps none, so a long run is
    // not stopped by the memory its trace takes (as for a C kernel).
    let mode = if args.trace == "none" {
        TraceMode::None
    } else {
        TraceMode::Full
    };
    let mut trace = run_wgsl_traced(source, config.clone(), mode).map_err(at)?;
    let mut gpu = None;
    let mut failed = None;
    // A run a budget or an error stopped has partial buffers: there is nothing to diff a GPU
    // run with, so the shader is not dispatched (and the run exits 1 below, as a C++
    // kernel's does).
    let stopped = matches!(trace.outcome, Some(Outcome::Limit(_) | Outcome::Error(_)));
    if args.gpu && !stopped {
        let (g, mismatch, rerun) = gpu_run(source, &probe, &config, &trace)?;
        if mismatch > 0 {
            failed = Some(mismatch);
        }
        if let Some(t) = rerun {
            // The device's subgroup size is the one the emulator reports ("default
            // to the GPU's size when known").
            trace = t;
        }
        gpu = Some(g);
    }
    let lanes = trace.launch.lanes;
    let mut out = serde_json::json!({
        "entry": probe.entry,
        "workgroup_size": probe.workgroup_size,
        "workgroups": config.grid_dim,
        "subgroup_size": lanes,
        "subgroup_mapping": MAPPING,
        "buffers": buffers_json(&trace, &probe.bindings),
        // Every diagnostic of the parse and the run, merged across invocations and steps.
        "diagnostics": trace.merged_diagnostics,
        "outcome": trace.outcome,
        // The inexact built-ins called, each with the spec's bound a GPU may differ by (the
        // emulator's results are correctly rounded).
        "accuracy": probe.accuracy,
    });
    if let Some(g) = gpu {
        out["gpu"] = g;
    }
    if args.json {
        print_json(&out)?;
    } else {
        print_out(&escape_controls(&render(&out, &trace, &probe.bindings)))?;
    }
    if let Some(Outcome::Limit(hit)) = &trace.outcome {
        return Err(CliError::Failed(format!(
            "run: stopped: {}{}",
            escape_controls(&hit.message()),
            if args.gpu {
                " (the GPU run was not dispatched)"
            } else {
                ""
            }
        )));
    }
    // An error (the memory limit reached by a `var<workgroup>` array, an out-of-range
    // access the engine stops at) ended the run: its buffers are partial, so the status says
    // so, as `run` of a C++ kernel does.
    if let Some(Outcome::Error(e)) = &trace.outcome {
        return Err(CliError::Failed(format!(
            "run: {}:{}{}",
            args.input,
            escape_controls(&e.to_string()),
            if args.gpu {
                " (the GPU run was not dispatched)"
            } else {
                ""
            }
        )));
    }
    match failed {
        Some(n) => Err(CliError::Failed(format!(
            "run --gpu: {n} cell(s) differ from the emulator"
        ))),
        None => Ok(()),
    }
}

#[cfg(not(target_arch = "wasm32"))]
use super::run_wgsl_gpu::run as gpu_run;

#[cfg(target_arch = "wasm32")]
fn gpu_run(
    _: &str,
    _: &crosslane_kernel::wgsl::Prepared,
    _: &LaunchConfig,
    _: &KernelTrace,
) -> Result<(serde_json::Value, usize, Option<KernelTrace>), CliError> {
    Err(CliError::Gpu("run --gpu: no GPU path in this build".into()))
}

fn buffers_json(trace: &KernelTrace, bindings: &[Binding]) -> Vec<serde_json::Value> {
    bindings
        .iter()
        .map(|b| {
            // Padding cells (WGSL § Alignment and Size) are no values: "padding".
            let values: Vec<serde_json::Value> = trace
                .buffer(&b.name)
                .unwrap_or(&[])
                .iter()
                .enumerate()
                .map(|(k, _)| {
                    if b.is_padding(k) {
                        serde_json::json!("padding")
                    } else if is_high_half(b, k) {
                        // Its bits are in the member's value at the cell before.
                        serde_json::json!(crosslane_kernel::wgsl::lower::HIGH_HALF)
                    } else {
                        cell_json(&as_member(b, k, trace.buffer(&b.name).unwrap_or(&[])))
                    }
                })
                .collect();
            serde_json::json!({
                "name": b.name,
                "group": b.group,
                "binding": b.binding,
                "space": b.space,
                "type": b.wgsl_elem,
                "values": values,
            })
        })
        .collect()
}

fn render(out: &serde_json::Value, trace: &KernelTrace, bindings: &[Binding]) -> String {
    let mut s = format!(
        "wgsl {} · @workgroup_size{:?} · workgroups {:?} · subgroup size {} ({})\n",
        out["entry"].as_str().unwrap_or("?"),
        trace.launch.block_dim,
        trace.launch.grid_dim,
        trace.launch.lanes,
        MAPPING
    );
    for b in bindings {
        let cells: Vec<String> = trace
            .buffer(&b.name)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(|(k, _)| {
                if b.is_padding(k) {
                    "pad".to_string()
                } else if is_high_half(b, k) {
                    "hi".to_string()
                } else {
                    cell_text(&as_member(b, k, trace.buffer(&b.name).unwrap_or(&[])))
                }
            })
            .collect();
        // An immediate (`var<immediate>`) has no binding (WGSL spec, Address Spaces).
        let at = if b.space == "immediate" {
            String::new()
        } else {
            format!("@group({}) @binding({}) ", b.group, b.binding)
        };
        s.push_str(&format!(
            "{at}var<{}> {}: {} [{}] = {}\n",
            b.space,
            b.name,
            b.wgsl_elem,
            cells.len(),
            cells.join(" ")
        ));
    }
    for d in &trace.merged_diagnostics {
        s.push_str(&format!(
            "{}:{} {:?}: {}{}{}\n",
            d.line,
            d.col,
            d.level,
            d.message,
            if d.rule.is_empty() {
                String::new()
            } else {
                format!(" [{}]", d.rule)
            },
            if d.count > 1 {
                format!(" ({} times)", d.count)
            } else {
                String::new()
            }
        ));
    }
    if let Some(g) = out.get("gpu") {
        s.push_str(&format!(
            "gpu {} · subgroup size {}\n",
            g["adapter"].as_str().unwrap_or("?"),
            g["subgroup_size"]
        ));
        for b in g["buffers"].as_array().into_iter().flatten() {
            // Cells within their built-in's documented ulp bound count as matches, said so.
            let within = match b["within_ulp"].as_u64() {
                Some(n) if n > 0 => format!(
                    ", {n} match (within {} ulp)",
                    b["within_bound"].as_u64().unwrap_or(0)
                ),
                _ => String::new(),
            };
            s.push_str(&format!(
                "  {}: {} match{within}, {} mismatch, {} indeterminate\n",
                b["name"].as_str().unwrap_or("?"),
                b["match"],
                b["mismatch"],
                b["indeterminate"]
            ));
        }
    }
    s.push_str("(? = undefined or indeterminate; the diagnostics say why)\n");
    s
}
