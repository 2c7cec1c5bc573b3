// Compiled by nvcc as a 2018 make.sh did, with thffi's headers where
// torch's were: nvcc -c ... $(python -m thffi --includes)
#include <THC/THC.h>
#include "legacy_kernel.h"

#define CUDA_1D_KERNEL_LOOP(i, n)                              \
  for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += blockDim.x * gridDim.x)

__global__ void legacy_scale_kernel(const float *input, float *output, long n, float factor)
{
  CUDA_1D_KERNEL_LOOP(i, n) {
    output[i] = fmaxf(fminf(input[i] * factor, FLT_MAX), -FLT_MAX);
  }
}

cudaError_t legacy_scale_kernel_launcher(const float *input, float *output, long n,
                                         float factor, cudaStream_t stream)
{
  const int kThreadsPerBlock = 1024;
  long blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  if (n == 0) return cudaSuccess;
  legacy_scale_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(input, output, n, factor);
  return cudaGetLastError();
}

// Both THCudaMalloc generations, and 0.4's punning, under nvcc.
int legacy_scale_launch(THCState *state, THCudaTensor *output, THCudaTensor *input,
                        float factor)
{
  long n = THFloatTensor_nElement(input);
  size_t bytes = (n > 0 ? n : 1) * sizeof(float);
  cudaStream_t stream = THCState_getCurrentStream(state);
  float *scaled = (float *)THCudaMalloc(state, bytes);
  float *unused;

  THCudaCheck(THCudaMalloc(state, (void **)&unused, bytes));
  THCudaTensor_resizeAs(state, output, input);
  THCudaCheck(legacy_scale_kernel_launcher(THCudaTensor_data(state, input), scaled, n, factor,
                                           stream));
  THCudaCheck(cudaMemcpyAsync(THCudaTensor_data(state, output), scaled, n * sizeof(float),
                              cudaMemcpyDeviceToDevice, stream));
  THCudaFree(state, scaled);
  THCudaCheck(THCudaFree(state, unused));
  return 1;
}
