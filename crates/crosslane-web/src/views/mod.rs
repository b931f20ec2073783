//! The page's views besides the single-operation view (`crate::app`): each view is one module
//! that builds its DOM inside its own `<section id="view-NAME" data-view="NAME">` of
//! `web/index.html`, keeps its own state, and registers with the `router` so that tabs, the
//! URL (permalinks) and embeds can save and restore it.
//!
//! Adding a view: a module here, one line in `mount_all`, one `<section>` and one tab button in
//! `web/index.html`.

#[cfg(target_arch = "wasm32")]
pub mod compare;
#[cfg(target_arch = "wasm32")]
pub mod gpu;
#[cfg(target_arch = "wasm32")]
pub mod kernel;
pub mod kernel_hint;
#[cfg(target_arch = "wasm32")]
pub mod maca;
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

/// Mounts every view (after the op view, which the app mounts itself) and shows the view the
/// page opened with.
#[cfg(target_arch = "wasm32")]
pub fn mount_all() -> Js<()> {
    gpu::mount()?;
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
