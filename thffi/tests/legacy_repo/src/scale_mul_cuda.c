#include <THC.h>
#include <stdio.h>
#include <stdlib.h>
#include "cuda/scale_mul_kernel.h"

extern THCState *state;

int scale_mul_forward_cuda(float alpha, THCudaTensor *input1, THCudaTensor *input2,
                           THCudaTensor *output)
{
    if (!THCudaTensor_isContiguous(state, input1) || !THCudaTensor_isContiguous(state, input2)) {
        fprintf(stderr, "scale_mul_forward_cuda: inputs must be contiguous\n");
        exit(-1);
    }
    THCudaTensor_resizeAs(state, output, input1);

    float *a = THCudaTensor_data(state, input1);
    float *b = THCudaTensor_data(state, input2);
    float *out = THCudaTensor_data(state, output);
    int n = THCudaTensor_nElement(state, input1);
    cudaStream_t stream = THCState_getCurrentStream(state);

    ScaleMulForwardLaucher(alpha, a, b, out, n, stream);
    return 1;
}
