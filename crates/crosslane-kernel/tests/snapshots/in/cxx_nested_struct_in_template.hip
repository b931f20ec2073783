// snapshot: threads=8
// A class nested in a class template ([class.nest]): rocPRIM's
// `typename block_reduce<T, N>::storage_type` shape. Inside the outer class the inner one is
// named bare (a member function's parameter); outside, as `outer<args>::inner`.
// 8 lanes; lanes 0..3 write st.v[l] = l + 1, so after the barrier st.v = {1, 2, 3, 4}.
//   total[l] = red::sum(st) = 1 + 2 + 3 + 4 = 10 in every lane.
//   other[l]: a second instance holding floats, pair<float,2>::cell c{0.5 * l, 2}:
//     c.a * c.b = l -> 0 1 2 3 4 5 6 7 (each instance has its own nested struct).
template <class T, unsigned N> struct block_reduce {
  struct storage_type { T v[N]; };
  __device__ static T sum(const storage_type& s) {
    T acc = 0;
    for (unsigned i = 0; i < N; ++i) acc += s.v[i];
    return acc;
  }
};
template <class T, int K> struct pair {
  struct cell { T a; T b; };
};
__global__ void k(int* total, float* other) {
  __shared__ typename block_reduce<int, 4>::storage_type st;
  int l = threadIdx.x;
  if (l < 4) st.v[l] = l + 1;
  __syncthreads();
  total[l] = block_reduce<int, 4>::sum(st);
  pair<float, 2>::cell c{0.5f * l, 2.f};
  other[l] = c.a * c.b;
}
