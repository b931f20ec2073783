//! crosslane-gpu: runs crosslane scenarios on a real GPU and compares it with the emulator.
//!
//! What it is for:
//! * [`wgsl`] — WGSL text for one executed step: WGSL subgroup built-ins run as themselves, vendor
//!   shuffle-family ops compute each lane's source lane from the vendor's formula in WGSL
//!   ([`formula`]) and move the value with `subgroupShuffle` or through workgroup memory
//!   ([`wgsl::Lowering`]);
//! * [`formula`] — the vendors' lane-selection rules written in WGSL, and the operand buffer;
//! * [`network`] — Batcher's odd-even merge sort as WGSL (one dispatch per global stage, the
//!   early phases fused per tile in workgroup memory) and its dispatch plan;
//! * [`compare`](mod@compare) — the lane-by-lane verdict (match / mismatch / indeterminate-by-spec) with the
//!   record of the device, subgroup sizes, lowering and timing;
//! * `native` — dispatch through wgpu 30 on Vulkan (not on wasm32);
//! * `web` — dispatch through the browser's WebGPU via web-sys (wasm32 only).
//!
//! The `crosslane gpu …` command line lives in crosslane-cli (`cmd/gpu/`); this crate has none.
//!
//! What it is not for: the emulator's semantics (crosslane-core decides every lane; this crate
//! computes the vendors' lane-selection rules a second time on the device, from the operands the
//! user gave, and checks both agree), DOM, files, command-line flags.
//!
//! Read first: [`wgsl`] (how a step becomes a shader), then [`formula`] (the rules on the device)
//! and [`compare`](mod@compare) (the verdicts); `native::NativeGpu::compare_step` is the entry
//! point natively, `web::WebGpu::compare_step` in the browser.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod compare;
pub mod error;
pub mod formula;
pub mod network;
pub mod shader;
pub mod wgsl;

#[cfg(not(target_arch = "wasm32"))]
pub mod native;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use compare::{
    compare, Comparison, DeviceFacts, GpuRun, LaneDiff, Timing, TimingSource, Verdict,
};
pub use error::GpuError;
pub use wgsl::{lower_step, CrossLaneKernel, Lowering, LoweringChoice, ShaderTarget, SubgroupCaps};
