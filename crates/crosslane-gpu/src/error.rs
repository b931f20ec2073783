//! The crate's error type: everything that can go wrong between a trace and GPU lanes, each with a
//! one-line message a user can act on. Nothing in this crate panics on a missing or faulty device.

/// Why a GPU run could not produce lanes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// No adapter at all (natively: no Vulkan driver such as Mesa's lavapipe; in a browser: no
    /// `navigator.gpu`, or WebGPU disabled).
    #[error("no GPU adapter found: {0}")]
    NoAdapter(String),
    /// The adapter lacks the `subgroups` feature that the lowering needs.
    #[error("the adapter `{adapter}` lacks the subgroups feature needed by {needed_by}")]
    SubgroupsMissing {
        /// Adapter name.
        adapter: String,
        /// What needed it (a lowering or a built-in).
        needed_by: String,
    },
    /// Requesting the device failed.
    #[error("device request failed: {0}")]
    RequestDevice(String),
    /// WGSL or pipeline validation failed (the first line of the validator's message).
    #[error("validation error: {0}")]
    Validation(String),
    /// The device ran out of memory for the buffers of this run.
    #[error("out of GPU memory: {0}")]
    OutOfMemory(String),
    /// The device was lost during the run.
    #[error("GPU device lost: {0}")]
    DeviceLost(String),
    /// Mapping a result buffer for reading failed.
    #[error("reading results back failed: {0}")]
    Map(String),
    /// The scenario cannot be run on the GPU as asked (an op without a GPU lowering, a value type
    /// WGSL cannot hold, a WGSL subgroup size the device does not have, a length over the limit).
    #[error("{field}: {message}")]
    Unsupported {
        /// The field as the user knows it (`op`, `type`, `lanes`, `len`, `lowering`).
        field: String,
        /// What is not possible and what is.
        message: String,
    },
    /// The device did not lay the subgroup out as the lowering assumes (subgroup invocation id equal
    /// to the local invocation index within one subgroup).
    #[error("subgroup layout: {0}")]
    SubgroupLayout(String),
    /// The emulator refused the request (bad input); the CLI exits 2 on it.
    #[error("{0}")]
    Input(#[from] crosslane_core::InputError),
}

impl GpuError {
    /// An [`GpuError::Unsupported`] for `field`.
    pub fn unsupported(field: &str, message: impl Into<String>) -> Self {
        GpuError::Unsupported {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// The first line of a (possibly multi-line) driver or validator message, so that every
/// [`GpuError`] displays on one line.
pub(crate) fn first_line(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("(no message)").to_string();
    // naga puts the useful part ("Shader validation error: …") after a generic first line.
    match lines.next() {
        Some(second) if first.ends_with(':') => format!("{first} {second}"),
        _ => first,
    }
}
