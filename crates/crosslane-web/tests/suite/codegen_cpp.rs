//! "Export as code" must give a compilable snippet: every CUDA, HIP, Ascend C and MACA snippet the
//! page can export (every op of every dialect, default parameters, all lanes and a partial active
//! mask) passes `c++ -fsyntax-only` against the op tables' own prototypes.
//!
//! No vendor compiler is available here, so each snippet's `#include` is replaced by a prelude
//! that declares what the vendor header would: the kernel qualifiers, `threadIdx`, `warpSize`,
//! the 16-bit float types, and one declaration per op of the target's dialect, written from the
//! op's signature, derived from its typed argument list (`T` becomes a template parameter). This checks the C++ itself, the
//! intrinsic names and the argument counts and types against the documented prototypes; it does
//! not check the vendor headers. An op whose signature uses types no header
//! here declares (MACA's vector and memory builtins) has no prototype: its own-dialect snippet is
//! not checked and is counted instead; every snippet that maps an op onto another platform's
//! shuffle is checked. Skipped (with a note) where no `c++` is installed.

use std::io::Write;
use std::process::{Command, Stdio};

use crosslane_core::codegen::{generate, Target};
use crosslane_core::{all_ops, dialect_ops, OpRequest, OpSpec};

const BASE: &str = r#"
#include <cstdint>
#define __global__
#define __simt_vf__
#define __launch_bounds__(n)
#define __gm__
struct Dim3 { unsigned int x, y, z; };
static Dim3 threadIdx;
static const int warpSize = 32;
// CUDA Math API, Integer Intrinsics (the CUDA snippets' elect uses it).
int __ffs(int);
// The fp16 / bf16 headers give these types arithmetic and comparison operators (CUDA Math API,
// "Half Arithmetic Functions", "Half Comparison Functions"; HIP and Ascend C mirror them).
#define HALF_LIKE(N) struct N { unsigned short bits; N() = default; template <class U> N(U) {} \
    friend N operator+(N a, N) { return a; } friend N operator*(N a, N) { return a; } \
    friend bool operator<(N, N) { return false; } friend bool operator!=(N, int) { return true; } };
// (`__builtin_bit_cast` needs trivially copyable types of one size: these are.)
HALF_LIKE(__half) HALF_LIKE(__nv_bfloat16) HALF_LIKE(__hip_bfloat16) HALF_LIKE(__maca_bfloat16)
HALF_LIKE(half) HALF_LIKE(bfloat16_t)
struct __half2 { unsigned int bits; __half2() {} template <class U> __half2(U) {}
    friend __half2 operator+(__half2 a, __half2) { return a; }
    friend __half2 operator*(__half2 a, __half2) { return a; }
    friend bool operator<(__half2, __half2) { return false; } };
typedef __half2 __nv_bfloat162;
typedef __half2 __hip_bfloat162;
"#;

/// The prototype of `spec` as a C++ declaration under the name snippets call it by (the op's
/// name), from the signature its typed argument list derives; `None` where it is not ASCII.
fn declaration(spec: &OpSpec) -> Option<String> {
    let sig = spec.signature();
    if !sig.is_ascii() {
        return None;
    }
    let generic = spec.proto.returns == "T" || spec.args.iter().any(|a| a.ty == "T");
    let template = if generic { "template <class T> " } else { "" };
    let sig = sig.replacen(spec.callee(), spec.name, 1);
    Some(format!("{template}{sig};\n"))
}

/// An exported snippet as one kernel of a compilation unit: without its `#include` lines (the
/// prelude declares what they would), its kernel renamed `kernel`.
fn unit_body(code: &str, kernel: &str) -> String {
    code.lines()
        .filter(|l| !l.starts_with("#include"))
        .map(|l| format!("{}\n", l.replace("crosslane_kernel", kernel)))
        .collect()
}

fn compiles(source: &str) -> Result<(), String> {
    let mut child = Command::new("c++")
        .args(["-fsyntax-only", "-std=c++17", "-x", "c++", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(source.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The C builtin an AMD GCN op is called through (`int __builtin_amdgcn_ds_bpermute(int addr,
/// int data)` for `ds_bpermute_b32`): HIP on AMD offers these builtins.
fn amd_builtin(spec: &OpSpec) -> Option<String> {
    spec.proto
        .call
        .filter(|c| c.starts_with("__builtin_amdgcn_"))
        .map(|_| format!("{};\n", spec.signature()))
}

/// The prelude for `target` and the names of the ops it declares.
fn prelude(target: Target) -> (String, Vec<&'static str>) {
    let mut p = BASE.to_string();
    let mut declared = Vec::new();
    if target == Target::Hip {
        for spec in dialect_ops(crosslane_core::Dialect::Amdgcn) {
            if let Some(decl) = amd_builtin(spec) {
                if compiles(&format!("{BASE}{decl}")).is_ok() {
                    p.push_str(&decl);
                }
            }
        }
    }
    for spec in dialect_ops(target.dialect()) {
        if let Some(decl) = declaration(spec) {
            if compiles(&format!("{BASE}{decl}")).is_ok() {
                p.push_str(&decl);
                declared.push(spec.name);
            }
        }
    }
    (p, declared)
}

#[test]
fn every_exportable_c_snippet_compiles_against_the_documented_prototypes() {
    // scripts/install-tools installs g++; a missing compiler is a broken setup, not a pass.
    assert!(
        Command::new("c++").arg("--version").output().is_ok(),
        "no c++ on PATH: install g++ (scripts/install-tools does) to check the C++ snippets"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut unchecked = Vec::new();
    for target in [Target::Cuda, Target::Hip, Target::Ascend, Target::Maca] {
        let (prelude, declared) = prelude(target);
        // One translation unit per target: each snippet's kernel renamed so they can coexist.
        let mut unit = prelude.clone();
        let mut names = Vec::new();
        for spec in all_ops() {
            for active in ["", "0x5"] {
                let req = OpRequest {
                    dialect: spec.dialect.name().into(),
                    op: spec.name.into(),
                    active: active.into(),
                    ..OpRequest::default()
                };
                let Ok(code) = generate(&req, target) else {
                    continue;
                };
                if spec.dialect == target.dialect() && !declared.contains(&spec.name) {
                    unchecked.push(spec.name);
                    continue;
                }
                checked += 1;
                let kernel = format!("k{}", names.len());
                let body = unit_body(&code, &kernel);
                names.push((
                    format!("{} {} active={active:?}", spec.dialect.name(), spec.name),
                    body.clone(),
                ));
                unit.push_str(&body);
            }
        }
        if compiles(&unit).is_ok() {
            continue;
        }
        // Find the snippets that fail, one by one.
        for (name, body) in names {
            if let Err(e) = compiles(&format!("{prelude}{body}")) {
                failures.push(format!(
                    "{target:?} {name}:\n{}\n{body}",
                    e.lines().take(6).collect::<Vec<_>>().join("\n")
                ));
            }
        }
    }
    unchecked.dedup();
    eprintln!("no prototype, not checked: {}", unchecked.join(", "));
    assert!(checked > 400, "only {checked} snippets");
    // The shuffle families and the lane reads always have prototypes.
    for name in [
        "__shfl_xor_sync",
        "__shfl",
        "asc_shfl_down",
        "__builtin_mxc_readlane",
        "__builtin_mxc_bsm_bpermute",
    ] {
        assert!(!unchecked.contains(&name), "{name} unchecked");
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} do not compile:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn collectives_export_as_c_that_compiles_for_every_type() {
    // Ballots, votes, reductions and scans of every dialect into every C target, in each type
    // the op takes: the target's builtin or the lane loop, which names each type's operators.
    assert!(
        Command::new("c++").arg("--version").output().is_ok(),
        "no c++ on PATH"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for target in [Target::Cuda, Target::Hip, Target::Ascend, Target::Maca] {
        let (prelude, _) = prelude(target);
        let mut unit = prelude.clone();
        let mut bodies = Vec::new();
        for spec in all_ops().filter(|s| crosslane_core::codegen::Collective::of(s).is_some()) {
            if spec.dialect == target.dialect() {
                continue;
            }
            for ty in spec.types {
                let req = OpRequest {
                    dialect: spec.dialect.name().into(),
                    op: spec.name.into(),
                    ty: ty.name().into(),
                    active: "0x5".into(),
                    ..OpRequest::default()
                };
                let Ok(code) = generate(&req, target) else {
                    continue;
                };
                assert!(!code.contains("NOT EXPRESSIBLE"), "{code}");
                let body = unit_body(&code, &format!("k{checked}"));
                checked += 1;
                unit.push_str(&body);
                bodies.push((format!("{target:?} {} {}", spec.name, ty.name()), body));
            }
        }
        if compiles(&unit).is_ok() {
            continue;
        }
        for (name, body) in bodies {
            if let Err(e) = compiles(&format!("{prelude}{body}")) {
                failures.push(format!(
                    "{name}:\n{}\n{body}",
                    e.lines().take(6).collect::<Vec<_>>().join("\n")
                ));
            }
        }
    }
    assert!(checked > 100, "only {checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn per_lane_shuffle_amounts_export_as_c_that_compiles() {
    // CUDA's per-thread rotation and a per-lane xor partner exported to every C target: the lane
    // expression is the intrinsic's argument (or the permute's computed source lane on MACA).
    assert!(
        Command::new("c++").arg("--version").output().is_ok(),
        "no c++ on PATH"
    );
    for target in [Target::Cuda, Target::Hip, Target::Ascend, Target::Maca] {
        let (prelude, _) = prelude(target);
        for (op, param, text) in [
            ("__shfl_sync", "src_lane", "(lane + 1) % 32"),
            ("__shfl_xor_sync", "lane_mask", "(lane & 1) + 1"),
            ("__shfl_down_sync", "delta", "lane & 3"),
        ] {
            let req = OpRequest {
                dialect: "cuda".into(),
                op: op.into(),
                params: [(param.to_string(), text.to_string())].into(),
                ..OpRequest::default()
            };
            let code = generate(&req, target).unwrap();
            let body = unit_body(&code, "crosslane_kernel");
            compiles(&format!("{prelude}{body}"))
                .unwrap_or_else(|e| panic!("{target:?} {op} {text}: {e}\n{body}"));
        }
    }
}

/// The scenarios whose export a C target cannot run exactly (docs/semantics.md, "Export as code"): HIP wave64
/// shuffles across the two halves of the wavefront, and CUDA's undefined width 64. Each export
/// compiles, its `// crosslane:` notes included, and says what differs.
#[test]
fn wave64_and_undefined_width_exports_compile_and_say_what_differs() {
    assert!(
        Command::new("c++").arg("--version").output().is_ok(),
        "no c++ on PATH"
    );
    for target in [Target::Cuda, Target::Hip, Target::Ascend, Target::Maca] {
        let (prelude, _) = prelude(target);
        for req in crate::inexact_shuffles() {
            let op = &req.op;
            let code = generate(&req, target).unwrap();
            let body = unit_body(&code, "crosslane_kernel");
            compiles(&format!("{prelude}{body}"))
                .unwrap_or_else(|e| panic!("{target:?} {op}: {e}\n{body}"));
            // CUDA and Ascend C run 32-lane warps with width ≤ 32: every one of these scenarios
            // differs there, and the export says how.
            if matches!(target, Target::Cuda | Target::Ascend) {
                assert!(
                    code.contains("// crosslane: NOT EXACT, per lane:")
                        || code.contains("// crosslane: UNDEFINED:"),
                    "{target:?} {op}: {code}"
                );
            }
        }
    }
}
