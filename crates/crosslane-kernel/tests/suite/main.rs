//! crosslane-kernel's integration tests, one program (`cargo test -p crosslane-kernel --test suite`),
//! one module per subject; `tests/kernel_alloc.rs` links separately (it installs a counting
//! global allocator). The reference vectors are read by crosslane-core's `common` module, shared.

mod call_binding;
mod cells;
#[path = "../../../crosslane-core/tests/suite/common.rs"]
mod common;
mod kernel_arrays;
mod kernel_ascend_simt;
mod kernel_barrier_rounds;
mod kernel_budgets;
mod kernel_builtins_more;
mod kernel_bytes;
mod kernel_cg_groups;
mod kernel_contract;
mod kernel_coop;
mod kernel_cub;
mod kernel_cuda;
mod kernel_cxx;
mod kernel_cxx_shapes;
mod kernel_cxx_specs;
mod kernel_decl_forms;
mod kernel_dev_forms;
mod kernel_device_h200;
mod kernel_entry_forms;
mod kernel_errors;
mod kernel_fills;
mod kernel_fn_ptr;
mod kernel_fn_ptr_run;
mod kernel_half_math;
mod kernel_hip_sync;
mod kernel_host_eval;
mod kernel_inference;
mod kernel_maca;
mod kernel_macro_kernels;
mod kernel_mask_groups;
mod kernel_member_templates;
mod kernel_memcpy;
mod kernel_overloads;
mod kernel_per_lane;
mod kernel_replay;
mod kernel_robustness;
mod kernel_seeds;
mod kernel_snapshots;
mod kernel_struct_blocks;
mod kernel_trace_bytes;
mod kernel_typed;
mod kernel_unions;
mod kernel_vector_types;
mod kernel_vendor_forms;
mod kernel_written;
mod maca_examples;
mod wgsl;
mod wgsl_builtins;
mod wgsl_corpus;
mod wgsl_layout;
mod wgsl_uniformity;
