/* THC code in C, found as <THC.h>: PyTorch 0.3's THCudaMalloc (a status,
 * the pointer through an argument) beside 0.4's (the pointer returned). */
#include <THC.h>
#include "cuda/legacy_kernel.h"

extern THCState *state;

/* output = input * factor, through two scratch buffers. */
int legacy_cuda_scale_c(THCudaTensor *output, THCudaTensor *input, float factor)
{
  long n = THCudaTensor_nElement(state, input);
  size_t bytes = (n > 0 ? n : 1) * sizeof(float);
  cudaStream_t stream = THCState_getCurrentStream(state);
  float *scaled = NULL;
  float *staged = (float *)THCudaMalloc(state, bytes);

  THArgCheck(THCudaTensor_isContiguous(state, input), 2, "input must be contiguous");
  THCudaTensor_resizeAs(state, output, input);
  THCudaCheck(THCudaMalloc(state, (void **)&scaled, bytes));
  THCudaCheck(cudaMemcpyAsync(staged, THCudaTensor_data(state, input), n * sizeof(float),
                              cudaMemcpyDeviceToDevice, stream));
  THCudaCheck(legacy_scale_kernel_launcher(staged, scaled, n, factor, stream));
  THCudaCheck(cudaMemcpyAsync(THCudaTensor_data(state, output), scaled, n * sizeof(float),
                              cudaMemcpyDeviceToDevice, stream));
  THCudaCheck(THCudaFree(state, scaled));
  THCudaFree(state, staged);
  return 1;
}

int legacy_cuda_scale_cu(THCudaTensor *output, THCudaTensor *input, float factor)
{
  return legacy_scale_launch(state, output, input, factor);
}
