#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_blas.c"
#else

/* c = alpha op(a) op(b) + beta c; trans[0], trans[1]: 'n' or 't' */
void th_blas_(gemm)(const char *trans, real alpha, THTensor *a, THTensor *b, real beta,
                    THTensor *c) {
  long m = THTensor_(size)(c, 0), n = THTensor_(size)(c, 1);
  long k = trans[0] == 'n' ? THTensor_(size)(a, 1) : THTensor_(size)(a, 0);
  THBlas_(gemm)(trans[0], trans[1], m, n, k, alpha, THTensor_(data)(a), THTensor_(stride)(a, 1),
                THTensor_(data)(b), THTensor_(stride)(b, 1), beta, THTensor_(data)(c),
                THTensor_(stride)(c, 1));
}

/* y = alpha op(a) x + beta y, x and y vectors of any stride */
void th_blas_(gemv)(const char *trans, real alpha, THTensor *a, THTensor *x, real beta,
                    THTensor *y) {
  THBlas_(gemv)(trans[0], THTensor_(size)(a, 0), THTensor_(size)(a, 1), alpha, THTensor_(data)(a),
                THTensor_(stride)(a, 1), THTensor_(data)(x), THTensor_(stride)(x, 0), beta,
                THTensor_(data)(y), THTensor_(stride)(y, 0));
}

/* a += alpha x y^T */
void th_blas_(ger)(real alpha, THTensor *x, THTensor *y, THTensor *a) {
  THBlas_(ger)(THTensor_(size)(a, 0), THTensor_(size)(a, 1), alpha, THTensor_(data)(x),
               THTensor_(stride)(x, 0), THTensor_(data)(y), THTensor_(stride)(y, 0),
               THTensor_(data)(a), THTensor_(stride)(a, 1));
}

/* x . y; then y += alpha x, x *= alpha; then x and y swapped, and y's old
 * values (after the swap, x's) copied into z */
real th_blas_(level1)(real alpha, THTensor *x, THTensor *y, THTensor *z) {
  long n = THTensor_(nElement)(x);
  real *xd = THTensor_(data)(x), *yd = THTensor_(data)(y);
  long incx = THTensor_(stride)(x, 0), incy = THTensor_(stride)(y, 0);
  real dot = THBlas_(dot)(n, xd, incx, yd, incy);
  THBlas_(axpy)(n, alpha, xd, incx, yd, incy);
  THBlas_(scal)(n, alpha, xd, incx);
  THBlas_(swap)(n, xd, incx, yd, incy);
  THBlas_(copy)(n, xd, incx, THTensor_(data)(z), THTensor_(stride)(z, 0));
  return dot;
}

#endif
