#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THVector.c"
#else

void THVector_(fill)(real *x, const real c, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) x[i] = c;
}

void THVector_(cadd)(real *z, const real *x, const real *y, const real c, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) z[i] = x[i] + c * y[i];
}

void THVector_(adds)(real *y, const real *x, const real c, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = x[i] + c;
}

void THVector_(cmul)(real *z, const real *x, const real *y, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) z[i] = x[i] * y[i];
}

void THVector_(muls)(real *y, const real *x, const real c, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = x[i] * c;
}

void THVector_(cdiv)(real *z, const real *x, const real *y, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) z[i] = x[i] / y[i];
}

void THVector_(divs)(real *y, const real *x, const real c, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = x[i] / c;
}

void THVector_(copy)(real *y, const real *x, const ptrdiff_t n) {
  memmove(y, x, (size_t)n * sizeof(real));
}

void THVector_(neg)(real *y, const real *x, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = -x[i];
}

void THVector_(normal_fill)(real *data, const int64_t size, struct THGenerator *generator,
                            const real mean, const real stddev) {
  int64_t i;
  for (i = 0; i < size; i++) data[i] = (real)THRandom_normal(generator, mean, stddev);
}

void THVector_(vectorDispatchInit)(void) {}

#ifndef TH_REAL_IS_INT
void THVector_(cvtFromInt)(real *y, const int *x, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = (real)x[i];
}
#endif

#if !defined(TH_REAL_IS_BYTE) && !defined(TH_REAL_IS_CHAR)
void THVector_(abs)(real *y, const real *x, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = x[i] < 0 ? -x[i] : x[i];
}
#endif

#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
#define THFFI_VECTOR_MAP(NAME, EXPR)                                       \
  void THVector_(NAME)(real *y, const real *x, const ptrdiff_t n) {        \
    ptrdiff_t i;                                                           \
    for (i = 0; i < n; i++) {                                              \
      double v = x[i];                                                     \
      y[i] = (real)(EXPR);                                                 \
    }                                                                      \
  }
THFFI_VECTOR_MAP(log, log(v))
THFFI_VECTOR_MAP(lgamma, lgamma(v))
THFFI_VECTOR_MAP(digamma, TH_digamma(v))
THFFI_VECTOR_MAP(trigamma, TH_trigamma(v))
THFFI_VECTOR_MAP(log10, log10(v))
THFFI_VECTOR_MAP(log1p, log1p(v))
THFFI_VECTOR_MAP(log2, log2(v))
THFFI_VECTOR_MAP(sigmoid, 1 / (1 + exp(-v)))
THFFI_VECTOR_MAP(exp, exp(v))
THFFI_VECTOR_MAP(expm1, expm1(v))
THFFI_VECTOR_MAP(erf, erf(v))
THFFI_VECTOR_MAP(erfc, erfc(v))
THFFI_VECTOR_MAP(erfinv, TH_erfinv(v))
THFFI_VECTOR_MAP(cos, cos(v))
THFFI_VECTOR_MAP(acos, acos(v))
THFFI_VECTOR_MAP(cosh, cosh(v))
THFFI_VECTOR_MAP(sin, sin(v))
THFFI_VECTOR_MAP(asin, asin(v))
THFFI_VECTOR_MAP(sinh, sinh(v))
THFFI_VECTOR_MAP(tan, tan(v))
THFFI_VECTOR_MAP(atan, atan(v))
THFFI_VECTOR_MAP(tanh, tanh(v))
THFFI_VECTOR_MAP(sqrt, sqrt(v))
THFFI_VECTOR_MAP(rsqrt, 1 / sqrt(v))
THFFI_VECTOR_MAP(ceil, ceil(v))
THFFI_VECTOR_MAP(floor, floor(v))
THFFI_VECTOR_MAP(round, round(v))
THFFI_VECTOR_MAP(trunc, trunc(v))
THFFI_VECTOR_MAP(frac, v - trunc(v))
THFFI_VECTOR_MAP(cinv, 1 / v)
#undef THFFI_VECTOR_MAP

void THVector_(pow)(real *y, const real *x, const real c, const ptrdiff_t n) {
  ptrdiff_t i;
  for (i = 0; i < n; i++) y[i] = (real)pow(x[i], c);
}
#endif

#endif
