//! Pointer ↔ integer conversions (`(unsigned long long)p`, `reinterpret_cast<uintptr_t>(p)`,
//! `(float*)addr`): C++17 [expr.reinterpret.cast]/4–5 make the mapping implementation-defined
//! and guarantee that a pointer converted to an integer of sufficient size and back is the
//! same pointer. The emulator's mapping keeps that guarantee and each buffer's identity:
//!
//! - buffer `k` (a kernel argument's buffer, a `__shared__` array, a local array) has the
//!   emulated base address [`BASE`] `+ k·2^33 + 2^32`; an element's address is the base plus
//!   its byte offset; the null pointer is 0;
//! - an integer converted to a pointer names the buffer whose window (±4 GiB around its base)
//!   holds it, at that byte offset: arithmetic on the integer that stays within 4 GiB of the
//!   buffer keeps pointing into it (its provenance), and an integer that came from no pointer
//!   names no buffer and is refused rather than read as some other buffer's memory;
//! - every base is a multiple of 2^32, so it meets the alignment `cudaMalloc` promises (CUDA
//!   C++ Programming Guide, Device Memory Accesses: "any address of a variable residing in
//!   global memory or returned by one of the memory allocation routines from the driver or
//!   runtime API is always aligned to at least 256 bytes"): `((uintptr_t)p & 15) == 0` holds
//!   for a buffer's start and for element `i` exactly when `i · sizeof(T)` is a multiple of 16,
//!   as on the device. A program that needs more than the documented 256 bytes of alignment
//!   relies on what no document promises; the emulator gives one of the allowed answers.

use crate::types::{Fault, KVal, Scalar, ValTy, NULL_BUF};

/// The emulated address of buffer 0's window (above 2^46, where no small integer reaches).
pub const BASE: u64 = 0x0000_7f00_0000_0000;
/// Each buffer's window: 2^33 bytes, its base in the middle.
const WINDOW_SHIFT: u32 = 33;
const HALF_WINDOW: u64 = 1 << 32;

/// Bytes of one element of `elem`.
fn elem_bytes(elem: ValTy) -> u64 {
    u64::from(elem.scalar.bits().max(8) / 8) * u64::from(elem.lanes.max(1))
}

/// The emulated address of element `offset` of buffer `buf` holding `elem`s.
pub fn address(elem: ValTy, buf: usize, offset: i64) -> u64 {
    let bytes = (offset as u64).wrapping_mul(elem_bytes(elem));
    if buf == NULL_BUF {
        return bytes;
    }
    BASE.wrapping_add((buf as u64) << WINDOW_SHIFT)
        .wrapping_add(HALF_WINDOW)
        .wrapping_add(bytes)
}

/// A pointer converted to the integer type `to`: its address, truncated to `to`'s width as an
/// integral conversion does ([conv.integral]/2).
pub fn to_int(elem: ValTy, buf: usize, offset: i64, to: Scalar) -> KVal {
    KVal::int(to, i128::from(address(elem, buf, offset)))
}

/// The integer `n` converted to a pointer to `elem` with `buffers` buffers in memory.
///
/// # Errors
/// [`Fault`] when `n` is no address of a buffer's window (an integer made from no pointer), or
/// is not a multiple of the element size from the buffer's base (a pointer the emulator's
/// element-indexed pointers cannot hold; dereferencing it would be a misaligned access, which
/// the CUDA C++ Programming Guide, Device Memory Accesses, leaves undefined).
pub fn from_int(n: i128, elem: ValTy, buffers: usize) -> Result<KVal, Fault> {
    let a = n as u64;
    if a == 0 {
        return Ok(KVal::Ptr {
            elem,
            buf: NULL_BUF,
            offset: 0,
        });
    }
    let rel = a.wrapping_sub(BASE);
    let buf = (rel >> WINDOW_SHIFT) as usize;
    if a < BASE || buf >= buffers {
        return Err(Fault::error(format!(
            "the integer {a:#x} is no address the emulator gave out (buffers live at \
             {BASE:#x} and above): only an integer made from a pointer converts back to one"
        )));
    }
    let byte = (rel & ((1 << WINDOW_SHIFT) - 1)) as i64 - HALF_WINDOW as i64;
    let size = elem_bytes(elem) as i64;
    if byte % size != 0 {
        return Err(Fault::error(format!(
            "the address {a:#x} is {} byte(s) past a multiple of {size} (the {} element \
             size) from its buffer's start: such a pointer is misaligned for its type",
            byte.rem_euclid(size),
            elem.name()
        )));
    }
    Ok(KVal::Ptr {
        elem,
        buf,
        offset: byte / size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_keep_the_buffer_and_the_offset() {
        let f = ValTy::scalar(Scalar::F32);
        for (buf, off) in [(0usize, 0i64), (3, 17), (2, -5), (7, 1 << 20)] {
            let a = address(f, buf, off);
            assert_eq!(
                from_int(i128::from(a), f, 8).ok(),
                Some(KVal::Ptr {
                    elem: f,
                    buf,
                    offset: off
                })
            );
        }
    }

    #[test]
    fn alignment_is_that_of_the_byte_offset() {
        let f = ValTy::scalar(Scalar::F32);
        // Element i of a float buffer is 16-aligned exactly when 4·i is a multiple of 16.
        for i in 0..64 {
            assert_eq!(address(f, 1, i) & 15 == 0, i % 4 == 0);
        }
        assert_eq!(address(f, 5, 0) % 256, 0);
    }

    #[test]
    fn integers_from_no_pointer_and_misaligned_ones_are_refused() {
        let f = ValTy::scalar(Scalar::F32);
        assert!(from_int(0x1000, f, 4).is_err());
        assert!(from_int(i128::from(address(f, 9, 0)), f, 4).is_err());
        assert!(from_int(i128::from(address(f, 1, 0) + 2), f, 4).is_err());
        assert!(matches!(
            from_int(0, f, 4),
            Ok(KVal::Ptr { buf: NULL_BUF, .. })
        ));
    }
}
