#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THBlas.c"
#else

/* Float and double call SciPy's routine (THBlas.c says why) when every size,
 * increment and leading dimension fits in its int, as TH called BLAS; the
 * integer types, and what does not fit, are loops. */
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
#define THFFI_BLAS 1
#ifdef TH_REAL_IS_FLOAT
#define THFFI_BLAS_NAME(name) "s" #name
#else
#define THFFI_BLAS_NAME(name) "d" #name
#endif
/* The SciPy routine `name` for this type, as a pointer of type `type`. */
#define THFFI_BLAS_FN(name, type)                                                  \
  ((type)THFFI_scipyFunction(&TH_CONCAT_3(thffi_blas_, name, Real),                \
                             "scipy.linalg.cython_blas", THFFI_BLAS_NAME(name),    \
                             TH_CONCAT_STRING_3(TH, Real, Blas_) #name))
static void *TH_CONCAT_2(thffi_blas_swap, Real), *TH_CONCAT_2(thffi_blas_scal, Real),
    *TH_CONCAT_2(thffi_blas_copy, Real), *TH_CONCAT_2(thffi_blas_axpy, Real),
    *TH_CONCAT_2(thffi_blas_dot, Real), *TH_CONCAT_2(thffi_blas_gemv, Real),
    *TH_CONCAT_2(thffi_blas_ger, Real), *TH_CONCAT_2(thffi_blas_gemm, Real);
#else
#define THFFI_BLAS 0
#endif

#define THFFI_FITS(x) ((x) <= INT_MAX && (x) >= INT_MIN)

void THBlas_(swap)(int64_t n, real *x, int64_t incx, real *y, int64_t incy) {
  int64_t i;
  if (n == 1) incx = incy = 1;
#if THFFI_BLAS
  if (THFFI_FITS(n) && THFFI_FITS(incx) && THFFI_FITS(incy)) {
    int n_ = (int)n, incx_ = (int)incx, incy_ = (int)incy;
    THFFI_BLAS_FN(swap, void (*)(int *, real *, int *, real *, int *))(&n_, x, &incx_, y, &incy_);
    return;
  }
#endif
  for (i = 0; i < n; i++) {
    real t = x[i * incx];
    x[i * incx] = y[i * incy];
    y[i * incy] = t;
  }
}

void THBlas_(scal)(int64_t n, real a, real *x, int64_t incx) {
  int64_t i;
  if (n == 1) incx = 1;
#if THFFI_BLAS
  if (THFFI_FITS(n) && THFFI_FITS(incx)) {
    int n_ = (int)n, incx_ = (int)incx;
    THFFI_BLAS_FN(scal, void (*)(int *, real *, real *, int *))(&n_, &a, x, &incx_);
    return;
  }
#endif
  /* a == 0 writes zeros (a NaN or infinity in x does not survive), as BLAS */
  for (i = 0; i < n; i++) x[i * incx] = a == 0 ? 0 : x[i * incx] * a;
}

void THBlas_(copy)(int64_t n, real *x, int64_t incx, real *y, int64_t incy) {
  int64_t i;
  if (n == 1) incx = incy = 1;
#if THFFI_BLAS
  if (THFFI_FITS(n) && THFFI_FITS(incx) && THFFI_FITS(incy)) {
    int n_ = (int)n, incx_ = (int)incx, incy_ = (int)incy;
    THFFI_BLAS_FN(copy, void (*)(int *, real *, int *, real *, int *))(&n_, x, &incx_, y, &incy_);
    return;
  }
#endif
  for (i = 0; i < n; i++) y[i * incy] = x[i * incx];
}

void THBlas_(axpy)(int64_t n, real a, real *x, int64_t incx, real *y, int64_t incy) {
  int64_t i;
  if (n == 1) incx = incy = 1;
#if THFFI_BLAS
  if (THFFI_FITS(n) && THFFI_FITS(incx) && THFFI_FITS(incy)) {
    int n_ = (int)n, incx_ = (int)incx, incy_ = (int)incy;
    THFFI_BLAS_FN(axpy, void (*)(int *, real *, real *, int *, real *, int *))(
        &n_, &a, x, &incx_, y, &incy_);
    return;
  }
#endif
  for (i = 0; i < n; i++) y[i * incy] += a * x[i * incx];
}

real THBlas_(dot)(int64_t n, real *x, int64_t incx, real *y, int64_t incy) {
  int64_t i;
  real sum = 0;
  if (n == 1) incx = incy = 1;
#if THFFI_BLAS
  if (THFFI_FITS(n) && THFFI_FITS(incx) && THFFI_FITS(incy)) {
    int n_ = (int)n, incx_ = (int)incx, incy_ = (int)incy;
    return THFFI_BLAS_FN(dot, real (*)(int *, real *, int *, real *, int *))(
        &n_, x, &incx_, y, &incy_);
  }
#endif
  for (i = 0; i < n; i++) sum += x[i * incx] * y[i * incy];
  return sum;
}

void THBlas_(gemv)(char trans, int64_t m, int64_t n, real alpha, real *a, int64_t lda,
                   real *x, int64_t incx, real beta, real *y, int64_t incy) {
  int transposed = trans == 't' || trans == 'T';
  int64_t i, j, rows = transposed ? n : m, cols = transposed ? m : n;
  if (n == 1) lda = m;
#if THFFI_BLAS
  if (THFFI_FITS(m) && THFFI_FITS(n) && THFFI_FITS(lda) && incx > 0 && THFFI_FITS(incx) &&
      incy > 0 && THFFI_FITS(incy)) {
    int m_ = (int)m, n_ = (int)n, lda_ = (int)lda, incx_ = (int)incx, incy_ = (int)incy;
    THArgCheck(lda >= THMax(1, m), 6, "lda should be at least max(1, m=%" PRId64 "), but have %" PRId64,
               m, lda);
    THFFI_BLAS_FN(gemv, void (*)(char *, int *, int *, real *, real *, int *, real *, int *,
                                 real *, real *, int *))(&trans, &m_, &n_, &alpha, a, &lda_, x,
                                                         &incx_, &beta, y, &incy_);
    return;
  }
#endif
  /* y (rows) = alpha op(a) x (cols) + beta y; beta == 0 ignores y */
  for (i = 0; i < rows; i++) {
    real sum = 0;
    for (j = 0; j < cols; j++)
      sum += (transposed ? a[j + i * lda] : a[i + j * lda]) * x[j * incx];
    y[i * incy] = beta == 0 ? alpha * sum : beta * y[i * incy] + alpha * sum;
  }
}

void THBlas_(ger)(int64_t m, int64_t n, real alpha, real *x, int64_t incx, real *y, int64_t incy,
                  real *a, int64_t lda) {
  int64_t i, j;
  if (n == 1) lda = m;
#if THFFI_BLAS
  if (THFFI_FITS(m) && THFFI_FITS(n) && THFFI_FITS(lda) && incx > 0 && THFFI_FITS(incx) &&
      incy > 0 && THFFI_FITS(incy)) {
    int m_ = (int)m, n_ = (int)n, lda_ = (int)lda, incx_ = (int)incx, incy_ = (int)incy;
    THArgCheck(lda >= THMax(1, m), 9, "lda should be at least max(1, m=%" PRId64 "), but have %" PRId64,
               m, lda);
    THFFI_BLAS_FN(ger, void (*)(int *, int *, real *, real *, int *, real *, int *, real *, int *))(
        &m_, &n_, &alpha, x, &incx_, y, &incy_, a, &lda_);
    return;
  }
#endif
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) a[i + j * lda] += alpha * y[j * incy] * x[i * incx];
}

void THBlas_(gemm)(char transa, char transb, int64_t m, int64_t n, int64_t k, real alpha,
                   real *a, int64_t lda, real *b, int64_t ldb, real beta, real *c, int64_t ldc) {
  int ta = transa == 't' || transa == 'T', tb = transb == 't' || transb == 'T';
  int64_t i, j, l;
  /* leading dimensions that a single row or column makes irrelevant */
  if (n == 1) ldc = m;
  if (ta ? m == 1 : k == 1) lda = ta ? k : m;
  if (tb ? k == 1 : n == 1) ldb = tb ? n : k;
#if THFFI_BLAS
  if (THFFI_FITS(m) && THFFI_FITS(n) && THFFI_FITS(k) && THFFI_FITS(lda) && THFFI_FITS(ldb) &&
      THFFI_FITS(ldc)) {
    int m_ = (int)m, n_ = (int)n, k_ = (int)k, lda_ = (int)lda, ldb_ = (int)ldb, ldc_ = (int)ldc;
    THArgCheck(lda >= THMax(1, ta ? k : m), 8,
               "lda should be at least max(1, %" PRId64 "), but have %" PRId64, ta ? k : m, lda);
    THArgCheck(ldb >= THMax(1, tb ? n : k), 10,
               "ldb should be at least max(1, %" PRId64 "), but have %" PRId64, tb ? n : k, ldb);
    THArgCheck(ldc >= THMax(1, m), 13,
               "ldc should be at least max(1, m=%" PRId64 "), but have %" PRId64, m, ldc);
    THFFI_BLAS_FN(gemm, void (*)(char *, char *, int *, int *, int *, real *, real *, int *,
                                 real *, int *, real *, real *, int *))(
        &transa, &transb, &m_, &n_, &k_, &alpha, a, &lda_, b, &ldb_, &beta, c, &ldc_);
    return;
  }
#endif
  /* c(i, j) = alpha sum_l op(a)(i, l) op(b)(l, j) + beta c(i, j); beta == 0
   * ignores c */
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      real sum = 0;
      for (l = 0; l < k; l++)
        sum += (ta ? a[l + i * lda] : a[i + l * lda]) * (tb ? b[j + l * ldb] : b[l + j * ldb]);
      c[i + j * ldc] = beta == 0 ? alpha * sum : beta * c[i + j * ldc] + alpha * sum;
    }
}

#undef THFFI_FITS
#undef THFFI_BLAS
#ifdef THFFI_BLAS_NAME
#undef THFFI_BLAS_NAME
#undef THFFI_BLAS_FN
#endif

#endif
