//! WGSL built-in functions, integer rules and subgroup built-ins on vectors, each against a
//! value derived by hand or by Python (`math` at double precision, rounded to f32 with
//! `struct.pack('f', …)`), as written beside each assertion. Sources: the WGSL spec sections
//! named per test.

use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

fn run(src: &str, lanes: usize) -> KernelTrace {
    let cfg = LaunchConfig {
        lanes: Some(lanes),
        grid_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    };
    run_wgsl(src, cfg).unwrap_or_else(|e| panic!("{e}"))
}

fn cells(t: &KernelTrace, name: &str) -> Vec<Option<KVal>> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("no buffer {name}"))
        .to_vec()
}

fn ints(t: &KernelTrace, name: &str) -> Vec<Option<i128>> {
    cells(t, name)
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect()
}

fn floats(t: &KernelTrace, name: &str) -> Vec<f64> {
    cells(t, name)
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).unwrap_or(f64::NAN))
        .collect()
}

/// WGSL § 8.7 "Arithmetic Expressions" (i32 `/` and `%` by zero and MIN / -1), § 17.5 abs
/// (the most negative value is its own absolute value), § 8.6 negation (wraps), § 8.9 "Bit
/// Expressions" (the shift count modulo the bit width), § 15.7.6 "Floating Point Conversion"
/// (toward zero, then saturating). The operands come from `lid` (0) so naga does not fold
/// them into const-expressions, where the same cases are shader-creation errors.
#[test]
fn i32_edge_cases_follow_the_spec() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<i32, 12>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) lid: u32) {
  let z = i32(lid);
  let mn = -2147483647 - 1 + z;
  let m1 = z - 1;
  out[0] = mn / m1;
  out[1] = mn % m1;
  out[2] = abs(mn);
  out[3] = -mn;
  out[4] = (1 + z) << (33u + lid);
  out[5] = i32(3e9 + f32(lid));
  out[6] = i32(-3e9 + f32(lid));
  out[7] = i32(u32(-5.0 + f32(lid)));
  out[8] = 7 / z;
  out[9] = (-8 + z) >> (33u + lid);
  out[10] = 2147483647 + z + 1;
  out[11] = i32(-7.9 + f32(lid));
}
";
    let t = run(src, 32);
    let min = i128::from(i32::MIN);
    assert_eq!(
        ints(&t, "out"),
        vec![
            Some(min),                  // MIN / -1 = MIN (e1)
            Some(0),                    // MIN % -1 = 0
            Some(min),                  // abs(MIN) = MIN
            Some(min),                  // -MIN wraps to MIN
            Some(2),                    // 1 << (33 % 32)
            Some(i128::from(i32::MAX)), // 3e9 saturates
            Some(min),                  // -3e9 saturates
            Some(0),                    // u32(-5.0) saturates at 0
            Some(7),                    // 7 / 0 = e1
            Some(-4),                   // -8 >> (33 % 32), arithmetic
            Some(min),                  // MAX + 1 wraps
            Some(-7),                   // toward zero
        ]
    );
}

/// WGSL § 17.5 numeric built-ins on f32. Expected values: Python `math` at double precision,
/// rounded to f32; exact cases by hand.
#[test]
fn numeric_builtins_on_f32() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<f32, 31>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) lid: u32) {
  let z = f32(lid);
  let h = 0.5 + z;
  out[0] = exp(1.0 + z);
  out[1] = exp2(3.0 + z);
  out[2] = log(h);
  out[3] = log2(8.0 + z);
  out[4] = pow(2.0 + z, 10.0);
  out[5] = sqrt(2.0 + z);
  out[6] = inverseSqrt(4.0 + z);
  out[7] = round(2.5 + z);
  out[8] = round(-3.5 + z);
  out[9] = fract(-0.25 + z);
  out[10] = trunc(-2.7 + z);
  out[11] = sign(-3.0 + z);
  out[12] = fma(2.0 + z, 3.0, 1.0);
  out[13] = mix(2.0 + z, 4.0, 0.25);
  out[14] = step(1.0, h);
  out[15] = smoothstep(0.0, 1.0, h);
  out[16] = sin(h);
  out[17] = cos(z);
  out[18] = tanh(h);
  out[19] = atan2(1.0 + z, 1.0);
  out[20] = saturate(1.5 + z);
  out[21] = quantizeToF16(0.1 + z);
  out[22] = degrees(3.14159265 + z);
  out[23] = ldexp(0.75 + z, 3);
  out[24] = modf(-2.5 + z).fract;
  out[25] = f32(frexp(8.0 + z).exp);
  let v = vec3<f32>(1.0 + z, 2.0, 2.0);
  out[26] = length(v);
  out[27] = normalize(v).y;
  let c = cross(vec3<f32>(1.0 + z, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0));
  out[28] = c.z;
  out[29] = distance(vec2<f32>(z, z), vec2<f32>(3.0, 4.0));
  out[30] = reflect(vec2<f32>(1.0 + z, -1.0), vec2<f32>(0.0, 1.0)).y;
}
";
    let t = run(src, 32);
    let want = [
        2.718_281_745_910_644_5, // f32(e)
        8.0,
        -0.693_147_182_464_599_6, // f32(ln 0.5)
        3.0,
        1024.0,
        1.414_213_538_169_860_8, // f32(sqrt(2))
        0.5,
        2.0,  // ties to even
        -4.0, // ties to even
        0.75, // -0.25 - floor(-0.25)
        -2.0,
        -1.0,
        7.0,
        2.5,                     // 2 * 0.75 + 4 * 0.25
        0.0,                     // 0.5 < 1.0
        0.5,                     // t = 0.5: 0.25 * 2
        0.479_425_549_507_141_1, // f32(sin 0.5)
        1.0,
        0.462_117_165_327_072_14, // f32(tanh 0.5)
        0.785_398_185_253_143_3,  // f32(pi / 4)
        1.0,
        0.099_975_585_937_5, // f16(0.1) = 1638 / 16384
        180.0,               // f32(pi) in degrees, rounded to f32
        6.0,
        -0.5,
        4.0,                     // 8 = 0.5 * 2^4
        3.0,                     // sqrt(1 + 4 + 4)
        0.666_666_686_534_881_6, // f32(2 / 3)
        1.0,                     // x cross y = z
        5.0,                     // 3-4-5
        1.0,                     // -1 - 2 * (-1) * 1
    ];
    let got = floats(&t, "out");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-6 * w.abs().max(1.0),
            "out[{k}] = {g}, want {w}"
        );
    }
}

/// WGSL § 17.5 bit built-ins and § 17.9–17.10 packing, by hand.
#[test]
fn bit_and_packing_builtins() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32, 14>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) lid: u32) {
  out[0] = countOneBits(0xF0F0u + lid);
  out[1] = countLeadingZeros(0x00010000u + lid);
  out[2] = countTrailingZeros(lid);
  out[3] = u32(firstLeadingBit(-8 + i32(lid)));
  out[4] = firstTrailingBit(0x50u + lid);
  out[5] = u32(extractBits(0xF0 + i32(lid), 4u, 4u));
  out[6] = insertBits(lid, 5u, 8u, 3u);
  out[7] = reverseBits(1u + lid);
  out[8] = pack4x8unorm(vec4<f32>(1.0, 0.5, f32(lid), 0.0));
  out[9] = pack4x8snorm(vec4<f32>(-1.0, 1.0, f32(lid), 0.5));
  out[10] = pack4xI8Clamp(vec4<i32>(300, -300, -1 + i32(lid), 5));
  out[11] = u32(dot4I8Packed(0x02ff0304u + lid, 0x01010102u));
  out[12] = pack2x16float(vec2<f32>(1.0 + f32(lid), -2.0));
  out[13] = u32(unpack4xI8(0x8000u + lid).y);
}
";
    let t = run(src, 32);
    assert_eq!(
        ints(&t, "out"),
        [
            8,           // 0xF0F0 has 8 bits set
            15,          // bit 16 is the top one
            32,          // countTrailingZeros(0) = 32
            2,           // -8 = …11111000: the first 0 from the top is bit 2
            4,           // 0x50 = 0b1010000
            0xFFFF_FFFF, // the field 0xF sign-extended as i32: -1
            0x500,       // 0b101 at bit 8
            0x8000_0000, // bit 0 to bit 31
            0x80FF,      // floor(0.5 + 255), floor(0.5 + 127.5) = 128
            0x4000_7F81, // -127, 127, 0, floor(0.5 + 63.5) = 64
            0x05FF_807F, // 127, -128, -1, 5 as bytes
            12,          // 4*2 + 3*1 + (-1)*1 + 2*1
            0xC000_3C00, // f16(1.0) = 0x3c00, f16(-2.0) = 0xc000
            0xFFFF_FF80, // byte 1 = 0x80 = -128
        ]
        .map(Some)
        .to_vec()
    );
}

/// WGSL § Subgroup Built-in Functions take vectors component-wise: subgroupAdd on a vec4,
/// subgroupShuffleXor on a vec2, subgroupBroadcastFirst on a vec3 (subgroup size 8, one
/// subgroup; by hand: the lane sum 0+…+7 = 28).
#[test]
fn subgroup_builtins_on_vectors() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> sums: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> xors: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> firsts: array<i32>;
@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  let v = vec4<f32>(f32(lane), 1.0, 2.0 * f32(lane), -1.0);
  sums[lane] = subgroupAdd(v);
  xors[lane] = subgroupShuffleXor(vec2<u32>(lane, lane * 10u), 1u);
  let b = subgroupBroadcastFirst(vec3<i32>(i32(lane) + 5, -i32(lane), 7));
  firsts[lane] = b.x + b.y * 10 + b.z * 100;
}
";
    let t = run(src, 8);
    let sums: Vec<f64> = (0..8).flat_map(|_| [28.0, 8.0, 56.0, -8.0]).collect();
    assert_eq!(floats(&t, "sums"), sums);
    let xors: Vec<Option<i128>> = (0..8i128)
        .flat_map(|l| [Some(l ^ 1), Some((l ^ 1) * 10)])
        .collect();
    assert_eq!(ints(&t, "xors"), xors);
    // Lane 0's vector (5, 0, 7) in every lane: 5 + 0 + 700.
    assert_eq!(ints(&t, "firsts"), vec![Some(705); 8]);
}

/// An out-of-domain argument is an undefined lane with the reason (WGSL § 15.7.2), never a
/// number picked quietly.
#[test]
fn out_of_domain_is_undefined_with_a_reason() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<f32, 1>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) lid: u32) {
  out[0] = log(-1.0 - f32(lid));
}
";
    let t = run(src, 32);
    assert_eq!(cells(&t, "out")[0], None);
    assert!(t
        .all_diagnostics()
        .any(|d| d.message.contains("outside its domain")));
}

/// WGSL spec, "Language Extensions" `subgroup_id` and "Built-in Values": `subgroup_id` and
/// `num_subgroups` under `requires subgroup_id;` (naga 30 does not know the directive; it is
/// blanked before naga parses). The engine's mapping is linear: subgroup = index / size. A
/// 12-invocation workgroup at subgroup size 8 has ⌈12 / 8⌉ = 2 subgroups, the second partial.
#[test]
fn requires_subgroup_id_gives_the_linear_mapping_with_a_partial_subgroup() {
    let src = "enable subgroups;
requires subgroup_id;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(12)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) n: u32) {
  out[i] = sg * 100u + n * 10u + subgroupAdd(1u);
}
";
    let t = run(src, 8);
    // Subgroup 0: invocations 0..8 (8 active); subgroup 1: 8..12 (4 active).
    let want: Vec<Option<i128>> = (0..12)
        .map(|i| Some(if i < 8 { 20 + 8 } else { 100 + 20 + 4 }))
        .collect();
    assert_eq!(ints(&t, "out")[..12], want[..]);
    // The directive present: no missing-directive warning.
    assert!(!t
        .all_diagnostics()
        .any(|d| d.message.contains("missing `enable subgroups;`")));
}

/// WGSL § Function Declaration with vector results and `ptr<function, T>` parameters (§
/// Pointer Types): a helper returning a `vec4<u32>`, one taking a `vec2<f32>` through a pointer
/// and writing it, one incrementing a scalar through a pointer. By hand for invocation i:
/// spread(i) = (i, 2i, 3i, 4i); scale(&v) doubles v = (i, 1) to (2i, 2); bump(&n) twice adds 2.
#[test]
fn helpers_with_vector_results_and_pointer_parameters() {
    let src = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn spread(x: u32) -> vec4<u32> {
  if (x == 99u) { return vec4<u32>(0u); }
  return vec4<u32>(x, 2u * x, 3u * x, 4u * x);
}
fn scale(p: ptr<function, vec2<f32>>) {
  *p = *p * 2.0;
}
fn bump(n: ptr<function, u32>) {
  *n = *n + 1u;
}
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let s = spread(i);
  var v = vec2<f32>(f32(i), 1.0);
  scale(&v);
  var n = 0u;
  bump(&n);
  bump(&n);
  out[i] = s.x + s.y + s.z + s.w + u32(v.x) * 100u + u32(v.y) * 1000u + n * 10000u;
}
";
    let t = run(src, 4);
    let want: Vec<Option<i128>> = (0..4i128)
        .map(|i| Some(10 * i + 2 * i * 100 + 2 * 1000 + 2 * 10000))
        .collect();
    assert_eq!(ints(&t, "out")[..4], want[..]);
}

/// WGSL spec, "Override Declarations": an override takes the pipeline's value by name or by
/// `@id`, else its initializer; without either it is an error naming the flag. By hand:
/// out[i] = i * scale + bias.
#[test]
fn overrides_take_the_launch_value_by_name_or_id_else_their_default() {
    let src = "override scale: u32 = 3u;
@id(7) override bias: f32;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = f32(i * scale) + bias;
}
";
    let cfg = |args: &[(&str, &str)]| {
        let mut c = LaunchConfig {
            lanes: Some(4),
            ..LaunchConfig::default()
        };
        for (k, v) in args {
            c.args.insert(k.to_string(), v.to_string());
        }
        c
    };
    let t = run_wgsl(src, cfg(&[("7", "0.5")])).expect("runs");
    assert_eq!(floats(&t, "out")[..4], [0.5, 3.5, 6.5, 9.5]);
    let t = run_wgsl(src, cfg(&[("bias", "1"), ("scale", "10")])).expect("runs");
    assert_eq!(floats(&t, "out")[..4], [1.0, 11.0, 21.0, 31.0]);
    let e = run_wgsl(src, cfg(&[])).expect_err("bias unset");
    assert!(e.message.contains("--override bias=VALUE"), "{e}");
    let e = run_wgsl(src, cfg(&[("bias", "1"), ("scale", "2.5")])).expect_err("not integral");
    assert!(e.message.contains("not an integer"), "{e}");
}
