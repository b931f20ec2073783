//! The CLI's error type and its exit statuses.

use std::process::ExitCode;

use crosslane_core::InputError;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// Input that does not parse or cannot be encoded, from the core (exit status 2). Its Display
    /// names the field and the allowed range.
    Input(InputError),
    /// An argument the command line itself refuses: an unknown flag, a flag without a value, a
    /// parameter given twice (exit status 2).
    Usage(String),
    /// Reading a file or writing stdout failed (exit status 1).
    Io(String),
    /// No usable GPU, or the device failed (validation, device lost, mapping): `crosslane gpu`
    /// exits 3 (exit status 3).
    Gpu(String),
    /// The command ran but its check failed: a sort that did not verify, a GPU lane that does
    /// not match the emulator (exit status 1).
    Failed(String),
}

impl CliError {
    /// 2 for input and usage errors (the contract's "does not parse or cannot be encoded"),
    /// 1 for I/O and failed checks, 3 for a missing or failing GPU.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Input(_) | CliError::Usage(_) => ExitCode::from(2),
            CliError::Io(_) | CliError::Failed(_) => ExitCode::from(1),
            CliError::Gpu(_) => ExitCode::from(3),
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Input(e) => write!(f, "{e}"),
            CliError::Usage(m) | CliError::Io(m) | CliError::Failed(m) | CliError::Gpu(m) => {
                f.write_str(m)
            }
        }
    }
}

impl From<InputError> for CliError {
    fn from(e: InputError) -> Self {
        CliError::Input(e)
    }
}
