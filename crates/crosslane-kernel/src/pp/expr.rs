//! The controlling expression of `#if` / `#elif`: an integral constant expression evaluated in
//! `intmax_t` / `uintmax_t` (64 bits here) after `defined` and macro replacement, every remaining
//! identifier but `true` and `false` being 0 (C++17 \[cpp.cond\]/4–/9). Operators and their
//! conversions are those of \[expr\]: an operand of an unsigned type makes the operation unsigned
//! (\[expr\]/11 usual arithmetic conversions); signed overflow, division by zero and an
//! out-of-range shift are undefined (\[expr\]/4, \[expr.mul\]/4, \[expr.shift\]/1) and stop the
//! directive with that reason unless the operand is not evaluated (`0 && 1/0`).

use crate::lexer::Tok;

/// A value of the expression: its bits and whether its type is `uintmax_t`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct V {
    bits: u64,
    unsigned: bool,
}

impl V {
    fn int(v: i64) -> V {
        V {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn truth(self) -> bool {
        self.bits != 0
    }
}

/// Binding power of a binary operator (higher binds tighter), \[expr\] precedence.
fn binding(p: &str) -> Option<u8> {
    Some(match p {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

struct Eval<'a> {
    toks: &'a [Tok],
    pos: usize,
    depth: u32,
    max_depth: u32,
}

/// Evaluates `toks` (identifiers already replaced, see the module) to true or false.
///
/// # Errors
/// A message naming the fault: a malformed expression, an undefined operation, or nesting
/// deeper than `max_depth` (`--max-depth`).
pub(super) fn evaluate(toks: &[Tok], max_depth: u32) -> Result<bool, String> {
    if toks.is_empty() {
        return Err("#if with no expression".into());
    }
    let mut e = Eval {
        toks,
        pos: 0,
        depth: 0,
        max_depth,
    };
    let v = e.conditional(true)?;
    if let Some(t) = e.toks.get(e.pos) {
        return Err(format!(
            "unexpected `{}` in #if expression",
            super::spell(t)
        ));
    }
    Ok(v.truth())
}

impl Eval<'_> {
    fn peek_punct(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some(Tok::Punct(p)) => Some(p),
            _ => None,
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(format!(
                "#if expression nested deeper than the depth limit of {}; raise it with --max-depth",
                self.max_depth
            ));
        }
        Ok(())
    }

    /// `a ? b : c` (right-associative); `live` is false inside an operand not evaluated.
    fn conditional(&mut self, live: bool) -> Result<V, String> {
        self.enter()?;
        let c = self.binary(0, live)?;
        let r = if self.peek_punct() == Some("?") {
            self.pos += 1;
            let a = self.conditional(live && c.truth())?;
            if self.peek_punct() != Some(":") {
                return Err("`?` without `:` in #if expression".into());
            }
            self.pos += 1;
            let b = self.conditional(live && !c.truth())?;
            let unsigned = a.unsigned || b.unsigned;
            let pick = if c.truth() { a } else { b };
            V {
                bits: pick.bits,
                unsigned,
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    /// Precedence climbing over the binary operators binding tighter than `min`.
    fn binary(&mut self, min: u8, live: bool) -> Result<V, String> {
        let mut lhs = self.unary(live)?;
        while let Some(op) = self.peek_punct() {
            let Some(bp) = binding(op) else { break };
            if bp <= min {
                break;
            }
            self.pos += 1;
            let rlive = match op {
                "&&" => live && lhs.truth(),
                "||" => live && !lhs.truth(),
                _ => live,
            };
            self.enter()?;
            let rhs = self.binary(bp, rlive)?;
            self.depth -= 1;
            lhs = apply(op, lhs, rhs, live)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool) -> Result<V, String> {
        self.enter()?;
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        let r = match t {
            Some(Tok::Int {
                value, unsigned, ..
            }) => V {
                bits: value,
                unsigned,
            },
            Some(Tok::Char(c) | Tok::PrefixedChar { code: c, .. }) => V::int(i64::from(c)),
            Some(Tok::Punct("(")) => {
                let v = self.conditional(live)?;
                if self.peek_punct() != Some(")") {
                    return Err("`(` without `)` in #if expression".into());
                }
                self.pos += 1;
                v
            }
            Some(Tok::Punct("+")) => self.unary(live)?,
            Some(Tok::Punct("-")) => {
                let v = self.unary(live)?;
                if v.unsigned {
                    V {
                        bits: v.bits.wrapping_neg(),
                        unsigned: true,
                    }
                } else {
                    match (v.bits as i64).checked_neg() {
                        Some(n) => V::int(n),
                        None if live => return Err(overflow("-")),
                        None => V::int(0),
                    }
                }
            }
            Some(Tok::Punct("~")) => {
                let v = self.unary(live)?;
                V {
                    bits: !v.bits,
                    unsigned: v.unsigned,
                }
            }
            Some(Tok::Punct("!")) => V::int(i64::from(!self.unary(live)?.truth())),
            Some(Tok::Float { .. }) => return Err(
                "a floating literal in #if expression ([cpp.cond]/1: integral constant expression)"
                    .into(),
            ),
            Some(t) => {
                return Err(format!(
                    "unexpected `{}` in #if expression",
                    super::spell(&t)
                ))
            }
            None => return Err("#if expression ends too early".into()),
        };
        self.depth -= 1;
        Ok(r)
    }
}

fn overflow(op: &str) -> String {
    format!(
        "signed overflow in `{op}` of an #if expression is undefined (C++17 [expr]/4; intmax_t is 64 bits)"
    )
}

/// One binary operation; errors only when `live` (the operand is evaluated).
fn apply(op: &str, a: V, b: V, live: bool) -> Result<V, String> {
    let fail = |m: String| if live { Err(m) } else { Ok(V::int(0)) };
    let unsigned = a.unsigned || b.unsigned;
    let (x, y) = (a.bits, b.bits);
    let (sx, sy) = (x as i64, y as i64);
    let bool_v = |b: bool| Ok(V::int(i64::from(b)));
    match op {
        "&&" => bool_v(a.truth() && b.truth()),
        "||" => bool_v(a.truth() || b.truth()),
        "==" => bool_v(x == y),
        "!=" => bool_v(x != y),
        "<" | ">" | "<=" | ">=" => {
            let ord = if unsigned { x.cmp(&y) } else { sx.cmp(&sy) };
            bool_v(match op {
                "<" => ord.is_lt(),
                ">" => ord.is_gt(),
                "<=" => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        "<<" | ">>" => {
            // [expr.shift]/1: a negative count or one not less than the width is undefined;
            // the result has the left operand's type.
            if (!b.unsigned && sy < 0) || y >= 64 {
                return fail(format!(
                    "shift by {} in an #if expression is undefined (C++17 [expr.shift]/1: the count must be 0..64)",
                    if b.unsigned { y.to_string() } else { sy.to_string() }
                ));
            }
            if op == ">>" {
                // Of a negative value: arithmetic, as clang and nvcc define it.
                let bits = if a.unsigned { x >> y } else { (sx >> y) as u64 };
                return Ok(V {
                    bits,
                    unsigned: a.unsigned,
                });
            }
            if a.unsigned {
                return Ok(V {
                    bits: x << y,
                    unsigned: true,
                });
            }
            // [expr.shift]/2: E1 non-negative and E1 × 2^E2 representable in uintmax_t.
            if sx < 0 || (y > 0 && x >> (64 - y) != 0) {
                return fail(
                    "left shift of a negative value, or past the width of uintmax_t, in an #if expression is undefined (C++17 [expr.shift]/2)"
                        .into(),
                );
            }
            Ok(V::int((x << y) as i64))
        }
        "&" | "|" | "^" => Ok(V {
            bits: match op {
                "&" => x & y,
                "|" => x | y,
                _ => x ^ y,
            },
            unsigned,
        }),
        "+" | "-" | "*" => {
            if unsigned {
                let bits = match op {
                    "+" => x.wrapping_add(y),
                    "-" => x.wrapping_sub(y),
                    _ => x.wrapping_mul(y),
                };
                return Ok(V {
                    bits,
                    unsigned: true,
                });
            }
            let r = match op {
                "+" => sx.checked_add(sy),
                "-" => sx.checked_sub(sy),
                _ => sx.checked_mul(sy),
            };
            match r {
                Some(v) => Ok(V::int(v)),
                None => fail(overflow(op)),
            }
        }
        "/" | "%" => {
            if y == 0 {
                return fail(
                    "division by zero in an #if expression is undefined (C++17 [expr.mul]/4)"
                        .to_string(),
                );
            }
            if unsigned {
                return Ok(V {
                    bits: if op == "/" { x / y } else { x % y },
                    unsigned: true,
                });
            }
            let r = if op == "/" {
                sx.checked_div(sy)
            } else {
                sx.checked_rem(sy)
            };
            match r {
                Some(v) => Ok(V::int(v)),
                None => fail(overflow(op)),
            }
        }
        _ => Err(format!("operator `{op}` in #if expression")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_fragment;

    fn ev(s: &str) -> Result<bool, String> {
        let toks: Vec<Tok> = lex_fragment(s, 1000)
            .unwrap()
            .tokens
            .into_iter()
            .map(|t| t.tok)
            .filter(|t| *t != Tok::Eof)
            .collect();
        evaluate(&toks, 64)
    }

    #[test]
    fn arithmetic_and_conversions() {
        assert_eq!(ev("1 + 2 * 3 == 7"), Ok(true));
        assert_eq!(ev("(1 + 2) * 3 == 9"), Ok(true));
        // -1 < 0u is false: -1 converts to uintmax_t ([expr]/11).
        assert_eq!(ev("-1 < 0u"), Ok(false));
        assert_eq!(ev("-1 < 0"), Ok(true));
        assert_eq!(ev("900 >= 700 && 900 < 1000"), Ok(true));
        assert_eq!(ev("0 ? 1 : 2 == 2"), Ok(true));
        assert_eq!(ev("1 << 63 != 0"), Ok(true));
        assert_eq!(ev("-8 >> 1 == -4"), Ok(true));
        assert_eq!(ev("'A' == 65"), Ok(true));
    }

    #[test]
    fn undefined_operations_only_when_evaluated() {
        assert!(ev("1 / 0").unwrap_err().contains("division by zero"));
        assert_eq!(ev("0 && 1 / 0"), Ok(false));
        assert_eq!(ev("1 || 1 / 0"), Ok(true));
        assert!(ev("9223372036854775807 + 1")
            .unwrap_err()
            .contains("overflow"));
        assert!(ev("1 << 64").unwrap_err().contains("shift"));
        assert!(ev("(1").is_err());
        assert!(ev("1 2").is_err());
    }
}
