// A switch with a multi-value case and a default, per invocation.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    var r = 0u;
    switch (i % 4u) {
        case 0u: {
            r = 10u;
        }
        case 1u, 2u: {
            r = 20u + i;
        }
        default: {
            r = 99u;
        }
    }
    out[i] = r;
}
