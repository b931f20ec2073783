// The float-max CAS loop (PyTorch, ONNX Runtime, SGLang's fp8 quantization) runs atomicCAS
// through `(int*)` on a float buffer. An atomic that reinterprets a cell's bytes is not
// modelled: the run ends at the atomicCAS (line 11) with outcome error naming the cast, rather
// than store the converted number, which it used to do silently (a tester's repro kept 0.5
// where the device gives the maximum, 3.5). Nothing is written: out keeps its index fill.
__device__ float atomicMaxFloat(float *address, float val) {
    int *address_as_i = (int *)address;
    int old = *address_as_i, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_i, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
__global__ void k(float *out) { atomicMaxFloat(out, threadIdx.x * 0.5f); }
