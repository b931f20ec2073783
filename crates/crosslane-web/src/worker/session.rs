//! The worker's side: one [`Session`] owns the kernel's run and answers each
//! [`Request`] with a [`Frame`]. It runs inside the kernel worker (`js/crosslane-worker.js`
//! calls `worker_request`, wasm only) and, where a worker cannot start, in the page itself.
//!
//! The session keeps no trace of steps: it runs the kernel as a [`Replay`] (the machine with
//! a checkpoint every [`CHECKPOINT_EVERY`] steps, the interval doubling when the checkpoints
//! would pass half the memory budget), and the state at any position the page asks for — the
//! slider's jump, a step back, a step forward — is replayed from the nearest checkpoint at or
//! before it. So a launch of any length can be stepped backwards within its memory budget, and
//! a step back shows exactly what the step forward showed (the engine is deterministic;
//! `crosslane-kernel/tests/suite/kernel_replay.rs` and `tests/e2e/worker.test.mjs` check it).
//!
//! A run is answered in slices of [`RUN_SLICE_MS`] in the worker (`worker_request` with a
//! slice; `worker_running` says the run goes on), so that the worker hears the page's cancel
//! between two slices and keeps the steps run so far.

use crosslane_core::{LaneMask, Level};
use crosslane_kernel::edits::apply_edits;
use crosslane_kernel::{
    list_kernels, memory::parse_cell, KernelError, KernelTrace, LaneVal, LaunchConfig, Outcome,
    Replay, StepState, Ty, VarChange,
};

use super::protocol::{
    At, Command, Drawn, Edits, Frame, GpuBinding, ParamField, Request, Squiggle, MAX_SQUIGGLES,
    PROGRESS_MS,
};
use super::tables;

/// Most warps offered in the lane table's warp menu.
const WARP_MENU: usize = 256;
/// Most diagnostics listed as items; the rest are counted in one more item.
pub const MAX_DIAGNOSTIC_ITEMS: usize = 200;
/// Steps between clock checks of a run.
const SLICE: usize = 64;
/// Steps between two checkpoints at the start of a run: a position is shown by replaying at
/// most this many steps (the interval doubles when the checkpoints would pass half the memory
/// budget).
pub const CHECKPOINT_EVERY: u64 = 64;
/// Milliseconds a run goes on in the worker before it answers and looks at its messages (a
/// cancel).
pub const RUN_SLICE_MS: f64 = 150.0;

/// One kernel: its source, launch, run (or why there is none).
#[derive(Default)]
pub struct Session {
    run: Option<Replay>,
    fault: Option<KernelError>,
    source: String,
    config: LaunchConfig,
    entries: Vec<String>,
    /// A run answered in slices has not reached its target yet.
    more: bool,
    /// The last run was cancelled (said in the status until the next command other than a
    /// show).
    cancelled: bool,
    /// The memory edits, applied over `config`'s fills at every launch ([`Session::rebuild`]).
    edits: Edits,
    /// What the last rebuild dropped of the edits, and why.
    edits_note: Option<String>,
    /// The GPU panel's bindings of a WGSL source ([`Frame::wgsl_bindings`]).
    wgsl_bindings: Option<Vec<GpuBinding>>,
}

impl Session {
    /// Does what `req` asks and returns the frame at its position; a run goes to its target.
    /// `now` is a clock in milliseconds; `progress(len)` is called about every
    /// [`PROGRESS_MS`] of a run with the steps run so far.
    pub fn handle(
        &mut self,
        req: Request,
        now: &dyn Fn() -> f64,
        progress: &mut dyn FnMut(usize),
    ) -> Frame {
        self.handle_slice(req, now, progress, None, false)
    }

    /// [`Session::handle`], a run going on for at most `slice_ms` milliseconds: when it has not
    /// reached its target by then, the answer is a bare frame (position and length only) and
    /// [`Session::running`] is true; the same request again goes on. With `stop`, a run
    /// request stops where the run is (cancel): the frame after the last step run, the status
    /// saying so.
    pub fn handle_slice(
        &mut self,
        req: Request,
        now: &dyn Fn() -> f64,
        progress: &mut dyn FnMut(usize),
        slice_ms: Option<f64>,
        stop: bool,
    ) -> Frame {
        let mut at = req.at;
        let mut memory_error = None;
        let was_running = self.more;
        self.more = false;
        if !matches!(req.command, Command::Show) {
            self.cancelled = false;
        }
        match req.command {
            Command::Load {
                source,
                config,
                edits,
            } => {
                self.source = source;
                self.config = config;
                self.edits = edits;
                // A WGSL shader's kernels are its `@compute` entry points (the C front end
                // would find none).
                self.entries = if crosslane_kernel::wgsl::is_wgsl(&self.source) {
                    crosslane_kernel::wgsl::compute_entry_points(&self.source, &self.config)
                } else {
                    list_kernels(&self.source).unwrap_or_default()
                };
                self.wgsl_bindings = wgsl_bindings(&self.source);
                memory_error = self.rebuild();
            }
            Command::Show => {}
            Command::Step => {
                let len = self.len();
                if at.pos < len {
                    at.pos += 1;
                } else if let Some(run) = self.run.as_mut() {
                    run.advance();
                    at.pos = steps(run);
                }
            }
            Command::Run {
                target,
                show,
                paused,
            } => {
                if let Some(run) = self.run.as_mut() {
                    if stop && was_running {
                        self.cancelled = true;
                    } else {
                        let start = now();
                        let mut last = start;
                        loop {
                            let want = match target {
                                Some(t) => t.saturating_sub(steps(run)).min(SLICE),
                                None => SLICE,
                            };
                            if want == 0 || run.run_for(want) < want {
                                break;
                            }
                            let t = now();
                            if t - last >= PROGRESS_MS {
                                last = t;
                                progress(steps(run));
                            }
                            if slice_ms.is_some_and(|ms| t - start >= ms) {
                                self.more = true;
                                break;
                            }
                        }
                    }
                    // Stopped at its target: whether the kernel ends there is learned without
                    // a step more, so that a link made at the end of a finished run opens
                    // "finished", as it was made (and one made while paused, paused).
                    if !self.more && !self.cancelled && !paused && target == Some(steps(run)) {
                        run.settle();
                    }
                    let len = steps(run);
                    at.pos = show.or(target).map_or(len, |t| t.min(len));
                    if self.more {
                        return Frame {
                            pos: at.pos,
                            len,
                            state: "running".into(),
                            ..Frame::default()
                        };
                    }
                }
            }
            Command::Edit {
                buffer,
                index,
                text,
            } => memory_error = self.edit(buffer, index, &text),
        }
        let mut frame = self.frame(&at);
        frame.memory_error = memory_error;
        frame
    }

    /// Whether a run answered in slices goes on (the worker asks again, unless cancelled).
    pub fn running(&self) -> bool {
        self.more
    }

    fn len(&self) -> usize {
        self.run.as_ref().map_or(0, steps)
    }

    fn trace(&self) -> Option<&KernelTrace> {
        self.run.as_ref().map(Replay::summary)
    }

    /// Launches the source with the config and the memory edits. The edits apply over the
    /// buffers' fills as long as the buffer keeps its name and the cell exists (nothing
    /// the user typed is lost): the launch is made once without them to learn the buffers, then
    /// with every kept buffer's cells as a comma-list fill. Edits of a buffer gone or renamed,
    /// and of cells past a buffer's new end, are dropped and said in `edits_note`; one whose
    /// value does not parse for the buffer's type is dropped and its message returned. While the
    /// launch fails (a source being typed), the edits are kept as they are.
    fn rebuild(&mut self) -> Option<String> {
        self.run = None;
        self.fault = None;
        self.edits_note = None;
        let run = match Replay::start(&self.source, self.config.clone(), CHECKPOINT_EVERY) {
            Ok(run) => run,
            Err(e) => {
                self.fault = Some(e);
                return None;
            }
        };
        if self.edits.is_empty() {
            self.run = Some(run);
            return None;
        }
        let applied = apply_edits(&run.summary().initial_memory, &self.config, &self.edits);
        self.edits = applied.kept;
        self.edits_note = applied.dropped;
        let (config, invalid) = (applied.config, applied.invalid);
        drop(run);
        match Replay::start(&self.source, config, CHECKPOINT_EVERY) {
            Ok(run) => self.run = Some(run),
            Err(e) => self.fault = Some(e),
        }
        invalid
    }

    /// A memory cell edited before the first step: checked, then kept with the other edits
    /// and the launch rebuilt. Returns the message of a cell that does not parse.
    fn edit(&mut self, buffer: usize, index: usize, text: &str) -> Option<String> {
        let b = self
            .trace()
            .and_then(|t| t.initial_memory.buffers.get(buffer))
            .cloned()?;
        if let Err(e) = parse_cell(b.elem, text, &format!("{}[{index}]", b.name)) {
            return Some(format!("{}: {}", e.field, e.message));
        }
        self.edits
            .entry(b.name)
            .or_default()
            .insert(index, text.trim().to_string());
        self.rebuild()
    }

    /// The frame at `at`, replayed from the nearest checkpoint.
    pub fn frame(&self, at: &At) -> Frame {
        let len = self.len();
        let pos = at.pos.min(len);
        let mut f = Frame {
            pos,
            len,
            entries: self.entries.clone(),
            edits: self.edits.clone(),
            edits_note: self.edits_note.clone(),
            wgsl_bindings: self.wgsl_bindings.clone(),
            ..Frame::default()
        };
        if let Some(e) = &self.fault {
            match &e.input {
                // An input's fault marks its field, never a line of the source.
                Some(field) => {
                    f.error = Some(format!("{field}: {}", e.message));
                    f.error_input = Some(field.clone());
                }
                None => {
                    f.error = Some(format!("line {}:{}: {}", e.line, e.col, e.message));
                    // Every front-end error at its own line:column, all at once.
                    for one in e.each() {
                        f.squiggles
                            .push((one.line, one.col, "error".into(), one.message));
                    }
                }
            }
        }
        (f.state, f.status) = self.status_text();
        let Some(run) = &self.run else {
            return f;
        };
        let t = run.summary();
        // The warp picked, if the launch has it (a link may name any): else the step's warp.
        let blocks: usize = t.launch.grid_dim.iter().product();
        let at = &At {
            warp: at
                .warp
                .filter(|&(b, w)| b < blocks && w < t.launch.warps_per_block),
            ..at.clone()
        };
        // The state after step `pos - 1`, and the variables of the warp picked.
        let shown = pos
            .checked_sub(1)
            .and_then(|i| run.at_warp(i as u64, at.warp));
        let step = shown.as_ref().map(|(s, _)| &s.step);
        f.current_line = step.map(|s| s.line);
        self.diagnostics(t, &mut f);
        let l = &t.launch;
        f.params = run
            .live()
            .parameters()
            .map(|p| ParamField {
                name: p.name.clone(),
                pointer: matches!(p.ty, Ty::Ptr(_)),
                reference: p.reference,
                host: l.host_words.get(&p.name).cloned(),
            })
            .collect();
        f.dialect_line = format!("runs as {} · {}", l.dialect.name(), l.dialect_from);
        // A HIP run's AMD target, and why (the default follows the lane count).
        if let (Some(target), Some(from)) = (&l.target, &l.target_from) {
            f.dialect_line
                .push_str(&format!(" · AMD target {target} ({from})"));
        }
        let blocks = l.grid_dim[0] * l.grid_dim[1] * l.grid_dim[2];
        f.geometry = format!(
            "{} · {} · {} block(s) × {} threads · {} lanes per warp, {} warp(s) per block · block shape from {}",
            l.entry,
            l.dialect.name(),
            blocks,
            l.block_dim[0] * l.block_dim[1] * l.block_dim[2],
            l.lanes,
            l.warps_per_block,
            l.geometry_from
        );
        if blocks.saturating_mul(l.warps_per_block) <= WARP_MENU {
            for b in 0..blocks {
                for w in 0..l.warps_per_block {
                    f.warps.push((b, w));
                }
            }
        }
        f.position = match step {
            Some(s) => format!(
                "step {pos} / {len} · line {} · block {} warp {}",
                s.line, s.block, s.warp
            ),
            None => format!("before the first step · {len} recorded"),
        };
        self.lanes(t, shown.as_ref(), at.warp, &mut f);
        f.memory_html = match &shown {
            Some((s, _)) => tables::memory_table(&s.memory, &s.step.writes(), false, &at.pages),
            None => tables::memory_table(&t.initial_memory, &[], true, &at.pages),
        };
        // The last cross-lane call at or before the step shown: that step's, or an earlier
        // one's, replayed too.
        let earlier = shown.as_ref().and_then(|(s, _)| match s.last_op_step {
            Some(j) if j != s.step.index as u64 => run.at(j).map(|e| e.step),
            _ => None,
        });
        f.drawn = shown
            .as_ref()
            .map(|(s, _)| &s.step)
            .filter(|s| !s.ops.is_empty())
            .or(earlier.as_ref())
            .and_then(|s| s.ops.last().map(|op| (s, op)))
            .map(|(s, op)| {
                let current = s.index + 1 == pos;
                Drawn {
                    caption: format!(
                        "{} at line {} (block {} warp {}, active {}){}",
                        op.op,
                        s.line,
                        s.block,
                        s.warp,
                        op.active.to_hex(op.lanes),
                        if current {
                            String::new()
                        } else {
                            format!(" · the last call before step {pos}")
                        }
                    ),
                    step: op.clone(),
                    line: s.line,
                    current,
                }
            });
        f
    }

    /// The diagnostics list (at most [`MAX_DIAGNOSTIC_ITEMS`] items, then "and N more") and the
    /// editor's squiggles (at most [`MAX_SQUIGGLES`]).
    fn diagnostics(&self, t: &KernelTrace, f: &mut Frame) {
        f.skipped = t
            .preprocess
            .skipped
            .iter()
            .map(|r| (r.first, r.last))
            .collect();
        let mut items = 0usize;
        let mut more = 0usize;
        for d in t.all_diagnostics() {
            let level = level_name(d.level);
            if f.squiggles.len() < MAX_SQUIGGLES {
                let s: Squiggle = (d.line, d.col, level.into(), d.message.clone());
                f.squiggles.push(s);
            }
            if items >= MAX_DIAGNOSTIC_ITEMS {
                more += 1;
                continue;
            }
            items += 1;
            f.diagnostics_html
                .el("li")
                .attr("data-level", level)
                .attr("data-line", d.line)
                .with(|h| {
                    h.el("span").attr("class", "level").text(level);
                    h.push_text(" ");
                    h.el("span")
                        .attr("class", "where")
                        .text(format_args!("line {}:{}", d.line, d.col));
                    h.push_text(" ");
                    h.el("span").attr("class", "message").text(&d.message);
                    if !d.rule.is_empty() {
                        h.push_text(" ");
                        h.leaf("cite", &d.rule);
                    }
                });
        }
        if more > 0 {
            f.diagnostics_html
                .el("li")
                .attr("class", "more")
                .attr("data-more", more)
                .text(format_args!(
                    "and {more} more diagnostics (the first {MAX_DIAGNOSTIC_ITEMS} are listed)"
                ));
        }
    }

    fn status_text(&self) -> (String, String) {
        let Some(t) = self.trace() else {
            return match &self.fault {
                Some(e) => (
                    "error".into(),
                    match &e.input {
                        Some(field) => format!("{field}: {}", e.message),
                        None => format!("line {}:{}: {}", e.line, e.col, e.message),
                    },
                ),
                None => ("error".into(), "nothing to run".into()),
            };
        };
        let n = t.stats.steps;
        let (state, text) = match &t.outcome {
            None if self.cancelled => (
                "idle",
                format!(
                    "cancelled after {n} steps: the steps run so far are kept (step back, step on or run on)"
                ),
            ),
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
            // A run that met an error did not finish: the error state, in the error colour.
            Some(Outcome::Error(e)) => (
                "error",
                format!("error at line {}:{}: {}", e.line, e.col, e.message),
            ),
        };
        (state.into(), text)
    }

    /// The mask strip and the lane table of the warp picked, or of the step shown.
    fn lanes(
        &self,
        t: &KernelTrace,
        shown: Option<&(StepState, Vec<VarChange>)>,
        picked: Option<(usize, usize)>,
        f: &mut Frame,
    ) {
        let lanes = t.launch.lanes;
        match shown {
            Some((state, other))
                if picked.is_some_and(|p| p != (state.step.block, state.step.warp)) =>
            {
                let s = &state.step;
                let (block, warp) = picked.unwrap_or((s.block, s.warp));
                let vars = declared(other);
                f.vars_html = tables::vars_table(lanes, LaneMask::all(lanes), &vars, &[]);
                f.mask_html = tables::mask_strip(s.lanes, s.active);
                f.warp_text = format!(
                    "block {block} · warp {warp} (threads {}–{}), as it stands while block {} warp {} runs line {}",
                    warp * lanes,
                    (warp + 1) * lanes - 1,
                    s.block,
                    s.warp,
                    s.line
                );
            }
            Some((state, _)) => {
                let s = &state.step;
                let vars = declared(&state.vars);
                let changed: Vec<&str> = s.changes.iter().map(|c| t.var_name(c.slot)).collect();
                f.vars_html = tables::vars_table(s.lanes, s.active, &vars, &changed);
                f.mask_html = tables::mask_strip(s.lanes, s.active);
                f.warp_text = format!(
                    "block {} · warp {} (threads {}–{}) · after line {}: {}",
                    s.block,
                    s.warp,
                    s.warp * s.lanes,
                    (s.warp + 1) * s.lanes - 1,
                    s.line,
                    s.text
                );
            }
            None => {
                f.vars_html = tables::vars_table(lanes, LaneMask::all(lanes), &[], &[]);
                f.mask_html = tables::mask_strip(lanes, LaneMask::all(lanes));
                f.warp_text = "before the first step: no variable assigned yet".into();
            }
        }
    }
}

/// Steps run so far, as a position.
fn steps(run: &Replay) -> usize {
    usize::try_from(run.len()).unwrap_or(usize::MAX)
}

/// A warp's variables as the lane table lists them: the slots declared so far (a slot whose
/// every lane is still "not declared yet" is left out), one per name — where two slots share a
/// name (two loops' `i`), the later declared one that has been declared.
fn declared(slots: &[VarChange]) -> Vec<VarChange> {
    let undeclared = |v: &LaneVal| matches!(v, Err(u) if u.uninit && u.line == 0);
    let mut out: Vec<VarChange> = Vec::new();
    for v in slots.iter().filter(|v| !v.values.iter().all(undeclared)) {
        match out.iter_mut().find(|o| o.name == v.name) {
            Some(o) => o.values.clone_from(&v.values),
            None => out.push(v.clone()),
        }
    }
    out
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "info",
    }
}

/// The bindings of `source` when it is a WGSL compute shader (empty when it does not prepare:
/// the frame's error says why), `None` for a C kernel.
fn wgsl_bindings(source: &str) -> Option<Vec<GpuBinding>> {
    if !crosslane_kernel::wgsl::is_wgsl(source) {
        return None;
    }
    let prepared = crosslane_kernel::wgsl::prepare(source, &LaunchConfig::default());
    Some(prepared.map_or_else(
        |_| Vec::new(),
        |p| {
            p.bindings
                .into_iter()
                .map(|b| GpuBinding {
                    name: b.name,
                    group: b.group,
                    binding: b.binding,
                    space: b.space,
                    wgsl_elem: b.wgsl_elem,
                    fixed_len: b.fixed_len,
                })
                .collect()
        },
    ))
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The worker's one session (a worker serves one kernel view).
    static SESSION: std::cell::RefCell<Session> = std::cell::RefCell::new(Session::default());
}

/// Answers one request of the kernel view as [`Reply`] JSON; called by `crosslane-worker.js`
/// inside the worker. `progress` is called with the steps run so far during a run (the page's
/// watchdog takes it as the worker's heartbeat). A run answers after [`RUN_SLICE_MS`]; while
/// [`worker_running`] is true the worker calls again with the same request (`stop`: the page
/// cancelled, so the answer is the frame after the last step run).
#[cfg(feature = "engine")]
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn worker_request(request: &str, progress: &js_sys::Function, stop: bool) -> String {
    use super::protocol::Reply;
    let reply = match serde_json::from_str::<Request>(request) {
        Ok(req) => SESSION.with(|s| match s.try_borrow_mut() {
            Ok(mut s) => {
                let now = || js_sys::Date::now();
                let mut report = |len: usize| {
                    let _ = progress.call1(
                        &wasm_bindgen::JsValue::NULL,
                        &wasm_bindgen::JsValue::from_f64(len as f64),
                    );
                };
                Reply::Frame(Box::new(s.handle_slice(
                    req,
                    &now,
                    &mut report,
                    Some(RUN_SLICE_MS),
                    stop,
                )))
            }
            Err(_) => Reply::Error("the kernel session is busy".into()),
        }),
        Err(e) => Reply::Error(format!("unreadable request: {e}")),
    };
    serde_json::to_string(&reply)
        .unwrap_or_else(|e| format!(r#"{{"error":"unwritable reply: {e}"}}"#))
}

/// Whether the last [`worker_request`] answered a run that goes on (the worker asks again).
#[cfg(feature = "engine")]
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn worker_running() -> bool {
    SESSION.with(|s| s.try_borrow().is_ok_and(|s| s.running()))
}
