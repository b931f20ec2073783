//! A variable's lanes as a full trace records them at a step, compactly: the raw bits of each
//! lane, a mask of the undefined lanes and, for each of those, the id of its reason in the
//! trace's [`ReasonTable`] — 8 bytes a lane instead of a [`LaneVal`] (40 bytes, and the reason's
//! text once per lane). A loop that leaves a variable undefined in every lane of every iteration
//! stores its reason once.
//!
//! A row decodes back to exactly the [`LaneVal`]s it was built from ([`LaneRow::get`]), so the
//! views, the CLI's text and JSON, and the GPU diff read the same values as before
//! (`KernelTrace::change` and friends in [`super::trace`]).

use std::collections::HashMap;

use super::budget::{kval_bytes, size};
use super::lane_val::{LaneVal, Undef};
use super::types::{KVal, Scalar, ValTy};
use crosslane_core::lanes::LaneMask;

/// The undefined reasons a trace's rows point at, each stored once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReasonTable {
    list: Vec<Undef>,
    ids: HashMap<Undef, u32>,
}

impl ReasonTable {
    /// The id of `u`, stored when new; the second value is the bytes a new entry costs (0 when
    /// it was there), for the memory budget.
    pub(crate) fn intern(&mut self, u: &Undef) -> (u32, u64) {
        if let Some(&id) = self.ids.get(u) {
            return (id, 0);
        }
        let id = u32::try_from(self.list.len()).unwrap_or(u32::MAX);
        // Held twice (the list and the map's key).
        let bytes = 2 * (size::LANE_VAL + u.why.len() as u64) + 8;
        self.list.push(u.clone());
        self.ids.insert(u.clone(), id);
        (id, bytes)
    }

    /// The reason with id `id` (an idle "no value" reason for an id never given out).
    pub fn get(&self, id: u32) -> Undef {
        self.list
            .get(id as usize)
            .cloned()
            .unwrap_or_else(Undef::idle)
    }

    /// Bytes of the text of reason `id` (0 for an id never given out).
    pub(crate) fn why_len(&self, id: u32) -> u64 {
        self.list.get(id as usize).map_or(0, |u| u.why.len() as u64)
    }

    /// Reasons stored.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether no reason is stored.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// How a row's defined lanes are kept as bits: the type of its first defined scalar lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Enc {
    /// No defined scalar lane.
    None,
    /// `KVal::Int` of this type: its bits.
    Int(Scalar),
    /// `KVal::Float` of this type: the `f64`'s bits.
    Float(Scalar),
    /// `KVal::Ptr` to elements of this type: the offset's bits, the buffer in `aux`.
    Ptr(ValTy),
}

/// One variable's value in every lane of a warp (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct LaneRow {
    enc: Enc,
    /// Per lane: the raw bits of a defined value, or the reason id of an undefined one.
    bits: Vec<u64>,
    /// Per lane, for a row of pointers: the buffer index.
    aux: Vec<u32>,
    /// Lanes whose value is undefined.
    undef: LaneMask,
    /// Lanes whose value the encoding does not describe (a vector, a value of another type),
    /// kept whole.
    whole: Vec<(u32, KVal)>,
}

impl LaneRow {
    /// The row of `values` (at most [`crosslane_core::lanes::MAX_LANES`]); `reason_id` gives an
    /// undefined lane's id in the table the row is read with.
    pub(crate) fn encode(values: &[LaneVal], mut reason_id: impl FnMut(&Undef) -> u32) -> Self {
        let enc = values
            .iter()
            .find_map(|v| match v {
                Ok(KVal::Int { ty, .. }) => Some(Enc::Int(*ty)),
                Ok(KVal::Float {
                    ty, approx: None, ..
                }) => Some(Enc::Float(*ty)),
                Ok(KVal::Ptr { elem, .. }) => Some(Enc::Ptr(*elem)),
                _ => None,
            })
            .unwrap_or(Enc::None);
        let mut row = LaneRow {
            enc,
            bits: vec![0; values.len()],
            aux: if matches!(enc, Enc::Ptr(_)) {
                vec![0; values.len()]
            } else {
                Vec::new()
            },
            undef: LaneMask::none(),
            whole: Vec::new(),
        };
        for (l, v) in values.iter().enumerate() {
            let k = match v {
                Err(u) => {
                    row.undef = row.undef.with(l);
                    row.bits[l] = u64::from(reason_id(u));
                    continue;
                }
                Ok(k) => k,
            };
            let raw = match (enc, k) {
                (Enc::Int(t), KVal::Int { ty, bits }) if *ty == t => Some(*bits),
                (
                    Enc::Float(t),
                    KVal::Float {
                        ty,
                        x,
                        approx: None,
                    },
                ) if *ty == t => Some(x.to_bits()),
                (Enc::Ptr(e), KVal::Ptr { elem, buf, offset }) if *elem == e => {
                    u32::try_from(*buf).ok().map(|b| {
                        row.aux[l] = b;
                        *offset as u64
                    })
                }
                _ => None,
            };
            match raw {
                Some(bits) => row.bits[l] = bits,
                None => row.whole.push((l as u32, k.clone())),
            }
        }
        row
    }

    /// Lanes in the row.
    pub fn lanes(&self) -> usize {
        self.bits.len()
    }

    /// Lane `l`'s value, its reason read from `reasons` (`None` past the last lane).
    pub fn get(&self, l: usize, reasons: &ReasonTable) -> Option<LaneVal> {
        let bits = *self.bits.get(l)?;
        if self.undef.contains(l) {
            return Some(Err(reasons.get(bits as u32)));
        }
        if let Some((_, k)) = self.whole.iter().find(|(i, _)| *i as usize == l) {
            return Some(Ok(k.clone()));
        }
        Some(match self.enc {
            Enc::Int(ty) => Ok(KVal::Int { ty, bits }),
            Enc::Float(ty) => Ok(KVal::Float {
                approx: None,
                ty,
                x: f64::from_bits(bits),
            }),
            Enc::Ptr(elem) => Ok(KVal::Ptr {
                elem,
                buf: self.aux.get(l).copied().unwrap_or(0) as usize,
                offset: bits as i64,
            }),
            // Every defined lane of a row without an encoding is kept whole.
            Enc::None => Err(Undef::idle()),
        })
    }

    /// Every lane's value.
    pub fn values(&self, reasons: &ReasonTable) -> Vec<LaneVal> {
        (0..self.lanes())
            .map(|l| self.get(l, reasons).unwrap_or_else(|| Err(Undef::idle())))
            .collect()
    }

    /// Bytes the row holds (its reasons are the table's).
    pub fn bytes(&self) -> u64 {
        size::LANE_ROW
            + 8 * self.bits.len() as u64
            + 4 * self.aux.len() as u64
            + self
                .whole
                .iter()
                .map(|(_, k)| 8 + kval_bytes(k))
                .sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undef(why: &str, line: u32) -> Undef {
        Undef {
            line,
            col: 3,
            why: why.into(),
            uninit: false,
        }
    }

    /// A row gives back exactly the lanes it was built from: integers, floats (NaN and -0.0
    /// by their bits), pointers, a vector and a value of another type kept whole, undefined
    /// lanes with their reasons, each reason stored once.
    #[test]
    fn a_row_decodes_to_the_lanes_it_was_built_from() {
        let int = |b| {
            Ok(KVal::Int {
                ty: Scalar::U32,
                bits: b,
            })
        };
        let float = |x| {
            Ok(KVal::Float {
                ty: Scalar::F32,
                x,
                approx: None,
            })
        };
        let values: Vec<LaneVal> = vec![
            int(7),
            Err(undef("signed overflow", 4)),
            int(0xffff_ffff),
            Err(undef("signed overflow", 4)),
            Ok(KVal::Int {
                ty: Scalar::I64,
                bits: 5,
            }),
            Ok(KVal::Vector {
                ty: Scalar::F32,
                items: vec![KVal::Float {
                    ty: Scalar::F32,
                    x: 1.5,
                    approx: None,
                }],
            }),
            Err(undef("`x` is not declared yet", 0)),
        ];
        let mut table = ReasonTable::default();
        let row = LaneRow::encode(&values, |u| table.intern(u).0);
        assert_eq!(table.len(), 2, "each reason once");
        assert_eq!(row.values(&table), values);
        assert_eq!(row.get(7, &table), None);
        assert_eq!(row.whole.len(), 2, "the i64 and the vector are kept whole");

        let floats: Vec<LaneVal> = vec![float(-0.0), float(f64::INFINITY), float(0.1)];
        let row = LaneRow::encode(&floats, |u| table.intern(u).0);
        let back = row.values(&table);
        for (a, b) in floats.iter().zip(&back) {
            match (a, b) {
                (Ok(KVal::Float { x: a, .. }), Ok(KVal::Float { x: b, .. })) => {
                    assert_eq!(a.to_bits(), b.to_bits())
                }
                _ => panic!("{a:?} {b:?}"),
            }
        }
        assert!(row.whole.is_empty());

        let ptr = |buf, offset| {
            Ok(KVal::Ptr {
                elem: ValTy::scalar(Scalar::I32),
                buf,
                offset,
            })
        };
        let ptrs: Vec<LaneVal> = vec![ptr(1, -4), ptr(0, 9)];
        let row = LaneRow::encode(&ptrs, |u| table.intern(u).0);
        assert_eq!(row.values(&table), ptrs);
        assert!(row.whole.is_empty());
    }

    /// 32 defined 32-bit lanes take 8 bytes each plus the row's fixed part.
    #[test]
    fn a_row_of_32_lanes_holds_8_bytes_a_lane() {
        let values: Vec<LaneVal> = (0..32)
            .map(|b| {
                Ok(KVal::Int {
                    ty: Scalar::I32,
                    bits: b,
                })
            })
            .collect();
        let row = LaneRow::encode(&values, |_| 0);
        assert_eq!(row.bytes(), size::LANE_ROW + 32 * 8);
    }
}
