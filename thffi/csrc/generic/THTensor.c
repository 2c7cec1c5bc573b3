#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensor.c"
#else

/* The element of self at the `dims` indices idx, after checking that self
 * has exactly `dims` dimensions and every index is in range. */
static real *THTensor_(element)(const THTensor *self, int dims, const int64_t *idx) {
  int64_t offset = 0;
  int d;
  THFFI_NONNULL(self, 1);
  THArgCheck(self->priv.dim == dims, 1, "tensor must have %d dimension%s, got %d", dims,
             dims == 1 ? "" : "s", self->priv.dim);
  for (d = 0; d < dims; d++) {
    THArgCheck(idx[d] >= 0 && idx[d] < self->size[d], d + 2,
               "index %lld out of range for dimension %d of size %lld", (long long)idx[d],
               d, (long long)self->size[d]);
    offset += idx[d] * self->stride[d];
  }
  return self->storage->data + self->storageOffset + offset;
}

real THTensor_(get1d)(const THTensor *self, int64_t x0) {
  int64_t idx[1];
  idx[0] = x0;
  return *THTensor_(element)(self, 1, idx);
}

real THTensor_(get2d)(const THTensor *self, int64_t x0, int64_t x1) {
  int64_t idx[2];
  idx[0] = x0; idx[1] = x1;
  return *THTensor_(element)(self, 2, idx);
}

real THTensor_(get3d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2) {
  int64_t idx[3];
  idx[0] = x0; idx[1] = x1; idx[2] = x2;
  return *THTensor_(element)(self, 3, idx);
}

real THTensor_(get4d)(const THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3) {
  int64_t idx[4];
  idx[0] = x0; idx[1] = x1; idx[2] = x2; idx[3] = x3;
  return *THTensor_(element)(self, 4, idx);
}

void THTensor_(set1d)(THTensor *self, int64_t x0, real value) {
  int64_t idx[1];
  idx[0] = x0;
  *THTensor_(element)(self, 1, idx) = value;
}

void THTensor_(set2d)(THTensor *self, int64_t x0, int64_t x1, real value) {
  int64_t idx[2];
  idx[0] = x0; idx[1] = x1;
  *THTensor_(element)(self, 2, idx) = value;
}

void THTensor_(set3d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, real value) {
  int64_t idx[3];
  idx[0] = x0; idx[1] = x1; idx[2] = x2;
  *THTensor_(element)(self, 3, idx) = value;
}

void THTensor_(set4d)(THTensor *self, int64_t x0, int64_t x1, int64_t x2, int64_t x3,
                      real value) {
  int64_t idx[4];
  idx[0] = x0; idx[1] = x1; idx[2] = x2; idx[3] = x3;
  *THTensor_(element)(self, 4, idx) = value;
}

#endif
