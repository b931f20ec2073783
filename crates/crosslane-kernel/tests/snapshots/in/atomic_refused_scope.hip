// A HIP memory scope must be a constant clang accepts (`__HIP_MEMORY_SCOPE_SINGLETHREAD` …
// `__HIP_MEMORY_SCOPE_SYSTEM`, 1..5): a scope in a variable is refused at 5:56, 9 at 6:48;
// `__builtin_amdgcn_s_sleep` takes a constant count (the instruction's immediate): 7:30.
__global__ void k(int *c, int scope) {
    __hip_atomic_fetch_add(&c[0], 1, __ATOMIC_RELAXED, scope);
    __hip_atomic_load(&c[1], __ATOMIC_RELAXED, 9);
    __builtin_amdgcn_s_sleep(scope);
}
