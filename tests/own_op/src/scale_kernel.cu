// The scale kernel: output = input * scale + bias over n contiguous
// elements.  CPU reference: scale.c.
#include "scale_kernel.h"

namespace {

const int kThreads = 256;

// Grid-stride loop with 64-bit indices.
template <typename T>
__global__ void scale_kernel(const T *__restrict__ input, T scale, T bias,
                             T *__restrict__ output, int64_t n) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step)
    output[i] = input[i] * scale + bias;
}

template <typename T>
cudaError_t scale_launch(const T *input, T scale, T bias, T *output, int64_t n,
                         cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  int64_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 65536) blocks = 65536;
  scale_kernel<T><<<(unsigned)blocks, kThreads, 0, stream>>>(input, scale, bias, output, n);
  return cudaGetLastError();
}

}  // namespace

extern "C" cudaError_t my_lib_scale_launch_float(const float *input, float scale,
                                                 float bias, float *output, int64_t n,
                                                 cudaStream_t stream) {
  return scale_launch<float>(input, scale, bias, output, n, stream);
}

extern "C" cudaError_t my_lib_scale_launch_double(const double *input, double scale,
                                                  double bias, double *output, int64_t n,
                                                  cudaStream_t stream) {
  return scale_launch<double>(input, scale, bias, output, n, stream);
}
