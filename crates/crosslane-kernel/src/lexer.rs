//! Tokens of the kernel language (a C/C++ subset), each with its 1-based line and column.
//!
//! Hand-written rather than generated (logos): the token set is small, and a hand-written scanner
//! lets every malformed input end in a [`KernelError`] at its line:column instead of a panic, and
//! keeps the comments (the Ascend `asc_vf_call` launch comment lives in one).

use super::KernelError;

/// One token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier or keyword (keywords are recognised by the parser).
    Ident(String),
    /// An integer literal: value and whether a `u`/`U` suffix or a value beyond i64 made it
    /// unsigned, and whether an `l`/`L` suffix made it 64-bit.
    Int {
        /// The value.
        value: u64,
        /// `u` suffix, too large for a signed 64-bit type, or an octal, hexadecimal or binary
        /// literal past `int` that `unsigned int` holds ([lex.icon] table 7).
        unsigned: bool,
        /// `l` suffix, or too large for 32 bits.
        long: bool,
    },
    /// A floating literal: value and whether an `f`/`F` suffix made it `float` (else `double`).
    Float {
        /// The value.
        value: f64,
        /// `f` suffix: `float`.
        single: bool,
    },
    /// A string literal (kept so `#include "…"`-like text does not derail the scanner).
    Str(String),
    /// A character literal, as its code.
    Char(u32),
    /// A character literal with an encoding prefix (C++17 [lex.ccon]/3-6): `L'A'` is a
    /// `wchar_t`, `u'A'` a `char16_t`, `U'A'` a `char32_t`, `u8'A'` a `char`; `prefix` is the
    /// prefix as written.
    PrefixedChar {
        /// The character's code.
        code: u32,
        /// `L`, `u`, `U` or `u8`.
        prefix: &'static str,
    },
    /// Punctuation and operators (`+=`, `<<`, `...`, `::`).
    Punct(&'static str),
    /// End of input.
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// Line and column just after the token's last character.
    pub end: (u32, u32),
}

/// A comment: its text (without `//` or `/* */`) and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    /// The text.
    pub text: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

/// Longest first, so that `<<=` wins over `<<` and `<`.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "..", "(", ")", "{", "}", "[", "]", ";", ",",
    ".", "?", ":", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "=", "<", ">", "##", "#",
];

/// The scanned source: tokens (ending in [`Tok::Eof`]) and comments.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    /// Tokens in order, the last one [`Tok::Eof`].
    pub tokens: Vec<Token>,
    /// Comments in order.
    pub comments: Vec<Comment>,
    /// Preprocessor lines skipped (`#include …`), by line.
    pub directives: Vec<(u32, String)>,
}

/// The operator an alternative token spells (C++17 [lex.digraph]/2, table 2: `and` is `&&`,
/// `not_eq` is `!=`, …): they are keywords in every position, the preprocessor's `#if`
/// included, so CUDA, HIP, Ascend C and MACA sources (all C++) may write them.
fn alternative_token(word: &str) -> Option<&'static str> {
    Some(match word {
        "and" => "&&",
        "or" => "||",
        "not" => "!",
        "bitand" => "&",
        "bitor" => "|",
        "xor" => "^",
        "compl" => "~",
        "and_eq" => "&=",
        "or_eq" => "|=",
        "xor_eq" => "^=",
        "not_eq" => "!=",
        _ => return None,
    })
}

/// Scans `source`.
///
/// # Errors
/// [`KernelError`] at the first character that starts no token, or an unterminated comment,
/// string or character literal, or a malformed number.
pub fn lex(source: &str) -> Result<Lexed, KernelError> {
    lex_with(source, u64::MAX)
}

/// Scans `source`, stopping with an error at token `max_tokens + 1` (the token budget,
/// [`super::budget::Limits::max_tokens`]), before the rest of a huge source is scanned.
///
/// # Errors
/// As [`lex`], and past `max_tokens` tokens.
pub fn lex_with(source: &str, max_tokens: u64) -> Result<Lexed, KernelError> {
    lex_inner(source, max_tokens, true)
}

/// Scans a piece of a line (a directive's operands, a macro body, two spellings pasted by
/// `##`): a `#` is a token (the stringizing operator), never the start of a directive.
///
/// # Errors
/// As [`lex_with`].
pub(crate) fn lex_fragment(source: &str, max_tokens: u64) -> Result<Lexed, KernelError> {
    lex_inner(source, max_tokens, false)
}

/// The scanner; `directives` says whether a `#` first on a line starts a directive line.
fn lex_inner(source: &str, max_tokens: u64, directives: bool) -> Result<Lexed, KernelError> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Lexed::default();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let mut line_start = directives;
    while i < chars.len() {
        let c = chars[i];
        let (tline, tcol) = (line, col);
        if out.tokens.len() as u64 >= max_tokens {
            return Err(KernelError::new(
                tline,
                tcol,
                format!(
                    "token limit of {max_tokens} reached by the source at line {tline}; raise it with --max-tokens"
                ),
            ));
        }
        // Advances over `n` characters, keeping line and column.
        let advance = |n: usize, i: &mut usize, line: &mut u32, col: &mut u32| {
            for _ in 0..n {
                if at(*i) == '\n' {
                    *line += 1;
                    *col = 1;
                } else {
                    *col += 1;
                }
                *i += 1;
            }
        };
        if c == '\n' {
            line_start = directives;
            advance(1, &mut i, &mut line, &mut col);
            continue;
        }
        if c.is_whitespace() {
            advance(1, &mut i, &mut line, &mut col);
            continue;
        }
        if c == '#' && line_start {
            let start = i;
            while i < chars.len() && chars[i] != '\n' {
                advance(1, &mut i, &mut line, &mut col);
            }
            out.directives
                .push((tline, chars[start..i].iter().collect::<String>()));
            continue;
        }
        line_start = false;
        if c == '/' && at(i + 1) == '/' {
            let start = i + 2;
            while i < chars.len() && chars[i] != '\n' {
                advance(1, &mut i, &mut line, &mut col);
            }
            out.comments.push(Comment {
                text: chars[start.min(i)..i].iter().collect(),
                line: tline,
                col: tcol,
            });
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            advance(2, &mut i, &mut line, &mut col);
            let start = i;
            loop {
                if i >= chars.len() {
                    return Err(KernelError::new(tline, tcol, "unterminated /* comment"));
                }
                if chars[i] == '*' && at(i + 1) == '/' {
                    break;
                }
                advance(1, &mut i, &mut line, &mut col);
            }
            out.comments.push(Comment {
                text: chars[start..i].iter().collect(),
                line: tline,
                col: tcol,
            });
            advance(2, &mut i, &mut line, &mut col);
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while at(i).is_ascii_alphanumeric() || at(i) == '_' {
                advance(1, &mut i, &mut line, &mut col);
            }
            let word: String = chars[start..i].iter().collect();
            let prefix = ["L", "u", "U", "u8"].into_iter().find(|p| *p == word);
            if let Some(prefix) = prefix.filter(|_| at(i) == '\'') {
                // An encoding prefix glued to a character literal: one token
                // ([lex.ccon]/1's encoding-prefix).
                advance(1, &mut i, &mut line, &mut col);
                let body = i;
                while i < chars.len() && at(i) != '\'' && at(i) != '\n' {
                    let n = if at(i) == '\\' { 2 } else { 1 };
                    advance(n, &mut i, &mut line, &mut col);
                }
                if at(i) != '\'' {
                    return Err(KernelError::new(tline, tcol, "unterminated literal"));
                }
                let text: String = chars[body..i.min(chars.len())].iter().collect();
                advance(1, &mut i, &mut line, &mut col);
                out.tokens.push(Token {
                    tok: Tok::PrefixedChar {
                        code: char_code(&text),
                        prefix,
                    },
                    line: tline,
                    col: tcol,
                    end: (line, col),
                });
                continue;
            }
            out.tokens.push(Token {
                tok: match alternative_token(&word) {
                    Some(p) => Tok::Punct(p),
                    None => Tok::Ident(word),
                },
                line: tline,
                col: tcol,
                end: (line, col),
            });
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && at(i + 1).is_ascii_digit()) {
            let start = i;
            let hex = c == '0' && matches!(at(i + 1), 'x' | 'X');
            let bin = c == '0' && matches!(at(i + 1), 'b' | 'B');
            if hex || bin {
                advance(2, &mut i, &mut line, &mut col);
            }
            let mut is_float = false;
            // After a hexadecimal literal's `p` exponent only decimal digits follow
            // ([lex.fcon]: the exponent is a decimal digit-sequence), so the `f` of
            // `0x1.8p1f` is its suffix.
            let mut seen_exp = false;
            loop {
                let d = at(i);
                let exp = if hex {
                    matches!(d, 'p' | 'P')
                } else {
                    matches!(d, 'e' | 'E')
                };
                if d.is_ascii_hexdigit() && (hex && !seen_exp || d.is_ascii_digit()) || d == '\'' {
                    advance(1, &mut i, &mut line, &mut col);
                } else if d == '.' && !bin && at(i + 1) != '.' {
                    is_float = true;
                    advance(1, &mut i, &mut line, &mut col);
                } else if exp
                    && !seen_exp
                    && (at(i + 1).is_ascii_digit() || matches!(at(i + 1), '+' | '-'))
                {
                    is_float = true;
                    seen_exp = true;
                    advance(2, &mut i, &mut line, &mut col);
                } else {
                    break;
                }
            }
            let body: String = chars[start..i].iter().filter(|&&d| d != '\'').collect();
            let suffix_start = i;
            while at(i).is_ascii_alphabetic() {
                advance(1, &mut i, &mut line, &mut col);
            }
            let suffix: String = chars[suffix_start..i]
                .iter()
                .collect::<String>()
                .to_ascii_lowercase();
            let bad =
                || KernelError::new(tline, tcol, format!("malformed number `{body}{suffix}`"));
            let tok = if is_float || (!hex && suffix == "f") {
                if !matches!(suffix.as_str(), "" | "f" | "l") {
                    return Err(bad());
                }
                let value = if hex {
                    hex_float(&body[2..]).ok_or_else(bad)?
                } else {
                    body.parse::<f64>().map_err(|_| bad())?
                };
                Tok::Float {
                    value,
                    single: suffix == "f",
                }
            } else {
                let unsigned_suffix = suffix.contains('u');
                let long = suffix.contains('l');
                if suffix.chars().any(|s| s != 'u' && s != 'l') {
                    return Err(bad());
                }
                let (digits, radix) = if hex {
                    (&body[2..], 16)
                } else if bin {
                    (&body[2..], 2)
                } else if body.len() > 1 && body.starts_with('0') {
                    (&body[1..], 8)
                } else {
                    (body.as_str(), 10)
                };
                let value = u64::from_str_radix(digits, radix).map_err(|_| bad())?;
                // C++17 [lex.icon] table 7: an octal or hexadecimal literal (and C++14's
                // binary one) without a `u` suffix takes the first of `int`, `unsigned int`,
                // `long`, … that holds it, so `0x80000000` and `0xdeadbeef` are `unsigned int`
                // (a decimal one skips the unsigned types: `2147483648` is `long`).
                let (unsigned, long) = literal_type(value, radix == 10, unsigned_suffix, long);
                Tok::Int {
                    value,
                    unsigned,
                    long,
                }
            };
            out.tokens.push(Token {
                tok,
                line: tline,
                col: tcol,
                end: (line, col),
            });
            continue;
        }
        if c == '"' || c == '\'' {
            let quote = c;
            advance(1, &mut i, &mut line, &mut col);
            let start = i;
            loop {
                let d = at(i);
                if i >= chars.len() || d == '\n' {
                    return Err(KernelError::new(tline, tcol, "unterminated literal"));
                }
                if d == '\\' {
                    advance(2, &mut i, &mut line, &mut col);
                    continue;
                }
                if d == quote {
                    break;
                }
                advance(1, &mut i, &mut line, &mut col);
            }
            let text: String = chars[start..i.min(chars.len())].iter().collect();
            advance(1, &mut i, &mut line, &mut col);
            let tok = if quote == '"' {
                Tok::Str(text)
            } else {
                Tok::Char(char_code(&text))
            };
            out.tokens.push(Token {
                tok,
                line: tline,
                col: tcol,
                end: (line, col),
            });
            continue;
        }
        let rest = &chars[i..];
        let punct = PUNCTS.iter().find(|p| {
            p.chars().count() <= rest.len() && p.chars().zip(rest.iter()).all(|(a, b)| a == *b)
        });
        match punct {
            Some(p) => {
                advance(p.len(), &mut i, &mut line, &mut col);
                out.tokens.push(Token {
                    tok: Tok::Punct(p),
                    line: tline,
                    col: tcol,
                    end: (line, col),
                });
            }
            None if super::bidi::name(c).is_some() => {
                return Err(KernelError::new(
                    tline,
                    tcol,
                    format!(
                        "bidirectional control character {} in code: it can make the text \
                         read in another order than it runs (Trojan Source); it is allowed \
                         only in comments and strings",
                        super::bidi::describe(c)
                    ),
                ))
            }
            None => {
                return Err(KernelError::new(
                    tline,
                    tcol,
                    format!(
                        "unexpected character `{}`",
                        super::bidi::escape(&c.to_string())
                    ),
                ))
            }
        }
    }
    out.tokens.push(Token {
        tok: Tok::Eof,
        line,
        col,
        end: (line, col),
    });
    Ok(out)
}

/// The type of an integer literal of `value` (C++17 [lex.icon]/2, table 7, with LP64's 64-bit
/// `long`), as (unsigned, 64-bit): the first of the list that holds the value. Without a
/// suffix a decimal literal is `int`, `long`, `long long`; an octal, hexadecimal or binary one
/// `int`, `unsigned int`, `long`, `unsigned long`, … (so `3000000000` is a `long` and
/// `0x80000000` an `unsigned int`). `u` gives `unsigned int`, `unsigned long`; `l` `long`
/// (then `unsigned long` for a non-decimal one); `ul` `unsigned long`. A decimal value beyond
/// `long long` has no standard type; it is read as `unsigned long long`, as GCC and Clang do
/// with a warning.
fn literal_type(value: u64, decimal: bool, u: bool, l: bool) -> (bool, bool) {
    let fits_i32 = value <= i32::MAX as u64;
    let fits_u32 = value <= u64::from(u32::MAX);
    let fits_i64 = value <= i64::MAX as u64;
    match (u, l) {
        (false, false) if fits_i32 => (false, false),
        (false, false) if !decimal && fits_u32 => (true, false),
        (false, _) if fits_i64 => (false, true),
        (false, _) => (true, true),
        (true, false) if fits_u32 => (true, false),
        (true, _) => (true, true),
    }
}

/// The value of a character literal's text (between the quotes): its one character's code,
/// or the value of its escape sequence (C++17 [lex.ccon]/7-8: the simple escapes `\n` `\t`
/// `\v` `\b` `\r` `\f` `\a` `\\` `\?` `\'` `\"`, an octal escape of up to three
/// digits, a hexadecimal escape `\xHH…`).
fn char_code(text: &str) -> u32 {
    let mut cs = text.chars();
    let Some(first) = cs.next() else { return 0 };
    if first != '\\' {
        return first as u32;
    }
    let rest: String = cs.collect();
    let simple = match rest.as_str() {
        "n" => Some(10),
        "t" => Some(9),
        "v" => Some(11),
        "b" => Some(8),
        "r" => Some(13),
        "f" => Some(12),
        "a" => Some(7),
        "\\" => Some(92),
        "?" => Some(63),
        "'" => Some(39),
        "\"" => Some(34),
        _ => None,
    };
    if let Some(c) = simple {
        return c;
    }
    if let Some(hex) = rest.strip_prefix('x') {
        return u32::from_str_radix(hex, 16).unwrap_or(0);
    }
    if !rest.is_empty() && rest.len() <= 3 && rest.chars().all(|d| ('0'..='7').contains(&d)) {
        return u32::from_str_radix(&rest, 8).unwrap_or(0);
    }
    rest.chars().next().map_or(0, |ch| ch as u32)
}

/// The bytes of the array a narrow string literal's text (between the quotes, escapes as
/// written) makes: each character's UTF-8 bytes, each escape sequence one byte, and the
/// terminating `'\0'` (C++17 [lex.string]/8 and /10: an ordinary string literal has type
/// "array of n `const char`", n its code units plus one for the terminating null). `None` for
/// a universal-character-name (`\u`, `\U`), whose UTF-8 length is not counted here.
pub(crate) fn string_literal_bytes(text: &str) -> Option<u64> {
    let cs: Vec<char> = text.chars().collect();
    let mut n: u64 = 1;
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        if c != '\\' {
            n += c.len_utf8() as u64;
            continue;
        }
        match cs.get(i) {
            Some('u' | 'U') => return None,
            Some('x') => {
                i += 1;
                while cs.get(i).is_some_and(char::is_ascii_hexdigit) {
                    i += 1;
                }
            }
            Some('0'..='7') => {
                let start = i;
                while i < start + 3 && cs.get(i).is_some_and(|d| ('0'..='7').contains(d)) {
                    i += 1;
                }
            }
            Some(_) => i += 1,
            None => {}
        }
        n += 1;
    }
    Some(n)
}

/// The value of a hexadecimal floating literal's text after `0x` (`1.8p1` → 3.0): hexadecimal
/// digits with an optional point, then `p` and a decimal power of two, which C++17 [lex.fcon]/1
/// makes mandatory. `None` when malformed. The digits are read into a 64-bit integer (rounded
/// once to a double when they hold more than 53 bits), then scaled by the power of two in two
/// steps so that neither step leaves the double range early.
fn hex_float(text: &str) -> Option<f64> {
    let (mantissa, exp) = text.split_once(['p', 'P'])?;
    let exp: i64 = exp.parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut m: u64 = 0;
    let mut shift: i64 = exp;
    for (k, d) in int.chars().chain(frac.chars()).enumerate() {
        let v = u64::from(d.to_digit(16)?);
        if m >> 60 == 0 {
            m = (m << 4) | v;
            if k >= int.len() {
                shift -= 4;
            }
        } else if k < int.len() {
            // Digits past 64 bits of the integer part scale it; the fraction's are dropped
            // (below a double's precision at that magnitude).
            shift += 4;
        }
    }
    let shift = i32::try_from(shift.clamp(-4000, 4000)).ok()?;
    let half = shift / 2;
    Some(m as f64 * 2f64.powi(half) * 2f64.powi(shift - half))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_kinds() {
        let l = lex("int x = 0x1fu; // note\n  x <<= 2.5f;").unwrap();
        assert_eq!(l.tokens[0].tok, Tok::Ident("int".into()));
        assert_eq!(
            l.tokens[3].tok,
            Tok::Int {
                value: 31,
                unsigned: true,
                long: false
            }
        );
        assert_eq!(l.comments[0].text, " note");
        let shl = l
            .tokens
            .iter()
            .find(|t| t.tok == Tok::Punct("<<="))
            .unwrap();
        assert_eq!((shl.line, shl.col), (2, 5));
        assert!(l.tokens.iter().any(|t| t.tok
            == Tok::Float {
                value: 2.5,
                single: true
            }));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let e = lex("int a = 1;\n  @").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(lex("/* open").is_err());
        assert!(lex("'x").is_err());
        assert!(lex("0x").is_err());
    }
}
