//! Macro replacement (C++17 \[cpp.replace\], \[cpp.subst\], \[cpp.stringize\], \[cpp.concat\],
//! \[cpp.rescan\]; `__VA_OPT__` as C++20 \[cpp.subst\]/3 defines it). Rescanning follows Prosser's
//! hide-set formulation: every token carries the set of macros whose expansion produced it, and a
//! macro name in its own token's set is not replaced again (\[cpp.rescan\]/2). The expansion of a
//! macro is pushed back in front of the input and rescanned from there, so the work is a loop,
//! not a recursion over the input; only an argument's own expansion (\[cpp.subst\]/1) recurses, as
//! deep as macro calls nest inside arguments, bounded by the depth limit. Every token produced
//! costs one unit of the token budget, and every expansion at least one.

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use super::{spell, PTok};
use crate::ast::SYNTH_COL;
use crate::lexer::{lex_fragment, Tok, Token};
use crate::KernelError;

/// A macro definition.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Macro {
    /// Unique per definition, for hide sets.
    pub id: u32,
    /// `None` for an object-like macro; else the parameter names (a variadic macro's last one
    /// is `__VA_ARGS__`, or the name of a GNU named variadic parameter `args...`).
    pub params: Option<Vec<String>>,
    /// The last parameter collects the variable arguments.
    pub variadic: bool,
    /// The replacement list.
    pub body: Vec<PTok>,
}

impl Macro {
    /// Whether two definitions are the same (\[cpp.replace\]/2: same parameters and the same
    /// replacement list, whitespace separations alike), so a redefinition needs no warning.
    pub fn same_as(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.variadic == other.variadic
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .all(|(a, b)| a.t.tok == b.t.tok && a.space == b.space)
    }
}

/// The input of an expansion: tokens pushed back in front (reversed, last = next), then the
/// rest of a slice.
pub(super) struct Stream<'a> {
    front: Vec<PTok>,
    rest: &'a [PTok],
    pos: usize,
}

impl<'a> Stream<'a> {
    pub fn new(rest: &'a [PTok]) -> Self {
        Stream {
            front: Vec::new(),
            rest,
            pos: 0,
        }
    }
    fn next(&mut self) -> Option<PTok> {
        if let Some(t) = self.front.pop() {
            return Some(t);
        }
        let t = self.rest.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn peek(&self) -> Option<&PTok> {
        self.front.last().or_else(|| self.rest.get(self.pos))
    }
    fn push_front(&mut self, toks: Vec<PTok>) {
        self.front.extend(toks.into_iter().rev());
    }
    /// The source line of the next token to be read from the slice, when nothing pushed back
    /// is pending (then a directive between two text lines takes effect).
    pub fn next_source_line(&self) -> Option<u32> {
        if self.front.is_empty() {
            self.rest.get(self.pos).map(|t| t.t.line)
        } else {
            None
        }
    }
}

/// The macro table and the budgets of one preprocessing run.
pub(super) struct Expander {
    /// Defined macros by name.
    pub macros: HashMap<String, Rc<Macro>>,
    /// Tokens produced so far, against `max_tokens`.
    pub spent: u64,
    pub max_tokens: u64,
    /// The depth limit ([`crate::Limits::max_depth`]): `#if` expressions nest up to
    /// it, macro calls inside arguments up to an eighth of it ([`ARG_NESTING_SHARE`]).
    pub max_depth: u32,
    /// `__FILE__`, as `#line` last set it.
    pub file: String,
    /// Added to a token's line for `__LINE__` (`#line`).
    pub line_delta: i64,
    /// `#pragma` texts met through `_Pragma`, by line.
    pub pragmas: Vec<(u32, String)>,
    /// Identifiers placed past [`SYNTH_COL`] so far (each expansion's identifiers need spans of
    /// their own; see `substitute`).
    pub copies: u32,
}

/// The multiples of [`SYNTH_COL`] a macro expansion's identifiers take beyond the macro name's
/// width. The parser's synthesized nodes take the multiples below the band (counting up from
/// 1), a call through a function pointer's lowering those above it (counting down from the
/// top), so a position stays one node's where the three meet at one source column.
const EXPANSION_COPIES: std::ops::Range<u32> = 2048..3072;

/// Macro calls nested inside arguments may go one level per this many units of the depth
/// limit: each level holds a whole expansion on the stack (the arguments' own expansion), far
/// more than one level of the parser, and the page's worker has a stack of one megabyte.
pub(super) const ARG_NESTING_SHARE: u32 = 8;

/// A piece of a replacement list being substituted: a token, or a placemarker (an empty
/// argument or an empty `__VA_OPT__`, \[cpp.concat\]/2).
enum Piece {
    Tok(PTok),
    Mark,
}

impl Expander {
    fn charge(&mut self, n: usize, site: &Token, name: &str) -> Result<(), KernelError> {
        self.spent = self.spent.saturating_add(n as u64);
        if self.spent > self.max_tokens {
            return Err(KernelError::new(
                site.line,
                site.col,
                format!(
                    "token limit of {} reached expanding macro `{name}` (every expansion counts, even an empty one); raise it with --max-tokens",
                    self.max_tokens
                ),
            ));
        }
        Ok(())
    }

    /// Expands `input` completely; `on_line` runs before each token read from the slice (the
    /// directives between text lines take effect there).
    pub fn expand(
        &mut self,
        input: &[PTok],
        depth: u32,
        on_line: &mut dyn FnMut(&mut Expander, u32),
    ) -> Result<Vec<PTok>, KernelError> {
        let most = (self.max_depth / ARG_NESTING_SHARE).max(1);
        if depth > most {
            let at = input.first().map_or((1, 1), |t| (t.t.line, t.t.col));
            return Err(KernelError::new(
                at.0,
                at.1,
                format!(
                    "macro calls nested {most} deep inside arguments (an eighth of the depth limit of {}); raise it with --max-depth",
                    self.max_depth
                ),
            ));
        }
        let mut s = Stream::new(input);
        let mut out = Vec::with_capacity(input.len());
        loop {
            if let Some(line) = s.next_source_line() {
                on_line(self, line);
            }
            let Some(t) = s.next() else { break };
            let Tok::Ident(name) = &t.t.tok else {
                out.push(t);
                continue;
            };
            let Some(m) = self.macros.get(name).cloned() else {
                if let Some(b) = self.builtin(name, &t, &mut s)? {
                    out.extend(b);
                } else {
                    out.push(t);
                }
                continue;
            };
            if t.hide.contains(&m.id) {
                out.push(t);
                continue;
            }
            let name = name.clone();
            let (args, hide) = match &m.params {
                None => (Vec::new(), with(&t.hide, m.id)),
                Some(_) => {
                    if !matches!(s.peek().map(|p| &p.t.tok), Some(Tok::Punct("("))) {
                        out.push(t);
                        continue;
                    }
                    s.next();
                    let (args, rparen) = self.collect_args(&mut s, &m, &name, &t.t)?;
                    let common: Vec<u32> = t
                        .hide
                        .iter()
                        .copied()
                        .filter(|h| rparen.hide.contains(h))
                        .collect();
                    (args, with(&common, m.id))
                }
            };
            let body = self.substitute(&m, &name, &args, &hide, &t.t, depth)?;
            s.push_front(body);
        }
        Ok(out)
    }

    /// `__LINE__`, `__FILE__` (\[cpp.predefined\]/1) and the `_Pragma` operator (\[cpp.pragma.op\]),
    /// or `None` when `name` is none of them.
    fn builtin(
        &mut self,
        name: &str,
        t: &PTok,
        s: &mut Stream,
    ) -> Result<Option<Vec<PTok>>, KernelError> {
        let tok = match name {
            "__LINE__" => {
                let line = (i64::from(t.t.line) + self.line_delta).max(0) as u64;
                Tok::Int {
                    value: line,
                    unsigned: false,
                    long: false,
                }
            }
            "__FILE__" => Tok::Str(escape(&self.file)),
            "_Pragma" => {
                let bad = || {
                    KernelError::new(
                        t.t.line,
                        t.t.col,
                        "_Pragma takes a parenthesized string literal ([cpp.pragma.op])",
                    )
                };
                let open = s.next().ok_or_else(bad)?;
                let text = s.next().ok_or_else(bad)?;
                let close = s.next().ok_or_else(bad)?;
                match (&open.t.tok, &text.t.tok, &close.t.tok) {
                    (Tok::Punct("("), Tok::Str(p), Tok::Punct(")")) => {
                        self.pragmas.push((t.t.line, p.replace("\\\"", "\"")));
                        return Ok(Some(Vec::new()));
                    }
                    _ => return Err(bad()),
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(vec![PTok {
            t: Token { tok, ..t.t.clone() },
            hide: t.hide.clone(),
            space: t.space,
            spell: None,
        }]))
    }

    /// The arguments of a call, after its `(`: split at commas outside parentheses
    /// (\[cpp.replace\]/11; brackets and braces do not group), the variable ones kept together.
    fn collect_args(
        &mut self,
        s: &mut Stream,
        m: &Macro,
        name: &str,
        site: &Token,
    ) -> Result<(Vec<Vec<PTok>>, PTok), KernelError> {
        let params = m.params.as_deref().unwrap_or(&[]);
        let mut args: Vec<Vec<PTok>> = vec![Vec::new()];
        let mut depth = 0usize;
        let rparen = loop {
            let Some(a) = s.next() else {
                return Err(KernelError::new(
                    site.line,
                    site.col,
                    format!("the call of macro `{name}` does not close its `(`"),
                ));
            };
            match &a.t.tok {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") if depth == 0 => break a,
                Tok::Punct(")") => depth -= 1,
                Tok::Punct(",") if depth == 0 && !(m.variadic && args.len() >= params.len()) => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(a);
            }
        };
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        // A variadic macro's variable arguments may be left out entirely (C++20 [cpp.replace]/4).
        if m.variadic && args.len() + 1 == params.len() {
            args.push(Vec::new());
        }
        if args.len() != params.len() {
            let want = if m.variadic {
                format!("at least {}", params.len() - 1)
            } else {
                params.len().to_string()
            };
            return Err(KernelError::new(
                site.line,
                site.col,
                format!(
                    "macro `{name}` takes {want} argument(s), given {}",
                    args.len()
                ),
            ));
        }
        Ok((args, rparen))
    }

    /// The replacement list of `m` with its parameters substituted (\[cpp.subst\]), `#` and `##`
    /// applied, every token given `hide` and the call's position.
    fn substitute(
        &mut self,
        m: &Macro,
        name: &str,
        args: &[Vec<PTok>],
        hide: &[u32],
        site: &Token,
        depth: u32,
    ) -> Result<Vec<PTok>, KernelError> {
        self.charge(1, site, name)?;
        let params = m.params.as_deref().unwrap_or(&[]);
        let param = |t: &PTok| match &t.t.tok {
            Tok::Ident(n) => params.iter().position(|p| p == n),
            _ => None,
        };
        let va_nonempty = m.variadic && args.last().is_some_and(|a| !a.is_empty());
        // `__VA_OPT__(content)`: the content when the variable arguments have tokens, else a
        // placemarker (C++20 [cpp.subst]/3).
        let mut body: Vec<Piece> = Vec::with_capacity(m.body.len());
        let mut k = 0;
        while k < m.body.len() {
            let b = &m.body[k];
            if m.variadic && b.t.tok == Tok::Ident("__VA_OPT__".into()) {
                let mut depth_p = 0usize;
                let mut j = k + 1;
                if m.body.get(j).map(|t| &t.t.tok) != Some(&Tok::Punct("(")) {
                    return Err(KernelError::new(
                        site.line,
                        site.col,
                        format!("in macro `{name}`: __VA_OPT__ must be followed by `(`"),
                    ));
                }
                let open = j;
                while j < m.body.len() {
                    match m.body[j].t.tok {
                        Tok::Punct("(") => depth_p += 1,
                        Tok::Punct(")") => {
                            depth_p -= 1;
                            if depth_p == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j >= m.body.len() {
                    return Err(KernelError::new(
                        site.line,
                        site.col,
                        format!("in macro `{name}`: __VA_OPT__( does not close"),
                    ));
                }
                if va_nonempty {
                    body.extend(m.body[open + 1..j].iter().cloned().map(Piece::Tok));
                } else {
                    body.push(Piece::Mark);
                }
                k = j + 1;
                continue;
            }
            body.push(Piece::Tok(b.clone()));
            k += 1;
        }
        let is_paste =
            |p: Option<&Piece>| matches!(p, Some(Piece::Tok(t)) if t.t.tok == Tok::Punct("##"));
        let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; args.len()];
        let mut out: Vec<Piece> = Vec::new();
        // Each identifier of the replacement gets a span of its own: the compiler keys names
        // and calls by position, so two identifiers of one expansion sharing a span would bind
        // to one variable (`dst[0] = src[1]` writing `src`). The first ones take the columns of
        // the macro's name (where no other token can start); the rest take columns past
        // [`SYNTH_COL`] that still show as the invocation's column ([`crate::ast::Span::shown`]),
        // in a band of multiples of their own ([`EXPANSION_COPIES`]).
        let copies = Cell::new(self.copies);
        let placed = Cell::new(0usize);
        let place = |t: &PTok| -> PTok {
            let mut col = site.col;
            if let Tok::Ident(_) = &t.t.tok {
                if placed.get() < name.len() {
                    col = site.col.saturating_add(placed.get() as u32);
                } else {
                    copies.set(copies.get().wrapping_add(1));
                    col = site.col % SYNTH_COL
                        + SYNTH_COL
                            * (EXPANSION_COPIES.start
                                + copies.get() % EXPANSION_COPIES.len() as u32);
                }
                placed.set(placed.get() + 1);
            }
            PTok {
                t: Token {
                    tok: t.t.tok.clone(),
                    line: site.line,
                    col,
                    end: site.end,
                },
                hide: Vec::new(),
                space: t.space,
                spell: t.spell.clone(),
            }
        };
        let mut i = 0;
        while i < body.len() {
            let Piece::Tok(b) = &body[i] else {
                out.push(Piece::Mark);
                i += 1;
                continue;
            };
            // `# param`: the argument's spelling as a string literal ([cpp.stringize]).
            if m.params.is_some() && b.t.tok == Tok::Punct("#") {
                let p = match body.get(i + 1) {
                    Some(Piece::Tok(n)) => param(n),
                    _ => None,
                };
                let Some(p) = p else {
                    return Err(KernelError::new(
                        site.line,
                        site.col,
                        format!("in macro `{name}`: `#` is not followed by a macro parameter ([cpp.stringize]/1)"),
                    ));
                };
                let mut t = place(b);
                t.t.tok = Tok::Str(stringize(&args[p]));
                t.spell = None;
                out.push(Piece::Tok(t));
                i += 2;
                continue;
            }
            // `a ## b`: the last piece pasted with the next ([cpp.concat]).
            if b.t.tok == Tok::Punct("##") {
                let Some(next) = body.get(i + 1) else {
                    return Err(KernelError::new(
                        site.line,
                        site.col,
                        format!("in macro `{name}`: `##` at the end of the replacement list ([cpp.concat]/1)"),
                    ));
                };
                let right: Vec<PTok> = match next {
                    Piece::Mark => Vec::new(),
                    Piece::Tok(n) => match param(n) {
                        Some(p) => args[p].clone(),
                        None => vec![place(n)],
                    },
                };
                // GNU `, ## __VA_ARGS__`: with no variable arguments the comma goes.
                let va_param = match next {
                    Piece::Tok(n) => param(n).is_some_and(|p| m.variadic && p + 1 == params.len()),
                    Piece::Mark => false,
                };
                let left_comma =
                    matches!(out.last(), Some(Piece::Tok(t)) if t.t.tok == Tok::Punct(","));
                if va_param && left_comma {
                    if right.is_empty() {
                        out.pop();
                    } else {
                        out.extend(right.into_iter().map(Piece::Tok));
                    }
                    i += 2;
                    continue;
                }
                let mut right = right.into_iter();
                match (out.pop(), right.next()) {
                    (Some(Piece::Tok(l)), Some(r)) => {
                        let pasted = paste(&l, &r, site, name)?;
                        out.push(Piece::Tok(pasted));
                    }
                    (Some(Piece::Tok(l)), None) => out.push(Piece::Tok(l)),
                    (_, Some(r)) => out.push(Piece::Tok(r)),
                    (_, None) => out.push(Piece::Mark),
                }
                out.extend(right.map(Piece::Tok));
                i += 2;
                continue;
            }
            if let Some(p) = param(b) {
                if is_paste(body.get(i + 1)) {
                    // An operand of `##` is not expanded.
                    if args[p].is_empty() {
                        out.push(Piece::Mark);
                    } else {
                        out.extend(args[p].iter().cloned().map(Piece::Tok));
                    }
                } else {
                    if expanded[p].is_none() {
                        // The nested expansion counts on from this one's columns.
                        self.copies = copies.get();
                        let e = self.expand(&args[p], depth + 1, &mut |_, _| {})?;
                        copies.set(self.copies);
                        expanded[p] = Some(e);
                    }
                    let e = expanded[p].as_deref().unwrap_or(&[]);
                    self.charge(e.len(), site, name)?;
                    let mut first = true;
                    for t in e {
                        let mut t = t.clone();
                        if first {
                            t.space = b.space;
                            first = false;
                        }
                        out.push(Piece::Tok(t));
                    }
                }
                i += 1;
                continue;
            }
            out.push(Piece::Tok(place(b)));
            i += 1;
        }
        let toks: Vec<PTok> = out
            .into_iter()
            .filter_map(|p| match p {
                Piece::Tok(mut t) => {
                    for h in hide {
                        if !t.hide.contains(h) {
                            t.hide.push(*h);
                        }
                    }
                    Some(t)
                }
                Piece::Mark => None,
            })
            .collect();
        self.copies = copies.get();
        self.charge(toks.len(), site, name)?;
        Ok(toks)
    }
}

/// `hide` with `id` added.
fn with(hide: &[u32], id: u32) -> Vec<u32> {
    let mut h = hide.to_vec();
    if !h.contains(&id) {
        h.push(id);
    }
    h
}

/// The body of a string literal spelling `text`: `"` and `\` escaped (\[cpp.stringize\]/2).
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// The string literal body `#` makes of an argument: its tokens' spellings, one space where
/// white space separated them, inside string and character literals `"` and `\` escaped.
fn stringize(arg: &[PTok]) -> String {
    let mut s = String::new();
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        let sp = spell_tok(t);
        if matches!(
            t.t.tok,
            Tok::Str(_) | Tok::Char(_) | Tok::PrefixedChar { .. }
        ) {
            s.push_str(&escape(&sp));
        } else {
            s.push_str(&sp);
        }
    }
    s
}

/// A token's spelling: as written when it was read from text, else rebuilt.
pub(super) fn spell_tok(t: &PTok) -> String {
    match &t.spell {
        Some(s) => s.to_string(),
        None => spell(&t.t.tok),
    }
}

/// `l ## r`: the two spellings joined must read as one token (\[cpp.concat\]/3).
fn paste(l: &PTok, r: &PTok, site: &Token, name: &str) -> Result<PTok, KernelError> {
    let text = format!("{}{}", spell_tok(l), spell_tok(r));
    let bad = || {
        KernelError::new(
            site.line,
            site.col,
            format!("in macro `{name}`: pasting gives `{text}`, not one token ([cpp.concat]/3)"),
        )
    };
    let lexed = lex_fragment(&text, 4).map_err(|_| bad())?;
    let mut toks = lexed.tokens.into_iter().filter(|t| t.tok != Tok::Eof);
    let (Some(t), None) = (toks.next(), toks.next()) else {
        return Err(bad());
    };
    // A literal, or an alternative token pasted together (`x ## or`), keeps its spelling.
    let literal = matches!(
        t.tok,
        Tok::Int { .. } | Tok::Float { .. } | Tok::Char(_) | Tok::PrefixedChar { .. }
    ) || (matches!(t.tok, Tok::Punct(_))
        && text.starts_with(|c: char| c.is_ascii_alphabetic()));
    Ok(PTok {
        t: Token {
            tok: t.tok,
            line: l.t.line,
            col: l.t.col,
            end: l.t.end,
        },
        hide: Vec::new(),
        space: l.space,
        spell: literal.then(|| Rc::from(text.as_str())),
    })
}
