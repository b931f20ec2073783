//! DPP (data-parallel primitives) row/bank machinery, shared by AMD `mov_dpp` / `update_dpp` and
//! MetaX `__builtin_mxc_mov_shfl` / `update_shfl` (which are DPP row operations on a 64-lane warp,
//! semantics.md "MetaX MACA builtins").
//!
//! Geometry: a row is 16 lanes (row r = lanes 16r..16r+15), a bank is 4 lanes within a row
//! (bank b of every row = lanes with `(lane >> 2) & 3 == b`). `row_mask` bit r enables row r,
//! `bank_mask` bit b enables bank b (seed 002 §3.4.1 RMSK/BMSK; AMD ISA DPP).
//!
//! Sources: semantics.md "AMD DPP" (the control table, from LLVM AMDGPUModifierSyntax and the
//! AMD ISA), the `dpp_ctrl` field encoding of LLVM's `SIDefines.h` (`DppCtrl`), and seed 002
//! §3.4.1–3.4.2 for MetaX. Per lane of an enabled row and bank: an invalid source (out of range
//! for the control, or an inactive lane) writes zero or keeps the destination, chosen by the
//! caller's bound-control flag; a lane of a disabled row or bank is not written at all.

use std::fmt;

use crate::error::InputError;
use crate::op::OpInput;
use crate::params::parse_int;
use crate::result::{Diagnostic, LaneResult, Source};
use crate::value::Value;

/// Lanes per DPP row.
pub const ROW: usize = 16;
/// Lanes per DPP bank.
pub const BANK: usize = 4;

/// The accepted `dpp_ctrl` forms, for error messages and the reference view.
pub const DPP_CTRL_FORMS: &str = "quad_perm:[a,b,c,d] (each 0..3), row_shl:n, row_shr:n, \
     row_ror:n (n in 1..15), wave_shl:1, wave_shr:1, wave_rol:1, wave_ror:1, row_mirror, \
     row_half_mirror, row_bcast:15, row_bcast:31, row_share:n, row_xmask:n (n in 0..15), \
     row_newbcast:n (n in 1..15), \
     dpp8:[s0,s1,s2,s3,s4,s5,s6,s7] (each 0..7)";

/// One DPP control (LLVM AMDGPUModifierSyntax spelling in [`fmt::Display`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DppCtrl {
    /// `quad_perm:[a,b,c,d]`: lane k of each group of 4 reads lane `sel[k]` of it.
    QuadPerm([u8; 4]),
    /// `row_shl:n` (1..=15): lane i reads i + n within its row.
    RowShl(u8),
    /// `row_shr:n` (1..=15): lane i reads i − n within its row.
    RowShr(u8),
    /// `row_ror:n` (1..=15): rotate right by n within the row.
    RowRor(u8),
    /// `wave_shl:1`: lane i reads i + 1 (GFX8/9).
    WaveShl,
    /// `wave_shr:1`: lane i reads i − 1 (GFX8/9).
    WaveShr,
    /// `wave_rol:1`: lane i reads (i + 1) mod W (GFX8/9).
    WaveRol,
    /// `wave_ror:1`: lane i reads (i − 1) mod W (GFX8/9).
    WaveRor,
    /// `row_mirror`: lane i reads 15 − i within its row.
    RowMirror,
    /// `row_half_mirror`: lane i reads 7 − i within its half-row.
    RowHalfMirror,
    /// `row_bcast:15`: lane 15 of the previous row (GFX8/9); row 0 has no source.
    RowBcast15,
    /// `row_bcast:31`: lane 31 (GFX8/9); rows 0–1 have no source.
    RowBcast31,
    /// `row_share:n` (0..=15): lane n of the caller's row (GFX10+). MetaX calls this "Row
    /// Broadcast" (seed 002 §3.4.1: `src.thread[(n&0x30) + mode[3:0]]`).
    RowShare(u8),
    /// `row_newbcast:n` (1..=15): GFX90A+ (CDNA) spelling of the same encoding as `row_share:n`
    /// (0x150 + n), lane n of the caller's row (LLVM AMDGPUModifierSyntax, DPP Modifiers).
    RowNewBcast(u8),
    /// `row_xmask:n` (0..=15): lane (i & 15) ^ n of the caller's row (GFX10+).
    RowXmask(u8),
    /// `dpp8:[s0..s7]`: lane k of each group of 8 reads lane `sel[k]` of it (GFX10+).
    Dpp8([u8; 8]),
}

fn ctrl_error(text: &str, why: &str) -> InputError {
    InputError::new(
        "dpp_ctrl",
        format!("`{text}` is not a DPP control ({why}); allowed: {DPP_CTRL_FORMS}"),
    )
}

/// Parses `[a,b,…]` with exactly `N` items, each in `0..=max`.
fn parse_list<const N: usize>(body: &str, max: u8, text: &str) -> Result<[u8; N], InputError> {
    let inner = body
        .trim()
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| ctrl_error(text, "the selectors are written in brackets"))?;
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    if items.len() != N {
        return Err(ctrl_error(
            text,
            &format!("needs exactly {N} selectors, got {}", items.len()),
        ));
    }
    let mut out = [0u8; N];
    for (slot, item) in out.iter_mut().zip(&items) {
        *slot = parse_int(item)
            .and_then(|v| u8::try_from(v).ok())
            .filter(|v| *v <= max)
            .ok_or_else(|| ctrl_error(text, &format!("selector `{item}` must be in 0..={max}")))?;
    }
    Ok(out)
}

fn parse_n(body: &str, min: u8, max: u8, text: &str) -> Result<u8, InputError> {
    parse_int(body)
        .and_then(|v| u8::try_from(v).ok())
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| ctrl_error(text, &format!("the count must be in {min}..={max}")))
}

impl DppCtrl {
    /// Parses a control in LLVM's modifier syntax (`row_shl:3`, `quad_perm:[3,2,1,0]`, …); ASCII
    /// case and spaces around the separators are ignored, nothing else is.
    ///
    /// # Errors
    /// [`InputError`] on field `dpp_ctrl` listing [`DPP_CTRL_FORMS`].
    pub fn parse(text: &str) -> Result<Self, InputError> {
        // A numeric code, as real kernels pass it (`__builtin_amdgcn_mov_dpp(v, 0x111, …)`).
        if let Some(code) = crate::params::parse_int(text.trim()) {
            return u32::try_from(code)
                .ok()
                .and_then(Self::from_encoding)
                .ok_or_else(|| ctrl_error(text, "not a dpp_ctrl code of the AMD ISA"));
        }
        let t = text.trim().to_ascii_lowercase();
        let (name, arg) = match t.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (t.as_str(), None),
        };
        let one = |ctrl: DppCtrl| match arg {
            Some("1") => Ok(ctrl),
            _ => Err(ctrl_error(text, "the wave shifts take exactly `:1`")),
        };
        let n = |min: u8, max: u8| match arg {
            Some(a) => parse_n(a, min, max, text),
            None => Err(ctrl_error(text, "a count is needed after `:`")),
        };
        match name {
            "quad_perm" => Ok(DppCtrl::QuadPerm(parse_list::<4>(
                arg.unwrap_or(""),
                3,
                text,
            )?)),
            "dpp8" => Ok(DppCtrl::Dpp8(parse_list::<8>(arg.unwrap_or(""), 7, text)?)),
            "row_shl" => Ok(DppCtrl::RowShl(n(1, 15)?)),
            "row_shr" => Ok(DppCtrl::RowShr(n(1, 15)?)),
            "row_ror" => Ok(DppCtrl::RowRor(n(1, 15)?)),
            "row_share" => Ok(DppCtrl::RowShare(n(0, 15)?)),
            "row_newbcast" => Ok(DppCtrl::RowNewBcast(n(1, 15)?)),
            "row_xmask" => Ok(DppCtrl::RowXmask(n(0, 15)?)),
            "wave_shl" => one(DppCtrl::WaveShl),
            "wave_shr" => one(DppCtrl::WaveShr),
            "wave_rol" => one(DppCtrl::WaveRol),
            "wave_ror" => one(DppCtrl::WaveRor),
            "row_bcast" => match arg {
                Some("15") => Ok(DppCtrl::RowBcast15),
                Some("31") => Ok(DppCtrl::RowBcast31),
                _ => Err(ctrl_error(text, "row_bcast takes 15 or 31")),
            },
            "row_mirror" | "row_half_mirror" if arg.is_some() => Err(ctrl_error(
                text,
                "row_mirror and row_half_mirror take no argument",
            )),
            "row_mirror" => Ok(DppCtrl::RowMirror),
            "row_half_mirror" => Ok(DppCtrl::RowHalfMirror),
            _ => Err(ctrl_error(text, "unknown control")),
        }
    }

    /// The control's 9-bit `dpp_ctrl` field value, the inverse of [`DppCtrl::from_encoding`]
    /// (same table, LLVM `SIDefines.h` `DppCtrl`; `row_newbcast:n` is 0x150 + n); `None` for
    /// `dpp8`, which is not a `dpp_ctrl` value but its own instruction encoding (DPP8).
    pub fn encoding(self) -> Option<u32> {
        let n = |v: u8| u32::from(v & 0xf);
        Some(match self {
            DppCtrl::QuadPerm(s) => s
                .iter()
                .enumerate()
                .fold(0, |acc, (k, v)| acc | (u32::from(*v & 3) << (2 * k))),
            DppCtrl::RowShl(v) => 0x100 + n(v),
            DppCtrl::RowShr(v) => 0x110 + n(v),
            DppCtrl::RowRor(v) => 0x120 + n(v),
            DppCtrl::WaveShl => 0x130,
            DppCtrl::WaveRol => 0x134,
            DppCtrl::WaveShr => 0x138,
            DppCtrl::WaveRor => 0x13c,
            DppCtrl::RowMirror => 0x140,
            DppCtrl::RowHalfMirror => 0x141,
            DppCtrl::RowBcast15 => 0x142,
            DppCtrl::RowBcast31 => 0x143,
            DppCtrl::RowShare(v) | DppCtrl::RowNewBcast(v) => 0x150 + n(v),
            DppCtrl::RowXmask(v) => 0x160 + n(v),
            DppCtrl::Dpp8(_) => return None,
        })
    }

    /// The control for a 9-bit `dpp_ctrl` field value (LLVM `SIDefines.h` `DppCtrl`:
    /// 0x000–0x0FF quad_perm, 0x101–0x10F row_shl, 0x111–0x11F row_shr, 0x121–0x12F row_ror,
    /// 0x130 wave_shl, 0x134 wave_rol, 0x138 wave_shr, 0x13C wave_ror, 0x140 row_mirror,
    /// 0x141 row_half_mirror, 0x142 row_bcast:15, 0x143 row_bcast:31, 0x150–0x15F row_share,
    /// 0x160–0x16F row_xmask). MetaX `mode` uses the same numbers for its subset (seed 002
    /// §3.4.1). `None` for an unused code.
    pub fn from_encoding(code: u32) -> Option<Self> {
        let n = (code & 0xf) as u8;
        Some(match code {
            0x000..=0x0ff => {
                let c = code as u8;
                DppCtrl::QuadPerm([c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3])
            }
            0x101..=0x10f => DppCtrl::RowShl(n),
            0x111..=0x11f => DppCtrl::RowShr(n),
            0x121..=0x12f => DppCtrl::RowRor(n),
            0x130 => DppCtrl::WaveShl,
            0x134 => DppCtrl::WaveRol,
            0x138 => DppCtrl::WaveShr,
            0x13c => DppCtrl::WaveRor,
            0x140 => DppCtrl::RowMirror,
            0x141 => DppCtrl::RowHalfMirror,
            0x142 => DppCtrl::RowBcast15,
            0x143 => DppCtrl::RowBcast31,
            0x150..=0x15f => DppCtrl::RowShare(n),
            0x160..=0x16f => DppCtrl::RowXmask(n),
            _ => return None,
        })
    }

    /// The lane that lane `lane` reads in a wave of `lanes` lanes (semantics.md DPP table), or
    /// `None` when the control gives it no source ("invalid": shifted out of the row or wave,
    /// or a broadcast into row 0 / rows 0–1).
    pub fn source(self, lane: usize, lanes: usize) -> Option<usize> {
        let i = lane;
        let in_row = i & (ROW - 1);
        let row_base = i & !(ROW - 1);
        let j = match self {
            DppCtrl::QuadPerm(sel) => (i & !3) + usize::from(sel[i & 3]),
            DppCtrl::RowShl(n) => {
                let n = usize::from(n);
                if in_row + n > ROW - 1 {
                    return None;
                }
                i + n
            }
            DppCtrl::RowShr(n) => i
                .checked_sub(usize::from(n))
                .filter(|_| in_row >= usize::from(n))?,
            DppCtrl::RowRor(n) => row_base + ((in_row + ROW - usize::from(n) % ROW) % ROW),
            DppCtrl::WaveShl => i + 1,
            DppCtrl::WaveShr => i.checked_sub(1)?,
            DppCtrl::WaveRol => (i + 1) % lanes.max(1),
            DppCtrl::WaveRor => (i + lanes.max(1) - 1) % lanes.max(1),
            DppCtrl::RowMirror => row_base + (ROW - 1 - in_row),
            DppCtrl::RowHalfMirror => (i & !7) + (7 - (i & 7)),
            DppCtrl::RowBcast15 => (i / ROW).checked_mul(ROW)?.checked_sub(1)?,
            DppCtrl::RowBcast31 => {
                if i < 2 * ROW {
                    return None;
                }
                31
            }
            DppCtrl::RowShare(n) | DppCtrl::RowNewBcast(n) => row_base + usize::from(n),
            DppCtrl::RowXmask(n) => row_base + (in_row ^ usize::from(n)),
            DppCtrl::Dpp8(sel) => (i & !7) + usize::from(sel[i & 7]),
        };
        (j < lanes).then_some(j)
    }

    /// Whether the control exists on GFX8/9 only (wave shifts and row broadcasts; LLVM prints
    /// "not supported starting from GFX10") or on GFX10+ only (row_share, row_xmask, dpp8).
    pub fn generation_note(self) -> Option<&'static str> {
        match self {
            DppCtrl::WaveShl
            | DppCtrl::WaveShr
            | DppCtrl::WaveRol
            | DppCtrl::WaveRor
            | DppCtrl::RowBcast15
            | DppCtrl::RowBcast31 => Some("GFX8/GFX9 only (wave64); removed in GFX10"),
            DppCtrl::RowShare(_) | DppCtrl::RowXmask(_) | DppCtrl::Dpp8(_) => {
                Some("GFX10+ only (GFX90A+ spells row_share:1..15 row_newbcast)")
            }
            DppCtrl::RowNewBcast(_) => Some("GFX90A+ (CDNA) only; GFX10+ spells it row_share"),
            _ => None,
        }
    }
}

impl fmt::Display for DppCtrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DppCtrl::QuadPerm(s) => write!(f, "quad_perm:[{},{},{},{}]", s[0], s[1], s[2], s[3]),
            DppCtrl::RowShl(n) => write!(f, "row_shl:{n}"),
            DppCtrl::RowShr(n) => write!(f, "row_shr:{n}"),
            DppCtrl::RowRor(n) => write!(f, "row_ror:{n}"),
            DppCtrl::WaveShl => f.write_str("wave_shl:1"),
            DppCtrl::WaveShr => f.write_str("wave_shr:1"),
            DppCtrl::WaveRol => f.write_str("wave_rol:1"),
            DppCtrl::WaveRor => f.write_str("wave_ror:1"),
            DppCtrl::RowMirror => f.write_str("row_mirror"),
            DppCtrl::RowHalfMirror => f.write_str("row_half_mirror"),
            DppCtrl::RowBcast15 => f.write_str("row_bcast:15"),
            DppCtrl::RowBcast31 => f.write_str("row_bcast:31"),
            DppCtrl::RowShare(n) => write!(f, "row_share:{n}"),
            DppCtrl::RowNewBcast(n) => write!(f, "row_newbcast:{n}"),
            DppCtrl::RowXmask(n) => write!(f, "row_xmask:{n}"),
            DppCtrl::Dpp8(s) => {
                let items: Vec<String> = s.iter().map(u8::to_string).collect();
                write!(f, "dpp8:[{}]", items.join(","))
            }
        }
    }
}

/// Whether `row_mask` (bit r = row r) enables lane `lane`'s row.
pub fn row_enabled(lane: usize, row_mask: u32) -> bool {
    (row_mask >> ((lane / ROW) & 3)) & 1 == 1
}

/// Whether `bank_mask` (bit b = lanes with `(lane >> 2) & 3 == b` in every row) enables `lane`.
pub fn bank_enabled(lane: usize, bank_mask: u32) -> bool {
    (bank_mask >> ((lane / BANK) & 3)) & 1 == 1
}

/// What an enabled lane with an invalid source (out of range, or inactive) gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInvalid {
    /// Write 0 (AMD `bound_ctrl` = true; MetaX `bc` = 0).
    Zero,
    /// Keep the destination (AMD `bound_ctrl` = false; MetaX `bc` = 1).
    Keep,
}

/// One DPP-style call: the control, masks, bound rule and the destination's old contents.
#[derive(Clone, Copy, Debug)]
pub struct DppCall<'a> {
    /// The lane selection.
    pub ctrl: DppCtrl,
    /// Row enable bits (0..=15).
    pub row_mask: u32,
    /// Bank enable bits (0..=15).
    pub bank_mask: u32,
    /// What an invalid source writes.
    pub on_invalid: OnInvalid,
    /// The destination before the op (`old`, `old_val`), one per lane; `None` when the op has no
    /// old operand (`mov_dpp`, `mov_shfl`): a lane that is not written is then undefined.
    pub old: Option<&'a [Value]>,
    /// The vendor's names, for the why texts: the old operand (`old`, `old_val`), the bound flag
    /// with its writing value (`bound_ctrl = 1`, `bc = 0`), and the rule citation.
    pub old_name: &'static str,
    /// How the zeroing flag setting reads, e.g. `bound_ctrl = 1` or `bc = 0`.
    pub zero_setting: &'static str,
    /// How the keeping flag setting reads, e.g. `bound_ctrl = 0` or `bc = 1`.
    pub keep_setting: &'static str,
    /// The rule's document and section.
    pub rule: &'static str,
}

impl DppCall<'_> {
    /// The result of a lane that is not written: the old operand, or undefined without one.
    fn not_written(&self, lane: usize, why: String) -> LaneResult {
        match self.old.and_then(|o| o.get(lane)) {
            Some(v) => LaneResult::old(
                *v,
                format!("{why}: keeps {} ({})", self.old_name, self.rule),
            ),
            None => LaneResult::undefined(
                format!(
                    "{why}: destination not written, and this op has no old operand ({})",
                    self.rule
                ),
                None,
            ),
        }
    }
}

/// Runs a DPP-style call over the warp of `input`.
///
/// Per lane i: inactive → computes nothing; row or bank disabled → not written (old or
/// undefined); source invalid or inactive → 0 or not written, per `on_invalid`; else `src[j]`.
pub fn apply(input: &OpInput, call: &DppCall) -> Vec<LaneResult> {
    let zero = Value::from_bits(input.ty, 0);
    (0..input.lanes)
        .map(|i| {
            if !input.active.contains(i) {
                return LaneResult::inactive();
            }
            if !row_enabled(i, call.row_mask) {
                return call.not_written(i, format!("row {} disabled by the row mask", i / ROW));
            }
            if !bank_enabled(i, call.bank_mask) {
                return call.not_written(
                    i,
                    format!("bank {} disabled by the bank mask", (i / BANK) & 3),
                );
            }
            let (invalid, hint) = match call.ctrl.source(i, input.lanes) {
                Some(j) if input.active.contains(j) => match input.values.get(j) {
                    Some(v) => return LaneResult::lane(*v, j),
                    None => (format!("source lane {j} has no value"), Some(j)),
                },
                Some(j) => (format!("source lane {j} is inactive"), Some(j)),
                None => (format!("{} gives lane {i} no source", call.ctrl), None),
            };
            let mut r = match call.on_invalid {
                OnInvalid::Zero => LaneResult::zero(
                    zero,
                    format!("{invalid}: {} writes 0 ({})", call.zero_setting, call.rule),
                ),
                OnInvalid::Keep => call.not_written(i, format!("{invalid}, {}", call.keep_setting)),
            };
            if r.source == Source::Undefined && r.from.is_none() {
                r.from = hint;
            }
            r
        })
        .collect()
}

/// One warning when some lanes are undefined (a `mov` whose destination was not written), so the
/// page and the CLI show it beside the drawing; `rule` names the document.
pub fn undefined_warning(results: &[LaneResult], rule: &str) -> Option<Diagnostic> {
    let undefined: Vec<usize> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.source == Source::Undefined)
        .map(|(i, _)| i)
        .collect();
    let first = *undefined.first()?;
    Some(Diagnostic::warning(
        format!(
            "{} lane(s) undefined (destination not written, no old operand), e.g. lane {first}",
            undefined.len()
        ),
        rule,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows() {
        assert_eq!(DppCtrl::RowShl(3).source(13, 64), None);
        assert_eq!(DppCtrl::RowShl(3).source(12, 64), Some(15));
        assert_eq!(DppCtrl::RowShr(2).source(17, 64), None);
        assert_eq!(DppCtrl::RowRor(3).source(16, 64), Some(29));
        assert_eq!(DppCtrl::RowBcast15.source(5, 64), None);
        assert_eq!(DppCtrl::RowBcast15.source(40, 64), Some(31));
        assert_eq!(DppCtrl::RowBcast31.source(40, 64), Some(31));
        assert_eq!(DppCtrl::RowBcast31.source(20, 64), None);
        assert_eq!(DppCtrl::WaveShl.source(63, 64), None);
        assert_eq!(DppCtrl::WaveRor.source(0, 64), Some(63));
        assert_eq!(DppCtrl::RowHalfMirror.source(9, 64), Some(14));
        assert_eq!(DppCtrl::RowXmask(5).source(18, 64), Some(23));
        assert_eq!(
            DppCtrl::Dpp8([7, 6, 5, 4, 3, 2, 1, 0]).source(9, 64),
            Some(14)
        );
    }

    #[test]
    fn parse_and_print_round_trip() {
        for text in [
            "quad_perm:[3,2,1,0]",
            "row_shl:1",
            "row_shr:15",
            "row_ror:4",
            "wave_shl:1",
            "wave_ror:1",
            "row_mirror",
            "row_half_mirror",
            "row_bcast:15",
            "row_bcast:31",
            "row_share:0",
            "row_xmask:15",
            "dpp8:[1,0,3,2,5,4,7,6]",
        ] {
            assert_eq!(DppCtrl::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(
            DppCtrl::parse(" Quad_Perm : [0, 1, 2, 3] ").unwrap(),
            DppCtrl::QuadPerm([0, 1, 2, 3])
        );
        for bad in [
            "row_shl:0",
            "row_shl:16",
            "row_shl",
            "wave_shl:2",
            "row_bcast:16",
            "row_mirror:1",
            "quad_perm:[0,1,2]",
            "quad_perm:[0,1,2,4]",
            "dpp8:[0,1,2,3,4,5,6,8]",
            "row_share:16",
            "shl:1",
            "",
        ] {
            let e = DppCtrl::parse(bad).unwrap_err();
            assert_eq!(e.field, "dpp_ctrl");
            assert!(e.message.contains("row_xmask:n"), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn encoding_matches_parsing() {
        assert_eq!(
            DppCtrl::from_encoding(0x1b),
            Some(DppCtrl::QuadPerm([3, 2, 1, 0]))
        );
        assert_eq!(DppCtrl::from_encoding(0x108), Some(DppCtrl::RowShl(8)));
        assert_eq!(DppCtrl::from_encoding(0x140), Some(DppCtrl::RowMirror));
        assert_eq!(DppCtrl::from_encoding(0x157), Some(DppCtrl::RowShare(7)));
        assert_eq!(DppCtrl::from_encoding(0x100), None);
        assert_eq!(DppCtrl::from_encoding(0x131), None);
    }

    #[test]
    fn masks() {
        assert!(row_enabled(20, 0b0010));
        assert!(!row_enabled(20, 0b1101));
        assert!(bank_enabled(20, 0b0010)); // lane 20 = row 1, bank 1
        assert!(!bank_enabled(52, 0b1101));
    }
}
