//! The kernel view's buttons: reset, back, step, run and cancel (`#kernel-reset`,
//! `#kernel-back`, `#kernel-step`, `#kernel-run`, `#kernel-cancel`).
//!
//! The view owns the position. "back" and "step" move it at the click and ask the worker to
//! show it, and only the answer to the latest request is shown (the client drops older answers,
//! and the view drops one it hears after sending a newer request: `Client::is_latest`), so N
//! clicks move N steps however fast they come, even while an answer is on its way. A "step"
//! past the steps recorded so far asks the worker to run one more, from the position the click
//! left: two quick steps there run two.

use super::{act, KernelView, Shared};
use crate::dom::Js;
use crate::worker::protocol::Command;

/// A button of the view.
#[derive(Clone, Copy)]
pub(super) enum Button {
    Reset,
    Back,
    Step,
    Run,
    Cancel,
}

/// A click of `which`.
///
/// # Errors
/// A DOM call that fails.
pub(super) fn press(state: &Shared, which: Button) -> Js<()> {
    if let Button::Cancel = which {
        // The client speaks to the view while cancelling: no borrow may be held.
        let (client, steps) = {
            let Some(v) = state.get() else {
                return Ok(());
            };
            // The slider follows the run's progress: how far it got.
            (
                v.client.clone(),
                v.slider.value().parse::<usize>().unwrap_or(0),
            )
        };
        // The worker stops between two slices and answers with the steps run so far; this
        // text is for a worker that does not (or the in-page fallback), which is replaced.
        if let Some(c) = client {
            c.cancel(&format!(
                "cancelled: the run was stopped after {steps} steps (the worker terminated) and the kernel loaded again"
            ));
        }
        return Ok(());
    }
    act(state, |v| {
        if v.running {
            return Ok(false);
        }
        v.notice = None;
        // An edit still waiting for its parse (the keys came faster than the pause) is parsed
        // now: the worker answers in order, so the step or run applies to the text as typed.
        if v.frame.is_none() && v.field_error.is_none() && !matches!(which, Button::Reset) {
            v.edit_pending.set(false);
            v.generation += 1;
            v.load()?;
        }
        match which {
            Button::Reset => v.load()?,
            Button::Back => {
                v.pos = v.pos.saturating_sub(1);
                v.ask(Command::Show);
            }
            Button::Step => step(v),
            Button::Run => {
                if v.frame.as_ref().is_none_or(|f| f.error.is_none()) {
                    v.run(None)?;
                }
                return Ok(false);
            }
            Button::Cancel => {}
        }
        // Reset, back and step change the position a link saves now; the worker's answer may
        // change it again (a step past the kernel's end).
        Ok(true)
    })
}

/// One step forward from the view's position: the worker shows the next step, running one
/// more where the position is at the end of the steps recorded. The position moves now, so that
/// the next click counts from it; at the end of a run that is over (finished, stopped at a
/// budget, failed) it stays, and the worker's answer says so.
fn step(v: &mut KernelView) {
    let over = v.frame.as_ref().is_some_and(|f| f.state != "idle");
    v.ask(Command::Step);
    if v.pos < v.len || !over {
        v.pos = v.pos.saturating_add(1);
    }
}
