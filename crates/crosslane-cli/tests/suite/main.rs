//! The crate's integration tests folded into one program (one `mod` per former test file).

mod wgsl;
