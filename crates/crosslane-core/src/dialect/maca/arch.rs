//! MetaX target architectures (`--offload-arch=xcoreNNNN`) and the limits seed 002 states per
//! builtin ("架构支持限制"). The playground takes the target as the op parameter `arch`; an op the
//! chosen target lacks is an [`InputError`] naming the requirement and the seed section, the same
//! way the compiler refuses it.

use crate::error::InputError;
use crate::op::OpInput;
use crate::params::{ParamDefault, ParamKind, ParamSpec};

/// The targets seed 002 names in its examples (xcore1000, xcore1080 below the 1500 line;
/// xcore1500, xcore1520 at or above it).
pub const KNOWN: &[u32] = &[1000, 1080, 1500, 1520];

/// What an op asks of the target (seed 002, "架构支持限制" of each section).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchReq {
    /// "offload arch需要大于等于xcore1500": xcore1500 or later.
    AtLeast1500,
    /// "offload arch需要小于xcore1500": before xcore1500.
    Below1500,
}

impl ArchReq {
    /// Whether target `xcore<number>` satisfies the requirement.
    pub fn allows(self, number: u32) -> bool {
        match self {
            ArchReq::AtLeast1500 => number >= 1500,
            ArchReq::Below1500 => number < 1500,
        }
    }

    fn text(self) -> &'static str {
        match self {
            ArchReq::AtLeast1500 => "offload arch >= xcore1500 (e.g. xcore1500, xcore1520)",
            ArchReq::Below1500 => "offload arch < xcore1500 (e.g. xcore1000, xcore1080)",
        }
    }
}

/// The `arch` parameter for ops that need xcore1500 or later (default xcore1500).
pub const ARCH_NEW: ParamSpec = ParamSpec {
    name: "arch",
    kind: ParamKind::Text,
    default: ParamDefault::Text("xcore1500"),
    doc: "target architecture (--offload-arch): xcore1000, xcore1080, xcore1500 or xcore1520",
};

/// The `arch` parameter for ops that need a target before xcore1500 (default xcore1000).
pub const ARCH_OLD: ParamSpec = ParamSpec {
    name: "arch",
    kind: ParamKind::Text,
    default: ParamDefault::Text("xcore1000"),
    doc: "target architecture (--offload-arch): xcore1000, xcore1080, xcore1500 or xcore1520",
};

/// Parses a target name: `xcore1500`, `XCORE1520`, or the bare number `1500`.
///
/// # Errors
/// [`InputError`] on field `arch` listing the known targets.
pub fn parse(text: &str) -> Result<u32, InputError> {
    let t = text.trim().to_ascii_lowercase();
    let digits = t.strip_prefix("xcore").unwrap_or(&t);
    digits
        .parse::<u32>()
        .ok()
        .filter(|n| KNOWN.contains(n))
        .ok_or_else(|| {
            InputError::new(
                "arch",
                format!(
                    "`{text}` is not a MetaX target; allowed: xcore1000, xcore1080, xcore1500, xcore1520"
                ),
            )
        })
}

/// Checks the op's `arch` parameter against `req`.
///
/// # Errors
/// [`InputError`] on field `arch`: "`op` needs offload arch >= xcore1500 (seed 002 §section),
/// got xcore1000".
pub fn check(input: &OpInput, req: ArchReq, op: &str, section: &str) -> Result<(), InputError> {
    let number = parse(input.params.text("arch")?)?;
    if req.allows(number) {
        Ok(())
    } else {
        Err(InputError::new(
            "arch",
            format!(
                "{op} needs {} (seed 002 §{section}, 架构支持限制), got xcore{number}",
                req.text()
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_1500_line() {
        assert!(ArchReq::AtLeast1500.allows(1520));
        assert!(!ArchReq::AtLeast1500.allows(1080));
        assert!(ArchReq::Below1500.allows(1080));
        assert!(!ArchReq::Below1500.allows(1500));
        assert_eq!(parse("XCORE1520").unwrap(), 1520);
        assert_eq!(parse("1000").unwrap(), 1000);
        let e = parse("xcore9").unwrap_err();
        assert!(e.message.contains("xcore1520"), "{}", e.message);
    }
}
