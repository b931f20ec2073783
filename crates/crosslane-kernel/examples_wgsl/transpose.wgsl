// A 4x4 tile transposed through workgroup memory, with a barrier between the writes and reads.
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

var<workgroup> tile: array<u32, 16>;

@compute @workgroup_size(4, 4)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let row = lid.y;
    let col = lid.x;
    tile[row * 4u + col] = input[row * 4u + col];
    workgroupBarrier();
    output[row * 4u + col] = tile[col * 4u + row];
}
