//! The kernel view (issue 5): paste or write a short kernel in its dialect's own syntax, then step
//! through it one statement at a time, seeing every lane's variables, the active mask, memory,
//! and the data movement of each cross-lane call on the canvas.
//!
//! The interpreter is [`crosslane_core::kernel`]; this module only drives an
//! [`Executor`] and shows its [`KernelTrace`]. Running is sliced: `run` executes steps for a few
//! milliseconds per `setTimeout` tick ([`TICK_MS`]), so an endless loop ends at the work limit
//! ([`MAX_WORK`]) with the interpreter's message while the tab stays responsive.
//!
//! Page elements (tests rely on them): `#kernel-source` (the textarea), `#kernel-highlight`,
//! `#kernel-gutter`, `#kernel-error` ("line L:C: message" of a parse or launch error),
//! `#kernel-examples`, `#kernel-entry`, `#kernel-blocks`, `#kernel-threads`, `#kernel-lanes`,
//! buttons `#kernel-reset` `#kernel-back` `#kernel-step` `#kernel-run`, `#kernel-slider`
//! (0 = before the first step, N = after step N), `#kernel-position`, `#kernel-status`,
//! `#kernel-mask`, `canvas#kernel-canvas` (`data-op` = the cross-lane call drawn, `data-line` its
//! line), `table#kernel-vars`, `table#kernel-memory`, `#kernel-diagnostics`, and
//! `section#view-kernel[data-state]` = `idle` | `running` | `finished` | `stopped` | `error`.

mod examples;
mod highlight;
mod tables;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;

use crosslane_core::kernel::{
    list_kernels, memory::parse_cell, Executor, KernelError, KernelTrace, LaunchConfig, Limits,
    Outcome,
};
use crosslane_core::scenario::View;
use crosslane_core::{LaneMask, Level};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Document, Element, Event, EventTarget, HtmlCanvasElement, HtmlElement, HtmlInputElement,
    HtmlSelectElement, HtmlTextAreaElement,
};

use crate::dom::{by_id, document, mark_ready, set_data, window, Js};
use crate::labels::escape;
use crate::render::{canvas, scene};
use crate::views::router;

/// Most units of work (statements and expression nodes) of one run on the page; an endless loop
/// stops here with the interpreter's "work limit" diagnostic.
const MAX_WORK: u64 = 2_000_000;
/// Most bytes of memory, lane variables and trace of one run on the page (wasm32 has 4 GiB of
/// address space at most; a tab should not take more than this for one kernel).
const MAX_MEMORY: u64 = 128 << 20;
/// Milliseconds of interpreting per tick of a run before the page yields to the browser.
const TICK_MS: f64 = 12.0;
/// Most warps listed in the lane table's warp menu.
const WARP_MENU: usize = 256;
/// Steps between clock checks inside a tick.
const SLICE: usize = 64;
/// Line breaks from which an inserted text goes in with `setRangeText` rather than the browser's
/// own editing ([`insert_directly`]).
const BIG_INSERT: usize = 40;

const TEMPLATE: &str = r#"
<div class="kernel-layout">
  <div class="kernel-left">
    <div class="kernel-toolbar">
      <label for="kernel-examples">example</label>
      <select id="kernel-examples"></select>
    </div>
    <div class="kernel-editor">
      <div id="kernel-gutter" class="kernel-gutter" aria-hidden="true"></div>
      <div class="kernel-code">
        <pre id="kernel-highlight" aria-hidden="true"></pre>
        <textarea id="kernel-source" spellcheck="false" wrap="off" autocapitalize="off"
          autocomplete="off" aria-label="kernel source"></textarea>
      </div>
    </div>
    <p id="kernel-error" role="alert" hidden></p>
    <fieldset class="kernel-launch">
      <legend>launch</legend>
      <div class="kernel-fields">
        <div class="field"><label for="kernel-entry">kernel</label><select id="kernel-entry"></select></div>
        <div class="field"><label for="kernel-blocks">blocks</label><input id="kernel-blocks" type="text" inputmode="numeric" placeholder="1"></div>
        <div class="field"><label for="kernel-threads">threads per block</label><input id="kernel-threads" type="text" inputmode="numeric" placeholder="auto"></div>
        <div class="field"><label for="kernel-lanes">lanes per warp</label><input id="kernel-lanes" type="text" inputmode="numeric" placeholder="auto"></div>
      </div>
      <p id="kernel-geometry" class="hint"></p>
    </fieldset>
    <section class="kernel-panel" aria-labelledby="kernel-diag-title">
      <h2 id="kernel-diag-title">diagnostics</h2>
      <ul id="kernel-diagnostics"></ul>
    </section>
  </div>
  <div class="kernel-right">
    <section class="kernel-panel">
      <div class="kernel-controls">
        <button type="button" id="kernel-reset" title="back to the launch (memory edits kept)">reset</button>
        <button type="button" id="kernel-back" title="one step back">◀ back</button>
        <button type="button" id="kernel-step" title="one statement of one warp">step ▶</button>
        <button type="button" id="kernel-run" title="run to the end or a limit">run ▶▶</button>
        <input type="range" id="kernel-slider" min="0" max="0" value="0" step="1" aria-label="step in the trace">
        <span id="kernel-position"></span>
      </div>
      <p id="kernel-status" role="status"></p>
      <div id="kernel-mask" aria-label="active mask"></div>
    </section>
    <section class="kernel-panel" aria-labelledby="kernel-canvas-title">
      <div class="section-head"><h2 id="kernel-canvas-title">cross-lane call</h2><p id="kernel-op-caption"></p></div>
      <div class="kernel-stage"><canvas id="kernel-canvas" role="img" aria-label="cross-lane call"></canvas><div id="kernel-tooltip" role="tooltip" hidden></div></div>
    </section>
    <section class="kernel-panel" aria-labelledby="kernel-vars-title">
      <div class="section-head"><h2 id="kernel-vars-title">lanes</h2><select id="kernel-warp-pick" aria-label="warp shown"></select><p id="kernel-warp" class="hint"></p></div>
      <div class="table-wrap"><table id="kernel-vars"></table></div>
    </section>
    <section class="kernel-panel" aria-labelledby="kernel-memory-title">
      <div class="section-head"><h2 id="kernel-memory-title">memory</h2><p id="kernel-memory-error" role="alert" hidden></p></div>
      <div class="table-wrap"><table id="kernel-memory"></table></div>
    </section>
  </div>
</div>
"#;

/// The view's elements and state.
struct KernelView {
    section: HtmlElement,
    source_el: HtmlTextAreaElement,
    highlight: Element,
    gutter: Element,
    error: HtmlElement,
    examples: HtmlSelectElement,
    entry: HtmlSelectElement,
    blocks: HtmlInputElement,
    threads: HtmlInputElement,
    lanes: HtmlInputElement,
    geometry: Element,
    diagnostics: Element,
    slider: HtmlInputElement,
    position: Element,
    status: Element,
    mask: Element,
    canvas: HtmlCanvasElement,
    tooltip: HtmlElement,
    /// The drawing on the canvas (for hover: which lane, and its reason).
    drawn: Option<scene::Scene>,
    op_caption: Element,
    warp: Element,
    /// Which warp the lane table shows: "" = the warp of the step shown, else "BLOCK:WARP".
    warp_pick: HtmlSelectElement,
    vars: Element,
    memory: Element,
    memory_error: HtmlElement,
    /// The interpreter of the current source and launch; `None` when they do not parse.
    exec: Option<Executor>,
    /// Why there is no executor (a parse or launch error).
    fault: Option<KernelError>,
    /// A launch field that does not parse: field, message.
    field_error: Option<(&'static str, String)>,
    /// Position on the trace: 0 = before the first step, k = after step k.
    pos: usize,
    /// A run is in progress; `Some(target)` stops at that position, `Some(None)` at the end.
    running: Option<Option<usize>>,
    /// Bumped by every reset, so a pending tick of an older run stops.
    generation: u64,
    /// Initial fills of global buffers edited in the memory table, by parameter name.
    fills: BTreeMap<String, String>,
    /// Whether the last render happened with the section on screen (the canvas has its width).
    sized: bool,
    /// An edit of the source waits for the next animation frame ([`schedule_edit`]). Shared with
    /// the `input` listener, which sets it without borrowing the view.
    edit_pending: Rc<Cell<bool>>,
}

type Shared = Rc<RefCell<KernelView>>;

/// Builds the kernel view inside `section#view-kernel`, wires its events and registers its
/// router hooks. Opens with the seed's asc_shfl_down reduce-sum kernel, not yet run.
///
/// # Errors
/// A DOM call that fails (the section missing from index.html).
pub fn mount() -> Js<()> {
    let doc = document()?;
    let section: HtmlElement = by_id(&doc, "view-kernel")?;
    section.set_inner_html(TEMPLATE);
    set_data(&section, "state", "idle")?;
    let view = build(&doc, section)?;
    let mut options = String::from(r#"<option value="">— a seed kernel —</option>"#);
    for e in examples::EXAMPLES {
        let _ = write!(
            options,
            r#"<option value="{}">{}</option>"#,
            escape(e.file),
            escape(e.label)
        );
    }
    view.examples.set_inner_html(&options);
    let first = examples::EXAMPLES.first();
    if let Some(e) = first {
        view.source_el.set_value(e.source);
        view.examples.set_value(e.file);
    }
    let state: Shared = Rc::new(RefCell::new(view));
    wire(&state)?;
    register_hooks(&state);
    let mut v = state
        .try_borrow_mut()
        .map_err(|_| JsValue::from_str("kernel view busy"))?;
    v.reset(true)?;
    v.render()
}

fn build(doc: &Document, section: HtmlElement) -> Js<KernelView> {
    Ok(KernelView {
        source_el: by_id(doc, "kernel-source")?,
        highlight: by_id(doc, "kernel-highlight")?,
        gutter: by_id(doc, "kernel-gutter")?,
        error: by_id(doc, "kernel-error")?,
        examples: by_id(doc, "kernel-examples")?,
        entry: by_id(doc, "kernel-entry")?,
        blocks: by_id(doc, "kernel-blocks")?,
        threads: by_id(doc, "kernel-threads")?,
        lanes: by_id(doc, "kernel-lanes")?,
        geometry: by_id(doc, "kernel-geometry")?,
        diagnostics: by_id(doc, "kernel-diagnostics")?,
        slider: by_id(doc, "kernel-slider")?,
        position: by_id(doc, "kernel-position")?,
        status: by_id(doc, "kernel-status")?,
        mask: by_id(doc, "kernel-mask")?,
        canvas: by_id(doc, "kernel-canvas")?,
        tooltip: by_id(doc, "kernel-tooltip")?,
        drawn: None,
        op_caption: by_id(doc, "kernel-op-caption")?,
        warp: by_id(doc, "kernel-warp")?,
        warp_pick: by_id(doc, "kernel-warp-pick")?,
        vars: by_id(doc, "kernel-vars")?,
        memory: by_id(doc, "kernel-memory")?,
        memory_error: by_id(doc, "kernel-memory-error")?,
        section,
        exec: None,
        fault: None,
        field_error: None,
        pos: 0,
        running: None,
        generation: 0,
        fills: BTreeMap::new(),
        sized: false,
        edit_pending: Rc::new(Cell::new(false)),
    })
}

/// Adds a listener that lives as long as the page; a DOM error shows the red banner.
fn on(
    state: &Shared,
    target: &EventTarget,
    kind: &str,
    f: impl Fn(&Shared, Event) -> Js<()> + 'static,
) -> Js<()> {
    let state = state.clone();
    let c = Closure::<dyn Fn(Event)>::new(move |e: Event| {
        if let Err(err) = f(&state, e) {
            crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
        }
    });
    target.add_event_listener_with_callback(kind, c.as_ref().unchecked_ref())?;
    c.forget();
    Ok(())
}

/// Runs `f` on the view if it is free (a re-entrant event is dropped, never a panic), then
/// tells the router the state changed when `f` says so.
fn act(state: &Shared, f: impl FnOnce(&mut KernelView) -> Js<bool>) -> Js<()> {
    let changed = {
        let Ok(mut v) = state.try_borrow_mut() else {
            return Ok(());
        };
        f(&mut v)?
    };
    if changed {
        router::changed("kernel");
    }
    Ok(())
}

fn target_of(e: &Event) -> EventTarget {
    e.target().unwrap_or_else(|| JsValue::NULL.unchecked_into())
}

fn wire(state: &Shared) -> Js<()> {
    let warp_pick = {
        let v = state
            .try_borrow()
            .map_err(|_| JsValue::from_str("kernel view busy"))?;
        EventTarget::from(v.warp_pick.clone())
    };
    on(state, &warp_pick, "change", |s, _| {
        act(s, |v| {
            v.render()?;
            Ok(false)
        })
    })?;
    let (source, examples, entry, launch, memory, canvas_el) = {
        let v = state
            .try_borrow()
            .map_err(|_| JsValue::from_str("kernel view busy"))?;
        (
            EventTarget::from(v.source_el.clone()),
            EventTarget::from(v.examples.clone()),
            EventTarget::from(v.entry.clone()),
            [
                EventTarget::from(v.blocks.clone()),
                EventTarget::from(v.threads.clone()),
                EventTarget::from(v.lanes.clone()),
            ],
            EventTarget::from(v.memory.clone()),
            v.canvas.clone(),
        )
    };
    let canvas_target = EventTarget::from(canvas_el);
    on(state, &canvas_target, "mousemove", |s, e| {
        act(s, |v| {
            v.hover(&e)?;
            Ok(false)
        })
    })?;
    on(state, &canvas_target, "mouseleave", |s, _| {
        act(s, |v| {
            v.tooltip.set_hidden(true);
            Ok(false)
        })
    })?;
    let pending = state
        .try_borrow()
        .map_err(|_| JsValue::from_str("kernel view busy"))?
        .edit_pending
        .clone();
    let early = pending.clone();
    on(state, &source, "beforeinput", move |s, e| {
        insert_directly(s, &early, &e)
    })?;
    on(state, &source, "input", move |s, _| {
        schedule_edit(s, &pending)
    })?;
    on(state, &source, "scroll", |s, _| {
        act(s, |v| {
            v.sync_scroll();
            Ok(false)
        })
    })?;
    on(state, &examples, "change", |s, _| {
        act(s, |v| {
            let Some(e) = examples::find(&v.examples.value()) else {
                return Ok(false);
            };
            v.edit_pending.set(false);
            v.source_el.set_value(e.source);
            v.source_el.set_scroll_top(0.0);
            for input in [&v.blocks, &v.threads, &v.lanes] {
                input.set_value("");
            }
            v.fills.clear();
            v.reset(true)?;
            v.render()?;
            Ok(true)
        })
    })?;
    on(state, &entry, "change", |s, _| {
        act(s, |v| {
            v.fills.clear();
            v.reset(false)?;
            v.render()?;
            Ok(true)
        })
    })?;
    for t in &launch {
        on(state, t, "input", |s, _| {
            act(s, |v| {
                v.fills.clear();
                v.reset(false)?;
                v.render()?;
                Ok(true)
            })
        })?;
    }
    on(state, &memory, "change", |s, e| {
        let target = target_of(&e);
        act(s, |v| v.edit_memory(&target))
    })?;
    let doc = document()?;
    for (id, which) in [
        ("kernel-reset", Button::Reset),
        ("kernel-back", Button::Back),
        ("kernel-step", Button::Step),
        ("kernel-run", Button::Run),
    ] {
        let el: EventTarget = by_id::<HtmlElement>(&doc, id)?.into();
        on(state, &el, "click", move |s, _| press(s, which))?;
    }
    let slider: EventTarget = by_id::<HtmlElement>(&doc, "kernel-slider")?.into();
    on(state, &slider, "input", |s, _| {
        act(s, |v| {
            v.pos = v.slider.value().parse().unwrap_or(0);
            v.render()?;
            Ok(true)
        })
    })?;
    let win: EventTarget = window()?.into();
    on(state, &win, "resize", |s, _| {
        act(s, |v| {
            if router::current() == "kernel" {
                v.render()?;
            } else {
                v.sized = false;
            }
            Ok(false)
        })
    })?;
    // Switching to this view redraws once if the canvas was last sized while the section was
    // hidden (its width was unknown then).
    let again = state.clone();
    router::on_change(move |name| {
        if name != "kernel" || router::current() != "kernel" {
            return;
        }
        if let Ok(mut v) = again.try_borrow_mut() {
            if v.sized {
                return;
            }
            if let Err(err) = v.render() {
                crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
            }
        }
    });
    Ok(())
}

/// An `input` event of the source: the new text is parsed, highlighted and shown once, on the
/// next animation frame. A paste of many lines fires one `input` event per line (Chromium inserts
/// each line break as its own edit), and each used to re-parse and re-render the whole source:
/// quadratic, half a minute for a few hundred lines. Now the events of one frame cost one render.
fn schedule_edit(state: &Shared, pending: &Cell<bool>) -> Js<()> {
    if pending.replace(true) {
        return Ok(());
    }
    schedule_frame(state.clone())
}

/// A `beforeinput` of the source that inserts a text of many lines as typed text (`insertText`:
/// `execCommand("insertText")`, an input method, an automation's `fill`), not as a paste. Chromium
/// inserts such a text line by line, each line break an editing command that costs as much as the
/// text so far: 2000 lines took it ten seconds on a bare textarea. Such a text is put in with one
/// `setRangeText` instead, the caret after it (the browser's undo does not see that insertion). A
/// real paste (`insertFromPaste`) is one fast command and keeps the browser's path.
fn insert_directly(state: &Shared, pending: &Cell<bool>, e: &Event) -> Js<()> {
    let field = |name: &str| js_sys::Reflect::get(e, &JsValue::from_str(name));
    let kind = field("inputType")?.as_string().unwrap_or_default();
    if kind != "insertText" && kind != "insertReplacementText" {
        return Ok(());
    }
    let Some(text) = field("data")?.as_string() else {
        return Ok(());
    };
    if text.matches('\n').count() < BIG_INSERT || !e.cancelable() {
        return Ok(());
    }
    let Some(area) = e
        .target()
        .and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok())
    else {
        return Ok(());
    };
    e.prevent_default();
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let start = area.selection_start()?.unwrap_or(0);
    let end = area.selection_end()?.unwrap_or(start).max(start);
    area.set_range_text_with_start_and_end(&text, start, end)?;
    let caret =
        start.saturating_add(u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX));
    area.set_selection_range(caret, caret)?;
    reveal_caret(&area, caret);
    schedule_edit(state, pending)
}

/// Scrolls the textarea so that the line of `caret` (a UTF-16 offset) is in view, as the
/// browser does after its own insertions (`setRangeText` leaves the scroll where it was). Lines
/// all have the same height in the editor.
fn reveal_caret(area: &HtmlTextAreaElement, caret: u32) {
    let value = area.value();
    let (mut units, mut before, mut lines) = (0u32, 0u32, 1u32);
    for c in value.chars() {
        if c == '\n' {
            lines += 1;
            if units < caret {
                before += 1;
            }
        }
        units = units.saturating_add(u32::try_from(c.len_utf16()).unwrap_or(2));
    }
    let line = f64::from(area.scroll_height()) / f64::from(lines);
    let view = f64::from(area.client_height());
    let top = f64::from(before) * line;
    let scroll = area.scroll_top();
    if top < scroll {
        area.set_scroll_top(top);
    } else if top + 2.0 * line > scroll + view {
        area.set_scroll_top(top + 2.0 * line - view);
    }
}

fn schedule_frame(state: Shared) -> Js<()> {
    // After a fatal error the state may stay borrowed forever: never retry then.
    if crate::panic::halted() {
        return Ok(());
    }
    let f = Closure::once_into_js(move || {
        if let Err(err) = apply_edit(&state) {
            crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
        }
    });
    window()?.request_animation_frame(f.unchecked_ref())?;
    Ok(())
}

/// The frame after an edit: rebuild the interpreter from the source and show it (unless an
/// example or a permalink replaced the source in the meantime).
fn apply_edit(state: &Shared) -> Js<()> {
    let Ok(mut v) = state.try_borrow_mut() else {
        return schedule_frame(state.clone());
    };
    if !v.edit_pending.replace(false) {
        return Ok(());
    }
    v.fills.clear();
    v.examples.set_value("");
    v.reset(true)?;
    v.render()?;
    drop(v);
    router::changed("kernel");
    Ok(())
}

#[derive(Clone, Copy)]
enum Button {
    Reset,
    Back,
    Step,
    Run,
}

fn press(state: &Shared, which: Button) -> Js<()> {
    let start_run = {
        let Ok(mut v) = state.try_borrow_mut() else {
            return Ok(());
        };
        match which {
            Button::Reset => {
                v.reset(false)?;
                v.render()?;
                false
            }
            Button::Back => {
                v.pos = v.pos.saturating_sub(1);
                v.render()?;
                false
            }
            Button::Step => {
                v.step_once();
                v.render()?;
                false
            }
            Button::Run => v.exec.is_some() && v.running.is_none(),
        }
    };
    if start_run {
        run(state, None)?;
    } else {
        router::changed("kernel");
    }
    Ok(())
}

/// Starts a sliced run to `target` (a trace position) or to the end.
fn run(state: &Shared, target: Option<usize>) -> Js<()> {
    let generation = {
        let Ok(mut v) = state.try_borrow_mut() else {
            return Ok(());
        };
        v.running = Some(target);
        set_data(&v.section, "state", "running")?;
        v.generation
    };
    schedule(state.clone(), generation)
}

fn schedule(state: Shared, generation: u64) -> Js<()> {
    if crate::panic::halted() {
        return Ok(());
    }
    let f = Closure::once_into_js(move || {
        if let Err(err) = tick(&state, generation) {
            crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
        }
    });
    window()?.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0)?;
    Ok(())
}

/// One slice of a run: interpret for [`TICK_MS`], show where the run is, and schedule the next
/// slice unless the run ended, reached its target or was reset.
fn tick(state: &Shared, generation: u64) -> Js<()> {
    let more = {
        let Ok(mut v) = state.try_borrow_mut() else {
            // Busy with an event: try again on the next tick.
            return schedule(state.clone(), generation);
        };
        if v.generation != generation || v.running.is_none() {
            return Ok(());
        }
        let target = v.running.flatten();
        let start = js_sys::Date::now();
        let mut done = false;
        if let Some(ex) = v.exec.as_mut() {
            while js_sys::Date::now() - start < TICK_MS {
                let want = match target {
                    Some(t) => t.saturating_sub(ex.trace().steps.len()).min(SLICE),
                    None => SLICE,
                };
                if want == 0 || ex.run_for(want) < want {
                    done = true;
                    break;
                }
            }
        } else {
            done = true;
        }
        let len = v.trace().map_or(0, |t| t.steps.len());
        v.pos = match target {
            Some(t) => t.min(len),
            None => len,
        };
        if done {
            v.running = None;
            v.render()?;
        } else {
            v.render_progress()?;
        }
        !done
    };
    if more {
        schedule(state.clone(), generation)
    } else {
        router::changed("kernel");
        Ok(())
    }
}

fn register_hooks(state: &Shared) {
    let saved = state.clone();
    let restored = state.clone();
    router::register(router::ViewHooks {
        name: "kernel",
        save: Box::new(move || {
            let v = saved.try_borrow().ok()?;
            let num = |e: &HtmlInputElement| e.value().trim().parse::<u32>().unwrap_or(0);
            Some(View::Kernel {
                source: v.source_el.value(),
                blocks: num(&v.blocks),
                threads_per_block: num(&v.threads),
                lanes: num(&v.lanes),
                step: u32::try_from(v.pos).unwrap_or(u32::MAX),
            })
        }),
        restore: Box::new(move |view| {
            let View::Kernel {
                source,
                blocks,
                threads_per_block,
                lanes,
                step,
            } = view
            else {
                return false;
            };
            let applied = match restored.try_borrow_mut() {
                Ok(mut v) => {
                    v.edit_pending.set(false);
                    v.source_el.set_value(source);
                    v.examples.set_value(
                        examples::EXAMPLES
                            .iter()
                            .find(|e| e.source == source)
                            .map_or("", |e| e.file),
                    );
                    let text = |n: &u32| {
                        if *n == 0 {
                            String::new()
                        } else {
                            n.to_string()
                        }
                    };
                    v.blocks.set_value(&text(blocks));
                    v.threads.set_value(&text(threads_per_block));
                    v.lanes.set_value(&text(lanes));
                    v.fills.clear();
                    v.reset(true).and_then(|()| v.render()).is_ok()
                }
                Err(_) => false,
            };
            if applied && *step > 0 {
                let _ = run(&restored, Some(*step as usize));
            }
            applied
        }),
    });
}

/// A launch field: empty = not given; otherwise a whole number of at least 1.
fn field_number(input: &HtmlInputElement, name: &'static str) -> Result<Option<usize>, String> {
    let t = input.value();
    let t = t.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(format!(
            "{name}: `{t}` is not a whole number ≥ 1 (leave it empty for the default)"
        )),
    }
}

impl KernelView {
    fn trace(&self) -> Option<&KernelTrace> {
        self.exec.as_ref().map(Executor::trace)
    }

    /// The launch as the fields say; an unparsable field is reported and the launch not made.
    fn config(&mut self) -> Option<LaunchConfig> {
        self.field_error = None;
        for input in [&self.blocks, &self.threads, &self.lanes] {
            let _ = input.remove_attribute("aria-invalid");
        }
        let parsed = (|| {
            Ok::<_, (&'static str, String)>((
                field_number(&self.blocks, "blocks").map_err(|m| ("blocks", m))?,
                field_number(&self.threads, "threads per block").map_err(|m| ("threads", m))?,
                field_number(&self.lanes, "lanes per warp").map_err(|m| ("lanes", m))?,
            ))
        })();
        let (blocks, threads, lanes) = match parsed {
            Ok(p) => p,
            Err((field, message)) => {
                let input = match field {
                    "blocks" => &self.blocks,
                    "threads" => &self.threads,
                    _ => &self.lanes,
                };
                let _ = input.set_attribute("aria-invalid", "true");
                self.field_error = Some((field, message));
                return None;
            }
        };
        let entry = self.entry.value();
        Some(LaunchConfig {
            entry: (!entry.is_empty()).then_some(entry),
            lanes,
            block_dim: threads.map(|t| [t, 1, 1]),
            grid_dim: blocks.map(|b| [b, 1, 1]),
            args: self.fills.clone(),
            limits: Limits {
                max_work: MAX_WORK,
                max_memory: MAX_MEMORY,
                ..Limits::default()
            },
            ..LaunchConfig::default()
        })
    }

    /// Rebuilds the interpreter from the source and launch, at position 0. With `entries`, the
    /// entry menu is refilled from the source first (keeping the chosen kernel if it remains).
    fn reset(&mut self, entries: bool) -> Js<()> {
        self.generation += 1;
        self.running = None;
        self.pos = 0;
        let source = self.source_el.value();
        if entries {
            let chosen = self.entry.value();
            let names = list_kernels(&source).unwrap_or_default();
            let mut html = String::new();
            for (k, n) in names.iter().enumerate() {
                let _ = write!(
                    html,
                    r#"<option value="{v}">{n}{first}</option>"#,
                    v = if k == 0 { String::new() } else { escape(n) },
                    n = escape(n),
                    first = if k == 0 { " (default)" } else { "" }
                );
            }
            if names.is_empty() {
                html.push_str(r#"<option value="">—</option>"#);
            }
            self.entry.set_inner_html(&html);
            if names.iter().skip(1).any(|n| *n == chosen) {
                self.entry.set_value(&chosen);
            }
        }
        self.exec = None;
        self.fault = None;
        if let Some(config) = self.config() {
            match Executor::new(&source, config) {
                Ok(ex) => self.exec = Some(ex),
                Err(e) => self.fault = Some(e),
            }
        }
        self.fill_warp_pick();
        Ok(())
    }

    /// The warp menu of the lane table: "the step's warp", then every warp of the launch (at
    /// most [`WARP_MENU`]; beyond that only the step's warp is offered). Keeps the choice when
    /// the new launch still has it.
    fn fill_warp_pick(&self) {
        let chosen = self.warp_pick.value();
        let mut html = String::from(r#"<option value="">the warp of the step shown</option>"#);
        let mut kept = false;
        if let Some(l) = self.trace().map(|t| &t.launch) {
            let blocks = l.grid_dim[0] * l.grid_dim[1] * l.grid_dim[2];
            if blocks.saturating_mul(l.warps_per_block) <= WARP_MENU {
                for b in 0..blocks {
                    for w in 0..l.warps_per_block {
                        let value = format!("{b}:{w}");
                        kept |= value == chosen;
                        let _ = write!(
                            html,
                            r#"<option value="{value}">block {b} · warp {w}</option>"#
                        );
                    }
                }
            }
        }
        self.warp_pick.set_inner_html(&html);
        if kept {
            self.warp_pick.set_value(&chosen);
        }
    }

    /// One step forward: along the recorded trace, or one more statement of the interpreter.
    fn step_once(&mut self) {
        let len = self.trace().map_or(0, |t| t.steps.len());
        if self.pos < len {
            self.pos += 1;
            return;
        }
        if self.running.is_some() {
            return;
        }
        if let Some(ex) = self.exec.as_mut() {
            if ex.step().is_some() {
                self.pos = ex.trace().steps.len();
            }
        }
    }

    /// A memory cell edited before the first step: checked, then applied as the buffer's initial
    /// fill (a comma list of every cell) and the launch rebuilt. Returns whether it applied.
    fn edit_memory(&mut self, target: &EventTarget) -> Js<bool> {
        let Some(input) = target.dyn_ref::<HtmlInputElement>() else {
            return Ok(false);
        };
        let (Some(buf), Some(index)) = (
            input
                .get_attribute("data-buffer")
                .and_then(|b| b.parse::<usize>().ok()),
            input
                .get_attribute("data-index")
                .and_then(|i| i.parse::<usize>().ok()),
        ) else {
            return Ok(false);
        };
        let Some(b) = self
            .trace()
            .and_then(|t| t.initial_memory.buffers.get(buf))
            .cloned()
        else {
            return Ok(false);
        };
        let text = input.value();
        if let Err(e) = parse_cell(b.elem, &text, &format!("{}[{index}]", b.name)) {
            input.set_attribute("aria-invalid", "true")?;
            self.memory_error
                .set_text_content(Some(&format!("{}: {}", e.field, e.message)));
            self.memory_error.set_hidden(false);
            mark_ready()?;
            return Ok(false);
        }
        let cells: Vec<String> = b
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == index {
                    text.trim().to_string()
                } else {
                    c.as_ref().map_or("undef".into(), tables::value_text)
                }
            })
            .collect();
        self.fills.insert(b.name.clone(), cells.join(","));
        self.reset(false)?;
        self.render()?;
        Ok(true)
    }

    /// Shows the hovered lane's tooltip (value, source, and why a lane is undefined), the same
    /// words as the single-op view's canvas.
    fn hover(&self, e: &Event) -> Js<()> {
        let Some(m) = e.dyn_ref::<web_sys::MouseEvent>() else {
            return Ok(());
        };
        let (x, y) = (m.offset_x(), m.offset_y());
        let Some((_, tip)) = self.drawn.as_ref().and_then(|s| s.hit(x, y)) else {
            self.tooltip.set_hidden(true);
            return Ok(());
        };
        self.tooltip.set_text_content(Some(tip));
        let width = f64::from(self.canvas.client_width());
        let left = if x + 340.0 > width {
            x - 334.0
        } else {
            x + 14.0
        };
        let style = self.tooltip.style();
        style.set_property("left", &format!("{}px", left.max(0.0)))?;
        style.set_property("top", &format!("{}px", y + 16.0))?;
        self.tooltip.set_hidden(false);
        Ok(())
    }

    /// Keeps the highlighted text and the gutter under the textarea as it scrolls.
    fn sync_scroll(&self) {
        let top = self.source_el.scroll_top();
        self.highlight.set_scroll_top(top);
        self.highlight.set_scroll_left(self.source_el.scroll_left());
        self.gutter.set_scroll_top(top);
    }

    /// While a run is in progress: the slider, the position and the status only (cheap).
    fn render_progress(&mut self) -> Js<()> {
        let len = self.trace().map_or(0, |t| t.steps.len());
        self.slider.set_max(&len.to_string());
        self.slider.set_value(&self.pos.to_string());
        self.status
            .set_text_content(Some(&format!("running… {len} steps so far")));
        mark_ready()
    }

    /// Shows position [`Self::pos`] of the trace: editor marks, slider, mask, canvas, lane
    /// table, memory, diagnostics and status.
    fn render(&mut self) -> Js<()> {
        let len = self.trace().map_or(0, |t| t.steps.len());
        self.pos = self.pos.min(len);
        let source = self.source_el.value();
        let step = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.trace().and_then(|t| t.steps.get(i)));

        // Editor: current line, squiggles for the fault and every diagnostic so far.
        let mut marks = highlight::Marks {
            current: step.map(|s| s.line),
            squiggles: Vec::new(),
        };
        if let Some(e) = &self.fault {
            marks
                .squiggles
                .push((e.line, e.col, "error", e.message.clone()));
        }
        let mut diag_html = String::new();
        if let Some(t) = self.trace() {
            for d in t.all_diagnostics() {
                let level = level_name(d.level);
                marks
                    .squiggles
                    .push((d.line, d.col, level, d.message.clone()));
                let _ = write!(
                    diag_html,
                    r#"<li data-level="{level}" data-line="{line}"><span class="level">{level}</span> <span class="where">line {line}:{col}</span> <span class="message">{msg}</span>{rule}</li>"#,
                    line = d.line,
                    col = d.col,
                    msg = escape(&d.message),
                    rule = if d.rule.is_empty() {
                        String::new()
                    } else {
                        format!(" <cite>{}</cite>", escape(&d.rule))
                    }
                );
            }
        }
        let (code, gutter) = highlight::render(&source, &marks);
        // A trailing newline keeps the last line's height equal to the textarea's.
        self.highlight.set_inner_html(&format!("{code}\n"));
        self.gutter.set_inner_html(&gutter);
        self.sync_scroll();
        self.diagnostics.set_inner_html(&diag_html);

        // Fault line under the editor.
        match (&self.fault, &self.field_error) {
            (_, Some((_, message))) => {
                self.error.set_text_content(Some(message));
                self.error.set_hidden(false);
            }
            (Some(e), None) => {
                self.error
                    .set_text_content(Some(&format!("line {}:{}: {}", e.line, e.col, e.message)));
                self.error.set_hidden(false);
            }
            (None, None) => {
                self.error.set_text_content(None);
                self.error.set_hidden(true);
            }
        }

        // Launch, slider, position, status.
        let geometry = match self.trace() {
            Some(t) => {
                let l = &t.launch;
                format!(
                    "{} · {} · {} block(s) × {} threads · {} lanes per warp, {} warp(s) per block · block shape from {}",
                    l.entry,
                    l.dialect.name(),
                    l.grid_dim[0] * l.grid_dim[1] * l.grid_dim[2],
                    l.block_dim[0] * l.block_dim[1] * l.block_dim[2],
                    l.lanes,
                    l.warps_per_block,
                    l.geometry_from
                )
            }
            None => String::new(),
        };
        self.geometry.set_text_content(Some(&geometry));
        self.slider.set_max(&len.to_string());
        self.slider.set_value(&self.pos.to_string());
        let position = match step {
            Some(s) => format!(
                "step {} / {len} · line {} · block {} warp {}",
                self.pos, s.line, s.block, s.warp
            ),
            None => format!("before the first step · {len} recorded"),
        };
        self.position.set_text_content(Some(&position));
        let (state, status) = self.status_text();
        self.status.set_text_content(Some(&status));
        set_data(&self.section, "state", state)?;

        self.render_lanes()?;
        self.render_memory();
        self.draw_op()?;
        self.sized = !self.section.hidden();
        mark_ready()
    }

    fn status_text(&self) -> (&'static str, String) {
        if self.running.is_some() {
            return ("running", "running…".into());
        }
        let Some(t) = self.trace() else {
            return match (&self.field_error, &self.fault) {
                (Some((_, m)), _) => ("error", m.clone()),
                (None, Some(e)) => ("error", format!("line {}:{}: {}", e.line, e.col, e.message)),
                (None, None) => ("error", "nothing to run".into()),
            };
        };
        let n = t.steps.len();
        match &t.outcome {
            None if n == 0 => (
                "idle",
                "ready: step through the kernel or run it".to_string(),
            ),
            None => ("idle", format!("paused after {n} steps")),
            Some(Outcome::Finished) => ("finished", format!("finished after {n} steps")),
            Some(Outcome::Limit(hit)) => (
                "stopped",
                format!("stopped after {n} steps: {}", hit.message()),
            ),
            Some(Outcome::Error(e)) => (
                "stopped",
                format!("stopped at line {}:{}: {}", e.line, e.col, e.message),
            ),
        }
    }

    /// The mask strip and the lane table of the warp of the step shown.
    fn render_lanes(&self) -> Js<()> {
        let Some(t) = self.trace() else {
            self.vars.set_inner_html("");
            self.mask.set_inner_html("");
            self.warp.set_text_content(None);
            return Ok(());
        };
        let lanes = t.launch.lanes;
        let picked = self.warp_pick.value();
        let picked = picked
            .split_once(':')
            .and_then(|(b, w)| Some((b.parse::<usize>().ok()?, w.parse::<usize>().ok()?)));
        match self.pos.checked_sub(1).and_then(|i| t.steps.get(i)) {
            Some(s) if picked.is_some_and(|p| p != (s.block, s.warp)) => {
                let (block, warp) = picked.unwrap_or((s.block, s.warp));
                let vars = t.vars_after(self.pos - 1, block, warp);
                self.vars.set_inner_html(&tables::vars_table(
                    lanes,
                    LaneMask::all(lanes),
                    &vars,
                    &[],
                ));
                self.mask
                    .set_inner_html(&tables::mask_strip(s.lanes, s.active));
                self.warp.set_text_content(Some(&format!(
                    "block {block} · warp {warp} (threads {}–{}), as it stands while block {} warp {} runs line {}",
                    warp * lanes,
                    (warp + 1) * lanes - 1,
                    s.block,
                    s.warp,
                    s.line
                )));
            }
            Some(s) => {
                let vars = t.vars_after(self.pos - 1, s.block, s.warp);
                let changed: Vec<&str> = s.changes.iter().map(|c| c.name.as_str()).collect();
                self.vars
                    .set_inner_html(&tables::vars_table(s.lanes, s.active, &vars, &changed));
                self.mask
                    .set_inner_html(&tables::mask_strip(s.lanes, s.active));
                self.warp.set_text_content(Some(&format!(
                    "block {} · warp {} (threads {}–{}) · after line {}: {}",
                    s.block,
                    s.warp,
                    s.warp * s.lanes,
                    (s.warp + 1) * s.lanes - 1,
                    s.line,
                    s.text
                )));
            }
            None => {
                self.vars.set_inner_html(&tables::vars_table(
                    lanes,
                    LaneMask::all(lanes),
                    &[],
                    &[],
                ));
                self.mask
                    .set_inner_html(&tables::mask_strip(lanes, LaneMask::all(lanes)));
                self.warp
                    .set_text_content(Some("before the first step: no variable assigned yet"));
            }
        }
        Ok(())
    }

    fn render_memory(&self) {
        let Some(t) = self.trace() else {
            self.memory.set_inner_html("");
            return;
        };
        self.memory_error.set_hidden(true);
        match self.pos.checked_sub(1) {
            Some(i) => {
                let writes = t.steps.get(i).map_or(&[][..], |s| &s.memory_writes[..]);
                self.memory.set_inner_html(&tables::memory_table(
                    &t.memory_after(i),
                    writes,
                    false,
                ));
            }
            None => self.memory.set_inner_html(&tables::memory_table(
                &t.initial_memory,
                &[],
                self.running.is_none(),
            )),
        }
    }

    /// Draws the cross-lane call of the step shown, or the most recent one before it (said so in
    /// the caption); an empty canvas before the first call.
    fn draw_op(&mut self) -> Js<()> {
        let found = self.trace().and_then(|t| {
            t.steps
                .iter()
                .take(self.pos)
                .rev()
                .find_map(|s| s.ops.last().map(|op| (s, op)))
        });
        let Some((s, op)) = found else {
            self.drawn = None;
            self.tooltip.set_hidden(true);
            self.canvas.set_hidden(true);
            self.canvas.remove_attribute("data-op")?;
            self.canvas.remove_attribute("data-line")?;
            self.op_caption.set_text_content(Some(
                "no cross-lane call yet: step to a line that calls one",
            ));
            return Ok(());
        };
        self.canvas.set_hidden(false);
        let current = s.index + 1 == self.pos;
        let mut width = self.canvas.get_bounding_client_rect().width();
        if width < 50.0 {
            width = 900.0;
        }
        let drawn = scene::build(op, width);
        canvas::draw(&self.canvas, &drawn, window()?.device_pixel_ratio())?;
        self.canvas.set_attribute("data-op", &op.op)?;
        self.canvas
            .set_attribute("data-line", &s.line.to_string())?;
        self.canvas
            .set_attribute("data-current", if current { "true" } else { "false" })?;
        let caption = format!(
            "{} at line {} (block {} warp {}, active {}){}",
            op.op,
            s.line,
            s.block,
            s.warp,
            op.active.to_hex(op.lanes),
            if current {
                String::new()
            } else {
                format!(" · the last call before step {}", self.pos)
            }
        );
        self.canvas.set_attribute("aria-label", &caption)?;
        self.op_caption.set_text_content(Some(&caption));
        self.drawn = Some(drawn);
        Ok(())
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "info",
    }
}
