__global__ void test_mxc_madi32(int a,int b,int64_t c,int64_t* d) {
   d[0]=__builtin_mxc_mad_wide_i32(a,b,c);
}

__global__ void test_mxc_madu32(unsigned int a,unsigned int b,uint64_t c,uint64_t* d) {
   d[0]=__builtin_mxc_mad_wide_u32(a,b,c);
}
