//! Structs, class templates, lambdas and NULL in real-shaped kernels (`tests/kernels/`, issue
//! 14), run through `crosslane run --json`. Each expected buffer comes from an independent
//! model of the vendor rule here (plain loops over lanes), never from the emulator's output.

use serde_json::Value;

use super::real_kernels::{ints, run, shfl_down, shfl_xor, values};

/// A `--buffer` fill listing `v`.
fn list(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

fn floats(trace: &Value, name: &str) -> Vec<f64> {
    values(trace, name)
        .iter()
        .map(|v| {
            v.as_f64()
                .unwrap_or_else(|| panic!("{name}: {v} is not a number"))
        })
        .collect()
}

/// Every lane ends with the whole warp combined by `op` after an xor butterfly (masks 16..1).
fn butterfly(v: &[i64], op: impl Fn(i64, i64) -> i64) -> Vec<i64> {
    let mut v = v.to_vec();
    for m in [16, 8, 4, 2, 1] {
        let o = shfl_xor(&v, m);
        v = v.iter().zip(&o).map(|(a, b)| op(*a, *b)).collect();
    }
    v
}

#[test]
fn argmax_with_a_pair_struct_shuffles_each_field() {
    let t = run(
        "cuda/struct_argmax_pair.cu",
        &["--buffer", "out.v:2=0", "--buffer", "out.idx:2=0"],
    );
    // The host fill: (i * 37) % 23, so values repeat inside a warp (ties go to the lower lane).
    let x: Vec<i64> = (0..64).map(|i| (i * 37) % 23).collect();
    assert_eq!(
        floats(&t, "in"),
        x.iter().map(|&v| v as f64).collect::<Vec<_>>()
    );
    let mut v = x.clone();
    let mut idx: Vec<i64> = (0..64).collect();
    for d in [16, 8, 4, 2, 1] {
        let ov = shfl_down(&v, d, 32);
        let oi = shfl_down(&idx, d, 32);
        for l in 0..64 {
            if ov[l] > v[l] || (ov[l] == v[l] && oi[l] < idx[l]) {
                v[l] = ov[l];
                idx[l] = oi[l];
            }
        }
    }
    assert_eq!(floats(&t, "out.v"), vec![v[0] as f64, v[32] as f64]);
    assert_eq!(ints(&t, "out.idx"), vec![idx[0], idx[32]]);
    // The `Pair* out` buffer put back together: element by element, field by field in the
    // struct's declaration order (v, then idx).
    let out = t["memory"]["structs"]
        .as_array()
        .expect("structs")
        .iter()
        .find(|s| s["name"] == "out")
        .expect("a struct buffer `out`");
    assert_eq!(out["members"], serde_json::json!(["out.v", "out.idx"]));
    assert_eq!(out["len"], 2);
    let flat: Vec<f64> = out["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect();
    assert_eq!(
        flat,
        vec![v[0] as f64, idx[0] as f64, v[32] as f64, idx[32] as f64]
    );
    // The quiet mode prints the same struct buffers.
    let quiet = run(
        "cuda/struct_argmax_pair.cu",
        &[
            "--buffer",
            "out.v:2=0",
            "--buffer",
            "out.idx:2=0",
            "--trace",
            "none",
        ],
    );
    assert_eq!(quiet["structs"], t["memory"]["structs"]);
    // The model's answer is the true argmax with the lowest index among ties.
    for w in 0..2 {
        let warp = &x[w * 32..w * 32 + 32];
        let best = *warp.iter().max().unwrap();
        let first = warp.iter().position(|&a| a == best).unwrap() as i64 + (w as i64) * 32;
        assert_eq!((v[w * 32], idx[w * 32]), (best, first));
    }
}

#[test]
fn functors_are_passed_to_a_template_warp_reduce() {
    let t = run(
        "cuda/functor_warp_reduce.cu",
        &["--buffer", "x=i*5+3", "--arg", "floor=40"],
    );
    let x: Vec<i64> = (0..32).map(|i| i * 5 + 3).collect();
    let sums = butterfly(&x, |a, b| a + b);
    assert_eq!(
        floats(&t, "sums"),
        sums.iter().map(|&v| v as f64).collect::<Vec<_>>()
    );
    assert_eq!(ints(&t, "maxes"), butterfly(&x, |a, b| a.max(b)));
    let clamp = |a: i64| a.max(40);
    assert_eq!(
        ints(&t, "mins"),
        butterfly(&x, |a, b| clamp(a).min(clamp(b)))
    );
}

#[test]
fn class_template_static_members_per_segment() {
    let x: Vec<i64> = (0..32).map(|i| i * 7 % 11).collect();
    let fill = format!("in={}", list(&x));
    let t = run(
        "cuda/class_template_warp_reduce.cu",
        &[
            "--buffer",
            &fill,
            "--buffer",
            "sums:4=0",
            "--buffer",
            "maxes:4=0",
            "--buffer",
            "mins:4=0",
        ],
    );
    let fold = |op: &dyn Fn(i64, i64) -> i64| -> Vec<i64> {
        let mut v = x.clone();
        for d in [4, 2, 1] {
            let o = shfl_down(&v, d, 8);
            v = v.iter().zip(&o).map(|(a, b)| op(*a, *b)).collect();
        }
        (0..4).map(|s| v[s * 8]).collect()
    };
    assert_eq!(ints(&t, "sums"), fold(&|a, b| a + b));
    assert_eq!(ints(&t, "maxes"), fold(&|a, b| a.max(b)));
    assert_eq!(ints(&t, "mins"), fold(&|a, b| a.min(b)));
    // The segment model agrees with the plain per-segment totals.
    let direct: Vec<i64> = x.chunks(8).map(|c| c.iter().sum()).collect();
    assert_eq!(ints(&t, "sums"), direct);
}

#[test]
fn lambdas_capture_by_reference_and_by_copy() {
    let x: Vec<i64> = (0..32).map(|i| i * 3 % 7).collect();
    let fill = format!("in={}", list(&x));
    let t = run("cuda/lambda_scan.cu", &["--buffer", &fill, "--arg", "k=2"]);
    let scan = |op: &dyn Fn(i64, i64) -> i64| -> Vec<i64> {
        let mut v = x.clone();
        let mut d = 1;
        while d < 32 {
            let up: Vec<i64> = (0..32)
                .map(|l| if l >= d { v[l - d] } else { v[l] })
                .collect();
            for l in d..32 {
                v[l] = op(v[l], up[l]);
            }
            d <<= 1;
        }
        v
    };
    let plain = scan(&|a, b| a + b);
    assert_eq!(ints(&t, "plain"), plain);
    // [&]: the lambda sees `bias` as set after it was made (k = 2).
    assert_eq!(ints(&t, "biased"), scan(&|a, b| a + b + 2));
    // [=]: the copy of `factor` taken when the lambda was made (k = 2), not the later 100.
    assert_eq!(
        ints(&t, "scaled"),
        plain.iter().map(|v| v * 2).collect::<Vec<_>>()
    );
}

#[test]
fn null_checks_guard_optional_outputs() {
    let t = run(
        "cuda/null_optional_output.cu",
        &[
            "--buffer",
            "in=index",
            "--buffer",
            "total:1=0",
            "--buffer",
            "counts=0",
            "--buffer",
            "tail=0",
        ],
    );
    let x: Vec<i64> = (0..32).collect();
    let all = butterfly(&x, |a, b| a + b);
    // Only lane 0 set its local pointer away from nullptr.
    assert_eq!(ints(&t, "total"), vec![all[0]]);
    // counts != NULL (1), then `!skip` and `skip == NULL` for the NULL from `maybe` (+1, +10).
    assert_eq!(ints(&t, "counts"), vec![12; 32]);
    let mut tail = vec![0; 32];
    for l in 0..8 {
        tail[24 + l] = all[l] + l as i64;
    }
    assert_eq!(ints(&t, "tail"), tail);
}

#[test]
fn struct_buffers_shared_struct_arrays_constructors_and_members() {
    let t = run(
        "cuda/struct_buffer_inout.cu",
        &[
            "--buffer",
            "in.x=index",
            "--buffer",
            "in.vx=i*2",
            "--buffer",
            "in.id=i+10",
        ],
    );
    let n = 32usize;
    let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let vx: Vec<f64> = (0..n).map(|i| 2.0 * i as f64).collect();
    let id: Vec<i64> = (0..n as i64).map(|i| i + 10).collect();
    // step(2): x += vx * 2; then out[i] = (x_i, vx_{i+1}, id_{i+1}) with x += sizeof = 12.
    let mut ox = Vec::new();
    let mut ovx = Vec::new();
    let mut oid = Vec::new();
    let mut energy = Vec::new();
    for i in 0..n {
        let j = (i + 1) % n;
        ox.push(x[i] + vx[i] * 2.0 + 12.0);
        ovx.push(vx[j]);
        oid.push(id[j]);
        energy.push(0.5 * vx[j] * vx[j]);
    }
    oid[1] = 100; // `second->id` through `out + 1`
    oid[31] = -1; // the default constructor's id
    assert_eq!(floats(&t, "out.x"), ox);
    assert_eq!(floats(&t, "out.vx"), ovx);
    assert_eq!(ints(&t, "out.id"), oid);
    assert_eq!(floats(&t, "energy"), energy);
    // The shared struct array is one shared buffer per member.
    let bufs = t["memory"]["buffers"].as_array().unwrap();
    for m in ["tile.x", "tile.vx", "tile.id"] {
        assert!(
            bufs.iter()
                .any(|b| b["name"] == m && b["space"]["space"] == "shared"),
            "{m}"
        );
    }
}

#[test]
fn nested_structs_select_and_a_struct_returning_lambda() {
    let x: Vec<i64> = (0..64).map(|i| i * 13 % 17).collect();
    let fill = format!("in={}", list(&x));
    let t = run(
        "cuda/struct_select_nested.cu",
        &["--threads-per-block", "64", "--buffer", &fill],
    );
    let mut v = x.clone();
    let mut lane: Vec<i64> = (0..64).map(|i| i % 32).collect();
    for m in [16, 8, 4, 2, 1] {
        let ov = shfl_xor(&v, m);
        let ol = shfl_xor(&lane, m);
        for l in 0..64 {
            if ov[l] < v[l] || (ov[l] == v[l] && ol[l] < lane[l]) {
                v[l] = ov[l];
                lane[l] = ol[l];
            }
        }
    }
    assert_eq!(
        floats(&t, "vals"),
        v.iter().map(|&a| a as f64).collect::<Vec<_>>()
    );
    assert_eq!(ints(&t, "lanes"), lane);
    // The copy's warp is the lane's warp plus 10; the original was not changed by the copy.
    let warps: Vec<i64> = (0..64).map(|i| i / 32 + 10).collect();
    assert_eq!(ints(&t, "warps"), warps);
}

#[test]
fn hip_wave64_functor_and_constructed_struct() {
    let t = run(
        "hip/struct_functor_wave64.hip",
        &["--buffer", "in=i*3", "--arg", "threshold=100"],
    );
    let x: Vec<i64> = (0..64).map(|i| i * 3).collect();
    let mut total = x.clone();
    let mut hits: Vec<i64> = x.iter().map(|&a| i64::from(a > 100)).collect();
    for d in [32, 16, 8, 4, 2, 1] {
        let ot = shfl_down(&total, d, 64);
        let oh = shfl_down(&hits, d, 64);
        for l in 0..64 {
            total[l] += ot[l];
            hits[l] += oh[l];
        }
    }
    assert_eq!(ints(&t, "totals"), total);
    assert_eq!(ints(&t, "hits"), hits);
    assert_eq!(total[0], x.iter().sum::<i64>());
    assert_eq!(hits[0], x.iter().filter(|&&a| a > 100).count() as i64);
}

#[test]
fn member_functions_update_buffer_elements_in_place() {
    let t = run(
        "cuda/struct_accumulator_members.cu",
        &[
            "--buffer",
            "acc.n=1",
            "--buffer",
            "acc.s=index",
            "--buffer",
            "means=0",
        ],
    );
    // The launch's scalar after the struct pointer is `step` (the pointer is one argument).
    let said = t["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["message"]
            .as_str()
            .is_some_and(|m| m.contains("block 4x1x1") && m.contains("step = 2.0"))
    });
    assert!(said, "{}", t["diagnostics"]);
    // add(4) on every element, then the four lanes' add(step = 2) on element 1 from the same old
    // value.
    let mut n = vec![2i64; 4];
    let mut s: Vec<f64> = (0..4).map(|i| i as f64 + 4.0).collect();
    n[1] += 1;
    s[1] += 2.0;
    assert_eq!(ints(&t, "acc.n"), n);
    assert_eq!(floats(&t, "acc.s"), s);
    let means: Vec<f64> = (0..4)
        .map(|i| f64::from((s[i] / n[i] as f64) as f32))
        .collect();
    assert_eq!(floats(&t, "means"), means);
}

#[test]
fn a_vec_t_with_operator_subscript_loads_scales_and_stores_rows() {
    let t = run(
        "cuda/vec_t_global_load_store.cu",
        &[
            "--threads-per-block",
            "4",
            "--buffer",
            "in:16=index",
            "--buffer",
            "out:16=zero",
            "--buffer",
            "first:4=zero",
        ],
    );
    // By the kernel's comment: out[4t + i] = 2 (4t + i) + i = 8t + 3i; first[t] = 4t + (4t + 3).
    let out: Vec<f64> = (0..16)
        .map(|c| {
            let (t, i) = (c / 4, c % 4);
            (8 * t + 3 * i) as f64
        })
        .collect();
    assert_eq!(floats(&t, "out"), out);
    let first: Vec<f64> = (0..4).map(|t| (8 * t + 3) as f64).collect();
    assert_eq!(floats(&t, "first"), first);
}
