//! Every operation's typed argument list (`OpSpec::args`) against its call binding: a call written
//! the way the signature shows binds every argument to its place; omitted trailing arguments
//! take their defaults; every operand appears; the signature derived from the list names every
//! argument in order, and no parameter exists outside the arguments and the settings.
//! Data-driven over the whole registry.

use crosslane_core::args::{Role, Thread};
use crosslane_core::params::{default_param, ParamDefault, ParamKind, ParamValue};
use crosslane_core::{all_ops, LaneMask, OpKind, ValueType};
use crosslane_kernel::builtins::{arg_slots, call_op, Slot};
use crosslane_kernel::types::Scalar;
use crosslane_kernel::{KVal, LaneVal};

#[test]
fn a_call_written_as_its_signature_binds_every_argument() {
    let mut failures = Vec::new();
    for spec in all_ops() {
        let slots = arg_slots(spec, spec.args.len());
        assert_eq!(slots.len(), spec.args.len(), "{}", spec.name);
        for (k, (arg, slot)) in spec.args.iter().zip(&slots).enumerate() {
            let want = match (arg.role, arg.param) {
                (Role::Operand, _) => Slot::Operand,
                (_, Some(p)) => Slot::Param(p.name),
                (_, None) => Slot::Ignored,
            };
            if *slot != want {
                failures.push(format!(
                    "{}: argument {k} `{}` → {slot:?}",
                    spec.name, arg.name
                ));
            }
            // Its parameter is one of the op's request parameters, found by its name.
            if let Some(p) = arg.param {
                if spec.param(p.name) != Some(&p) {
                    failures.push(format!(
                        "{}: `{}`'s parameter `{}` is not the op's parameter of that name",
                        spec.name, arg.name, p.name
                    ));
                }
            }
            // Per-thread arguments are stored per lane (or are a per-lane text / scalar op).
            if let (Some(p), Thread::PerThread(_)) = (arg.param, arg.thread) {
                let kind = Some(p.kind);
                let per_lane = matches!(
                    kind,
                    Some(ParamKind::PerLaneInt { .. } | ParamKind::PerLaneValue | ParamKind::Text)
                ) || spec.kind == OpKind::Scalar;
                if !per_lane {
                    failures.push(format!(
                        "{}: `{}` is per thread but stored once per warp ({kind:?})",
                        spec.name, arg.name
                    ));
                }
            }
        }
        // Every operand appears: at most one operand, and each parameter is bound at most once.
        let operands = spec.args.iter().filter(|a| a.role == Role::Operand).count();
        if operands > 1 {
            failures.push(format!("{}: {operands} operands", spec.name));
        }
        for p in spec.params() {
            let n = spec.params().filter(|q| q.name == p.name).count();
            if n > 1 {
                failures.push(format!(
                    "{}: parameter {} written {n} times",
                    spec.name, p.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The signature text is derived from the typed list: it names the callee and every argument, with
/// its type, in the list's order, and nothing else between the parentheses.
#[test]
fn the_derived_signature_names_every_argument_in_order() {
    let mut failures = Vec::new();
    for spec in all_ops() {
        let sig = spec.signature();
        let Some((head, rest)) = sig.split_once('(') else {
            failures.push(format!("{}: `{sig}` has no argument list", spec.name));
            continue;
        };
        if !head.ends_with(spec.callee()) {
            failures.push(format!(
                "{}: `{sig}` does not call {}",
                spec.name,
                spec.callee()
            ));
        }
        let inside = rest.rsplit_once(')').map_or("", |(a, _)| a);
        let written: Vec<&str> = if inside.is_empty() {
            Vec::new()
        } else {
            inside.split(", ").collect()
        };
        if written.len() != spec.args.len() {
            failures.push(format!(
                "{}: `{sig}` writes {} arguments, the list has {}",
                spec.name,
                written.len(),
                spec.args.len()
            ));
            continue;
        }
        for (k, (text, arg)) in written.iter().zip(spec.args).enumerate() {
            // `int width = warpSize` / `e: T`: the argument's own type and name, in its place.
            let decl = text.split(" = ").next().unwrap_or(text);
            let ok = decl.contains(arg.ty) && (arg.name.is_empty() || decl.contains(arg.name));
            if !ok {
                failures.push(format!(
                    "{}: argument {k} of `{sig}` is `{text}`, the list has `{} {}`",
                    spec.name, arg.ty, arg.name
                ));
            }
        }
        if !sig.contains(spec.proto.returns) {
            failures.push(format!(
                "{}: `{sig}` does not return {}",
                spec.name, spec.proto.returns
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// No parameter exists outside the typed argument list and the settings: every request parameter
/// is an argument's or a setting, a setting is never also an argument's, and a parameter the
/// call does not pass is one of the settings.
#[test]
fn no_parameter_exists_outside_the_arguments_and_the_settings() {
    for spec in all_ops() {
        let from_args: Vec<&str> = spec
            .args
            .iter()
            .filter_map(|a| a.param.map(|p| p.name))
            .collect();
        let settings: Vec<&str> = spec.settings.iter().map(|p| p.name).collect();
        for p in spec.params() {
            let in_args = from_args.contains(&p.name);
            let in_settings = settings.contains(&p.name);
            assert!(
                in_args != in_settings,
                "{}: `{}` must be an argument's or a setting, once",
                spec.name,
                p.name
            );
            assert_eq!(spec.arg_of(p.name).is_none(), in_settings, "{}", p.name);
        }
        assert_eq!(
            spec.params().count(),
            from_args.len() + settings.len(),
            "{}",
            spec.name
        );
    }
}

#[test]
fn omitted_trailing_arguments_take_their_defaults() {
    for spec in all_ops() {
        // The shortest call: drop trailing arguments while their parameters have defaults.
        let mut n = spec.args.len();
        while n > 0 {
            let a = &spec.args[n - 1];
            let defaulted = match a.param {
                Some(p) => p.default != ParamDefault::Required,
                None => a.role == Role::Out,
            };
            if !defaulted {
                break;
            }
            n -= 1;
        }
        let slots = arg_slots(spec, n);
        for p in spec.params() {
            if slots.contains(&Slot::Param(p.name)) {
                continue;
            }
            if spec.arg_of(p.name).is_some() {
                assert!(
                    default_param(p, 32, LaneMask::all(32), ValueType::I32).is_ok(),
                    "{}: omitted `{}` has no default",
                    spec.name,
                    p.name
                );
            }
        }
    }
}

fn row(v: i128, lanes: usize) -> Vec<LaneVal> {
    vec![Ok(KVal::int(Scalar::I32, v)); lanes]
}

/// Calls every op whose arguments are all integers with a distinct value in each position, and
/// checks each value lands in its parameter; then with the trailing defaulted arguments left out.
#[test]
fn integer_arguments_land_in_their_parameters_and_defaults_fill_the_rest() {
    let mut checked = 0;
    for spec in all_ops().filter(|s| s.kind == OpKind::Lanes) {
        let kinds: Vec<Option<ParamKind>> =
            spec.args.iter().map(|a| a.param.map(|p| p.kind)).collect();
        let all_int = spec.args.iter().zip(&kinds).all(|(a, k)| {
            a.role == Role::Operand
                || matches!(
                    k,
                    Some(ParamKind::Int { .. } | ParamKind::PerLaneInt { .. } | ParamKind::Mask)
                )
        });
        if !all_int || spec.args.is_empty() {
            continue;
        }
        let lanes = spec.dialect.default_lanes();
        let active = LaneMask::all(lanes);
        // A value in range for each argument, distinct per position where the range allows.
        let values: Vec<i128> = spec
            .args
            .iter()
            .zip(&kinds)
            .enumerate()
            .map(|(k, (a, kind))| match kind {
                Some(ParamKind::Mask) => (1i128 << lanes) - 1,
                Some(ParamKind::Int { min, max } | ParamKind::PerLaneInt { min, max }) => {
                    // `width`-like parameters: the lane count is always in range.
                    let want = if a.role == Role::Width {
                        lanes as i128
                    } else {
                        1 + k as i128
                    };
                    want.clamp(*min as i128, *max as i128)
                }
                _ => 5,
            })
            .collect();
        let args: Vec<Vec<LaneVal>> = values.iter().map(|&v| row(v, lanes)).collect();
        let idents = vec![None; args.len()];
        let out = call_op(
            spec,
            lanes,
            active,
            (LaneMask::none(), LaneMask::none()),
            &args,
            &idents,
            (1, 1),
            None,
        );
        let Some(step) = out.steps.first() else {
            panic!("{}: no step ({:?})", spec.name, out.diagnostics);
        };
        for ((a, kind), v) in spec.args.iter().zip(&kinds).zip(&values) {
            let Some(p) = a.param else { continue };
            let got = match step.params.0.get(p.name) {
                Some(ParamValue::Int(n)) => Some(*n as i128),
                Some(ParamValue::Ints(ns)) => ns.first().map(|n| *n as i128),
                Some(ParamValue::Mask(m)) => Some(m.0 as i128),
                _ => None,
            };
            assert_eq!(got, Some(*v), "{}: `{}` ({kind:?})", spec.name, a.name);
        }
        // Leave out the trailing defaulted arguments: they take the defaults.
        let mut n = spec.args.len();
        while n > 0
            && spec.args[n - 1]
                .param
                .is_some_and(|p| p.default != ParamDefault::Required)
        {
            n -= 1;
        }
        let short = call_op(
            spec,
            lanes,
            active,
            (LaneMask::none(), LaneMask::none()),
            &args[..n],
            &idents[..n],
            (1, 1),
            None,
        );
        let step = short.steps.first().expect("a step");
        for a in &spec.args[n..] {
            let Some(p) = a.param else { continue };
            let want = default_param(&p, lanes, active, step.ty).unwrap();
            let got = step.params.0.get(p.name).unwrap();
            let same = match (got, &want) {
                (ParamValue::Ints(g), ParamValue::Int(w)) => g.iter().all(|x| x == w),
                (g, w) => g == w,
            };
            assert!(
                same,
                "{}: omitted `{}` is {got:?}, default {want:?}",
                spec.name, a.name
            );
        }
        checked += 1;
    }
    // CUDA, HIP, Ascend shuffles, WGSL shuffles, readlane and friends at least.
    assert!(checked >= 16, "only {checked} ops checked");
}

#[test]
fn hip_names_its_delta_lane_delta_and_both_names_reach_the_parameter() {
    let spec = crosslane_core::find_op(crosslane_core::Dialect::Hip, "__shfl_down").unwrap();
    assert_eq!(spec.param("lane_delta").map(|p| p.name), Some("delta"));
    assert_eq!(spec.param("--lane-delta").map(|p| p.name), Some("delta"));
    assert_eq!(spec.param("delta").map(|p| p.name), Some("delta"));
    assert_eq!(
        spec.signature(),
        "T __shfl_down(T var, unsigned int lane_delta, int width = warpSize)"
    );
    // The prototypes as the vendors write them (Ascend C asc_shfl page; CUDA Programming Guide,
    // Warp Shuffle Functions; WGSL spec, subgroupShuffle; AMD's builtin beside its instruction).
    let sig = |d, n| crosslane_core::find_op(d, n).unwrap().signature_line();
    use crosslane_core::Dialect;
    assert_eq!(
        sig(Dialect::Ascend, "asc_shfl"),
        "T asc_shfl(T var, int32_t srcLane, int32_t width = warpSize)"
    );
    assert_eq!(
        sig(Dialect::Cuda, "__shfl_xor_sync"),
        "T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize)"
    );
    assert_eq!(
        sig(Dialect::Wgsl, "subgroupBroadcast"),
        "fn subgroupBroadcast(e: T, id: I) -> T   // id: const-expression in [0, 128)"
    );
    assert_eq!(
        sig(Dialect::Amdgcn, "ds_bpermute_b32"),
        "int __builtin_amdgcn_ds_bpermute(int addr, int data)   // ds_bpermute_b32 vdst, vaddr, \
         vdata offset:offset16"
    );
}

#[test]
fn the_shuffle_families_come_from_the_argument_roles() {
    use crosslane_core::{Dialect, ShuffleFamily};
    let table = [
        (
            Dialect::Cuda,
            [
                "__shfl_sync",
                "__shfl_up_sync",
                "__shfl_down_sync",
                "__shfl_xor_sync",
            ],
        ),
        (
            Dialect::Hip,
            ["__shfl", "__shfl_up", "__shfl_down", "__shfl_xor"],
        ),
        (
            Dialect::Ascend,
            ["asc_shfl", "asc_shfl_up", "asc_shfl_down", "asc_shfl_xor"],
        ),
        (
            Dialect::Wgsl,
            [
                "subgroupShuffle",
                "subgroupShuffleUp",
                "subgroupShuffleDown",
                "subgroupShuffleXor",
            ],
        ),
    ];
    let families = [
        ShuffleFamily::Idx,
        ShuffleFamily::Up,
        ShuffleFamily::Down,
        ShuffleFamily::Xor,
    ];
    for (dialect, names) in table {
        for (family, name) in families.iter().zip(names) {
            assert_eq!(
                family.op_in(dialect).map(|x| x.0),
                Some(name),
                "{dialect:?} {family:?}"
            );
        }
    }
    assert_eq!(
        ShuffleFamily::Xor.op_in(Dialect::Hip).map(|x| x.1),
        Some("lane_mask")
    );
    assert_eq!(ShuffleFamily::Idx.op_in(Dialect::Maca), None);
}
