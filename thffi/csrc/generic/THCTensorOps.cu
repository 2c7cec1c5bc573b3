#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensorOps.cu"
#else

int THCTensor_(checkGPU)(THCState *state, unsigned int nTensors, ...) {
  int device = THCState_getCurrentDevice(state), same = 1;
  va_list args;
  va_start(args, nTensors);
  for (unsigned int i = 0; i < nTensors; i++) {
    THCTensor *t = va_arg(args, THCTensor *);
    if (t != NULL && t->priv.device != device) same = 0;
  }
  va_end(args);
  return same;
}

int THCTensor_(getDevice)(THCState *state, const THCTensor *self) {
  (void)state;
  THFFI_NONNULL(self, 1);
  return self->priv.device;
}

void THCTensor_(fill)(THCState *state, THCTensor *self, real value) {
  THFFI_NONNULL(self, 1);
  int64_t n = THCTensor_(nElement)(state, self);
  if (n == 0) return;
  fill_kernel<real><<<blocks_for(n), kThreads, 0, THCState_getCurrentStream(state)>>>(
      THFFI_DATA(self), strided_of(self->priv.dim, self->size, self->stride),
      n, value);
  THCudaCheck(cudaGetLastError());
}

void THCStorage_(fill)(THCState *state, THCStorage *self, real value) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  if (self->size == 0) return;
  const int64_t size[1] = {(int64_t)self->size}, stride[1] = {1};
  fill_kernel<real><<<blocks_for(self->size), kThreads, 0, THCState_getCurrentStream(state)>>>(
      self->data, strided_of(1, size, stride), self->size, value);
  THCudaCheck(cudaGetLastError());
}

void THCTensor_(zero)(THCState *state, THCTensor *self) {
  THCTensor_(fill)(state, self, (real)0);
}

void THCTensor_(copy)(THCState *state, THCTensor *self, THCTensor *src) {
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  int64_t n = THCTensor_(nElement)(state, self);
  THArgCheck(n == THCTensor_(nElement)(state, src), 2,
             "sizes do not match: %lld elements vs %lld",
             (long long)n, (long long)THCTensor_(nElement)(state, src));
  if (n == 0) return;
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (THCTensor_(isContiguous)(state, self) && THCTensor_(isContiguous)(state, src)) {
    THCudaCheck(cudaMemcpyAsync(THFFI_DATA(self), THFFI_DATA(src),
                                n * sizeof(real), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  copy_kernel<real><<<blocks_for(n), kThreads, 0, stream>>>(
      THFFI_DATA(self), strided_of(self->priv.dim, self->size, self->stride),
      THFFI_DATA(src), strided_of(src->priv.dim, src->size, src->stride), n);
  THCudaCheck(cudaGetLastError());
}

void THCTensor_(cadd)(THCState *state, THCTensor *r, THCTensor *t, real value,
                      THCTensor *src) {
  THFFI_NONNULL(r, 1);
  THFFI_NONNULL(t, 2);
  THFFI_NONNULL(src, 4);
  int64_t n = THCTensor_(nElement)(state, t);
  THArgCheck(n == THCTensor_(nElement)(state, src), 4,
             "sizes do not match: %lld elements vs %lld",
             (long long)n, (long long)THCTensor_(nElement)(state, src));
  THCTensor_(resizeAs)(state, r, t);
  if (n == 0) return;
  cadd_kernel<real><<<blocks_for(n), kThreads, 0, THCState_getCurrentStream(state)>>>(
      THFFI_DATA(r), strided_of(r->priv.dim, r->size, r->stride),
      THFFI_DATA(t), strided_of(t->priv.dim, t->size, t->stride),
      THFFI_DATA(src), strided_of(src->priv.dim, src->size, src->stride),
      n, value);
  THCudaCheck(cudaGetLastError());
}

#endif
