//! Ascend C SIMT forms of the vendor's samples that a run once refused or misread: the lane-id
//! functions (`laneid`, `lanemask_eq/lt/le/gt/ge`), the `asc_atomic_*` family, objects declared
//! `__ubuf__` in a kernel (the block's Unified Buffer, shared by its threads), blocks of up to
//! 2048 threads, and a host struct holding a `std::vector`. Expected values are derived by hand
//! from the CANN asc-devkit SIMT API reference's definitions, beside each assertion.

use crate::cells::cell_ints;
use crate::support::run_finished as run;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig};

fn config(threads: usize, args: &[(&str, &str)]) -> LaunchConfig {
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Ascend),
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    for (k, v) in args {
        config.args.insert((*k).into(), (*v).into());
    }
    config
}

/// laneid(): the lane in [0, 31]; lanemask_xx(): bit k set for the lanes k that are equal to,
/// below, at most, above, at least the caller's lane, over all 32 lanes, returned as int32_t.
#[test]
fn lane_id_functions_give_the_lane_and_its_masks() {
    let src = "\
#include \"simt_api/device_functions.h\"
__global__ __launch_bounds__(64) void lanes(int32_t* id, uint32_t* eq, uint32_t* lt, uint32_t* le,
                                            uint32_t* gt, uint32_t* ge, int32_t* neg) {
    uint32_t t = threadIdx.x;
    id[t] = laneid();
    eq[t] = (uint32_t)lanemask_eq();
    lt[t] = (uint32_t)lanemask_lt();
    le[t] = (uint32_t)lanemask_le();
    gt[t] = (uint32_t)lanemask_gt();
    ge[t] = (uint32_t)lanemask_ge();
    neg[t] = lanemask_eq() < 0;
}";
    let t = run(src, config(64, &[]));
    let get = |n: &str| cell_ints(t.buffer(n).unwrap());
    for th in 0..64usize {
        let l = (th % 32) as u32;
        let below = ((1u64 << l) - 1) as u32;
        let at_or_below = ((2u64 << l) - 1) as u32;
        assert_eq!(get("id")[th], Some(i128::from(l)));
        assert_eq!(get("eq")[th], Some(i128::from(1u32 << l)));
        assert_eq!(get("lt")[th], Some(i128::from(below)));
        assert_eq!(get("le")[th], Some(i128::from(at_or_below)));
        assert_eq!(get("gt")[th], Some(i128::from(!at_or_below)));
        assert_eq!(get("ge")[th], Some(i128::from(!below)));
        // int32_t: lane 31's single bit is the sign bit.
        assert_eq!(get("neg")[th], Some(i128::from(l == 31)));
    }
}

/// A function of the source named `laneid` is the source's: the built-in reading applies only
/// where no declaration has the name.
#[test]
fn a_source_function_named_laneid_is_called_as_written() {
    let src = "\
__simt_callee__ inline int32_t laneid() { return 7; }
__global__ void k(int32_t* d) { d[threadIdx.x] = laneid(); }";
    let t = run(src, config(32, &[]));
    assert_eq!(cell_ints(t.buffer("d").unwrap()), vec![Some(7); 32]);
}

/// The atomics return the cell's value before them and apply in lane order here (the reference:
/// the order between threads is not fixed; each lane gets the value before its own). Eight
/// threads, t = 0..7.
#[test]
fn asc_atomic_functions_update_the_cells() {
    let src = "\
#include \"simt_api/device_atomic_functions.h\"
__global__ void atomics(uint32_t* cnt, int32_t* ival, uint32_t* ring, uint32_t* slots,
                        uint32_t* down, uint32_t* owner, uint32_t* won, uint32_t* bits,
                        uint64_t* wide, uint64_t* wslots) {
    uint32_t t = threadIdx.x;
    asc_atomic_add(&cnt[0], t);
    asc_atomic_sub(&cnt[1], 3u);
    asc_atomic_max(&ival[0], (int32_t)t * 3 - 10);
    asc_atomic_min(&ival[1], (int32_t)t - 4);
    slots[t] = asc_atomic_inc(&ring[0], 2u);
    down[t] = asc_atomic_dec(&ring[1], 2u);
    uint32_t old = asc_atomic_cas(&owner[0], 0u, 100u + t);
    won[t] = (old == 0u) ? 1u : 0u;
    asc_atomic_or(&bits[0], 1u << t);
    asc_atomic_and(&bits[1], ~(1u << t));
    asc_atomic_xor(&bits[2], 1u << (t % 4));
    asc_atomic_exch(&bits[3], t + 40u);
    wslots[t] = asc_atomic_inc(&wide[0], (uint64_t)5);
    asc_atomic_add(&wide[1], (uint64_t)1 << 40);
}";
    let mut c = config(8, &[]);
    for (name, fill, len) in [
        ("cnt", "0,100", 2),
        ("ival", "-5,0", 2),
        ("ring", "0,0", 2),
        ("slots", "zero", 8),
        ("down", "zero", 8),
        ("owner", "0", 1),
        ("won", "zero", 8),
        ("bits", "0,65535,0,0", 4),
        ("wide", "0,0", 2),
        ("wslots", "zero", 8),
    ] {
        c.args.insert(name.into(), fill.into());
        c.buffer_len.insert(name.into(), len);
    }
    let t = run(src, c);
    let get = |n: &str| cell_ints(t.buffer(n).unwrap());
    let some = |v: &[i128]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
    // 0 + 1 + … + 7 = 28; 100 − 8·3 = 76.
    assert_eq!(get("cnt"), some(&[28, 76]));
    // max(−5, −10, −7, …, 11) = 11; min(0, −4, …, 3) = −4.
    assert_eq!(get("ival"), some(&[11, -4]));
    // inc with bound 2 from 0: old ≥ 2 gives 0, else old + 1: olds 0,1,2,0,1,2,0,1, last 2.
    // dec with bound 2 from 0: old 0 (or > 2) gives 2, else old − 1: olds 0,2,1,0,2,1,0,2,
    // last 1.
    assert_eq!(get("ring"), some(&[2, 1]));
    assert_eq!(get("slots"), some(&[0, 1, 2, 0, 1, 2, 0, 1]));
    assert_eq!(get("down"), some(&[0, 2, 1, 0, 2, 1, 0, 2]));
    // Lane 0 finds 0 and stores 100; every later lane finds 100.
    assert_eq!(get("owner"), some(&[100]));
    assert_eq!(get("won"), some(&[1, 0, 0, 0, 0, 0, 0, 0]));
    // or of bits 0..7 = 0xFF; 0xFFFF with bits 0..7 cleared = 0xFF00; each of bits 0..3
    // toggled twice = 0; the last exchange stores 47.
    assert_eq!(get("bits"), some(&[0xFF, 0xFF00, 0, 47]));
    // The uint64_t overload of inc, bound 5: olds 0,1,2,3,4,5,0,1, last 2; eight adds of 2^40.
    assert_eq!(get("wslots"), some(&[0, 1, 2, 3, 4, 5, 0, 1]));
    assert_eq!(get("wide"), some(&[2, 8 << 40]));
}

/// asc_atomic_add on a `half` cell updates it, but the reference forbids using the value it
/// returns ("half和bfloat16_t类型的返回值不准确，禁止直接使用"): undefined, with that reason.
#[test]
fn asc_atomic_add_on_half_returns_an_undefined_value() {
    let src = "\
__global__ void h(half* acc, float* out) {
    half r = asc_atomic_add(&acc[0], (half)1.0f);
    out[threadIdx.x] = (float)r;
}";
    let mut c = config(4, &[("acc", "0"), ("out", "zero")]);
    c.buffer_len.insert("acc".into(), 1);
    c.buffer_len.insert("out".into(), 4);
    let t = run(src, c);
    let acc = t.buffer("acc").unwrap();
    assert_eq!(acc[0].as_ref().and_then(KVal::as_f64), Some(4.0));
    assert!(t.buffer("out").unwrap().iter().all(Option::is_none));
    assert!(t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("return value is inaccurate")));
}

/// `extern __ubuf__ float part[]` and `__ubuf__ uint32_t last` are the block's Unified Buffer,
/// one object every thread of the block sees (asc-devkit's SIMT samples broadcast through
/// them); `__ubuf__ float* p` is a thread's own pointer into it.
#[test]
fn ubuf_objects_are_shared_by_the_block() {
    let src = "\
__global__ void k(float* in, float* out, uint32_t* flag) {
    extern __ubuf__ float part[];
    __ubuf__ uint32_t last;
    __ubuf__ float* p = part;
    uint32_t tid = threadIdx.x;
    float v = asc_reduce_add(in[tid]);
    if (laneid() == 0) {
        part[tid / 32] = v;
    }
    if (tid == 0) {
        last = 77;
    }
    asc_syncthreads();
    out[tid] = p[0] + p[1];
    flag[tid] = last;
}";
    let mut c = config(64, &[("in", "index"), ("out", "zero"), ("flag", "zero")]);
    c.shared_len = Some(2);
    let t = run(src, c);
    // Warp sums 0+…+31 = 496 and 32+…+63 = 1520: 2016 in every thread.
    let out = t.buffer("out").unwrap();
    assert!(out
        .iter()
        .all(|v| v.as_ref().and_then(KVal::as_f64) == Some(2016.0)));
    assert_eq!(cell_ints(t.buffer("flag").unwrap()), vec![Some(77); 64]);
}

/// asc_vf_call's threadNums: "线程总数=dimx*dimy*dimz，必须<=2048". A 2048-thread Ascend block
/// runs (64 warps); a CUDA block of 2048 is still refused.
#[test]
fn ascend_blocks_hold_up_to_2048_threads() {
    let src = "\
__simt_vf__ __launch_bounds__(2048) inline void k(__gm__ int32_t* d) {
    d[threadIdx.x] = asc_reduce_add(1) + (int32_t)(threadIdx.x / 32) * 100;
}";
    let t = run(src, config(2048, &[("d", "zero")]));
    let d = cell_ints(t.buffer("d").unwrap());
    assert_eq!(d.len(), 2048);
    for (i, v) in d.iter().enumerate() {
        assert_eq!(*v, Some(32 + (i as i128 / 32) * 100));
    }
    let cuda = "__global__ void k(int* d) { d[threadIdx.x] = 1; }";
    let mut c = config(2048, &[]);
    c.dialect = Some(Dialect::Cuda);
    let e = run_kernel(cuda, c).expect_err("2048 CUDA threads");
    assert!(e.message.contains("1..=1024"), "{}", e.message);
    let mut c = config(2049, &[]);
    c.dialect = Some(Dialect::Ascend);
    let e = run_kernel("__global__ void k(int* d) { d[threadIdx.x] = 1; }", c)
        .expect_err("2049 Ascend threads");
    assert!(e.message.contains("1..=2048"), "{}", e.message);
}

/// A host struct holding a `std::vector` (a sample's result type) is host code: skipped with a
/// note, the kernel runs.
#[test]
fn a_host_struct_with_a_vector_member_is_skipped() {
    let src = "\
#include <vector>
struct Result {
    std::vector<int> items;
    uint32_t count;
};
__global__ void k(int32_t* d) { d[threadIdx.x] = asc_shfl(laneid() * 2, 3); }
Result collect() { Result r; r.count = 0; return r; }";
    let t = run(src, config(32, &[("d", "zero")]));
    assert_eq!(cell_ints(t.buffer("d").unwrap()), vec![Some(6); 32]);
    assert!(t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("host code skipped")));
}

/// Host code in the shape of the asc-devkit samples: a `std::vector<float>` filled in a loop,
/// copied through a `uint8_t*` view of its storage (`reinterpret_cast<uint8_t*>(v.data())`,
/// the same address) with `aclrtMemcpy` into a `float` buffer: the buffer holds the vector's
/// values. A write through the view afterwards leaves the vector unknown (undefined cells).
#[test]
fn a_byte_view_of_a_filled_vector_copies_its_values() {
    let src = "\
#include <vector>
__global__ void twice(float* in, float* out) { out[threadIdx.x] = in[threadIdx.x] * 2.0f; }
int32_t main(int32_t argc, char* argv[]) {
    constexpr uint32_t n = 8;
    std::vector<float> host(n);
    for (uint32_t i = 0; i < n; i++) {
        host[i] = i % 3;
    }
    uint8_t* view = reinterpret_cast<uint8_t*>(host.data());
    float* d_in = nullptr;
    float* d_out = nullptr;
    size_t bytes = n * sizeof(float);
    aclrtMalloc((void**)&d_in, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&d_out, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    WRITE
    aclrtMemcpy(d_in, bytes, view, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    twice<<<1, n>>>(d_in, d_out);
    return 0;
}";
    let c = LaunchConfig {
        dialect: Some(Dialect::Ascend),
        ..LaunchConfig::default()
    };
    let t = run(&src.replace("WRITE", ""), c.clone());
    let out: Vec<Option<f64>> = t
        .buffer("out")
        .unwrap()
        .iter()
        .map(|v| v.as_ref().and_then(KVal::as_f64))
        .collect();
    // (i % 3) * 2 for i = 0..7.
    let want: Vec<Option<f64>> = (0..8).map(|i| Some(f64::from(i % 3) * 2.0)).collect();
    assert_eq!(out, want);
    let t = run(&src.replace("WRITE", "view[0] = 9;"), c);
    assert!(t.buffer("out").unwrap().iter().all(Option::is_none));
}
