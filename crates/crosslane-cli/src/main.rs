//! The `crosslane` binary: all of it is the library's ([`crosslane_cli::main`]), so the fuzz
//! target can reach the argument parsing and checks.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    crosslane_cli::main()
}
