//! Elements of file-scope `constexpr` arrays as constant expressions (C++17 [expr.const]/2.7.1)
//! in host code that launches a template kernel: ONNX Runtime's `constexpr int block_size =
//! kSizes[1] / 4;` shape. Kernel written here; the values derived in the comments.

use crate::support::{floats, run_default};

/// `kS = {32, 64, 128}`: `bs = kS[1] / 4 = 16` is the template argument and the block size,
/// and `kS[kN - 1] = kS[2] = 128` a second one, so each of the 16 threads writes 16 + 128 =
/// 144; the rest of the 64 cells `cudaMalloc` gave stay undefined.
#[test]
fn a_constexpr_array_element_is_a_template_argument_in_host_code() {
    let src = r#"
constexpr int kS[] = {32, 64, 128};
constexpr int kN = 3;
template <int B, int M> __global__ void k(float* o) { o[threadIdx.x] = B + M; }
int main() {
    float* d;
    cudaMalloc(&d, 64 * sizeof(float));
    constexpr int bs = kS[1] / 4;
    k<bs, kS[kN - 1]><<<1, bs>>>(d);
    return 0;
}
"#;
    let t = run_default(src);
    let o = floats(&t, "o");
    assert_eq!(o[..16], vec![Some(144.0); 16][..]);
    assert!(o[16..].iter().all(Option::is_none));
}
