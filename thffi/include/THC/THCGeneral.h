#ifndef THFFI_THC_GENERAL_H
#define THFFI_THC_GENERAL_H

#include <TH/THGeneral.h>
/* What legacy THCGeneral.h included: code after `#include <THC/THC.h>`
 * tests CUDA_VERSION and calls the driver, runtime, cuBLAS and cuSPARSE
 * APIs without including their headers.  cuBLAS and cuSPARSE where their
 * headers are on the include path (a toolkit without them still builds
 * thffi, which finds cuBLAS at run time).
 * cuSPARSE 12's header declares its deprecated routines with its deprecated
 * types: 204 -Wdeprecated-declarations warnings in every file including
 * THC.h, which are not the user's.  They are silenced for the header's own
 * text alone: a call of a deprecated routine in the user's code still
 * warns (DISABLE_CUSPARSE_DEPRECATED would hide that too).
 * The runtime's calls and cuSPARSE's routines that CUDA removed since come
 * with them, as thffi provides them over today's (cuda_runtime_legacy.h,
 * cusparse_legacy.h). */
#include <cuda.h>
#include <cuda_runtime.h>
#include "../cuda_runtime_legacy.h"
#if defined(__has_include)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#if __has_include(<cublas_v2.h>)
#include <cublas_v2.h>
#endif
#if __has_include(<cusparse.h>)
#include <cusparse.h>
#include "../cusparse_legacy.h"
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#endif

#include "THCThreadLocal.h"

/* Legacy THC declared its API with THC_API. */
#define THC_API TH_API
#define THC_EXTERNC TH_EXTERNC
/* Legacy THC's mark of exported C++ classes. */
#define THC_CLASS

/* Legacy code passes a THCState to every THC function and declares the
 * global `extern THCState *state;`.  thffi keeps no state in it (the device
 * and stream come from PyTorch per call), but defines both. */
typedef struct THCState THCState;
TH_EXTERNC THCState *state;

/* PyTorch's current stream on the call's device, for the calling thread, as
 * it is when the wrapped call runs (torch.cuda.current_stream()). */
TH_API cudaStream_t THCState_getCurrentStream(THCState *state);
/* The device the call runs on: that of its CUDA tensors. */
TH_API int THCState_getCurrentDevice(THCState *state);

/* Properties of the call's device, or of `device` (cudaGetDeviceProperties,
 * cached). */
TH_API struct cudaDeviceProp *THCState_getCurrentDeviceProperties(THCState *state);
TH_API struct cudaDeviceProp *THCState_getDeviceProperties(THCState *state, int device);
/* PyTorch's current stream on `device` for the calling thread. */
TH_API cudaStream_t THCState_getCurrentStreamOnDevice(THCState *state, int device);
TH_API int THCState_getNumDevices(THCState *state);

/* Legacy set-up of a THC program: PyTorch has done it, so THCudaInit,
 * THCudaShutdown and THCMagma_init do nothing, and a THCState from
 * THCState_alloc works as the global `state`. */
TH_API THCState *THCState_alloc(void);
TH_API void THCState_free(THCState *state);
TH_API void THCudaInit(THCState *state);
TH_API void THCudaShutdown(THCState *state);
TH_API void THCMagma_init(THCState *state);
/* 1: THCudaMalloc is PyTorch's caching allocator. */
TH_API int THCState_isCachingAllocatorEnabled(THCState *state);
/* Runs when THCudaMalloc fails, before it tries once more. */
TH_API void THCSetGCHandler(THCState *state, void (*torchGCHandlerFunction)(void *data),
                            void *data);
/* Peer access: whether kernels may use it (a flag), whether dev can reach
 * devToAccess, and enabling it (cudaDeviceEnablePeerAccess). */
TH_API int THCState_getKernelPeerToPeerAccessEnabled(THCState *state);
TH_API void THCState_setKernelPeerToPeerAccessEnabled(THCState *state, int val);
TH_API int THCState_getPeerToPeerAccess(THCState *state, int dev, int devToAccess);
TH_API void THCState_setPeerToPeerAccess(THCState *state, int dev, int devToAccess, int enable);
/* Pinned host memory (cudaHostAlloc) and managed memory allocators, and
 * pinned blocks directly; THCudaHostRecord has nothing to record (pinned
 * blocks are not cached). */
TH_API THAllocator *THCState_getCudaHostAllocator(THCState *state);
TH_API THAllocator *THCState_getCudaUVAAllocator(THCState *state);
TH_API void *THCudaHostAlloc(THCState *state, size_t size);
TH_API void THCudaHostFree(THCState *state, void *ptr);
TH_API void THCudaHostRecord(THCState *state, void *ptr);
/* cudaMemGetInfo on the current device. */
TH_API cudaError_t THCudaMemGetInfo(THCState *state, size_t *freeBytes, size_t *totalBytes);

TH_API void __THCudaCheck(cudaError_t err, const char *file, int line);
/* Ends the call with a RuntimeError naming the CUDA error, file and line. */
#define THCudaCheck(err) __THCudaCheck(err, THFFI_FILE, __LINE__)
/* Prints a CUDA error to stderr and goes on. */
TH_API void __THCudaCheckWarn(cudaError_t err, const char *file, const int line);
#define THCudaCheckWarn(err) __THCudaCheckWarn(err, THFFI_FILE, __LINE__)
/* Ends the call with "cublas runtime error : ..." unless status is success
 * (0).  The status is a cublasStatus_t, taken as int: cuBLAS's headers may
 * be absent (thffi finds cuBLAS at run time). */
TH_API void __THCublasCheck(int status, const char *file, const int line);
#define THCublasCheck(err) __THCublasCheck(err, THFFI_FILE, __LINE__)
/* The same for a cusparseStatus_t (as int). */
TH_API void __THCusparseCheck(int status, const char *file, const int line);
#define THCusparseCheck(err) __THCusparseCheck(err, THFFI_FILE, __LINE__)
/* This thread's cuBLAS handle for the call's device, set to the call's
 * stream (a cublasHandle_t: cuBLAS's own calls may use it). */
TH_API struct cublasContext *THCState_getCurrentBlasHandle(THCState *state);
/* The same for cuSPARSE (a cusparseHandle_t). */
TH_API struct cusparseContext *THCState_getCurrentSparseHandle(THCState *state);

/* Device memory from PyTorch's caching allocator, on the call's device and
 * stream.  Blocks a failing call leaves allocated are freed.  Both API
 * generations compile, told apart by the number of arguments:
 *   PyTorch 0.3:  THCudaCheck(THCudaMalloc(state, (void **)&p, size));
 *   PyTorch 0.4:  p = (float *)THCudaMalloc(state, size);
 * A failed allocation ends the call with an error either way (0.4 threw).
 * THCudaFree returns cudaSuccess, which 0.3 code checks and 0.4 code (where
 * it returned void) ignores. */
TH_API cudaError_t THCudaMalloc(THCState *state, void **ptr, size_t size);
TH_API void *THFFI_cudaMallocPtr(THCState *state, size_t size);
TH_API cudaError_t THCudaFree(THCState *state, void *ptr);
#define THCudaMalloc(...)                                                     \
  THFFI_FOURTH_ARG(__VA_ARGS__, THCudaMalloc, THFFI_cudaMallocPtr,           \
                   THCudaMalloc_takes_2_or_3_arguments, 0)(__VA_ARGS__)

/* Legacy THC 0.3's device allocator (THCStorage_(newWithAllocator),
 * _newWithDataAndAllocator): malloc(ctx, &ptr, bytes, stream),
 * free(ctx, ptr).  THCState_getDeviceAllocator's is PyTorch's caching
 * allocator, as THCudaMalloc and THCudaFree. */
typedef struct _THCDeviceAllocator {
  cudaError_t (*malloc)(void *ctx, void **ptr, size_t size, cudaStream_t stream);
  cudaError_t (*realloc)(void *ctx, void **ptr, size_t old_size, size_t size,
                         cudaStream_t stream);
  cudaError_t (*free)(void *ctx, void *ptr);
  cudaError_t (*emptyCache)(void *ctx);
  cudaError_t (*cacheInfo)(void *ctx, int device, size_t *total, size_t *largest);
  void *state;
} THCDeviceAllocator;
TH_API THCDeviceAllocator *THCState_getDeviceAllocator(THCState *state);

#define THCAssertSameGPU(expr)                                                  \
  THAssertMsg(expr, "Some of weight/gradient/input tensors are located on "   \
                    "different GPUs. Please move them to a single one.")

/* Used by the builder's trampolines: makes `device` current for the call
 * (-1: leave it) and returns the device to restore, or -1; after a failed
 * call, frees what THCudaMalloc gave it. */
TH_API int THCFFI_enterDevice(int device);
TH_API void THCFFI_leaveDevice(int previous);
TH_API void THCFFI_freeAllocs(THFFIFrame *frame);

#endif
