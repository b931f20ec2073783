//! `crosslane_cli::check` (the checks the fuzz target `cli_args` drives) against the binary: for
//! a command line refused before any work, `check` returns the error the binary exits with (same
//! status, same message); for one the binary accepts, `check` accepts it too.

use clap::Parser;
use crosslane_cli::{check, Cli};

use crate::common::crosslane;

fn kernel(rel: &str) -> String {
    format!(
        "{}/../../tests/kernels/{rel}",
        env!("CARGO_MANIFEST_DIR").replace('\\', "/")
    )
}

/// `check`'s exit status and message for `args` (clap's own refusals: status 2).
fn checked(args: &[&str]) -> (u8, String) {
    let cli = Cli::try_parse_from(std::iter::once("crosslane").chain(args.iter().copied()));
    match cli {
        Err(e) => (2, e.to_string()),
        Ok(cli) => match check(&cli) {
            Ok(()) => (0, String::new()),
            Err(e) => (exit_status(&e), e.to_string()),
        },
    }
}

/// The CLI's contract (crate docs): 2 input and usage, 1 I/O and failed checks, 3 the GPU.
fn exit_status(e: &crosslane_cli::CliError) -> u8 {
    use crosslane_cli::CliError::*;
    match e {
        Input(_) | Usage(_) => 2,
        Io(_) | Failed(_) => 1,
        Gpu(_) => 3,
    }
}

/// The binary refuses `args` with status 2, and `check` with status 2 and the same message.
fn refused_alike(args: &[&str], needle: &str) {
    let out = crosslane(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
    let (status, message) = checked(args);
    assert_eq!(status, 2, "{args:?}: {message}");
    assert!(message.contains(needle), "{args:?}: {message}");
}

#[test]
fn check_refuses_what_the_op_command_refuses() {
    // ascend asc_shfl_xor: width is 1..=32 (Ascend C asc_shfl_xor; docs/cli.md "crosslane op").
    refused_alike(&["op", "ascend", "asc_shfl_xor", "--width", "0"], "width");
    refused_alike(&["op", "cuda", "no_such_op"], "no_such_op");
    refused_alike(&["op", "nodialect", "x"], "nodialect");
    // --compare only for the shuffle family (idx / up / down / xor).
    refused_alike(&["op", "cuda", "__ballot_sync", "--compare"], "--compare");
}

#[test]
fn check_refuses_what_run_and_sort_and_gpu_refuse() {
    let cu = kernel("cuda/buffer_flags.cu");
    refused_alike(
        &["run", &cu, "--buffer", "a:4=1,2,3"],
        "exactly 4 values, got 3",
    );
    refused_alike(
        &["run", &cu, "--buffer", "a:0=1"],
        "LEN must be a positive integer",
    );
    refused_alike(&["run", &cu, "--arg", "scale"], "expected NAME=VALUE");
    refused_alike(&["sort", "--values", "3,x,1"], "values");
    refused_alike(
        &["gpu", "cuda", "__ballot_sync", "--exited", "0x1"],
        "--exited",
    );
}

#[test]
fn check_accepts_what_the_commands_run() {
    for args in [
        &[
            "op",
            "ascend",
            "asc_shfl_xor",
            "--lane-mask",
            "1",
            "--width",
            "16",
        ][..],
        &[
            "op",
            "cuda",
            "__shfl_down_sync",
            "--delta",
            "1",
            "--compare",
        ],
        &["sort", "--values", "3,-1,2"],
        &["ops", "amdgcn"],
        &["run", "k.cu", "--buffer", "a:32=i*3+1", "--arg", "scale=2"],
    ] {
        assert_eq!(checked(args), (0, String::new()), "{args:?}");
    }
    // The same op line through the binary: exit 0.
    let out = crosslane(&[
        "op",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--width",
        "16",
    ]);
    assert_eq!(out.status.code(), Some(0));
}
