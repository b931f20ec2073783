//! Opening the native device once per test binary, with the CI rule: no adapter is a failure
//! unless `CROSSLANE_GPU_TESTS=skip`.

use std::sync::OnceLock;

use crosslane_gpu::native::NativeGpu;

static GPU: OnceLock<Option<NativeGpu>> = OnceLock::new();

/// The device, or `None` when it is missing and the environment asks to skip.
///
/// # Panics
/// When no device opens and `CROSSLANE_GPU_TESTS` is not `skip`: GPU tests must not pass silently.
pub fn gpu() -> Option<&'static NativeGpu> {
    GPU.get_or_init(|| match NativeGpu::new() {
        Ok(g) => {
            eprintln!("GPU tests on: {:?}", g.facts());
            Some(g)
        }
        Err(e) => {
            if std::env::var("CROSSLANE_GPU_TESTS").as_deref() == Ok("skip") {
                eprintln!("CROSSLANE_GPU_TESTS=skip: skipping GPU tests ({e})");
                None
            } else {
                panic!(
                    "GPU tests need a Vulkan adapter and found none: {e}. Install mesa-vulkan-drivers (lavapipe) or set CROSSLANE_GPU_TESTS=skip to skip them explicitly."
                );
            }
        }
    })
    .as_ref()
}
