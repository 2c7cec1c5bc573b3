// THC as the legacy include path had it (lib/include/THC), through nvcc
// from `sources`.
#include <THC.h>
#include "thc_test_kernel.h"

__global__ void touch(float *data) { data[threadIdx.x] = 1.0f; }

// 4096 threads per block is more than any GPU allows: the launch fails.
extern "C" cudaError_t launch_with_too_many_threads(float *data, cudaStream_t stream) {
  touch<<<1, 4096, 0, stream>>>(data);
  return cudaGetLastError();
}
