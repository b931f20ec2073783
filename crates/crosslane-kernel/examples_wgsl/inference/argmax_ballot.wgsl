// Argmax over 32 logits: subgroupMax, a ballot of the invocations holding it, and the
// lowest such invocation by countTrailingZeros (greedy sampling's shape).
enable subgroups;
@group(0) @binding(0) var<storage, read_write> best: array<u32, 32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  let logit = f32((lane * 7u) % 32u);
  let m = subgroupMax(logit);
  let b = subgroupBallot(logit == m);
  best[lane] = countTrailingZeros(b.x);
}
