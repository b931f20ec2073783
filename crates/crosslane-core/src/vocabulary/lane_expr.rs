//! Lane expressions: one integer per lane written as a formula of `lane` (`(lane+1)%32`,
//! `lane^1`, `lane*4`), for the operand row (`--values`) and for per-thread parameters
//! (`--src-lane`, `--delta`, `--lane-mask`, `--width`, …).
//!
//! Grammar (C operators and C precedence, evaluated in 64-bit two's complement, wrapping):
//!
//! ```text
//! expr    := term (binop term)*
//! term    := '-' term | '~' term | '(' expr ')' | 'lane' | number
//! binop   := '*' '/' '%'  >  '+' '-'  >  '<<' '>>'  >  '&'  >  '^'  >  '|'   (tightest first)
//! number  := decimal | 0x hex | 0b binary
//! ```
//!
//! `/` and `%` truncate toward zero as in C (`(lane-1)%32` is -1 in lane 0, as the kernel would
//! compute it); a division by zero is an input error. The parser is a shunting-yard loop, not
//! recursion, and the text is limited to [`MAX_LEN`] characters, so no input can exhaust the stack.

use crate::error::InputError;
use crate::number::parse_int;

/// The longest expression accepted, in characters.
pub const MAX_LEN: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Num(i64),
    Lane,
    Op(Op),
    Open,
    Close,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Neg,
    Not,
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    And,
    Xor,
    Or,
}

impl Op {
    /// C precedence, higher binds tighter.
    fn prec(self) -> u8 {
        match self {
            Op::Neg | Op::Not => 7,
            Op::Mul | Op::Div | Op::Rem => 6,
            Op::Add | Op::Sub => 5,
            Op::Shl | Op::Shr => 4,
            Op::And => 3,
            Op::Xor => 2,
            Op::Or => 1,
        }
    }

    fn unary(self) -> bool {
        matches!(self, Op::Neg | Op::Not)
    }
}

/// A parsed lane expression (in postfix order), with the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneExpr {
    text: String,
    rpn: Vec<Tok>,
}

fn err(field: &str, text: &str, why: &str) -> InputError {
    InputError::new(
        field,
        format!(
            "`{text}`: {why}; a lane expression uses lane, integers, ( ) and + - * / % << >> & ^ | ~ \
             (e.g. (lane+1)%32, lane^1, lane*4)"
        ),
    )
}

fn lex(text: &str, field: &str) -> Result<Vec<Tok>, InputError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        if c.is_whitespace() {
            k += 1;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            let start = k;
            while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '_') {
                k += 1;
            }
            let word: String = chars[start..k].iter().collect();
            let lower = word.to_ascii_lowercase();
            if lower == "lane" || lower == "laneid" {
                out.push(Tok::Lane);
            } else {
                let n = parse_int(&word).ok_or_else(|| {
                    err(field, text, &format!("`{word}` is not lane or a number"))
                })?;
                out.push(Tok::Num(n));
            }
            continue;
        }
        let two: String = chars[k..(k + 2).min(chars.len())].iter().collect();
        let (tok, len) = match (c, two.as_str()) {
            (_, "<<") => (Tok::Op(Op::Shl), 2),
            (_, ">>") => (Tok::Op(Op::Shr), 2),
            ('(', _) => (Tok::Open, 1),
            (')', _) => (Tok::Close, 1),
            ('*', _) => (Tok::Op(Op::Mul), 1),
            ('/', _) => (Tok::Op(Op::Div), 1),
            ('%', _) => (Tok::Op(Op::Rem), 1),
            ('+', _) => (Tok::Op(Op::Add), 1),
            ('-', _) => (Tok::Op(Op::Sub), 1),
            ('&', _) => (Tok::Op(Op::And), 1),
            ('^', _) => (Tok::Op(Op::Xor), 1),
            ('|', _) => (Tok::Op(Op::Or), 1),
            ('~', _) => (Tok::Op(Op::Not), 1),
            _ => return Err(err(field, text, &format!("unexpected `{c}`"))),
        };
        out.push(tok);
        k += len;
    }
    Ok(out)
}

impl LaneExpr {
    /// Parses `text` for the field `field` (named in errors).
    ///
    /// # Errors
    /// [`InputError`] on `field` when the text is too long, has an unknown token, unbalanced
    /// parentheses or a missing operand.
    pub fn parse(text: &str, field: &str) -> Result<Self, InputError> {
        if text.chars().count() > MAX_LEN {
            return Err(err(
                field,
                text,
                &format!("longer than {MAX_LEN} characters"),
            ));
        }
        let toks = lex(text, field)?;
        let mut rpn = Vec::with_capacity(toks.len());
        let mut ops: Vec<Tok> = Vec::new();
        // Whether the next token starts an operand (so `-` is unary there).
        let mut want_operand = true;
        for t in toks {
            match t {
                Tok::Num(_) | Tok::Lane => {
                    if !want_operand {
                        return Err(err(field, text, "two operands without an operator"));
                    }
                    rpn.push(t);
                    want_operand = false;
                }
                Tok::Open => {
                    if !want_operand {
                        return Err(err(field, text, "`(` after an operand"));
                    }
                    ops.push(t);
                }
                Tok::Close => {
                    if want_operand {
                        return Err(err(field, text, "`)` without an operand before it"));
                    }
                    loop {
                        match ops.pop() {
                            Some(Tok::Open) => break,
                            Some(op) => rpn.push(op),
                            None => return Err(err(field, text, "unbalanced `)`")),
                        }
                    }
                }
                Tok::Op(op) => {
                    let op = match (op, want_operand) {
                        (Op::Sub, true) => Op::Neg,
                        (Op::Add, true) => continue,
                        (o, true) if !o.unary() => {
                            return Err(err(field, text, "an operator without a left operand"))
                        }
                        (o, false) if o.unary() => {
                            return Err(err(field, text, "`~` after an operand"))
                        }
                        (o, _) => o,
                    };
                    if !op.unary() {
                        // Left-associative binary operators pop equal or tighter ones first.
                        while let Some(Tok::Op(top)) = ops.last() {
                            if top.prec() >= op.prec() {
                                rpn.push(Tok::Op(*top));
                                ops.pop();
                            } else {
                                break;
                            }
                        }
                    }
                    ops.push(Tok::Op(op));
                    want_operand = true;
                }
            }
        }
        if want_operand {
            return Err(err(field, text, "ends without an operand"));
        }
        while let Some(t) = ops.pop() {
            if t == Tok::Open {
                return Err(err(field, text, "unbalanced `(`"));
            }
            rpn.push(t);
        }
        Ok(LaneExpr {
            text: text.trim().to_string(),
            rpn,
        })
    }

    /// The text as the user gave it (trimmed), for export as code and for the page.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text as the user gave it with every `lane` written as `lane_var` (for C export:
    /// `(int)lane`, so the arithmetic stays signed as here).
    pub fn with_lane(&self, lane_var: &str) -> String {
        let mut out = String::new();
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            let lower = word.to_ascii_lowercase();
            if lower == "lane" || lower == "laneid" {
                out.push_str(lane_var);
            } else {
                out.push_str(word);
            }
            word.clear();
        };
        for c in self.text.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    /// The expression fully parenthesized, with `lane` written as `lane_var` (for WGSL, which
    /// refuses to mix bitwise and arithmetic operators without parentheses).
    pub fn parenthesized(&self, lane_var: &str) -> String {
        let mut stack: Vec<String> = Vec::new();
        for t in &self.rpn {
            match *t {
                Tok::Num(n) => stack.push(n.to_string()),
                Tok::Lane => stack.push(lane_var.to_string()),
                Tok::Op(op) if op.unary() => {
                    let a = stack.pop().unwrap_or_default();
                    stack.push(format!("({}{a})", if op == Op::Neg { "-" } else { "~" }));
                }
                Tok::Op(op) => {
                    let b = stack.pop().unwrap_or_default();
                    let a = stack.pop().unwrap_or_default();
                    let sym = match op {
                        Op::Mul => "*",
                        Op::Div => "/",
                        Op::Rem => "%",
                        Op::Add => "+",
                        Op::Sub => "-",
                        Op::Shl => "<<",
                        Op::Shr => ">>",
                        Op::And => "&",
                        Op::Xor => "^",
                        Op::Or => "|",
                        Op::Neg | Op::Not => "",
                    };
                    stack.push(format!("({a} {sym} {b})"));
                }
                Tok::Open | Tok::Close => {}
            }
        }
        stack.pop().unwrap_or_default()
    }

    /// Whether the expression reads `lane` (otherwise it is one value for every lane).
    pub fn uses_lane(&self) -> bool {
        self.rpn.contains(&Tok::Lane)
    }

    /// The value in lane `lane`.
    ///
    /// # Errors
    /// [`InputError`] on `field` for a division or remainder by zero.
    pub fn eval(&self, lane: i64, field: &str) -> Result<i64, InputError> {
        let mut stack: Vec<i64> = Vec::with_capacity(self.rpn.len());
        for t in &self.rpn {
            match *t {
                Tok::Num(n) => stack.push(n),
                Tok::Lane => stack.push(lane),
                Tok::Op(op) if op.unary() => {
                    let a = stack.pop().unwrap_or(0);
                    stack.push(if op == Op::Neg { a.wrapping_neg() } else { !a });
                }
                Tok::Op(op) => {
                    let b = stack.pop().unwrap_or(0);
                    let a = stack.pop().unwrap_or(0);
                    let zero = || {
                        err(
                            field,
                            &self.text,
                            &format!("division by zero in lane {lane}"),
                        )
                    };
                    stack.push(match op {
                        Op::Mul => a.wrapping_mul(b),
                        Op::Div => a.checked_div(b).ok_or_else(zero)?,
                        Op::Rem => a.checked_rem(b).ok_or_else(zero)?,
                        Op::Add => a.wrapping_add(b),
                        Op::Sub => a.wrapping_sub(b),
                        // C11 6.5.7p3: a negative count, or one at least the width, is
                        // undefined; say so rather than pick a value.
                        Op::Shl | Op::Shr if !(0..64).contains(&b) => {
                            return Err(err(
                                field,
                                &self.text,
                                &format!(
                                    "shift count {b} in lane {lane} is outside 0..=63 (undefined \
                                     in C)"
                                ),
                            ))
                        }
                        Op::Shl => a.wrapping_shl(b as u32),
                        Op::Shr => a.wrapping_shr(b as u32),
                        Op::And => a & b,
                        Op::Xor => a ^ b,
                        Op::Or => a | b,
                        Op::Neg | Op::Not => 0,
                    });
                }
                Tok::Open | Tok::Close => {}
            }
        }
        Ok(stack.pop().unwrap_or(0))
    }

    /// One value per lane for `lanes` lanes.
    ///
    /// # Errors
    /// As [`LaneExpr::eval`].
    pub fn row(&self, lanes: usize, field: &str) -> Result<Vec<i64>, InputError> {
        (0..lanes as i64).map(|l| self.eval(l, field)).collect()
    }
}

/// Whether `text` is written as a lane expression (mentions `lane`, or uses an operator), rather
/// than as one number or a comma list.
pub fn looks_like_expr(text: &str) -> bool {
    let t = text.trim();
    !t.contains(',')
        && (t.to_ascii_lowercase().contains("lane")
            || (parse_int(t).is_none() && t.chars().any(|c| "()*/%+^&|~<>".contains(c))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str, n: usize) -> Vec<i64> {
        LaneExpr::parse(text, "x").unwrap().row(n, "x").unwrap()
    }

    #[test]
    fn c_precedence_and_truncating_remainder() {
        assert_eq!(row("(lane+1)%4", 4), vec![1, 2, 3, 0]);
        assert_eq!(row("lane^1", 4), vec![1, 0, 3, 2]);
        assert_eq!(row("lane&2", 4), vec![0, 0, 2, 2]);
        assert_eq!(row("lane-3", 2), vec![-3, -2]);
        // C: `(lane - 1) % 4` is -1 in lane 0 (truncation toward zero).
        assert_eq!(row("(lane-1)%4", 2), vec![-1, 0]);
        // `*` binds tighter than `+`, `+` tighter than `&`, `&` tighter than `^` and `|`.
        assert_eq!(row("lane*2+1", 3), vec![1, 3, 5]);
        assert_eq!(row("1 | lane & 2 ^ 2", 4), vec![3, 3, 1, 1]);
        assert_eq!(row("-lane", 2), vec![0, -1]);
        assert_eq!(row("~0", 1), vec![-1]);
        assert_eq!(row("1 << lane", 3), vec![1, 2, 4]);
        let e = LaneExpr::parse("lane >> -1", "x").unwrap();
        assert!(e
            .eval(0, "x")
            .unwrap_err()
            .to_string()
            .contains("shift count -1"));
        let e = LaneExpr::parse("1 << 64", "x").unwrap();
        assert!(e.eval(0, "x").is_err());
        let e = LaneExpr::parse("(lane + 1) % 32", "x").unwrap();
        assert_eq!(e.with_lane("(int)lane"), "((int)lane + 1) % 32");
        assert_eq!(e.parenthesized("i32(lane)"), "((i32(lane) + 1) % 32)");
        assert_eq!(
            LaneExpr::parse("-lane&3", "x").unwrap().parenthesized("l"),
            "((-l) & 3)"
        );
    }

    #[test]
    fn malformed_and_huge_inputs_are_errors() {
        for bad in ["lane+", "(lane", "lane)", "lane lane", "x", "*2", "lane~1"] {
            assert!(LaneExpr::parse(bad, "f").is_err(), "{bad}");
        }
        let e = LaneExpr::parse("lane%0", "f")
            .unwrap()
            .eval(0, "f")
            .unwrap_err();
        assert!(e.message.contains("division by zero"), "{}", e.message);
        let deep = format!("{}lane{}", "(".repeat(200), ")".repeat(200));
        assert!(LaneExpr::parse(&deep, "f").is_err());
        assert!(looks_like_expr("(lane+1)%32"));
        assert!(!looks_like_expr("-3"));
        assert!(!looks_like_expr("1,2"));
    }
}
