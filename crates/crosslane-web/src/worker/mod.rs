//! The kernel worker: the kernel interpreter runs in a Web Worker — the kernel engine module
//! (crates/crosslane-web-kernel: this crate with its `engine` feature), loaded in a module
//! worker by `js/crosslane-worker.js` — so that no kernel,
//! link or launch can block the page. [`protocol`] is the message format, [`session`] the
//! worker's side (it owns the run and builds each [`protocol::Frame`]), `client` (wasm only) the
//! page's side (Cancel, the watchdog, the in-page fallback).

//! The protocol and the session build natively too, so that the session is tested without a
//! browser (`tests/suite/worker_session.rs`); the client and the sort worker are DOM code.

#[cfg(target_arch = "wasm32")]
pub mod client;
pub mod protocol;
pub mod session;
#[cfg(target_arch = "wasm32")]
pub mod sort;
pub mod wire;

/// The lane and memory tables a frame carries: the kernel view's module (DOM code, wasm only),
/// compiled here on a native build for the session; the view's own helpers go unused there.
#[cfg(not(target_arch = "wasm32"))]
#[allow(dead_code)]
#[path = "../views/kernel/tables.rs"]
pub(crate) mod tables;
#[cfg(target_arch = "wasm32")]
pub(crate) use crate::views::kernel::tables;
