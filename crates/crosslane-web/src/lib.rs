//! crosslane-web: the browser playground, a thin shell over `crosslane-core`.
//!
//! What it is for: turning the form (dialect, op, vendor parameters, lanes, active mask, values,
//! type) into an [`crosslane_core::OpRequest`], running it, and showing the resulting
//! [`crosslane_core::Step`] as a canvas drawing, a lane table and a list of diagnostics.
//!
//! What it is not for: semantics. Nothing here decides what a lane receives; the drawing is built
//! from the step alone ([`render::scene`]).
//!
//! Target-independent modules ([`labels`], [`form`], [`render::scene`], [`render::svg`],
//! [`render::style`], the sort view's model and drawings in [`views::sort`]) build and are tested
//! natively; the DOM modules exist only on wasm32.
//!
//! Read first: `start` (the wasm entry, in this file), then [`views`] (`views::mount_all`, one
//! line per view, and the router), [`render::scene`] (a step as a display list) and [`kit`] (the
//! listeners, state and HTML builder every view uses). The JavaScript library's side is [`api`];
//! the kernel worker's is [`worker`]. The page's user documentation is `docs/embedding.md`.

#![warn(missing_docs)]
// Each of the two wasm modules (`page`, `engine`: Cargo.toml) leaves the other's entry points
// out, and with them some helpers they share; native builds have both and are linted whole.
#![cfg_attr(
    not(all(feature = "page", feature = "engine")),
    allow(dead_code, unused_imports)
)]

pub mod api;
pub mod bench;
pub mod embed;
pub mod export;
pub mod form;
pub mod kit;
pub mod labels;
pub mod render;

#[cfg(target_arch = "wasm32")]
mod dom;
#[cfg(all(target_arch = "wasm32", not(feature = "engine")))]
mod engine_link;
#[cfg(target_arch = "wasm32")]
mod panic;
#[cfg(target_arch = "wasm32")]
pub mod permalink;
#[cfg(target_arch = "wasm32")]
mod query;
pub mod views;
pub mod worker;

/// The wasm entry point: installs the panic banner, then builds and wires the page.
///
/// The same module is the JavaScript library's (`dist/crosslane.js`, [`api`]): loaded into a
/// page that is not the playground (no `#view-op` section), it only installs the console panic
/// hook and leaves the host page's DOM alone.
#[cfg(all(target_arch = "wasm32", feature = "page"))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    let on_page = dom::document()
        .ok()
        .and_then(|d| d.get_element_by_id("view-op"))
        .is_some();
    if !on_page {
        console_error_panic_hook::set_once();
        return;
    }
    panic::install();
    if permalink::arriving() {
        // The address holds a link: the browser inflates it (asynchronous, a few milliseconds)
        // before the views mount and draw, so the first render shows the link's scenario, or
        // the default one with the link's error, as it always did.
        wasm_bindgen_futures::spawn_local(async {
            let arrived = permalink::arrival().await;
            mount_page(arrived);
        });
    } else {
        mount_page(None);
    }
}

/// Mounts the views, then reads the link (`arrived`: the address's link, decoded) and keeps
/// the URL up to date; the "loading crosslane (N KB)…" line goes.
#[cfg(all(target_arch = "wasm32", feature = "page"))]
fn mount_page(arrived: Option<permalink::Arrival>) {
    if let Err(e) = views::mount_all() {
        panic::banner(&format!("crosslane could not mount its views: {e:?}"));
    }
    // After every view registered its hooks: the URL can now be read and kept up to date.
    if let Err(e) = embed::install().and_then(|()| permalink::install(arrived)) {
        panic::banner(&format!("crosslane could not read its link: {e:?}"));
    }
    // The module answers: the "loading crosslane (N KB)…" line of index.html goes.
    if let Some(loading) = dom::document()
        .ok()
        .and_then(|d| d.get_element_by_id("loading"))
    {
        let _ = loading.set_attribute("hidden", "");
    }
}

/// The entry point of a module without the page (the kernel engine, crates/crosslane-web-kernel;
/// the JS library's, crates/crosslane-web-lib): only the console panic hook, so that a panic in
/// the worker or in a library call reports its message and place in the console.
#[cfg(all(
    target_arch = "wasm32",
    not(feature = "page"),
    any(feature = "engine", feature = "lib")
))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn module_start() {
    console_error_panic_hook::set_once();
}
