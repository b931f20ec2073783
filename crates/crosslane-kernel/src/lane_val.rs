//! A lane's value as the interpreter holds it: [`LaneVal`], defined or [`Undef`] with the reason
//! and the line. Its own module because the trace, the meter ([`super::budget`]) and device
//! `printf` ([`super::printf`]) all hold lane values: they import it from here, so none of them
//! imports another for it.

use serde::Serialize;

use super::ast::Span;
use super::types::KVal;

/// Why a lane's value is undefined, and the line that made it so.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Undef {
    /// Line (1-based) of the statement or call that produced the undefined value.
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// The rule: "signed overflow …", "asc_shfl_xor: width 31 is not a power of two", ….
    pub why: String,
    /// Whether the value is an uninitialized variable or memory cell.
    pub uninit: bool,
}

impl Undef {
    /// Undefined at `span`, as the user sees it ([`Span::shown`]: a synthesized node's or a
    /// macro expansion's column is the source's).
    pub(crate) fn at(span: Span, why: impl Into<String>) -> Self {
        Undef {
            line: span.line,
            col: span.shown().col,
            why: why.into(),
            uninit: false,
        }
    }

    pub(crate) fn idle() -> Self {
        Undef {
            line: 0,
            col: 0,
            why: String::new(),
            uninit: false,
        }
    }
}

/// A lane's value: defined, or undefined with the reason.
pub type LaneVal = Result<KVal, Undef>;
