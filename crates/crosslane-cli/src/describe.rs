//! Words for the registry's parameter specs in usage errors: ranges and flag lists (the ranges are
//! the reference's own wording, [`crosslane_core::reference::param_range`]).

use crosslane_core::{OpSpec, ParamSpec};

/// The accepted values of a parameter, e.g. "integer in 1..=2147483647" or "lane mask (hex)": the
/// reference's wording, so usage errors and `crosslane ops` say the same thing.
pub fn param_range(p: &ParamSpec) -> String {
    crosslane_core::reference::param_range(p)
}

/// "its flags are: --lane-mask, --width" (or "it takes no parameters").
pub fn flag_list(spec: &OpSpec) -> String {
    let flags: Vec<String> = spec.params().map(ParamSpec::flag).collect();
    if flags.is_empty() {
        format!("{} takes no parameters", spec.name)
    } else {
        format!("{}'s flags are: {}", spec.name, flags.join(", "))
    }
}
