//! Constants in host code and template arguments: [`HostVal`] and [`const_eval`], which folds a
//! literal, a known name or an arithmetic expression of them. Its own module because host code
//! ([`super::host`]) and templates ([`super::templates`]) both fold constants, and host code
//! instantiates templates: each imports this, not the other.

use std::collections::HashMap;

use crate::ast::*;
use crate::types::{BinOp, KVal, Scalar, UnOp};

thread_local! {
    /// Set when an evaluation gave no value because a signed result was out of its type's
    /// range ([expr]/4), so that a host fill can say why a cell is undefined
    /// ([`take_overflow`]).
    static OVERFLOWED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Set while host code is evaluated ([`HostMath::on`]): only there does a call of the C
    /// math library fold to the host's value ([`super::host_math`]); a device expression keeps
    /// the device's own math.
    static HOST_MATH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// While alive, [`const_eval`] evaluates host code: a math library call folds to the host's
/// value. Restores the previous state when dropped (evaluations nest).
pub(super) struct HostMath(bool);

impl HostMath {
    /// Starts evaluating host code.
    pub(super) fn on() -> HostMath {
        HostMath(HOST_MATH.with(|c| c.replace(true)))
    }
}

impl Drop for HostMath {
    fn drop(&mut self) {
        HOST_MATH.with(|c| c.set(self.0));
    }
}

/// No value: a signed overflow ([expr]/4), recorded for [`take_overflow`].
fn overflow() -> Option<HostVal> {
    OVERFLOWED.with(|c| c.set(true));
    None
}

/// Whether an evaluation since the last call gave no value because of a signed overflow;
/// clears the record. Call it before an evaluation to start clean, and after one that gave no
/// value to learn why.
pub(super) fn take_overflow() -> bool {
    OVERFLOWED.with(|c| c.replace(false))
}

/// A constant known in host code, with its C++ type where the type changes the arithmetic:
/// `int` ([`HostVal::Int`]), the other integer types of host code ([`HostVal::Typed`]),
/// `double` ([`HostVal::Float`]) and `float` ([`HostVal::F32`]) (C++17 [basic.fundamental],
/// [expr]/11 usual arithmetic conversions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HostVal {
    /// An `int` (also what promotes to `int`: `bool`, `char`, `short`, a `dim3` component).
    /// A value outside `int`'s range (a count the reading made itself) is read as `long long`.
    Int(i128),
    /// An integer of another type (`unsigned`, `long long`, `size_t`), its value in that
    /// type's range.
    Typed(i128, IntTy),
    /// A `double`.
    Float(f64),
    /// A `float`: each operation on floats is rounded to `float` (C++17 [expr]/11 keeps
    /// `float` when no operand is `double`; x86-64 host compilers evaluate it so, with
    /// `FLT_EVAL_METHOD` 0).
    F32(f32),
    /// A `dim3` (x, y, z).
    Dim([i128; 3]),
}

/// The integer types host arithmetic keeps apart (LP64: `long`, `long long`, `int64_t` are 64
/// bits; `size_t` is `unsigned long`). Narrower types promote to `int` ([conv.prom]/1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntTy {
    /// `int`, `int32_t`.
    I32,
    /// `unsigned`, `uint32_t`.
    U32,
    /// `long`, `long long`, `int64_t`, `ptrdiff_t`.
    I64,
    /// `unsigned long`, `unsigned long long`, `uint64_t`, `size_t`.
    U64,
}

impl IntTy {
    fn bits(self) -> u32 {
        match self {
            IntTy::I32 | IntTy::U32 => 32,
            IntTy::I64 | IntTy::U64 => 64,
        }
    }

    fn signed(self) -> bool {
        matches!(self, IntTy::I32 | IntTy::I64)
    }

    /// `v` converted to this type: modulo 2^N into its range (C++17 [conv.integral]/2 for an
    /// unsigned type; for a signed one the same two's complement result, implementation-defined
    /// by [conv.integral]/3 and what GCC and clang give).
    pub(super) fn wrap(self, v: i128) -> i128 {
        let m = (v as u128) & ((1u128 << self.bits()) - 1);
        if self.signed() && m >> (self.bits() - 1) == 1 {
            m as i128 - (1i128 << self.bits())
        } else {
            m as i128
        }
    }

    fn fits(self, v: i128) -> bool {
        self.wrap(v) == v
    }

    /// The type both operands convert to (C++17 [expr]/11.5: the same signedness takes the
    /// higher rank; an unsigned type of rank at least the signed one's wins; else the signed
    /// type when it holds every value of the unsigned one).
    fn common(a: IntTy, b: IntTy) -> IntTy {
        match a.bits().cmp(&b.bits()) {
            std::cmp::Ordering::Greater => a,
            std::cmp::Ordering::Less => b,
            std::cmp::Ordering::Equal if a.signed() => b,
            std::cmp::Ordering::Equal => a,
        }
    }

    /// The type of integer scalar `s`, `None` for a narrower one (it promotes to `int`).
    fn of(s: Scalar) -> Option<IntTy> {
        Some(match s {
            Scalar::I32 => IntTy::I32,
            Scalar::U32 => IntTy::U32,
            Scalar::I64 => IntTy::I64,
            Scalar::U64 => IntTy::U64,
            _ => return None,
        })
    }
}

impl HostVal {
    pub(super) fn int(self) -> Option<i128> {
        match self {
            HostVal::Int(n) | HostVal::Typed(n, _) => Some(n),
            HostVal::Dim([x, 1, 1]) => Some(x),
            _ => None,
        }
    }

    /// An integer value of type `t` (`int` as [`HostVal::Int`]).
    fn typed(v: i128, t: IntTy) -> HostVal {
        match t {
            IntTy::I32 => HostVal::Int(v),
            t => HostVal::Typed(v, t),
        }
    }

    /// The integer and its type (an `int` outside `int`'s range read as `long long`).
    fn int_ty(self) -> Option<(i128, IntTy)> {
        match self {
            HostVal::Typed(n, t) => Some((n, t)),
            HostVal::Int(n) if IntTy::I32.fits(n) => Some((n, IntTy::I32)),
            other => other.int().map(|n| (n, IntTy::I64)),
        }
    }

    pub(super) fn float(self) -> f64 {
        match self {
            HostVal::Int(n) | HostVal::Typed(n, _) => n as f64,
            HostVal::Float(x) => x,
            HostVal::F32(x) => f64::from(x),
            HostVal::Dim([x, _, _]) => x as f64,
        }
    }

    /// The value converted to `float` (C++17 [conv.fpint]/2, [conv.double]/2: rounded to the
    /// nearest `float`).
    fn single(self) -> f32 {
        match self {
            HostVal::Int(n) | HostVal::Typed(n, _) => n as f32,
            HostVal::F32(x) => x,
            other => other.float() as f32,
        }
    }

    /// The number as the kernel argument text (`--arg` syntax). A `float` is written as the
    /// `double` of the same value, so a `double` cell given it holds that value exactly.
    pub fn text(self) -> Option<String> {
        match self {
            HostVal::Int(n) | HostVal::Typed(n, _) => Some(n.to_string()),
            HostVal::Float(x) => Some(format!("{x:?}")),
            HostVal::F32(x) => Some(format!("{:?}", f64::from(x))),
            HostVal::Dim(_) => None,
        }
    }

    pub(super) fn dims(self) -> Option<[u64; 3]> {
        let d = match self {
            HostVal::Int(n) | HostVal::Typed(n, _) => [n, 1, 1],
            HostVal::Dim(d) => d,
            HostVal::Float(_) | HostVal::F32(_) => return None,
        };
        Some([
            u64::try_from(d[0]).ok()?,
            u64::try_from(d[1]).ok()?,
            u64::try_from(d[2]).ok()?,
        ])
    }

    /// The value converted to scalar type `s`, as an initialization or assignment to a host
    /// variable of that type, or a cast, converts it (C++17 [conv.integral], [conv.fpint]: a
    /// float to an integer truncates toward zero, undefined when the result does not fit:
    /// `None`; [conv.double]). `bool` is `v != 0` ([conv.bool]). A half or 8-bit float is kept
    /// as a `double`.
    pub(super) fn convert(self, s: Scalar) -> Option<HostVal> {
        if let HostVal::Dim(_) = self {
            return None;
        }
        if s == Scalar::F32 {
            return Some(HostVal::F32(self.single()));
        }
        if s.is_float() {
            return Some(HostVal::Float(self.float()));
        }
        let n = match self {
            HostVal::Float(x) => truncated(x)?,
            HostVal::F32(x) => truncated(f64::from(x))?,
            other => other.int()?,
        };
        if s == Scalar::Bool {
            return Some(HostVal::Int(i128::from(n != 0)));
        }
        if let Some(t) = IntTy::of(s) {
            return if matches!(self, HostVal::Float(_) | HostVal::F32(_)) && !t.fits(n) {
                None
            } else {
                Some(HostVal::typed(t.wrap(n), t))
            };
        }
        // `char`, `short` and their unsigned forms: reduced to the width, then promoted.
        let bits = s.bits().clamp(1, 64);
        let m = (n as u128) & ((1u128 << bits) - 1);
        let v = if s.is_signed() && m >> (bits - 1) == 1 {
            m as i128 - (1i128 << bits)
        } else {
            m as i128
        };
        Some(HostVal::Int(v))
    }

    /// The value converted to the type of `self` (an assignment to a variable that holds it):
    /// `None` when `self` is a `dim3` (the new value is kept as it is).
    pub(super) fn retype(self, new: HostVal) -> Option<HostVal> {
        let s = match self {
            HostVal::Int(_) => Scalar::I32,
            HostVal::Typed(_, IntTy::I32) => Scalar::I32,
            HostVal::Typed(_, IntTy::U32) => Scalar::U32,
            HostVal::Typed(_, IntTy::I64) => Scalar::I64,
            HostVal::Typed(_, IntTy::U64) => Scalar::U64,
            HostVal::Float(_) => Scalar::F64,
            HostVal::F32(_) => Scalar::F32,
            HostVal::Dim(_) => return Some(new),
        };
        new.convert(s)
    }
}

/// `x` truncated toward zero when finite and within 64 bits ([conv.fpint]/1).
fn truncated(x: f64) -> Option<i128> {
    (x.is_finite() && x.abs() < 1.9e19).then(|| x.trunc() as i128)
}

/// The scalar type a host declaration's leading type words name (`unsigned`, `const size_t`,
/// `long long`, `std::uint64_t`, `float`), LP64 as the host compilers nvcc and hipcc use on
/// Linux; `None` for anything else (`auto`, a struct, a type the reading does not know), whose
/// value then keeps the type its initializer has.
pub(super) fn decl_scalar(words: &[&str]) -> Option<Scalar> {
    let mut unsigned = false;
    let mut signed = false;
    let mut longs = 0;
    let mut base: Option<&str> = None;
    for &w in words {
        match w {
            "const" | "static" | "constexpr" | "volatile" | "register" | "std" | "inline" => {}
            "unsigned" => unsigned = true,
            "signed" => signed = true,
            "long" => longs += 1,
            "int" | "short" | "char" | "float" | "double" | "bool" | "size_t" | "int8_t"
            | "uint8_t" | "int16_t" | "uint16_t" | "int32_t" | "uint32_t" | "int64_t"
            | "uint64_t" | "ptrdiff_t" | "intptr_t" | "uintptr_t" | "ssize_t"
                if base.is_none() || base == Some("int") || w == "int" =>
            {
                if w != "int" || base.is_none() {
                    base = Some(w);
                }
            }
            _ => break,
        }
    }
    Some(match (base, unsigned, longs) {
        (Some("float"), ..) => Scalar::F32,
        (Some("double"), ..) => Scalar::F64,
        (Some("bool"), ..) => Scalar::Bool,
        (Some("char" | "int8_t"), false, _) => Scalar::I8,
        (Some("char"), true, _) | (Some("uint8_t"), ..) => Scalar::U8,
        (Some("short" | "int16_t"), false, _) => Scalar::I16,
        (Some("short"), true, _) | (Some("uint16_t"), ..) => Scalar::U16,
        (Some("size_t" | "uint64_t" | "uintptr_t"), ..) => Scalar::U64,
        (Some("int64_t" | "ptrdiff_t" | "intptr_t" | "ssize_t"), ..) => Scalar::I64,
        (Some("uint32_t"), ..) => Scalar::U32,
        (Some("int32_t"), ..) => Scalar::I32,
        (Some("int") | None, true, 0) => Scalar::U32,
        (Some("int") | None, true, _) => Scalar::U64,
        (Some("int") | None, false, 1..) => Scalar::I64,
        (Some("int"), false, 0) => Scalar::I32,
        (None, false, 0) if signed => Scalar::I32,
        _ => return None,
    })
}

/// A constant of the C and CUDA headers (`INFINITY`, `NAN`, `FLT_MAX`, `INT_MAX`, `M_PI`,
/// `CUDART_INF_F`, …: [`crate::mathlib::constants`], which cites C11 5.2.4.2 and 7.12p3-5)
/// as host arithmetic holds it: a `float` one as `float` (`-INFINITY` in a host fill is
/// `float`'s negative infinity), a `double` one as `double`, an integer one as its type.
fn library_constant(name: &str) -> Option<HostVal> {
    Some(match crate::mathlib::constants::constant(name)? {
        KVal::Float {
            ty: Scalar::F32, x, ..
        } => HostVal::F32(x as f32),
        KVal::Float {
            ty: Scalar::F64, x, ..
        } => HostVal::Float(x),
        k @ KVal::Int { ty, .. } => {
            let v = k.as_int()?;
            match IntTy::of(ty) {
                Some(IntTy::I32) | None => HostVal::Int(v),
                Some(t) => HostVal::Typed(v, t),
            }
        }
        _ => return None,
    })
}

/// Evaluates a constant host expression: literals, names in `env`, `+ - * / % << >> & | ^`,
/// comparisons, `?:`, casts, `sizeof`, `dim3(x, y, z)`, `min`/`max`. `None` for anything else.
/// Walks an expression the parser built, so its height is bounded by the depth budget.
pub fn const_eval(e: &Expr, env: &HashMap<String, HostVal>) -> Option<HostVal> {
    use HostVal::{Float, Int};
    Some(match &e.kind {
        // [lex.icon]/2: a literal's type is the first of its suffix's list that holds it (an
        // unsuffixed one past `int` read as `long`, as a decimal one is).
        ExprKind::Int {
            value,
            unsigned,
            long,
        } => {
            let v = i128::from(*value);
            let t = match (*unsigned, *long) {
                (false, false) if IntTy::I32.fits(v) => IntTy::I32,
                (false, _) if IntTy::I64.fits(v) => IntTy::I64,
                (true, false) if IntTy::U32.fits(v) => IntTy::U32,
                _ => IntTy::U64,
            };
            HostVal::typed(v, t)
        }
        ExprKind::Float {
            value,
            single: true,
        } => HostVal::F32(*value as f32),
        ExprKind::Float { value, .. } => Float(*value),
        ExprKind::Bool(b) => Int(i128::from(*b)),
        // `sizeof` is a `size_t` ([expr.sizeof]/6).
        ExprKind::SizeOf(n) => HostVal::Typed(i128::from(*n), IntTy::U64),
        ExprKind::Ident(n) => match env.get(n) {
            Some(v) => *v,
            None => library_constant(n)?,
        },
        // An element of a file-scope constant array, bound as `name[k]`
        // (`parser/const_arrays.rs`).
        ExprKind::Index(b, j) => {
            let ExprKind::Ident(n) = &b.kind else {
                return None;
            };
            let k = const_eval(j, env)?.int()?;
            *env.get(&format!("{n}[{k}]"))?
        }
        ExprKind::Cast(ty, x) => {
            let v = const_eval(x, env)?;
            match ty {
                // `(half)x`: rounded to the nearest `half` (ties to even), kept as its `float`.
                crate::types::Ty::Val(t) if t.lanes <= 1 && t.scalar == Scalar::F16 => {
                    HostVal::F32(super::host_math::to_half(v.single()))
                }
                crate::types::Ty::Val(t) if t.lanes <= 1 && t.scalar == Scalar::Bf16 => {
                    HostVal::F32(super::host_math::to_bf16(v.single()))
                }
                crate::types::Ty::Val(t) if t.lanes <= 1 => v.convert(t.scalar)?,
                crate::types::Ty::Val(t) if t.scalar.is_float() => Float(v.float()),
                crate::types::Ty::Val(_) => match v {
                    Float(f) if f.is_finite() => Int(f.trunc() as i128),
                    other => Int(other.int()?),
                },
                _ => v,
            }
        }
        ExprKind::Unary(op, x) => match (op, const_eval(x, env)?) {
            (UnOp::Neg, Float(f)) => Float(-f),
            (UnOp::Neg, HostVal::F32(f)) => HostVal::F32(-f),
            (UnOp::Plus, v) => v,
            (UnOp::Not, v @ (Float(_) | HostVal::F32(_))) => Int(i128::from(v.float() == 0.0)),
            (UnOp::Not, v) => Int(i128::from(v.int()? == 0)),
            (UnOp::Neg | UnOp::BitNot, v) => {
                let (n, t) = v.int_ty()?;
                let r = if *op == UnOp::Neg { -n } else { !n };
                if t.signed() && !t.fits(r) {
                    // [expr]/4: a signed result out of range is undefined.
                    return overflow();
                }
                HostVal::typed(t.wrap(r), t)
            }
        },
        ExprKind::Logical(and, a, b) => {
            let a = const_eval(a, env)?.int()? != 0;
            // Short-circuit as [expr.log.and]/[expr.log.or]: the right side may be no constant.
            if a != *and {
                Int(i128::from(a))
            } else {
                Int(i128::from(const_eval(b, env)?.int()? != 0))
            }
        }
        ExprKind::Ternary(c, a, b) => {
            if const_eval(c, env)?.int()? != 0 {
                const_eval(a, env)?
            } else {
                const_eval(b, env)?
            }
        }
        // `dim3(…)` (read as `make_uint3` with the components left out as 1) and
        // `make_uint3(x, y, z)`, which converts to `dim3`.
        ExprKind::Call(name, args)
            if name == "dim3" || (name == "make_uint3" && args.len() == 3) =>
        {
            let mut d = [1i128; 3];
            for (k, a) in args.iter().take(3).enumerate() {
                d[k] = const_eval(a, env)?.int()?;
            }
            HostVal::Dim(d)
        }
        ExprKind::Call(name, args)
            if args.len() == 2
                && matches!(name.as_str(), "min" | "max" | "std::min" | "std::max") =>
        {
            let (a, ta) = const_eval(&args[0], env)?.int_ty()?;
            let (b, tb) = const_eval(&args[1], env)?.int_ty()?;
            let t = IntTy::common(ta, tb);
            let (a, b) = (t.wrap(a), t.wrap(b));
            HostVal::typed(
                if name.ends_with("max") {
                    a.max(b)
                } else {
                    a.min(b)
                },
                t,
            )
        }
        // `std::gcd(16 / sizeof(T), d)` (FlashInfer's vector width), `std::lcm`: C++17
        // [numeric.ops.gcd], [numeric.ops.lcm] — of the magnitudes, in the operands' common
        // type; `gcd(0, 0)` and an `lcm` with a zero operand are 0.
        ExprKind::Call(name, args)
            if args.len() == 2
                && matches!(name.as_str(), "gcd" | "lcm" | "std::gcd" | "std::lcm") =>
        {
            let (a, ta) = const_eval(&args[0], env)?.int_ty()?;
            let (b, tb) = const_eval(&args[1], env)?.int_ty()?;
            let t = IntTy::common(ta, tb);
            let (a, b) = (t.wrap(a).unsigned_abs(), t.wrap(b).unsigned_abs());
            let (mut x, mut y) = (a, b);
            // Euclid's algorithm: at most ~185 steps for 128-bit operands.
            while y != 0 {
                (x, y) = (y, x % y);
            }
            let r = if name.ends_with("lcm") {
                match a.checked_div(x) {
                    Some(q) => q.checked_mul(b)?,
                    None => 0,
                }
            } else {
                x
            };
            HostVal::typed(t.wrap(i128::try_from(r).ok()?), t)
        }
        ExprKind::Binary(op, a, b) => binary(*op, const_eval(a, env)?, const_eval(b, env)?)?,
        // `__builtin_clz(num - 1)` in a `constexpr` function ([`super::const_bits`]).
        ExprKind::Call(name, args) if args.len() == 1 && name.starts_with("__builtin_") => Int(
            super::const_bits::builtin_bits(name, const_eval(&args[0], env)?.int()?)?,
        ),
        // `sinf(i * 0.1f)`, `__float2half(x)` in host code: the host's value.
        ExprKind::Call(name, args) if HOST_MATH.with(std::cell::Cell::get) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                match const_eval(a, env)? {
                    HostVal::Dim(_) => return None,
                    v => vals.push((v.single(), v.float())),
                }
            }
            match super::host_math::host_math(name, &vals)? {
                super::host_math::MathVal::F32(x) => HostVal::F32(x),
                super::host_math::MathVal::Float(x) => HostVal::Float(x),
            }
        }
        // `prop.warpSize`: a member a host call set (`hipGetDeviceProperties(&prop, 0)`),
        // kept in `env` under its dotted name.
        // A struct member host code set (`p.n = 20;`, `p.in.k`) is kept the same way. A
        // `dim3`'s `x`, `y`, `z` are its components (CUDA C++ Programming Guide, "dim3":
        // `grid((n + block.x - 1) / block.x)`).
        ExprKind::Member(b, field) => match member_path(e) {
            Some(path) if env.contains_key(&path) => env[&path],
            _ => match (const_eval(b, env)?, field.as_str()) {
                (HostVal::Dim(d), "x") => Int(d[0]),
                (HostVal::Dim(d), "y") => Int(d[1]),
                (HostVal::Dim(d), "z") => Int(d[2]),
                _ => return None,
            },
        },
        _ => return None,
    })
}

/// The dotted name of a member access of a variable (`p.n`, `p.in.k`), under which host code
/// keeps a member's value; `None` for any other expression.
pub(super) fn member_path(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Member(b, field) => Some(format!("{}.{field}", member_path(b)?)),
        _ => None,
    }
}

/// `a op b` of two host constants, in the type the usual arithmetic conversions give (C++17
/// [expr]/11): integers exactly, an unsigned result modulo 2^N ([basic.fundamental]/4), a
/// signed result out of its type's range undefined ([expr]/4: `None`); `float` operands in
/// `float` (each operation rounded to `float`), a `double` operand in `double`. A shift is in
/// its left operand's type, undefined for a count negative or not below the width
/// ([expr.shift]/1-2). A comparison is an `int` 0 or 1. `None` for any other operator, a
/// division by zero, or an overflow.
pub(super) fn binary(op: BinOp, a: HostVal, b: HostVal) -> Option<HostVal> {
    use HostVal::{Float, Int};
    if let (Some((x, tx)), Some((y, ty))) = (a.int_ty(), b.int_ty()) {
        if matches!(a, HostVal::Dim(_)) || matches!(b, HostVal::Dim(_)) {
            return None;
        }
        return int_binary(op, (x, tx), (y, ty));
    }
    let cmp = |o: std::cmp::Ordering| -> Option<HostVal> {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let r = match op {
            BinOp::Lt => o == Less,
            BinOp::Le => o != Greater,
            BinOp::Gt => o == Greater,
            BinOp::Ge => o != Less,
            BinOp::Eq => o == Equal,
            BinOp::Ne => o != Equal,
            _ => return None,
        };
        Some(Int(i128::from(r)))
    };
    if matches!(a, HostVal::Dim(_)) || matches!(b, HostVal::Dim(_)) {
        return None;
    }
    if matches!(a, Float(_)) || matches!(b, Float(_)) {
        let (a, b) = (a.float(), b.float());
        return Some(Float(match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
            _ => {
                return a.partial_cmp(&b).map_or(
                    // A NaN compares unordered: only `!=` holds ([expr.rel], IEEE 754).
                    Some(Int(i128::from(op == BinOp::Ne))).filter(|_| is_cmp(op)),
                    cmp,
                );
            }
        }));
    }
    let (a, b) = (a.single(), b.single());
    Some(HostVal::F32(match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        _ => {
            return a.partial_cmp(&b).map_or(
                Some(Int(i128::from(op == BinOp::Ne))).filter(|_| is_cmp(op)),
                cmp,
            )
        }
    }))
}

fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
    )
}

/// [`binary`] of two integers with their types.
fn int_binary(op: BinOp, (x, tx): (i128, IntTy), (y, ty): (i128, IntTy)) -> Option<HostVal> {
    use HostVal::Int;
    if matches!(op, BinOp::Shl | BinOp::Shr) {
        let t = tx;
        if !(0..i128::from(t.bits())).contains(&y) {
            return None;
        }
        let r = match op {
            BinOp::Shr => x >> y,
            // A negative left operand is undefined ([expr.shift]/2); a signed result is the
            // value when its type's unsigned form holds it, converted.
            _ if t.signed() && x < 0 => return None,
            _ => {
                let r = ((x as u128) << y) as i128;
                let unsigned_form = if t.bits() == 32 {
                    IntTy::U32
                } else {
                    IntTy::U64
                };
                if t.signed() && !unsigned_form.fits(r) {
                    return overflow();
                }
                t.wrap(r)
            }
        };
        return Some(HostVal::typed(r, t));
    }
    let t = IntTy::common(tx, ty);
    let (a, b) = (t.wrap(x), t.wrap(y));
    let exact = match op {
        BinOp::Add => a.checked_add(b)?,
        BinOp::Sub => a.checked_sub(b)?,
        BinOp::Mul => match a.checked_mul(b) {
            Some(r) => r,
            // Two 64-bit unsigned operands: only the low bits are kept.
            None if !t.signed() => (a as u128).wrapping_mul(b as u128) as i128,
            None => return None,
        },
        BinOp::Div => a.checked_div(b)?,
        BinOp::Rem => a.checked_rem(b)?,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Lt => return Some(Int(i128::from(a < b))),
        BinOp::Le => return Some(Int(i128::from(a <= b))),
        BinOp::Gt => return Some(Int(i128::from(a > b))),
        BinOp::Ge => return Some(Int(i128::from(a >= b))),
        BinOp::Eq => return Some(Int(i128::from(a == b))),
        BinOp::Ne => return Some(Int(i128::from(a != b))),
        _ => return None,
    };
    if t.signed() && !t.fits(exact) {
        return overflow();
    }
    Some(HostVal::typed(t.wrap(exact), t))
}
