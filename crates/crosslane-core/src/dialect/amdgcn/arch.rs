//! AMD GPU targets (LLVM processor names, `--offload-arch=gfxNNN`) and what each generation's
//! documents say differently about the cross-lane instructions. The same mechanism as MetaX
//! (`dialect::maca::arch`): the target is the op parameter `arch`, parsed by [`parse`] and checked
//! by the op; a control or wave size the target lacks is an [`InputError`] on field `arch` (or on
//! the control's field) naming the targets that have it, as the assembler refuses it.
//!
//! Sources, per row of [`TARGETS`]:
//! * generations and wave sizes: LLVM AMDGPUUsage, "Processors" (GFX9 and CDNA are wave64 only;
//!   GFX10+ runs wave32 and wave64);
//! * DPP controls: LLVM AMDGPUModifierSyntax, "DPP Modifiers": `dpp_ctrl` (GFX8/9: wave shifts and
//!   rotates, `row_bcast:15/31`), `dpp32_ctrl` (GFX90A+: the same plus `row_newbcast:1..15`,
//!   encoded as `row_share`), `dpp16_ctrl` (GFX10+: `row_share`, `row_xmask`, no wave shifts or
//!   row broadcasts), `dpp8` (GFX10+);
//! * `ds_permute_b32` / `ds_bpermute_b32`: the ISA guide of each generation (see
//!   [`Target::permute_mod32`] and [`Target::collision`]).

use crate::dpp::DppCtrl;
use crate::error::InputError;
use crate::op::OpInput;
use crate::params::{ParamDefault, ParamKind, ParamSpec};

/// The default target when none is given: gfx1030 (RDNA2). It runs wave32 and wave64 (the two
/// lane counts amdgcn links made before targets existed use), its `ds_permute` addresses the
/// whole wave and its guide's pseudo-code decides collisions, so those links keep their results;
/// only controls RDNA2 lacks (GFX8/9 wave shifts, `row_bcast`) are now refused.
pub const DEFAULT: &str = "gfx1030";

/// An AMD ISA generation, as far as the cross-lane rules differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// GFX9 (Vega): `dpp_ctrl`.
    Gfx9,
    /// CDNA2/3 (gfx90a, gfx942): GFX9 ISA with `dpp32_ctrl` (adds `row_newbcast`).
    Cdna,
    /// CDNA4 (gfx950): as CDNA, with the CDNA4 guide's LDS-arbitration wording for ds_permute.
    Cdna4,
    /// RDNA2 (GFX10.3).
    Rdna2,
    /// RDNA3 and RDNA3.5 (GFX11): ds_(b)permute lane index MOD 32 on wave64.
    Rdna3,
    /// RDNA4 (GFX12).
    Rdna4,
}

/// How a target's guide decides which lane's write lands when several `ds_permute_b32` lanes
/// address one destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collision {
    /// The pseudo-code loops over lanes in order, so the highest writer's value remains.
    PseudoCode,
    /// The prose says the winner is not deterministic (or is left to LDS arbitration): the
    /// destination is undefined; the pseudo-code's winner is only a hint.
    NotDeterministic(&'static str),
}

/// One AMD target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// LLVM processor name (`gfx942`).
    pub name: &'static str,
    /// Product family in words.
    pub product: &'static str,
    /// ISA generation.
    pub family: Family,
    /// The ISA guide the permute rule cites.
    pub guide: &'static str,
}

/// The targets the playground knows (LLVM AMDGPUUsage, "Processors").
pub const TARGETS: &[Target] = &[
    Target {
        name: "gfx900",
        product: "GFX9 Vega 10",
        family: Family::Gfx9,
        guide: "AMD \"Vega\" Instruction Set Architecture",
    },
    Target {
        name: "gfx90a",
        product: "CDNA2 (MI200)",
        family: Family::Cdna,
        guide: "AMD Instinct MI200 (CDNA2) ISA",
    },
    Target {
        name: "gfx942",
        product: "CDNA3 (MI300)",
        family: Family::Cdna,
        guide: "AMD Instinct MI300 (CDNA3) ISA",
    },
    Target {
        name: "gfx950",
        product: "CDNA4 (MI350)",
        family: Family::Cdna4,
        guide: "AMD Instinct CDNA4 ISA",
    },
    Target {
        name: "gfx1030",
        product: "RDNA2 (Navi 21)",
        family: Family::Rdna2,
        guide: "AMD RDNA2 ISA",
    },
    Target {
        name: "gfx1100",
        product: "RDNA3 (Navi 31)",
        family: Family::Rdna3,
        guide: "AMD RDNA3 ISA",
    },
    Target {
        name: "gfx1150",
        product: "RDNA3.5 (Strix Point)",
        family: Family::Rdna3,
        guide: "AMD RDNA3.5 ISA",
    },
    Target {
        name: "gfx1200",
        product: "RDNA4 (Navi 44)",
        family: Family::Rdna4,
        guide: "AMD RDNA4 ISA",
    },
];

/// The `arch` parameter every amdgcn op takes (default [`DEFAULT`]).
pub const ARCH: ParamSpec = ParamSpec {
    name: "arch",
    kind: ParamKind::Text,
    default: ParamDefault::Text(DEFAULT),
    doc: "AMD target (LLVM processor, --offload-arch): gfx900, gfx90a, gfx942, gfx950, gfx1030, \
          gfx1100, gfx1150 or gfx1200; default gfx1030",
};

/// Where the per-target rules come from, for diagnostics.
pub const SOURCE: &str = "LLVM AMDGPUUsage, Processors; LLVM AMDGPUModifierSyntax, DPP Modifiers";

fn names(filter: impl Fn(&Target) -> bool) -> String {
    TARGETS
        .iter()
        .filter(|t| filter(t))
        .map(|t| t.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Target {
    /// Whether the target is GFX10 or later (RDNA).
    pub fn is_gfx10_plus(self) -> bool {
        matches!(self.family, Family::Rdna2 | Family::Rdna3 | Family::Rdna4)
    }

    /// Whether the target runs waves of `lanes` lanes: GFX9 and CDNA wave64 only, GFX10+ wave32
    /// and wave64 (LLVM AMDGPUUsage, Processors: the `wavefrontsize64` feature is GFX10+ only,
    /// GFX9 always runs wave64).
    pub fn supports_wave(self, lanes: usize) -> bool {
        lanes == 64 || (lanes == 32 && self.is_gfx10_plus())
    }

    /// Whether `ds_permute_b32` / `ds_bpermute_b32` take the lane index MOD 32 on wave64: RDNA3
    /// and RDNA3.5 ("the destination lane is MOD 32 regardless of wave size", RDNA3 / RDNA3.5
    /// ISA, DS_PERMUTE_B32 / DS_BPERMUTE_B32). GFX9, CDNA and RDNA4 address the whole wave.
    pub fn permute_mod32(self) -> bool {
        self.family == Family::Rdna3
    }

    /// How the target's guide resolves a `ds_permute_b32` collision. RDNA3, RDNA3.5 and RDNA4
    /// say in prose "it is not deterministic which source lane writes" (their pseudo-code's
    /// comment says the highest lane wins); CDNA4 says "standard LDS arbitration rules determine
    /// which write wins". The other guides give only the pseudo-code's lane order.
    pub fn collision(self) -> Collision {
        match self.family {
            Family::Rdna3 | Family::Rdna4 => Collision::NotDeterministic(
                "the guide's prose says it is not deterministic which source lane writes, while \
                 its pseudo-code comment says the highest lane wins",
            ),
            Family::Cdna4 => Collision::NotDeterministic(
                "the guide says standard LDS arbitration rules determine which write wins, while \
                 the pseudo-code loops over lanes in order (the highest lane last)",
            ),
            Family::Gfx9 | Family::Cdna | Family::Rdna2 => Collision::PseudoCode,
        }
    }

    /// Whether the target has DPP control `ctrl` (LLVM AMDGPUModifierSyntax: `dpp_ctrl` for
    /// GFX8/9, `dpp32_ctrl` for GFX90A+, `dpp16_ctrl` and `dpp8` for GFX10+).
    pub fn has_dpp(self, ctrl: DppCtrl) -> bool {
        match ctrl {
            DppCtrl::WaveShl
            | DppCtrl::WaveShr
            | DppCtrl::WaveRol
            | DppCtrl::WaveRor
            | DppCtrl::RowBcast15
            | DppCtrl::RowBcast31 => !self.is_gfx10_plus(),
            DppCtrl::RowShare(_) => self.is_gfx10_plus(),
            // row_newbcast:1..15 (GFX90A+): row_share's encoding and meaning, CDNA's spelling.
            DppCtrl::RowNewBcast(_) => matches!(self.family, Family::Cdna | Family::Cdna4),
            DppCtrl::RowXmask(_) | DppCtrl::Dpp8(_) => self.is_gfx10_plus(),
            _ => true,
        }
    }

    /// Every target that has `ctrl`, as `gfx900, gfx90a, …`.
    pub fn targets_with(ctrl: DppCtrl) -> String {
        names(|t| t.has_dpp(ctrl))
    }
}

/// The target for a DPP control typed before targets existed: gfx900 when the default target
/// lacks the control and GFX9 has it (`row_bcast:15/31`, `wave_shl/shr/rol/ror`), else `None`
/// (the default serves). Used by [`crate::scenario::Scenario::from_json`] for old links.
pub fn legacy_target(dpp_ctrl: &str) -> Option<&'static str> {
    let ctrl = DppCtrl::parse(dpp_ctrl).ok()?;
    let default = parse(DEFAULT).ok()?;
    let gfx9 = parse("gfx900").ok()?;
    (!default.has_dpp(ctrl) && gfx9.has_dpp(ctrl)).then_some(gfx9.name)
}

/// Parses a target name (`gfx942`, `GFX942`; surrounding spaces ignored).
///
/// # Errors
/// [`InputError`] on field `arch` listing the known targets.
pub fn parse(text: &str) -> Result<Target, InputError> {
    let t = text.trim().to_ascii_lowercase();
    TARGETS
        .iter()
        .copied()
        .find(|k| k.name == t)
        .ok_or_else(|| {
            InputError::new(
                "arch",
                format!(
                    "`{text}` is not a known AMD target; allowed: {}",
                    names(|_| true)
                ),
            )
        })
}

/// The op's target, checked against its wave size.
///
/// # Errors
/// [`InputError`] on field `arch` for an unknown target; on field `lanes` when the target does
/// not run waves of that size ("gfx942 runs wave64 only; wave32 exists on gfx1030, …").
pub fn target(input: &OpInput) -> Result<Target, InputError> {
    let t = parse(input.params.text("arch")?)?;
    if !t.supports_wave(input.lanes) {
        return Err(InputError::new(
            "lanes",
            format!(
                "{} ({}) runs wave64 only, got {} lanes; wave{} exists on {} ({SOURCE})",
                t.name,
                t.product,
                input.lanes,
                input.lanes,
                names(|k| k.supports_wave(input.lanes))
            ),
        ));
    }
    Ok(t)
}

/// Refuses a DPP control the target lacks.
///
/// # Errors
/// [`InputError`] on field `dpp_ctrl`: "row_bcast:15 does not exist on gfx1100; it exists on
/// gfx900, gfx90a, gfx942, gfx950".
pub fn check_dpp(t: Target, ctrl: DppCtrl) -> Result<(), InputError> {
    if t.has_dpp(ctrl) {
        return Ok(());
    }
    Err(InputError::new(
        "dpp_ctrl",
        format!(
            "{ctrl} does not exist on {} ({}); it exists on {} (LLVM AMDGPUModifierSyntax, DPP \
             Modifiers)",
            t.name,
            t.product,
            Target::targets_with(ctrl)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generations() {
        let gfx900 = parse("GFX900").unwrap();
        let gfx942 = parse(" gfx942 ").unwrap();
        let gfx1100 = parse("gfx1100").unwrap();
        assert!(!gfx900.supports_wave(32) && gfx900.supports_wave(64));
        assert!(gfx1100.supports_wave(32) && gfx1100.supports_wave(64));
        assert!(gfx900.has_dpp(DppCtrl::RowBcast15) && !gfx1100.has_dpp(DppCtrl::RowBcast15));
        assert!(
            !gfx900.has_dpp(DppCtrl::RowNewBcast(3)) && gfx942.has_dpp(DppCtrl::RowNewBcast(3))
        );
        assert!(!gfx942.has_dpp(DppCtrl::RowShare(3)) && !gfx1100.has_dpp(DppCtrl::RowNewBcast(3)));
        assert!(gfx1100.permute_mod32() && !parse("gfx1200").unwrap().permute_mod32());
        assert_eq!(
            Target::targets_with(DppCtrl::WaveShl),
            "gfx900, gfx90a, gfx942, gfx950"
        );
        assert!(parse("gfx803").unwrap_err().message.contains("gfx1200"));
    }
}
