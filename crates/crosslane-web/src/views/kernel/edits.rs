//! The kernel view's edits of its inputs: an argument or buffer length typed in, a memory cell
//! edited before the first step, a memory page chosen. Each updates the view's state and asks
//! the worker again; none runs the interpreter here.

use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlInputElement};

use super::KernelView;
use crate::dom::Js;
use crate::worker::protocol::Command;

impl KernelView {
    /// An argument field typed in: a value or fill (`data-arg`) or a length (`data-len`); the
    /// kernel is launched again with it. A length that does not parse is marked and not used.
    pub(super) fn edit_arg(&mut self, target: &EventTarget) -> Js<bool> {
        let Some(input) = target.dyn_ref::<HtmlInputElement>() else {
            return Ok(false);
        };
        let text = input.value();
        if let Some(name) = input.get_attribute("data-arg") {
            // A typed fill replaces the buffer's memory edits.
            self.edits.remove(&name);
            if text.trim().is_empty() {
                self.args.remove(&name);
            } else {
                self.args.insert(name, text.trim().to_string());
            }
        } else if let Some(name) = input.get_attribute("data-len") {
            // The memory edits stay: the worker keeps the cells that still fit and says
            // which it dropped.
            match super::inputs::parse_len(&name, &text) {
                Ok(len) => {
                    self.bad_lens.remove(&name);
                    match len {
                        Some(n) => self.lens.insert(name, n),
                        None => self.lens.remove(&name),
                    };
                }
                Err(message) => {
                    // Said like a bad launch field (visible, in the status, described by
                    // `#kernel-error`); the launch waits for a length that parses.
                    self.bad_lens.insert(name, message);
                }
            }
        } else {
            return Ok(false);
        }
        self.load()?;
        Ok(true)
    }

    /// A memory cell edited before the first step: the worker checks it and makes it the
    /// buffer's initial fill.
    pub(super) fn edit_memory(&mut self, target: &EventTarget) -> Js<bool> {
        let Some(input) = target.dyn_ref::<HtmlInputElement>() else {
            return Ok(false);
        };
        let (Some(buffer), Some(index)) = (
            input
                .get_attribute("data-buffer")
                .and_then(|b| b.parse::<usize>().ok()),
            input
                .get_attribute("data-index")
                .and_then(|i| i.parse::<usize>().ok()),
        ) else {
            return Ok(false);
        };
        if self.running || self.pos != 0 {
            return Ok(false);
        }
        // The buffer's name (its tbody's `data-name`) keys the edit, so that it follows the
        // buffer through source and launch changes. The worker checks the value on the load
        // and keeps it only if it parses.
        let Some(name) = input
            .closest("tbody[data-name]")?
            .and_then(|t| t.get_attribute("data-name"))
        else {
            self.ask(Command::Edit {
                buffer,
                index,
                text: input.value(),
            });
            return Ok(true);
        };
        self.edits
            .entry(name)
            .or_default()
            .insert(index, input.value().trim().to_string());
        self.load()?;
        Ok(true)
    }

    /// A click on a memory page button.
    pub(super) fn page_memory(&mut self, target: &EventTarget) -> Js<bool> {
        let Some(button) = target.dyn_ref::<Element>() else {
            return Ok(false);
        };
        let (Some(buffer), Some(page)) = (
            button
                .get_attribute("data-buffer")
                .and_then(|b| b.parse::<usize>().ok()),
            button
                .get_attribute("data-page")
                .and_then(|p| p.parse::<usize>().ok()),
        ) else {
            return Ok(false);
        };
        if !button.class_list().contains("mem-page") || self.running {
            return Ok(false);
        }
        self.pages.insert(buffer, page);
        self.ask(Command::Show);
        Ok(false)
    }
}
