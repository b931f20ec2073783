//! WGSL compute shaders on the kernel engine: parsed by naga ([`naga`], with naga 30's gaps
//! handled there), checked for `subgroup_uniformity` ([`uniformity`]), and lowered to the same
//! program form as C kernels ([`lower`]) so the same engine steps through them, each step at
//! its WGSL line.
//!
//! Launch: a workgroup is the engine's block (`@workgroup_size`), the dispatch its grid, the
//! subgroup size its warp width (4..=128, a power of two; default 32). Invocations map to
//! subgroups linearly: subgroup = `local_invocation_index / size`, lane = `index % size` (the
//! spec leaves it to the implementation; every known GPU does this for 1-D workgroups; the
//! GPU diff shows a device that differs).

pub mod f16_bitcast;
pub mod fills;
pub mod inherited;
pub mod lower;
pub mod math;
pub mod naga;
pub mod naga_message;
pub mod naga_relax;
pub mod op_mix;
pub mod op_mix_text;
pub mod override_eval;
pub mod scan;
pub mod stmt_diagnostics;
pub mod uniformity;
mod walk;

use std::collections::HashMap;

pub use lower::{Binding, Padding};

use super::exec::{Executor, KernelTrace, LaunchConfig};
use super::parser::Parsed;
use super::trace::TraceMode;
use super::{KernelDiagnostic, KernelError};
use crosslane_core::op::Dialect;

/// Whether a kernel source is WGSL rather than C: an attribute (`@compute`, `@group`,
/// `@workgroup_size`) or a WGSL declaration form (`var<`, `enable `) at the start of a line.
pub fn is_wgsl(src: &str) -> bool {
    src.contains("@compute")
        || src.contains("@workgroup_size")
        || src.contains("@group(")
        || src
            .lines()
            .map(str::trim_start)
            .any(|l| l.starts_with("var<") || l.starts_with("enable ") || l.starts_with("fn "))
}

/// A shader ready to run: the lowered program and what the page and the CLI show about it.
pub struct Prepared {
    /// The program with the parse diagnostics (gaps, uniformity) for the engine.
    pub parsed: Parsed,
    /// The entry point's name.
    pub entry: String,
    /// `@workgroup_size`.
    pub workgroup_size: [u32; 3],
    /// The buffers, by `@group`/`@binding`.
    pub bindings: Vec<Binding>,
    /// The text naga parsed (the user's, with `enable subgroups;` blanked and the elect helper
    /// appended): what a native GPU run compiles.
    pub naga_text: String,
    /// Whether the user wrote `enable subgroups;`.
    pub enables_subgroups: bool,
    /// The names of the shader's `override` declarations (set with `--override NAME=VALUE`).
    pub overrides: Vec<String>,
    /// The inexact built-ins the shader calls, with the spec's accuracy bound of each.
    pub accuracy: Vec<math::Bound>,
    /// The override values the launch gave (by name or `@id`), as the WebGPU API takes them
    /// (`GPUProgrammableStage.constants`: doubles), for a native GPU run of the same shader.
    pub constants: Vec<(String, f64)>,
}

/// Parses, checks and lowers `source` for a launch of `config` (its `entry`, `lanes`,
/// `grid_dim`, `buffer_len` and `limits` are read).
///
/// # Errors
/// [`KernelError`] at naga's line:column for a shader naga refuses; at the call for a
/// `subgroup_uniformity` error (WGSL spec, Uniformity Analysis) or a non-const
/// `subgroupBroadcast` id; at the construct for one the engine does not emulate.
pub fn prepare(source: &str, config: &LaunchConfig) -> Result<Prepared, KernelError> {
    if source.len() > config.limits.max_tokens.saturating_mul(16) as usize {
        return Err(KernelError::new(
            1,
            1,
            "the shader is longer than the token budget allows; raise it with --max-tokens",
        ));
    }
    let mut shader = naga::parse_limited(source, config.limits.depth(), config.limits.max_tokens)?;
    // `override` values come with the launch's arguments (`--override NAME=VALUE`, a
    // scenario's `args`): WGSL has no scalar parameters, so the names cannot clash.
    let overrides = override_names(&shader.module);
    shader.overrides = config
        .args
        .iter()
        .filter(|(k, _)| {
            overrides
                .iter()
                .any(|(n, id)| n == *k || id.as_deref() == Some(k.as_str()))
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    shader.override_values = override_eval::evaluate(&shader.module, &shader.overrides);
    let lanes = config.lanes.unwrap_or(32);
    let idx = shader
        .module
        .entry_points
        .iter()
        .position(|e| {
            e.stage == ::naga::ShaderStage::Compute
                && config.entry.as_deref().is_none_or(|n| n == e.name)
        })
        .ok_or_else(|| match &config.entry {
            Some(n) => KernelError::new(
                1,
                1,
                format!(
                    "no compute entry point `{n}`; the shader has: {}",
                    lower::compute_entries(&shader.module).join(", ")
                ),
            ),
            None => KernelError::new(1, 1, "no `@compute` entry point in the shader"),
        })?;
    // `@workgroup_size(WG)` with an override: its value at pipeline creation.
    if let Some(ws) = shader.module.entry_points[idx].workgroup_size_overrides {
        for (d, e) in ws.iter().enumerate() {
            let Some(e) = e else { continue };
            let n = shader
                .override_values
                .count(*e)
                .filter(|&n| (1..=u64::from(u32::MAX)).contains(&n))
                .ok_or_else(|| {
                    KernelError::new(
                        1,
                        1,
                        "@workgroup_size names an override whose value the emulator cannot \
                         work out (set it with --override NAME=VALUE)",
                    )
                })?;
            shader.module.entry_points[idx].workgroup_size[d] = n as u32;
        }
    }
    let ep = &shader.module.entry_points[idx];
    let threads: usize = ep
        .workgroup_size
        .iter()
        .fold(1usize, |n, &d| n.saturating_mul(d.max(1) as usize));
    let blocks: usize = config
        .grid_dim
        .unwrap_or([1, 1, 1])
        .iter()
        .fold(1usize, |n, &d| n.saturating_mul(d.max(1)));
    let default_len = threads.saturating_mul(blocks);
    let mut lens: HashMap<String, usize> = HashMap::new();
    for g in shader.module.global_variables.iter().map(|(_, g)| g) {
        if let Some(name) = &g.name {
            // Lengths are given in cells; a vecN element is N cells (`arrayLength` counts
            // elements).
            let inner = &shader.module.types[g.ty].inner;
            let (head, comps) = match lower::runtime_tail(&shader.module, inner) {
                Some((h, s)) => (h as usize, s.max(1) as usize),
                None => (0, lower::components(&shader.module, g.ty).max(1) as usize),
            };
            let n = config
                .buffer_len
                .get(name)
                .map_or(default_len, |&c| c.saturating_sub(head) / comps);
            lens.insert(name.clone(), n);
        }
    }
    let mut diagnostics: Vec<KernelDiagnostic> = Vec::new();
    for (line, col, level, message, rule) in &shader.notes {
        diagnostics.push(KernelDiagnostic {
            line: *line,
            col: *col,
            level: *level,
            message: message.clone(),
            rule: rule.clone(),
        });
    }
    for f in uniformity::check(&shader, idx) {
        let rule = if f.barrier {
            uniformity::BARRIER_RULE
        } else {
            uniformity::RULE
        };
        if f.level == crosslane_core::result::Level::Error {
            return Err(KernelError::new(
                f.line,
                f.col,
                format!("{} [{rule}]", f.message),
            ));
        }
        diagnostics.push(KernelDiagnostic {
            line: f.line,
            col: f.col,
            level: f.level,
            message: f.message,
            rule: rule.to_string(),
        });
    }
    // Another entry point of the module (a second `@compute` kernel of a multi-pass file, a
    // `@fragment` one: subgroup built-ins are allowed there, WGSL spec, "Subgroup Built-in
    // Functions"): the module is valid only if its subgroup calls and barriers are in uniform
    // control flow too (a uniformity failure is a shader-creation error, WGSL spec §
    // Uniformity Analysis; Tint checks every entry point, so the browser creates no pipeline
    // from the module, whichever entry point it names).
    for (k, e) in shader.module.entry_points.iter().enumerate() {
        if k == idx || e.stage == ::naga::ShaderStage::Vertex {
            continue;
        }
        if let Some(f) = uniformity::check(&shader, k)
            .into_iter()
            .find(|f| f.level == crosslane_core::result::Level::Error)
        {
            let rule = if f.barrier {
                uniformity::BARRIER_RULE
            } else {
                uniformity::RULE
            };
            return Err(KernelError::new(
                f.line,
                f.col,
                format!(
                    "{} (in the @{} entry point `{}`: the module is refused whole, whichever \
                     entry point runs) [{rule}]",
                    f.message,
                    if e.stage == ::naga::ShaderStage::Fragment {
                        "fragment"
                    } else {
                        "compute"
                    },
                    e.name
                ),
            ));
        }
    }
    let accuracy = math::bounds(&shader.module);
    let lowered = lower::lower(&shader, Some(&ep.name), &lens, config.limits.depth(), lanes)?;
    Ok(Prepared {
        parsed: Parsed {
            program: lowered.program,
            diagnostics,
            // The entry point is chosen by name (`--entry`); no template instantiation.
            entry: None,
            // WGSL has no preprocessor.
            preprocess: Default::default(),
        },
        entry: lowered.entry,
        workgroup_size: lowered.workgroup_size,
        bindings: lowered.bindings,
        naga_text: shader.text,
        enables_subgroups: shader.enables_subgroups,
        overrides: overrides.into_iter().map(|(n, _)| n).collect(),
        constants: shader
            .overrides
            .iter()
            .filter_map(|(k, v)| {
                let x = match v.trim() {
                    "true" => 1.0,
                    "false" => 0.0,
                    t => t.parse().ok()?,
                };
                Some((k.clone(), x))
            })
            .collect(),
        accuracy,
    })
}

/// The shader's `@compute` entry points by name, in source order: the first is the one a launch
/// without `entry` runs ([`prepare`]). Empty when naga refuses the text (the launch's error says
/// why). The page's kernel picker lists them (WGSL spec, "Entry Point Declaration").
pub fn compute_entry_points(source: &str, config: &LaunchConfig) -> Vec<String> {
    let limits = &config.limits;
    if source.len() > limits.max_tokens.saturating_mul(16) as usize {
        return Vec::new();
    }
    naga::parse_limited(source, limits.depth(), limits.max_tokens)
        .map_or_else(|_| Vec::new(), |s| lower::compute_entries(&s.module))
}

/// Each `override` declaration's name and `@id` (as text).
fn override_names(module: &::naga::Module) -> Vec<(String, Option<String>)> {
    module
        .overrides
        .iter()
        .map(|(_, o)| {
            (
                o.name.clone().unwrap_or_default(),
                o.id.map(|i| i.to_string()),
            )
        })
        .collect()
}

/// The launch config the engine runs a prepared shader with: the WGSL dialect, the shader's
/// workgroup size as the block, each fixed-size buffer's own length.
pub fn engine_config(p: &Prepared, config: &LaunchConfig) -> LaunchConfig {
    let mut c = config.clone();
    c.entry = Some(p.entry.clone());
    // Why WGSL: the picker's (or the CLI's) choice of WGSL itself, else the source, with the
    // entry point that runs (a choice of another dialect does not apply to a WGSL source).
    if config.dialect != Some(Dialect::Wgsl) || config.dialect_from.is_none() {
        c.dialect_from = Some(format!(
            "inferred from the source: a WGSL compute shader, entry point `{}`",
            p.entry
        ));
    }
    c.dialect = Some(Dialect::Wgsl);
    c.lanes = Some(config.lanes.unwrap_or(32));
    c.block_dim = Some(p.workgroup_size.map(|d| d.max(1) as usize));
    // The launch's `override` values (by name or `@id`) were taken by `prepare`; they name no
    // parameter of the entry point, and the engine would warn that they are unused.
    c.args.retain(|k, _| {
        !p.overrides.iter().any(|n| n == k) && !p.constants.iter().any(|(n, _)| n == k)
    });
    let threads: usize = p
        .workgroup_size
        .iter()
        .fold(1usize, |n, &d| n.saturating_mul(d.max(1) as usize));
    let blocks: usize = config
        .grid_dim
        .unwrap_or([1, 1, 1])
        .iter()
        .fold(1usize, |n, &d| n.saturating_mul(d.max(1)));
    for b in &p.bindings {
        if let Some(n) = b.fixed_len {
            c.buffer_len.insert(b.name.clone(), n);
        } else if (b.components > 1 || b.head > 0) && !c.buffer_len.contains_key(&b.name) {
            // A runtime-sized array of vecN (or structs): one element per invocation, N
            // cells each, after a struct's other members.
            let n = threads
                .saturating_mul(blocks)
                .saturating_mul(b.components as usize)
                .saturating_add(b.head as usize);
            c.buffer_len.insert(b.name.clone(), n);
        }
    }
    c
}

/// An [`Executor`] over a WGSL shader (run it in slices, as the page does).
///
/// # Errors
/// As [`prepare`], and the engine's launch errors ([`Executor::from_parsed`]).
pub fn executor(source: &str, config: LaunchConfig) -> Result<Executor, KernelError> {
    let p = prepare(source, &config)?;
    let mut c = engine_config(&p, &config);
    // A struct buffer mixing 32-bit types: each fill value read as its member's type.
    fills::member_fills(&p.bindings, &mut c)?;
    Executor::from_parsed(source, p.parsed, c)
}

/// Runs a WGSL compute shader to the end (bounded by `config.limits`), recording every step.
///
/// # Errors
/// As [`executor`].
pub fn run_wgsl(source: &str, config: LaunchConfig) -> Result<KernelTrace, KernelError> {
    run_wgsl_traced(source, config, TraceMode::Full)
}

/// [`run_wgsl`] recording `mode`: [`TraceMode::None`] keeps no steps (the outcome, the
/// diagnostics, the final memory and the statistics only), so a long shader's run is not
/// stopped by the memory its trace would take (`crosslane run FILE.wgsl --trace none`, as for
/// a C kernel, `crate::run_kernel_traced`).
///
/// # Errors
/// As [`executor`].
pub fn run_wgsl_traced(
    source: &str,
    config: LaunchConfig,
    mode: TraceMode,
) -> Result<KernelTrace, KernelError> {
    let mut ex = executor(source, config)?.with_trace(mode);
    while !ex.is_finished() {
        ex.run_for(4096);
    }
    Ok(ex.into_trace())
}
