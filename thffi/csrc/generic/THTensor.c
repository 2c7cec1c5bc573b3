#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensor.c"
#else

real *THStorage_(data)(const THStorage *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->data;
}

ptrdiff_t THStorage_(size)(const THStorage *self) {
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  return self->size;
}

/* Points self at a tensor's memory: data is the address of its first
 * element; size and stride have `dim` entries and outlive the call. */
static void THTensor_(setView)(THTensor *self, real *data, int dim,
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

void THTensor_(thffiWrap)(THTensor *self, uintptr_t data, int dim,
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
  THTensor_(setView)(self, (real *)data, dim, (int64_t *)size, (int64_t *)stride);
}

real *THTensor_(data)(const THTensor *self) {
  THFFI_NONNULL(self, 1);
  if (self->storage == NULL) return NULL;
  return self->storage->data + self->storageOffset;
}

THStorage *THTensor_(storage)(const THTensor *self) {
  THFFI_NONNULL(self, 1);
  return self->storage;
}

ptrdiff_t THTensor_(storageOffset)(const THTensor *self) {
  THFFI_NONNULL(self, 1);
  return self->storageOffset;
}

int THTensor_(nDimension)(const THTensor *self) {
  THFFI_NONNULL(self, 1);
  return self->nDimension;
}

int64_t THTensor_(size)(const THTensor *self, int dim) {
  THFFI_NONNULL(self, 1);
  THArgCheck(dim >= 0 && dim < self->priv.dim, 2,
             "dimension %d out of range of %dD tensor", dim, self->priv.dim);
  return self->size[dim];
}

int64_t THTensor_(stride)(const THTensor *self, int dim) {
  THFFI_NONNULL(self, 1);
  THArgCheck(dim >= 0 && dim < self->priv.dim, 2,
             "dimension %d out of range of %dD tensor", dim, self->priv.dim);
  return self->stride[dim];
}

ptrdiff_t THTensor_(nElement)(const THTensor *self) {
  THFFI_NONNULL(self, 1);
  return (ptrdiff_t)THFFI_numel(self->priv.dim, self->size);
}

int THTensor_(isContiguous)(const THTensor *self) {
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

int THTensor_(isSameSizeAs)(const THTensor *self, const THTensor *src) {
  int d;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  if (self->priv.dim != src->priv.dim) return 0;
  for (d = 0; d < self->priv.dim; d++)
    if (self->size[d] != src->size[d]) return 0;
  return 1;
}

void THTensor_(resizeNd)(THTensor *self, int nDimension, const int64_t *size,
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
  THTensor_(setView)(self, (real *)data, nDimension, self->priv.size_buf,
                     self->priv.stride_buf);
}

void THTensor_(resizeAs)(THTensor *self, const THTensor *src) {
  THFFI_NONNULL(src, 2);
  THTensor_(resizeNd)(self, src->priv.dim, src->size, NULL);
}

void THTensor_(resize1d)(THTensor *self, int64_t size0) {
  int64_t size[1];
  size[0] = size0;
  THTensor_(resizeNd)(self, 1, size, NULL);
}

void THTensor_(resize2d)(THTensor *self, int64_t size0, int64_t size1) {
  int64_t size[2];
  size[0] = size0; size[1] = size1;
  THTensor_(resizeNd)(self, 2, size, NULL);
}

void THTensor_(resize3d)(THTensor *self, int64_t size0, int64_t size1, int64_t size2) {
  int64_t size[3];
  size[0] = size0; size[1] = size1; size[2] = size2;
  THTensor_(resizeNd)(self, 3, size, NULL);
}

void THTensor_(resize4d)(THTensor *self, int64_t size0, int64_t size1,
                         int64_t size2, int64_t size3) {
  int64_t size[4];
  size[0] = size0; size[1] = size1; size[2] = size2; size[3] = size3;
  THTensor_(resizeNd)(self, 4, size, NULL);
}

static void THTensor_(iter)(THFFIIter *it, const THTensor *t) {
  THFFIIter_init(it, t->priv.dim, t->size, t->stride);
}

void THTensor_(fill)(THTensor *self, real value) {
  THFFIIter a;
  real *pa = THTensor_(data)(self);
  int64_t n = THTensor_(nElement)(self);
  THTensor_(iter)(&a, self);
  while (n > 0) {
    int64_t k = a.run, i, sa = a.stride[a.dim - 1];
    real *ra = pa + a.offset;
    if (sa == 1) {
      for (i = 0; i < k; i++) ra[i] = value;
    } else {
      for (i = 0; i < k; i++) ra[i * sa] = value;
    }
    THFFIIter_advance(&a, k);
    n -= k;
  }
}

void THTensor_(zero)(THTensor *self) { THTensor_(fill)(self, (real)0); }

void THTensor_(copy)(THTensor *self, THTensor *src) {
  THFFIIter a, b;
  real *pa, *pb;
  int64_t n;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  pa = THTensor_(data)(self);
  pb = THTensor_(data)(src);
  n = THTensor_(nElement)(self);
  THArgCheck(n == THTensor_(nElement)(src), 2,
             "sizes do not match: %lld elements vs %lld",
             (long long)n, (long long)THTensor_(nElement)(src));
  THTensor_(iter)(&a, self);
  THTensor_(iter)(&b, src);
  while (n > 0) {
    int64_t k = THMin(a.run, b.run), i;
    int64_t sa = a.stride[a.dim - 1], sb = b.stride[b.dim - 1];
    real *ra = pa + a.offset, *rb = pb + b.offset;
    if (sa == 1 && sb == 1) {
      memmove(ra, rb, k * sizeof(real));
    } else {
      for (i = 0; i < k; i++) ra[i * sa] = rb[i * sb];
    }
    THFFIIter_advance(&a, k);
    THFFIIter_advance(&b, k);
    n -= k;
  }
}

void THTensor_(cadd)(THTensor *r, THTensor *t, real value, THTensor *src) {
  THFFIIter a, b, c;
  real *pa, *pb, *pc;
  int64_t n;
  THFFI_NONNULL(r, 1);
  THFFI_NONNULL(t, 2);
  THFFI_NONNULL(src, 4);
  n = THTensor_(nElement)(t);
  THArgCheck(n == THTensor_(nElement)(src), 4,
             "sizes do not match: %lld elements vs %lld",
             (long long)n, (long long)THTensor_(nElement)(src));
  THTensor_(resizeAs)(r, t);
  pa = THTensor_(data)(r);
  pb = THTensor_(data)(t);
  pc = THTensor_(data)(src);
  THTensor_(iter)(&a, r);
  THTensor_(iter)(&b, t);
  THTensor_(iter)(&c, src);
  while (n > 0) {
    int64_t k = THMin(THMin(a.run, b.run), c.run), i;
    int64_t sa = a.stride[a.dim - 1], sb = b.stride[b.dim - 1], sc = c.stride[c.dim - 1];
    real *ra = pa + a.offset, *rb = pb + b.offset, *rc = pc + c.offset;
    if (sa == 1 && sb == 1 && sc == 1) {
      for (i = 0; i < k; i++) ra[i] = rb[i] + value * rc[i];
    } else {
      for (i = 0; i < k; i++) ra[i * sa] = rb[i * sb] + value * rc[i * sc];
    }
    THFFIIter_advance(&a, k);
    THFFIIter_advance(&b, k);
    THFFIIter_advance(&c, k);
    n -= k;
  }
}

#endif
