//! `memcpy`/`memset` in device code: the forms refused before the run, each at its line with
//! what to write instead. What runs is pinned by the snapshot `cxx_memcpy_bytes.cu`.

use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, LaunchConfig};

fn launch() -> LaunchConfig {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("o".into(), 1);
    c.args.insert("o".into(), "zero".into());
    c
}

#[test]
fn memcpy_forms_the_front_end_cannot_lower_are_refused_at_their_line() {
    for (body, line, needle) in [
        // The count decides which scalars are written: it must be known before the run.
        (
            "  float f;\n  int b = 1;\n  memcpy(&f, &b, n);",
            5,
            "byte count must be a constant",
        ),
        // 2 bytes end inside the 4-byte float.
        (
            "  float f;\n  int b = 1;\n  memcpy(&f, &b, 2);",
            5,
            "ends inside a 4-byte scalar",
        ),
        // `P` has 3 padding bytes after `c` ([basic.align]: `int` aligns to 4).
        (
            "  P p;\n  p.c = 1;\n  p.i = 2;\n  unsigned long long u;\n  memcpy(&u, &p, 8);",
            7,
            "reads padding bytes",
        ),
        // 4 bytes from a 2-byte source.
        (
            "  float f;\n  short s = 1;\n  memcpy(&f, &s, 4);",
            5,
            "reads past the end of the source",
        ),
    ] {
        let src = format!(
            "struct P {{ char c; int i; }};\n__global__ void k(int* o, int n) {{\n{body}\n  o[0] = 1;\n}}"
        );
        let e = run_kernel(&src, launch()).expect_err(&src);
        assert_eq!(e.line, line, "{src}: {}", e.message);
        assert!(e.message.contains(needle), "{src}: {}", e.message);
    }
}
