// An array of structs in a storage buffer (held flat: each element's members in declaration
// order), member access, and a struct member that is a vector.
enable subgroups;

struct Particle {
  pos: vec2<f32>,
  vel: vec2<f32>,
  mass: f32,
  charge: f32,
}

struct Stats {
  total: u32,
  lanes: u32,
}

@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let dt = 0.5;
  let p = particles[i].pos;
  particles[i].pos = p + particles[i].vel * dt;
  particles[i].vel.y = particles[i].vel.y - particles[i].mass;
  particles[i].charge = -particles[i].charge;
  let n = subgroupAdd(1u);
  if (i == 0u) {
    stats.total = n * 10u;
    stats.lanes = n;
  }
}
