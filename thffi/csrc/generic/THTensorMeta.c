#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#else

/* What TH and THC tensors share: everything but the element-wise ops.
 * Compiled once per type for TH (no state argument) and once per type for
 * THC (a leading THCState *state), through the THFFI_* macros set by the
 * including file:
 *   THFFI_T, THFFI_S       tensor and storage type
 *   THFFI_F(NAME)          tensor function name, THFFI_SF(NAME) storage's
 *   THFFI_STATE, THFFI_ST  the leading state parameter and argument, or empty */

real *THFFI_SF(data)(THFFI_STATE const THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->data;
}

ptrdiff_t THFFI_SF(size)(THFFI_STATE const THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->size;
}

/* Points self at a tensor's memory: data is the address of its first
 * element; size and stride have `dim` entries and outlive the call. */
static void THFFI_F(setView)(THFFI_T *self, real *data, int dim,
                               int64_t *size, int64_t *stride) {
  int64_t numel = THFFI_numel(dim, size);
  self->size = size;
  self->stride = stride;
  self->priv.dim = dim;
  self->nDimension = numel == 0 ? 0 : dim;
  self->storage = &self->storage_;
  self->storageOffset = 0;
  self->storage_.data = data;
  self->storage_.size = numel;
}

void THFFI_F(thffiWrap)(THFFI_T *self, uintptr_t data, int dim,
                          const int64_t *size, const int64_t *stride,
                          int64_t ref) {
  self->refcount = 1;
  self->flag = 0;
  self->storage_.refcount = 1;
  self->storage_.flag = 0;
  self->storage_.allocator = NULL;
  self->storage_.allocatorContext = NULL;
  self->storage_.view = NULL;
  self->priv.ref = ref;
  /* The caller's arrays are read-only for the duration of the call; a
   * resize switches to priv's own arrays. */
  THFFI_F(setView)(self, (real *)data, dim, (int64_t *)size, (int64_t *)stride);
}

real *THFFI_F(data)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  if (self->storage == NULL) return NULL;
  return self->storage->data + self->storageOffset;
}

THFFI_S *THFFI_F(storage)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  return self->storage;
}

ptrdiff_t THFFI_F(storageOffset)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  return self->storageOffset;
}

int THFFI_F(nDimension)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  return self->nDimension;
}

int64_t THFFI_F(size)(THFFI_STATE const THFFI_T *self, int dim) {
  THFFI_NONNULL(self, 1);
  THArgCheck(dim >= 0 && dim < self->priv.dim, 2,
             "dimension %d out of range of %dD tensor", dim, self->priv.dim);
  return self->size[dim];
}

int64_t THFFI_F(stride)(THFFI_STATE const THFFI_T *self, int dim) {
  THFFI_NONNULL(self, 1);
  THArgCheck(dim >= 0 && dim < self->priv.dim, 2,
             "dimension %d out of range of %dD tensor", dim, self->priv.dim);
  return self->stride[dim];
}

ptrdiff_t THFFI_F(nElement)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  return (ptrdiff_t)THFFI_numel(self->priv.dim, self->size);
}

int THFFI_F(isContiguous)(THFFI_STATE const THFFI_T *self) {
  int64_t expected = 1;
  int d;
  THFFI_NONNULL(self, 1);
  for (d = self->priv.dim - 1; d >= 0; d--) {
    if (self->size[d] == 1) continue;
    if (self->stride[d] != expected) return 0;
    expected *= self->size[d];
  }
  return 1;
}

int THFFI_F(isSameSizeAs)(THFFI_STATE const THFFI_T *self, const THFFI_T *src) {
  int d;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  if (self->priv.dim != src->priv.dim) return 0;
  for (d = 0; d < self->priv.dim; d++)
    if (self->size[d] != src->size[d]) return 0;
  return 1;
}

void THFFI_F(resizeNd)(THFFI_STATE THFFI_T *self, int nDimension, const int64_t *size,
                         const int64_t *stride) {
  char err[THFFI_MSG_LEN];
  uintptr_t data = 0;
  int d, same;
  THFFI_NONNULL(self, 1);
  same = nDimension == self->priv.dim;
  THArgCheck(stride == NULL, 4, "resizing with explicit strides is not supported");
  THArgCheck(nDimension >= 0 && nDimension <= THFFI_MAX_DIMS, 2,
             "cannot resize to %d dimensions (at most %d)", nDimension, THFFI_MAX_DIMS);
  for (d = 0; d < nDimension; d++) {
    THArgCheck(size[d] >= 0, 3, "negative size %lld in dimension %d",
               (long long)size[d], d);
    if (same && size[d] != self->size[d]) same = 0;
  }
  if (same) return;
  THArgCheck(self->priv.ref >= 0, 1,
             "cannot resize: this tensor is not backed by a torch tensor");
  /* `size` may alias self->size (resizeAs(t, t)); copy it first. */
  memmove(self->priv.size_buf, size, nDimension * sizeof(int64_t));
  if (_thffi_resize_cb(self->priv.ref, nDimension, self->priv.size_buf,
                       self->priv.stride_buf, &data, err, sizeof err) != 0)
    THError("%s", err);
  THFFI_F(setView)(self, (real *)data, nDimension, self->priv.size_buf,
                     self->priv.stride_buf);
}

void THFFI_F(resizeAs)(THFFI_STATE THFFI_T *self, const THFFI_T *src) {
  THFFI_NONNULL(src, 2);
  THFFI_F(resizeNd)(THFFI_ST self, src->priv.dim, src->size, NULL);
}

void THFFI_F(resize1d)(THFFI_STATE THFFI_T *self, int64_t size0) {
  int64_t size[1];
  size[0] = size0;
  THFFI_F(resizeNd)(THFFI_ST self, 1, size, NULL);
}

void THFFI_F(resize2d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1) {
  int64_t size[2];
  size[0] = size0; size[1] = size1;
  THFFI_F(resizeNd)(THFFI_ST self, 2, size, NULL);
}

void THFFI_F(resize3d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3];
  size[0] = size0; size[1] = size1; size[2] = size2;
  THFFI_F(resizeNd)(THFFI_ST self, 3, size, NULL);
}

void THFFI_F(resize4d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                         int64_t size2, int64_t size3) {
  int64_t size[4];
  size[0] = size0; size[1] = size1; size[2] = size2; size[3] = size3;
  THFFI_F(resizeNd)(THFFI_ST self, 4, size, NULL);
}

#endif
