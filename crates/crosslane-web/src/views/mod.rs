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
/// The kernel examples' table, compiled on the host too so that its test (every path and
/// digest agrees with the file it names) runs there.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[allow(dead_code)]
#[path = "kernel/examples.rs"]
mod kernel_examples;
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

/// A view's mount, deferred: the views the first render does not show ([`mount_all`]).
#[cfg(target_arch = "wasm32")]
type Mount = (&'static str, fn() -> Js<()>);

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The views not mounted yet, in mount order.
    static PENDING: std::cell::RefCell<std::collections::VecDeque<Mount>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
}

/// Mounts the operation view (the default page's first render), the views that cost nothing
/// until shown (reference) and the page-wide wiring (tabs); the other views (kernel with its
/// hint and keys, portability, sort, MACA) are mounted in tasks of their own after the first
/// frame, one per frame, or at once when something asks for one of them first: a tab, a link
/// ([`ensure_mounted`], called by the router). Mounting them all before the first render took
/// 110–130 ms of the cold load's 150–200 ms of start-up script (docs/benchmarks.md, "Where the
/// time went, and the deferred mounts").
/// Each view's section must exist in `web/index.html`.
///
/// Adding a view: one line here (in `LATER` when its first render can wait).
#[cfg(target_arch = "wasm32")]
pub fn mount_all() -> Js<()> {
    op::mount()?;
    router::install()?;
    reference::mount()?;
    const LATER: [Mount; 4] = [
        ("kernel", mount_kernel),
        ("compare", compare::mount),
        ("sort", sort::mount),
        ("maca", maca::mount),
    ];
    PENDING.with(|p| p.borrow_mut().extend(LATER));
    crate::kit::after_frame(mount_next);
    Ok(())
}

/// The kernel view and what hangs on its DOM: the op hints in its editor and its Ctrl+Enter.
#[cfg(target_arch = "wasm32")]
fn mount_kernel() -> Js<()> {
    kernel::mount()?;
    kernel_hint::install()?;
    shortcuts::install()
}

/// How many frames the deferred mounts wait for a kernel link's first trace (about 3 s at
/// 60 frames a second; a longer run gets the other views mounted beside it).
#[cfg(target_arch = "wasm32")]
const KERNEL_WAIT_FRAMES: u32 = 180;

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// Frames the deferred mounts have waited so far.
    static WAITED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Whether a deferred view is being mounted (see [`mounting`]).
    static MOUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a deferred view is being mounted now: what its mount does (a first render, a
/// default filled in) is no change of the reader's, so [`router::changed`] tells nobody, as
/// when every view mounted before the link was read (a damaged link's message stays, the
/// address is not rewritten).
#[cfg(target_arch = "wasm32")]
pub fn mounting() -> bool {
    MOUNTING.with(std::cell::Cell::get)
}

/// Runs one deferred mount with [`mounting`] true.
#[cfg(target_arch = "wasm32")]
fn run_mount(mount: fn() -> Js<()>) -> Js<()> {
    let was = MOUNTING.with(|m| m.replace(true));
    let done = mount();
    MOUNTING.with(|m| m.set(was));
    done
}

/// Whether a kernel link's first trace is on its way: the kernel view on screen and running.
/// Its worker is then compiling the kernel engine, and the mounts of views nobody looks at
/// would take a core from it (a kernel link opened cold is measured to its first trace).
#[cfg(target_arch = "wasm32")]
fn kernel_running() -> bool {
    router::current() == "kernel"
        && crate::dom::document()
            .ok()
            .and_then(|d| d.get_element_by_id("view-kernel"))
            .and_then(|s| s.get_attribute("data-state"))
            .as_deref()
            == Some("running")
}

/// Mounts the next deferred view and schedules the one after it for the next frame.
#[cfg(target_arch = "wasm32")]
fn mount_next() {
    if kernel_running() && WAITED.with(|w| w.replace(w.get() + 1)) < KERNEL_WAIT_FRAMES {
        crate::kit::after_frame(mount_next);
        return;
    }
    let Some((_, mount)) =
        PENDING.with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop_front()))
    else {
        return;
    };
    if let Err(e) = run_mount(mount) {
        crate::panic::banner(&format!("crosslane could not mount its views: {e:?}"));
    }
    crate::kit::after_frame(mount_next);
}

/// Mounts view `name` now if it is still waiting (`None`: every waiting view), so that a tab,
/// a link or Back can show it before its turn came.
#[cfg(target_arch = "wasm32")]
pub fn ensure_mounted(name: Option<&str>) -> Js<()> {
    loop {
        let next = PENDING.with(|p| {
            let mut p = p.try_borrow_mut().ok()?;
            let at = p.iter().position(|(n, _)| name.is_none_or(|w| w == *n))?;
            p.remove(at)
        });
        let Some((_, mount)) = next else {
            return Ok(());
        };
        run_mount(mount)?;
    }
}
