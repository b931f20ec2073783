//! The page's small kit, used by every view (the DOM parts exist on wasm32 only): one way to attach a listener (`listen`), one way
//! to own a view's state (`State`), one way to bind a form field to a state field (`bind`),
//! and HTML built by type ([`Html`]: text is escaped because it can only enter as text).
//!
//! Why a kit: each view used to copy its own listener plumbing and own its state its own way;
//! the rules below were written (and sometimes forgotten) per view:
//! - a listener lives as long as the page (the closure is handed to the browser for good);
//! - a handler is `Fn`, never `FnMut`: a handler that rebuilds the form removes the focused
//!   field, and Chrome then fires `change` inside the running handler; a re-entered `FnMut`
//!   closure throws ("closure invoked recursively"), an `Fn` one finds the state borrowed and
//!   returns;
//! - a handler's DOM error shows the red banner instead of vanishing;
//! - a view is told after each handler, once its state is released (`Owned::settled`), so the
//!   router's save hook can read the state.

pub mod html;

#[cfg(target_arch = "wasm32")]
mod listen;
#[cfg(target_arch = "wasm32")]
mod state;

pub use html::Html;
#[cfg(target_arch = "wasm32")]
pub use listen::{
    after_event, after_frame, append_html, callback, clear, listen, listen_all, set_html, set_svg,
};
#[cfg(target_arch = "wasm32")]
pub use state::{bind, Owned, State, WeakState};
