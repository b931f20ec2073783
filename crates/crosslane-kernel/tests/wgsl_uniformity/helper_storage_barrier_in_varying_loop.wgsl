@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn fence() {
  storageBarrier();
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < i; k++) {
    out[i] += k;
    fence();
  }
}
