//! MACA compare builtins → a 64-bit lane mask (seed 002 §3.2): `__builtin_mxc_uicmp`, `uicmpl`,
//! `sicmp`, `sicmpl`, `fcmp`, `fcmpf`, `fcmph`; and the `MACA_ICMP_*` predicate shared with the
//! predicated loads and stores (§3.1.1–3.1.3, `cmp_flag`).
//!
//! "函数产生一个64bit结果，每个bit表示当前warp内相应线程的比较结果": bit n of the result is lane
//! n's comparison. The seed is silent on lanes that do not execute; these builtins are the AMD
//! `v_cmp_*` → SGPR-pair family (like `__builtin_amdgcn_icmp`/`fcmp`), where a lane outside EXEC
//! writes 0 to its bit. Every active lane receives the same mask.
//!
//! Numeric predicates: the seed names the enumerators but not their values. We accept the names
//! and, as numbers, the LLVM `CmpInst` predicate numbering that `__builtin_amdgcn_icmp`/`fcmp`
//! take (ICMP_EQ = 32 … ICMP_SLE = 41; FCMP_OEQ = 1, OGT = 2, OGE = 3, …). Under that reading the
//! §3.2.3 example `fcmp(da, db, 1)`, `fcmpf(fa, fb, 2)`, `fcmph(ha, hb, 3)` compares for ordered
//! ==, >, >=. This is an inference, stated in each op's rule.

use half::f16;

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{parse_int, ParamDefault, ParamKind, ParamSpec};
use crate::result::LaneResult;
use crate::value::{Value, ValueType};

use super::operands::{lane_value, per_lane};

/// An integer predicate (`MACA_ICMP_*`), numbered as LLVM's `ICmpInst::Predicate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icmp {
    /// `==`
    Eq = 32,
    /// `!=`
    Ne = 33,
    /// unsigned `>`
    Ugt = 34,
    /// unsigned `>=`
    Uge = 35,
    /// unsigned `<`
    Ult = 36,
    /// unsigned `<=`
    Ule = 37,
    /// signed `>`
    Sgt = 38,
    /// signed `>=`
    Sge = 39,
    /// signed `<`
    Slt = 40,
    /// signed `<=`
    Sle = 41,
}

/// The predicate names in the seed's order (§3.1.1 cmp_flag, §3.2.1 ICMP_OP).
pub const ICMP_NAMES: &[(&str, Icmp)] = &[
    ("MACA_ICMP_EQ", Icmp::Eq),
    ("MACA_ICMP_NE", Icmp::Ne),
    ("MACA_ICMP_UGT", Icmp::Ugt),
    ("MACA_ICMP_UGE", Icmp::Uge),
    ("MACA_ICMP_ULT", Icmp::Ult),
    ("MACA_ICMP_ULE", Icmp::Ule),
    ("MACA_ICMP_SGT", Icmp::Sgt),
    ("MACA_ICMP_SGE", Icmp::Sge),
    ("MACA_ICMP_SLT", Icmp::Slt),
    ("MACA_ICMP_SLE", Icmp::Sle),
];

impl Icmp {
    /// Parses `MACA_ICMP_ULT`, `ICMP_ULT`, `ult` (any case) or the number 32..=41.
    ///
    /// # Errors
    /// [`InputError`] on `field` listing every `MACA_ICMP_*` name and the numbers 32..=41.
    pub fn parse(text: &str, field: &str) -> Result<Self, InputError> {
        let t = text.trim().to_ascii_uppercase();
        let short = t
            .strip_prefix("MACA_ICMP_")
            .or_else(|| t.strip_prefix("ICMP_"))
            .unwrap_or(&t);
        let by_name = ICMP_NAMES
            .iter()
            .find(|(n, _)| n.strip_prefix("MACA_ICMP_") == Some(short));
        let by_number = parse_int(&t).and_then(|v| ICMP_NAMES.iter().find(|(_, p)| *p as i64 == v));
        by_name.or(by_number).map(|(_, p)| *p).ok_or_else(|| {
            let names: Vec<&str> = ICMP_NAMES.iter().map(|(n, _)| *n).collect();
            InputError::new(
                field,
                format!(
                    "`{text}` is not a compare operation; allowed: {} (or their LLVM numbers 32..=41)",
                    names.join(", ")
                ),
            )
        })
    }

    /// The seed's name (`MACA_ICMP_ULT`).
    pub fn name(self) -> &'static str {
        ICMP_NAMES
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("MACA_ICMP_?", |(n, _)| n)
    }

    /// Compares two `bits`-wide integers (32 or 64) held in the low bits of `a` and `b`.
    pub fn holds(self, a: u64, b: u64, bits: u32) -> bool {
        let (ua, ub) = if bits >= 64 {
            (a, b)
        } else {
            (a & ((1 << bits) - 1), b & ((1 << bits) - 1))
        };
        let sign = |x: u64| -> i64 {
            if bits >= 64 {
                x as i64
            } else {
                let shift = 64 - bits;
                ((x << shift) as i64) >> shift
            }
        };
        let (sa, sb) = (sign(ua), sign(ub));
        match self {
            Icmp::Eq => ua == ub,
            Icmp::Ne => ua != ub,
            Icmp::Ugt => ua > ub,
            Icmp::Uge => ua >= ub,
            Icmp::Ult => ua < ub,
            Icmp::Ule => ua <= ub,
            Icmp::Sgt => sa > sb,
            Icmp::Sge => sa >= sb,
            Icmp::Slt => sa < sb,
            Icmp::Sle => sa <= sb,
        }
    }
}

/// A floating-point predicate, numbered as LLVM's `FCmpInst::Predicate` (0 = false … 15 = true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fcmp(pub u8);

/// The seed's names (§3.2.3) and the LLVM predicate each maps to. `CMP_NEQ` is "not equal",
/// true when either operand is NaN (AMD `v_cmp_neq`, LLVM UNE); the others are ordered.
pub const FCMP_NAMES: &[(&str, u8)] = &[
    ("CMP_EQ", 1),
    ("CMP_LT", 4),
    ("CMP_LE", 5),
    ("CMP_GT", 2),
    ("CMP_GE", 3),
    ("CMP_NEQ", 14),
    ("CMP_O", 7),
    ("CMP_U", 8),
];

impl Fcmp {
    /// Parses a seed name (`CMP_GT`, any case, optional `MACA_` prefix) or an LLVM predicate
    /// number 0..=15.
    ///
    /// # Errors
    /// [`InputError`] on `field` listing the names and the numeric range.
    pub fn parse(text: &str, field: &str) -> Result<Self, InputError> {
        let t = text.trim().to_ascii_uppercase();
        let t = t.strip_prefix("MACA_").unwrap_or(&t);
        if let Some((_, p)) = FCMP_NAMES.iter().find(|(n, _)| *n == t) {
            return Ok(Fcmp(*p));
        }
        match parse_int(t) {
            Some(v @ 0..=15) => Ok(Fcmp(v as u8)),
            _ => {
                let names: Vec<&str> = FCMP_NAMES.iter().map(|(n, _)| *n).collect();
                Err(InputError::new(
                    field,
                    format!(
                        "`{text}` is not a float compare operation; allowed: {} or an LLVM FCmp predicate number 0..=15 (1 = OEQ, 2 = OGT, 3 = OGE, 4 = OLT, 5 = OLE, 6 = ONE, 7 = ORD, 8 = UNO, 9..=14 = unordered forms, 0 = false, 15 = true)",
                        names.join(", ")
                    ),
                ))
            }
        }
    }

    /// Evaluates the predicate. The LLVM code is a set of outcomes: bit 0 = equal, bit 1 =
    /// greater, bit 2 = less, bit 3 = unordered (either operand NaN).
    pub fn holds(self, a: f64, b: f64) -> bool {
        let outcome = if a.is_nan() || b.is_nan() {
            8
        } else if a == b {
            1
        } else if a > b {
            2
        } else {
            4
        };
        self.0 & outcome != 0
    }
}

const ICMP_OP: ParamSpec = ParamSpec {
    name: "icmp_op",
    kind: ParamKind::Text,
    default: ParamDefault::Text("MACA_ICMP_EQ"),
    doc: "MACA_ICMP_EQ, _NE, _UGT, _UGE, _ULT, _ULE, _SGT, _SGE, _SLT, _SLE (or 32..=41)",
};

const FCMP_OP: ParamSpec = ParamSpec {
    name: "fcmp_op",
    kind: ParamKind::Text,
    default: ParamDefault::Text("CMP_EQ"),
    doc: "CMP_EQ, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_NEQ, CMP_O, CMP_U, or an LLVM FCmp number 0..=15",
};

const SRC1: ParamSpec = ParamSpec {
    name: "src1",
    kind: ParamKind::PerLaneValue,
    default: ParamDefault::Int(0),
    doc: "right operand, per lane (the operand row is src0)",
};

const ICMP_RULE_TAIL: &str = "Bit n of the uint64_t result is lane n's `src0 ICMP_OP src1`; a lane \
     outside the active mask contributes 0 (AMD v_cmp_* writes 0 for lanes outside EXEC: the seed is \
     silent). Every active lane receives the same mask. Signed predicates reinterpret the operands as \
     two's complement. Predicate numbers follow LLVM's ICmp numbering (EQ = 32 … SLE = 41), as \
     __builtin_amdgcn_icmp takes them (an inference: the seed gives names only).";

const FCMP_RULE: &str = "Bit n of the uint64_t result is lane n's `src0 fcmp_op src1`; a lane \
     outside the active mask contributes 0 (AMD v_cmp_*: the seed is silent). CMP_EQ/LT/LE/GT/GE are \
     ordered (false if either operand is NaN), CMP_NEQ is true for NaN (AMD v_cmp_neq), CMP_O = \
     neither is NaN, CMP_U = either is NaN. A number is an LLVM FCmp predicate (1 = OEQ, 2 = OGT, \
     3 = OGE, 4 = OLT, 5 = OLE, 6 = ONE, 7 = ORD, 8 = UNO, 9..=14 the unordered forms), as \
     __builtin_amdgcn_fcmp takes it — an inference: the seed's example passes 1, 2, 3 without saying \
     what they mean.";

macro_rules! cmp_op {
    ($name:literal, $proto:expr, $args:expr, $ty:expr, $rule:expr, $run:ident) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: $name,
            aliases: &[],
            proto: $proto,
            args: $args,
            rule: $rule,
            source: "seed 002 §3.2 (比较函数)",
            settings: &[],
            types: &[$ty],
            type_note: "the seed gives one prototype per compare builtin",
            kind: OpKind::Lanes,
            run: $run,
        }
    };
}

/// The compare builtins.
pub const OPS: &[OpSpec] = &[
    cmp_op!(
        "__builtin_mxc_uicmp",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "unsigned int"),
            Arg::per_thread("src1", "unsigned int", Role::Data, SRC1, PER_LANE),
            Arg::immediate("ICMP_OP", "int", Role::Control, ICMP_OP)
        ],
        ValueType::U32,
        ICMP_RULE_TAIL,
        run_icmp
    ),
    cmp_op!(
        "__builtin_mxc_uicmpl",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "uint64_t"),
            Arg::per_thread("src1", "uint64_t", Role::Data, SRC1, PER_LANE),
            Arg::immediate("ICMP_OP", "int", Role::Control, ICMP_OP)
        ],
        ValueType::U64,
        ICMP_RULE_TAIL,
        run_icmp
    ),
    cmp_op!(
        "__builtin_mxc_sicmp",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "int"),
            Arg::per_thread("src1", "int", Role::Data, SRC1, PER_LANE),
            Arg::immediate("ICMP_OP", "int", Role::Control, ICMP_OP)
        ],
        ValueType::I32,
        ICMP_RULE_TAIL,
        run_icmp
    ),
    cmp_op!(
        "__builtin_mxc_sicmpl",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "long"),
            Arg::per_thread("src1", "long", Role::Data, SRC1, PER_LANE),
            Arg::immediate("ICMP_OP", "int", Role::Control, ICMP_OP)
        ],
        ValueType::I64,
        ICMP_RULE_TAIL,
        run_icmp
    ),
    cmp_op!(
        "__builtin_mxc_fcmp",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "double"),
            Arg::per_thread("src1", "double", Role::Data, SRC1, PER_LANE),
            Arg::immediate("fcmp_op", "int", Role::Control, FCMP_OP)
        ],
        ValueType::F64,
        FCMP_RULE,
        run_fcmp
    ),
    cmp_op!(
        "__builtin_mxc_fcmpf",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "float"),
            Arg::per_thread("src1", "float", Role::Data, SRC1, PER_LANE),
            Arg::immediate("fcmp_op", "int", Role::Control, FCMP_OP)
        ],
        ValueType::F32,
        FCMP_RULE,
        run_fcmp
    ),
    cmp_op!(
        "__builtin_mxc_fcmph",
        Proto::returns("uint64_t"),
        &[
            Arg::operand("src0", "_Float16"),
            Arg::per_thread("src1", "_Float16", Role::Data, SRC1, PER_LANE),
            Arg::immediate("fcmp_op", "int", Role::Control, FCMP_OP)
        ],
        ValueType::F16,
        FCMP_RULE,
        run_fcmp
    ),
];

/// The ballot: bit n set when lane n is active and `holds(n)`.
///
/// # Errors
/// The first error `holds` returns.
pub fn ballot(
    input: &OpInput,
    mut holds: impl FnMut(usize) -> Result<bool, InputError>,
) -> Result<u64, InputError> {
    let mut mask = 0u64;
    for n in input.active.iter().filter(|&n| n < 64) {
        if holds(n)? {
            mask |= 1 << n;
        }
    }
    Ok(mask)
}

fn broadcast(input: &OpInput, mask: u64) -> Result<OpOutput, InputError> {
    let value = Value::from_bits(ValueType::U64, mask);
    Ok(OpOutput {
        results: per_lane(input, |_| Ok(LaneResult::computed(value)))?,
        diagnostics: Vec::new(),
    })
}

fn run_icmp(input: &OpInput) -> Result<OpOutput, InputError> {
    let pred = Icmp::parse(input.params.text("icmp_op")?, "icmp_op")?;
    let src1 = input.params.values("src1")?;
    let bits = input.ty.bit_width();
    let mask = ballot(input, |n| {
        let a = lane_value(&input.values, n, "values")?;
        let b = lane_value(src1, n, "src1")?;
        Ok(pred.holds(a.bits, b.bits, bits))
    })?;
    broadcast(input, mask)
}

fn run_fcmp(input: &OpInput) -> Result<OpOutput, InputError> {
    let pred = Fcmp::parse(input.params.text("fcmp_op")?, "fcmp_op")?;
    let src1 = input.params.values("src1")?;
    let as_float = |v: Value| -> f64 {
        match v.ty {
            ValueType::F16 => f16::from_bits(v.bits as u16).to_f64(),
            _ => v.as_f64().unwrap_or(f64::NAN),
        }
    };
    let mask = ballot(input, |n| {
        let a = lane_value(&input.values, n, "values")?;
        let b = lane_value(src1, n, "src1")?;
        Ok(pred.holds(as_float(a), as_float(b)))
    })?;
    broadcast(input, mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates_parse_by_name_and_number() {
        assert_eq!(Icmp::parse("MACA_ICMP_ULT", "f").unwrap(), Icmp::Ult);
        assert_eq!(Icmp::parse("sle", "f").unwrap(), Icmp::Sle);
        assert_eq!(Icmp::parse("33", "f").unwrap(), Icmp::Ne);
        let e = Icmp::parse("MACA_ICMP_LT", "cmp_flag").unwrap_err();
        assert_eq!(e.field, "cmp_flag");
        assert!(e.message.contains("MACA_ICMP_SLE"), "{}", e.message);
        assert_eq!(Fcmp::parse("cmp_neq", "f").unwrap(), Fcmp(14));
        assert!(Fcmp::parse("16", "f").is_err());
    }

    #[test]
    fn signed_and_unsigned_differ_on_the_sign_bit() {
        let minus_one = 0xffff_ffff;
        assert!(Icmp::Ugt.holds(minus_one, 1, 32));
        assert!(Icmp::Slt.holds(minus_one, 1, 32));
        assert!(Icmp::Slt.holds(u64::MAX, 0, 64));
    }

    #[test]
    fn nan_is_unordered() {
        assert!(!Fcmp(1).holds(f64::NAN, f64::NAN));
        assert!(Fcmp(14).holds(f64::NAN, 1.0));
        assert!(Fcmp(8).holds(1.0, f64::NAN));
        assert!(!Fcmp(7).holds(1.0, f64::NAN));
        assert!(Fcmp(3).holds(2.0, 2.0));
    }
}
