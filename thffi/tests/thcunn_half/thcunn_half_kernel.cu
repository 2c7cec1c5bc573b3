// A THCUNN-style module of 2018: SoftSign, out = x / (1 + |x|), one kernel
// template for every floating type (half through THCHalfAutoNumerics.cuh's
// operators), written in THC generic code with THCUNN's checks (common.h)
// and a block reduction in dynamic shared memory (SharedMem.cuh).
#include <THC/THC.h>
#include <THCUNN/THCHalfAutoNumerics.cuh>
#include <THCUNN/SharedMem.cuh>
#include <THCUNN/common.h>
#include "thcunn_half_kernel.h"

template <typename T>
__global__ void softsign_kernel(const T *in, T *out, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    T x = in[i];
    out[i] = x / (abs(x) + 1);
  }
}

// The sum of in (n <= blockDim.x elements), in one block's shared memory.
template <typename T>
__global__ void sum_kernel(const T *in, T *sum, int n) {
  T *buffer = SharedMem<T>().getPointer();
  buffer[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : ScalarConvert<int, T>::to(0);
  __syncthreads();
  for (int step = blockDim.x / 2; step > 0; step /= 2) {
    if (threadIdx.x < step) buffer[threadIdx.x] += buffer[threadIdx.x + step];
    __syncthreads();
  }
  if (threadIdx.x == 0) *sum = buffer[0];
}

#define THC_GENERIC_FILE "generic/softsign.cu"
#include <THC/THCGenerateFloatTypes.h>
#define THC_GENERIC_FILE "generic/softsign.cu"
#include <THC/THCGenerateHalfType.h>

// On the host, what THCHalfAutoNumerics.cuh gives half arithmetic, for the
// test to read without a GPU: into result's 12 elements (contiguous).
extern "C" void thcunn_half_host(float a, float b, THFloatTensor *result) {
  float *out = THFloatTensor_data(result);
  half x = ScalarConvert<float, half>::to(a), y = ScalarConvert<float, half>::to(b);
  half sum = x + y, twice = x * 2, neg = -x, acc = x;
  float mixed = x + b, wider = 1.5f * y;
  acc += y;
  acc *= y;
  out[0] = ScalarConvert<half, float>::to(sum);
  out[1] = ScalarConvert<half, float>::to(twice);
  out[2] = mixed;
  out[3] = wider;
  out[4] = x < y;
  out[5] = x >= 1;
  out[6] = ScalarConvert<half, float>::to(fmaxType(x, y));
  out[7] = ScalarConvert<half, float>::to(exp(x));
  out[8] = ScalarConvert<half, float>::to(neg);
  out[9] = ScalarConvert<half, float>::to(acc);
  out[10] = ScalarConvert<half, float>::to(x / y);
  out[11] = (float)(x * 0.5);
}

extern "C" int thcunn_half_blocks(int n) { return GET_BLOCKS(n) * 10000 + CUDA_NUM_THREADS; }
