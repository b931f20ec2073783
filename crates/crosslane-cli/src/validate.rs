//! [`check`]: the checks each command makes on its arguments before any work — no file, no
//! device, no output — so a fuzz target (fuzz/fuzz_targets/cli_args.rs) can drive the argument
//! parsing and validation of every command without running a kernel, a sort or a GPU.

use crosslane_core::fill::parse_fill;
use crosslane_core::network::report;
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

use crate::cmd::gpu::GpuCommand;
use crate::cmd::op::Prepared;
use crate::cmd::{gpu, op, run};
use crate::{Cli, CliError, Command};

/// Most keys [`check`] sorts to validate `crosslane sort` (its `--len` and `--values` are checked
/// by the report that sorts them); a longer sort is left unchecked rather than run.
pub const SORT_CHECK_MAX: usize = 4096;

/// The checks `cli`'s command makes before its work, with the error the command would return:
///
/// * `op`: the dialect, the op, `--compare`, the op's `--PARAM VALUE` pairs
///   ([`op::prepare`]), then the request's encoding and run (one op on at most
///   [`crosslane_core::MAX_LANES`] lanes; a `--compare` run is not made);
/// * `ops`: the dialect;
/// * `run`: `--dialect`, each `--arg` and `--buffer` ([`run::apply_launch_flags`]) and each
///   `--buffer` FILL in the fill grammar both kernel paths share ([`parse_fill`]); the input is
///   not read;
/// * `sort`: `--len` / `--values` through the sort's report, when it has at most
///   [`SORT_CHECK_MAX`] keys;
/// * `gpu DIALECT OP`: [`gpu::op::prepare`]; `gpu sort` / `gpu info` check against the device
///   and are not checked here.
///
/// # Errors
/// The [`CliError`] the command would exit with (exit 2 for input that does not parse).
pub fn check(cli: &Cli) -> Result<(), CliError> {
    match &cli.command {
        Command::Op(args) => match op::prepare(args)? {
            Prepared::Request(request, _) => request.run().map(drop).map_err(CliError::from),
            Prepared::Compare(..) => Ok(()),
        },
        Command::Ops(args) => {
            if let Some(d) = &args.dialect {
                Dialect::parse(d)?;
            }
            Ok(())
        }
        Command::Run(args) => {
            if let Some(d) = &args.dialect {
                Dialect::parse(d)?;
            }
            run::apply_launch_flags(args, &mut LaunchConfig::default())?;
            for b in &args.buffer {
                if let Some((head, fill)) = b.split_once('=') {
                    let name = head.split_once(':').map_or(head, |(n, _)| n).trim();
                    // A typed fill `TYPE:FILL` is checked by its FILL; the type's fit to
                    // the buffer is the kernel's question.
                    let fill = crosslane_core::fill::split_typed(fill).map_or(fill, |(_, f)| f);
                    // `null` / `nullptr` / `NULL` is the null pointer, not a fill.
                    if crosslane_kernel::host_launch::is_null_arg(fill) {
                        continue;
                    }
                    parse_fill(fill, &format!("--buffer {name}"))?;
                }
            }
            Ok(())
        }
        Command::Sort(args) => {
            let keys = match (&args.values, args.len) {
                (Some(v), _) => v.split(',').count(),
                (None, Some(n)) => n,
                (None, None) => 0,
            };
            if keys <= SORT_CHECK_MAX {
                report(args.len, args.seed, args.values.as_deref())?;
            }
            Ok(())
        }
        Command::Gpu(args) => match (&args.command, &args.op) {
            (None, Some(a)) => gpu::op::prepare(a, &args.flags).map(drop),
            (Some(GpuCommand::Sort(_) | GpuCommand::Info(_)), _) | (None, None) => Ok(()),
        },
    }
}
