//! crosslane-core's integration tests, one program (`cargo test -p crosslane-core --test suite`),
//! one module per subject; `tests/network_alloc.rs` links separately (it installs a counting
//! global allocator). Shared helpers: `common` (the reference vectors and their requests).

mod amd_dpp;
mod amd_lane;
mod amd_permute;
mod amd_swizzle;
mod architecture;
mod arith;
mod codegen;
mod common;
mod cuda_collectives;
mod cuda_laws;
mod cuda_shfl;
mod fields;
mod hip_shfl;
mod maca_bits;
mod maca_builtins_compare;
mod maca_builtins_convert;
mod maca_builtins_math;
mod maca_builtins_memory;
mod maca_builtins_mma;
mod maca_builtins_sync;
mod maca_lane;
mod maca_scalar_vectors;
mod maca_shuffle;
mod network_counts;
mod network_exec;
mod network_report;
mod network_verify;
mod network_warp;
mod permalink;
mod portability;
mod portability_laws;
mod reference;
mod vectors;
mod wgsl_collectives;
mod wgsl_laws;
mod wgsl_shuffle;
