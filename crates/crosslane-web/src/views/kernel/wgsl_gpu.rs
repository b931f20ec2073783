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
//!
//! The page's own module has no WGSL front end: the bindings table is built from the worker's
//! frames ([`crate::worker::protocol::Frame::wgsl_bindings`], after the editor's debounce, never
//! per keystroke), and "Run on this GPU" runs in the kernel engine module (`engine` feature),
//! which the page imports on the first click (the file the worker already downloaded, so it
//! comes from the HTTP cache) and whose `kernel_gpu_run` export does the whole run.

use std::cell::RefCell;
#[cfg(feature = "engine")]
use std::rc::Rc;

#[cfg(feature = "engine")]
use crosslane_core::fill::parse_fill;
#[cfg(feature = "engine")]
use crosslane_gpu::shader::{bits_text, diff, upload, CellVerdict, ShaderBuffer};
#[cfg(feature = "engine")]
use crosslane_gpu::web::WebGpu;
#[cfg(feature = "engine")]
use crosslane_gpu::GpuError;
#[cfg(feature = "engine")]
use crosslane_kernel::wgsl::{is_wgsl, prepare, run_wgsl};
#[cfg(feature = "engine")]
use crosslane_kernel::{LaunchConfig, Limits};
use wasm_bindgen::JsCast;
#[cfg(feature = "engine")]
use web_sys::HtmlTextAreaElement;
use web_sys::{HtmlElement, HtmlInputElement};

use crate::dom::{by_id, document, Js};
#[cfg(feature = "engine")]
use crate::kit::State;
use crate::kit::{self, Html};
use crate::worker::protocol::GpuBinding;

/// Cells drawn per buffer (the counts cover every cell).
const SHOWN: usize = 256;

#[cfg(feature = "engine")]
/// The probe that reads the device's subgroup size as a shader sees it.
const PROBE: &str = "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(64)\nfn main(@builtin(subgroup_size) s: u32, @builtin(local_invocation_index) i: u32) {\n  if (i == 0u) { o[0] = s; }\n}\n";

/// The panel's state: the device once opened (kept for the next run).
#[cfg(feature = "engine")]
type Device = State<Option<Rc<WebGpu>>>;

thread_local! {
    /// The bindings the table shows (`None`: the panel is hidden), so that a frame with the
    /// same bindings keeps what was typed and the focus.
    static TABLE: RefCell<Option<Option<Vec<GpuBinding>>>> = const { RefCell::new(None) };
}

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
    kit::listen(&button, "click", move |_| {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = run_somewhere().await {
                status(&e, "error");
            }
        });
    })?;
    Ok(())
}

/// "Run on this GPU": here, where this module has the engine (a build with both features).
#[cfg(feature = "engine")]
async fn run_somewhere() -> Result<(), String> {
    run(&DEVICE.with(Clone::clone)).await
}

#[cfg(feature = "engine")]
thread_local! {
    /// The WebGPU device, once opened (kept for the next run).
    static DEVICE: Device = State::new(None);
}

/// "Run on this GPU" from the page's module: the kernel engine module is imported into the page
/// ([`crate::engine_link`]) and its `kernel_gpu_run` export does the run.
#[cfg(not(feature = "engine"))]
async fn run_somewhere() -> Result<(), String> {
    use crate::engine_link;
    if engine_link::loaded().is_none() {
        status("loading the kernel engine…", "running");
    }
    let module = engine_link::load().await?;
    let promise = engine_link::call(&module, "kernel_gpu_run", &[])?
        .dyn_into::<js_sys::Promise>()
        .map_err(|_| "kernel_gpu_run did not return a promise".to_string())?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

/// The engine module's "Run on this GPU" (the page's module calls it after importing this
/// one): the whole run, its status and result written into the panel.
///
/// # Errors
/// What went wrong, as text (the panel shows it).
#[cfg(all(feature = "engine", not(feature = "page")))]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn kernel_gpu_run() -> Result<(), wasm_bindgen::JsValue> {
    run_somewhere()
        .await
        .map_err(|e| wasm_bindgen::JsValue::from_str(&e))
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

/// Rebuilds the bindings table: each `var<storage>`/`var<uniform>` with its
/// `@group`/`@binding`, type, length and fill (what was typed is kept for a name that remains);
/// `None` (a C kernel) hides the panel.
fn refresh_bindings(found: Option<&[GpuBinding]>) -> Js<()> {
    let doc = document()?;
    let table: HtmlElement = by_id(&doc, "kernel-gpu-bindings")?;
    if let Ok(panel) = by_id::<HtmlElement>(&doc, "kernel-wgsl-gpu") {
        panel.set_hidden(found.is_none());
    }
    let bindings = found.unwrap_or_default();
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

/// Shows or hides the panel for the bindings the worker found (the kernel view calls it after
/// every frame), rebuilding the table when they changed.
pub fn follow(bindings: Option<&[GpuBinding]>) {
    let changed = TABLE.with(|s| {
        let mut s = s.borrow_mut();
        let now = bindings.map(<[GpuBinding]>::to_vec);
        if s.as_ref() == Some(&now) {
            false
        } else {
            *s = Some(now);
            true
        }
    });
    if changed {
        let _ = refresh_bindings(bindings);
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

#[cfg(feature = "engine")]
async fn device(gpu: &Device) -> Result<Rc<WebGpu>, GpuError> {
    if let Some(g) = gpu.get().and_then(|g| g.clone()) {
        return Ok(g);
    }
    let g = Rc::new(WebGpu::open().await?);
    gpu.update(|s| *s = Some(g.clone()));
    Ok(g)
}

#[cfg(feature = "engine")]
fn field(doc: &web_sys::Document, id: &str) -> Option<usize> {
    by_id::<HtmlInputElement>(doc, id)
        .ok()
        .and_then(|i| i.value().trim().parse::<usize>().ok())
}

#[cfg(feature = "engine")]
fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

#[cfg(feature = "engine")]
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
