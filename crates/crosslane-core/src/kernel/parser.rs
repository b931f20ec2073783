//! A recursive-descent parser with precedence climbing for the kernel subset of C/C++.
//!
//! Accepted: comments and `#` lines (skipped); `__global__`, `__device__`, `__simt_vf__`,
//! `__launch_bounds__(N)`, `inline`, `static`, `extern`, `__gm__`, `__shared__`; `using T =
//! __NATIVE_VECTOR__(N, S);` and `typedef`; the scalar types of every dialect; declarations with
//! several declarators and arrays; C expressions with C precedence, compound assignment, `++`/`--`,
//! `?:`, casts; `if`/`else`, `for`, `while`, `do … while`, `break`, `continue`, `return`; a bare
//! list of statements (a snippet) becomes one implicit kernel.
//!
//! The seeds' own faults are reported at their line rather than refused: the MACA vector names
//! `vNtB` (`v2u32`, `v4f32`) are understood even where the page never declares them; an unknown
//! type name (seed 002's `f2f16`) is an error diagnostic naming the closest known type, which is
//! then used; `(..)` parameters and `...` statements of pseudo-code run as nothing, with a note.
//! Nesting is bounded (no input can overflow the stack): both the parser's own recursion and the
//! height of every expression tree, where a flat chain (`1+1+…`, `a[0][0]…`, a comma list) counts
//! one level per operator ([`super::budget::Limits::max_depth`]). Tokens after macro expansion,
//! counting every expansion call, are bounded by [`super::budget::Limits::max_tokens`].

use std::collections::HashMap;

use super::ast::*;
use super::budget::{Limits, DEPTH_CEILING};
use super::lexer::{lex, lex_with, Comment, Tok, Token};
use super::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use super::{KernelDiagnostic, KernelError};
use crate::result::Level;

/// A parsed source: the program and the diagnostics found while parsing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Parsed {
    /// The program.
    pub program: Program,
    /// Notes, warnings and errors that did not stop parsing (seed typos, pseudo-code elisions).
    pub diagnostics: Vec<KernelDiagnostic>,
}

use serde::Serialize;

/// Parses a kernel source within the default [`Limits`].
///
/// # Errors
/// [`KernelError`] at the first token that cannot continue the program, with what was expected,
/// or where a budget (nesting, tokens) ran out.
pub fn parse(source: &str) -> Result<Parsed, KernelError> {
    parse_with(source, &Limits::default())
}

/// Parses a kernel source within `limits` (nesting depth and tokens after macro expansion).
///
/// # Errors
/// As [`parse`]; the message of a budget names the flag that raises it.
pub fn parse_with(source: &str, limits: &Limits) -> Result<Parsed, KernelError> {
    let lexed = lex_with(source, limits.max_tokens)?;
    let mut macro_diags = Vec::new();
    let tokens = expand_macros(
        &lexed.tokens,
        &lexed.directives,
        &mut macro_diags,
        limits.max_tokens,
    )?;
    let mut p = Parser {
        toks: &tokens,
        comments: &lexed.comments,
        pos: 0,
        aliases: HashMap::new(),
        diags: macro_diags,
        depth: 0,
        max_depth: limits.depth(),
        elision_noted: false,
        suggestions: 0,
    };
    for (line, text) in &lexed.directives {
        p.diags.push(KernelDiagnostic::new(
            Span {
                line: *line,
                col: 1,
            },
            Level::Info,
            format!("preprocessor line skipped: {}", text.trim()),
            "",
        ));
    }
    let program = p
        .program()
        .map_err(|e| hint_flattened(e, &lexed.comments))?;
    Ok(Parsed {
        program,
        diagnostics: p.diags,
    })
}

/// Expands object-like `#define NAME tokens` macros (each expansion takes the use site's
/// position; a macro is not expanded inside itself). Function-like macros are reported, not
/// expanded. Every token produced and every expansion call costs one unit of `max_tokens`, so
/// nested macros that expand to nothing cannot loop for long either.
fn expand_macros(
    tokens: &[Token],
    directives: &[(u32, String)],
    diags: &mut Vec<KernelDiagnostic>,
    max_tokens: u64,
) -> Result<Vec<Token>, KernelError> {
    if tokens.len() as u64 > max_tokens {
        let t = tokens.get(max_tokens as usize).unwrap_or(&tokens[0]);
        return Err(KernelError::new(
            t.line,
            t.col,
            format!(
                "token limit of {max_tokens} reached by the source ({} tokens); raise it with --max-tokens",
                tokens.len()
            ),
        ));
    }
    let mut defs: HashMap<String, Vec<Token>> = HashMap::new();
    for (line, text) in directives {
        let body = text.trim_start().trim_start_matches('#').trim_start();
        let Some(rest) = body.strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let rest = rest.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        if name.is_empty() {
            continue;
        }
        if after.starts_with('(') {
            diags.push(KernelDiagnostic::new(
                Span {
                    line: *line,
                    col: 1,
                },
                Level::Warning,
                format!("function-like macro `{name}` is not expanded"),
                "",
            ));
            continue;
        }
        let mut repl = lex(after)
            .map_err(|e| KernelError::new(*line, 1, format!("in #define {name}: {}", e.message)))?
            .tokens;
        repl.pop();
        defs.insert(name.to_string(), repl);
    }
    if defs.is_empty() {
        return Ok(tokens.to_vec());
    }
    struct Cost {
        spent: u64,
        max: u64,
    }
    fn push(
        t: &Token,
        at: Option<&Token>,
        defs: &HashMap<String, Vec<Token>>,
        active: &mut Vec<String>,
        out: &mut Vec<Token>,
        cost: &mut Cost,
    ) -> Result<(), KernelError> {
        let site = at.unwrap_or(t);
        cost.spent += 1;
        if cost.spent > cost.max {
            let name = active.first().map_or("", String::as_str);
            return Err(KernelError::new(
                site.line,
                site.col,
                format!(
                    "token limit of {} reached expanding macro `{name}` (every expansion counts, even an empty one); raise it with --max-tokens",
                    cost.max
                ),
            ));
        }
        if let Tok::Ident(n) = &t.tok {
            if let Some(body) = defs.get(n).filter(|_| !active.contains(n)) {
                if active.len() >= 32 {
                    return Err(KernelError::new(
                        site.line,
                        site.col,
                        "macros nested deeper than 32 levels",
                    ));
                }
                active.push(n.clone());
                for b in body {
                    push(b, Some(site), defs, active, out, cost)?;
                }
                active.pop();
                return Ok(());
            }
        }
        out.push(Token {
            tok: t.tok.clone(),
            line: site.line,
            col: site.col,
            end: site.end,
        });
        Ok(())
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut active = Vec::new();
    let mut cost = Cost {
        spent: 0,
        max: max_tokens,
    };
    for t in tokens {
        push(t, None, &defs, &mut active, &mut out, &mut cost)?;
    }
    Ok(out)
}

/// The kernels a source defines (entry functions first, then device functions), by name.
///
/// # Errors
/// [`KernelError`] when the source does not parse.
pub fn list_kernels(source: &str) -> Result<Vec<String>, KernelError> {
    let parsed = parse(source)?;
    let fns = &parsed.program.functions;
    Ok(fns
        .iter()
        .filter(|f| f.entry)
        .chain(fns.iter().filter(|f| !f.entry))
        .map(|f| f.name.clone())
        .collect())
}

/// Web pages often flatten a code block onto one line; a `//` comment then swallows the rest of
/// the kernel (seed 001's examples). Say so when a parse fails on such a line.
fn hint_flattened(mut e: KernelError, comments: &[Comment]) -> KernelError {
    let swallowed = comments
        .iter()
        .find(|c| c.text.contains(';') || c.text.contains('}'));
    if let Some(c) = swallowed {
        e.message.push_str(&format!(
            " (the `//` comment at {}:{} runs to the end of its line and contains code — the \
             text seems to have lost its line breaks)",
            c.line, c.col
        ));
    }
    e
}

struct Parser<'a> {
    toks: &'a [Token],
    comments: &'a [Comment],
    pos: usize,
    aliases: HashMap<String, ValTy>,
    diags: Vec<KernelDiagnostic>,
    depth: u32,
    max_depth: u32,
    elision_noted: bool,
    /// Unknown type names given a closest-name suggestion so far (each costs a scan of the
    /// known names; past [`MAX_SUGGESTIONS`] the name is read as `int` without one).
    suggestions: u32,
}

/// Most unknown type names that get a closest-name suggestion.
const MAX_SUGGESTIONS: u32 = 64;

type PResult<T> = Result<T, KernelError>;

const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "static",
    "inline",
    "__inline__",
    "__forceinline__",
    "__device__",
    "__host__",
    "__global__",
    "__simt_vf__",
    "__aicore__",
    "__gm__",
    "__ubuf__",
    "__restrict__",
    "__restrict",
    "restrict",
    "extern",
    "__shared__",
    "__launch_bounds__",
    "constexpr",
];

const TYPE_WORDS: &[&str] = &[
    "void",
    "bool",
    "char",
    "short",
    "int",
    "long",
    "signed",
    "unsigned",
    "float",
    "double",
    "half",
    "__half",
    "_Float16",
    "half2",
    "__half2",
    "bfloat16_t",
    "__nv_bfloat16",
    "__bf16",
    "bfloat16x2_t",
    "__nv_bfloat162",
    "size_t",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "uint",
];

/// A single-word type name (not combinations like `unsigned long`).
fn word_type(w: &str) -> Option<ValTy> {
    let s = |x| Some(ValTy::scalar(x));
    match w {
        "bool" => s(Scalar::Bool),
        "char" | "int8_t" => s(Scalar::I8),
        "uint8_t" => s(Scalar::U8),
        "short" | "int16_t" => s(Scalar::I16),
        "uint16_t" => s(Scalar::U16),
        "int" | "int32_t" | "signed" => s(Scalar::I32),
        "unsigned" | "uint32_t" | "uint" => s(Scalar::U32),
        "long" | "int64_t" => s(Scalar::I64),
        "uint64_t" | "size_t" => s(Scalar::U64),
        "float" => s(Scalar::F32),
        "double" => s(Scalar::F64),
        "half" | "__half" | "_Float16" => s(Scalar::F16),
        "bfloat16_t" | "__nv_bfloat16" | "__bf16" => s(Scalar::Bf16),
        "half2" | "__half2" => Some(ValTy {
            scalar: Scalar::F16,
            lanes: 2,
        }),
        "bfloat16x2_t" | "__nv_bfloat162" => Some(ValTy {
            scalar: Scalar::Bf16,
            lanes: 2,
        }),
        _ => maca_vector(w).or_else(|| cuda_vector(w)),
    }
}

/// CUDA's built-in vector types (`float2`, `int4`, `uint3`, …).
fn cuda_vector(w: &str) -> Option<ValTy> {
    let lanes = w.chars().last()?.to_digit(10)?;
    if !(1..=4).contains(&lanes) {
        return None;
    }
    let scalar = match w.get(..w.len() - 1)? {
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "long" | "longlong" => Scalar::I64,
        "ulong" | "ulonglong" => Scalar::U64,
        "short" => Scalar::I16,
        "ushort" => Scalar::U16,
        "char" => Scalar::I8,
        "uchar" => Scalar::U8,
        _ => return None,
    };
    Some(ValTy {
        scalar,
        lanes: lanes as u8,
    })
}

/// The MACA vector naming `v<N><i|u|f><bits>` (`v1u32`, `v2f16`, `v4i8`; seed 002), which the
/// pages use without always declaring it.
fn maca_vector(w: &str) -> Option<ValTy> {
    let rest = w.strip_prefix('v')?;
    let split = rest.find(|c: char| !c.is_ascii_digit())?;
    let lanes: u8 = rest.get(..split)?.parse().ok()?;
    let kind = rest.get(split..split + 1)?;
    let bits: u32 = rest.get(split + 1..)?.parse().ok()?;
    let scalar = match (kind, bits) {
        ("i", 8) => Scalar::I8,
        ("u", 8) => Scalar::U8,
        ("i", 16) => Scalar::I16,
        ("u", 16) => Scalar::U16,
        ("i", 32) => Scalar::I32,
        ("u", 32) => Scalar::U32,
        ("i", 64) => Scalar::I64,
        ("u", 64) => Scalar::U64,
        ("f", 16) => Scalar::F16,
        ("f", 32) => Scalar::F32,
        ("f", 64) => Scalar::F64,
        _ => return None,
    };
    if !(1..=16).contains(&lanes) {
        return None;
    }
    Some(ValTy { scalar, lanes })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

impl<'a> Parser<'a> {
    fn tok(&self) -> &Token {
        // The token list always ends in Eof, and `bump` never passes it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        let t = self.tok();
        Span {
            line: t.line,
            col: t.col,
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn last_end(&self) -> Span {
        let t = &self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)];
        Span {
            line: t.end.0,
            col: t.end.1,
        }
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(0), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(0), Tok::Ident(q) if q == w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn describe(t: &Tok) -> String {
        match t {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int { value, .. } => format!("`{value}`"),
            Tok::Float { value, .. } => format!("`{value}`"),
            Tok::Str(_) => "a string".into(),
            Tok::Char(_) => "a character".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the input".into(),
        }
    }

    fn err<T>(&self, what: &str) -> PResult<T> {
        let t = self.tok();
        Err(KernelError::new(
            t.line,
            t.col,
            format!("expected {what}, found {}", Self::describe(&t.tok)),
        ))
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.err(&format!("`{p}`"))
        }
    }

    fn ident(&mut self) -> PResult<String> {
        match self.peek(0).clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.err("a name"),
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            let s = self.span();
            return Err(KernelError::new(
                s.line,
                s.col,
                format!(
                    "nesting deeper than {} levels; raise it with --max-depth (at most {DEPTH_CEILING})",
                    self.max_depth
                ),
            ));
        }
        Ok(())
    }

    fn diag(&mut self, span: Span, level: Level, message: impl Into<String>, rule: &str) {
        self.diags
            .push(KernelDiagnostic::new(span, level, message, rule));
    }

    fn is_type_word(&self, w: &str) -> bool {
        TYPE_WORDS.contains(&w)
            || self.aliases.contains_key(w)
            || maca_vector(w).is_some()
            || cuda_vector(w).is_some()
    }

    /// Whether a declaration (or a parameter, or a cast's type) starts here.
    fn type_starts(&self) -> bool {
        match self.peek(0) {
            Tok::Ident(w) => {
                QUALIFIERS.contains(&w.as_str())
                    || self.is_type_word(w)
                    || (matches!(self.peek(1), Tok::Ident(n) if !QUALIFIERS.contains(&n.as_str())))
            }
            _ => false,
        }
    }

    // ---------------------------------------------------------------- types

    /// Qualifiers before or around a type: returns (entry, storage, launch bounds).
    fn qualifiers(&mut self) -> PResult<(bool, Storage, Option<u64>)> {
        let mut entry = false;
        let mut storage = Storage::default();
        let mut bounds = None;
        while let Tok::Ident(w) = self.peek(0).clone() {
            if !QUALIFIERS.contains(&w.as_str()) {
                break;
            }
            self.bump();
            match w.as_str() {
                "__global__" | "__simt_vf__" | "__aicore__" => entry = true,
                "__shared__" => storage.shared = true,
                "extern" => storage.external = true,
                "__launch_bounds__" => {
                    self.expect_punct("(")?;
                    let e = self.assign_expr()?;
                    bounds = const_int(&e).and_then(|v| u64::try_from(v).ok());
                    while self.eat(",") {
                        self.assign_expr()?;
                    }
                    self.expect_punct(")")?;
                }
                _ => {}
            }
        }
        Ok((entry, storage, bounds))
    }

    /// A base type: keyword combination, alias, `__NATIVE_VECTOR__(N, T)`, or an unknown name
    /// (reported, replaced by the closest known type).
    fn base_type(&mut self) -> PResult<Ty> {
        let start = self.span();
        if self.is_word("__NATIVE_VECTOR__") {
            return Ok(Ty::Val(self.native_vector()?));
        }
        let mut words: Vec<String> = Vec::new();
        while let Tok::Ident(w) = self.peek(0).clone() {
            if TYPE_WORDS.contains(&w.as_str()) {
                self.bump();
                words.push(w);
                continue;
            }
            if matches!(w.as_str(), "const" | "volatile" | "__restrict__" | "__gm__") {
                self.bump();
                continue;
            }
            if words.is_empty() {
                if let Some(t) = self
                    .aliases
                    .get(&w)
                    .copied()
                    .or_else(|| maca_vector(&w))
                    .or_else(|| cuda_vector(&w))
                {
                    self.bump();
                    return Ok(Ty::Val(t));
                }
                // An unknown name used as a type (followed by a name, `*` or `&`).
                if matches!(
                    self.peek(1),
                    Tok::Ident(_) | Tok::Punct("*") | Tok::Punct("&")
                ) {
                    self.bump();
                    return Ok(self.unknown_type(&w, start));
                }
            }
            break;
        }
        if words.is_empty() {
            return self.err("a type");
        }
        let has = |w: &str| words.iter().any(|x| x == w);
        let longs = words.iter().filter(|w| *w == "long").count();
        if has("void") {
            return Ok(Ty::Void);
        }
        let unsigned = has("unsigned");
        let scalar = if has("double") {
            Scalar::F64
        } else if has("char") {
            if unsigned {
                Scalar::U8
            } else {
                Scalar::I8
            }
        } else if has("short") {
            if unsigned {
                Scalar::U16
            } else {
                Scalar::I16
            }
        } else if longs > 0 {
            if unsigned {
                Scalar::U64
            } else {
                Scalar::I64
            }
        } else if has("unsigned") || has("signed") || has("int") {
            if unsigned {
                Scalar::U32
            } else {
                Scalar::I32
            }
        } else {
            return word_type(&words[0])
                .map(Ty::Val)
                .map_or_else(|| self.err("a type"), Ok);
        };
        Ok(Ty::Val(ValTy::scalar(scalar)))
    }

    fn unknown_type(&mut self, name: &str, at: Span) -> Ty {
        if self.suggestions >= MAX_SUGGESTIONS {
            self.diag(
                at,
                Level::Error,
                format!("unknown type `{name}` (read as `int`)"),
                "",
            );
            return Ty::Val(ValTy::scalar(Scalar::I32));
        }
        self.suggestions += 1;
        let mut known: Vec<String> = self.aliases.keys().cloned().collect();
        known.extend(TYPE_WORDS.iter().map(|s| s.to_string()));
        let best = known
            .iter()
            .map(|k| (edit_distance(name, k), k.clone()))
            .min();
        match best {
            Some((d, k)) if d <= 2 => {
                let ty = self
                    .aliases
                    .get(&k)
                    .copied()
                    .or_else(|| word_type(&k))
                    .unwrap_or(ValTy::scalar(Scalar::I32));
                self.diag(
                    at,
                    Level::Error,
                    format!("unknown type `{name}`; did you mean `{k}`? (read as `{k}`)"),
                    "",
                );
                Ty::Val(ty)
            }
            _ => {
                self.diag(
                    at,
                    Level::Error,
                    format!("unknown type `{name}` (read as `int`)"),
                    "",
                );
                Ty::Val(ValTy::scalar(Scalar::I32))
            }
        }
    }

    fn native_vector(&mut self) -> PResult<ValTy> {
        self.bump();
        self.expect_punct("(")?;
        let at = self.span();
        let n = self.assign_expr()?;
        self.expect_punct(",")?;
        let elem = self.base_type()?;
        self.expect_punct(")")?;
        let lanes = const_int(&n)
            .and_then(|v| u8::try_from(v).ok())
            .filter(|v| (1..=16).contains(v))
            .ok_or_else(|| {
                KernelError::new(at.line, at.col, "__NATIVE_VECTOR__ size must be 1..=16")
            })?;
        match elem {
            Ty::Val(ValTy { scalar, lanes: 1 }) => Ok(ValTy { scalar, lanes }),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "__NATIVE_VECTOR__ needs a scalar element type",
            )),
        }
    }

    /// `*`s and `&` after a base type: returns the type and whether it was a reference.
    fn pointers(&mut self, base: Ty) -> PResult<(Ty, bool)> {
        let mut ty = base;
        let mut reference = false;
        loop {
            if self.is_punct("*") {
                let at = self.span();
                self.bump();
                ty = match ty {
                    Ty::Val(v) => Ty::Ptr(v),
                    Ty::Void => Ty::Ptr(ValTy::scalar(Scalar::I32)),
                    Ty::Ptr(_) => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "pointers to pointers are not supported",
                        ))
                    }
                };
            } else if self.is_punct("&") {
                self.bump();
                reference = true;
            } else if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "__restrict__" | "__restrict" | "restrict" | "const" | "__gm__"))
            {
                self.bump();
            } else {
                break;
            }
        }
        Ok((ty, reference))
    }

    // ---------------------------------------------------------------- items

    fn program(&mut self) -> PResult<Program> {
        let mut program = Program::default();
        let mut loose: Vec<Stmt> = Vec::new();
        let start = self.span();
        while !matches!(self.peek(0), Tok::Eof) {
            if self.eat(";") {
                continue;
            }
            if self.is_word("using") || self.is_word("typedef") {
                let (name, ty) = self.alias()?;
                program.aliases.push((name, ty));
                continue;
            }
            if let Some(f) = self.function()? {
                program.functions.push(f);
                continue;
            }
            if !program.functions.is_empty() {
                return self.err("a function definition (statements belong inside a function)");
            }
            loose.push(self.stmt()?);
        }
        if !loose.is_empty() {
            if !program.functions.is_empty() {
                let s = loose[0].span;
                return Err(KernelError::new(
                    s.line,
                    s.col,
                    "statements outside a function: write either a snippet or functions",
                ));
            }
            let end = self.last_end();
            program.functions.push(Function {
                name: "snippet".into(),
                entry: true,
                ret: Ty::Void,
                params: Vec::new(),
                body: Stmt {
                    kind: StmtKind::Block(loose),
                    span: start,
                    end,
                },
                launch_bounds: None,
                vf_call_dim: None,
                span: start,
                snippet: true,
            });
        }
        if program.functions.is_empty() {
            return Err(KernelError::new(
                start.line,
                start.col,
                "no kernel: write a function or some statements",
            ));
        }
        Ok(program)
    }

    fn alias(&mut self) -> PResult<(String, ValTy)> {
        let at = self.span();
        let using = self.is_word("using");
        self.bump();
        let (name, ty) = if using {
            let name = self.ident()?;
            self.expect_punct("=")?;
            let ty = self.base_type()?;
            (name, ty)
        } else {
            let ty = self.base_type()?;
            let name = self.ident()?;
            (name, ty)
        };
        self.expect_punct(";")?;
        match ty {
            Ty::Val(v) => {
                self.aliases.insert(name.clone(), v);
                Ok((name, v))
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "only value types can be aliased",
            )),
        }
    }

    /// A function definition, if one starts here (the position is restored otherwise).
    fn function(&mut self) -> PResult<Option<Function>> {
        // A loop, not a call per prototype: a file of a million prototypes must not recurse.
        loop {
            if let Some(f) = self.function_once()? {
                return Ok(f);
            }
        }
    }

    /// One function definition (`Some(Some(f))`), no function here (`Some(None)`), or a
    /// prototype that was skipped (`None`: look again after it).
    fn function_once(&mut self) -> PResult<Option<Option<Function>>> {
        let save = self.pos;
        let save_depth = self.depth;
        let saved_diags = self.diags.len();
        let start = self.span();
        let Ok((entry1, _, bounds1)) = self.qualifiers() else {
            self.pos = save;
            self.depth = save_depth;
            return Ok(Some(None));
        };
        let header = (|| -> PResult<Option<(Ty, String)>> {
            if !self.type_starts() && !self.is_word("__NATIVE_VECTOR__") {
                return Ok(None);
            }
            let base = self.base_type()?;
            let (ret, _) = self.pointers(base)?;
            let Tok::Ident(name) = self.peek(0).clone() else {
                return Ok(None);
            };
            if !matches!(self.peek(1), Tok::Punct("(")) {
                return Ok(None);
            }
            self.bump();
            Ok(Some((ret, name)))
        })();
        let Ok(Some((ret, name))) = header else {
            self.pos = save;
            self.depth = save_depth;
            self.diags.truncate(saved_diags);
            return Ok(Some(None));
        };
        let entry = entry1;
        self.expect_punct("(")?;
        let params = self.params()?;
        let (entry2, _, bounds2) = self.qualifiers()?;
        if self.eat(";") {
            // A prototype: nothing to run.
            return Ok(None);
        }
        if !self.is_punct("{") {
            return self.err("`{` to start the function body");
        }
        let body = self.stmt()?;
        let vf_call_dim = self.vf_call_dim(start.line, body.end.line);
        Ok(Some(Some(Function {
            name,
            entry: entry || entry2,
            ret,
            params,
            body,
            launch_bounds: bounds1.or(bounds2),
            vf_call_dim,
            span: start,
            snippet: false,
        })))
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        if self.eat(")") {
            return Ok(params);
        }
        if self.is_punct("..") || self.is_punct("...") {
            let at = self.span();
            self.bump();
            self.expect_punct(")")?;
            self.diag(
                at,
                Level::Info,
                "`(..)`: the page elides the parameters (pseudo-code); the kernel takes none",
                "",
            );
            return Ok(params);
        }
        if self.is_word("void") && matches!(self.peek(1), Tok::Punct(")")) {
            self.bump();
            self.bump();
            return Ok(params);
        }
        loop {
            let at = self.span();
            self.qualifiers()?;
            let base = self.base_type()?;
            let (mut ty, reference) = self.pointers(base)?;
            let name = self.ident()?;
            if self.eat("[") {
                while !self.is_punct("]") && !matches!(self.peek(0), Tok::Eof) {
                    self.bump();
                }
                self.expect_punct("]")?;
                if let Ty::Val(v) = ty {
                    ty = Ty::Ptr(v);
                }
            }
            if self.eat("=") {
                self.assign_expr()?;
            }
            let ty = match (ty, reference) {
                (Ty::Val(v), true) => Ty::Ptr(v),
                (Ty::Void, _) => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a parameter cannot be void",
                    ))
                }
                (t, _) => t,
            };
            params.push(Param {
                name,
                ty,
                reference,
                span: at,
            });
            if self.eat(")") {
                return Ok(params);
            }
            self.expect_punct(",")?;
        }
    }

    /// The Ascend launch comment `// asc_vf_call parameter: dim3{1024, 1, 1}` (seed 000; seed 001
    /// writes `asc_vf_call参数：dim3{…}`) within the function's lines.
    fn vf_call_dim(&self, from: u32, to: u32) -> Option<[u64; 3]> {
        let c = self.comments.iter().find(|c| {
            c.line >= from.saturating_sub(1) && c.line <= to && c.text.contains("asc_vf_call")
        })?;
        let after = c.text.split_once("dim3")?.1;
        let inner = after.split_once('{')?.1.split_once('}')?.0;
        let mut dims = [1u64; 3];
        for (k, part) in inner.split(',').take(3).enumerate() {
            dims[k] = part.trim().parse().ok()?;
        }
        Some(dims)
    }

    // ---------------------------------------------------------------- statements

    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.depth -= 1;
        r
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let done = |p: &Self, kind| Stmt {
            kind,
            span,
            end: p.last_end(),
        };
        if self.eat("{") {
            let mut body = Vec::new();
            while !self.is_punct("}") {
                if matches!(self.peek(0), Tok::Eof) {
                    return self.err("`}` to close the block");
                }
                body.push(self.stmt()?);
            }
            self.bump();
            return Ok(done(self, StmtKind::Block(body)));
        }
        if self.eat(";") {
            return Ok(done(self, StmtKind::Empty));
        }
        if self.is_punct("...") || self.is_punct("..") {
            self.bump();
            self.eat(";");
            if !self.elision_noted {
                self.elision_noted = true;
                self.diag(
                    span,
                    Level::Info,
                    "`...` elides code in the vendor's pseudo-code; it runs as nothing",
                    "",
                );
            }
            return Ok(done(self, StmtKind::Elided));
        }
        if let Tok::Ident(w) = self.peek(0).clone() {
            match w.as_str() {
                "if" => {
                    self.bump();
                    self.expect_punct("(")?;
                    let c = self.expr()?;
                    self.expect_punct(")")?;
                    let head_end = self.last_end();
                    let then = self.stmt()?;
                    let els = if self.is_word("else") {
                        self.bump();
                        Some(Box::new(self.stmt()?))
                    } else {
                        None
                    };
                    return Ok(Stmt {
                        kind: StmtKind::If(c, Box::new(then), els),
                        span,
                        end: head_end,
                    });
                }
                "while" => {
                    self.bump();
                    self.expect_punct("(")?;
                    let c = self.expr()?;
                    self.expect_punct(")")?;
                    let head_end = self.last_end();
                    let body = self.stmt()?;
                    return Ok(Stmt {
                        kind: StmtKind::While(c, Box::new(body)),
                        span,
                        end: head_end,
                    });
                }
                "do" => {
                    self.bump();
                    let body = self.stmt()?;
                    if !self.is_word("while") {
                        return self.err("`while` after the `do` body");
                    }
                    self.bump();
                    self.expect_punct("(")?;
                    let c = self.expr()?;
                    self.expect_punct(")")?;
                    self.expect_punct(";")?;
                    return Ok(done(self, StmtKind::DoWhile(Box::new(body), c)));
                }
                "for" => {
                    self.bump();
                    self.expect_punct("(")?;
                    let init = if self.eat(";") {
                        None
                    } else {
                        Some(Box::new(self.simple_stmt()?))
                    };
                    let cond = if self.is_punct(";") {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_punct(";")?;
                    let step = if self.is_punct(")") {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_punct(")")?;
                    let head_end = self.last_end();
                    let body = self.stmt()?;
                    return Ok(Stmt {
                        kind: StmtKind::For(init, cond, step, Box::new(body)),
                        span,
                        end: head_end,
                    });
                }
                "break" | "continue" => {
                    self.bump();
                    self.expect_punct(";")?;
                    let kind = if w == "break" {
                        StmtKind::Break
                    } else {
                        StmtKind::Continue
                    };
                    return Ok(done(self, kind));
                }
                "return" => {
                    self.bump();
                    let e = if self.is_punct(";") {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_punct(";")?;
                    return Ok(done(self, StmtKind::Return(e)));
                }
                "else" => return self.err("a statement (`else` without `if`)"),
                _ => {}
            }
        }
        self.simple_stmt()
    }

    /// A declaration or expression statement, ending in `;` (also a `for` initializer).
    fn simple_stmt(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let kind = if self.decl_starts() {
            self.decl()?
        } else {
            StmtKind::Expr(self.expr()?)
        };
        self.expect_punct(";")?;
        Ok(Stmt {
            kind,
            span,
            end: self.last_end(),
        })
    }

    fn decl_starts(&self) -> bool {
        match self.peek(0) {
            Tok::Ident(w) => {
                QUALIFIERS.contains(&w.as_str())
                    || w == "__NATIVE_VECTOR__"
                    || (self.is_type_word(w)
                        && !matches!(self.peek(1), Tok::Punct("(") if !TYPE_WORDS.contains(&w.as_str())))
                    || matches!(self.peek(1), Tok::Ident(_))
            }
            _ => false,
        }
    }

    fn decl(&mut self) -> PResult<StmtKind> {
        let (_, storage, _) = self.qualifiers()?;
        let base = self.base_type()?;
        let mut list = Vec::new();
        loop {
            let (ty, _) = self.pointers(base)?;
            let span = self.span();
            let name = self.ident()?;
            let array = if self.eat("[") {
                if self.eat("]") {
                    Some(None)
                } else {
                    let n = self.expr()?;
                    self.expect_punct("]")?;
                    Some(Some(n))
                }
            } else {
                None
            };
            let init = if self.eat("=") {
                Some(self.assign_expr()?)
            } else {
                None
            };
            if matches!(ty, Ty::Void) {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("`{name}` cannot have type void"),
                ));
            }
            list.push(Declarator {
                name,
                ty,
                array,
                init,
                span,
            });
            if !self.eat(",") {
                break;
            }
        }
        Ok(StmtKind::Decl(storage, list))
    }

    // ---------------------------------------------------------------- expressions

    fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assign_expr()?;
        while self.is_punct(",") {
            let span = e.span;
            self.bump();
            let r = self.assign_expr()?;
            e = self.node(ExprKind::Comma(Box::new(e), Box::new(r)), span)?;
        }
        Ok(e)
    }

    fn assign_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assign_inner();
        self.depth -= 1;
        r
    }

    fn assign_inner(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match self.peek(0) {
            Tok::Punct("=") => Some(None),
            Tok::Punct("+=") => Some(Some(BinOp::Add)),
            Tok::Punct("-=") => Some(Some(BinOp::Sub)),
            Tok::Punct("*=") => Some(Some(BinOp::Mul)),
            Tok::Punct("/=") => Some(Some(BinOp::Div)),
            Tok::Punct("%=") => Some(Some(BinOp::Rem)),
            Tok::Punct("&=") => Some(Some(BinOp::And)),
            Tok::Punct("|=") => Some(Some(BinOp::Or)),
            Tok::Punct("^=") => Some(Some(BinOp::Xor)),
            Tok::Punct("<<=") => Some(Some(BinOp::Shl)),
            Tok::Punct(">>=") => Some(Some(BinOp::Shr)),
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        self.bump();
        let rhs = self.assign_expr()?;
        let span = lhs.span;
        self.node(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span)
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.expr()?;
        self.expect_punct(":")?;
        let b = self.assign_expr()?;
        let span = c.span;
        self.node(
            ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)),
            span,
        )
    }

    /// Precedence climbing over the binary operators (C precedence, left-associative).
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        self.enter()?;
        let mut lhs = self.unary()?;
        while let Tok::Punct(p) = self.peek(0) {
            let Some((prec, op)) = binop_of(p) else { break };
            if prec < min_prec {
                break;
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span;
            let kind = match op {
                Op::Bin(b) => ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)),
                Op::AndAnd => ExprKind::Logical(true, Box::new(lhs), Box::new(rhs)),
                Op::OrOr => ExprKind::Logical(false, Box::new(lhs), Box::new(rhs)),
            };
            lhs = match self.node(kind, span) {
                Ok(e) => e,
                Err(e) => {
                    self.depth -= 1;
                    return Err(e);
                }
            };
        }
        self.depth -= 1;
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let span = self.span();
        let wrap = |kind| Ok(Expr::new(kind, span));
        if let Tok::Punct(p) = self.peek(0).clone() {
            let un = match p {
                "-" => Some(UnOp::Neg),
                "+" => Some(UnOp::Plus),
                "!" => Some(UnOp::Not),
                "~" => Some(UnOp::BitNot),
                _ => None,
            };
            if let Some(op) = un {
                self.bump();
                let e = self.unary()?;
                return self.checked(wrap(ExprKind::Unary(op, Box::new(e))));
            }
            match p {
                "++" | "--" => {
                    self.bump();
                    let e = self.unary()?;
                    return self.checked(wrap(ExprKind::IncDec {
                        inc: p == "++",
                        prefix: true,
                        target: Box::new(e),
                    }));
                }
                "*" => {
                    self.bump();
                    let e = self.unary()?;
                    return self.checked(wrap(ExprKind::Deref(Box::new(e))));
                }
                "&" => {
                    self.bump();
                    let e = self.unary()?;
                    return self.checked(wrap(ExprKind::AddrOf(Box::new(e))));
                }
                "(" if self.cast_follows() => {
                    self.bump();
                    let base = self.base_type()?;
                    let (ty, _) = self.pointers(base)?;
                    self.expect_punct(")")?;
                    let e = self.unary()?;
                    return self.checked(wrap(ExprKind::Cast(ty, Box::new(e))));
                }
                _ => {}
            }
        }
        if self.is_word("sizeof") {
            self.bump();
            self.expect_punct("(")?;
            let base = self.base_type()?;
            let (ty, _) = self.pointers(base)?;
            self.expect_punct(")")?;
            let bytes = match ty {
                Ty::Void => 1,
                Ty::Ptr(_) => 8,
                Ty::Val(v) => u64::from(v.scalar.bits().max(8) / 8) * u64::from(v.lanes),
            };
            return self.checked(wrap(ExprKind::SizeOf(bytes)));
        }
        self.postfix()
    }

    fn cast_follows(&self) -> bool {
        match self.peek(1) {
            Tok::Ident(w) => {
                (self.is_type_word(w) || matches!(w.as_str(), "const" | "volatile"))
                    && !matches!(self.peek(2), Tok::Punct("(") if !TYPE_WORDS.contains(&w.as_str()))
            }
            _ => false,
        }
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            let span = e.span;
            if self.eat("[") {
                let i = self.expr()?;
                self.expect_punct("]")?;
                e = self.node(ExprKind::Index(Box::new(e), Box::new(i)), span)?;
            } else if self.is_punct(".") || self.is_punct("->") {
                self.bump();
                let field = self.ident()?;
                e = self.node(ExprKind::Member(Box::new(e), field), span)?;
            } else if self.is_punct("++") || self.is_punct("--") {
                let inc = self.is_punct("++");
                self.bump();
                e = self.node(
                    ExprKind::IncDec {
                        inc,
                        prefix: false,
                        target: Box::new(e),
                    },
                    span,
                )?;
            } else if self.is_punct("(") {
                let at = self.span();
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "only named functions can be called",
                ));
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let t = self.bump();
        let kind = match t.tok {
            Tok::Int {
                value,
                unsigned,
                long,
            } => ExprKind::Int {
                value,
                unsigned,
                long,
            },
            Tok::Float { value, single } => ExprKind::Float { value, single },
            Tok::Str(text) => ExprKind::Str(text),
            Tok::Char(c) => ExprKind::Int {
                value: u64::from(c),
                unsigned: false,
                long: false,
            },
            Tok::Punct("(") => {
                let e = self.expr()?;
                self.expect_punct(")")?;
                return Ok(e);
            }
            Tok::Ident(w) if w == "true" || w == "false" => ExprKind::Bool(w == "true"),
            Tok::Ident(w) if matches!(w.as_str(), "static_cast" | "reinterpret_cast") => {
                self.expect_punct("<")?;
                let base = self.base_type()?;
                let (ty, _) = self.pointers(base)?;
                self.expect_punct(">")?;
                self.expect_punct("(")?;
                let e = self.expr()?;
                self.expect_punct(")")?;
                ExprKind::Cast(ty, Box::new(e))
            }
            Tok::Ident(w) => {
                if self.is_punct("(") {
                    if let Some(v) = word_type(&w).or_else(|| self.aliases.get(&w).copied()) {
                        // A functional cast `float(x)`.
                        self.bump();
                        let e = self.expr()?;
                        self.expect_punct(")")?;
                        return self.node(ExprKind::Cast(Ty::Val(v), Box::new(e)), span);
                    }
                    self.bump();
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            args.push(self.assign_expr()?);
                            if self.eat(")") {
                                break;
                            }
                            self.expect_punct(",")?;
                        }
                    }
                    ExprKind::Call(w, args)
                } else {
                    ExprKind::Ident(w)
                }
            }
            other => {
                return Err(KernelError::new(
                    t.line,
                    t.col,
                    format!("expected an expression, found {}", Self::describe(&other)),
                ))
            }
        };
        self.node(kind, span)
    }

    /// A node, refused when its tree is higher than the depth budget (a flat chain such as
    /// `1+1+…` or `a[0][0]…` grows the tree by one level per operator without any recursion in
    /// the parser, but every later walk of the tree recurses once per level).
    fn node(&self, kind: ExprKind, span: Span) -> PResult<Expr> {
        self.checked(Ok(Expr::new(kind, span)))
    }

    fn checked(&self, e: PResult<Expr>) -> PResult<Expr> {
        let e = e?;
        if e.depth > self.max_depth {
            return Err(KernelError::new(
                e.span.line,
                e.span.col,
                format!(
                    "expression nested deeper than {} levels (a chain of operators, indexes or commas counts one level each); raise it with --max-depth (at most {DEPTH_CEILING})",
                    self.max_depth
                ),
            ));
        }
        Ok(e)
    }
}

enum Op {
    Bin(BinOp),
    AndAnd,
    OrOr,
}

/// C binary operator precedence (higher binds tighter).
fn binop_of(p: &str) -> Option<(u8, Op)> {
    Some(match p {
        "||" => (1, Op::OrOr),
        "&&" => (2, Op::AndAnd),
        "|" => (3, Op::Bin(BinOp::Or)),
        "^" => (4, Op::Bin(BinOp::Xor)),
        "&" => (5, Op::Bin(BinOp::And)),
        "==" => (6, Op::Bin(BinOp::Eq)),
        "!=" => (6, Op::Bin(BinOp::Ne)),
        "<" => (7, Op::Bin(BinOp::Lt)),
        "<=" => (7, Op::Bin(BinOp::Le)),
        ">" => (7, Op::Bin(BinOp::Gt)),
        ">=" => (7, Op::Bin(BinOp::Ge)),
        "<<" => (8, Op::Bin(BinOp::Shl)),
        ">>" => (8, Op::Bin(BinOp::Shr)),
        "+" => (9, Op::Bin(BinOp::Add)),
        "-" => (9, Op::Bin(BinOp::Sub)),
        "*" => (10, Op::Bin(BinOp::Mul)),
        "/" => (10, Op::Bin(BinOp::Div)),
        "%" => (10, Op::Bin(BinOp::Rem)),
        _ => return None,
    })
}

/// A constant integer expression (literals, unary minus, + - * << |), for sizes and bounds.
pub fn const_int(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int { value, .. } => Some(*value as i128),
        ExprKind::Unary(UnOp::Neg, x) => const_int(x).map(|v| -v),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_int(a)?, const_int(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Shl if (0..64).contains(&b) => a.checked_mul(1i128 << b),
                BinOp::Or => Some(a | b),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_is_c() {
        let p = parse("int x = 1 + 2 * 3 << 1 == 14 && 1;").unwrap();
        let f = &p.program.functions[0];
        assert!(f.snippet);
        let StmtKind::Block(b) = &f.body.kind else {
            panic!("block")
        };
        let StmtKind::Decl(_, d) = &b[0].kind else {
            panic!("decl")
        };
        let init = d[0].init.as_ref().unwrap();
        // && at the top, == under it, << under that.
        let ExprKind::Logical(true, l, _) = &init.kind else {
            panic!("{init:?}")
        };
        let ExprKind::Binary(BinOp::Eq, l, _) = &l.kind else {
            panic!("eq")
        };
        assert!(matches!(l.kind, ExprKind::Binary(BinOp::Shl, _, _)));
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = parse("__global__ void k(int* d) {\n  int x = ;\n}").unwrap_err();
        assert_eq!((e.line, e.col), (2, 11));
        assert!(
            e.message.contains("expected an expression"),
            "{}",
            e.message
        );
    }

    #[test]
    fn seed_typo_is_reported_with_suggestion() {
        let src = "using v2f16 = __NATIVE_VECTOR__(2, _Float16);\n__global__ void test_mxc_pk_fma_f16(v2f16 *d, v2f16 *a, v2f16 *b, f2f16 *c) {\n  d[0] = a[0];\n}";
        let p = parse(src).unwrap();
        let d = p
            .diagnostics
            .iter()
            .find(|d| d.message.contains("f2f16"))
            .unwrap();
        assert_eq!(d.line, 2);
        assert!(d.message.contains("v2f16"));
        assert_eq!(
            p.program.functions[0].params[3].ty,
            Ty::Ptr(ValTy {
                scalar: Scalar::F16,
                lanes: 2
            })
        );
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let src = format!("int x = {}1{};", "(".repeat(5000), ")".repeat(5000));
        assert!(parse(&src).is_err());
    }
}
