//! The worker's side: one [`Session`] owns the kernel [`Executor`] and answers each
//! [`Request`] with a [`Frame`]. It runs inside the kernel worker (`js/crosslane-worker.js`
//! calls [`worker_request`]) and, where a worker cannot start, in the page itself.
//!
//! The page asks for the state at a position; the session reads it off the executor's trace
//! ([`KernelTrace::vars_after`], [`KernelTrace::memory_after`]). Replaying a position from
//! checkpoints instead of the whole trace is the engine's business: only [`Session::frame`]
//! reads the trace, so that change stays local here.

use crosslane_core::kernel::{
    list_kernels, memory::parse_cell, Executor, KernelError, KernelTrace, LaunchConfig, Outcome, Ty,
};
use crosslane_core::{LaneMask, Level};

use super::protocol::{
    At, Command, Drawn, Frame, ParamField, Reply, Request, Squiggle, MAX_SQUIGGLES, PROGRESS_MS,
};
use crate::views::kernel::tables;

/// Most warps offered in the lane table's warp menu.
const WARP_MENU: usize = 256;
/// Most diagnostics listed as items; the rest are counted in one more item.
pub const MAX_DIAGNOSTIC_ITEMS: usize = 200;
/// Steps between clock checks of a run.
const SLICE: usize = 64;

/// One kernel: its source, launch, executor (or why there is none).
#[derive(Default)]
pub struct Session {
    exec: Option<Executor>,
    fault: Option<KernelError>,
    source: String,
    config: LaunchConfig,
    entries: Vec<String>,
}

impl Session {
    /// Does what `req` asks and returns the frame at its position. `now` is a clock in
    /// milliseconds; `progress(len)` is called about every [`PROGRESS_MS`] of a run with the
    /// trace length so far.
    pub fn handle(
        &mut self,
        req: Request,
        now: &dyn Fn() -> f64,
        progress: &mut dyn FnMut(usize),
    ) -> Frame {
        let mut at = req.at;
        let mut memory_error = None;
        match req.command {
            Command::Load { source, config } => {
                self.source = source;
                self.config = config;
                self.entries = list_kernels(&self.source).unwrap_or_default();
                self.rebuild();
            }
            Command::Show => {}
            Command::Step => {
                let len = self.len();
                if at.pos < len {
                    at.pos += 1;
                } else if let Some(ex) = self.exec.as_mut() {
                    if ex.step().is_some() {
                        at.pos = ex.trace().steps.len();
                    }
                }
            }
            Command::Run { target } => {
                if let Some(ex) = self.exec.as_mut() {
                    let mut last = now();
                    loop {
                        let want = match target {
                            Some(t) => t.saturating_sub(ex.trace().steps.len()).min(SLICE),
                            None => SLICE,
                        };
                        if want == 0 || ex.run_for(want) < want {
                            break;
                        }
                        if now() - last >= PROGRESS_MS {
                            last = now();
                            progress(ex.trace().steps.len());
                        }
                    }
                    let len = ex.trace().steps.len();
                    at.pos = target.map_or(len, |t| t.min(len));
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

    fn len(&self) -> usize {
        self.trace().map_or(0, |t| t.steps.len())
    }

    fn trace(&self) -> Option<&KernelTrace> {
        self.exec.as_ref().map(Executor::trace)
    }

    fn rebuild(&mut self) {
        self.exec = None;
        self.fault = None;
        match Executor::new(&self.source, self.config.clone()) {
            Ok(ex) => self.exec = Some(ex),
            Err(e) => self.fault = Some(e),
        }
    }

    /// A memory cell edited before the first step: checked, then applied as the buffer's
    /// initial fill (a comma list of every cell) and the launch rebuilt. Returns the message of
    /// a cell that does not parse.
    fn edit(&mut self, buffer: usize, index: usize, text: &str) -> Option<String> {
        let b = self
            .trace()
            .and_then(|t| t.initial_memory.buffers.get(buffer))
            .cloned()?;
        if let Err(e) = parse_cell(b.elem, text, &format!("{}[{index}]", b.name)) {
            return Some(format!("{}: {}", e.field, e.message));
        }
        let mut fill = String::with_capacity(b.cells.len() * 4);
        for (i, c) in b.cells.iter().enumerate() {
            if i > 0 {
                fill.push(',');
            }
            if i == index {
                fill.push_str(text.trim());
            } else {
                fill.push_str(&c.as_ref().map_or("undef".into(), tables::value_text));
            }
        }
        self.config.args.insert(b.name.clone(), fill);
        self.rebuild();
        None
    }

    /// The frame at `at`, read off the trace.
    pub fn frame(&self, at: &At) -> Frame {
        let len = self.len();
        let pos = at.pos.min(len);
        let mut f = Frame {
            pos,
            len,
            entries: self.entries.clone(),
            fills: self.config.args.clone(),
            ..Frame::default()
        };
        if let Some(e) = &self.fault {
            f.error = Some(format!("line {}:{}: {}", e.line, e.col, e.message));
            f.squiggles
                .push((e.line, e.col, "error".into(), e.message.clone()));
        }
        (f.state, f.status) = self.status_text();
        let Some(t) = self.trace() else {
            return f;
        };
        let step = pos.checked_sub(1).and_then(|i| t.steps.get(i));
        f.current_line = step.map(|s| s.line);
        self.diagnostics(t, &mut f);
        let l = &t.launch;
        if let Some(ex) = &self.exec {
            f.params = ex
                .parameters()
                .map(|p| ParamField {
                    name: p.name.clone(),
                    pointer: matches!(p.ty, Ty::Ptr(_)),
                    reference: p.reference,
                })
                .collect();
        }
        f.dialect_line = format!("runs as {} · {}", l.dialect.name(), l.dialect_from);
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
        self.lanes(t, pos, at.warp, &mut f);
        f.memory_html = match pos.checked_sub(1) {
            Some(i) => {
                let writes = t.steps.get(i).map_or(&[][..], |s| &s.memory_writes[..]);
                tables::memory_table(&t.memory_after(i), writes, false, &at.pages)
            }
            None => tables::memory_table(&t.initial_memory, &[], true, &at.pages),
        };
        f.drawn = t
            .steps
            .iter()
            .take(pos)
            .rev()
            .find_map(|s| s.ops.last().map(|op| (s, op)))
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
                    format!("line {}:{}: {}", e.line, e.col, e.message),
                ),
                None => ("error".into(), "nothing to run".into()),
            };
        };
        let n = t.steps.len();
        let (state, text) = match &t.outcome {
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
        };
        (state.into(), text)
    }

    /// The mask strip and the lane table of the warp picked, or of the step shown.
    fn lanes(&self, t: &KernelTrace, pos: usize, picked: Option<(usize, usize)>, f: &mut Frame) {
        let lanes = t.launch.lanes;
        match pos.checked_sub(1).and_then(|i| t.steps.get(i)) {
            Some(s) if picked.is_some_and(|p| p != (s.block, s.warp)) => {
                let (block, warp) = picked.unwrap_or((s.block, s.warp));
                let vars = t.vars_after(pos - 1, block, warp);
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
            Some(s) => {
                let vars = t.vars_after(pos - 1, s.block, s.warp);
                let changed: Vec<&str> = s.changes.iter().map(|c| c.name.as_str()).collect();
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

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "info",
    }
}

thread_local! {
    /// The worker's one session (a worker serves one kernel view).
    static SESSION: std::cell::RefCell<Session> = std::cell::RefCell::new(Session::default());
}

/// Answers one request of the kernel view as [`Reply`] JSON; called by `crosslane-worker.js`
/// inside the worker. `progress` is called with the trace length during a run (the page's
/// watchdog takes it as the worker's heartbeat).
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn worker_request(request: &str, progress: &js_sys::Function) -> String {
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
                Reply::Frame(Box::new(s.handle(req, &now, &mut report)))
            }
            Err(_) => Reply::Error("the kernel session is busy".into()),
        }),
        Err(e) => Reply::Error(format!("unreadable request: {e}")),
    };
    serde_json::to_string(&reply)
        .unwrap_or_else(|e| format!(r#"{{"error":"unwritable reply: {e}"}}"#))
}
