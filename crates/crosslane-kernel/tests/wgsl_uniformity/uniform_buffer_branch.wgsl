enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct P { n: u32 }
@group(0) @binding(1) var<uniform> params: P;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (params.n > 4u) { out[i] = subgroupAdd(i); }
}
