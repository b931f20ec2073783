enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let b = (i < 4u) && (subgroupAdd(1u) > 2u);
  out[i] = select(0u, 1u, b);
}
