//! CUB's and hipCUB's direct load and store free functions, called without a `BlockLoad`:
//! `cub::LoadDirectBlocked(linear_tid, ptr, items[, valid_items[, oob_default]])`,
//! `cub::LoadDirectStriped<BLOCK_THREADS>(…)`, `cub::StoreDirectBlocked(linear_tid, ptr,
//! items[, valid_items])` and `cub::StoreDirectStriped<BLOCK_THREADS>(…)`. They run through
//! [`Parser::cub_load_fn`], the arrangements `BlockLoad` uses, with the rank given.
//!
//! Source: CUB API reference, `cub/block/block_load.cuh` and `block_store.cuh`:
//! `LoadDirectBlocked` — "a blocked arrangement of data is read directly from memory", thread
//! `linear_tid` holding items `linear_tid·ITEMS_PER_THREAD + i`; `LoadDirectStriped` — "thread
//! i owns items (i), (i + block-threads), …"; the `Store` forms write the same items. With
//! `valid_items` only items whose index is below it are read or written ("guarded by
//! range"); a guarded load assigns `oob_default` to the others when one is given and leaves
//! them untouched otherwise. `ITEMS_PER_THREAD` is the bound of the thread's `T
//! (&items)[ITEMS_PER_THREAD]` array. hipCUB declares the same functions.

use super::cub::{CubClass, Kind};
use super::templates::TArg;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::Ty;
use crate::KernelError;

/// The four functions: name, load (else store), striped (else blocked).
const FUNCTIONS: &[(&str, bool, bool)] = &[
    ("LoadDirectBlocked", true, false),
    ("LoadDirectStriped", true, true),
    ("StoreDirectBlocked", false, false),
    ("StoreDirectStriped", false, true),
];

/// Most items per thread (each is one statement of the lowered function), as `BlockLoad`.
const MAX_ITEMS: u64 = 256;

impl Parser<'_> {
    /// A call of one of the direct load/store functions at the current token (qualified by
    /// `cub::` or `hipcub::`, or bare where the source defines no function of that name):
    /// the call of its device function; `None` (nothing read) otherwise.
    ///
    /// # Errors
    /// A striped form without `<BLOCK_THREADS>`, `items` that is no local array of a constant
    /// bound, a wrong number of arguments.
    pub(super) fn cub_direct_call(&mut self) -> PResult<Option<Expr>> {
        let qualified = matches!(self.peek(0), Tok::Ident(w) if w == "cub" || w == "hipcub")
            && matches!(self.peek(1), Tok::Punct("::"));
        let k = if qualified { 2 } else { 0 };
        let Tok::Ident(name) = self.peek(k) else {
            return Ok(None);
        };
        let Some(&(fname, load, striped)) = FUNCTIONS.iter().find(|(n, _, _)| n == name) else {
            return Ok(None);
        };
        if !matches!(self.peek(k + 1), Tok::Punct("(" | "<"))
            || (!qualified
                && (self.fn_types.contains_key(fname) || self.templates.contains_key(fname)))
        {
            return Ok(None);
        }
        let at = self.span();
        for _ in 0..=k {
            self.bump();
        }
        let refuse = |msg: String| Err(KernelError::new(at.line, at.col, msg));
        let mut threads = None;
        if self.eat("<") {
            let no_gt = std::mem::replace(&mut self.no_gt, true);
            let first = self.template_arg();
            self.no_gt = no_gt;
            // Further arguments (`T`, `ITEMS_PER_THREAD`) are deduced from `items` here.
            while self.eat(",") {
                let no_gt = std::mem::replace(&mut self.no_gt, true);
                let r = self.template_arg();
                self.no_gt = no_gt;
                r?;
            }
            if !self.close_angle() {
                return self.err("`>`");
            }
            match first?.untyped() {
                TArg::Value(n) if striped && (1..=1024).contains(&n) => threads = Some(n as u32),
                _ if striped => {
                    return refuse(format!(
                        "cub::{fname}<BLOCK_THREADS>: BLOCK_THREADS must be a constant in 1..=1024"
                    ))
                }
                _ => {}
            }
        }
        if striped && threads.is_none() {
            return refuse(format!(
                "cub::{fname} takes the block's threads as its first template argument: write \
                 cub::{fname}<BLOCK_THREADS>(linear_tid, ptr, items)"
            ));
        }
        self.expect_punct("(")?;
        let args = self.args_closed_by(")")?;
        let most = if load { 5 } else { 4 };
        if args.len() < 3 || args.len() > most {
            return refuse(format!(
                "cub::{fname} takes (linear_tid, ptr, items{})",
                if load {
                    "[, valid_items[, oob_default]]"
                } else {
                    "[, valid_items]"
                }
            ));
        }
        let items = match &args[2].kind {
            ExprKind::Ident(n) => match (self.var_type(n), self.array_len(n)) {
                (Some(Ty::Ptr(elem)), Some(len))
                    if elem.lanes == 1 && (1..=MAX_ITEMS).contains(&len) =>
                {
                    Some((elem, len as u32))
                }
                _ => None,
            },
            _ => None,
        };
        let Some((elem, len)) = items else {
            return refuse(format!(
                "cub::{fname}'s items must be the thread's local array of scalars with a \
                 constant bound (`float items[4]`, at most {MAX_ITEMS})"
            ));
        };
        let c = CubClass {
            kind: if load {
                Kind::BlockLoad
            } else {
                Kind::BlockStore
            },
            elem,
            record: None,
            // Blocked: the stride is the items; the threads count only for the striped form.
            threads: threads.unwrap_or(1),
            items: len,
            alg: if striped {
                "BLOCK_LOAD_STRIPED".into()
            } else {
                "BLOCK_LOAD_DIRECT".into()
            },
            value: None,
        };
        let f = self.cub_load_fn(&c, args.len() - 3, true, at);
        self.node(ExprKind::Call(f, args), at).map(Some)
    }
}
