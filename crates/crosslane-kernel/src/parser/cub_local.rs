//! A CUB / hipCUB collective's `TempStorage` declared without `__shared__`, a thread's own
//! variable (`typename WarpScan::TempStorage t;` in a function body, also through a storage
//! alias `TS t;` or in a local `union { … } t;` of storages).
//!
//! CUB API reference, each collective's `TempStorage` ("The operations exposed by WarpScan
//! require a temporary memory allocation of this nested type for thread communication. This
//! opaque storage can be allocated directly using the `__shared__` keyword. Alternatively, it
//! can be aliased to externally allocated memory (shared or global) …"): a thread-local one is
//! outside that contract, and what the device does then depends on whether the class's
//! algorithm touches the storage at all.
//!
//! - `WarpReduce` and `WarpScan` over a logical warp of a power of two (the only ones read
//!   here) are CUB's `WarpReduceShfl` / `WarpScanShfl` (rocPRIM's `warp_reduce_shuffle` /
//!   `warp_scan_shuffle` for hipCUB), whose storage type is empty: the lanes exchange values
//!   by shuffles, so a thread-local storage gives the device's result. They run, with a
//!   warning naming the documented declaration.
//! - `BlockLoad` / `BlockStore` / `WarpLoad` / `WarpStore` of a direct, striped or vectorized
//!   arrangement keep no storage either (CUB's `LoadInternal` / `StoreInternal` of those
//!   algorithms declare `NullType` storage): they run, with the same warning.
//! - Every other collective (block reductions and scans, the transposing loads and stores,
//!   the exchanges, the radix sort) passes partials between threads through the storage; with
//!   each thread's own copy a thread reads cells no other thread wrote. These are refused at
//!   the declaration, naming the `__shared__` declaration to write.

use super::cub::{CubClass, Kind};
use super::{PResult, Parser};
use crate::ast::{Span, StmtKind};
use crate::lexer::Tok;
use crate::KernelError;
use crosslane_core::result::Level;

/// The rule the warning and the refusal cite.
const RULE: &str = "CUB API reference, the collectives' TempStorage (allocated `__shared__`, \
                    or aliased to shared or global memory)";

/// Whether `c`'s algorithm keeps nothing in its storage (so a thread's own copy is harmless).
fn storage_unused(c: &CubClass) -> bool {
    match c.kind {
        Kind::WarpReduce | Kind::WarpScan => true,
        Kind::BlockLoad | Kind::BlockStore => !c.alg.contains("TRANSPOSE"),
        _ => false,
    }
}

/// The class's name for messages.
fn class_name(c: &CubClass) -> &'static str {
    match c.kind {
        Kind::WarpReduce => "WarpReduce",
        Kind::BlockReduce => "BlockReduce",
        Kind::WarpScan => "WarpScan",
        Kind::BlockScan => "BlockScan",
        Kind::BlockLoad if c.alg.starts_with("WARP") => "WarpLoad",
        Kind::BlockLoad => "BlockLoad",
        Kind::BlockStore if c.alg.starts_with("WARP") => "WarpStore",
        Kind::BlockStore => "BlockStore",
        Kind::BlockRadixSort => "BlockRadixSort",
        Kind::Exchange => "BlockExchange / WarpExchange",
    }
}

impl Parser<'_> {
    /// Whether a storage declaration with no `__shared__` may start here: `typename R::`,
    /// `R::TempStorage`, a storage alias or a union type of storages followed by a name, or
    /// `union`/`struct` followed by `{`.
    pub(super) fn cub_local_storage_starts(&self) -> bool {
        let Tok::Ident(w) = self.peek(0) else {
            return false;
        };
        match w.as_str() {
            "typename" => {
                matches!(self.peek(1), Tok::Ident(r) if self.cub.contains_key(r))
                    || matches!(self.peek(1), Tok::Ident(n) if n == "cub" || n == "hipcub")
            }
            "union" | "struct" => {
                matches!(self.peek(1), Tok::Punct("{")) && self.braces_hold_temp_storage(1)
            }
            r if self.cub.contains_key(r) => {
                matches!(self.peek(1), Tok::Punct("::"))
                    && matches!(self.peek(2), Tok::Ident(t) if t == "TempStorage")
            }
            t if self.cub_storage_types.contains_key(t) || self.cub_union_types.contains_key(t) => {
                matches!(self.peek(1), Tok::Ident(_))
                    && matches!(self.peek(2), Tok::Punct(";" | "["))
            }
            _ => false,
        }
    }

    /// Whether the braces at token `k` from here hold the word `TempStorage`.
    fn braces_hold_temp_storage(&self, k: usize) -> bool {
        let open = self.pos + k;
        let Some(close) = self.closing(open) else {
            return false;
        };
        self.toks[open..close]
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "TempStorage"))
    }

    /// A statement declaring a `TempStorage`: `__shared__` ([`Parser::cub_temp_storage`]) or
    /// not ([`Self::cub_local_storage`]); `None` (position kept) for another statement.
    ///
    /// # Errors
    /// As those.
    pub(super) fn cub_storage_stmt(&mut self) -> PResult<Option<StmtKind>> {
        if self.is_word("__shared__") {
            self.cub_temp_storage()
        } else {
            self.cub_local_storage()
        }
    }

    /// A `TempStorage` (or a union of them) declared without `__shared__`: the declaration
    /// as a thread's own variable when its collective keeps nothing in it (with a warning),
    /// `None` (position kept) when no storage is declared here.
    ///
    /// # Errors
    /// A collective whose threads exchange through the storage (see the module's notes), a
    /// malformed declaration.
    pub(super) fn cub_local_storage(&mut self) -> PResult<Option<StmtKind>> {
        self.cub_local = true;
        let r = self.cub_temp_storage();
        self.cub_local = false;
        Ok(r?.map(|k| match k {
            StmtKind::Decl(mut st, d) => {
                st.shared = false;
                StmtKind::Decl(st, d)
            }
            k => k,
        }))
    }

    /// For a storage `name` of `c` declared without `__shared__` (at `at`): the warning when
    /// the collective keeps nothing in it, else the refusal.
    ///
    /// # Errors
    /// A collective whose threads exchange partials through the storage.
    pub(super) fn cub_local_check(&mut self, c: &CubClass, name: &str, at: Span) -> PResult<()> {
        let class = class_name(c);
        if storage_unused(c) {
            self.diag(
                at,
                Level::Warning,
                format!(
                    "TempStorage `{name}` is each thread's own variable (no `__shared__`); CUB \
                     documents it as allocated `__shared__` or aliased to shared or global \
                     memory. This {class} keeps nothing in its storage (CUB's shuffle and \
                     direct variants), so it runs as on the device; write `__shared__` to keep \
                     to the documented use"
                ),
                RULE,
            );
            return Ok(());
        }
        Err(KernelError::new(
            at.line,
            at.col,
            format!(
                "TempStorage `{name}` is each thread's own variable (no `__shared__`), but a \
                 {class}'s threads exchange their partials through its storage, so each would \
                 read cells no other thread wrote; CUB's API reference has a TempStorage \
                 allocated `__shared__` or aliased to shared or global memory: declare it \
                 `__shared__ typename R::TempStorage {name};`"
            ),
        ))
    }
}
