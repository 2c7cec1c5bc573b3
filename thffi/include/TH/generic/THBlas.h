#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THBlas.h"
#else

/* Vectors are n elements, incx (incy) apart.  Matrices are column-major:
 * element (i, j) of a at a[i + j * lda].  trans 'n' or 't' (either case).
 * With n == 1 the increments and leading dimensions that cannot matter are
 * taken as 1 and m, as TH did, so a caller passing 0 for them works. */

/* x <-> y */
TH_API void THBlas_(swap)(int64_t n, real *x, int64_t incx, real *y, int64_t incy);
/* x = a x */
TH_API void THBlas_(scal)(int64_t n, real a, real *x, int64_t incx);
/* y = x */
TH_API void THBlas_(copy)(int64_t n, real *x, int64_t incx, real *y, int64_t incy);
/* y += a x */
TH_API void THBlas_(axpy)(int64_t n, real a, real *x, int64_t incx, real *y, int64_t incy);
/* x . y */
TH_API real THBlas_(dot)(int64_t n, real *x, int64_t incx, real *y, int64_t incy);
/* y = alpha op(a) x + beta y, a m x n */
TH_API void THBlas_(gemv)(char trans, int64_t m, int64_t n, real alpha, real *a, int64_t lda,
                          real *x, int64_t incx, real beta, real *y, int64_t incy);
/* a += alpha x y^T, a m x n */
TH_API void THBlas_(ger)(int64_t m, int64_t n, real alpha, real *x, int64_t incx, real *y,
                         int64_t incy, real *a, int64_t lda);
/* c = alpha op(a) op(b) + beta c; c m x n, op(a) m x k, op(b) k x n */
TH_API void THBlas_(gemm)(char transa, char transb, int64_t m, int64_t n, int64_t k, real alpha,
                          real *a, int64_t lda, real *b, int64_t ldb, real beta, real *c,
                          int64_t ldc);

#endif
