// THC element-wise ops (fill, zero, copy, cadd) as CUDA kernels, for every
// THC type.  Each honours strides: a tensor's dimensions are first merged
// where memory allows (THFFIIter_init), then each thread maps its linear
// index to an element offset.  Launched on the call's current stream.
#include <stdarg.h>
#include "THC/THC.h"
#include "thffi_private.h"
#include "THCApply.cuh"

namespace {

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

}  // namespace

#define TH_GENERIC_FILE "generic/THCTensorOps.cu"
#include "THC/THCGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/THCTensorOps.cu"
#include "THC/THCGenerateHalfType.h"
