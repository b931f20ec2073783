//! Unknown types as errors of the runs that reach them (docs/kernels.md, "Errors and
//! outcomes"). The parse reads an unknown type as `int` and goes on, so that every such error
//! is found at once; here each one is given to the functions it belongs to
//! ([`crate::ast::Program::type_errors`]) and a warning left in its place:
//! - inside a function, to that function (every instantiation of it);
//! - in a member of a struct, class or union defined outside every function (a
//!   `cudaTextureObject_t` member of a helper struct the launched kernel never names), to each
//!   function that names the struct, or a struct or alias naming it ([class.mem]/1 with [intro.object]/2: a member's
//!   type is part of every object of the class, so only code that makes or reads one needs it).
//!
//! A run that compiles such a function stops before it starts with the error (`exec.rs`,
//! `compile.rs`'s `inline_call`); a kernel that never names the struct runs. An unknown type
//! outside every function and struct stays an error of the parse.

use super::*;

/// The most rounds of "a struct or alias that names a struct with an unknown member type": one
/// round per level of nesting.
const MAX_ROUNDS: usize = 32;

type Pos = (u32, u32);

/// A class definition's name and the positions of its `{` and `}`.
struct ClassRange {
    name: String,
    open: Pos,
    close: Pos,
}

fn pos(t: &Token) -> Pos {
    (t.line, t.col)
}

/// Every `struct`/`class`/`union NAME … { … }` definition, nested ones too, in one walk.
fn class_ranges(tokens: &[Token]) -> Vec<ClassRange> {
    let mut out = Vec::new();
    // Per open brace: the class it opens, if any.
    let mut braces: Vec<Option<(String, Pos)>> = Vec::new();
    // `struct NAME` read, its `{` not yet met.
    let mut head: Option<String> = None;
    for (k, t) in tokens.iter().enumerate() {
        match &t.tok {
            Tok::Ident(w) if matches!(w.as_str(), "struct" | "class" | "union") => {
                if let Some(Tok::Ident(n)) = tokens.get(k + 1).map(|t| &t.tok) {
                    head = Some(n.clone());
                }
            }
            Tok::Punct(";" | "(" | ")" | "=") => head = None,
            Tok::Punct("{") => braces.push(head.take().map(|n| (n, pos(t)))),
            Tok::Punct("}") => {
                head = None;
                if let Some(Some((name, open))) = braces.pop() {
                    out.push(ClassRange {
                        name,
                        open,
                        close: pos(t),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The names of `using NAME = …;` and `typedef … NAME;` aliases whose aliased tokens name one
/// of `bad`.
fn naming_aliases(tokens: &[Token], bad: &HashSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        let Tok::Ident(w) = &t.tok else { continue };
        if w != "using" && w != "typedef" {
            continue;
        }
        let Some(end) = tokens[k..]
            .iter()
            .position(|t| matches!(t.tok, Tok::Punct(";" | "{" | "}") | Tok::Eof))
            .map(|e| k + e)
        else {
            continue;
        };
        let body = &tokens[k + 1..end];
        let names_bad = body
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(n) if bad.contains(n)));
        if !names_bad {
            continue;
        }
        let name = if w == "using" {
            body.first()
        } else {
            body.last()
        };
        if let Some(Tok::Ident(n)) = name.map(|t| &t.tok) {
            if !bad.contains(n) {
                out.push(n.clone());
            }
        }
    }
    out
}

/// The structs and aliases that need `root`'s members: `root`, the classes naming it, the
/// aliases of those, and so on ([`MAX_ROUNDS`] levels).
fn needing(root: &str, classes: &[ClassRange], tokens: &[Token]) -> HashSet<String> {
    let mut bad: HashSet<String> = HashSet::from([root.to_string()]);
    for _ in 0..MAX_ROUNDS {
        let mut grew = false;
        for t in tokens {
            let Tok::Ident(n) = &t.tok else { continue };
            if !bad.contains(n) {
                continue;
            }
            let p = pos(t);
            for c in classes {
                if c.open <= p && p <= c.close && bad.insert(c.name.clone()) {
                    grew = true;
                }
            }
        }
        for n in naming_aliases(tokens, &bad) {
            grew |= bad.insert(n);
        }
        if !grew {
            break;
        }
    }
    bad
}

/// Moves each unknown-type error the parse met from `diags` to [`Program::type_errors`],
/// leaving a warning in its place (the module's rules).
pub(super) fn defer_type_errors(
    program: &mut Program,
    diags: &mut [KernelDiagnostic],
    tokens: &[Token],
) {
    let classes = class_ranges(tokens);
    let ranges: Vec<(Pos, Pos)> = program
        .functions
        .iter()
        .map(|f| ((f.span.line, f.span.col), (f.body.end.line, f.body.end.col)))
        .collect();
    for d in diags
        .iter_mut()
        .filter(|d| d.level == Level::Error && d.message.starts_with("unknown type `"))
    {
        let at = (d.line, d.col);
        let in_function = ranges.iter().any(|&(s, e)| s <= at && at <= e);
        let class = classes
            .iter()
            .filter(|c| c.open <= at && at <= c.close)
            .max_by_key(|c| c.open);
        if let (false, Some(c)) = (in_function, class) {
            let bad = needing(&c.name, &classes, tokens);
            let mut owners: Vec<String> = Vec::new();
            for (f, &(s, e)) in program.functions.iter().zip(&ranges) {
                let names = tokens.iter().any(|t| {
                    matches!(&t.tok, Tok::Ident(n) if bad.contains(n)) && s <= pos(t) && pos(t) <= e
                });
                // `k<Tex>` run by `--entry`: an instance whose arguments name it.
                let instance = f
                    .name
                    .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                    .skip(1)
                    .any(|w| bad.contains(w));
                if (names || instance) && !owners.contains(&f.name) {
                    owners.push(f.name.clone());
                }
            }
            for name in &owners {
                program
                    .type_errors
                    .push((name.clone(), d.line, d.col, d.message.clone()));
            }
            d.level = Level::Warning;
            d.message = format!(
                "{} in a member of `{}`: a run that reaches a function using `{}` stops here \
                 with this error",
                d.message, c.name, c.name
            );
            continue;
        }
        let start = program
            .functions
            .iter()
            .map(|f| f.span.line)
            .filter(|&l| l <= d.line)
            .max();
        let Some(start) = start else { continue };
        let owners: Vec<String> = program
            .functions
            .iter()
            .filter(|f| f.span.line == start)
            .map(|f| f.name.clone())
            .collect();
        for name in &owners {
            program
                .type_errors
                .push((name.clone(), d.line, d.col, d.message.clone()));
        }
        let shown = owners.first().cloned().unwrap_or_default();
        d.level = Level::Warning;
        d.message = format!(
            "{} in `{shown}`: a run that reaches `{shown}` stops here with this error",
            d.message
        );
    }
}
