//! The GPU check in the page's first module: only its toggle. The panel itself (`gpu.rs`: the
//! WebGPU run, the comparison, the WGSL, the sort on the GPU) is in the kernel engine module,
//! with `crosslane_gpu`; it is loaded when the panel first opens (a click on the toggle, or a
//! link with the panel open), while `p#gpu-loading` under the drawing says so with the
//! module's size. Then the engine's `op_gpu_mount` builds the panel for this toggle,
//! `op_gpu_open` opens or closes it and `op_gpu_step` hands it each step the op view renders
//! (as JSON), as `gpu::step_rendered` does where both are in one module.

use std::rc::Rc;

use crosslane_core::Step;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

use crate::dom::{by_id, document, el_as, Js};
use crate::engine_link;
use crate::kit::{self, Owned, State};
use crate::labels::DisplayOptions;

/// The toggle's state: whether the panel is open, the op view's latest step, and whether the
/// engine's panel is built.
#[derive(Default)]
pub struct Panel {
    toggle: Option<HtmlElement>,
    open: bool,
    /// The visitor has clicked the toggle in this page (GPU work starts only after a click).
    armed: bool,
    step: Option<Rc<Step>>,
    display: DisplayOptions,
    /// The engine module, once its panel is built.
    engine: Option<JsValue>,
    loading: bool,
}

impl Owned for Panel {
    const WHAT: &'static str = "the GPU panel's toggle";
}

/// The op view hands every rendered step here; an open panel gets it at once.
pub fn step_rendered(st: &State<Panel>, step: &Step, display: DisplayOptions) {
    let engine = st
        .update(|s| {
            s.step = Some(Rc::new(step.clone()));
            s.display = display;
            s.engine.clone()
        })
        .flatten();
    if let Some(engine) = engine {
        send_step(&engine, step, display);
    }
}

fn send_step(engine: &JsValue, step: &Step, display: DisplayOptions) {
    if let Ok(json) = serde_json::to_string(step) {
        if let Err(e) = engine_link::call(engine, "op_gpu_step", &[json.into(), display.hex.into()])
        {
            loading_line(&format!("the GPU check: {e}"));
        }
    }
}

/// Builds the toggle and follows the permalink's panel state; the op view keeps the returned
/// state to hand over its steps ([`step_rendered`]).
///
/// # Errors
/// A DOM call that fails.
pub fn mount() -> Js<State<Panel>> {
    let st = State::new(Panel::default());
    let toggle = super::gpu_toggle::create()?;
    st.update(|s| s.toggle = Some(toggle.clone()));
    let s = st.clone();
    kit::listen(&toggle, "click", move |_| {
        s.update(|p| p.armed = true);
        let open = !s.get().is_some_and(|p| p.open);
        set_open(&s, open);
        crate::permalink::set_gpu_panel(open);
    })?;
    // A permalink with the panel open opens it (and Back / Forward follow the link's state).
    let s = st.clone();
    crate::permalink::on_gpu_panel(move |open| set_open(&s, open));
    Ok(st)
}

/// Opens or closes the panel; opening it the first time loads the engine module.
fn set_open(st: &State<Panel>, open: bool) {
    let Some((engine, armed, loading, toggle)) = st.update(|s| {
        s.open = open;
        (s.engine.clone(), s.armed, s.loading, s.toggle.clone())
    }) else {
        return;
    };
    if let Some(t) = toggle {
        let _ = t.set_attribute("aria-pressed", if open { "true" } else { "false" });
    }
    match engine {
        Some(engine) => {
            let _ = engine_link::call(&engine, "op_gpu_open", &[open.into(), armed.into()]);
        }
        None if open && !loading => load(st),
        None => {}
    }
}

/// Loads the engine module, builds its panel, hands it the step on screen and opens it.
fn load(st: &State<Panel>) {
    st.update(|s| s.loading = true);
    loading_line(&engine_link::loading_text("the GPU check"));
    let st = st.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let built = match engine_link::load().await {
            Ok(engine) => engine_link::call(&engine, "op_gpu_mount", &[]).map(|_| engine),
            Err(e) => Err(e),
        };
        let engine = match built {
            Ok(engine) => engine,
            Err(e) => {
                st.update(|s| s.loading = false);
                loading_line(&format!("the GPU check could not load: {e}"));
                return;
            }
        };
        hide_loading_line();
        let Some((step, display, open, armed)) = st.update(|s| {
            s.loading = false;
            s.engine = Some(engine.clone());
            (s.step.clone(), s.display, s.open, s.armed)
        }) else {
            return;
        };
        if let Some(step) = step {
            send_step(&engine, &step, display);
        }
        let _ = engine_link::call(&engine, "op_gpu_open", &[open.into(), armed.into()]);
    });
}

/// `p#gpu-loading` under the drawing: what the GPU check is waiting for, or why it is not there.
fn loading_line(text: &str) {
    let Ok(doc) = document() else { return };
    let line: HtmlElement = match by_id(&doc, "gpu-loading") {
        Ok(l) => l,
        Err(_) => {
            let Ok(l) =
                el_as::<HtmlElement>(&doc, "p", &[("id", "gpu-loading"), ("role", "status")])
            else {
                return;
            };
            match by_id::<HtmlElement>(&doc, "stage") {
                Ok(stage) => {
                    let _ = stage.after_with_node_1(&l);
                }
                Err(_) => return,
            }
            l
        }
    };
    line.set_text_content(Some(text));
    line.set_hidden(false);
}

fn hide_loading_line() {
    if let Ok(doc) = document() {
        if let Ok(l) = by_id::<HtmlElement>(&doc, "gpu-loading") {
            l.set_hidden(true);
        }
    }
}
