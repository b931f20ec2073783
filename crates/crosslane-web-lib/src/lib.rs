//! crosslane-web-lib: the JavaScript library's wasm module (`dist/crosslane.js`).
//!
//! Nothing of its own: it links [`crosslane_web`] with the `lib` feature alone, so that the
//! module's exports are the library's (`lib_run_op`, `lib_list_ops`, `lib_sort_network`,
//! `lib_encode_permalink`, `lib_decode_permalink`, `lib_op_view`, `LibSortView`) over the op
//! semantics and the renderer, without the page's views and without the kernel engine (which
//! `runKernel` and `<crosslane-kernel>` load from crates/crosslane-web-kernel). A page with one
//! `<crosslane-op>` downloads this module alone. `scripts/build-web` builds it into
//! `dist/crosslane-lib-HASH.js` and `_bg.wasm`; docs/benchmarks.md has the sizes.

// The exports are `#[wasm_bindgen]` items of crosslane-web; naming the crate links them in.
pub use crosslane_web;
