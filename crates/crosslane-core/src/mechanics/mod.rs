//! The mechanics the dialects share, written once: the pull engine ([`gather`]), width segments
//! ([`segment`]), AMD DPP rows and banks ([`dpp`], reused by MetaX), the LDS-crossbar permutes
//! ([`permute`], AMD and MetaX), lane arithmetic where undefined propagates ([`arith`]) and a
//! step's data movement replayed on raw bits ([`plan`]). They import the vocabulary only.

pub mod arith;
pub mod dpp;
pub mod gather;
pub mod permute;
pub mod plan;
pub mod segment;
