//! One module per subcommand: its clap arguments and its `run`.

pub mod gpu;
pub mod op;
pub mod ops;
pub mod run;
pub mod run_args;
pub mod run_wgsl;
#[cfg(not(target_arch = "wasm32"))]
pub mod run_wgsl_gpu;
pub mod sort;
