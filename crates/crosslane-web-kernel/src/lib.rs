//! crosslane-web-kernel: the kernel engine, the page's second wasm module.
//!
//! Nothing of its own: it links [`crosslane_web`] with the `engine` feature alone, so that the
//! module's exports are the kernel worker's (`worker_request`, `worker_running`), the GPU panel's
//! `kernel_gpu_run` and the JS library's `lib_run_kernel` / `LibKernelView`, with the kernel
//! interpreter and naga behind them. The page's first module (`crosslane-web` with `page`) has
//! none of them. `scripts/build-web` builds it (wasm-bindgen `--target web`, `wasm-opt -Oz`)
//! into `dist/crosslane-kernel-HASH.js` and `_bg.wasm`; docs/benchmarks.md has the sizes.

// The exports are `#[wasm_bindgen]` items of crosslane-web; naming the crate links them in.
pub use crosslane_web;
