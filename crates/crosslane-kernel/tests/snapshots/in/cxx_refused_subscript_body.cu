// An `operator[]` whose body is not the element of an array member cannot be read as one
// ([over.sub]): refused at its body, 6:48, with the shapes that run.
struct Clamp {
    float data[4];
    int n;
    __device__ float operator[](int i) const { return i < n ? data[i] : 0.0f; }
};
__global__ void k(float* a) {
    Clamp c;
    c.n = 1;
    c.data[0] = 1.0f;
    a[threadIdx.x] = c[0];
}
