/* The module's C face, as 2018's THCUNN wrappers: THC tensors in, the
 * kernels' launchers of thcunn_half_kernel.cu called. */
#include <THC/THC.h>

extern THCState *state;

void THNN_CudaSoftSign_updateOutput(THCState *state, THCudaTensor *input, THCudaTensor *output,
                                    THCudaTensor *sum);
void THNN_CudaHalfSoftSign_updateOutput(THCState *state, THCudaHalfTensor *input,
                                        THCudaHalfTensor *output, THCudaHalfTensor *sum);

int thcunn_half_softsign(THCudaTensor *input, THCudaTensor *output, THCudaTensor *sum) {
  THNN_CudaSoftSign_updateOutput(state, input, output, sum);
  return 1;
}

int thcunn_half_softsign_half(THCudaHalfTensor *input, THCudaHalfTensor *output,
                              THCudaHalfTensor *sum) {
  THNN_CudaHalfSoftSign_updateOutput(state, input, output, sum);
  return 1;
}
