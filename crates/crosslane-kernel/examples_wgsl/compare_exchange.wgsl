// atomicCompareExchangeWeak on each invocation's own slot (no contention, so the result does
// not depend on the order the invocations run): even invocations expect the slot's value,
// odd ones expect 999 and fail.
@group(0) @binding(0) var<storage, read_write> slots: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> old: array<u32>;
@group(0) @binding(2) var<storage, read_write> won: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let expected = select(999u, i, i % 2u == 0u);
  let r = atomicCompareExchangeWeak(&slots[i], expected, 100u + i);
  old[i] = r.old_value;
  won[i] = select(0u, 1u, r.exchanged);
}
