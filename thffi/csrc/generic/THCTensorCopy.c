#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensorCopy.c"
#else

/* Fails unless self and src have the same number of elements; returns it. */
static int64_t THCTensor_(copyCount)(THCState *state, THCTensor *self, THTensor *src) {
  int64_t n, m;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  n = THCTensor_(nElement)(state, self);
  m = THTensor_(nElement)(src);
  THArgCheck(n == m, 2, "sizes do not match: %lld elements vs %lld", (long long)n,
             (long long)m);
  return n;
}

/* The same for a copy from the GPU: self on the CPU, src on the GPU. */
static int64_t THTensor_(copyCountCuda)(THCState *state, THTensor *self, THCTensor *src) {
  int64_t n, m;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  n = THTensor_(nElement)(self);
  m = THCTensor_(nElement)(state, src);
  THArgCheck(n == m, 2, "sizes do not match: %lld elements vs %lld", (long long)n,
             (long long)m);
  return n;
}

void THCTensor_(copyCPU)(THCState *state, THCTensor *self, THTensor *src) {
  int64_t n = THCTensor_(copyCount)(state, self, src);
  cudaStream_t stream;
  THTensor *srcc;
  if (n == 0) return;
  stream = THCState_getCurrentStream(state);
  srcc = THTensor_(newContiguous)(src);
  if (THCTensor_(isContiguous)(state, self)) {
    thcffi_memcpy(THCTensor_(data)(state, self), THTensor_(data)(srcc), n * sizeof(real),
                  cudaMemcpyHostToDevice, stream, 0);
  } else {
    THCTensor *tmp = THCTensor_(newWithSize1d)(state, n);
    thcffi_memcpy(THCTensor_(data)(state, tmp), THTensor_(data)(srcc), n * sizeof(real),
                  cudaMemcpyHostToDevice, stream, 1);
    THCTensor_(copy)(state, self, tmp);
    THCudaCheck(cudaStreamSynchronize(stream));
    THCTensor_(free)(state, tmp);
  }
  THTensor_(free)(srcc);
}

void THTensor_(copyCuda)(THCState *state, THTensor *self, THCTensor *src) {
  int64_t n = THTensor_(copyCountCuda)(state, self, src);
  cudaStream_t stream;
  THCTensor *srcc;
  if (n == 0) return;
  stream = THCState_getCurrentStream(state);
  srcc = THCTensor_(newContiguous)(state, src);
  if (THTensor_(isContiguous)(self)) {
    thcffi_memcpy(THTensor_(data)(self), THCTensor_(data)(state, srcc), n * sizeof(real),
                  cudaMemcpyDeviceToHost, stream, 0);
  } else {
    THTensor *tmp = THTensor_(newWithSize1d)(n);
    thcffi_memcpy(THTensor_(data)(tmp), THCTensor_(data)(state, srcc), n * sizeof(real),
                  cudaMemcpyDeviceToHost, stream, 0);
    THTensor_(copy)(self, tmp);
    THTensor_(free)(tmp);
  }
  THCTensor_(free)(state, srcc);
}

void THCTensor_(copyAsyncCPU)(THCState *state, THCTensor *self, THTensor *src) {
  int64_t n = THCTensor_(copyCount)(state, self, src);
  THArgCheck(THCTensor_(isContiguous)(state, self), 1, "target tensor must be contiguous");
  THArgCheck(THTensor_(isContiguous)(src), 2, "source tensor must be contiguous");
  if (n == 0) return;
  thcffi_memcpy(THCTensor_(data)(state, self), THTensor_(data)(src), n * sizeof(real),
                cudaMemcpyHostToDevice, THCState_getCurrentStream(state), 1);
}

void THTensor_(copyAsyncCuda)(THCState *state, THTensor *self, THCTensor *src) {
  int64_t n = THTensor_(copyCountCuda)(state, self, src);
  THArgCheck(THTensor_(isContiguous)(self), 1, "target tensor must be contiguous");
  THArgCheck(THCTensor_(isContiguous)(state, src), 2, "source tensor must be contiguous");
  if (n == 0) return;
  thcffi_memcpy(THTensor_(data)(self), THCTensor_(data)(state, src), n * sizeof(real),
                cudaMemcpyDeviceToHost, THCState_getCurrentStream(state), 1);
}

/* Defines the copies between this THC type and the TH type TH##NAME##Tensor:
 * THCTensor_(copy##NAME) (GPU <- CPU) and TH##NAME##Tensor_copyCuda<Real>
 * (CPU <- GPU).  Between different types the values cross in a CPU tensor
 * of this type, converted there by TH's copies; the same type goes
 * straight. */
#define THCFFI_COPY_CPU(NAME)                                                            \
  void THCTensor_(copy##NAME)(THCState *state, THCTensor *self, TH##NAME##Tensor *src) { \
    THTensor *tmp;                                                                       \
    if (THFFI_DTYPE_##NAME == TH_CONCAT_2(THFFI_DTYPE_, Real)) {                          \
      THCTensor_(copyCPU)(state, self, (THTensor *)src);                                 \
      return;                                                                            \
    }                                                                                    \
    THFFI_NONNULL(self, 1);                                                              \
    THFFI_NONNULL(src, 2);                                                               \
    tmp = THTensor_(newWithSize1d)(TH##NAME##Tensor_nElement(src));                      \
    THTensor_(copy##NAME)(tmp, src);                                                     \
    THCTensor_(copyCPU)(state, self, tmp);                                               \
    THTensor_(free)(tmp);                                                                \
  }                                                                                      \
                                                                                         \
  void TH_CONCAT_4(TH, NAME, Tensor_copyCuda, Real)(THCState *state,                     \
                                                    TH##NAME##Tensor *self,              \
                                                    THCTensor *src) {                    \
    THTensor *tmp;                                                                       \
    if (THFFI_DTYPE_##NAME == TH_CONCAT_2(THFFI_DTYPE_, Real)) {                          \
      THTensor_(copyCuda)(state, (THTensor *)self, src);                                 \
      return;                                                                            \
    }                                                                                    \
    THFFI_NONNULL(self, 1);                                                              \
    THFFI_NONNULL(src, 2);                                                               \
    tmp = THTensor_(newWithSize1d)(THCTensor_(nElement)(state, src));                    \
    THTensor_(copyCuda)(state, tmp, src);                                                \
    TH_CONCAT_2(TH##NAME##Tensor_copy, Real)(self, tmp);                                  \
    THTensor_(free)(tmp);                                                                \
  }

THCFFI_COPY_CPU(Byte)
THCFFI_COPY_CPU(Char)
THCFFI_COPY_CPU(Short)
THCFFI_COPY_CPU(Int)
THCFFI_COPY_CPU(Long)
THCFFI_COPY_CPU(Float)
THCFFI_COPY_CPU(Double)

#undef THCFFI_COPY_CPU

#endif
