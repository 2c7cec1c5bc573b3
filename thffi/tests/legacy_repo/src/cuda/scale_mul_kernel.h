#ifndef _SCALE_MUL_KERNEL
#define _SCALE_MUL_KERNEL

#ifdef __cplusplus
extern "C" {
#endif

int ScaleMulForwardLaucher(const float alpha, const float* a, const float* b, float* out,
                           const int n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
