// f16 arithmetic and a subgroup sum in f16, stored as f32.
enable f16;
enable subgroups;

@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
    let h = f16(i) * 0.5h;
    out[i] = f32(subgroupAdd(h));
}
