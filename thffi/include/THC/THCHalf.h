/* Legacy <THC/THCHalf.h> (PyTorch 0.4.1): the `half` type of THCudaHalfTensor
 * and its conversions.  With CUDA >= 9 (all that thffi supports), `half` is
 * CUDA's __half_raw in C (a struct holding the bits: no arithmetic) and a
 * class derived from CUDA's __half in C++ and CUDA code, where cuda_fp16.h
 * gives it arithmetic on devices that have it. */
#ifndef THFFI_THC_HALF_H
#define THFFI_THC_HALF_H

#include "THCGeneral.h"

/* Legacy code tests this before touching half tensors. */
#define CUDA_HALF_TENSOR 1

#include <cuda_fp16.h>
#ifndef __cplusplus
typedef __half_raw half;
#else
/* A type of its own that is a __half (same 2 bytes, its constructors,
 * conversions, arithmetic and comparisons, and every function taking a
 * __half), so that legacy code's own `atomicAdd(half *, half)` (CUDA 9 had
 * none) overloads CUDA's `__half atomicAdd(__half *, __half)` of CUDA 10+
 * instead of clashing with it, and is the one picked for half arguments.
 * cuda_fp16.h typedefs `half` as __half: the name is taken over by a macro,
 * as legacy THCHalf.h took it. */
struct thffi_half : public __half {
  using __half::__half;
  thffi_half() = default;
  __host__ __device__ thffi_half(const __half &h) : __half(h) {}
};
#define half thffi_half
#endif

/* out[i] = in[i] converted, for `len` elements of device memory, on the
 * call's current stream. */
THC_EXTERNC void THCFloat2Half(THCState *state, half *out, float *in, ptrdiff_t len);
THC_EXTERNC void THCHalf2Float(THCState *state, float *out, half *in, ptrdiff_t len);
/* On the host: round to nearest even, as CUDA's __float2half_rn. */
THC_API half THC_float2half(float a);
THC_API float THC_half2float(half a);
/* 1 when the call's device computes in half natively (compute capability
 * 5.3 and later). */
THC_API int THC_nativeHalfInstructions(THCState *state);
/* 1 when it does so faster than in float (5.3, 6.0, 6.2, 7.0 and later). */
THC_API int THC_fastHalfInstructions(THCState *state);

#endif
