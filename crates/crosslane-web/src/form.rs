//! The form's model, independent of the DOM: what each control starts with, how a lane click
//! edits the active-mask text, and which control an [`InputError`] names.
//!
//! Everything stays text, exactly as typed, until [`crosslane_core::OpRequest::run`] validates it,
//! so that the page and the CLI report the same errors and the page never loses what the user typed.
//!
//! [`InputError`]: crosslane_core::InputError

use crosslane_core::dialect::amdgcn::arch;
use crosslane_core::{dialect_ops, Dialect, LaneMask, OpSpec, ParamDefault, ParamKind, ParamSpec};

/// The dialects the dialect menu offers, in [`Dialect::ALL`] order, each with whether it has any
/// operations yet (a dialect without operations is listed but disabled).
pub fn dialect_choices() -> Vec<(Dialect, bool)> {
    Dialect::ALL
        .into_iter()
        .map(|d| (d, dialect_ops(d).next().is_some()))
        .collect()
}

/// The dialect selected when the page opens: the first one that has operations.
pub fn first_dialect() -> Option<Dialect> {
    dialect_choices()
        .into_iter()
        .find(|(_, has_ops)| *has_ops)
        .map(|(d, _)| d)
}

/// The text a parameter's control starts with: fixed defaults are written out so the user sees
/// them; defaults that follow other fields (`width = warpSize`, CUDA `mask = active`) and required
/// parameters start empty and are described by [`param_placeholder`].
pub fn param_initial(spec: &ParamSpec) -> String {
    match spec.default {
        // A per-lane value's default is a number converted to the op's type (`1` is the pair
        // 1:1 for f16x2); written out, it would be parsed as typed text and refused for packed
        // types. Left empty, the core applies the default for whatever type is chosen.
        ParamDefault::Int(_) if matches!(spec.kind, ParamKind::PerLaneValue) => String::new(),
        ParamDefault::Int(v) => v.to_string(),
        ParamDefault::Text(t) => t.to_string(),
        ParamDefault::Flag(b) => b.to_string(),
        ParamDefault::Required | ParamDefault::Lanes | ParamDefault::Active => String::new(),
    }
}

/// The grey hint inside an empty parameter control.
pub fn param_placeholder(spec: &ParamSpec) -> String {
    let default = match spec.default {
        ParamDefault::Required => "required".to_string(),
        ParamDefault::Int(v) => format!("default {v}"),
        ParamDefault::Lanes => "default: lane count".to_string(),
        ParamDefault::Active => "default: active mask".to_string(),
        ParamDefault::Text(t) => format!("default {t}"),
        ParamDefault::Flag(b) => format!("default {b}"),
    };
    match spec.kind {
        ParamKind::PerLaneInt { .. } | ParamKind::PerLaneValue => {
            format!("{default}; one value, one per lane, or e.g. (lane+1)%32")
        }
        ParamKind::Mask => format!("{default}; hex"),
        _ => default,
    }
}

/// The choices of a parameter shown as a picker, as (value, text) pairs: the AMD `arch`
/// (LLVM processor names from [`arch::TARGETS`], e.g. `gfx942 — CDNA3 (MI300)`). `None` for a
/// parameter typed as text.
pub fn param_choices(op: &OpSpec, spec: &ParamSpec) -> Option<Vec<(&'static str, String)>> {
    (matches!(op.dialect, Dialect::Amdgcn | Dialect::Hip) && spec.name == "arch").then(|| {
        arch::TARGETS
            .iter()
            .map(|t| (t.name, format!("{} — {}", t.name, t.product)))
            .collect()
    })
}

/// The (active, exited) texts after a shift-click on lane `lane` (CUDA): an exited lane comes
/// back as active, any other lane exits (and leaves the active mask). An empty active text stays
/// empty (the core then takes every lane that has not exited); text that does not parse counts
/// as all lanes / none.
pub fn toggle_exited(active: &str, exited: &str, lanes: usize, lane: usize) -> (String, String) {
    let gone = if exited.trim().is_empty() {
        LaneMask::default()
    } else {
        LaneMask::parse(exited, lanes, "exited").unwrap_or_default()
    };
    if lane >= lanes {
        return (active.to_string(), exited.to_string());
    }
    let coming_back = gone.contains(lane);
    let gone = if coming_back {
        gone.without(lane)
    } else {
        gone.with(lane)
    };
    let active = if active.trim().is_empty() {
        String::new()
    } else {
        let mask = LaneMask::parse(active, lanes, "active").unwrap_or(LaneMask::all(lanes));
        if coming_back {
            mask.with(lane)
        } else {
            mask.without(lane)
        }
        .to_hex(lanes)
    };
    let exited = if gone.count() == 0 {
        String::new()
    } else {
        gone.to_hex(lanes)
    };
    (active, exited)
}

/// The encodable range of a parameter as the page shows it under the label (`1..=2147483647`).
pub fn param_range(spec: &ParamSpec) -> Option<String> {
    match spec.kind {
        ParamKind::Int { min, max } | ParamKind::PerLaneInt { min, max } => {
            Some(format!("accepts {min}..={max}"))
        }
        _ => None,
    }
}

/// The active-mask text after lane `lane` is switched on or off by a click on the canvas or the
/// table. Text that does not parse counts as "all lanes" (the click then starts from a full mask
/// rather than failing); lanes at or above `lanes` are ignored.
pub fn toggle_lane(active_text: &str, lanes: usize, lane: usize) -> String {
    let mask = LaneMask::parse(active_text, lanes, "active").unwrap_or(LaneMask::all(lanes));
    if lane >= lanes {
        return mask.to_hex(lanes);
    }
    let next = if mask.contains(lane) {
        mask.without(lane)
    } else {
        mask.with(lane)
    };
    next.to_hex(lanes)
}

/// The control an error names: per-item fields such as `values[3]` or `index[7]` belong to the
/// `values` / `index` control.
pub fn field_control(field: &str) -> &str {
    match field.find('[') {
        Some(at) => &field[..at],
        None => field,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::find_op;

    #[test]
    fn shift_clicking_a_lane_exits_it_and_back() {
        assert_eq!(
            toggle_exited("", "", 32, 31),
            ("".into(), "0x80000000".into())
        );
        assert_eq!(
            toggle_exited("0x000000ff", "0x80000000", 32, 3),
            ("0x000000f7".into(), "0x80000008".into())
        );
        assert_eq!(
            toggle_exited("0x000000f7", "0x80000008", 32, 3),
            ("0x000000ff".into(), "0x80000000".into())
        );
    }

    #[test]
    fn clicking_a_lane_flips_one_bit() {
        assert_eq!(toggle_lane("", 32, 5), "0xffffffdf");
        assert_eq!(toggle_lane("0xffffffdf", 32, 5), "0xffffffff");
        assert_eq!(toggle_lane("not a mask", 32, 0), "0xfffffffe");
        assert_eq!(toggle_lane("0x0", 64, 63), "0x8000000000000000");
        assert_eq!(toggle_lane("0x1", 4, 9), "0x1");
    }

    #[test]
    fn per_item_errors_name_their_control() {
        assert_eq!(field_control("values[3]"), "values");
        assert_eq!(field_control("width"), "width");
    }

    #[test]
    fn ascend_controls_start_from_the_vendor_defaults() {
        let xor = find_op(Dialect::Ascend, "asc_shfl_xor").unwrap();
        let mask = xor.param("lane_mask").unwrap();
        let width = xor.param("width").unwrap();
        assert_eq!(param_initial(mask), "1");
        assert_eq!(param_initial(width), "");
        assert_eq!(
            param_placeholder(width),
            "default: lane count; one value, one per lane, or e.g. (lane+1)%32"
        );
        assert_eq!(
            param_range(width).as_deref(),
            Some("accepts 1..=2147483647")
        );
        assert_eq!(first_dialect(), Some(Dialect::Ascend));
    }

    #[test]
    fn per_lane_value_defaults_are_left_to_the_core() {
        // "1" typed into a bf16x2 field is refused (a pair is written lo:hi); empty means the
        // default, converted to the op's type by the core.
        let fma = find_op(Dialect::Maca, "__builtin_mxc_pk_fma_bf16").unwrap();
        let b = fma.param("b").unwrap();
        assert_eq!(param_initial(b), "");
        assert_eq!(
            param_placeholder(b),
            "default 1; one value, one per lane, or e.g. (lane+1)%32"
        );
    }
}
