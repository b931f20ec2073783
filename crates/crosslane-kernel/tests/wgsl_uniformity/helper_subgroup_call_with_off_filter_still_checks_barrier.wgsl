enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn sum_then_sync(x: u32) -> u32 {
  let s = subgroupAdd(x);
  workgroupBarrier();
  return s;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 32u) {
    out[i] = sum_then_sync(i);
  }
}
