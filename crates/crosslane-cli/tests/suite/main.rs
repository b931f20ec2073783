//! The `crosslane` binary's integration tests, one program (`cargo test -p crosslane-cli --test
//! suite`), one module per subcommand; `common` runs the binary.

mod check;
mod common;
mod compare;
mod device_h200;
mod gpu;
mod hostile;
mod math_kernels;
mod op;
mod real_kernels;
mod run;
mod sort;
mod struct_kernels;
mod wgsl;
