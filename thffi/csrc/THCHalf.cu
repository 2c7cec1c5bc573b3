// THCHalf.h: conversions between float and half, on the device (for arrays)
// and on the host, and what the call's device does in half.
#include "THC/THC.h"
#include "thffi_private.h"
#include "THCApply.cuh"

namespace {

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

}  // namespace

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
