//! How the kernel tests read a buffer: each memory cell as an integer.

/// Each memory cell as an integer (`None` where never written or undefined): how the kernel
/// tests compare a buffer with its documented result.
pub fn cell_ints(cells: &[Option<crosslane_kernel::KVal>]) -> Vec<Option<i128>> {
    cells
        .iter()
        .map(|c| c.as_ref().and_then(crosslane_kernel::KVal::as_int))
        .collect()
}
