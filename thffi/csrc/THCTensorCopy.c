/* THC copies between the GPU and the CPU (THCTensor_(copyCPU), copy<Type>,
 * THTensor_(copyCuda), TH<Type>Tensor_copyCuda<Real>, copyAsync*): one
 * cudaMemcpyAsync on the call's current stream between contiguous memory,
 * with TH's and THC's own copies around it for other layouts and types. */
#include "THC/THC.h"
#include "thffi_private.h"

/* Copies `bytes` between host and device on `stream`, then waits for the
 * stream unless `async`. */
static void thcffi_memcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                          cudaStream_t stream, int async) {
  THCudaCheck(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  if (!async) THCudaCheck(cudaStreamSynchronize(stream));
}

#define TH_GENERIC_FILE "generic/THCTensorCopy.c"
#include "THC/THCGenerateAllTypes.h"
