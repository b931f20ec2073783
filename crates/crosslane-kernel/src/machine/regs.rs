//! Lane registers: one variable of one warp as raw bits per lane, a mask of the lanes whose
//! value is undefined, and for each such lane the id of its reason in the machine's
//! [`Reasons`] table. Reading or writing a defined scalar, float or pointer lane touches no heap;
//! a value the slot's type does not describe (a vector, a value of another type) is kept whole.
//!
//! The reason an undefined lane carries ("signed overflow …", "`x` is not declared yet") is
//! interned once and shared: a loop that leaves a variable undefined in every lane of every
//! iteration stores one reason, not one string per lane per iteration.

use crate::budget::{self, size};
use crate::lane_row::ReasonTable;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar, Ty, ValTy};
use crosslane_core::lanes::LaneMask;

/// The undefined reasons of a run, each stored once: the same table a full trace's rows point
/// at ([`ReasonTable`]), here the machine's own.
pub(crate) type Reasons = ReasonTable;

/// How a slot's defined values are kept as bits: by its declared type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Enc {
    /// `KVal::Int` of this scalar type: its bits.
    Int(Scalar),
    /// `KVal::Float` of this scalar type: the `f64`'s bits.
    Float(Scalar),
    /// `KVal::Ptr` to elements of this type: the offset's bits, the buffer in `aux`.
    Ptr(ValTy),
    /// Anything else (vectors, untyped slots): kept whole.
    Whole,
}

impl Enc {
    fn of(ty: Option<Ty>) -> Enc {
        match ty {
            Some(Ty::Val(t)) if t.lanes == 1 && t.scalar.is_float() => Enc::Float(t.scalar),
            Some(Ty::Val(t)) if t.lanes == 1 => Enc::Int(t.scalar),
            Some(Ty::Ptr(elem)) => Enc::Ptr(elem),
            _ => Enc::Whole,
        }
    }
}

/// One variable of one warp, every lane.
#[derive(Clone, Debug)]
pub(crate) struct Reg {
    enc: Enc,
    /// Raw bits of each lane's defined value (see [`Enc`]).
    bits: Vec<u64>,
    /// A pointer lane's buffer index.
    aux: Vec<u32>,
    /// Lanes whose value is undefined; their reason id is in `reason`.
    undef: LaneMask,
    reason: Vec<u32>,
    /// Lanes whose value is kept whole in `whole` (not describable by `enc`).
    boxed: LaneMask,
    whole: Vec<Option<KVal>>,
}

impl Reg {
    /// A register of `lanes` lanes for a slot of type `ty`, every lane undefined with reason
    /// `reason`.
    pub(crate) fn new(ty: Option<Ty>, lanes: usize, reason: u32) -> Self {
        let enc = Enc::of(ty);
        Reg {
            enc,
            bits: vec![0; lanes],
            aux: if matches!(enc, Enc::Ptr(_)) {
                vec![0; lanes]
            } else {
                Vec::new()
            },
            undef: LaneMask::all(lanes),
            reason: vec![reason; lanes],
            boxed: LaneMask::none(),
            whole: Vec::new(),
        }
    }

    /// Bytes a register of `lanes` lanes of type `ty` holds (its kept-whole values aside).
    pub(crate) fn bytes(ty: Option<Ty>, lanes: usize) -> u64 {
        let per_lane = 8
            + 4
            + if matches!(Enc::of(ty), Enc::Ptr(_)) {
                4
            } else {
                0
            };
        4 * size::VEC + 64 + lanes as u64 * per_lane
    }

    /// Lanes in the register.
    pub(crate) fn lanes(&self) -> usize {
        self.bits.len()
    }

    /// Lane `l`'s value (`None` past the last lane).
    pub(crate) fn get(&self, l: usize, reasons: &Reasons) -> Option<LaneVal> {
        let bits = *self.bits.get(l)?;
        if self.undef.contains(l) {
            return Some(Err(reasons.get(self.reason[l])));
        }
        if self.boxed.contains(l) {
            return self.whole.get(l).cloned().flatten().map(Ok);
        }
        Some(Ok(match self.enc {
            Enc::Int(ty) => KVal::Int { ty, bits },
            Enc::Float(ty) => KVal::Float {
                ty,
                x: f64::from_bits(bits),
                approx: None,
            },
            Enc::Ptr(elem) => KVal::Ptr {
                elem,
                buf: self.aux[l] as usize,
                offset: bits as i64,
            },
            // Every lane of a `Whole` register is boxed or undefined.
            Enc::Whole => return Some(Err(Undef::idle())),
        }))
    }

    /// Sets lane `l` (ignored past the last lane); returns the bytes a newly interned reason
    /// cost.
    pub(crate) fn set(&mut self, l: usize, v: LaneVal, reasons: &mut Reasons) -> u64 {
        if l >= self.bits.len() {
            return 0;
        }
        match v {
            Err(u) => {
                let (id, bytes) = reasons.intern(&u);
                self.set_undef(l, id);
                bytes
            }
            Ok(k) => {
                self.set_val(l, k);
                0
            }
        }
    }

    /// Sets lane `l` undefined with reason id `id`.
    pub(crate) fn set_undef(&mut self, l: usize, id: u32) {
        if l < self.reason.len() {
            self.undef = self.undef.with(l);
            self.reason[l] = id;
        }
    }

    /// Sets lane `l` to the defined value `k`.
    pub(crate) fn set_val(&mut self, l: usize, k: KVal) {
        if l >= self.bits.len() {
            return;
        }
        self.undef = self.undef.without(l);
        let raw = match (self.enc, &k) {
            (Enc::Int(t), KVal::Int { ty, bits }) if *ty == t => Some(*bits),
            // A value with an accuracy note is kept whole, note and all.
            (
                Enc::Float(t),
                KVal::Float {
                    ty,
                    x,
                    approx: None,
                },
            ) if *ty == t => Some(x.to_bits()),
            (Enc::Ptr(e), KVal::Ptr { elem, buf, offset }) if *elem == e => {
                match u32::try_from(*buf) {
                    Ok(b) => {
                        self.aux[l] = b;
                        Some(*offset as u64)
                    }
                    Err(_) => None,
                }
            }
            _ => None,
        };
        match raw {
            Some(bits) => {
                self.bits[l] = bits;
                self.boxed = self.boxed.without(l);
            }
            None => {
                if self.whole.len() < self.bits.len() {
                    self.whole.resize(self.bits.len(), None);
                }
                self.whole[l] = Some(k);
                self.boxed = self.boxed.with(l);
            }
        }
    }

    /// How a defined scalar of type `ty` is kept as bits.
    fn enc_of(ty: Scalar) -> Enc {
        if ty.is_float() {
            Enc::Float(ty)
        } else {
            Enc::Int(ty)
        }
    }

    /// Whether the register keeps scalars of type `ty` as raw bits (an integer's bits, a
    /// float's `f64` bits).
    pub(crate) fn holds(&self, ty: Scalar) -> bool {
        self.enc == Self::enc_of(ty)
    }

    /// Every lane's raw bits, when the register keeps scalars of type `ty` and every lane of
    /// `mask` holds a defined value of that type (`None` otherwise: an undefined lane, or one
    /// kept whole).
    pub(crate) fn raw_lanes(&self, ty: Scalar, mask: LaneMask) -> Option<&[u64]> {
        (self.holds(ty) && (self.undef.0 | self.boxed.0) & mask.0 == 0)
            .then_some(self.bits.as_slice())
    }

    /// Every lane's element offset and buffer, when the register keeps pointers to `elem` and
    /// every lane of `mask` holds a defined one (`None` otherwise).
    pub(crate) fn ptr_lanes(&self, elem: ValTy, mask: LaneMask) -> Option<(&[u64], &[u32])> {
        (self.enc == Enc::Ptr(elem) && (self.undef.0 | self.boxed.0) & mask.0 == 0)
            .then_some((self.bits.as_slice(), self.aux.as_slice()))
    }

    /// Sets lane `l` to the scalar of the register's own type with raw bits `bits` (for a
    /// register that [`Reg::holds`] it; ignored past the last lane).
    pub(crate) fn set_raw_bits(&mut self, l: usize, bits: u64) {
        if let Some(b) = self.bits.get_mut(l) {
            *b = bits;
            self.undef = self.undef.without(l);
            self.boxed = self.boxed.without(l);
        }
    }

    /// Bytes [`Reg::row`] allocates ([`budget::lanes_bytes`] of it), without building it.
    pub(crate) fn row_bytes(&self, reasons: &Reasons) -> u64 {
        let mut n = size::VEC;
        for l in 0..self.lanes() {
            n += if self.undef.contains(l) {
                size::LANE_VAL + reasons.why_len(self.reason[l])
            } else if self.boxed.contains(l) {
                self.whole
                    .get(l)
                    .and_then(Option::as_ref)
                    .map_or(size::LANE_VAL, |k| {
                        budget::kval_bytes(k) + (size::LANE_VAL - size::KVAL)
                    })
            } else {
                size::LANE_VAL
            };
        }
        n
    }

    /// Every lane's value.
    pub(crate) fn row(&self, reasons: &Reasons) -> Vec<LaneVal> {
        (0..self.lanes())
            .map(|l| self.get(l, reasons).unwrap_or_else(|| Err(Undef::idle())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undef(why: &str) -> Undef {
        Undef {
            line: 3,
            col: 5,
            why: why.into(),
            uninit: false,
        }
    }

    #[test]
    fn defined_lanes_round_trip_through_raw_bits() {
        let mut reasons = Reasons::default();
        let (start, _) = reasons.intern(&undef("`x` is not declared yet"));
        let mut r = Reg::new(Some(Ty::Val(ValTy::scalar(Scalar::I32))), 4, start);
        assert!(matches!(r.get(2, &reasons), Some(Err(u)) if u.why == "`x` is not declared yet"));
        r.set(2, Ok(KVal::int(Scalar::I32, -7)), &mut reasons);
        assert_eq!(r.get(2, &reasons), Some(Ok(KVal::int(Scalar::I32, -7))));
        // A float slot keeps the f64 bits exactly, NaN payloads and -0 included.
        let mut f = Reg::new(Some(Ty::Val(ValTy::scalar(Scalar::F32))), 2, start);
        let nan = f64::from_bits(0x7ff8_0000_0000_1234);
        f.set(
            0,
            Ok(KVal::Float {
                ty: Scalar::F32,
                x: nan,
                approx: None,
            }),
            &mut reasons,
        );
        f.set(
            1,
            Ok(KVal::Float {
                ty: Scalar::F32,
                x: -0.0,
                approx: None,
            }),
            &mut reasons,
        );
        assert!(
            matches!(f.get(0, &reasons), Some(Ok(KVal::Float { x, .. })) if x.to_bits() == nan.to_bits())
        );
        assert!(
            matches!(f.get(1, &reasons), Some(Ok(KVal::Float { x, .. })) if x.to_bits() == (-0.0f64).to_bits())
        );
        // A pointer keeps its buffer and offset.
        let elem = ValTy::scalar(Scalar::U32);
        let mut p = Reg::new(Some(Ty::Ptr(elem)), 1, start);
        let ptr = KVal::Ptr {
            elem,
            buf: 3,
            offset: -2,
        };
        p.set(0, Ok(ptr.clone()), &mut reasons);
        assert_eq!(p.get(0, &reasons), Some(Ok(ptr)));
        assert_eq!(p.get(1, &reasons), None);
    }

    #[test]
    fn a_value_of_another_type_is_kept_whole() {
        let mut reasons = Reasons::default();
        let mut r = Reg::new(Some(Ty::Val(ValTy::scalar(Scalar::U32))), 2, 0);
        let v = KVal::Vector {
            ty: Scalar::U8,
            items: vec![KVal::int(Scalar::U8, 1), KVal::int(Scalar::U8, 2)],
        };
        r.set(1, Ok(v.clone()), &mut reasons);
        assert_eq!(r.get(1, &reasons), Some(Ok(v)));
        r.set(1, Ok(KVal::int(Scalar::U32, 9)), &mut reasons);
        assert_eq!(r.get(1, &reasons), Some(Ok(KVal::int(Scalar::U32, 9))));
    }

    #[test]
    fn a_reason_is_interned_once() {
        let mut reasons = Reasons::default();
        let mut r = Reg::new(Some(Ty::Val(ValTy::scalar(Scalar::I32))), 32, 0);
        let mut cost = 0;
        for l in 0..32 {
            cost += r.set(l, Err(undef("signed overflow")), &mut reasons);
        }
        assert!(cost > 0);
        assert_eq!(reasons.len(), 1);
        let (_, again) = reasons.intern(&undef("signed overflow"));
        assert_eq!(again, 0);
        assert!(
            matches!(r.get(31, &reasons), Some(Err(u)) if u.why == "signed overflow" && u.line == 3)
        );
    }
}
