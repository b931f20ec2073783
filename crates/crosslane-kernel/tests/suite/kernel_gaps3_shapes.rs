//! Shapes of public code that crosslane refused or read by another rule: HIP's
//! `__match_any_sync` on floating-point values (compared with `==`, as ROCm's header does),
//! inline PTX loads and stores with a memory order and scope or 8- and 16-bit elements, and an
//! enum parameter given by its enumerator's name. Kernels written here; expected values from
//! the documents cited at each test and the models beside them.

use crate::support::{ints, no_errors, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

/// Lane `t`'s value: `t % 4` picks +0.0, -0.0, a NaN, 1.5.
const MATCH_SIGNED_ZERO: &str = "\
__global__ void k(unsigned long long* any, int* pred_out) {
  int t = threadIdx.x;
  float v = (t % 4 == 0) ? 0.0f : (t % 4 == 1) ? -0.0f : (t % 4 == 2) ? __int_as_float(0x7fc00000) : 1.5f;
  any[t] = __match_any_sync(MASK, v);
  double z = (t % 2 == 0) ? 0.0 : -0.0;
  int pred = -1;
  any[blockDim.x + t] = __match_all_sync(MASK, z, &pred);
  pred_out[t] = pred;
}";

fn match_run(dialect: Dialect, mask: &str) -> (Vec<Option<i128>>, Vec<Option<i128>>) {
    let mut config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(32),
        block_dim: Some([32, 1, 1]),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("any".into(), 64);
    config.buffer_len.insert("pred_out".into(), 32);
    let src = MATCH_SIGNED_ZERO.replace("MASK", mask);
    let t = run_finished(&src, config);
    no_errors(&t);
    (ints(&t, "any"), ints(&t, "pred_out"))
}

/// HIP: ROCm's amd_warp_sync_functions.h compares the lanes' values with `==` on `T`, so
/// +0.0 and -0.0 match and a NaN matches no lane, not even itself. Python model:
/// `v = [0.0, -0.0, nan, 1.5][t % 4]`; `any[t] = sum(1 << j for j in range(32) if v[j] ==
/// v[t])`: lanes 0,1 mod 4 → 0x33333333, NaN lanes → 0, 1.5 lanes → 0x88888888; the
/// `double` ±0 of every lane all compare equal: mask 0xffffffff, pred 1.
#[test]
fn hip_match_on_floats_compares_values() {
    let (any, pred) = match_run(Dialect::Hip, "~0ull");
    for t in 0..32 {
        let want = match t % 4 {
            0 | 1 => 0x3333_3333,
            2 => 0,
            _ => 0x8888_8888,
        };
        assert_eq!(any[t], Some(want), "lane {t}");
        assert_eq!(any[32 + t], Some(0xffff_ffff), "all, lane {t}");
        assert_eq!(pred[t], Some(1), "pred, lane {t}");
    }
}

/// CUDA: `__match_any_sync` for `float`/`double` is `match.sync.any.b32`/`.b64` on the value's
/// bits (PTX ISA, "match.sync": the operand types are `.b32` and `.b64`), so +0.0 and -0.0
/// differ and the one NaN pattern matches itself. Python model with `struct.pack('<f', v)` as
/// the key: lanes 0 mod 4 → 0x11111111, 1 mod 4 → 0x22222222, 2 mod 4 → 0x44444444, 3 mod 4 →
/// 0x88888888; the `double` ±0 differ: mask 0, pred 0.
#[test]
fn cuda_match_on_floats_compares_bits() {
    let (any, pred) = match_run(Dialect::Cuda, "0xffffffffu");
    for t in 0..32 {
        assert_eq!(any[t], Some(0x1111_1111 << (t % 4)), "lane {t}");
        assert_eq!(any[32 + t], Some(0), "all, lane {t}");
        assert_eq!(pred[t], Some(0), "pred, lane {t}");
    }
}

/// Memory-ordered and 8/16-bit inline PTX loads and stores (PTX ISA, `ld`/`st`; "Memory
/// Consistency Model": the order qualifiers change no value one thread reads or writes;
/// a narrow load "is sign-extended or zero-extended to the size of the destination register"
/// by the type). Four threads; `bytes = [250, 5, 128, 127]`, `halves = [65535, 1, 32768,
/// 32767]`, `flag[t] = 10 + t`, `data[t] = -t`. Python model:
/// `u8 = b`, `s8 = b - 256 if b > 127 else b`, `s16 = h - 65536 if h > 32767 else h`;
/// the stores write `flag + 1` and the low byte of `0x1234 + t`; a `.b32` load into a `float`
/// register moves the bits (`.b` types are untyped, PTX ISA "Fundamental Types"): `bits =
/// [0x3f800000, 0x3fc00000, 0xc0000000, 0]` are `struct.unpack('<f', …)` = 1.0, 1.5, -2.0, 0.0.
const PTX_MEM: &str = "\
__global__ void k(unsigned* flag, int* data, unsigned char* bytes, unsigned short* halves,
                  int* out, unsigned char* small, const unsigned* bits, float* fout) {
  int t = threadIdx.x;
  unsigned f; int d; unsigned b; int sb; unsigned short h; int sh;
  asm volatile(\"ld.acquire.gpu.u32 %0, [%1];\" : \"=r\"(f) : \"l\"(flag + t));
  asm volatile(\"ld.relaxed.gpu.global.s32 %0, [%1];\" : \"=r\"(d) : \"l\"(data + t));
  asm volatile(\"ld.global.u8 %0, [%1];\" : \"=r\"(b) : \"l\"(bytes + t));
  asm volatile(\"ld.global.s8 %0, [%1];\" : \"=r\"(sb) : \"l\"(bytes + t));
  asm volatile(\"ld.global.b16 %0, [%1];\" : \"=h\"(h) : \"l\"(halves + t));
  asm volatile(\"ld.global.s16 %0, [%1];\" : \"=r\"(sh) : \"l\"(halves + t));
  asm volatile(\"st.release.sys.b32 [%0], %1;\" :: \"l\"(out + 6 * t), \"r\"(f + 1) : \"memory\");
  asm volatile(\"st.relaxed.gpu.global.u8 [%0], %1;\" :: \"l\"(small + t), \"r\"(0x1234 + t));
  float fb;
  asm volatile(\"ld.global.nc.b32 %0, [%1];\" : \"=f\"(fb) : \"l\"(bits + t));
  fout[t] = fb;
  out[6 * t + 1] = d;
  out[6 * t + 2] = (int)b;
  out[6 * t + 3] = sb;
  out[6 * t + 4] = (int)h;
  out[6 * t + 5] = sh;
}";

#[test]
fn ptx_ordered_and_narrow_loads_and_stores_run() {
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    for (name, len, fill) in [
        ("flag", 4, "10,11,12,13"),
        ("data", 4, "0,-1,-2,-3"),
        ("bytes", 4, "250,5,128,127"),
        ("halves", 4, "65535,1,32768,32767"),
        ("out", 24, "0"),
        ("small", 4, "0"),
        ("bits", 4, "1065353216,1069547520,3221225472,0"),
        ("fout", 4, "0"),
    ] {
        config.buffer_len.insert(name.into(), len);
        config.args.insert(name.into(), fill.into());
    }
    let t = run_finished(PTX_MEM, config);
    no_errors(&t);
    let want: Vec<Option<i128>> = [
        [11, 0, 250, -6, 65535, -1],
        [12, -1, 5, 5, 1, 1],
        [13, -2, 128, -128, 32768, -32768],
        [14, -3, 127, 127, 32767, 32767],
    ]
    .iter()
    .flatten()
    .map(|&v| Some(v))
    .collect();
    assert_eq!(ints(&t, "out"), want);
    assert_eq!(
        ints(&t, "small"),
        vec![Some(0x34), Some(0x35), Some(0x36), Some(0x37)]
    );
    assert_eq!(
        crate::support::floats(&t, "fout"),
        vec![Some(1.0), Some(1.5), Some(-2.0), Some(0.0)]
    );
}

/// PTX has no `ld.release` or `st.acquire` (PTX ISA, `ld`: `.relaxed`/`.acquire`; `st`:
/// `.relaxed`/`.release`), and a `.local` window address is no C++ pointer: both refused by
/// name before the run (`.shared` ones run: suite `kernel_shared_window`).
#[test]
fn ptx_forms_that_do_not_exist_or_are_not_run_are_refused() {
    for (asm, words) in [
        ("ld.release.gpu.u32 %0, [%1];", "PTX has no `ld.release`"),
        ("ld.local.u32 %0, [%1];", "`.local` state space"),
    ] {
        let src = format!(
            "__global__ void k(unsigned* p, unsigned* out) {{\n  unsigned v;\n  \
             asm volatile(\"{asm}\" : \"=r\"(v) : \"l\"(p));\n  out[threadIdx.x] = v;\n}}"
        );
        let e = crosslane_kernel::run_kernel(&src, crate::support::block(32)).expect_err("refused");
        assert!(e.message.contains(words), "{asm}: {e}");
        assert_eq!(e.line, 3, "{asm}: {e}");
    }
}

/// An enum parameter set by its enumerator's name, qualified or not, or by its value (ISO C++
/// [dcl.enum]/2: `Max` is the constant 5 of `Op`): `out = op * 10`.
#[test]
fn an_enum_parameter_takes_an_enumerator_name() {
    let src = "enum class Op { Sum, Xor = 2, Max = 5 };
__global__ void k(Op op, int* out) { out[threadIdx.x] = (int)op * 10; }";
    for (arg, want) in [("Op::Max", 50), ("Xor", 20), ("5", 50), ("Op::Sum", 0)] {
        let mut config = crate::support::block(32);
        config.args.insert("op".into(), arg.into());
        config.buffer_len.insert("out".into(), 32);
        let t = run_finished(src, config);
        no_errors(&t);
        assert_eq!(ints(&t, "out"), vec![Some(want); 32], "--arg op={arg}");
    }
}

/// A block size host code reads from `argv` with a default (`argc > 1 ? atoi(argv[1]) :
/// 64`): `main` is read as run with no arguments (C++17 [basic.start.main]/2: `argc` is 1,
/// `argv[0]` the program's name), so the block is the default 64, said in a note.
#[test]
fn a_block_size_from_argv_takes_the_default_branch() {
    let src =
        "__global__ void k(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }
int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 64;
  int* d;
  cudaMalloc(&d, 2 * threads * sizeof(int));
  k<<<2, threads>>>(d);
  return 0;
}";
    let t = crate::support::run_default(src);
    no_errors(&t);
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    let want: Vec<Option<i128>> = (0..128).map(|i| Some(i % 64)).collect();
    assert_eq!(ints(&t, "out"), want);
    assert!(
        crate::support::has(
            &t,
            crosslane_core::result::Level::Info,
            "`argc` is 1 here: `main` is read as run with no command-line arguments"
        ),
        "{:?}",
        t.all_diagnostics().map(|d| &d.message).collect::<Vec<_>>()
    );
}
