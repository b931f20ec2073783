//! crosslane-core's integration tests, one program (`cargo test -p crosslane-core --test suite`),
//! one module per subject.

mod kernel_replay;
