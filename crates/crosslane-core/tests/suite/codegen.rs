//! "Export as code": each shuffle family written in each target with that platform's own
//! intrinsic and parameter names, and a `// crosslane:` comment wherever a target cannot express
//! the scenario exactly.

use crosslane_core::codegen::{generate, resolve, Movement, Target};
use crosslane_core::portability::ShuffleFamily;
use crosslane_core::OpRequest;

fn req(dialect: &str, op: &str, params: &[(&str, &str)]) -> OpRequest {
    OpRequest {
        dialect: dialect.into(),
        op: op.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..OpRequest::default()
    }
}

fn code(r: &OpRequest, t: Target) -> String {
    generate(r, t).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn ascend_xor_width_16_in_every_target() {
    let r = req(
        "ascend",
        "asc_shfl_xor",
        &[("lane_mask", "1"), ("width", "16")],
    );
    assert_eq!(
        resolve(&r).unwrap().movement,
        Movement::Shuffle {
            family: ShuffleFamily::Xor,
            amount: 1,
            width: 16
        }
    );
    assert!(code(&r, Target::Cuda).contains("__shfl_xor_sync(0xffffffff, var, 1, 16)"));
    assert!(code(&r, Target::Hip).contains("__shfl_xor(var, 1, 16)"));
    assert!(code(&r, Target::Ascend).contains("asc_shfl_xor(var, 1, 16)"));
    let maca = code(&r, Target::Maca);
    assert!(
        maca.contains("__builtin_mxc_bsm_bpermute(src * 4, var)"),
        "{maca}"
    );
    assert!(
        maca.contains("// crosslane: NOT EXACT: MACA has no width-segmented xor shuffle"),
        "{maca}"
    );
    // MACA warps have 64 lanes, the scenario 32.
    assert!(
        maca.contains("the scenario has 32 lanes; MetaX MACA runs 64"),
        "{maca}"
    );
    let wgsl = code(&r, Target::Wgsl);
    // xor 1 < width 16 never leaves its segment: the native intrinsic is exact.
    assert!(wgsl.contains("subgroupShuffleXor(v, 1u)"), "{wgsl}");
    assert!(wgsl.contains("subgroup size is the device's"), "{wgsl}");
    assert!(wgsl.starts_with("// crosslane export for WGSL"));
    assert!(wgsl.contains("enable subgroups;"));
}

#[test]
fn cuda_up_down_idx_map_to_each_vendor_name() {
    for (op, param, hip, asc, wgsl) in [
        (
            "__shfl_up_sync",
            "delta",
            "__shfl_up(var, 3, 32)",
            "asc_shfl_up(var, 3, 32)",
            "subgroupShuffleUp(v, 3u)",
        ),
        (
            "__shfl_down_sync",
            "delta",
            "__shfl_down(var, 3, 32)",
            "asc_shfl_down(var, 3, 32)",
            "subgroupShuffleDown(v, 3u)",
        ),
        (
            "__shfl_sync",
            "src_lane",
            "__shfl(var, 3, 32)",
            "asc_shfl(var, 3, 32)",
            "subgroupShuffle(v, 3u)",
        ),
    ] {
        let r = req("cuda", op, &[(param, "3")]);
        assert!(
            code(&r, Target::Cuda).contains(&format!("{op}(0xffffffff, var, 3, 32)")),
            "{op}"
        );
        assert!(code(&r, Target::Hip).contains(hip), "{op}");
        assert!(code(&r, Target::Ascend).contains(asc), "{op}");
        assert!(
            code(&r, Target::Wgsl).contains(wgsl),
            "{op}: {}",
            code(&r, Target::Wgsl)
        );
    }
}

#[test]
fn whole_warp_idx_is_readlane_on_maca_and_segmented_up_is_computed_in_wgsl() {
    let r = req("hip", "__shfl", &[("src_lane", "5")]);
    let r = OpRequest {
        lanes: "64".into(),
        ..r
    };
    let maca = code(&r, Target::Maca);
    assert!(maca.contains("__builtin_mxc_readlane(var, 5)"), "{maca}");
    assert!(!maca.contains("NOT EXACT"), "{maca}");
    let r = req("hip", "__shfl_up", &[("delta", "2"), ("width", "8")]);
    let wgsl = code(&r, Target::Wgsl);
    assert!(wgsl.contains("subgroupShuffle(v, src)"), "{wgsl}");
    assert!(wgsl.contains("let base = lane & ~(8u - 1u);"), "{wgsl}");
    // HIP's default wave is 64 lanes: CUDA cannot express it.
    assert!(code(&r, Target::Cuda)
        .contains("// crosslane: NOT EXACT: the scenario has 64 lanes; CUDA runs 32"));
}

#[test]
fn partial_active_mask_becomes_cuda_sync_mask_and_a_guard_elsewhere() {
    let r = OpRequest {
        active: "0x0000ffff".into(),
        ..req("ascend", "asc_shfl_down", &[("delta", "1")])
    };
    let cuda = code(&r, Target::Cuda);
    assert!(
        cuda.contains("__shfl_down_sync(0xffff, var, 1, 32)"),
        "{cuda}"
    );
    assert!(cuda.contains("if ((0x0000ffffu >> lane) & 1u)"), "{cuda}");
    let wgsl = code(&r, Target::Wgsl);
    assert!(
        wgsl.contains("let active_mask = array<u32, 1>(0xffffu);"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("diagnostic(off, subgroup_uniformity);"),
        "{wgsl}"
    );
}

#[test]
fn ops_without_a_family_are_native_in_their_dialect_and_flagged_elsewhere() {
    let r = req("maca", "__builtin_mxc_mov_shfl", &[("mode", "0x140")]);
    let maca = code(&r, Target::Maca);
    assert!(maca.contains("__builtin_mxc_mov_shfl(var, 320, "), "{maca}");
    let cuda = code(&r, Target::Cuda);
    assert!(
        cuda.contains(
            "// crosslane: NOT EXPRESSIBLE: CUDA has no equivalent of maca __builtin_mxc_mov_shfl"
        ),
        "{cuda}"
    );
    assert!(cuda.contains("out[threadIdx.x] = var;"), "{cuda}");
}

#[test]
fn types_a_platform_lacks_are_said_so() {
    let r = OpRequest {
        ty: "f64".into(),
        ..req("cuda", "__shfl_xor_sync", &[("lane_mask", "1")])
    };
    let wgsl = code(&r, Target::Wgsl);
    assert!(
        wgsl.contains("// crosslane: NOT EXACT: WGSL has no f64 type"),
        "{wgsl}"
    );
    assert!(code(&r, Target::Cuda).contains("const double* in"));
}

#[test]
fn comments_cannot_be_broken_by_typed_text() {
    let r = OpRequest {
        values: "1,2\n#include <evil>".into(),
        ..req("cuda", "__shfl_xor_sync", &[("lane_mask", "1")])
    };
    // Invalid values do not resolve; the snippet is not made from them.
    assert!(generate(&r, Target::Cuda).is_err());
    assert!(Target::parse("fortran").is_err());
    assert_eq!(Target::parse("WGSL"), Ok(Target::Wgsl));
}

#[test]
fn byte_address_permutes_map_between_amd_and_maca_and_are_computed_elsewhere() {
    // Seed 002 §3.4.3's mirror: index[n] = (63 - n) * 4.
    let index: Vec<String> = (0..64).map(|n| ((63 - n) * 4).to_string()).collect();
    let r = req(
        "maca",
        "__builtin_mxc_bsm_bpermute",
        &[("index", &index.join(","))],
    );
    let Movement::Bpermute { addr } = resolve(&r).unwrap().movement else {
        panic!("bpermute expected");
    };
    assert_eq!((addr[0], addr[63]), (252, 0));
    let hip = code(&r, Target::Hip);
    assert!(
        hip.contains("__builtin_amdgcn_ds_bpermute(addr_per_lane[lane], var)"),
        "{hip}"
    );
    assert!(
        hip.contains("const int addr_per_lane[64] = {252, 248,"),
        "{hip}"
    );
    let maca = code(&r, Target::Maca);
    assert!(
        maca.contains("__builtin_mxc_bsm_bpermute(addr_per_lane[lane], var)"),
        "{maca}"
    );
    assert!(!maca.contains("NOT EXACT"), "{maca}");
    let cuda = code(&r, Target::Cuda);
    assert!(
        cuda.contains("const int src = (addr_per_lane[lane] >> 2) & 63;"),
        "{cuda}"
    );
    assert!(
        cuda.contains("// crosslane: NOT EXACT: a permute by byte address"),
        "{cuda}"
    );
    // AMD's offset is added to every address.
    let r = OpRequest {
        lanes: "32".into(),
        ..req(
            "amdgcn",
            "ds_bpermute_b32",
            &[("addr", "4"), ("offset", "8")],
        )
    };
    let wgsl = code(&r, Target::Wgsl);
    assert!(
        wgsl.contains("let addr_per_lane = array<i32, 32>(12, 12,"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("let src = (u32(addr_per_lane[lane]) >> 2u) & 31u;"),
        "{wgsl}"
    );
}

#[test]
fn a_per_lane_operand_is_exported_as_the_users_lane_expression() {
    use crosslane_core::codegen::{generate, Target};
    let req = crosslane_core::OpRequest {
        dialect: "cuda".into(),
        op: "__shfl_sync".into(),
        params: [("src_lane".to_string(), "(lane + 1) % 32".to_string())].into(),
        ..Default::default()
    };
    let cuda = generate(&req, Target::Cuda).unwrap();
    assert!(
        cuda.contains("__shfl_sync(0xffffffffull, var, ((int)lane + 1) % 32, 32)"),
        "{cuda}"
    );
    let req = crosslane_core::OpRequest {
        dialect: "wgsl".into(),
        op: "subgroupShuffle".into(),
        params: [("id".to_string(), "lane ^ 1".to_string())].into(),
        ..Default::default()
    };
    let wgsl = generate(&req, Target::Wgsl).unwrap();
    assert!(
        wgsl.contains("subgroupShuffle(v, (i32(lane) ^ 1))"),
        "{wgsl}"
    );
    // A comma list is not an expression: it stays a per-lane table.
    let req = crosslane_core::OpRequest {
        dialect: "hip".into(),
        op: "__shfl".into(),
        lanes: "32".into(),
        params: [(
            "src_lane".to_string(),
            (0..32)
                .map(|i| ((i + 3) % 32).to_string())
                .collect::<Vec<_>>()
                .join(","),
        )]
        .into(),
        ..Default::default()
    };
    let hip = generate(&req, Target::Hip).unwrap();
    assert!(hip.contains("src_lane_per_lane[lane]"), "{hip}");
}

#[test]
fn a_per_lane_operand_exports_to_the_other_platforms_as_the_expression() {
    // CUDA's rotation __shfl_sync(m, var, (lane + 1) % 32): HIP, Ascend and WGSL take the source
    // lane per thread / per invocation (SEMANTICS.md, Per-thread and uniform operands), so the
    // expression is their argument; MACA's readlane takes one lane, so the permute reads it.
    use crosslane_core::codegen::{generate, Target};
    let req = crosslane_core::OpRequest {
        dialect: "cuda".into(),
        op: "__shfl_sync".into(),
        params: [("src_lane".to_string(), "(lane + 1) % 32".to_string())].into(),
        ..Default::default()
    };
    let hip = generate(&req, Target::Hip).unwrap();
    assert!(
        hip.contains("__shfl(var, (((int)lane + 1) % 32), 32)"),
        "{hip}"
    );
    let ascend = generate(&req, Target::Ascend).unwrap();
    assert!(
        ascend.contains("asc_shfl(var, (((int)lane + 1) % 32), 32)"),
        "{ascend}"
    );
    let wgsl = generate(&req, Target::Wgsl).unwrap();
    assert!(
        wgsl.contains("subgroupShuffle(v, u32(((i32(lane) + 1) % 32)))"),
        "{wgsl}"
    );
    let maca = generate(&req, Target::Maca).unwrap();
    assert!(
        maca.contains("__builtin_mxc_bsm_bpermute(src * 4, var)"),
        "{maca}"
    );
    assert!(
        maca.contains("((((int)lane + 1) % 32) & (width - 1))"),
        "{maca}"
    );
    for s in [&hip, &ascend, &wgsl, &maca] {
        assert!(!s.contains("NOT EXPRESSIBLE"), "{s}");
    }
    // A per-lane delta is per thread in HIP but must be uniform in WGSL's subgroupShuffleDown:
    // the WGSL export computes the segmented rule's source lane per invocation instead.
    let req = crosslane_core::OpRequest {
        dialect: "hip".into(),
        op: "__shfl_down".into(),
        lanes: "32".into(),
        params: [("delta".to_string(), "lane & 3".to_string())].into(),
        ..Default::default()
    };
    let wgsl = generate(&req, Target::Wgsl).unwrap();
    assert!(
        wgsl.contains("let amount = u32((i32(lane) & 3));"),
        "{wgsl}"
    );
    assert!(wgsl.contains("subgroupShuffle(v, src)"), "{wgsl}");
    let cuda = generate(&req, Target::Cuda).unwrap();
    assert!(
        cuda.contains("__shfl_down_sync(0xffffffff, var, ((int)lane & 3), 32)"),
        "{cuda}"
    );
}
