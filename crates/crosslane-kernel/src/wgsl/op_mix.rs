//! Operator mixes the WGSL grammar forbids without parentheses and naga 30 parses with C's
//! precedence: `x & y | z`, `x << y + 1u`, `x + y << 1u`, `x & y == z`, `a == b == c` (WGSL
//! spec, § Expressions: a bitwise expression chains one operator over unary operands, a
//! shift's operands are unary, a relational expression compares two shift expressions;
//! Tint: "mixing '&' and '|' requires parenthesis"). Found in naga's IR: a binary expression
//! whose operand is another binary expression not written in parentheses in the source
//! (the spans say). `&&` / `||` mixes are [`super::scan::mixed_logical`]'s.

use naga::{BinaryOperator as B, Expression};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bitwise,
    Shift,
    Relational,
    Arithmetic,
    Other,
}

fn kind(op: B) -> Kind {
    match op {
        B::And | B::InclusiveOr | B::ExclusiveOr => Kind::Bitwise,
        B::ShiftLeft | B::ShiftRight => Kind::Shift,
        B::Equal | B::NotEqual | B::Less | B::LessEqual | B::Greater | B::GreaterEqual => {
            Kind::Relational
        }
        B::Add | B::Subtract | B::Multiply | B::Divide | B::Modulo => Kind::Arithmetic,
        _ => Kind::Other,
    }
}

fn symbol(op: B) -> &'static str {
    match op {
        B::And => "&",
        B::InclusiveOr => "|",
        B::ExclusiveOr => "^",
        B::ShiftLeft => "<<",
        B::ShiftRight => ">>",
        B::Equal => "==",
        B::NotEqual => "!=",
        B::Less => "<",
        B::LessEqual => "<=",
        B::Greater => ">",
        B::GreaterEqual => ">=",
        B::Add => "+",
        B::Subtract => "-",
        B::Multiply => "*",
        B::Divide => "/",
        B::Modulo => "%",
        B::LogicalAnd => "&&",
        B::LogicalOr => "||",
    }
}

/// Whether `child` (an operand of `parent`, on its left or right) may stand there without
/// parentheses.
fn allowed(parent: B, child: B, left: bool) -> bool {
    let (p, c) = (kind(parent), kind(child));
    if p == Kind::Other || c == Kind::Other {
        return true;
    }
    if p == Kind::Bitwise || c == Kind::Bitwise {
        // `a & b & c`: one operator, chained leftwards.
        return parent == child && left;
    }
    let shift_or_arith = |k| k == Kind::Shift || k == Kind::Arithmetic;
    if (p == Kind::Shift || c == Kind::Shift) && shift_or_arith(p) && shift_or_arith(c) {
        return false;
    }
    !(p == Kind::Relational && c == Kind::Relational)
}

/// The first operator mix the grammar forbids: its byte offset (the mix's first operator, as
/// Tint reports it) and the message.
pub fn refusal(module: &naga::Module, text: &str) -> Option<(usize, String)> {
    let bodies = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|ep| &ep.function));
    let mut first: Option<(usize, String)> = None;
    for f in bodies {
        for (h, e) in f.expressions.iter() {
            let Expression::Binary { op, left, right } = *e else {
                continue;
            };
            for (child, is_left) in [(left, true), (right, false)] {
                let Expression::Binary { op: cop, .. } = f.expressions[child] else {
                    continue;
                };
                // A `let` names its value: the operand is the name, not the expression.
                if allowed(op, cop, is_left) || f.named_expressions.contains_key(&child) {
                    continue;
                }
                let Some(span) = f.expressions.get_span(child).to_range() else {
                    continue;
                };
                if parenthesized(text, span.clone()) {
                    continue;
                }
                // The first operator in the text: the left operand's own, else the parent's;
                // found in the parent's text (an operand's span may be its `let`'s).
                let (a, b) = if is_left { (cop, op) } else { (op, cop) };
                let at = f
                    .expressions
                    .get_span(h)
                    .to_range()
                    .and_then(|r| first_operator(text, r, symbol(a)));
                let Some(at) = at else { continue };
                let message = format!(
                    "mixing `{}` and `{}` requires parentheses (WGSL spec, § Expressions: \
                     bitwise operators chain only themselves, a shift's operands are unary \
                     expressions, one comparison per expression; naga runs it with C's \
                     precedence, Tint refuses it): write the grouping you mean, e.g. \
                     `(x {} y) {} z`",
                    symbol(a),
                    symbol(b),
                    symbol(a),
                    symbol(b)
                );
                if first.as_ref().is_none_or(|(o, _)| at < *o) {
                    first = Some((at, message));
                }
            }
        }
    }
    first
}

/// Whether the source text around `span` is `( … )` (whitespace aside).
fn parenthesized(text: &str, span: std::ops::Range<usize>) -> bool {
    let b = text.as_bytes();
    let before = b[..span.start.min(b.len())]
        .iter()
        .rev()
        .find(|c| !c.is_ascii_whitespace());
    let after = b[span.end.min(b.len())..]
        .iter()
        .find(|c| !c.is_ascii_whitespace());
    before == Some(&b'(') && after == Some(&b')')
}

/// The offset of the first `sym` outside parentheses and brackets in `range` of the text
/// (not part of a longer operator: `&` is not `&&`, `<` is not `<<` or `<=`).
fn first_operator(text: &str, range: std::ops::Range<usize>, sym: &str) -> Option<usize> {
    let b = text.as_bytes();
    let end = range.end.min(b.len());
    let s = sym.as_bytes();
    let mut depth = 0i32;
    let mut k = range.start;
    while k < end {
        match b[k] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && b[k..end].starts_with(s) {
            let prev = k.checked_sub(1).map(|p| b[p]);
            let next = b.get(k + s.len()).copied();
            let op_char = |c: Option<u8>| c.is_some_and(|c| b"&|<>=!^+-*/%".contains(&c));
            if !op_char(prev) && !op_char(next) {
                return Some(k);
            }
        }
        k += 1;
    }
    None
}
