// Buffers of structs in and out, a struct array in shared memory, constructors with
// initializer lists, member functions (one mutating, one const) and sizeof of a struct. Each
// member of a struct buffer is its own buffer here (`in.x`, `in.vx`, `in.id`).

struct Particle {
    float x;
    float vx;
    int id;

    __device__ Particle() : x(0.0f), vx(0.0f), id(-1) {}
    __device__ Particle(float x, float vx, int id) : x(x), vx(vx), id(id) {}

    __device__ void step(float dt) { x += vx * dt; }
    __device__ float energy() const { return 0.5f * vx * vx; }
};

__global__ void advance(const Particle* in, Particle* out, float* energy) {
    __shared__ Particle tile[32];
    int i = threadIdx.x;
    Particle p = in[i];
    p.step(2.0f);
    tile[i] = p;
    __syncwarp();
    Particle next = tile[(i + 1) % 32];
    out[i] = Particle(p.x, next.vx, next.id);
    energy[i] = next.energy();
    out[i].x += sizeof(Particle);  // 12: three 4-byte members
    Particle* second = out + 1;
    if (i == 0) second->id = 100;
    Particle blank;
    if (i == 31) out[i].id = blank.id;
}
