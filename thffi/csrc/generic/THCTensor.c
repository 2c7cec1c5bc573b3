#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensor.c"
#else

/* THC functions only the CUDA types have: element accessors through a copy
 * on the call's current stream, newFoldBatchDim, texture objects, and the
 * device of a storage. */

/* The device address of self's element at the `dims` indices idx, after
 * checking that self has exactly `dims` dimensions and every index is in
 * range (as THTensor_(get1d)... do). */
static real *THCTensor_(element)(const THCTensor *self, int dims, const int64_t *idx) {
  int64_t offset = 0;
  int d;
  THFFI_NONNULL(self, 2);
  THArgCheck(self->priv.dim == dims, 2, "tensor must have %d dimension%s, got %d", dims,
             dims == 1 ? "" : "s", self->priv.dim);
  for (d = 0; d < dims; d++) {
    THArgCheck(idx[d] >= 0 && idx[d] < self->size[d], d + 3,
               "index %lld out of range for dimension %d of size %lld", (long long)idx[d],
               d, (long long)self->size[d]);
    offset += idx[d] * self->stride[d];
  }
  return self->storage->data + self->storageOffset + offset;
}

/* Reads (to_host) or writes one element, waiting for the copy as THC did. */
static void THCTensor_(transfer)(THCState *state, real *at, real *value, int to_host) {
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (to_host)
    THCudaCheck(cudaMemcpyAsync(value, at, sizeof(real), cudaMemcpyDeviceToHost, stream));
  else
    THCudaCheck(cudaMemcpyAsync(at, value, sizeof(real), cudaMemcpyHostToDevice, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
}

static real THCTensor_(getAt)(THCState *state, const THCTensor *self, int dims,
                              const int64_t *idx) {
  real value;
  THCTensor_(transfer)(state, THCTensor_(element)(self, dims, idx), &value, 1);
  return value;
}

static void THCTensor_(setAt)(THCState *state, THCTensor *self, int dims, const int64_t *idx,
                              real value) {
  THCTensor_(transfer)(state, THCTensor_(element)(self, dims, idx), &value, 0);
}

real THCTensor_(get1d)(THCState *state, const THCTensor *self, int64_t x0) {
  int64_t idx[1];
  idx[0] = x0;
  return THCTensor_(getAt)(state, self, 1, idx);
}

real THCTensor_(get2d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1) {
  int64_t idx[2];
  idx[0] = x0; idx[1] = x1;
  return THCTensor_(getAt)(state, self, 2, idx);
}

real THCTensor_(get3d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1,
                       int64_t x2) {
  int64_t idx[3];
  idx[0] = x0; idx[1] = x1; idx[2] = x2;
  return THCTensor_(getAt)(state, self, 3, idx);
}

real THCTensor_(get4d)(THCState *state, const THCTensor *self, int64_t x0, int64_t x1,
                       int64_t x2, int64_t x3) {
  int64_t idx[4];
  idx[0] = x0; idx[1] = x1; idx[2] = x2; idx[3] = x3;
  return THCTensor_(getAt)(state, self, 4, idx);
}

void THCTensor_(set1d)(THCState *state, THCTensor *self, int64_t x0, real value) {
  int64_t idx[1];
  idx[0] = x0;
  THCTensor_(setAt)(state, self, 1, idx, value);
}

void THCTensor_(set2d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1, real value) {
  int64_t idx[2];
  idx[0] = x0; idx[1] = x1;
  THCTensor_(setAt)(state, self, 2, idx, value);
}

void THCTensor_(set3d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1, int64_t x2,
                       real value) {
  int64_t idx[3];
  idx[0] = x0; idx[1] = x1; idx[2] = x2;
  THCTensor_(setAt)(state, self, 3, idx, value);
}

void THCTensor_(set4d)(THCState *state, THCTensor *self, int64_t x0, int64_t x1, int64_t x2,
                       int64_t x3, real value) {
  int64_t idx[4];
  idx[0] = x0; idx[1] = x1; idx[2] = x2; idx[3] = x3;
  THCTensor_(setAt)(state, self, 4, idx, value);
}

/* A view of the contiguous input with its first two dimensions merged, as
 * THC's (for batched convolutions). */
THCTensor *THCTensor_(newFoldBatchDim)(THCState *state, THCTensor *input) {
  THLongStorage *size;
  THCTensor *output;
  int d, dims;
  THFFI_NONNULL(input, 2);
  dims = input->priv.dim;
  THArgCheck(dims >= 2, 2, "Tensor needs to have at least two dimensions");
  THArgCheck(THCTensor_(isContiguous)(state, input), 2, "Tensor must be contiguous");
  size = THLongStorage_newWithSize(dims - 1);
  size->data[0] = input->size[0] * input->size[1];
  for (d = 2; d < dims; d++) size->data[d - 1] = input->size[d];
  output = THCTensor_(newView)(state, input, size);
  THLongStorage_free(size);
  return output;
}

/* A texture object reading self's elements (contiguous, at most 2^27 of
 * them) as a linear 1-D texture, as THC's; the caller destroys it with
 * cudaDestroyTextureObject. */
cudaTextureObject_t THCTensor_(getTextureObject)(THCState *state, THCTensor *self) {
  cudaTextureObject_t texture = 0;
  struct cudaResourceDesc resource;
  struct cudaTextureDesc description;
  int64_t n;
  THFFI_NONNULL(self, 2);
  THArgCheck(THCTensor_(isContiguous)(state, self), 2, "texture objects need a contiguous tensor");
  n = THCTensor_(nElement)(state, self);
  THArgCheck(n > 0 && n <= (int64_t)1 << 27, 2,
             "texture objects hold 1 to 2^27 elements, got %lld", (long long)n);
  memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = THCTensor_(data)(state, self);
  resource.res.linear.sizeInBytes = (size_t)n * sizeof(real);
#if defined(THC_REAL_IS_FLOAT) || defined(THC_REAL_IS_DOUBLE) || defined(THC_REAL_IS_HALF)
  resource.res.linear.desc = cudaCreateChannelDesc((int)(8 * sizeof(real)), 0, 0, 0,
                                                   cudaChannelFormatKindFloat);
#elif defined(THC_REAL_IS_BYTE)
  resource.res.linear.desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
#else
  resource.res.linear.desc = cudaCreateChannelDesc((int)(8 * sizeof(real)), 0, 0, 0,
                                                   cudaChannelFormatKindSigned);
#endif
  memset(&description, 0, sizeof description);
  description.readMode = cudaReadModeElementType;
  THCudaCheck(cudaCreateTextureObject(&texture, &resource, &description, NULL));
  return texture;
}

/* The device of the storage's memory, as CUDA reports it. */
int THCStorage_(getDevice)(THCState *state, const THCStorage *storage) {
  struct cudaPointerAttributes attributes;
  (void)state;
  THArgCheck(storage != NULL, 2, "expected a storage, got NULL");
  if (storage->data == NULL) return THCState_getCurrentDevice(state);
  THCudaCheck(cudaPointerGetAttributes(&attributes, storage->data));
  return attributes.device;
}

#endif
