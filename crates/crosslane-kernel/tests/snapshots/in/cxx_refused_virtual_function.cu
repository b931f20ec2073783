// A virtual member function calls the final overrider of the object's dynamic type
// ([class.virtual]/2); dynamic dispatch is not modelled, so `virtual` is refused where it is
// written (line 6, column 3), saying to remove it and call the function of the object's own
// class. Nothing runs.
struct Shape {
  virtual __device__ float area() const { return 0; }
};
__global__ void k(float* out) {
  Shape s;
  out[threadIdx.x] = s.area();
}
