//! Host items at file scope: whole public files (test suites, samples) carry host code around
//! their kernels — functions returning `std::vector<int>`, classes with destructors, Catch2's
//! `TEST_CASE("…") { … }`, gtest's `TEST(Suite, Name) { … }`, `using Types =
//! ::testing::Types<…>;`, host variables. In CUDA and HIP a function or variable without an
//! execution-space specifier is host code (CUDA C++ Programming Guide, "Function Execution Space
//! Specifiers": a function without one is `__host__`; "Variable Memory Space Specifiers": a
//! variable without one lives in host memory), so device code cannot use it. Such an item is
//! skipped with a note, never run and never a refusal; a body shaped like a function's is still
//! read for its launches ([`Parser::read_host`]).
//!
//! An item is skipped only when the device reading of it failed, the source is a file (it
//! defines a `__global__` or `__device__` function, so it is not a snippet of statements), and
//! the item names no device marker (`__global__`, `__device__`, `__shared__`, `__constant__`,
//! `__managed__`; in a class, anywhere in its body): a device item keeps its error. A budget's
//! error is never skipped. Bounded: one scan over the item's tokens, brackets found by the
//! parser's table.

use super::{PResult, Parser};
use crate::lexer::{Tok, Token};
use crate::KernelError;
use crosslane_core::result::Level;

/// Words that make an item device code.
const DEVICE_MARKERS: &[&str] = &[
    "__global__",
    "__device__",
    "__shared__",
    "__constant__",
    "__managed__",
    "__simt_vf__",
    "__aicore__",
];

/// The C++ standard library's host-only class templates and classes (ISO C++17 [containers],
/// [string.classes], [smartptr], [iostreams], [thread]): no device code holds one.
const HOST_LIBRARY_TYPES: &[&str] = &[
    "vector",
    "string",
    "map",
    "unordered_map",
    "set",
    "unordered_set",
    "multimap",
    "list",
    "deque",
    "unique_ptr",
    "shared_ptr",
    "function",
    "ifstream",
    "ofstream",
    "fstream",
    "stringstream",
    "ostringstream",
    "mutex",
    "thread",
];

/// The source rule a skipped item's note cites.
const RULE: &str = "CUDA C++ Programming Guide, Function Execution Space Specifiers (a function \
                    without one is __host__); HIP Programming Guide, Function-type qualifiers";

/// Whether the tokens define device functions (a file, not a snippet of statements).
pub(super) fn is_file(toks: &[Token]) -> bool {
    toks.iter().any(|t| {
        matches!(&t.tok, Tok::Ident(w)
            if matches!(w.as_str(), "__global__" | "__device__" | "__simt_vf__" | "__aicore__"))
    })
}

/// The parser's state before an item, restored when the item is skipped.
pub(super) struct Mark {
    pos: usize,
    depth: u32,
    diags: usize,
    scopes: usize,
    pre: usize,
}

/// What kind of host item was skipped, for its note.
enum Shape {
    /// `name(…) { … }` with a return type: a host function (`main`, `make_input`).
    Function(String),
    /// `NAME(…) { … }` without one: a test framework's macro (`TEST_CASE`, `TEST`).
    Block(String),
    /// `class`/`struct`/`union` with a body.
    Class(String),
    /// Anything ending at `;`: a host variable, an alias of a host type, a macro statement.
    Declaration(String),
}

impl Parser<'_> {
    /// The state to come back to if the item starting here is skipped.
    pub(super) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            depth: self.depth,
            diags: self.diags.len(),
            scopes: self.scopes.len(),
            pre: self.pre.len(),
        }
    }

    /// After the device reading of the item at `mark` failed with `e`: skips it with a note
    /// when it is host code (see the module's documentation), else returns `e`.
    ///
    /// # Errors
    /// `e` itself, for a snippet, a budget, or an item that names a device marker.
    pub(super) fn skip_host_item(&mut self, mark: Mark, e: KernelError, file: bool) -> PResult<()> {
        if !file || e.message.contains("--max-") {
            return Err(e);
        }
        let toks = self.toks;
        let Some((head_end, body, end)) = self.item_extent(mark.pos) else {
            return Err(e);
        };
        let class = toks[mark.pos..head_end]
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "class" | "struct" | "union")))
            && !toks[mark.pos..head_end]
                .iter()
                .any(|t| matches!(t.tok, Tok::Punct("(")));
        let head = &toks[mark.pos..head_end];
        let word = |w: &str| {
            head.iter()
                .any(|t| matches!(&t.tok, Tok::Ident(x) if x == w))
        };
        let qualified = head.iter().any(|t| matches!(t.tok, Tok::Punct("::")));
        // A data-only class, an enum or an alias of a device type keeps its error (its use
        // would otherwise meet an unknown name): a class is host code when it has member
        // functions or derives from a qualified library type (`::testing::Test`), an alias
        // when it names one (`::testing::Types<…>`).
        let member_fns = body.is_some_and(|open| {
            toks[open..end].windows(2).any(|w| {
                matches!(
                    (&w[0].tok, &w[1].tok),
                    (Tok::Punct(")"), Tok::Punct("{" | ":"))
                )
            })
        });
        // A data member of a host-only library type (`std::vector<EdgePixel> list;` in a
        // sample's result struct): the C++ standard library's containers, strings, smart
        // pointers and streams are host code, so the class is too.
        let host_members = body.is_some_and(|open| {
            toks[open..end].windows(3).any(|w| {
                matches!(
                    (&w[0].tok, &w[1].tok, &w[2].tok),
                    (Tok::Ident(s), Tok::Punct("::"), Tok::Ident(n))
                        if s == "std" && HOST_LIBRARY_TYPES.contains(&n.as_str())
                )
            })
        });
        // An alias of a host-only library template named unqualified after `using namespace
        // std;` (`typedef vector<vector<float>> matrix;`, HeCBench's jaccard): the name is
        // `std::vector` ([namespace.udir]/2), so the alias is host code as a qualified one is.
        let std_alias = self.std_using
            && head.windows(2).any(|w| {
                matches!(
                    (&w[0].tok, &w[1].tok),
                    (Tok::Ident(n), Tok::Punct("<")) if HOST_LIBRARY_TYPES.contains(&n.as_str())
                )
            });
        if word("enum")
            || ((word("using") || word("typedef")) && !qualified && !std_alias)
            || (class && !member_fns && !qualified && !host_members)
        {
            return Err(e);
        }
        let scanned = if class {
            &toks[mark.pos..=end]
        } else {
            &toks[mark.pos..head_end]
        };
        if scanned
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if DEVICE_MARKERS.contains(&w.as_str())))
        {
            return Err(e);
        }
        self.pos = mark.pos;
        let at = self.span();
        self.depth = mark.depth;
        self.diags.truncate(mark.diags);
        self.scopes.truncate(mark.scopes);
        self.pre.truncate(mark.pre);
        self.self_struct = None;
        self.ret_struct = None;
        self.lambda = None;
        self.auto_ret = None;
        let shape = shape_of(&toks[mark.pos..head_end], class, body.is_some());
        if matches!(shape, Shape::Declaration(_)) {
            self.record_typed_suite(mark.pos, head_end);
            self.record_file_scope_names(mark.pos, end);
        }
        let mut launches = 0;
        let mut typed = String::new();
        // `main` calling a host function defined below it: read once the file is
        // (`host_calls::defer_main`), with its own note then.
        // (Kept already when the device reading of the item before read past it here.)
        let kept =
            body.is_some_and(|open| self.deferred_main.as_ref().is_some_and(|d| d.2 == open));
        let defer = matches!(&shape, Shape::Function(n) if n == "main")
            && (kept
                || self.deferred_main.is_none()
                    && body.is_some_and(|open| self.defer_main(open, end)));
        if let (true, false, Some(open)) = (defer, kept, body) {
            self.deferred_main = Some((Vec::new(), at, open, end));
        }
        if let (Some(open), Shape::Function(name) | Shape::Block(name)) =
            (body.filter(|_| !defer), &shape)
        {
            // A test's body, a helper that launches: its launches are read as `main`'s are
            // (`read_host`'s own note is folded into this item's).
            let before = self.launches.len();
            let notes = self.diags.len();
            let name = name.clone();
            // Catch2's `TEMPLATE_TEST_CASE(name, tags, T1, T2, …)` runs its body once per type
            // with `TestType` naming it (Catch2 docs, "Type-parametrised test cases"): the
            // body is read for the first listed type.
            // gtest's `TYPED_TEST(Suite, Name)` likewise with `TypeParam` naming each type of
            // the suite's `TYPED_TEST_SUITE(Suite, Types)` (GoogleTest advanced guide, "Typed
            // Tests").
            let (param, test_type) = match name.as_str() {
                "TEMPLATE_TEST_CASE" => ("TestType", self.first_test_type(mark.pos + 1)),
                "TYPED_TEST" => ("TypeParam", self.typed_suite_type(mark.pos + 1)),
                _ => ("", None),
            };
            let saved = test_type.map(|t| self.aliases.insert(param.into(), t));
            // A function whose return type the device reading does not take
            // (`std::vector<float> launch_kernel(…)`, the asc-devkit samples' launcher): its
            // parameters, so that a call (`auto out = launch_kernel(…, SCENARIO_NUM);`) reads
            // it again with them bound, as a `void` launcher is.
            let params = matches!(shape, Shape::Function(_))
                .then(|| self.host_fn_params(mark.pos, open, &name))
                .flatten();
            self.read_host(&name, params.clone().unwrap_or_default(), at, open, end);
            if let Some(params) = params.filter(|_| name != "main") {
                self.record_host_fn(&name, params, Vec::new(), (open, end), before);
            }
            if let Some(old) = saved {
                match old {
                    Some(v) => self.aliases.insert(param.into(), v),
                    None => self.aliases.remove(param),
                };
            }
            if let Some(t) = test_type {
                typed = format!(
                    ", read with `{param}` = {}, the first of its listed types",
                    t.name()
                );
            }
            launches = self.launches.len() - before;
            let own = format!("host function `{name}` is read for");
            if let Some(i) = self.diags[notes..]
                .iter()
                .position(|d| d.message.starts_with(&own))
            {
                self.diags.remove(notes + i);
            }
        }
        let launched = match launches {
            0 => String::new(),
            1 => ", its kernel launch read".to_string(),
            n => format!(", its {n} kernel launches read"),
        };
        // The device reading's error says why the item is not device code, unless the item
        // is no function at all to the device reading (a return type such as `std::vector`).
        let why = if e.message.starts_with("a device variable at file scope") {
            String::new()
        } else {
            format!(" (read as device code: {})", e.message)
        };
        let last = toks[end].end.0;
        let lines = if last > at.line {
            format!("lines {}–{last}", at.line)
        } else {
            format!("line {}", at.line)
        };
        let what = match &shape {
            Shape::Function(n) => format!(
                "host function `{n}` ({lines}{launched}): it has no `__device__`/`__global__`, \
                 so device code cannot call it{why}"
            ),
            Shape::Block(n) => {
                format!("`{n}(…)` block ({lines}{launched}{typed}), a test framework's host code")
            }
            Shape::Class(n) => {
                format!("host class `{n}` ({lines}): none of its members is `__device__`{why}")
            }
            Shape::Declaration(n) => format!("host declaration `{n}…` ({lines})"),
        };
        self.diag(
            at,
            Level::Info,
            format!(
                "host code skipped: {what}; crosslane runs the device code and reads host code \
                 only for its launches"
            ),
            RULE,
        );
        self.pos = end + 1;
        Ok(())
    }

    /// The first type of `TEMPLATE_TEST_CASE("name", "[tags]", T1, T2, …)` whose `(` is at
    /// `open` (the third argument), when it is a value type.
    fn first_test_type(&mut self, open: usize) -> Option<crate::types::ValTy> {
        let close = self.closing(open)?;
        let parts = super::host::split_commas(self.toks, open + 1, close);
        let &(a, b) = parts.get(2)?;
        self.host_type(a, b)
    }

    /// gtest's type lists: `using Name = ::testing::Types<A, B, …>;` records `Name` → the value
    /// type `A`; `TYPED_TEST_SUITE(Suite, Name);` (or the older `TYPED_TEST_CASE`) records
    /// `Suite` → that type. Anything else is left alone.
    fn record_typed_suite(&mut self, from: usize, to: usize) {
        let toks = self.toks;
        let ident = |i: usize| match toks.get(i).map(|t| &t.tok) {
            Some(Tok::Ident(n)) => Some(n.as_str()),
            _ => None,
        };
        if ident(from) == Some("using") {
            let Some(name) = ident(from + 1) else { return };
            let Some(types) = (from..to).find(|&i| {
                ident(i) == Some("Types")
                    && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
            }) else {
                return;
            };
            // The first argument: up to the first `,` or `>` at this list's depth.
            let mut depth = 0usize;
            let Some(end) = (types + 2..to).find(|&i| {
                match &toks[i].tok {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") if depth > 0 => depth -= 1,
                    Tok::Punct(",") | Tok::Punct(">") | Tok::Punct(">>") if depth == 0 => {
                        return true
                    }
                    _ => {}
                }
                false
            }) else {
                return;
            };
            let name = name.to_string();
            if let Some(t) = self.host_type(types + 2, end) {
                self.typed_suites.insert(name, t);
            }
        } else if matches!(ident(from), Some("TYPED_TEST_SUITE" | "TYPED_TEST_CASE")) {
            let (Some(suite), Some(list)) = (ident(from + 2), ident(from + 4)) else {
                return;
            };
            if let Some(&t) = self.typed_suites.get(list) {
                self.typed_suites.insert(suite.to_string(), t);
            }
        }
    }

    /// The first type of the suite named by `TYPED_TEST(Suite, Name)` whose `(` is at `open`.
    fn typed_suite_type(&self, open: usize) -> Option<crate::types::ValTy> {
        match self.toks.get(open + 1).map(|t| &t.tok) {
            Some(Tok::Ident(suite)) => self.typed_suites.get(suite).copied(),
            _ => None,
        }
    }

    /// The item starting at `from`: where its head ends (its body's `{` or its `;`), the body's
    /// `{` if it has one, and its last token. `None` when it runs into the end of the input.
    fn item_extent(&self, from: usize) -> Option<(usize, Option<usize>, usize)> {
        let toks = self.toks;
        let mut k = from;
        let mut paren = 0usize;
        let mut saw_paren = false;
        let mut class = false;
        while k < toks.len() {
            match &toks[k].tok {
                Tok::Eof => return None,
                Tok::Ident(w)
                    if paren == 0 && matches!(w.as_str(), "class" | "struct" | "union") =>
                {
                    class = true;
                }
                Tok::Punct("(" | "[") => {
                    paren += 1;
                    saw_paren = true;
                }
                Tok::Punct(")" | "]") => paren = paren.saturating_sub(1),
                Tok::Punct("{") if paren > 0 => {
                    k = self.closing(k)?;
                }
                Tok::Punct(";") if paren == 0 => return Some((k, None, k)),
                Tok::Punct("{") => {
                    let close = self.closing(k)?;
                    let after_eq = matches!(toks[k.saturating_sub(1)].tok, Tok::Punct("=" | ","));
                    if saw_paren && !class && !after_eq {
                        // A function's body: it ends at its `}` (a `;` after it is empty).
                        let end = match toks.get(close + 1).map(|t| &t.tok) {
                            Some(Tok::Punct(";")) => close + 1,
                            _ => close,
                        };
                        return Some((k, Some(k), end));
                    }
                    // A class's body or a braced initializer: the item ends at the next `;`.
                    let mut j = close + 1;
                    while j < toks.len() {
                        match &toks[j].tok {
                            Tok::Punct(";") => return Some((k, Some(k), j)),
                            Tok::Punct("(" | "[" | "{") => j = self.closing(j)?,
                            Tok::Eof => return None,
                            _ => {}
                        }
                        j += 1;
                    }
                    return None;
                }
                _ => {}
            }
            k += 1;
        }
        None
    }
}

/// The item's shape from its head (the tokens before its body or `;`).
fn shape_of(head: &[Token], class: bool, body: bool) -> Shape {
    let ident = |t: &Token| match &t.tok {
        Tok::Ident(w) => Some(w.clone()),
        _ => None,
    };
    if class {
        let name = head
            .windows(2)
            .find_map(|w| match &w[0].tok {
                Tok::Ident(k) if matches!(k.as_str(), "class" | "struct" | "union") => ident(&w[1]),
                _ => None,
            })
            .unwrap_or_default();
        return Shape::Class(name);
    }
    // The name just before the first `(` at the outermost level.
    let called = head
        .windows(2)
        .find(|w| matches!(w[1].tok, Tok::Punct("(")))
        .and_then(|w| ident(&w[0]));
    let first_is_call = head.len() >= 2 && matches!(head[1].tok, Tok::Punct("("));
    match (body, called) {
        (true, Some(n)) if first_is_call => Shape::Block(n),
        (true, Some(n)) => Shape::Function(n),
        _ => {
            let text: Vec<String> = head
                .iter()
                .take(6)
                .filter_map(|t| match &t.tok {
                    Tok::Ident(w) => Some(w.clone()),
                    Tok::Punct(p) => Some((*p).to_string()),
                    _ => None,
                })
                .collect();
            Shape::Declaration(text.join(" "))
        }
    }
}

impl Parser<'_> {
    /// The parameter names of the function `name` whose head runs from `from` to its body's
    /// `{` at `open`: the list after the last `name (` of the head; `None` when there is none.
    fn host_fn_params(&self, from: usize, open: usize, name: &str) -> Option<Vec<String>> {
        let toks = self.toks;
        let lp = (from..open).rev().find(|&i| {
            matches!(&toks[i].tok, Tok::Ident(n) if n == name)
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
        })? + 1;
        let rp = self.closing(lp).filter(|&c| c < open)?;
        Some(super::host::param_names(&toks[lp + 1..rp]))
    }
}
