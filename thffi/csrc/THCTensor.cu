// THC element-wise ops (fill, zero, copy, cadd) as CUDA kernels, for every
// THC type.  Each honours strides: a tensor's dimensions are first merged
// where memory allows (THFFIIter_init), then each thread maps its linear
// index to an element offset.  Launched on the call's current stream.
#include <stdarg.h>
#include "THC/THC.h"
#include "thffi_private.h"

namespace {

// A tensor's merged layout, passed to kernels by value.  Strides in elements.
struct Strided {
  int dim;
  int64_t size[THFFI_MAX_DIMS];
  int64_t stride[THFFI_MAX_DIMS];
};

Strided strided_of(int dim, const int64_t *size, const int64_t *stride) {
  THFFIIter it;
  Strided s;
  THFFIIter_init(&it, dim, size, stride);
  s.dim = it.dim;
  for (int d = 0; d < it.dim; d++) {
    s.size[d] = it.size[d];
    s.stride[d] = it.stride[d];
  }
  return s;
}

__device__ __forceinline__ int64_t offset_of(const Strided &s, int64_t i) {
  if (s.dim == 1) return i * s.stride[0];  // i < size[0]: no division
  int64_t offset = 0;
  for (int d = s.dim - 1; d >= 0; d--) {
    offset += (i % s.size[d]) * s.stride[d];
    i /= s.size[d];
  }
  return offset;
}

const int kThreads = 256;

unsigned blocks_for(int64_t n) {
  int64_t blocks = (n + kThreads - 1) / kThreads;
  return (unsigned)(blocks < 65536 ? blocks : 65536);  // grid-stride beyond
}

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
