// vadd.cu: tiny kernels for the GPU runtime test, compiled to an sm_90 cubin
// by nvcc (`nvcc -cubin -arch=sm_90`). extern "C" keeps the names unmangled,
// as kiln's and Triton's kernels are.

// z = x + y over n elements, one element per thread.
extern "C" __global__ void vadd_kernel(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i];
}

// The same with Triton's two trailing scratch pointers (global scratch,
// profile scratch), which the runtime passes as nulls.
extern "C" __global__ void vadd_triton(const float* x, const float* y, float* z, int n,
                                       void* global_scratch, void* profile_scratch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = x[i] + y[i] + (global_scratch == nullptr && profile_scratch == nullptr ? 0.0f : 1e9f);
}

// Writes every scalar parameter back as raw bits so the host can check the
// runtime's packing of each type.
extern "C" __global__ void scalars_kernel(unsigned long long* out, bool b, signed char i8,
                                          short i16, int i32, long long i64,
                                          unsigned short f16bits, unsigned short bf16bits,
                                          float f32, double f64) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  out[0] = b ? 1 : 0;
  out[1] = static_cast<unsigned long long>(static_cast<long long>(i8));
  out[2] = static_cast<unsigned long long>(static_cast<long long>(i16));
  out[3] = static_cast<unsigned long long>(static_cast<long long>(i32));
  out[4] = static_cast<unsigned long long>(i64);
  out[5] = f16bits;
  out[6] = bf16bits;
  out[7] = __float_as_uint(f32);
  out[8] = static_cast<unsigned long long>(__double_as_longlong(f64));
  out[9] = blockDim.x;
}
