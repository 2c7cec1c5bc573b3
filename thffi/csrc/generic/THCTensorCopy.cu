#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensorCopy.cu"
#else

void THCTensor_(copyIgnoringOverlaps)(THCState *state, THCTensor *self, THCTensor *src) {
  THCTensor_(copy)(state, self, src);
}

void THCTensor_(copyCuda)(THCState *state, THCTensor *self, THCTensor *src) {
  THCTensor_(copy)(state, self, src);
}

// Defines THCTensor_(copyCuda##NAME)(state, self, src) for a source of THC
// type SRC_TENSOR holding SRC_REAL: THCTensor_(copy) when that is this type;
// else the kernel, from src made contiguous into self or, when self is not
// contiguous, into a contiguous tensor then copied into self.
#define THCFFI_COPY_CUDA_FROM(NAME, SRC_TENSOR, SRC_REAL)                                \
  void THCTensor_(copyCuda##NAME)(THCState *state, THCTensor *self, SRC_TENSOR *src) {   \
    THFFI_NONNULL(self, 1);                                                              \
    THFFI_NONNULL(src, 2);                                                               \
    if (THFFI_DTYPE_##NAME == TH_CONCAT_2(THFFI_DTYPE_, Real)) {                          \
      THCTensor_(copy)(state, self, (THCTensor *)src);                                   \
      return;                                                                            \
    }                                                                                    \
    int64_t n = THCTensor_(nElement)(state, self);                                       \
    int64_t m = SRC_TENSOR##_nElement(state, src);                                       \
    THArgCheck(n == m, 2, "sizes do not match: %lld elements vs %lld", (long long)n,     \
               (long long)m);                                                            \
    if (n == 0) return;                                                                  \
    SRC_TENSOR *srcc = SRC_TENSOR##_newContiguous(state, src);                           \
    THCTensor *dst = THCTensor_(isContiguous)(state, self)                               \
                         ? self                                                          \
                         : THCTensor_(newWithSize1d)(state, n);                          \
    convert_kernel<real, SRC_REAL>                                                       \
        <<<blocks_for(n), kThreads, 0, THCState_getCurrentStream(state)>>>(              \
            THCTensor_(data)(state, dst), SRC_TENSOR##_data(state, srcc), n);            \
    THCudaCheck(cudaGetLastError());                                                     \
    if (dst != self) {                                                                   \
      THCTensor_(copy)(state, self, dst);                                                \
      THCTensor_(free)(state, dst);                                                      \
    }                                                                                    \
    SRC_TENSOR##_free(state, srcc);                                                      \
  }

THCFFI_COPY_CUDA_FROM(Byte, THCudaByteTensor, uint8_t)
THCFFI_COPY_CUDA_FROM(Char, THCudaCharTensor, int8_t)
THCFFI_COPY_CUDA_FROM(Short, THCudaShortTensor, int16_t)
THCFFI_COPY_CUDA_FROM(Int, THCudaIntTensor, int32_t)
THCFFI_COPY_CUDA_FROM(Long, THCudaLongTensor, int64_t)
THCFFI_COPY_CUDA_FROM(Float, THCudaTensor, float)
THCFFI_COPY_CUDA_FROM(Double, THCudaDoubleTensor, double)

#undef THCFFI_COPY_CUDA_FROM

#endif
