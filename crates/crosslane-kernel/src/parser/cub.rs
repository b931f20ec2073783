//! CUB (`<cub/cub.cuh>`) and hipCUB (`<hipcub/hipcub.hpp>`) warp and block reductions,
//! lowered while parsing to device functions built as syntax-tree nodes over the dialect's
//! registry shuffles (CUDA `__shfl_down_sync`, HIP `__shfl_down`) and `__syncthreads` (no C++
//! text is printed or re-read).
//!
//! Read: `using R = cub::WarpReduce<T[, LOGICAL_WARP_THREADS]>;` (or `typedef … R;`),
//! `cub::BlockReduce<T, BLOCK_DIM_X[, ALGORITHM][, BLOCK_DIM_Y[, BLOCK_DIM_Z]]>`, the same under
//! `hipcub::` (and `namespace cub = hipcub;`), `__shared__ [typename] R::TempStorage t[;|[N];]`,
//! and the calls `R(t).Sum(x)`, `.Sum(x, valid)`, `.Reduce(x, op)`, `.Reduce(x, op, valid)`
//! with `op` one of `cub::Sum`, `cub::Max`, `cub::Min`, `cuda::std::plus<>`, `cuda::maximum<>`,
//! `cuda::minimum<>` (`()` or `{}`), or a lambda or functor without state.
//!
//! Which threads hold the result, and the order of combination (it decides a float's rounding):
//! - CUB `WarpReduce` (CUB API reference, `cub::WarpReduce::Sum` / `Reduce`: "the output is
//!   valid in warp lane 0" of each logical warp; every other lane's result is undefined here).
//!   Order: CUB's `WarpReduceShfl` — steps with offsets 1, 2, 4, … (`1 << STEP`), each lane
//!   combining `op(own, shfl_down(own, offset))` when `lane + offset` is a valid lane
//!   (`offset + lane_id <= last_lane`), so lane 0 gets `((x0+x1)+(x2+x3))+…`.
//! - CUB `BlockReduce` with its default `BLOCK_REDUCE_WARP_REDUCTIONS` (CUB API reference,
//!   `cub::BlockReduce::Sum`: "the return value is undefined in threads other than thread 0"): a
//!   `WarpReduce` in every warp of 32 threads, lane 0 of each stores its warp's aggregate, a
//!   barrier, then thread 0 folds the aggregates left to right, `op(agg, warp[k])` for
//!   k = 1, 2, … while `32·k < num_valid` (CUB `BlockReduceWarpReductions::ApplyWarpAggregates`).
//! - hipCUB on AMD is rocPRIM (`hipcub::WarpReduce` = `rocprim::warp_reduce`, logical warps of
//!   the wavefront: 64 lanes on wave64; `hipcub::BlockReduce`'s default = rocPRIM
//!   `block_reduce_warp_reduce`): the same first stage (rocPRIM `warp_reduce_shuffle`, offsets
//!   1, 2, 4, …, `op(own, shfl_down)` when `lane + offset < valid`), then the warp partials are
//!   reduced by a second warp reduction in the first warp (a tree, not a left fold: over 4
//!   partials `((a0+a1)+(a2+a3))`). Only thread 0 (lane 0) holds the result (rocPRIM API,
//!   `warp_reduce::reduce`, `block_reduce::reduce`: the result is returned to the first thread).
//!
//! Integer `Sum`/`Min`/`Max` of a full CUDA warp run on sm_80 as `__reduce_*_sync` (CUB picks
//! `redux.sync`); their values equal the tree's (integer addition and min/max are associative),
//! so one model serves both. CUB's `BLOCK_REDUCE_RAKING*` run in their own orders
//! ([`super::cub_raking`], which also notes the algorithms run in another order);
//! `BlockLoad` / `BlockStore` are [`super::cub_load`], `KeyValuePair` with `ArgMax` / `ArgMin`
//! [`super::cub_kv`], `BlockRadixSort` [`super::cub_sort`].

use std::collections::HashMap;

use super::{PResult, Parser};
use crate::ast::*;
use crate::builtins::VALID_ONLY;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;

/// A CUB / hipCUB collective class a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `WarpReduce<T, N>`.
    WarpReduce,
    /// `BlockReduce<T, X, ALGORITHM, Y, Z>`.
    BlockReduce,
    /// `WarpScan<T, N>` (`cub_scan`).
    WarpScan,
    /// `BlockScan<T, X, ALGORITHM, Y, Z>` (`cub_scan`).
    BlockScan,
    /// `BlockLoad<T, X, ITEMS_PER_THREAD, ALGORITHM, Y, Z>` (`cub_load`).
    BlockLoad,
    /// `BlockStore<T, X, ITEMS_PER_THREAD, ALGORITHM, Y, Z>` (`cub_load`).
    BlockStore,
    /// `BlockRadixSort<KeyT, X, ITEMS_PER_THREAD, ValueT, …>` (`cub_sort`).
    BlockRadixSort,
    /// `BlockExchange<T, X, ITEMS_PER_THREAD, …>` / `WarpExchange<T, ITEMS_PER_THREAD, N>`
    /// (`cub_exchange`).
    Exchange,
}

/// A specialized collective: its kind, element type and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CubClass {
    pub(super) kind: Kind,
    pub(super) elem: ValTy,
    /// A struct element type (`cub::BlockReduce<TopK_2, 64>`), by name (`elem` is then not
    /// used): reduced by [`super::cub_record`].
    pub(super) record: Option<String>,
    /// `WarpReduce`: the logical warp's threads. `BlockReduce`: the block's threads (X·Y·Z).
    pub(super) threads: u32,
    /// `BlockLoad` / `BlockStore`: the items each thread holds (1 for the other classes).
    pub(super) items: u32,
    /// The algorithm template argument as written (`BLOCK_LOAD_STRIPED`), or the class's
    /// default (`BLOCK_LOAD_DIRECT`, `BLOCK_REDUCE_WARP_REDUCTIONS`, `BLOCK_SCAN_RAKING`); empty
    /// for the warp classes.
    pub(super) alg: String,
    /// `BlockRadixSort`'s `ValueT` (none: keys only).
    pub(super) value: Option<ValTy>,
}

/// The combining operator of a reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// `cub::Sum`, `cuda::std::plus`: `a + b`.
    Sum,
    /// `cub::Max`, `cuda::maximum`: `b > a ? b : a` (CUB `CUB_MAX`).
    Max,
    /// `cub::Min`, `cuda::minimum`: `b < a ? b : a` (CUB `CUB_MIN`).
    Min,
    /// A stateless lambda's or functor's `operator()`, by its device function.
    Func(String),
    /// `cub::ArgMax` over `cub::KeyValuePair`s: made a [`Op::Func`] for the pair type
    /// (`cub_kv`).
    ArgMax,
    /// `cub::ArgMin`, likewise.
    ArgMin,
}

impl Op {
    pub(super) fn tag(&self) -> String {
        match self {
            Op::Sum => "sum".into(),
            Op::Max => "max".into(),
            Op::Min => "min".into(),
            Op::Func(f) => f.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
            Op::ArgMax => "argmax".into(),
            Op::ArgMin => "argmin".into(),
        }
    }
}

/// The suffix of a `BlockRadixSort`'s `TempStorage` array of values (`temp__values`), beside
/// the keys' array (`cub_sort`).
pub(super) const SORT_VALUES: &str = "__values";

/// Namespaces a CUB name may be written under.
const CUB_NS: &[&str] = &["cub", "hipcub", "cuda", "std"];

/// The shared cells a `TempStorage` of `c` takes here (the warp aggregates of a block).
fn storage_cells(c: &CubClass, warp: u32) -> u32 {
    match c.kind {
        Kind::WarpReduce | Kind::WarpScan => 1,
        // The raking algorithms' grid: one cell per thread (`cub_raking`).
        Kind::BlockReduce if c.alg.starts_with("BLOCK_REDUCE_RAKING") => c.threads.max(1),
        Kind::BlockReduce => c.threads.div_ceil(warp.max(1)).max(1),
        // The raking grid, one cell per thread, and the block aggregate.
        Kind::BlockScan => c.threads + 1,
        // The exchanges are modelled by their result (`cub_load`): no cell is read.
        Kind::BlockLoad | Kind::BlockStore => 1,
        // The block's keys (a second array holds the values: `cub_sort`).
        Kind::BlockRadixSort | Kind::Exchange => c.threads.saturating_mul(c.items).max(1),
    }
}

impl Parser<'_> {
    /// Skips `cub::`, `hipcub::`, `cuda::`, `std::` qualifiers.
    pub(super) fn skip_cub_ns(&mut self) {
        // `::hipcub::WarpExchange<…>`: the global namespace's `::` before the library's.
        if matches!(self.peek(0), Tok::Punct("::"))
            && matches!(self.peek(1), Tok::Ident(w) if CUB_NS.contains(&w.as_str()))
        {
            self.bump();
        }
        while matches!(self.peek(0), Tok::Ident(w) if CUB_NS.contains(&w.as_str()))
            && matches!(self.peek(1), Tok::Punct("::"))
        {
            self.bump();
            self.bump();
        }
    }

    /// Lanes of one hardware warp here: 32 for CUDA, the wavefront for HIP.
    pub(super) fn cub_warp(&self) -> u32 {
        if self.hip {
            self.wave
        } else {
            32
        }
    }

    /// Whether a CUB class name (`[cub::]WarpReduce<`, `BlockReduce<`) starts here.
    pub(super) fn cub_class_starts(&self) -> bool {
        let mut k = usize::from(
            matches!(self.peek(0), Tok::Punct("::"))
                && matches!(self.peek(1), Tok::Ident(w) if CUB_NS.contains(&w.as_str())),
        );
        while matches!(self.peek(k), Tok::Ident(w) if CUB_NS.contains(&w.as_str()))
            && matches!(self.peek(k + 1), Tok::Punct("::"))
        {
            k += 2;
        }
        // A class of the source's own with one of these names is the source's; so is, when
        // the name is not written `cub::`, a function template of its own (PyTorch's
        // `BlockReduce<T, Op>(val, op, …)` in block_reduce.cuh).
        matches!(self.peek(k), Tok::Ident(w) if matches!(w.as_str(), "WarpReduce" | "BlockReduce" | "WarpScan" | "BlockScan" | "BlockLoad" | "BlockStore" | "WarpLoad" | "WarpStore" | "BlockExchange" | "WarpExchange" | "BlockRadixSort") && !self.is_struct_name(w) && (k > 0 || !self.own_function_template(w)))
            && matches!(self.peek(k + 1), Tok::Punct("<"))
    }

    /// Whether the source defines a function template named `w` (not a class template).
    fn own_function_template(&self, w: &str) -> bool {
        !self.class_templates.contains_key(w)
            && self
                .templates
                .keys()
                .any(|n| n == w || n.strip_suffix(w).is_some_and(|ns| ns.ends_with("::")))
    }

    /// A constant template argument (a power-of-two check is the caller's).
    pub(super) fn cub_const(&mut self, what: &str) -> PResult<u32> {
        let at = self.span();
        let e = self.binary(8)?;
        let e = self.targ_conditional(e)?;
        match self.fold_int(&e).or_else(|| super::const_int(&e)) {
            Some(n) if (1..=1 << 20).contains(&n) => Ok(n as u32),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                format!("{what} must be a constant from 1 to 1048576 here"),
            )),
        }
    }

    /// `[cub::]WarpReduce<T[, N]>` or `BlockReduce<T, X[, ALG][, Y[, Z]]>`.
    ///
    /// # Errors
    /// A logical warp that is not a power of two up to the warp, a block algorithm other than
    /// the warp-reductions one, a non-constant size.
    pub(super) fn cub_class(&mut self) -> PResult<CubClass> {
        self.skip_cub_ns();
        let at = self.span();
        let name = self.ident()?;
        self.expect_punct("<")?;
        let no_gt = std::mem::replace(&mut self.no_gt, true);
        let r = self.cub_class_args(&name, at);
        self.no_gt = no_gt;
        let c = r?;
        // `WarpReduce<cub::KeyValuePair<int, float>>`: the `>>` closes both lists.
        if !self.close_angle() {
            return self.err("`>`");
        }
        Ok(c)
    }

    fn cub_class_args(&mut self, name: &str, at: Span) -> PResult<CubClass> {
        let record = self.struct_type()?;
        if matches!(name, "BlockLoad" | "BlockStore") {
            return self.cub_load_args(name, record.is_some(), at);
        }
        if matches!(name, "WarpLoad" | "WarpStore") {
            return self.cub_warp_load_args(name, record.is_some(), at);
        }
        if matches!(name, "BlockExchange" | "WarpExchange") {
            return self.cub_exchange_args(name, record.is_some(), at);
        }
        if name == "BlockRadixSort" {
            return self.cub_sort_args(record.is_some(), at);
        }
        if record.is_some() && !matches!(name, "WarpReduce" | "BlockReduce") {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "{name}<T, …> of a struct T is not modelled here (WarpReduce and \
                     BlockReduce are)"
                ),
            ));
        }
        let elem = match record {
            Some(_) => INT,
            None => match self.base_type()? {
                Ty::Val(v) if v.lanes == 1 => v,
                // `BlockReduce<half2, 128>` (a packed pair of halves, one 32-bit word): CUB
                // reduces it with its `operator+` (`__hadd2`, each half rounded once).
                Ty::Val(v)
                    if v.lanes == 2
                        && matches!(v.scalar, Scalar::F16 | Scalar::Bf16)
                        && name == "BlockReduce" =>
                {
                    v
                }
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "{name}<T, …>: T must be a scalar type or a struct here (float, \
                             int, …)"
                        ),
                    ))
                }
            },
        };
        let warp = self.cub_warp();
        if name == "WarpReduce" || name == "WarpScan" {
            let n = if self.eat(",") {
                self.cub_const(&format!("{name}'s LOGICAL_WARP_THREADS"))?
            } else {
                warp
            };
            if n > warp || !n.is_power_of_two() {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "{name}<T, {n}>: logical warps of a power of two up to the \
                         {warp}-lane warp are modelled (CUB's shuffle variant); other sizes use \
                         CUB's shared-memory variant, not modelled here"
                    ),
                ));
            }
            return Ok(CubClass {
                kind: if name == "WarpScan" {
                    Kind::WarpScan
                } else {
                    Kind::WarpReduce
                },
                elem,
                record,
                threads: n,
                items: 1,
                alg: String::new(),
                value: None,
            });
        }
        self.expect_punct(",")?;
        let mut threads = self.cub_const(&format!("{name}'s BLOCK_DIM_X"))?;
        let (prefix, known) = if name == "BlockScan" {
            (
                "BLOCK_SCAN_",
                &[
                    "BLOCK_SCAN_RAKING",
                    "BLOCK_SCAN_RAKING_MEMOIZE",
                    "BLOCK_SCAN_WARP_SCANS",
                ][..],
            )
        } else {
            (
                "BLOCK_REDUCE_",
                &[
                    "BLOCK_REDUCE_WARP_REDUCTIONS",
                    "BLOCK_REDUCE_RAKING",
                    "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY",
                ][..],
            )
        };
        let mut alg = known[0].to_string();
        let mut alg_at = at;
        if self.eat(",") {
            self.skip_cub_ns();
            let at_alg = self.span();
            if let Tok::Ident(a) = self.peek(0).clone() {
                if a.starts_with(prefix) {
                    self.bump();
                    if !known.contains(&a.as_str()) {
                        return Err(KernelError::new(
                            at_alg.line,
                            at_alg.col,
                            format!("{name} with {a}: write one of {}", known.join(", ")),
                        ));
                    }
                    alg_at = at_alg;
                    alg = a;
                }
            }
            for dim in ["BLOCK_DIM_Y", "BLOCK_DIM_Z"] {
                if self.is_punct(">") {
                    break;
                }
                if !self.eat(",") && dim == "BLOCK_DIM_Z" {
                    break;
                }
                if dim == "BLOCK_DIM_Y" && self.is_punct(",") {
                    self.bump();
                }
                let d = self.cub_const(&format!("{name}'s {dim}"))?;
                threads = threads.saturating_mul(d);
            }
        }
        if threads > 1024 {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{name} of {threads} threads: a block has at most 1024"),
            ));
        }
        self.cub_alg_check(name, &alg, elem, record.is_some(), threads, alg_at)?;
        if name == "BlockScan" && threads > warp && threads % warp != 0
            || name == "BlockScan" && threads < warp && !threads.is_power_of_two()
        {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "BlockScan of {threads} threads: blocks of whole {warp}-lane warps (or a power \
                     of two below the warp) are modelled"
                ),
            ));
        }
        Ok(CubClass {
            kind: if name == "BlockScan" {
                Kind::BlockScan
            } else {
                Kind::BlockReduce
            },
            elem,
            record,
            threads,
            items: 1,
            alg,
            value: None,
        })
    }

    /// `using R = cub::…<…>;` or `typedef cub::…<…> R;`: records the alias and returns
    /// `true`; `false` (position kept) when no CUB class is aliased here.
    ///
    /// # Errors
    /// As [`Parser::cub_class`]; a malformed alias.
    pub(super) fn cub_alias(&mut self) -> PResult<bool> {
        let save = self.pos;
        if self.cub_storage_alias()? {
            return Ok(true);
        }
        if self.is_word("using") && matches!(self.peek(1), Tok::Ident(_)) {
            self.bump();
            let name = self.ident()?;
            if !self.eat("=") || !self.cub_class_starts() {
                self.pos = save;
                return self.cub_op_alias();
            }
            let c = self.cub_class()?;
            self.expect_punct(";")?;
            self.cub.insert(name, c);
            return Ok(true);
        }
        if self.is_word("typedef") {
            self.bump();
            if !self.cub_class_starts() {
                self.pos = save;
                return self.cub_op_alias();
            }
            let c = self.cub_class()?;
            let name = self.ident()?;
            self.expect_punct(";")?;
            self.cub.insert(name, c);
            return Ok(true);
        }
        Ok(false)
    }

    /// `using TS = [typename] R::TempStorage;` or `typedef [typename] R::TempStorage TS;` of
    /// an alias `R` of a CUB class: records `TS` as the name of `R`'s storage (C++17
    /// [dcl.typedef]/2: the alias names the same type), so `__shared__ TS t;` declares it.
    /// `false` (position kept) for any other declaration.
    ///
    /// # Errors
    /// A malformed alias.
    fn cub_storage_alias(&mut self) -> PResult<bool> {
        let save = self.pos;
        let using = self.is_word("using");
        if !using && !self.is_word("typedef") {
            return Ok(false);
        }
        self.bump();
        let mut name = None;
        if using {
            match (self.peek(0).clone(), self.peek(1)) {
                (Tok::Ident(n), Tok::Punct("=")) => {
                    name = Some(n);
                    self.bump();
                    self.bump();
                }
                _ => {
                    self.pos = save;
                    return Ok(false);
                }
            }
        }
        if self.is_word("typename") {
            self.bump();
        }
        let c = match (self.peek(0).clone(), self.peek(1), self.peek(2)) {
            (Tok::Ident(r), Tok::Punct("::"), Tok::Ident(t)) if t == "TempStorage" => {
                self.cub.get(&r).cloned()
            }
            _ => None,
        };
        let Some(c) = c else {
            self.pos = save;
            return Ok(false);
        };
        self.bump();
        self.bump();
        self.bump();
        let name = match name {
            Some(n) => n,
            None => self.ident()?,
        };
        self.expect_punct(";")?;
        self.cub_storage_types.insert(name, c);
        Ok(true)
    }

    /// `__shared__ [typename] R::TempStorage t;` (or `t[N];`): a shared array of the element
    /// type with the cells the collective uses (a block's warp aggregates), `N` times. `None`
    /// (position kept) when no `TempStorage` is declared here.
    ///
    /// # Errors
    /// A malformed declaration, a non-constant `N`.
    pub(super) fn cub_temp_storage(&mut self) -> PResult<Option<StmtKind>> {
        let save = self.pos;
        if !self.cub_local && !self.is_word("__shared__") {
            return Ok(None);
        }
        if !self.cub_local {
            self.bump();
        }
        if let Some(decls) = self.cub_storage_union()? {
            return Ok(Some(StmtKind::Decl(
                Storage {
                    shared: true,
                    external: false,
                },
                decls,
            )));
        }
        if self.is_word("typename") {
            self.bump();
        }
        // `__shared__ TS t;` of an alias of a class's storage ([`Self::cub_storage_alias`]).
        let aliased = match self.peek(0).clone() {
            Tok::Ident(n) => self.cub_storage_types.get(&n).cloned(),
            _ => None,
        };
        let c = match self.peek(0).clone() {
            _ if aliased.is_some() => {
                self.bump();
                aliased.clone()
            }
            Tok::Ident(n) if self.cub.contains_key(&n) => {
                self.bump();
                self.cub.get(&n).cloned()
            }
            _ if self.cub_class_starts() => Some(self.cub_class()?),
            _ => None,
        };
        let Some(c) = c else {
            self.pos = save;
            return Ok(None);
        };
        if aliased.is_none() {
            if !(self.eat("::") && self.is_word("TempStorage")) {
                self.pos = save;
                return Ok(None);
            }
            self.bump();
        }
        let at = self.span();
        let name = self.ident()?;
        let count = if self.eat("[") {
            let n = self.cub_const("a TempStorage array's length")?;
            self.expect_punct("]")?;
            n
        } else {
            1
        };
        self.expect_punct(";")?;
        let decls = self.cub_storage_decls(c, name, at, count)?;
        Ok(Some(StmtKind::Decl(
            Storage {
                shared: true,
                external: false,
            },
            decls,
        )))
    }

    /// The shared arrays of the `TempStorage` `name` of `c` (`count` of them): the cells the
    /// collective uses, a struct's one array per member, a sort's values beside its keys.
    ///
    /// # Errors
    /// A struct element type that does not declare.
    pub(super) fn cub_storage_decls(
        &mut self,
        c: CubClass,
        name: String,
        at: Span,
        count: u32,
    ) -> PResult<Vec<Declarator>> {
        if self.cub_local {
            self.cub_local_check(&c, &name, at)?;
        }
        let cells = storage_cells(&c, self.cub_warp()).saturating_mul(count);
        if let Some(s) = c.record.clone() {
            // A struct's warp aggregates: a shared array of the struct, one array per member.
            let len = self.e_int(at, i64::from(cells));
            let decls = self.struct_declarator(&s, &name, at, false, Some(Some(len)), None)?;
            self.cub_storage.insert(name, c);
            return Ok(decls);
        }
        let ty = Ty::Ptr(c.elem);
        let len = self.e_int(at, i64::from(cells));
        self.declare(&name, ty);
        let mut decls = vec![Declarator {
            name: name.clone(),
            ty,
            array: Some(Some(len)),
            init: None,
            span: at,
            id: NodeId::fresh(),
        }];
        if let Some(v) = c.value {
            // A sort's values: a second shared array beside the keys (`cub_sort`).
            let vname = format!("{name}{SORT_VALUES}");
            let len = self.e_int(at, i64::from(cells));
            self.declare(&vname, Ty::Ptr(v));
            // Its own span: a shared variable is one per declaration site.
            let span = self.syn_span(at);
            decls.push(Declarator {
                name: vname,
                ty: Ty::Ptr(v),
                array: Some(Some(len)),
                init: None,
                span,
                id: NodeId::fresh(),
            });
        }
        self.cub_storage.insert(name, c);
        Ok(decls)
    }

    /// Adds a device function the front end built for a collective (its parameters and body
    /// as syntax-tree nodes) under `name`, returning `ret`: one place for what each collective's
    /// builder registers.
    pub(super) fn push_built_fn(
        &mut self,
        name: &str,
        ret: Ty,
        params: Vec<Param>,
        body: Stmt,
        at: Span,
    ) {
        self.fn_types.insert(name.to_string(), ret);
        self.extra_fns.push(Function {
            name: name.to_string(),
            entry: false,
            ret,
            params,
            body,
            launch_bounds: None,
            vf_call_dim: None,
            span: at,
            snippet: false,
            defaults: Vec::new(),
            empty_params: Vec::new(),
        });
    }

    /// Whether `w` names a CUB collective here (`R` of `R(t).Sum(x)`).
    pub(super) fn is_cub_name(&self, w: &str) -> bool {
        self.cub.contains_key(w)
    }

    /// `R(t).Sum(x)` and kin after the name `R` (or an inline `cub::BlockReduce<…>` when
    /// `name` is `None`): a call of the collective's device function.
    ///
    /// # Errors
    /// A method CUB's class does not have or this model does not run, wrong arguments, an
    /// operator that is not supported.
    pub(super) fn cub_call(&mut self, name: Option<&str>, at: Span) -> PResult<Expr> {
        let c = match name {
            Some(n) => self.cub.get(n).cloned().ok_or_else(|| {
                KernelError::new(at.line, at.col, format!("`{n}` is not a CUB class here"))
            })?,
            None => self.cub_class()?,
        };
        if matches!(c.kind, Kind::BlockLoad | Kind::BlockStore) {
            return self.cub_load_call(&c, at);
        }
        if c.kind == Kind::BlockRadixSort {
            return self.cub_sort_call(&c, at);
        }
        if c.kind == Kind::Exchange {
            return self.cub_exchange_call(&c, at);
        }
        let storage = self.cub_storage_then_dot()?;
        let m_at = self.span();
        let method = self.ident()?;
        // `BlockReduce`'s items-per-thread overloads: [`Parser::cub_reduce_items`].
        if c.kind != Kind::BlockScan && (c.kind != Kind::BlockReduce || c.record.is_some()) {
            self.cub_refuse_items(at)?;
        }
        if c.record.is_some() {
            return self.cub_record_call(&c, storage, &method, m_at, at);
        }
        if matches!(c.kind, Kind::WarpScan | Kind::BlockScan) {
            let storage = match c.kind {
                Kind::BlockScan => {
                    let st = self.cub_storage_arg(&c, storage, at)?;
                    self.cub_storage_use(&st, at);
                    Some(st)
                }
                _ => None,
            };
            return self.cub_scan_call(&c, storage, &method, m_at, at);
        }
        self.expect_punct("(")?;
        let x = self.assign_expr()?;
        let (op, valid) = match method.as_str() {
            "Sum" => (Op::Sum, self.cub_rest()?),
            "Reduce" => {
                self.expect_punct(",")?;
                let op_at = self.span();
                let op = self.cub_op()?;
                self.cub_scalar_op(&op, op_at)?;
                (op, self.cub_rest()?)
            }
            m if Self::is_cub_segmented(m) => {
                return self.cub_segmented_call(&c, x, m, at);
            }
            other => {
                return Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!(
                        "{}::{other} is not modelled here (Sum and Reduce are)",
                        match c.kind {
                            Kind::WarpReduce => "WarpReduce",
                            Kind::BlockReduce => "BlockReduce",
                            Kind::WarpScan => "WarpScan",
                            Kind::BlockScan => "BlockScan",
                            Kind::BlockLoad => "BlockLoad",
                            Kind::BlockStore => "BlockStore",
                            Kind::BlockRadixSort => "BlockRadixSort",
                            Kind::Exchange => "BlockExchange",
                        }
                    ),
                ))
            }
        };
        let items = match self.cub_items_len(&x) {
            Some(n) if c.kind == Kind::BlockReduce => Some(n),
            _ => None,
        };
        let x = match items {
            Some(_) if valid.is_some() => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "BlockReduce's items-per-thread overloads take no num_valid (CUB API, \
                     cub::BlockReduce: `Sum(T (&inputs)[ITEMS_PER_THREAD])`, `Reduce(inputs, \
                     reduction_op)`); reduce one value per thread for a partial block",
                ))
            }
            Some(n) => self.cub_reduce_items(&c, &op, &x, n, at)?,
            None => x,
        };
        let fname = self.cub_function(&c, &op, valid.is_some(), at)?;
        let mut args = vec![x];
        args.extend(valid);
        if c.kind == Kind::BlockReduce {
            let st = self.cub_storage_arg(&c, storage, at)?;
            self.cub_storage_use(&st, at);
            args.push(st);
        }
        let s = self.syn_span(at);
        Ok(Expr::new(ExprKind::Call(fname, args), s))
    }

    /// Notes a block collective's use of its `TempStorage` `storage`; a second use with no
    /// `__syncthreads()` read between the two (in source order, within the function) is a
    /// warning: the first collective's threads may still read the storage the second writes
    /// (CUB API, BlockReduce / BlockScan: "a subsequent `__syncthreads()` threadblock barrier
    /// should be invoked after calling this method if the collective's temporary storage …
    /// is to be reused or repurposed"). Loops and branches are not followed.
    pub(super) fn cub_storage_use(&mut self, storage: &Expr, at: Span) {
        let name = match &storage.kind {
            ExprKind::Ident(n) => n.clone(),
            ExprKind::AddrOf(e) => match &e.kind {
                ExprKind::Index(b, _) => match &b.kind {
                    ExprKind::Ident(n) => n.clone(),
                    _ => return,
                },
                _ => return,
            },
            _ => return,
        };
        // The members of a union of TempStorages share its bytes: one record for them all.
        let name = match name.split_once('.') {
            Some((union, _)) if self.cub_storage.contains_key(&name) => union.to_string(),
            _ => name,
        };
        if let Some(first) = self.cub_pending.insert(name.clone(), at) {
            self.diag(
                at,
                Level::Warning,
                format!(
                    "TempStorage `{name}` is used again without a `__syncthreads()` after its use \
                     at line {}: threads still reading the first collective's storage race with \
                     the second's writes; put `__syncthreads();` between them",
                    first.line
                ),
                "CUB API, cub::BlockReduce / cub::BlockScan (TempStorage reuse)",
            );
        }
    }

    /// Refuses the items-per-thread overloads (`Sum(T (&items)[N])`): the call's first
    /// argument, not yet read, names an array.
    fn cub_refuse_items(&self, at: Span) -> PResult<()> {
        let arr = matches!(self.peek(1), Tok::Ident(n)
            if matches!(self.var_type(n), Some(Ty::Ptr(_))))
            && matches!(self.peek(2), Tok::Punct(")" | ","));
        if self.is_punct("(") && arr {
            return Err(KernelError::new(
                at.line,
                at.col,
                "the items-per-thread overloads (an array of items per thread) are not modelled \
                 here: reduce each thread's items first and pass one value",
            ));
        }
        Ok(())
    }

    /// `, valid)` or `)`.
    pub(super) fn cub_rest(&mut self) -> PResult<Option<Expr>> {
        let valid = if self.eat(",") {
            Some(self.assign_expr()?)
        } else {
            None
        };
        self.expect_punct(")")?;
        Ok(valid)
    }

    /// The storage a block collective writes its warp aggregates to: the shared array, or
    /// `&t[k · cells]` for element `k` of a `TempStorage` array.
    pub(super) fn cub_storage_arg(
        &mut self,
        c: &CubClass,
        storage: Expr,
        at: Span,
    ) -> PResult<Expr> {
        // A member of a `__shared__ union { … TempStorage m; } u;` (`cub_union`).
        if let ExprKind::Member(base, m) = &storage.kind {
            if let Some(name) = self.cub_union_member(base, m) {
                return Ok(Expr::new(ExprKind::Ident(name), storage.span));
            }
        }
        match storage.kind {
            ExprKind::Ident(_) => Ok(storage),
            ExprKind::Index(base, k) => {
                let cells = self.e_int(at, i64::from(storage_cells(c, self.cub_warp())));
                let off = self.e_bin(at, BinOp::Mul, *k, cells);
                let s = self.syn_span(at);
                let cell = Expr::new(ExprKind::Index(base, Box::new(off)), s);
                let s = self.syn_span(at);
                Ok(Expr::new(ExprKind::AddrOf(Box::new(cell)), s))
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "a BlockReduce's TempStorage must be a `__shared__` variable (or an element of a \
                 `__shared__` array) here",
            )),
        }
    }

    /// Warns, once a name, that CUDA 13's CUB no longer has `cub::Sum` / `Max` / `Min` (CCCL 3.0
    /// removed them for `cuda::std::plus<>`, `cuda::maximum<>`, `cuda::minimum<>`; nvcc 13.0
    /// refused them on an H200, docs/benchmarks.md "On real silicon"). The run goes on: CUDA 12's
    /// CUB has them, with the same meaning.
    pub(super) fn cub_removed_op(&mut self, name: &str) {
        if !self.cub_removed_warned.insert(name.to_string()) {
            return;
        }
        let instead = match name {
            "Sum" => "cuda::std::plus<>{}",
            "Max" => "cuda::maximum<>{}",
            _ => "cuda::minimum<>{}",
        };
        let at = self.span();
        self.diag(
            at,
            Level::Warning,
            format!(
                "`cub::{name}` was removed in CCCL 3.0 (CUDA 13), so nvcc 13 refuses it; it runs \
                 here as CUDA 12's CUB defines it. For CUDA 13 write `{instead}`"
            ),
            "CCCL 3.0 migration guide (cub::Sum, cub::Max, cub::Min removed)",
        );
    }

    /// A library operator's type (`cub::Sum`, `cuda::maximum<>`, `cuda::std::plus<float>`),
    /// or an alias of one (`using MaxOp = cuda::maximum<>;`), read; `None` (position kept)
    /// otherwise.
    ///
    /// # Errors
    /// A template argument list never closed.
    fn cub_op_type(&mut self) -> PResult<Option<Op>> {
        let save = self.pos;
        self.skip_cub_ns();
        let Tok::Ident(w) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        let under_cub = self.pos >= save + 2
            && matches!(&self.toks[self.pos - 2].tok, Tok::Ident(n) if n == "cub");
        if under_cub && !self.hip && matches!(w.as_str(), "Sum" | "Max" | "Min") {
            self.cub_removed_op(&w);
        }
        // An unqualified name the source defines a struct of (`struct Max { … }; … Max()`) is
        // the source's functor ([basic.lookup.unqual]: `cub::Max` is found only qualified or
        // after a using-directive the source does not need), not the library's.
        let own = self.pos == save && self.is_struct_name(&w);
        let op = match w.as_str() {
            "Sum" | "plus" if !own => Op::Sum,
            "Max" | "maximum" if !own => Op::Max,
            "Min" | "minimum" if !own => Op::Min,
            // A functor of the source's own named `ArgMax` is the source's.
            "ArgMax" | "ArgMin" if self.pos != save || !self.is_struct_name(&w) => {
                if w == "ArgMax" {
                    Op::ArgMax
                } else {
                    Op::ArgMin
                }
            }
            _ if self.pos == save && !self.is_struct_name(&w) => match self.cub_ops.get(&w) {
                Some(op) => op.clone(),
                None => return Ok(None),
            },
            _ => {
                self.pos = save;
                return Ok(None);
            }
        };
        self.bump();
        if self.eat("<") {
            let mut depth = 1u32;
            while depth > 0 {
                match self.peek(0) {
                    Tok::Eof => return self.err("`>`"),
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => depth -= 1,
                    Tok::Punct(">>") => depth = depth.saturating_sub(2),
                    _ => {}
                }
                self.bump();
            }
        }
        Ok(Some(op))
    }

    /// `using NAME = cuda::maximum<>;` or `typedef cub::Sum NAME;` (vLLM's MoE kernels):
    /// records the alias of a library operator and returns `true`; `false` (position kept)
    /// otherwise.
    ///
    /// # Errors
    /// A template argument list never closed.
    fn cub_op_alias(&mut self) -> PResult<bool> {
        let save = self.pos;
        let using = self.is_word("using");
        self.bump();
        let name = if using {
            let Tok::Ident(name) = self.peek(0).clone() else {
                self.pos = save;
                return Ok(false);
            };
            self.bump();
            if !self.eat("=") {
                self.pos = save;
                return Ok(false);
            }
            Some(name)
        } else {
            None
        };
        let lib_at = self.pos;
        let lib = self.lib_op_read();
        self.pos = lib_at;
        let Some(op) = self.cub_op_type()? else {
            self.pos = save;
            return Ok(false);
        };
        let name = match name {
            Some(n) => n,
            None => match self.peek(0).clone() {
                Tok::Ident(n) => {
                    self.bump();
                    n
                }
                _ => {
                    self.pos = save;
                    return Ok(false);
                }
            },
        };
        if !self.eat(";") {
            self.pos = save;
            return Ok(false);
        }
        if let Some(l) = lib {
            self.lib_aliases.insert(name.clone(), l);
        }
        self.cub_ops.insert(name, op);
        Ok(true)
    }

    /// The reduction operator argument.
    pub(super) fn cub_op(&mut self) -> PResult<Op> {
        let at = self.span();
        // A named library function object (`cub::ArgMax arg_max; … Reduce(kvp, arg_max)`, vLLM's
        // MoE top-k): [`Parser::lib_object_decl`] recorded its operator under its name.
        if let Tok::Ident(w) = self.peek(0) {
            if matches!(self.peek(1), Tok::Punct(")" | ",")) && self.lib_objects.contains_key(w) {
                if let Some(op) = self.cub_ops.get(w).cloned() {
                    self.bump();
                    return Ok(op);
                }
            }
        }
        let save = self.pos;
        if let Some(op) = self.cub_op_type()? {
            if self.eat("(") {
                self.expect_punct(")")?;
                return Ok(op);
            }
            if self.eat("{") {
                self.expect_punct("}")?;
                return Ok(op);
            }
        }
        self.pos = save;
        let e = self.assign_expr()?;
        let sname = match &e.kind {
            // A lambda written in place is its closure's construction; a functor `F()` too.
            ExprKind::Call(n, args) if args.is_empty() && self.structs.contains_key(n) => {
                Some(n.clone())
            }
            ExprKind::Ident(v) => self.var_struct(v).map(|s| s.sname.clone()),
            _ => None,
        };
        // A device function's name (`Reduce(partial, reduce_topk_op_2)`): CUB takes any binary
        // callable, a function decaying to its pointer included.
        let named = match &e.kind {
            ExprKind::Call(a, args) if a == super::fn_ptr_run::FN_ADDR => match args.as_slice() {
                [Expr {
                    kind: ExprKind::Str(f),
                    ..
                }] => Some(f.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = named {
            if self.fn_ret.contains_key(&f) || self.fn_types.contains_key(&f) {
                return Ok(Op::Func(f));
            }
        }
        let stateless = sname.as_ref().and_then(|s| {
            let def = self.structs.get(s)?;
            if !def.fields.is_empty() {
                return None;
            }
            def.methods.get("operator()").map(|m| m.func.clone())
        });
        stateless.map(Op::Func).ok_or_else(|| {
            KernelError::new(
                at.line,
                at.col,
                "the reduction operator must be cub::Sum(), cub::Max(), cub::Min(), \
                 cuda::std::plus<>(), cuda::maximum<>(), cuda::minimum<>(), or a lambda or \
                 functor without captures or members",
            )
        })
    }

    /// Refuses `cub::ArgMax` / `ArgMin` where the values are not `KeyValuePair`s.
    ///
    /// # Errors
    /// `op` is `ArgMax` or `ArgMin`.
    pub(super) fn cub_scalar_op(&self, op: &Op, at: Span) -> PResult<()> {
        if matches!(op, Op::ArgMax | Op::ArgMin) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cub::{} reduces cub::KeyValuePair<K, V> values: make each thread's value \
                     a KeyValuePair (key: its index, value: the number)",
                    if *op == Op::ArgMax {
                        "ArgMax"
                    } else {
                        "ArgMin"
                    }
                ),
            ));
        }
        Ok(())
    }

    /// `op(a, b)` as a node.
    pub(super) fn cub_combine(&mut self, op: &Op, a: &str, b: &str, at: Span) -> Expr {
        let (ea, eb) = (self.e_ident(at, a), self.e_ident(at, b));
        match op {
            Op::Sum => self.e_bin(at, BinOp::Add, ea, eb),
            Op::Max | Op::Min => {
                // CUB_MAX / CUB_MIN: `(b OP a) ? b : a`. Each operand's use is its own node
                // (a clone would share its node id, which keys what a name resolves to).
                let cmp = if *op == Op::Max { BinOp::Gt } else { BinOp::Lt };
                let (ca, cb) = (self.e_ident(at, a), self.e_ident(at, b));
                let c = self.e_bin(at, cmp, cb, ca);
                let s = self.syn_span(at);
                Expr::new(
                    ExprKind::Ternary(Box::new(c), Box::new(eb), Box::new(ea)),
                    s,
                )
            }
            Op::Func(f) => self.e_call(at, f, vec![ea, eb]),
            // Refused before any function is built ([`Parser::cub_scalar_op`]).
            Op::ArgMax | Op::ArgMin => ea,
        }
    }

    /// The device function of a collective with `op` (made once per shape), its name.
    fn cub_function(&mut self, c: &CubClass, op: &Op, valid: bool, at: Span) -> PResult<String> {
        // CUB's raking reductions combine in their own orders (`cub_raking`); hipCUB's run
        // the default's, with a note ([`Parser::cub_alg_note`]).
        let raking = match c.alg.as_str() {
            _ if self.hip || c.kind != Kind::BlockReduce => None,
            "BLOCK_REDUCE_RAKING" => Some(false),
            "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY" => Some(true),
            _ => None,
        };
        let kind = match c.kind {
            Kind::WarpReduce => "warp_reduce",
            Kind::BlockReduce => match raking {
                Some(false) => "block_reduce_raking",
                Some(true) => "block_reduce_raking_commutative",
                None => "block_reduce",
            },
            Kind::WarpScan
            | Kind::BlockScan
            | Kind::BlockLoad
            | Kind::BlockStore
            | Kind::BlockRadixSort
            | Kind::Exchange => "scan",
        };
        let lib = if self.hip { "hipcub" } else { "cub" };
        let fname = format!(
            "__{lib}_{kind}_{}_{}_{}_w{}{}",
            op.tag(),
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            self.cub_warp(),
            if valid { "_valid" } else { "" }
        );
        if self.fn_types.contains_key(&fname) {
            return Ok(fname);
        }
        let b = Body::new(self, c, at);
        let (params, body) = match c.kind {
            Kind::WarpReduce
            | Kind::WarpScan
            | Kind::BlockScan
            | Kind::BlockLoad
            | Kind::BlockStore
            | Kind::BlockRadixSort
            | Kind::Exchange => b.warp_reduce(self, op, valid),
            Kind::BlockReduce => match raking {
                Some(commutative) => b.block_reduce_raking(self, op, valid, commutative),
                None => b.block_reduce(self, op, valid),
            },
        };
        let ret = Ty::Val(c.elem);
        self.push_built_fn(&fname, ret, params, body, at);
        Ok(fname)
    }
}

/// Builds one collective's device function: statements at the call's line.
pub(super) struct Body {
    pub(super) at: Span,
    pub(super) elem: ValTy,
    pub(super) threads: u32,
    pub(super) warp: u32,
    pub(super) hip: bool,
    pub(super) stmts: Vec<Stmt>,
    /// Shuffle trees built so far (their temporaries' names differ).
    temps: u32,
}

pub(super) const INT: ValTy = ValTy {
    scalar: Scalar::I32,
    lanes: 1,
};

impl Body {
    pub(super) fn new(p: &Parser<'_>, c: &CubClass, at: Span) -> Self {
        Body {
            at,
            elem: c.elem,
            threads: c.threads,
            warp: p.cub_warp(),
            hip: p.hip,
            stmts: Vec::new(),
            temps: 0,
        }
    }

    pub(super) fn stmt(&self, kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: self.at,
            end: self.at,
        }
    }

    pub(super) fn decl(&mut self, p: &mut Parser<'_>, name: &str, ty: ValTy, init: Expr) {
        let span = p.syn_span(self.at);
        let d = Declarator {
            name: name.to_string(),
            ty: Ty::Val(ty),
            array: None,
            init: Some(init),
            span,
            id: NodeId::fresh(),
        };
        let s = self.stmt(StmtKind::Decl(Storage::default(), vec![d]));
        self.stmts.push(s);
    }

    pub(super) fn assign(&self, p: &mut Parser<'_>, name: &str, value: Expr) -> Stmt {
        let target = p.e_ident(self.at, name);
        let s = p.syn_span(self.at);
        self.stmt(StmtKind::Expr(Expr::new(
            ExprKind::Assign(None, Box::new(target), Box::new(value)),
            s,
        )))
    }

    pub(super) fn when(&self, cond: Expr, then: Stmt) -> Stmt {
        self.stmt(StmtKind::If(cond, Box::new(then), None))
    }

    /// `shfl_down(v, off, width)` in the dialect's spelling (CUDA `__shfl_down_sync` with the
    /// full mask, as CUB's `WarpReduceShfl` on a whole warp; HIP `__shfl_down`).
    pub(super) fn shfl_down(&self, p: &mut Parser<'_>, v: &str, off: u32, width: u32) -> Expr {
        let at = self.at;
        let ev = p.e_ident(at, v);
        let o = p.e_int(at, i64::from(off));
        let w = p.e_int(at, i64::from(width));
        if self.hip {
            p.e_call(at, "__shfl_down", vec![ev, o, w])
        } else {
            let m = p.e_mask(at, 0xffff_ffff);
            p.e_call(at, "__shfl_down_sync", vec![m, ev, o, w])
        }
    }

    /// The shuffle tree over `width` lanes on variable `v` (lane variable `lane`): at offsets
    /// 1, 2, 4, …, `v = op(v, shfl_down(v, off))` where `lane + off < valid`.
    pub(super) fn tree(
        &mut self,
        p: &mut Parser<'_>,
        op: &Op,
        v: &str,
        lane: &str,
        width: u32,
        valid: &Expr,
    ) {
        let at = self.at;
        let mut off = 1;
        let mut k = 0;
        while off < width {
            self.temps += 1;
            let o = format!("__o{}_{k}", self.temps);
            let sh = self.shfl_down(p, v, off, width);
            self.decl(p, &o, self.elem, sh);
            let l = p.e_ident(at, lane);
            let eo = p.e_int(at, i64::from(off));
            let sum = p.e_bin(at, BinOp::Add, l, eo);
            let cond = p.e_bin(at, BinOp::Lt, sum, valid.clone());
            let comb = p.cub_combine(op, v, &o, at);
            let set = self.assign(p, v, comb);
            let s = self.when(cond, set);
            self.stmts.push(s);
            off <<= 1;
            k += 1;
        }
    }

    pub(super) fn param(&self, name: &str, ty: Ty) -> Param {
        Param {
            name: name.to_string(),
            ty,
            reference: false,
            const_ref: false,
            span: self.at,
        }
    }

    /// `return __crosslane_valid_only(v, cond, why);`
    pub(super) fn finish(mut self, p: &mut Parser<'_>, cond: Expr, why: String) -> Stmt {
        let at = self.at;
        let v = p.e_ident(at, "v");
        let s = p.syn_span(at);
        let why = Expr::new(ExprKind::Str(why), s);
        let r = p.e_call(at, VALID_ONLY, vec![v, cond, why]);
        let ret = self.stmt(StmtKind::Return(Some(r)));
        self.stmts.push(ret);
        let stmts = std::mem::take(&mut self.stmts);
        self.stmt(StmtKind::Block(stmts))
    }

    fn warp_reduce(mut self, p: &mut Parser<'_>, op: &Op, valid: bool) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let n = self.threads;
        let mut params = vec![self.param("v", Ty::Val(self.elem))];
        let lane_id = p.e_lane(at);
        let nn = p.e_int(at, i64::from(n));
        let lane = p.e_bin(at, BinOp::Rem, lane_id, nn);
        self.decl(p, "lane", INT, lane);
        let limit = if valid {
            params.push(self.param("valid", Ty::Val(INT)));
            p.e_ident(at, "valid")
        } else {
            p.e_int(at, i64::from(n))
        };
        self.tree(p, op, "v", "lane", n, &limit);
        let l = p.e_ident(at, "lane");
        let z = p.e_int(at, 0);
        let cond = p.e_bin(at, BinOp::Eq, l, z);
        let why = if self.hip {
            format!(
                "hipcub::WarpReduce<T, {n}> returns the reduction to the first lane of each \
                 logical warp only (hipCUB / rocPRIM warp_reduce: the result is valid in lane 0); \
                 this lane's result is undefined"
            )
        } else {
            format!(
                "cub::WarpReduce<T, {n}> returns the aggregate to lane 0 of each logical warp only \
                 (CUB API, WarpReduce::Sum / Reduce: \"the output is valid in warp lane 0\"); \
                 this lane's result is undefined"
            )
        };
        let body = self.finish(p, cond, why);
        (params, body)
    }

    fn block_reduce(mut self, p: &mut Parser<'_>, op: &Op, valid: bool) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let ws = self.warp;
        let warps = self.threads.div_ceil(ws).max(1);
        let mut params = vec![self.param("v", Ty::Val(self.elem))];
        if valid {
            params.push(self.param("num_valid", Ty::Val(INT)));
        }
        params.push(self.param("agg", Ty::Ptr(self.elem)));
        let lin = p.e_linear(at);
        self.decl(p, "tid", INT, lin);
        let num_valid = if valid {
            p.e_ident(at, "num_valid")
        } else {
            p.e_int(at, i64::from(self.threads))
        };
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(ws)));
        let lane = p.e_bin(at, BinOp::Rem, t, w);
        self.decl(p, "lane", INT, lane);
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, i64::from(ws)));
        let warp = p.e_bin(at, BinOp::Div, t, w);
        self.decl(p, "warp", INT, warp);
        // The warp's valid threads: num_valid - warp · ws (none past the end).
        let (wi, w) = (p.e_ident(at, "warp"), p.e_int(at, i64::from(ws)));
        let first = p.e_bin(at, BinOp::Mul, wi, w);
        let wn = p.e_bin(at, BinOp::Sub, num_valid.clone(), first);
        self.decl(p, "warp_valid", INT, wn);
        let limit = p.e_ident(at, "warp_valid");
        self.tree(
            p,
            op,
            "v",
            "lane",
            ws.min(self.threads.next_power_of_two()),
            &limit,
        );
        // Lane 0 of each warp stores its aggregate; then a barrier.
        let cell = {
            let (a, wi) = (p.e_ident(at, "agg"), p.e_ident(at, "warp"));
            let s = p.syn_span(at);
            Expr::new(ExprKind::Index(Box::new(a), Box::new(wi)), s)
        };
        let v = p.e_ident(at, "v");
        let s = p.syn_span(at);
        let store = self.stmt(StmtKind::Expr(Expr::new(
            ExprKind::Assign(None, Box::new(cell), Box::new(v)),
            s,
        )));
        let (l, z) = (p.e_ident(at, "lane"), p.e_int(at, 0));
        let lane0 = p.e_bin(at, BinOp::Eq, l, z);
        let st = self.when(lane0, store);
        self.stmts.push(st);
        let sync = p.e_call(at, "__syncthreads", Vec::new());
        let st = self.stmt(StmtKind::Expr(sync));
        self.stmts.push(st);
        if self.hip {
            self.hip_second_stage(p, op, warps, &num_valid);
        } else {
            self.cuda_second_stage(p, op, warps, &num_valid);
        }
        let (t, z) = (p.e_ident(at, "tid"), p.e_int(at, 0));
        let cond = p.e_bin(at, BinOp::Eq, t, z);
        let n = self.threads;
        let why = if self.hip {
            format!(
                "hipcub::BlockReduce<T, {n}> returns the block-wide reduction to thread 0 only \
                 (hipCUB / rocPRIM block_reduce: the result is valid in the first thread); this \
                 thread's result is undefined"
            )
        } else {
            format!(
                "cub::BlockReduce<T, {n}> returns the block-wide aggregate to thread 0 only (CUB \
                 API, BlockReduce::Sum / Reduce: \"the return value is undefined in threads other \
                 than thread 0\")"
            )
        };
        let body = self.finish(p, cond, why);
        (params, body)
    }

    /// CUB: thread 0 folds the warp aggregates left to right, `v = op(v, agg[k])` for each
    /// k ≥ 1 with `ws · k < num_valid`.
    fn cuda_second_stage(&mut self, p: &mut Parser<'_>, op: &Op, warps: u32, num_valid: &Expr) {
        let at = self.at;
        let mut inner = Vec::new();
        for k in 1..warps {
            let name = format!("__agg{k}");
            let cell = {
                let (a, i) = (p.e_ident(at, "agg"), p.e_int(at, i64::from(k)));
                let s = p.syn_span(at);
                Expr::new(ExprKind::Index(Box::new(a), Box::new(i)), s)
            };
            let span = p.syn_span(at);
            let d = Declarator {
                name: name.clone(),
                ty: Ty::Val(self.elem),
                array: None,
                init: Some(cell),
                span,
                id: NodeId::fresh(),
            };
            let comb = p.cub_combine(op, "v", &name, at);
            let set = self.assign(p, "v", comb);
            let decl = self.stmt(StmtKind::Decl(Storage::default(), vec![d]));
            let inside = self.stmt(StmtKind::Block(vec![decl, set]));
            let first = p.e_int(at, i64::from(k * self.warp));
            let cond = p.e_bin(at, BinOp::Lt, first, num_valid.clone());
            inner.push(self.when(cond, inside));
        }
        if inner.is_empty() {
            return;
        }
        let (t, z) = (p.e_ident(at, "tid"), p.e_int(at, 0));
        let cond = p.e_bin(at, BinOp::Eq, t, z);
        let block = self.stmt(StmtKind::Block(inner));
        let s = self.when(cond, block);
        self.stmts.push(s);
    }

    /// rocPRIM: the first warp reads the partials (lane k the k-th) and reduces them with a
    /// second shuffle tree over the next power of two of the warp count, valid partials
    /// `⌈num_valid / ws⌉`.
    fn hip_second_stage(&mut self, p: &mut Parser<'_>, op: &Op, warps: u32, num_valid: &Expr) {
        let at = self.at;
        if warps <= 1 {
            return;
        }
        let ws = i64::from(self.warp);
        let up = p.e_int(at, ws - 1);
        let sum = p.e_bin(at, BinOp::Add, num_valid.clone(), up);
        let w = p.e_int(at, ws);
        let nw = p.e_bin(at, BinOp::Div, sum, w);
        let outer = std::mem::take(&mut self.stmts);
        self.decl(p, "valid_warps", INT, nw);
        let cell = {
            let (a, l) = (p.e_ident(at, "agg"), p.e_ident(at, "lane"));
            let s = p.syn_span(at);
            Expr::new(ExprKind::Index(Box::new(a), Box::new(l)), s)
        };
        let (l, vw) = (p.e_ident(at, "lane"), p.e_ident(at, "valid_warps"));
        let has = p.e_bin(at, BinOp::Lt, l, vw);
        let read = self.assign(p, "v", cell);
        let s = self.when(has, read);
        self.stmts.push(s);
        let limit = p.e_ident(at, "valid_warps");
        self.tree(p, op, "v", "lane", warps.next_power_of_two(), &limit);
        let inner = std::mem::replace(&mut self.stmts, outer);
        let (t, w) = (p.e_ident(at, "tid"), p.e_int(at, ws));
        let first_warp = p.e_bin(at, BinOp::Lt, t, w);
        let block = self.stmt(StmtKind::Block(inner));
        let s = self.when(first_warp, block);
        self.stmts.push(s);
    }
}

/// CUB names by alias, per parser.
pub(super) type CubNames = HashMap<String, CubClass>;
