//! What the page's query (`?embed&theme=dark`) asks for. Read by embed mode (`embed.rs`) and by
//! the URL state (`permalink.rs`: an embed replaces its history entry instead of pushing one), so
//! neither imports the other for it.

use crate::dom::window;

/// Whether the page was opened with `?embed`.
pub fn is_embed() -> bool {
    query().is_some_and(|q| {
        q.split('&')
            .any(|p| p == "embed" || p.starts_with("embed="))
    })
}

/// Whether the page was opened with `?embed=static`: an embed that shows its scenario and
/// edits nothing (no control strip, lane clicks ignored), beside the default `?embed`, which
/// edits every field of the operation.
pub fn is_static_embed() -> bool {
    query().is_some_and(|q| q.split('&').any(|p| p == "embed=static"))
}

/// Whether the page was opened with `theme=dark`.
pub fn is_dark() -> bool {
    query().is_some_and(|q| q.split('&').any(|p| p == "theme=dark"))
}

fn query() -> Option<String> {
    let search = window().ok()?.location().search().ok()?;
    Some(search.trim_start_matches('?').to_string())
}
