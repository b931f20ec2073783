//! What is built on the dialects: one call as typed ([`request`]), the reference entries
//! ([`reference`](mod@reference)), one shuffle under five dialects ([`portability`]), export as code
//! ([`codegen`]), the sorting network ([`network`]), the versioned scenario and its URL
//! ([`scenario`], [`permalink`]). The kernel interpreter is the crate `crosslane-kernel`, which
//! depends on this one.

pub mod codegen;
pub mod fields;
pub mod network;
pub mod permalink;
pub mod portability;
pub mod reference;
pub mod request;
pub mod scenario;
