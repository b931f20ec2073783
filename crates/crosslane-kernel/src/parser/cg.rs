//! Cooperative groups (CUDA and HIP), lowered while parsing to the dialect's warp operations:
//! declarations, the functions that make groups, members, and the collectives.
//!
//! Source: CUDA C++ Programming Guide, "Cooperative Groups" (`this_thread_block()`,
//! `tiled_partition<N>(g)` / `tiled_partition(g, N)`, `coalesced_threads()`,
//! `labeled_partition(g, label)`, `binary_partition(g, pred)`, the members of each group, and
//! `cg::reduce` / `inclusive_scan` / `exclusive_scan` over a tile); HIP Programming Guide,
//! "Cooperative groups" (the same API, tiles up to the wavefront: 64 lanes on wave64). What each
//! member runs as is built in `cg_lower` (syntax-tree nodes of the registry's operations).
//!
//! A group is a variable of its name that holds its member mask (32 bits for CUDA, 64 for HIP):
//! a coalesced group's members are the lanes active where it is made, so the mask is taken
//! there, once, and passes to a device function with the group. The group's kind (block, tile
//! of N, coalesced) is known to the parser, which lowers each use by it; a template parameter
//! deduced from a group argument binds the group's kind.

use super::build::Build;
use super::cg_operator::{unknown_value_type, CgOperator};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::KernelError;

/// What the parser knows of a coalesced group's place among its siblings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meta {
    /// Made whole (`coalesced_threads()`, `labeled_partition`, `binary_partition`):
    /// `meta_group_rank() == 0`, `meta_group_size() == 1`.
    Whole,
    /// A tile of a coalesced group: its hidden variables hold them ([`meta_names`]).
    Tiled,
    /// A parameter: not known.
    Unknown,
}

/// A group a variable names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// `thread_block`.
    Block,
    /// `thread_block_tile<N>` (or a `thread_group` from `tiled_partition(g, N)`).
    Tile(u32),
    /// `coalesced_group`: the lanes of its mask.
    Coalesced(Meta),
    /// A `thread_group` parameter: a group whose kind each call fixes (`cg_any`).
    Any,
    /// A `thread_group` from `tiled_partition(block, n)` with `n` known only at run time (CUDA
    /// C++ Programming Guide, Cooperative Groups, "tiled_partition": the dynamic overload
    /// returns a `thread_group`): its variable holds the calling lane's tile, computed at run
    /// time, and it offers what `thread_group` has — `sync`, `thread_rank`, `size`,
    /// `num_threads` — read from that mask.
    DynTile,
    /// `grid_group` (`this_grid()`): every thread of the launch (CUDA C++ Programming Guide,
    /// Cooperative Groups, "Grid Group"); its mask expression is the warp's full mask, which no
    /// grid operation reads.
    Grid,
}

/// The first characters of every name the front end gives a tile's hidden meta variables and
/// parameters (`super::cg_tile_meta`): the compiler binds such a parameter without a trace
/// step of its own (CUDA C++ Programming Guide, Cooperative Groups, "Thread Block Tile":
/// `meta_group_rank`, `meta_group_size`, a property of the tile, not a statement).
pub(crate) const HIDDEN_META_PREFIX: &str = "__cg_meta_";

/// Names of the hidden variables that hold a tile-of-a-coalesced-group's place among its
/// siblings (`meta_group_rank`, `meta_group_size`), by the group's name.
pub(super) fn meta_names(group: &str) -> (String, String) {
    (
        format!("{HIDDEN_META_PREFIX}rank_{group}"),
        format!("{HIDDEN_META_PREFIX}size_{group}"),
    )
}

/// Why a collective over tiles of `n` is undefined in a block whose thread count is not a
/// multiple of `n` (CUDA C++ Programming Guide, Cooperative Groups, "tiled_partition": "the
/// parent group size must be evenly divisible by the Size").
pub(super) fn partial_tile_why(n: u32) -> String {
    format!(
        "a thread_block_tile<{n}> of a block whose thread count is not a multiple of {n}: the \
         CUDA C++ Programming Guide (Cooperative Groups, tiled_partition) requires the parent \
         group's size to be evenly divisible by the tile size, so the last tile is partial and \
         its collectives are undefined; launch a multiple of {n} threads, or use a coalesced \
         group (cg::coalesced_threads()) for a partial tile"
    )
}

/// A group's type as C++ spells it, for an instantiation's name (`group_sum<thread_block_tile<16>>`).
pub(super) fn group_type_name(g: Group) -> String {
    match g {
        Group::Block => "thread_block".into(),
        Group::Tile(n) => format!("thread_block_tile<{n}>"),
        Group::Coalesced(_) => "coalesced_group".into(),
        Group::Any | Group::DynTile => "thread_group".into(),
        Group::Grid => "grid_group".into(),
    }
}

/// A group as a factory made it: its kind, the expression of its members, and for a tile of a
/// coalesced group the expressions of its `meta_group_rank` and `meta_group_size`.
pub(super) struct Made {
    pub(super) group: Group,
    pub(super) mask: Expr,
    pub(super) meta: Option<(Expr, Expr)>,
}

/// Namespaces a cooperative-groups name may be written under.
pub(super) const NAMESPACES: &[&str] = &["cg", "cooperative_groups", "std", "experimental"];

impl Parser<'_> {
    /// Skips `cg::`, `cooperative_groups::` (any number) at the position.
    pub(super) fn skip_cg_namespace(&mut self) {
        // `::cooperative_groups::this_thread_block()`: the global scope's `::` first.
        if matches!(self.peek(0), Tok::Punct("::"))
            && matches!(self.peek(1), Tok::Ident(w) if NAMESPACES.contains(&w.as_str()))
            && matches!(self.peek(2), Tok::Punct("::"))
        {
            self.bump();
        }
        while matches!(self.peek(0), Tok::Ident(w) if NAMESPACES.contains(&w.as_str()))
            && matches!(self.peek(1), Tok::Punct("::"))
        {
            self.bump();
            self.bump();
        }
    }

    /// Closes `thread_block_tile<N` after its size: a `>`, or a second argument naming the
    /// parent group and then the `>` (CUDA C++ Programming Guide, Cooperative Groups,
    /// "Thread Block Tile": `template <unsigned int Size, typename ParentT = void> class
    /// thread_block_tile;`, HIP's `thread_block_tile<Size, ParentCGTy>` the same). The parent
    /// only says which group the tile was partitioned from; the tile is the same.
    ///
    /// # Errors
    /// A parent argument that does not close (a `;`, `{` or the end of input first).
    pub(super) fn tile_close(&mut self) -> PResult<()> {
        if !self.eat(",") {
            if self.close_angle() {
                return Ok(());
            }
            return self.err("`>` to close `thread_block_tile<N`");
        }
        // The parent type's own template arguments may nest (`thread_block_tile<4,
        // thread_block_tile<32>>`); at most a few dozen tokens in any real spelling.
        let mut depth = 0usize;
        for _ in 0..256 {
            if depth == 0 && self.close_angle() {
                return Ok(());
            }
            match self.peek(0) {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => depth = depth.saturating_sub(1),
                Tok::Punct(">>") if depth == 1 => {
                    // Closes the parent's list and this one.
                    self.bump();
                    self.gt_owed = Some(self.pos);
                    depth = 0;
                    continue;
                }
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Punct(";" | "{" | "}") | Tok::Eof => break,
                _ => {}
            }
            self.bump();
        }
        self.err("`>` to close `thread_block_tile<N, ParentT`")
    }

    /// A group declaration (`auto tile = cg::tiled_partition<16>(block);`,
    /// `cg::coalesced_group active = cg::coalesced_threads();`): the declaration of the
    /// group's mask variable (and, for a tile of a coalesced group, of its meta variables).
    /// `None` (position restored) when no group declaration starts here.
    ///
    /// # Errors
    /// A tile size that is not a power of two up to the warp, or a grid group.
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
            self.tile_close()?;
        }
        // East const and a reference, lvalue or forwarding (`coalesced_group const& g`,
        // `auto&& g = coalesced_threads();`): the same group ([dcl.type]/1 lets `const` follow
        // the type; a reference names its referent, [dcl.ref]/1).
        while self.is_word("const") {
            self.bump();
        }
        if !self.eat("&&") {
            self.eat("&");
        }
        let Tok::Ident(name) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        if !matches!(self.peek(1), Tok::Punct("=")) {
            self.pos = save;
            return Ok(None);
        }
        let name_at = self.span();
        self.bump();
        self.bump();
        let at = self.span();
        let Some(made) = self.cg_factory()? else {
            self.pos = save;
            return Ok(None);
        };
        let _ = at;
        if !matches!(self.peek(0), Tok::Punct(";")) {
            // `auto r = g.ballot(p);`, `auto n = tile.size() / 2;`: the initializer goes on
            // after the group (a member call, an operator), so it is not a group but a value:
            // an ordinary declaration ([dcl.spec.auto]/4 deduces its type from the whole
            // initializer).
            self.pos = save;
            return Ok(None);
        }
        self.expect_punct(";")?;
        let mask_ty = self.mask_ty();
        let mut decls = vec![Declarator {
            name: name.clone(),
            ty: mask_ty,
            array: None,
            init: Some(made.mask),
            span: self.syn_span(name_at),
            id: NodeId::fresh(),
        }];
        self.declare(&name, mask_ty);
        let group = match (made.group, made.meta) {
            (Group::Coalesced(_), Some((rank, size))) => {
                let (r, s) = meta_names(&name);
                let int =
                    crate::types::Ty::Val(crate::types::ValTy::scalar(crate::types::Scalar::I32));
                for (n, e) in [(r, rank), (s, size)] {
                    self.declare(&n, int);
                    decls.push(Declarator {
                        name: n,
                        ty: int,
                        array: None,
                        init: Some(e),
                        span: self.syn_span(name_at),
                        id: NodeId::fresh(),
                    });
                }
                Group::Coalesced(Meta::Tiled)
            }
            (g @ Group::Tile(_), Some((rank, size))) => {
                // A tile of a tile: its meta pair in the same hidden variables.
                let (r, s) = meta_names(&name);
                let int =
                    crate::types::Ty::Val(crate::types::ValTy::scalar(crate::types::Scalar::I32));
                for (n, e) in [(r, rank), (s, size)] {
                    self.declare(&n, int);
                    decls.push(Declarator {
                        name: n,
                        ty: int,
                        array: None,
                        init: Some(e),
                        span: self.syn_span(name_at),
                        id: NodeId::fresh(),
                    });
                }
                g
            }
            (g, _) => g,
        };
        self.groups.insert(name, group);
        Ok(Some(StmtKind::Decl(Storage::default(), decls)))
    }

    /// The group an argument names (a group variable or parameter), for template deduction.
    pub(super) fn group_of(&self, e: &Expr) -> Option<Group> {
        match &e.kind {
            ExprKind::Ident(n) => self.groups.get(n).copied(),
            _ => self.made_groups.get(&e.id).copied(),
        }
    }

    /// The group a name or template parameter stands for, with its mask expression (the
    /// variable) and meta variables.
    fn named_group(&mut self, name: &str, at: Span) -> Option<Made> {
        let group = self.groups.get(name).copied()?;
        let mask = self.e_ident(at, name);
        let meta = match group {
            Group::Coalesced(Meta::Tiled) => {
                let (r, s) = meta_names(name);
                Some((self.e_ident(at, &r), self.e_ident(at, &s)))
            }
            _ => None,
        };
        Some(Made { group, mask, meta })
    }

    /// A tile size: a power of two up to the warp (32 lanes; 64 on a HIP wave64), or for CUDA
    /// up to 1024 (`parser/cg_big_tile.rs`).
    fn tile_size(&self, n: i128, at: Span) -> PResult<Group> {
        let wave = i128::from(self.wave);
        let most = if self.hip {
            wave
        } else {
            super::cg_big_tile::MAX_BIG_TILE
        };
        if !(1..=most).contains(&n) || (n & (n - 1)) != 0 {
            return Err(KernelError::new(
                at.line,
                at.col,
                if self.hip {
                    format!(
                        "a tile of {n} threads: tiled_partition takes a power of two up to the \
                         {wave}-lane warp"
                    )
                } else {
                    format!(
                        "a tile of {n} threads: tiled_partition takes a power of two up to \
                         {most} (CUDA C++ Programming Guide, Cooperative Groups, Thread Block \
                         Tile; tiles larger than the {wave}-lane warp have sync, thread_rank, \
                         num_threads/size and meta_group_rank/meta_group_size)"
                    )
                },
            ));
        }
        Ok(Group::Tile(n as u32))
    }

    /// `this_thread_block()`, `tiled_partition<N>(g)`, `tiled_partition(g, N)`,
    /// `coalesced_threads()`, `labeled_partition(g, label)`, `binary_partition(g, pred)`, or
    /// another group's name. Nested factories count against the nesting budget.
    pub(super) fn cg_factory(&mut self) -> PResult<Option<Made>> {
        self.enter()?;
        let r = self.cg_factory_inner();
        self.depth -= 1;
        r
    }

    fn cg_factory_inner(&mut self) -> PResult<Option<Made>> {
        self.skip_cg_namespace();
        let at = self.span();
        let Tok::Ident(f) = self.peek(0).clone() else {
            return Ok(None);
        };
        if let Some(made) = self.named_group(&f, at) {
            self.bump();
            return Ok(Some(made));
        }
        match f.as_str() {
            "this_thread_block" => {
                self.bump();
                self.expect_punct("(")?;
                // `this_thread_block(scratch)`: the `block_tile_memory` that large tiles use
                // on the device (`parser/cg_big_tile.rs`); nothing to read here.
                if let Tok::Ident(_) = self.peek(0) {
                    if matches!(self.peek(1), Tok::Punct(")")) {
                        self.bump();
                    }
                }
                self.expect_punct(")")?;
                let full = self.full_mask();
                let mask = self.e_mask(at, full);
                Ok(Some(Made {
                    group: Group::Block,
                    mask,
                    meta: None,
                }))
            }
            // CUDA C++ Programming Guide, Cooperative Groups, "this_thread": the calling
            // thread as a `thread_block_tile<1>`; its `thread_rank()` is 0 and its `size()` 1,
            // and its parent is itself, so `meta_group_rank()` is 0 and `meta_group_size()` 1.
            "this_thread" if matches!(self.peek(1), Tok::Punct("(")) => {
                self.bump();
                self.expect_punct("(")?;
                self.expect_punct(")")?;
                let mask = self.e_tile_mask(at, 1);
                let meta = Some((self.e_int(at, 0), self.e_int(at, 1)));
                Ok(Some(Made {
                    group: Group::Tile(1),
                    mask,
                    meta,
                }))
            }
            "coalesced_threads" => {
                self.bump();
                self.expect_punct("(")?;
                self.expect_punct(")")?;
                let mask = self.e_active(at);
                Ok(Some(Made {
                    group: Group::Coalesced(Meta::Whole),
                    mask,
                    meta: None,
                }))
            }
            "this_grid" => {
                self.bump();
                self.expect_punct("(")?;
                self.expect_punct(")")?;
                let full = self.full_mask();
                let mask = self.e_mask(at, full);
                Ok(Some(Made {
                    group: Group::Grid,
                    mask,
                    meta: None,
                }))
            }
            "tiled_partition" => {
                self.bump();
                let mut n = None;
                if self.eat("<") {
                    let e = self.binary(8)?;
                    self.expect_punct(">")?;
                    n = Some(super::const_int(&e).unwrap_or(0));
                }
                self.expect_punct("(")?;
                let parent = self.cg_parent(at, "tiled_partition")?;
                let n = match n {
                    Some(n) => n,
                    None => {
                        self.expect_punct(",")?;
                        let e = self.assign_expr()?;
                        match super::const_int(&e) {
                            Some(n) => n,
                            None => {
                                self.expect_punct(")")?;
                                return self.dyn_tile(parent, e, at).map(Some);
                            }
                        }
                    }
                };
                self.expect_punct(")")?;
                let Group::Tile(n) = self.tile_size(n, at)? else {
                    return self.err("a tile size");
                };
                match parent.group {
                    Group::Coalesced(_) => {
                        // A tile of a coalesced group: its members by rank, n at a time
                        // (ranks [n·⌊r/n⌋, n·⌊r/n⌋ + n)); its place among the tiles is
                        // ⌊r/n⌋ of ⌈size/n⌉.
                        let nn = self.e_int(at, i64::from(n));
                        let mask = self.e_call(at, "__cg_tile_of", vec![parent.mask.clone(), nn]);
                        let rank = self.e_rank(at, parent.mask.clone());
                        let nn = self.e_int(at, i64::from(n));
                        let meta_rank = self.e_bin(at, crate::types::BinOp::Div, rank, nn);
                        let size = self.e_popc(at, parent.mask);
                        let up = self.e_int(at, i64::from(n) - 1);
                        let sum = self.e_bin(at, crate::types::BinOp::Add, size, up);
                        let nn = self.e_int(at, i64::from(n));
                        let meta_size = self.e_bin(at, crate::types::BinOp::Div, sum, nn);
                        Ok(Some(Made {
                            group: Group::Coalesced(Meta::Tiled),
                            mask,
                            meta: Some((meta_rank, meta_size)),
                        }))
                    }
                    parent_group => {
                        let mask = self.e_tile_mask(at, n);
                        // A tile of a tile of `p` threads: its place among the `p / n` tiles
                        // partitioned from that parent (CUDA C++ Programming Guide, Cooperative
                        // Groups, thread_block_tile: "meta_group_rank: linear rank of the group
                        // within the set of tiles partitioned from a parent group",
                        // "meta_group_size: number of groups created when the parent group
                        // was partitioned"): the parent's thread rank, `linear % p`, over `n`.
                        // A tile of the block keeps `tile_op`'s block-based pair.
                        let meta = match parent_group {
                            Group::Tile(p) if p >= n => {
                                let lin = self.e_linear(at);
                                let pp = self.e_int(at, i64::from(p));
                                let in_parent = self.e_bin(at, crate::types::BinOp::Rem, lin, pp);
                                let nn = self.e_int(at, i64::from(n));
                                let rank = self.e_bin(at, crate::types::BinOp::Div, in_parent, nn);
                                Some((rank, self.e_int(at, i64::from(p / n))))
                            }
                            _ => None,
                        };
                        Ok(Some(Made {
                            group: Group::Tile(n),
                            mask,
                            meta,
                        }))
                    }
                }
            }
            "labeled_partition" | "binary_partition" => {
                self.bump();
                self.expect_punct("(")?;
                let parent = self.cg_parent(at, &f)?;
                let parent_mask = match parent.group {
                    Group::Block | Group::Grid => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "{f} takes a thread_block_tile or a coalesced group (CUDA C++ \
                                 Programming Guide, Cooperative Groups); partition the block \
                                 with tiled_partition first"
                            ),
                        ))
                    }
                    Group::Tile(n) => self.e_tile_mask(at, n),
                    Group::Coalesced(_) => parent.mask,
                    Group::Any | Group::DynTile => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "{f} of a thread_group is not supported here: take the \
                                 thread_block_tile (`tiled_partition<N>(g)`) or coalesced_group \
                                 itself"
                            ),
                        ))
                    }
                };
                self.expect_punct(",")?;
                let key = self.assign_expr()?;
                self.expect_punct(")")?;
                let mask = if f == "labeled_partition" {
                    self.e_labeled(at, parent_mask, key)?
                } else {
                    self.e_binary(at, parent_mask, key)
                };
                Ok(Some(Made {
                    group: Group::Coalesced(Meta::Whole),
                    mask,
                    meta: None,
                }))
            }
            _ => Ok(None),
        }
    }

    /// The parent group argument of a partition.
    fn cg_parent(&mut self, at: Span, f: &str) -> PResult<Made> {
        self.skip_cg_namespace();
        self.cg_factory()?
            .ok_or_else(|| KernelError::new(at.line, at.col, format!("{f} takes a group first")))
    }

    /// A member call on a group variable `g.f(args)` (the position is after `g`).
    pub(super) fn cg_member(&mut self, name: &str, at: Span) -> PResult<Expr> {
        let made = self
            .named_group(name, at)
            .ok_or_else(|| KernelError::new(at.line, at.col, "a cooperative group"))?;
        self.cg_member_of(made, Some(name), at)
    }

    /// `.f(args)` on a group (the position is at the `.`).
    fn cg_member_of(&mut self, made: Made, name: Option<&str>, at: Span) -> PResult<Expr> {
        self.expect_punct(".")?;
        let f = self.ident()?;
        let args = self.call_args()?;
        let meta = match (made.group, name) {
            (Group::Coalesced(Meta::Tiled), Some(n)) => Some(meta_names(n)),
            _ => None,
        };
        // An unnamed tile of a coalesced group keeps its meta expressions.
        if let (None, Some((rank, size)), "meta_group_rank" | "meta_group_size") =
            (name, made.meta, f.as_str())
        {
            return Ok(if f == "meta_group_rank" { rank } else { size });
        }
        // A named tile of a tile: the hidden variables its declaration made.
        if let (Group::Tile(_), Some(n), "meta_group_rank" | "meta_group_size") =
            (made.group, name, f.as_str())
        {
            let (r, s) = meta_names(n);
            let var = if f == "meta_group_rank" { r } else { s };
            if self.var_type(&var).is_some() {
                return Ok(self.e_ident(at, &var));
            }
        }
        self.cg_op(made.group, made.mask, meta, &f, &args, at)
    }

    /// The arguments of a call, `(` … `)`.
    pub(super) fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_punct("(")?;
        self.args_closed_by(")")
    }

    /// The comma-separated expressions after an opening `(` or `{` already read, up to and
    /// including `close`.
    pub(super) fn args_closed_by(&mut self, close: &str) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        if !self.eat(close) {
            loop {
                // `f(a, {x, y})`, `S{{1, 2}, 3}`: a braced list is an initializer-clause
                // ([expr.call]/1, [dcl.init.aggr]), given its type by the parameter or member
                // it initializes (`@brace`, [`Parser::brace_args_to_params`]).
                if self.is_punct("{") {
                    args.push(self.brace_list()?);
                } else {
                    args.push(self.assign_expr()?);
                }
                if self.eat(close) {
                    break;
                }
                self.expect_punct(",")?;
            }
        }
        Ok(args)
    }

    /// A free function of cooperative groups after its namespace: `reduce`, `inclusive_scan`,
    /// `exclusive_scan`, `sync`, `thread_rank`, `num_threads`, `group_size`, a factory followed
    /// by a member call (`this_thread_block().sync()`) or passed as a value (its mask). `None`
    /// when `name` is none of them.
    pub(super) fn cg_free(&mut self, name: &str, at: Span) -> PResult<Option<Expr>> {
        match name {
            "sync" | "thread_rank" | "num_threads" | "group_size" if self.is_punct("(") => {
                self.expect_punct("(")?;
                let g = self.cg_factory()?.ok_or_else(|| {
                    KernelError::new(at.line, at.col, format!("cg::{name} takes a group"))
                })?;
                self.expect_punct(")")?;
                let f = if name == "group_size" { "size" } else { name };
                self.cg_op(g.group, g.mask, None, f, &[], at).map(Some)
            }
            "this_thread_block" | "this_thread" | "this_grid" | "coalesced_threads"
            | "tiled_partition" | "labeled_partition" | "binary_partition"
                if self.is_punct("(") || self.is_punct("<") =>
            {
                self.pos -= 1;
                let g = self
                    .cg_factory()?
                    .ok_or_else(|| KernelError::new(at.line, at.col, "a cooperative group"))?;
                if !self.is_punct(".") {
                    // A group made in place and passed on: its members, remembered as that
                    // group for a template parameter deduced from it (a tile of a coalesced
                    // group carries meta variables a members expression cannot).
                    match (g.group, g.meta) {
                        (_, None) => {
                            self.made_groups.insert(g.mask.id, g.group);
                        }
                        // A tile of a tile: its pair travels beside it (`cg_tile_meta`).
                        (Group::Tile(_), Some(meta)) => {
                            self.made_groups.insert(g.mask.id, g.group);
                            self.made_meta.insert(g.mask.id, meta);
                        }
                        _ => {}
                    }
                    return Ok(Some(g.mask));
                }
                self.cg_member_of(g, None, at).map(Some)
            }
            // CUDA C++ Programming Guide, Cooperative Groups, "invoke_one and
            // invoke_one_broadcast": one *arbitrary* thread of the group calls `fn`; which one
            // the device picks is not specified, so a result that depends on it has no single
            // value, and choosing a thread here would pick one.
            "invoke_one" | "invoke_one_broadcast" if self.is_punct("(") => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cg::{name} is not supported: the Programming Guide has \"a single arbitrary \
                     thread\" of the group call the function, and which thread that is is not \
                     specified; write the choice out, e.g. `if (g.thread_rank() == 0) fn(args);` \
                     (then `g.shfl(value, 0)` for invoke_one_broadcast)"
                ),
            )),
            "reduce" | "inclusive_scan" | "exclusive_scan" => {
                self.expect_punct("(")?;
                self.skip_cg_namespace();
                let g = self.cg_factory()?.ok_or_else(|| {
                    KernelError::new(at.line, at.col, format!("cg::{name} takes a group first"))
                })?;
                self.expect_punct(",")?;
                let value = self.assign_expr()?;
                let op = if self.eat(",") {
                    self.cg_operator(name)?
                } else if name == "reduce" {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "cg::reduce takes an operator (cg::plus<T>(), less, greater, bit_and, \
                         bit_or, bit_xor, a lambda or a function object)",
                    ));
                } else {
                    CgOperator::Named("plus".to_string(), at)
                };
                self.expect_punct(")")?;
                let n = match g.group {
                    Group::Tile(n) => n,
                    Group::Block => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("cg::{name} over a whole block is not supported; use a tile"),
                        ))
                    }
                    Group::Grid => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "cg::{name} takes a thread_block_tile or a coalesced group, not \
                                 a grid_group (CUDA C++ Programming Guide, Cooperative Groups, \
                                 reduce); use a tile"
                            ),
                        ))
                    }
                    Group::Any | Group::DynTile => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "cg::{name} over a thread_group is not supported (CUDA C++ \
                                 Programming Guide, Cooperative Groups, reduce: it takes a \
                                 thread_block_tile or a coalesced group); take the tile \
                                 (`tiled_partition<N>(g)`, thread_block_tile<N>)"
                            ),
                        ))
                    }
                    Group::Coalesced(_) if self.struct_of(&value).is_some() => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!(
                                "cg::{name} of a struct over a coalesced group is not supported; \
                                 take a tile (`tiled_partition<N>(block)`), or reduce each \
                                 member"
                            ),
                        ))
                    }
                    Group::Coalesced(_) => {
                        let op = match op {
                            CgOperator::Named(op, _) => op,
                            CgOperator::Callable(e, _) => {
                                let what = match self.struct_of(&e) {
                                    Some(s) if s.starts_with("lambda#") => "a lambda",
                                    _ => "a function object",
                                };
                                return Err(KernelError::new(
                                    at.line,
                                    at.col,
                                    format!(
                                        "cg::{name} over a coalesced group with {what} is not \
                                         supported here; take a tile, or a cg:: operator (plus, \
                                         less, greater, bit_and, bit_or, bit_xor)"
                                    ),
                                ));
                            }
                        };
                        if name == "reduce" {
                            return self.cg_coalesced_reduce(&op, value, g.mask, at).map(Some);
                        }
                        return self
                            .cg_coalesced_scan(name, &op, value, g.mask, at)
                            .map(Some);
                    }
                };
                self.cg_collective(name, op, n, value, at).map(Some)
            }
            _ => self.cg_async(name, at),
        }
    }

    /// `cg::reduce(g, v, op)` over a coalesced group (members `mask`): every member combines
    /// the members' values in rank order, 0 first (each step reads the member of rank k, the
    /// same value in every lane), so every member gets the same result, as the Programming
    /// Guide's `cg::reduce` gives "the result of the reduction to every thread in the group";
    /// a device function built as nodes (`super::cg_collect`).
    ///
    /// # Errors
    /// A value whose type the parser cannot tell; an operator that is not one of `cg::`'s.
    fn cg_coalesced_reduce(
        &mut self,
        op: &str,
        value: Expr,
        mask: Expr,
        at: Span,
    ) -> PResult<Expr> {
        let Some(ty) = self.expr_type(&value) else {
            return Err(unknown_value_type("reduce", at));
        };
        let f = self.cg_coalesced_reduce_fn(op, ty, at)?;
        Ok(Expr::new(ExprKind::Call(f, vec![value, mask]), at))
    }
}

impl Parser<'_> {
    /// A parameter of group type (`cg::thread_block_tile<16> g`, `const thread_block& b`,
    /// `coalesced_group g`, `const grid_group& grid`, or a template parameter bound to a group): its name and group;
    /// `None` (position restored) for any other parameter. The parameter holds the group's
    /// member mask (a coalesced group's members travel with it).
    ///
    /// # Errors
    /// A tile size that is not a constant power of two up to the warp.
    pub(super) fn cg_param(&mut self) -> PResult<Option<(String, Group)>> {
        let save = self.pos;
        while self.is_word("const") {
            self.bump();
        }
        self.skip_cg_namespace();
        let at = self.span();
        let group = match self.peek(0).clone() {
            Tok::Ident(w) if w == "thread_block" => {
                self.bump();
                Group::Block
            }
            Tok::Ident(w) if w == "coalesced_group" => {
                self.bump();
                Group::Coalesced(Meta::Unknown)
            }
            Tok::Ident(w) if w == "thread_group" => {
                self.bump();
                Group::Any
            }
            // `const cg::grid_group &grid` (the conjugate-gradient sample's device functions
            // take the grid so): the launch's grid, as `this_grid()` names it.
            Tok::Ident(w) if w == "grid_group" => {
                self.bump();
                Group::Grid
            }
            Tok::Ident(w) if self.group_alias.contains_key(&w) => {
                self.bump();
                match self.group_alias.get(&w).copied() {
                    Some(Group::Coalesced(_)) => Group::Coalesced(Meta::Unknown),
                    Some(g) => g,
                    None => return self.err("a group"),
                }
            }
            Tok::Ident(w) if w == "thread_block_tile" => {
                self.bump();
                self.expect_punct("<")?;
                let n = self.binary(8)?;
                self.tile_close()?;
                match super::const_int(&n) {
                    Some(n) => self.tile_size(n, at)?,
                    None => return Err(KernelError::new(
                        at.line,
                        at.col,
                        "thread_block_tile<N>: N must be a constant power of two up to the warp",
                    )),
                }
            }
            _ => {
                self.pos = save;
                return Ok(None);
            }
        };
        // `G& g`, `const G& g` and a forwarding reference `G&& g` (C++17 [temp.deduct.call]/3)
        // all name the caller's group.
        while self.is_word("const") || self.is_punct("&") || self.is_punct("&&") {
            self.bump();
        }
        let name = self.ident()?;
        Ok(Some((name, group)))
    }
}

/// Ascend C SIMT warp functions that have no registry entry of their own, as the CUDA entries
/// with the same rule over the active lanes (`op(__activemask(), val)`; `None`: the active
/// mask itself) — the reductions' integer overloads; the `float`
/// and `half` ones are [`super::asc_reduce`]'s (asc-devkit, `simt_api/device_warp_functions.h`;
/// CANN API reference `asc_reduce_add` / `asc_reduce_max` / `asc_reduce_min`: "the sum (max,
/// min) of `val` over all active threads of the warp; every active thread gets the same
/// result"; `asc_all`, `asc_any`, `asc_ballot`, `asc_activemask` over the active threads).
const ASCEND_WARP: &[(&str, Option<&str>)] = &[
    ("asc_reduce_add", Some("__reduce_add_sync")),
    ("asc_reduce_max", Some("__reduce_max_sync")),
    ("asc_reduce_min", Some("__reduce_min_sync")),
    ("asc_all", Some("__all_sync")),
    ("asc_any", Some("__any_sync")),
    ("asc_ballot", Some("__ballot_sync")),
    ("asc_activemask", None),
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
        let Some(&(_, op)) = ASCEND_WARP.iter().find(|(n, _)| *n == name) else {
            return self.err("an Ascend C warp function");
        };
        // The `float` and `half` overloads of the reductions (`super::asc_reduce`).
        if let Some(e) = self.asc_reduce_float(name, &args, at)? {
            return Ok(e);
        }
        let need = usize::from(op.is_some());
        if args.len() != need {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("`{name}` takes {need} argument(s), given {}", args.len()),
            ));
        }
        // Every node at the call, which the lowering stands for.
        let mut b = Build::at(at);
        let active = b.call("__activemask", Vec::new());
        Ok(match op {
            Some(op) => {
                let mut xs = vec![active];
                xs.extend(args);
                b.call(op, xs)
            }
            None => active,
        })
    }
}
