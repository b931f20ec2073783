//! Words for the registry's parameter specs: ranges, defaults, flag lists. Shared by `ops`
//! (the listing) and `op` (usage errors), so both say the same thing.

use crosslane_core::{OpSpec, ParamDefault, ParamKind, ParamSpec};

/// The accepted values of a parameter, e.g. "integer in 1..=2147483647" or "lane mask (hex)".
pub fn param_range(p: &ParamSpec) -> String {
    match p.kind {
        ParamKind::Int { min, max } => format!("integer in {min}..={max}"),
        ParamKind::PerLaneInt { min, max } => {
            format!("integer in {min}..={max}, one for all lanes or a comma list of one per lane")
        }
        ParamKind::PerLaneValue => {
            "value of the op's type, one for all lanes or a comma list of one per lane".to_string()
        }
        ParamKind::Mask => "lane mask (hex)".to_string(),
        ParamKind::Flag => "true or false".to_string(),
        ParamKind::Text => "text".to_string(),
    }
}

/// The default of a parameter in words.
pub fn param_default(p: &ParamSpec) -> String {
    match p.default {
        ParamDefault::Required => "required".to_string(),
        ParamDefault::Int(v) => format!("default {v}"),
        ParamDefault::Lanes => "default the lane count".to_string(),
        ParamDefault::Active => "default --active".to_string(),
        ParamDefault::Text(t) => format!("default {t}"),
        ParamDefault::Flag(b) => format!("default {b}"),
    }
}

/// "its flags are: --lane-mask, --width" (or "it takes no parameters").
pub fn flag_list(spec: &OpSpec) -> String {
    if spec.params.is_empty() {
        format!("{} takes no parameters", spec.name)
    } else {
        let flags: Vec<String> = spec.params.iter().map(ParamSpec::flag).collect();
        format!("{}'s flags are: {}", spec.name, flags.join(", "))
    }
}
