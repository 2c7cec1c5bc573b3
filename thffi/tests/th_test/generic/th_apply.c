/* TH_TENSOR_APPLY, APPLY2, APPLY3 and APPLY2_D over tensors of any layout,
 * as legacy TH code used them; checked by tests/test_th_struct.py against
 * torch on the same (transposed, sliced) views. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_apply.c"
#else

/* a = a * 2; b = a + 1 (in a's logical order); c = a * b + c; then idx[i]
 * = the index along dimension dim of idx's element i.  Returns the number
 * of elements the first loop saw. */
int64_t TH_CONCAT_3(th_apply_, Real, _tour)(THTensor *a, THTensor *b, THTensor *c,
                                            THTensor *idx, int dim) {
  int64_t seen = 0;
  TH_TENSOR_APPLY(real, a, *a_data = *a_data * 2; seen++;);
  TH_TENSOR_APPLY2(real, b, real, a, *b_data = *a_data + 1;);
  TH_TENSOR_APPLY3(real, c, real, a, real, b, *c_data = *a_data * *b_data + *c_data;);
  TH_TENSOR_APPLY2_D(real, idx, real, a, dim, *idx_data = (real)*idx_dimOffset;);
  return seen;
}

/* APPLY2 over tensors of different numbers of elements: THError. */
void TH_CONCAT_3(th_apply_, Real, _mismatch)(THTensor *a, THTensor *b) {
  TH_TENSOR_APPLY2(real, a, real, b, *a_data = *b_data;);
}

#endif
