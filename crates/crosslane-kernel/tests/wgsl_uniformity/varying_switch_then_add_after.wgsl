enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  var x = 0u;
  switch (i % 3u) {
    case 0u: { x = 5u; }
    case 1u: { x = 7u; }
    default: { x = 9u; }
  }
  out[i] = subgroupAdd(x);
}
