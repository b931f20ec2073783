//! The kernel view: paste or write a short kernel in its dialect's own syntax, then step
//! through it one statement at a time, seeing every lane's variables, the active mask, memory,
//! and the data movement of each cross-lane call on the canvas.
//!
//! The interpreter is [`crosslane_kernel`], and it runs in a Web Worker ([`crate::worker`],
//! so no kernel blocks the tab): this module keeps the editor, the launch and budget fields and what is shown
//! (position, warp, memory page), asks the worker for each [`Frame`] and shows it. Nothing a
//! kernel does can block the page: a run shows "running…" with its progress and a **cancel**
//! button (`#kernel-cancel`: the worker stops the run between two slices and the view shows the
//! steps run so far, "cancelled after N steps"; a worker that does not stop is replaced),
//! and a worker that stops answering is replaced by the client's watchdog, which says so in the
//! status. An edit of the source is highlighted on the next animation frame and parsed in the
//! worker [`PARSE_DELAY_MS`] after the last keystroke.
//!
//! Page elements (tests rely on them): `#kernel-source` (the textarea), `#kernel-highlight`,
//! `#kernel-gutter`, `#kernel-error` ("line L:C: message" of a parse or launch error),
//! `#kernel-examples`, `#kernel-entry`, `#kernel-blocks`, `#kernel-threads`, `#kernel-lanes`,
//! `#kernel-defines`, `#kernel-overrides` (WGSL override values, `NAME=VALUE …`),
//! the budgets `#kernel-max-work`, `#kernel-max-memory`, `#kernel-max-depth`,
//! `#kernel-max-tokens`, `#kernel-max-code`, `#kernel-max-diagnostics` (empty = the page's
//! default, shown as the placeholder; a field that does not parse gets `aria-invalid` and
//! `aria-describedby="kernel-error"`, the message naming it and its range),
//! buttons `#kernel-reset` `#kernel-back` `#kernel-step` `#kernel-run` `#kernel-cancel`,
//! `#kernel-slider` (0 = before the first step, N = after step N), `#kernel-position`,
//! `#kernel-status`, `#kernel-mask`, `canvas#kernel-canvas` (`data-op` = the cross-lane call
//! drawn, `data-line` its line), `table#kernel-vars`, `table#kernel-memory` (a page of at most
//! [`tables::MEMORY_PAGE`] cells per buffer, `button.mem-page` to move), `#kernel-memory-note`
//! (which memory edits a load dropped: their buffer gone or renamed, their cell past its end),
//! `#kernel-diagnostics`
//! (at most [`crate::worker::session::MAX_DIAGNOSTIC_ITEMS`] items, then "and N more"), and
//! `section#view-kernel[data-state]` = `idle` | `running` (the worker is busy: parsing or
//! running) | `finished` | `stopped` | `error`; `data-worker` = `worker` or `page` (where the
//! interpreter runs).

mod buttons;
mod caret;
mod choose;
mod edits;
mod examples;
mod highlight;
mod inputs;
pub(crate) mod tables;
mod template;
mod wgsl_gpu;
use template::TEMPLATE;

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use crosslane_core::scenario::{KernelInputs, View};
use crosslane_core::Dialect;
use crosslane_kernel::exec::max_threads_per_block;
use crosslane_kernel::{LaunchConfig, Limits, PpOptions, UserMacro, MAX_BLOCKS};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Document, Element, Event, EventTarget, HtmlCanvasElement, HtmlElement, HtmlInputElement,
    HtmlSelectElement, HtmlTextAreaElement,
};

use crate::dom::{by_id, document, mark_ready, set_data, window, Js};
use crate::kit::{self, Html, State};
use crate::render::{canvas, scene};
use crate::views::router;
use crate::worker::client::{Client, Heard};
use crate::worker::protocol::{At, Command, Edits, Frame, ParamField, Request};

/// Milliseconds after the last keystroke before the source is parsed (in the worker).
const PARSE_DELAY_MS: i32 = 150;
/// Line breaks from which an inserted text goes in with `setRangeText` rather than the browser's
/// own editing ([`insert_directly`]).
const BIG_INSERT: usize = 40;

/// The budget fields: element id, the [`Limits`] field they set.
const BUDGETS: [(&str, &str); 6] = [
    ("kernel-max-work", "max work"),
    ("kernel-max-memory", "max memory"),
    ("kernel-max-depth", "max depth"),
    ("kernel-max-tokens", "max tokens"),
    ("kernel-max-code", "max code"),
    ("kernel-max-diagnostics", "max diagnostics"),
];

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
    /// The dialect picker: "" = from the source, else a dialect's CLI name.
    dialect: HtmlSelectElement,
    dialect_from: Element,
    /// The argument fields ([`inputs::fields_html`]).
    args_box: Element,
    /// The parameters the argument fields show.
    params: Vec<ParamField>,
    /// The source (its [`KernelView::generation`]) the argument fields were built for: while
    /// another source fails to load, they are marked stale (`#kernel-args[data-stale]`,
    /// disabled, `#kernel-args-stale`).
    params_from: u64,
    /// The source generation the last load sent (the frames answer it).
    loaded_generation: u64,
    /// Whether the argument fields are marked stale now.
    params_stale: bool,
    args_stale: HtmlElement,
    /// Scalar values and buffer fills typed in the argument fields, by parameter name.
    args: BTreeMap<String, String>,
    /// Buffer lengths typed in the argument fields, by parameter name.
    lens: BTreeMap<String, usize>,
    budgets: Vec<HtmlInputElement>,
    /// `#kernel-defines`: user macros as typed ([`UserMacro::parse_list`]).
    defines: HtmlInputElement,
    /// The line count of a source shown as plain text ([`Self::render_plain_source`]), `None`
    /// while the source is highlighted.
    plain_lines: Cell<Option<usize>>,
    /// `#kernel-overrides`: WGSL override values as typed
    /// ([`crosslane_kernel::wgsl::override_eval::parse_overrides`]).
    overrides_el: HtmlInputElement,
    geometry: Element,
    diagnostics: Element,
    slider: HtmlInputElement,
    position: Element,
    status: Element,
    cancel: HtmlElement,
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
    /// What the last load dropped of the memory edits (`#kernel-memory-note`).
    memory_note: HtmlElement,
    /// The worker that owns the interpreter.
    client: Option<Rc<Client>>,
    /// The last frame the worker sent (what is shown).
    frame: Option<Frame>,
    /// The entry names the menu holds.
    entries: Vec<String>,
    /// A launch or budget field that does not parse: field, message.
    field_error: Option<(&'static str, String)>,
    /// Position on the trace: 0 = before the first step, k = after step k.
    pos: usize,
    /// Steps the run has, as the last frame of this launch said (0 from each load on).
    len: usize,
    /// A run is in progress in the worker.
    running: bool,
    /// What happened to the worker (cancel, watchdog), shown before the status until the next
    /// command.
    notice: Option<String>,
    /// Whether a kernel was loaded (the first load starts the worker and the engine's download).
    loaded_once: bool,
    /// Bumped by every edit of the source, so that only the last keystroke's timer parses.
    generation: u64,
    /// The memory table's page per buffer, where the user moved it.
    pages: BTreeMap<usize, usize>,
    /// Memory cells edited before the first step (buffer name → cell → value as typed), sent
    /// with every load: the worker applies those whose buffer and cell still exist and answers
    /// with what it kept ([`Frame::edits`]).
    edits: Edits,
    /// nvcc's `--use_fast_math` from a link's inputs ([`KernelInputs::use_fast_math`]): kept
    /// and passed to every launch (the page has no control for it yet).
    fast_math: bool,
    /// Floating-point contraction from a link's inputs ([`KernelInputs::fmad`]): kept and
    /// passed to every launch, as `fast_math`.
    fmad: Option<bool>,
    /// A link's run length ([`KernelInputs::run_steps`]), taken by the view's restore that
    /// follows the inputs' (run that far, show the link's step).
    link_run_steps: Option<usize>,
    /// A link made while the run was paused ([`KernelInputs::paused`]), taken by the view's
    /// restore with `link_run_steps`: its run stops at its steps without learning whether the
    /// kernel ends there, so it opens paused as it was made.
    link_paused: bool,
    /// WGSL `override` values ([`KernelInputs::overrides`]): the last that `#kernel-overrides`
    /// parsed to, or a link's; passed to every launch with the arguments.
    overrides: BTreeMap<String, String>,
    /// Length fields that do not parse: parameter name → message (no launch until corrected).
    bad_lens: BTreeMap<String, String>,
    /// A link's dialect that is not one ([`inputs::link_dialect`]): no launch until one is picked.
    bad_dialect: Option<String>,
    /// The warp a link asked the lane table to show, until the warp menu holds it.
    warp_wanted: Option<String>,
    /// Whether the last render happened with the section on screen (the canvas has its width).
    sized: bool,
    /// An edit of the source waits for the next animation frame ([`schedule_edit`]). Shared with
    /// the `input` listener, which sets it without borrowing the view.
    edit_pending: Rc<Cell<bool>>,
}

type Shared = State<KernelView>;

/// Builds the kernel view inside `section#view-kernel`, wires its events, starts its worker and
/// registers its router hooks. Opens with the seed's asc_shfl_down reduce-sum kernel, not yet
/// run.
///
/// # Errors
/// A DOM call that fails (the section missing from index.html).
pub fn mount() -> Js<()> {
    let doc = document()?;
    let section: HtmlElement = by_id(&doc, "view-kernel")?;
    kit::set_html(&section, &Html::from_static(TEMPLATE));
    set_data(&section, "state", "running")?;
    let view = build(&doc, section)?;
    let defaults = inputs::page_limits();
    for (input, value) in view.budgets.iter().zip([
        defaults.max_work,
        defaults.max_memory,
        u64::from(defaults.max_depth),
        defaults.max_tokens,
        defaults.max_code,
        defaults.max_diagnostics,
    ]) {
        input.set_placeholder(&value.to_string());
    }
    let mut options = Html::new();
    inputs::option(&mut options, "", "— a seed kernel —");
    for e in examples::EXAMPLES {
        inputs::option(&mut options, e.file, e.label);
    }
    kit::set_html(&view.examples, &options);
    kit::set_html(&view.dialect, &inputs::dialect_options());
    if let Some(e) = examples::EXAMPLES.first() {
        view.source_el.set_value(examples::OPENING_SOURCE);
        view.examples.set_value(e.file);
    }
    let state: Shared = State::new(view);
    let client = Client::start(sink(&state))?;
    {
        let mut v = state
            .get_mut()
            .ok_or_else(|| JsValue::from_str("kernel view busy"))?;
        set_data(
            &v.section,
            "worker",
            if client.in_worker() { "worker" } else { "page" },
        )?;
        v.client = Some(client);
    }
    wire(&state)?;
    register_hooks(&state);
    wgsl_gpu::mount()?;
    let mut v = state
        .get_mut()
        .ok_or_else(|| JsValue::from_str("kernel view busy"))?;
    v.render_source();
    // The engine loads when this view is first shown (`wire`'s router hook) or a link asks.
    if router::current() == "kernel" {
        v.load()
    } else {
        Ok(())
    }
}

/// What the worker says reaches the view through a queue, drained on the next tick: the client
/// may speak while the view is borrowed (a cancel pressed inside an event handler).
fn sink(state: &Shared) -> impl Fn(Heard) + 'static {
    let queue: Rc<RefCell<VecDeque<Heard>>> = Rc::new(RefCell::new(VecDeque::new()));
    let weak = state.downgrade();
    move |heard| {
        let first = {
            let Ok(mut q) = queue.try_borrow_mut() else {
                return;
            };
            q.push_back(heard);
            q.len() == 1
        };
        if !first {
            return;
        }
        let (queue, weak) = (queue.clone(), weak.clone());
        let f = Closure::once_into_js(move || {
            let Some(state) = weak.upgrade() else {
                return;
            };
            drain(&state, &queue);
        });
        if let Ok(w) = window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0);
        }
    }
}

fn drain(state: &Shared, queue: &Rc<RefCell<VecDeque<Heard>>>) {
    if crate::panic::halted() {
        return;
    }
    loop {
        let Some(heard) = queue.try_borrow_mut().ok().and_then(|mut q| q.pop_front()) else {
            return;
        };
        let Some(mut v) = state.get_mut() else {
            return;
        };
        // Only a frame that moved the position or the run's length or end (a run, a step) or
        // changed the memory edits (a link keeps them) changes what a link saves; the first frame of a load must not count
        // as the user's change (it would clear the message of a damaged link).
        let before = v.link_state();
        let edits_before = v.edits.clone();
        let changed = match v.hear(heard) {
            Ok(framed) => framed && (v.link_state() != before || v.edits != edits_before),
            Err(err) => {
                crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
                return;
            }
        };
        drop(v);
        if changed {
            router::changed("kernel");
        }
    }
}

fn build(doc: &Document, section: HtmlElement) -> Js<KernelView> {
    let mut budgets = Vec::new();
    for (id, _) in BUDGETS {
        budgets.push(by_id(doc, id)?);
    }
    by_id::<HtmlElement>(doc, "kernel-fill-hint")?.set_text_content(Some(&inputs::fill_hint()));
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
        dialect: by_id(doc, "kernel-dialect")?,
        dialect_from: by_id(doc, "kernel-dialect-from")?,
        args_box: by_id(doc, "kernel-args")?,
        params: Vec::new(),
        params_from: 0,
        loaded_generation: 0,
        params_stale: false,
        args_stale: by_id(doc, "kernel-args-stale")?,
        args: BTreeMap::new(),
        lens: BTreeMap::new(),
        budgets,
        defines: by_id(doc, "kernel-defines")?,
        overrides_el: by_id(doc, "kernel-overrides")?,
        plain_lines: Cell::new(None),
        geometry: by_id(doc, "kernel-geometry")?,
        diagnostics: by_id(doc, "kernel-diagnostics")?,
        slider: by_id(doc, "kernel-slider")?,
        position: by_id(doc, "kernel-position")?,
        status: by_id(doc, "kernel-status")?,
        cancel: by_id(doc, "kernel-cancel")?,
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
        memory_note: by_id(doc, "kernel-memory-note")?,
        section,
        client: None,
        frame: None,
        entries: Vec::new(),
        field_error: None,
        pos: 0,
        len: 0,
        running: false,
        notice: None,
        loaded_once: false,
        generation: 0,
        pages: BTreeMap::new(),
        edits: Edits::new(),
        fast_math: false,
        fmad: None,
        link_run_steps: None,
        link_paused: false,
        overrides: BTreeMap::new(),
        bad_lens: BTreeMap::new(),
        bad_dialect: None,
        warp_wanted: None,
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
    kit::listen(target, kind, move |e| {
        if let Err(err) = f(&state, e) {
            crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
        }
    })
}

/// Runs `f` on the view if it is free (a re-entrant event is dropped, never a panic), then
/// tells the router the state changed when `f` says so.
fn act(state: &Shared, f: impl FnOnce(&mut KernelView) -> Js<bool>) -> Js<()> {
    let changed = {
        let Some(mut v) = state.get_mut() else {
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
    let (source, examples, entry, launch, memory, canvas_el, warp_pick, dialect, args_box) = {
        let v = state
            .get()
            .ok_or_else(|| JsValue::from_str("kernel view busy"))?;
        let mut launch: Vec<EventTarget> = vec![
            v.blocks.clone().into(),
            v.threads.clone().into(),
            v.lanes.clone().into(),
            v.defines.clone().into(),
            v.overrides_el.clone().into(),
        ];
        launch.extend(v.budgets.iter().map(|b| EventTarget::from(b.clone())));
        (
            EventTarget::from(v.source_el.clone()),
            EventTarget::from(v.examples.clone()),
            EventTarget::from(v.entry.clone()),
            launch,
            EventTarget::from(v.memory.clone()),
            v.canvas.clone(),
            EventTarget::from(v.warp_pick.clone()),
            EventTarget::from(v.dialect.clone()),
            EventTarget::from(v.args_box.clone()),
        )
    };
    on(state, &dialect, "change", |s, _| {
        act(s, |v| {
            v.bad_dialect = None;
            v.load()?;
            Ok(true)
        })
    })?;
    on(state, &args_box, "input", |s, e| {
        let target = target_of(&e);
        act(s, |v| v.edit_arg(&target))
    })?;
    // The warp shown is in the link.
    on(state, &warp_pick, "change", |s, _| {
        act(s, |v| {
            v.warp_wanted = None;
            v.ask(Command::Show);
            Ok(true)
        })
    })?;
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
        .get()
        .ok_or_else(|| JsValue::from_str("kernel view busy"))?
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
    on(state, &examples, "change", |s, _| choose::choose(s))?;
    on(state, &entry, "change", |s, _| {
        act(s, |v| {
            // Another kernel takes other parameters.
            v.edits.clear();
            v.args.clear();
            v.lens.clear();
            v.bad_lens.clear();
            v.load()?;
            Ok(true)
        })
    })?;
    for t in &launch {
        on(state, t, "input", |s, _| {
            // The memory edits stay: the worker keeps those whose cell still exists.
            act(s, |v| {
                v.load()?;
                Ok(true)
            })
        })?;
    }
    on(state, &memory, "change", |s, e| {
        let target = target_of(&e);
        act(s, |v| v.edit_memory(&target))
    })?;
    on(state, &memory, "click", |s, e| {
        let target = target_of(&e);
        act(s, |v| v.page_memory(&target))
    })?;
    let doc = document()?;
    use buttons::Button;
    for (id, which) in [
        ("kernel-reset", Button::Reset),
        ("kernel-back", Button::Back),
        ("kernel-step", Button::Step),
        ("kernel-run", Button::Run),
        ("kernel-cancel", Button::Cancel),
    ] {
        let el: EventTarget = by_id::<HtmlElement>(&doc, id)?.into();
        on(state, &el, "click", move |s, _| buttons::press(s, which))?;
    }
    let slider: EventTarget = by_id::<HtmlElement>(&doc, "kernel-slider")?.into();
    on(state, &slider, "input", |s, _| {
        act(s, |v| {
            if v.running {
                return Ok(false);
            }
            v.pos = v.slider.value().parse().unwrap_or(0);
            v.ask(Command::Show);
            Ok(true)
        })
    })?;
    let win: EventTarget = window()?.into();
    on(state, &win, "resize", |s, _| {
        act(s, |v| {
            if router::current() == "kernel" {
                v.draw_op()?;
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
        if let Some(mut v) = again.get_mut() {
            // First shown: the first load, which starts the worker and the engine's download.
            let loaded = if v.loaded_once { Ok(()) } else { v.load() };
            if v.sized && loaded.is_ok() {
                return;
            }
            if let Err(err) = loaded.and_then(|()| v.draw_op()) {
                crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
            }
        }
    });
    Ok(())
}

/// An `input` event of the source: the new text is highlighted once, on the next animation
/// frame, and parsed in the worker [`PARSE_DELAY_MS`] after the last one. A paste of many lines
/// fires one `input` event per line (Chromium inserts each line break as its own edit); the
/// events of one frame cost one highlight, and a keystroke never waits for a parse.
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
    caret::reveal_caret(&area, caret);
    schedule_edit(state, pending)
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

/// The frame after an edit: highlight the new source now, and parse it after a pause in typing
/// (unless an example or a permalink replaced the source in the meantime).
fn apply_edit(state: &Shared) -> Js<()> {
    let generation = {
        let Some(mut v) = state.get_mut() else {
            return schedule_frame(state.clone());
        };
        if !v.edit_pending.replace(false) {
            return Ok(());
        }
        v.examples.set_value("");
        v.generation += 1;
        v.frame = None;
        v.render_source();
        v.generation
    };
    let state = state.clone();
    let f = Closure::once_into_js(move || {
        let result = act(&state, |v| {
            if v.generation != generation {
                return Ok(false);
            }
            v.load()?;
            Ok(true)
        });
        if let Err(err) = result {
            crate::panic::banner(&format!("crosslane kernel view hit a page error: {err:?}"));
        }
    });
    window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), PARSE_DELAY_MS)?;
    Ok(())
}

fn register_hooks(state: &Shared) {
    let saved_inputs = state.clone();
    let restored_inputs = state.clone();
    router::register_inputs(router::InputHooks {
        save: Box::new(move || saved_inputs.get().map(|v| v.inputs()).unwrap_or_default()),
        restore: Box::new(move |inputs| {
            if let Some(mut v) = restored_inputs.get_mut() {
                v.set_inputs(inputs);
            }
        }),
    });
    let saved = state.clone();
    let restored = state.clone();
    router::register(router::ViewHooks {
        name: "kernel",
        save: Box::new(move || {
            let v = saved.get()?;
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
            match restored.get_mut() {
                Some(mut v) => {
                    v.edit_pending.set(false);
                    v.generation += 1;
                    v.source_el.set_value(source);
                    v.examples
                        .set_value(examples::find_by_source(source).map_or("", |e| e.file));
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
                    v.entries.clear();
                    v.render_source();
                    // The link is applied in the worker: parsed, launched and run to its step
                    // there, while the page answers.
                    let loaded = v.load();
                    // The whole run the link was made with (its steps after `step` too), the
                    // cursor at `step`.
                    let step = *step as usize;
                    let target = v.link_run_steps.take().map_or(step, |n| n.max(step));
                    let paused = std::mem::take(&mut v.link_paused);
                    if loaded.is_ok() && target > 0 && v.field_error.is_none() {
                        v.run_to(Some(target), (target != step).then_some(step), paused)
                            .is_ok()
                    } else {
                        loaded.is_ok()
                    }
                }
                None => false,
            }
        }),
    });
}

impl KernelView {
    /// The budgets as the fields say (empty fields: [`inputs::page_limits`]).
    fn limits(&self) -> Result<Limits, (usize, String)> {
        let d = inputs::page_limits();
        let ceilings = crosslane_kernel::budget::PAGE_CEILING.values();
        let get = |k: usize, default: u64| {
            let (_, name) = BUDGETS[k];
            let ceiling = ceilings.get(k).copied().unwrap_or(u64::MAX);
            self.budgets
                .get(k)
                .map_or(Ok(default), |i| {
                    inputs::field_budget(&i.value(), name, default, ceiling)
                })
                .map_err(|m| (k, m))
        };
        Ok(Limits {
            max_work: get(0, d.max_work)?,
            max_memory: get(1, d.max_memory)?,
            max_depth: u32::try_from(get(2, u64::from(d.max_depth))?).unwrap_or(u32::MAX),
            max_tokens: get(3, d.max_tokens)?,
            max_code: get(4, d.max_code)?,
            max_diagnostics: get(5, d.max_diagnostics)?,
            // No field of its own on the page yet: the default (a link's budgets may set it).
            max_call_depth: d.max_call_depth,
        })
    }

    /// The launch as the fields say; an unparsable field is reported and the launch not made.
    fn config(&mut self) -> Option<LaunchConfig> {
        self.field_error = None;
        let mut fields: Vec<HtmlInputElement> = [
            &self.blocks,
            &self.threads,
            &self.lanes,
            &self.defines,
            &self.overrides_el,
        ]
        .into_iter()
        .chain(self.budgets.iter())
        .cloned()
        .collect();
        fields.extend(self.len_inputs());
        for input in &fields {
            let _ = inputs::unmark(input);
        }
        // The field that does not parse is marked and described by the message shown.
        let mark = |input: &HtmlInputElement| {
            let _ = input.set_attribute("aria-invalid", "true");
            let _ = input.set_attribute("aria-describedby", "kernel-error");
        };
        let parsed = (|| {
            Ok::<_, (&'static str, String)>((
                inputs::field_number(&self.blocks.value(), "blocks", MAX_BLOCKS)
                    .map_err(|m| ("blocks", m))?,
                inputs::field_number(
                    &self.threads.value(),
                    "threads per block",
                    threads_ceiling(Dialect::parse(&self.dialect.value()).ok()),
                )
                .map_err(|m| ("threads", m))?,
                inputs::field_number(&self.lanes.value(), "lanes per warp", usize::MAX)
                    .map_err(|m| ("lanes", m))?,
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
                mark(input);
                self.field_error = Some((field, message));
                return None;
            }
        };
        let _ = self.dialect.remove_attribute("aria-invalid");
        if let Some(message) = self.bad_dialect.clone() {
            let _ = self.dialect.set_attribute("aria-invalid", "true");
            self.field_error = Some(("dialect", message));
            return None;
        }
        if let Some((name, message)) = self.bad_lens.iter().next() {
            if let Some(input) = self
                .len_inputs()
                .into_iter()
                .find(|i| i.get_attribute("data-len").as_deref() == Some(name))
            {
                mark(&input);
            }
            self.field_error = Some(("length", message.clone()));
            return None;
        }
        let limits = match self.limits() {
            Ok(l) => l,
            Err((k, message)) => {
                if let Some(input) = self.budgets.get(k) {
                    mark(input);
                }
                self.field_error = Some((BUDGETS[k].1, message));
                return None;
            }
        };
        let defines = match UserMacro::parse_list(&self.defines.value()) {
            Ok(d) => d,
            Err(m) => {
                mark(&self.defines);
                self.field_error = Some(("defines", m));
                return None;
            }
        };
        match crosslane_kernel::wgsl::override_eval::parse_overrides(&self.overrides_el.value()) {
            Ok(o) => self.overrides = o,
            Err(m) => {
                mark(&self.overrides_el);
                self.field_error = Some(("overrides", format!("overrides: {m}")));
                return None;
            }
        }
        let entry = self.entry.value();
        let dialect = Dialect::parse(&self.dialect.value()).ok();
        Some(LaunchConfig {
            preprocess: PpOptions {
                defines,
                ..PpOptions::default()
            },
            entry: (!entry.is_empty()).then_some(entry),
            lanes,
            block_dim: threads.map(|t| [t, 1, 1]),
            grid_dim: blocks.map(|b| [b, 1, 1]),
            args: self
                .args
                .clone()
                .into_iter()
                .chain(self.overrides.clone())
                .collect(),
            buffer_len: self.lens.clone(),
            dialect,
            dialect_from: dialect.map(|_| "the page's dialect picker".to_string()),
            limits,
            use_fast_math: self.fast_math,
            fmad: self.fmad,
            ..LaunchConfig::default()
        })
    }

    /// Sends `command` to the worker with what the view shows.
    fn ask(&mut self, command: Command) {
        let warp = inputs::parse_warp(
            &self
                .warp_wanted
                .clone()
                .unwrap_or_else(|| self.warp_pick.value()),
        );
        let req = Request {
            command,
            at: At {
                pos: self.pos,
                warp,
                pages: self.pages.clone(),
            },
        };
        if let Some(c) = &self.client {
            c.send(req);
            if !c.engine_ready() {
                self.status
                    .set_text_content(Some(&inputs::engine_loading(&self.section)));
            }
        }
        let _ = set_data(&self.section, "state", "running");
    }

    /// Parses and launches the source with the fields in the worker, at position 0; a field
    /// that does not parse is shown at once instead.
    fn load(&mut self) -> Js<()> {
        // A run in flight is dropped (the worker replaced), not waited for: its budget may be
        // hours of work.
        if let (true, Some(c)) = (self.running, &self.client) {
            c.abandon();
        }
        self.pos = 0;
        self.len = 0;
        self.running = false;
        self.pages.clear();
        self.cancel.set_hidden(true);
        self.loaded_once = true;
        let Some(config) = self.config() else {
            self.frame = None;
            return self.render_field_error();
        };
        let source = self.source_el.value();
        let edits = self.edits.clone();
        self.loaded_generation = self.generation;
        self.ask(Command::Load {
            source,
            config,
            edits,
        });
        Ok(())
    }

    /// The buffer length fields (`#kernel-args input[data-len]`).
    fn len_inputs(&self) -> Vec<HtmlInputElement> {
        let mut out = Vec::new();
        if let Ok(found) = self.args_box.query_selector_all("input[data-len]") {
            for i in 0..found.length() {
                if let Some(input) = found
                    .item(i)
                    .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
                {
                    out.push(input);
                }
            }
        }
        out
    }

    /// Runs in the worker to trace position `target` (`None`: to the end or a budget).
    fn run(&mut self, target: Option<usize>) -> Js<()> {
        self.run_to(target, None, false)
    }

    /// [`Self::run`], then shows position `show` (`None`: where the run stopped); with
    /// `paused`, a run stopped at `target` stays paused there (a link made while paused).
    fn run_to(&mut self, target: Option<usize>, show: Option<usize>, paused: bool) -> Js<()> {
        self.running = true;
        self.ask(Command::Run {
            target,
            show,
            paused,
        });
        self.cancel.set_hidden(false);
        self.status.set_text_content(Some("running…"));
        Ok(())
    }

    /// What the worker said; returns whether it was a frame.
    fn hear(&mut self, heard: Heard) -> Js<bool> {
        match heard {
            Heard::Progress(len) => {
                self.slider.set_max(&len.to_string());
                self.slider.set_value(&len.to_string());
                self.status
                    .set_text_content(Some(&format!("running… {len} steps so far")));
                mark_ready().map(|()| false)
            }
            Heard::Frame(id, frame) => {
                // The answer to a request the view has since replaced (heard by the client
                // before the view sent the next one, shown after): the view's position is the
                // newer request's, and this frame would set it back.
                if self.client.as_ref().is_some_and(|c| !c.is_latest(id)) {
                    return Ok(false);
                }
                self.running = false;
                self.cancel.set_hidden(true);
                self.pos = frame.pos;
                self.len = frame.len;
                // The memory edits the worker kept (those whose buffer and cell still exist).
                self.edits.clone_from(&frame.edits);
                self.frame = Some(*frame);
                self.render().map(|()| true)
            }
            Heard::Failed(message) => {
                self.running = false;
                self.cancel.set_hidden(true);
                crate::panic::banner(&format!("crosslane kernel worker: {message}"));
                Ok(false)
            }
            Heard::Restarted { why, reloading } => {
                self.running = false;
                self.pos = 0;
                self.len = 0;
                self.cancel.set_hidden(true);
                if !reloading {
                    self.frame = None;
                    self.status.set_text_content(Some(&why));
                    set_data(&self.section, "state", "error")?;
                    mark_ready()?;
                }
                self.notice = Some(why);
                if let Some(c) = &self.client {
                    set_data(
                        &self.section,
                        "worker",
                        if c.in_worker() { "worker" } else { "page" },
                    )?;
                }
                Ok(false)
            }
        }
    }

    /// The inputs a link keeps ([`KernelInputs`]); empty when nothing was set, so the link of
    /// an untouched kernel is the one it was before inputs existed.
    fn inputs(&self) -> KernelInputs {
        let dialect = self.dialect.value();
        let entry = self.entry.value();
        let budgets = BUDGETS
            .iter()
            .zip(&self.budgets)
            .filter_map(|((id, _), input)| {
                let typed = input.value().trim().to_string();
                (!typed.is_empty()).then(|| (inputs::budget_key(id), typed))
            })
            .collect();
        let warp = self
            .warp_wanted
            .clone()
            .unwrap_or_else(|| self.warp_pick.value());
        KernelInputs {
            args: self.args.clone(),
            buffer_len: self.lens.clone(),
            dialect: (!dialect.is_empty()).then_some(dialect),
            entry: (!entry.is_empty()).then_some(entry),
            edits: self.edits.clone(),
            budgets,
            warp: inputs::parse_warp(&warp).map(|(b, w)| [b, w]),
            defines: self.defines.value().trim().to_string(),
            use_fast_math: self.fast_math,
            fmad: self.fmad,
            overrides: self.overrides.clone(),
            // The slider's length where the cursor is before its end (stepped back): a link
            // opens with the whole run.
            run_steps: (self.len > self.pos && !self.running)
                .then(|| u32::try_from(self.len).ok())
                .flatten(),
            paused: self.link_state().2,
        }
    }

    /// What of the run a link saves besides the inputs: the position, the run's length, and
    /// whether the run is paused (steps run, its end not reached: "paused after N steps", or a
    /// cancelled run), not finished, stopped at a budget or failed.
    fn link_state(&self) -> (usize, usize, bool) {
        let paused =
            !self.running && self.len > 0 && self.frame.as_ref().is_some_and(|f| f.state == "idle");
        (self.pos, self.len, paused)
    }

    /// Takes a link's inputs into the fields; the view's restore launches with them.
    fn set_inputs(&mut self, inputs: &KernelInputs) {
        self.args.clone_from(&inputs.args);
        self.lens.clone_from(&inputs.buffer_len);
        self.bad_lens.clear();
        self.bad_dialect = inputs::link_dialect(inputs.dialect.as_deref()).err();
        self.edits.clone_from(&inputs.edits);
        self.fast_math = inputs.use_fast_math;
        self.fmad = inputs.fmad;
        self.link_run_steps = inputs.run_steps.map(|n| n as usize);
        self.link_paused = inputs.paused;
        self.overrides.clone_from(&inputs.overrides);
        let typed: Vec<String> = inputs
            .overrides
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        self.overrides_el.set_value(&typed.join(" "));
        for ((id, _), input) in BUDGETS.iter().zip(&self.budgets) {
            let typed = inputs.budgets.get(&inputs::budget_key(id));
            input.set_value(typed.map_or("", String::as_str));
        }
        self.warp_wanted = inputs.warp.map(|[b, w]| format!("{b}:{w}"));
        self.defines.set_value(&inputs.defines);
        let dialect = inputs
            .dialect
            .as_deref()
            .and_then(|d| Dialect::parse(d).ok())
            .map_or("", Dialect::name);
        self.dialect.set_value(dialect);
        // The entry menu is rebuilt from the worker's answer; until then it holds the link's
        // entry, so the launch asks for it.
        match &inputs.entry {
            Some(e) => {
                let mut html = Html::new();
                inputs::option(&mut html, e, e);
                kit::set_html(&self.entry, &html);
                self.entry.set_value(e);
            }
            None => {
                kit::set_html(
                    &self.entry,
                    &Html::from_static(r#"<option value="">—</option>"#),
                );
            }
        }
        // The fields are rebuilt with these values when the parameters arrive.
        self.params.clear();
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

    /// The editor: the source highlighted, with the current line and the squiggles of the last
    /// frame (none while an edit waits for its parse). Linear in the source.
    fn render_source(&self) {
        let text = self.source_el.value();
        if highlight::is_plain(&text) {
            self.render_plain_source(&text);
            return;
        }
        if self.plain_lines.take().is_some() {
            let _ = self.source_el.class_list().remove_1("plain-source");
        }
        let mut marks = highlight::Marks::default();
        if let Some(f) = &self.frame {
            marks.current = f.current_line;
            marks.skipped.clone_from(&f.skipped);
            marks.squiggles = f
                .squiggles
                .iter()
                .map(|(line, col, level, message)| {
                    let level = match level.as_str() {
                        "error" => "error",
                        "warning" => "warning",
                        _ => "info",
                    };
                    (*line, *col, level, message.clone())
                })
                .collect();
        }
        let (mut code, gutter) = highlight::render(&text, highlight::Lang::of(&text), &marks);
        // A trailing newline keeps the last line's height equal to the textarea's.
        kit::set_html(&self.highlight, code.push_text("\n"));
        kit::set_html(&self.gutter, &gutter);
        self.sync_scroll();
    }

    /// A source too big to highlight ([`highlight::is_plain`]): the textarea shows its own text
    /// (`.plain-source`), the highlight layer is empty, and the gutter's numbers are written
    /// again only when the line count changes. A keystroke in a 1 MB source had replaced a 1 MB
    /// text node and its 11 000 line numbers, some 300 ms of layout each time.
    fn render_plain_source(&self, text: &str) {
        let lines = text.split('\n').count();
        if self.plain_lines.get().is_none() {
            let _ = self.source_el.class_list().add_1("plain-source");
            self.highlight.set_inner_html("");
        }
        if self.plain_lines.get() != Some(lines) {
            self.plain_lines.set(Some(lines));
            kit::set_html(&self.gutter, &highlight::plain_gutter(lines));
        }
        self.sync_scroll();
    }

    /// A launch or budget field that does not parse: said under the editor and in the status.
    fn render_field_error(&mut self) -> Js<()> {
        // An answer due for the kernel shown before (a link's default) must not draw beside it.
        self.client.iter().for_each(|c| c.forget());
        [&self.memory, &self.vars, &self.diagnostics]
            .iter()
            .for_each(|e| e.set_inner_html(""));
        let message = self
            .field_error
            .as_ref()
            .map_or(String::new(), |(_, m)| m.clone());
        self.error.set_text_content(Some(&message));
        self.error.set_hidden(false);
        self.status.set_text_content(Some(&message));
        set_data(&self.section, "state", "error")?;
        mark_ready()
    }

    /// Shows the last frame: editor marks, entry and warp menus, slider, mask, canvas, lane
    /// table, memory, diagnostics and status.
    fn render(&mut self) -> Js<()> {
        self.render_source();
        let Some(f) = &self.frame else {
            return mark_ready();
        };
        if f.entries != self.entries {
            let chosen = self.entry.value();
            let mut html = Html::new();
            for (k, n) in f.entries.iter().enumerate() {
                let first = if k == 0 { " (default)" } else { "" };
                let v = if k == 0 { "" } else { n.as_str() };
                inputs::option(&mut html, v, &format!("{n}{first}"));
            }
            if f.entries.is_empty() {
                inputs::option(&mut html, "", "—");
            }
            kit::set_html(&self.entry, &html);
            if f.entries.iter().skip(1).any(|n| *n == chosen) {
                self.entry.set_value(&chosen);
            }
            self.entries.clone_from(&f.entries);
        }
        let chosen = self
            .warp_wanted
            .clone()
            .unwrap_or_else(|| self.warp_pick.value());
        let mut html = Html::new();
        inputs::option(&mut html, "", "the warp of the step shown");
        let mut kept = false;
        for (b, w) in &f.warps {
            let value = format!("{b}:{w}");
            kept |= value == chosen;
            inputs::option(&mut html, &value, &format!("block {b} · warp {w}"));
        }
        kit::set_html(&self.warp_pick, &html);
        if kept {
            self.warp_pick.set_value(&chosen);
            self.warp_wanted = None;
        }
        kit::set_html(&self.diagnostics, &f.diagnostics_html);
        match &f.error {
            Some(message) => {
                self.error.set_text_content(Some(message));
                self.error.set_hidden(false);
            }
            None => {
                self.error.set_text_content(None);
                self.error.set_hidden(true);
            }
        }
        self.geometry.set_text_content(Some(&f.geometry));
        self.dialect_from.set_text_content(Some(&f.dialect_line));
        // Rebuilt only when the parameters change, so typing in a field keeps its focus.
        let applies = f.error.is_none() || !f.params.is_empty();
        if f.params != self.params && applies {
            let fields = inputs::fields_html(&f.params, &self.args, &self.lens);
            kit::set_html(&self.args_box, &fields);
            self.params.clone_from(&f.params);
        }
        if applies {
            self.params_from = self.loaded_generation;
        }
        // Another source that failed to load (not a field of this one, not a launch error of
        // the same source): the fields shown are the last loaded kernel's.
        let stale = !applies
            && f.error_input.is_none()
            && !self.params.is_empty()
            && self.loaded_generation != self.params_from;
        if stale != self.params_stale {
            self.params_stale = stale;
            inputs::mark_stale(&self.args_box, &self.args_stale, stale)?;
        }
        inputs::mark_fill_error(&self.args_box, f.error_input.as_deref())?;
        self.slider.set_max(&f.len.to_string());
        self.slider.set_value(&f.pos.to_string());
        self.position.set_text_content(Some(&f.position));
        let status = match &self.notice {
            Some(n) => format!("{n} · {}", f.status),
            None => f.status.clone(),
        };
        self.status.set_text_content(Some(&status));
        set_data(&self.section, "state", &f.state)?;
        kit::set_html(&self.vars, &f.vars_html);
        kit::set_html(&self.mask, &f.mask_html);
        self.warp.set_text_content(Some(&f.warp_text));
        match &f.memory_error {
            // The table stays as typed, so the cell that does not parse can be corrected.
            Some(m) => {
                self.memory_error.set_text_content(Some(m));
                self.memory_error.set_hidden(false);
            }
            None => {
                kit::set_html(&self.memory, &f.memory_html);
                self.memory_error.set_hidden(true);
            }
        }
        match &f.edits_note {
            Some(n) => {
                self.memory_note.set_text_content(Some(n));
                self.memory_note.set_hidden(false);
            }
            None => self.memory_note.set_hidden(true),
        }
        self.draw_op()?;
        self.sized = !self.section.hidden();
        let bindings = self.frame.as_ref().and_then(|f| f.wgsl_bindings.clone());
        wgsl_gpu::follow(bindings.as_deref());
        mark_ready()
    }

    /// Draws the cross-lane call of the last frame; an empty canvas before the first call.
    fn draw_op(&mut self) -> Js<()> {
        let Some(d) = self.frame.as_ref().and_then(|f| f.drawn.as_ref()) else {
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
        // The box's width, not the canvas's own: a drawing wider than its box (64+ lanes) sets
        // the canvas wider, and reading that back would keep it wide forever.
        let mut width = canvas::available_width(&self.canvas);
        if width < 50.0 {
            width = 900.0;
        }
        let drawn = scene::build(&d.step, width);
        canvas::draw(&self.canvas, &drawn, window()?.device_pixel_ratio())?;
        self.canvas.set_attribute("data-op", &d.step.op)?;
        self.canvas
            .set_attribute("data-line", &d.line.to_string())?;
        self.canvas
            .set_attribute("data-current", if d.current { "true" } else { "false" })?;
        self.canvas.set_attribute("aria-label", &d.caption)?;
        self.op_caption.set_text_content(Some(&d.caption));
        self.drawn = Some(drawn);
        Ok(())
    }
}

/// The most threads per block the page's field takes: the engine's limit for the picked dialect
/// ([`max_threads_per_block`]: 2048 for Ascend C, `asc_vf_call`'s `threadNums`; 1024 for the
/// others, CUDA C++ Programming Guide, "Thread Hierarchy"), or, with the dialect taken from the
/// source, the largest of them, the engine then refusing a block over the detected dialect's
/// limit with its own message.
fn threads_ceiling(picked: Option<Dialect>) -> usize {
    match picked {
        Some(d) => max_threads_per_block(d),
        None => Dialect::ALL
            .into_iter()
            .map(max_threads_per_block)
            .max()
            .unwrap_or(1),
    }
}
