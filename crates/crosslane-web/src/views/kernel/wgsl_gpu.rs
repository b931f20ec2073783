//! "Run on this GPU" in the kernel view, for a WGSL compute shader (issue 15): the same shader,
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

use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

use crosslane_core::fill::parse_fill;
use crosslane_core::kernel::wgsl::{is_wgsl, prepare, run_wgsl};
use crosslane_core::kernel::{LaunchConfig, Limits};
use crosslane_gpu::shader::{bits_text, diff, upload, CellVerdict, ShaderBuffer};
use crosslane_gpu::web::WebGpu;
use crosslane_gpu::GpuError;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, HtmlTextAreaElement};

use crate::dom::{by_id, document, Js};
use crate::labels::escape;

/// Cells drawn per buffer (the counts cover every cell).
const SHOWN: usize = 256;

/// The probe that reads the device's subgroup size as a shader sees it.
const PROBE: &str = "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(64)\nfn main(@builtin(subgroup_size) s: u32, @builtin(local_invocation_index) i: u32) {\n  if (i == 0u) { o[0] = s; }\n}\n";

thread_local! {
    static GPU: RefCell<Option<Rc<WebGpu>>> = const { RefCell::new(None) };
}

/// Adds the panel under the kernel view and wires its button.
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
    panel.set_inner_html(
        r#"<h2>WGSL on this GPU</h2>
<p class="hint">For a WGSL compute shader: runs it through this browser's WebGPU with the buffers
below (length and fill per binding) and the dispatch (<em>blocks</em> = workgroups in x), reads
every buffer back and diffs each cell with the emulator, run on the same buffers at the subgroup
size the GPU shows: match, mismatch, or indeterminate by the spec.</p>
<table id="kernel-gpu-bindings" class="kernel-gpu-bindings"></table>
<button type="button" id="kernel-gpu-run" class="button">Run on this GPU</button>
<span id="kernel-gpu-status" role="status"></span>
<div id="kernel-gpu-result"></div>"#,
    );
    section.append_child(&panel)?;
    let button: HtmlElement = by_id(&doc, "kernel-gpu-run")?;
    let cb = Closure::<dyn FnMut()>::new(move || {
        wasm_bindgen_futures::spawn_local(async {
            if let Err(e) = run().await {
                status(&e, "error");
            }
        });
    });
    button.add_event_listener_with_callback("click", cb.as_ref().unchecked_ref())?;
    cb.forget();
    // The bindings follow the source: typed, pasted, or picked from the examples (the view's own
    // listeners run first, so the text is already there).
    let refresh = Closure::<dyn FnMut()>::new(|| {
        let _ = refresh_bindings();
    });
    for (id, event) in [("kernel-source", "input"), ("kernel-examples", "change")] {
        let el: HtmlElement = by_id(&doc, id)?;
        el.add_event_listener_with_callback(event, refresh.as_ref().unchecked_ref())?;
    }
    refresh.forget();
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
    let bindings = if is_wgsl(&source) {
        prepare(&source, &LaunchConfig::default())
            .map(|p| p.bindings)
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let typed = typed_bindings(&doc);
    let mut html = String::new();
    if !bindings.is_empty() {
        html.push_str("<thead><tr><th>binding</th><th>buffer</th><th>type</th><th>length</th><th>fill (index, a number, i*K+C, a list, random:SEED)</th></tr></thead><tbody>");
    }
    for (k, b) in bindings.iter().enumerate() {
        let old = typed.iter().find(|(n, _, _)| *n == b.name);
        let fill = old.map_or("index".to_string(), |(_, _, f)| f.clone());
        let len = match b.fixed_len {
            Some(n) => format!(r#"value="{n}" disabled"#),
            None => format!(
                r#"value="{}" placeholder="one per invocation""#,
                old.and_then(|(_, l, _)| *l)
                    .map_or(String::new(), |l| l.to_string())
            ),
        };
        let _ = write!(
            html,
            r#"<tr data-binding="{n}"><td>@group({g}) @binding({i})</td><td>{n}</td><td>var&lt;{s}&gt; {t}</td><td><input data-len data-row="{k}" size="8" {len}></td><td><input data-fill="{n}" value="{f}" size="24"></td></tr>"#,
            n = escape(&b.name),
            g = b.group,
            i = b.binding,
            s = escape(&b.space),
            t = escape(&b.wgsl_elem),
            f = escape(&fill),
        );
    }
    if !bindings.is_empty() {
        html.push_str("</tbody>");
    }
    table.set_inner_html(&html);
    Ok(())
}

fn status(text: &str, state: &str) {
    if let Ok(doc) = document() {
        if let Ok(el) = by_id::<HtmlElement>(&doc, "kernel-gpu-status") {
            el.set_text_content(Some(text));
            let _ = el.set_attribute("data-state", state);
        }
    }
}

async fn device() -> Result<Rc<WebGpu>, GpuError> {
    if let Some(g) = GPU.with(|g| g.borrow().clone()) {
        return Ok(g);
    }
    let g = Rc::new(WebGpu::open().await?);
    GPU.with(|s| *s.borrow_mut() = Some(g.clone()));
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

async fn run() -> Result<(), String> {
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
        result.set_inner_html("");
        let _ = result.remove_attribute("data-verdict");
    }
    status("opening WebGPU…", "running");
    let gpu = device().await.map_err(err)?;
    let facts = gpu.facts().clone();
    let observed = if facts.subgroups {
        let probe = ShaderBuffer {
            name: "o".into(),
            group: 0,
            binding: 0,
            uniform: false,
            elem: crosslane_core::kernel::ValTy::scalar(crosslane_core::kernel::Scalar::U32),
            bytes: vec![0; 4],
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
            // One element per invocation; a vecN element is N cells.
            .unwrap_or(invocations.saturating_mul(b.components.max(1) as usize))
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
    let mut html = String::new();
    let _ = write!(
        html,
        r#"<p id="kernel-gpu-device">{adapter}{fallback} · subgroup size min {min}, max {max} · observed {obs} · emulator at {size} · {blocks} workgroup(s){directive}</p>"#,
        adapter = escape(&facts.adapter),
        fallback = if facts.is_fallback {
            " (fallback adapter)"
        } else {
            ""
        },
        min = facts.subgroup_min_size,
        max = facts.subgroup_max_size,
        obs = observed.map_or("—".to_string(), |o| o.to_string()),
        directive = if uses_subgroups && !prepared.enables_subgroups {
            " · `enable subgroups;` added for the browser"
        } else {
            ""
        },
    );
    let mut mismatches = 0;
    html.push_str(r#"<table class="kernel-gpu-diff"><thead><tr><th>buffer</th><th>match</th><th>mismatch</th><th>indeterminate</th><th>cells (GPU value; hover for the emulator's)</th></tr></thead><tbody>"#);
    for (b, bytes) in prepared.bindings.iter().zip(&read) {
        let emu = trace.buffer(&b.name).unwrap_or(&[]);
        let d = diff(&b.name, emu, bytes, b.elem);
        mismatches += d.mismatched;
        let mut cells = String::new();
        for (k, (v, bits)) in d.cells.iter().enumerate().take(SHOWN) {
            let class = match v {
                CellVerdict::Match => "match",
                CellVerdict::Mismatch => "mismatch",
                CellVerdict::Indeterminate => "indeterminate",
            };
            let emu_text = match &emu[k] {
                None => "undefined or indeterminate (any value is allowed)".to_string(),
                Some(c) => c
                    .as_int()
                    .map(|n| n.to_string())
                    .or_else(|| c.as_f64().map(|x| x.to_string()))
                    .unwrap_or_else(|| "?".into()),
            };
            let _ = write!(
                cells,
                r#"<span class="cell {class}" title="[{k}] {class}; emulator: {e}">{g}</span> "#,
                e = escape(&emu_text),
                g = escape(&bits_text(*bits, b.elem)),
            );
        }
        if d.cells.len() > SHOWN {
            let _ = write!(cells, "… {} more", d.cells.len() - SHOWN);
        }
        let _ = write!(
            html,
            r#"<tr data-buffer="{n}"><td>{n}</td><td>{m}</td><td>{x}</td><td>{i}</td><td class="cells">{cells}</td></tr>"#,
            n = escape(&b.name),
            m = d.matched,
            x = d.mismatched,
            i = d.indeterminate,
        );
    }
    html.push_str("</tbody></table>");
    let result: HtmlElement = by_id(&doc, "kernel-gpu-result").map_err(|e| format!("{e:?}"))?;
    result.set_inner_html(&html);
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
