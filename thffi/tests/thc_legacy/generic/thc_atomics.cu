// Generic THC code on the extension's own THCAtomics.cuh: every element of
// `in` added into out[0] by atomicAdd, one thread per element, for each THC
// type.  Returns the number of elements added.
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "generic/thc_atomics.cu"
#else

__global__ void TH_CONCAT_4(thc_atomics_, CReal, _kernel_, SUFFIX)(real *out, real *in,
                                                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, in[i]);
}

extern "C" int TH_CONCAT_4(thc_atomics_, CReal, _sum_, SUFFIX)(THCTensor *out,
                                                              THCTensor *in) {
  int n = (int)THCTensor_(nElement)(state, in);
  TH_CONCAT_4(thc_atomics_, CReal, _kernel_, SUFFIX)<<<THCCeilDiv(n, 256), 256, 0,
      THCState_getCurrentStream(state)>>>(THCTensor_(data)(state, out),
                                          THCTensor_(data)(state, in), n);
  THCudaCheck(cudaGetLastError());
  return n;
}

#endif
