//! The warp reduce intrinsics exist from compute capability 8.0 (CUDA C++ Programming Guide,
//! Warp Reduce Functions: "supported by devices of compute capability 8.x or higher"): under
//! `--arch sm_70` a call is refused at its line, naming the section; at sm_80 it runs
//! (Σ of lane·2 over 32 lanes = 2·496 = 992 in every lane, by hand). The warp match
//! intrinsics likewise exist from 7.0 (Warp Match Functions: "supported by devices of compute
//! capability 7.x or higher").

use crate::support::{ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;

const REDUCE: &str = "\
__global__ void k(unsigned* o) {
  unsigned v = threadIdx.x * 2;
  o[threadIdx.x] = __reduce_add_sync(0xffffffffu, v) + __reduce_max_sync(0xffffffffu, v) * 0u;
}";

fn at(arch: &str) -> crosslane_kernel::LaunchConfig {
    let mut c = launch(Dialect::Cuda, 32, &[("o", 32, "zero")]);
    c.preprocess.arch = Some(arch.into());
    c
}

#[test]
fn warp_reduce_below_sm80_is_refused() {
    for arch in ["sm_70", "sm_75", "sm_60"] {
        let e = refused(REDUCE, at(arch));
        assert!(e.contains("3:20"), "{arch}: {e}");
        assert!(e.contains("`__reduce_add_sync`"), "{arch}: {e}");
        assert!(e.contains("Warp Reduce Functions"), "{arch}: {e}");
        assert!(e.contains("--arch sm_80"), "{arch}: {e}");
    }
}

#[test]
fn warp_reduce_at_sm80_and_later_runs() {
    for arch in ["sm_80", "sm_90"] {
        let t = run_finished(REDUCE, at(arch));
        assert_eq!(ints(&t, "o"), vec![Some(992); 32], "{arch}");
    }
}

const MATCH: &str = "\
__global__ void k(unsigned* o) {
  unsigned v = threadIdx.x % 4;
  o[threadIdx.x] = __match_any_sync(0xffffffffu, v);
}";

#[test]
fn warp_match_below_sm70_is_refused() {
    for arch in ["sm_60", "sm_61", "sm_52"] {
        let e = refused(MATCH, at(arch));
        assert!(e.contains("3:20"), "{arch}: {e}");
        assert!(e.contains("`__match_any_sync`"), "{arch}: {e}");
        assert!(e.contains("Warp Match Functions"), "{arch}: {e}");
        assert!(e.contains("--arch sm_70"), "{arch}: {e}");
    }
}

/// Lanes with the same `lane % 4` match: lane l's mask is 0x11111111 << (l % 4) (by hand).
#[test]
fn warp_match_at_sm70_and_later_runs() {
    for arch in ["sm_70", "sm_80"] {
        let t = run_finished(MATCH, at(arch));
        let want: Vec<_> = (0..32).map(|l| Some(0x1111_1111_i128 << (l % 4))).collect();
        assert_eq!(ints(&t, "o"), want, "{arch}");
    }
}
