// WGSL integer rules where C differs: i32 overflow wraps, x / 0 is x and x % 0 is 0.
@group(0) @binding(0) var<storage, read_write> out: array<i32, 12>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let big = 2147483647i;
    out[i] = big + i32(i);
    let z = i32(i) - 1i;
    out[i + 4u] = 7i / z;
    out[i + 8u] = 7i % z;
}
