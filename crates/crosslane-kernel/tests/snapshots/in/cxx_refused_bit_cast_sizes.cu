// A bit cast between types of different sizes is ill-formed (C++20 [bit.cast]/1: sizeof(To)
// == sizeof(From)): an 8-byte double read as a 4-byte uint32_t is refused at the cast, 6:22,
// before the run.
__global__ void k(unsigned* a) {
    double y = threadIdx.x;
    a[threadIdx.x] = __builtin_bit_cast(uint32_t, y * 2.0);
}
