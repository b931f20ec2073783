// A `break` before the end of a switch case leaves the switch (WGSL § switch statement).
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  var r = 0u;
  for (var k = 0u; k < 2u; k++) {
    switch (i % 3u) {
      case 0u: {
        r = r + 10u;
        if (i % 2u == 1u) {
          break;
        }
        r = r + 5u;
      }
      case 1u, 2u: {
        r = r + 20u + i;
      }
      default: {
        r = 99u;
      }
    }
  }
  out[i] = r;
}
