//! Hovering an intrinsic in the kernel editor shows its reference: signature, rule and source
//! (a Compiler-Explorer habit). The facts are the registry's own
//! ([`crosslane_core::OpSpec`]: `signature_line`, `rule`, `source`), the same the reference view
//! and `crosslane ops` print; nothing is written here.
//!
//! The editor is a `<textarea>` over a highlighted copy (`views/kernel.rs`), in a monospace font
//! with a fixed line height, so the pointer's line and column follow from the textarea's padding,
//! line height and the width of one character (tabs expanded to `tab-size`). The hint is
//! `#kernel-hint` (`role=tooltip`), beside the pointer; the textarea is `aria-describedby` it
//! while it shows.

use crosslane_core::{all_ops, OpSpec};

/// The identifier (`[A-Za-z0-9_]+`, not starting with a digit) at visual column `col` of
/// `line`, where a tab advances to the next multiple of `tab` columns.
pub fn word_at(line: &str, col: usize, tab: usize) -> Option<&str> {
    let tab = tab.max(1);
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut x = 0;
    let mut hit = None;
    for (i, c) in line.char_indices() {
        let w = if c == '\t' { tab - x % tab } else { 1 };
        if col < x + w {
            hit = Some(i);
            break;
        }
        x += w;
    }
    let i = hit?;
    if !line[i..].starts_with(is_word) {
        return None;
    }
    let start = line[..i]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(i, |(j, _)| j);
    let end = line[i..]
        .find(|c| !is_word(c))
        .map_or(line.len(), |e| i + e);
    let word = &line[start..end];
    (!word.starts_with(|c: char| c.is_ascii_digit())).then_some(word)
}

/// Every operation a kernel may call by `word`: its name, an alias, or the builtin the call
/// names.
pub fn ops_named(word: &str) -> Vec<&'static OpSpec> {
    all_ops()
        .filter(|s| s.name == word || s.aliases.contains(&word) || s.proto.call == Some(word))
        .collect()
}

/// The hint text for `word`: per operation its dialect, signature line, rule (whitespace
/// collapsed) and source; `None` when no operation has that name.
pub fn hint(word: &str) -> Option<String> {
    let ops = ops_named(word);
    if ops.is_empty() {
        return None;
    }
    let parts: Vec<String> = ops
        .iter()
        .map(|s| {
            format!(
                "{} · {}\n{}\nsource: {}",
                s.dialect.title(),
                s.signature_line(),
                s.rule.split_whitespace().collect::<Vec<_>>().join(" "),
                s.source
            )
        })
        .collect();
    Some(parts.join("\n\n"))
}

#[cfg(target_arch = "wasm32")]
pub use dom::install;

#[cfg(target_arch = "wasm32")]
mod dom {
    use wasm_bindgen::JsCast;
    use web_sys::{
        CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlTextAreaElement, MouseEvent,
    };

    use crate::dom::{document, window, Js};
    use crate::kit::{self, State};

    fn px(style: &web_sys::CssStyleDeclaration, prop: &str) -> f64 {
        style
            .get_property_value(prop)
            .ok()
            .and_then(|v| v.trim_end_matches("px").trim().parse().ok())
            .unwrap_or(0.0)
    }

    /// The width of one character of `font` (a monospace font: every glyph as wide).
    fn char_width(font: &str) -> Option<f64> {
        let canvas: HtmlCanvasElement = document()
            .ok()?
            .create_element("canvas")
            .ok()?
            .dyn_into()
            .ok()?;
        let ctx: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        ctx.set_font(font);
        let w = ctx.measure_text("0000000000").ok()?.width() / 10.0;
        (w > 0.0).then_some(w)
    }

    /// The word under the pointer in the textarea, if the pointer is over text.
    fn word_under(area: &HtmlTextAreaElement, e: &MouseEvent) -> Option<String> {
        let style = window().ok()?.get_computed_style(area).ok()??;
        let line_h = px(&style, "line-height");
        if line_h <= 0.0 {
            return None;
        }
        let font = format!(
            "{} {}",
            style.get_property_value("font-size").ok()?,
            style.get_property_value("font-family").ok()?
        );
        let cw = char_width(&font)?;
        let tab = style
            .get_property_value("tab-size")
            .ok()
            .and_then(|t| t.trim().parse::<usize>().ok())
            .unwrap_or(8);
        let y = e.offset_y() + area.scroll_top() - px(&style, "padding-top");
        let x = e.offset_x() + area.scroll_left() - px(&style, "padding-left");
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let row = (y / line_h) as usize;
        let col = (x / cw) as usize;
        let text = area.value();
        let line = text.lines().nth(row)?;
        super::word_at(line, col, tab).map(str::to_string)
    }

    /// Wires the hint to `#kernel-source`; where the editor is not built yet (a view that builds
    /// itself when first shown), when the kernel view is first shown.
    pub fn install() -> Js<()> {
        // Whether the hint is wired (the view's one piece of state).
        let installed = State::new(false);
        if try_install(&installed)? {
            return Ok(());
        }
        crate::views::router::on_change(move |name| {
            if name == "kernel" && installed.get().is_some_and(|i| !*i) {
                if let Err(e) = try_install(&installed) {
                    crate::panic::banner(&format!("crosslane kernel hint: {e:?}"));
                }
            }
        });
        Ok(())
    }

    /// Wires the hint if the editor exists and it is not wired yet; returns whether it is.
    fn try_install(installed: &State<bool>) -> Js<bool> {
        if installed.get().is_some_and(|i| *i) {
            return Ok(true);
        }
        let doc = document()?;
        let Some(area) = doc
            .get_element_by_id("kernel-source")
            .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
        else {
            return Ok(false);
        };
        installed.update(|i| *i = true);
        let Some(holder) = area.parent_element() else {
            return Ok(true);
        };
        let tip: HtmlElement = doc.create_element("div")?.dyn_into()?;
        tip.set_id("kernel-hint");
        tip.set_attribute("role", "tooltip")?;
        tip.set_hidden(true);
        holder.append_child(&tip)?;

        let (a, t) = (area.clone(), tip.clone());
        kit::listen(&area, "mousemove", move |e| {
            let Some(e) = e.dyn_ref::<MouseEvent>() else {
                return;
            };
            match word_under(&a, e).and_then(|w| super::hint(&w)) {
                Some(text) => {
                    t.set_text_content(Some(&text));
                    let style = t.style();
                    let _ = style.set_property("left", &format!("{}px", e.offset_x() + 12.0));
                    let _ = style.set_property("top", &format!("{}px", e.offset_y() + 18.0));
                    t.set_hidden(false);
                    let _ = a.set_attribute("aria-describedby", "kernel-hint");
                }
                None => {
                    t.set_hidden(true);
                    let _ = a.remove_attribute("aria-describedby");
                }
            }
        })?;
        let t = tip.clone();
        kit::listen_all(&area, &["mouseleave", "keydown", "scroll"], move |_| {
            t.set_hidden(true)
        })?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_under_a_column_is_the_whole_identifier() {
        let line = "  int v = __shfl_down_sync(0xffffffff, x, 1);";
        assert_eq!(word_at(line, 12, 4), Some("__shfl_down_sync"));
        assert_eq!(word_at(line, 10, 4), Some("__shfl_down_sync"));
        assert_eq!(word_at(line, 25, 4), Some("__shfl_down_sync"));
        assert_eq!(word_at(line, 26, 4), None, "the parenthesis");
        assert_eq!(word_at(line, 29, 4), None, "a number is no identifier");
        assert_eq!(word_at(line, 80, 4), None, "past the end");
    }

    #[test]
    fn tabs_advance_to_the_next_tab_stop() {
        // `\t` at column 0 spans columns 0..4 with tab-size 4; `asc_shfl` starts at column 4.
        assert_eq!(word_at("\tasc_shfl(x, 0)", 4, 4), Some("asc_shfl"));
        assert_eq!(word_at("\tasc_shfl(x, 0)", 2, 4), None);
        assert_eq!(word_at("ab\tc", 3, 4), None, "inside the tab");
        assert_eq!(word_at("ab\tc", 4, 4), Some("c"));
    }

    #[test]
    fn a_hint_gives_signature_rule_and_source_from_the_registry() {
        let text = hint("__shfl_down_sync").expect("a CUDA intrinsic");
        assert!(text.starts_with("CUDA"), "{text}");
        assert!(text.contains("__shfl_down_sync(unsigned mask"), "{text}");
        assert!(text.contains("source: "), "{text}");
        // Seed 000, asc_shfl_xor prototype: `(… var, int32_t lane_mask, int32_t width =
        // warpSize)`; its source is that seed.
        let ascend = hint("asc_shfl_xor").expect("an Ascend intrinsic");
        assert!(
            ascend.contains("int32_t lane_mask, int32_t width = warpSize)"),
            "{ascend}"
        );
        assert!(ascend.contains("source: seed 000"), "{ascend}");
        assert!(hint("threadIdx").is_none());
        assert!(hint("").is_none());
    }
}
