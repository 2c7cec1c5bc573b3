// THC copies from one THC type to another (THCTensor_(copyCuda<Type>)), on
// the call's current stream: a conversion kernel over contiguous memory, with
// THCTensor_(copy) and newContiguous around it for other layouts (one small
// kernel per pair of types keeps this file quick to compile).  Copies within
// one type are THCTensor_(copy) (THCTensor.cu); copies to and from the CPU
// are host code (THCTensorCopy.c).
#include "THC/THC.h"
#include "thffi_private.h"
#include "THCApply.cuh"

namespace {

template <typename Dst, typename Src>
__global__ void convert_kernel(Dst *dst, const Src *src, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    dst[i] = static_cast<Dst>(src[i]);
}

}  // namespace

#define TH_GENERIC_FILE "generic/THCTensorCopy.cu"
#include "THC/THCGenerateAllTypes.h"
