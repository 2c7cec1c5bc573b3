/* tests/thc_math/thc_math.c */
void thc_math_mul_sum(THCudaTensor *a, THCudaTensor *r_mul, THCudaTensor *r_sum);
void thc_math_long_topk(THCudaLongTensor *a, THCudaLongTensor *r_topk, THCudaLongTensor *r_idx);
void thc_math_getrf(THCudaLongTensor *matrices, THCudaIntTensor *pivots, THCudaIntTensor *info,
                    int n);
