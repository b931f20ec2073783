//! URL state: the scenario on screen lives in the URL fragment as a permalink
//! (`#v1.…`, [`crosslane_core::permalink`]), kept up to date as the user changes things and
//! restored on load and on Back / Forward.
//!
//! Generic over the views: it never names a view's types. It asks [`router::save_current`] for
//! the state of the view on screen and hands a decoded scenario to [`router::restore`]; a view
//! tells it about changes with [`router::changed`] (call it after releasing your own state's
//! borrow: `changed` asks your `save` hook synchronously).
//!
//! History: a discrete change (a menu, a checkbox, a click: any event but `input`) adds a history
//! entry (`pushState`). Typing opens a *burst*: its first keystroke adds an entry and further
//! keystrokes within [`BURST_MS`] of the previous one replace it (`replaceState`), so typing
//! `0x1f` is one entry, not four, and Back returns to the state before the burst. Which kind a
//! change is comes from the event being dispatched (`window.event`), so views need no extra call.
//! In embed mode the entry is always replaced: an iframe's entries would join the host page's
//! history.
//!
//! A kernel scenario also carries the kernel view's launch inputs ([`Scenario::kernel_inputs`]:
//! arguments, buffer lengths and fills, the memory edits cell by cell, the dialect, the entry,
//! the budgets and the warp shown), through [`router::save_inputs`] / [`router::restore_inputs`].
//!
//! The display options (hex) are part of every scenario too ([`Scenario::display`]), read from
//! and applied to [`crate::labels`] and the `#show-hex` checkbox.
//!
//! The GPU panel's open / closed state is part of every scenario ([`Scenario::gpu_panel`]). The
//! GPU panel reports it with [`set_gpu_panel`] and follows restores with [`on_gpu_panel`]; the
//! state in force is [`gpu_panel`], mirrored in `body[data-gpu-panel]` (`open` / `closed`).
//!
//! A scenario whose link would be over [`MAX_LINK_LEN`] (a pasted kernel of tens of KB) cannot
//! be in the address. The address then becomes `#`[`TOO_LARGE`] (a history entry like any
//! change), never the previous scenario's link, so it does not pass for this scenario;
//! `#link-status` says why (the link would be N KB; links are limited to 16 KB), and copy link
//! says the same. The scenario's JSON is kept in `sessionStorage` ([`DRAFT_KEY`]), so a reload
//! of the same tab (or Back / Forward to that entry) brings back what was typed; another tab or
//! browser opening `#too-large-for-a-link` shows the default scenario and says why. One draft is
//! kept per tab: the latest.
//!
//! Links are deflated by the browser ([`deflate`], `CompressionStream`), which answers
//! asynchronously: a change is queued with its scenario's JSON taken at once, and the queue is
//! written to the address in order (history entries, bursts and the too-large rule as above).
//! `body[data-link]` is `pending` while a change waits for its link and `settled` after, so a
//! test reads the address once it is `settled`.
//!
//! Links are inflated by the browser too (`inflate.rs`, `DecompressionStream`), also
//! asynchronously: the page decodes the link of its address before it mounts its views and
//! draws (`start` in lib.rs, [`arrival`]), so a link opened cold shows its scenario at the first
//! render as when it was decoded synchronously; Back / Forward apply an entry's scenario once it
//! is decoded, unless another move or a change of the reader's came first (the latest wins).
//!
//! Hostile or damaged links (truncated, another version, not base64, a decompression bomb, over
//! the size caps, a view this build cannot show): the default scenario stays on screen and one
//! line in `#link-error` says what was wrong, as text (nothing from a URL is ever inserted as
//! HTML: a link's strings only reach `value`s and text nodes).

mod deflate;
mod inflate;

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use crosslane_core::permalink::{link_from_zlib, MAX_LINK_LEN};
use crosslane_core::scenario::{Scenario, View};
use crosslane_core::{find_op, Dialect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Event, HtmlElement};

use crate::dom::{document, window, Js};
use crate::views::router;

/// The fragment of an address whose scenario is too large for a link (see the module doc).
pub const TOO_LARGE: &str = "too-large-for-a-link";

/// The `sessionStorage` key of the latest scenario too large for a link (its JSON).
pub const DRAFT_KEY: &str = "crosslane-too-large-scenario";

/// Changes closer together than this (milliseconds) share one history entry.
pub const BURST_MS: i32 = 600;

/// A function told the GPU panel state of each scenario applied.
type GpuListener = Box<dyn Fn(bool)>;

thread_local! {
    /// The link now in the URL (without `#`).
    static COMMITTED: RefCell<String> = const { RefCell::new(String::new()) };
    /// The scenario on screen when the page opened, before any link was applied: what an empty
    /// fragment (Back to the very first entry) and a damaged link show.
    static DEFAULT: RefCell<Option<Scenario>> = const { RefCell::new(None) };
    static GPU_PANEL: Cell<bool> = const { Cell::new(false) };
    static GPU_LISTENERS: RefCell<Vec<GpuListener>> = const { RefCell::new(Vec::new()) };
    /// Set while a scenario is being applied, so the views' own change reports are not taken
    /// for user edits.
    static RESTORING: Cell<bool> = const { Cell::new(false) };
    /// A burst is open: the next change replaces the current history entry.
    static IN_BURST: Cell<bool> = const { Cell::new(false) };
    static TIMER: Cell<Option<i32>> = const { Cell::new(None) };
    static END_BURST: RefCell<Option<Closure<dyn FnMut()>>> = const { RefCell::new(None) };
    /// The last scenario encoded (its JSON) and its link: every change report asks for the
    /// link, most often of an unchanged scenario (a MACA builtin switch reports twice).
    static ENCODED: RefCell<(String, String)> = const { RefCell::new((String::new(), String::new())) };
    /// Changes waiting for their link, oldest first (see the module doc).
    static QUEUE: RefCell<VecDeque<Pending>> = const { RefCell::new(VecDeque::new()) };
    /// Whether a task is writing [`QUEUE`] to the address.
    static DRAINING: Cell<bool> = const { Cell::new(false) };
    /// Counts history moves and the reader's changes: a link decoded for a move is applied only
    /// if nothing came after the move (see [`on_history_move`]).
    static MOVES: Cell<u64> = const { Cell::new(0) };
}

/// A change of the scenario on screen, waiting for its link.
struct Pending {
    /// The scenario's JSON when the change happened.
    json: String,
    /// How it enters the history.
    kind: Change,
}

/// How a queued change enters the history.
#[derive(Clone, Copy)]
enum Change {
    /// A view changed: a new entry, or the burst's entry while typing (`typing`: the change
    /// came from an `input` event).
    Edit { typing: bool },
    /// The current entry is amended, never a new one ([`amend`], the first address).
    Amend,
}

/// Records whether the GPU comparison panel is open (called by the GPU panel when the user
/// opens or closes it) and updates the URL (a history entry, like any change).
pub fn set_gpu_panel(open: bool) {
    if GPU_PANEL.with(|g| g.replace(open)) != open {
        let _ = mirror_gpu_panel();
        update();
    }
}

/// `body[data-gpu-panel]`: `open` or `closed`, for styles and tests.
fn mirror_gpu_panel() -> Js<()> {
    match document()?.body() {
        Some(body) => body
            .dataset()
            .set("gpuPanel", if gpu_panel() { "open" } else { "closed" }),
        None => Ok(()),
    }
}

/// Whether the scenario in force has the GPU panel open.
pub fn gpu_panel() -> bool {
    GPU_PANEL.with(Cell::get)
}

/// Calls `f` with the panel state each time a scenario is applied (load, Back / Forward), so
/// the GPU panel can open or close itself. `f` is also called at once with the current state.
pub fn on_gpu_panel(f: impl Fn(bool) + 'static) {
    f(gpu_panel());
    GPU_LISTENERS.with(|l| l.borrow_mut().push(Box::new(f)));
}

/// The scenario on screen (the current view's state and the GPU panel), if the view has one.
pub fn current_scenario() -> Option<Scenario> {
    let mut s = Scenario::new(router::save_current()?);
    if matches!(s.view, View::Kernel { .. }) {
        s.kernel_inputs = router::save_inputs();
    }
    s.gpu_panel = gpu_panel();
    s.display.hex = hex_box().is_some_and(|b| b.checked());
    s.tab = Some(router::current());
    Some(s)
}

/// The permalink of the scenario on screen (`v1.…`), if the view has state and the link is not
/// over [`MAX_LINK_LEN`] (a link the decoder would refuse is never offered).
pub async fn current_link() -> Option<String> {
    current_link_or_why().await.ok()
}

/// [`current_link`], or the one line that says why there is none: the view has no state, the
/// link would be over [`MAX_LINK_LEN`] ([`too_large_message`]), or the browser could not
/// deflate it.
///
/// # Errors
/// The line to show (copy link, copy embed code).
pub async fn current_link_or_why() -> Result<String, String> {
    let json = current_json().ok_or("this view has nothing to link to")?;
    let link = link_of(&json).await?;
    if link.len() > MAX_LINK_LEN {
        return Err(too_large_message(link.len()));
    }
    Ok(link)
}

/// The link now in the address (without `#`), if it is one: what the page shows at once while
/// [`current_link`] is on its way.
pub fn committed_link() -> Option<String> {
    let link = COMMITTED.with(|c| c.borrow().clone());
    link.starts_with(crosslane_core::permalink::PREFIX)
        .then_some(link)
}

/// The scenario on screen as JSON, if the view has state.
fn current_json() -> Option<String> {
    current_scenario().map(|s| s.to_json())
}

/// The link of a scenario's JSON, of any length (memoized, see `ENCODED`).
///
/// # Errors
/// The browser's deflater failed ([`deflate::zlib`]).
async fn link_of(json: &str) -> Result<String, String> {
    let known = ENCODED.with(|memo| {
        let memo = memo.borrow();
        (memo.0 == json && !memo.1.is_empty()).then(|| memo.1.clone())
    });
    if let Some(link) = known {
        return Ok(link);
    }
    let link = link_from_zlib(&deflate::zlib(json).await?);
    ENCODED.with(|memo| *memo.borrow_mut() = (json.to_string(), link.clone()));
    Ok(link)
}

/// Why a link of `len` bytes is not offered: its size and the limit, in KB (rounded up, so the
/// size shown is always over the limit), and where the text is kept instead.
pub fn too_large_message(len: usize) -> String {
    format!(
        "No link for this scenario: the link would be {} KB; links are limited to {} KB. The \
         address shows #{TOO_LARGE}, and the text is kept in this browser tab only (a reload \
         of the tab brings it back); to share it, save the source as a file.",
        len.div_ceil(1024),
        MAX_LINK_LEN / 1024
    )
}

/// Amends the current history entry with the scenario on screen (no new entry): for a view
/// that records where the user was just before leaving it (the reference view's article before
/// "open in playground"), so that Back returns there.
pub fn amend() {
    if RESTORING.with(Cell::get) {
        return;
    }
    enqueue(Change::Amend);
}

/// The link of the page's address, decoded ([`arrival`]): what [`install`] opens.
pub struct Arrival {
    /// The fragment decoded (without `#`).
    link: String,
    /// Its scenario, or why not.
    decoded: Result<Scenario, inflate::DecodeError>,
}

/// Decodes the link in the address, if it holds one (not empty, not `#`[`TOO_LARGE`]): what
/// `start` awaits before mounting the views, so that [`install`] applies it at once and the
/// first render shows it. `None` when there is no link to decode.
pub async fn arrival() -> Option<Arrival> {
    let link = fragment().ok()?;
    if link.is_empty() || link == TOO_LARGE {
        return None;
    }
    let decoded = inflate::decode(&link).await;
    Some(Arrival { link, decoded })
}

/// Whether the address holds a link to decode before the first render ([`arrival`]).
pub fn arriving() -> bool {
    fragment().is_ok_and(|link| !link.is_empty() && link != TOO_LARGE)
}

/// Applies the address's scenario (`arrived`, decoded by [`arrival`]; or reports why not), and
/// from then on keeps the URL in step with the page. Call once, after every view has registered
/// its hooks.
pub fn install(arrived: Option<Arrival>) -> Js<()> {
    DEFAULT.with(|d| *d.borrow_mut() = current_scenario());
    mirror_gpu_panel()?;
    let link = fragment()?;
    if link.is_empty() {
        enqueue(Change::Amend);
    } else if link == TOO_LARGE {
        open_draft()?;
        COMMITTED.with(|c| *c.borrow_mut() = link);
    } else {
        match arrived {
            Some(arrived) if arrived.link == link => {
                if let Err(why) = open(arrived.decoded) {
                    show_error(&why)?;
                    // The damaged link stays in the address bar until the first change, so the
                    // user can still see and copy what they were given.
                } else {
                    COMMITTED.with(|c| *c.borrow_mut() = link);
                }
            }
            // The address changed while its link was decoded (or nobody decoded it): decoded
            // now, as Back / Forward do.
            _ => open_later(link),
        }
    }
    // The views scroll to what a restored entry shows themselves (the reference view's article).
    // The browser's own restoration would undo that: an entry's scroll position is saved when the
    // next entry is pushed, and a link is pushed only once the browser has deflated it, after a
    // view may already have scrolled for the next scenario (HTML Standard, "scroll restoration
    // mode"; `manual` leaves scrolling to the page).
    let _ = js_sys::Reflect::set(
        &JsValue::from(window()?.history()?),
        &JsValue::from_str("scrollRestoration"),
        &JsValue::from_str("manual"),
    );
    router::on_change(|_| update());
    crate::kit::listen(&window()?, "popstate", |_| {
        if let Err(e) = on_history_move() {
            crate::panic::banner(&format!("crosslane could not restore the link: {e:?}"));
        }
    })?;
    let end = Closure::<dyn FnMut()>::new(|| {
        IN_BURST.with(|b| b.set(false));
        TIMER.with(|t| t.set(None));
    });
    END_BURST.with(|e| *e.borrow_mut() = Some(end));
    Ok(())
}

/// The URL fragment without `#`.
fn fragment() -> Js<String> {
    let hash = window()?.location().hash()?;
    Ok(hash.strip_prefix('#').unwrap_or(&hash).to_string())
}

/// Applies a decoded link. `Err` is the one line shown to the user.
fn open(decoded: Result<Scenario, inflate::DecodeError>) -> Result<(), String> {
    let scenario = decoded.map_err(|e| {
        format!("This link could not be opened: {e}. Showing the default scenario.")
    })?;
    apply(&scenario)
}

/// Decodes `link` ([`inflate::decode`], asynchronous) and applies it as the address's entry,
/// unless a history move or a change of the reader's came meanwhile ([`MOVES`]): the latest
/// wins.
fn open_later(link: String) {
    let moves = next_move();
    wasm_bindgen_futures::spawn_local(async move {
        let decoded = inflate::decode(&link).await;
        if MOVES.with(Cell::get) != moves {
            return;
        }
        let shown = match open(decoded) {
            Ok(()) => {
                COMMITTED.with(|c| *c.borrow_mut() = link);
                Ok(())
            }
            Err(why) => show_error(&why),
        };
        if let Err(e) = shown {
            crate::panic::banner(&format!("crosslane could not restore the link: {e:?}"));
        }
    });
}

/// Counts a history move or a change of the reader's ([`MOVES`]); returns the new count.
fn next_move() -> u64 {
    MOVES.with(|m| {
        m.set(m.get() + 1);
        m.get()
    })
}

/// Hands a scenario to the views. `Err` is the one line shown to the user; nothing is applied
/// then (the check happens before any view is touched).
fn apply(scenario: &Scenario) -> Result<(), String> {
    if let View::Op(req) = &scenario.view {
        // Checked here, not left to the form: a link naming an op this build lacks would
        // otherwise show an empty menu rather than the default scenario.
        if let Err(e) = Dialect::parse(&req.dialect).and_then(|d| find_op(d, &req.op)) {
            return Err(format!(
                "This link could not be opened: {}: {}. Showing the default scenario.",
                e.field, e.message
            ));
        }
    }
    RESTORING.with(|r| r.set(true));
    // Display options first, so the view restored next draws with them.
    set_display(&scenario.display);
    if matches!(scenario.view, View::Kernel { .. }) {
        // Before the view's restore, which launches with them.
        router::restore_inputs(&scenario.kernel_inputs);
    }
    let taken = router::restore_in(&scenario.view, scenario.tab.as_deref());
    if taken {
        GPU_PANEL.with(|g| g.set(scenario.gpu_panel));
        let _ = mirror_gpu_panel();
        GPU_LISTENERS.with(|l| {
            if let Ok(listeners) = l.try_borrow() {
                for f in listeners.iter() {
                    f(scenario.gpu_panel);
                }
            }
        });
    }
    RESTORING.with(|r| r.set(false));
    if taken {
        let _ = show_error("");
        Ok(())
    } else {
        Err(format!(
            "This link could not be opened: this build has no view for its {} scenario. Showing the default scenario.",
            view_kind(&scenario.view)
        ))
    }
}

/// The operation view's `#show-hex` checkbox, where the display options live: the view reads
/// them from it at each render.
fn hex_box() -> Option<web_sys::HtmlInputElement> {
    document()
        .ok()
        .and_then(|d| d.get_element_by_id("show-hex"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
}

/// Applies a scenario's display options: checks or clears `#show-hex` (the view restored next
/// draws with it).
fn set_display(display: &crosslane_core::scenario::Display) {
    if let Some(input) = hex_box() {
        input.set_checked(display.hex);
    }
}

fn view_kind(view: &View) -> &'static str {
    match view {
        View::Op(_) => "operation",
        View::Kernel { .. } => "kernel",
        View::Sort { .. } => "sort",
        View::Compare { .. } => "portability",
        View::Reference { .. } => "reference",
    }
}

/// Back / Forward: show the entry's scenario (the default one for an entry without a link).
fn on_history_move() -> Js<()> {
    close_burst()?;
    // A change still waiting for its link belongs to the entry being left: written now, it
    // would add an entry after the one Back or Forward chose.
    QUEUE.with(|q| q.borrow_mut().clear());
    let link = fragment()?;
    if !link.is_empty() && link != TOO_LARGE {
        // Decoded by the browser, asynchronously; applied then, if still the latest move.
        open_later(link);
        return Ok(());
    }
    // A link still being decoded for an earlier move is not applied over this one.
    next_move();
    if link == TOO_LARGE {
        open_draft()?;
        COMMITTED.with(|c| *c.borrow_mut() = link);
        return Ok(());
    }
    let result = match DEFAULT.with(|d| d.borrow().clone()) {
        Some(s) => apply(&s),
        None => Ok(()),
    };
    match result {
        Ok(()) => COMMITTED.with(|c| *c.borrow_mut() = link),
        Err(why) => show_error(&why)?,
    }
    Ok(())
}

/// The address is `#`[`TOO_LARGE`]: shows this tab's kept scenario ([`DRAFT_KEY`]) with
/// `#link-status` saying why it has no link, or — in another tab, or once the storage is gone —
/// the default scenario with `#link-error` saying why.
fn open_draft() -> Js<()> {
    let draft = storage_call("getItem", &[DRAFT_KEY]).and_then(|v| v.as_string());
    let scenario = draft.and_then(|json| Scenario::from_json(json.as_bytes()).ok());
    let result = match scenario {
        Some(s) => apply(&s),
        None => {
            if let Some(s) = DEFAULT.with(|d| d.borrow().clone()) {
                let _ = apply(&s);
            }
            Err(format!(
                "This address stands for a scenario too large for a link (links are limited to {} KB); its text is kept only in the browser tab where it was typed. Showing the default scenario.",
                MAX_LINK_LEN / 1024
            ))
        }
    };
    match result {
        Ok(()) => {
            // Whether the kept scenario has a link now (it may have been edited under the
            // limit): said once the browser has deflated it.
            let json = current_json();
            wasm_bindgen_futures::spawn_local(async move {
                let status = match json {
                    Some(json) => match link_of(&json).await {
                        Ok(link) if link.len() > MAX_LINK_LEN => too_large_message(link.len()),
                        Ok(_) => String::new(),
                        Err(why) => why,
                    },
                    None => String::new(),
                };
                let _ = show_status(&status);
            });
            Ok(())
        }
        Err(why) => {
            show_status("")?;
            show_error(&why)
        }
    }
}

/// Calls method `name` of the tab's `sessionStorage` with string arguments; `None` when the
/// browser gives no storage (a sandboxed frame, …) or the call throws (full). Through
/// `Reflect`, as the two calls need no more.
fn storage_call(name: &str, args: &[&str]) -> Option<JsValue> {
    let win: JsValue = window().ok()?.into();
    let storage = js_sys::Reflect::get(&win, &JsValue::from_str("sessionStorage"))
        .ok()
        .filter(JsValue::is_object)?;
    let method = js_sys::Reflect::get(&storage, &JsValue::from_str(name))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    method.apply(&storage, &args).ok()
}

/// `#link-status`: why the address cannot follow the page, as text; hidden when empty.
fn show_status(why: &str) -> Js<()> {
    let Some(line) = document()?.get_element_by_id("link-status") else {
        return Ok(());
    };
    if line.text_content().as_deref().unwrap_or("") != why {
        line.set_text_content(Some(why));
    }
    if let Ok(h) = line.dyn_into::<HtmlElement>() {
        h.set_hidden(why.is_empty());
    }
    Ok(())
}

/// `#link-error`: `why` as text, hidden when empty.
fn show_error(why: &str) -> Js<()> {
    let Some(line) = document()?.get_element_by_id("link-error") else {
        return Ok(());
    };
    line.set_text_content(Some(why));
    if let Ok(h) = line.dyn_into::<HtmlElement>() {
        h.set_hidden(why.is_empty());
    }
    Ok(())
}

/// A view changed: bring the URL up to date (see the module doc for the history policy).
fn update() {
    if RESTORING.with(Cell::get) {
        return;
    }
    // The reader's change wins over a link still being decoded for Back / Forward.
    next_move();
    enqueue(Change::Edit { typing: typing() });
}

/// Queues the scenario on screen (its JSON taken now) for the address, and starts the task
/// that writes the queue unless it runs.
fn enqueue(kind: Change) {
    let Some(json) = current_json() else {
        return;
    };
    QUEUE.with(|q| q.borrow_mut().push_back(Pending { json, kind }));
    mark_link("pending");
    if !DRAINING.with(|d| d.replace(true)) {
        wasm_bindgen_futures::spawn_local(drain());
    }
}

/// Writes the queued changes to the address, in order, each once its link is made.
async fn drain() {
    while let Some(next) = QUEUE.with(|q| q.borrow_mut().pop_front()) {
        let written = match link_of(&next.json).await {
            Ok(link) => settle(&next, link),
            Err(why) => show_status(&why),
        };
        if let Err(e) = written {
            crate::panic::banner(&format!("crosslane could not update the URL: {e:?}"));
        }
    }
    DRAINING.with(|d| d.set(false));
    mark_link("settled");
}

/// `body[data-link]`: `pending` or `settled` (see the module doc).
fn mark_link(state: &str) {
    if let Some(body) = document().ok().and_then(|d| d.body()) {
        let _ = body.dataset().set("link", state);
    }
}

/// Writes one queued change, its link made, as a new entry, the burst's entry or an amended
/// one (the history policy of the module doc).
fn settle(change: &Pending, link: String) -> Js<()> {
    match change.kind {
        Change::Amend => {
            commit(&change.json, link, false)?;
        }
        Change::Edit { typing } => {
            if !typing {
                let _ = close_burst();
            }
            let in_burst = IN_BURST.with(Cell::get);
            if commit(&change.json, link, !in_burst)? {
                let _ = show_error("");
                if typing {
                    IN_BURST.with(|b| b.set(true));
                    let _ = restart_timer();
                }
            }
        }
    }
    Ok(())
}

/// Whether the event being dispatched is a keystroke (`input`). `window.event` is the event
/// whose listeners are running (HTML Standard, "current event"); outside any event it is
/// undefined, and such a change counts as discrete.
fn typing() -> bool {
    let Ok(win) = window() else {
        return false;
    };
    js_sys::Reflect::get(&win, &JsValue::from_str("event"))
        .ok()
        .and_then(|e| e.dyn_into::<Event>().ok())
        .is_some_and(|e| e.type_() == "input")
}

/// Writes a scenario's link into the URL, as a new history entry (`push`) or in place. Returns
/// whether the URL changed. A scenario over [`MAX_LINK_LEN`] writes `#`[`TOO_LARGE`] instead,
/// keeps its JSON in `sessionStorage` and says why in `#link-status` (see the module doc).
fn commit(json: &str, link: String, push: bool) -> Js<bool> {
    let link = if link.len() > MAX_LINK_LEN {
        // Kept at every change, so a reload brings back the latest text. A full or refused
        // storage only loses the reload copy; the message says the same either way.
        let _ = storage_call("setItem", &[DRAFT_KEY, json]);
        show_status(&too_large_message(link.len()))?;
        TOO_LARGE.to_string()
    } else {
        show_status("")?;
        link
    };
    if COMMITTED.with(|c| *c.borrow() == link) {
        return Ok(false);
    }
    let history = window()?.history()?;
    let url = format!("#{link}");
    // An embed's history entries would join the host page's session history, so the reader's
    // Back button would step through the embed: an embed only replaces its entry.
    if push && !crate::query::is_embed() {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url))?;
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url))?;
    }
    COMMITTED.with(|c| *c.borrow_mut() = link);
    Ok(true)
}

fn restart_timer() -> Js<()> {
    let win = window()?;
    if let Some(t) = TIMER.with(Cell::take) {
        win.clear_timeout_with_handle(t);
    }
    let id = END_BURST.with(|e| {
        e.borrow().as_ref().map(|c| {
            win.set_timeout_with_callback_and_timeout_and_arguments_0(
                c.as_ref().unchecked_ref(),
                BURST_MS,
            )
        })
    });
    if let Some(id) = id {
        let id = id?;
        TIMER.with(|t| t.set(Some(id)));
    }
    Ok(())
}

fn close_burst() -> Js<()> {
    if let Some(t) = TIMER.with(Cell::take) {
        window()?.clear_timeout_with_handle(t);
    }
    IN_BURST.with(|b| b.set(false));
    Ok(())
}

/// How an address opens the page: the full page, or as an embed (`?embed`, optionally
/// `=static`: nothing editable; `theme=dark` where the embed follows a dark page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// The full page.
    Page,
    /// An embed: dark theme or not, read-only (`?embed=static`) or editable.
    Embed {
        /// `&theme=dark`.
        dark: bool,
        /// `?embed=static` instead of `?embed`.
        read_only: bool,
    },
}

/// The address of this page opening the scenario of `link` as `opening` says.
///
/// # Errors
/// When the page's own location cannot be read.
pub fn page_url(link: &str, opening: Opening) -> Js<String> {
    let loc = window()?.location();
    let base = format!("{}{}", loc.origin()?, loc.pathname()?);
    Ok(match opening {
        Opening::Page => format!("{base}#{link}"),
        Opening::Embed { dark, read_only } => format!(
            "{base}?embed{}{}#{link}",
            if read_only { "=static" } else { "" },
            if dark { "&theme=dark" } else { "" }
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_large_message_names_the_size_over_the_limit_and_the_limit() {
        // One byte over 16 KiB is 17 KB rounded up: never "16 KB; limited to 16 KB".
        let m = too_large_message(MAX_LINK_LEN + 1);
        assert!(
            m.contains("the link would be 17 KB; links are limited to 16 KB"),
            "{m}"
        );
        let m = too_large_message(61 * 1024 - 10);
        assert!(m.contains("would be 61 KB"), "{m}");
        assert!(m.contains(&format!("#{TOO_LARGE}")), "{m}");
    }
}
