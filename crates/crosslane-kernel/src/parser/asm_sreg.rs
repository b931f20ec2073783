//! The PTX special registers inline `asm` reads (`%laneid`, `%lanemask_*`, `%warpid`, …) as
//! expressions of the thread's lane and block position: one reader for `parser/asm.rs`'s
//! one-line `mov` and `parser/asm_block.rs`'s blocks (PTX ISA, "Special Registers").

use crate::ast::*;
use crate::types::{BinOp, UnOp};

/// The value of special register `%reg` (`laneid`, `lanemask_lt`, …) as an expression of the
/// thread's lane (PTX ISA, "Special Registers"; the table in [`super::asm`]); `None` for a register the
/// emulator does not read.
pub(super) fn special_register(reg: &str, at: Span) -> Option<Expr> {
    let lane = || Expr::new(ExprKind::Call("__lane_id".into(), Vec::new()), at);
    let u = |v: u64| super::cg_lower::uint_lit(at, v);
    let bin = |op, a, b| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), at);
    let not = |a| Expr::new(ExprKind::Unary(UnOp::BitNot, Box::new(a)), at);
    let below = || bin(BinOp::Sub, bin(BinOp::Shl, u(1), lane()), u(1));
    let at_or_below = || bin(BinOp::Sub, bin(BinOp::Shl, u(2), lane()), u(1));
    Some(match reg {
        "laneid" => lane(),
        "lanemask_eq" => bin(BinOp::Shl, u(1), lane()),
        "lanemask_lt" => below(),
        "lanemask_le" => at_or_below(),
        "lanemask_gt" => not(at_or_below()),
        "lanemask_ge" => not(below()),
        "warpid" => warp_in_block(at),
        "smid" | "nsmid" | "nwarpid" | "clock" | "clock64" | "globaltimer" => {
            Expr::new(ExprKind::Call(format!("__ptx_reg_{reg}"), Vec::new()), at)
        }
        _ => return None,
    })
}

/// The thread's linear index in its block divided by `warpSize`: the warp's index in its block
/// as the emulator forms warps (CUDA C++ Programming Guide, Thread Hierarchy: x fastest, then
/// y, then z; SIMT Architecture: consecutive thread ids form a warp).
fn warp_in_block(at: Span) -> Expr {
    let e = |k| Expr::new(k, at);
    let m = |b: &str, f: &str| {
        e(ExprKind::Member(
            Box::new(e(ExprKind::Ident(b.into()))),
            f.into(),
        ))
    };
    let bin = |op, a, b| e(ExprKind::Binary(op, Box::new(a), Box::new(b)));
    let linear = bin(
        BinOp::Add,
        m("threadIdx", "x"),
        bin(
            BinOp::Mul,
            m("blockDim", "x"),
            bin(
                BinOp::Add,
                m("threadIdx", "y"),
                bin(BinOp::Mul, m("blockDim", "y"), m("threadIdx", "z")),
            ),
        ),
    );
    bin(BinOp::Div, linear, e(ExprKind::Ident("warpSize".into())))
}
