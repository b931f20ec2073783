//! HIP's first launch interface (HIP before ROCm 4): a kernel's first parameter is
//! `hipLaunchParm lp`, and `hipLaunchKernel(kernel, grid, block, shmem, stream, args…)` launches
//! it passing the launch parameter first. HIP's own headers define the pair so: its NVIDIA
//! path (`hip/nvcc_detail/hip_runtime.h`) as `typedef int hipLaunchParm;` and
//! `hipLaunchKernel(kernelName, numblocks, numthreads, memperblock, streamId, ...)` calling the
//! kernel with `0` before the arguments; its AMD path (`hip/hcc_detail/hip_runtime.h`) as
//! `hipLaunchKernelGGL(kernel_name, num_blocks, dim_blocks, group_mem_bytes, stream,
//! hipLaunchParm{}, ##__VA_ARGS__)`, the parameter an empty value the kernel never reads
//! (its fields are not HIP's API). A token pass reads a HIP source that names
//! `hipLaunchParm` the NVIDIA path's way: the type as `int`, each `hipLaunchKernel(` call of
//! five or more arguments as `hipLaunchKernelGGL(` with `0` inserted after the fifth. A
//! source without `hipLaunchParm` is left alone: there `hipLaunchKernel` is the runtime
//! function (`hipLaunchKernel(func, grid, block, args, shmem, stream)`, `host_launch_api`).

use crate::lexer::{Tok, Token};

/// Most arguments a call's list is scanned for (a budget).
const MAX_SCAN: usize = 1 << 16;

/// `tokens` with the old launch interface rewritten (module doc); unchanged when no token is
/// `hipLaunchParm`. One pass; each call's list scanned once.
pub(super) fn hip_launch_parm(tokens: Vec<Token>) -> Vec<Token> {
    let named = |t: &Token, w: &str| matches!(&t.tok, Tok::Ident(x) if x == w);
    if !tokens.iter().any(|t| named(t, "hipLaunchParm")) {
        return tokens;
    }
    let mut out = Vec::with_capacity(tokens.len() + 8);
    // Where a `0 ,` (or `, 0`) goes: the index of the token it goes before, and whether the
    // call has arguments after the fifth.
    let mut insert_at: Vec<(usize, bool)> = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if named(t, "hipLaunchKernel")
            && matches!(tokens.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
        {
            if let Some(at) = fifth_argument_end(&tokens, k + 1) {
                insert_at.push(at);
            }
        }
    }
    let mut next = insert_at.iter().peekable();
    for (k, t) in tokens.iter().enumerate() {
        if let Some(&&(at, more)) = next.peek() {
            if at == k {
                next.next();
                let zero = Token {
                    tok: Tok::Int {
                        value: 0,
                        unsigned: false,
                        long: false,
                    },
                    ..t.clone()
                };
                let comma = Token {
                    tok: Tok::Punct(","),
                    ..t.clone()
                };
                // `k(g, b, s, st, a, …)`: at the sixth argument, `0 ,` before it;
                // `k(g, b, s, st)`: at the `)`, `, 0`.
                if more {
                    out.extend([zero, comma]);
                } else {
                    out.extend([comma, zero]);
                }
            }
        }
        let mut t = t.clone();
        match &t.tok {
            Tok::Ident(w) if w == "hipLaunchParm" => t.tok = Tok::Ident("int".to_string()),
            Tok::Ident(w)
                if w == "hipLaunchKernel"
                    && insert_at.iter().any(|&(at, _)| at > k)
                    && matches!(tokens.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("("))) =>
            {
                t.tok = Tok::Ident("hipLaunchKernelGGL".to_string());
            }
            _ => {}
        }
        out.push(t);
    }
    out
}

/// In the call whose `(` is at `open`: the index just past the fifth argument's `,` (the
/// sixth argument's first token, `true`), or the closing `)` when there are exactly five
/// (`false`); `None` for fewer arguments or an unclosed list.
fn fifth_argument_end(tokens: &[Token], open: usize) -> Option<(usize, bool)> {
    let mut depth = 0usize;
    let mut commas = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open).take(MAX_SCAN) {
        match &t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (commas == 4).then_some((i, false));
                }
            }
            Tok::Punct(",") if depth == 1 => {
                commas += 1;
                if commas == 5 {
                    return Some((i + 1, true));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(src: &str) -> String {
        let toks = crate::lexer::lex(src).unwrap().tokens;
        hip_launch_parm(toks)
            .iter()
            .map(|t| match &t.tok {
                Tok::Ident(w) => w.clone(),
                Tok::Int { value, .. } => value.to_string(),
                Tok::Punct(p) => (*p).to_string(),
                Tok::Eof => String::new(),
                _ => "?".to_string(),
            })
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_old_launch_passes_the_parameter_first() {
        assert_eq!(
            text("void k(hipLaunchParm lp, int* a); hipLaunchKernel(k, g, b, 0, 0, a);"),
            "void k ( int lp , int * a ) ; hipLaunchKernelGGL ( k , g , b , 0 , 0 , 0 , a ) ;"
        );
        assert_eq!(
            text("void k(hipLaunchParm lp); hipLaunchKernel(k, dim3(1), dim3(64), 0, 0);"),
            "void k ( int lp ) ; hipLaunchKernelGGL ( k , dim3 ( 1 ) , dim3 ( 64 ) , 0 , 0 , 0 ) ;"
        );
    }

    #[test]
    fn without_the_old_type_the_runtime_call_stays() {
        assert_eq!(
            text("hipLaunchKernel(f, g, b, args, 0, 0);"),
            "hipLaunchKernel ( f , g , b , args , 0 , 0 ) ;"
        );
    }
}
