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

/// `word` with its indefinite article as it is read aloud: "an i32", "a u32" ("you"), "an
/// f16" ("eff"), "a float", "an int", "an unsigned int", "a bf16".
pub fn with_article(word: &str) -> String {
    let mut chars = word.chars();
    let first = chars.next().unwrap_or(' ').to_ascii_lowercase();
    let digit_next = chars.next().is_some_and(|c| c.is_ascii_digit());
    let an = match first {
        'a' | 'e' | 'i' | 'o' => true,
        // "u32" reads "you-thirty-two"; "unsigned" starts with a vowel sound.
        'u' => !digit_next,
        // Letters named with a vowel sound, when read as a letter (f16, s32, x2).
        'f' | 'h' | 'l' | 'm' | 'n' | 'r' | 's' | 'x' => digit_next,
        _ => false,
    };
    format!("{} {word}", if an { "an" } else { "a" })
}

impl InputError {
    /// An error for `field` with a message that states the allowed range.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// "`text` is out of range: allowed lo..=hi" for an integer too large for any field (it does
    /// not fit an i64): the user typed an integer, so the message says the range, not "not an
    /// integer".
    pub fn too_large(field: &str, text: &str, min: i64, max: i64) -> Self {
        InputError::new(
            field,
            format!("`{}` is out of range: allowed {min}..={max}", text.trim()),
        )
    }

    /// The common "must be in lo..=hi, got v" error.
    pub fn out_of_range(field: &str, value: i64, min: i64, max: i64) -> Self {
        InputError::new(field, format!("must be in {min}..={max}, got {value}"))
    }
}
