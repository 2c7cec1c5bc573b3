#include <stdio.h>
#include "THC.h"
#include "scale_mul_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUDA_1D_KERNEL_LOOP(i, n)                            \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; \
       i += blockDim.x * gridDim.x)

__global__ void ScaleMulForward(const int nthreads, const float alpha, const float* a,
                                const float* b, float* out) {
    CUDA_1D_KERNEL_LOOP(index, nthreads) {
        out[index] = alpha * a[index] * b[index];
    }
}

int ScaleMulForwardLaucher(const float alpha, const float* a, const float* b, float* out,
                           const int n, cudaStream_t stream) {
    const int kThreadsPerBlock = 1024;

    ScaleMulForward<<<(n + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock, 0, stream>>>(
        n, alpha, a, b, out);
    THCudaCheck(cudaGetLastError());
    return 1;
}

#ifdef __cplusplus
}
#endif
