//! Linear scans of a WGSL text made before naga sees it, and the position table used after.
//!
//! Why: naga 30's WGSL front end orders the module's declarations with a recursive
//! depth-first search (`front::wgsl::index`), one stack frame per declaration along a chain of
//! uses (`alias A1 = A0; alias A2 = A1; …`, functions calling functions), and has no bound of
//! its own: 900 000 aliases overflow the CLI's stack and 30 000 the page's. [`decl_chain`]
//! measures the longest such chain with no recursion and the kernel engine's nesting budget
//! (`--max-depth`) refuses it before naga runs. [`LineIndex`] turns byte offsets into line and
//! column in constant time, so that giving every lowered node its position stays linear in
//! the source (a scan from the start per node made preparation quadratic).

use std::collections::HashMap;

/// Byte offsets to 1-based line and column (in characters), built once per text.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// Byte offset where each line starts.
    starts: Vec<usize>,
    /// Characters before every `STRIDE`-th byte.
    chars_at: Vec<u32>,
    /// The text's bytes' UTF-8 lead flags are read from here.
    text: Vec<u8>,
}

/// Bytes between two character-count checkpoints.
const STRIDE: usize = 256;

impl LineIndex {
    /// The table of `text`.
    pub fn new(text: &str) -> Self {
        let b = text.as_bytes();
        let mut starts = vec![0];
        let mut chars_at = Vec::with_capacity(b.len() / STRIDE + 1);
        let mut chars = 0u32;
        for (k, &c) in b.iter().enumerate() {
            if k % STRIDE == 0 {
                chars_at.push(chars);
            }
            if c == b'\n' {
                starts.push(k + 1);
            }
            if c & 0xC0 != 0x80 {
                chars = chars.saturating_add(1);
            }
        }
        LineIndex {
            starts,
            chars_at,
            text: b.to_vec(),
        }
    }

    /// Characters in the text before byte `offset` (at most the text's length).
    fn chars_before(&self, offset: usize) -> u32 {
        let offset = offset.min(self.text.len());
        let block = offset / STRIDE;
        let base = self.chars_at.get(block).copied().unwrap_or(0);
        let from = block * STRIDE;
        let tail = self.text[from.min(offset)..offset]
            .iter()
            .filter(|&&c| c & 0xC0 != 0x80)
            .count() as u32;
        base.saturating_add(tail)
    }

    /// 1-based line and column of byte `offset` (the same numbers as
    /// [`super::naga::line_col`], in constant time).
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        // The last line start at or before the offset.
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = self.chars_before(offset) - self.chars_before(start) + 1;
        (line as u32, col)
    }
}

/// Where the comment starting at byte `k` of `b` ends (the index after it: a `//` comment runs
/// to its line's end, a `/* */` comment to its matching close, for WGSL block comments nest:
/// WGSL spec, "Comments"); `None` when no comment starts at `k`. A loop, not a recursion.
pub(super) fn comment_end(b: &[u8], mut k: usize) -> Option<usize> {
    if b.get(k) != Some(&b'/') {
        return None;
    }
    match b.get(k + 1) {
        Some(b'/') => {
            while k < b.len() && b[k] != b'\n' {
                k += 1;
            }
            Some(k)
        }
        Some(b'*') => {
            let mut depth = 0u32;
            while k < b.len() {
                if b[k] == b'/' && b.get(k + 1) == Some(&b'*') {
                    depth += 1;
                    k += 2;
                } else if b[k] == b'*' && b.get(k + 1) == Some(&b'/') {
                    depth = depth.saturating_sub(1);
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            Some(k)
        }
        _ => None,
    }
}

/// The next token of a WGSL text for [`decl_chain`]: an identifier's text, or one other byte
/// (`{`, `}`, `;`, `<`, …). Comments, spaces and numbers are skipped.
fn tokens(src: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = src.as_bytes();
    let mut k = 0usize;
    std::iter::from_fn(move || {
        while k < b.len() {
            let c = b[k];
            if let Some(end) = comment_end(b, k) {
                k = end;
            } else if c.is_ascii_whitespace() {
                k += 1;
            } else if c.is_ascii_digit() {
                while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'.') {
                    k += 1;
                }
            } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
                let start = k;
                while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_' || b[k] >= 0x80)
                {
                    k += 1;
                }
                return src.get(start..k).map(|t| (start, t));
            } else {
                k += 1;
                return src.get(k - 1..k).map(|t| (k - 1, t));
            }
        }
        None
    })
}

/// The byte offset and character of the first bidirectional control outside a comment (WGSL
/// has no string literals), which the shader is refused for (see [`crate::bidi`]).
pub fn bidi_in_code(src: &str) -> Option<(usize, char)> {
    let b = src.as_bytes();
    let mut k = 0usize;
    while k < b.len() {
        if b[k] == b'/' && b.get(k + 1) == Some(&b'/') {
            while k < b.len() && b[k] != b'\n' {
                k += 1;
            }
        } else if b[k] == b'/' && b.get(k + 1) == Some(&b'*') {
            let mut depth = 0u32;
            while k < b.len() {
                if b[k] == b'/' && b.get(k + 1) == Some(&b'*') {
                    depth += 1;
                    k += 2;
                } else if b[k] == b'*' && b.get(k + 1) == Some(&b'/') {
                    depth = depth.saturating_sub(1);
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
        } else {
            // Every control is three bytes in UTF-8, led by 0xE2.
            if b[k] == 0xE2 {
                if let Some(c) = src.get(k..).and_then(|t| t.chars().next()) {
                    if crate::bidi::name(c).is_some() {
                        return Some((k, c));
                    }
                }
            }
            k += 1;
        }
    }
    None
}

/// Tokens of the token budget each module-scope function costs, and each token of one
/// function's body costs (times [`BODY_TOKEN_WEIGHT`]): see [`too_large`].
pub const TOKENS_PER_FUNCTION: u64 = 500;

/// How much more a token in the largest function body weighs against the token budget.
pub const BODY_TOKEN_WEIGHT: u64 = 40;

/// How much more a token of one module-scope declaration (a `const` array's constructor)
/// weighs against the token budget: naga builds every element as an expression and evaluates
/// the constant whole before anything runs (about 6 µs and 300 bytes an element, measured on a
/// 3.5-million-element `const` array: 21 s and 1 GB), so the default budget of 2 000 000 allows
/// a declaration of 250 000 tokens, about 125 000 elements.
pub const DECL_TOKEN_WEIGHT: u64 = 8;

/// Where the shader is larger than naga 30 prepares in seconds, measured on the text before
/// naga runs: the module-scope function that passes `max_tokens / TOKENS_PER_FUNCTION`
/// functions (naga's `compact` pops its function set from the end of a bit set, time
/// quadratic in the number of functions), or the function whose body passes
/// `max_tokens / BODY_TOKEN_WEIGHT` tokens (naga's typifier skips from the start of the
/// function's expression arena for each new expression, time quadratic in one function's
/// size), or the module-scope declaration that passes `max_tokens / DECL_TOKEN_WEIGHT` tokens
/// (a `const` array of millions of elements). Returns the byte offset and a sentence naming
/// the limit and `--max-tokens`.
pub fn too_large(src: &str, max_tokens: u64) -> Option<(usize, String)> {
    let max_fns = max_tokens / TOKENS_PER_FUNCTION;
    let max_body = max_tokens / BODY_TOKEN_WEIGHT;
    let max_decl = max_tokens / DECL_TOKEN_WEIGHT;
    let (mut brace, mut fns, mut body) = (0u32, 0u64, 0u64);
    let mut fn_at = 0usize;
    // The module-scope declaration read: its first token's offset and its tokens so far.
    let (mut decl_at, mut decl) = (0usize, 0u64);
    for (off, t) in tokens(src) {
        if brace == 0 {
            if matches!(t, ";" | "fn") {
                decl = 0;
            } else {
                if decl == 0 {
                    decl_at = off;
                }
                decl += 1;
                if decl > max_decl {
                    return Some((
                        decl_at,
                        format!(
                            "this module-scope declaration is longer than {max_decl} tokens \
                             (the token limit of {max_tokens} over {DECL_TOKEN_WEIGHT}; naga \
                             builds and evaluates every element of a `const` array before \
                             anything runs, about 6 µs and 300 bytes each); raise it with \
                             --max-tokens, or pass the table as a storage buffer (--buffer)"
                        ),
                    ));
                }
            }
        }
        match t {
            "fn" if brace == 0 => {
                fns += 1;
                fn_at = off;
                body = 0;
                if fns > max_fns {
                    return Some((
                        off,
                        format!(
                            "the shader declares more than {max_fns} functions (one per \
                             {TOKENS_PER_FUNCTION} tokens of the token limit of {max_tokens}; \
                             naga's front end takes time quadratic in their number); raise it \
                             with --max-tokens"
                        ),
                    ));
                }
            }
            "{" => brace = brace.saturating_add(1),
            "}" => {
                brace = brace.saturating_sub(1);
                if brace == 0 {
                    decl = 0;
                }
            }
            _ => {}
        }
        if brace > 0 {
            body += 1;
            if body > max_body {
                return Some((
                    fn_at,
                    format!(
                        "this function's body is longer than {max_body} tokens (the token \
                         limit of {max_tokens} over {BODY_TOKEN_WEIGHT}; naga's front end \
                         takes time quadratic in one function's size); raise it with \
                         --max-tokens or split the function"
                    ),
                ));
            }
        }
    }
    None
}

/// The byte offset of each function's `fn` keyword, by the function's name (the first one
/// when a name repeats), found in one pass (a search of the text per function made lowering
/// a shader of many functions quadratic).
pub fn fn_offsets(src: &str) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    let mut after_fn: Option<usize> = None;
    for (off, t) in tokens(src) {
        if let Some(at) = after_fn.take() {
            out.entry(t.to_string()).or_insert(at);
        }
        if t == "fn" {
            after_fn = Some(off);
        }
    }
    out
}

/// The longest chain of module-scope declarations each using the next (`alias`, `struct`,
/// `const`, `override`, `var`, `fn`; a use is any mention of another declaration's name in a
/// declaration's text, so shadowing locals only lengthen the estimate). Returns the byte
/// offset of the declaration that starts the first chain longer than `limit`, and the chain's
/// length, or `None`. Linear in the text; no recursion (an explicit stack); a cycle (which
/// naga refuses with its own message) is cut where it closes.
pub fn decl_chain(src: &str, limit: u32) -> Option<(usize, u32)> {
    // Pass 1: the declarations (name, offset) and the identifiers each mentions.
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut decls: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut brace = 0u32;
    let mut angle = 0u32;
    // Awaiting a declaration's name after its keyword; whether a `var` template is open.
    let mut want_name = false;
    let mut at_decl_start = true;
    for (off, t) in tokens(src) {
        match t {
            "{" => brace = brace.saturating_add(1),
            "}" => {
                brace = brace.saturating_sub(1);
                if brace == 0 {
                    at_decl_start = true;
                }
                continue;
            }
            ";" if brace == 0 => {
                at_decl_start = true;
                continue;
            }
            _ => {}
        }
        if brace == 0 && at_decl_start {
            if matches!(t, "alias" | "struct" | "const" | "override" | "var" | "fn") {
                decls.push((off, Vec::new()));
                want_name = true;
                at_decl_start = false;
                angle = 0;
                continue;
            }
            if t == "@" || t == "(" || t == ")" || t == "," {
                // Attributes before a declaration.
                continue;
            }
        }
        let first = t.as_bytes().first().copied().unwrap_or(0);
        let ident = first.is_ascii_alphabetic() || first == b'_' || first >= 0x80;
        if want_name {
            match t {
                "<" => angle = angle.saturating_add(1),
                ">" => angle = angle.saturating_sub(1),
                _ if ident && angle == 0 => {
                    let k = decls.len() - 1;
                    names.entry(t).or_insert(k);
                    want_name = false;
                }
                _ => {}
            }
            continue;
        }
        if ident {
            if let Some(d) = decls.last_mut() {
                d.1.push(t);
            }
        }
    }
    // Pass 2: the longest chain below each declaration, by an explicit depth-first stack.
    let deps: Vec<Vec<usize>> = decls
        .iter()
        .enumerate()
        .map(|(k, (_, ids))| {
            let mut v: Vec<usize> = ids
                .iter()
                .filter_map(|n| names.get(n).copied())
                .filter(|&d| d != k)
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; decls.len()];
    let mut depth = vec![1u32; decls.len()];
    for root in 0..decls.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(top) = stack.last_mut() {
            let node = top.0;
            if let Some(&d) = deps[node].get(top.1) {
                top.1 += 1;
                if state[d] == 0 {
                    state[d] = 1;
                    stack.push((d, 0));
                }
                continue;
            }
            let below = deps[node]
                .iter()
                .filter(|&&d| state[d] == 2)
                .map(|&d| depth[d])
                .max()
                .unwrap_or(0);
            depth[node] = below.saturating_add(1);
            state[node] = 2;
            stack.pop();
            if depth[node] > limit {
                return Some((decls[node].0, depth[node]));
            }
        }
    }
    None
}

/// The byte offset of an `||` that follows an `&&` (or the reverse) in one expression without
/// parentheses between them, which the WGSL grammar forbids (WGSL spec, § Expressions: a
/// `short_circuit_or_expression` chains `||` over relational expressions, a
/// `short_circuit_and_expression` chains `&&`; neither holds the other) and Tint refuses
/// ("mixing '&&' and '||' requires parenthesis"), where naga 30 accepts it with C's
/// precedence. Each bracket level `(…)`, `[…]` is its own expression; `;`, `,`, `{` and `}` end
/// one. Neither operator can appear in a template list, so `<` and `>` need no telling apart.
/// One pass, an explicit stack.
pub fn mixed_logical(src: &str) -> Option<usize> {
    let b = src.as_bytes();
    // Per open bracket: whether this level has seen `&&` / `||`.
    let mut stack: Vec<(bool, bool)> = vec![(false, false)];
    let mut k = 0usize;
    while k < b.len() {
        if let Some(e) = comment_end(b, k) {
            k = e.max(k + 1);
            continue;
        }
        match b[k] {
            b'(' | b'[' => stack.push((false, false)),
            b')' | b']' if stack.len() > 1 => {
                stack.pop();
            }
            b';' | b',' | b'{' | b'}' => {
                if let Some(top) = stack.last_mut() {
                    *top = (false, false);
                }
            }
            b'&' | b'|' if b.get(k + 1) == Some(&b[k]) => {
                if let Some(top) = stack.last_mut() {
                    let and = b[k] == b'&';
                    if (and && top.1) || (!and && top.0) {
                        return Some(k);
                    }
                    if and {
                        top.0 = true;
                    } else {
                        top.1 = true;
                    }
                }
                k += 2;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The first `#` outside comments (WGSL has no preprocessor: `#` is not a WGSL token) and
/// the directive word after it: `#import`, `#define_import_path` (naga_oil, Bevy), `#ifdef`,
/// `#include`, … — a build step's input, not the shader the GPU compiles.
pub fn preprocessor_directive(src: &str) -> Option<(usize, String)> {
    let b = src.as_bytes();
    let mut k = 0usize;
    while k < b.len() {
        if let Some(e) = comment_end(b, k) {
            k = e.max(k + 1);
            continue;
        }
        if b[k] == b'#' {
            let word: String = src[k + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .take(40)
                .collect();
            return Some((k, word));
        }
        k += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessor_directives_outside_comments() {
        assert_eq!(
            preprocessor_directive("// #import x\n#import a::b as c\nfn f() {}"),
            Some((13, "import".into()))
        );
        assert_eq!(
            preprocessor_directive("/* #ifdef A */ fn f() {}\n  #ifdef FP16\n"),
            Some((27, "ifdef".into()))
        );
        assert_eq!(preprocessor_directive("fn f() { let x = 1u; }"), None);
    }

    #[test]
    fn line_index_agrees_with_the_scan() {
        // Multi-byte characters before the offset count one column each.
        let text = "ab\nçd é\n\nxyz";
        let idx = LineIndex::new(text);
        for off in 0..=text.len() {
            if text.is_char_boundary(off) {
                assert_eq!(
                    idx.line_col(off),
                    super::super::naga::line_col(text, off),
                    "{off}"
                );
            }
        }
        let long = format!("{}x", "é".repeat(300));
        let idx = LineIndex::new(&long);
        assert_eq!(idx.line_col(long.len() - 1), (1, 301));
    }

    #[test]
    fn bidi_controls_in_code_are_found_and_in_comments_not() {
        assert_eq!(bidi_in_code("// \u{202E}\n/* \u{2066} */ fn f() {}"), None);
        let src = "fn f\u{202E}() {}";
        assert_eq!(bidi_in_code(src), Some((4, '\u{202E}')));
    }

    #[test]
    fn many_functions_and_long_bodies_are_measured() {
        // 5 functions at one per 500 tokens: 2 500 tokens allow 5, 2 499 allow 4.
        let src = "fn f() {}\n".repeat(5);
        assert_eq!(too_large(&src, 2_500), None);
        let (off, msg) = too_large(&src, 2_499).unwrap();
        assert_eq!(off, 4 * 10);
        assert!(msg.contains("--max-tokens"), "{msg}");
        // A body of `{`, 10 × `x ;`... : 1 + 20 tokens inside the braces; 40 × 21 = 840.
        let body = format!("fn f() {{{}}}", " x;".repeat(10));
        assert_eq!(too_large(&body, 840), None);
        assert!(too_large(&body, 839).is_some());
    }

    #[test]
    fn functions_are_found_by_name() {
        let src = "fn f0() {}\n// fn f() in a comment\nfn  f(x: u32) {}\nfn f0() {}";
        let m = fn_offsets(src);
        assert_eq!(m.get("f0"), Some(&0));
        assert_eq!(m.get("f"), src.find("fn  f(").as_ref());
    }

    #[test]
    fn chains_of_declarations_are_measured() {
        // Declared in reverse order: A9 uses A8 … A1 uses A0: a chain of 10.
        let mut src = String::new();
        for k in (1..10).rev() {
            src.push_str(&format!("alias A{k} = A{};\n", k - 1));
        }
        src.push_str("alias A0 = u32;\n");
        assert_eq!(decl_chain(&src, 10), None);
        let (off, n) = decl_chain(&src, 9).unwrap();
        assert_eq!(n, 10);
        assert_eq!(&src[off..off + 8], "alias A9");
        // Functions calling functions are a chain too; a cycle is cut, not followed.
        let f = "fn f0() { f1(); }\nfn f1() { f2(); }\nfn f2() { f0(); }\n\
                 @compute @workgroup_size(1) fn main() { f0(); }";
        assert_eq!(decl_chain(f, 4), None);
        assert!(decl_chain(f, 3).is_some());
        // Struct members and var templates do not name declarations.
        let s = "struct S { a: u32 }\n@group(0) @binding(0) var<storage, read_write> b: array<S>;";
        assert_eq!(decl_chain(s, 2), None);
        assert!(decl_chain(s, 1).is_some());
    }

    #[test]
    fn mixed_short_circuit_operators_are_found_only_without_parentheses() {
        assert_eq!(mixed_logical("let r = a && b || c;"), Some(15));
        assert_eq!(mixed_logical("let r = a || b && c;"), Some(15));
        assert_eq!(mixed_logical("let r = (a && b) || c;"), None);
        assert_eq!(mixed_logical("let r = a && (b || c);"), None);
        assert_eq!(mixed_logical("let r = a || b || c; let q = d && e;"), None);
        assert_eq!(
            mixed_logical("f(a && b, c || d); for (; a && b; c = d || e) {}"),
            None
        );
        assert_eq!(mixed_logical("if a && b { x = c || d; }"), None);
        assert_eq!(mixed_logical("// a && b || c\nlet r = x & y | z;"), None);
        assert_eq!(mixed_logical("let r = v[a && b || c];"), Some(17));
    }
}
