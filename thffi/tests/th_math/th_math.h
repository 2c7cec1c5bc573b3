/* tests/th_math/generic/th_math.c, one per type, and th_math.c. */
void th_math_Float_pointwise(THFloatTensor *a, THFloatTensor *b, THFloatTensor *r_add, THFloatTensor *r_cmul,
    THFloatTensor *r_addcmul, THFloatTensor *r_clamp, THByteTensor *r_lt, THFloatTensor *r_geT, THFloatTensor *r_unary);
double th_math_Float_reduce(THFloatTensor *a, THFloatTensor *r_sum, THFloatTensor *r_max, THLongTensor *r_argmax,
    THFloatTensor *r_cumsum, THFloatTensor *r_mean);
void th_math_Float_blas(THFloatTensor *m, THFloatTensor *n, THFloatTensor *v, THFloatTensor *r_mm, THFloatTensor *r_mv, THFloatTensor *r_dot);
void th_math_Float_index(THFloatTensor *a, THLongTensor *idx, THByteTensor *mask, THFloatTensor *r_sel,
    THFloatTensor *r_masked, THFloatTensor *r_sort, THLongTensor *r_sorti, THFloatTensor *r_topk, THLongTensor *r_topki,
    THFloatTensor *r_cat, THFloatTensor *r_catarray);
void th_math_Float_random(THFloatTensor *u, THFloatTensor *n);
void th_math_Float_bad_addmm(THFloatTensor *a);
void th_math_Float_lapack(THFloatTensor *a, THFloatTensor *b, THFloatTensor *spd, THFloatTensor *r_x, THFloatTensor *r_lu,
    THFloatTensor *r_inv, THFloatTensor *r_chol, THFloatTensor *r_pchol, THIntTensor *r_piv);
void th_math_Double_pointwise(THDoubleTensor *a, THDoubleTensor *b, THDoubleTensor *r_add, THDoubleTensor *r_cmul,
    THDoubleTensor *r_addcmul, THDoubleTensor *r_clamp, THByteTensor *r_lt, THDoubleTensor *r_geT, THDoubleTensor *r_unary);
double th_math_Double_reduce(THDoubleTensor *a, THDoubleTensor *r_sum, THDoubleTensor *r_max, THLongTensor *r_argmax,
    THDoubleTensor *r_cumsum, THDoubleTensor *r_mean);
void th_math_Double_blas(THDoubleTensor *m, THDoubleTensor *n, THDoubleTensor *v, THDoubleTensor *r_mm, THDoubleTensor *r_mv, THDoubleTensor *r_dot);
void th_math_Double_index(THDoubleTensor *a, THLongTensor *idx, THByteTensor *mask, THDoubleTensor *r_sel,
    THDoubleTensor *r_masked, THDoubleTensor *r_sort, THLongTensor *r_sorti, THDoubleTensor *r_topk, THLongTensor *r_topki,
    THDoubleTensor *r_cat, THDoubleTensor *r_catarray);
void th_math_Double_random(THDoubleTensor *u, THDoubleTensor *n);
void th_math_Double_bad_addmm(THDoubleTensor *a);
void th_math_Double_lapack(THDoubleTensor *a, THDoubleTensor *b, THDoubleTensor *spd, THDoubleTensor *r_x, THDoubleTensor *r_lu,
    THDoubleTensor *r_inv, THDoubleTensor *r_chol, THDoubleTensor *r_pchol, THIntTensor *r_piv);
void th_math_Long_pointwise(THLongTensor *a, THLongTensor *b, THLongTensor *r_add, THLongTensor *r_cmul,
    THLongTensor *r_addcmul, THLongTensor *r_clamp, THByteTensor *r_lt, THLongTensor *r_geT, THLongTensor *r_unary);
int64_t th_math_Long_reduce(THLongTensor *a, THLongTensor *r_sum, THLongTensor *r_max, THLongTensor *r_argmax,
    THLongTensor *r_cumsum, THLongTensor *r_mean);
void th_math_Long_blas(THLongTensor *m, THLongTensor *n, THLongTensor *v, THLongTensor *r_mm, THLongTensor *r_mv, THLongTensor *r_dot);
void th_math_Long_index(THLongTensor *a, THLongTensor *idx, THByteTensor *mask, THLongTensor *r_sel,
    THLongTensor *r_masked, THLongTensor *r_sort, THLongTensor *r_sorti, THLongTensor *r_topk, THLongTensor *r_topki,
    THLongTensor *r_cat, THLongTensor *r_catarray);
void th_math_Long_random(THLongTensor *u, THLongTensor *n);
void th_math_Long_bad_addmm(THLongTensor *a);
void th_math_omp_row_sums(THFloatTensor *a, THDoubleTensor *sums);
void th_math_omp_bad_row(THFloatTensor *a);
double th_math_vector(THDoubleTensor *x, THDoubleTensor *dig, THDoubleTensor *trig,
                      THDoubleTensor *erfinv, THDoubleTensor *sq);
