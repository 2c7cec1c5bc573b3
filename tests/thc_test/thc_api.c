#include <THC/THC.h>

extern THCState *state;

#define TH_GENERIC_FILE "generic/thc_api.c"
#include "THC/THCGenerateAllTypes.h"

/* c (m x n) = a (m x k) . b (k x n), all row-major and contiguous: cuBLAS is
 * column-major, so this computes c^T = b^T . a^T. */
void thc_api_sgemm(THCudaTensor *a, THCudaTensor *b, THCudaTensor *c) {
  int64_t m = THCudaTensor_size(state, a, 0), k = THCudaTensor_size(state, a, 1);
  int64_t n = THCudaTensor_size(state, b, 1);
  THCudaTensor_resize2d(state, c, m, n);
  THCudaBlas_Sgemm(state, 'n', 'n', n, m, k, 1.0f, THCudaTensor_data(state, b), n,
                   THCudaTensor_data(state, a), k, 0.0f, THCudaTensor_data(state, c), n);
}

void thc_api_dgemm(THCudaDoubleTensor *a, THCudaDoubleTensor *b, THCudaDoubleTensor *c) {
  int64_t m = THCudaDoubleTensor_size(state, a, 0), k = THCudaDoubleTensor_size(state, a, 1);
  int64_t n = THCudaDoubleTensor_size(state, b, 1);
  THCudaDoubleTensor_resize2d(state, c, m, n);
  THCudaBlas_Dgemm(state, 'n', 'n', n, m, k, 1.0, THCudaDoubleTensor_data(state, b), n,
                   THCudaDoubleTensor_data(state, a), k, 0.0, THCudaDoubleTensor_data(state, c), n);
}
