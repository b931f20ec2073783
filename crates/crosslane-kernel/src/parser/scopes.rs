//! Namespaces, scoped names and linkage words, flattened on the token stream before parsing: a
//! `namespace X { … }` block's braces are dropped (its functions and constants are file-scope ones), and a
//! qualified name `X::f` or `Color::Red`, where `X` is a namespace or `Color` an enum the source
//! declares, is read as `f` / `Red`. Real warp-level code wraps its helpers this way (`namespace
//! detail { … }`, `enum class Op { Sum, Max }`). Two namespaces defining a kernel of the same
//! name are told apart ([`clashing_kernels`]): each such kernel keeps its qualified name,
//! `a::k` and `b::k`, as one identifier, which `--entry a::k` and a launch `b::k<<<…>>>` name;
//! so does any other name two scopes declare at namespace scope ([`super::ns_members`]): a
//! function, constant, array, struct or alias, read through qualified names, the enclosing
//! namespaces, `using X::f;` and `using namespace X;` ([namespace.udecl], [namespace.udir]).
//! `extern "C"` (C linkage, which Ascend C kernels are declared with) and `noexcept` are
//! dropped: neither changes what a kernel computes.
//!
//! Source: ISO C++ [basic.namespace] (a namespace body's declarations are members of the
//! namespace, named `X::f` outside it) and [dcl.enum] (a scoped enumerator is named `E::A`).
//! Cooperative groups' own namespaces (`cg::`, `cooperative_groups::`, `std::`) are left as they
//! are: the parser maps their names to the warp rules ([`super::cg::NAMESPACES`]).

use crate::ast::{Expr, Span};
use crate::lexer::{Tok, Token};
use crate::KernelDiagnostic;
use crosslane_core::result::Level;
use std::collections::{HashMap, HashSet};

/// The identifier `t` is, if it is one.
pub(super) fn word(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    }
}

/// Whether `t` is the punctuator `p`.
pub(super) fn punct(t: Option<&Token>, p: &str) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p)
}

/// The name a namespace definition gives, read from token `j` (just past `namespace`): `a`,
/// `a::b` for a nested one written at once (C++17 [namespace.def]/2), empty for an anonymous
/// one; and the index of the token after it (the `{` of a definition).
pub(super) fn namespace_name(toks: &[Token], mut j: usize) -> (String, usize) {
    let mut name = String::new();
    while let Some(n) = word(toks.get(j)) {
        if !name.is_empty() {
            name.push_str("::");
        }
        name.push_str(n);
        j += 1;
        if punct(toks.get(j), "::") {
            j += 1;
        } else {
            break;
        }
    }
    (name, j)
}

fn at(t: &Token) -> Span {
    Span {
        line: t.line,
        col: t.col,
    }
}

/// The names the source declares as namespaces (`namespace X {`, `namespace a::b {`,
/// `namespace N = X;`), enums (`enum [class|struct] E`) or aliases of its enums (`using A =
/// ns::E;`), except the cooperative-groups ones and aliases of CUB's or hipCUB's.
pub(super) fn scope_names(toks: &[Token]) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut enums = HashSet::new();
    for k in 0..toks.len() {
        match word(toks.get(k)) {
            Some("namespace") => {
                let mut j = k + 1;
                while let Some(n) = word(toks.get(j)) {
                    // An alias of a library namespace the parser reads by name (`namespace
                    // cg = cooperative_groups;`, `namespace cub = hipcub;`) keeps its
                    // qualifier: the library's calls are recognised by it.
                    let alias_of_cg = punct(toks.get(j + 1), "=")
                        && word(toks.get(j + 2)).is_some_and(|t| {
                            super::cg::NAMESPACES.contains(&t) || matches!(t, "cub" | "hipcub")
                        });
                    // `using namespace AscendC::Simt;` declares nothing: the parser reads
                    // those qualifiers itself (`ascend_simt`).
                    let ascend_using = k > 0
                        && word(toks.get(k - 1)) == Some("using")
                        && matches!(n, "AscendC" | "Simt");
                    if !super::cg::NAMESPACES.contains(&n) && !alias_of_cg && !ascend_using {
                        names.insert(n.to_string());
                    }
                    if !punct(toks.get(j + 1), "::") {
                        break;
                    }
                    j += 2;
                }
            }
            Some("enum") => {
                let mut j = k + 1;
                if matches!(word(toks.get(j)), Some("class" | "struct")) {
                    j += 1;
                }
                if let Some(n) = word(toks.get(j)) {
                    names.insert(n.to_string());
                    enums.insert(n.to_string());
                }
            }
            _ => {}
        }
    }
    // `using rop = reduce::ROpType;`: an alias of an enum qualifies its enumerators as the
    // enum does (`rop::Add`; ISO C++ [dcl.typedef]/2, [dcl.enum]/11).
    for k in 0..toks.len() {
        if word(toks.get(k)) != Some("using") || !punct(toks.get(k + 2), "=") {
            continue;
        }
        let Some(alias) = word(toks.get(k + 1)) else {
            continue;
        };
        let mut j = k + 3;
        let mut last = None;
        while let Some(w) = word(toks.get(j)) {
            last = Some(w);
            if !punct(toks.get(j + 1), "::") {
                break;
            }
            j += 2;
        }
        if punct(toks.get(j + 1), ";") && last.is_some_and(|w| enums.contains(w)) {
            names.insert(alias.to_string());
        }
    }
    names
}

/// `toks` with namespace blocks opened and `X::` qualifiers of the source's own namespaces and
/// enums removed; `using X::f;` declarations are dropped. A kernel of `clashing`
/// ([`clashing_kernels`]) becomes one identifier spelled with its qualifiers, `a::k`, wherever
/// it is named: qualified (`a::k`, `::a::k`, or relative to the innermost enclosing
/// namespace) or unqualified inside its own namespace (ISO C++ [basic.lookup.unqual]: the
/// enclosing namespaces are searched from the innermost out). Each namespace opened is noted
/// once in `diags`. Linear in the tokens, no recursion.
pub(super) fn flatten_scopes(
    toks: Vec<Token>,
    clashing: &HashSet<String>,
    diags: &mut Vec<KernelDiagnostic>,
) -> Vec<Token> {
    let has_scopes = toks.iter().any(|t| {
        matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "namespace" | "enum" | "extern" | "noexcept" | "using"))
    });
    if !has_scopes {
        return toks;
    }
    let names = scope_names(&toks);
    let mut clashes = Clashes::new(clashing);
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    // Brace depth, and the depth at which each open namespace block's `}` comes, with the
    // block's namespace id in `clashes` (an anonymous namespace and `extern "C" {` keep their
    // enclosing one's).
    let mut depth = 0usize;
    let mut open: Vec<usize> = Vec::new();
    let mut ids: Vec<usize> = Vec::new();
    let mut noted: HashSet<String> = HashSet::new();
    // Using-declarations of clashing names (the brace depth they were made at, the name, the
    // qualified name it stands for) and using-directives (depth, namespace id), in order.
    let mut aliases: Vec<(usize, String, String)> = Vec::new();
    let mut directives: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        // `[inline] namespace [a[::b…]] {`: the block's braces go, its contents stay.
        let ns_at = if word(Some(t)) == Some("inline") && word(toks.get(k + 1)) == Some("namespace")
        {
            Some(k + 1)
        } else if word(Some(t)) == Some("namespace") {
            Some(k)
        } else {
            None
        };
        if let Some(ns) = ns_at {
            let (name, j) = namespace_name(&toks, ns + 1);
            if punct(toks.get(j), "{") {
                // crosslane's own rocPRIM declarations ([`super::rocprim_lib`]) are no
                // namespace of the source's.
                let own = toks[ns].col % crate::ast::SYNTH_COL >= super::rocprim_lib::PRELUDE_COL;
                if !own && noted.insert(name.clone()) {
                    let shown = if name.is_empty() {
                        "an anonymous namespace".to_string()
                    } else {
                        format!("namespace `{name}`")
                    };
                    diags.push(KernelDiagnostic::new(
                        at(&toks[ns]),
                        Level::Info,
                        format!(
                            "{shown} is read as file scope: its names are used with or without \
                             their `{name}::` qualifier"
                        ),
                        "ISO C++ [basic.namespace]",
                    ));
                }
                open.push(depth);
                let enclosing = ids.last().copied().unwrap_or(0);
                ids.push(clashes.open(enclosing, &name));
                k = j + 1;
                continue;
            }
        }
        // `extern "C"` (C linkage, nothing to run; `extern "C" { … }` loses its braces) and
        // `noexcept` (no exceptions here) change no result.
        if word(Some(t)) == Some("extern")
            && matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Str(c)) if c == "C")
        {
            if punct(toks.get(k + 2), "{") {
                open.push(depth);
                ids.push(ids.last().copied().unwrap_or(0));
                k += 3;
            } else {
                k += 2;
            }
            continue;
        }
        if word(Some(t)) == Some("noexcept") {
            k += 1;
            continue;
        }
        // `using X::f;` (a using-declaration): the name is already visible unqualified,
        // unless two scopes declare it: then `f` names `X::f` until the enclosing block ends
        // ([namespace.udecl]/1).
        if word(Some(t)) == Some("using")
            && word(toks.get(k + 1)).is_some_and(|n| n != "namespace")
            && punct(toks.get(k + 2), "::")
        {
            let mut j = k + 1;
            while j < toks.len() && !punct(toks.get(j), ";") && !punct(toks.get(j), "=") {
                j += 1;
            }
            if punct(toks.get(j), ";") {
                if let Some((q, _)) = clashes.at(&toks, k + 1, &out, &ids, &[]) {
                    if let Some(last) = word(toks.get(j - 1)) {
                        aliases.push((depth, last.to_string(), q));
                    }
                }
                k = j + 1;
                continue;
            }
        }
        // `using namespace X;` (a using-directive): X's clashing names are found unqualified
        // until the enclosing block ends ([namespace.udir]/2).
        if word(Some(t)) == Some("using") && word(toks.get(k + 1)) == Some("namespace") {
            let mut quals = Vec::new();
            let mut j = k + 2;
            while let Some(w) = word(toks.get(j)) {
                quals.push(w);
                j += 1;
                if punct(toks.get(j), "::") {
                    j += 1;
                } else {
                    break;
                }
            }
            if let Some(id) = clashes.namespace(ids.last().copied().unwrap_or(0), &quals) {
                directives.push((depth, id));
            }
        }
        if !clashes.is_empty() {
            let mut extra: Vec<usize> = directives.iter().map(|(_, id)| *id).collect();
            extra.reverse();
            let alias = word(Some(t)).and_then(|w| {
                let member = out
                    .last()
                    .is_some_and(|p| matches!(p.tok, Tok::Punct("." | "->" | "::")));
                let qualified = punct(toks.get(k + 1), "::");
                (!member && !qualified)
                    .then(|| aliases.iter().rev().find(|(_, n, _)| n == w))
                    .flatten()
            });
            if let Some((_, _, q)) = alias {
                out.push(Token {
                    tok: Tok::Ident(q.clone()),
                    ..t.clone()
                });
                k += 1;
                continue;
            }
            if let Some((q, next)) = clashes.at(&toks, k, &out, &ids, &extra) {
                out.push(Token {
                    tok: Tok::Ident(q),
                    ..t.clone()
                });
                k = next;
                continue;
            }
        }
        match &t.tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                if open.last() == Some(&depth) {
                    open.pop();
                    ids.pop();
                    k += 1;
                    continue;
                }
                depth = depth.saturating_sub(1);
                aliases.retain(|(d, _, _)| *d <= depth);
                directives.retain(|(d, _)| *d <= depth);
            }
            Tok::Ident(n) if names.contains(n) && punct(toks.get(k + 1), "::") => {
                k += 2;
                continue;
            }
            _ => {}
        }
        out.push(t.clone());
        k += 1;
    }
    out
}

/// How many enclosing namespaces, innermost first, an unqualified name of a clashing kernel
/// is looked up in: real code nests a few; the bound keeps the lookup constant per name.
const MAX_OUTWARD: usize = 64;

/// The clashing kernels ([`clashing_kernels`]) by namespace, for [`flatten_scopes`]: the
/// namespaces as a tree of ids (0: the global namespace; a child per name, `a::b` as `b` in
/// `a`), and each clashing kernel under its namespace's id and its unqualified name.
#[derive(Default)]
struct Clashes {
    children: HashMap<usize, HashMap<String, usize>>,
    kernels: HashMap<usize, HashMap<String, String>>,
    count: usize,
}

impl Clashes {
    fn new(clashing: &HashSet<String>) -> Self {
        let mut c = Clashes::default();
        for q in clashing {
            let (ns, last) = q.rsplit_once("::").unwrap_or(("", q.as_str()));
            let id = c.open(0, ns);
            c.kernels
                .entry(id)
                .or_default()
                .insert(last.to_string(), q.clone());
        }
        c
    }

    fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }

    /// The id of namespace `name` (`a::b`; empty for an anonymous one, which adds no
    /// qualifier) inside namespace `parent`, made on first use.
    fn open(&mut self, parent: usize, name: &str) -> usize {
        let mut id = parent;
        for seg in name.split("::").filter(|s| !s.is_empty()) {
            let next = self.count + 1;
            let child = *self
                .children
                .entry(id)
                .or_default()
                .entry(seg.to_string())
                .or_insert(next);
            if child == next {
                self.count = next;
            }
            id = child;
        }
        id
    }

    /// The id of the namespace that `quals` name from namespace `from` (then from the global
    /// one), when it holds a clashing name.
    fn namespace(&self, from: usize, quals: &[&str]) -> Option<usize> {
        let walk = |start: usize| {
            let mut id = start;
            for q in quals {
                id = *self.children.get(&id)?.get(*q)?;
            }
            Some(id)
        };
        walk(from).or_else(|| walk(0))
    }

    /// The clashing kernel `last` of the namespace that `quals` name from namespace `from`.
    fn find(&self, from: usize, quals: &[&str], last: &str) -> Option<&String> {
        let mut id = from;
        for q in quals {
            id = *self.children.get(&id)?.get(*q)?;
        }
        self.kernels.get(&id)?.get(last)
    }

    /// The clashing kernel the name at `toks[k]` denotes, with the index after it, inside the
    /// open namespaces `ids` (innermost last). A qualified name `x::…::k` is looked up from the
    /// innermost namespace, then from the global one; an unqualified `k` (not a member after
    /// `.`, `->` or `::`) in the enclosing namespaces from the innermost out (at most
    /// [`MAX_OUTWARD`]; ISO C++ [basic.lookup.unqual]). `None` for any other token, and inside a
    /// qualified name (its start decided it), so each name is read once.
    fn at(
        &self,
        toks: &[Token],
        k: usize,
        out: &[Token],
        ids: &[usize],
        directed: &[usize],
    ) -> Option<(String, usize)> {
        let before = k.checked_sub(2).and_then(|b| toks.get(b));
        if k >= 2 && punct(toks.get(k - 1), "::") && (word(before).is_some() || punct(before, ">"))
        {
            return None;
        }
        word(toks.get(k))?;
        // `x :: y :: k`: the qualifiers, then the last name.
        let mut quals: Vec<&str> = Vec::new();
        let mut j = k;
        while let (Some(w), true) = (word(toks.get(j)), punct(toks.get(j + 1), "::")) {
            quals.push(w);
            j += 2;
        }
        let last = word(toks.get(j))?;
        let innermost = ids.last().copied().unwrap_or(0);
        let found = if quals.is_empty() {
            let member = out
                .last()
                .is_some_and(|p| matches!(p.tok, Tok::Punct("." | "->" | "::")));
            if member {
                return None;
            }
            ids.iter()
                .rev()
                .take(MAX_OUTWARD)
                .chain(std::iter::once(&0))
                .chain(directed.iter().take(MAX_OUTWARD))
                .find_map(|id| self.kernels.get(id)?.get(last))
        } else {
            self.find(innermost, &quals, last)
                .or_else(|| self.find(0, &quals, last))
        };
        found.map(|q| (q.clone(), j + 1))
    }
}

/// The qualified names of the kernels `scopes` ([`kernel_scopes`]) lists whose unqualified name
/// a kernel of another namespace also has (`a::k` and `b::k`: ISO C++ [basic.namespace], two
/// members of different namespaces are different entities). Each is flattened to its qualified
/// spelling as one identifier ([`flatten_scopes`]), and its entry in `scopes` becomes
/// `(a::k, a::k)`, the name the flattened source uses.
pub(super) fn clashing_kernels(scopes: &mut [(String, String)]) -> HashSet<String> {
    let mut by_name: HashMap<&str, HashSet<&str>> = HashMap::new();
    for (n, q) in scopes.iter() {
        by_name.entry(n).or_default().insert(q);
    }
    let clashing: HashSet<String> = by_name
        .values()
        .filter(|qs| qs.len() > 1)
        .flat_map(|qs| qs.iter().map(|q| (*q).to_string()))
        .collect();
    for (n, q) in scopes.iter_mut() {
        if clashing.contains(q.as_str()) {
            n.clone_from(q);
        }
    }
    clashing
}

/// The kernels (`__global__`, Ascend C `__simt_vf__`) defined inside a named namespace, as (their name, the name
/// qualified by the enclosing namespaces: `k` in `namespace ops { … }` is `ops::k`, ISO C++
/// [basic.namespace], [namespace.memdef]), read from the tokens before [`flatten_scopes`]
/// drops the blocks; the trace names such an entry by its qualified name. An anonymous
/// namespace adds no qualifier (its members are named unqualified). Linear in the tokens.
pub(super) fn kernel_scopes(toks: &[Token]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // Brace depth, and each open namespace block: the depth its `}` closes at and its name.
    let mut depth = 0usize;
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        if word(Some(t)) == Some("namespace") {
            let mut j = k + 1;
            let mut name = String::new();
            while let Some(n) = word(toks.get(j)) {
                if !name.is_empty() {
                    name.push_str("::");
                }
                name.push_str(n);
                j += 1;
                if punct(toks.get(j), "::") {
                    j += 1;
                } else {
                    break;
                }
            }
            if punct(toks.get(j), "{") {
                open.push((depth, name));
                depth += 1;
                k = j + 1;
                continue;
            }
        }
        match &t.tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                if open.last().is_some_and(|(d, _)| *d == depth) {
                    open.pop();
                }
            }
            Tok::Ident(w)
                if super::entry_list::KERNEL_WORDS.contains(&w.as_str())
                    && open.last().is_some_and(|(d, _)| d + 1 == depth) =>
            {
                // The declarator's name: the identifier before the parameter list's `(`.
                let name = toks[k..]
                    .iter()
                    .take_while(|t| !punct(Some(t), ";") && !punct(Some(t), "{"))
                    .collect::<Vec<_>>()
                    .windows(2)
                    .find_map(|w| match (&w[0].tok, &w[1].tok) {
                        (Tok::Ident(n), Tok::Punct("("))
                            if !matches!(n.as_str(), "__launch_bounds__" | "__attribute__") =>
                        {
                            Some(n.clone())
                        }
                        _ => None,
                    });
                let path: Vec<&str> = open
                    .iter()
                    .map(|(_, n)| n.as_str())
                    .filter(|n| !n.is_empty())
                    .collect();
                if let (Some(name), false) = (name, path.is_empty()) {
                    out.push((name.clone(), format!("{}::{name}", path.join("::"))));
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// An `--entry` name as the flattened source spells it: each `X::` qualifier of one of the
/// source's namespaces `names` dropped, a leading `::` too (`ns::kernel<2>` → `kernel<2>`,
/// `a::b::k` → `k`, `k<ns::Tag>` → `k<Tag>`), as [`flatten_scopes`] drops them in the code; a
/// kernel of `clashing` keeps its qualified name (`a::k<2>` stays).
pub(super) fn unqualify_entry(
    entry: &str,
    names: &HashSet<String>,
    clashing: &HashSet<String>,
) -> String {
    let mut out = String::with_capacity(entry.len());
    let mut rest = entry.trim();
    if let Some(r) = rest.strip_prefix("::") {
        rest = r;
    }
    while !rest.is_empty() {
        let whole = clashing.iter().find(|q| {
            rest.strip_prefix(q.as_str()).is_some_and(|after| {
                !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            })
        });
        if let Some(q) = whole {
            out.push_str(q);
            rest = &rest[q.len()..];
            continue;
        }
        let ident_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if ident_len == 0 {
            let c = rest.chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[..c]);
            rest = &rest[c..];
            continue;
        }
        let (word, after) = rest.split_at(ident_len);
        let after_ws = after.trim_start();
        match after_ws.strip_prefix("::") {
            Some(r) if names.contains(word) => rest = r.trim_start(),
            _ => {
                out.push_str(word);
                rest = after;
            }
        }
    }
    out
}

/// The name `__func__` gives for function `name` as read here (a template instance's or an
/// overload's key included): the unqualified name alone (C++17 [dcl.fct.def.general]/8).
pub(super) fn func_name(name: &str) -> String {
    let bare = name.split(['<', '#', '/']).next().unwrap_or(name);
    bare.rsplit("::").next().unwrap_or(bare).to_string()
}

impl super::Parser<'_> {
    /// Enumerator `name` of value `v` (`Parser::enum_def`) as the constant `e`, and in the
    /// program's list of enumerators, by which an argument may name it
    /// ([`crate::ast::Program::enumerators`]).
    pub(super) fn enum_const(&mut self, name: String, v: i128, e: Expr) {
        let value = i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
        self.enumerators.push((name.clone(), value));
        self.consts.insert(name, e);
    }
}
