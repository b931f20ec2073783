//! One host token slice parsed on its own as an expression (`sub_expr`): a host statement's
//! right-hand side, a launch's argument, a copy's byte count. The slice's `sizeof` of the file's
//! structs, host element sizes and template values are replaced by their numbers first, since the
//! sub-parser knows no struct definitions.

use super::Parser;
use crate::ast::*;
use crate::lexer::{Tok, Token};

impl Parser<'_> {
    /// Parses tokens `from..to` alone as one expression; `None` when they are not one.
    pub(super) fn sub_expr(&mut self, from: usize, to: usize) -> Option<Expr> {
        if from >= to || to > self.toks.len() {
            return None;
        }
        let outer = self.host_slice_at.replace(from);
        let e = self.sub_expr_of(self.toks[from..to].to_vec());
        self.host_slice_at = outer;
        e
    }

    /// [`Self::sub_expr`] of tokens given (not empty).
    pub(super) fn sub_expr_of(&mut self, mut slice: Vec<Token>) -> Option<Expr> {
        self.struct_sizes(&mut slice);
        self.host_elem_sizes(&mut slice);
        if !self.templates.is_empty() {
            self.host_template_values(&mut slice);
        }
        let last = slice.last()?.clone();
        slice.push(Token {
            tok: Tok::Eof,
            line: last.end.0,
            col: last.end.1,
            end: last.end,
        });
        let mut sub = Parser::new(&slice, self.comments, self.max_depth);
        sub.aliases = std::mem::take(&mut self.aliases);
        sub.consts = std::mem::take(&mut self.consts);
        sub.host_expr = true;
        let e = sub.expr().ok().filter(|_| matches!(sub.peek(0), Tok::Eof));
        self.aliases = std::mem::take(&mut sub.aliases);
        self.consts = std::mem::take(&mut sub.consts);
        e
    }

    /// `sizeof(P)` / `sizeof(struct P)` of a struct the file defines, in tokens parsed on their
    /// own: replaced by its size as the struct's layout gives it, alignment included
    /// ([expr.sizeof]/2; `n * sizeof(P)` in `cudaMalloc`). The expression parser of a host slice
    /// knows no struct definitions. A struct with array members is sized so too: the launch
    /// divides the bytes by the same layout and gives each array member its elements per
    /// struct (`crate::host_launch::struct_leaf`).
    fn struct_sizes(&self, slice: &mut Vec<Token>) {
        if self.structs.is_empty() {
            return;
        }
        // One pass, each token moved once.
        let mut out: Vec<Token> = Vec::with_capacity(slice.len());
        let mut k = 0;
        while k < slice.len() {
            let skip = usize::from(
                matches!(slice.get(k + 2).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "struct"),
            );
            let size = match (
                &slice[k].tok,
                slice.get(k + 1).map(|t| &t.tok),
                slice.get(k + 2 + skip).map(|t| &t.tok),
                slice.get(k + 3 + skip).map(|t| &t.tok),
            ) {
                (
                    Tok::Ident(s),
                    Some(Tok::Punct("(")),
                    Some(Tok::Ident(n)),
                    Some(Tok::Punct(")")),
                ) if s == "sizeof" && self.structs.contains_key(n) => {
                    let at = Span {
                        line: slice[k].line,
                        col: slice[k].col,
                    };
                    self.struct_size(n, at).ok()
                }
                _ => None,
            };
            match size {
                Some(value) => {
                    out.push(Token {
                        tok: Tok::Int {
                            value,
                            unsigned: true,
                            long: true,
                        },
                        end: slice[k + 3 + skip].end,
                        ..slice[k].clone()
                    });
                    k += 4 + skip;
                }
                None => {
                    out.push(slice[k].clone());
                    k += 1;
                }
            }
        }
        *slice = out;
    }
}
