/* TH math, random and LAPACK calls in the legacy generic idiom, once per
 * type (th_math.c includes this for Float, Double and Long); checked
 * against PyTorch by tests/test_th_math.py.  Result tensors come in of any
 * size: the TH functions resize them, as TH did. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_math.c"
#else

#define TH_MATH(NAME) TH_CONCAT_4(th_math_, Real, _, NAME)

/* Element-wise: a and b of one shape (any strides). */
void TH_MATH(pointwise)(THTensor *a, THTensor *b, THTensor *r_add, THTensor *r_cmul,
                        THTensor *r_addcmul, THTensor *r_clamp, THByteTensor *r_lt,
                        THTensor *r_geT, THTensor *r_unary) {
  THTensor_(add)(r_add, a, 3);
  THTensor_(cmul)(r_cmul, a, b);
  THTensor_(addcmul)(r_addcmul, a, 2, a, b);
  THTensor_(clamp)(r_clamp, a, 2, 7);
  THTensor_(ltValue)(r_lt, a, 4);
  THTensor_(geTensorT)(r_geT, a, b);
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
  THTensor_(sigmoid)(r_unary, a);
#else
  THTensor_(abs)(r_unary, a);
#endif
}

/* Reductions over a 2-D a (r_sum keeps its reduced dimension, as 0.4's
 * preserveReduceDimSemantics restores it); returns sumall(a) + prodall of
 * its first row. */
accreal TH_MATH(reduce)(THTensor *a, THTensor *r_sum, THTensor *r_max, THLongTensor *r_argmax,
                        THTensor *r_cumsum, THTensor *r_mean) {
  THTensor *row = THTensor_(new)();
  accreal total;
  THTensor_(sum)(r_sum, a, 1, 0);
  THTensor_(preserveReduceDimSemantics)(r_sum, 2, 1, 0);
  THTensor_(max)(r_max, r_argmax, a, 0, 1);
  THTensor_(cumsum)(r_cumsum, a, 1);
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
  THTensor_(std)(r_mean, a, 0, 0, 0);
#else
  THTensor_(prod)(r_mean, a, 0, 0);
#endif
  THTensor_(select)(row, a, 0, 0);
  total = THTensor_(sumall)(a) + THTensor_(prodall)(row);
  THTensor_(free)(row);
  return total;
}

/* m (p x q), n (q x s), v (q): r_mm = m n, r_mv = m v, r_dot = [v . v]. */
void TH_MATH(blas)(THTensor *m, THTensor *n, THTensor *v, THTensor *r_mm, THTensor *r_mv,
                   THTensor *r_dot) {
  THTensor_(resize2d)(r_mm, THTensor_(size)(m, 0), THTensor_(size)(n, 1));
  THTensor_(zero)(r_mm);
  THTensor_(addmm)(r_mm, 0, r_mm, 1, m, n);
  THTensor_(resize1d)(r_mv, THTensor_(size)(m, 0));
  THTensor_(zero)(r_mv);
  THTensor_(addmv)(r_mv, 0, r_mv, 1, m, v);
  THTensor_(resize1d)(r_dot, 1);
  THTensor_(set1d)(r_dot, 0, (real)THTensor_(dot)(v, v));
}

/* Selections of a 2-D a: columns idx, the elements where mask, each row
 * sorted descending, its top 2, a above a, a beside r_sel. */
void TH_MATH(index)(THTensor *a, THLongTensor *idx, THByteTensor *mask, THTensor *r_sel,
                    THTensor *r_masked, THTensor *r_sort, THLongTensor *r_sorti,
                    THTensor *r_topk, THLongTensor *r_topki, THTensor *r_cat,
                    THTensor *r_catarray) {
  THTensor *parts[2];
  THTensor_(indexSelect)(r_sel, a, 1, idx);
  THTensor_(maskedSelect)(r_masked, a, mask);
  THTensor_(sort)(r_sort, r_sorti, a, 1, 1);
  THTensor_(topk)(r_topk, r_topki, a, 2, 1, 1, 1);
  THTensor_(cat)(r_cat, a, a, 0);
  parts[0] = a;
  parts[1] = r_sel;
  THTensor_(catArray)(r_catarray, parts, 2, 1);
}

/* Random fills from a generator of our own (legacy code made one). */
void TH_MATH(random)(THTensor *u, THTensor *n) {
  THGenerator *gen = THGenerator_new();
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
  THTensor_(uniform)(u, gen, -1, 2);
  THTensor_(normal)(n, gen, 0, 1);
#else
  THTensor_(clampedRandom)(u, gen, -5, 5);
  THTensor_(cappedRandom)(n, gen, 10);
#endif
  THGenerator_free(gen);
}

/* addmm of shapes that do not fit: PyTorch refuses it. */
void TH_MATH(bad_addmm)(THTensor *a) {
  THTensor_(addmm)(a, 1, a, 1, a, a);
}

#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
/* a x = b (a square, b a matrix), a's inverse, the upper Cholesky factor
 * of spd, and its pivoted one with the pivots. */
void TH_MATH(lapack)(THTensor *a, THTensor *b, THTensor *spd, THTensor *r_x, THTensor *r_lu,
                     THTensor *r_inv, THTensor *r_chol, THTensor *r_pchol,
                     THIntTensor *r_piv) {
  THTensor_(gesv)(r_x, r_lu, b, a);
  THTensor_(getri)(r_inv, a);
  THTensor_(potrf)(r_chol, spd, "U");
  THTensor_(pstrf)(r_pchol, r_piv, spd, "U", -1);
}
#endif

#undef TH_MATH
#endif
