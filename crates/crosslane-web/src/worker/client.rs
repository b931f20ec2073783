//! The page's side of the kernel worker: starts `crosslane-worker.js` as a module worker (the
//! page's own wasm, loaded again inside it), sends it [`Request`]s, hands the answers of the
//! latest request to the view, and keeps the worker alive:
//!
//! - **Cancel** asks the worker to stop the run between two of its slices
//!   ([`super::session::RUN_SLICE_MS`]); it answers with the frame after the last step run, so
//!   the steps run so far are kept ([`Client::cancel`]). A worker that does not answer within
//!   [`CANCEL_MS`] is terminated and a fresh one started, as the watchdog does;
//! - a **watchdog** does the same when a worker with a request in flight has not been heard from
//!   (no progress, no answer) for [`WATCHDOG_MS`] — a run reports progress every
//!   [`super::protocol::PROGRESS_MS`], so silence means it is stuck;
//! - after either, the last kernel loaded is loaded again in the fresh worker, and the view is
//!   told what happened ([`Heard::Restarted`]).
//!
//! The worker, and with it the kernel engine's wasm module (the interpreter and naga, which the
//! page's own module leaves out), starts with the first request ([`Client::send`]): a page that
//! never shows a kernel never downloads the engine.
//!
//! Where no worker can start (a page without `crosslane-worker.js`, as under `trunk serve`): in a
//! build that has the engine (`engine` feature, native tests) the same [`Session`] runs in the
//! page, one request per `setTimeout` tick; the page's own module has no engine, and the view
//! shows that the kernel engine could not start.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use super::protocol::{Command, Frame, Reply, Request};
#[cfg(feature = "engine")]
use super::session::Session;
use crate::dom::{window, Js};

/// The worker script, next to the page (`scripts/build-web` writes it into `dist/`).
pub const WORKER_SCRIPT: &str = "crosslane-worker.js";
/// The sort view's worker script: the page's own module, loaded again (`scripts/build-web`
/// writes it into `dist/`).
pub const SORT_WORKER_SCRIPT: &str = "crosslane-sort-worker.js";
/// Milliseconds without a word from a worker with a request in flight before it is replaced.
pub const WATCHDOG_MS: f64 = 6_000.0;
/// The same while the worker is still loading its wasm (compiling a megabyte of wasm on a busy
/// machine takes a while; a worker that never loads is replaced after this).
pub const STARTUP_MS: f64 = 20_000.0;
/// Milliseconds a cancelled run has to answer (a slice is 150 ms) before its worker is replaced.
pub const CANCEL_MS: f64 = 3_000.0;

/// What the view hears.
pub enum Heard {
    /// The latest request's run has `len` steps so far.
    Progress(usize),
    /// The latest request's answer, with that request's id: it may reach the view after the
    /// view has sent another request (the view hears on a later tick), and then it is stale
    /// ([`Client::is_latest`]).
    Frame(u64, Box<Frame>),
    /// The worker could not read a request (a page bug, shown as such).
    Failed(String),
    /// The worker was replaced (cancel, watchdog), for this reason. With `reloading`, the last
    /// kernel is being loaded again at position 0 (a frame follows); without, the watchdog fired
    /// twice in a row on the same kernel, which is not loaded again (no frame follows).
    Restarted {
        /// What happened, in words.
        why: String,
        /// Whether a frame follows.
        reloading: bool,
    },
}

/// A worker event listener, kept alive as long as its worker.
type Handler = Closure<dyn FnMut(JsValue)>;

/// The connection to the kernel worker.
pub struct Client {
    worker: RefCell<Option<Worker>>,
    /// The in-page fallback, once a worker could not start.
    #[cfg(feature = "engine")]
    local: RefCell<Option<Session>>,
    /// Whether a worker was ever started (the first request starts it).
    spawned: Cell<bool>,
    next_id: Cell<u64>,
    latest: Cell<u64>,
    in_flight: Cell<u32>,
    last_heard: Cell<f64>,
    ready: Cell<bool>,
    /// Watchdog firings since the last frame.
    strikes: Cell<u32>,
    last_load: RefCell<Option<Request>>,
    /// A cancel sent to the worker: when to give up waiting for its answer, and what to say
    /// then.
    cancelling: RefCell<Option<(f64, String)>>,
    sink: Box<dyn Fn(Heard)>,
    handlers: RefCell<Vec<Handler>>,
}

fn now() -> f64 {
    js_sys::Date::now()
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

impl Client {
    /// Starts the worker and the watchdog; `sink` hears every answer of the latest request.
    ///
    /// # Errors
    /// A DOM call that fails (no window).
    pub fn start(sink: impl Fn(Heard) + 'static) -> Js<Rc<Client>> {
        let client = Rc::new(Client {
            worker: RefCell::new(None),
            #[cfg(feature = "engine")]
            local: RefCell::new(None),
            spawned: Cell::new(false),
            next_id: Cell::new(1),
            latest: Cell::new(0),
            in_flight: Cell::new(0),
            last_heard: Cell::new(now()),
            ready: Cell::new(false),
            strikes: Cell::new(0),
            last_load: RefCell::new(None),
            cancelling: RefCell::new(None),
            sink: Box::new(sink),
            handlers: RefCell::new(Vec::new()),
        });
        let weak = Rc::downgrade(&client);
        let tick = crate::kit::callback(move |_| {
            if let Some(c) = weak.upgrade() {
                c.watch();
            }
        });
        window()?.set_interval_with_callback_and_timeout_and_arguments_0(&tick, 500)?;
        Ok(client)
    }

    /// Whether the kernel runs in a worker (else in the page). True before the first request
    /// (the worker starts with it).
    pub fn in_worker(&self) -> bool {
        !self.spawned.get() || self.worker.borrow().is_some()
    }

    /// Whether the worker has loaded the kernel engine (its `{ready}` message).
    pub fn engine_ready(&self) -> bool {
        self.ready.get()
    }

    /// Whether `id` is the latest request sent: only its answer may be shown. An answer the
    /// view hears after it has sent another request (a second "back" click in the tick between
    /// the client hearing the first click's answer and the view showing it) is not.
    pub fn is_latest(&self, id: u64) -> bool {
        id == self.latest.get()
    }

    /// Whether a request is unanswered.
    pub fn busy(&self) -> bool {
        self.in_flight.get() > 0
    }

    /// Sends `req`; only its answers reach the view from now on.
    pub fn send(self: &Rc<Self>, req: Request) {
        if matches!(req.command, Command::Load { .. }) {
            *self.last_load.borrow_mut() = Some(req.clone());
        }
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        self.latest.set(id);
        if self.in_flight.get() == 0 {
            self.last_heard.set(now());
        }
        self.in_flight.set(self.in_flight.get() + 1);
        if !self.spawned.replace(true) {
            self.spawn();
        }
        let json = serde_json::to_string(&req).unwrap_or_default();
        if let Some(w) = self.worker.borrow().as_ref() {
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"id".into(), &JsValue::from_f64(id as f64));
            let _ = js_sys::Reflect::set(&msg, &"json".into(), &JsValue::from_str(&json));
            if w.post_message(&msg).is_ok() {
                return;
            }
        }
        self.local_later(id, req);
    }

    /// Stops the run in flight where it is: the worker is asked to stop between two slices
    /// and answers with the frame after the last step run. Where that cannot be asked (the
    /// in-page fallback) or the worker does not answer within [`CANCEL_MS`], the worker is
    /// replaced and the last kernel loaded again, and the view hears `why`.
    pub fn cancel(self: &Rc<Self>, why: &str) {
        let asked = self.in_flight.get() > 0
            && self.worker.borrow().as_ref().is_some_and(|w| {
                let msg = js_sys::Object::new();
                let id = JsValue::from_f64(self.latest.get() as f64);
                js_sys::Reflect::set(&msg, &"cancel".into(), &id).is_ok()
                    && w.post_message(&msg).is_ok()
            });
        if asked {
            *self.cancelling.borrow_mut() = Some((now() + CANCEL_MS, why.to_string()));
        } else {
            self.restart(why, true);
        }
    }

    /// Ignores every answer to the requests sent so far (the view shows something else now,
    /// such as a link's field error): they still run, but none reaches the view.
    pub fn forget(&self) {
        self.latest.set(self.next_id.get());
        self.next_id.set(self.next_id.get() + 1);
    }

    /// Drops whatever the worker is doing, silently, before a new load (a link opened or the
    /// source edited during a run: the old run's answers no longer matter).
    pub fn abandon(self: &Rc<Self>) {
        if self.in_flight.get() == 0 {
            return;
        }
        let stopped = self.worker.borrow_mut().take();
        self.in_flight.set(0);
        if let Some(w) = stopped {
            w.terminate();
            self.spawn();
        }
    }

    /// The in-page fallback: answers `req` on the next tick.
    fn local_later(self: &Rc<Self>, id: u64, req: Request) {
        let me = self.clone();
        let f = Closure::once_into_js(move || {
            #[cfg(feature = "engine")]
            let frame = {
                let mut local = me.local.borrow_mut();
                let session = local.get_or_insert_with(Session::default);
                session.handle(req, &now, &mut |_| {})
            };
            // The page's module has no interpreter: the view says why nothing runs.
            #[cfg(not(feature = "engine"))]
            let frame = {
                let _ = req;
                let why = "the kernel engine could not start: this browser could not run its \
                           module worker (crosslane-worker.js)";
                Frame {
                    state: "error".into(),
                    status: why.into(),
                    error: Some(why.into()),
                    ..Frame::default()
                }
            };
            me.in_flight.set(me.in_flight.get().saturating_sub(1));
            if id == me.latest.get() {
                (me.sink)(Heard::Frame(id, Box::new(frame)));
            }
        });
        if let Ok(w) = window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0);
        }
    }

    /// Starts a worker (or, where none can start, leaves the in-page fallback in charge).
    fn spawn(self: &Rc<Self>) {
        self.ready.set(false);
        self.handlers.borrow_mut().clear();
        let opts = WorkerOptions::new();
        opts.set_type(WorkerType::Module);
        let Ok(worker) = Worker::new_with_options(WORKER_SCRIPT, &opts) else {
            *self.worker.borrow_mut() = None;
            return;
        };
        let weak = Rc::downgrade(self);
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            if let Some(c) = weak.upgrade() {
                if let Ok(e) = e.dyn_into::<MessageEvent>() {
                    c.heard(&e.data());
                }
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let weak = Rc::downgrade(self);
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_e: JsValue| {
            let Some(c) = weak.upgrade() else {
                return;
            };
            if c.ready.get() {
                // A worker that had loaded and then failed (out of memory in a launch whose
                // budgets were raised, a trap): a fresh one, as the watchdog would.
                c.strike("the kernel worker failed (out of memory, or an internal error)");
            } else {
                c.failed_start();
            }
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self.handlers.borrow_mut().push(on_message);
        self.handlers.borrow_mut().push(on_error);
        *self.worker.borrow_mut() = Some(worker);
    }

    /// A message from the worker.
    fn heard(self: &Rc<Self>, data: &JsValue) {
        self.last_heard.set(now());
        if get(data, "ready").is_truthy() {
            self.ready.set(true);
            return;
        }
        if get(data, "failed").as_string().is_some() {
            // The wasm did not load in the worker: run in the page instead.
            self.failed_start();
            return;
        }
        let id = get(data, "id").as_f64().map_or(0, |v| v as u64);
        let latest = id == self.latest.get();
        if let Some(len) = get(data, "progress").as_f64() {
            if latest {
                (self.sink)(Heard::Progress(len as usize));
            }
            return;
        }
        let Some(reply) = get(data, "reply").as_string() else {
            return;
        };
        self.in_flight.set(self.in_flight.get().saturating_sub(1));
        if !latest {
            return;
        }
        self.cancelling.borrow_mut().take();
        match super::wire::read_reply(&reply) {
            Ok(Reply::Frame(f)) => {
                self.strikes.set(0);
                (self.sink)(Heard::Frame(id, f));
            }
            Ok(Reply::Error(e)) => (self.sink)(Heard::Failed(e)),
            Err(e) => (self.sink)(Heard::Failed(format!("unreadable answer: {e}"))),
        }
    }

    /// The worker script or its wasm could not load: the in-page fallback takes over and the
    /// last kernel is loaded there.
    fn failed_start(self: &Rc<Self>) {
        let stopped = self.worker.borrow_mut().take();
        if let Some(w) = stopped {
            w.terminate();
        }
        self.in_flight.set(0);
        // Bound first: `send` borrows `last_load` mutably.
        let load = self.last_load.borrow().clone();
        if let Some(load) = load {
            self.send(load);
        }
    }

    /// Replaces the worker and, with `reload`, loads the last kernel again.
    fn restart(self: &Rc<Self>, why: &str, reload: bool) {
        self.cancelling.borrow_mut().take();
        let had_worker = self.worker.borrow_mut().take().map(|w| w.terminate());
        self.in_flight.set(0);
        if had_worker.is_some() {
            self.spawn();
        }
        let load = self.last_load.borrow().clone();
        let reloading = reload && load.is_some();
        (self.sink)(Heard::Restarted {
            why: why.to_string(),
            reloading,
        });
        if let (true, Some(load)) = (reloading, load) {
            self.send(load);
        }
    }

    /// The watchdog's tick.
    fn watch(self: &Rc<Self>) {
        if self.in_flight.get() == 0 || self.worker.borrow().is_none() {
            return;
        }
        let late = self
            .cancelling
            .borrow()
            .as_ref()
            .filter(|(deadline, _)| now() > *deadline)
            .map(|(_, why)| why.clone());
        if let Some(why) = late {
            self.restart(&why, true);
            return;
        }
        let quiet = now() - self.last_heard.get();
        let limit = if self.ready.get() {
            WATCHDOG_MS
        } else {
            STARTUP_MS
        };
        if quiet > limit {
            self.strike(&format!(
                "the kernel worker did not answer for {:.0} s",
                quiet / 1000.0
            ));
        }
    }

    /// The worker hung or failed: a fresh one, and the kernel loaded again — unless that
    /// happened twice in a row without a frame, when loading this kernel is what fails (a launch
    /// too large for the budgets given) and it is not loaded a third time.
    fn strike(self: &Rc<Self>, what: &str) {
        let strikes = self.strikes.get() + 1;
        self.strikes.set(strikes);
        let again = strikes < 2;
        self.restart(
            &format!(
                "{what}, so it was stopped and a fresh one started{}",
                if again {
                    ""
                } else {
                    "; this kernel was not loaded again (its launch or budgets are too large to load in seconds): change them and it loads"
                }
            ),
            again,
        );
    }
}
