//! `ds_swizzle_b32`: a lane permutation within groups of 32 (or 4) lanes, chosen by the 16-bit
//! instruction `offset`.
//!
//! Source: seed 003 (the AMD ISA's ds_swizzle_b32 "Semantics" text and pseudo-code). Four modes by
//! `offset`: FFT (`offset ≥ 0xe000`), rotate (`0xc000..0xe000`), quad permute (`offset[15] = 1`)
//! and bitmask (`offset[15] = 0`). Every mode works on each group of 32 lanes (`j |= i & 0x20`),
//! so wave32 and wave64 share the rule. A source lane that is not valid (inactive) gives 0:
//! `thread_out[i] = thread_valid[j] ? thread_in[j] : 0`.
//!
//! Two defects in the seed's pseudo-code, corrected to what its own examples show
//! (semantics.md "Known defects"):
//! * rotate: `j = (i & mask) | ((i + rotate) & ~mask)` omits the wrap within 32 lanes; the
//!   "rotate left by 1" example puts lane 0's value in lane 31, so we use
//!   `((i + rotate) & ~mask) & 0x1f`;
//! * FFT: `reverse_bits(i & 0x1f)` reverses the low 5 bits (the 0x00 example sends lane 1 to
//!   lane 16), not a whole register.

use crate::args::{Arg, Role};
use crate::error::InputError;
use crate::gather::{gather, Pick};
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::Diagnostic;

use super::{TYPES_B32, TYPE_NOTE_B32};

const RULE_SOURCE: &str = "seed 003 (AMD ISA ds_swizzle_b32, Semantics and pseudo-code)";

/// The AMD `ds_swizzle_b32` operation.
pub const OPS: &[OpSpec] = &[OpSpec {
    dialect: Dialect::Amdgcn,
    name: "ds_swizzle_b32",
    // HIP's wrappers (ROCm amd_warp_functions.h: `__hip_ds_swizzle(src, pattern)` calls the
    // builtin with its arguments unchanged; the `f` form bit-casts a float through it).
    aliases: &[
        "ds_swizzle",
        "__builtin_amdgcn_ds_swizzle",
        "__hip_ds_swizzle",
        "__hip_ds_swizzlef",
    ],
    proto: Proto::returns("int")
        .call("__builtin_amdgcn_ds_swizzle")
        .note("ds_swizzle_b32 vdst, vaddr offset:offset16"),
    args: &[
        Arg::operand("src", "int"),
        Arg::immediate(
            "pattern",
            "int",
            Role::Control,
            ParamSpec {
                name: "offset",
                kind: ParamKind::Int {
                    min: 0,
                    max: 0xffff,
                },
                default: ParamDefault::Int(0x041f),
                doc:
                    "16-bit swizzle pattern (offset1:offset0), 0..=0xffff; default 0x041f = SWAPX1",
            },
        ),
    ],
    rule: "Per group of 32 lanes, lane i reads lane j chosen by offset: FFT (offset ≥ 0xe000, \
           mask = offset[4:0]): j = (reverse5(i & 0x1f) >> popcount(mask)) | (i & mask); rotate \
           (0xc000 ≤ offset < 0xe000): rotate = offset[9:5], negated when offset[10] = 1 (right), \
           mask = offset[4:0], j = (i & mask) | (((i + rotate) & ~mask) & 0x1f); quad permute \
           (offset[15] = 1): lane k of each group of 4 reads lane offset[2k+1:2k] of it; bitmask \
           (offset[15] = 0): j = ((i & and_mask) | or_mask) ^ xor_mask with and = offset[4:0], \
           or = offset[9:5], xor = offset[14:10]. An inactive source lane gives 0 \
           (thread_valid[j] ? thread_in[j] : 0). The seed's rotate pseudo-code lacks the `& 0x1f` \
           wrap its examples show, and its reverse_bits reverses the low 5 bits: both follow the \
           examples.",
    source: RULE_SOURCE,
    settings: &[super::arch::ARCH],
    types: TYPES_B32,
    type_note: TYPE_NOTE_B32,
    kind: OpKind::Lanes,
    run: run_swizzle,
}];

/// A decoded `ds_swizzle_b32` offset (seed 003).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwizzleMode {
    /// `offset ≥ 0xe000`: FFT decomposition with `mask = offset[4:0]`.
    Fft {
        /// offset\[4:0\].
        mask: u32,
    },
    /// `0xc000 ≤ offset < 0xe000`: rotate within 32 lanes.
    Rotate {
        /// offset\[9:5\], lanes.
        amount: u32,
        /// offset\[10\]: rotate right (towards higher lanes reading lower ones).
        right: bool,
        /// offset\[4:0\]: lane bits kept from the caller.
        mask: u32,
    },
    /// `offset[15] = 1`: lane k of each group of 4 reads lane `sel[k]` of the group.
    Quad {
        /// offset\[1:0\], \[3:2\], \[5:4\], \[7:6\].
        sel: [u32; 4],
    },
    /// `offset[15] = 0`: `j = ((i & and_mask) | or_mask) ^ xor_mask` within 32 lanes.
    Bitmask {
        /// offset\[4:0\].
        and_mask: u32,
        /// offset\[9:5\].
        or_mask: u32,
        /// offset\[14:10\].
        xor_mask: u32,
    },
}

impl SwizzleMode {
    /// Decodes a 16-bit offset (only the low 16 bits are read).
    pub fn decode(offset: u32) -> Self {
        let offset = offset & 0xffff;
        let bits = |lo: u32, n: u32| (offset >> lo) & ((1 << n) - 1);
        if offset >= 0xe000 {
            SwizzleMode::Fft { mask: bits(0, 5) }
        } else if offset >= 0xc000 {
            SwizzleMode::Rotate {
                amount: bits(5, 5),
                right: bits(10, 1) == 1,
                mask: bits(0, 5),
            }
        } else if bits(15, 1) == 1 {
            SwizzleMode::Quad {
                sel: [bits(0, 2), bits(2, 2), bits(4, 2), bits(6, 2)],
            }
        } else {
            SwizzleMode::Bitmask {
                and_mask: bits(0, 5),
                or_mask: bits(5, 5),
                xor_mask: bits(10, 5),
            }
        }
    }

    /// The lane that lane `lane` reads (always in the caller's group of 32, so inside any wave of
    /// 32 or 64 lanes).
    pub fn source(self, lane: usize) -> usize {
        let i = lane as u32;
        let group = i & 0x20;
        let j = match self {
            SwizzleMode::Fft { mask } => {
                let rev = (i & 0x1f).reverse_bits() >> 27; // reverse the low 5 bits
                (rev >> mask.count_ones()) | (i & mask)
            }
            SwizzleMode::Rotate {
                amount,
                right,
                mask,
            } => {
                let moved = if right {
                    i.wrapping_sub(amount)
                } else {
                    i.wrapping_add(amount)
                };
                (i & mask) | ((moved & !mask) & 0x1f)
            }
            SwizzleMode::Quad { sel } => (i & !3 & 0x1f) + sel[(i & 3) as usize],
            SwizzleMode::Bitmask {
                and_mask,
                or_mask,
                xor_mask,
            } => (((i & 0x1f) & and_mask) | or_mask) ^ xor_mask,
        };
        (j | group) as usize
    }

    /// One line naming the mode and its fields, for the page and the CLI.
    pub fn describe(self) -> String {
        match self {
            SwizzleMode::Fft { mask } => format!("FFT mode, mask 0x{mask:02x}"),
            SwizzleMode::Rotate {
                amount,
                right,
                mask,
            } => format!(
                "rotate mode, {} by {amount}, mask 0x{mask:02x}",
                if right { "right" } else { "left" }
            ),
            SwizzleMode::Quad { sel } => format!(
                "quad permute mode, each group of 4 reads lanes [{},{},{},{}]",
                sel[0], sel[1], sel[2], sel[3]
            ),
            SwizzleMode::Bitmask {
                and_mask,
                or_mask,
                xor_mask,
            } => format!(
                "bitmask mode, and_mask 0x{and_mask:02x}, or_mask 0x{or_mask:02x}, xor_mask 0x{xor_mask:02x}"
            ),
        }
    }
}

fn run_swizzle(input: &OpInput) -> Result<OpOutput, InputError> {
    super::arch::target(input)?;
    let offset = input.params.int("offset")?;
    let offset = u32::try_from(offset)
        .ok()
        .filter(|o| *o <= 0xffff)
        .ok_or_else(|| InputError::out_of_range("offset", offset, 0, 0xffff))?;
    let mode = SwizzleMode::decode(offset);
    let results = gather(
        input,
        |i| Pick::Lane(mode.source(i)),
        |_, j| {
            Pick::Zero(format!(
                "source lane {j} is inactive: thread_valid[{j}] is false, so 0 (seed 003 pseudo-code)"
            ))
        },
    );
    let mut diagnostics = vec![Diagnostic::info(
        format!("offset 0x{offset:04x}: {}", mode.describe()),
        RULE_SOURCE,
    )];
    if matches!(mode, SwizzleMode::Fft { .. }) {
        diagnostics.push(Diagnostic::info(
            "reverse_bits reverses the low 5 bits of the lane id, as the seed's FFT examples show",
            "semantics.md Known defects; seed 003 FFT examples",
        ));
    }
    if matches!(mode, SwizzleMode::Rotate { .. }) {
        diagnostics.push(Diagnostic::info(
            "rotate wraps within 32 lanes ((i + rotate) & ~mask) & 0x1f, as the seed's examples show; \
             its pseudo-code omits the & 0x1f",
            "semantics.md Known defects; seed 003 rotate examples",
        ));
    }
    Ok(OpOutput {
        results,
        diagnostics,
    })
}
