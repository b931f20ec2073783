//! MACA global-memory builtins (seed 002 §3.1.1–3.1.5): predicated loads and stores of every
//! width and vector view, loads with a fill value, global → shared copies, and the transposing
//! shared loads.
//!
//! The simulated memory is a buffer of little-endian 32-bit words the user sees and edits (param
//! `memory`: a comma list of words, `index` = word w holds w, `zero`, optionally `:N` words;
//! default 256 words = 1 KiB). Addresses are byte addresses into it: lane n accesses
//! `global_addr[n] + offset` (param `global_addr`: a per-lane spec, default `lane*<bytes>`).
//!
//! Exec mask of the predicated forms (§3.1.1 cmp_flag table): a lane executes when it is active
//! and `cmp_operand1 cmp_flag cmp_operand2` holds, negated by `pred_neg` ("将活跃线程掩码取反").
//! The operand row is `cmp_operand1` (the seed's example passes `threadIdx.x`); `cmp_operand2` is
//! a per-lane param (default 32, so `lane < 32` with the default MACA_ICMP_ULT).
//!
//! A lane that does not execute:
//! * `ldg_*_predicator`: `ret0_en = true` → 0 (seed). `ret0_en = false`: the seed does not say;
//!   as in AMD, a lane outside EXEC leaves its destination register unwritten → undefined.
//! * `ldg_*_predicator_ret`: `ret_val` (seed: "非活跃线程的返回值").
//! * `stg_*_predicator`: writes nothing.
//!
//! Vector views: a lane's load or store is `bytes` long and holds `count` elements; the lane row
//! shows element `elem` (param) of each lane's vector, as u8/u16/u32 (u32), i8/i16 (i32,
//! sign-extended) or f16. Stores take the whole vector per lane in `data` (components separated
//! by `:`, e.g. `1:2:3:4`; one item for all lanes; `lane`, `lane+K`, `lane*K` fill every
//! component). The memory after a store is reported in an info diagnostic and returned by
//! [`store`] for the kernel interpreter.

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::lanes::LaneMask;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{parse_int, ParamDefault, ParamKind, ParamSpec};
use crate::result::{Diagnostic, LaneResult, Source};
use crate::value::{Value, ValueType, ValuesSpec};

use super::arch::{self, ArchReq, ARCH_NEW};
use super::compare::Icmp;
use super::operands::lane_values;

/// Element type of a vector view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// Unsigned 8-bit (`v1u8`).
    U8,
    /// Unsigned 16-bit (`v1u16`).
    U16,
    /// Unsigned 32-bit (`v1u32`, `v2u32`, `v4u32`).
    U32,
    /// Signed 8-bit (`v4i8`, `v8i8`, `v16i8`; the `c` views).
    I8,
    /// Signed 16-bit (`v2i16`, `v4i16`, `v8i16`; the `s` views).
    I16,
    /// binary16 (`v2f16`, `v4f16`, `v8f16`; the `h` views).
    F16,
}

impl Elem {
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Elem::U8 | Elem::I8 => 1,
            Elem::U16 | Elem::I16 | Elem::F16 => 2,
            Elem::U32 => 4,
        }
    }

    /// The lane value type the element is shown as.
    pub fn value_type(self) -> ValueType {
        match self {
            Elem::U8 | Elem::U16 | Elem::U32 => ValueType::U32,
            Elem::I8 | Elem::I16 => ValueType::I32,
            Elem::F16 => ValueType::F16,
        }
    }

    /// The element read from little-endian `raw` bits (low `8·bytes` bits used).
    pub fn decode(self, raw: u64) -> Value {
        match self {
            Elem::U8 => Value::from_bits(ValueType::U32, raw & 0xff),
            Elem::U16 => Value::from_bits(ValueType::U32, raw & 0xffff),
            Elem::U32 => Value::from_bits(ValueType::U32, raw & 0xffff_ffff),
            Elem::I8 => Value::from_bits(ValueType::I32, raw as u8 as i8 as i32 as u32 as u64),
            Elem::I16 => Value::from_bits(ValueType::I32, raw as u16 as i16 as i32 as u32 as u64),
            Elem::F16 => Value::from_bits(ValueType::F16, raw & 0xffff),
        }
    }
}

/// One access width and vector view (`b32_v4c`: 4 bytes as four i8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Bytes per lane (1, 2, 4, 8 or 16).
    pub bytes: usize,
    /// Element type.
    pub elem: Elem,
}

impl View {
    /// Elements per lane.
    pub fn count(self) -> usize {
        self.bytes / self.elem.bytes()
    }
}

/// Parses the simulated memory text: a comma list of 32-bit words, or `index[:N]` (word w = w)
/// or `zero[:N]` (N words, default 256).
///
/// # Errors
/// [`InputError`] on `field` for a word that does not parse or fit 32 bits, or N outside 1..=65536.
pub fn parse_memory(text: &str, field: &str) -> Result<Vec<u32>, InputError> {
    let t = text.trim().to_ascii_lowercase();
    let (kind, n) = match t.split_once(':') {
        Some((k, n)) => (k.to_string(), Some(n.to_string())),
        None => (t.clone(), None),
    };
    if kind == "index" || kind == "zero" {
        let words = match n {
            None => 256,
            Some(n) => match parse_int(&n) {
                Some(v @ 1..=65536) => v as usize,
                _ => {
                    return Err(InputError::new(
                        field,
                        format!("`{text}`: the word count after `:` must be in 1..=65536"),
                    ))
                }
            },
        };
        return Ok((0..words)
            .map(|w| if kind == "index" { w as u32 } else { 0 })
            .collect());
    }
    t.split(',')
        .enumerate()
        .map(|(i, s)| match parse_int(s) {
            Some(v) if (i32::MIN as i64..=u32::MAX as i64).contains(&v) => Ok(v as u32),
            _ => Err(InputError::new(
                format!("{field}[{i}]"),
                format!("`{}` is not a 32-bit word (decimal or 0x hex)", s.trim()),
            )),
        })
        .collect()
}

/// Reads `len` bytes at byte address `addr` (little-endian), or `None` if any byte is outside.
pub fn read_bytes(memory: &[u32], addr: i64, len: usize) -> Option<Vec<u8>> {
    (0..len as i64)
        .map(|k| {
            let a = usize::try_from(addr.checked_add(k)?).ok()?;
            memory.get(a / 4).map(|w| (w >> (8 * (a % 4))) as u8)
        })
        .collect()
}

/// Writes `bytes` at byte address `addr`; returns false (and writes nothing) if any byte is
/// outside the buffer.
pub fn write_bytes(memory: &mut [u32], addr: i64, bytes: &[u8]) -> bool {
    if read_bytes(memory, addr, bytes.len()).is_none() {
        return false;
    }
    for (k, b) in bytes.iter().enumerate() {
        let Some(Ok(a)) = addr.checked_add(k as i64).map(usize::try_from) else {
            return false;
        };
        if let Some(w) = memory.get_mut(a / 4) {
            let shift = 8 * (a % 4);
            *w = (*w & !(0xff << shift)) | ((*b as u32) << shift);
        }
    }
    true
}

/// Element `e` of a lane's bytes.
fn element(view: View, bytes: &[u8], e: usize) -> Option<Value> {
    let size = view.elem.bytes();
    let chunk = bytes.get(e * size..(e + 1) * size)?;
    let raw = chunk
        .iter()
        .enumerate()
        .fold(0u64, |acc, (k, b)| acc | ((*b as u64) << (8 * k)));
    Some(view.elem.decode(raw))
}

/// The exec mask of a predicated access: active lanes where `op1 pred op2` holds, flipped by
/// `pred_neg` (within the active lanes).
pub fn predicate_mask(
    active: LaneMask,
    op1: &[u64],
    op2: &[u64],
    pred: Icmp,
    pred_neg: bool,
) -> LaneMask {
    active.iter().fold(LaneMask::none(), |m, n| {
        let holds = match (op1.get(n), op2.get(n)) {
            (Some(a), Some(b)) => pred.holds(*a, *b, 32),
            _ => false,
        };
        if holds != pred_neg {
            m.with(n)
        } else {
            m
        }
    })
}

/// Per-lane effect of a store: lanes in `exec` write their `data` bytes at `addr[n]`, in
/// ascending lane order (a later lane's bytes win where two lanes overlap: the seed does not
/// say; AMD leaves the order of a wave's overlapping stores unspecified). Returns the new memory
/// and the lanes whose write fell outside the buffer (dropped).
pub fn store(
    memory: &[u32],
    exec: LaneMask,
    addr: &[i64],
    data: &[Vec<u8>],
) -> (Vec<u32>, Vec<usize>) {
    let mut out = memory.to_vec();
    let mut faults = Vec::new();
    for n in exec.iter() {
        if let (Some(a), Some(d)) = (addr.get(n), data.get(n)) {
            if !write_bytes(&mut out, *a, d) {
                faults.push(n);
            }
        }
    }
    (out, faults)
}

/// Which predicated family an op belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Load,
    LoadRet,
    Store,
}

const fn view(bytes: usize, elem: Elem) -> View {
    View { bytes, elem }
}

/// The widths and views of §3.1.1–3.1.3, by name suffix.
pub const VIEWS: &[(&str, View)] = &[
    ("b8", view(1, Elem::U8)),
    ("b16", view(2, Elem::U16)),
    ("b32", view(4, Elem::U32)),
    ("b32_v2s", view(4, Elem::I16)),
    ("b32_v2h", view(4, Elem::F16)),
    ("b32_v4c", view(4, Elem::I8)),
    ("b64", view(8, Elem::U32)),
    ("b64_v4s", view(8, Elem::I16)),
    ("b64_v4h", view(8, Elem::F16)),
    ("b64_v8c", view(8, Elem::I8)),
    ("b128", view(16, Elem::U32)),
    ("b128_v8s", view(16, Elem::I16)),
    ("b128_v8h", view(16, Elem::F16)),
    ("b128_v16c", view(16, Elem::I8)),
];

/// The view of a predicated builtin's full name (`__builtin_mxc_ldg_b64_predicator_v4h_ret`).
pub fn view_of(name: &str) -> Option<View> {
    let rest = name
        .strip_prefix("__builtin_mxc_ldg_")
        .or_else(|| name.strip_prefix("__builtin_mxc_stg_"))?;
    let rest = rest.strip_suffix("_ret").unwrap_or(rest);
    let (width, tail) = rest.split_once("_predicator")?;
    let key = if tail.is_empty() {
        width.to_string()
    } else {
        format!("{width}{tail}")
    };
    VIEWS.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn family_of(name: &str) -> Family {
    if name.starts_with("__builtin_mxc_stg_") {
        Family::Store
    } else if name.ends_with("_ret") {
        Family::LoadRet
    } else {
        Family::Load
    }
}

const SOURCE_LDG: &str = "seed 002 §3.1.1 (__builtin_mxc_ldg_*_predicator)";
const SOURCE_STG: &str = "seed 002 §3.1.2 (__builtin_mxc_stg_*_predicator)";
const SOURCE_RET: &str = "seed 002 §3.1.3 (__builtin_mxc_ldg_*_predicator_ret)";

const MEMORY: ParamSpec = ParamSpec {
    name: "memory",
    kind: ParamKind::Text,
    default: ParamDefault::Text("index"),
    doc: "global memory as 32-bit little-endian words: a comma list, `index[:N]` (word w = w) or `zero[:N]`",
};
const OFFSET: ParamSpec = ParamSpec {
    name: "offset",
    kind: ParamKind::Int {
        min: i32::MIN as i64,
        max: i32::MAX as i64,
    },
    default: ParamDefault::Int(0),
    doc: "byte offset added to every lane's global_addr",
};
const RET0_EN: ParamSpec = ParamSpec {
    name: "ret0_en",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "true: lanes that do not execute return 0",
};
const SADDR_FLAG: ParamSpec = ParamSpec {
    name: "saddr_flag",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "hint to keep the address in a scalar register; no effect on the result",
};
const PRED_NEG: ParamSpec = ParamSpec {
    name: "pred_neg",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "true: negate the exec mask computed from the compare",
};
const IS_ASYNC: ParamSpec = ParamSpec {
    name: "is_async",
    kind: ParamKind::Flag,
    default: ParamDefault::Flag(false),
    doc: "true: the program must wait with __builtin_mxc_arrive* itself before using the result",
};
const CMP_OPERAND2: ParamSpec = ParamSpec {
    name: "cmp_operand2",
    kind: ParamKind::PerLaneInt {
        min: i32::MIN as i64,
        max: u32::MAX as i64,
    },
    default: ParamDefault::Int(32),
    doc: "second compare operand, per lane (the operand row is cmp_operand1)",
};
const CMP_FLAG: ParamSpec = ParamSpec {
    name: "cmp_flag",
    kind: ParamKind::Text,
    default: ParamDefault::Text("MACA_ICMP_ULT"),
    doc: "MACA_ICMP_EQ, _NE, _UGT, _UGE, _ULT, _ULE, _SGT, _SGE, _SLT, _SLE",
};
const RET_VAL: ParamSpec = ParamSpec {
    name: "ret_val",
    kind: ParamKind::Text,
    default: ParamDefault::Text("0"),
    doc: "vector returned by lanes that do not execute: components a:b:…, per lane or one for all",
};
const DATA: ParamSpec = ParamSpec {
    name: "data",
    kind: ParamKind::Text,
    default: ParamDefault::Text("lane"),
    doc: "vector each lane stores: components a:b:…, per lane or one for all; lane, lane+K, lane*K fill every component",
};

macro_rules! addr_param {
    ($default:expr) => {
        ParamSpec {
            name: "global_addr",
            kind: ParamKind::Text,
            default: ParamDefault::Text($default),
            doc: "byte address per lane into `memory`: lane*K, lane+K, one value, or a comma list",
        }
    };
}

macro_rules! elem_param {
    ($count:literal) => {
        ParamSpec {
            name: "elem",
            kind: ParamKind::Int {
                min: 0,
                max: $count - 1,
            },
            default: ParamDefault::Int(0),
            doc: "which element of each lane's vector the lane row shows",
        }
    };
}

/// One predicated op. `$w` is the width, `$v` the view suffix ("" or "_v4c"), `$bytes` and
/// `$count` the lane's byte and element counts, `$ret` the returned vector type.
macro_rules! pred_ops {
    ($w:literal, $v:literal, $bytes:literal, $count:literal, $ret:literal) => {
        [
            OpSpec {
                dialect: Dialect::Maca,
                name: concat!("__builtin_mxc_ldg_", $w, "_predicator", $v),
                aliases: &[],
                proto: Proto::returns($ret),
                args: &[Arg::per_thread("global_addr", "void *", Role::Address, addr_param!(concat!("lane*", $bytes)), PER_LANE), Arg::immediate("offset", "int", Role::Control, OFFSET), Arg::immediate("ret0_en", "bool", Role::Control, RET0_EN), Arg::immediate("saddr_flag", "bool", Role::Control, SADDR_FLAG), Arg::immediate("pred_neg", "bool", Role::Control, PRED_NEG), Arg::immediate("is_async", "bool", Role::Control, IS_ASYNC), Arg::operand("cmp_operand1", "unsigned"), Arg::per_thread("cmp_operand2", "unsigned", Role::Data, CMP_OPERAND2, PER_LANE), Arg::immediate("cmp_flag", "int", Role::Control, CMP_FLAG)],
                rule: concat!(
                    "Loads ", $bytes, " bytes per lane from global_addr + offset. A lane executes when it \
                     is active and cmp_operand1 cmp_flag cmp_operand2 holds (negated by pred_neg). A lane \
                     that does not execute returns 0 if ret0_en, otherwise its register is not written \
                     (undefined: the seed is silent; AMD leaves registers of lanes outside EXEC \
                     unchanged). The row shows element `elem` of the ", $ret, ". An address outside the \
                     buffer is a fault: undefined, with a warning."
                ),
                source: SOURCE_LDG,
                settings: &[MEMORY, elem_param!($count)],
                types: &[ValueType::U32],
                type_note: "the operand row is cmp_operand1 (unsigned)",
                kind: OpKind::Lanes,
                run: |input| run_predicated(concat!("__builtin_mxc_ldg_", $w, "_predicator", $v), input),
            },
            OpSpec {
                dialect: Dialect::Maca,
                name: concat!("__builtin_mxc_ldg_", $w, "_predicator", $v, "_ret"),
                aliases: &[],
                proto: Proto::returns($ret),
                args: &[Arg::per_thread("global_addr", "void *", Role::Address, addr_param!(concat!("lane*", $bytes)), PER_LANE), Arg::immediate("offset", "int", Role::Control, OFFSET), Arg::per_thread("ret_val", $ret, Role::Old, RET_VAL, PER_LANE), Arg::immediate("saddr_flag", "bool", Role::Control, SADDR_FLAG), Arg::immediate("pred_neg", "bool", Role::Control, PRED_NEG), Arg::immediate("is_async", "bool", Role::Control, IS_ASYNC), Arg::operand("cmp_operand1", "unsigned"), Arg::per_thread("cmp_operand2", "unsigned", Role::Data, CMP_OPERAND2, PER_LANE), Arg::immediate("cmp_flag", "int", Role::Control, CMP_FLAG)],
                rule: concat!(
                    "Loads ", $bytes, " bytes per lane from global_addr + offset in lanes where \
                     cmp_operand1 cmp_flag cmp_operand2 holds (negated by pred_neg); every other active \
                     lane returns ret_val (seed: 非活跃线程的返回值). The row shows element `elem`."
                ),
                source: SOURCE_RET,
                settings: &[MEMORY, elem_param!($count)],
                types: &[ValueType::U32],
                type_note: "the operand row is cmp_operand1 (unsigned)",
                kind: OpKind::Lanes,
                run: |input| run_predicated(concat!("__builtin_mxc_ldg_", $w, "_predicator", $v, "_ret"), input),
            },
            OpSpec {
                dialect: Dialect::Maca,
                name: concat!("__builtin_mxc_stg_", $w, "_predicator", $v),
                aliases: &[],
                proto: Proto::returns("void"),
                args: &[Arg::per_thread("global_addr", "int *", Role::Address, addr_param!(concat!("lane*", $bytes)), PER_LANE), Arg::immediate("offset", "int", Role::Control, OFFSET), Arg::per_thread("data", $ret, Role::Data, DATA, PER_LANE), Arg::immediate("saddr_flag", "bool", Role::Control, SADDR_FLAG), Arg::immediate("pred_neg", "bool", Role::Control, PRED_NEG), Arg::immediate("is_async", "bool", Role::Control, IS_ASYNC), Arg::operand("cmp_operand1", "unsigned"), Arg::per_thread("cmp_operand2", "unsigned", Role::Data, CMP_OPERAND2, PER_LANE), Arg::immediate("cmp_flag", "int", Role::Control, CMP_FLAG)],
                rule: concat!(
                    "Stores each executing lane's ", $bytes, "-byte data at global_addr + offset. A lane \
                     executes when it is active and cmp_operand1 cmp_flag cmp_operand2 holds (negated by \
                     pred_neg); others write nothing. Overlapping lanes apply in ascending lane order \
                     (the seed does not say). The row shows element `elem` of what each lane stored; \
                     the new memory is listed in a note. An address outside the buffer is a fault: the \
                     lane's write is dropped, with a warning."
                ),
                source: SOURCE_STG,
                settings: &[MEMORY, elem_param!($count)],
                types: &[ValueType::U32],
                type_note: "the operand row is cmp_operand1 (unsigned)",
                kind: OpKind::Lanes,
                run: |input| run_predicated(concat!("__builtin_mxc_stg_", $w, "_predicator", $v), input),
            },
        ]
    };
}

const P_B8: [OpSpec; 3] = pred_ops!("b8", "", 1, 1, "v1u8");
const P_B16: [OpSpec; 3] = pred_ops!("b16", "", 2, 1, "v1u16");
const P_B32: [OpSpec; 3] = pred_ops!("b32", "", 4, 1, "v1u32");
const P_B32_V2S: [OpSpec; 3] = pred_ops!("b32", "_v2s", 4, 2, "v2i16");
const P_B32_V2H: [OpSpec; 3] = pred_ops!("b32", "_v2h", 4, 2, "v2f16");
const P_B32_V4C: [OpSpec; 3] = pred_ops!("b32", "_v4c", 4, 4, "v4i8");
const P_B64: [OpSpec; 3] = pred_ops!("b64", "", 8, 2, "v2u32");
const P_B64_V4S: [OpSpec; 3] = pred_ops!("b64", "_v4s", 8, 4, "v4i16");
const P_B64_V4H: [OpSpec; 3] = pred_ops!("b64", "_v4h", 8, 4, "v4f16");
const P_B64_V8C: [OpSpec; 3] = pred_ops!("b64", "_v8c", 8, 8, "v8i8");
const P_B128: [OpSpec; 3] = pred_ops!("b128", "", 16, 4, "v4u32");
const P_B128_V8S: [OpSpec; 3] = pred_ops!("b128", "_v8s", 16, 8, "v8i16");
const P_B128_V8H: [OpSpec; 3] = pred_ops!("b128", "_v8h", 16, 8, "v8f16");
const P_B128_V16C: [OpSpec; 3] = pred_ops!("b128", "_v16c", 16, 16, "v16i8");

/// The predicated loads, loads with fill value and stores of every width and view (42 ops).
pub const PREDICATED: &[OpSpec] = &[
    P_B8[0],
    P_B8[1],
    P_B8[2],
    P_B16[0],
    P_B16[1],
    P_B16[2],
    P_B32[0],
    P_B32[1],
    P_B32[2],
    P_B32_V2S[0],
    P_B32_V2S[1],
    P_B32_V2S[2],
    P_B32_V2H[0],
    P_B32_V2H[1],
    P_B32_V2H[2],
    P_B32_V4C[0],
    P_B32_V4C[1],
    P_B32_V4C[2],
    P_B64[0],
    P_B64[1],
    P_B64[2],
    P_B64_V4S[0],
    P_B64_V4S[1],
    P_B64_V4S[2],
    P_B64_V4H[0],
    P_B64_V4H[1],
    P_B64_V4H[2],
    P_B64_V8C[0],
    P_B64_V8C[1],
    P_B64_V8C[2],
    P_B128[0],
    P_B128[1],
    P_B128[2],
    P_B128_V8S[0],
    P_B128_V8S[1],
    P_B128_V8S[2],
    P_B128_V8H[0],
    P_B128_V8H[1],
    P_B128_V8H[2],
    P_B128_V16C[0],
    P_B128_V16C[1],
    P_B128_V16C[2],
];

/// Parses a per-lane vector operand (`data`, `ret_val`) into each lane's bytes.
///
/// # Errors
/// [`InputError`] on `field` for a wrong lane count, a wrong component count, or a component that
/// does not parse or fit the element type.
pub fn parse_vectors(
    text: &str,
    view: View,
    lanes: usize,
    field: &str,
) -> Result<Vec<Vec<u8>>, InputError> {
    let t = text.trim();
    let count = view.count();
    let size = view.elem.bytes();
    let encode = |s: &str, f: &str| -> Result<Vec<u8>, InputError> {
        let raw: u64 = match view.elem {
            Elem::F16 => Value::parse(ValueType::F16, s, f)?.bits,
            _ => {
                let v = parse_int(s)
                    .ok_or_else(|| InputError::new(f, format!("`{s}` is not an integer")))?;
                let bits = 8 * size as u32;
                // Signed and unsigned spellings of the same bits are both accepted (-1 = 0xff).
                let (lo, hi) = (-(1i64 << (bits - 1)), (1i64 << bits) - 1);
                if v < lo || v > hi {
                    return Err(InputError::out_of_range(f, v, lo, hi));
                }
                v as u64
            }
        };
        Ok((0..size).map(|k| (raw >> (8 * k)) as u8).collect())
    };
    // `lane`, `lane+K`, `lane*K`: every component of lane n is the lane's number.
    if t.to_ascii_lowercase().starts_with("lane") {
        let rows = ValuesSpec::parse(t)?.materialize(ValueType::I64, lanes)?;
        return rows
            .iter()
            .enumerate()
            .map(|(n, v)| {
                let s = (v.bits as i64).to_string();
                let one = encode(&s, &format!("{field}[{n}]"))?;
                Ok(one.repeat(count))
            })
            .collect();
    }
    let items: Vec<&str> = t.split(',').map(str::trim).collect();
    let per_lane = |item: &str, n: usize| -> Result<Vec<u8>, InputError> {
        let comps: Vec<&str> = item.split(':').map(str::trim).collect();
        let comps = if comps.len() == 1 {
            vec![comps[0]; count]
        } else {
            comps
        };
        if comps.len() != count {
            return Err(InputError::new(
                format!("{field}[{n}]"),
                format!(
                    "needs {count} components separated by `:` (or one for all), got {}",
                    comps.len()
                ),
            ));
        }
        let mut out = Vec::with_capacity(view.bytes);
        for (c, s) in comps.iter().enumerate() {
            out.extend(encode(s, &format!("{field}[{n}].{c}"))?);
        }
        Ok(out)
    };
    match items.len() {
        1 => {
            let one = per_lane(items[0], 0)?;
            Ok(vec![one; lanes])
        }
        n if n == lanes => items.iter().enumerate().map(|(n, s)| per_lane(s, n)).collect(),
        n => Err(InputError::new(
            field,
            format!("needs one vector or exactly {lanes} comma-separated vectors (one per lane), got {n}"),
        )),
    }
}

/// Per-lane byte addresses `global_addr[n] + offset`.
fn addresses(input: &OpInput, name: &str) -> Result<Vec<i64>, InputError> {
    let offset = input.params.int("offset")?;
    Ok(lane_values(input, name, ValueType::I64)?
        .iter()
        .map(|v| (v.bits as i64).saturating_add(offset))
        .collect())
}

fn async_note(
    input: &OpInput,
    diagnostics: &mut Vec<Diagnostic>,
    section: &str,
) -> Result<(), InputError> {
    if input.params.flag("is_async")? {
        diagnostics.push(Diagnostic::info(
            "is_async = true: the access is only complete after a matching __builtin_mxc_arrive* \
             (the program must insert it); in a kernel, using the result earlier reads an \
             undefined value",
            format!("seed 002 §{section}, is_async"),
        ));
    }
    Ok(())
}

fn fault_warning(lanes: &[usize], words: usize, diagnostics: &mut Vec<Diagnostic>, rule: &str) {
    if let Some(first) = lanes.first() {
        diagnostics.push(Diagnostic::warning(
            format!(
                "{} lane(s) access memory outside the {}-byte buffer (first: lane {first}): out-of-bounds access",
                lanes.len(),
                words * 4
            ),
            rule.to_string(),
        ));
    }
}

fn changed_words(before: &[u32], after: &[u32]) -> String {
    let changes: Vec<String> = before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(w, (a, b))| format!("[{w}] 0x{a:08x} → 0x{b:08x}"))
        .collect();
    if changes.is_empty() {
        "no word changed".into()
    } else {
        format!("{} word(s) changed: {}", changes.len(), changes.join(", "))
    }
}

/// Runs predicated builtin `name` (its view and family come from the name).
fn run_predicated(name: &str, input: &OpInput) -> Result<OpOutput, InputError> {
    let view = view_of(name).ok_or_else(|| InputError::new("op", format!("{name} has no view")))?;
    let family = family_of(name);
    let (rule, section) = match family {
        Family::Load => (SOURCE_LDG, "3.1.1"),
        Family::LoadRet => (SOURCE_RET, "3.1.3"),
        Family::Store => (SOURCE_STG, "3.1.2"),
    };
    let memory = parse_memory(input.params.text("memory")?, "memory")?;
    let addr = addresses(input, "global_addr")?;
    let pred = Icmp::parse(input.params.text("cmp_flag")?, "cmp_flag")?;
    let exec = predicated_exec(input)?;
    let e = input.params.int("elem")? as usize;
    let mut diagnostics = Vec::new();
    async_note(input, &mut diagnostics, section)?;
    let not_executed = |n: usize| {
        LaneResult {
        value: None,
        source: Source::Inactive,
        from: None,
        why: Some(format!(
            "lane {n} is active but `cmp_operand1 {} cmp_operand2` (after pred_neg) is false: it does not execute", pred.name()
        )),
    }
    };
    let mut faults = Vec::new();
    let results = match family {
        Family::Store => {
            let data = parse_vectors(input.params.text("data")?, view, input.lanes, "data")?;
            let (after, dropped) = store(&memory, exec, &addr, &data);
            faults = dropped;
            diagnostics.push(Diagnostic::info(
                format!("memory after the store: {}", changed_words(&memory, &after)),
                rule,
            ));
            (0..input.lanes)
                .map(|n| {
                    if !input.active.contains(n) {
                        LaneResult::inactive()
                    } else if !exec.contains(n) {
                        not_executed(n)
                    } else if faults.contains(&n) {
                        LaneResult::undefined(
                            format!(
                                "address {} is outside the {}-byte buffer: the write is dropped",
                                addr.get(n).copied().unwrap_or(0),
                                memory.len() * 4
                            ),
                            None,
                        )
                    } else {
                        match data.get(n).and_then(|d| element(view, d, e)) {
                            Some(v) => LaneResult {
                                value: Some(v),
                                source: Source::Computed,
                                from: None,
                                why: Some(format!(
                                    "stored at byte {}",
                                    addr.get(n).copied().unwrap_or(0)
                                )),
                            },
                            None => LaneResult::undefined("no data for this lane", None),
                        }
                    }
                })
                .collect()
        }
        Family::Load | Family::LoadRet => {
            let ret_val = if family == Family::LoadRet {
                Some(parse_vectors(
                    input.params.text("ret_val")?,
                    view,
                    input.lanes,
                    "ret_val",
                )?)
            } else {
                None
            };
            let ret0 = family == Family::Load && input.params.flag("ret0_en")?;
            (0..input.lanes)
                .map(|n| {
                    if !input.active.contains(n) {
                        return LaneResult::inactive();
                    }
                    if !exec.contains(n) {
                        if let Some(rv) = &ret_val {
                            return match rv.get(n).and_then(|d| element(view, d, e)) {
                                Some(v) => LaneResult::old(v, "predicate false: ret_val is returned (seed §3.1.3)"),
                                None => not_executed(n),
                            };
                        }
                        if ret0 {
                            return LaneResult::zero(
                                Value::from_bits(view.elem.value_type(), 0),
                                "predicate false and ret0_en = true: returns 0 (seed §3.1.1)",
                            );
                        }
                        return LaneResult::undefined(
                            "predicate false and ret0_en = false: the load does not write this lane's \
                             register (the seed is silent; AMD keeps the old register contents)",
                            None,
                        );
                    }
                    let a = addr.get(n).copied().unwrap_or(0);
                    match read_bytes(&memory, a, view.bytes).and_then(|b| element(view, &b, e)) {
                        Some(v) => LaneResult {
                            value: Some(v),
                            source: Source::Computed,
                            from: None,
                            why: Some(format!("loaded from byte {a}")),
                        },
                        None => {
                            faults.push(n);
                            LaneResult::undefined(
                                format!("address {a} (+{} bytes) is outside the {}-byte buffer", view.bytes, memory.len() * 4),
                                None,
                            )
                        }
                    }
                })
                .collect()
        }
    };
    fault_warning(&faults, memory.len(), &mut diagnostics, rule);
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

/// A buffer a builtin changed: the param naming it (`memory` or `shared`), its words before and
/// after the call.
pub type MemoryEffect = (&'static str, Vec<u32>, Vec<u32>);

/// What a store-like builtin does to its memory, for a page that shows the buffer word by word:
/// `Some((param, before, after))` where `param` names the buffer (`memory` = global memory for
/// `stg_*_predicator`, `shared` for `ldg_*_bsm`); `None` for the loads, which change nothing.
/// Computed with the same exec mask and byte rules as running the op (seed 002 §3.1.2, §3.1.4).
///
/// # Errors
/// The [`InputError`]s running the op returns for the same input (a bad word, address, vector).
pub fn memory_effect(name: &str, input: &OpInput) -> Result<Option<MemoryEffect>, InputError> {
    if let Some(bytes) = name
        .strip_prefix("__builtin_mxc_ldg_")
        .and_then(|r| r.strip_suffix("_bsm"))
        .and_then(|w| w.strip_prefix('b'))
        .and_then(|w| w.parse::<usize>().ok())
        .map(|bits| bits / 8)
    {
        let global = parse_memory(input.params.text("memory")?, "memory")?;
        let shared = parse_memory(input.params.text("shared")?, "shared")?;
        let exec = if input.params.flag("pred_neg")? {
            LaneMask(LaneMask::all(input.lanes).0 & !input.active.0)
        } else {
            input.active
        };
        let gaddr = addresses(input, "global_addr")?;
        let saddr = addresses(input, "shared_addr")?;
        let (after, _) = ldg_bsm(&global, &shared, exec, &gaddr, &saddr, bytes);
        return Ok(Some(("shared", shared, after)));
    }
    if family_of(name) != Family::Store {
        return Ok(None);
    }
    let Some(view) = view_of(name) else {
        return Ok(None);
    };
    let memory = parse_memory(input.params.text("memory")?, "memory")?;
    let exec = predicated_exec(input)?;
    let addr = addresses(input, "global_addr")?;
    let data = parse_vectors(input.params.text("data")?, view, input.lanes, "data")?;
    let (after, _) = store(&memory, exec, &addr, &data);
    Ok(Some(("memory", memory, after)))
}

/// The exec mask of a predicated builtin from its params (`cmp_flag`, `cmp_operand2`,
/// `pred_neg`) and the operand row (`cmp_operand1`).
fn predicated_exec(input: &OpInput) -> Result<LaneMask, InputError> {
    let pred = Icmp::parse(input.params.text("cmp_flag")?, "cmp_flag")?;
    let op1: Vec<u64> = input.values.iter().map(|v| v.bits).collect();
    let op2: Vec<u64> = input
        .params
        .ints("cmp_operand2")?
        .iter()
        .map(|v| *v as u64)
        .collect();
    Ok(predicate_mask(
        input.active,
        &op1,
        &op2,
        pred,
        input.params.flag("pred_neg")?,
    ))
}

/// Copies `bytes` per executing lane from `global[gaddr[n]]` to `shared[saddr[n]]`
/// (`__builtin_mxc_ldg_*_bsm`). Returns the new shared memory and the lanes whose source or
/// destination fell outside its buffer (their copy is dropped).
pub fn ldg_bsm(
    global: &[u32],
    shared: &[u32],
    exec: LaneMask,
    gaddr: &[i64],
    saddr: &[i64],
    bytes: usize,
) -> (Vec<u32>, Vec<usize>) {
    let mut out = shared.to_vec();
    let mut faults = Vec::new();
    for n in exec.iter() {
        let copied = match (gaddr.get(n), saddr.get(n)) {
            (Some(g), Some(s)) => {
                read_bytes(global, *g, bytes).is_some_and(|d| write_bytes(&mut out, *s, &d))
            }
            _ => false,
        };
        if !copied {
            faults.push(n);
        }
    }
    (out, faults)
}

const SHARED: ParamSpec = ParamSpec {
    name: "shared",
    kind: ParamKind::Text,
    default: ParamDefault::Text("zero"),
    doc: "shared memory as 32-bit little-endian words: a comma list, `index[:N]` or `zero[:N]`",
};
const MASK: ParamSpec = ParamSpec {
    name: "mask",
    kind: ParamKind::Int {
        min: i64::MIN,
        max: i64::MAX,
    },
    default: ParamDefault::Int(-1),
    doc: "must be -1 (seed: 只能填-1, no meaning yet)",
};

macro_rules! bsm_op {
    ($w:literal, $bytes:literal, $count:literal, $ret:literal) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: concat!("__builtin_mxc_ldg_", $w, "_bsm"),
            aliases: &[],
            proto: Proto::returns($ret),
            args: &[Arg::per_thread("shared_addr", "__shared__ void *", Role::Address, ParamSpec { name: "shared_addr", ..addr_param!(concat!("lane*", $bytes)) }, PER_LANE), Arg::per_thread("global_addr", "void *", Role::Address, addr_param!(concat!("lane*", $bytes)), PER_LANE), Arg::immediate("offset", "int", Role::Control, OFFSET), Arg::immediate("mask", "size_t", Role::Control, MASK), Arg::immediate("ret0_en", "bool", Role::Control, RET0_EN), Arg::immediate("saddr_flag", "bool", Role::Control, SADDR_FLAG), Arg::immediate("pred_neg", "bool", Role::Control, PRED_NEG), Arg::immediate("is_async", "bool", Role::Control, IS_ASYNC)],
            rule: concat!(
                "Each executing lane copies ", $bytes, " bytes from global memory at global_addr + offset \
                 to shared memory at shared_addr + offset (offset is shared by both, seed). Executing = \
                 active, or the inactive lanes when pred_neg. mask must be -1. The return value is only \
                 a flag for __builtin_mxc_barrier_and_wait* (not the data); the row shows element `elem` \
                 of the data each lane copied and a note lists the new shared memory. The copy is \
                 complete only after barrier_and_wait* or __syncthreads()."
            ),
            source: "seed 002 §3.1.4 (__builtin_mxc_ldg_*_bsm)",
            settings: &[MEMORY, SHARED, elem_param!($count)],
            types: &[ValueType::U32],
            type_note: "the operand row is not used (addresses are params)",
            kind: OpKind::Lanes,
            run: |input| run_bsm($bytes, input),
        }
    };
}

/// The `shared_ptr` of the `load_shared_trans` builtins: one 8-byte row per lane.
const SHARED_PTR: ParamSpec = ParamSpec {
    name: "shared_ptr",
    ..addr_param!("lane*8")
};

macro_rules! trans_op {
    ($name:literal, $proto:expr, $args:expr) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: $name,
            aliases: &[],
            proto: $proto,
            args: $args,
            rule: "Loads a 4x16 (16-bit) or 8x16 (8-bit) matrix from shared memory and transposes it \
                   (seed: 从共享内存中加载特定shape的矩阵并进行转置操作). The seed gives no element order, \
                   so the playground does not invent one: every lane's result is shown as unspecified. \
                   Needs xcore1500 or later.",
            source: "seed 002 §3.1.5 (__builtin_mxc_load_shared_trans_*)",
            settings: &[SHARED, ARCH_NEW],
            types: &[ValueType::I64],
            type_note: "the result is int64_t (or v4i16 / v8i8 of the same bits)",
            kind: OpKind::Lanes,
            run: |input| run_trans($name, input),
        }
    };
}

/// `ldg_*_bsm` and `load_shared_trans_*`.
pub const OPS: &[OpSpec] = &[
    bsm_op!("b32", 4, 1, "v1u32"),
    bsm_op!("b64", 8, 2, "v2u32"),
    bsm_op!("b128", 16, 4, "v4u32"),
    trans_op!(
        "__builtin_mxc_load_shared_trans_4x16",
        Proto::returns("int64_t"),
        &[Arg::per_thread(
            "shared_ptr",
            "__shared__ int64_t *",
            Role::Address,
            SHARED_PTR,
            PER_LANE
        )]
    ),
    trans_op!(
        "__builtin_mxc_load_shared_trans_4x16_i64",
        Proto::returns("int64_t"),
        &[Arg::per_thread(
            "shared_ptr",
            "__shared__ int64_t *",
            Role::Address,
            SHARED_PTR,
            PER_LANE
        )]
    ),
    trans_op!(
        "__builtin_mxc_load_shared_trans_4x16_v4i16",
        Proto::returns("v4i16"),
        &[Arg::per_thread(
            "shared_ptr",
            "__shared__ v4i16 *",
            Role::Address,
            SHARED_PTR,
            PER_LANE
        )]
    ),
    trans_op!(
        "__builtin_mxc_load_shared_trans_8x16",
        Proto::returns("int64_t"),
        &[Arg::per_thread(
            "shared_ptr",
            "__shared__ int64_t *",
            Role::Address,
            SHARED_PTR,
            PER_LANE
        )]
    ),
    trans_op!(
        "__builtin_mxc_load_shared_trans_8x16_i64",
        Proto::returns("int64_t"),
        &[Arg::per_thread(
            "shared_ptr",
            "__shared__ int64_t *",
            Role::Address,
            SHARED_PTR,
            PER_LANE
        )]
    ),
    trans_op!(
        "__builtin_mxc_load_shared_trans_8x16_v8i8",
        Proto::returns("v8i8"),
        &[Arg::per_thread(
            "shared_ptr",
            "__shared__ v8i8 *",
            Role::Address,
            SHARED_PTR,
            PER_LANE
        )]
    ),
];

fn run_bsm(bytes: usize, input: &OpInput) -> Result<OpOutput, InputError> {
    let mask = input.params.int("mask")?;
    if mask != -1 {
        return Err(InputError::new(
            "mask",
            format!("must be -1 (seed 002 §3.1.4: mask 只能填-1), got {mask}"),
        ));
    }
    let view = View {
        bytes,
        elem: Elem::U32,
    };
    let global = parse_memory(input.params.text("memory")?, "memory")?;
    let shared = parse_memory(input.params.text("shared")?, "shared")?;
    let gaddr = addresses(input, "global_addr")?;
    let saddr = addresses(input, "shared_addr")?;
    let exec = if input.params.flag("pred_neg")? {
        LaneMask(LaneMask::all(input.lanes).0 & !input.active.0)
    } else {
        input.active
    };
    let e = input.params.int("elem")? as usize;
    let ret0 = input.params.flag("ret0_en")?;
    let mut diagnostics = Vec::new();
    async_note(input, &mut diagnostics, "3.1.4")?;
    let (after, faults) = ldg_bsm(&global, &shared, exec, &gaddr, &saddr, bytes);
    diagnostics.push(Diagnostic::info(
        format!(
            "shared memory after the copy: {}",
            changed_words(&shared, &after)
        ),
        "seed 002 §3.1.4",
    ));
    fault_warning(
        &faults,
        global.len().min(shared.len()),
        &mut diagnostics,
        "seed 002 §3.1.4",
    );
    let results = (0..input.lanes)
        .map(|n| {
            if !exec.contains(n) {
                return if ret0 && input.active.contains(n) {
                    LaneResult::zero(
                        Value::from_bits(ValueType::U32, 0),
                        "not executing and ret0_en = true: returns 0",
                    )
                } else {
                    LaneResult::inactive()
                };
            }
            if faults.contains(&n) {
                return LaneResult::undefined(
                    "source or destination outside its buffer: nothing copied",
                    None,
                );
            }
            let s = saddr.get(n).copied().unwrap_or(0);
            match read_bytes(&after, s, bytes).and_then(|b| element(view, &b, e)) {
                Some(v) => LaneResult {
                    value: Some(v),
                    source: Source::Computed,
                    from: None,
                    why: Some(format!("copied to shared byte {s}")),
                },
                None => LaneResult::undefined("nothing copied", None),
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics,
    })
}

fn run_trans(name: &str, input: &OpInput) -> Result<OpOutput, InputError> {
    arch::check(input, ArchReq::AtLeast1500, name, "3.1.5")?;
    let why = "seed 002 §3.1.5 says only 'load a matrix of this shape from shared memory and transpose'; \
               the element order is not given, so the value is not simulated";
    let results = (0..input.lanes)
        .map(|n| {
            if input.active.contains(n) {
                LaneResult::undefined(why, None)
            } else {
                LaneResult::inactive()
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics: vec![Diagnostic::warning(
            format!("{name}: the transposed element order is unspecified in the seed"),
            "seed 002 §3.1.5",
        )],
    })
}
