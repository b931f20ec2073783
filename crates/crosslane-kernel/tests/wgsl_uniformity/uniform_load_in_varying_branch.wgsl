@group(0) @binding(0) var<storage, read_write> o: array<u32>;
var<workgroup> n: u32;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) {
    n = 5u;
  }
  var v = 0u;
  if (i > 1u) {
    v = workgroupUniformLoad(&n);
  }
  o[i] = v;
}
