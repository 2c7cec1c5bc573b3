/* thffi: the CUDA runtime's cudaThread* calls, which CUDA 13.0 removed,
 * as the cudaDevice* calls that replaced them, and cudaSetDoubleFor*,
 * removed with them, as what they did (toolchain/cuda_api.py).
 * <THC/THC.h> includes it; CUDA 12 and older still declare them.
 *
 * cudaThreadExit is cudaDeviceReset, as it always was: in a process where
 * PyTorch works on the device, that destroys PyTorch's memory and streams
 * too.  Code that called it at the end of a 2018 program should drop it. */
#ifndef THFFI_CUDA_RUNTIME_LEGACY_H
#define THFFI_CUDA_RUNTIME_LEGACY_H

#include <cuda_runtime_api.h>

#if CUDART_VERSION >= 13000
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value) {
  return cudaDeviceSetLimit(limit, value);
}
static inline cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit) {
  return cudaDeviceGetLimit(pValue, limit);
}
static inline cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig) {
  return cudaDeviceSetCacheConfig(cacheConfig);
}
static inline cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
  return cudaDeviceGetCacheConfig(pCacheConfig);
}
/* They converted a double for devices without double precision (before
 * sm_13); on every other device, and so on all that CUDA 13 runs on, they
 * did nothing. */
static inline cudaError_t cudaSetDoubleForDevice(double *d) {
  (void)d;
  return cudaSuccess;
}
static inline cudaError_t cudaSetDoubleForHost(double *d) {
  (void)d;
  return cudaSuccess;
}
#endif

#endif
