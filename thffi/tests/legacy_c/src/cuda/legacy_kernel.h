#ifndef _LEGACY_KERNEL
#define _LEGACY_KERNEL

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t legacy_scale_kernel_launcher(const float *input, float *output, long n,
                                         float factor, cudaStream_t stream);
int legacy_scale_launch(THCState *state, THCudaTensor *output, THCudaTensor *input,
                        float factor);

#ifdef __cplusplus
}
#endif

#endif
