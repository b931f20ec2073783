//! The overloadable operators a source may declare here (C++17 [over.oper]/1 lists them all;
//! the ones kept are those [`super::operators`] runs), shared by the member and free operator
//! parsers and by function templates of an operator ([`super::templates`]).

/// The operators a struct or a free function may declare here, each a single token after
/// `operator`.
pub(super) const SUPPORTED: &[&str] = &[
    "+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "<", ">", "<=", ">=", "==", "!=", "<<", ">>",
    "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<=", ">>=", "++", "--", "=",
];
