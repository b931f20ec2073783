//! The "Sort" view: Batcher's odd-even merge sort stepped stage by stage.
//!
//! * [`model`]: the input (typed keys or a seed), the core's report (figures, verification) and
//!   a stage-by-stage walk recording which comparators fired and swapped, and how sorted the keys
//!   are after each stage (its inner loops in the `crosslane-exchange` crate);
//! * [`diagram`]: the Knuth diagram (wires, comparators in stage columns) as a display list;
//! * [`plot`]: for long inputs, the sortedness plot that replaces the wires;
//! * `page` (wasm only): the DOM, the step control, the in-warp panel (each shuffle of the
//!   current stage drawn by the lane renderer, [`crate::render::scene`]) and the router hooks;
//! * `worker` (wasm only): the workers that walk more than 16 384 keys, one kept warm;
//! * [`wire`]: the sort worker's answer read back without serde's derived deserializers;
//! * `bench` (wasm only): the `bench_sort` export timing the network on 2^20 keys in the browser.

pub mod diagram;
pub mod model;
pub mod plot;
pub mod wire;

#[cfg(target_arch = "wasm32")]
mod bench;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod worker;

#[cfg(target_arch = "wasm32")]
pub use page::mount;
