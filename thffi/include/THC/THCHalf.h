/* Legacy <THC/THCHalf.h> (PyTorch 0.4.1): the `half` type of THCudaHalfTensor
 * and its conversions.  With CUDA >= 9 (all that thffi supports), `half` is
 * CUDA's __half_raw in C (a struct holding the bits: no arithmetic) and
 * CUDA's __half class in C++ and CUDA code, where cuda_fp16.h gives it
 * arithmetic on devices that have it. */
#ifndef THFFI_THC_HALF_H
#define THFFI_THC_HALF_H

#include "THCGeneral.h"

/* Legacy code tests this before touching half tensors. */
#define CUDA_HALF_TENSOR 1

#include <cuda_fp16.h>
#ifndef __cplusplus
typedef __half_raw half;
#else
#define half __half
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
