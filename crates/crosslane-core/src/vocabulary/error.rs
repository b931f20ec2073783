//! Errors a user can act on. Every message names the field and the allowed range.

use serde::{Deserialize, Serialize};

/// Input that does not parse or cannot be encoded (CLI exit status 2; a red line beside the field in
/// the page). Input that the hardware accepts but a vendor calls undefined is *not* an error: it runs
/// and yields undefined lanes plus a warning [`crate::Diagnostic`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InputError {
    /// The field as the user knows it: a vendor parameter name (`width`, `lane_mask`), or `lanes`,
    /// `active`, `values`, `type`, `dialect`, `op`.
    pub field: String,
    /// What is wrong and what is allowed, e.g. "must be in 1..=32, got 0".
    pub message: String,
}

impl InputError {
    /// An error for `field` with a message that states the allowed range.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The common "must be in lo..=hi, got v" error.
    pub fn out_of_range(field: &str, value: i64, min: i64, max: i64) -> Self {
        InputError::new(field, format!("must be in {min}..={max}, got {value}"))
    }
}
