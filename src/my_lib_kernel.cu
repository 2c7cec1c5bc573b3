// The add kernel of the demo: output = input1 + input2 over n contiguous
// elements.  CPU reference: src/my_lib.c.
#include "my_lib_kernel.h"

namespace {

const int kThreads = 256;

// Grid-stride loop with 64-bit indices.  When all three pointers are 16-byte
// aligned, each thread moves 16 bytes at a time (float4 / double2); the
// tail that does not fill a vector is done one element at a time.
template <typename T, typename V>
__global__ void add_forward_kernel(const T *__restrict__ a, const T *__restrict__ b,
                                   T *__restrict__ out, int64_t n, bool vectorised) {
  const int64_t start = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  int64_t done = 0;
  if (vectorised) {
    const int per = sizeof(V) / sizeof(T);
    const int64_t vectors = n / per;
    const V *av = reinterpret_cast<const V *>(a);
    const V *bv = reinterpret_cast<const V *>(b);
    V *ov = reinterpret_cast<V *>(out);
    for (int64_t i = start; i < vectors; i += step) {
      V x = av[i], y = bv[i], z;
      const T *xs = reinterpret_cast<const T *>(&x);
      const T *ys = reinterpret_cast<const T *>(&y);
      T *zs = reinterpret_cast<T *>(&z);
#pragma unroll
      for (int k = 0; k < per; k++) zs[k] = xs[k] + ys[k];
      ov[i] = z;
    }
    done = vectors * per;
  }
  for (int64_t i = done + start; i < n; i += step) out[i] = a[i] + b[i];
}

template <typename T, typename V>
cudaError_t add_forward_launch(const T *a, const T *b, T *out, int64_t n,
                               cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  const bool vectorised = ((uintptr_t)a % sizeof(V) == 0) &&
                          ((uintptr_t)b % sizeof(V) == 0) &&
                          ((uintptr_t)out % sizeof(V) == 0);
  const int64_t work = vectorised ? (n + sizeof(V) / sizeof(T) - 1) / (sizeof(V) / sizeof(T)) : n;
  int64_t blocks = (work + kThreads - 1) / kThreads;
  if (blocks > 65536) blocks = 65536;
  add_forward_kernel<T, V><<<(unsigned)blocks, kThreads, 0, stream>>>(a, b, out, n, vectorised);
  return cudaGetLastError();
}

}  // namespace

extern "C" cudaError_t my_lib_add_forward_launch_float(const float *input1,
                                                       const float *input2, float *output,
                                                       int64_t n, cudaStream_t stream) {
  return add_forward_launch<float, float4>(input1, input2, output, n, stream);
}

extern "C" cudaError_t my_lib_add_forward_launch_double(const double *input1,
                                                        const double *input2, double *output,
                                                        int64_t n, cudaStream_t stream) {
  return add_forward_launch<double, double2>(input1, input2, output, n, stream);
}
