// snapshot: threads=8
// `*this` as a struct value inside a member function ([class.this]/1: `this` points at the
// object the function was called on, so `*this` is that object; [expr.cond]/7 for `?:` of two
// class values of the same type, [class.copy.ctor] for `return *this;`).
// Lane l: a = {8 - l, l}, b = {5, -1}.
// better(b) returns b when b.v < a.v, i.e. 5 < 8 - l, i.e. l < 3; else a copy of a:
//   best.v   = 5 5 5 5 4 3 2 1   (l<3 -> 5, else 8-l)
//   best.idx = -1 -1 -1 3 4 5 6 7   (l<3 -> -1, else l)
// bumped() copies *this, adds 10 to the copy's v and returns it; a itself is unchanged:
//   bump.v = 18 - l: 18 17 16 15 14 13 12 11; bump.idx = l; a.v afterwards is still 8 - l.
// (*this).v reads the receiver's field: twice() = 2 * (8 - l) = 16 14 12 10 8 6 4 2.
// `*this = o;` assigns the receiver member by member ([class.copy.assign]): c = {l, l}, and
// the odd lanes assign b = {5, -1} to it: asg.v = 0 5 2 5 4 5 6 5, asg.idx = 0 -1 2 -1 4 -1 6 -1.
struct MinLoc {
  float v;
  int idx;
  __device__ MinLoc better(const MinLoc& o) const { return (o.v < v) ? o : *this; }
  __device__ MinLoc bumped() const {
    MinLoc c = *this;
    c.v += 10.f;
    return c;
  }
  __device__ float twice() const { return (*this).v * 2.f; }
  __device__ void assign(const MinLoc& o) { *this = o; }
};

__global__ void k(MinLoc* best, MinLoc* bump, float* kept, float* tw, MinLoc* asg) {
  int l = threadIdx.x;
  MinLoc a{(float)(8 - l), l};
  MinLoc b{5.f, -1};
  best[l] = a.better(b);
  bump[l] = a.bumped();
  kept[l] = a.v;
  tw[l] = a.twice();
  MinLoc c{(float)l, l};
  if (l & 1) c.assign(b);
  asg[l] = c;
}
