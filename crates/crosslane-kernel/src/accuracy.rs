//! The accuracy note a kernel value from an inexact math function carries: the function and
//! the bound its vendor documents for the device's result against the emulator's value. The
//! functions, their bounds and their sources are the math library's ([`super::mathlib`], which
//! also names and describes a note); this module holds only the data, so that the value type
//! ([`super::types::KVal`]) can carry it.

/// How far the device's result may be from the emulator's value, as the vendor states it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// At most this many units in the last place of the result.
    Ulp(u32),
    /// At most `2^e` absolute error (`__sinf` on [-π, π]: `2^-21.41`).
    AbsPow2(f32),
    /// The vendor states no bound for this argument (`__sinf` outside [-π, π], "larger
    /// otherwise"; a function "derived from its implementation").
    Unstated,
}

impl Bound {
    fn rank(self) -> (u8, f32) {
        match self {
            Bound::Ulp(n) => (0, n as f32),
            Bound::AbsPow2(e) => (1, e),
            Bound::Unstated => (2, 0.0),
        }
    }

    /// The bound in words: `by ≤ 2 ulp`, `by ≤ 2^-21.41 absolute`, or by an unbounded amount.
    pub fn words(self) -> String {
        match self {
            Bound::Ulp(n) => format!("by ≤ {n} ulp"),
            Bound::AbsPow2(e) => format!("by ≤ 2^{e} absolute"),
            Bound::Unstated => "by an amount the vendor does not bound".to_string(),
        }
    }
}

/// The accuracy note a value from an inexact math function carries: the function (an index
/// id, see [`super::mathlib::note_name`]) and the bound that applied to its argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Approx {
    /// The function, as an id [`super::mathlib::note_name`] reads.
    pub function: u16,
    /// The bound for this call's argument.
    pub bound: Bound,
}

impl Approx {
    /// The ulp bound, when the bound is one.
    pub fn ulp(self) -> Option<u32> {
        match self.bound {
            Bound::Ulp(n) => Some(n),
            _ => None,
        }
    }

    /// Of two notes, the one with the wider bound (an unstated bound is the widest; `self`
    /// on a tie).
    pub fn wider(self, other: Approx) -> Approx {
        let (a, b) = (self.bound.rank(), other.bound.rank());
        if b.0 > a.0 || (b.0 == a.0 && b.1 > a.1) {
            other
        } else {
            self
        }
    }
}
