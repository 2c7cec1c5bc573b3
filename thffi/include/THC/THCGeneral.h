#ifndef THFFI_THC_GENERAL_H
#define THFFI_THC_GENERAL_H

#include <TH/THGeneral.h>
#include <cuda_runtime_api.h>

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

TH_API void __THCudaCheck(cudaError_t err, const char *file, int line);
/* Ends the call with a RuntimeError naming the CUDA error, file and line. */
#define THCudaCheck(err) __THCudaCheck(err, __FILE__, __LINE__)

/* Used by the builder's trampolines: makes `device` current for the call
 * (-1: leave it) and returns the device to restore, or -1. */
TH_API int THCFFI_enterDevice(int device);
TH_API void THCFFI_leaveDevice(int previous);

#endif
