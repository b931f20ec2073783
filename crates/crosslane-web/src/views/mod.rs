//! The page's views: each view is one module (a file or a folder) that builds its DOM inside its
//! own `<section id="view-NAME" data-view="NAME">` of `web/index.html`, keeps its own state, and
//! registers with the `router` so that tabs, the URL (permalinks) and embeds can save and
//! restore it. `op/` is the operation view (its form, lane table and GPU panel).
//!
//! Adding a view: a folder (or file) here with its `mod` line, one line in `mount_all` (the
//! mount list sits here rather than in `router`, which every view imports, so that the imports
//! point one way), one `<section>` and one tab button in `web/index.html`.

#[cfg(target_arch = "wasm32")]
pub mod compare;
#[cfg(target_arch = "wasm32")]
pub mod kernel;
pub mod kernel_hint;
/// The kernel view's input parsing, compiled on the host too so that its unit tests run there
/// (the view itself is wasm only).
#[cfg(all(test, not(target_arch = "wasm32")))]
#[allow(dead_code)]
#[path = "kernel/inputs.rs"]
mod kernel_inputs;
#[cfg(target_arch = "wasm32")]
pub mod maca;
#[cfg(target_arch = "wasm32")]
pub mod op;
#[cfg(target_arch = "wasm32")]
pub mod reference;
#[cfg(target_arch = "wasm32")]
pub mod router;
#[cfg(target_arch = "wasm32")]
pub mod shortcuts;
pub mod sort;
#[cfg(target_arch = "wasm32")]
pub mod tabs;

#[cfg(target_arch = "wasm32")]
use crate::dom::Js;

/// Mounts every view, in this order, and the page-wide wiring (tabs, keys, the kernel hint)
/// between them; each view's section must exist in `web/index.html`.
///
/// Adding a view: one line here.
#[cfg(target_arch = "wasm32")]
pub fn mount_all() -> Js<()> {
    op::mount()?;
    kernel::mount()?;
    kernel_hint::install()?;
    router::install()?;
    shortcuts::install()?;
    compare::mount()?;
    reference::mount()?;
    sort::mount()?;
    maca::mount()?;
    Ok(())
}
