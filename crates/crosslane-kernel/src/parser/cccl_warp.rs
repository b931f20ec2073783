//! CCCL's generalized warp shuffles, `cuda::device::warp_shuffle_idx`, `warp_shuffle_up`,
//! `warp_shuffle_down` and `warp_shuffle_xor` from `<cuda/warp>` (libcu++ extended API, "Warp":
//! `cuda::device::warp_shuffle_idx/up/down/xor`, CCCL 3.0 / CUDA 13.0), which the CUDA C++
//! Programming Guide's warp shuffle example (`warp_broadcast_kernel`) calls.
//!
//! A token pass after preprocessing, as [`super::rocprim_lib`] is: where a source names
//! `cuda::device` and declares no `warp_shuffle_result` of its own (a pasted CCCL header keeps
//! its definitions), declarations of this crate's own are put before the source. Each function
//! is `template <int Width = 32, typename T>` with the documented forms `(data, lane_arg,
//! lane_mask = 0xFFFFFFFF)`, `(data, lane_arg, lane_mask, integral_constant<int, Width>)` and
//! `(data, lane_arg, integral_constant<int, Width>)`, and returns `warp_shuffle_result<T>`
//! (`T data; bool pred;`, converting to `T`). The data moves through the CUDA intrinsic of the
//! same mode (`__shfl_sync`, `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync` with
//! `width = Width`), so every rule of a shuffle (inactive or masked-off source lanes, a
//! destination lane outside `lane_mask`, values wider than 32 bits moved in pieces) is the
//! intrinsic's, in one place. `pred` is PTX `shfl.sync`'s predicate for the mode (PTX ISA,
//! "shfl.sync": true when the source lane lies in the lane's `Width`-lane segment): always for
//! `idx`, `lane % Width >= delta` for `up`, `lane % Width + delta < Width` for `down`,
//! `(lane % Width ^ xor_mask) < Width` for `xor`.
//!
//! `warp_match_any(data, lane_mask = 0xFFFFFFFF)` and `warp_match_all(data, lane_mask)`
//! (libcu++ "warp_match_any" / "warp_match_all": the lanes of `lane_mask` whose `data` is
//! bitwise equal to the calling lane's; whether all are) compare any trivially copyable `data`
//! through `__match_any_sync` ("calls `match.sync` ceil(sizeof(data)/4) times"): here one
//! `__match_any_sync` per member of a struct (`__crosslane_match_any`, [`MATCH_ANY`]), the
//! masks ANDed, which is the word-wise bitwise comparison padding aside; members narrower
//! than 32 bits compared as `unsigned`. `warp_match_all` is the match-any mask equal to
//! `lane_mask` (every lane of the mask holds the caller's value). The result of
//! `warp_match_any` is the mask as `unsigned` (newer CCCL wraps it in the class `lane_mask`,
//! not modelled: its members are refused as unknown).
//!
//! The documented preconditions: `Width` a power of two in \[1, 32\] and `lane_mask` non-zero
//! are checked when the function runs, as are `delta` and `xor_mask` less than `Width`; a
//! violated one stops the run at the call with the rule (never a picked value). A struct
//! value is moved from the one source lane member by member (`__crosslane_shfl_any`,
//! `cub_ptx.rs`), which is the documented 32-bit-word move padding aside; the result converts
//! to `T` through `operator T()` (a `T` initialized or assigned from it takes `data`). Raw
//! arrays are not moved (refused where the result's type is needed).

use super::std_constants::word;
use super::{PResult, Parser};
use crate::ast::{Expr, ExprKind};
use crate::lexer::{Tok, Token};
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// The name the declarations call a bitwise match of any value through
/// (`__crosslane_match_any(lane_mask, data)`).
pub(super) const MATCH_ANY: &str = "__crosslane_match_any";

impl Parser<'_> {
    /// `__crosslane_match_any(mask, data)` at the current token: `__match_any_sync(mask, v)`
    /// for a scalar `data`, the AND of one per member for a struct (see the module comment).
    pub(super) fn cccl_match_call(&mut self) -> PResult<Option<Expr>> {
        if !matches!(self.peek(0), Tok::Ident(w) if w == MATCH_ANY)
            || !matches!(self.peek(1), Tok::Punct("("))
        {
            return Ok(None);
        }
        let at = self.span();
        self.bump();
        self.expect_punct("(")?;
        let args = self.args_closed_by(")")?;
        let [mask, data] = &args[..] else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{MATCH_ANY} takes (mask, data)"),
            ));
        };
        let values: Vec<Expr> = if self.struct_of(data).is_some() {
            match self.leaves_of(data, None)? {
                Some((_, leaves)) => leaves.into_iter().map(|(_, e)| e).collect(),
                None => vec![data.clone()],
            }
        } else {
            vec![data.clone()]
        };
        let mut out: Option<Expr> = None;
        for v in values {
            // An integer narrower than 32 bits (or a `bool`) compared as `unsigned`: its
            // widening is one-to-one, so equal values stay equal and unequal ones unequal.
            let narrow = self.expr_type(&v).is_some_and(|t| {
                t.lanes == 1
                    && matches!(
                        t.scalar,
                        Scalar::Bool | Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16
                    )
            });
            let v = if narrow {
                let u = Ty::Val(ValTy::scalar(Scalar::U32));
                self.node(ExprKind::Cast(u, Box::new(v)), at)?
            } else {
                v
            };
            let m = self.e_call(at, "__match_any_sync", vec![mask.clone(), v]);
            out = Some(match out {
                Some(o) => self.e_bin(at, BinOp::And, o, m),
                None => m,
            });
        }
        Ok(out)
    }
}

/// The declarations, in the kernel language.
const PRELUDE: &str = r#"
namespace cuda { namespace device {
template <typename T> struct warp_shuffle_result {
  T data;
  bool pred;
  __device__ operator T() const { return data; }
};
template <int Width> __device__ void __crosslane_cccl_check(unsigned lane_mask) {
  __crosslane_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0, "cuda::device::warp_shuffle_*: Width must be a power of two in [1, 32] (libcu++, warp_shuffle, Constraints)");
  __crosslane_assert(lane_mask != 0u, "cuda::device::warp_shuffle_*: lane_mask must be non-zero (libcu++, warp_shuffle, Preconditions)");
}
template <int Width = 32, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_idx(const T& data, int src_lane, unsigned lane_mask = 0xFFFFFFFFu) {
  __crosslane_cccl_check<Width>(lane_mask);
  warp_shuffle_result<T> r;
  r.data = __crosslane_shfl_any(__shfl_sync(lane_mask, data, src_lane, Width));
  r.pred = true;
  return r;
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_idx(const T& data, int src_lane, unsigned lane_mask, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_idx<Width>(data, src_lane, lane_mask);
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_idx(const T& data, int src_lane, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_idx<Width>(data, src_lane, 0xFFFFFFFFu);
}
template <int Width = 32, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_up(const T& data, int delta, unsigned lane_mask = 0xFFFFFFFFu) {
  __crosslane_cccl_check<Width>(lane_mask);
  __crosslane_assert(delta >= 0 && delta < Width, "cuda::device::warp_shuffle_up: delta must be less than Width (libcu++, warp_shuffle, Preconditions)");
  warp_shuffle_result<T> r;
  r.data = __crosslane_shfl_any(__shfl_up_sync(lane_mask, data, delta, Width));
  r.pred = (int)(__lane_id() % Width) >= delta;
  return r;
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_up(const T& data, int delta, unsigned lane_mask, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_up<Width>(data, delta, lane_mask);
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_up(const T& data, int delta, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_up<Width>(data, delta, 0xFFFFFFFFu);
}
template <int Width = 32, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_down(const T& data, int delta, unsigned lane_mask = 0xFFFFFFFFu) {
  __crosslane_cccl_check<Width>(lane_mask);
  __crosslane_assert(delta >= 0 && delta < Width, "cuda::device::warp_shuffle_down: delta must be less than Width (libcu++, warp_shuffle, Preconditions)");
  warp_shuffle_result<T> r;
  r.data = __crosslane_shfl_any(__shfl_down_sync(lane_mask, data, delta, Width));
  r.pred = (int)(__lane_id() % Width) + delta < Width;
  return r;
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_down(const T& data, int delta, unsigned lane_mask, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_down<Width>(data, delta, lane_mask);
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_down(const T& data, int delta, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_down<Width>(data, delta, 0xFFFFFFFFu);
}
template <int Width = 32, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_xor(const T& data, int xor_mask, unsigned lane_mask = 0xFFFFFFFFu) {
  __crosslane_cccl_check<Width>(lane_mask);
  __crosslane_assert(xor_mask >= 0 && xor_mask < Width, "cuda::device::warp_shuffle_xor: xor_mask must be less than Width (libcu++, warp_shuffle, Preconditions)");
  warp_shuffle_result<T> r;
  r.data = __crosslane_shfl_any(__shfl_xor_sync(lane_mask, data, xor_mask, Width));
  r.pred = (int)((__lane_id() % Width) ^ (unsigned)xor_mask) < Width;
  return r;
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_xor(const T& data, int xor_mask, unsigned lane_mask, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_xor<Width>(data, xor_mask, lane_mask);
}
template <int Width, typename T>
__device__ warp_shuffle_result<T> warp_shuffle_xor(const T& data, int xor_mask, cuda::std::integral_constant<int, Width> width_) {
  return warp_shuffle_xor<Width>(data, xor_mask, 0xFFFFFFFFu);
}
template <typename T>
__device__ unsigned warp_match_any(const T& data, unsigned lane_mask = 0xFFFFFFFFu) {
  __crosslane_assert(lane_mask != 0u, "cuda::device::warp_match_any: lane_mask must be non-zero (libcu++, warp_match_any, Preconditions)");
  return __crosslane_match_any(lane_mask, data);
}
template <typename T>
__device__ bool warp_match_all(const T& data, unsigned lane_mask = 0xFFFFFFFFu) {
  __crosslane_assert(lane_mask != 0u, "cuda::device::warp_match_all: lane_mask must be non-zero (libcu++, warp_match_all, Preconditions)");
  return __crosslane_match_any(lane_mask, data) == lane_mask;
}
} }
"#;

/// `tokens` with the declarations above put before them when the source names
/// `cuda::device` and declares no `warp_shuffle_result` itself; else `tokens` unchanged.
pub(super) fn cccl_warp(tokens: Vec<Token>) -> Vec<Token> {
    let Some(first) = tokens
        .windows(3)
        .find(|w| {
            word(w.first()) == Some("cuda")
                && matches!(w[1].tok, Tok::Punct("::"))
                && word(w.get(2)) == Some("device")
        })
        .map(|w| w[0].clone())
    else {
        return tokens;
    };
    if tokens
        .windows(2)
        .any(|w| word(w.first()) == Some("struct") && word(w.get(1)) == Some("warp_shuffle_result"))
    {
        return tokens;
    }
    let Ok(lexed) = crate::lexer::lex(PRELUDE) else {
        return tokens;
    };
    // Placed as rocPRIM's declarations are (at the line of the source's first `cuda::device`,
    // each token a column of its own from [`super::rocprim_lib`]'s first column on).
    super::rocprim_lib::prelude_at(
        lexed.tokens,
        tokens,
        first,
        super::rocprim_lib::PRELUDE_COL,
        1 << 17,
    )
}
