// What thffi's CUDA kernels share: a tensor's layout passed to a kernel, and
// the launch geometry.  Private to csrc/*.cu, in an anonymous namespace: each
// .cu file has its own copy.
#ifndef THFFI_THC_APPLY_CUH
#define THFFI_THC_APPLY_CUH

#include "THC/THC.h"

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
  // Not unrolled: each step divides by the quotient of the one before, so
  // unrolling gains nothing at run time; and for compute_100 and
  // compute_120 nvcc 13 unrolls it to the array's 64 dimensions (three
  // copies in each of the 8 cadd kernels), and ptxas for sm_100 and sm_120
  // then took 32 of the 69 CPU seconds of thffi's cold CUDA build.
#pragma unroll 1
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

}  // namespace

#endif
