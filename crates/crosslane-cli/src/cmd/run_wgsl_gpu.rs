//! `crosslane run FILE.wgsl --gpu`: the same shader through wgpu (lavapipe in CI: subgroup size
//! 8), every buffer read back and diffed with the emulator run at the device's subgroup size.

use crosslane_gpu::native::NativeGpu;
use crosslane_gpu::shader::{bits_text, diff, upload, CellVerdict};
use crosslane_kernel::wgsl::{run_wgsl_traced, Prepared};
use crosslane_kernel::{KernelTrace, LaunchConfig};

use crate::error::CliError;

/// Most mismatching cells, and most cells matching within their ulp bound, listed per buffer in
/// the JSON (the counts are complete).
const LISTED: usize = 16;

/// Runs the shader on the native device; returns the `"gpu"` JSON object, the number of
/// mismatching cells, and the emulator's run at the device's subgroup size when that is not
/// the size of `trace`.
///
/// # Errors
/// [`CliError::Gpu`] (exit 3) without a device or when the device refuses the shader;
/// [`CliError::Usage`] when the emulator cannot run at the device's subgroup size.
pub fn run(
    source: &str,
    prepared: &Prepared,
    config: &LaunchConfig,
    trace: &KernelTrace,
) -> Result<(serde_json::Value, usize, Option<KernelTrace>), CliError> {
    let gpu = NativeGpu::new().map_err(|e| CliError::Gpu(format!("run --gpu: {e}")))?;
    let facts = gpu.facts().clone();
    if !facts.subgroups && prepared.naga_text.contains("subgroup") {
        return Err(CliError::Gpu(format!(
            "run --gpu: {} has no subgroup support",
            facts.adapter
        )));
    }
    // The device's subgroup size: its only one, else the one asked for when it is in range.
    let (min, max) = (
        facts.subgroup_min_size as usize,
        facts.subgroup_max_size as usize,
    );
    let asked = trace.launch.lanes;
    let size = if min == max && min > 0 {
        min
    } else if (min..=max).contains(&asked) {
        asked
    } else {
        max.max(4)
    };
    let rerun = if size == asked {
        None
    } else {
        let mut c = config.clone();
        c.lanes = Some(size);
        // Only its buffers and diagnostics are shown: no steps kept.
        Some(
            run_wgsl_traced(source, c, crosslane_kernel::TraceMode::None)
                .map_err(|e| CliError::Usage(format!("run --gpu: {e}")))?,
        )
    };
    let trace = rerun.as_ref().unwrap_or(trace);
    // Only the buffers the entry point uses: the pipeline's automatic layout has no slot for
    // the others (WebGPU spec, "default pipeline layout"), so binding them is an error.
    let used: Vec<crosslane_kernel::wgsl::Binding> = prepared
        .bindings
        .iter()
        .filter(|b| b.used)
        .cloned()
        .collect();
    let buffers = upload(&used, &trace.initial_memory);
    let dispatch = config.grid_dim.unwrap_or([1, 1, 1]).map(|d| d as u32);
    let read = gpu
        .run_shader_with(
            &prepared.naga_text,
            &prepared.entry,
            &buffers,
            dispatch,
            &prepared.constants,
        )
        .map_err(|e| CliError::Gpu(format!("run --gpu: {e}")))?;
    let mut mismatches = 0;
    let mut out = Vec::new();
    for (b, bytes) in used.iter().zip(&read) {
        let emu = trace.buffer(&b.name).unwrap_or(&[]);
        let mut d = diff(&b.name, emu, bytes, b.elem);
        // Padding cells hold no value (WGSL § Alignment and Size): a device may write them
        // when it stores a whole struct; they are not compared.
        let mut padding = 0;
        for (k, cell) in d.cells.iter_mut().enumerate() {
            if b.is_padding(k) && cell.0 == CellVerdict::Mismatch {
                // Any value is allowed there, as for an indeterminate cell.
                cell.0 = CellVerdict::Indeterminate;
                d.mismatched = d.mismatched.saturating_sub(1);
                d.indeterminate += 1;
                padding += 1;
            }
        }
        mismatches += d.mismatched;
        let listed: Vec<serde_json::Value> = d
            .cells
            .iter()
            .enumerate()
            .filter(|(_, (v, _))| *v == CellVerdict::Mismatch)
            .take(LISTED)
            .map(|(k, (_, bits))| {
                serde_json::json!({
                    "index": k,
                    "emulator": super::run_wgsl::cell_json(&emu[k]),
                    "gpu": bits_text(*bits, b.elem),
                })
            })
            .collect();
        // Cells whose bits differ within the bound their inexact built-in documents.
        let within: Vec<serde_json::Value> = d
            .cells
            .iter()
            .enumerate()
            .filter_map(|(k, (v, bits))| match v {
                CellVerdict::Within { ulp, bound } => Some(serde_json::json!({
                    "index": k,
                    "verdict": v.text(),
                    "ulp": ulp,
                    "bound_ulp": bound,
                    "emulator": super::run_wgsl::cell_json(&emu[k]),
                    "gpu": bits_text(*bits, b.elem),
                })),
                _ => None,
            })
            .take(LISTED)
            .collect();
        let mut j = serde_json::to_value(&d).unwrap_or_default();
        j["mismatches"] = serde_json::Value::Array(listed);
        j["within"] = serde_json::Value::Array(within);
        j["padding_not_compared"] = serde_json::json!(padding);
        out.push(j);
    }
    let note = if prepared.enables_subgroups {
        "naga 30 (wgpu) refuses `enable subgroups;`: it was blanked for the device, as for the emulator"
    } else {
        "the shader ran as written"
    };
    Ok((
        serde_json::json!({
            "adapter": facts.adapter,
            "subgroup_size": size,
            "subgroup_min_size": min,
            "subgroup_max_size": max,
            "note": note,
            "buffers": out,
        }),
        mismatches,
        rerun,
    ))
}
