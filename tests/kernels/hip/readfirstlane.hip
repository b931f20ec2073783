// readfirstlane broadcasts the first active lane's value; readlane a chosen lane's.
__global__ void scalarize(const int* in, int* first, int* third) {
    int v = in[threadIdx.x];
    first[threadIdx.x] = __builtin_amdgcn_readfirstlane(v);
    third[threadIdx.x] = __builtin_amdgcn_readlane(v, 3);
}
