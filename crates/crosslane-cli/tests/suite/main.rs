//! crosslane-cli integration tests, one program (new tests go here as modules).

mod real_kernels;
