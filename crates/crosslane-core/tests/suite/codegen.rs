//! "Export as code": each shuffle family written in each target with that platform's own
//! intrinsic and parameter names, and a `// crosslane:` comment wherever a target cannot express
//! the scenario exactly.

use crosslane_core::codegen::{generate, resolve, Movement, Target};
use crosslane_core::portability::ShuffleFamily;
use crosslane_core::OpRequest;

// The suite's request builder.
use super::common::request as req;

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
    // mode 0x140 is row_mirror (seed 002 §3.4.1, the DPP numbering): lane i of each row of 16
    // reads lane 15 - i of it. CUDA has no mirror: the lanes it selects are tabled and moved
    // by __shfl_sync.
    let cuda = code(&r, Target::Cuda);
    let mirror: Vec<String> = (0..64)
        .map(|i| ((i & !15) + 15 - (i & 15)).to_string())
        .collect();
    assert!(
        cuda.contains(&format!(
            "const int source_lane[64] = {{{}}};",
            mirror.join(", ")
        )),
        "{cuda}"
    );
    assert!(cuda.contains("__shfl_sync(0xffffffff, var, src)"), "{cuda}");
    assert!(!cuda.contains("NOT EXPRESSIBLE"), "{cuda}");
    // An op that moves nothing between lanes (a clock read) is still flagged elsewhere.
    let r = req("maca", "__builtin_mxc_get_time", &[]);
    let cuda = code(&r, Target::Cuda);
    assert!(
        cuda.contains("// crosslane: NOT EXPRESSIBLE: CUDA has no equivalent"),
        "{cuda}"
    );
}

#[test]
fn collectives_use_the_targets_builtin_or_a_lane_loop() {
    // CUDA's ballot is WGSL's subgroupBallot (component x holds lanes 0..31, WGSL spec).
    let ballot = req("cuda", "__ballot_sync", &[]);
    let wgsl = code(&ballot, Target::Wgsl);
    assert!(wgsl.contains("subgroupBallot(v != "), "{wgsl}");
    assert!(wgsl.contains(").x"), "{wgsl}");
    // HIP's own ballot; Ascend C has none: a loop of asc_shfl sets bit j for each active lane.
    assert!(code(&ballot, Target::Hip).contains("__ballot(var != 0)"));
    let ascend = code(&ballot, Target::Ascend);
    assert!(ascend.contains("asc_shfl(pred, j)"), "{ascend}");
    assert!(ascend.contains("acc |= 1ull << j;"), "{ascend}");
    // A WGSL scan in CUDA: lane i adds the active lanes j <= i, in lane order.
    let scan = req("wgsl", "subgroupInclusiveAdd", &[]);
    let cuda = code(&scan, Target::Cuda);
    assert!(cuda.contains("__shfl_sync(0xffffffff, var, j)"), "{cuda}");
    assert!(cuda.contains("&& j <= (int)lane"), "{cuda}");
    assert!(cuda.contains("acc = acc + other;"), "{cuda}");
    let excl = code(&req("wgsl", "subgroupExclusiveMul", &[]), Target::Hip);
    assert!(excl.contains("acc = (int)1;"), "{excl}");
    assert!(excl.contains("&& j < (int)lane"), "{excl}");
    // CUDA's integer reductions from WGSL, with the sync mask of the active lanes.
    let add = OpRequest {
        active: "0xff".into(),
        ..req("wgsl", "subgroupAdd", &[])
    };
    assert!(code(&add, Target::Cuda).contains("__reduce_add_sync(0xff, var)"));
    // ... and back: CUDA's reductions are WGSL's subgroup built-ins.
    let min = req("cuda", "__reduce_min_sync", &[]);
    assert!(code(&min, Target::Wgsl).contains("subgroupMin(v)"));
    // The lowest active lane's value: HIP calls the AMD instruction's builtin.
    let first = req("wgsl", "subgroupBroadcastFirst", &[]);
    assert!(code(&first, Target::Hip).contains("__builtin_amdgcn_readfirstlane(var)"));
    // __activemask is HIP's ballot of true; WGSL's elect is CUDA's lowest active lane
    // (__ffs is 1-based, CUDA Math API); __match_any_sync's mask of equal bits, looped in
    // Ascend C.
    let active = req("cuda", "__activemask", &[]);
    assert!(code(&active, Target::Hip).contains("out[threadIdx.x] = __ballot(1);"));
    assert!(code(&active, Target::Wgsl).contains("subgroupBallot(true).x"));
    let elect = req("wgsl", "subgroupElect", &[]);
    assert!(code(&elect, Target::Cuda).contains("(int)lane == __ffs(__activemask()) - 1"));
    let matched = code(&req("cuda", "__match_any_sync", &[]), Target::Ascend);
    assert!(
        matched.contains(
            "&& __builtin_bit_cast(unsigned int, other) == __builtin_bit_cast(unsigned int, var)"
        ),
        "{matched}"
    );
    assert!(matched.contains("acc |= 1ull << j;"), "{matched}");
    for (r, t) in [
        (&ballot, Target::Maca),
        (&scan, Target::Ascend),
        (&min, Target::Maca),
    ] {
        assert!(!code(r, t).contains("NOT EXPRESSIBLE"), "{}", code(r, t));
    }
}

#[test]
fn amd_instructions_export_to_hip_as_their_builtins() {
    // LLVM SIDefines.h DppCtrl: ROW_SHR0 = 0x110, so row_shr:1 is 0x111; QUAD_PERM selectors
    // are 2 bits each from bit 0: [1,0,3,2] = 1 | 0 << 2 | 3 << 4 | 2 << 6 = 0xb1.
    let dpp = req("amdgcn", "update_dpp", &[("dpp_ctrl", "row_shr:1")]);
    let hip = code(&dpp, Target::Hip);
    assert!(
        hip.contains("__builtin_amdgcn_update_dpp(__builtin_bit_cast(int, old_bits[lane % 64]), var, 0x111 /* row_shr:1 */, 15, 15, 0)"),
        "{hip}"
    );
    let quad = req("amdgcn", "mov_dpp", &[("dpp_ctrl", "quad_perm:[1,0,3,2]")]);
    assert!(code(&quad, Target::Hip).contains("0xb1 /* quad_perm:[1,0,3,2] */"));
    let swz = req("amdgcn", "ds_swizzle_b32", &[("offset", "0x041f")]);
    assert!(code(&swz, Target::Hip).contains("__builtin_amdgcn_ds_swizzle(var, 1055)"));
    // ds_permute's offset is an instruction field the builtin lacks: added to the address.
    let perm = req(
        "amdgcn",
        "ds_permute_b32",
        &[("addr", "lane*4"), ("offset", "4")],
    );
    let hip = code(&perm, Target::Hip);
    assert!(hip.contains("__builtin_amdgcn_ds_permute("), "{hip}");
    assert!(hip.contains(" + 4, var)"), "{hip}");
    for r in [&dpp, &quad, &swz, &perm] {
        assert!(!code(r, Target::Hip).contains("NOT EXPRESSIBLE"));
    }
}

#[test]
fn exports_avoid_what_the_target_rejects() {
    // HIP wave64 width 64 is not a CUDA width (at most warpSize = 32).
    let w64 = OpRequest {
        lanes: "64".into(),
        ..req("hip", "__shfl_xor", &[("lane_mask", "1"), ("width", "64")])
    };
    let cuda = code(&w64, Target::Cuda);
    assert!(
        cuda.contains("__shfl_xor_sync(0xffffffff, var, 1, 32)"),
        "{cuda}"
    );
    assert!(!cuda.contains(", 64)"), "{cuda}");
    // HIP's lane may be 32..63 on wave64: the active mask is shifted as a 64-bit value.
    let partial = OpRequest {
        active: "0x5".into(),
        ..req("cuda", "__shfl_xor_sync", &[("lane_mask", "1")])
    };
    let hip = code(&partial, Target::Hip);
    assert!(hip.contains("((0x00000005ull >> lane) & 1u)"), "{hip}");
    // __half2 / __nv_bfloat16 come from the fp16 / bf16 headers.
    let h2 = OpRequest {
        ty: "f16x2".into(),
        ..req("cuda", "__shfl_xor_sync", &[("lane_mask", "1")])
    };
    assert!(code(&h2, Target::Cuda).contains("#include <cuda_fp16.h>"));
    assert!(code(&h2, Target::Hip).contains("#include <hip/hip_fp16.h>"));
    let bf = OpRequest {
        ty: "bf16".into(),
        ..req("cuda", "__shfl_xor_sync", &[("lane_mask", "1")])
    };
    assert!(code(&bf, Target::Cuda).contains("#include <cuda_bf16.h>"));
}

#[test]
fn quad_operations_are_shuffles_within_four_lanes() {
    // WGSL spec, Quad Operations: quadSwapY reads lane i ^ 2; quadBroadcast(e, 3) lane 3 of
    // the quad.
    let swap = req("wgsl", "quadSwapY", &[]);
    assert!(code(&swap, Target::Cuda).contains("__shfl_xor_sync(0xffffffff, var, 2, 32)"));
    assert!(code(&swap, Target::Wgsl).contains("quadSwapY(v)"));
    let b = req("wgsl", "quadBroadcast", &[("id", "3")]);
    assert!(code(&b, Target::Ascend).contains("asc_shfl(var, 3, 4)"));
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
        hip.contains("__builtin_amdgcn_ds_bpermute(addr_per_lane[lane % 64], var)"),
        "{hip}"
    );
    assert!(
        hip.contains("const int addr_per_lane[64] = {252, 248,"),
        "{hip}"
    );
    let maca = code(&r, Target::Maca);
    assert!(
        maca.contains("__builtin_mxc_bsm_bpermute(addr_per_lane[lane % 64], var)"),
        "{maca}"
    );
    assert!(!maca.contains("NOT EXACT"), "{maca}");
    let cuda = code(&r, Target::Cuda);
    assert!(
        cuda.contains("const int src = (addr_per_lane[lane % 64] >> 2) & 63;"),
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
        wgsl.contains("let src = (u32(addr_per_lane[lane % 32u]) >> 2u) & 31u;"),
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
    assert!(hip.contains("src_lane_per_lane[lane % 32]"), "{hip}");
}

#[test]
fn a_per_lane_operand_exports_to_the_other_platforms_as_the_expression() {
    // CUDA's rotation __shfl_sync(m, var, (lane + 1) % 32): HIP, Ascend and WGSL take the source
    // lane per thread / per invocation (semantics.md, Per-thread and uniform operands), so the
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

#[test]
fn dpp_controls_encode_as_llvm_numbers_them() {
    use crosslane_core::dpp::DppCtrl;
    // Every used 9-bit code decodes to a control that encodes back to it (LLVM SIDefines.h).
    let mut used = 0;
    for code in 0..0x200u32 {
        if let Some(c) = DppCtrl::from_encoding(code) {
            assert_eq!(c.encoding(), Some(code), "{c:?}");
            used += 1;
        }
    }
    // 256 quad_perm + 15 × 3 row shifts/rotates + 4 wave shifts + 2 mirrors + 2 bcasts +
    // 16 row_share + 16 row_xmask.
    assert_eq!(used, 256 + 45 + 4 + 2 + 2 + 16 + 16);
    assert_eq!(
        DppCtrl::parse("row_newbcast:3").unwrap().encoding(),
        Some(0x153)
    );
    assert_eq!(
        DppCtrl::parse("dpp8:[0,1,2,3,4,5,6,7]").unwrap().encoding(),
        None
    );
}

fn with_lanes(mut r: OpRequest, lanes: &str) -> OpRequest {
    r.lanes = lanes.into();
    r
}

/// CUDA Programming Guide, "Warp Shuffle Functions": width must be a power of two in
/// 1..=warpSize (32), so width 64 is undefined in CUDA; the export must say so and name the
/// width it passes instead, not clamp silently.
#[test]
fn an_undefined_cuda_width_is_said_in_every_export() {
    let r = req(
        "cuda",
        "__shfl_xor_sync",
        &[("laneMask", "1"), ("width", "64")],
    );
    let cuda = code(&r, Target::Cuda);
    assert!(
        cuda.contains("__shfl_xor_sync(0xffffffff, var, 1, 32)"),
        "{cuda}"
    );
    assert!(
        cuda.contains("// crosslane: NOT EXACT: width 64 is wider than a CUDA warp"),
        "{cuda}"
    );
    // Width 32, xor 1: lane i reads lane i ^ 1 (the same guide) — what the snippet gives.
    assert!(
        cuda.contains(
            "// crosslane: UNDEFINED: the scenario itself is undefined on every lane (0–31)"
        ),
        "{cuda}"
    );
    assert!(cuda.contains("lanes 0–31 read lane i ^ 1"), "{cuda}");
    for t in [Target::Hip, Target::Ascend, Target::Maca, Target::Wgsl] {
        let c = code(&r, t);
        assert!(
            c.contains("UNDEFINED: the scenario itself is undefined on every lane (0–31)"),
            "{t:?}: {c}"
        );
    }
}

/// HIP wave64 `__shfl_xor(var, 33, 64)`: lane i reads lane i ^ 33 (HIP Programming Guide,
/// "Warp shuffle functions"). CUDA's `__shfl_xor_sync` is PTX `shfl.sync.bfly`, which uses only
/// the mask's low five bits (PTX ISA, "shfl.sync": `b[4:0]`): on CUDA's two 32-lane warps every
/// lane reads lane i ^ 1 instead.
#[test]
fn a_wave64_xor_on_cuda_says_what_every_lane_reads_instead() {
    let r = with_lanes(
        req("hip", "__shfl_xor", &[("lane_mask", "33"), ("width", "64")]),
        "64",
    );
    let c = code(&r, Target::Cuda);
    assert!(
        c.contains("__shfl_xor_sync(0xffffffff, var, 33, 32)"),
        "{c}"
    );
    assert!(
        c.contains(
            "// crosslane: NOT EXACT, per lane: lanes 0–63 read lane i ^ 1 (the scenario: read lane i ^ 33). CUDA: lane_mask — xor-ed with the caller's lane id (int; only lane_mask & 31 is used)."
        ),
        "{c}"
    );
    assert!(c.contains("width 64 is wider than a CUDA warp"), "{c}");
    let asc = code(&r, Target::Ascend);
    assert!(asc.contains("asc_shfl_xor(var, 33, 32)"), "{asc}");
    assert!(asc.contains("NOT EXACT, per lane: "), "{asc}");
    // HIP itself runs wave64: nothing differs per lane.
    assert!(!code(&r, Target::Hip).contains("per lane"));
}

/// HIP wave64 `__shfl_down(var, 40)` (width 64): lanes 0–23 read lane i + 40, lanes 24–63 keep
/// their own value (i + 40 ≥ 64). CUDA uses delta & 31 = 8 within each 32-lane warp (PTX ISA,
/// "shfl.sync"): lanes 0–23 read i + 8, 24–31 keep their own value (as in the scenario), and
/// 32–55 read i + 8 where the scenario keeps their own value.
#[test]
fn a_wave64_down_on_cuda_names_the_lanes_that_differ() {
    let r = with_lanes(req("hip", "__shfl_down", &[("delta", "40")]), "64");
    let c = code(&r, Target::Cuda);
    assert!(
        c.contains("__shfl_down_sync(0xffffffff, var, 40, 32)"),
        "{c}"
    );
    assert!(
        c.contains(
            "NOT EXACT, per lane: lanes 0–23 read lane i + 8 (the scenario: read lane i + 40); lanes 32–55 read lane i + 8 (the scenario: keep their own value) (every other active lane matches the scenario)."
        ),
        "{c}"
    );
    // An idx read of lane 40 across the wavefront: CUDA's warp 0 reads its lane 40 & 31 = 8,
    // warp 1 its lane 8 = scenario lane 40.
    let idx = with_lanes(req("hip", "__shfl", &[("src_lane", "40")]), "64");
    let c = code(&idx, Target::Cuda);
    assert!(
        c.contains("lanes 0–31 read lane 8 (the scenario: read lane 40)"),
        "{c}"
    );
    assert!(!c.contains("lanes 32–63"), "{c}");
}

/// HIP wave64 `__shfl(var, (lane + 1) % 64)`: lane i reads lane (i + 1) mod 64. On CUDA's
/// 32-lane warps the snippet's `lane` is threadIdx.x % 32 and only src_lane & 31 is used (PTX
/// "shfl.sync"): lane 31 reads its warp's lane 0 and lane 63 lane 32; every other lane matches.
#[test]
fn a_per_lane_amount_on_cuda_names_the_lanes_that_differ() {
    let r = with_lanes(
        req("hip", "__shfl", &[("src_lane", "(lane + 1) % 64")]),
        "64",
    );
    let c = code(&r, Target::Cuda);
    assert!(
        c.contains(
            "NOT EXACT, per lane: lane 31 read lane 0 (the scenario: read lane 32); lane 63 read lane 32 (the scenario: read lane 0) (every other active lane matches the scenario)."
        ),
        "{c}"
    );
}
