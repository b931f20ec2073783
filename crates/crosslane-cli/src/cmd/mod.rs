//! One module per subcommand: its clap arguments and its `run`.

pub mod gpu;
pub mod op;
pub mod ops;
pub mod run;
pub mod sort;
