//! Real-shaped CUDA, HIP, Ascend C and MACA kernels (`tests/kernels/`, written for this project
//! in the shapes public warp-level code uses) run through `crosslane run --json`. Each expected
//! buffer is computed here by an independent model of the vendor rule (a plain loop over lanes),
//! never copied from the emulator's output.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn kernel(rel: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "tests",
        "kernels",
        rel,
    ]
    .iter()
    .collect();
    p.to_string_lossy().into_owned()
}

/// `crosslane run KERNEL --json FLAGS…`, which must succeed.
pub(super) fn run(rel: &str, flags: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .arg("run")
        .arg(kernel(rel))
        .arg("--json")
        .args(flags)
        .output()
        .expect("the crosslane binary runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{rel}: stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The final values of global buffer `name` as i64 (panics on null).
pub(super) fn ints(trace: &Value, name: &str) -> Vec<i64> {
    values(trace, name)
        .iter()
        .map(|v| {
            v.as_i64()
                .unwrap_or_else(|| panic!("{name}: {v} is not an integer"))
        })
        .collect()
}

pub(super) fn values(trace: &Value, name: &str) -> Vec<Value> {
    trace["memory"]["buffers"]
        .as_array()
        .expect("buffers")
        .iter()
        .find(|b| b["name"] == name && b["space"]["space"] == "global")
        .unwrap_or_else(|| panic!("no global buffer `{name}`"))["values"]
        .as_array()
        .expect("values")
        .clone()
}

fn messages(trace: &Value) -> Vec<String> {
    trace["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["message"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Whether a diagnostic of the parse, the launch (top-level `diagnostics`) or a step says
/// `needle`.
fn has(trace: &Value, needle: &str) -> bool {
    let steps = trace["steps"].as_array().into_iter().flatten();
    let step_msgs = steps
        .flat_map(|s| s["diagnostics"].as_array().into_iter().flatten())
        .filter_map(|d| d["message"].as_str().map(str::to_string));
    messages(trace)
        .into_iter()
        .chain(step_msgs)
        .any(|m| m.contains(needle))
}

// ------------------------------------------------------------------ lane models

/// `__shfl_down(_sync)` over a warp of `w` lanes (PTX shfl.down: a source lane past the segment
/// end keeps its own value).
pub(super) fn shfl_down(v: &[i64], delta: usize, width: usize) -> Vec<i64> {
    (0..v.len())
        .map(|l| {
            let seg_end = (l / width + 1) * width;
            if l + delta < seg_end {
                v[l + delta]
            } else {
                v[l]
            }
        })
        .collect()
}

pub(super) fn shfl_xor(v: &[i64], mask: usize) -> Vec<i64> {
    (0..v.len()).map(|l| v[l ^ mask]).collect()
}

// ------------------------------------------------------------------ CUDA

#[test]
fn whole_file_launch_gives_grid_block_args_and_fill() {
    let t = run("cuda/warp_reduce_host.cu", &[]);
    assert_eq!(t["launch"]["entry"], "reduceWarps");
    assert_eq!(t["launch"]["grid_dim"], serde_json::json!([2, 1, 1]));
    assert_eq!(t["launch"]["block_dim"], serde_json::json!([64, 1, 1]));
    // h_in[i] = i % 7, copied to d_in: the per-warp sums of 32 consecutive cells.
    let input: Vec<i64> = (0..128).map(|i| i % 7).collect();
    assert_eq!(ints(&t, "in"), input);
    let sums: Vec<i64> = input.chunks(32).map(|c| c.iter().sum()).collect();
    assert_eq!(ints(&t, "out"), sums);
    assert!(has(
        &t,
        "host function `main` is read for its kernel launches (1 found)"
    ));
    assert!(has(&t, "n = 128"));
}

#[test]
fn scalar_args_come_from_the_launch_and_arg_overrides() {
    let model = |k: i64| -> Vec<i64> {
        let v: Vec<i64> = (0..64).map(|i| (2 * i + 1) * 3 + k).collect();
        let mut out = Vec::new();
        for warp in v.chunks(32) {
            out.extend(shfl_down(warp, 1, 32));
        }
        out
    };
    let t = run("cuda/scale_shift_args.cu", &[]);
    assert_eq!(ints(&t, "out"), model(5));
    let t = run("cuda/scale_shift_args.cu", &["--arg", "k=-2"]);
    assert_eq!(ints(&t, "out"), model(-2));
}

#[test]
fn ballot_popc_counts_per_warp() {
    let t = run("cuda/ballot_count.cu", &[]);
    // data = index (default fill), threshold 40 from the launch.
    let counts: Vec<i64> = (0..2)
        .map(|w| (w * 32..w * 32 + 32).filter(|&i| i > 40).count() as i64)
        .collect();
    assert_eq!(ints(&t, "counts"), counts);
    let t = run("cuda/ballot_count.cu", &["--arg", "threshold=10"]);
    assert_eq!(ints(&t, "counts"), vec![21, 32]);
}

#[test]
fn warp_inclusive_scan() {
    let t = run("cuda/inclusive_scan.cu", &["--buffer", "in=i*2+1"]);
    let mut acc = 0;
    let scan: Vec<i64> = (0..32)
        .map(|i| {
            acc += 2 * i + 1;
            acc
        })
        .collect();
    assert_eq!(ints(&t, "out"), scan);
}

#[test]
fn broadcast_needs_its_scalar_and_uses_it() {
    let t = run("cuda/broadcast_lane.cu", &[]);
    assert!(has(&t, "scalar parameter `srcLane` is not set"));
    let t = run(
        "cuda/broadcast_lane.cu",
        &["--arg", "srcLane=7", "--buffer", "in=i*2"],
    );
    assert!(!has(&t, "is not set"));
    let out: Vec<f64> = values(&t, "out")
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(out, vec![14.0; 32]);
}

#[test]
fn xor_butterfly_max_from_a_host_fill() {
    let t = run("cuda/butterfly_max.cu", &[]);
    let mut v: Vec<i64> = (0..32).map(|i| (i * 13) % 32).collect();
    assert_eq!(ints(&t, "in"), v);
    for m in [16, 8, 4, 2, 1] {
        let o = shfl_xor(&v, m);
        v = v.iter().zip(&o).map(|(a, b)| *a.max(b)).collect();
    }
    assert_eq!(ints(&t, "out"), v);
}

#[test]
fn legacy_shfl_runs_with_a_warning() {
    let t = run("cuda/legacy_shfl.cu", &[]);
    assert!(has(&t, "`__shfl_down` is the pre-CUDA-9 form"));
    assert_eq!(ints(&t, "out")[0], (0..32).sum::<i64>());
}

#[test]
fn unset_scalar_is_undefined_with_its_reason_and_arg_sets_it() {
    let t = run("cuda/unset_scalar.cu", &[]);
    let diag = t["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("`n` is not set"))
        .expect("a diagnostic naming n");
    assert_eq!(diag["level"], "warning");
    assert_eq!(diag["line"], 3);
    // Nobody set `n`: `v = threadIdx.x + n` is undefined in every lane, its reason naming `n`
    // and how to set it, and so is every cell stored from it (null in "values").
    let v = &t["steps"][0]["changes"][0];
    assert_eq!(v["name"], "v");
    let lanes = v["values"].as_array().unwrap();
    assert_eq!(lanes.len(), 32);
    for lane in lanes {
        assert!(lane["text"].is_null(), "{lane}");
        let why = lane["why"].as_str().unwrap();
        assert!(
            why.contains("`n` is not set") && why.contains("--arg n="),
            "{why}"
        );
    }
    assert!(values(&t, "out").iter().all(Value::is_null));
    assert!(has(&t, "stores undefined values in `out`"));
    let t = run("cuda/unset_scalar.cu", &["--arg", "n=100"]);
    assert_eq!(ints(&t, "out"), (100..132).collect::<Vec<i64>>());
    assert!(!has(&t, "is not set"));
}

#[test]
fn function_like_macros_expand() {
    let t = run("cuda/macros.cu", &["--buffer", "in=random:3"]);
    let v = ints(&t, "in");
    let down = shfl_down(&v, 1, 32);
    let want: Vec<i64> = (0..32)
        .map(|l| if l % 2 == 0 { v[l].min(down[l]) } else { v[l] })
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn extern_shared_sized_by_the_launch() {
    let t = run("cuda/block_reduce_extern_shared.cu", &[]);
    assert!(has(
        &t,
        "256 bytes of dynamic shared memory (64 cells of int)"
    ));
    let s0: i64 = (0..64).sum();
    let s1: i64 = (64..128).sum();
    assert_eq!(ints(&t, "out"), vec![s0, s1]);
}

#[test]
fn two_dimensional_block_from_dim3() {
    let t = run("cuda/transpose_2d_block.cu", &[]);
    assert_eq!(t["launch"]["block_dim"], serde_json::json!([8, 4, 1]));
    let mut want = vec![0i64; 32];
    for y in 0..4 {
        for x in 0..8 {
            want[x * 4 + y] = (y * 8 + x) as i64;
        }
    }
    assert_eq!(ints(&t, "out"), want);
    // --threads-per-block X,Y overrides the launch.
    let t = run(
        "cuda/transpose_2d_block.cu",
        &["--threads-per-block", "8,4"],
    );
    assert_eq!(t["launch"]["geometry_from"], "config");
}

#[test]
fn activemask_in_a_divergent_branch() {
    let t = run("cuda/activemask_divergent.cu", &[]);
    let out = ints(&t, "out");
    assert_eq!(&out[..10], &[(1i64 << 10) - 1; 10]);
    assert_eq!(&out[10..], &[0; 22]);
}

#[test]
fn integer_intrinsics() {
    let t = run("cuda/bit_intrinsics.cu", &["--buffer", "in=i*2654435761"]);
    let input: Vec<u32> = (0..32u64).map(|i| (i * 2_654_435_761) as u32).collect();
    let ints_u = |n: &str| ints(&t, n);
    assert_eq!(
        ints_u("pop"),
        input
            .iter()
            .map(|v| v.count_ones() as i64)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        ints_u("ffs"),
        input
            .iter()
            .map(|v| if *v == 0 {
                0
            } else {
                v.trailing_zeros() as i64 + 1
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(
        ints_u("clz"),
        input
            .iter()
            .map(|v| v.leading_zeros() as i64)
            .collect::<Vec<_>>()
    );
    assert_eq!(
        ints_u("rev"),
        input
            .iter()
            .map(|v| v.reverse_bits() as i64)
            .collect::<Vec<_>>()
    );
}

#[test]
fn atomic_add_on_shared_memory() {
    let t = run("cuda/atomic_shared_counter.cu", &[]);
    assert_eq!(ints(&t, "out")[0], (0..32).sum::<i64>());
    assert!(has(
        &t,
        "applied here in lane order; the hardware order is unspecified"
    ));
}

#[test]
fn shared_scalar_counter_takes_atomics_in_a_stated_order() {
    let t = run("cuda/shared_scalar_counter.cu", &[]);
    // Programming Guide, Atomic Functions: each atomicAdd returns the old value and the
    // read-modify-writes do not interfere, so 64 tickets are 0..63 in some order and the
    // count ends at 64, whatever the hardware order.
    let tickets = ints(&t, "ticket");
    let mut sorted = tickets.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..64).collect::<Vec<i64>>());
    assert_eq!(ints(&t, "total"), vec![64]);
    // The order the run states: lanes in turn within a warp, warp 0 then warp 1, so thread t
    // gets ticket t.
    assert!(has(
        &t,
        "each warp applies its lanes in turn, warps in the order they run"
    ));
    assert_eq!(tickets, (0..64).collect::<Vec<i64>>());
    // atomicAdd on shared array elements: bin k holds the sum of the threads t ≡ k (mod 4).
    let hist: Vec<i64> = (0..4)
        .map(|k| (0..64).filter(|t| t % 4 == k).sum())
        .collect();
    assert_eq!(ints(&t, "hist"), hist);
}

#[test]
fn diagnostics_of_parse_and_run_are_merged_across_warps() {
    let full = run("cuda/neighbour_out_of_bounds.cu", &[]);
    let quiet = run("cuda/neighbour_out_of_bounds.cu", &["--trace", "none"]);
    // One list, the same in either trace mode: the parse's and the launch's notes, then the
    // run's, each distinct one once.
    assert_eq!(full["diagnostics"], quiet["diagnostics"]);
    let list = full["diagnostics"].as_array().unwrap();
    for d in list {
        for key in ["level", "message", "line", "col", "rule", "count"] {
            assert!(d.get(key).is_some(), "{key} missing in {d}");
        }
    }
    assert!(has(
        &full,
        "host function `main` is read for its kernel launches"
    ));
    // Block 1's two warps read `in[i + 64]` with i = 64..127: every read is past the 128 cells
    // (C++17 [expr.add]/4), the same diagnostic at 5:22 from two warps: one entry, counted twice.
    let oob: Vec<&Value> = list
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .starts_with("reads `in` outside")
        })
        .collect();
    assert_eq!(oob.len(), 1, "{list:?}");
    assert_eq!(oob[0]["line"], 5);
    assert_eq!(oob[0]["col"], 22);
    assert_eq!(oob[0]["level"], "warning");
    assert_eq!(oob[0]["rule"], "ISO C++17 [expr.add]/4");
    assert_eq!(oob[0]["count"], 2);
    // Block 0's reads stay inside: out[i] = i + (i + 64) there, undefined (null) in block 1.
    let out = values(&full, "out");
    for (i, v) in out.iter().enumerate() {
        if i < 64 {
            assert_eq!(v.as_i64(), Some(2 * i as i64 + 64));
        } else {
            assert!(v.is_null(), "out[{i}] = {v}");
        }
    }
    // The text output prints the same merged list.
    let text = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .arg("run")
        .arg(kernel("cuda/neighbour_out_of_bounds.cu"))
        .output()
        .expect("the crosslane binary runs");
    let text = String::from_utf8_lossy(&text.stdout);
    let line = "5:22: warning: reads `in` outside its 128 cells: out-of-bounds access is undefined (2 times)";
    assert_eq!(text.matches(line).count(), 1, "{text}");
}

#[test]
fn namespace_wrapped_helpers_run_with_qualified_names() {
    let t = run("cuda/namespace_helpers.cu", &["--buffer", "in=i*3"]);
    // kernels::warpSums from main: 1 block of 64 threads; each warp sums its 32 cells with a
    // shfl_down tree, lane 0 holding the whole sum.
    // The trace names it as C++ does, by its namespace ([basic.namespace]).
    assert_eq!(t["launch"]["entry"], "kernels::warpSums");
    assert_eq!(t["launch"]["block_dim"], serde_json::json!([64, 1, 1]));
    let sums: Vec<i64> = (0..2)
        .map(|w| (w * 32..w * 32 + 32).map(|i| 3 * i).sum())
        .collect();
    assert_eq!(ints(&t, "out"), sums);
    assert!(has(&t, "namespace `warp` is read as file scope"));
    assert!(has(&t, "namespace `detail` is read as file scope"));
}

#[test]
fn enum_class_operators_and_plain_enums_are_integer_constants() {
    let t = run("cuda/enum_ops.cu", &["--buffer", "in=i*7+3"]);
    let v: Vec<i64> = (0..32).map(|i| i * 7 + 3).collect();
    // An xor butterfly leaves the whole warp's reduction in every lane.
    assert_eq!(ints(&t, "sum"), vec![v.iter().sum::<i64>(); 32]);
    assert_eq!(ints(&t, "mx"), vec![*v.iter().max().unwrap(); 32]);
    assert_eq!(ints(&t, "mn"), vec![*v.iter().min().unwrap(); 32]);
    // LEADER = 0, FOLLOWER = 4, OBSERVER = 5 (one past FOLLOWER), Op::Min = 7.
    let role: Vec<i64> = (0..32)
        .map(|l| if l == 0 { 0 } else if l < 16 { 4 } else { 5 } + 7)
        .collect();
    assert_eq!(ints(&t, "role"), role);
}

#[test]
fn ascend_vf_call_launch_from_host_code() {
    let t = run("ascend/vf_call_host_launch.cpp", &[]);
    // scaled_sum<<<2, nullptr, stream>>>: blockDim 2 blocks (Ascend's triple), the block is
    // asc_vf_call's dim3(64), `scale` = 3 forwarded from the host launch, `in` filled by the
    // host loop (i % 10) and copied by aclrtMemcpy, `out` of 16 bytes = 4 int32 cells.
    assert_eq!(t["launch"]["entry"], "WarpScaledSum");
    assert_eq!(t["launch"]["dialect"], "ascend");
    assert_eq!(t["launch"]["grid_dim"], serde_json::json!([2, 1, 1]));
    assert_eq!(t["launch"]["block_dim"], serde_json::json!([64, 1, 1]));
    let input: Vec<i64> = (0..128).map(|i| i % 10).collect();
    assert_eq!(ints(&t, "in"), input);
    // asc_shfl_xor butterfly (masks 16..1, width 32): every lane ends with its warp's sum.
    let sums: Vec<i64> = input
        .chunks(32)
        .map(|c| 3 * c.iter().sum::<i64>())
        .collect();
    assert_eq!(ints(&t, "out"), sums);
    assert!(has(&t, "blockDim 2, one block per core"));
    let t = run("ascend/vf_call_host_launch.cpp", &["--arg", "scale=-1"]);
    let sums: Vec<i64> = input.chunks(32).map(|c| -c.iter().sum::<i64>()).collect();
    assert_eq!(ints(&t, "out"), sums);
}

#[test]
fn constant_table_lookup_then_shuffles() {
    let t = run("cuda/constant_table_shuffle.cu", &["--buffer", "in=i+1"]);
    // kWeight = {1..7, 0}: eight cells, the last zero-initialized (C11 6.7.9p21).
    assert_eq!(ints(&t, "kWeight"), vec![1, 2, 3, 4, 5, 6, 7, 0]);
    let weight = [1i64, 2, 3, 4, 5, 6, 7, 0];
    let w: Vec<i64> = (0..32).map(|l| (l as i64 + 1) * weight[l % 8]).collect();
    // __shfl_up_sync by 1: lane 0 keeps its own; __shfl_down_sync by 1: lane 31 keeps its own
    // (CUDA Programming Guide, warp shuffle functions).
    let out: Vec<i64> = (0..32)
        .map(|l| {
            let left = if l == 0 { w[l] } else { w[l - 1] };
            let right = if l == 31 { w[l] } else { w[l + 1] };
            left - 2 * w[l] + right + 100
        })
        .collect();
    assert_eq!(ints(&t, "out"), out);
    assert!(has(
        &t,
        "`__constant__ kWeight` (8 cells of int) is read-only data"
    ));
    // --buffer replaces a table like any buffer.
    let t = run(
        "cuda/constant_table_shuffle.cu",
        &["--buffer", "in=i+1", "--buffer", "kTaps=0,1,0"],
    );
    let out: Vec<i64> = w.iter().map(|v| v + 100).collect();
    assert_eq!(ints(&t, "out"), out);
}

#[test]
fn constant_tables_filled_by_cuda_memcpy_to_symbol() {
    let t = run("cuda/constant_symbol_copy.cu", &["--buffer", "in=index"]);
    // h_scale[i] = 0.5 i, copied by cudaMemcpyToSymbol; c_bias has no copy: zero (static
    // storage starts zeroed).
    let scale: Vec<f64> = (0..8).map(|i| 0.5 * f64::from(i)).collect();
    let floats = |name: &str| -> Vec<f64> {
        values(&t, name)
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    assert_eq!(floats("c_scale"), scale);
    assert_eq!(ints(&t, "c_bias"), vec![0; 4]);
    // v = in[l] * c_scale[l % 8]; __shfl_xor_sync(…, 1) swaps neighbours.
    let v: Vec<f64> = (0..32)
        .map(|l| f64::from(l) * scale[l as usize % 8])
        .collect();
    let out: Vec<f64> = (0..32).map(|l| v[l ^ 1]).collect();
    assert_eq!(floats("out"), out);
    assert!(has(&t, "filled as host code fills `h_scale` (line 18)"));
    assert!(has(&t, "zero: nothing copies into it"));
    // A copy of data that cannot be read leaves the table undefined (null), with a warning.
    use std::io::Write;
    let src = "__constant__ int t[4];\n__global__ void k(int* o) { o[threadIdx.x] = t[0]; }\n\
               int main() { int h[4]; read(h); cudaMemcpyToSymbol(t, h, sizeof(h)); }\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(["run", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(values(&t, "t").iter().all(Value::is_null));
    assert!(values(&t, "o").iter().all(Value::is_null));
    assert!(has(
        &t,
        "undefined: the cudaMemcpyToSymbol at line 3 copies data not read here"
    ));
}

#[test]
fn constructs_still_refused_are_named_with_what_to_do() {
    let cases = [
        (
            "__constant__ float coeff;\n__global__ void k(float* o) { o[0] = coeff; }\n",
            "1:",
            "`__constant__` data needs a constant initializer here",
        ),
        (
            "__constant__ int grid[2][2] = {{1, 2}, {3, 4}};\n__global__ void k(int* o) {}\n",
            "1:",
            "multi-dimensional `__constant__` arrays are not supported",
        ),
        (
            "__constant__ int big[100000] = {1};\n__global__ void k(int* o) {}\n",
            "1:",
            "constant memory holds 64 KB",
        ),
        (
            "enum class A { X };\nenum class B { X = 3 };\n__global__ void k(int* o) {}\n",
            "2:",
            "two enums cannot share an enumerator name here",
        ),
        (
            "__global__ void k(int* o) {\n  switch (threadIdx.x % 2) { case 0: { o[0] = 1;\n case 1: o[0] = 2; } }\n}\n",
            "3:",
            "a `case` or `default` label is read only at the top level of its `switch` body",
        ),
        (
            "__global__ void k(int* o) {\nagain:\n  o[0] += 1;\n  if (o[0] < 3) goto again;\n}\n",
            "4:",
            "write a backward jump as a `while` / `do … while` loop",
        ),
        // HIP's clang reads `%laneid` as an operand; nvcc reads a one-`%` register in CUDA
        // (`kernel_nv_corpus4`).
        (
            "#include <hip/hip_runtime.h>\n__global__ void k(int* o) {\n  asm(\"mov.u32 %0, %laneid;\" : \"=r\"(o[0]));\n}\n",
            "3:",
            "write `%%laneid`: a `%` of a register name is doubled",
        ),
        (
            "__global__ void k(int* o) {\n  int* p = {o};\n  o[0] = p[1];\n}\n",
            "2:",
            "an initializer list `= {…}` is read here for an array, a struct or a scalar",
        ),
    ];
    for (src, line, needle) in cases {
        let (code, err) = refused(src);
        assert_eq!(code, Some(1), "{src}");
        assert!(err.contains(needle), "{src}: {err}");
        assert!(err.contains(&format!("-:{line}")), "{src}: {err}");
    }
}

#[test]
fn extern_c_and_noexcept_change_nothing() {
    let src = "extern \"C\" {\n__device__ int twice(int v) noexcept { return 2 * v; }\n}\n\
               extern \"C\" __global__ void k(int* o) { o[threadIdx.x] = twice(threadIdx.x); }\n";
    let dir = std::env::temp_dir().join(format!("crosslane-extern-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("extern_c.cu");
    std::fs::write(&path, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .arg("run")
        .arg(&path)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ints(&t, "o"), (0..32).map(|l| 2 * l).collect::<Vec<i64>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ascend_pure_simt_asc_file_with_a_cuda_order_launch() {
    let t = run("ascend/simt_guarded_reduce.asc", &[]);
    // `.asc` → Ascend C; <<<2, 64, 0, stream>>> is blocks, threads, dynamic UB bytes, stream
    // (asc-devkit's pure SIMT add example), total_length = 100 from the launch.
    assert_eq!(t["launch"]["dialect"], "ascend");
    assert_eq!(t["launch"]["grid_dim"], serde_json::json!([2, 1, 1]));
    assert_eq!(t["launch"]["block_dim"], serde_json::json!([64, 1, 1]));
    // x[i] = 2i from the host loop; asc_reduce_add sums the active lanes (CANN API reference):
    // threads 100..127 returned, so the last warp sums lanes 96..99 only.
    let sums: Vec<i64> = (0..4)
        .map(|w| (w * 32..(w * 32 + 32).min(100)).map(|i| 2 * i).sum())
        .collect();
    assert_eq!(ints(&t, "sums"), sums);
}

#[test]
fn file_scope_constants() {
    let t = run("cuda/const_globals.cu", &[]);
    let want: Vec<i64> = (0..32).map(|l| (l / 4) * 4 + 100).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn float_to_half_rounds_to_nearest_even() {
    let t = run("cuda/half_roundtrip.cu", &["--buffer", "in:32=0.1"]);
    // 0.1f = 0x3dcccccd; the nearest half is 0x2e66 = 1638/16384 = 0.0999755859375.
    for v in values(&t, "out") {
        assert_eq!(v.as_f64(), Some(1638.0 / 16384.0));
    }
}

#[test]
fn buffer_and_arg_flags_drive_the_result() {
    let list: Vec<String> = (0..32).map(|i| (31 - i).to_string()).collect();
    let b = format!("b:32={}", list.join(","));
    let t = run(
        "cuda/buffer_flags.cu",
        &["--buffer", "a:32=i*3+1", "--buffer", &b, "--arg", "scale=2"],
    );
    let want: Vec<i64> = (0..32).map(|i| (3 * i + 1) * 2 + (31 - i)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn buffer_list_must_have_exactly_len_values() {
    let out = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args([
            "run",
            &kernel("cuda/buffer_flags.cu"),
            "--buffer",
            "a:4=1,2,3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly 4 values, got 3"));
}

#[test]
fn match_any_groups_equal_keys() {
    let t = run("cuda/match_any_groups.cu", &["--buffer", "key=i*0+7"]);
    assert_eq!(ints(&t, "out"), vec![0xffff_ffff; 32]);
}

// ------------------------------------------------------------------ HIP

#[test]
fn hip_file_runs_on_64_lanes_with_its_launch() {
    let t = run("hip/wave_reduce.hip", &[]);
    assert_eq!(t["launch"]["dialect"], "hip");
    assert_eq!(t["launch"]["lanes"], 64);
    assert_eq!(
        t["launch"]["dialect_from"],
        "inferred from the HIP runtime header"
    );
    assert_eq!(ints(&t, "out"), vec![(0..64).sum::<i64>()]);
    // A .hip file without any HIP mark is HIP by its extension.
    let t = run("hip/any_all.hip", &[]);
    assert_eq!(t["launch"]["lanes"], 64);
    assert_eq!(t["launch"]["dialect_from"], "the file extension .hip");
}

#[test]
fn hip_lane_id_three_ways_agree() {
    let t = run("hip/lane_id_mbcnt.hip", &[]);
    let lanes: Vec<i64> = (0..64).collect();
    assert_eq!(ints(&t, "a"), lanes);
    assert_eq!(ints(&t, "b"), lanes);
    assert_eq!(ints(&t, "c"), lanes);
}

#[test]
fn hip_ballot_is_64_bits() {
    let t = run("hip/ballot64.hip", &[]);
    let evens: u64 = (0..64).filter(|l| l % 2 == 0).map(|l| 1u64 << l).sum();
    assert_eq!(values(&t, "mask")[0].as_u64(), Some(evens));
    assert_eq!(ints(&t, "count")[0], 32);
}

#[test]
fn hip_ds_bpermute_rotates() {
    let t = run("hip/bpermute_rotate.hip", &[]);
    let want: Vec<i64> = (0..64).map(|l| (l + 1) % 64).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn hip_readfirstlane_and_readlane() {
    let t = run("hip/readfirstlane.hip", &["--buffer", "in=i*5+2"]);
    assert_eq!(ints(&t, "first"), vec![2; 64]);
    assert_eq!(ints(&t, "third"), vec![17; 64]);
}

#[test]
fn hip_wave32_selectable() {
    let model = |lanes: i64| (0..lanes).sum::<i64>();
    let t = run("hip/wave32_xor.hip", &[]);
    assert_eq!(ints(&t, "out"), vec![model(64); 64]);
    let t = run(
        "hip/wave32_xor.hip",
        &["--lanes", "32", "--threads-per-block", "64"],
    );
    assert_eq!(t["launch"]["lanes"], 32);
    assert_eq!(ints(&t, "out"), vec![model(32); 64]);
}

#[test]
fn hip_ffsll_finds_the_first_lane() {
    let t = run("hip/ffsll_first_set.hip", &["--arg", "limit=40"]);
    // in = index: lane 41 is the first above 40, 1-based 42.
    assert_eq!(ints(&t, "out")[0], 42);
    let t = run("hip/ffsll_first_set.hip", &["--arg", "limit=100"]);
    assert_eq!(ints(&t, "out")[0], 0);
}

#[test]
fn hip_any_all() {
    let t = run("hip/any_all.hip", &["--buffer", "in=i+1"]);
    assert_eq!(ints(&t, "anyOut"), vec![1; 64]);
    assert_eq!(ints(&t, "allOut"), vec![1; 64]);
    let t = run("hip/any_all.hip", &[]);
    // in = index: lane 0 holds 0, so not all.
    assert_eq!(ints(&t, "allOut"), vec![0; 64]);
}

#[test]
fn hip_dialect_flag_overrides_the_extension() {
    let t = run("hip/wave32_xor.hip", &["--dialect", "cuda"]);
    assert_eq!(t["launch"]["dialect"], "cuda");
    assert_eq!(t["launch"]["lanes"], 32);
    assert_eq!(t["launch"]["dialect_from"], "--dialect");
}

// ------------------------------------------------------------------ Ascend C

#[test]
fn ascend_xor_allreduce() {
    let t = run("ascend/xor_allreduce.cpp", &["--buffer", "src=i*3+1"]);
    let mut v: Vec<i64> = (0..32).map(|i| i * 3 + 1).collect();
    for m in [16, 8, 4, 2, 1] {
        let o = shfl_xor(&v, m);
        v = v.iter().zip(&o).map(|(a, b)| a + b).collect();
    }
    assert_eq!(ints(&t, "dst"), v);
    assert!(t["launch"]["dialect_from"]
        .as_str()
        .unwrap()
        .starts_with("inferred from"));
}

#[test]
fn ascend_shfl_up_scan_counts_lanes() {
    let t = run("ascend/shfl_up_scan.cpp", &[]);
    assert_eq!(ints(&t, "dst"), (1..=32).collect::<Vec<i64>>());
}

#[test]
fn ascend_shfl_width_segments() {
    let t = run("ascend/shfl_broadcast_width8.cpp", &[]);
    let want: Vec<i64> = (0..32).map(|l| ((l / 8) * 8 + 2) * 10).collect();
    assert_eq!(ints(&t, "dst"), want);
}

// ------------------------------------------------------------------ MACA

#[test]
fn maca_readlane_and_readfirstlane() {
    let t = run("maca/readlane_readfirstlane.cpp", &["--buffer", "in=i*3"]);
    assert_eq!(ints(&t, "lane5"), vec![15; 64]);
    // Lanes 16.. are active in the branch: the first active lane is 16; lanes below keep the fill.
    let first = ints(&t, "first");
    assert_eq!(&first[..16], &(0..16).collect::<Vec<i64>>()[..]);
    assert_eq!(&first[16..], &[48; 48]);
}

#[test]
fn maca_bsm_bpermute_reverses() {
    let t = run("maca/bsm_bpermute_reverse.cpp", &[]);
    assert_eq!(ints(&t, "out"), (0..64).rev().collect::<Vec<i64>>());
}

// ------------------------------------------------------------------ templates

#[test]
fn template_kernel_launched_with_explicit_arguments() {
    let t = run("cuda/template_block_reduce.cu", &[]);
    assert_eq!(t["launch"]["entry"], "blockReduce<float,128>");
    let input: Vec<f64> = (0..256).map(|i| 0.5 * f64::from(i)).collect();
    let sums: Vec<f64> = input.chunks(128).map(|c| c.iter().sum()).collect();
    let out: Vec<f64> = values(&t, "out")
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(out, sums);
}

#[test]
fn template_entry_id_with_default_and_if_constexpr() {
    let model = |k: i64, negate: bool| -> Vec<i64> {
        let v: Vec<i64> = (0..32)
            .map(|i| if negate { -(i * k) } else { i * k })
            .collect();
        shfl_down(&v, 1, 32)
    };
    let t = run("cuda/template_entry.cu", &["--entry", "scaleBy<int, 3>"]);
    assert_eq!(t["launch"]["entry"], "scaleBy<int,3,0>");
    assert_eq!(ints(&t, "out"), model(3, false));
    let t = run(
        "cuda/template_entry.cu",
        &["--entry", "scaleBy<int, 5, true>"],
    );
    assert_eq!(ints(&t, "out"), model(5, true));
}

/// `crosslane run -` on `source`: exit code and stderr.
pub(super) fn refused(source: &str) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(["run", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(source.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn unsupported_constructs_are_named_at_their_line() {
    let cases = [
        (
            // Function pointer variables run now; a kernel's address called on the device
            // does not (CUDA C++ Programming Guide, "Function Pointers").
            // (`k` first, the entry: a refused kernel beside others is the error of the runs
            // that reach it, `crosslane-kernel`'s `parser/refused_kernel.rs`.)
            "__global__ void g(float* o);\n__global__ void k(float* o) {\n  void (*f)(float*) = g;\n  f(o);\n}\n__global__ void g(float* o) {}\n",
            "3:",
            "is a `__global__` function",
        ),
        (
            "__global__ void k(int* o) {\n  auto add = [](auto... a) { return 1; };\n}\n",
            "2:",
            "a generic lambda's parameter pack (`auto... xs`) is not supported",
        ),
        (
            // Partial specializations are read now; a pointer pattern is not.
            "template <typename T>\nstruct Pair<T*> { T a; };\n__global__ void k(int* o) {}\n",
            "2:",
            "pointer and reference patterns in a partial specialization are not supported",
        ),
        (
            "struct B { int a; __device__ B(int x) : a(x) {} };\nstruct S : B { int b; };\n__global__ void k(int* o) {}\n",
            "2:",
            "a base class with those is not supported",
        ),
        (
            "struct P { int a; };\n__global__ void k(int* o) {\n  P p{1};\n  o[0] = p;\n}\n",
            "4:",
            "`p` is a struct (`P`) where a value is needed",
        ),
        (
            "__global__ void k(int* o) {}\n__device__ int* counter;\n",
            "2:",
            "a device variable at file scope that is a pointer or a reference is not supported",
        ),
    ];
    for (src, line, needle) in cases {
        let (code, err) = refused(src);
        assert_eq!(code, Some(1), "{src}");
        assert!(err.contains(needle), "{src}: {err}");
        assert!(err.contains(&format!("-:{line}")), "{src}: {err}");
    }
}

// ------------------------------------------------------------------ cooperative groups

#[test]
fn cooperative_groups_tiles_map_to_the_warp_rules() {
    let t = run(
        "cuda/cg_tile_reduce.cu",
        &["--threads-per-block", "64", "--buffer", "in=i*7+3"],
    );
    let x: Vec<i64> = (0..64).map(|i| i * 7 + 3).collect();
    let tiles: Vec<&[i64]> = x.chunks(16).collect();
    // tileSum: shfl_down over a 16-lane segment, offsets 8, 4, 2, 1.
    let mut sums = Vec::new();
    for tile in &tiles {
        let mut v = tile.to_vec();
        for d in [8, 4, 2, 1] {
            let o = shfl_down(&v, d, 16);
            v = v.iter().zip(&o).map(|(a, b)| a + b).collect();
        }
        sums.extend(v);
    }
    assert_eq!(ints(&t, "sums"), sums);
    let each = |f: &dyn Fn(&[i64]) -> i64| -> Vec<i64> {
        tiles.iter().flat_map(|t| vec![f(t); 16]).collect()
    };
    assert_eq!(ints(&t, "reduced"), each(&|t| t.iter().sum()));
    assert_eq!(ints(&t, "maxima"), each(&|t| *t.iter().max().unwrap()));
    let mut scans = Vec::new();
    let mut exscans = Vec::new();
    for tile in &tiles {
        let mut acc = 0;
        for v in tile.iter() {
            exscans.push(acc);
            acc += v;
            scans.push(acc);
        }
    }
    assert_eq!(ints(&t, "scans"), scans);
    assert_eq!(ints(&t, "exscans"), exscans);
    let ballots = each(&|t| {
        t.iter()
            .enumerate()
            .filter(|(_, v)| *v % 2 == 1)
            .map(|(k, _)| 1i64 << k)
            .sum()
    });
    assert_eq!(ints(&t, "ballots"), ballots);
    let ranks: Vec<i64> = (0..64).map(|i| (i % 16) * 100 + i / 16).collect();
    assert_eq!(ints(&t, "ranks"), ranks);
}

#[test]
fn a_kernel_scenario_carries_args_buffers_and_dialect() {
    use crosslane_core::scenario::{Scenario, View};
    let source = std::fs::read_to_string(kernel("cuda/buffer_flags.cu")).unwrap();
    let mut s = Scenario::new(View::Kernel {
        source,
        blocks: 1,
        threads_per_block: 32,
        lanes: 0,
        step: 0,
    });
    s.kernel_inputs.args.insert("scale".into(), "4".into());
    s.kernel_inputs.args.insert("a".into(), "i+1".into());
    s.kernel_inputs.buffer_len.insert("b".into(), 32);
    s.kernel_inputs.dialect = Some("hip".into());
    let link = crosslane_core::permalink::encode(&s);
    let out = Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(["run", &link, "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(t["launch"]["dialect"], "hip");
    assert_eq!(t["launch"]["dialect_from"], "the scenario");
    // HIP on 64 lanes, one block of 32 threads: a = i+1, b = index, out = a*4 + b.
    let want: Vec<i64> = (0..32).map(|i| (i + 1) * 4 + i).collect();
    assert_eq!(ints(&t, "out"), want);
}

/// A scenario's budgets (the page's budget fields) bound `crosslane run` as they bound
/// the page: 1 unit of work stops the kernel, and the message names the work limit.
#[test]
fn a_kernel_scenario_carries_its_budgets() {
    use crosslane_core::scenario::{Scenario, View};
    let source = std::fs::read_to_string(kernel("cuda/buffer_flags.cu")).unwrap();
    let mut s = Scenario::new(View::Kernel {
        source,
        blocks: 1,
        threads_per_block: 32,
        lanes: 0,
        step: 0,
    });
    s.kernel_inputs.args.insert("scale".into(), "4".into());
    let run = |s: &Scenario| {
        Command::new(env!("CARGO_BIN_EXE_crosslane"))
            .args(["run", &crosslane_core::permalink::encode(s), "--json"])
            .output()
            .unwrap()
    };
    assert_eq!(run(&s).status.code(), Some(0));
    s.kernel_inputs
        .budgets
        .insert("max_work".into(), "1".into());
    let out = run(&s);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("work limit of 1 "), "{err}");
    s.kernel_inputs
        .budgets
        .insert("max_work".into(), "fifty".into());
    let out = run(&s);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_work = `fifty`"));
}

#[test]
fn device_printf_is_captured_per_thread() {
    let t = run("cuda/printf_lanes.cu", &["--buffer", "x:64=i*3"]);
    let lines = t["printf"].as_array().expect("printf list");
    // Two blocks, lanes 0..3 print: x[t] * 0.5 with x = 3t; sum of lanes 0..31 = 496.
    let mut want = Vec::new();
    for b in 0..2 {
        for th in 0..3 {
            let v = f64::from(3 * th) * 0.5;
            want.push((
                b,
                th,
                format!(
                    "block {b} thread {th:>2}: v={v:.2} sum=496 hex={:#x}\n",
                    th + 10
                ),
            ));
        }
    }
    let got: Vec<(i64, i64, String)> = lines
        .iter()
        .map(|l| {
            (
                l["block"].as_i64().unwrap(),
                l["thread"].as_i64().unwrap(),
                l["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(i64, i64, String)> =
        want.into_iter().map(|(b, t, s)| (b, t as i64, s)).collect();
    assert_eq!(got, want);
}

#[test]
fn ascend_warp_reductions_over_active_lanes() {
    // CANN's asc_reduce_add example: lanes 0..31 sum to 496; max of 3l mod 32 is 31; the min
    // over the active lanes 8..31 is 8 (lanes 0..7 keep their index fill); odd lanes' ballot.
    let t = run("ascend/reduce_add_max.cpp", &[]);
    assert_eq!(ints(&t, "sums"), vec![496; 32]);
    let max = (0..32).map(|l| l * 3 % 32).max().unwrap();
    assert_eq!(ints(&t, "maxima"), vec![max; 32]);
    let minima: Vec<i64> = (0..32).map(|l| if l < 8 { l } else { 8 }).collect();
    assert_eq!(ints(&t, "minima"), minima);
    let odd: i64 = (0..32).filter(|l| l % 2 == 1).map(|l| 1i64 << l).sum();
    assert_eq!(ints(&t, "odd"), vec![odd; 32]);
}

#[test]
fn hip_dpp_numeric_controls_scan_each_row() {
    // update_dpp(old = 0, v, row_shr:n, all rows and banks, bound_ctrl off): a lane whose
    // source is outside its 16-lane row takes `old`; four shifts give a row-wise scan.
    let t = run("hip/dpp_row_shr_scan.hip", &["--buffer", "in=i*2+1"]);
    let mut v: Vec<i64> = (0..64).map(|i| 2 * i + 1).collect();
    for n in [1usize, 2, 4, 8] {
        let shifted: Vec<i64> = (0..64)
            .map(|l| if l % 16 >= n { v[l - n] } else { 0 })
            .collect();
        v = v.iter().zip(&shifted).map(|(a, b)| a + b).collect();
    }
    assert_eq!(ints(&t, "out"), v);
    // The same op by its HIP spelling and by ds_swizzle's builtin name resolves.
    let t = run("hip/dpp_row_shr_scan.hip", &[]);
    assert!(!has(&t, "is neither a kernel built-in"));
}
