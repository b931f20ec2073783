//! Operator mixes the WGSL grammar forbids without parentheses, found in the source text before
//! naga parses it: [`super::op_mix`] finds them in naga's IR, which misses the ones naga folds
//! away (`const K = 1u & 2u | 3u;`, a module- or function-scope `const`: only the folded value
//! is left) and the ones naga refuses with its own type error (`x & m != 0u` parses as
//! `x & (m != 0u)` with C's precedence: "Incompatible operands" at 1:1).
//!
//! The grammar (WGSL spec, § Expressions, `expression`): an expression is a bitwise expression
//! (one of `&`, `|`, `^` chained over unary operands), or relational expressions joined by one
//! of `&&` / `||`; a relational expression compares two shift expressions (at most one
//! comparison); a shift expression is `unary << unary` (or `>>`) or an additive expression.
//! Tint refuses every other mix ("mixing '&' and '|' requires parenthesis") at the first
//! operator of the expression. The scan follows that grammar over the binary operators of each
//! bracket level (`( … )`, `[ … ]`), a level's expression ending at `;`, `,`, `{`, `}`, `:`, an
//! assignment or a keyword; template lists (`vec4<f32>`, `array<vec4<u32>>`,
//! `var<storage, read_write>`) are told from comparisons and shifts by the type names that take
//! them. Mixes of `&&` and `||` are [`super::scan::mixed_logical`]'s. One pass, an explicit
//! stack: linear in the text.

use super::scan::comment_end;

/// The kinds of binary operators, as the grammar groups them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    /// `*`, `/`, `%`
    Mul(&'static str),
    /// `+`, `-`
    Add(&'static str),
    /// `<<`, `>>`
    Shift(&'static str),
    /// `&`, `|`, `^`
    Bit(&'static str),
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`
    Rel(&'static str),
    /// `&&`, `||`
    Logic(&'static str),
}

impl Op {
    fn sym(self) -> &'static str {
        match self {
            Op::Mul(s) | Op::Add(s) | Op::Shift(s) | Op::Bit(s) | Op::Rel(s) | Op::Logic(s) => s,
        }
    }
}

/// What the operand parsed so far at one level is (the grammar's nonterminal).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// A unary expression, no binary operator yet.
    Unary,
    /// A multiplicative or additive expression; its lowest-precedence operator.
    Arith(Op),
    /// `unary << unary`.
    Shift(Op),
}

/// One bracket level's expression so far.
#[derive(Clone, Copy)]
struct Level {
    /// Offset of the expression's first binary operator (where Tint reports a mix).
    first: Option<usize>,
    /// A bitwise chain's operator, once the expression is one.
    bit: Option<Op>,
    /// The `&&` / `||` joining relational expressions, once there is one.
    logic: Option<Op>,
    /// The comparison of the current relational expression, once there is one.
    rel: Option<Op>,
    /// The current shift expression (a relational expression's left or right side).
    side: Side,
    /// Template lists open at this level (`array<vec4<u32>` is two).
    templates: u32,
}

impl Level {
    fn new() -> Self {
        Level {
            first: None,
            bit: None,
            logic: None,
            rel: None,
            side: Side::Unary,
            templates: 0,
        }
    }

    /// Takes binary operator `op` at offset `at`; `Some((a, b))` names a forbidden mix.
    fn push(&mut self, op: Op, at: usize) -> Option<(Op, Op)> {
        if self.first.is_none() {
            self.first = Some(at);
        }
        if let Some(b) = self.bit {
            return if b == op { None } else { Some((b, op)) };
        }
        match op {
            Op::Bit(_) => {
                if self.logic.is_some() || self.rel.is_some() || self.side != Side::Unary {
                    // The operator of the expression so far, for the message.
                    let a = match self.side {
                        Side::Arith(o) | Side::Shift(o) if self.rel.is_none() => o,
                        _ => self.logic.or(self.rel).unwrap_or(op),
                    };
                    return Some((a, op));
                }
                self.bit = Some(op);
            }
            Op::Logic(_) => {
                // A different `&&` / `||` is `mixed_logical`'s to report.
                self.logic = Some(op);
                self.rel = None;
                self.side = Side::Unary;
            }
            Op::Rel(_) => {
                if let Some(r) = self.rel {
                    return Some((r, op));
                }
                self.rel = Some(op);
                self.side = Side::Unary;
            }
            Op::Shift(_) => match self.side {
                Side::Unary => self.side = Side::Shift(op),
                Side::Arith(o) | Side::Shift(o) => return Some((o, op)),
            },
            Op::Mul(_) | Op::Add(_) => match self.side {
                Side::Unary => self.side = Side::Arith(op),
                Side::Arith(o) => {
                    if matches!(op, Op::Add(_)) || matches!(o, Op::Mul(_)) {
                        self.side = Side::Arith(op);
                    }
                }
                Side::Shift(o) => return Some((o, op)),
            },
        }
        None
    }
}

/// Names that take a template list (`vec4<f32>`, `array<u32, 4>`, `ptr<function, u32>`,
/// `var<storage>`, `bitcast<u32>(…)`, `texture_2d<f32>`, Dawn's `subgroupMatrixLoad<
/// subgroup_matrix_left<f16, 8, 8>>(…)`): after one of these, `<` opens a list.
fn takes_template(word: &[u8]) -> bool {
    matches!(
        word,
        b"vec2"
            | b"vec3"
            | b"vec4"
            | b"mat2x2"
            | b"mat2x3"
            | b"mat2x4"
            | b"mat3x2"
            | b"mat3x3"
            | b"mat3x4"
            | b"mat4x2"
            | b"mat4x3"
            | b"mat4x4"
            | b"array"
            | b"binding_array"
            | b"ptr"
            | b"atomic"
            | b"bitcast"
            | b"var"
            | b"subgroupMatrixLoad"
    ) || word.starts_with(b"texture_")
        || word.starts_with(b"subgroup_matrix_")
}

/// Keywords after which an operand starts an expression (`return -x`, `if x & y == z {`).
fn is_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"return"
            | b"if"
            | b"else"
            | b"let"
            | b"const"
            | b"override"
            | b"switch"
            | b"case"
            | b"default"
            | b"loop"
            | b"for"
            | b"while"
            | b"break"
            | b"continue"
            | b"continuing"
            | b"discard"
            | b"fn"
            | b"struct"
            | b"alias"
            | b"enable"
            | b"requires"
            | b"diagnostic"
            | b"const_assert"
    )
}

/// The first forbidden operator mix: the offset Tint reports (the expression's first binary
/// operator) and the message.
pub fn refusal(src: &str) -> Option<(usize, String)> {
    let b = src.as_bytes();
    let mut stack: Vec<Level> = vec![Level::new()];
    // Whether the last token ends an operand (a name, a number, `)`, `]`): a following `-`,
    // `*` or `&` is binary; otherwise unary.
    let mut operand = false;
    // The last name, when it was the last token (for template lists).
    let mut last_word: Option<(usize, usize)> = None;
    let mut k = 0usize;
    while k < b.len() {
        if let Some(e) = comment_end(b, k) {
            k = e.max(k + 1);
            continue;
        }
        let c = b[k];
        if c.is_ascii_whitespace() {
            k += 1;
            continue;
        }
        let word_before = last_word.take();
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = k;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                k += 1;
            }
            if is_keyword(&b[s..k]) {
                let level = stack.last_mut()?;
                *level = Level {
                    templates: level.templates,
                    ..Level::new()
                };
                operand = false;
            } else {
                operand = true;
                last_word = Some((s, k));
            }
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(k + 1).is_some_and(u8::is_ascii_digit)) {
            // A number, with its suffix and exponent sign (`1e-5`, `0x1p-3`, `2.5f`).
            let hex = c == b'0' && matches!(b.get(k + 1), Some(b'x') | Some(b'X'));
            k += 1;
            while k < b.len() {
                let d = b[k];
                let exp = if hex {
                    matches!(d, b'p' | b'P')
                } else {
                    matches!(d, b'e' | b'E')
                };
                if exp && matches!(b.get(k + 1), Some(b'+') | Some(b'-')) {
                    k += 2;
                } else if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' {
                    k += 1;
                } else {
                    break;
                }
            }
            operand = true;
            continue;
        }
        let two = b.get(k..k + 2).unwrap_or(&[]);
        let three = b.get(k..k + 3).unwrap_or(&[]);
        let level = stack.last_mut()?;
        // A template list opens after a name that takes one.
        if c == b'<' && two != b"<=" && two != b"<<" {
            if let Some((s, e)) = word_before {
                if takes_template(&b[s..e]) {
                    level.templates += 1;
                    operand = false;
                    k += 1;
                    continue;
                }
            }
        }
        if c == b'>' && level.templates > 0 {
            // `>`, `>>`, `>=` close lists first (`array<vec4<u32>>`, `vec4<u32>= v`).
            level.templates -= 1;
            operand = true;
            k += 1;
            continue;
        }
        let (op, len): (Option<Op>, usize) = match (three, two, c) {
            (b"<<=", _, _) | (b">>=", _, _) => (None, 3),
            (_, b"->", _) => (None, 2),
            (_, b"&&", _) => (Some(Op::Logic("&&")), 2),
            (_, b"||", _) => (Some(Op::Logic("||")), 2),
            (_, b"==", _) => (Some(Op::Rel("==")), 2),
            (_, b"!=", _) => (Some(Op::Rel("!=")), 2),
            (_, b"<=", _) => (Some(Op::Rel("<=")), 2),
            (_, b">=", _) => (Some(Op::Rel(">=")), 2),
            (_, b"<<", _) => (Some(Op::Shift("<<")), 2),
            (_, b">>", _) => (Some(Op::Shift(">>")), 2),
            (_, b"++", _) | (_, b"--", _) => {
                k += 2;
                continue;
            }
            (_, t, _) if t.len() == 2 && t[1] == b'=' && b"+-*/%&|^".contains(&t[0]) => (None, 2),
            (_, _, b'<') => (Some(Op::Rel("<")), 1),
            (_, _, b'>') => (Some(Op::Rel(">")), 1),
            (_, _, b'+') => (Some(Op::Add("+")), 1),
            (_, _, b'-') => (Some(Op::Add("-")), 1),
            (_, _, b'*') => (Some(Op::Mul("*")), 1),
            (_, _, b'/') => (Some(Op::Mul("/")), 1),
            (_, _, b'%') => (Some(Op::Mul("%")), 1),
            (_, _, b'&') => (Some(Op::Bit("&")), 1),
            (_, _, b'|') => (Some(Op::Bit("|")), 1),
            (_, _, b'^') => (Some(Op::Bit("^")), 1),
            (_, _, b'(') | (_, _, b'[') => {
                stack.push(Level::new());
                operand = false;
                k += 1;
                continue;
            }
            (_, _, b')') | (_, _, b']') => {
                if stack.len() > 1 {
                    stack.pop();
                }
                operand = true;
                k += 1;
                continue;
            }
            (_, _, b'.') => {
                // A member or swizzle: the name after it ends the operand.
                k += 1;
                continue;
            }
            _ => {
                // `;`, `,`, `{`, `}`, `:`, `=`, `@`, `!`, `~`: an expression ends (or a unary
                // operator comes).
                if c != b'!' && c != b'~' {
                    let t = level.templates;
                    *level = Level {
                        templates: if matches!(c, b';' | b'{' | b'}') {
                            0
                        } else {
                            t
                        },
                        ..Level::new()
                    };
                }
                operand = false;
                k += 1;
                continue;
            }
        };
        let at = k;
        k += len;
        let Some(op) = op else {
            // A compound assignment: its right side is a new expression.
            *level = Level::new();
            operand = false;
            continue;
        };
        if !operand {
            // `-x`, `*p`, `&v`: unary (a binary `<`/`==` here is not WGSL; skip it).
            continue;
        }
        operand = false;
        if let Some((a, z)) = level.push(op, at) {
            let first = level.first.unwrap_or(at);
            return Some((
                first,
                format!(
                    "mixing `{}` and `{}` requires parentheses (WGSL spec, § Expressions: \
                     bitwise operators chain only themselves, a shift's operands are unary \
                     expressions, one comparison per relational expression; naga reads it with \
                     C's precedence, Tint refuses it): write the grouping you mean, e.g. \
                     `(x {} y) {} z`",
                    a.sym(),
                    z.sym(),
                    a.sym(),
                    z.sym()
                ),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::refusal;

    fn at(src: &str) -> Option<usize> {
        refusal(src).map(|(k, _)| k)
    }

    #[test]
    fn mixes_tint_refuses_are_found_at_the_first_operator() {
        // Columns as Tint reports them (its command line on each expression).
        for (e, first) in [
            ("x & y | z", "&"),
            ("x << y + 1u", "<<"),
            ("x + y << 1u", "+"),
            ("x << y << z", "<<"),
            ("x >> 2u & 3u", ">>"),
            ("x * y + z & 1u", "*"),
            ("u32(x & y == z)", "&"),
            ("u32(x == y & z)", "=="),
            ("u32(x & m != 0u && z > 1u)", "&"),
            ("u32(x > 1u && y & z)", ">"),
            ("u32(x == y == true)", "=="),
            ("x << 1u | y", "<<"),
            ("u32(x > y || y & z != 0u)", ">"),
        ] {
            let src = format!("fn f() {{ o[3] = {e}; }}");
            let k = at(&src).unwrap_or_else(|| panic!("{e}: not found"));
            let want = src.find(&format!(" {first} ")).map(|p| p + 1);
            assert_eq!(Some(k), want, "{e}");
        }
        assert!(at("const K = 1u & 2u | 3u;").is_some());
    }

    #[test]
    fn valid_groupings_and_templates_pass() {
        for e in [
            "x & y & z",
            "x ^ y ^ z",
            "u32(x < y && y < z)",
            "u32(x << 1u == y)",
            "u32(x << 1u < y)",
            "(x & y) | z",
            "x & (y | z)",
            "x - y - z * 2u",
            "~x & y",
            "u32(!(x == y) && z > 0u)",
            "u32(x + 1u > y - 1u)",
            "u32(x + 1u > y << 2u)",
            "x & 0xffu",
            "bitcast<u32>(x) & 1u",
            "-x * 2 + 1e-5 - 0x1p-3",
            "x * *p",
            "vec4<u32>(x) & vec4<u32>(y)",
            "f(&a, b & c)",
            "x >> (y & 31u)",
        ] {
            let src = format!("fn f() {{ o[3] = {e}; }}");
            assert_eq!(at(&src), None, "{e}");
        }
        let decls = "var<storage, read_write> a: array<vec4<u32>>;
var<workgroup> s: array<f32, N * 2>;
fn g(p: ptr<storage, array<vec4<u32>>, read_write>, q: ptr<function, array<u32, 4>>) -> vec4<f32> {
  let v: vec4<u32>= vec4<u32>(1u);
  for (var i = 0u; i < n; i++) { x &= y | z; x <<= 1u; }
  if x > 0u { return -v; }
  return *p & m;
}";
        assert_eq!(at(decls), None);
    }
}
