//! Which front end a kernel source takes: the C-like parser ([`super::parser`]) or, for a WGSL
//! compute shader, naga ([`super::wgsl`]); both give the engine ([`super::exec`]) the same
//! program form. Its own module so that the engine does not import the WGSL front end, which
//! imports the engine.

use super::exec::{Executor, LaunchConfig};
use super::parser::parse_preprocessed;
use super::parser::Parsed;
use super::KernelError;

/// Parses `source` as [`Executor::new`] does for `config`: preprocessed for the launch's
/// dialect (the source's own marks when unset) and lane count, within `config.limits`, with a
/// template-id entry (`--entry 'k<float>'`) instantiated, so that [`Parsed::entry`] names the
/// instance that will run (the CLI sizes `--shared-bytes` by that instance's `extern
/// __shared__` element).
///
/// # Errors
/// As [`parse_preprocessed`].
pub fn parse_for_launch(source: &str, config: &LaunchConfig) -> Result<Parsed, KernelError> {
    // The preprocessor's predefined macros follow the dialect and lane count the launch
    // will have (the same defaults `from_parsed` applies).
    let dialect = config
        .dialect
        .unwrap_or_else(|| super::dialect_guess::infer_dialect(source).0);
    let lanes = config.lanes.unwrap_or_else(|| {
        super::pp::predefined::default_lanes(dialect, config.preprocess.arch.as_deref())
    });
    parse_preprocessed(
        source,
        &config.limits,
        config.entry.as_deref(),
        dialect,
        lanes,
        &config.preprocess,
    )
}

impl Executor {
    /// Parses `source` and prepares the launch (global buffers allocated and filled). A WGSL
    /// compute shader ([`super::wgsl::is_wgsl`]) goes through the naga front end
    /// ([`super::wgsl::executor`]) to the same program form.
    ///
    /// # Errors
    /// [`KernelError`] for a parse error, an unknown entry, a lane count the dialect does not
    /// allow, a block or grid shape of zero or beyond the limits, or an argument that does not
    /// parse.
    pub fn new(source: &str, config: LaunchConfig) -> Result<Self, KernelError> {
        // A WGSL compute shader takes the naga front end to the same program form.
        #[cfg(feature = "wgsl")]
        if super::wgsl::is_wgsl(source) {
            return super::wgsl::executor(source, config);
        }
        let parsed = parse_for_launch(source, &config)?;
        Self::from_parsed(source, parsed, config)
    }
}
