enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Group { @builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32> }
@compute @workgroup_size(16)
fn main(g: Group, @builtin(local_invocation_index) li: u32) {
  if (g.wg.x + 1u < g.nwg.x) {
    out[li] = subgroupMin(li);
  }
}
