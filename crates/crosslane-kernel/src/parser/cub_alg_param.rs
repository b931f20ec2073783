//! A CUB algorithm as a template parameter of the user's own template (`template <int
//! BLOCK_THREADS, cub::BlockReduceAlgorithm ALGORITHM> __global__ void k(…)`, CUB API,
//! `cub::BlockReduceAlgorithm` / `cub::BlockScanAlgorithm` / `BlockLoadAlgorithm` /
//! `BlockStoreAlgorithm` / `BlockHistogramAlgorithm`, and the warp collectives'
//! `WarpLoadAlgorithm` / `WarpStoreAlgorithm` / `WarpExchangeAlgorithm`; hipCUB the same under
//! `hipcub::`): the
//! parameter is bound to the enumerator's name (`cub::BLOCK_REDUCE_RAKING`), which each use of
//! the parameter in the instance names, so `cub::BlockReduce<int, BLOCK_THREADS, ALGORITHM>`
//! reads as the collective with that algorithm (`parser/cub.rs`, whose orders and notes are
//! [`super::cub_raking`]'s).

use super::Parser;
use crate::lexer::Tok;

/// The CUB enumeration types an algorithm template parameter may have.
const ALGORITHM_TYPES: &[&str] = &[
    "BlockReduceAlgorithm",
    "BlockScanAlgorithm",
    "BlockLoadAlgorithm",
    "BlockStoreAlgorithm",
    "BlockHistogramAlgorithm",
    "WarpLoadAlgorithm",
    "WarpStoreAlgorithm",
    "WarpExchangeAlgorithm",
];

/// The prefixes of those enumerations' enumerators.
const ALGORITHM_PREFIXES: &[&str] = &[
    "BLOCK_REDUCE_",
    "BLOCK_SCAN_",
    "BLOCK_LOAD_",
    "BLOCK_STORE_",
    "BLOCK_HISTO_",
    "WARP_LOAD_",
    "WARP_STORE_",
    "WARP_EXCHANGE_",
];

impl Parser<'_> {
    /// Tokens from `k` on that name a CUB algorithm type (`cub::BlockReduceAlgorithm`,
    /// `::cub::…`, `hipcub::…`, the bare name): how many.
    fn cub_algorithm_type_len(&self, k: usize) -> Option<usize> {
        let mut j = k;
        if matches!(self.peek(j), Tok::Punct("::")) {
            j += 1;
        }
        while matches!(self.peek(j), Tok::Ident(w) if w == "cub" || w == "hipcub")
            && matches!(self.peek(j + 1), Tok::Punct("::"))
        {
            j += 2;
        }
        match self.peek(j) {
            Tok::Ident(w) if ALGORITHM_TYPES.contains(&w.as_str()) => Some(j + 1 - k),
            _ => None,
        }
    }

    /// A template parameter of a CUB algorithm type at the position (`cub::BlockReduceAlgorithm
    /// ALGORITHM`): its name, the position after it. `None` (position kept) otherwise.
    pub(super) fn cub_algorithm_tparam(&mut self) -> Option<String> {
        let n = self.cub_algorithm_type_len(0)?;
        let Tok::Ident(name) = self.peek(n).clone() else {
            return None;
        };
        if !matches!(self.peek(n + 1), Tok::Punct("," | ">" | ">>")) {
            return None;
        }
        self.pos += n + 1;
        Some(name)
    }

    /// A CUB algorithm enumerator as a template argument at the position
    /// (`cub::BLOCK_REDUCE_RAKING`, `hipcub::BLOCK_SCAN_WARP_SCANS`, the bare name, or
    /// `cub::BlockReduceAlgorithm::BLOCK_REDUCE_RAKING`): the enumerator's name, the position
    /// after it. `None` (position kept) otherwise.
    pub(super) fn cub_algorithm_targ(&mut self) -> Option<String> {
        let save = self.pos;
        if matches!(self.peek(0), Tok::Punct("::")) {
            self.bump();
        }
        self.skip_cub_ns();
        if let Some(n) = self.cub_algorithm_type_len(0) {
            if matches!(self.peek(n), Tok::Punct("::")) {
                self.pos += n + 1;
            }
        }
        if let Tok::Ident(w) = self.peek(0).clone() {
            if ALGORITHM_PREFIXES.iter().any(|p| w.starts_with(p))
                && matches!(self.peek(1), Tok::Punct("," | ">" | ">>"))
            {
                self.bump();
                return Some(w);
            }
        }
        self.pos = save;
        None
    }
}
