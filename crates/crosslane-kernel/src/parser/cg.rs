//! CUDA cooperative groups, lowered while parsing to the warp intrinsics that define them, with
//! the tile's lanes as the segment (`width`).
//!
//! Source: CUDA C++ Programming Guide, "Cooperative Groups": `this_thread_block()`,
//! `tiled_partition<N>(g)` / `tiled_partition(g, N)` (N a power of two up to 32), `thread_rank()`,
//! `size()` / `num_threads()`, `meta_group_rank()` / `meta_group_size()`, `sync()`; tile
//! `shfl`, `shfl_up`, `shfl_down`, `shfl_xor` (the `__shfl*_sync` rules with `width` = the tile
//! size), `ballot`, `any`, `all`, `match_any` (the warp's vote restricted to the tile's lanes,
//! shifted to the tile's bit 0); `coalesced_threads()` (the active lanes: `__activemask()`);
//! `cg::reduce` with `cg::plus`, `less`, `greater`, `bit_and`, `bit_or`, `bit_xor` (a butterfly
//! over the tile); `cg::inclusive_scan` / `cg::exclusive_scan` (Kogge-Stone with `shfl_up`
//! over the tile; exclusive: `cg::plus` only, rank 0 gets 0).
//!
//! A group variable is a parse-time name: its declaration runs as nothing, and each use is
//! replaced by the intrinsic expression. Lowering templates are tiny fixed texts, so the
//! substitution below recurses a few levels at most.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{lex, Tok};
use crate::KernelError;

/// A group a variable names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// `thread_block`.
    Block,
    /// `thread_block_tile<N>` (or a `thread_group` from `tiled_partition(g, N)`).
    Tile(u32),
    /// `coalesced_group`: the lanes active where it is used.
    Coalesced,
}

/// The thread's linear rank in its block.
const LINEAR: &str = "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))";

/// Namespaces a cooperative-groups name may be written under.
pub(super) const NAMESPACES: &[&str] = &["cg", "cooperative_groups", "std"];

impl Parser<'_> {
    /// Skips `cg::`, `cooperative_groups::` (any number) at the position.
    pub(super) fn skip_cg_namespace(&mut self) {
        while matches!(self.peek(0), Tok::Ident(w) if NAMESPACES.contains(&w.as_str()))
            && matches!(self.peek(1), Tok::Punct("::"))
        {
            self.bump();
            self.bump();
        }
    }

    /// A group declaration (`auto tile = cg::tiled_partition<16>(block);`,
    /// `cg::thread_block b = cg::this_thread_block();`): recorded, runs as nothing. `None`
    /// (position restored) when no group declaration starts here.
    ///
    /// # Errors
    /// A tile size that is not a power of two up to 32, or a grid group.
    pub(super) fn cg_decl(&mut self) -> PResult<Option<StmtKind>> {
        let save = self.pos;
        while self.is_word("const") {
            self.bump();
        }
        self.skip_cg_namespace();
        let Tok::Ident(ty) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        if !matches!(
            ty.as_str(),
            "auto"
                | "thread_block"
                | "thread_block_tile"
                | "thread_group"
                | "coalesced_group"
                | "grid_group"
        ) {
            self.pos = save;
            return Ok(None);
        }
        self.bump();
        if ty == "thread_block_tile" {
            self.expect_punct("<")?;
            self.binary(8)?;
            self.expect_punct(">")?;
        }
        self.eat("&");
        let Tok::Ident(name) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        if !matches!(self.peek(1), Tok::Punct("=")) {
            self.pos = save;
            return Ok(None);
        }
        self.bump();
        self.bump();
        let at = self.span();
        let Some(group) = self.cg_factory()? else {
            self.pos = save;
            return Ok(None);
        };
        if ty == "grid_group" {
            return Err(KernelError::new(
                at.line,
                at.col,
                "grid groups (`this_grid()`) are not supported: one block's warps run here",
            ));
        }
        self.expect_punct(";")?;
        self.groups.insert(name, group);
        Ok(Some(StmtKind::Empty))
    }

    /// `this_thread_block()`, `tiled_partition<N>(g)`, `tiled_partition(g, N)`,
    /// `coalesced_threads()`, or another group's name.
    fn cg_factory(&mut self) -> PResult<Option<Group>> {
        self.skip_cg_namespace();
        let at = self.span();
        let Tok::Ident(f) = self.peek(0).clone() else {
            return Ok(None);
        };
        if let Some(g) = self.groups.get(&f).copied() {
            self.bump();
            return Ok(Some(g));
        }
        let skip_call = |p: &mut Self| -> PResult<()> {
            p.expect_punct("(")?;
            let mut depth = 1usize;
            while depth > 0 {
                match p.peek(0) {
                    Tok::Eof => return p.err("`)`"),
                    Tok::Punct("(") => depth += 1,
                    Tok::Punct(")") => depth -= 1,
                    _ => {}
                }
                p.bump();
            }
            Ok(())
        };
        let tile = |p: &mut Self, n: i128| -> PResult<Group> {
            if !(1..=32).contains(&n) || (n & (n - 1)) != 0 {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "a tile of {n} threads: tiled_partition takes a power of two up to 32 here"
                    ),
                ));
            }
            let _ = p;
            Ok(Group::Tile(n as u32))
        };
        match f.as_str() {
            "this_thread_block" => {
                self.bump();
                skip_call(self)?;
                Ok(Some(Group::Block))
            }
            "coalesced_threads" => {
                self.bump();
                skip_call(self)?;
                Ok(Some(Group::Coalesced))
            }
            "this_grid" => Err(KernelError::new(
                at.line,
                at.col,
                "grid groups (`this_grid()`) are not supported: one block's warps run here",
            )),
            "tiled_partition" => {
                self.bump();
                if self.eat("<") {
                    let n = self.binary(8)?;
                    self.expect_punct(">")?;
                    skip_call(self)?;
                    let n = super::const_int(&n).unwrap_or(0);
                    return tile(self, n).map(Some);
                }
                self.expect_punct("(")?;
                self.skip_cg_namespace();
                // The parent group (a name or a factory call), then the size.
                let mut depth = 0usize;
                while !(depth == 0 && self.is_punct(",")) {
                    match self.peek(0) {
                        Tok::Eof => return self.err("`,` and the tile size"),
                        Tok::Punct("(") => depth += 1,
                        Tok::Punct(")") => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    self.bump();
                }
                self.bump();
                let n = self.assign_expr()?;
                self.expect_punct(")")?;
                let n = super::const_int(&n).ok_or_else(|| {
                    KernelError::new(at.line, at.col, "the tile size must be a constant here")
                })?;
                tile(self, n).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// Parses a fixed lowering text into an expression, each `__aK` replaced by `args[K]`.
    fn lower(&mut self, text: &str, args: &[Expr], at: Span) -> PResult<Expr> {
        let lexed = lex(text).map_err(|e| KernelError::new(at.line, at.col, e.message))?;
        let mut sub = Parser::new(&lexed.tokens, self.comments, self.max_depth);
        let e = sub.expr()?;
        Ok(substitute(e, args, at))
    }

    /// A member call on a group variable `g.f(args)` (the position is after `g`).
    pub(super) fn cg_member(&mut self, group: Group, at: Span) -> PResult<Expr> {
        self.expect_punct(".")?;
        let f = self.ident()?;
        let args = self.call_args()?;
        self.cg_call(group, &f, &args, at)
    }

    /// The arguments of a call, `(` … `)`.
    pub(super) fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_punct("(")?;
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
        Ok(args)
    }

    /// The expression for operation `f` of `group` on `args`.
    fn cg_call(&mut self, group: Group, f: &str, args: &[Expr], at: Span) -> PResult<Expr> {
        let n = match group {
            Group::Tile(n) => n,
            _ => 32,
        };
        let lane = format!("({LINEAR} % 32)");
        let tile_mask = if n == 32 {
            "0xffffffffu".to_string()
        } else {
            format!("{:#x}u", (1u64 << n) - 1)
        };
        let shift = format!("(({lane} / {n}) * {n})");
        let need = |k: usize| -> PResult<()> {
            if args.len() < k {
                Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("`{f}` takes {k} argument(s), given {}", args.len()),
                ))
            } else {
                Ok(())
            }
        };
        let text = match (group, f) {
            (Group::Block, "thread_rank") => LINEAR.to_string(),
            (Group::Block, "size" | "num_threads") => {
                "(blockDim.x * blockDim.y * blockDim.z)".to_string()
            }
            (Group::Block, "sync") => "__syncthreads()".to_string(),
            (Group::Coalesced, "thread_rank") => {
                format!("__popc(__activemask() & ((1u << {lane}) - 1u))")
            }
            (Group::Coalesced, "size" | "num_threads") => "__popc(__activemask())".to_string(),
            (Group::Coalesced, "sync") => "__syncwarp(__activemask())".to_string(),
            (Group::Coalesced, "ballot") => {
                need(1)?;
                "__ballot_sync(__activemask(), __a0)".to_string()
            }
            (Group::Coalesced, "any") => {
                need(1)?;
                "__any_sync(__activemask(), __a0)".to_string()
            }
            (Group::Coalesced, "all") => {
                need(1)?;
                "__all_sync(__activemask(), __a0)".to_string()
            }
            (Group::Tile(_), "thread_rank") => format!("({LINEAR} % {n})"),
            (Group::Tile(_), "size" | "num_threads") => format!("{n}"),
            (Group::Tile(_), "meta_group_rank") => format!("({LINEAR} / {n})"),
            (Group::Tile(_), "meta_group_size") => {
                format!("((blockDim.x * blockDim.y * blockDim.z + {}) / {n})", n - 1)
            }
            (Group::Tile(_), "sync") => "__syncwarp(0xffffffffu)".to_string(),
            (Group::Tile(_), "shfl") => {
                need(2)?;
                format!("__shfl_sync(0xffffffffu, __a0, __a1, {n})")
            }
            (Group::Tile(_), "shfl_up" | "shfl_down" | "shfl_xor") => {
                need(2)?;
                format!("__{f}_sync(0xffffffffu, __a0, __a1, {n})")
            }
            (Group::Tile(_), "ballot") => {
                need(1)?;
                format!("((__ballot_sync(0xffffffffu, __a0) >> {shift}) & {tile_mask})")
            }
            (Group::Tile(_), "any") => {
                need(1)?;
                format!("(((__ballot_sync(0xffffffffu, __a0) >> {shift}) & {tile_mask}) != 0u)")
            }
            (Group::Tile(_), "all") => {
                need(1)?;
                format!(
                    "(((__ballot_sync(0xffffffffu, __a0) >> {shift}) & {tile_mask}) == {tile_mask})"
                )
            }
            (Group::Tile(_), "match_any") => {
                need(1)?;
                format!("((__match_any_sync(0xffffffffu, __a0) >> {shift}) & {tile_mask})")
            }
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "cooperative groups: `{f}` on this group is not supported here (supported: \
                         thread_rank, size, num_threads, meta_group_rank, meta_group_size, sync, \
                         shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any)"
                    ),
                ))
            }
        };
        self.lower(&text, args, at)
    }

    /// A free function of cooperative groups after its namespace: `reduce`, `inclusive_scan`,
    /// `exclusive_scan`, `sync`, `this_thread_block().…`. `None` when `name` is none of them.
    pub(super) fn cg_free(&mut self, name: &str, at: Span) -> PResult<Option<Expr>> {
        match name {
            "sync" => {
                self.expect_punct("(")?;
                self.skip_cg_namespace();
                let g = self
                    .cg_factory()?
                    .ok_or_else(|| KernelError::new(at.line, at.col, "cg::sync takes a group"))?;
                self.expect_punct(")")?;
                self.cg_call(g, "sync", &[], at).map(Some)
            }
            "this_thread_block" | "coalesced_threads" if !self.is_punct("(") => Ok(None),
            "this_thread_block" | "coalesced_threads" | "tiled_partition" => {
                self.pos -= 1;
                let g = self
                    .cg_factory()?
                    .ok_or_else(|| KernelError::new(at.line, at.col, "a cooperative group"))?;
                if !self.is_punct(".") {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "name the group in a declaration (`auto g = cg::…;`) to use it",
                    ));
                }
                self.cg_member(g, at).map(Some)
            }
            "reduce" | "inclusive_scan" | "exclusive_scan" => {
                self.expect_punct("(")?;
                self.skip_cg_namespace();
                let g = self.cg_factory()?.ok_or_else(|| {
                    KernelError::new(at.line, at.col, format!("cg::{name} takes a group first"))
                })?;
                self.expect_punct(",")?;
                let value = self.assign_expr()?;
                let op = if self.eat(",") {
                    self.skip_cg_namespace();
                    let op = self.ident()?;
                    // `plus<int>()` or `plus<>()` or `plus()`.
                    if self.eat("<") {
                        while !self.eat(">") {
                            if matches!(self.peek(0), Tok::Eof) {
                                return self.err("`>`");
                            }
                            self.bump();
                        }
                    }
                    self.expect_punct("(")?;
                    self.expect_punct(")")?;
                    op
                } else if name == "reduce" {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "cg::reduce takes an operator (cg::plus<T>(), less, greater, bit_and, \
                         bit_or, bit_xor)",
                    ));
                } else {
                    "plus".to_string()
                };
                self.expect_punct(")")?;
                let n = match g {
                    Group::Tile(n) => n,
                    Group::Block => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("cg::{name} over a whole block is not supported; use a tile"),
                        ))
                    }
                    Group::Coalesced => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "cg::{name} over a coalesced group is not supported; use a tile"
                            ),
                        ))
                    }
                };
                self.cg_collective(name, &op, n, value, at).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// `cg::reduce` / scans as a call of a generated function template over a tile of `n`.
    fn cg_collective(
        &mut self,
        name: &str,
        op: &str,
        n: u32,
        value: Expr,
        at: Span,
    ) -> PResult<Expr> {
        let combine = match op {
            "plus" => "a + b",
            "less" => "(b < a ? b : a)",
            "greater" => "(b > a ? b : a)",
            "bit_and" => "a & b",
            "bit_or" => "a | b",
            "bit_xor" => "a ^ b",
            other => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "cg::{other} is not supported here (plus, less, greater, bit_and, bit_or, \
                         bit_xor)"
                    ),
                ))
            }
        };
        if name == "exclusive_scan" && op != "plus" {
            return Err(KernelError::new(
                at.line,
                at.col,
                "cg::exclusive_scan is supported with cg::plus only here",
            ));
        }
        let fname = format!("__cg_{name}_{op}_{n}");
        if !self.templates.contains_key(&fname) {
            let body = match name {
                "reduce" => format!(
                    "for (int m = {}; m > 0; m >>= 1) {{ T b = __shfl_xor_sync(0xffffffffu, v, m, \
                     {n}); T a = v; v = {combine}; }} return v;",
                    n / 2
                ),
                _ => {
                    let tail = if name == "exclusive_scan" {
                        "return v - own;"
                    } else {
                        "return v;"
                    };
                    format!(
                        "T own = v; int r = {LINEAR} % {n}; for (int d = 1; d < {n}; d <<= 1) {{ T b = \
                         __shfl_up_sync(0xffffffffu, v, d, {n}); T a = v; if (r >= d) v = {combine}; }} \
                         {tail}"
                    )
                }
            };
            let text = format!("template <typename T> __device__ T {fname}(T v) {{ {body} }}");
            let lexed = lex(&text).map_err(|e| KernelError::new(at.line, at.col, e.message))?;
            // Every generated token sits at the call (names resolve by position: give each
            // token its own column far right of the call).
            let tokens: Vec<_> = lexed
                .tokens
                .into_iter()
                .map(|mut t| {
                    t.line = at.line;
                    t.col = t.col.saturating_add(10_000);
                    t.end = (at.line, t.col.saturating_add(1));
                    t
                })
                .collect();
            let mut sub = Parser::new(&tokens, self.comments, self.max_depth);
            sub.template_def()?;
            self.templates.extend(std::mem::take(&mut sub.templates));
        }
        let mangled =
            self.instantiate_call(&fname, Vec::new(), std::slice::from_ref(&value), at)?;
        Ok(Expr::new(ExprKind::Call(mangled, vec![value]), at))
    }
}

impl Parser<'_> {
    /// A parameter of group type (`cg::thread_block_tile<16> g`, `const thread_block& b`):
    /// its name and group; `None` (position restored) for any other parameter.
    ///
    /// # Errors
    /// A tile size that is not a constant power of two up to 32.
    pub(super) fn cg_param(&mut self) -> PResult<Option<(String, Group)>> {
        let save = self.pos;
        while self.is_word("const") {
            self.bump();
        }
        self.skip_cg_namespace();
        let at = self.span();
        let group = match self.peek(0) {
            Tok::Ident(w) if w == "thread_block" => {
                self.bump();
                Group::Block
            }
            Tok::Ident(w) if w == "coalesced_group" => {
                self.bump();
                Group::Coalesced
            }
            Tok::Ident(w) if w == "thread_block_tile" => {
                self.bump();
                self.expect_punct("<")?;
                let n = self.binary(8)?;
                self.expect_punct(">")?;
                match super::const_int(&n) {
                    Some(n) if (1..=32).contains(&n) && n & (n - 1) == 0 => Group::Tile(n as u32),
                    _ => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "thread_block_tile<N>: N must be a constant power of two up to 32",
                        ))
                    }
                }
            }
            _ => {
                self.pos = save;
                return Ok(None);
            }
        };
        while self.is_word("const") || self.is_punct("&") {
            self.bump();
        }
        let name = self.ident()?;
        Ok(Some((name, group)))
    }
}

/// Ascend C SIMT warp functions that have no registry entry of their own, as the CUDA entries
/// with the same rule over the active lanes (asc-devkit, `simt_api/device_warp_functions.h`;
/// CANN API reference `asc_reduce_add` / `asc_reduce_max` / `asc_reduce_min`: "the sum (max,
/// min) of `val` over all active threads of the warp; every active thread gets the same
/// result"; `asc_all`, `asc_any`, `asc_ballot`, `asc_activemask` over the active threads).
const ASCEND_WARP: &[(&str, &str)] = &[
    ("asc_reduce_add", "__reduce_add_sync(__activemask(), __a0)"),
    ("asc_reduce_max", "__reduce_max_sync(__activemask(), __a0)"),
    ("asc_reduce_min", "__reduce_min_sync(__activemask(), __a0)"),
    ("asc_all", "__all_sync(__activemask(), __a0)"),
    ("asc_any", "__any_sync(__activemask(), __a0)"),
    ("asc_ballot", "__ballot_sync(__activemask(), __a0)"),
    ("asc_activemask", "__activemask()"),
];

impl Parser<'_> {
    /// Whether `name` is an Ascend C warp function lowered by [`Parser::ascend_warp`].
    pub(super) fn is_ascend_warp(name: &str) -> bool {
        ASCEND_WARP.iter().any(|(n, _)| *n == name)
    }

    /// `asc_reduce_add(v)` and its kin as the CUDA entry with the same rule (the position is
    /// after the name).
    pub(super) fn ascend_warp(&mut self, name: &str, at: Span) -> PResult<Expr> {
        let args = self.call_args()?;
        let Some((_, text)) = ASCEND_WARP.iter().find(|(n, _)| *n == name) else {
            return self.err("an Ascend C warp function");
        };
        let need = usize::from(text.contains("__a0"));
        if args.len() != need {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("`{name}` takes {need} argument(s), given {}", args.len()),
            ));
        }
        self.lower(text, &args, at)
    }
}

/// `e` with every `__aK` replaced by `args[K]` and every position set to `at` where the text
/// had none of the source's. Recursion is bounded by the lowering text (a few levels).
fn substitute(e: Expr, args: &[Expr], at: Span) -> Expr {
    let sub = |b: Box<Expr>| Box::new(substitute(*b, args, at));
    let kind = match e.kind {
        ExprKind::Ident(n) => {
            if let Some(k) = n.strip_prefix("__a").and_then(|k| k.parse::<usize>().ok()) {
                if let Some(a) = args.get(k) {
                    return a.clone();
                }
            }
            ExprKind::Ident(n)
        }
        ExprKind::Member(b, f) => ExprKind::Member(sub(b), f),
        ExprKind::Index(a, b) => ExprKind::Index(sub(a), sub(b)),
        ExprKind::Call(n, xs) => {
            ExprKind::Call(n, xs.into_iter().map(|x| substitute(x, args, at)).collect())
        }
        ExprKind::Unary(op, b) => ExprKind::Unary(op, sub(b)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(op, sub(a), sub(b)),
        ExprKind::Logical(and, a, b) => ExprKind::Logical(and, sub(a), sub(b)),
        ExprKind::Ternary(a, b, c) => ExprKind::Ternary(sub(a), sub(b), sub(c)),
        ExprKind::Cast(t, b) => ExprKind::Cast(t, sub(b)),
        other => other,
    };
    // The lowering text's names are built-ins (`threadIdx`, `blockDim`): no slot to keep apart.
    let _ = e.span;
    Expr::new(kind, at)
}
