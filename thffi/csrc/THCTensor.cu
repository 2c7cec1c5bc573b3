// THC's CUDA code, all in this one file: nvcc parses THC/THC.h once per
// file and architecture, and as three files (element-wise ops, copies
// between types, half) they took 24 CPU seconds for the default five
// architectures, as one 15 (nvcc 13).  Every kernel is launched on the
// call's current stream.
#include <stdarg.h>
#include "THC/THC.h"
#include "thffi_private.h"
#include "THCApply.cuh"

namespace {

// Element-wise ops (fill, zero, copy, cadd) for every THC type.  Each
// honours strides: a tensor's dimensions are first merged where memory
// allows (THFFIIter_init), then each thread maps its linear index to an
// element offset.
template <typename T>
__global__ void fill_kernel(T *p, Strided a, int64_t n, T value) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    p[offset_of(a, i)] = value;
}

template <typename T>
__global__ void copy_kernel(T *dst, Strided a, const T *src, Strided b, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    dst[offset_of(a, i)] = src[offset_of(b, i)];
}

template <typename T>
__global__ void cadd_kernel(T *r, Strided a, const T *t, Strided b, const T *s,
                            Strided c, int64_t n, T value) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    r[offset_of(a, i)] = t[offset_of(b, i)] + value * s[offset_of(c, i)];
}

// Copies from one THC type to another (THCTensor_(copyCuda<Type>)): a
// conversion kernel over contiguous memory, with THCTensor_(copy) and
// newContiguous around it for other layouts (one small kernel per pair of
// types).  Copies to and from the CPU are host code (THCTensorCopy.c).
template <typename Dst, typename Src>
__global__ void convert_kernel(Dst *dst, const Src *src, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = static_cast<Dst>(src[i]);
}

// THCHalf.h: conversions between float and half on the device (arrays).
__global__ void float2half_kernel(half *out, const float *in, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    out[i] = __float2half_rn(in[i]);
}

__global__ void half2float_kernel(float *out, const half *in, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    out[i] = __half2float(in[i]);
}

// Spins one thread for `cycles` clock cycles of its multiprocessor.
__global__ void spin_kernel(int64_t cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

#define TH_GENERIC_FILE "generic/THCTensorOps.cu"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/THCTensorOps.cu"
#include "THC/THCGenerateHalfType.h"

#define TH_GENERIC_FILE "generic/THCTensorCopy.cu"
#include "THC/THCGenerateAllTypes.h"

// THCHalf.h: the same on the host, and what the call's device does in half.
void THCFloat2Half(THCState *state, half *out, float *in, ptrdiff_t len) {
  if (len <= 0) return;
  float2half_kernel<<<blocks_for(len), kThreads, 0, THCState_getCurrentStream(state)>>>(
      out, in, len);
  THCudaCheck(cudaGetLastError());
}

void THCHalf2Float(THCState *state, float *out, half *in, ptrdiff_t len) {
  if (len <= 0) return;
  half2float_kernel<<<blocks_for(len), kThreads, 0, THCState_getCurrentStream(state)>>>(
      out, in, len);
  THCudaCheck(cudaGetLastError());
}

half THC_float2half(float a) { return __float2half_rn(a); }

float THC_half2float(half a) { return __half2float(a); }

int THC_nativeHalfInstructions(THCState *state) {
  cudaDeviceProp *prop = THCState_getCurrentDeviceProperties(state);
  return prop->major > 5 || (prop->major == 5 && prop->minor >= 3);
}

int THC_fastHalfInstructions(THCState *state) {
  cudaDeviceProp *prop = THCState_getCurrentDeviceProperties(state);
  return (prop->major == 5 && prop->minor == 3) || (prop->major == 6 && prop->minor != 1) ||
         prop->major >= 7;
}

// THCSleep.h: a kernel on the call's stream that keeps its device busy
// (tests of stream ordering used it to delay what follows).
void THC_sleep(THCState *state, int64_t cycles) {
  spin_kernel<<<1, 1, 0, THCState_getCurrentStream(state)>>>(cycles);
  THCudaCheck(cudaGetLastError());
}
