//! WGSL shapes from the sixth corpus round (ggml-webgpu, WebGPU-Radix-Sort, the WebGPU CTS,
//! vello, webgpu-samples) that were refused in the wrong place or with naga's IR words. Every
//! expectation is Tint's verdict on the same shader (`tint --format wgsl`, run by hand: line,
//! column and reason), never the emulator's output.

use crate::support::wgsl_out;

fn refusal(src: &str) -> String {
    crosslane_kernel::wgsl::run_wgsl(src, wgsl_out(32, 4))
        .expect_err("Tint refuses this shader")
        .to_string()
}

/// WGSL § 8.6 Bit Expressions: `e1 >> e2` with a const-expression `e2` at or past the bit
/// width of `e1` is a shader-creation error. In a helper (a bank-conflict offset written
/// `(i >> BANKS) + (i >> 10u)`) naga named the whole function (3:1); Tint reports the shift,
/// "3:33 error: shift right value must be less than the bit width of the lhs, which is 32".
#[test]
fn a_shift_past_the_width_in_a_helper_is_refused_at_the_shift() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
const BANKS: u32 = 32u;
fn pad(i: u32) -> u32 { return (i >> BANKS) + (i >> 10u); }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) t: u32) { o[t] = pad(t); }";
    let m = refusal(src);
    assert!(m.starts_with("3:33"), "{m}");
    assert!(
        m.contains("Shift amount exceeds the bit width of u32"),
        "{m}"
    );
}

/// WGSL § 8.7 Arithmetic Expressions: `e1 - e2` needs one type on both sides; an `f16` storage
/// element minus an `f32` (a norm kernel instantiated with an f16 source) is refused. Tint:
/// "4:24 error: no matching overload for 'operator - (f16, f32)'". The message names the WGSL
/// types, not naga's `Scalar(Scalar { kind: Float, width: 2 })`.
#[test]
fn a_type_mismatch_names_wgsl_types() {
    let src = "enable f16;
@group(0) @binding(0) var<storage, read_write> o: array<f16>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) t: u32) {
  let m = 0.5f; o[t] = o[t] - m;
}";
    let m = refusal(src);
    assert!(m.starts_with("4:24"), "{m}");
    assert!(
        m.contains("(of type f16) and") && m.contains("(of type f32)"),
        "{m}"
    );
    assert!(!m.contains("Scalar {"), "{m}");

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<vec4<u32>>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) t: u32) {
  o[t] = o[t] + vec4<f32>(1.0);
}";
    let m = refusal(src);
    assert!(m.contains("vec4<u32>") && m.contains("vec4<f32>"), "{m}");
    assert!(!m.contains("Vector {"), "{m}");
}

/// WGSL § 7.2 const Declarations: a value at module scope is a `const`; older WGSL (vello's
/// shared `config.wgsl`, early wgpu examples) wrote `let TILE_WIDTH = 16u;`. Tint: "6:1
/// error: module-scope 'let' is invalid, use 'const'". naga's message only listed the global
/// items it expected; it now says what to write.
#[test]
fn a_module_scope_let_is_refused_saying_const() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
struct Cfg {
    n: u32,
}

let TILE = 16u;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) t: u32) { o[t] = TILE; }";
    let m = refusal(src);
    assert!(m.starts_with("6:1"), "{m}");
    assert!(
        m.contains("module-scope `let`") && m.contains("write `const` instead of `let`"),
        "{m}"
    );
}
