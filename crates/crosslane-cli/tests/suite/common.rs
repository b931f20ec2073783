//! Running the `crosslane` binary, shared by every module of the suite.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `crosslane ARGS…` and waits for it.
pub fn crosslane(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .output()
        .expect("the crosslane binary runs")
}

/// Runs `crosslane ARGS…` with `stdin` written to its standard input (none: closed at once).
pub fn crosslane_stdin(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the crosslane binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            // A child that stops reading at its input cap closes the pipe early.
            .or_else(|e| {
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    Err(e)
                }
            })
            .expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("exits")
}

/// The standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
