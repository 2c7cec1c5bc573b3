// Legacy THC device headers as 2018 kernels used them: half through
// THCHalf.h, THCNumerics, the atomicAdd overloads of THCAtomics.cuh, and an
// atomicAdd(double *) of the kernel's own for toolkits before CUDA 8 (code
// of the time copied it; CUDA_VERSION comes from THC.h).
#include <THC/THC.h>
#include <THC/THCHalf.h>
#include <THC/THCNumerics.cuh>
#include <THC/THCAtomics.cuh>
#include <THC/THCDeviceUtils.cuh>

#if CUDA_VERSION < 8000
static inline __device__ void atomicAdd(double *address, double val) {
  unsigned long long *p = (unsigned long long *)address, old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
}
#endif

template <typename T>
__global__ void legacy_accumulate(T *out, const T *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(out, THCNumerics<T>::add(in[i], ScalarConvert<int, T>::to(0)));
}

extern THCState *state;

extern "C" int thc_legacy_headers_launch(THCudaDoubleTensor *out,
                                         THCudaDoubleTensor *in, THCudaHalfTensor *hout,
                                         THCudaHalfTensor *hin) {
  int n = (int)THCudaDoubleTensor_nElement(state, in);
  int blocks = THCCeilDiv(n, 256);
  cudaStream_t stream = THCState_getCurrentStream(state);
  legacy_accumulate<double><<<blocks, 256, 0, stream>>>(
      THCudaDoubleTensor_data(state, out), THCudaDoubleTensor_data(state, in), n);
  legacy_accumulate<half><<<blocks, 256, 0, stream>>>(
      THCudaHalfTensor_data(state, hout), THCudaHalfTensor_data(state, hin), n);
  THCudaCheck(cudaGetLastError());
  return n;
}
