//! The kernel worker (issue 12): the kernel interpreter runs in a Web Worker — the page's own
//! wasm module, loaded again in a module worker by `js/crosslane-worker.js` — so that no kernel,
//! link or launch can block the page. [`protocol`] is the message format, [`session`] the
//! worker's side (it owns the executor and builds each [`protocol::Frame`]), [`client`] the
//! page's side (Cancel, the watchdog, the in-page fallback).

pub mod client;
pub mod protocol;
pub mod session;
pub mod sort;
