//! crosslane-web's native integration tests, one program (`cargo test -p crosslane-web --test
//! suite`), one module per subject.

mod codegen_cpp;
mod codegen_wgsl;
mod golden_lanes;
mod worker_session;
