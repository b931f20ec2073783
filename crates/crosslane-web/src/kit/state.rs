//! A view's state: owned once, borrowed per event, released before the view is told.

use std::cell::{Cell, Ref, RefCell, RefMut};
use std::rc::{Rc, Weak};

use web_sys::{Event, EventTarget, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use crate::dom::Js;

/// What a view's state says about itself to the kit.
pub trait Owned: Sized + 'static {
    /// How a page error in one of its handlers is reported: `crosslane hit a page error in WHAT`.
    const WHAT: &'static str;

    /// Called after each handler of a [`State::listen`] of event `kind`, once the state is
    /// released (e.g. to tell the router the view changed, so its save hook can read the state).
    fn settled(_state: &State<Self>, _kind: &str) {}
}

/// A view's state, shared by its listeners and hooks: `Rc<RefCell<T>>` with the rules of
/// [`super`] written once.
pub struct State<T>(Rc<Inner<T>>);

struct Inner<T> {
    value: RefCell<T>,
    /// Set while the view reports a change ([`State::reporting`]), so its own change listener
    /// does not redraw what it just drew.
    reporting: Cell<bool>,
}

/// A [`State`] that does not keep the view alive (for callbacks that may outlive it).
pub struct WeakState<T>(Weak<Inner<T>>);

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        State(self.0.clone())
    }
}

impl<T> Clone for WeakState<T> {
    fn clone(&self) -> Self {
        WeakState(self.0.clone())
    }
}

impl<T> Default for WeakState<T> {
    /// A handle to no state (before the view's state exists).
    fn default() -> Self {
        WeakState(Weak::new())
    }
}

impl<T> WeakState<T> {
    /// The state, while the view lives.
    pub fn upgrade(&self) -> Option<State<T>> {
        self.0.upgrade().map(State)
    }
}

impl<T> State<T> {
    /// Owns `value` as a view's state.
    pub fn new(value: T) -> Self {
        State(Rc::new(Inner {
            value: RefCell::new(value),
            reporting: Cell::new(false),
        }))
    }

    /// The state to read, or `None` while a handler holds it (a re-entered event).
    pub fn get(&self) -> Option<Ref<'_, T>> {
        self.0.value.try_borrow().ok()
    }

    /// The state to change, or `None` while it is borrowed (a re-entered event is dropped,
    /// never a panic).
    pub fn get_mut(&self) -> Option<RefMut<'_, T>> {
        self.0.value.try_borrow_mut().ok()
    }

    /// Runs `f` on the state to change it, if it is free.
    pub fn update<R>(&self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        self.get_mut().map(|mut v| f(&mut v))
    }

    /// A handle that does not keep the state alive.
    pub fn downgrade(&self) -> WeakState<T> {
        WeakState(Rc::downgrade(&self.0))
    }

    /// Runs `f` (telling the router about a change) with [`State::is_reporting`] set.
    pub fn reporting(&self, f: impl FnOnce()) {
        self.0.reporting.set(true);
        f();
        self.0.reporting.set(false);
    }

    /// Whether the view is reporting its own change (see [`State::reporting`]).
    pub fn is_reporting(&self) -> bool {
        self.0.reporting.get()
    }
}

impl<T: Owned> State<T> {
    /// Attaches `f` to the `kind` events of `target` for the page's life, run on the state; a
    /// DOM error shows the red banner; then [`Owned::settled`] with the state released.
    ///
    /// # Errors
    /// When the browser refuses the listener.
    pub fn listen(
        &self,
        target: &impl AsRef<EventTarget>,
        kind: &'static str,
        f: impl Fn(&mut T, Event) -> Js<()> + 'static,
    ) -> Js<()> {
        let state = self.clone();
        super::listen(target, kind, move |e| {
            let Some(mut v) = state.get_mut() else {
                return;
            };
            if let Err(err) = f(&mut v, e) {
                crate::panic::banner(&format!(
                    "crosslane hit a page error in {}: {err:?}",
                    T::WHAT
                ));
            }
            drop(v);
            T::settled(&state, kind);
        })
    }
}

impl<T: Owned> WeakState<T> {
    /// Runs `f` on the state in a task of its own, after the current one (a zero timeout): the
    /// second half of a render too long for one task (each task under 50 ms: no main-thread task
    /// over 50 ms). Nothing runs once the view is gone; a page error shows the banner, as in a
    /// listener. `f` should check that it is still wanted (a newer render may have come first).
    pub fn later(&self, f: impl FnOnce(&mut T) -> Js<()> + 'static) {
        super::after_event(self.on_state(f));
    }

    /// [`WeakState::later`] after the next frame ([`super::after_frame`]): for a part of a
    /// render whose layout should not share a frame with the part before it.
    pub fn after_frame(&self, f: impl FnOnce(&mut T) -> Js<()> + 'static) {
        super::after_frame(self.on_state(f));
    }

    /// `f` run on the state if the view is still there and no handler holds it.
    fn on_state(&self, f: impl FnOnce(&mut T) -> Js<()> + 'static) -> impl FnOnce() + 'static {
        let state = self.clone();
        move || {
            let Some(state) = state.upgrade() else {
                return;
            };
            // Timeouts and frames run between events, when no handler holds the state.
            let Some(mut v) = state.get_mut() else {
                return;
            };
            if let Err(err) = f(&mut v) {
                crate::panic::banner(&format!(
                    "crosslane hit a page error in {}: {err:?}",
                    T::WHAT
                ));
            }
        }
    }
}

/// Form fields bound to state fields: on every `input` (text) or `change` (menus, checkboxes)
/// of the field, one handler writes the field's value into the state and does what follows
/// from it (re-render), in that order: no second listener whose order could matter.
pub mod bind {
    use super::*;

    /// A form field whose value the kit can read as text or as a flag.
    pub trait Field: AsRef<EventTarget> {
        /// The field's value as text (a checkbox: `"true"` / `"false"`).
        fn text(&self) -> String;
        /// The event that says the value changed: `input` for text, `change` for the others.
        fn event(&self) -> &'static str;
    }

    impl Field for HtmlInputElement {
        fn text(&self) -> String {
            if self.type_() == "checkbox" {
                self.checked().to_string()
            } else {
                self.value()
            }
        }
        fn event(&self) -> &'static str {
            if self.type_() == "checkbox" {
                "change"
            } else {
                "input"
            }
        }
    }

    impl Field for HtmlSelectElement {
        fn text(&self) -> String {
            self.value()
        }
        fn event(&self) -> &'static str {
            "change"
        }
    }

    impl Field for HtmlTextAreaElement {
        fn text(&self) -> String {
            self.value()
        }
        fn event(&self) -> &'static str {
            "input"
        }
    }

    /// Binds `field` to a state field: `set(state, text)` on every change of the field (it
    /// stores the text and re-renders what depends on it).
    ///
    /// # Errors
    /// When the browser refuses the listener.
    pub fn text<T: Owned, F: Field + Clone + 'static>(
        state: &State<T>,
        field: &F,
        set: impl Fn(&mut T, String) -> Js<()> + 'static,
    ) -> Js<()> {
        let f = field.clone();
        state.listen(field, field.event(), move |v, _| set(v, f.text()))
    }

    /// Binds checkbox `field` to a state flag: `set(state, checked)` on every change (it stores
    /// the flag and re-renders what depends on it).
    ///
    /// # Errors
    /// When the browser refuses the listener.
    pub fn checked<T: Owned>(
        state: &State<T>,
        field: &HtmlInputElement,
        set: impl Fn(&mut T, bool) -> Js<()> + 'static,
    ) -> Js<()> {
        let f = field.clone();
        state.listen(field, "change", move |v, _| set(v, f.checked()))
    }
}
