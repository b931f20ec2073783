// A unary fold over `+` of an empty pack is ill-formed (C++17 [temp.variadic]/9): add() is
// refused before the run with the binary fold to write instead.
template <typename... Ts> __device__ int add(Ts... xs) { return (xs + ...); }
__global__ void k(int *o) { o[threadIdx.x] = add(); }
