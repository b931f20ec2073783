//! Parse errors made readable: when the parser stops with a bare "expected …" on a line that
//! holds a construct the interpreter does not run, the error names the construct and what to
//! write instead ("never a bare `expected ;`"). Only the error's own line, up to the
//! token where it stopped, is looked at: one bounded scan, after the parse failed.

use super::Parser;
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// The construct a word starts, and what to write instead.
fn construct(word: &str) -> Option<&'static str> {
    Some(match word {
        "case" | "default" => {
            "a `case` or `default` label is read only at the top level of its `switch` body \
             (not inside a nested statement, as in Duff's device); move the label out, or write \
             an `if` / `else if` chain"
        }
        "goto" => {
            "`goto` runs only forward to a label later in the same block or an enclosing one \
             (`goto done;` out of nested loops, `done:` before a statement of that block); \
             write a backward jump as a `while` / `do … while` loop, a jump into a block as a \
             flag tested there"
        }
        "asm" | "__asm__" => {
            "inline `asm` is read only as a statement in a function body, in the shape \
             `asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id));`; otherwise call the vendor's \
             intrinsic (e.g. `__lane_id()` for `%laneid`, `__shfl_sync` for `shfl.sync`)"
        }
        "try" | "catch" | "throw" => "exceptions are not supported in device code",
        "cluster_group" | "this_cluster" | "map_shared_rank" | "__cluster_dims__" => {
            "thread block clusters (`cg::this_cluster()`, `cg::cluster_group`, distributed \
             shared memory through `cluster.map_shared_rank`, `__cluster_dims__`; CUDA C++ \
             Programming Guide, \"Thread Block Clusters\", sm_90) are not modelled: \
             crosslane runs each block on its own, without a cluster; write the work per block \
             (e.g. a histogram in each block's own `__shared__` memory, then `atomicAdd` of \
             its bins into global memory)"
        }
        _ => return None,
    })
}

/// For "expected a type, found `ns`" at a qualified name `ns::Name` (`__shared__
/// cuda::atomic<int> n;`): `ns::Name`.
fn qualified_type(e: &KernelError, toks: &[Token]) -> Option<String> {
    if !e.message.starts_with("expected a type, found `") {
        return None;
    }
    let k = toks
        .iter()
        .position(|t| t.line == e.line && t.col == e.col)?;
    match (
        toks.get(k).map(|t| &t.tok),
        toks.get(k + 1).map(|t| &t.tok),
        toks.get(k + 2).map(|t| &t.tok),
    ) {
        (Some(Tok::Ident(ns)), Some(Tok::Punct("::")), Some(Tok::Ident(n))) => {
            Some(format!("{ns}::{n}"))
        }
        _ => None,
    }
}

/// Ascend C's SIMD (vector) programming API's names that a source spells `AscendC::Name`
/// (CANN Ascend C API reference, "基础API" / "高阶API": `LocalTensor`, `GlobalTensor`, `TPipe`,
/// `TQue`, `TBuf`, `DataCopy`, `Add`, … on the AI Core's vector unit), shown in the refusal.
const VECTOR_API: &str = "`AscendC::LocalTensor`, `GlobalTensor`, `TPipe`, `TQue`, `TBuf`, \
                          `DataCopy`, `Add` and the other tensor, queue and vector-instruction \
                          classes and functions";

/// The first `AscendC::Name` in `toks` whose `Name` is not the SIMT API's (`Simt`, or a function
/// [`Parser::is_ascend_simt`] reads): a use of the vector API, as (line, column, name).
fn ascend_vector_use(toks: &[Token]) -> Option<(u32, u32, String)> {
    toks.windows(3)
        .find_map(|w| match (&w[0].tok, &w[1].tok, &w[2].tok) {
            (Tok::Ident(ns), Tok::Punct("::"), Tok::Ident(n))
                if ns == "AscendC" && n != "Simt" && !Parser::is_ascend_simt(n) =>
            {
                Some((w[0].line, w[0].col, n.clone()))
            }
            _ => None,
        })
}

/// `e` replaced by a refusal of Ascend C's vector API when the source that failed to parse uses
/// it ([`ascend_vector_use`]): the message says what is not supported and what is (the SIMT
/// API), at the first use, with the parser's own error after it.
pub(super) fn name_ascend_vector(e: KernelError, toks: &[Token]) -> KernelError {
    let Some((line, col, name)) = ascend_vector_use(toks) else {
        return e;
    };
    KernelError::new(
        line,
        col,
        format!(
            "`AscendC::{name}` is Ascend C's vector (SIMD) API ({VECTOR_API}), which is not \
             supported: only Ascend C's SIMT API runs here — `__simt_vf__` functions launched \
             with `asc_vf_call<f>(dim3(…), …)` or `__global__` kernels, with `threadIdx` / \
             `blockIdx` / `blockDim`, `asc_shfl`, `asc_shfl_up`, `asc_shfl_down`, \
             `asc_shfl_xor`, `asc_reduce_add` / `_max` / `_min`, `asc_all`, `asc_any`, \
             `asc_ballot`, `asc_syncthreads`, and `AscendC::Simt::WarpShfl*Sync` (the parse \
             stopped at line {}:{}: {})",
            e.line, e.col, e.message
        ),
    )
}

/// Whether `line` (a line's tokens up to a parse error) ends in a label `name :` (C++17
/// [stmt.label]) that starts the line or follows the end of a statement or block (`;`, `{`,
/// `}`): `again: i++;` after `int i = 0;` on one line.
fn is_label(line: &[&Token]) -> bool {
    let n = line.len();
    if n < 2 || !matches!(line[n - 1].tok, Tok::Punct(":")) {
        return false;
    }
    if !matches!(&line[n - 2].tok, Tok::Ident(w) if w != "default" && w != "public" && w != "private" && w != "protected")
    {
        return false;
    }
    n == 2 || matches!(line[n - 3].tok, Tok::Punct(";" | "{" | "}"))
}

/// The leading `in `name`: ` parts of an error message raised inside template instances (at
/// most 64 read), and the message after them.
fn instance_prefix(m: &str) -> (&str, &str) {
    let mut end = 0;
    for _ in 0..64 {
        let rest = &m[end..];
        let Some(after) = rest.strip_prefix("in `") else {
            break;
        };
        let Some(close) = after.find("`: ") else {
            break;
        };
        end += "in `".len() + close + "`: ".len();
    }
    m.split_at(end)
}

/// Whether `q` names one of CUB's (or hipCUB's) collective classes that crosslane does not run
/// (CUB API, "Warp-wide" and "Block-wide" collectives).
fn cub_unmodelled(q: &str) -> bool {
    let Some((ns, class)) = q.rsplit_once("::") else {
        return false;
    };
    // Any other warp- or block-wide class of the library (CCCL's later `WarpReduceBroadcast`,
    // `WarpReduceBatched`, `BlockTopK`, …) is one too; the modelled ones are named below.
    let modelled = matches!(
        class,
        "WarpReduce"
            | "WarpScan"
            | "WarpLoad"
            | "WarpStore"
            | "WarpExchange"
            | "BlockReduce"
            | "BlockScan"
            | "BlockLoad"
            | "BlockStore"
            | "BlockExchange"
            | "BlockRadixSort"
    );
    matches!(ns, "cub" | "hipcub")
        && !modelled
        && (class.len() > 5 && (class.starts_with("Warp") || class.starts_with("Block")))
}

/// `e` with its message replaced by the construct's, when `e` is a bare "expected …" on a line
/// of `toks` that holds one ([`construct`]), or at an initializer list `= {` inside a function.
pub(super) fn name_unsupported(e: KernelError, toks: &[Token]) -> KernelError {
    // An error inside a template instance leads with `in `k<…>`: ` per instance: the
    // construct's message replaces what follows, the instances kept before it.
    let (prefix, rest) = instance_prefix(&e.message);
    if !prefix.is_empty() {
        let inner = name_unsupported(KernelError::new(e.line, e.col, rest.to_string()), toks);
        return KernelError::new(e.line, e.col, format!("{prefix}{}", inner.message));
    }
    if !e.message.starts_with("expected") {
        return e;
    }
    let line: Vec<&Token> = toks
        .iter()
        .filter(|t| t.line == e.line && t.col <= e.col)
        .collect();
    let named = line.iter().find_map(|t| match &t.tok {
        Tok::Ident(w) => construct(w),
        _ => None,
    });
    let message = match named {
        Some(m) => m.to_string(),
        None if is_label(&line) => {
            // `done:` at the start of a line or a statement: a label, the target of a `goto`.
            construct("goto").unwrap_or_default().to_string()
        }
        None if qualified_type(&e, toks).is_some_and(|q| cub_unmodelled(&q)) => {
            let q = qualified_type(&e, toks).unwrap_or_default();
            format!(
                "`{q}` is not modelled here: of CUB's collective classes crosslane runs \
                 WarpReduce, WarpScan, WarpLoad, WarpStore, WarpExchange, BlockReduce, BlockScan, \
                 BlockLoad, BlockStore, BlockExchange and BlockRadixSort (headers are not read); write out what it computes \
                 (an exchange: stores to `__shared__` memory, a barrier, loads; a reduction to \
                 every lane: WarpReduce's result broadcast with `__shfl_sync(…, r, 0)`)"
            )
        }
        None if qualified_type(&e, toks).is_some() => {
            let q = qualified_type(&e, toks).unwrap_or_default();
            format!(
                "`{q}` names no type crosslane knows: headers are not read (crosslane reads this \
                 one file, with the vendors' builtins and the library types it models by name); \
                 declare the variable with a type it reads (for `cuda::atomic<T>`, a `T` updated \
                 with `atomicAdd` and kin, CUDA C++ Programming Guide, \"Atomic Functions\")"
            )
        }
        None => {
            // `int a[4] = {1, 2, 3, 4};` in a function: the parser stops at the `{`.
            let at_brace = matches!(line.last().map(|t| &t.tok), Some(Tok::Punct("{")));
            let after_eq = line.len() >= 2
                && matches!(
                    line.get(line.len() - 2).map(|t| &t.tok),
                    Some(Tok::Punct("="))
                );
            if !(at_brace && after_eq) {
                return e;
            }
            "an initializer list `= {…}` is read here for an array, a struct or a scalar \
             variable; for anything else assign the value after the declaration"
                .to_string()
        }
    };
    // The parser's own reason leads when it names the operand it wanted (an `asm` operand's
    // constraint), the construct's shape after it.
    if e.message.starts_with("expected a `\"") {
        return KernelError::new(e.line, e.col, format!("{}; {message}", e.message));
    }
    KernelError::new(e.line, e.col, format!("{message} ({})", e.message))
}
