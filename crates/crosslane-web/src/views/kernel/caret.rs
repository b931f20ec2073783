//! The kernel editor's caret: keeping the line being edited in view.

use web_sys::HtmlTextAreaElement;

/// Scrolls the textarea so that the line of `caret` (a UTF-16 offset) is in view, as the
/// browser does after its own insertions (`setRangeText` leaves the scroll where it was). Lines
/// all have the same height in the editor.
pub(super) fn reveal_caret(area: &HtmlTextAreaElement, caret: u32) {
    let value = area.value();
    let (mut units, mut before, mut lines) = (0u32, 0u32, 1u32);
    for c in value.chars() {
        if c == '\n' {
            lines += 1;
            if units < caret {
                before += 1;
            }
        }
        units = units.saturating_add(u32::try_from(c.len_utf16()).unwrap_or(2));
    }
    let line = f64::from(area.scroll_height()) / f64::from(lines);
    let view = f64::from(area.client_height());
    let top = f64::from(before) * line;
    let scroll = area.scroll_top();
    if top < scroll {
        area.set_scroll_top(top);
    } else if top + 2.0 * line > scroll + view {
        area.set_scroll_top(top + 2.0 * line - view);
    }
}
