// THC code in C++ as PyTorch 0.4 took it: THCudaMalloc returning the
// pointer, and one tensor type for all (a CUDA long tensor's data through
// THCudaTensor_data, a CUDA tensor's shape through THFloatTensor_size).
#include <THCGeneral.h>
#include "THCTensor.h"
#include "TH.h"
#include "cuda/legacy_kernel.h"

extern THCState *state;

extern "C" int legacy_cuda_scale_cxx(THCudaTensor *output, THCudaTensor *input, float factor)
{
  int64_t n = THCudaTensor_nElement(state, input);
  size_t bytes = (n > 0 ? n : 1) * sizeof(float);
  cudaStream_t stream = THCState_getCurrentStream(state);
  float *scaled = (float *)THCudaMalloc(state, bytes);
  float *unused = NULL;

  THCudaTensor_resizeAs(state, output, input);
  THCudaCheck(THCudaMalloc(state, (void **)&unused, bytes));
  THCudaCheck(legacy_scale_kernel_launcher(THCudaTensor_data(state, input), scaled, n, factor,
                                           stream));
  THCudaCheck(cudaMemcpyAsync(THCudaTensor_data(state, output), scaled, n * sizeof(float),
                              cudaMemcpyDeviceToDevice, stream));
  THCudaFree(state, scaled);
  THCudaCheck(THCudaFree(state, unused));
  return 1;
}

// rows of input * 10 + whether the long tensor's data pointer read as a
// float tensor's is its own.
extern "C" int64_t legacy_cuda_punned(THCudaTensor *input, THCudaLongTensor *indices)
{
  int64_t rows = THFloatTensor_size(input, 0);
  float *as_float = THCudaTensor_data(state, indices);
  int64_t *as_long = THCudaLongTensor_data(state, indices);
  return rows * 10 + ((void *)as_float == (void *)as_long);
}
