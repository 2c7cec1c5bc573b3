#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensorOps.c"
#else

void THStorage_(fill)(THStorage *self, real value) {
  ptrdiff_t i;
  THArgCheck(self != NULL, 1, "expected a storage, got NULL");
  for (i = 0; i < self->size; i++) self->data[i] = value;
}

static void THTensor_(iter)(THFFIIter *it, const THTensor *t) {
  THFFIIter_init(it, t->priv.dim, t->size, t->stride);
}

/* Float and double loops get SIMD variants (THFFI_SIMD); the integer types
 * rarely carry the heavy work, and compiling them three times over would
 * slow every first build. */
#undef THFFI_SIMD_FOR_REAL
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
#define THFFI_SIMD_FOR_REAL THFFI_SIMD
#else
#define THFFI_SIMD_FOR_REAL
#endif

/* Each op below is a loop over a range [begin, end) of logical element
 * indices, run over the whole tensor by THFFI_PARALLEL (csrc/THTensorOps.c).
 * A range never raises: checks come before. */

THFFI_SIMD_FOR_REAL static void THTensor_(fillRange)(real *pa, const THFFIIter *ia, real value, int64_t begin,
                                 int64_t end) {
  THFFIIter a;
  int64_t n = end - begin;
  THFFIIter_start(&a, ia, begin);
  while (n > 0) {
    int64_t k = THMin(a.run, n), i, sa = a.stride[a.dim - 1];
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

void THTensor_(fill)(THTensor *self, real value) {
  THFFIIter a;
  real *pa;
  int64_t n;
  THFFI_NONNULL(self, 1);
  pa = THFFI_DATA(self);
  n = THTensor_(nElement)(self);
  THTensor_(iter)(&a, self);
  THFFI_PARALLEL(n, begin, end, THTensor_(fillRange)(pa, &a, value, begin, end));
}

void THTensor_(zero)(THTensor *self) {
  real zero;
  memset(&zero, 0, sizeof zero);  /* 0 of every type, half's bits included */
  THTensor_(fill)(self, zero);
}

THFFI_SIMD_FOR_REAL static void THTensor_(copyRange)(real *pa, const THFFIIter *ia, real *pb, const THFFIIter *ib,
                                 int64_t begin, int64_t end) {
  THFFIIter a, b;
  int64_t n = end - begin;
  THFFIIter_start(&a, ia, begin);
  THFFIIter_start(&b, ib, begin);
  while (n > 0) {
    int64_t k = THMin(THMin(a.run, b.run), n), i;
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

void THTensor_(copy)(THTensor *self, THTensor *src) {
  THFFIIter a, b;
  real *pa, *pb;
  int64_t n;
  THFFI_NONNULL(self, 1);
  THFFI_NONNULL(src, 2);
  pa = THFFI_DATA(self);
  pb = THFFI_DATA(src);
  n = THTensor_(nElement)(self);
  THArgCheck(n == THTensor_(nElement)(src), 2,
             "sizes do not match: %lld elements vs %lld",
             (long long)n, (long long)THTensor_(nElement)(src));
  THTensor_(iter)(&a, self);
  THTensor_(iter)(&b, src);
  THFFI_PARALLEL(n, begin, end, THTensor_(copyRange)(pa, &a, pb, &b, begin, end));
}

#ifndef TH_REAL_IS_HALF  /* no arithmetic on half in C */
THFFI_SIMD_FOR_REAL static void THTensor_(caddRange)(real *pa, const THFFIIter *ia, real *pb, const THFFIIter *ib,
                                 real *pc, const THFFIIter *ic, real value, int64_t begin,
                                 int64_t end) {
  THFFIIter a, b, c;
  int64_t n = end - begin;
  THFFIIter_start(&a, ia, begin);
  THFFIIter_start(&b, ib, begin);
  THFFIIter_start(&c, ic, begin);
  while (n > 0) {
    int64_t k = THMin(THMin(THMin(a.run, b.run), c.run), n), i;
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
  pa = THFFI_DATA(r);
  pb = THFFI_DATA(t);
  pc = THFFI_DATA(src);
  THTensor_(iter)(&a, r);
  THTensor_(iter)(&b, t);
  THTensor_(iter)(&c, src);
  THFFI_PARALLEL(n, begin, end,
                 THTensor_(caddRange)(pa, &a, pb, &b, pc, &c, value, begin, end));
}

#endif  /* TH_REAL_IS_HALF */

#endif
