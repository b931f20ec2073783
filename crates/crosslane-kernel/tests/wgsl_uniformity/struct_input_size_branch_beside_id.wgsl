enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Ids { @builtin(local_invocation_index) li: u32, @builtin(subgroup_size) n: u32 }
@compute @workgroup_size(16)
fn main(ids: Ids) {
  if (ids.n >= 8u) {
    out[0] = subgroupMax(ids.li);
  }
}
