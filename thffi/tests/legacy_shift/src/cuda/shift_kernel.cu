#include <stdio.h>
#include "shift_kernel.h"

__global__ void shift_kernel(float *data, int n, float by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += by;
}

#ifdef __cplusplus
extern "C" {
#endif
int shift_launcher(float *data, int n, float by, cudaStream_t stream)
{
    shift_kernel<<<(n + 255) / 256, 256, 0, stream>>>(data, n, by);
    return cudaGetLastError() == cudaSuccess;
}
#ifdef __cplusplus
}
#endif
