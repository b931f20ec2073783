enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct P { n: u32 }
@group(0) @binding(1) var<uniform> params: P;
fn f(x: u32) -> u32 {
  if (x > 2u) { return 1u; }
  return subgroupAdd(x);
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = f(params.n);
}
