//! One walk over the statements of a naga block and every block nested in it, for the
//! questions the uniformity check and the lowering ask of a function body ("its first
//! barrier", "the helpers it calls", "does it return a ballot"). An explicit stack, no
//! recursion: nesting comes from the shader's text.

use naga::{Block, Span, Statement};

/// The first `Some` that `f` gives for a statement of `block` or of any block nested in it
/// (`if` arms, blocks, loop bodies and `continuing` blocks, switch cases), with the
/// statement's span; `None` when `f` gives none. A block's statements are asked in order, and
/// nested blocks after the block that holds them, the last pushed first (so "first" is
/// the first found, not the first in the source).
pub(crate) fn find_statement<'a, T>(
    block: &'a Block,
    mut f: impl FnMut(&'a Statement, Span) -> Option<T>,
) -> Option<T> {
    let mut stack = vec![block];
    while let Some(b) = stack.pop() {
        for (s, sp) in b.span_iter() {
            if let Some(found) = f(s, *sp) {
                return Some(found);
            }
            match s {
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(inner) => stack.push(inner),
                Statement::Loop {
                    body, continuing, ..
                } => {
                    stack.push(body);
                    stack.push(continuing);
                }
                Statement::Switch { cases, .. } => stack.extend(cases.iter().map(|c| &c.body)),
                _ => {}
            }
        }
    }
    None
}
