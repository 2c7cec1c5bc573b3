#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "generic/softsign.cu"
#else

// output = softsign(input), and the sum of input's first 128 elements into
// sum (1 element); input contiguous, on the current device.
extern "C" void THNN_(SoftSign_updateOutput)(THCState *state, THCTensor *input, THCTensor *output,
                                             THCTensor *sum) {
  THCUNN_assertSameGPU(state, 3, input, output, sum);
  THCUNN_argCheck(state, THCTensor_(isContiguous)(state, input), 2, input,
                  "input must be contiguous, got %s");
  THCTensor_(resizeAs)(state, output, input);
  THCUNN_check_shape(state, input, output);
  THCUNN_check_dim_size(state, sum, 1, 0, 1);
  int n = (int)THCTensor_(nElement)(state, input);
  cudaStream_t stream = THCState_getCurrentStream(state);
  softsign_kernel<real><<<GET_BLOCKS(n), CUDA_NUM_THREADS, 0, stream>>>(
      THCTensor_(data)(state, input), THCTensor_(data)(state, output), n);
  sum_kernel<real><<<1, 128, 128 * sizeof(real), stream>>>(
      THCTensor_(data)(state, input), THCTensor_(data)(state, sum), n < 128 ? n : 128);
  THCudaCheck(cudaGetLastError());
}

#endif
