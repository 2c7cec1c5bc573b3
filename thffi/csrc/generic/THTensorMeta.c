#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#else

/* What TH and THC tensors share: everything but the element-wise ops.
 * Compiled once per type for TH (no state argument) and once per type for
 * THC (a leading THCState *state), through the THFFI_* macros set by the
 * including file:
 *   THFFI_T, THFFI_S       tensor and storage type
 *   THFFI_F(NAME)          tensor function name, THFFI_SF(NAME) storage's
 *   THFFI_STATE, THFFI_ST  the leading state parameter and argument, or empty
 *   THFFI_STATE_ONLY       the parameter list of functions taking only state
 *   THFFI_NEW_DEVICE       device of tensors created in C (-1: CPU) */

#define THFFI_DTYPE TH_CONCAT_2(THFFI_DTYPE_, Real)

real *THFFI_SF(data)(THFFI_STATE const THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->data;
}

ptrdiff_t THFFI_SF(size)(THFFI_STATE const THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->size;
}

/* Points self at a tensor's memory: data is the address of its first
 * element; size and stride have `dim` entries and outlive the call.  The
 * storage covers the elements the view reaches, from the first. */
static void THFFI_F(setView)(THFFI_T *self, real *data, int dim,
                             int64_t *size, int64_t *stride) {
  int64_t numel = THFFI_numel(dim, size), span = numel ? 1 : 0;
  int d;
  for (d = 0; d < dim && numel; d++) span += (size[d] - 1) * stride[d];
  self->size = size;
  self->stride = stride;
  self->priv.dim = dim;
  self->nDimension = numel == 0 ? 0 : dim;
  self->storage = &self->storage_;
  self->storageOffset = 0;
  self->storage_.data = data;
  self->storage_.size = span;
}

static void THFFI_F(initStruct)(THFFI_T *self, void *obj, int64_t ref, int device) {
  self->refcount = 1;
  self->flag = 0;
  self->storage_.refcount = 1;
  self->storage_.flag = 0;
  self->storage_.allocator = NULL;
  self->storage_.allocatorContext = NULL;
  self->storage_.view = NULL;
  self->priv.obj = obj;
  self->priv.ref = ref;
  self->priv.device = device;
}

void THFFI_F(thffiWrap)(THFFI_T *self, uintptr_t data, int dim, const int64_t *size,
                        const int64_t *stride, int64_t ref, int device, void *obj) {
  THFFI_F(initStruct)(self, obj, ref, device);
  self->priv.base = NULL;
  self->priv.next_owned = NULL;
  /* The caller's arrays are read-only for the duration of the call; a
   * change from C switches to priv's own arrays. */
  THFFI_F(setView)(self, (real *)data, dim, (int64_t *)size, (int64_t *)stride);
}

/* Has Python do `op` to self's torch tensor, then re-reads it. */
static void THFFI_F(apply)(THFFI_T *self, int op, const THFFI_T *src, int n,
                           const int64_t *args) {
  uintptr_t data = THFFI_tensorOp(op, &self->priv, src ? &src->priv : NULL, THFFI_DTYPE,
                                  self->priv.device, n, args);
  THFFI_F(setView)(self, (real *)data, self->priv.dim, self->priv.size_buf,
                   self->priv.stride_buf);
}

/* A tensor created in C: a torch tensor from PyTorch's allocator, released
 * by _free or, at the latest, when the call ends. */
static THFFI_T *THFFI_F(create)(int op, const THFFI_T *src, int device, int n,
                                const int64_t *args) {
  THFFI_T *self = (THFFI_T *)THFFI_allocTensor(sizeof(THFFI_T), offsetof(THFFI_T, priv));
  THFFI_F(initStruct)(self, NULL, -1, device);
  THFFI_F(apply)(self, op, src, n, args);
  return self;
}

real *THFFI_F(data)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  if (self->storage == NULL) return NULL;
  return self->storage->data + self->storageOffset;
}

THFFI_S *THFFI_F(storage)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  /* TH 0.3: a tensor that never had memory (torch.FloatTensor()) has none */
  if (self->storage == NULL || self->storage->data == NULL) return NULL;
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

int THFFI_F(_nDimension)(THFFI_STATE const THFFI_T *self) {
  return THFFI_F(nDimension)(THFFI_ST self);
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
  /* Without elements there is no layout to break, whatever the strides (as
   * in TH and torch): the indices sorting an empty column give, say, size
   * (0,) stride (5,), and legacy NMS code checks those are contiguous. */
  if (THFFI_numel(self->priv.dim, self->size) == 0) return 1;
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
  int64_t sizes[THFFI_MAX_DIMS];
  int d, same;
  THFFI_NONNULL(self, 1);
  THArgCheck(stride == NULL, 4, "resizing with explicit strides is not supported");
  THArgCheck(nDimension >= 0 && nDimension <= THFFI_MAX_DIMS, 2,
             "cannot resize to %d dimensions (at most %d)", nDimension, THFFI_MAX_DIMS);
  same = nDimension == self->priv.dim;
  for (d = 0; d < nDimension; d++) {
    THArgCheck(size[d] >= 0, 3, "negative size %lld in dimension %d",
               (long long)size[d], d);
    if (same && size[d] != self->size[d]) same = 0;
  }
  if (same) return;
  /* `size` may alias self->size (resizeAs(t, t)): copy it first. */
  memcpy(sizes, size, nDimension * sizeof(int64_t));
  THFFI_F(apply)(self, THFFI_OP_RESIZE, NULL, nDimension, sizes);
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

void THFFI_F(resize3d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                       int64_t size2) {
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

void THFFI_F(resize5d)(THFFI_STATE THFFI_T *self, int64_t size0, int64_t size1,
                       int64_t size2, int64_t size3, int64_t size4) {
  int64_t size[5];
  size[0] = size0; size[1] = size1; size[2] = size2; size[3] = size3; size[4] = size4;
  THFFI_F(resizeNd)(THFFI_ST self, 5, size, NULL);
}

THFFI_T *THFFI_F(new)(THFFI_STATE_ONLY) {
  int64_t size[1];
  size[0] = 0;
  return THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, 1, size);
}

THFFI_T *THFFI_F(newWithSize1d)(THFFI_STATE int64_t size0) {
  int64_t size[1];
  size[0] = size0;
  return THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, 1, size);
}

THFFI_T *THFFI_F(newWithSize2d)(THFFI_STATE int64_t size0, int64_t size1) {
  int64_t size[2];
  size[0] = size0; size[1] = size1;
  return THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, 2, size);
}

THFFI_T *THFFI_F(newWithSize3d)(THFFI_STATE int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3];
  size[0] = size0; size[1] = size1; size[2] = size2;
  return THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, 3, size);
}

THFFI_T *THFFI_F(newWithSize4d)(THFFI_STATE int64_t size0, int64_t size1, int64_t size2,
                                int64_t size3) {
  int64_t size[4];
  size[0] = size0; size[1] = size1; size[2] = size2; size[3] = size3;
  return THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, 4, size);
}

THFFI_T *THFFI_F(newContiguous)(THFFI_STATE THFFI_T *src) {
  THFFI_NONNULL(src, 1);
  return THFFI_F(create)(THFFI_OP_CONTIGUOUS, src, src->priv.device, 0, NULL);
}

THFFI_T *THFFI_F(newClone)(THFFI_STATE THFFI_T *src) {
  THFFI_NONNULL(src, 1);
  return THFFI_F(create)(THFFI_OP_CLONE, src, src->priv.device, 0, NULL);
}

void THFFI_F(select)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension,
                     int64_t sliceIndex) {
  int64_t args[2];
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  THArgCheck(src->priv.dim > 0, 2, "cannot select on a 0-d tensor");
  THArgCheck(dimension >= 0 && dimension < src->priv.dim, 3,
             "dimension %d out of range of %dD tensor", dimension, src->priv.dim);
  THArgCheck(sliceIndex >= 0 && sliceIndex < src->size[dimension], 4,
             "index %lld out of range for dimension %d of size %lld",
             (long long)sliceIndex, dimension, (long long)src->size[dimension]);
  args[0] = dimension; args[1] = sliceIndex;
  THFFI_F(apply)(self, THFFI_OP_SELECT, src, 2, args);
}

void THFFI_F(narrow)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension,
                     int64_t firstIndex, int64_t size) {
  int64_t args[3];
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  THArgCheck(dimension >= 0 && dimension < src->priv.dim, 3,
             "dimension %d out of range of %dD tensor", dimension, src->priv.dim);
  THArgCheck(firstIndex >= 0 && firstIndex <= src->size[dimension], 4,
             "first index %lld out of range for dimension %d of size %lld",
             (long long)firstIndex, dimension, (long long)src->size[dimension]);
  THArgCheck(size >= 0 && firstIndex + size <= src->size[dimension], 5,
             "size %lld from index %lld exceeds dimension %d of size %lld",
             (long long)size, (long long)firstIndex, dimension,
             (long long)src->size[dimension]);
  args[0] = dimension; args[1] = firstIndex; args[2] = size;
  THFFI_F(apply)(self, THFFI_OP_NARROW, src, 3, args);
}

void THFFI_F(transpose)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension1,
                        int dimension2) {
  int64_t args[2];
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  THArgCheck(dimension1 >= 0 && dimension1 < src->priv.dim, 3,
             "dimension %d out of range of %dD tensor", dimension1, src->priv.dim);
  THArgCheck(dimension2 >= 0 && dimension2 < src->priv.dim, 4,
             "dimension %d out of range of %dD tensor", dimension2, src->priv.dim);
  args[0] = dimension1; args[1] = dimension2;
  THFFI_F(apply)(self, THFFI_OP_TRANSPOSE, src, 2, args);
}

void THFFI_F(retain)(THFFI_STATE THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  self->refcount++;
}

void THFFI_F(free)(THFFI_STATE THFFI_T *self) {
  if (self == NULL) return;
  THArgCheck(self->refcount > 0, 1, "tensor freed more times than retained");
  /* Arguments belong to the caller: their last _free only marks them. */
  if (--self->refcount == 0 && self->priv.base != NULL)
    THFFI_releaseTensor(&self->priv);
}

#undef THFFI_DTYPE

#endif
