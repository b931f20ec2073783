//! WGSL shapes of sorting and scan libraries that were refused or ran wrong: a helper that
//! returns `subgroupBallot`'s result whole (the `unsafeSubgroupBallot` wrappers of radix-sort
//! ports). Every expected value is worked out by hand or by the Python line quoted beside it,
//! from the WGSL spec sections named per test, never copied from the emulator's output.

use crate::support::{ints_or_min, wgsl_no_errors as run_with, wgsl_out as config};

/// WGSL § Subgroup Built-in Functions, subgroupBallot: bit `id % 32` of component `id / 32`
/// is set for each active invocation whose predicate is true. A helper returning the ballot
/// whole (`fn vote(p: bool) -> vec4<u32> { return subgroupBallot(p); }`) gives its caller the
/// same four components. It was refused ("a result of this type is not emulated yet").
#[test]
fn a_helper_returns_a_ballot_whole() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@diagnostic(off, subgroup_uniformity)
fn vote(p: bool) -> vec4<u32> { return subgroupBallot(p); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let b = vote(i % 5u == 0u);
  let n = countOneBits(b);
  o[i] = select(b.y, b.x, i % 2u == 0u);
  if (i == 0u) { o[64] = n.x + n.y * 100u + (b.z | b.w) * 10000u; }
}";
    // 64 lanes: x = sum(1<<i for i in range(32) if i%5==0) = 0x42108421 (7 bits),
    // y = sum(1<<(i-32) for i in range(32,64) if i%5==0) = 0x10842108 (6 bits), z = w = 0.
    let t = run_with(src, config(64, 65));
    let o = ints_or_min(&t, "o");
    for (i, &got) in o.iter().take(64).enumerate() {
        let want = if i % 2 == 0 { 0x4210_8421 } else { 0x1084_2108 };
        assert_eq!(got, want, "invocation {i}");
    }
    assert_eq!(o[64], 7 + 600);

    // 16 lanes: four subgroups, each its own x; y = 0. Subgroup s: bits (i - 16s) for
    // i in 16s..16s+16 with i % 5 == 0: 0x8421, 0x4210, 0x2108, 0x1084.
    let t = run_with(src, config(16, 65));
    let o = ints_or_min(&t, "o");
    let xs = [0x8421, 0x4210, 0x2108, 0x1084];
    for (i, &got) in o.iter().take(64).enumerate() {
        let want = if i % 2 == 0 { xs[i / 16] } else { 0 };
        assert_eq!(got, want, "invocation {i}");
    }
    assert_eq!(o[64], 4);
}

/// WGSL § Uniformity Analysis: a function variable's value is the last assignment's, so
/// `x = 0u;` after `var x = lid;` makes `x` uniform again and the `subgroupAdd` under
/// `if (x == 0u)` is in uniform control flow (Tint accepts it; the shader was refused:
/// "the branch … depends on variable `x`"). Every invocation of the 32-wide subgroup adds 1.
/// A variable written non-uniformly later in a loop's body stays non-uniform at the loop's
/// start (the next iteration reads it): that shader is still refused, as Tint refuses it.
#[test]
fn a_reassigned_variable_is_uniform_again() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var x = lid;
  o[lid] = x;
  x = 0u;
  if (x == 0u) { o[lid] = subgroupAdd(1u) + o[lid] * 100u; }
}";
    let t = run_with(src, config(32, 32));
    let want: Vec<i128> = (0..32).map(|i| 32 + 100 * i).collect();
    assert_eq!(ints_or_min(&t, "o"), want);

    let looped = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var x = 0u;
  for (var i = 0u; i < 4u; i++) {
    if (x == 0u) { o[lid] = subgroupAdd(1u); }
    x = lid;
  }
}";
    let e = crosslane_kernel::wgsl::run_wgsl(looped, config(32, 32))
        .expect_err("a variable written with lid later in the loop is non-uniform at its top");
    assert!(e.to_string().contains("variable `x`"), "{e}");
}

/// The reason a refusal gives for `if id == 0u || id == 1u { subgroupMul(..) }` (the WebGPU
/// CTS `compute,split` shape without its diagnostic directive): what the condition depends
/// on, `subgroup_invocation_id` — not naga's unnamed temporary for `||` ("variable `?`").
#[test]
fn an_or_condition_names_what_it_depends_on() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(subgroup_invocation_id) id: u32) {
  if id == 0u || id == 1u { o[id] = subgroupMul(2u); }
}";
    let e = crosslane_kernel::wgsl::run_wgsl(src, config(32, 32)).expect_err("divergent");
    let m = e.to_string();
    assert!(m.contains("depends on subgroup_invocation_id"), "{m}");
    assert!(!m.contains('?'), "{m}");
}

/// WGSL § Parsing: `#` is not a WGSL token, so a shader still holding its build step's
/// directives (`#import` of naga_oil / Bevy, `#ifdef` of a project's own preprocessor) is
/// refused before the run, at the directive, saying what the step would have emitted
/// (naga's message was only "expected global item … found `#`").
#[test]
fn a_preprocessor_directive_is_refused_at_its_line() {
    let src = "// scan helpers\n#import scan_helpers as helpers\n@compute @workgroup_size(64)\nfn main() { helpers::scan(); }";
    let e = crosslane_kernel::wgsl::run_wgsl(src, config(32, 1)).expect_err("not WGSL");
    let m = e.to_string();
    assert!(m.contains("`#import` is a preprocessor directive"), "{m}");
    assert!(m.starts_with("2:1"), "{m}");

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n/* #ifdef in a comment is fine */\n@compute @workgroup_size(1) fn main() {\n#ifdef FP16\n  o[0] = 1u;\n#endif\n}";
    let e = crosslane_kernel::wgsl::run_wgsl(src, config(32, 1)).expect_err("not WGSL");
    let m = e.to_string();
    assert!(m.contains("`#ifdef`") && m.starts_with("4:1"), "{m}");
}

/// WGSL § Integer Built-in Functions, insertBits / extractBits: with `offset` and `count`
/// both const-expressions, `offset + count` above the 32 bits of `e` is a shader-creation
/// error (Tint refuses it; it ran clamped). A `let` is not a const-expression: the runtime
/// rule clamps `count` to `32 - offset`, so `insertBits(5u, 7u, 30u, 4u)` through a `let`
/// offset sets bits 30 and 31 (7 & 3): 5 + 3 << 30 = 3221225477.
#[test]
fn const_bit_ranges_past_32_bits_are_refused() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
const OFF = 28u;
@compute @workgroup_size(1) fn main() {
  o[0] = extractBits(o[1], OFF, 8u);
}";
    let e = crosslane_kernel::wgsl::run_wgsl(src, config(32, 2)).expect_err("28 + 8 > 32");
    let m = e.to_string();
    assert!(
        m.starts_with("4:10") && m.contains("offset + count must be at most 32"),
        "{m}"
    );

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  let off = 30u;
  o[0] = insertBits(5u, 7u, off, 4u);
}";
    let t = run_with(src, config(32, 1));
    assert_eq!(ints_or_min(&t, "o"), vec![3_221_225_477]);
}

/// WGSL § Expressions: a bitwise expression chains one operator over unary operands, a
/// shift's operands are unary, and one comparison makes a relational expression, so
/// `x & y | z`, `x << y + 1u` and `x == y == b` need parentheses (Tint: "mixing '&' and '|'
/// requires parenthesis", at the first operator). naga ran them with C's precedence. The
/// same operators grouped by parentheses, by `let` names, or on the right of a compound
/// assignment are valid and run: x = 5, y = 3, z = 2 gives (5 & 3) | 2 = 3, then
/// `x &= y | z` = 5 & 3 = 1, `x += m << 1u` with `let m = y & z` (= 2): 1 + 4 = 5.
#[test]
fn operator_mixes_without_parentheses_are_refused() {
    for (expr, col, pair) in [
        ("x & y | z", 12, "`&` and `|`"),
        ("x << y + 1u", 12, "`<<` and `+`"),
        ("x + y << 1u", 12, "`+` and `<<`"),
        ("u32(x == y == true)", 16, "`==` and `==`"),
        ("x ^ (y) & z", 12, "`^` and `&`"),
    ] {
        let src = format!(
            "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {{
  let x = o[0]; let y = o[1]; let z = o[2];
  o[3] = {expr};
}}"
        );
        let e = crosslane_kernel::wgsl::run_wgsl(&src, config(32, 4)).expect_err(expr);
        let m = e.to_string();
        assert!(m.starts_with(&format!("4:{col}")), "{expr}: {m}");
        assert!(
            m.contains(&format!("mixing {pair} requires parentheses")),
            "{m}"
        );
    }

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  var x = o[0]; let y = o[1]; let z = o[2];
  o[3] = (x & y) | z;
  x &= y | z;
  let m = y & z;
  x += m << 1u;
  o[4] = x;
}";
    let mut c = config(32, 5);
    c.args.insert("o".into(), "5,3,2,0,0".into());
    let t = run_with(src, c);
    assert_eq!(ints_or_min(&t, "o"), vec![5, 3, 2, 3, 5]);
}
