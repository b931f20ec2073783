//! `cuda::std::` read as `std::`: libcu++ (CCCL) declares in `cuda::std` the standard library's
//! names for device code — `cuda::std::numeric_limits`, `cuda::std::min`/`max`,
//! `cuda::std::is_same_v`, `cuda::std::plus` — with the standard's meaning (libcu++
//! documentation, "Standard API": each facility "behaves as its `std::` counterpart"), so the
//! front end reads each where it reads the `std::` name. A token pass after preprocessing,
//! linear in the tokens; `cuda::` before any other name (`cuda::maximum<>`) is kept.

use crate::lexer::{Tok, Token};

fn is_word(t: Option<&Token>, w: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Ident(x)) if x == w)
}

fn is_scope(t: Option<&Token>) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct("::")))
}

/// `tokens` with `cuda ::` dropped before `std ::`, and a global-scope `::` before that
/// (`::cuda::std::min`) dropped with it.
pub(super) fn cuda_std(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if is_word(tokens.get(k), "cuda")
            && is_scope(tokens.get(k + 1))
            && is_word(tokens.get(k + 2), "std")
            && is_scope(tokens.get(k + 3))
        {
            // `::cuda::std`: the leading `::` names the global scope and goes too; after a
            // scope (`X::cuda::std`) the name is a member of `X`, kept as written.
            let qualified = out.len() >= 2
                && matches!(
                    out[out.len() - 2].tok,
                    Tok::Ident(_) | Tok::Punct(">" | ">>")
                );
            if is_scope(out.last()) {
                if qualified {
                    out.push(tokens[k].clone());
                    k += 1;
                    continue;
                }
                out.pop();
            }
            k += 2;
            continue;
        }
        out.push(tokens[k].clone());
        k += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn words(src: &str) -> Vec<String> {
        cuda_std(lex(src).expect("lexes").tokens)
            .iter()
            .map(|t| crate::pp::spell(&t.tok))
            .filter(|s| !s.is_empty())
            .collect()
    }

    #[test]
    fn cuda_std_names_read_as_std() {
        assert_eq!(
            words("cuda::std::min(a, ::cuda::std::max(b, c));"),
            [
                "std", "::", "min", "(", "a", ",", "std", "::", "max", "(", "b", ",", "c", ")",
                ")", ";"
            ]
        );
        // Another `cuda::` name stays, as does a `cuda` member of another scope.
        assert_eq!(
            words("cuda::maximum<>"),
            ["cuda", "::", "maximum", "<", ">"]
        );
        assert_eq!(
            words("X::cuda::std::y"),
            ["X", "::", "cuda", "::", "std", "::", "y"]
        );
        // Before the `<cstdint>` pass: `cuda::std::uint32_t` is `std::uint32_t`.
        assert_eq!(words("cuda::std::uint32_t"), ["std", "::", "uint32_t"]);
    }
}
