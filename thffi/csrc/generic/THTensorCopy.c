#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensorCopy.c"
#else

/* Defines THTensor_(copy##NAME)(self, src) for a source tensor of TH type
 * TH##NAME##Tensor holding SRC_REAL: a range [begin, end) of logical
 * indices converted by one thread, and the function that checks and runs
 * it over the tensor. */
#define THFFI_COPY_FROM(NAME, SRC_REAL)                                                  \
  static THFFI_NOINLINE void THTensor_(copy##NAME##Range)(real *pa, const THFFIIter *ia,                \
                                           const SRC_REAL *pb, const THFFIIter *ib,      \
                                           int64_t begin, int64_t end) {                 \
    THFFIIter a, b;                                                                      \
    int64_t n = end - begin;                                                             \
    THFFIIter_start(&a, ia, begin);                                                      \
    THFFIIter_start(&b, ib, begin);                                                      \
    while (n > 0) {                                                                      \
      int64_t k = THMin(THMin(a.run, b.run), n), i;                                      \
      int64_t sa = a.stride[a.dim - 1], sb = b.stride[b.dim - 1];                        \
      real *ra = pa + a.offset;                                                          \
      const SRC_REAL *rb = pb + b.offset;                                                \
      if (sa == 1 && sb == 1) {                                                          \
        for (i = 0; i < k; i++) ra[i] = (real)rb[i];                                     \
      } else {                                                                           \
        for (i = 0; i < k; i++) ra[i * sa] = (real)rb[i * sb];                           \
      }                                                                                  \
      THFFIIter_advance(&a, k);                                                          \
      THFFIIter_advance(&b, k);                                                          \
      n -= k;                                                                            \
    }                                                                                    \
  }                                                                                      \
                                                                                         \
  void THTensor_(copy##NAME)(THTensor *self, TH##NAME##Tensor *src) {                    \
    THFFIIter a, b;                                                                      \
    real *pa;                                                                            \
    const SRC_REAL *pb;                                                                  \
    int64_t n, m;                                                                        \
    THFFI_NONNULL(self, 1);                                                              \
    THFFI_NONNULL(src, 2);                                                               \
    n = THTensor_(nElement)(self);                                                       \
    m = TH##NAME##Tensor_nElement(src);                                                  \
    THArgCheck(n == m, 2, "sizes do not match: %lld elements vs %lld", (long long)n,     \
               (long long)m);                                                            \
    pa = THFFI_DATA(self);                                                               \
    pb = THFFI_DATA(src);                                                                \
    THFFIIter_init(&a, self->priv.dim, self->size, self->stride);                        \
    THFFIIter_init(&b, src->priv.dim, src->size, src->stride);                           \
    THFFI_PARALLEL(n, begin, end, THTensor_(copy##NAME##Range)(pa, &a, pb, &b, begin, end)); \
  }

THFFI_COPY_FROM(Byte, uint8_t)
THFFI_COPY_FROM(Char, int8_t)
THFFI_COPY_FROM(Short, int16_t)
THFFI_COPY_FROM(Int, int32_t)
THFFI_COPY_FROM(Long, int64_t)
THFFI_COPY_FROM(Float, float)
THFFI_COPY_FROM(Double, double)

#undef THFFI_COPY_FROM

#endif
