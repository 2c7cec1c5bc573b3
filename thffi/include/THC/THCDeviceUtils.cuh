// Legacy <THC/THCDeviceUtils.cuh> (PyTorch 0.4.1): small helpers of device
// code: ceiling division, the read-only-cache load, and warp intrinsics
// under names that work before and after CUDA 9's *_sync forms.
#ifndef THFFI_THC_DEVICE_UTILS_CUH
#define THFFI_THC_DEVICE_UTILS_CUH

#include "THC/THCGeneral.h"

// The largest integer n such that every integer up to n is a float.
#define FLOAT32_MAX_CONSECUTIVE_INT 16777216.0f

template <typename T>
__host__ __device__ __forceinline__ T THCCeilDiv(T a, T b) {
  return (a + b - 1) / b;
}

// a rounded up to a multiple of b
template <typename T>
__host__ __device__ __forceinline__ T THCRoundUp(T a, T b) {
  return THCCeilDiv(a, b) * b;
}

// *p through the read-only data cache where the device has one
template <typename T>
__device__ __forceinline__ T doLdg(const T *p) {
#if __CUDA_ARCH__ >= 350
  return __ldg(p);
#else
  return *p;
#endif
}

__device__ __forceinline__ unsigned int ACTIVE_MASK() { return __activemask(); }

__device__ __forceinline__ int WARP_BALLOT(int predicate, unsigned int mask = 0xffffffff) {
  return __ballot_sync(mask, predicate);
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL_XOR(T value, int laneMask, int width = warpSize,
                                           unsigned int mask = 0xffffffff) {
  return __shfl_xor_sync(mask, value, laneMask, width);
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL(T value, int srcLane, int width = warpSize,
                                       unsigned int mask = 0xffffffff) {
  return __shfl_sync(mask, value, srcLane, width);
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL_UP(T value, unsigned int delta, int width = warpSize,
                                          unsigned int mask = 0xffffffff) {
  return __shfl_up_sync(mask, value, delta, width);
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = warpSize,
                                            unsigned int mask = 0xffffffff) {
  return __shfl_down_sync(mask, value, delta, width);
}

#endif
