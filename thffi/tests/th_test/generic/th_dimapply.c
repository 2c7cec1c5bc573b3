/* The dimension-apply macros (TH_TENSOR_DIM_APPLY, 2 and 3) in the legacy
 * generic idiom, as scatter and cluster code used them; checked by
 * tests/test_th_api.py against torch. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_dimapply.c"
#else

/* Along dimension dim: out[..., index[j], ...] += src[..., j, ...] (index
 * and src the same shape, out the same apart from dim); then cumsum, the
 * running sum of out along dim; then out reversed along dim in place. */
void TH_CONCAT_3(th_dimapply_, Real, _tour)(THTensor *out, THTensor *src, THLongTensor *index,
                                            THTensor *cumsum, int dim) {
  THTensor_(resizeAs)(cumsum, out);
  TH_TENSOR_DIM_APPLY3(real, out, real, src, int64_t, index, dim,
                       TH_TENSOR_DIM_APPLY3_SIZE_EQ_EXCEPT_DIM,
    int64_t j;
    for (j = 0; j < index_size; j++) {
      int64_t k = index_data[j * index_stride];
      if (k < 0 || k >= out_size) {
        THFree(TH_TENSOR_DIM_APPLY_counter);
        THError("index %lld out of range [0, %lld)", (long long)k, (long long)out_size);
      }
      out_data[k * out_stride] += src_data[j * src_stride];
    })
  TH_TENSOR_DIM_APPLY2(real, cumsum, real, out, dim,
    real sum = 0;
    int64_t j;
    for (j = 0; j < out_size; j++) {
      sum += out_data[j * out_stride];
      cumsum_data[j * cumsum_stride] = sum;
    })
  TH_TENSOR_DIM_APPLY(real, out, dim,
    int64_t j;
    for (j = 0; j < out_size / 2; j++) {
      real t = out_data[j * out_stride];
      out_data[j * out_stride] = out_data[(out_size - 1 - j) * out_stride];
      out_data[(out_size - 1 - j) * out_stride] = t;
    })
}

#endif
