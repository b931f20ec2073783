// snapshot: threads=4
// Cache-hinted loads and stores (CUDA C++ Programming Guide, "Load Functions Using Cache Hints"
// and "Store Functions Using Cache Hints") read and write like plain ones: the hint names a
// cache level, which changes no value. With the index fill, in = 0 1 2 3, so
//   out  = 2 * in      = 0 2 4 6      (__ldcs, __stcs)
//   out2 = in + 1      = 1 2 3 4      (__ldcg, __stwt)
//   out3 = in * in     = 0 1 4 9      (__ldlu, __stcg)
//   out4 = 10 - in     = 10 9 8 7     (__ldcv, __stwb)
__global__ void k(const int *in, int *out, int *out2, int *out3, int *out4) {
    int i = threadIdx.x;
    __stcs(out + i, 2 * __ldcs(in + i));
    __stwt(&out2[i], __ldcg(&in[i]) + 1);
    int v = __ldlu(in + i);
    __stcg(out3 + i, v * v);
    __stwb(out4 + i, 10 - __ldcv(in + i));
}
