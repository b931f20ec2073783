//! The sort view's DOM: the input form (n, seed, typed keys, random button, dialect, wire
//! threshold), the figures and checks, the step control (`#sort-reset`, `#sort-back`,
//! `#sort-step`, `#sort-slider`), the Knuth diagram or the sortedness plot on `#sort-canvas`, the
//! keys after the current stage (`#sort-keys`), the per-stage counters (`#sort-counters`) and the
//! in-warp panel (`#sort-warp`: the current stage's shuffles drawn by the lane renderer).
//!
//! `#sort-canvas` carries the page contract's data attributes: `data-mode` (`diagram` or `plot`),
//! `data-len`, `data-comparators`, `data-stages`, `data-at` (stages run) and `data-swaps` (swaps of
//! the stage that ran last). An input error keeps the last drawing and shows in `#sort-error`.
//!
//! A walk computed in a worker (more than [`WORKER_MIN_LEN`] keys) shows `button#sort-cancel`
//! while it runs: Cancel terminates the worker and keeps the last run on screen; a watchdog does
//! the same when the worker has not answered in [`SORT_WATCHDOG_MS`] (as the kernel run's
//! `#kernel-cancel` and watchdog, `worker/client.rs`). `#sort-job` (`role=status`) says which of
//! the two stopped it. `#sort-cancel[data-watchdog-ms]`, when set, replaces the watchdog's limit
//! (the e2e test of the watchdog uses it).

use crosslane_core::network::report::MAX_REPORT_LEN;
use crosslane_core::network::WarpSort;
use crosslane_core::scenario::View;
use crosslane_core::InputError;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    Document, Element, Event, EventTarget, HtmlCanvasElement, HtmlElement, HtmlInputElement,
    HtmlSelectElement,
};

use super::model::{SortRun, DRAW_LIMIT, KEYS_SHOWN, WARP_DIALECTS};
use super::{diagram, plot};
use crate::dom::{by_id, document, el, el_as, mark_ready, window, Js};
use crate::kit::{self, Html, Owned, State, WeakState};
use crate::panic;
use crate::render::{canvas, scene};
use crate::views::router;
use crate::worker::sort::SortJob;

use super::worker::{SortWorker, Word, WORKER_MIN_LEN};

/// Milliseconds a worker walking the network may take before the watchdog stops it: 2^20 keys
/// take a few seconds on a busy 2-core machine, the worker's wasm load included.
pub const SORT_WATCHDOG_MS: i32 = 60_000;

/// Largest wire threshold the form accepts (drawing more wires helps nobody).
const MAX_THRESHOLD: usize = 1024;

/// Keys of the page's first run: the reversed ten keys that naive bitonic code gets wrong.
const FIRST_VALUES: &str = "9,8,7,6,5,4,3,2,1,0";

struct SortPage {
    len: HtmlInputElement,
    seed: HtmlInputElement,
    values: HtmlInputElement,
    dialect: HtmlSelectElement,
    threshold: HtmlInputElement,
    error: HtmlElement,
    figures: Element,
    verify: Element,
    slider: HtmlInputElement,
    position: Element,
    canvas: HtmlCanvasElement,
    keys: Element,
    counters: Element,
    warp_note: Element,
    warp_steps: Element,
    warp: HtmlElement,
    cancel: HtmlElement,
    job_status: Element,
    run: Option<SortRun>,
    warp_run: Option<Result<WarpSort, InputError>>,
    at: usize,
    /// The stage a link asked for while its run is walked in a worker: applied when the run
    /// arrives ([`Self::take`]), and saved in the meantime, so the address keeps it.
    /// Any other input drops it.
    restored_at: Option<usize>,
    /// The view itself, for the answer of a walk computed in a worker.
    me: WeakState<SortPage>,
    /// The walk in progress in a worker (more than [`WORKER_MIN_LEN`] random keys) and its
    /// job (walked here if the worker fails); a newer input terminates it.
    job: Option<(SortWorker, SortJob)>,
    /// A warm worker waiting for the next walk ([`super::worker`]).
    spare: Option<SortWorker>,
    /// The last worker started's serial number.
    serial: u64,
    /// Bumped by every walk started, so that only the latest one's answer is shown.
    job_id: u64,
    /// Bumped by every [`SortPage::show`], so that a show asked for later is skipped when the
    /// view was shown in between.
    shows: u64,
}

/// Builds the view inside `section#view-sort`, wires it and registers its router hooks.
///
/// # Errors
/// A DOM call that fails (the section is missing from index.html, …).
pub fn mount() -> Js<()> {
    let doc = document()?;
    let Some(section) = doc.get_element_by_id("view-sort") else {
        return Ok(());
    };
    kit::set_html(&section, &skeleton());
    fill_dialects(&doc)?;
    let page = SortPage {
        len: by_id(&doc, "sort-len")?,
        seed: by_id(&doc, "sort-seed")?,
        values: by_id(&doc, "sort-values")?,
        dialect: by_id(&doc, "sort-dialect")?,
        threshold: by_id(&doc, "sort-threshold")?,
        error: by_id(&doc, "sort-error")?,
        figures: by_id(&doc, "sort-figures")?,
        verify: by_id(&doc, "sort-verify")?,
        slider: by_id(&doc, "sort-slider")?,
        position: by_id(&doc, "sort-position")?,
        canvas: by_id(&doc, "sort-canvas")?,
        keys: by_id(&doc, "sort-keys")?,
        counters: by_id(&doc, "sort-counters-body")?,
        warp_note: by_id(&doc, "sort-warp-note")?,
        warp_steps: by_id(&doc, "sort-warp-steps")?,
        warp: by_id(&doc, "sort-warp")?,
        cancel: by_id(&doc, "sort-cancel")?,
        job_status: by_id(&doc, "sort-job")?,
        run: None,
        warp_run: None,
        at: 0,
        restored_at: None,
        me: WeakState::default(),
        job: None,
        spare: None,
        serial: 0,
        job_id: 0,
        shows: 0,
    };
    let page = State::new(page);
    let me = page.downgrade();
    page.update(|p| p.me = me);

    let form: EventTarget = by_id::<Element>(&doc, "sort-form")?.into();
    page.listen(&form, "input", |p, e| {
        let id = target_id(&e);
        if id == "sort-dialect" {
            return Ok(());
        }
        // A typed n is applied: the key list follows it (n random keys from the seed), so the
        // typed keys, which would otherwise win, are cleared.
        if id == "sort-len" && p.typed_values().is_some() {
            p.values.set_value("");
        }
        p.recompute()
    })?;
    // The in-warp dialect is bound to the view: a pick re-runs the warp variant and redraws.
    let dialect = page
        .get()
        .ok_or_else(|| JsValue::from_str("busy"))?
        .dialect
        .clone();
    kit::bind::text(&page, &dialect, |p, _| {
        p.run_warp();
        p.show()
    })?;
    page.listen(&form, "submit", |_, e| {
        e.prevent_default();
        Ok(())
    })?;
    let button = |id: &str| -> Js<EventTarget> { Ok(by_id::<Element>(&doc, id)?.into()) };
    page.listen(&button("sort-random")?, "click", |p, _| {
        let seed = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        p.seed.set_value(&seed.to_string());
        p.values.set_value("");
        p.recompute()
    })?;
    page.listen(&button("sort-cancel")?, "click", |p, _| {
        p.stop_job("cancelled: the walk in the worker was stopped")
    })?;
    page.listen(&button("sort-step")?, "click", |p, _| p.go(p.at + 1))?;
    page.listen(&button("sort-back")?, "click", |p, _| {
        p.go(p.at.saturating_sub(1))
    })?;
    page.listen(&button("sort-reset")?, "click", |p, _| p.go(0))?;
    page.listen(&button("sort-end")?, "click", |p, _| p.go(usize::MAX))?;
    let slider: EventTarget = page
        .get()
        .ok_or_else(|| JsValue::from_str("busy"))?
        .slider
        .clone()
        .into();
    page.listen(&slider, "input", |p, _| {
        let at = p.slider.value().parse::<usize>().unwrap_or(0);
        p.go(at)
    })?;
    let win: EventTarget = window()?.into();
    page.listen(&win, "resize", |p, _| {
        if crate::views::router::current() == "sort" {
            p.show()?;
        }
        Ok(())
    })?;
    // Drawings made while the section was hidden have no width: redraw when the tab opens.
    router::on_change({
        let page = page.clone();
        move |view| {
            if view != "sort" || page.is_reporting() {
                return;
            }
            if let Some(mut p) = page.get_mut() {
                p.keep_spare();
                if let Err(err) = p.show() {
                    panic::banner(&format!("crosslane hit a page error: {err:?}"));
                }
            }
        }
    });

    let saved = page.clone();
    let restored = page.clone();
    router::register(router::ViewHooks {
        name: "sort",
        save: Box::new(move || saved.get()?.save()),
        restore: Box::new(move |view| {
            let Some(mut p) = restored.get_mut() else {
                return false;
            };
            p.restore(view)
        }),
    });

    let mut p = page.get_mut().ok_or_else(|| JsValue::from_str("busy"))?;
    p.recompute()
}

impl Owned for SortPage {
    const WHAT: &'static str = "the sort view";

    /// Told after the state is released, so the router's save hook can read it (the URL
    /// follows every change); a report that changes nothing adds no history. A resize
    /// changes nothing worth a link.
    fn settled(page: &State<SortPage>, kind: &str) {
        if kind != "resize" {
            page.reporting(|| router::changed("sort"));
        }
    }
}

/// The view's static markup (ids are the page contract).
fn skeleton() -> Html {
    let mut h = Html::new();
    h.markup(
        r#"<div class="sort-layout">
<aside class="sort-panel" aria-label="sort controls">
<form id="sort-form" autocomplete="off" novalidate>
<div class="field"><label for="sort-len">keys <code>n</code></label>
<input id="sort-len" type="number" min="1" max=""#,
    );
    h.push_text(MAX_REPORT_LEN);
    h.markup(
        r#"" value="10" inputmode="numeric">
<p class="hint">1 to "#,
    );
    h.push_text(MAX_REPORT_LEN);
    h.markup(
        r#" (2^20); typing n replaces the keys below with n random keys from the seed</p></div>
<div class="field"><label for="sort-values">keys (comma list)</label>
<input id="sort-values" type="text" spellcheck="false" value=""#,
    );
    h.push_text(FIRST_VALUES);
    h.markup(
        r#"" placeholder="empty: random keys from the seed">
<p class="hint">empty: n random keys in 0..1000 from the seed (as <code>crosslane sort</code>)</p></div>
<div class="field"><label for="sort-seed">seed</label>
<input id="sort-seed" type="text" spellcheck="false" value="1" inputmode="numeric"></div>
<button type="button" id="sort-random" class="button">random keys</button>
<div class="field"><label for="sort-dialect">in-warp dialect</label>
<select id="sort-dialect"></select></div>
<div class="field"><label for="sort-threshold">draw wires up to n =</label>
<input id="sort-threshold" type="number" min="1" max=""#,
    );
    h.push_text(MAX_THRESHOLD);
    h.markup(r#"" value=""#);
    h.push_text(DRAW_LIMIT);
    h.markup(
        r#"">
<p class="hint">above it: stage counters and a sortedness plot</p></div>
</form>
<p id="sort-error" role="alert" hidden></p>
</aside>
<div class="sort-main">
<section class="sort-card" aria-labelledby="sort-network-title">
<div class="section-head"><h2 id="sort-network-title">odd-even merge network</h2><p id="sort-figures"></p></div>
<p class="sort-job"><button type="button" id="sort-cancel" class="button" title="stop walking the network (the last run stays)" hidden>cancel</button> <span id="sort-job" role="status"></span></p>
<p id="sort-verify"></p>
<div class="sort-controls" role="group" aria-label="step through the stages">
<button type="button" id="sort-reset" title="back to the input">reset</button>
<button type="button" id="sort-back" title="previous stage">◀ back</button>
<button type="button" id="sort-step" title="run the next stage">step ▶</button>
<button type="button" id="sort-end" title="run every stage">end</button>
<input id="sort-slider" type="range" min="0" max="0" value="0" aria-label="stages run">
<span id="sort-position"></span>
</div>
<div class="sort-canvas-wrap" tabindex="0" role="region" aria-label="Knuth diagram (scrolls)"><canvas id="sort-canvas" role="img" aria-label="Knuth diagram" aria-describedby="sort-keys"></canvas></div>
<h3>keys after the stages run</h3>
<div id="sort-keys" aria-live="polite"></div>
</section>
<section class="sort-card" id="sort-warp" aria-labelledby="sort-warp-title">
<div class="section-head"><h2 id="sort-warp-title">in-warp shuffles of this stage</h2><p id="sort-warp-note" class="hint"></p></div>
<div id="sort-warp-steps"></div>
</section>
<section class="sort-card" aria-labelledby="sort-counters-title">
<h2 id="sort-counters-title">stage counters</h2>
<div class="table-wrap sort-counters-wrap"><table id="sort-counters">
<thead><tr><th scope="col">stage</th><th scope="col">p</th><th scope="col">k</th><th scope="col">comparators</th><th scope="col">swaps</th><th scope="col">adjacent pairs in order after</th></tr></thead>
<tbody id="sort-counters-body"></tbody></table></div>
</section>
</div>
</div>"#,
    );
    h
}

fn fill_dialects(doc: &Document) -> Js<()> {
    let select: HtmlSelectElement = by_id(doc, "sort-dialect")?;
    for d in WARP_DIALECTS {
        let option = el(doc, "option", &[("value", d)], Some(d))?;
        select.append_child(&option)?;
    }
    select.set_value("ascend");
    Ok(())
}

fn target_id(e: &Event) -> String {
    e.target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .map(|t| t.id())
        .unwrap_or_default()
}

impl SortPage {
    fn typed_values(&self) -> Option<String> {
        let v = self.values.value();
        (!v.trim().is_empty()).then_some(v)
    }

    fn parse_seed(&self) -> Result<u64, InputError> {
        let text = self.seed.value();
        text.trim().parse::<u64>().map_err(|_| {
            InputError::new(
                "seed",
                format!("`{}` is not a seed (0..=18446744073709551615)", text.trim()),
            )
        })
    }

    fn parse_len(&self) -> Result<usize, InputError> {
        let text = self.len.value();
        text.trim()
            .parse::<usize>()
            .map_err(|_| InputError::new("len", format!("`{}` is not a key count", text.trim())))
    }

    fn parse_threshold(&self) -> Result<usize, InputError> {
        let text = self.threshold.value();
        match text.trim().parse::<i64>() {
            Ok(t) if (1..=MAX_THRESHOLD as i64).contains(&t) => Ok(t as usize),
            Ok(t) => Err(InputError::out_of_range(
                "threshold",
                t,
                1,
                MAX_THRESHOLD as i64,
            )),
            Err(_) => Err(InputError::new(
                "threshold",
                format!("`{}` is not a key count", text.trim()),
            )),
        }
    }

    /// Rebuilds the run from the form; an error keeps the last run on screen. A walk of more
    /// than [`WORKER_MIN_LEN`] random keys is computed in a worker ([`Self::start_job`]).
    fn recompute(&mut self) -> Js<()> {
        self.restored_at = None;
        self.job_id += 1;
        self.job = None; // dropping a worker terminates it
        self.cancel.set_hidden(true);
        self.job_status.set_text_content(None);
        let values = self.typed_values();
        let built = (|| {
            let seed = self.parse_seed()?;
            let threshold = self.parse_threshold()?;
            let len = match values {
                Some(_) => None,
                None => Some(self.parse_len()?),
            };
            if let (Some(len), None) = (len, &values) {
                if len > WORKER_MIN_LEN && len <= MAX_REPORT_LEN {
                    let job = SortJob {
                        len,
                        seed,
                        threshold,
                    };
                    if self.start_job(&job) {
                        return Ok(None);
                    }
                }
            }
            SortRun::new(len, seed, values.as_deref(), threshold).map(Some)
        })();
        self.take(built, values.is_some())
    }

    /// Hands `job` to a worker (the warm spare when there is one, [`super::worker`]); its answer
    /// goes to [`Self::heard`]. `false` when no worker can start (the walk then runs here).
    fn start_job(&mut self, job: &SortJob) -> bool {
        let worker = match self.spare.take() {
            Some(w) => w,
            None => match self.start_worker(false) {
                Some(w) => w,
                None => return false,
            },
        };
        if worker.walk(self.job_id, job).is_err() {
            return false;
        }
        self.figures.set_text_content(Some(&format!(
            "walking the network over {} keys in a worker… (the page stays usable)",
            job.len
        )));
        self.job = Some((worker, job.clone()));
        self.cancel.set_hidden(false);
        self.watch_job(self.job_id, job.len);
        true
    }

    /// Starts a sort worker (warming up when `warm`) whose words go to [`Self::heard`].
    fn start_worker(&mut self, warm: bool) -> Option<SortWorker> {
        self.serial += 1;
        let me = self.me.clone();
        SortWorker::start(self.serial, warm, move |serial, word| {
            let Some(page) = me.upgrade() else {
                return;
            };
            let Some(mut p) = page.get_mut() else {
                return;
            };
            let changed = p.heard(serial, word);
            drop(p);
            match changed {
                Ok(true) => router::changed("sort"),
                Ok(false) => {}
                Err(err) => panic::banner(&format!("crosslane hit a page error: {err:?}")),
            }
        })
    }

    /// Keeps a warm spare worker (the view was shown, or a walk ended): the next walk of more
    /// than [`WORKER_MIN_LEN`] keys starts at once, on optimized code.
    fn keep_spare(&mut self) {
        if self.spare.is_none() {
            self.spare = self.start_worker(true);
        }
    }

    /// What worker `serial` said: the answer of the walk in progress is shown (the worker stays
    /// as the spare); a worker that failed is dropped, and the walk it had runs here instead.
    /// `Ok(true)` when the view changed.
    fn heard(&mut self, serial: u64, word: Word) -> Js<bool> {
        let working = self.job.as_ref().is_some_and(|(w, _)| w.serial == serial);
        let built = match word {
            Word::Answer { id, json } if working && id == self.job_id => {
                super::wire::read_answer(&json).map(Some)
            }
            Word::Failed if working => {
                let Some((_, job)) = self.job.take() else {
                    return Ok(false);
                };
                SortRun::new(Some(job.len), job.seed, None, job.threshold).map(Some)
            }
            Word::Failed => {
                if self.spare.as_ref().is_some_and(|w| w.serial == serial) {
                    self.spare = None;
                }
                return Ok(false);
            }
            Word::Answer { .. } | Word::Other => return Ok(false),
        };
        if let Some((worker, _)) = self.job.take() {
            if self.spare.is_none() {
                self.spare = Some(worker);
            }
        }
        self.cancel.set_hidden(true);
        self.job_status.set_text_content(None);
        self.take(built, false)?;
        Ok(true)
    }

    /// Arms the watchdog of walk `id`: if it is still running after [`SORT_WATCHDOG_MS`] (or
    /// `#sort-cancel[data-watchdog-ms]`), it is stopped as Cancel would.
    fn watch_job(&self, id: u64, len: usize) {
        let limit = self
            .cancel
            .get_attribute("data-watchdog-ms")
            .and_then(|v| v.parse::<i32>().ok())
            .filter(|&ms| ms > 0)
            .unwrap_or(SORT_WATCHDOG_MS);
        let me = self.me.clone();
        let f = Closure::once_into_js(move || {
            let Some(page) = me.upgrade() else { return };
            let Some(mut p) = page.get_mut() else {
                return;
            };
            if p.job_id != id || p.job.is_none() {
                return;
            }
            let waited = if limit < 1000 {
                format!("{limit} ms")
            } else {
                format!("{:.1} s", f64::from(limit) / 1000.0)
            };
            let why = format!("stopped: the worker walking {len} keys did not answer in {waited}");
            if let Err(err) = p.stop_job(&why) {
                panic::banner(&format!("crosslane hit a page error: {err:?}"));
            }
        });
        if let Ok(w) = window() {
            let _ =
                w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), limit);
        }
    }

    /// Stops the walk in the worker (Cancel, the watchdog), says why in `#sort-job`, and shows
    /// the last run again.
    fn stop_job(&mut self, why: &str) -> Js<()> {
        if self.job.take().is_none() {
            return Ok(());
        }
        self.restored_at = None;
        self.job_id += 1;
        self.keep_spare();
        self.cancel.set_hidden(true);
        self.job_status.set_text_content(Some(why));
        if self.run.is_some() {
            self.show_run()?;
            self.show()
        } else {
            self.figures.set_text_content(None);
            mark_ready()
        }
    }

    /// Shows a run just built (`Ok(None)`: one is being built in a worker), or the input error.
    fn take(&mut self, built: Result<Option<SortRun>, InputError>, typed: bool) -> Js<()> {
        match built {
            Ok(None) => {
                self.error.set_hidden(true);
                self.error.set_text_content(None);
                Ok(())
            }
            Ok(Some(run)) => {
                self.error.set_hidden(true);
                self.error.set_text_content(None);
                if typed {
                    self.len.set_value(&run.len().to_string());
                }
                self.at = self.at.min(run.positions());
                if self.run.as_ref().map(SortRun::len) != Some(run.len()) {
                    self.at = 0;
                }
                if let Some(at) = self.restored_at.take() {
                    // Clamped to the run's last position, as the step buttons are.
                    self.at = at.min(run.positions());
                }
                self.run = Some(run);
                self.run_warp();
                self.show_run()?;
                self.show_soon();
                Ok(())
            }
            Err(err) => {
                let kept = if self.run.is_some() {
                    " (the drawing shows the last valid input)"
                } else {
                    ""
                };
                self.error
                    .set_text_content(Some(&format!("{}: {}{kept}", err.field, err.message)));
                self.error.set_hidden(false);
                mark_ready()
            }
        }
    }

    fn run_warp(&mut self) {
        let dialect = self.dialect.value();
        self.warp_run = self.run.as_ref().map(|r| r.warp(&dialect));
    }

    /// Figures, checks and counters: what changes only with the input.
    fn show_run(&mut self) -> Js<()> {
        let Some(run) = &self.run else {
            return Ok(());
        };
        let f = &run.report.figures;
        let formula = match f.comparators_formula {
            Some(c) => format!(" = (m² − m + 4)·2^(m−2) − 1 = {c}"),
            None => String::new(),
        };
        self.figures.set_text_content(Some(&format!(
            "n = {} · {} comparators{formula} · {} stages = ⌈log2 n⌉(⌈log2 n⌉+1)/2 = {}",
            f.len, f.comparators, f.stages, f.stages_formula
        )));
        let mut checks = Vec::new();
        checks.push(if run.report.matches_sort_unstable {
            "output = sort_unstable ✔".to_string()
        } else {
            "output ≠ sort_unstable ✖".to_string()
        });
        if let Some(v) = &run.report.verify {
            if let Some(z) = &v.zero_one {
                checks.push(format!(
                    "0-1 principle: all {} inputs of 0s and 1s sorted{}",
                    z.inputs,
                    if z.failures == 0 {
                        " ✔".to_string()
                    } else {
                        format!(" ✖ {} failures", z.failures)
                    }
                ));
            }
            checks.push(format!(
                "{} random inputs (seed {}): {} failures{}",
                v.random.trials,
                v.random.seed,
                v.random.failures,
                if v.random.failures == 0 {
                    " ✔"
                } else {
                    " ✖"
                }
            ));
        } else {
            checks
                .push("n > 16384: no 0-1 / random verification (the network is not listed)".into());
        }
        if !run.walk_matches_exec {
            checks.push("the stage walk disagrees with the executor ✖".into());
        }
        self.verify.set_text_content(Some(&checks.join(" · ")));
        self.verify.set_attribute(
            "data-ok",
            if run.report.ok() && run.walk_matches_exec {
                "true"
            } else {
                "false"
            },
        )?;
        let mut html = Html::new();
        html.el("tr").attr("data-stage", 0).with(|h| {
            h.leaf("td", "input");
            for _ in 0..4 {
                h.el("td").empty();
            }
            h.leaf("td", format_args!("{:.2}%", run.initial_in_order * 100.0));
        });
        for (i, s) in run.stages.iter().enumerate() {
            html.el("tr").attr("data-stage", i + 1).with(|h| {
                h.leaf("td", i + 1);
                h.leaf("td", s.p);
                h.leaf("td", s.k);
                h.leaf("td", s.comparators);
                h.leaf("td", s.swaps);
                h.leaf("td", format_args!("{:.2}%", s.in_order * 100.0));
            });
        }
        kit::set_html(&self.counters, &html);
        self.slider.set_max(&run.positions().to_string());
        let c = &self.canvas;
        c.set_attribute("data-len", &run.len().to_string())?;
        c.set_attribute("data-comparators", &f.comparators.to_string())?;
        c.set_attribute("data-stages", &f.stages.to_string())?;
        c.set_attribute("data-mode", if run.drawn { "diagram" } else { "plot" })?;
        c.set_attribute(
            "aria-label",
            if run.drawn {
                "Knuth diagram of the network"
            } else {
                "sortedness after each stage"
            },
        )
    }

    fn go(&mut self, at: usize) -> Js<()> {
        let last = self.run.as_ref().map_or(0, SortRun::positions);
        self.at = at.min(last);
        self.show()
    }

    /// [`Self::show`] in a task of its own, after the one that computed a new run (its figures,
    /// checks and counters): a new run's walk and its drawing in one task ran over 50 ms at
    /// n = 256 (each task under 50 ms). Skipped when the view was shown meanwhile (a restored stage).
    fn show_soon(&mut self) {
        let asked = self.shows;
        self.me
            .later(move |p| if p.shows == asked { p.show() } else { Ok(()) });
    }

    /// Everything that depends on the step position.
    fn show(&mut self) -> Js<()> {
        self.shows += 1;
        let Some(run) = &self.run else {
            return mark_ready();
        };
        let at = self.at;
        self.slider.set_value(&at.to_string());
        let stage = run.stage_at(at);
        self.position.set_text_content(Some(&match stage {
            Some(s) => format!(
                "stage {at} of {} (p = {}, k = {}): {} comparators, {} swaps",
                run.positions(),
                s.p,
                s.k,
                s.comparators,
                s.swaps
            ),
            None => format!("input · {} stages to run", run.positions()),
        }));
        self.canvas.set_attribute("data-at", &at.to_string())?;
        self.canvas
            .set_attribute("data-swaps", &stage.map_or(0, |s| s.swaps).to_string())?;
        let width = match self.canvas.get_bounding_client_rect().width() {
            w if w >= 50.0 => w,
            _ => 960.0,
        };
        let scene = if run.drawn {
            diagram::build(run, at, width)
        } else {
            plot::build(run, at, width)
        };
        canvas::draw(&self.canvas, &scene, window()?.device_pixel_ratio())?;
        self.show_keys(run, at)?;
        let rows = self.counters.query_selector_all("tr[data-stage]")?;
        for i in 0..rows.length() {
            if let Some(row) = rows.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let here = row.get_attribute("data-stage").as_deref() == Some(&at.to_string());
                row.set_class_name(if here { "current" } else { "" });
            }
        }
        self.show_warp(at)?;
        mark_ready()
    }

    fn show_keys(&self, run: &SortRun, at: usize) -> Js<()> {
        let keys = run.keys_at(at);
        let mut html = Html::new();
        for (i, &v) in keys.iter().enumerate() {
            let paint = diagram::key_paint(v, run.key_range);
            html.el("span")
                .attr("class", "key")
                .attr("data-index", i)
                .attr(
                    "style",
                    format_args!("background:{};color:{}", paint.fill, paint.ink),
                )
                .attr("title", format_args!("position {i}"))
                .text(v);
        }
        if keys.len() < run.len() {
            html.el("span").attr("class", "hint").text(format_args!(
                "… the first {} of {} keys",
                KEYS_SHOWN,
                run.len()
            ));
        }
        kit::set_html(&self.keys, &html);
        Ok(())
    }

    fn show_warp(&self, at: usize) -> Js<()> {
        let doc = document()?;
        kit::clear(&self.warp_steps);
        let dialect = self.dialect.value();
        let note = match &self.warp_run {
            None => String::new(),
            Some(Err(e)) => format!("not shown: {}: {}", e.field, e.message),
            Some(Ok(w)) => match at.checked_sub(1).and_then(|s| w.stages.get(s)) {
                None => format!(
                    "{} lanes of {dialect}, lane i holds key i; step to see each stage's shuffles",
                    w.lanes
                ),
                Some(stage) => {
                    let width = match self.warp.get_bounding_client_rect().width() {
                        w if w >= 80.0 => w - 30.0,
                        _ => 900.0,
                    };
                    for &i in &stage.steps {
                        let Some(step) = w.trace.steps.get(i) else {
                            continue;
                        };
                        let figure = el(&doc, "figure", &[("class", "sort-warp-step")], None)?;
                        let caption = el(
                            &doc,
                            "figcaption",
                            &[],
                            Some(&format!(
                                "{} — {}",
                                step.op,
                                step.label.as_deref().unwrap_or_default()
                            )),
                        )?;
                        let c: HtmlCanvasElement =
                            el_as(&doc, "canvas", &[("class", "sort-warp-canvas")])?;
                        figure.append_child(&caption)?;
                        figure.append_child(&c)?;
                        self.warp_steps.append_child(&figure)?;
                        let s = scene::build(step, width);
                        canvas::draw(&c, &s, window()?.device_pixel_ratio())?;
                    }
                    let fetch = match stage.fetch {
                        crosslane_core::network::warp::Fetch::Xor => "one xor shuffle",
                        crosslane_core::network::warp::Fetch::Index => "one index shuffle",
                        crosslane_core::network::warp::Fetch::DownUp => "a down and an up shuffle",
                    };
                    format!(
                        "stage {at} (p = {}, k = {}) on {} lanes of {dialect}: partners fetched with {fetch}, then each lane keeps min (low end) or max (high end)",
                        stage.p, stage.k, w.lanes
                    )
                }
            },
        };
        let shown = at
            .checked_sub(1)
            .and_then(|s| match &self.warp_run {
                Some(Ok(w)) => w.stages.get(s).map(|st| st.steps.len()),
                _ => None,
            })
            .unwrap_or(0);
        self.warp.set_attribute("data-steps", &shown.to_string())?;
        kit::set_html(&self.warp_note, &Html::text(&note));
        Ok(())
    }

    fn save(&self) -> Option<View> {
        let len = u32::try_from(self.parse_len().ok()?).ok()?;
        Some(View::Sort {
            len,
            seed: self.parse_seed().ok()?,
            values: self.typed_values(),
            dialect: Some(self.dialect.value()),
            stage: Some(self.restored_at.unwrap_or(self.at))
                .filter(|&at| at > 0)
                .map(|at| u32::try_from(at).unwrap_or(u32::MAX)),
            // Only a threshold other than the default is written, so the links of the default
            // stay as they were.
            threshold: self
                .parse_threshold()
                .ok()
                .filter(|&t| t != DRAW_LIMIT)
                .and_then(|t| u32::try_from(t).ok()),
        })
    }

    fn restore(&mut self, view: &View) -> bool {
        let View::Sort {
            len,
            seed,
            values,
            dialect,
            stage,
            threshold,
        } = view
        else {
            return false;
        };
        self.len.set_value(&len.to_string());
        // Out of range, it shows as typed and the form says so, as a typed one would.
        self.threshold
            .set_value(&threshold.map_or(DRAW_LIMIT as u64, u64::from).to_string());
        self.seed.set_value(&seed.to_string());
        self.values.set_value(values.as_deref().unwrap_or(""));
        if let Some(d) = dialect {
            if WARP_DIALECTS.iter().any(|w| w.eq_ignore_ascii_case(d)) {
                self.dialect.set_value(&d.to_ascii_lowercase());
            }
        }
        self.at = 0;
        if let Err(err) = self.recompute() {
            panic::banner(&format!(
                "crosslane could not restore the sort view: {err:?}"
            ));
        }
        let stage = stage.map(|s| usize::try_from(s).unwrap_or(usize::MAX));
        if self.job.is_some() {
            // The run is walked in a worker: its stage is applied when it arrives.
            self.restored_at = stage;
        } else if let Some(stage) = stage {
            // Clamped to the run's last position by `go`, as the step buttons are.
            if let Err(err) = self.go(stage) {
                panic::banner(&format!(
                    "crosslane could not restore the sort view: {err:?}"
                ));
            }
        }
        true
    }
}
