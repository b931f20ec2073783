// Module-scope `var<private>` declarations (WGSL spec, § 7.3 var Declarations): every
// invocation has its own instance, which starts as the initializer's value, or as the
// type's zero value without one. A dequantization lookup table is the common case.
struct Affine {
    scale: f32,
    bias: vec2<f32>,
    shift: u32,
}

// A 4-bit code c stands for (c - 8) / 8.
var<private> LUT: array<f32, 16> = array<f32, 16>(
    -1.0, -0.875, -0.75, -0.625, -0.5, -0.375, -0.25, -0.125,
    0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875);
var<private> AXIS: vec3<f32> = vec3<f32>(1.0, 2.0, 3.0);
var<private> ROT: mat2x2<f32> = mat2x2<f32>(0.0, 1.0, -1.0, 0.0);
var<private> AFF: Affine = Affine(2.0, vec2<f32>(0.5, -0.5), 4u);
// No initializer: zeros, in each invocation.
var<private> HITS: array<u32, 4>;
var<private> SEEN: vec2<u32>;

@group(0) @binding(0) var<storage, read> codes: array<u32>;
@group(0) @binding(1) var<storage, read_write> deq: array<f32>;
@group(0) @binding(2) var<storage, read_write> misc: array<f32>;

fn count(c: u32) {
    HITS[c % 4u] += 1u;
    SEEN.y += c;
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    let c = (codes[i] * 3u + 5u) & 15u;
    deq[i] = LUT[c] * AFF.scale + AFF.bias.x;
    count(c);
    count(i);
    let r = ROT * vec2<f32>(AXIS.x, AXIS.z);
    let hits = HITS[0] + HITS[1] + HITS[2] + HITS[3];
    misc[i] = f32(hits) * 1000.0 + f32(SEEN.x + SEEN.y) * 10.0 + r.y - r.x
        + f32(AFF.shift) * 0.25 - 2.0 * AFF.bias.y;
}
