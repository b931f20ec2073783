enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  switch (i % 4u) {
    case 0u: { return; }
    default: { }
  }
  out[i] = subgroupAdd(i);
}
