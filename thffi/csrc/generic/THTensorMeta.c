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
 *   THFFI_NEW_DEVICE       device of tensors created in C (-1: CPU)
 *   THFFI_THC              defined for THC: storage elements are device memory
 *   THFFI_TYPE_NAME        the type's name in descriptions, e.g. "torch.FloatTensor" */

#define THFFI_DTYPE TH_CONCAT_2(THFFI_DTYPE_, Real)
/* Records that C read t's layout, for THFFI_CHECK_LAYOUT (THFFI_F(data)). */
#define THFFI_LAYOUT_READ(t) \
  do { if (THFFI_checkLayout) ((THFFITensorPriv *)&(t)->priv)->layout_read = 1; } while (0)

real *THFFI_SF(data)(THFFI_STATE const THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->data;
}

ptrdiff_t THFFI_SF(size)(THFFI_STATE const THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->size;
}

/* The tensor struct a storage belongs to: every storage thffi hands out is
 * the storage_ of a tensor struct whose torch tensor holds its memory
 * (allocatorContext points back at that struct's priv); NULL for another. */
static THFFI_T *THFFI_F(ownerOf)(const THFFI_S *storage) {
  THFFI_T *owner = (THFFI_T *)((char *)storage - offsetof(THFFI_T, storage_));
  return storage->allocatorContext == (void *)&owner->priv ? owner : NULL;
}

/* Points self at a tensor's memory: data is the address of its first
 * element; size and stride have `dim` entries and outlive the call.  When
 * the view lies within the storage base (base_data, base_size elements) it
 * keeps that storage and its offset in it, as TH's views did; otherwise its
 * storage covers the elements the view reaches, from the first. */
static void THFFI_F(setView)(THFFI_T *self, real *data, int dim, int64_t *size,
                             int64_t *stride, real *base_data, ptrdiff_t base_size) {
  int64_t numel = THFFI_numel(dim, size), span = numel ? 1 : 0;
  int d;
  for (d = 0; d < dim && numel; d++) span += (size[d] - 1) * stride[d];
  self->size = size;
  self->stride = stride;
  self->priv.dim = dim;
  self->nDimension = numel == 0 ? 0 : dim;
  self->storage = &self->storage_;
  if (base_data != NULL && data != NULL && (uintptr_t)data >= (uintptr_t)base_data &&
      (uintptr_t)(data + span) <= (uintptr_t)(base_data + base_size)) {
    self->storage_.data = base_data;
    self->storage_.size = base_size;
    self->storageOffset = data - base_data;
  } else {
    self->storage_.data = data;
    self->storage_.size = span;
    self->storageOffset = 0;
  }
}

static void THFFI_F(initStruct)(THFFI_T *self, void *obj, int64_t ref, int device) {
  self->refcount = 1;
  self->flag = TH_TENSOR_REFCOUNTED;
  self->storage_.refcount = 1;  /* the tensor's own reference */
  self->storage_.flag = 0;
  self->storage_.allocator = NULL;
  self->storage_.allocatorContext = &self->priv;
  self->storage_.view = NULL;
  self->priv.obj = obj;
  self->priv.ref = ref;
  self->priv.device = device;
  self->priv.layout_read = 0;
}

void THFFI_F(thffiWrap)(THFFI_T *self, uintptr_t data, int dim, const int64_t *size,
                        const int64_t *stride, int64_t ref, int device, void *obj) {
  THFFI_F(initStruct)(self, obj, ref, device);
  self->priv.base = NULL;
  self->priv.next_owned = NULL;
  /* The caller's arrays are read-only for the duration of the call; a
   * change from C switches to priv's own arrays. */
  THFFI_F(setView)(self, (real *)data, dim, (int64_t *)size, (int64_t *)stride, NULL, 0);
}

/* Has Python do `op` to self's torch tensor, then re-reads it.  A view
 * keeps the storage of its source (of self, for a resize) when it lies
 * within it. */
static void THFFI_F(apply)(THFFI_T *self, int op, const THFFI_T *src, int n,
                           const int64_t *args) {
  const THFFI_S *base = src != NULL ? src->storage : self->storage;
  real *base_data = base != NULL ? base->data : NULL;
  ptrdiff_t base_size = base != NULL ? base->size : 0;
  uintptr_t data = THFFI_tensorOp(op, &self->priv, src ? &src->priv : NULL, THFFI_DTYPE,
                                  self->priv.device, n, args);
  if (op == THFFI_OP_NEW || op == THFFI_OP_CLONE || op == THFFI_OP_CONTIGUOUS ||
      op == THFFI_OP_WRAP)
    base_data = NULL;  /* new memory */
  THFFI_F(setView)(self, (real *)data, self->priv.dim, self->priv.size_buf,
                   self->priv.stride_buf, base_data, base_size);
}

/* A tensor created in C: a torch tensor from PyTorch's allocator, released
 * by _free or, at the latest, when the call ends. */
static THFFI_T *THFFI_F(create)(int op, const THFFI_T *src, int device, int n,
                                const int64_t *args) {
  THFFI_T *self = (THFFI_T *)THFFI_allocTensor(sizeof(THFFI_T), offsetof(THFFI_T, priv));
  THFFI_F(initStruct)(self, NULL, -1, device);
  self->storage = NULL;
  THFFI_F(apply)(self, op, src, n, args);
  return self;
}

/* Whether self's elements lie in row-major order without gaps (as
 * isContiguous says, without recording that C asked). */
static int THFFI_F(dense)(const THFFI_T *self) {
  int64_t expected = 1;
  int d;
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

#define THFFI_STRING(x) THFFI_STRING_(x)
#define THFFI_STRING_(x) #x

real *THFFI_F(data)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  /* An argument C indexes as if contiguous, when it is not, reads the wrong
   * elements; code that read its strides first may know what it does. */
  if (THFFI_checkLayout && !self->priv.layout_read && self->priv.base == NULL &&
      self->priv.ref >= 0 && !THFFI_F(dense)(self)) {
    THFFI_LAYOUT_READ(self);  /* once per call and argument */
    THFFIPy_layoutWarning(THFFI_STRING(THFFI_F(data)), &self->priv, self->size, self->stride);
  }
  return THFFI_DATA(self);
}

#undef THFFI_STRING
#undef THFFI_STRING_

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
  THFFI_LAYOUT_READ(self);
  THArgCheck(dim >= 0 && dim < self->priv.dim, 2,
             "dimension %d out of range of %dD tensor", dim, self->priv.dim);
  return self->stride[dim];
}

ptrdiff_t THFFI_F(nElement)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  return (ptrdiff_t)THFFI_numel(self->priv.dim, self->size);
}

int THFFI_F(isContiguous)(THFFI_STATE const THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  THFFI_LAYOUT_READ(self);
  return THFFI_F(dense)(self);
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
  THFFI_LAYOUT_READ(src);
  return THFFI_F(create)(THFFI_OP_CONTIGUOUS, src, src->priv.device, 0, NULL);
}

THFFI_T *THFFI_F(newClone)(THFFI_STATE THFFI_T *src) {
  THFFI_NONNULL(src, 1);
  THFFI_LAYOUT_READ(src);
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

/* Reference counts change atomically, as in legacy TH: the threads of a
 * call retain and free the tensors and storages they share. */
void THFFI_F(retain)(THFFI_STATE THFFI_T *self) {
  THFFI_NONNULL(self, 1);
  __atomic_add_fetch(&self->refcount, 1, __ATOMIC_RELAXED);
}

/* Drops one reference to the storage of the struct `owner`; a created
 * struct is released when neither it nor its storage is referenced any
 * more.  Arguments belong to the caller: they are only marked. */
static void THFFI_F(dropStorage)(THFFI_T *owner) {
  if (__atomic_sub_fetch(&owner->storage_.refcount, 1, __ATOMIC_ACQ_REL) == 0 &&
      __atomic_load_n(&owner->refcount, __ATOMIC_ACQUIRE) == 0 && owner->priv.base != NULL)
    THFFI_releaseTensor(&owner->priv);
}

/* Drops one reference counted at *count; how many are left, after an error
 * (and leaving the count alone) when none was there to drop. */
static int THFFI_F(unref)(int *count, const char *what) {
  int left = __atomic_sub_fetch(count, 1, __ATOMIC_ACQ_REL);
  if (left < 0) {
    __atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
    THArgError(1, "%s freed more times than retained", what);
  }
  return left;
}

void THFFI_F(free)(THFFI_STATE THFFI_T *self) {
  if (self == NULL) return;
  if (THFFI_F(unref)(&self->refcount, "tensor") == 0) THFFI_F(dropStorage)(self);
}

/* ---- views and geometry (TH's generic/THTensor.c) ---- */

THFFI_T *THFFI_F(newWithTensor)(THFFI_STATE THFFI_T *tensor) {
  int64_t none[1];
  THFFI_T *self;
  THFFI_NONNULL(tensor, 1);
  none[0] = 0;
  self = THFFI_F(create)(THFFI_OP_NEW, NULL, tensor->priv.device, 1, none);
  THFFI_F(set)(THFFI_ST self, tensor);
  return self;
}

void THFFI_F(set)(THFFI_STATE THFFI_T *self, THFFI_T *src) {
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  if (self != src) THFFI_F(apply)(self, THFFI_OP_SET, src, 0, NULL);
}

void THFFI_F(setStorageNd)(THFFI_STATE THFFI_T *self, THFFI_S *storage,
                           ptrdiff_t storageOffset, int nDimension, int64_t *size,
                           int64_t *stride) {
  int64_t args[2 + 2 * THFFI_MAX_DIMS], numel = 1, span = 1, step = 1;
  THFFI_T *owner;
  int d;
  THFFI_NONNULL(self, 1);
  THArgCheck(nDimension >= 0 && nDimension <= THFFI_MAX_DIMS, 4,
             "cannot view %d dimensions (at most %d)", nDimension, THFFI_MAX_DIMS);
  if (storage == NULL) {  /* TH: a fresh storage, i.e. a resize */
    for (d = 0; d < nDimension; d++)
      THArgCheck(stride == NULL || stride[d] < 0, 6,
                 "explicit strides need a storage (got NULL)");
    THFFI_F(resizeNd)(THFFI_ST self, nDimension, size, NULL);
    return;
  }
  owner = THFFI_F(ownerOf)(storage);
  THArgCheck(owner != NULL, 2, "expected a storage from thffi (a tensor's or THStorage_new*'s)");
  THArgCheck(storageOffset >= 0, 3, "negative storage offset %lld", (long long)storageOffset);
  for (d = nDimension - 1; d >= 0; d--) {
    THArgCheck(size[d] >= 0, 5, "negative size %lld in dimension %d", (long long)size[d], d);
    args[2 + d] = size[d];
    /* TH: a negative (or absent) stride is the contiguous one */
    args[2 + nDimension + d] = stride != NULL && stride[d] >= 0 ? stride[d] : step;
    step *= size[d] > 1 ? size[d] : 1;
    numel *= size[d];
    span += (size[d] - 1) * args[2 + nDimension + d];
  }
  if (numel == 0) span = 0;
  THArgCheck(storageOffset + span <= (int64_t)storage->size, 2,
             "a view of %lld elements from offset %lld exceeds the storage of %lld",
             (long long)span, (long long)storageOffset, (long long)storage->size);
  args[0] = storageOffset - owner->storageOffset;
  args[1] = nDimension;
  THFFI_F(apply)(self, THFFI_OP_STRIDED, owner, 2 + 2 * nDimension, args);
}

void THFFI_F(setStorage)(THFFI_STATE THFFI_T *self, THFFI_S *storage, ptrdiff_t storageOffset,
                         THLongStorage *size, THLongStorage *stride) {
  THArgCheck(size != NULL, 4, "expected a size storage, got NULL");
  THArgCheck(stride == NULL || stride->size == size->size, 5,
             "%lld strides for %lld sizes", (long long)(stride ? stride->size : 0),
             (long long)size->size);
  THFFI_F(setStorageNd)(THFFI_ST self, storage, storageOffset, (int)size->size, size->data,
                        stride ? stride->data : NULL);
}

void THFFI_F(setStorage1d)(THFFI_STATE THFFI_T *self, THFFI_S *storage, ptrdiff_t storageOffset,
                           int64_t size0, int64_t stride0) {
  int64_t size[1], stride[1];
  size[0] = size0; stride[0] = stride0;
  THFFI_F(setStorageNd)(THFFI_ST self, storage, storageOffset, 1, size, stride);
}

void THFFI_F(setStorage2d)(THFFI_STATE THFFI_T *self, THFFI_S *storage, ptrdiff_t storageOffset,
                           int64_t size0, int64_t stride0, int64_t size1, int64_t stride1) {
  int64_t size[2], stride[2];
  size[0] = size0; stride[0] = stride0; size[1] = size1; stride[1] = stride1;
  THFFI_F(setStorageNd)(THFFI_ST self, storage, storageOffset, 2, size, stride);
}

void THFFI_F(setStorage3d)(THFFI_STATE THFFI_T *self, THFFI_S *storage, ptrdiff_t storageOffset,
                           int64_t size0, int64_t stride0, int64_t size1, int64_t stride1,
                           int64_t size2, int64_t stride2) {
  int64_t size[3], stride[3];
  size[0] = size0; stride[0] = stride0; size[1] = size1; stride[1] = stride1;
  size[2] = size2; stride[2] = stride2;
  THFFI_F(setStorageNd)(THFFI_ST self, storage, storageOffset, 3, size, stride);
}

void THFFI_F(setStorage4d)(THFFI_STATE THFFI_T *self, THFFI_S *storage, ptrdiff_t storageOffset,
                           int64_t size0, int64_t stride0, int64_t size1, int64_t stride1,
                           int64_t size2, int64_t stride2, int64_t size3, int64_t stride3) {
  int64_t size[4], stride[4];
  size[0] = size0; stride[0] = stride0; size[1] = size1; stride[1] = stride1;
  size[2] = size2; stride[2] = stride2; size[3] = size3; stride[3] = stride3;
  THFFI_F(setStorageNd)(THFFI_ST self, storage, storageOffset, 4, size, stride);
}

/* A new tensor (on the call's device) viewing `storage`. */
static THFFI_T *THFFI_F(newOver)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset, int n,
                                 int64_t *size, int64_t *stride) {
  int64_t none[1];
  THFFI_T *owner = storage != NULL ? THFFI_F(ownerOf)(storage) : NULL;
  THFFI_T *self;
  none[0] = 0;
  self = THFFI_F(create)(THFFI_OP_NEW, NULL, owner ? owner->priv.device : THFFI_NEW_DEVICE, 1,
                         none);
  THFFI_F(setStorageNd)(THFFI_ST self, storage, storageOffset, n, size, stride);
  return self;
}

THFFI_T *THFFI_F(newWithStorage)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                 THLongStorage *size, THLongStorage *stride) {
  THArgCheck(size != NULL, 3, "expected a size storage, got NULL");
  THArgCheck(stride == NULL || stride->size == size->size, 4,
             "%lld strides for %lld sizes", (long long)(stride ? stride->size : 0),
             (long long)size->size);
  return THFFI_F(newOver)(THFFI_ST storage, storageOffset, (int)size->size, size->data,
                          stride ? stride->data : NULL);
}

THFFI_T *THFFI_F(newWithStorage1d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                   int64_t size0, int64_t stride0) {
  int64_t size[1], stride[1];
  size[0] = size0; stride[0] = stride0;
  return THFFI_F(newOver)(THFFI_ST storage, storageOffset, 1, size, stride);
}

THFFI_T *THFFI_F(newWithStorage2d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                   int64_t size0, int64_t stride0, int64_t size1,
                                   int64_t stride1) {
  int64_t size[2], stride[2];
  size[0] = size0; stride[0] = stride0; size[1] = size1; stride[1] = stride1;
  return THFFI_F(newOver)(THFFI_ST storage, storageOffset, 2, size, stride);
}

THFFI_T *THFFI_F(newWithStorage3d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                   int64_t size0, int64_t stride0, int64_t size1,
                                   int64_t stride1, int64_t size2, int64_t stride2) {
  int64_t size[3], stride[3];
  size[0] = size0; stride[0] = stride0; size[1] = size1; stride[1] = stride1;
  size[2] = size2; stride[2] = stride2;
  return THFFI_F(newOver)(THFFI_ST storage, storageOffset, 3, size, stride);
}

THFFI_T *THFFI_F(newWithStorage4d)(THFFI_STATE THFFI_S *storage, ptrdiff_t storageOffset,
                                   int64_t size0, int64_t stride0, int64_t size1,
                                   int64_t stride1, int64_t size2, int64_t stride2,
                                   int64_t size3, int64_t stride3) {
  int64_t size[4], stride[4];
  size[0] = size0; stride[0] = stride0; size[1] = size1; stride[1] = stride1;
  size[2] = size2; stride[2] = stride2; size[3] = size3; stride[3] = stride3;
  return THFFI_F(newOver)(THFFI_ST storage, storageOffset, 4, size, stride);
}

THFFI_T *THFFI_F(newWithSize)(THFFI_STATE THLongStorage *size, THLongStorage *stride) {
  int64_t span = 1, d;
  THFFI_S *storage;
  THFFI_T *self;
  THArgCheck(size != NULL, 1, "expected a size storage, got NULL");
  if (stride == NULL)
    return THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, (int)size->size, size->data);
  THArgCheck(stride->size == size->size, 2, "%lld strides for %lld sizes",
             (long long)stride->size, (long long)size->size);
  for (d = 0; d < size->size; d++) {
    THArgCheck(size->data[d] >= 0, 1, "negative size %lld in dimension %d",
               (long long)size->data[d], (int)d);
    if (size->data[d] == 0) span = 0;
    if (span) span += (size->data[d] - 1) * (stride->data[d] >= 0 ? stride->data[d] : 0);
  }
  /* the memory the strides reach, then the view of it */
  storage = THFFI_SF(newWithSize)(THFFI_ST span);
  self = THFFI_F(newOver)(THFFI_ST storage, 0, (int)size->size, size->data, stride->data);
  THFFI_SF(free)(THFFI_ST storage);
  return self;
}

THFFI_T *THFFI_F(newSelect)(THFFI_STATE THFFI_T *tensor, int dimension, int64_t sliceIndex) {
  THFFI_T *self = THFFI_F(newWithTensor)(THFFI_ST tensor);
  THFFI_F(select)(THFFI_ST self, NULL, dimension, sliceIndex);
  return self;
}

THFFI_T *THFFI_F(newNarrow)(THFFI_STATE THFFI_T *tensor, int dimension, int64_t firstIndex,
                            int64_t size) {
  THFFI_T *self = THFFI_F(newWithTensor)(THFFI_ST tensor);
  THFFI_F(narrow)(THFFI_ST self, NULL, dimension, firstIndex, size);
  return self;
}

THFFI_T *THFFI_F(newTranspose)(THFFI_STATE THFFI_T *tensor, int dimension1, int dimension2) {
  THFFI_T *self = THFFI_F(newWithTensor)(THFFI_ST tensor);
  THFFI_F(transpose)(THFFI_ST self, NULL, dimension1, dimension2);
  return self;
}

THFFI_T *THFFI_F(newUnfold)(THFFI_STATE THFFI_T *tensor, int dimension, int64_t size,
                            int64_t step) {
  THFFI_T *self = THFFI_F(newWithTensor)(THFFI_ST tensor);
  THFFI_F(unfold)(THFFI_ST self, NULL, dimension, size, step);
  return self;
}

THFFI_T *THFFI_F(newView)(THFFI_STATE THFFI_T *tensor, THLongStorage *size) {
  THFFI_T *self;
  THArgCheck(size != NULL, 2, "expected a size storage, got NULL");
  THArgCheck(size->size <= THFFI_MAX_DIMS, 2, "too many dimensions (%lld)",
             (long long)size->size);
  self = THFFI_F(newWithTensor)(THFFI_ST tensor);
  THFFI_F(apply)(self, THFFI_OP_VIEW, tensor, (int)size->size, size->data);
  return self;
}

void THFFI_F(expand)(THFFI_STATE THFFI_T *r, THFFI_T *tensor, THLongStorage *size) {
  THFFI_NONNULL(r, 1);
  THFFI_NONNULL(tensor, 2);
  THArgCheck(size != NULL, 3, "expected a size storage, got NULL");
  THArgCheck(size->size >= tensor->priv.dim && size->size <= THFFI_MAX_DIMS, 3,
             "the number of sizes provided (%lld) must be at least the tensor's "
             "dimensions (%d)", (long long)size->size, tensor->priv.dim);
  THFFI_F(apply)(r, THFFI_OP_EXPAND, tensor, (int)size->size, size->data);
}

THFFI_T *THFFI_F(newExpand)(THFFI_STATE THFFI_T *tensor, THLongStorage *size) {
  THFFI_T *self = THFFI_F(newWithTensor)(THFFI_ST tensor);
  THFFI_F(expand)(THFFI_ST self, tensor, size);
  return self;
}

void THFFI_F(expandNd)(THFFI_STATE THFFI_T **rets, THFFI_T **ops, int count) {
  int64_t shape[THFFI_MAX_DIMS];
  THLongStorage *size;
  int i, d, dim = 0;
  THArgCheck(count > 0 && rets != NULL && ops != NULL, 3, "expected tensors to expand");
  for (i = 0; i < count; i++) {
    THArgCheck(ops[i] != NULL && rets[i] != NULL, i + 1, "tensor %d is NULL", i);
    if (ops[i]->priv.dim > dim) dim = ops[i]->priv.dim;
  }
  for (d = 0; d < dim; d++) shape[d] = 1;
  for (i = 0; i < count; i++) {  /* numpy's rule, aligned on the last dimension */
    int off = dim - ops[i]->priv.dim;
    for (d = 0; d < ops[i]->priv.dim; d++) {
      int64_t s = ops[i]->size[d];
      if (s == 1) continue;
      if (shape[off + d] != 1 && shape[off + d] != s)
        THError("The size of tensor %d (%lld) must match the existing size (%lld) at "
                "non-singleton dimension %d", i, (long long)s, (long long)shape[off + d], d);
      shape[off + d] = s;
    }
  }
  size = THLongStorage_newWithSize(dim);
  memcpy(size->data, shape, dim * sizeof(int64_t));
  for (i = 0; i < count; i++) THFFI_F(expand)(THFFI_ST rets[i], ops[i], size);
  THLongStorage_free(size);
}

void THFFI_F(resize)(THFFI_STATE THFFI_T *self, THLongStorage *size, THLongStorage *stride) {
  THArgCheck(size != NULL, 2, "expected a size storage, got NULL");
  THFFI_F(resizeNd)(THFFI_ST self, (int)size->size, size->data, stride ? stride->data : NULL);
}

void THFFI_F(unfold)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension, int64_t size,
                     int64_t step) {
  int64_t args[3];
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  THArgCheck(src->priv.dim > 0, 1, "cannot unfold an empty tensor");
  THArgCheck(dimension >= 0 && dimension < src->priv.dim, 2,
             "dimension %d out of range of %dD tensor", dimension, src->priv.dim);
  THArgCheck(size >= 0 && size <= src->size[dimension], 3,
             "size %lld out of range for dimension %d of size %lld", (long long)size,
             dimension, (long long)src->size[dimension]);
  THArgCheck(step > 0, 4, "invalid step %lld", (long long)step);
  args[0] = dimension; args[1] = size; args[2] = step;
  THFFI_F(apply)(self, THFFI_OP_UNFOLD, src, 3, args);
}

void THFFI_F(squeeze)(THFFI_STATE THFFI_T *self, THFFI_T *src) {
  int64_t args[4];
  int d, kept = 0;
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  for (d = 0; d < src->priv.dim; d++) kept += src->size[d] != 1;
  if (kept == 0 && src->priv.dim > 0) {
    /* TH had no 0-d tensors: one element keeps one dimension */
    args[0] = 0; args[1] = 1; args[2] = 1; args[3] = 1;
    THFFI_F(apply)(self, THFFI_OP_STRIDED, src, 4, args);
    return;
  }
  THFFI_F(apply)(self, THFFI_OP_SQUEEZE, src, 0, NULL);
}

void THFFI_F(squeeze1d)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension) {
  int64_t args[1];
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  THArgCheck(dimension >= 0 && dimension < src->priv.dim, 3,
             "dimension %d out of range of %dD tensor", dimension, src->priv.dim);
  if (src->size[dimension] != 1 || src->priv.dim == 1) {
    THFFI_F(set)(THFFI_ST self, src);
    return;
  }
  args[0] = dimension;
  THFFI_F(apply)(self, THFFI_OP_SQUEEZE, src, 1, args);
}

void THFFI_F(unsqueeze1d)(THFFI_STATE THFFI_T *self, THFFI_T *src, int dimension) {
  int64_t args[1];
  THFFI_NONNULL(self, 1);
  if (src == NULL) src = self;
  THArgCheck(dimension >= 0 && dimension <= src->priv.dim, 3,
             "dimension %d out of range of %dD tensor (0 to %d)", dimension, src->priv.dim,
             src->priv.dim);
  THArgCheck(src->priv.dim < THFFI_MAX_DIMS, 2, "too many dimensions");
  args[0] = dimension;
  THFFI_F(apply)(self, THFFI_OP_UNSQUEEZE, src, 1, args);
}

int THFFI_F(isSetTo)(THFFI_STATE const THFFI_T *self, const THFFI_T *src) {
  int d;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  if (self->storage == NULL || src->storage == NULL ||
      self->storage->data != src->storage->data || self->storageOffset != src->storageOffset ||
      self->priv.dim != src->priv.dim)
    return 0;
  for (d = 0; d < self->priv.dim; d++)
    if (self->size[d] != src->size[d] || self->stride[d] != src->stride[d]) return 0;
  return 1;
}

int THFFI_F(isSize)(THFFI_STATE const THFFI_T *self, const THLongStorage *dims) {
  int d;
  THFFI_NONNULL(self, 1);
  THArgCheck(dims != NULL, 2, "expected a size storage, got NULL");
  if (self->priv.dim != dims->size) return 0;
  for (d = 0; d < self->priv.dim; d++)
    if (self->size[d] != dims->data[d]) return 0;
  return 1;
}

THLongStorage *THFFI_F(newSizeOf)(THFFI_STATE THFFI_T *self) {
  THLongStorage *size;
  THFFI_NONNULL(self, 1);
  size = THLongStorage_newWithSize(self->priv.dim);
  memcpy(size->data, self->size, self->priv.dim * sizeof(int64_t));
  return size;
}

THLongStorage *THFFI_F(newStrideOf)(THFFI_STATE THFFI_T *self) {
  THLongStorage *stride;
  THFFI_NONNULL(self, 1);
  THFFI_LAYOUT_READ(self);
  stride = THLongStorage_newWithSize(self->priv.dim);
  memcpy(stride->data, self->stride, self->priv.dim * sizeof(int64_t));
  return stride;
}

void THFFI_F(freeCopyTo)(THFFI_STATE THFFI_T *self, THFFI_T *dst) {
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(dst, 2);
  if (self != dst) THFFI_F(copy)(THFFI_ST dst, self);
  THFFI_F(free)(THFFI_ST self);
}

void THFFI_F(setFlag)(THFFI_STATE THFFI_T *self, const char flag) {
  THFFI_NONNULL(self, 1);
  self->flag |= flag;
}

void THFFI_F(clearFlag)(THFFI_STATE THFFI_T *self, const char flag) {
  THFFI_NONNULL(self, 1);
  self->flag &= ~flag;
}

/* "a x b x c" (or "[a x b x c]" with brackets) into buf. */
static THDescBuff THFFI_F(describe)(const THFFI_T *tensor, const char *prefix,
                                    const char *sep, const char *close) {
  THDescBuff buf;
  size_t n;
  int d;
  n = (size_t)snprintf(buf.str, sizeof buf.str, "%s", prefix);
  for (d = 0; d < tensor->priv.dim && n < sizeof buf.str; d++)
    n += (size_t)snprintf(buf.str + n, sizeof buf.str - n, "%s%lld", d ? sep : "",
                          (long long)tensor->size[d]);
  if (n < sizeof buf.str) snprintf(buf.str + n, sizeof buf.str - n, "%s", close);
  if (n >= sizeof buf.str - 1) memcpy(buf.str + sizeof buf.str - 4, "...", 4);
  return buf;
}

THDescBuff THFFI_F(desc)(THFFI_STATE const THFFI_T *tensor) {
  THFFI_NONNULL(tensor, 1);
  return THFFI_F(describe)(tensor, THFFI_TYPE_NAME " of size ", "x", "");
}

THDescBuff THFFI_F(sizeDesc)(THFFI_STATE const THFFI_T *tensor) {
  THFFI_NONNULL(tensor, 1);
  return THFFI_F(describe)(tensor, "[", " x ", "]");
}

/* ---- storages (TH's generic/THStorage.c) ---- */

static real *THFFI_SF(at)(const THFFI_S *self, ptrdiff_t index) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  THArgCheck(index >= 0 && index < self->size, 2, "index %lld out of bounds of a storage of %lld",
             (long long)index, (long long)self->size);
  return self->data + index;
}

void THFFI_SF(set)(THFFI_STATE THFFI_S *self, ptrdiff_t index, real value) {
  real *at = THFFI_SF(at)(self, index);
#ifdef THFFI_THC
  cudaStream_t stream = THCState_getCurrentStream(state);
  THCudaCheck(cudaMemcpyAsync(at, &value, sizeof(real), cudaMemcpyHostToDevice, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
#else
  *at = value;
#endif
}

real THFFI_SF(get)(THFFI_STATE const THFFI_S *self, ptrdiff_t index) {
  real *at = THFFI_SF(at)(self, index);
#ifdef THFFI_THC
  real value;
  cudaStream_t stream = THCState_getCurrentStream(state);
  THCudaCheck(cudaMemcpyAsync(&value, at, sizeof(real), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return value;
#else
  return *at;
#endif
}

#ifdef THFFI_THC
int THFFI_SF(elementSize)(THCState *state) {
  (void)state;
  return (int)sizeof(real);
}
#else
size_t THFFI_SF(elementSize)(void) { return sizeof(real); }
#endif

THFFI_S *THFFI_SF(newWithSize)(THFFI_STATE ptrdiff_t size) {
  int64_t n[1];
  THFFI_T *holder;
  THArgCheck(size >= 0, 1, "negative storage size %lld", (long long)size);
  n[0] = size;
  /* a struct no tensor uses, whose storage_ is the storage */
  holder = THFFI_F(create)(THFFI_OP_NEW, NULL, THFFI_NEW_DEVICE, 1, n);
  holder->refcount = 0;
  holder->storage_.flag = TH_STORAGE_REFCOUNTED | TH_STORAGE_RESIZABLE | TH_STORAGE_FREEMEM;
  return &holder->storage_;
}

THFFI_S *THFFI_SF(new)(THFFI_STATE_ONLY) { return THFFI_SF(newWithSize)(THFFI_ST 0); }

THFFI_S *THFFI_SF(newWithSize1)(THFFI_STATE real data0) {
  THFFI_S *self = THFFI_SF(newWithSize)(THFFI_ST 1);
  THFFI_SF(set)(THFFI_ST self, 0, data0);
  return self;
}

THFFI_S *THFFI_SF(newWithSize2)(THFFI_STATE real data0, real data1) {
  THFFI_S *self = THFFI_SF(newWithSize)(THFFI_ST 2);
  THFFI_SF(set)(THFFI_ST self, 0, data0);
  THFFI_SF(set)(THFFI_ST self, 1, data1);
  return self;
}

THFFI_S *THFFI_SF(newWithSize3)(THFFI_STATE real data0, real data1, real data2) {
  THFFI_S *self = THFFI_SF(newWithSize)(THFFI_ST 3);
  THFFI_SF(set)(THFFI_ST self, 0, data0);
  THFFI_SF(set)(THFFI_ST self, 1, data1);
  THFFI_SF(set)(THFFI_ST self, 2, data2);
  return self;
}

THFFI_S *THFFI_SF(newWithSize4)(THFFI_STATE real data0, real data1, real data2, real data3) {
  THFFI_S *self = THFFI_SF(newWithSize)(THFFI_ST 4);
  THFFI_SF(set)(THFFI_ST self, 0, data0);
  THFFI_SF(set)(THFFI_ST self, 1, data1);
  THFFI_SF(set)(THFFI_ST self, 2, data2);
  THFFI_SF(set)(THFFI_ST self, 3, data3);
  return self;
}

/* ---- storages over memory given to them (TH's generic/THStorage.c) ---- */

/* A storage of `size` elements at `data`, which it owns from now on: once
 * the storage and every torch tensor viewing it are gone, release(allocator,
 * ctx, data) frees the memory, as TH's allocator did.  Not resizable. */
static THFFI_S *THFFI_SF(wrap)(THFFI_STATE real *data, ptrdiff_t size, THFFIRelease release,
                               void *allocator, void *ctx) {
  int64_t args[5];
  THFFI_T *holder;
  THArgCheck(size >= 0, 2, "negative storage size %lld", (long long)size);
  THArgCheck(data != NULL || size == 0, 1, "expected memory for %lld elements, got NULL",
             (long long)size);
  args[0] = (int64_t)(uintptr_t)data;
  args[1] = size;
  args[2] = (int64_t)(uintptr_t)release;
  args[3] = (int64_t)(uintptr_t)allocator;
  args[4] = (int64_t)(uintptr_t)ctx;
  holder = THFFI_F(create)(THFFI_OP_WRAP, NULL, THFFI_NEW_DEVICE, 5, args);
  holder->refcount = 0;
  holder->storage_.flag = TH_STORAGE_REFCOUNTED | TH_STORAGE_FREEMEM;
  return &holder->storage_;
}

#ifdef THFFI_THC
/* `data` from THCudaMalloc (legacy THC's default allocator), freed into
 * PyTorch's caching allocator with the storage. */
THFFI_S *THFFI_SF(newWithData)(THCState *state, real *data, ptrdiff_t size) {
  THFFI_S *self = THFFI_SF(wrap)(state, data, size, THCFFI_releaseCudaMalloc, NULL, NULL);
  THCFFI_keepAlloc((uintptr_t)data);  /* the storage's now, also if the call fails */
  return self;
}

THFFI_S *THFFI_SF(newWithDataAndAllocator)(THCState *state, real *data, ptrdiff_t size,
                                           THCDeviceAllocator *allocator, void *ctx) {
  THArgCheck(allocator != NULL, 4, "expected an allocator, got NULL");
  return THFFI_SF(wrap)(state, data, size, THCFFI_releaseWithDeviceAllocator, allocator, ctx);
}

THFFI_S *THFFI_SF(newWithAllocator)(THCState *state, ptrdiff_t size,
                                    THCDeviceAllocator *allocator, void *ctx) {
  void *data = NULL;
  THArgCheck(allocator != NULL, 3, "expected an allocator, got NULL");
  THArgCheck(size >= 0, 2, "negative storage size %lld", (long long)size);
  if (size > 0)
    THCudaCheck(allocator->malloc(ctx, &data, (size_t)size * sizeof(real),
                                  THCState_getCurrentStream(state)));
  return THFFI_SF(wrap)(state, (real *)data, size, THCFFI_releaseWithDeviceAllocator, allocator,
                        ctx);
}

THFFI_S *THFFI_SF(newWithMapping)(THCState *state, const char *filename, ptrdiff_t size,
                                  int shared) {
  (void)state; (void)filename; (void)size; (void)shared;
  THError("not available yet for THCStorage");  /* as legacy THC */
  return NULL;
}
#else
/* `data` from malloc or THAlloc, freed with the storage (TH's default
 * allocator). */
THFFI_S *THFFI_SF(newWithData)(real *data, ptrdiff_t size) {
  return THFFI_SF(wrap)(data, size, THFFI_releaseWithAllocator, &THDefaultAllocator, NULL);
}

THFFI_S *THFFI_SF(newWithDataAndAllocator)(real *data, ptrdiff_t size, THAllocator *allocator,
                                           void *allocatorContext) {
  THArgCheck(allocator != NULL, 3, "expected an allocator, got NULL");
  return THFFI_SF(wrap)(data, size, THFFI_releaseWithAllocator, allocator, allocatorContext);
}

THFFI_S *THFFI_SF(newWithAllocator)(ptrdiff_t size, THAllocator *allocator,
                                    void *allocatorContext) {
  real *data;
  THArgCheck(allocator != NULL, 2, "expected an allocator, got NULL");
  THArgCheck(size >= 0, 1, "negative storage size %lld", (long long)size);
  data = (real *)allocator->malloc(allocatorContext, size * (ptrdiff_t)sizeof(real));
  THArgCheck(data != NULL || size == 0, 2, "the allocator returned NULL for %lld bytes",
             (long long)(size * (ptrdiff_t)sizeof(real)));
  return THFFI_SF(wrap)(data, size, THFFI_releaseWithAllocator, allocator, allocatorContext);
}

THFFI_S *THFFI_SF(thffiNewWithAllocator2)(ptrdiff_t size, THAllocator *allocator) {
  return THFFI_SF(newWithAllocator)(size, allocator, NULL);
}

/* The file's bytes as elements, shared with the file or a private copy. */
THFFI_S *THFFI_SF(newWithMapping)(const char *filename, ptrdiff_t size, int flags) {
  ptrdiff_t bytes;
  void *data;
  THArgCheck(size >= 0, 2, "negative storage size %lld", (long long)size);
  bytes = size * (ptrdiff_t)sizeof(real);
  data = THFFI_mapFile(filename, &bytes, flags);
  return THFFI_SF(wrap)((real *)data, bytes / (ptrdiff_t)sizeof(real), THFFI_releaseMapping,
                        NULL, (void *)(uintptr_t)bytes);
}
#endif

void THFFI_SF(setFlag)(THFFI_STATE THFFI_S *self, const char flag) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  self->flag |= flag;
}

void THFFI_SF(clearFlag)(THFFI_STATE THFFI_S *self, const char flag) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  self->flag &= ~flag;
}

void THFFI_SF(retain)(THFFI_STATE THFFI_S *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  __atomic_add_fetch(&self->refcount, 1, __ATOMIC_RELAXED);
}

void THFFI_SF(free)(THFFI_STATE THFFI_S *self) {
  THFFI_T *owner;
  if (self == NULL) return;
  owner = THFFI_F(ownerOf)(self);
  if (owner == NULL) {
    THFFI_F(unref)(&self->refcount, "storage");
  } else {
    THArgCheck(__atomic_load_n(&self->refcount, __ATOMIC_RELAXED) > 0, 1,
               "storage freed more times than retained");
    THFFI_F(dropStorage)(owner);
  }
}

void THFFI_SF(resize)(THFFI_STATE THFFI_S *self, ptrdiff_t size) {
  THFFI_T *owner;
  int64_t n[1];
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  THArgCheck(size >= 0, 2, "negative storage size %lld", (long long)size);
  owner = THFFI_F(ownerOf)(self);
  THArgCheck(owner != NULL && (self->flag & TH_STORAGE_RESIZABLE) && owner->refcount == 0, 1,
             "Trying to resize storage that is not resizable (only a storage made by "
             "THStorage_new* is)");
  n[0] = size;
  THFFI_F(apply)(owner, THFFI_OP_RESIZE, NULL, 1, n);
}

#undef THFFI_DTYPE
#undef THFFI_LAYOUT_READ

#endif
