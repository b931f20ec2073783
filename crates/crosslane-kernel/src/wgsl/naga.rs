//! Parsing a WGSL compute shader with naga (`wgsl-in`, the version wgpu uses), and naga 30's
//! gaps against the WGSL spec, each handled in one place here. The user's text is kept as
//! written: every rewrite keeps every byte offset (a directive is blanked with spaces; a helper
//! is appended after the last byte), so naga's spans still point at the user's lines.
//!
//! The gaps (WGSL spec, "Extensions" and "Subgroup Built-in Functions"; the wgpu issues named):
//! - `enable subgroups;` — naga 30 refuses it as unimplemented (<https://github.com/gfx-rs/wgpu/issues/5555>) and does not
//!   require it (<https://github.com/gfx-rs/wgpu/issues/8202>). [`blank_enable_subgroups`] removes it before naga sees it; a shader that
//!   calls subgroup built-ins without it gets a warning (browsers refuse it) and still runs.
//! - `subgroupElect()` — naga 30 has no such built-in (<https://github.com/gfx-rs/wgpu/issues/6042>). [`ELECT_HELPER`] is
//!   appended as a user function of that name; the lowering calls the registry's
//!   `subgroupElect` for it, so the emulator runs the spec's rule, not the helper's body.
//! - `i32` subgroup ids — the spec takes `I` = i32 or u32 for `subgroupBroadcast`,
//!   `subgroupShuffle` and `quadBroadcast` ids; naga 30's validator takes only u32. On its
//!   operand-type error, [`widen_ids`] wraps every id in `u32(…)` in the IR and validates again.
//! - `requires subgroup_id;` — naga 30 does not know the language extension (it accepts the
//!   `subgroup_id` and `num_subgroups` built-in values without it, as Tint does);
//!   [`blank_requires_subgroup_id`] removes it before naga sees it.
//! - a subgroup id built-in in a 2-D or 3-D workgroup, and pointer parameters in the
//!   `storage`, `uniform` and `workgroup` address spaces — validated on a copy
//!   ([`super::naga_relax`]).
//! - subgroup uniformity — naga 30 has no `subgroup_uniformity` analysis;
//!   [`super::uniformity`] implements the common cases.

use naga::valid::{Capabilities, ModuleInfo, SubgroupOperationSet, ValidationFlags, Validator};

use crate::KernelError;
use crosslane_core::result::Level;

/// The function appended for naga 30's missing `subgroupElect` (<https://github.com/gfx-rs/wgpu/issues/6042>). Its body is
/// the same rule (the lowest active invocation is the only one with no active invocation below
/// it), so a native GPU run of the rewritten text agrees; the emulator calls the registry op.
pub const ELECT_HELPER: &str =
    "\nfn subgroupElect() -> bool { return subgroupExclusiveAdd(1u) == 0u; }\n";

/// A shader after the gap rewrites, parsed and validated.
pub struct NagaShader {
    /// naga's module.
    pub module: naga::Module,
    /// naga's validation result: each expression's type.
    pub info: ModuleInfo,
    /// The text naga parsed: the user's with the rewrites (same offsets).
    pub text: String,
    /// Whether the user wrote `enable subgroups;`.
    pub enables_subgroups: bool,
    /// Whether the elect helper was appended.
    pub elect_appended: bool,
    /// Diagnostics of the rewrites (line, column, level, message, rule).
    pub notes: Vec<(u32, u32, Level, String, String)>,
    /// Values of `override` declarations by name or `@id` (WGSL spec, "Override
    /// Declarations": pipeline-overridable constants), as text; empty after [`parse`], filled
    /// from the launch's arguments by [`super::prepare`].
    pub overrides: std::collections::BTreeMap<String, String>,
    /// Each override's value with [`Self::overrides`] applied (empty after [`parse`]).
    pub override_values: super::override_eval::OverrideValues,
    /// Line and column of any offset in `text`, in constant time.
    pub lines: super::scan::LineIndex,
    /// Where each `fn NAME` of `text` is (the first, by name).
    pub fn_offsets: std::collections::HashMap<String, usize>,
    /// The `@diagnostic(…, subgroup_uniformity)` attributes on statements, blanked from
    /// `text` (naga 30 refuses them), with the statement each covers.
    pub stmt_filters: Vec<super::stmt_diagnostics::StmtFilter>,
}

/// 1-based line and column of a byte offset in `src`.
pub fn line_col(src: &str, offset: usize) -> (u32, u32) {
    let before = &src.as_bytes()[..offset.min(src.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() as u32 + 1;
    (line, col)
}

/// Blanks the `subgroups` item of every `enable` directive (naga 30: unimplemented,
/// <https://github.com/gfx-rs/wgpu/issues/5555>), keeping every offset. Returns the new text and whether it was there.
pub fn blank_enable_subgroups(src: &str) -> (String, bool) {
    blank_item(src, "enable", "subgroups")
}

/// Blanks the `subgroup_id` item of every `requires` directive, keeping every offset (naga 30
/// does not know this language extension; WGSL spec, "Language Extensions": `subgroup_id`
/// makes the `subgroup_id` and `num_subgroups` built-in values available, which naga 30
/// already accepts without it). Returns the new text and whether it was there.
pub fn blank_requires_subgroup_id(src: &str) -> (String, bool) {
    blank_item(src, "requires", "subgroup_id")
}

/// Removes `item` from every `word` directive (`enable`, `requires`): the whole directive
/// becomes spaces when it was the only item; newlines and every offset are kept.
fn blank_item(src: &str, word: &str, item: &str) -> (String, bool) {
    let mut out = src.as_bytes().to_vec();
    let mut found = false;
    let mut at = 0;
    while let Some(k) = src[at..].find(word) {
        let start = at + k;
        at = start + word.len();
        let word_start = start == 0 || !is_ident_byte(src.as_bytes()[start - 1]);
        let word_end = src.as_bytes().get(at).is_none_or(|b| !is_ident_byte(*b));
        if !word_start || !word_end {
            continue;
        }
        let Some(semi) = src[at..].find(';') else {
            break;
        };
        let end = at + semi;
        let items: Vec<(usize, &str)> = split_items(&src[at..end], at);
        let keep: Vec<&(usize, &str)> = items.iter().filter(|(_, w)| *w != item).collect();
        if keep.len() == items.len() {
            continue;
        }
        found = true;
        if keep.is_empty() {
            // `enable subgroups;` → all spaces (newlines kept).
            for b in &mut out[start..=end] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        } else {
            // `enable f16, subgroups;` → `enable f16            ;`.
            for b in &mut out[at..end] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
            let mut pos = at + 1;
            for (n, (_, w)) in keep.iter().enumerate() {
                if n > 0 {
                    out[pos] = b',';
                    pos += 1;
                }
                out[pos..pos + w.len()].copy_from_slice(w.as_bytes());
                pos += w.len();
            }
        }
    }
    (
        String::from_utf8(out).unwrap_or_else(|_| src.to_string()),
        found,
    )
}

/// Where an `enable` directive names `chromium_experimental_subgroup_matrix` (Dawn's
/// experimental subgroup matrix extension), if one does: a scan of the lines that start with
/// `enable` (directives come before any declaration, WGSL § Directives).
fn subgroup_matrix_enable(src: &str) -> Option<usize> {
    const NAME: &str = "chromium_experimental_subgroup_matrix";
    let mut start = 0;
    for line in src.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("enable") && t[6..].starts_with(|c: char| c.is_whitespace()) {
            if let Some(k) = t.find(NAME) {
                let end = t.as_bytes().get(k + NAME.len());
                if !is_ident_byte(t.as_bytes()[k - 1]) && end.is_none_or(|b| !is_ident_byte(*b)) {
                    return Some(start + (line.len() - t.len()) + k);
                }
            }
        }
        start += line.len();
    }
    None
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn split_items(s: &str, base: usize) -> Vec<(usize, &str)> {
    let mut v = Vec::new();
    let mut off = 0;
    for part in s.split(',') {
        let t = part.trim();
        v.push((base + off, t));
        off += part.len() + 1;
    }
    v
}

/// Whether the text calls a subgroup or quad built-in (a plain word scan; comments included,
/// which only makes the missing-directive warning more eager).
pub fn uses_subgroup_builtins(src: &str) -> bool {
    first_builtin_call(src).is_some()
}

/// Where the first subgroup or quad built-in's name is (`subgroupAdd`, `quadSwapX`: the prefix
/// followed by a capital letter; `subgroup_size` is a built-in value, not a call).
fn first_builtin_call(src: &str) -> Option<usize> {
    let b = src.as_bytes();
    (0..b.len()).find(|&k| {
        ["subgroup", "quad"].iter().any(|p| {
            b[k..].starts_with(p.as_bytes())
                && b.get(k + p.len()).is_some_and(u8::is_ascii_uppercase)
                && (k == 0 || !is_ident_byte(b[k - 1]))
        })
    })
}

/// Where the first subgroup built-in value is named in a `@builtin(…)` attribute
/// (`subgroup_invocation_id`, `subgroup_size`, `subgroup_id`, `num_subgroups`; WGSL spec,
/// "Built-in Values": the first two need `enable subgroups;`, the last two that and `requires
/// subgroup_id;`).
fn first_builtin_value(src: &str) -> Option<usize> {
    let mut at = 0;
    while let Some(k) = src[at..].find("@builtin") {
        let start = at + k;
        at = start + 8;
        let rest = src[at..].trim_start();
        let Some(inner) = rest.strip_prefix('(') else {
            continue;
        };
        let name = inner.trim_start();
        let word: String = name
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if matches!(
            word.as_str(),
            "subgroup_invocation_id" | "subgroup_size" | "subgroup_id" | "num_subgroups"
        ) {
            return Some(start);
        }
    }
    None
}

/// Whether the text calls `subgroupElect(` and does not define it.
fn calls_elect(src: &str) -> bool {
    src.contains("subgroupElect") && !src.contains("fn subgroupElect")
}

/// Whether a validation error is naga 30's refusal of a subgroup operand's type (which is what
/// it reports for an `i32` id; the spec allows `i32` and `u32`).
pub fn is_id_type_error(e: &naga::valid::ValidationError) -> bool {
    let text = format!("{e:?}");
    text.contains("Subgroup") && text.contains("Operand")
}

/// Wraps the id of every `subgroupBroadcast`, `subgroupShuffle` and `quadBroadcast` in
/// `u32(…)`, in the IR (the user's text is untouched).
pub fn widen_ids(module: &mut naga::Module) {
    for (_, f) in module.functions.iter_mut() {
        widen_fn(f);
    }
    for ep in module.entry_points.iter_mut() {
        widen_fn(&mut ep.function);
    }
}

fn widen_fn(f: &mut naga::Function) {
    let body = std::mem::take(&mut f.body);
    f.body = widen_block(body, &mut f.expressions, 0);
}

fn widen_block(
    b: naga::Block,
    exprs: &mut naga::Arena<naga::Expression>,
    depth: u32,
) -> naga::Block {
    use naga::{GatherMode as G, Statement as S};
    if depth > 512 {
        return b; // beyond naga's own nesting limit; left as parsed
    }
    let mut out = naga::Block::new();
    for (s, sp) in b.span_into_iter() {
        let s = match s {
            S::SubgroupGather {
                mode,
                argument,
                result,
            } => {
                let mut wrap = |h: naga::Handle<naga::Expression>| {
                    let span = exprs.get_span(h);
                    let len = exprs.len();
                    let nh = exprs.append(
                        naga::Expression::As {
                            expr: h,
                            kind: naga::ScalarKind::Uint,
                            convert: Some(4),
                        },
                        span,
                    );
                    out.push(S::Emit(exprs.range_from(len)), sp);
                    nh
                };
                let mode = match mode {
                    G::Broadcast(h) => G::Broadcast(wrap(h)),
                    G::Shuffle(h) => G::Shuffle(wrap(h)),
                    G::QuadBroadcast(h) => G::QuadBroadcast(wrap(h)),
                    m => m,
                };
                S::SubgroupGather {
                    mode,
                    argument,
                    result,
                }
            }
            S::Block(b) => S::Block(widen_block(b, exprs, depth + 1)),
            S::If {
                condition,
                accept,
                reject,
            } => S::If {
                condition,
                accept: widen_block(accept, exprs, depth + 1),
                reject: widen_block(reject, exprs, depth + 1),
            },
            S::Loop {
                body,
                continuing,
                break_if,
            } => S::Loop {
                body: widen_block(body, exprs, depth + 1),
                continuing: widen_block(continuing, exprs, depth + 1),
                break_if,
            },
            S::Switch { selector, cases } => S::Switch {
                selector,
                cases: cases
                    .into_iter()
                    .map(|mut c| {
                        c.body = widen_block(c.body, exprs, depth + 1);
                        c
                    })
                    .collect(),
            },
            other => other,
        };
        out.push(s, sp);
    }
    out
}

/// The deepest expression tree a statement can build, over-estimated from its text: open
/// parentheses and brackets, plus the operator characters since the statement began (a flat
/// chain `1 + 1 + …` is a tree as deep as it is long), plus the postfix chain being read
/// (`v.wzyx.wzyx…`, `v[0][0]…`, `s.a.b…`, `f(x)[0]`: each member, index or call is one level
/// over its base). Comments are skipped. Returns the byte offset where `limit` is first passed.
///
/// Why: naga 30's WGSL front end parses and lowers expressions recursively with no bound of
/// its own, so a long chain overflows the stack (natively at some ten thousand operators or
/// postfix steps; the page's wasm stack is smaller). The kernel engine's nesting budget
/// ([`crate::Limits::max_depth`]) is applied before naga sees the text. Linear, with
/// no recursion; the stack of enclosing chains is at most `limit + 1` long.
pub fn too_deep(src: &str, limit: u32) -> Option<usize> {
    let b = src.as_bytes();
    let (mut k, mut ops, mut chain) = (0usize, 0u32, 0u32);
    // The postfix chain of each enclosing bracket level, innermost last.
    let mut outer: Vec<u32> = Vec::new();
    while k < b.len() {
        match b[k] {
            b'/' if matches!(b.get(k + 1), Some(b'/' | b'*')) => {
                k = super::scan::comment_end(b, k).unwrap_or(b.len());
                continue;
            }
            b'(' | b'[' => {
                outer.push(chain);
                chain = 0;
            }
            // The bracketed operand or call ends: one more postfix level over its base.
            b')' | b']' => chain = outer.pop().map_or(0, |c| c.saturating_add(1)),
            // A member or swizzle (`.x`; a digit after the point is a number's).
            b'.' if b
                .get(k + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') =>
            {
                chain = chain.saturating_add(1)
            }
            b';' | b'{' | b'}' => {
                ops = 0;
                chain = 0;
            }
            b',' | b'=' | b':' => chain = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'!' | b'~' => {
                ops = ops.saturating_add(1);
                chain = 0;
            }
            _ => {}
        }
        let depth = (outer.len() as u32)
            .saturating_add(ops)
            .saturating_add(chain);
        if depth > limit {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// Parses and validates `src` as WGSL after the gap rewrites; `max_depth` bounds the
/// expressions naga is given ([`too_deep`]).
///
/// # Errors
/// [`KernelError`] at naga's line:column, with naga's message and its labels; at the place an
/// expression passes the nesting limit.
pub fn parse(src: &str, max_depth: u32) -> Result<NagaShader, KernelError> {
    parse_limited(src, max_depth, u64::MAX)
}

/// As [`parse`], also refusing a shader naga would prepare in quadratic time for its size
/// against the token budget `max_tokens` ([`super::scan::too_large`]), after the depth checks.
///
/// # Errors
/// As [`parse`]; at the function that passes the size limits.
pub fn parse_limited(
    src: &str,
    max_depth: u32,
    max_tokens: u64,
) -> Result<NagaShader, KernelError> {
    if let Some(at) = too_deep(src, max_depth) {
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(
            line,
            col,
            format!(
                "an expression here nests or chains deeper than the nesting limit of {max_depth} \
                 (brackets, operators in one statement and postfix chains such as `v.x.y…` or \
                 `a[0][0]…`; naga's front end recurses on them); raise it with --max-depth \
                 (at most 512) or split the statement"
            ),
        ));
    }
    if let Some((at, c)) = super::scan::bidi_in_code(src) {
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(
            line,
            col,
            format!(
                "bidirectional control character {} in code: it can make the text read in \
                 another order than it runs (Trojan Source); it is allowed only in comments",
                crate::bidi::describe(c)
            ),
        ));
    }
    if let Some((at, n)) = super::scan::decl_chain(src, max_depth) {
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(
            line,
            col,
            format!(
                "this declaration starts a chain of {n} declarations each using the next \
                 (aliases, types, constants or functions), deeper than the nesting limit of \
                 {max_depth} (naga orders declarations recursively); raise it with \
                 --max-depth (at most 512) or shorten the chain"
            ),
        ));
    }
    if let Some((at, word)) = super::scan::preprocessor_directive(src) {
        // naga says only "expected global item … found `#`".
        let (line, col) = line_col(src, at);
        let what = if word.is_empty() {
            "`#`".to_string()
        } else {
            format!("`#{word}`")
        };
        return Err(KernelError::new(
            line,
            col,
            format!(
                "{what} is a preprocessor directive (naga_oil / Bevy, WESL, or a project's \
                 own template step), not WGSL: browsers and Tint refuse it too. Run the shader \
                 as that step emits it: the imported module's declarations pasted in place of \
                 an `#import` (its `module::` prefixes dropped), one branch of each \
                 `#ifdef` / `#else` kept and the directive lines removed, macro names replaced \
                 by their values (WGSL spec, § Parsing: `#` is not a token)"
            ),
        ));
    }
    if let Some((at, message)) = super::scan::too_large(src, max_tokens) {
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(line, col, message));
    }
    if let Some(at) = super::scan::mixed_logical(src) {
        // naga 30 gap: it parses the mix with C's precedence; the grammar and Tint refuse it.
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(
            line,
            col,
            "mixing `&&` and `||` requires parentheses (WGSL spec, § Expressions: one \
             short-circuit expression chains a single operator; Tint refuses it too): write \
             `(a && b) || c`",
        ));
    }
    if let Some(at) = subgroup_matrix_enable(src) {
        // Checked before the operator scan: `subgroupMatrixLoad<subgroup_matrix_left<f16, 8,
        // 8>>(…)` is a template list that scan does not know.
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(
            line,
            col,
            "subgroup matrices (`enable chromium_experimental_subgroup_matrix;`: \
             `subgroup_matrix_left` / `_right` / `_result`, `subgroupMatrixLoad`, \
             `subgroupMatrixMultiplyAccumulate`, `subgroupMatrixStore`) are not emulated: \
             Chromium's experimental extension gives each matrix's layout across the \
             subgroup to the implementation (Dawn, docs/dawn/features/subgroup_matrix.md). \
             Run the tiled product with per-invocation loops over K, or with subgroup \
             built-ins such as `subgroupShuffle` and `subgroupAdd`",
        ));
    }
    if let Some((at, message)) = super::op_mix_text::refusal(src) {
        // naga 30 reads these with C's precedence (or refuses them with its own type error);
        // a folded `const` leaves nothing for `op_mix` to find in the IR.
        let (line, col) = line_col(src, at);
        return Err(KernelError::new(line, col, message));
    }
    let (text, enables_subgroups) = blank_enable_subgroups(src);
    let (text, _) = blank_requires_subgroup_id(&text);
    // naga 30 gap: `@diagnostic` on statements (`super::stmt_diagnostics`).
    let (mut text, stmt_filters) = super::stmt_diagnostics::blank(&text);
    let mut notes = Vec::new();
    let elect_appended = calls_elect(&text);
    if elect_appended {
        text.push_str(ELECT_HELPER);
    }
    if !enables_subgroups {
        // Calls and built-in values alike need the directive; warn at the first use.
        let call = first_builtin_call(src).map(|at| (at, "subgroup built-in functions"));
        let value = first_builtin_value(src).map(|at| (at, "subgroup built-in values"));
        let first = match (call, value) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        if let Some((at, what)) = first {
            let (line, col) = line_col(src, at);
            notes.push((
                line,
                col,
                Level::Warning,
                format!(
                    "missing `enable subgroups;`: browsers refuse {what} without it (native \
                     wgpu and naga 30 accept them); the emulator runs the shader, and the \
                     browser GPU run adds the directive"
                ),
                "WGSL spec, Extensions: enable subgroups".to_string(),
            ));
        }
    }
    let module = naga::front::wgsl::parse_str(&text).map_err(|e| {
        let offset = e.location(&text).map(|l| l.offset as usize);
        let hint = super::f16_bitcast::hint(&text, offset.unwrap_or(0), e.message());
        if let Some((at, m)) = hint {
            let (line, col) = line_col(&text, at);
            return KernelError::new(line, col, m);
        }
        let (line, col) = offset.map_or((1, 1), |o| line_col(&text, o));
        let labels: Vec<String> = e
            .labels()
            .filter(|(_, l)| !l.is_empty())
            .map(|(_, l)| l.to_string())
            .collect();
        let mut msg = format!("naga: {}", e.message());
        if !labels.is_empty() {
            msg.push_str(&format!(" ({})", labels.join("; ")));
        }
        if let Some(h) = offset.and_then(|o| super::naga_message::parse_hint(&text, o, e.message()))
        {
            msg.push_str(&h);
        }
        if let Some(at) = super::f16_bitcast::f16_vector_target(&text) {
            let (l, c) = line_col(&text, at);
            msg.push_str(&format!(
                " — likely caused by the `bitcast` to an `f16` vector at {l}:{c}: naga 30 \
                 lowers it to a 32-bit float of the same bits, not a vector (WGSL spec, § 17.2 \
                 bitcast allows it; Tint accepts it); write `vec2<f16>(unpack2x16float(u))` \
                 instead"
            ));
        }
        KernelError::new(line, col, msg)
    })?;
    let mut validator = Validator::new(ValidationFlags::all(), Capabilities::all());
    // WGSL spec, "Subgroup Built-in Functions" and "Quad Operations": with `enable
    // subgroups;` they "must only be used in compute or fragment shader stages" — so a module
    // with a `@fragment` entry that calls `subgroupBallot` beside the `@compute` one the user
    // runs (as Dawn's end-to-end tests write them) is valid; a `@vertex` one is not (Tint:
    // "built-in cannot be used by vertex pipeline stage"; [`vertex_subgroup_error`]).
    validator
        .subgroup_stages(naga::valid::ShaderStages::COMPUTE | naga::valid::ShaderStages::FRAGMENT)
        .subgroup_operations(SubgroupOperationSet::all());
    let mut module = module;
    // naga 30 refusals Tint does not share (`super::naga_relax`): validated on a copy with the
    // rule out of the way; the module as parsed is what runs. Each relaxation changes the copy
    // or ends the loop, and there are at most one per function parameter plus one.
    let mut copy: Option<naga::Module> = None;
    let mut widened = false;
    let budget = 2 + module
        .functions
        .iter()
        .map(|(_, f)| f.arguments.len())
        .sum::<usize>();
    let mut tries = 0;
    let info = loop {
        tries += 1;
        let result = validator.validate(copy.as_ref().unwrap_or(&module));
        let e = match result {
            Ok(info) => break info,
            Err(e) => e,
        };
        if tries > budget {
            return Err(naga_error(&text, &e));
        }
        if !widened && is_id_type_error(e.as_inner()) {
            // naga 30 gap: only u32 ids. The spec allows i32 too; wrap every id in u32(…)
            // (a no-op for u32; an i32 keeps its bits, and a negative one is out of range,
            // indeterminate, as the spec says for any id outside the subgroup) and validate
            // again. A second refusal is a real type error and is reported.
            widened = true;
            widen_ids(&mut module);
            if let Some(c) = copy.as_mut() {
                widen_ids(c);
            }
            continue;
        }
        if let Some(r) = super::naga_relax::classify(e.as_inner()) {
            let c = copy.get_or_insert_with(|| module.clone());
            if super::naga_relax::apply(c, &r) {
                continue;
            }
            return Err(naga_error(&text, &e));
        }
        return Err(
            vertex_subgroup_error(&module, &text, &e).unwrap_or_else(|| naga_error(&text, &e))
        );
    };
    if let Some((at, m)) = super::op_mix::refusal(&module, &text) {
        let (line, col) = line_col(&text, at);
        return Err(KernelError::new(line, col, m));
    }
    if let Some((at, m)) = tint_refusals(&module) {
        let (line, col) = line_col(&text, at);
        return Err(KernelError::new(line, col, m));
    }
    if let Some((at, m)) = super::f16_bitcast::silent_in_ir(&module, &info, &text) {
        let (line, col) = line_col(&text, at);
        return Err(KernelError::new(line, col, m));
    }
    Ok(NagaShader {
        module,
        info,
        lines: super::scan::LineIndex::new(&text),
        fn_offsets: super::scan::fn_offsets(&text),
        stmt_filters,
        text,
        enables_subgroups,
        elect_appended,
        notes,
        overrides: Default::default(),
        override_values: Default::default(),
    })
}

/// naga refuses a stage's entry point that uses subgroup operations as a whole ("Uses
/// operations forbidden at this stage", at 1:1); Tint names the call. For a `@vertex` entry
/// point (the one stage the WGSL spec forbids them in besides none: "Subgroup Built-in
/// Functions", they "must only be used in compute or fragment shader stages"), the error is
/// given at the first subgroup or quad call in its body or in a helper it reaches, with the
/// spec's rule. `None` for any other error.
fn vertex_subgroup_error(
    module: &naga::Module,
    text: &str,
    e: &naga::WithSpan<naga::valid::ValidationError>,
) -> Option<KernelError> {
    use naga::valid::{EntryPointError, ValidationError};
    let ValidationError::EntryPoint {
        stage: naga::ShaderStage::Vertex,
        name,
        source: EntryPointError::ForbiddenStageOperations,
    } = e.as_inner()
    else {
        return None;
    };
    let ep = module.entry_points.iter().find(|ep| &ep.name == name)?;
    // The entry's body, then each helper it reaches (each once; a worklist, no recursion).
    let mut seen = std::collections::HashSet::new();
    let mut work: Vec<&naga::Function> = vec![&ep.function];
    let mut span = None;
    while let Some(f) = work.pop() {
        let found = super::walk::find_statement(&f.body, |s, sp| match s {
            naga::Statement::SubgroupBallot { .. }
            | naga::Statement::SubgroupCollectiveOperation { .. }
            | naga::Statement::SubgroupGather { .. } => Some(sp),
            naga::Statement::Call { function, .. } => {
                if seen.insert(*function) {
                    work.push(&module.functions[*function]);
                }
                None
            }
            _ => None,
        });
        if found.is_some() {
            span = found;
            break;
        }
    }
    let at = span
        .filter(|s| s.is_defined())
        .and_then(|s| s.to_range())
        .map_or(0, |r| r.start);
    let (line, col) = if span.is_some() {
        line_col(text, at)
    } else {
        (1, 1)
    };
    Some(KernelError::new(
        line,
        col,
        format!(
            "the @vertex entry point `{name}` calls a subgroup built-in here: WGSL spec, \
             \"Subgroup Built-in Functions\": they must only be used in compute or fragment \
             shader stages (Tint: \"built-in cannot be used by vertex pipeline stage\"); \
             move the call to the @compute or @fragment entry point"
        ),
    ))
}

fn naga_error(text: &str, e: &naga::WithSpan<naga::valid::ValidationError>) -> KernelError {
    let (line, col) = super::naga_message::innermost_span(e.spans().map(|(s, _)| *s))
        .map_or((1, 1), |r| line_col(text, r.start));
    let mut msg = format!("naga: {}", e.as_inner());
    let mut src: Option<&dyn std::error::Error> = std::error::Error::source(e.as_inner());
    let mut depth = 0;
    while let Some(s) = src {
        msg.push_str(&format!(": {s}"));
        src = s.source();
        depth += 1;
        if depth > 8 {
            break;
        }
    }
    msg = super::naga_message::wgsl_types(&msg);
    if msg.contains("Abstract types may only appear in constant expressions") {
        let at = e
            .spans()
            .next()
            .filter(|(s, _)| s.is_defined())
            .and_then(|(s, _)| s.to_range())
            .map_or(0, |r| r.start);
        msg.push_str(&abstract_hint(text, at));
    }
    if let Some(at) = super::f16_bitcast::f16_vector_target(text) {
        let (l, c) = line_col(text, at);
        msg.push_str(&format!(
            " — likely caused by the `bitcast` to an `f16` vector at {l}:{c}: naga 30 lowers \
             it to a 32-bit float of the same bits, not a vector (WGSL spec, § 17.2 bitcast \
             allows it; Tint accepts it); write `vec2<f16>(unpack2x16float(u))` instead"
        ));
    }
    if msg.contains("which can't be passed into functions") {
        msg.push_str(
            " (the WGSL language extension unrestricted_pointer_parameters allows storage, \
             uniform and workgroup pointer parameters, and Tint accepts them; the emulator \
             takes them when a call passes a global variable or a view into one, `f(&buf)`, \
             `f(&buf.v)`: pass one of those)",
        );
    }
    if msg.contains("Subgroup operation") && msg.contains("const-expression") {
        msg.push_str(
            " (WGSL spec, Subgroup Built-in Functions: the id of subgroupBroadcast and \
             quadBroadcast must be a const-expression)",
        );
    }
    KernelError::new(line, col, msg)
}

/// The built-ins whose overloads naga 30 gives abstract-float forms its constant evaluator
/// does not implement (`naga::proc::overloads` against `ConstantEvaluator::math`): called
/// with literal arguments, their result stays abstract, and a run-time operand beside it makes
/// validation fail. gfx-rs/wgpu#7405 (open) tracks the missing abstract forms.
const ABSTRACT_UNEVALUATED: &[&str] = &["mix", "smoothstep", "transpose", "inverse", "determinant"];

/// What to write instead when naga 30 refuses an abstract value beside a run-time one
/// (`f32(i) + mix(1.0, 3.0, 0.25)`): a naga bug, not a WGSL error. Dawn's tint accepts such
/// shaders (the WGSL spec, § Abstract Numeric Types, converts the abstract result to f32);
/// suffixed literals (`1.0f`) keep naga off the abstract form. `at` is the byte offset naga
/// names (an argument of the call).
fn abstract_hint(text: &str, at: usize) -> String {
    let bytes = text.as_bytes();
    // The innermost call whose parentheses hold `at`: its name and its whole text.
    let mut depth = 0i32;
    let mut open = None;
    for k in (0..at.min(bytes.len())).rev() {
        match bytes[k] {
            b')' => depth += 1,
            b'(' if depth == 0 => {
                open = Some(k);
                break;
            }
            b'(' => depth -= 1,
            b';' | b'{' | b'}' => break,
            _ => {}
        }
    }
    let call = open.and_then(|o| {
        let name_start = text[..o]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |k| k + 1);
        let name = &text[name_start..o];
        let mut d = 0i32;
        let close = text[o..].char_indices().find_map(|(k, c)| {
            match c {
                '(' => d += 1,
                ')' => {
                    d -= 1;
                    if d == 0 {
                        return Some(o + k);
                    }
                }
                _ => {}
            }
            None
        })?;
        Some((name, &text[name_start..=close]))
    });
    match call {
        Some((name, whole)) if ABSTRACT_UNEVALUATED.contains(&name) && whole.len() <= 200 => {
            format!(
                " — a gap of naga 30, not a WGSL error (Dawn's tint accepts it): naga does not \
                 evaluate `{name}` of abstract literals, so they stay abstract beside a run-time \
                 value (gfx-rs/wgpu#7405); write the literals typed: `{}`",
                suffix_literals(whole)
            )
        }
        _ => " — naga 30 left a literal without a type here (Dawn's tint may accept it); write \
              it typed: `1.0f` for an f32, `1i`, `1u`"
            .to_string(),
    }
}

/// `text` with each numeric literal that has no type suffix given the f32 suffix `f`
/// (`mix(1.0, 3.0, 0.25)` → `mix(1.0f, 3.0f, 0.25f)`).
fn suffix_literals(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let chars: Vec<char> = text.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let starts_number = c.is_ascii_digit()
            && (k == 0 || !(chars[k - 1].is_ascii_alphanumeric() || chars[k - 1] == '_'));
        if !starts_number {
            out.push(c);
            k += 1;
            continue;
        }
        while k < chars.len() {
            let c = chars[k];
            let exp_sign = (c == '+' || c == '-') && k > 0 && matches!(chars[k - 1], 'e' | 'E');
            if c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || exp_sign {
                out.push(c);
                k += 1;
            } else {
                break;
            }
        }
        if !chars
            .get(k)
            .is_some_and(|c| matches!(c, 'f' | 'h' | 'i' | 'u' | 'x'))
        {
            out.push('f');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enable_subgroups_is_blanked_keeping_offsets() {
        let src =
            "enable subgroups;\nenable f16, subgroups;\n@compute @workgroup_size(4) fn main() {}";
        let (t, found) = blank_enable_subgroups(src);
        assert!(found);
        assert_eq!(t.len(), src.len());
        assert!(t.starts_with("                 \nenable f16"));
        assert!(!t.contains("subgroups"));
        assert_eq!(t.find("@compute"), src.find("@compute"));
    }

    #[test]
    fn long_chains_are_refused_before_naga() {
        let chain = format!("fn f() {{ let x = 1u{}; }}", " + 1u".repeat(300));
        assert!(too_deep(&chain, 256).is_some());
        assert!(too_deep("fn f() { let x = (1u + 2u) * 3u; } // ((((((((", 8).is_none());
        assert!(parse(&chain, 256).is_err());
        // Postfix chains: a swizzle chain, an index chain and a member chain, each 300 long,
        // are 300 levels deep (each step is one node over its base in naga's tree).
        let swz = format!("fn f(v: vec4<u32>) {{ let x = v{}; }}", ".wzyx".repeat(300));
        assert!(too_deep(&swz, 256).is_some());
        assert_eq!(too_deep(&swz, 301), None);
        let idx = format!("fn f() {{ let x = a{}; }}", "[0]".repeat(300));
        assert!(too_deep(&idx, 256).is_some());
        // `1.5` is a number, not a member; a few members in a long statement do not add up.
        let ok = format!("fn f() {{ let x = {}1.5; }}", "v.x + ".repeat(100));
        assert_eq!(too_deep(&ok, 101), None);
        let e = parse(&swz, 256).err().unwrap();
        assert!(e.message.contains("--max-depth"), "{}", e.message);
        assert_eq!(e.line, 1);
    }

    #[test]
    fn line_col_is_one_based() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}

#[cfg(test)]
mod directive_tests {
    use crate::wgsl::naga::{blank_enable_subgroups, blank_requires_subgroup_id, parse};

    #[test]
    fn requires_subgroup_id_is_blanked_beside_other_directives() {
        let src = "enable f16;\nenable subgroups;\nrequires subgroup_id;\ndiagnostic(warning, subgroup_uniformity);\nconst N = 4u;\nconst_assert N > 2u;\n@compute @workgroup_size(8)\nfn main(@builtin(subgroup_id) sg: u32) {\n}\n";
        let (t, _) = blank_enable_subgroups(src);
        let (t, found) = blank_requires_subgroup_id(&t);
        assert!(found, "{t}");
        assert!(!t.contains("requires"), "{t}");
        if let Err(e) = parse(src, 256) {
            panic!("{e}");
        }
    }
}

/// Calls naga 30 accepts and the WGSL spec (and Tint) refuse at shader creation, found in the
/// IR before anything runs: `subgroupBallot()` without its `bool` (a naga extension; WGSL spec,
/// § Subgroup Built-in Functions, `subgroupBallot(pred: bool)`; Tint: "no matching call"), and
/// a constant `subgroupBroadcast` id outside [0, 128) or `quadBroadcast` id outside [0, 4)
/// (same sections: a const-expression id out of range is a shader-creation error; Tint: "the
/// id argument of quadBroadcast must be less than 4"). The byte offset and the message.
fn tint_refusals(module: &naga::Module) -> Option<(usize, String)> {
    use naga::{Expression as E, GatherMode as G, Literal as L, Statement as S};
    let bodies = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|ep| &ep.function));
    for f in bodies {
        let found = super::walk::find_statement(&f.body, |s, sp| {
            let at = || sp.to_range().map_or(0, |r| r.start);
            match s {
                S::SubgroupBallot {
                    predicate: None, ..
                } => Some((
                    at(),
                    "subgroupBallot() needs its bool argument: write `subgroupBallot(true)` \
                     (WGSL spec, Subgroup Built-in Functions: subgroupBallot(pred: bool); naga \
                     accepts the empty form, Tint refuses it: \"no matching call to \
                     'subgroupBallot()'\")"
                        .to_string(),
                )),
                S::SubgroupGather {
                    mode: G::Broadcast(h) | G::QuadBroadcast(h),
                    ..
                } => {
                    let (name, limit) = match s {
                        S::SubgroupGather {
                            mode: G::QuadBroadcast(_),
                            ..
                        } => ("quadBroadcast", 4i128),
                        _ => ("subgroupBroadcast", 128),
                    };
                    // The id as written, or inside the `u32(…)` `widen_ids` puts around it.
                    let mut id = *h;
                    if let E::As { expr, .. } = f.expressions[id] {
                        id = expr;
                    }
                    let v = match f.expressions[id] {
                        E::Literal(L::U32(v)) => i128::from(v),
                        E::Literal(L::I32(v)) => i128::from(v),
                        E::Literal(L::AbstractInt(v)) => i128::from(v),
                        _ => return None,
                    };
                    (!(0..limit).contains(&v)).then(|| {
                        (
                            f.expressions
                                .get_span(id)
                                .to_range()
                                .map_or_else(at, |r| r.start),
                            format!(
                                "the id argument of {name} must be in [0, {limit}), got {v}: a \
                                 const-expression id out of range is a shader-creation error \
                                 (WGSL spec, Subgroup Built-in Functions; Tint refuses it too)"
                            ),
                        )
                    })
                }
                _ => None,
            }
        });
        if found.is_some() {
            return found;
        }
        if let Some(found) = bit_range_refusal(module, f) {
            return Some(found);
        }
    }
    None
}

/// `insertBits` / `extractBits` whose `offset` and `count` are both const-expressions with
/// `offset + count` above the 32 bits of `e`: a shader-creation error (WGSL spec, Integer
/// Built-in Functions, insertBits and extractBits; Tint refuses it: "'offset' + 'count' must
/// be less than or equal to the bit width of 'e'"). naga runs them clamped, as the spec's
/// runtime rule does for values only known at run time (still run so here).
fn bit_range_refusal(module: &naga::Module, f: &naga::Function) -> Option<(usize, String)> {
    use naga::{Expression as E, Literal as L, MathFunction as M};
    let konst = |h: naga::Handle<E>| -> Option<u64> {
        // A `let` names its value: not a const-expression, clamped at run time.
        if f.named_expressions.contains_key(&h) {
            return None;
        }
        let lit = match f.expressions[h] {
            E::Literal(l) => l,
            E::Constant(c) => match module.global_expressions[module.constants[c].init] {
                E::Literal(l) => l,
                _ => return None,
            },
            _ => return None,
        };
        match lit {
            L::U32(v) => Some(u64::from(v)),
            L::I32(v) => u64::try_from(v).ok(),
            L::AbstractInt(v) => u64::try_from(v).ok(),
            _ => None,
        }
    };
    for (h, e) in f.expressions.iter() {
        let (name, offset, count) = match *e {
            E::Math {
                fun: M::InsertBits,
                arg2: Some(o),
                arg3: Some(c),
                ..
            } => ("insertBits", o, c),
            E::Math {
                fun: M::ExtractBits,
                arg1: Some(o),
                arg2: Some(c),
                ..
            } => ("extractBits", o, c),
            _ => continue,
        };
        let (Some(o), Some(c)) = (konst(offset), konst(count)) else {
            continue;
        };
        if o + c > 32 {
            let at = f.expressions.get_span(h).to_range().map_or(0, |r| r.start);
            return Some((
                at,
                format!(
                    "{name} with offset {o} and count {c}: offset + count must be at most 32, \
                     the bit width of `e`, when both are const-expressions (a shader-creation \
                     error: WGSL spec, Integer Built-in Functions, {name}; Tint refuses it \
                     too; only values known at run time are clamped)"
                ),
            ));
        }
    }
    None
}
