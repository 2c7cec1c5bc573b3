// The square kernels over n contiguous elements: forward output = input *
// input, backward grad_input = 2 * input * grad_output.  CPU reference:
// square.c.
#include "square_kernel.h"

namespace {

const int kThreads = 256;

// Grid-stride loops with 64-bit indices.
template <typename T>
__global__ void square_forward_kernel(const T *__restrict__ input, T *__restrict__ output,
                                      int64_t n) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step)
    output[i] = input[i] * input[i];
}

template <typename T>
__global__ void square_backward_kernel(const T *__restrict__ grad_output,
                                       const T *__restrict__ input,
                                       T *__restrict__ grad_input, int64_t n) {
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step)
    grad_input[i] = T(2) * input[i] * grad_output[i];
}

unsigned blocks_for(int64_t n) {
  int64_t blocks = (n + kThreads - 1) / kThreads;
  return (unsigned)(blocks > 65536 ? 65536 : blocks);
}

template <typename T>
cudaError_t forward_launch(const T *input, T *output, int64_t n, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  square_forward_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(input, output, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t backward_launch(const T *grad_output, const T *input, T *grad_input, int64_t n,
                            cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  square_backward_kernel<T><<<blocks_for(n), kThreads, 0, stream>>>(grad_output, input,
                                                                   grad_input, n);
  return cudaGetLastError();
}

}  // namespace

extern "C" cudaError_t my_lib_square_forward_launch_float(const float *input, float *output,
                                                          int64_t n, cudaStream_t stream) {
  return forward_launch<float>(input, output, n, stream);
}

extern "C" cudaError_t my_lib_square_forward_launch_double(const double *input,
                                                           double *output, int64_t n,
                                                           cudaStream_t stream) {
  return forward_launch<double>(input, output, n, stream);
}

extern "C" cudaError_t my_lib_square_backward_launch_float(const float *grad_output,
                                                           const float *input,
                                                           float *grad_input, int64_t n,
                                                           cudaStream_t stream) {
  return backward_launch<float>(grad_output, input, grad_input, n, stream);
}

extern "C" cudaError_t my_lib_square_backward_launch_double(const double *grad_output,
                                                            const double *input,
                                                            double *grad_input, int64_t n,
                                                            cudaStream_t stream) {
  return backward_launch<double>(grad_output, input, grad_input, n, stream);
}
