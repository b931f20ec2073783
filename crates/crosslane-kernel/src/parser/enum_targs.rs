//! Enumeration types of template value arguments, for choosing among function templates that
//! differ in an enumeration-typed template parameter (DeepSpeed's reduction header:
//! `template <ROpType Op, int W> void _warp(…)` beside `template <ROpType Op1, ROpType Op2,
//! int W> void _warp(…)`, called `_warp<Op, num_threads>(warp, data)`).
//!
//! C++17 [temp.arg.nontype]/2: a template argument for a non-type template parameter is a
//! converted constant expression of the parameter's type; [expr.const]/7 allows no conversion
//! from an integer to an enumeration, nor from a scoped enumeration to an integer, in one. So
//! an explicit argument of type `int` given to a parameter of enumeration type `E` (or an
//! enumerator of another enumeration, or a scoped enumerator given to an integer parameter)
//! fails substitution, and that template leaves the overload set ([temp.deduct]/8).
//!
//! Values are bound as integers here, so each explicit argument's enumeration is read from
//! its spelling when it is one name: an enumerator (its enumeration), a value template
//! parameter of the instance being read (its declared type), an integer literal (`int`).
//! Anything else is unknown and excludes nothing.

use std::collections::HashMap;

use super::targs::TParam;
use super::Parser;
use crate::lexer::{Tok, Token};

/// What the enumerations of a source are: each enumeration's name and whether it is scoped
/// (`enum class`), and each enumerator's enumeration.
#[derive(Clone, Debug, Default)]
pub(super) struct Enums {
    scoped: HashMap<String, bool>,
    enumerator: HashMap<String, String>,
    /// Other names of an enumeration (`using rop = ROpType;`): the enumeration's name.
    aliases: HashMap<String, String>,
}

/// An explicit template argument's type, as far as its spelling tells.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum TargKind {
    /// An integer (an integer literal, an integer-typed template parameter).
    Int,
    /// A value of the named enumeration.
    Enum(String),
    /// Not known here.
    Unknown,
}

/// Most tokens of the source scanned for enumerations (a budget; the scan is linear).
const MAX_SCAN: usize = 4_000_000;

/// The enumerations the tokens define: `enum [class|struct] NAME [: type] { A [= v], B, … }`.
pub(super) fn scan_enums(toks: &[Token]) -> Enums {
    let mut out = Enums::default();
    let word = |k: usize| super::scopes::word(toks.get(k));
    let punct = |k: usize, p: &str| super::scopes::punct(toks.get(k), p);
    let mut k = 0;
    while k < toks.len().min(MAX_SCAN) {
        if word(k) != Some("enum") {
            k += 1;
            continue;
        }
        let mut j = k + 1;
        let scoped = matches!(word(j), Some("class" | "struct"));
        if scoped {
            j += 1;
        }
        let Some(name) = word(j).map(str::to_string) else {
            k += 1;
            continue;
        };
        j += 1;
        // `: underlying-type` up to the body.
        while j < toks.len() && !punct(j, "{") && !punct(j, ";") {
            j += 1;
        }
        if !punct(j, "{") {
            out.scoped.insert(name, scoped);
            k = j;
            continue;
        }
        j += 1;
        // Each enumerator: the name after `{` or a `,` at depth 0.
        let mut depth = 0usize;
        let mut expect_name = true;
        while j < toks.len() {
            match &toks[j].tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
                Tok::Punct("}") if depth == 0 => break,
                Tok::Punct("}") => depth -= 1,
                Tok::Punct(",") if depth == 0 => expect_name = true,
                Tok::Ident(w) if expect_name && depth == 0 => {
                    // An enumerator two enumerations share is of neither here (its spelling
                    // alone cannot tell which): empty, read as unknown.
                    let e = match out.enumerator.get(w) {
                        Some(old) if *old != name => String::new(),
                        _ => name.clone(),
                    };
                    out.enumerator.insert(w.clone(), e);
                    expect_name = false;
                }
                _ => {}
            }
            j += 1;
        }
        out.scoped.insert(name, scoped);
        k = j;
    }
    // Aliases of an enumeration name it too (`using rop = reduce::ROpType;`, `typedef E F;`):
    // a template parameter declared `rop Op` is of enumeration type `ROpType`.
    for k in 0..toks.len().min(MAX_SCAN) {
        let (alias, target) = match word(k) {
            Some("using") if punct(k + 2, "=") => (word(k + 1), k + 3),
            Some("typedef") => (None, k + 1),
            _ => continue,
        };
        let Some(semi) = (target..toks.len().min(target + 16)).find(|&j| punct(j, ";")) else {
            continue;
        };
        let (alias, last) = match alias {
            Some(a) => (a, semi.checked_sub(1).and_then(word)),
            // `typedef E F;`: the alias is the last word, the enumeration the one before it.
            None => match (semi.checked_sub(1).and_then(word), semi.checked_sub(2)) {
                (Some(a), Some(j)) => (a, word(j)),
                _ => continue,
            },
        };
        if let Some(e) = last.filter(|e| out.scoped.contains_key(*e)) {
            out.aliases.insert(alias.to_string(), e.to_string());
        }
    }
    out
}

impl Enums {
    /// The enumeration a declared type names (its last word), when it is one.
    pub(super) fn named(&self, toks: &[Token]) -> Option<String> {
        let last = toks.iter().rev().find_map(|t| match &t.tok {
            Tok::Ident(w) if w != "const" && w != "volatile" => Some(w.as_str()),
            _ => None,
        })?;
        if let Some(e) = self.aliases.get(last) {
            return Some(e.clone());
        }
        self.scoped.contains_key(last).then(|| last.to_string())
    }
}

impl Parser<'_> {
    /// The kind of the explicit template argument starting at the cursor: a name (maybe
    /// qualified, `rop::Add`, `ROpType::Max`) or an integer literal ending at a `,` or `>` of
    /// the list.
    pub(super) fn targ_kind_here(&self) -> TargKind {
        let mut k = 0;
        let mut last;
        loop {
            match self.peek(k) {
                Tok::Ident(w) => last = Some(w.clone()),
                Tok::Int { .. } if k == 0 => {
                    return match self.peek(1) {
                        Tok::Punct("," | ">" | ">>") => TargKind::Int,
                        _ => TargKind::Unknown,
                    };
                }
                _ => return TargKind::Unknown,
            }
            match self.peek(k + 1) {
                Tok::Punct("::") => k += 2,
                Tok::Punct("," | ">" | ">>") => break,
                _ => return TargKind::Unknown,
            }
        }
        let Some(n) = last else {
            return TargKind::Unknown;
        };
        if let Some(e) = self.value_param_enum.get(&n) {
            return e.clone().map_or(TargKind::Int, TargKind::Enum);
        }
        match self.enums.enumerator.get(&n) {
            Some(e) if !e.is_empty() => TargKind::Enum(e.clone()),
            _ => TargKind::Unknown,
        }
    }

    /// Why template `params` cannot take explicit arguments of `kinds` (an integer for an
    /// enumeration parameter, another enumeration's value, a scoped enumeration's value for an
    /// integer parameter); `None` when each may.
    pub(super) fn enum_targ_mismatch(
        &self,
        params: &[TParam],
        kinds: &[TargKind],
    ) -> Option<String> {
        for (p, kind) in params.iter().zip(kinds) {
            if p.value.is_none() || p.pack || p.named || p.placeholder {
                continue;
            }
            match (&p.enumeration, kind) {
                (Some(e), TargKind::Int) => {
                    return Some(format!(
                        "template parameter `{}` is of enumeration type `{e}`, and an integer \
                         does not convert to it in a template argument ([temp.arg.nontype]/2)",
                        p.name
                    ))
                }
                (Some(e), TargKind::Enum(f)) if e != f => {
                    return Some(format!(
                        "template parameter `{}` is of enumeration type `{e}`, given a `{f}`",
                        p.name
                    ))
                }
                (None, TargKind::Enum(f)) if self.enums.scoped.get(f) == Some(&true) => {
                    return Some(format!(
                        "template parameter `{}` is an integer, and a scoped enumeration's \
                         value (`{f}`) does not convert to it ([expr.const]/7)",
                        p.name
                    ))
                }
                _ => {}
            }
        }
        None
    }
}
