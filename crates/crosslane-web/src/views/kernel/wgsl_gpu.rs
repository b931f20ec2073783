//! "Run on this GPU" in the kernel view, for a WGSL compute shader: the same shader,
//! buffers and dispatch through the browser's WebGPU (`crosslane_gpu::web`, the raw web-sys
//! path that requests `subgroups`), every buffer read back and diffed cell by cell with the
//! emulator run at the subgroup size the device shows (`crosslane_gpu::shader`): match,
//! mismatch, or indeterminate by the spec. Shows the adapter, its subgroup min/max and the
//! size a probe dispatch observed.
//!
//! Browsers refuse subgroup built-ins without `enable subgroups;`; the device gets the text naga
//! ran (the directive blanked, naga 30 refuses it) with `enable subgroups;` put back in front,
//! and the panel says so. Kept out of `kernel.rs` (which runs the emulator in its own way): it
//! reads the source and the launch fields by id and runs its own emulator pass.

use std::rc::Rc;

use crosslane_core::fill::parse_fill;
use crosslane_gpu::shader::{bits_text, diff, upload, CellVerdict, ShaderBuffer};
use crosslane_gpu::web::WebGpu;
use crosslane_gpu::GpuError;
use crosslane_kernel::wgsl::{is_wgsl, prepare, run_wgsl};
use crosslane_kernel::{LaunchConfig, Limits};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, HtmlTextAreaElement};

use crate::dom::{by_id, document, Js};
use crate::kit::{self, Html, State};

/// Cells drawn per buffer (the counts cover every cell).
const SHOWN: usize = 256;

/// The probe that reads the device's subgroup size as a shader sees it.
const PROBE: &str = "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(64)\nfn main(@builtin(subgroup_size) s: u32, @builtin(local_invocation_index) i: u32) {\n  if (i == 0u) { o[0] = s; }\n}\n";

/// The panel's state: the device once opened (kept for the next run).
type Device = State<Option<Rc<WebGpu>>>;

/// Adds the panel to the kernel view's grid, a row across both columns under them, and wires
/// its button. The panel is shown only while the source is a WGSL compute shader (the only
/// kernels it runs on the GPU); for CUDA, HIP, Ascend C and the other dialects it is hidden.
///
/// # Errors
/// A DOM call that fails.
pub fn mount() -> Js<()> {
    let doc = document()?;
    let section: HtmlElement = by_id(&doc, "view-kernel")?;
    let panel = doc.create_element("section")?;
    panel.set_id("kernel-wgsl-gpu");
    // A card like the view's other panels; its colours are the theme's (web/kernel.css).
    panel.set_class_name("kernel-panel kernel-wgsl-gpu");
    kit::set_html(
        &panel,
        &Html::from_static(
            r#"<h2>WGSL on this GPU</h2>
<p class="hint">For a WGSL compute shader: runs it through this browser's WebGPU with the buffers
below (length and fill per binding) and the dispatch (<em>blocks</em> = workgroups in x), reads
every buffer back and diffs each cell with the emulator, run on the same buffers at the subgroup
size the GPU shows: match, mismatch, or indeterminate by the spec.</p>
<table id="kernel-gpu-bindings" class="kernel-gpu-bindings"></table>
<button type="button" id="kernel-gpu-run" class="button">Run on this GPU</button>
<span id="kernel-gpu-status" role="status"></span>
<div id="kernel-gpu-result"></div>"#,
        ),
    );
    panel.set_attribute("hidden", "")?;
    // Inside the view's grid (web/kernel.css: `grid-column: 1 / -1`), so it has the cards'
    // margins at every width.
    match section.query_selector(".kernel-layout")? {
        Some(grid) => grid.append_child(&panel)?,
        None => section.append_child(&panel)?,
    };
    let button: HtmlElement = by_id(&doc, "kernel-gpu-run")?;
    let gpu: Device = State::new(None);
    kit::listen(&button, "click", move |_| {
        let gpu = gpu.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = run(&gpu).await {
                status(&e, "error");
            }
        });
    })?;
    // The bindings follow the source: typed, pasted, or picked from the examples. The kernel
    // view's own listener puts a picked example's text in the editor; the table is rebuilt
    // after every listener of the event has run (a zero timeout), so the order in which the
    // listeners were added does not matter.
    for (id, event) in [("kernel-source", "input"), ("kernel-examples", "change")] {
        let el: HtmlElement = by_id(&doc, id)?;
        kit::listen(&el, event, |_| {
            kit::after_event(|| {
                let _ = refresh_bindings();
            });
        })?;
    }
    refresh_bindings()
}

/// The length and fill typed for each binding: (name, length, fill text).
fn typed_bindings(doc: &web_sys::Document) -> Vec<(String, Option<usize>, String)> {
    let mut out = Vec::new();
    let Ok(list) = doc.query_selector_all("#kernel-gpu-bindings input[data-fill]") else {
        return out;
    };
    for k in 0..list.length() {
        let Some(fill) = list
            .item(k)
            .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
        else {
            continue;
        };
        let name = fill.get_attribute("data-fill").unwrap_or_default();
        let len = doc
            .query_selector(&format!(
                "#kernel-gpu-bindings input[data-len][data-row=\"{k}\"]"
            ))
            .ok()
            .flatten()
            .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
            .and_then(|i| i.value().trim().parse::<usize>().ok());
        out.push((name, len, fill.value()));
    }
    out
}

/// Rebuilds the bindings table from the source: each `var<storage>`/`var<uniform>` with its
/// `@group`/`@binding`, type, length and fill (what was typed is kept for a name that remains).
fn refresh_bindings() -> Js<()> {
    let doc = document()?;
    let table: HtmlElement = by_id(&doc, "kernel-gpu-bindings")?;
    let source = by_id::<HtmlTextAreaElement>(&doc, "kernel-source")?.value();
    let wgsl = is_wgsl(&source);
    if let Ok(panel) = by_id::<HtmlElement>(&doc, "kernel-wgsl-gpu") {
        panel.set_hidden(!wgsl);
    }
    let bindings = if wgsl {
        prepare(&source, &LaunchConfig::default())
            .map(|p| p.bindings)
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let typed = typed_bindings(&doc);
    let mut html = Html::new();
    if !bindings.is_empty() {
        html.el("thead").with(|h| {
            h.el("tr").with(|h| {
                for col in [
                    "binding",
                    "buffer",
                    "type",
                    "length",
                    "fill (index, a number, i*K+C, a list, random:SEED)",
                ] {
                    h.leaf("th", col);
                }
            });
        });
    }
    let mut body = Html::new();
    for (k, b) in bindings.iter().enumerate() {
        let old = typed.iter().find(|(n, _, _)| *n == b.name);
        let fill = old.map_or("index".to_string(), |(_, _, f)| f.clone());
        body.el("tr").attr("data-binding", &b.name).with(|h| {
            h.leaf(
                "td",
                format_args!("@group({}) @binding({})", b.group, b.binding),
            );
            h.leaf("td", &b.name);
            h.leaf("td", format_args!("var<{}> {}", b.space, b.wgsl_elem));
            h.el("td").with(|h| {
                let input = h
                    .el("input")
                    .attr("data-len", "")
                    .attr("data-row", k)
                    .attr("size", 8);
                match b.fixed_len {
                    Some(n) => input.attr("value", n).flag("disabled", true).void(),
                    None => input
                        .attr(
                            "value",
                            old.and_then(|(_, l, _)| *l)
                                .map_or(String::new(), |l| l.to_string()),
                        )
                        .attr("placeholder", "one per invocation")
                        .void(),
                }
            });
            h.el("td").with(|h| {
                h.el("input")
                    .attr("data-fill", &b.name)
                    .attr("value", &fill)
                    .attr("size", 24)
                    .void();
            });
        });
    }
    if !bindings.is_empty() {
        html.el("tbody").html(&body);
    }
    kit::set_html(&table, &html);
    Ok(())
}

/// Shows or hides the panel for `source` (the kernel view calls it after every frame: a link
/// or Back puts a source in the editor without an `input` event), rebuilding the bindings when
/// the source becomes or stops being WGSL.
pub fn follow(source: &str) {
    let Ok(doc) = document() else {
        return;
    };
    let Ok(panel) = by_id::<HtmlElement>(&doc, "kernel-wgsl-gpu") else {
        return;
    };
    if panel.hidden() == is_wgsl(source) {
        let _ = refresh_bindings();
    }
}

fn status(text: &str, state: &str) {
    if let Ok(doc) = document() {
        if let Ok(el) = by_id::<HtmlElement>(&doc, "kernel-gpu-status") {
            el.set_text_content(Some(text));
            let _ = el.set_attribute("data-state", state);
        }
    }
}

async fn device(gpu: &Device) -> Result<Rc<WebGpu>, GpuError> {
    if let Some(g) = gpu.get().and_then(|g| g.clone()) {
        return Ok(g);
    }
    let g = Rc::new(WebGpu::open().await?);
    gpu.update(|s| *s = Some(g.clone()));
    Ok(g)
}

fn field(doc: &web_sys::Document, id: &str) -> Option<usize> {
    by_id::<HtmlInputElement>(doc, id)
        .ok()
        .and_then(|i| i.value().trim().parse::<usize>().ok())
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

async fn run(device_state: &Device) -> Result<(), String> {
    let doc = document().map_err(|e| format!("{e:?}"))?;
    let source = by_id::<HtmlTextAreaElement>(&doc, "kernel-source")
        .map_err(|e| format!("{e:?}"))?
        .value();
    if !is_wgsl(&source) {
        status(
            "Run on this GPU takes a WGSL compute shader; this source is a C kernel",
            "error",
        );
        return Ok(());
    }
    if let Ok(result) = by_id::<HtmlElement>(&doc, "kernel-gpu-result") {
        kit::clear(&result);
        let _ = result.remove_attribute("data-verdict");
    }
    status("opening WebGPU…", "running");
    let gpu = device(device_state).await.map_err(err)?;
    let facts = gpu.facts().clone();
    let observed = if facts.subgroups {
        let probe = ShaderBuffer {
            name: "o".into(),
            group: 0,
            binding: 0,
            uniform: false,
            elem: crosslane_kernel::ValTy::scalar(crosslane_kernel::Scalar::U32),
            bytes: vec![0; 4],
            used: true,
        };
        let out = gpu
            .run_shader(PROBE, "main", &[probe], [1, 1, 1])
            .await
            .map_err(err)?;
        out.first()
            .and_then(|b| b.get(..4))
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    } else {
        None
    };
    let size = observed
        .filter(|s| s.is_power_of_two() && (4..=128).contains(s))
        .or_else(|| field(&doc, "kernel-lanes"))
        .unwrap_or(32);
    let blocks = field(&doc, "kernel-blocks").unwrap_or(1).clamp(1, 65_536);
    let config = LaunchConfig {
        lanes: Some(size),
        grid_dim: Some([blocks, 1, 1]),
        limits: Limits {
            max_work: 2_000_000,
            max_memory: 128 << 20,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    status("running the emulator…", "running");
    let mut config = config;
    let probe = prepare(&source, &config).map_err(err)?;
    let threads: usize = probe
        .workgroup_size
        .iter()
        .map(|&d| d.max(1) as usize)
        .product();
    let invocations = threads.saturating_mul(blocks);
    for (name, len, fill) in typed_bindings(&doc) {
        let Some(b) = probe.bindings.iter().find(|b| b.name == name) else {
            continue;
        };
        let field = format!("buffer {name}");
        let parsed =
            parse_fill(&fill, &field).map_err(|e| format!("{}: {}", e.field, e.message))?;
        let n = b
            .fixed_len
            .or(len)
            .or(parsed.list_len())
            // One element per invocation; a vecN element is N cells; a struct's members
            // before its runtime-sized array come first.
            .unwrap_or(
                invocations
                    .saturating_mul(b.components.max(1) as usize)
                    .saturating_add(b.head as usize),
            )
            .min(1 << 20);
        let cells = parsed
            .cells(n, &field)
            .map_err(|e| format!("{}: {}", e.field, e.message))?;
        config.buffer_len.insert(name.clone(), n);
        config.args.insert(name, cells.join(","));
    }
    let prepared = prepare(&source, &config).map_err(err)?;
    let trace = run_wgsl(&source, config.clone()).map_err(err)?;
    let uses_subgroups = source.contains("subgroup") || source.contains("quad");
    if uses_subgroups && !facts.subgroups {
        status(
            &format!(
                "{} has no `subgroups` feature: the shader cannot run here",
                facts.adapter
            ),
            "error",
        );
        return Ok(());
    }
    let text = if uses_subgroups {
        format!("enable subgroups;\n{}", prepared.naga_text)
    } else {
        prepared.naga_text.clone()
    };
    let buffers = upload(&prepared.bindings, &trace.initial_memory);
    status("running on the GPU…", "running");
    let read = gpu
        .run_shader(&text, &prepared.entry, &buffers, [blocks as u32, 1, 1])
        .await
        .map_err(err)?;
    let mut html = Html::new();
    html.el("p").attr("id", "kernel-gpu-device").text(format_args!(
        "{}{} · subgroup size min {}, max {} · observed {} · emulator at {size} · {blocks} workgroup(s){}",
        facts.adapter,
        if facts.is_fallback {
            " (fallback adapter)"
        } else {
            ""
        },
        facts.subgroup_min_size,
        facts.subgroup_max_size,
        observed.map_or("—".to_string(), |o| o.to_string()),
        if uses_subgroups && !prepared.enables_subgroups {
            " · `enable subgroups;` added for the browser"
        } else {
            ""
        },
    ));
    let mut mismatches = 0;
    let mut rows = Html::new();
    for (b, bytes) in prepared.bindings.iter().zip(&read) {
        let emu = trace.buffer(&b.name).unwrap_or(&[]);
        let d = diff(&b.name, emu, bytes, b.elem);
        mismatches += d.mismatched;
        let mut cells = Html::new();
        for (k, (v, bits)) in d.cells.iter().enumerate().take(SHOWN) {
            let class = match v {
                CellVerdict::Match | CellVerdict::Within { .. } => "match",
                CellVerdict::Mismatch => "mismatch",
                CellVerdict::Indeterminate => "indeterminate",
            };
            let verdict = v.text();
            let emu_text = match &emu[k] {
                None => "undefined or indeterminate (any value is allowed)".to_string(),
                Some(c) => c
                    .as_int()
                    .map(|n| n.to_string())
                    .or_else(|| c.as_f64().map(|x| x.to_string()))
                    .unwrap_or_else(|| "?".into()),
            };
            cells
                .el("span")
                .attr("class", format_args!("cell {class}"))
                .attr(
                    "title",
                    format_args!("[{k}] {verdict}; emulator: {emu_text}"),
                )
                .text(bits_text(*bits, b.elem));
            cells.push_text(" ");
        }
        if d.cells.len() > SHOWN {
            cells.push_text(format_args!("… {} more", d.cells.len() - SHOWN));
        }
        rows.el("tr").attr("data-buffer", &b.name).with(|h| {
            h.leaf("td", &b.name);
            if d.within_ulp > 0 {
                h.leaf(
                    "td",
                    format_args!(
                        "{} + {} within {} ulp",
                        d.matched, d.within_ulp, d.within_bound
                    ),
                );
            } else {
                h.leaf("td", d.matched);
            }
            h.leaf("td", d.mismatched);
            h.leaf("td", d.indeterminate);
            h.el("td").attr("class", "cells").html(&cells);
        });
    }
    html.el("table").attr("class", "kernel-gpu-diff").with(|h| {
        h.el("thead").with(|h| {
            h.el("tr").with(|h| {
                for col in [
                    "buffer",
                    "match",
                    "mismatch",
                    "indeterminate",
                    "cells (GPU value; hover for the emulator's)",
                ] {
                    h.leaf("th", col);
                }
            });
        });
        h.el("tbody").html(&rows);
    });
    let result: HtmlElement = by_id(&doc, "kernel-gpu-result").map_err(|e| format!("{e:?}"))?;
    kit::set_html(&result, &html);
    let verdict = if mismatches == 0 { "match" } else { "mismatch" };
    let _ = result.set_attribute("data-verdict", verdict);
    status(
        &if mismatches == 0 {
            format!(
                "every cell of {} buffer(s) agrees with the emulator",
                read.len()
            )
        } else {
            format!("{mismatches} cell(s) differ from the emulator")
        },
        "done",
    );
    Ok(())
}
